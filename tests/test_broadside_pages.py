"""Broadside's own pages on the web (setting up, moving, the end, the club): its seat pages rendered
from the core's views, the setup draft's problems as Blue taps, the post-mortem's steps, the club
section, and the pages through Flask's test client."""

from __future__ import annotations

import copy
import io
import json
import re

import pypdf
import pytest
from broadside_web_support import BLUE, RED, finished, played, started
from pdf_support import pdftotext

from referee.broadside.board import BOARD
from referee.broadside.club import club_entry
from referee.broadside.game import Game
from referee.broadside.views import postmortem_view, record_for, result_headline, view_for
from referee.broadside.web import pages as bs_pages
from referee.broadside.web import steps
from referee.broadside.web.parts import BROADSIDE


def text_of(data: bytes) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text()
                                         for p in pypdf.PdfReader(io.BytesIO(data)).pages))


def _scrubbed(html: str) -> str:
    html = re.sub(r'(csrf-token" content|name="csrf_token" value|name="key" value)="[^"]*"',
                  "", html)
    return re.sub(r"[0-9a-f]{64}|[0-9a-f]{16}…", "(a fingerprint)", html)


def _swapped(blue: dict, keep: set[str]) -> dict:
    """Blue's setup with every buoy but ``keep`` and every battery turned over: the same
    limits (B4), the other secrets."""
    other = copy.deepcopy(blue)
    flip = {"sink": "pass", "pass": "sink", "hit": "miss", "miss": "hit"}
    other["buoys"] = {c: k if c in keep else flip[k] for c, k in blue["buoys"].items()}
    other["batteries"] = {s: flip[k] for s, k in blue["batteries"].items()}
    return other


def test_b12_reds_play_page_is_the_same_whatever_blues_unfound_secrets_are(app):
    """Red's page (its page data, the harbour's SVG, the reports) from Red's view: Blue's
    buoys not yet found and his batteries turned over change nothing in it, as long as Red's
    moves meet nothing different (his ships stay out of the channels and off the buoys)."""
    moves = [{"ship": "I 19", "turn": None, "to": "I 14"}, {"ship": "A 2", "turn": None,
                                                            "to": "A 5"},
             {"ship": "J 19", "turn": None, "to": "J 14"}, {"ship": "B 2", "turn": None,
                                                            "to": "B 4"}]
    pages = []
    for blue in (BLUE, _swapped(BLUE, keep=set())):
        assert blue["buoys"] != {} and blue["batteries"]
        game = started(RED, blue)
        for move in moves:
            game.move(game.turn, move)
        with app.test_request_context("/"):
            pages.append(_scrubbed(bs_pages.seat_page("g1", "red", view_for(game, "red"))))
    assert "Your move" in pages[0] and 'id="bs-board"' in pages[0]
    assert pages[0] == pages[1]
    board = pages[0][pages[0].index('id="bs-board"'):pages[0].index("</svg>")]
    assert "a buoy" in board and "Shore battery A" in board
    assert not re.search(r"sink|pass|hit|miss|SINK|PASS|HIT|MISS", board)


def test_b12_blues_play_page_shows_him_his_own_secrets(app):
    game = started()
    game.move("red", {"ship": "I 19", "turn": None, "to": "I 14"})
    with app.test_request_context("/"):
        html = bs_pages.seat_page("g1", "blue", view_for(game, "blue"))
    assert html.count("a SINK buoy") == 3 and html.count(": HIT") == 2


def test_b4_blues_setup_names_sink_on_the_whole_row_as_he_taps():
    draft = {"ships": [], "buoys": dict.fromkeys(BOARD["buoys"]["row"], "sink"),
             "batteries": {}}
    problems = bs_pages.draft_problems("blue", draft)
    assert [(p["rule"], sorted(p["squares"])) for p in problems] == [
        ("B4", sorted(BOARD["buoys"]["row"]))]
    pair = dict.fromkeys(BOARD["buoys"]["pair"], "sink")
    problems = bs_pages.draft_problems("blue", {"ships": [], "buoys": pair, "batteries": {}})
    assert [p["rule"] for p in problems] == ["B4"] and "pair" in problems[0]["message"]


def test_b4_more_sink_buoys_or_hit_batteries_than_allowed_are_named_before_all_are_marked():
    circles = BOARD["buoys"]["row"][:2] + BOARD["buoys"]["pair"][:1] + BOARD["buoys"]["single"]
    draft = {"ships": [], "buoys": dict.fromkeys(circles, "sink"),
             "batteries": dict.fromkeys("ABC", "hit")}
    messages = [p["message"] for p in bs_pages.draft_problems("blue", draft)]
    assert any("3 buoys are SINK; 4" in m for m in messages), messages
    assert any("2 batteries are HIT; 3" in m for m in messages), messages


def test_b3_a_setup_not_finished_yet_is_not_a_problem_and_a_finished_one_is_checked_whole():
    assert bs_pages.draft_problems("red", {"ships": RED["ships"][:4]}) == []
    assert bs_pages.draft_problems("blue", {"ships": [], "buoys": {}, "batteries": {}}) == []
    assert bs_pages.draft_problems("red", RED) == []
    assert bs_pages.draft_problems("blue", BLUE) == []
    wrong = copy.deepcopy(RED)
    wrong["ships"][0]["type"] = "frigate"  # 4 frigates, 1 ship-of-the-line
    rules = {p["rule"] for p in bs_pages.draft_problems("red", wrong)}
    assert rules == {"B3"}


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_b11_the_post_mortem_steps_are_the_game_replayed_move_by_move(seed):
    """Every step of the post-mortem (the setups with the reports laid on) is the harbour as
    the game itself stood after that move: the log replayed to there, seen by Blue."""
    game = finished(seed=seed)
    shown = postmortem_view(game, "red")
    harbours = steps.states(shown)
    assert len(harbours) == len(game.reports) + 1
    replayed = Game()
    seen = []
    for event in game.events:
        replayed.apply(event)
        if (replayed.phase != "setup" and not seen) or event.get("type") == "move":
            seen.append(view_for(replayed, "blue"))
    assert len(seen) == len(harbours)
    for n, (view, harbour) in enumerate(zip(seen, harbours, strict=True)):
        want = sorted((s["side"], s["type"], s["at"], s["facing"], s["masts"])
                      for s in view["ships"])
        got = sorted((s["side"], s["type"], s["at"], s["facing"], s["masts"])
                     for s in harbour["ships"])
        assert got == want, n
        assert harbour["merchants"] == view["merchants"], n
        assert harbour["buoys"] == view["buoys"], n
        assert harbour["batteries"] == view["batteries"], n


def test_b12_the_post_mortem_page_steps_through_every_move_with_the_secrets(app):
    game = finished()
    with app.test_request_context("/?step=5"):
        page = bs_pages._postmortem_page(game, "red", 5)
    assert page["step"] == 5 and page["steps"] == len(game.reports)
    assert page["report"]["n"] == 5
    assert page["board"].count("a SINK buoy") + page["board"].count(
        "revealed and removed") >= 3
    assert page["board"].count(": HIT") == 2
    with app.test_request_context("/"):
        last = bs_pages._postmortem_page(game, "red", None)
        assert last["step"] == len(game.reports)
        assert bs_pages._postmortem_page(game, "red", 10 ** 4)["step"] == len(game.reports)


def test_b12_the_post_mortem_is_refused_before_the_end(app):
    from referee.errors import ApiError

    with app.test_request_context("/"), pytest.raises(ApiError) as refused:
        bs_pages._postmortem_page(played(10), "red", 0)
    assert refused.value.status == 409


def test_the_club_section_counts_wins_merchants_and_rocks():
    games = [finished(seed) for seed in (1, 2, 3)]
    entries = [club_entry(game) for game in games]
    assert json.loads(json.dumps(entries)) == entries  # plain JSON, kept as each game ends
    section = BROADSIDE.club_section(entries)
    assert section["games"] == 3 and section["template"] == "broadside/_club.html"
    winners = [g.result_document()["winner"] for g in games]
    assert section["wins"] == {"red": winners.count("red"), "blue": winners.count("blue")}
    assert section["merchants_sunk"] == sum(len(g.merchants_sunk) for g in games)
    assert section["rocks"] == sum(1 for g in games for r in g.reports for s in r["sunk"]
                                   if s["by"] == "rock")
    assert section["rocks"] >= 1
    rows = {row["name"]: row for row in section["players"]}
    assert rows["Ann & Co"]["games"] == 3 and rows["Bob"]["games"] == 3
    assert [e["headline"] for e in entries] == [result_headline(view_for(g, "blue"))
                                                for g in games]


# -- paper from a game ---------------------------------------------------------------------------

def test_b12_reds_board_on_paper_holds_no_secret_and_blues_holds_his():
    game = played(30)
    red = text_of(BROADSIDE.paper.player_charts(view_for(game, "red"), paper="a4"))
    assert "as Red (Ann &amp; Co) sees it" in red or "as Red (Ann & Co) sees it" in red
    assert "stay secret" in red and not re.search(r"\b(HIT|MISS)\b", red)
    blue = text_of(BROADSIDE.paper.player_charts(view_for(game, "blue"), paper="letter"))
    assert "Shore batteries: A HIT" in blue


def test_b11_the_record_on_paper_is_every_move_as_told():
    game = played(12)
    data = BROADSIDE.paper.player_record(record_for(game, "blue"), paper="a4")
    text = text_of(data)
    assert "as Blue was told them" in text
    assert game.reports[0]["from"] in text and "What happened" in text


def test_b12_the_post_mortem_booklet_shows_the_harbour_after_every_move():
    game = finished(seed=2)
    shown = postmortem_view(game, "blue")
    data = BROADSIDE.paper.postmortem(shown, record_for(game, "blue"), paper="a4")
    pages = pypdf.PdfReader(io.BytesIO(data)).pages
    moves = len(game.reports)
    assert len(pages) >= 1 + (moves + 1 + 3) // 4
    text = re.sub(r"\s+", " ", pdftotext(data, layout=False))  # (pypdf's reading: 20 s)
    assert "Post-mortem of game" in text and "The fleets as set up" in text
    assert "Shore batteries: A HIT" in text


# -- through the web: the routes, with CSRF on -------------------------------------------------

@pytest.fixture
def bs_client(tmp_path):
    from referee import create_app

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db"),
                      "SECRET_KEY": "test", "PUBLIC_URL": "http://localhost"})
    return app.test_client()


def _csrf(response) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', response.get_data(as_text=True)
                     ).group(1)


def _joined(client) -> tuple[str, dict]:
    """A game of Broadside with both seats joined, each with his own phone (client)."""
    created = client.post("/api/v1/games", json={"rules": "broadside"}).get_json()
    phones = {}
    for seat in ("red", "blue"):
        phone = client.application.test_client()
        url = created["seats"][seat]["join_url"].removeprefix("http://localhost")
        phone.post(url, data={"name": seat.title() + "y",
                              "csrf_token": _csrf(phone.get(url))})
        phones[seat] = phone
    return created["id"], phones


def _draft(phone, game_id: str, document) -> object:
    token = _csrf(phone.get(f"/games/{game_id}"))
    headers = {"X-CSRFToken": token, "Accept": "application/json"}
    if isinstance(document, dict):
        return phone.post(f"/broadside/games/{game_id}/draft", headers=headers,
                          json={"disposition": document})
    return phone.post(f"/broadside/games/{game_id}/draft", headers=headers, data=document)


@pytest.mark.parametrize("seat, document, field", [
    ("red", {"ships": [{"type": "galleon", "at": "I 19"}]}, "ships[0]"),
    ("red", {"ships": [{"type": "frigate", "at": "I 19", "facing": "up"}]}, "ships[0]"),
    ("red", {"ships": [{"type": "frigate", "at": "I 19" * 5}]}, "ships[0]"),
    ("red", {"ships": [{"type": "frigate", "at": "I 19"}] * 11}, "ships"),
    ("red", {"ships": [], "buoys": {"F 6": "sink"}}, "disposition"),  # Red has no secrets
    ("blue", {"ships": [], "buoys": {"F 6": "maybe"}}, "buoys"),
    ("blue", {"ships": [], "batteries": {"A": "hit", "B": "hit", "C": "hit", "D": "hit",
                                         "E": "hit"}}, "batteries"),
    ("blue", {"ships": [], "buoys": []}, "buoys"),
    ("blue", "not json", "disposition")])
def test_b13_a_hostile_draft_is_refused_by_field(bs_client, seat, document, field):
    game_id, phones = _joined(bs_client)
    got = _draft(phones[seat], game_id, document)
    assert got.status_code == 400, got.data[:300]
    assert got.get_json()["errors"][0]["field"] == field


@pytest.mark.parametrize("at", ["Z 99", "<b>x", "A 1", "i19", "F 6 "])
def test_b13_a_draft_naming_no_start_cross_is_answered_with_its_problem_never_a_crash(
        bs_client, at):
    game_id, phones = _joined(bs_client)
    got = _draft(phones["red"], game_id, {"ships": [{"type": "frigate", "at": at}]})
    assert got.status_code == 200, got.data[:300]
    body = got.get_json()
    assert body["problems"] == [] or {p["rule"] for p in body["problems"]} <= {"B1", "B3"}
    assert body["board"].count('class="ship red"') <= 1 and "<b>x" not in body["board"]
    page = phones["red"].get(f"/games/{game_id}")
    assert page.status_code == 200


def test_b3_b4_a_draft_comes_back_with_its_problems_and_the_harbour_drawn(bs_client):
    game_id, phones = _joined(bs_client)
    draft = {"ships": BLUE["ships"][:3], "buoys": dict.fromkeys(BOARD["buoys"]["pair"], "sink"),
             "batteries": {"A": "hit"}}
    got = _draft(phones["blue"], game_id, draft).get_json()
    assert [p["rule"] for p in got["problems"]] == ["B4"]
    assert got["board"].startswith("<svg") and got["board"].count('class="ship blue"') == 3
    assert got["board"].count("a SINK buoy") == 2 and "Shore battery A at" in got["board"]
    page = phones["blue"].get(f"/games/{game_id}").get_data(as_text=True)  # kept
    assert page.count('class="ship blue"') == 3 and "SINK may not go" in page
    red = phones["red"].get(f"/games/{game_id}").get_data(as_text=True)
    assert "a SINK buoy" not in red and "SINK may not go" not in red


def test_b5_a_game_set_up_locked_in_and_moved_through_the_pages(bs_client):
    game_id, phones = _joined(bs_client)
    for seat, document in (("red", RED), ("blue", BLUE)):
        phone = phones[seat]
        assert _draft(phone, game_id, document).get_json()["problems"] == []
        token = _csrf(phone.get(f"/games/{game_id}"))
        got = phone.post(f"/broadside/games/{game_id}/lock", data={"csrf_token": token})
        assert got.status_code == 302
    red = phones["red"]
    page = red.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Your move" in page and 'id="bs-move"' in page
    key = re.search(r'name="key" value="([0-9a-f]{16})"', page).group(1)
    form = {"csrf_token": _csrf(red.get(f"/games/{game_id}")), "key": key, "ship": "I 19",
            "turn": "", "to": "I 14"}
    got = red.post(f"/broadside/games/{game_id}/move", data=form)
    assert got.status_code == 302
    again = red.post(f"/broadside/games/{game_id}/move", data=form)  # a second tap: harmless
    assert again.status_code == 302
    page = red.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Red&#39;s Ship-of-the-Line 1 sailed from I 19 to I 14" in page or \
        "Red's Ship-of-the-Line 1 sailed from I 19 to I 14" in page
    assert "Blue to move" in re.sub(r"<[^>]+>", "", page).replace("B Blue", "Blue")
    blue = phones["blue"]
    form = {"csrf_token": _csrf(blue.get(f"/games/{game_id}")), "key": "k2", "ship": "A 2",
            "turn": "about", "to": "A 5"}  # Blue faces down: about is up, onto land
    got = blue.post(f"/broadside/games/{game_id}/move", data=form)
    assert got.status_code == 302
    flashed = blue.get(f"/games/{game_id}").get_data(as_text=True)
    assert "B5" in flashed and "Your move" in flashed


def test_b5_another_games_forms_are_not_here(bs_client):
    """A seat of a Naval War Game cannot post this game's forms for it: 404, nothing kept."""
    created = bs_client.post("/api/v1/games", json={}).get_json()
    url = created["seats"]["red"]["join_url"].removeprefix("http://localhost")
    bs_client.post(url, data={"name": "Ann", "csrf_token": _csrf(bs_client.get(url))})
    token = _csrf(bs_client.get(f"/games/{created['id']}"))
    for form in ("draft", "lock", "move"):
        got = bs_client.post(f"/broadside/games/{created['id']}/{form}",
                             headers={"X-CSRFToken": token, "Accept": "application/json"},
                             json={"disposition": {"ships": []}})
        assert got.status_code == 404, (form, got.data[:200])


@pytest.mark.parametrize("path, pages", [
    ("/printables/blank-chart.pdf?rules=broadside&paper=a4", 1),
    ("/printables/blank-chart.pdf?rules=broadside&paper=letter&layout=single", 1),
    ("/printables/blank-record.pdf?rules=broadside&paper=letter&pages=3", 3)])
def test_b1_the_paper_routes_print_broadsides_sheets(bs_client, path, pages):
    got = bs_client.get(path)
    assert got.status_code == 200 and got.mimetype == "application/pdf"
    assert len(pypdf.PdfReader(io.BytesIO(got.data)).pages) == pages


def test_the_club_page_shows_broadsides_own_table(bs_client):
    from referee import service
    from referee.web import store  # noqa: F401  (the app's store, inside a request)

    game_id, phones = _joined(bs_client)
    for seat, document in (("red", RED), ("blue", BLUE)):
        phone = phones[seat]
        _draft(phone, game_id, document)
        phone.post(f"/broadside/games/{game_id}/lock",
                   data={"csrf_token": _csrf(phone.get(f"/games/{game_id}"))})
    red = phones["red"]
    page = red.get(f"/games/{game_id}").get_data(as_text=True)
    key = re.search(r'name="key" value="([0-9a-f]{16})"', page).group(1)
    red.post(f"/broadside/games/{game_id}/move",  # a move: one decided before any counts not
             data={"csrf_token": _csrf(red.get(f"/games/{game_id}")), "key": key,
                   "ship": "I 19", "turn": "", "to": "I 14"})
    red.post(f"/games/{game_id}/resign", data={"csrf_token": _csrf(red.get(f"/games/{game_id}"))})
    page = bs_client.get("/club").get_data(as_text=True)
    assert 'id="broadside-records"' in page and "Won by Blue (the defender)" in page
    assert re.search(r"Won by Blue \(the defender\)</th><td>1<", page)
    over = red.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Game over" in over and "Red resigned" in over
    post = red.get(f"/games/{game_id}/postmortem?step=0").get_data(as_text=True)
    assert "The fleets as set up" in post and post.count(": HIT") == 2
    assert service is not None


def test_the_home_page_offers_broadside_and_its_paper(bs_client):
    page = bs_client.get("/").get_data(as_text=True)
    assert 'id="broadside-home"' in page and '<option value="broadside">' in page
    assert "/printables/blank-chart.pdf?rules=broadside&amp;paper=a4" in page
    assert "/printables/blank-record.pdf?rules=broadside&amp;paper=letter" in page


def test_b5_a_player_with_no_legal_move_is_offered_only_the_pass(app):
    game = started()
    view = view_for(game, "red")
    view["legal"] = [{"pass": True}]  # as the view says it when no ship of his can move
    with app.test_request_context("/"):
        html = bs_pages.seat_page("g1", "red", view)
    assert 'id="bs-pass"' in html and 'id="bs-move"' not in html
    assert 'name="pass" value="1"' in html


def test_b5_a_pass_while_a_ship_can_move_is_refused_by_the_referee(bs_client):
    game_id, phones = _joined(bs_client)
    for seat, document in (("red", RED), ("blue", BLUE)):
        _draft(phones[seat], game_id, document)
        phones[seat].post(f"/broadside/games/{game_id}/lock",
                          data={"csrf_token": _csrf(phones[seat].get(f"/games/{game_id}"))})
    red = phones["red"]
    got = red.post(f"/broadside/games/{game_id}/move",
                   data={"csrf_token": _csrf(red.get(f"/games/{game_id}")), "key": "p1",
                         "pass": "1"})
    assert got.status_code == 302
    page = red.get(f"/games/{game_id}").get_data(as_text=True)
    assert "B5" in page and "Your move" in page and "No moves yet" in page
