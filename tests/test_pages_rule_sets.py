"""One rule set's routes and printables against every game: each rule set's printables take what
the shared routes pass them (``webparts.PAPER_CONTRACT``), a route of one rule set refuses
a game of another with a 404 that says so, having read and written nothing of it, every
game's own pages load its entry script alone and are titled after it, and the draft route
every game has (``playroutes``) refuses a seat that has locked in, naming the game's ruling."""

from __future__ import annotations

import io
import re

import pypdf
import pytest
from pages_support import unversioned

from referee import rulesets
from referee.webparts import Paper

RULE_SETS = ("naval-war", "battleship-tcg", "broadside")
# each game's own blueprint's prefix, its entry script, and the ruling that a locked-in
# setup no longer changes
OWN = {"naval-war": ("", "/naval-war/static/main.js", "R10"),
       "battleship-tcg": ("/tcg", "/tcg/static/tcg.js", "T11"),
       "broadside": ("/broadside", "/broadside/static/broadside.js", "B3")}
SCRIPT = re.compile(r'<script type="module" src="([^"]+)"></script>')


def scripts_of(page: str) -> list[str]:
    """The module scripts a page loads, at their plain addresses."""
    return [unversioned(src) or "" for src in SCRIPT.findall(page)]
TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def _csrf(response) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', response.get_data(as_text=True)
                     ).group(1)


def _seated(client, rules: str) -> tuple[str, dict, object]:
    """A game of ``rules`` made through the API, Red's seat taken on a phone of its own: the
    game's id, each seat's token, and Red's phone (its session cookie holds the seat)."""
    created = client.post("/api/v1/games", json={"rules": rules}).get_json()
    tokens = {}
    for seat, info in created["seats"].items():
        if seat == "red":
            continue
        tokens[seat] = client.post(f"/api/v1/games/{created['id']}/seats/{seat}", json={
            "join_code": info["join_code"], "name": seat.title()}).get_json()["token"]
    red = client.application.test_client()
    url = created["seats"]["red"]["join_url"].removeprefix("http://localhost")
    joined = red.post(url, data={"name": "Ann", "csrf_token": _csrf(red.get(url))})
    assert joined.status_code == 302, joined.data[:300]
    with red.session_transaction() as held:
        tokens["red"] = held["seats"][created["id"]]
    return created["id"], tokens, red


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_rule_sets_seat_prints_his_charts_and_record_from_the_shared_routes(client,
                                                                                  rules):
    game_id, tokens, _ = _seated(client, rules)
    for printable in ("charts.pdf", "record.pdf"):
        for paper in ("a4", "letter"):
            got = client.get(f"/api/v1/games/{game_id}/{printable}?paper={paper}",
                             headers={"Authorization": f"Bearer {tokens['blue']}"})
            assert got.status_code == 200, (printable, got.data[:300])
            assert got.mimetype == "application/pdf"
            assert pypdf.PdfReader(io.BytesIO(got.data)).pages


def test_a_paper_whose_printable_refuses_the_shared_routes_keywords_is_refused_when_made():
    def pdf(*_args, **_keywords) -> bytes:
        return b"%PDF"

    def charts_without_opponents(view: dict, *, paper: str = "a4") -> bytes:
        return b"%PDF"

    with pytest.raises(TypeError, match=r"player_charts.*opponents"):
        Paper(blank_chart=pdf, blank_record=pdf, player_charts=charts_without_opponents,
              player_record=pdf, postmortem=pdf)
    Paper(blank_chart=pdf, blank_record=pdf, player_charts=pdf, player_record=pdf,
          postmortem=pdf)


def _notes(app, game_id: str) -> list[tuple]:
    import sqlite3

    connection = sqlite3.connect(app.config["DATABASE"])
    try:
        return [row for table in ("drafts", "marks") for row in connection.execute(
            f"select '{table}', seat, body from {table} where game_id = ?", [game_id])]
    finally:
        connection.close()


def test_a_naval_war_form_refuses_a_tcg_game_and_keeps_the_tcg_seats_draft(app, client):
    """``POST /games/<a TCG game>/budget/book`` once overwrote the TCG seat's draft with a
    Naval War purchase, and ``/marks`` kept pencil marks for it: both are 404 now, saying which
    game the page is for, and the draft is as the TCG's page left it."""
    game_id, _, red = _seated(client, "battleship-tcg")
    token = _csrf(red.get(f"/games/{game_id}"))
    draft = {"boats": [{"type": "carrier", "at": "O 1", "dir": "down"}], "man": None}
    kept = red.post(f"/tcg/games/{game_id}/draft", json={"disposition": draft},
                    headers={"X-CSRFToken": token, "Accept": "application/json"})
    assert kept.status_code == 200, kept.data[:300]
    before = _notes(app, game_id)
    book = red.post(f"/games/{game_id}/budget/book",
                    data={"csrf_token": token, "fleet": "game-2-red"})
    marks = red.post(f"/games/{game_id}/marks", json={"blue": {"A 1": "x"}},
                     headers={"X-CSRFToken": token, "Accept": "application/json"})
    assert book.status_code == 404, book.data[:300]
    assert "The Naval War Game" in book.get_data(as_text=True)
    assert marks.status_code == 404, marks.data[:300]
    message = marks.get_json()["errors"][0]["message"]
    assert "The Naval War Game" in message and "Battleship" in message, message
    assert _notes(app, game_id) == before


@pytest.mark.parametrize("rules, path, body", [
    ("naval-war", "/tcg/games/{id}/draft", {"disposition": {"boats": [], "man": None}}),
    ("naval-war", "/broadside/games/{id}/draft", {"disposition": {"ships": []}}),
    ("broadside", "/tcg/games/{id}/shoot", {}),
    ("battleship-tcg", "/broadside/games/{id}/move", {}),
    ("broadside", "/games/{id}/draft", {"disposition": {}}),
    ("battleship-tcg", "/games/{id}/lock", {})])
def test_another_rule_sets_route_is_a_404_even_for_a_stranger(client, rules, path, body):
    """Whoever asks (here a phone holding no seat): the route is not one of this game's."""
    created = client.post("/api/v1/games", json={"rules": rules}).get_json()
    stranger = client.application.test_client()
    token = _csrf(stranger.get("/"))
    got = stranger.post(path.format(id=created["id"]), json=body,
                        headers={"X-CSRFToken": token, "Accept": "application/json"})
    assert got.status_code == 404, got.data[:300]
    assert "is a page of" in got.get_json()["errors"][0]["message"]


def _fleets(rules: str) -> dict:
    from broadside_web_support import RED as BS_RED
    from pages_support import FLEETS
    from tcg_web_support import RED as TCG_RED

    return {"naval-war": FLEETS["red"], "battleship-tcg": TCG_RED, "broadside": BS_RED}[rules]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_games_own_page_loads_its_entry_alone_and_is_titled_after_it(client, rules):
    game_id, _, red = _seated(client, rules)
    title = rulesets.named(rules).title
    _, entry, _ = OWN[rules]
    page = red.get(f"/games/{game_id}").get_data(as_text=True)
    assert scripts_of(page) == [entry], scripts_of(page)
    assert TITLE.search(page).group(1).endswith(f" · {title}"), TITLE.search(page).group(1)
    join = red.get(f"/games/{game_id}/join/blue").get_data(as_text=True)  # every game's
    assert scripts_of(join) == ["/static/js/shared.js"]
    assert TITLE.search(join).group(1) == f"Join as Blue · {title}"
    home = red.get("/").get_data(as_text=True)
    assert scripts_of(home) == ["/static/js/shared.js"]
    assert TITLE.search(home).group(1) == "Home · The referee"


@pytest.mark.parametrize("rules", RULE_SETS)
def test_a_locked_in_seats_draft_is_refused_in_every_game_naming_its_ruling(app, client, rules):
    game_id, tokens, red = _seated(client, rules)
    bearer = {"Authorization": f"Bearer {tokens['red']}"}
    put = client.put(f"/api/v1/games/{game_id}/disposition", json=_fleets(rules), headers=bearer)
    assert put.status_code == 200, put.data[:300]
    assert client.post(f"/api/v1/games/{game_id}/ready", headers=bearer).status_code == 200
    before = _notes(app, game_id)
    prefix, _, rule = OWN[rules]
    token = _csrf(red.get(f"/games/{game_id}"))
    got = red.post(f"{prefix}/games/{game_id}/draft", json={"disposition": {}},
                   headers={"X-CSRFToken": token, "Accept": "application/json"})
    assert got.status_code == 409, got.data[:300]
    [error] = got.get_json()["errors"]
    assert error["rule"] == rule and "locked in" in error["message"], error
    assert _notes(app, game_id) == before
