"""The pages' guards: CSRF on every form and page endpoint (the JSON API stays exempt), the
seat held in an HttpOnly, SameSite=Lax, lasting cookie, and bad input of every kind answered
with a friendly page or flash that says what was wrong, never a 500 or a traceback."""

from __future__ import annotations

import html
import json
import time

import pytest
from pages_support import (
    FLEETS,
    PURCHASE,
    Page,
    Phone,
    Table,
    buy,
    create_game,
    join,
    open_table,
    path_of,
    purchase_of,
    save_draft,
    set_up,
    turn_of,
)

from referee import service
from referee.states import replayed

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def stored(table):
    return replayed(table.app.extensions["referee.store"](), table.id)


def friendly(response, *, says: str = "") -> str:
    """The response is a page (or JSON for a script) that says what was wrong: never a 500."""
    text = response.get_data(as_text=True)
    assert response.status_code < 500, text[:800]
    assert "Traceback" not in text and "werkzeug" not in text.lower()
    if response.mimetype == "text/html":
        problems = Page(text)
        assert problems.find("html", lang="en") and problems.title, text[:500]
        said = html.unescape(" ".join(Phone.flashes(None, response)) + text)
    else:
        assert response.mimetype == "application/json", response.mimetype
        said = json.dumps(response.get_json())
        assert response.get_json()["errors"][0]["message"]
    assert says in said, (says, said[:1500])
    return said


@pytest.fixture
def table(app):
    return open_table(app)


@pytest.fixture
def playing(table):
    set_up(table, FLEETS)
    return table


# -- CSRF ---------------------------------------------------------------------------------------

def test_creating_a_game_without_a_token_is_refused_on_a_friendly_page(app):
    phone = Phone(app, "red")
    phone.get("/")
    for data in ({}, {"csrf_token": "forged"}):
        response = phone.post("/", data={"name": "Ann", "seats": "2", "minutes": "20", **data},
                              follow=False)
        assert response.status_code == 400 and response.mimetype == "text/html"
        friendly(response, says="CSRF token")
    assert "Your games on this phone" not in phone.get("/").text


def test_joining_without_a_token_is_refused_and_the_seat_stays_free(app):
    red = Phone(app, "red")
    game_id, links, _ = create_game(red)
    blue = Phone(app, "blue")
    response = blue.submit(path_of(links["blue"]), path_of(links["blue"]), {"name": "Bob"},
                           token=False)
    assert response.status_code == 400
    friendly(response, says="The CSRF token is missing")
    assert "link-blue" in red.get(f"/games/{game_id}/host").text  # still open
    assert join(blue, links["blue"], "Bob").request.path == f"/games/{game_id}"


SEAT_FORMS = [  # (page, action, data, the state that must not have changed)
    ("", "/budget", {"battleship": "15", "salvo": "60"}, "budget"),
    ("", "/lock", {}, "lock"),
    ("", "/move", {"weapon": "salvo", "at": "A 1, B 1, C 1", "key": "k"}, "move"),
    ("", "/end", {}, "end"),
    ("", "/resign", {}, "resign"),
    ("/host", "/host/reissue/blue", {}, "reissue"),
    ("/host", "/host/clock", {"minutes": "5"}, "clock"),
    ("/host", "/host/forfeit/blue", {}, "forfeit"),
]


@pytest.mark.parametrize("page, action, data, what", SEAT_FORMS,
                         ids=[f[3] for f in SEAT_FORMS])
@pytest.mark.parametrize("token", [None, "forged", "another phone's"])
def test_every_game_form_is_refused_without_a_valid_token(app, monkeypatch, page, action,
                                                          data, what, token):
    table = open_table(app)
    if what == "forfeit":  # past the deadline, when a forfeit with a token would work
        later = time.time() + 3 * 3600
        monkeypatch.setattr(service.clock, "now", lambda: later)
    if what in ("move", "end", "resign"):
        set_up(table, FLEETS)
    elif what == "lock":
        buy(table.phones["red"], table.id, purchase_of(FLEETS["red"]))
        save_draft(table.phones["red"], table.id, FLEETS["red"])
    red = table.phones["red"] if what != "move" else table.phones[turn_of(table)]
    before = stored(table)
    base = f"/games/{table.id}"
    form_page = red.get(base + page)
    sent = dict(data)
    if token == "forged":
        sent["csrf_token"] = "ImZvcmdlZCI.forged.forged"
    elif token == "another phone's":
        other = Phone(app, "stranger")
        sent["csrf_token"] = Page(other.get("/").text).meta_csrf()
    response = red.post(base + action, data=sent)
    assert response.status_code == 200, response.status_code  # flashed, back on the page
    [problem] = red.flashes(response)
    assert problem.startswith("Problem:") and "CSRF" in problem, problem
    assert response.request.path == base + page
    after = stored(table)
    assert after.version == before.version  # nothing happened
    if what == "budget":
        assert "Your budget" in red.get(base).text
    if what == "reissue":
        assert table.phones["blue"].get(base).status_code == 200  # blue still plays
        assert Page(form_page.text).find("input", id="link-blue") == Page(
            red.get(base + page).text).find("input", id="link-blue")


def test_the_pages_json_endpoints_need_the_header_token(playing):
    red = playing.phones["red"]
    token = red.csrf(f"/games/{playing.id}")
    for path, body in ((f"/games/{playing.id}/marks", {"blue": {"K 1": "?"}}),
                       (f"/games/{playing.id}/draft", {"disposition": {}})):
        for header in (None, "forged"):
            response = red.post_json(path, body, token=header)
            assert response.status_code == 400 and response.mimetype == "application/json"
            friendly(response, says="CSRF")
    assert Page(red.get(f"/games/{playing.id}").text).page_data()["marks"] == {}
    # with the header, as the page's script sends it, the same request is accepted
    response = red.post(f"/games/{playing.id}/marks", data=json.dumps({"blue": {}}),
                        content_type="application/json",
                        headers={"Accept": "application/json", "X-CSRFToken": token})
    assert response.status_code == 200


def test_the_json_api_stays_csrf_exempt(app):
    phone = Phone(app, "script")
    response = phone.post("/api/v1/games", data=json.dumps({"seats": 2}),
                          content_type="application/json")
    assert response.status_code == 201, response.text
    created = response.get_json()
    response = phone.post(f"/api/v1/games/{created['id']}/seats/blue", data=json.dumps(
        {"join_code": created["seats"]["blue"]["join_code"], "name": "Bot"}),
        content_type="application/json")
    assert response.status_code == 200 and response.get_json()["token"]


# -- the seat cookie ------------------------------------------------------------------------------

def test_the_seat_cookie_is_httponly_lax_and_outlives_the_browser(app):
    red = Phone(app, "red")
    red.get("/")
    token = Page(red.get("/").text).meta_csrf()
    created = red.post("/", data={"csrf_token": token, "name": "Ann", "seats": "2",
                                  "minutes": "20"}, follow=False)
    blue = Phone(app, "blue")
    link = Page(red.get(created.headers["Location"]).text).find("input", id="link-blue")[0]
    page = blue.get(path_of(link.attrs["value"]))
    joined = blue.post(path_of(link.attrs["value"]), data={
        "csrf_token": Page(page.text).meta_csrf(), "name": "Bob",
        "code": link.attrs["value"].split("code=")[1]}, follow=False)
    assert joined.status_code == 302
    for response in (created, joined):
        [cookie] = [c for c in response.headers.getlist("Set-Cookie")
                    if c.startswith("session=")]
        attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
        assert "httponly" in attributes
        assert "samesite=lax" in cookie.lower().replace(" ", "")
        assert "expires" in attributes or "max-age" in attributes  # permanent
    assert blue.cookie().http_only and blue.cookie().expires is not None


def test_a_poll_or_stream_sends_no_cookie_so_it_cannot_undo_a_moves_seat_or_message(playing):
    # a phone's poll begun before its move and answered after it would otherwise send back
    # the session as it read it, and the browser would keep that: the seat it just took, or
    # the message the move left for the next page, gone
    red = playing.phones["red"]
    base = f"/games/{playing.id}"
    for path in (base, f"{base}/status", f"{base}/stream"):
        response = red.get(path, headers=BROWSER)
        assert response.status_code == 200, (path, response.status_code)
        assert not [c for c in response.headers.getlist("Set-Cookie")
                    if c.startswith("session=")], path


def test_a_phone_without_the_cookie_holds_no_seat(playing):
    stranger = Phone(playing.app, "stranger")
    base = f"/games/{playing.id}"
    response = stranger.get(base, headers=BROWSER)
    assert response.status_code == 403 and response.mimetype == "text/html"
    said = friendly(response, says="This phone holds no seat in this game")
    assert "page-data" not in response.text and "Not your seat" in said
    status = stranger.get(base + "/status", headers={"Accept": "application/json"})
    assert status.status_code == 403 and status.mimetype == "application/json"
    token = Page(stranger.get("/").text).meta_csrf()
    response = stranger.post(base + "/move", data={"csrf_token": token, "weapon": "salvo",
                                                   "at": "A 1, B 1, C 1"}, headers=BROWSER)
    assert response.status_code == 403
    friendly(response, says="holds no seat")
    response = stranger.post_json(base + "/marks", {"blue": {}}, token=token)
    assert response.status_code == 403 and response.mimetype == "application/json"
    assert stranger.get(base + "/host").status_code == 403


def test_a_reissued_seat_locks_the_old_phone_out(table):
    red, blue = table.phones["red"], table.phones["blue"]
    base = f"/games/{table.id}"
    assert blue.get(base).status_code == 200
    response = red.submit(base + "/host", base + "/host/reissue/blue")
    assert response.request.path == base + "/host"
    assert "New join link for Blue" in red.flashes(response)[0]
    new_link = Page(response.text).find("input", id="link-blue")[0].attrs["value"]
    assert new_link != table.links["blue"]
    # the old phone: a friendly 403 page, for pages, the poll and forms alike
    response = blue.get(base, headers=BROWSER)
    assert response.status_code == 403
    friendly(response, says="handed to another device")
    assert blue.get(base + "/status").status_code == 403
    token = Page(blue.get("/").text).meta_csrf()
    response = blue.post(base + "/budget", data={"csrf_token": token, "battleship": "15",
                                                 "salvo": "60"}, headers=BROWSER)
    assert response.status_code == 403
    friendly(response, says="handed to another device")
    # the old link no longer works; the new one does, once
    old = join(Phone(table.app, "late"), table.links["blue"], "Eve")
    assert old.status_code == 403
    friendly(old, says="not the join code")
    fresh = Phone(table.app, "blue again")
    assert join(fresh, new_link, "Bob").request.path == base
    assert "Your budget" in fresh.get(base).text


# -- bad input ----------------------------------------------------------------------------------

# '<' and '>' are refused in names (R10); entities and quotes must still print
# as typed, never decoded into markup
HOSTILE = "'\"&amp;&lt;/script&gt;&#60;h1 id=x&#62;"


def test_a_players_name_cannot_break_out_of_any_page(app):
    """Names reach the other players' pages, inside HTML and inside the JSON block the page's
    script reads; neither may be ended by what a player calls himself."""
    assert len(HOSTILE) <= 40
    red = Phone(app, "red")
    game_id, links, _ = create_game(red, name=HOSTILE)
    blue = Phone(app, "blue")
    join(blue, links["blue"], HOSTILE[::-1])
    table = Table(app, game_id, {"red": red, "blue": blue}, links)
    base = f"/games/{game_id}"
    seen = [red.get(f"{base}/host"), blue.get(base)]
    set_up(table, FLEETS)
    seen += [red.get(base), blue.get(base)]
    for phone in (red, blue):
        phone.submit(base, f"{base}/end")
    seen += [red.get(base), blue.get(base)]
    for response in seen:
        page = Page(response.text)
        assert not page.find("h1", id="x"), response.request.path
        data = page.page_data()
        if data and "view" in data:
            assert data["view"]["seats"]["red"]["name"] == HOSTILE
            assert data["view"]["seats"]["blue"]["name"] == HOSTILE[::-1]
    assert "Game over" in seen[-1].text


@pytest.mark.parametrize("path", ["/games/0000000000", "/games/0000000000/join/blue?code=x",
                                  "/games/0000000000/status", "/games/nothing-here/qr/x.svg",
                                  "/no/such/page", "/games/%3Cscript%3E"])
def test_an_unknown_game_or_page_is_a_friendly_404_page(app, path):
    response = Phone(app, "lost").get(path, headers=BROWSER)
    assert response.status_code in (403, 404) and response.mimetype == "text/html"
    friendly(response)
    assert "<script>" not in response.text.replace(
        '<script type="module" src="/static/js/main.js">', "")
    if path.startswith("/games/0000000000") and "qr" not in path:
        assert response.status_code == 404 and "There is no game" in response.text


def test_error_pages_are_html_for_browsers_and_json_for_scripts(app):
    phone = Phone(app, "lost")
    for headers in (BROWSER, {}, {"Accept": "*/*"}, {"Accept": "text/html"}):
        response = phone.get("/games/0000000000", headers=headers)
        assert response.status_code == 404 and response.mimetype == "text/html", headers
        assert "<h1>Not found</h1>" in response.text
    response = phone.get("/games/0000000000", headers={"Accept": "application/json"})
    assert response.status_code == 404 and response.mimetype == "application/json"
    response = phone.get("/games/0000000000/move", headers=BROWSER)
    assert response.status_code == 405 and response.mimetype == "text/html"
    friendly(response, says="GET is not allowed here")


def test_a_wrong_join_code_is_a_403_and_a_taken_seat_a_409(table):
    base = f"/games/{table.id}"
    eve = Phone(table.app, "eve")
    response = join(eve, f"{base}/join/blue?code=not-the-code", "Eve")
    assert response.status_code == 403 and response.mimetype == "text/html"
    friendly(response, says="That is not the join code of the blue seat")
    response = join(eve, table.links["blue"], "Eve")  # Bob has it already
    assert response.status_code == 409 and response.mimetype == "text/html"
    friendly(response, says="The blue seat is already taken")
    response = join(eve, f"{base}/join/purple?code=x", "Eve")
    assert response.status_code == 404
    friendly(response, says="'purple' is not a seat")
    assert eve.get(base).status_code == 403


def test_a_phone_holding_a_seat_cannot_take_a_second_one(app):
    """One seat a phone: the host opening Green's link on his own phone would otherwise lose
    Red for good (no phone would hold it, and Red has no reissue or forfeit button)."""
    red = Phone(app, "red")
    game_id, links, _ = create_game(red, seats=3)
    response = join(red, links["green"], "Ann again")
    assert response.status_code == 409
    friendly(response, says="This phone already plays Red in this game")
    assert red.get(f"/games/{game_id}/status").get_json()["you"] == "red"
    green = Phone(app, "green")
    assert join(green, links["green"], "Gil").request.path == f"/games/{game_id}"
    # a phone whose seat was handed on may join again, with a new link
    red.submit(f"/games/{game_id}/host", f"/games/{game_id}/host/reissue/green")
    new_link = Page(red.get(f"/games/{game_id}/host").text).find(
        "input", id="link-green")[0].attrs["value"]
    assert join(green, new_link, "Gil").request.path == f"/games/{game_id}"


@pytest.mark.parametrize("value, says", [
    ("-1", "0 to 160 Battleships"),
    ("lots", "Not a valid integer value"),
    ("1e3", "Not a valid integer value"),
    ("99999999999999999999999999", "0 to 160 Battleships"),
    ("161", "0 to 160 Battleships"),
])
def test_bad_budget_numbers_are_flashed_naming_the_field(table, value, says):
    red = table.phones["red"]
    response = buy(red, table.id, {"battleship": value, "salvo": "60"})
    assert response.status_code == 200 and "Your budget" in response.text
    [problem] = red.flashes(response)
    assert "Battleships (4 pt each)" in problem and says in problem and "(R3)" in problem


@pytest.mark.parametrize("raw", [
    b"{not json", b"[]", b'"text"', b"null", b'{"disposition": []}', b'{"disposition": "x"}',
    b"\xff\xfe\x00", b'{"disposition": ' * 2000 + b"{}" + b"}" * 2000,
])
def test_a_malformed_draft_is_a_400_that_names_the_disposition(table, raw):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    token = red.csrf(f"/games/{table.id}")
    response = red.post_json(f"/games/{table.id}/draft", None, token=token, raw=raw)
    assert response.status_code == 400
    friendly(response, says="disposition")


@pytest.mark.parametrize("document", [
    {"guns": 5}, {"ships": None}, {"ships": "abc"}, {"land": {"A 1": 1}},
    {"ships": [{"type": []}, {"type": {"a": 1}}, 7, None]},
    {"aircraft": [{"type": "bomber", "at": ["A", 1]}], "land": [[1, 2]], "guns": [{}]},
    {"ships": [{"type": "battleship", "at": "A 1", "dir": "sideways"}]},
    {"ships": [{"type": "carrier", "at": "Z 40"}], "guns": ["A 0", "U 22", "", "K-10"]},
])
def test_a_nonsense_draft_gets_problems_not_a_500_and_cannot_be_locked_in(table, document):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    response = save_draft(red, table.id, document)
    assert response.status_code == 200, response.text
    result = response.get_json()
    assert not result["complete"] and result["problems"] or any(
        n > 0 for n in result["left"].values())
    assert all(isinstance(n, int) for n in result["left"].values())
    page = red.get(f"/games/{table.id}")
    assert page.status_code == 200 and "Place your fleet" in page.text
    response = red.submit(f"/games/{table.id}", f"/games/{table.id}/lock")
    assert response.status_code == 200 and "Place your fleet" in response.text
    [problem] = red.flashes(response)
    assert "(R5)" in problem or "(R" in problem
    assert stored(table).phase == "setup" and "red" not in stored(table).ready


@pytest.mark.parametrize("depth", [500, 950, 990, 5000])
def test_deeply_nested_json_is_refused_or_kept_harmlessly(table, depth):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    token = red.csrf(f"/games/{table.id}")
    nested = b"[" * depth + b"]" * depth
    for path, raw in (("draft", b'{"disposition": {"ships": ' + nested + b"}}"),
                      ("marks", b'{"blue": {"K 1": ' + nested + b"}}")):
        response = red.post_json(f"/games/{table.id}/{path}", None, token=token, raw=raw)
        assert response.status_code in (200, 400), (path, response.status_code)
        if response.status_code == 400:
            friendly(response, says="object")
    assert red.get(f"/games/{table.id}").status_code == 200
    response = red.submit(f"/games/{table.id}", f"/games/{table.id}/lock")
    assert response.status_code == 200 and red.flashes(response)


def test_an_oversized_body_is_refused_politely(table):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    token = red.csrf(f"/games/{table.id}")
    big = {"disposition": {"land": ["A 1"] * 20000}}
    response = red.post_json(f"/games/{table.id}/draft", big, token=token)
    assert response.status_code == 413
    friendly(response, says="too large")


@pytest.mark.parametrize("raw, says", [
    (b"[1, 2]", "Pencil marks"), (b'{"purple": {}}', "not a seat"),
    (b'{"blue": ["K 1"]}', "not a seat"), (b"{oops", "Pencil marks"),
    (json.dumps({"blue": {f"K {i}": "?" for i in range(3000)}}).encode(), "Pencil marks"),
])
def test_malformed_pencil_marks_are_refused(playing, raw, says):
    red = playing.phones["red"]
    token = red.csrf(f"/games/{playing.id}")
    response = red.post_json(f"/games/{playing.id}/marks", None, token=token, raw=raw)
    assert response.status_code == 400
    friendly(response, says=says)


@pytest.mark.parametrize("data, says", [
    ({"weapon": "salvo", "at": "A 1, B 1, ZZ 99"}, "(R1)"),
    ({"weapon": "salvo", "at": "A 0, B 1, C 1"}, "(R1)"),
    ({"weapon": "salvo", "at": "A 1, B 1, U 22"}, "rows run 1 to 21"),
    ({"weapon": "recon", "at": "V 3", "base": "A 1"}, "columns run A to U"),
    ({"weapon": "bomber", "at": "C 3", "base": "nowhere"}, "From (your aircraft's square)"),
    ({"weapon": "salvo", "at": "A 1, B 1, C 1" * 5}, "Target square(s): Field cannot be"),
    ({"weapon": "salvo", "at": "A 1, B 1, C 1", "target": "x" * 50}, "Opponent: Field"),
    ({"weapon": "", "at": "A 1"}, "Weapon: Not a valid choice"),
])
def test_squares_off_the_chart_and_other_bad_moves_are_flashed(playing, data, says):
    phone = playing.phones[turn_of(playing)]
    before = stored(playing).version
    page = phone.get(f"/games/{playing.id}")
    _, fields = Page(page.text).form(f"/games/{playing.id}/move")
    response = phone.post(f"/games/{playing.id}/move", data={**fields, **data})
    assert response.status_code == 200
    problems = phone.flashes(response)
    assert problems and all(p.startswith("Problem:") for p in problems), problems
    assert any(says in p for p in problems), problems
    assert stored(playing).version == before


def test_acting_out_of_phase_is_flashed_not_crashed(table):
    red = table.phones["red"]
    base = f"/games/{table.id}"
    token = red.csrf(base)
    for action, data, says in (("/move", {"weapon": "salvo", "at": "A 1, B 1, C 1"}, "play"),
                               ("/end", {}, ""), ("/resign", {}, ""), ("/lock", {}, "(R4)")):
        response = red.post(base + action, data={"csrf_token": token, **data})
        assert response.status_code == 200, (action, response.status_code)
        problems = red.flashes(response)
        assert problems and problems[0].startswith("Problem:"), (action, problems)
        assert says in problems[0]


def test_a_locked_in_player_cannot_change_his_fleet(table):
    red = table.phones["red"]
    buy(red, table.id, purchase_of(FLEETS["red"]))
    save_draft(red, table.id, FLEETS["red"])
    red.submit(f"/games/{table.id}", f"/games/{table.id}/lock")
    before = stored(table)
    token = red.csrf(f"/games/{table.id}")
    response = red.post(f"/games/{table.id}/budget", data={
        "csrf_token": token, "battleship": "15", "salvo": "60"})
    friendly(response)
    assert "Locked in" in response.text
    assert stored(table).version == before.version
    assert stored(table).fleets["red"].document == before.fleets["red"].document
