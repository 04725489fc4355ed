"""Battleship: The Tactical Combat Game's own pages and PDFs on the web (phones and paper): the
Blueprint's routes through Flask's test client."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from referee.battleship_tcg.web.parts import TCG


@pytest.mark.parametrize("paper, size", [("a4", (842, 595)), ("letter", (792, 612))])
@pytest.mark.parametrize("layout, pages", [("pair", 2), ("single", 2)])
def test_paper_blank_charts_through_the_web_parts(paper, size, layout, pages):
    data = TCG.paper.blank_chart(paper=paper, layout=layout)
    read = pypdf.PdfReader(io.BytesIO(data)).pages
    assert len(read) == pages
    assert (round(float(read[0].mediabox.width)), round(float(read[0].mediabox.height))) == size
    text = read[0].extract_text()
    assert ("Red's half: place your fleet here" if layout == "pair"
            else "Red's half of the card") in text


def test_paper_blank_record_through_the_web_parts():
    data = TCG.paper.blank_record(paper="letter", pages=3)
    assert len(pypdf.PdfReader(io.BytesIO(data)).pages) == 3


def test_paper_player_record_is_the_shots_as_told():
    from tcg_web_support import played

    from referee.battleship_tcg import record_for

    game = played()
    data = TCG.paper.player_record(record_for(game, "blue"), paper="a4")
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages)
    assert "as Blue was told them" in text and "The toss (T6): order of play Red then Blue" \
        in text
    assert re.search(r"3\s+Red\s+E 9\s+Hit\s+Patrol Boat", text), text


def _play_page(app, blue: dict) -> str:
    from flask import render_template
    from tcg_web_support import played

    from referee.battleship_tcg import view_for
    from referee.battleship_tcg.web import pages

    with app.test_request_context("/"):
        view = view_for(played(blue), "red")
        html = render_template("tcg/play.html", key="k", rescuing=False,
                               page_data=pages.script_json({"view": view,
                                                            "known": pages._known(view)}),
                               **pages._context(view))
    html = re.sub(r'(csrf-token" content|name="csrf_token" value)="[^"]*"', "", html)
    return re.sub(r"[0-9a-f]{64}|[0-9a-f]{16}…", "(a fingerprint)", html)  # salted, public


def test_t10_the_play_page_is_the_same_wherever_the_opponents_unshot_boats_lie(app):
    """Red's play page (its page data, the sunk boats' outlines included) from Red's view:
    Blue's carrier and man moved to holes Red never shot change nothing in it (T10)."""
    from tcg_web_support import BLUE, BLUE_ELSEWHERE

    here, elsewhere = _play_page(app, BLUE), _play_page(app, BLUE_ELSEWHERE)
    assert "Blue's half as you know it" in here and '"known"' in here
    assert here == elsewhere


@pytest.fixture
def tcg_client(tmp_path, monkeypatch):
    """An app with Battleship TCG among its rule sets (registered here while the registry,
    referee/rulesets.py, does not name it yet)."""
    from referee import create_app, rulesets
    from referee.battleship_tcg import RULE_SET

    if RULE_SET.rules not in rulesets.RULE_SETS:
        monkeypatch.setitem(rulesets.RULE_SETS, RULE_SET.rules, RULE_SET)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db"),
                      "SECRET_KEY": "test", "PUBLIC_URL": "http://localhost"})
    return app.test_client()


@pytest.mark.parametrize("query, pages", [("layout=single&paper=letter", 2),
                                          ("layout=pair", 2)])
def test_paper_blank_charts_url_with_rules(tcg_client, query, pages):
    got = tcg_client.get(f"/printables/blank-chart.pdf?rules=battleship-tcg&{query}")
    assert got.status_code == 200 and got.mimetype == "application/pdf"
    assert len(pypdf.PdfReader(io.BytesIO(got.data)).pages) == pages


@pytest.mark.parametrize("query", ["pages=0", "pages=21", "pages=%EF%BC%92", "paper=a3"])
def test_paper_blank_record_url_refuses_bad_parameters(tcg_client, query):
    got = tcg_client.get(f"/printables/blank-record.pdf?rules=battleship-tcg&{query}",
                         headers={"Accept": "application/json"})
    assert got.status_code == 400, got.data[:200]


def test_paper_home_page_offers_the_tcg_printables(tcg_client):
    page = tcg_client.get("/").get_data(as_text=True)
    assert "/printables/blank-chart.pdf?rules=battleship-tcg&amp;paper=a4" in page
    assert "/printables/blank-record.pdf?rules=battleship-tcg&amp;paper=letter" in page


def _joined(client) -> tuple[str, dict]:
    """A game of Battleship TCG with both seats joined, each with his own phone (client)."""
    created = client.post("/api/v1/games", json={"rules": "battleship-tcg"}).get_json()
    phones = {}
    for seat in ("red", "blue"):
        phone = client.application.test_client()
        url = created["seats"][seat]["join_url"].removeprefix("http://localhost")
        phone.post(url, data={"name": seat.title() + "y",
                              "csrf_token": _csrf(phone.get(url))})
        phones[seat] = phone
    return created["id"], phones


def _csrf(response) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', response.get_data(as_text=True)
                     ).group(1)


@pytest.mark.parametrize("body, field", [
    ({"disposition": {"boats": [{"type": "carrier", "at": "Z 99", "dir": "down"}]}}, "boats[0]"),
    ({"disposition": {"boats": [{"type": "carrier", "at": "A 1", "dir": "left"}]}}, "boats[0]"),
    ({"disposition": {"boats": [{"type": "yacht", "at": "A 1", "dir": "down"}]}}, "boats[0]"),
    ({"disposition": {"boats": [], "man": "<b>"}}, "man"),
    ({"disposition": {"boats": [], "extra": 1}}, "disposition"),
    ({"disposition": {"boats": [{"type": "carrier", "at": "A 1", "dir": "down"}] * 6}},
     "boats"),
    ({"disposition": []}, "disposition"), ("not json", "disposition")])
def test_phones_a_hostile_draft_is_refused_by_field(tcg_client, body, field):
    game_id, phones = _joined(tcg_client)
    red = phones["red"]
    token = _csrf(red.get(f"/games/{game_id}"))
    got = red.post(f"/tcg/games/{game_id}/draft", headers=json_headers(token),
                   **({"json": body} if isinstance(body, dict) else {"data": body}))
    assert got.status_code == 400, got.data[:300]
    assert got.get_json()["errors"][0]["field"] == field


def test_phones_a_draft_says_what_is_wrong_with_its_holes(tcg_client):
    game_id, phones = _joined(tcg_client)
    red = phones["red"]
    token = _csrf(red.get(f"/games/{game_id}"))
    draft = {"boats": [{"type": "carrier", "at": "C 1", "dir": "down"}], "man": "A 1"}
    got = red.post(f"/tcg/games/{game_id}/draft", headers=json_headers(token),
                   json={"disposition": draft}).get_json()
    rules = {p["rule"] for p in got["problems"]}
    assert {"T4", "T5"} <= rules, got  # C 2, C 3 are islands; A 1 is sea
    island = next(p for p in got["problems"] if p["rule"] == "T4")
    assert {"C 2", "C 3"} <= set(island["squares"])


def test_phones_another_games_forms_are_not_here(tcg_client):
    """A seat of a Naval War Game cannot post this game's forms for it: 404, nothing kept."""
    created = tcg_client.post("/api/v1/games", json={}).get_json()
    url = created["seats"]["red"]["join_url"].removeprefix("http://localhost")
    tcg_client.post(url, data={"name": "Ann", "csrf_token": _csrf(tcg_client.get(url))})
    token = _csrf(tcg_client.get(f"/games/{created['id']}"))
    for form in ("draft", "lock", "shoot"):
        got = tcg_client.post(f"/tcg/games/{created['id']}/{form}", headers=json_headers(token),
                              json={"disposition": {"boats": [], "man": None}})
        assert got.status_code == 404, (form, got.data[:200])


def json_headers(token: str) -> dict:
    """What the placement page's script sends with a draft."""
    return {"X-CSRFToken": token, "Accept": "application/json"}


def test_club_section_counts_each_tcg_game_in_its_own_table():
    from tcg_web_support import played

    from referee.battleship_tcg.club import club_entry
    from referee.battleship_tcg.web.parts import club_section

    over = played()
    over.resign("blue")
    entry = club_entry(over)
    assert json.loads(json.dumps(entry)) == entry  # plain JSON, kept as the game ends
    section = club_section([entry])
    assert section["games"] == 1 and section["template"] == "tcg/_club.html"
    assert {row["name"]: (row["won"], row["lost"]) for row in section["players"]} == {
        "Ann &amp; Co": (1, 0), "Bob": (0, 1)}
    assert entry["headline"] == "Blue resigned; Red wins."


@pytest.mark.skipif(not (Path(__file__).resolve().parent.parent / "node_modules" / ".bin"
                         / "biome").exists(), reason="make lint installs Biome")
def test_phones_the_tcg_scripts_pass_biome_as_the_shared_modules_do(tmp_path):
    """The rule set's own scripts (served from its package) meet the shared modules' rules:
    Biome's lint and format with the project's biome.json, 100 columns, no module-level let."""
    root = Path(__file__).resolve().parent.parent
    scripts = sorted((root / "referee" / "battleship_tcg" / "web" / "static").glob("*.js"))
    assert {p.name for p in scripts} == {"honeycomb.js", "tcg.js"}
    target = tmp_path / "referee" / "static" / "js"
    target.mkdir(parents=True)
    for script in scripts:
        text = script.read_text()
        assert all(len(line) <= 100 for line in text.splitlines()), script.name
        assert not re.findall(r"^(?:export\s+)?(?:let|var)\b", text, re.M), script.name
        (target / script.name).write_text(text)
    shutil.copy(root / "biome.json", tmp_path / "biome.json")
    (tmp_path / "node_modules").symlink_to(root / "node_modules")
    for command in ("lint", "format"):
        done = subprocess.run([str(root / "node_modules" / ".bin" / "biome"), command],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


# -- "Place the rest for me" (T3-T5) -----------------------------------------------------------

def _fill(phone, game_id: str, draft: dict, token: str):
    return phone.post(f"/tcg/games/{game_id}/draft/fill", headers=json_headers(token),
                      json={"disposition": draft})


def test_t4_t5_place_the_rest_places_every_boat_and_the_man_legally_around_the_players(
        tcg_client):
    from referee.battleship_tcg.card import standard_card
    from referee.battleship_tcg.fleet import check_disposition

    game_id, phones = _joined(tcg_client)
    red = phones["red"]
    token = _csrf(red.get(f"/games/{game_id}"))
    mine = {"type": "carrier", "at": "O 1", "dir": "down"}
    layouts = set()
    for _ in range(3):
        got = _fill(red, game_id, {"boats": [mine], "man": None}, token)
        assert got.status_code == 200, got.data[:300]
        answer = got.get_json()
        filled = answer["disposition"]
        assert filled["boats"][0] == mine and not answer["problems"]
        check_disposition(filled, standard_card(), "red")  # T3-T5: legal as it stands
        assert answer["placed"] == ["Battleship", "Weapons Platform", "Submarine",
                                    "Patrol Boat", "Captured Man"]
        layouts.add(json.dumps(filled))
    assert len(layouts) == 3  # at random, from the server's own randomness
    page = red.get(f"/games/{game_id}").get_data(as_text=True)
    assert json.dumps(filled["boats"][1]).replace(" ", "") in page.replace(" ", "")  # kept


def test_t4_place_the_rest_around_a_wrong_boat_leaves_it_to_the_problems_list(tcg_client):
    game_id, phones = _joined(tcg_client)
    red = phones["red"]
    token = _csrf(red.get(f"/games/{game_id}"))
    wrong = {"type": "carrier", "at": "O 8", "dir": "down"}  # runs off the foot
    answer = _fill(red, game_id, {"boats": [wrong], "man": "C 2"}, token).get_json()
    assert answer["disposition"]["boats"][0] == wrong and answer["disposition"]["man"] == "C 2"
    assert [p["rule"] for p in answer["problems"]] == ["T4"]  # nothing new overlaps it
    assert "Captured Man" not in answer["placed"]


def test_place_the_rest_is_the_seats_own_and_asked_at_most_ten_times_a_minute(tcg_client):
    game_id, phones = _joined(tcg_client)
    red, blue = phones["red"], phones["blue"]
    token = _csrf(red.get(f"/games/{game_id}"))
    stranger = tcg_client.application.test_client()
    stranger_token = _csrf(stranger.get("/"))
    assert _fill(stranger, game_id, {"boats": [], "man": None}, stranger_token).status_code \
        in (401, 403)
    for _ in range(10):
        assert _fill(red, game_id, {"boats": [], "man": None}, token).status_code == 200
    refused = _fill(red, game_id, {"boats": [], "man": None}, token)
    assert refused.status_code == 429 and "10 times a minute" in refused.get_json()[
        "errors"][0]["message"]
    assert refused.headers["Retry-After"]
    blue_token = _csrf(blue.get(f"/games/{game_id}"))
    assert _fill(blue, game_id, {"boats": [], "man": None}, blue_token).status_code == 200


def test_place_the_rest_is_refused_once_the_fleet_is_locked_in(tcg_client):
    game_id, phones = _joined(tcg_client)
    red = phones["red"]
    token = _csrf(red.get(f"/games/{game_id}"))
    _fill(red, game_id, {"boats": [], "man": None}, token)
    red.post(f"/tcg/games/{game_id}/lock", data={"csrf_token": token})
    got = _fill(red, game_id, {"boats": [], "man": None}, token)
    assert got.status_code == 409 and got.get_json()["errors"][0]["rule"] == "T11"


def test_the_post_mortem_explains_wasted_shots_in_its_own_words():
    from tcg_web_support import played

    from referee.battleship_tcg.postmortem import postmortem_document

    game = played()
    game.resign("blue")
    method = postmortem_document(game)["method"]
    assert "docs/" not in method and ".md" not in method  # no file a player cannot open
    assert "island" in method and "missed" in method


def test_t3_place_the_rest_refuses_a_boat_given_twice_and_keeps_nothing(tcg_client):
    game_id, phones = _joined(tcg_client)
    red = phones["red"]
    token = _csrf(red.get(f"/games/{game_id}"))
    twice = [{"type": "carrier", "at": "O 1", "dir": "down"},
             {"type": "carrier", "at": "A 1", "dir": "down"}]
    got = _fill(red, game_id, {"boats": twice, "man": None}, token)
    assert got.status_code == 422 and got.get_json()["errors"][0]["rule"] == "T3"
    assert "second Aircraft Carrier" in got.get_json()["errors"][0]["message"]
    assert '"boats":[]' in red.get(f"/games/{game_id}").get_data(as_text=True).replace(" ", "")
