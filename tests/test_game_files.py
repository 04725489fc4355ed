"""Games as files, fingerprints and the club's records."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import sqlite3

import pytest
from apiclient import Api, FlaskTransport, lock_in_random_fleets, open_table, play_random_game
from helpers import padded, started_game

from referee import create_app
from referee.naval_war import replay
from referee.naval_war.club import club_entry, club_records
from referee.naval_war.game import fingerprint
from referee.naval_war.postmortem import postmortem_document


@pytest.fixture
def finished(api):
    rng = random.Random(6)
    table = open_table(api, 2)
    lock_in_random_fleets(table, rng)
    final = play_random_game(table, rng)
    status, document, headers = table.as_seat("red", "GET", "/export")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    return table, final, document


@pytest.fixture
def other_club(tmp_path):
    """Another club's referee: a game played here is imported there (importing it here again
    would count it twice)."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "other-club.db"),
                       "SECRET_KEY": "test", "PUBLIC_URL": "http://localhost"})


def games_stored(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return db.execute("select count(*) from games").fetchone()[0]


def test_r21_a_game_is_exported_only_once_it_is_over(api):
    table = open_table(api, 2)
    status, data, _ = table.as_seat("red", "GET", "/export")
    assert status == 409 and data["errors"][0]["rule"] == "R21"


def test_export_then_import_replays_to_the_same_post_mortem(api, finished, other_club):
    table, final, document = finished
    there = Api(FlaskTransport(other_club.test_client()))
    status, imported, _ = there.call("POST", "/api/v1/games/import", document)
    assert status == 201, imported
    new_id = imported["id"]
    assert new_id != table.id and set(imported["seats"]) == {"red", "blue"}
    original = api.call("GET", table.path("/postmortem"), token=table.tokens["red"])[1]
    again = there.call("GET", f"/api/v1/games/{new_id}/postmortem",
                       token=imported["seats"]["red"]["token"])[1]
    assert {k: again[k] for k in ("result", "spending", "hindsight")} == \
        {k: original[k] for k in ("result", "spending", "hindsight")}
    view = there.call("GET", f"/api/v1/games/{new_id}",
                      token=imported["seats"]["blue"]["token"])[1]
    assert view["revealed"]["red"]["disposition"] == final["disposition"]  # red's own view
    assert [r["text"] for r in view["reports"]] == [r["text"] for r in final["reports"]]


def test_the_file_proves_no_fleet_moved(finished):
    _, _, document = finished
    game = replay(document["events"])
    for seat, salt in document["salts"].items():
        canonical = json.dumps(game.fleets[seat].document, sort_keys=True,
                               separators=(",", ":"), ensure_ascii=True)
        digest = hashlib.sha256(f"{salt}\n{canonical}".encode()).hexdigest()
        assert digest == document["fingerprints"][seat] == fingerprint(
            game.fleets[seat].document, salt)


def _moved_ship(document: dict) -> dict:
    """A copy whose first disposition event has a submarine moved one square: still legal."""
    bad = copy.deepcopy(document)
    event = next(e for e in bad["events"] if e["type"] == "disposition")
    for ship in event["disposition"]["ships"]:
        if ship["type"] == "submarine":
            col, row = ship["at"].split()
            ship["at"] = f"{col} {int(row) % 21 + 1}"
            break
    return bad


def _tampered(document: dict) -> list[tuple[str, dict | str]]:
    cases: list[tuple[str, dict | str]] = []
    bad = copy.deepcopy(document)
    bad["result"]["scores"]["red"] += 1
    cases.append(("result", bad))
    bad = copy.deepcopy(document)
    del bad["events"][-1]
    cases.append(("events", bad))
    bad = copy.deepcopy(document)
    bad["version"] = 2
    cases.append(("format", bad))
    bad = copy.deepcopy(document)
    bad["rules"] = "kriegsspiel"  # no rule set of this referee ("broadside" is one)
    cases.append(("rules", bad))
    bad = copy.deepcopy(document)
    bad["salts"]["red"] = "0" * 32
    cases.append(("salts", bad))
    bad = copy.deepcopy(document)
    bad["events"][3] = {"type": "move", "seat": "red", "move": {"weapon": "laser"}}
    cases.append(("events", bad))
    cases.append(("events", _moved_ship(document)))
    return cases


def test_a_corrupted_or_tampered_file_is_refused_and_nothing_is_stored(app, api, finished):
    _, _, document = finished
    before = games_stored(app)
    for field, bad in _tampered(document):
        status, data, _ = api.call("POST", "/api/v1/games/import", bad)
        assert status == 422, (field, data)
        error = data["errors"][0]
        assert "Nothing was stored" in error["message"]
        assert error["field"] in (field, "events", "fingerprints"), (field, error)
    assert games_stored(app) == before


def test_the_club_page_imports_a_file_and_refuses_nonsense(finished, other_club):
    _, _, document = finished
    phone = other_club.test_client()
    page = phone.get("/club").get_data(as_text=True)
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    import io

    response = phone.post("/club/import", content_type="multipart/form-data", data={
        "csrf_token": token, "game_file": (io.BytesIO(json.dumps(document).encode()),
                                           "game.json")})
    assert response.status_code == 302
    assert "Game over" in phone.get(response.location).get_data(as_text=True)
    response = phone.post("/club/import", content_type="multipart/form-data", data={
        "csrf_token": token, "game_file": (io.BytesIO(b"not a game"), "game.json")})
    assert response.status_code == 422 and "not JSON" in response.get_data(as_text=True)


def test_club_records_count_what_was_bought_sunk_and_won():
    # Red: 15 Battleships; Blue: 15 Battleships. Red sinks one Battleship, then resigns.
    fleet = padded(ships=[], salvoes=64)
    game = started_game(dispositions={"red": fleet, "blue": fleet}, order=["red", "blue"])
    ships = [s for s in game.fleets["blue"].ships if s.type == "battleship"]
    target = ships[0].squares
    names = [f"{'ABCDEFGHIJKLMNOPQRSTU'[sq.col]} {sq.row + 1}" for sq in target]
    game.move("red", {"weapon": "salvo", "at": names[:3]})
    game.move("blue", {"weapon": "salvo", "at": ["S 13", "T 13", "U 13"]})
    game.move("red", {"weapon": "salvo", "at": [names[3], "S 13", "T 13"]})
    game.resign("red")
    records = club_records([club_entry(game)])
    battleships = next(r for r in records["survival"] if r["ship"] == "battleship")
    bought = 2 * sum(1 for s in game.fleets["red"].ships if s.type == "battleship")
    assert battleships == {"ship": "battleship", "bought": bought, "survived": bought - 1,
                           "percent": round(100 * (bought - 1) / bought)}
    players = {p["name"]: p for p in records["players"]}
    assert players["Red"]["lost"] == 1 and players["Blue"]["won"] == 1  # R14: resigned
    assert sum(row["players"] for row in records["splits"]) == 2
    assert postmortem_document(game)["spending"]["red"]["salvo"]["sank"] == 4
