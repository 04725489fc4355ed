"""Every phone page and form works, with CSRF on, as a phone's browser would use them: create,
host (QR code and join link), join, budget (R3, R4), placement draft (R5-R9), lock in, play
(moves, refusals, double taps, pencil marks), agree to end, resign, the status poll and the
game-over page (R22). Forms are filled in from the page itself, CSRF token included."""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET

import pytest
from pages_support import (
    FLEETS,
    PURCHASE,
    Page,
    Phone,
    buy,
    create_game,
    join,
    lock,
    move,
    open_table,
    own_hosts,
    path_of,
    purchase_of,
    save_draft,
    set_up,
    strip_fleet,
    turn_of,
    view_of,
)

from referee import service
from referee.rulesets import RULE_SETS
from referee.states import replayed

SVG = "{http://www.w3.org/2000/svg}svg"
OWN_HOSTS = "(?:" + "|".join(re.escape(h) for h in own_hosts()) + ")"


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


@pytest.fixture
def table(app):
    return open_table(app)


@pytest.fixture
def playing(table):
    set_up(table, FLEETS)
    return table


def stored_game(app, game_id):
    return replayed(app.extensions["referee.store"](), game_id)


# -- home, host, join --------------------------------------------------------------------------

def test_home_page_offers_the_create_form(app):
    response = Phone(app, "red").get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = Page(response.text)
    _, fields = page.form("/", "/")
    assert {"csrf_token", "name", "seats", "minutes"} <= set(fields)
    values = [o.attrs["value"] for o in page.find("option", name=None)
              if o.attrs["value"] not in RULE_SETS]  # the game's own select comes first
    assert values[:3] == ["2", "3", "4"]
    # the sides (R23) a host may name, in plain words, replace the alliances box
    assert "red+green/blue+gold" in values and "red+green/blue" in values
    # and a game against the computer, at one of its levels, each game's own, weakest first
    # under its title
    levels = [v for v in values if ":" in v]
    assert levels == [f"{rules}:{level}" for rules, rule_set in RULE_SETS.items()
                      for level in rule_set.levels]
    assert levels[:3] == ["naval-war:recruit", "naval-war:cadet", "naval-war:midshipman"]


def test_creating_a_game_seats_the_creator_as_red_on_the_host_page(app):
    phone = Phone(app, "red")
    game_id, links, host = create_game(phone, name="Ann", seats=3, minutes=7)
    assert host.request.path == f"/games/{game_id}/host"
    assert "Ann" in host.text and set(links) == {"blue", "green"}
    status = phone.get(f"/games/{game_id}/status").get_json()
    assert status["you"] == "red" and status["joined"] == ["red"] and status["phase"] == "setup"
    assert abs(status["deadline"] - status["now"] - 7 * 60) < 5  # R10: the host's minutes
    game = stored_game(app, game_id)
    assert list(game.seats) == ["red", "blue", "green"] and not game.alliances
    # his own seat is a click away, and the home page lists the game
    assert phone.get(f"/games/{game_id}").request.path == f"/games/{game_id}"
    assert f"/games/{game_id}" in phone.get("/").text


def test_four_players_may_play_in_two_alliances(app):
    game_id, links, _ = create_game(Phone(app, "red"), seats=4, alliances=True)
    assert set(links) == {"blue", "green", "gold"}
    game = stored_game(app, game_id)
    assert game.side("red") == ("red", "green") and game.side("blue") == ("blue", "gold")


def test_alliances_with_fewer_than_four_players_are_refused_by_name(app):
    phone = Phone(app, "red")
    response = phone.submit("/", "/", {"name": "Ann", "seats": "2", "minutes": "20",
                                       "sides": "red+green/blue+gold"})
    assert response.status_code == 200 and response.request.path == "/"
    assert "is a game of four players, and you chose two" in response.text
    assert "(R23)" in response.text and "Your games on this phone" not in response.text


@pytest.mark.parametrize("data, field", [
    ({"name": "", "seats": "2", "minutes": "20"}, "name"),
    ({"name": "Ann", "seats": "2", "minutes": "0"}, "minutes"),
    ({"name": "Ann", "seats": "2", "minutes": "many"}, "minutes"),
    ({"name": "Ann", "seats": "2", "minutes": "99999999999999999999"}, "minutes"),
    ({"name": "Ann", "seats": "9", "minutes": "20"}, "seats"),
    ({"name": "A" * 41, "seats": "2", "minutes": "20"}, "name"),
])
def test_a_bad_create_form_is_shown_again_with_what_was_wrong(app, data, field):
    phone = Phone(app, "red")
    response = phone.submit("/", "/", data)
    assert response.status_code == 200 and response.request.path == "/"
    assert not response.history  # nothing was created
    assert Page(response.text).find("p", **{"class": "error"}), response.text
    assert "Your games on this phone" not in phone.get("/").text


def test_host_page_shows_a_join_link_to_copy_for_each_open_seat(app):
    phone = Phone(app, "red")
    game_id, links, host = create_game(phone)
    page = Page(host.text)
    [field] = page.find("input", id="link-blue")
    assert "readonly" in field.attrs and field.attrs["value"] == links["blue"]
    # the referee's own address as a phone reaches it (the LAN's, for a loopback host)
    assert re.fullmatch(rf"http://{OWN_HOSTS}/games/{game_id}/join/blue\?code=[\w-]{{16,}}",
                        links["blue"]), links["blue"]
    assert page.find("label", **{"for": "link-blue"})
    assert page.find("button", **{"data-copy": "link-blue"})
    assert not page.find("input", id="link-red")  # the host's own seat is taken already


def test_the_qr_code_is_a_valid_svg_for_the_hosts_phone_only(app):
    red = Phone(app, "red")
    game_id, links, host = create_game(red)
    [img] = Page(host.text).find("img", **{"class": "qr"})
    response = red.get(img.attrs["src"])
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] == "private, no-store"
    assert b"xmlns=" in response.data
    assert ET.fromstring(response.data).tag == SVG  # well-formed, in the SVG namespace
    assert red.get(f"/games/{game_id}/qr/red.svg").status_code == 404  # no code: taken
    assert red.get(f"/games/{game_id}/qr/purple.svg").status_code == 404
    joined = Phone(app, "blue")
    join(joined, links["blue"], "Bob")
    for phone in (Phone(app, "stranger"), joined):  # a player's phone is not the host's
        response = phone.get(img.attrs["src"])
        assert response.status_code == 403 and response.mimetype == "text/html"
        assert b"<svg" not in response.data


def test_the_join_link_takes_a_seat_into_the_phones_session(app):
    red = Phone(app, "red")
    game_id, links, _ = create_game(red)
    blue = Phone(app, "blue")
    page = blue.get(path_of(links["blue"]))
    assert page.status_code == 200 and "Join game" in page.text
    code = links["blue"].split("code=")[1]
    assert Page(page.text).find("input", name="code", type="hidden")[0].attrs["value"] == code
    response = join(blue, links["blue"], "Bob")
    assert response.request.path == f"/games/{game_id}"
    assert "Your budget" in response.text
    assert blue.get(f"/games/{game_id}/status").get_json()["you"] == "blue"
    host = red.get(f"/games/{game_id}/host")
    assert "Bob" in host.text and "link-blue" not in host.text


def test_a_join_without_a_name_asks_for_one(app):
    _, links, _ = create_game(Phone(app, "red"))
    blue = Phone(app, "blue")
    response = join(blue, links["blue"], "")
    assert response.status_code == 200 and "Join game" in response.text
    assert "This field is required." in Page(response.text).find_text("p", "error")
    assert blue.get(path_of(links["blue"]).split("/join")[0]).status_code == 403  # no seat


# -- budget, placement, lock in ---------------------------------------------------------------

def test_budget_buys_the_fleet_and_warns_of_unspent_points(table):
    red = table.phones["red"]
    response = buy(red, table.id, PURCHASE)
    assert response.status_code == 200 and "Place your fleet" in response.text
    spent = sum({"carrier": 4, "battleship": 4, "cruiser": 3, "destroyer": 2, "submarine": 1,
                 "atom-bomber": 10, "bomber": 3, "recon": 1, "aa-gun": 1, "salvo": 1}[k] * n
                for k, n in PURCHASE.items())
    assert [f"{160 - spent} points are unspent and will be lost (R4)."] == red.flashes(response)
    data = Page(response.text).page_data()
    assert data["purchase"] == PURCHASE
    # the budget can be changed, and shows what was bought
    again = red.get(f"/games/{table.id}?budget=1")
    assert Page(again.text).find("input", id="battleship")[0].attrs["value"] == "8"
    full = buy(table.phones["blue"], table.id, {"battleship": 20, "salvo": 80})
    assert "Place your fleet" in full.text and table.phones["blue"].flashes(full) == []


@pytest.mark.parametrize("purchase, says", [
    ({"battleship": 14, "salvo": 60}, "Ships cost 56 points; at least 60"),
    ({"battleship": 15, "salvo": 59}, "cost 59 points; at least 60"),
    ({"battleship": 25, "salvo": 61}, "The fleet costs 161 points; at most 160"),
    ({"battleship": 15, "atom-bomber": 7}, "no player may buy more than 6"),
])
def test_budget_refuses_r4_with_a_friendly_message(table, purchase, says):
    red = table.phones["red"]
    response = buy(red, table.id, purchase)
    assert response.status_code == 200 and "Your budget" in response.text
    problems = red.flashes(response)
    assert any(says in p and p.endswith("(R4)") for p in problems), problems
    assert red.get(f"/games/{table.id}").text.count("Your budget") == 1  # nothing was kept


def test_draft_names_r6_to_r9_problems_and_what_is_left_to_place(table):
    red = table.phones["red"]
    buy(red, table.id, {"battleship": 15, "atom-bomber": 1, "recon": 2, "salvo": 48})
    document = {
        "land": ["A 1", "B 2"],  # R6: overlapping units
        "ships": [{"type": "battleship", "at": "T 5", "dir": "across"},  # R7: off the chart
                  {"type": "battleship", "at": "E 8", "dir": "across"},
                  {"type": "battleship", "at": "F 9", "dir": "across"}],  # R8: touching
        "aircraft": [{"type": "atom-bomber", "at": "M 12"}],  # R9: not on land
        "guns": [],
    }
    response = save_draft(red, table.id, document)
    assert response.status_code == 200 and response.mimetype == "application/json"
    result = response.get_json()
    rules = {p["rule"] for p in result["problems"]}
    assert {"R6", "R7", "R8", "R9"} <= rules, result
    assert "R4" not in rules  # the budget is settled already
    assert result["left"] == {"carrier": 0, "battleship": 12, "cruiser": 0, "destroyer": 0,
                              "submarine": 0, "atom-bomber": 0, "bomber": 0, "recon": 2,
                              "aa-gun": 0}
    assert result["complete"] is False
    # the draft is kept: the place page comes back with it
    data = Page(red.get(f"/games/{table.id}").text).page_data()
    assert data["disposition"]["land"] == ["A 1", "B 2"]


def test_r5_draft_takes_off_what_was_not_bought_and_says_so(table):
    """R5: more placed than bought (a page older than its budget) is never kept."""
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    document = {**FLEETS["red"], "guns": FLEETS["red"]["guns"] + ["D 20"]}
    result = save_draft(red, table.id, document).get_json()
    assert result["left"]["aa-gun"] == 0 and result["complete"], result
    assert result["removed"] == ["A-A gun at D 20"]
    assert result["disposition"]["guns"] == FLEETS["red"]["guns"]


def test_draft_before_a_budget_is_refused_naming_r3(table):
    red = table.phones["red"]
    token = red.csrf(f"/games/{table.id}")
    response = red.post_json(f"/games/{table.id}/draft", {"disposition": {}}, token=token)
    assert response.status_code == 409 and response.get_json()["errors"][0]["rule"] == "R3"


def test_lock_in_is_refused_naming_r5_while_pieces_remain_and_works_when_complete(table):
    red, blue = table.phones["red"], table.phones["blue"]
    buy(red, table.id, purchase_of(FLEETS["red"]))
    partial = {**FLEETS["red"], "guns": FLEETS["red"]["guns"][:-2]}
    assert save_draft(red, table.id, partial).get_json()["left"]["aa-gun"] == 2
    response = lock(red, table.id)
    assert "Place your fleet" in response.text
    [problem] = red.flashes(response)
    assert "2 A-A guns still to place" in problem and problem.endswith("(R5)")
    assert problem.count("(R5)") == 1
    assert save_draft(red, table.id, FLEETS["red"]).get_json()["complete"]
    response = lock(red, table.id)
    assert "Locked in" in response.text and Page(response.text).title.startswith("Locked in")
    assert stored_game(table.app, table.id).fleets["red"].document["guns"] == FLEETS["red"][
        "guns"]
    # the other phone sees Red locked in; when Blue locks in too, play starts (R11)
    assert "✓ locked in" in blue.get(f"/games/{table.id}").text
    buy(blue, table.id, purchase_of(FLEETS["blue"]))
    save_draft(blue, table.id, FLEETS["blue"])
    response = lock(blue, table.id)
    assert 'class="turn"' in response.text
    assert red.get(f"/games/{table.id}/status").get_json()["phase"] == "play"


# -- play -------------------------------------------------------------------------------------

def test_the_play_page_offers_the_move_form_to_the_seat_whose_turn_it_is(playing):
    first = turn_of(playing)
    mover, waiter = playing.phones[first], playing.phones[other(first)]
    page = mover.get(f"/games/{playing.id}")
    assert Page(page.text).title.startswith("Your turn")
    _, fields = Page(page.text).form(f"/games/{playing.id}/move")
    assert {"csrf_token", "key", "base", "at", "target"} <= set(fields)
    assert fields["target"] == other(first) and len(fields["key"]) >= 16
    assert [e.attrs["value"] for e in Page(page.text).find("input", name="weapon")] == [
        "atom-bomber", "bomber", "recon", "salvo"]
    waiting = waiter.get(f"/games/{playing.id}")
    assert "move-form" not in waiting.text
    assert Page(waiting.text).title.startswith(f"{first.title()} to move")


def test_a_move_through_the_form_is_reported_and_passes_the_turn(playing):
    first = turn_of(playing)
    target = FLEETS[other(first)]
    ship = target["ships"][2]  # a Battleship across
    response = move(playing.phones[first], playing.id, "salvo",
                    [ship["at"], "K 21", "K 20"])
    assert response.status_code == 200 and response.request.path == f"/games/{playing.id}"
    last = re.search(r'<section class="last-report" id="last".*?</section>', response.text,
                     re.S).group(0)
    assert "Battleship, hit" in last and f"{ship['at']}: Battleship" in last
    assert playing.phones[first].flashes(response) == []
    assert turn_of(playing) == other(first)
    # the target sees the move too, and now holds the form
    page = playing.phones[other(first)].get(f"/games/{playing.id}")
    assert "Battleship" in page.text and "move-form" in page.text
    # an aircraft: the base is named by its square
    mine = next(a for a in FLEETS[other(first)]["aircraft"] if a["type"] == "bomber")
    response = move(playing.phones[other(first)], playing.id, "bomber",
                    FLEETS[first]["ships"][5]["at"], base=mine["at"])
    assert playing.phones[other(first)].flashes(response) == []
    assert f"(from {mine['at']})" in response.text  # his own base, in his own record
    assert turn_of(playing) == first


@pytest.mark.parametrize("weapon, at, base, target, rule, says", [
    ("salvo", "Z 9, A 1, B 1", "", "", "R1", "columns run A to U"),
    ("salvo", "A 22, A 1, B 1", "", "", "R1", "rows run 1 to 21"),
    ("salvo", "A 1", "", "", "R12", "three squares"),
    ("salvo", "A 1, A 1, B 1", "", "", "R12", "three different squares"),
    ("salvo", "", "", "", "R12", "tap your target"),
    ("torpedo", "A 1", "", "", "R12", "Choose a weapon"),
    ("bomber", "A 5", "U 21", "", "R13", "no Bomber at U 21"),
    ("salvo", "A 1, B 1, C 1", "", "purple", "R23", "not a seat"),
])
def test_a_refused_move_is_flashed_with_its_ruling(playing, weapon, at, base, target, rule, says):
    first = turn_of(playing)
    phone = playing.phones[first]
    response = move(phone, playing.id, weapon, at, base=base, target=target)
    assert response.status_code == 200 and response.request.path == f"/games/{playing.id}"
    [problem] = phone.flashes(response)
    assert says in problem and problem.endswith(f"({rule})"), problem
    assert turn_of(playing) == first and view_of(phone, playing.id)["reports"] == []


def test_a_move_out_of_turn_is_refused_on_the_page(playing):
    first = turn_of(playing)
    phone = playing.phones[other(first)]
    token = phone.csrf(f"/games/{playing.id}")
    response = phone.post(f"/games/{playing.id}/move", data={
        "csrf_token": token, "weapon": "salvo", "at": "A 1, B 1, C 1", "key": "k1"})
    assert response.status_code == 200
    [problem] = phone.flashes(response)
    assert "turn" in problem.lower()
    assert turn_of(playing) == first


def test_the_same_form_posted_twice_applies_once(playing):
    first = turn_of(playing)
    phone = playing.phones[first]
    page = phone.get(f"/games/{playing.id}")
    _, fields = Page(page.text).form(f"/games/{playing.id}/move")
    data = {**fields, "weapon": "salvo", "at": "A 1, B 1, C 1"}
    one = phone.post(f"/games/{playing.id}/move", data=data)
    two = phone.post(f"/games/{playing.id}/move", data=data)  # the double tap
    assert one.status_code == two.status_code == 200
    assert phone.flashes(two) == []  # no "not your turn": the tap was the same move
    assert len(view_of(phone, playing.id)["reports"]) == 1
    assert turn_of(playing) == other(first)
    assert "move-form" not in phone.get(f"/games/{playing.id}").text


def test_pencil_marks_are_kept_per_seat_and_never_shown_to_another(playing):
    red, blue = playing.phones["red"], playing.phones["blue"]
    token = red.csrf(f"/games/{playing.id}")
    marks = {"blue": {"K 3": "?", "K 4": "●"}}  # column K is in neither fleet
    response = red.post_json(f"/games/{playing.id}/marks", marks, token=token)
    assert response.status_code == 200 and response.get_json() == {"saved": 2}
    assert Page(red.get(f"/games/{playing.id}").text).page_data()["marks"] == marks
    blue_page = blue.get(f"/games/{playing.id}")
    assert Page(blue_page.text).page_data()["marks"] == {}
    assert "K 3" not in blue_page.text and "K 4" not in blue_page.text
    token = blue.csrf(f"/games/{playing.id}")
    blue.post_json(f"/games/{playing.id}/marks", {"red": {"C 5": "○"}}, token=token)
    assert Page(red.get(f"/games/{playing.id}").text).page_data()["marks"] == marks
    assert Page(blue.get(f"/games/{playing.id}").text).page_data()["marks"] == {
        "red": {"C 5": "○"}}


def test_status_json_has_an_etag_and_answers_304_until_something_changes(playing):
    red = playing.phones["red"]
    url = f"/games/{playing.id}/status"
    response = red.get(url, headers={"Accept": "application/json"})
    assert response.status_code == 200 and response.mimetype == "application/json"
    body, etag = response.get_json(), response.headers["ETag"]
    assert body["you"] == "red" and body["phase"] == "play" and body["turn"] in ("red", "blue")
    assert response.headers["Cache-Control"] == "no-cache"
    again = red.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    move(playing.phones[body["turn"]], playing.id, "salvo", "A 1, B 1, C 1")
    changed = red.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert changed.get_json()["version"] == body["version"] + 1
    # the ETag is the seat's own: Blue's does not answer Red's poll
    assert playing.phones["blue"].get(url, headers={"If-None-Match": etag}).status_code == 200


# -- the end ----------------------------------------------------------------------------------

def test_agreeing_to_end_waits_for_every_player_then_shows_the_draw(playing):
    red, blue = playing.phones["red"], playing.phones["blue"]
    response = red.submit(f"/games/{playing.id}", f"/games/{playing.id}/end")
    assert "R14" in red.flashes(response)[0] and "Red agreed to end." in response.text
    assert "disabled" in re.search(r'action="[^"]*/end".*?</form>', response.text).group(0)
    assert "Red agreed to end." in blue.get(f"/games/{playing.id}").text
    response = blue.submit(f"/games/{playing.id}", f"/games/{playing.id}/end")
    assert Page(response.text).title.startswith("Game over")
    headline = Page(response.text).find("p", **{"class": "headline"})
    assert headline
    assert re.search(r'<p class="headline">Ended by agreement\. A draw at 60 points each\.</p>',
                     response.text)


def test_game_over_shows_who_won_by_how_much_and_reveals_every_disposition(playing):
    first = turn_of(playing)
    sub = next(s for s in FLEETS[other(first)]["ships"] if s["type"] == "submarine")
    response = move(playing.phones[first], playing.id, "salvo", [sub["at"], "K 1", "K 2"])
    assert "sunk" in response.text
    loser_base = next(a for a in FLEETS[other(first)]["aircraft"] if a["type"] == "recon")
    move(playing.phones[other(first)], playing.id, "recon", "B 5", base=loser_base["at"])
    for seat in (first, other(first)):
        response = playing.phones[seat].submit(f"/games/{playing.id}",
                                               f"/games/{playing.id}/end")
    for seat, phone in playing.phones.items():
        page = phone.get(f"/games/{playing.id}")
        assert Page(page.text).title.startswith("Game over")
        assert (f"{first.title()} wins by 60 points to 59." in
                re.search(r'<p class="headline">(.*?)</p>', page.text).group(1))
        view = Page(page.text).page_data()["view"]
        assert view["result"]["scores"] == {first: 60, other(first): 59}
        assert view["revealed"][other(seat)]["disposition"] == FLEETS[other(seat)]
        assert view["disposition"] == FLEETS[seat]
        assert view["revealed"][other(seat)]["damage"] is not None
        assert f"(from {loser_base['at']})" in page.text  # every base shown now (R21)
        assert "move-form" not in page.text


def test_resigning_loses_whatever_the_scores(playing):
    first = turn_of(playing)
    sub = next(s for s in FLEETS[other(first)]["ships"] if s["type"] == "submarine")
    move(playing.phones[first], playing.id, "salvo", [sub["at"], "K 1", "K 2"])
    # the player ahead on points resigns: he loses (R14)
    response = playing.phones[first].submit(f"/games/{playing.id}",
                                            f"/games/{playing.id}/resign")
    headline = re.search(r'<p class="headline">(.*?)</p>', response.text).group(1)
    assert headline == (f"{first.title()} resigned. {other(first).title()} wins by 59 points "
                        "to 60.")
    view = Page(response.text).page_data()["view"]
    assert view["result"]["winners"] == [other(first)]


def test_host_gives_more_time_and_forfeits_a_seat_once_the_clock_has_run_out(table, monkeypatch):
    red = table.phones["red"]
    host = f"/games/{table.id}/host"
    before = red.get(f"/games/{table.id}/status").get_json()["deadline"]
    response = red.submit(host, f"{host}/clock", {"minutes": "10"})
    assert response.request.path == host and red.flashes(response) == [
        "10 more minutes for dispositions (R10)."]
    assert red.get(f"/games/{table.id}/status").get_json()["deadline"] == before + 600
    response = red.submit(host, f"{host}/clock", {"minutes": "0"})
    assert red.flashes(response) == ["Problem: Minutes to add: a whole number from 1 to 120 "
                                     "(R10)"]
    response = red.submit(host, f"{host}/forfeit/blue")
    assert "run out" in red.flashes(response)[0] and "(R10)" in red.flashes(response)[0]
    page = Page(red.get(host).text)
    [button] = [e for e in page.find("button") if e.form is not None
                and "forfeit" in (page.forms[e.form].attrs["action"])]
    assert "disabled" in button.attrs

    buy(red, table.id, purchase_of(FLEETS["red"]))
    save_draft(red, table.id, FLEETS["red"])
    lock(red, table.id)
    later = time.time() + 3 * 3600
    monkeypatch.setattr(service.clock, "now", lambda: later)
    page = Page(red.get(host).text)
    [button] = [e for e in page.find("button") if e.form is not None
                and "forfeit" in (page.forms[e.form].attrs["action"])]
    assert "disabled" not in button.attrs
    response = red.submit(host, f"{host}/forfeit/blue")
    assert red.flashes(response) == ["Blue is forfeited (R10)."]
    over = red.get(f"/games/{table.id}")
    assert "Won by forfeit." in over.text and "Red wins by 60 points to 0" in over.text


def test_a_three_player_page_asks_which_opponent(app):
    table = open_table(app, seats=3)
    fleets = {"red": strip_fleet(0, 10, PURCHASE), "blue": strip_fleet(11, 10, PURCHASE),
              "green": strip_fleet(0, 10, PURCHASE)}
    set_up(table, fleets)
    first = turn_of(table)
    page = Page(table.phones[first].get(f"/games/{table.id}").text)
    [select] = page.find("select", name="target")
    options = [o.attrs["value"] for o in page.find("option") if o.attrs.get("value") in
               ("red", "blue", "green")]
    assert sorted(options) == sorted(s for s in fleets if s != first)
    assert page.find("label", **{"for": "target"}) and select.attrs["id"] == "target"
