"""Moving a club: `referee export-all` writes every game, seat, record and trusted key to one
signed file and `referee import-all` reads it into another database, a SQLite file into
PostgreSQL and back, on the same referee or a new laptop's; the players' tokens, the views, the
club's records and the signed game files' standing are as they were. A file changed or cut
short, or an import into a database that has games, is refused with nothing written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from api_support import table_in_play
from apiclient import Api, FlaskTransport
from conftest import database_of
from helpers import IDLE_SQUARES, QUIET, padded

from referee import create_app
from referee.store import Store

GAMES = "/api/v1/games"


def referee(database: str, key_file: Path):
    return create_app({"TESTING": True, "DATABASE": database, "SIGNING_KEY_FILE": str(key_file),
                       "SECRET_KEY": "test", "PUBLIC_URL": "http://localhost"})


def api_of(app) -> Api:
    return Api(FlaskTransport(app.test_client()))


def finished_game(api: Api, red: dict = QUIET) -> tuple[object, dict]:
    """A game played to its end (a move, then a resignation) and its signed file."""
    table = table_in_play(api, {"red": red, "blue": QUIET})
    turn = table.view("red")["turn"]
    assert table.as_seat(turn, "POST", "/moves", {"weapon": "salvo", "at": IDLE_SQUARES})[0] \
        == 201
    assert table.as_seat("red", "POST", "/resign")[0] == 200
    status, document, _ = table.as_seat("red", "GET", "/export")
    assert status == 200
    return table, document


def contents(database: str, seen_apart: str | None = None) -> dict[str, list]:
    """Every row of every table the club file moves; ``seen_apart``: a game whose seats'
    last-seen times are left out (its phones went on playing elsewhere, where they were seen)."""
    store = Store(database)
    try:
        found = {}
        for table, columns, rows in store.dump():
            rows = [list(row) for row in rows]
            if table == "seats" and seen_apart is not None:
                game, seen = columns.index("game_id"), columns.index("seen_at")
                for row in rows:
                    if row[game] == seen_apart:
                        row[seen] = None
            found[table] = sorted(map(tuple, rows), key=repr)
        return found
    finally:
        store.close()


def run(app, *args: str):
    result = app.test_cli_runner().invoke(args=list(args))
    return result


@pytest.fixture
def club(tmp_path):
    """A club on SQLite with a bit of everything: a finished game played here, a game in
    play (a draft, an Idempotency-Key, pencil marks), a trusted club's signed file imported,
    and an unverified import; and the other club's referee."""
    here = referee(str(tmp_path / "club.db"), tmp_path / "club.key")
    other = referee(str(tmp_path / "other.db"), tmp_path / "other.key")
    api, there = api_of(here), api_of(other)
    played, _ = finished_game(api)
    in_play = table_in_play(api, {"red": QUIET, "blue": QUIET})
    turn = in_play.view("red")["turn"]
    status, report, _ = in_play.as_seat(turn, "POST", "/moves",
                                        {"weapon": "salvo", "at": IDLE_SQUARES},
                                        headers={"Idempotency-Key": "tap-1"})
    assert status == 201
    _, signed = finished_game(there, padded(salvoes=50))
    assert run(here, "trust", "add", other.extensions["referee.signing_key"].public,
               "--name", "Other club").exit_code == 0
    status, imported, _ = api.call("POST", f"{GAMES}/import", signed)
    assert status == 201 and imported["counted"], imported
    _, unsigned = finished_game(there, padded(salvoes=40))
    unsigned.pop("signature")
    status, unverified, _ = api.call("POST", f"{GAMES}/import", unsigned)
    assert status == 201 and not unverified["counted"]
    return {"app": here, "played": played, "in_play": in_play, "tap": (turn, report),
            "imported": imported,
            "unverified": unverified, "path": tmp_path}


def club_page(app) -> str:
    return app.test_client().get("/club").get_data(as_text=True)


def test_a_club_moves_from_sqlite_to_postgresql_and_back_with_nothing_lost(club, request):
    here, tmp_path = club["app"], club["path"]
    source = here.config["DATABASE"]
    exported = tmp_path / "club.jsonl"
    result = run(here, "export-all", str(exported))
    assert result.exit_code == 0, result.output
    assert oct(exported.stat().st_mode & 0o777) == "0o600"
    # a new laptop on PostgreSQL: another signing key
    postgres = database_of("postgresql", tmp_path, request)
    moved = referee(postgres, tmp_path / "new-laptop.key")
    result = run(moved, "import-all", str(exported))
    assert result.exit_code == 0, result.output
    assert "Imported 4 games" in result.output and "Trusted" in result.output
    assert contents(postgres)["events"] == contents(source)["events"]
    # the same phones carry on: their tokens, views and ETags, and the next move
    table = club["in_play"]
    there = Api(FlaskTransport(moved.test_client()))
    for seat in ("red", "blue"):
        before = table.api.call("GET", table.path(), token=table.tokens[seat])
        after = there.call("GET", table.path(), token=table.tokens[seat])
        assert after[0] == 200 and after[1] == before[1] and after[2]["ETag"] == before[2]["ETag"]
    turn, report = club["tap"]  # the move's key moved too: its double tap adds nothing
    version = Store(postgres).version(table.id)
    again = there.call("POST", table.path("/moves"), {"weapon": "salvo", "at": IDLE_SQUARES},
                       token=table.tokens[turn], headers={"Idempotency-Key": "tap-1"})
    assert again[:2] == (201, report) and Store(postgres).version(table.id) == version
    # the club's records count the same games, the trusted club's signed file among them
    page = club_page(moved)
    for game in ("played", "imported", "unverified"):
        game_id = club[game].id if game == "played" else club[game]["id"]
        assert f"Game {game_id}" in page
    assert club_page(here).count("unverified") == page.count("unverified")
    store = Store(postgres)
    assert store.is_imported(club["imported"]["id"]) and len(store.trusted_keys()) == 2
    store.close()
    # ... and back to a SQLite file, where everything is as it was at first
    back = tmp_path / "back.jsonl"
    assert run(moved, "export-all", str(back)).exit_code == 0
    returned = referee(str(tmp_path / "returned.db"), tmp_path / "club.key")
    result = run(returned, "import-all", str(back))
    assert result.exit_code == 0, result.output
    returned_db = str(tmp_path / "returned.db")
    first, last = contents(source, table.id), contents(returned_db, table.id)
    # the keys trusted at first, and the two referees the club passed through
    assert set(first.pop("trusted_keys")) < set(last.pop("trusted_keys"))
    assert {t: r for t, r in last.items() if t != "computers_due"} == \
        {t: r for t, r in first.items() if t != "computers_due"}
    # the phones of the game played on were seen on PostgreSQL no earlier than here, and that
    # came back too
    was, now = Store(source).seats_seen(table.id), Store(returned_db).seats_seen(table.id)
    assert was.keys() == now.keys() and all((now[s] or 0) >= (was[s] or 0) for s in was)


def test_a_changed_or_cut_short_club_file_is_refused_with_nothing_written(club, request,
                                                                          monkeypatch):
    here, tmp_path = club["app"], club["path"]
    exported = tmp_path / "club.jsonl"
    assert run(here, "export-all", str(exported)).exit_code == 0
    lines = exported.read_text().splitlines(keepends=True)
    postgres = database_of("postgresql", tmp_path, request)
    target = referee(postgres, tmp_path / "club.key")
    seat_row = next(i for i, line in enumerate(lines) if line.startswith("[") and '"red"' in line)
    changed = [line.replace('"red"', '"blue"', 1) if i == seat_row else line
               for i, line in enumerate(lines)]
    forged_key = json.loads(lines[-1])
    forged_key["signature"]["public_key"] = json.loads(lines[0])["referee_key"][::-1]
    for name, text, says in (
            ("changed", "".join(changed), "changed after it was exported"),
            ("cut", "".join(lines[:-5]), "no signed end"),
            ("unsigned", "".join(lines[:-1]) + json.dumps({k: v for k, v in json.loads(
                lines[-1]).items() if k != "signature"}) + "\n", "no signature"),
            ("forged", "".join(lines[:-1]) + json.dumps(forged_key) + "\n", "signature"),
            ("not a club", '{"format": "naval-war-game"}\n', "not a club file")):
        bad = tmp_path / f"{name}.jsonl"
        bad.write_text(text)
        result = run(target, "import-all", str(bad))
        assert result.exit_code != 0 and says in result.output, (name, result.output)
        assert Store(postgres).game_count() == 0, name
    from referee.service import moving

    monkeypatch.setattr(moving, "MAX_LINE", 10_000)  # a line without end is never read whole
    endless = tmp_path / "endless.jsonl"
    endless.write_text(lines[0] + "[" + " " * 50_000)
    result = run(target, "import-all", str(endless))
    assert result.exit_code != 0 and "longer than any" in result.output, result.output


def test_a_club_moves_only_into_a_database_without_games(club, tmp_path):
    here = club["app"]
    exported = tmp_path / "club.jsonl"
    assert run(here, "export-all", str(exported)).exit_code == 0
    result = run(here, "import-all", str(exported))
    assert result.exit_code != 0 and "has 4 games already" in result.output
