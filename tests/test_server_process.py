"""The referee as a real process: `referee serve` (waitress) over a database file, driven over
loopback HTTP as the players' phones would drive it.

These tests check what only a real server shows: whole games end with scores that add up
(R14, R22, R23); two requests racing for one turn are served one after the other (one move
applies, never two, never half); an Idempotency-Key applies a move once however often it is
sent at once; a server killed with SIGKILL loses no acknowledged move and leaves nothing
half-applied; several processes share one database file; and `referee init-db` creates and
migrates a database and may be run again.

Every loop is bounded in count and in time; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import dataclasses
import http.client
import json
import os
import random
import re
import sqlite3
import subprocess
import threading
import time
import uuid
from functools import partial
from pathlib import Path

import pytest
from apiclient import (
    Api,
    HttpTransport,
    TableGame,
    choose_move,
    lock_in_random_fleets,
    open_table,
    play_random_game,
)
from conftest import REFEREE, LiveServer, loopback

from referee.store import MIGRATIONS

SHIP_LENGTH = {"carrier": 4, "battleship": 4, "cruiser": 3, "destroyer": 2, "submarine": 1}
COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"
AIRCRAFT = ("atom-bomber", "bomber", "recon")
CONNECTION_LOST = (OSError, http.client.HTTPException)  # what a killed server gives a client


class Deadline:
    """A bound in time for a loop: ``check()`` fails the test once it has passed."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.end = seconds, time.monotonic() + seconds

    @property
    def passed(self) -> bool:
        return time.monotonic() > self.end

    def check(self) -> None:
        assert not self.passed, f"gave up after {self.seconds} s"


# -- reading dispositions, views and the database ----------------------------------------

def square(name: str) -> tuple[int, int]:
    column, row = re.fullmatch(r"\s*([A-Ua-u])\s*(\d{1,2})\s*", name).groups()
    return COLUMNS.index(column.upper()), int(row)


def ship_squares(ship: dict) -> set[tuple[int, int]]:
    """The squares a ship of a disposition covers (R7), worked out here from API.md alone."""
    column, row = square(ship["at"])
    if ship["type"] == "carrier":
        return {(column + c, row + r) for c in (0, 1) for r in (0, 1)}
    length = SHIP_LENGTH[ship["type"]]
    if ship["type"] != "submarine" and ship.get("dir") == "down":
        return {(column, row + i) for i in range(length)}
    return {(column + i, row) for i in range(length)}


def score(disposition: dict, damage: dict) -> int:
    """R22: the length of every ship not sunk, damaged or not."""
    hit = {square(s) for s in damage["hit"]}
    return sum(SHIP_LENGTH[ship["type"]] for ship in disposition["ships"]
               if not ship_squares(ship) <= hit)


def expected_forces(view: dict) -> dict:
    """What a seat's own view says it can still attack with, worked out from its parts."""
    gone = set(view["damage"]["flown"]) | set(view["damage"]["destroyed"])
    forces = {kind: sum(1 for plane in view["disposition"]["aircraft"]
                        if plane["type"] == kind and plane["at"] not in gone)
              for kind in AIRCRAFT}
    fired = sum(1 for r in view["reports"] if r["by"] == view["you"] and r["weapon"] == "salvo")
    forces["salvo"] = view["disposition"]["salvoes"] - fired
    return forces


def stored_events(database: Path, game_id: str) -> list[tuple[int, str]]:
    """(seq, type) of a game's stored events, read from the file without writing to it."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
        return conn.execute("select seq, type from events where game_id = ? order by seq",
                            [game_id]).fetchall()


def with_api(table: TableGame, api: Api) -> TableGame:
    """The same players at the same game, talking through another client or server."""
    return dataclasses.replace(table, api=api)


def record(table: TableGame, seat: str) -> dict:
    status, data, _ = table.as_seat(seat, "GET", "/record")
    assert status == 200, data
    return data


# -- checks shared by the tests -----------------------------------------------------------

def check_quiet(*servers: LiveServer) -> None:
    """No request made the referee log an error or a traceback (API.md: never a 500)."""
    for server in servers:
        logs = server.logs()
        assert "Traceback" not in logs and "unexpected error" not in logs, logs[-3000:]


def check_consistent(table: TableGame, database: Path) -> None:
    """Nothing half-applied: the stored events, every view and every record agree."""
    events = stored_events(database, table.id)
    assert [seq for seq, _ in events] == list(range(1, len(events) + 1))
    moves = sum(1 for _, kind in events if kind == "move")
    for seat in table.tokens:
        view = table.view(seat)
        assert view["version"] == len(events)
        assert len(view["reports"]) == moves
        assert [r["n"] for r in view["reports"]] == list(range(1, moves + 1))
        assert len(record(table, seat)["moves"]) == moves
        own = [r for r in view["reports"] if r["by"] == seat]
        assert len(view["damage"]["flown"]) == sum(1 for r in own if r["weapon"] != "salvo")
        assert view["forces"] == expected_forces(view), seat


def check_finished(table: TableGame) -> dict:
    """The game is over with a result whose scores add up (R14, R22, R23): every seat's score
    is recomputed from the charts its final view reveals, every side's score is the sum of its
    members', and the winners are the side with the highest score (or none on a draw)."""
    views = {seat: table.view(seat) for seat in table.tokens}
    result = views[next(iter(views))]["result"]
    assert result is not None
    for seat, view in views.items():
        assert view["phase"] == "over"
        assert view["result"] == result
        assert view["turn"] is None
        assert view["forces"] == dict.fromkeys([*AIRCRAFT, "salvo"], 0)  # R14: exhausted
        charts = {seat: {"disposition": view["disposition"], "damage": view["damage"]},
                  **view["revealed"]}
        assert set(charts) == set(table.tokens)
        for other, chart in charts.items():
            assert chart["disposition"] == table.dispositions[other]
            assert score(chart["disposition"], chart["damage"]) == result["scores"][other]
        moves = record(table, seat)["moves"]
        assert moves == view["reports"]
        assert not any(m.get("withheld") for m in moves)  # R21: all revealed at the end
    assert result["reason"] == "exhausted"
    sides = result["sides"]
    assert sorted(s for side in sides for s in side["seats"]) == sorted(table.tokens)
    for side in sides:
        assert side["score"] == sum(result["scores"][s] for s in side["seats"])
    best = max(side["score"] for side in sides)
    top = [side["seats"] for side in sides if side["score"] == best]
    assert result["winners"] == (top[0] if len(top) == 1 else [])
    assert result["winner"] == (result["winners"][0] if len(result["winners"]) == 1 else None)
    return result


def race(calls: list) -> list:
    """Run the calls in threads released together by a barrier; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = calls[i]()
        except BaseException as err:  # reported below, in the test's own thread
            results[i] = err

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not any(thread.is_alive() for thread in threads), "a request hung"
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results


def two_different_moves(view: dict, rng: random.Random) -> tuple[dict, dict]:
    first = choose_move(view, rng)
    for _ in range(50):
        second = choose_move(view, rng)
        if second != first:
            return first, second
    raise AssertionError("no second move to race with")


def post_move(table: TableGame, seat: str, move: dict, key: str | None = None):
    headers = {"Idempotency-Key": key} if key else None
    status, data, _ = table.as_seat(seat, "POST", "/moves", move, headers=headers)
    return status, data


def started_table(api: Api, seed: int, seats: int = 2, alliances: bool = False) -> TableGame:
    table = open_table(api, seats, alliances)
    lock_in_random_fleets(table, random.Random(seed))
    assert table.view("red")["phase"] == "play"
    return table


# -- 1. whole games ------------------------------------------------------------------------

@pytest.mark.parametrize(("seats", "alliances"), [(2, False), (3, False), (4, True)],
                         ids=["two-players", "three-players", "four-in-alliances"])
def test_r22_whole_games_over_http_end_with_scores_that_add_up(live_server, seats, alliances):
    rng = random.Random(1000 + seats)
    table = started_table(live_server.api(), seed=seats, seats=seats, alliances=alliances)
    final = play_random_game(table, rng, max_moves=600)
    result = check_finished(table)
    assert final["result"] == result
    if alliances:  # R23: two sides of two allies, red with green and blue with gold
        assert sorted(sorted(side["seats"]) for side in result["sides"]) == [
            ["blue", "gold"], ["green", "red"]]
        assert result["winner"] is None
    check_consistent(table, live_server.database)
    check_quiet(live_server)


# -- 2. requests racing for one turn -------------------------------------------------------

def test_r14_two_moves_sent_at_once_for_one_turn_apply_exactly_one(live_server):
    rng = random.Random(7)
    table = started_table(live_server.api(), seed=7)
    for _ in range(8):
        view = table.view("red")
        assert view["phase"] == "play"
        turn, version = view["turn"], view["version"]
        moves_before = len(record(table, turn)["moves"])
        first, second = two_different_moves(table.view(turn), rng)
        results = race([
            partial(post_move, with_api(table, live_server.api()), turn, move)
            for move in (first, second)
        ])
        statuses = sorted(status for status, _ in results)
        assert statuses[0] == 201 and statuses[1] in (409, 422), results
        refused = next(data for status, data in results if status != 201)
        assert refused["errors"] and all(e["rule"] for e in refused["errors"]), refused
        (applied_move, report), = [(m, data) for m, (status, data) in
                                   zip((first, second), results, strict=True) if status == 201]
        assert report["weapon"] == applied_move["weapon"]
        assert table.view(turn)["version"] == version + 1
        moves = record(table, turn)["moves"]
        assert len(moves) == moves_before + 1
        assert moves[-1] == report
    check_consistent(table, live_server.database)
    check_quiet(live_server)


def test_one_idempotency_key_sent_at_once_from_several_threads_applies_once(live_server):
    rng = random.Random(8)
    table = started_table(live_server.api(), seed=8)
    for _ in range(3):
        view = table.view("red")
        turn, version = view["turn"], view["version"]
        moves_before = len(record(table, turn)["moves"])
        move, key = choose_move(table.view(turn), rng), str(uuid.uuid4())
        results = race([
            partial(post_move, with_api(table, live_server.api()), turn, move, key)
            for _ in range(6)
        ])
        assert [status for status, _ in results] == [201] * 6, results
        reports = [json.dumps(data, sort_keys=True) for _, data in results]
        assert len(set(reports)) == 1, reports
        report = results[0][1]
        assert table.view(turn)["version"] == version + 1
        moves = record(table, turn)["moves"]
        assert len(moves) == moves_before + 1
        assert moves[-1] == report
        # sent again later, once the turn has moved on: the same report, nothing applied
        assert post_move(table, turn, move, key) == (201, report)
        assert table.view(turn)["version"] == version + 1
    check_consistent(table, live_server.database)
    check_quiet(live_server)


# -- 3. a server killed mid-game -----------------------------------------------------------

@dataclasses.dataclass
class Player:
    """Plays one game move after move from a thread, keeping every acknowledged report."""

    table: TableGame
    rng: random.Random
    stop_after: int  # acknowledged moves in all; then only reads until the server dies
    acked: list[tuple[str, str, dict]] = dataclasses.field(default_factory=list)
    pending: tuple[str, str, dict] | None = None  # a move sent when the connection was lost
    failure: str | None = None

    def run(self, deadline: Deadline) -> None:
        try:
            while not deadline.passed:
                views = {seat: self.table.view(seat) for seat in self.table.tokens}
                turn = views["red"]["turn"]
                if len(self.acked) >= self.stop_after or turn is None:
                    continue  # keep reads in flight while the server is killed
                move, key = choose_move(views[turn], self.rng), str(uuid.uuid4())
                self.pending = (turn, key, move)
                status, report = post_move(self.table, turn, move, key)
                if status != 201:
                    self.failure = f"{move} got {status} {report}"
                    return
                self.acked.append((turn, key, report))
                self.pending = None
        except CONNECTION_LOST:
            return
        except AssertionError as err:  # a view that was not 200, say
            self.failure = repr(err)
        else:
            self.failure = "the server was never killed"


def reader(api: Api, tables: list[TableGame], stop: threading.Event) -> None:
    """More requests in flight: every seat's view and record, round and round."""
    try:
        while not stop.is_set():
            for table in tables:
                for seat in table.tokens:
                    with_api(table, api).as_seat(seat, "GET")
                    with_api(table, api).as_seat(seat, "GET", "/record")
    except CONNECTION_LOST:
        return


def check_nothing_lost(player: Player, table: TableGame) -> None:
    """Every acknowledged move is in the record, in order, with the report acknowledged; the
    move in flight when the server died applies once when sent again with its key."""
    moves = {seat: record(table, seat)["moves"] for seat in table.tokens}
    count = len(moves["red"])
    assert [n for n, _ in enumerate(player.acked, 1)] == [r["n"] for _, _, r in player.acked]
    assert count >= len(player.acked)
    for seat, _, report in player.acked:
        assert moves[seat][report["n"] - 1] == report
    if player.pending is None:
        assert count == len(player.acked)
        return
    assert count <= len(player.acked) + 1  # the move in flight applied, or did not
    seat, key, move = player.pending
    version = table.view(seat)["version"]
    status, report = post_move(table, seat, move, key)
    assert status == 201, report
    assert report["n"] == len(player.acked) + 1
    assert table.view(seat)["version"] == version + (count == len(player.acked))
    assert record(table, seat)["moves"][report["n"] - 1] == report
    player.acked.append((seat, key, report))
    player.pending = None


def test_a_killed_server_loses_no_acknowledged_move_and_half_applies_none(tmp_path):
    """Four games are played at once, each from its own thread, with a fifth thread reading;
    the server is killed (SIGKILL) mid-game four times. A second server over the same file
    (the witness) carries on at once, so the dead process held no lock; then the killed
    server is started again and play goes on through it."""
    database = tmp_path / "crash.db"
    server, witness = LiveServer(database).start(), LiveServer(database).start()
    every = [server, witness]
    try:
        tables = [started_table(server.api(), seed=30 + i) for i in range(4)]
        players = [Player(table, random.Random(40 + i), stop_after=0)
                   for i, table in enumerate(tables)]
        for crash, target in enumerate((4, 8, 12, 16)):
            for player in players:
                player.table = with_api(player.table, server.api())
                player.stop_after = target + 2
            stop_reading = threading.Event()
            deadline = Deadline(30)
            threads = [threading.Thread(target=p.run, args=(deadline,), daemon=True)
                       for p in players]
            threads.append(threading.Thread(target=reader, daemon=True,
                                            args=(server.api(), tables, stop_reading)))
            for thread in threads:
                thread.start()
            while min(len(p.acked) for p in players) < target:
                deadline.check()
                assert all(p.failure is None for p in players), [p.failure for p in players]
                time.sleep(0.002)
            server.kill()  # SIGKILL, with moves, views and records in flight
            stop_reading.set()
            for thread in threads:
                thread.join(30)
            assert not any(thread.is_alive() for thread in threads)
            assert all(p.failure is None for p in players), [p.failure for p in players]
            server.stop()

            for player in players:
                table = with_api(player.table, witness.api())
                check_nothing_lost(player, table)
                check_consistent(table, database)
                assert table.view("red")["phase"] == "play", f"crash {crash}"
            server = LiveServer(database).start()
            every.append(server)
            for player in players:
                check_consistent(with_api(player.table, server.api()), database)
                for seat in player.table.tokens:
                    assert (with_api(player.table, server.api()).view(seat)
                            == with_api(player.table, witness.api()).view(seat))
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
            assert conn.execute("pragma integrity_check").fetchall() == [("ok",)]
        for player in players:  # and every game can be played to its end
            table = with_api(player.table, server.api())
            play_random_game(table, player.rng, max_moves=300)
            check_finished(table)
            check_consistent(table, database)
        check_quiet(*every)
    finally:
        server.stop()
        witness.stop()


# -- 4. several processes over one database file -------------------------------------------

class Alternating:
    """A transport that sends each request to the next server in turn."""

    def __init__(self, *transports: HttpTransport) -> None:
        self.transports, self.sent = transports, 0

    def __call__(self, *args, **kwargs):
        transport = self.transports[self.sent % len(self.transports)]
        self.sent += 1
        return transport(*args, **kwargs)


def test_two_servers_over_one_database_file_serve_one_game(tmp_path):
    database = tmp_path / "shared.db"
    servers = [LiveServer(database), LiveServer(database)]
    try:
        race([server.start for server in servers])  # both create and migrate one fresh file
        both = started_table(Api(Alternating(*(HttpTransport(s.url) for s in servers))),
                             seed=50)
        a, b = (with_api(both, server.api()) for server in servers)
        rng = random.Random(51)

        # two moves racing for one turn through different processes: exactly one applies
        for _ in range(3):
            turn, version = a.view("red")["turn"], a.view("red")["version"]
            first, second = two_different_moves(b.view(turn), rng)
            results = race([partial(post_move, a, turn, first),
                            partial(post_move, b, turn, second)])
            assert sorted(s for s, _ in results)[0] == 201, results
            assert sorted(s for s, _ in results)[1] in (409, 422), results
            assert a.view(turn)["version"] == b.view(turn)["version"] == version + 1

        # one Idempotency-Key sent to both processes at once: one move, one report
        turn, version = a.view("red")["turn"], a.view("red")["version"]
        move, key = choose_move(a.view(turn), rng), str(uuid.uuid4())
        results = race([partial(post_move, table, turn, move, key) for table in (a, b, a, b)])
        assert [s for s, _ in results] == [201] * 4, results
        assert all(report == results[0][1] for _, report in results)
        assert b.view(turn)["version"] == version + 1

        # the rest of the game, every request to the other server than the one before
        deadline = Deadline(40)
        for _ in range(600):
            deadline.check()
            views = {seat: (a.view(seat), b.view(seat)) for seat in a.tokens}
            for seat, (seen_by_a, seen_by_b) in views.items():
                assert seen_by_a == seen_by_b, seat
                status, _, headers = b.as_seat(seat, "GET", headers={
                    "If-None-Match": f'"{a.id}.{seat}.{seen_by_a["version"]}"'})
                assert status == 304
            red = views["red"][0]
            if red["phase"] == "over":
                break
            move = choose_move(views[red["turn"]][0], rng)
            status, report = post_move(both, red["turn"], move)
            assert status == 201, (move, report)
        else:
            raise AssertionError("the game did not end")
        check_finished(a)
        check_finished(b)
        assert record(a, "blue") == record(b, "blue")
        check_consistent(both, database)
        check_quiet(*servers)
    finally:
        for server in servers:
            server.stop()


# -- 5. referee init-db --------------------------------------------------------------------

def init_db(database: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "REFEREE_DATABASE": str(database), "REFEREE_SECRET_KEY": "init-test"}
    return subprocess.run([str(REFEREE), "init-db"], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=60, check=False)


def schema(database: Path) -> tuple[list, list]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
        return (conn.execute("select type, name, sql from sqlite_master order by name")
                .fetchall(),
                conn.execute("select name from migrations order by name").fetchall())


def test_init_db_creates_a_fresh_database_and_may_be_run_again(tmp_path):
    database = tmp_path / "new" / "folder" / "referee.db"
    first = init_db(database, tmp_path)
    assert first.returncode == 0, first.stderr
    assert database.exists()
    names = [name for name, _ in MIGRATIONS]
    assert f"applied {', '.join(names)}" in first.stdout, first.stdout
    tables, migrations = schema(database)
    assert {"games", "seats", "events", "idempotency", "migrations"} <= {
        name for kind, name, _ in tables if kind == "table"}
    assert migrations == [(name,) for name in sorted(names)]
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as conn:
        assert conn.execute("pragma journal_mode").fetchone() == ("wal",)

    server = LiveServer(database).start()  # a game in it, which init-db must leave alone
    try:
        table = started_table(server.api(), seed=60)
        turn = table.view("red")["turn"]
        status, _ = post_move(table, turn, choose_move(table.view(turn), random.Random(61)))
        assert status == 201
        before = stored_events(database, table.id)
        again = init_db(database, tmp_path)
        assert again.returncode == 0, again.stderr
        assert "up to date" in again.stdout, again.stdout
        assert schema(database) == (tables, migrations)
        assert stored_events(database, table.id) == before
        assert table.view("blue")["version"] == len(before)
    finally:
        server.stop()
    assert init_db(database, tmp_path).returncode == 0
    assert schema(database) == (tables, migrations)


def test_an_unchanged_poll_keeps_the_connection_alive(live_server):
    """waitress alone closes after every 304; the referee's server keeps phones connected."""
    table = open_table(live_server.api(), 2)
    _, _, headers = table.as_seat("red", "GET")
    conn = http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=10)
    try:
        for _ in range(3):
            conn.request("GET", table.path(), headers={
                "Authorization": f"Bearer {table.tokens['red']}",
                "If-None-Match": headers["ETag"]})
            response = conn.getresponse()
            response.read()
            assert response.status == 304 and not response.will_close
            assert response.getheader("Connection") is None
            assert response.getheader("ETag") == headers["ETag"]
        conn.request("GET", table.path(), headers={
            "Authorization": f"Bearer {table.tokens['red']}", "Connection": "close",
            "If-None-Match": headers["ETag"]})
        response = conn.getresponse()
        assert response.status == 304 and response.will_close  # unless the phone asks
    finally:
        conn.close()


def test_more_phones_than_waitress_allows_by_default_stay_connected(live_server):
    """Kept-alive polls hold a connection per phone: 150 of them and one more still answer."""
    table = open_table(live_server.api(), 2)
    _, _, headers = table.as_seat("red", "GET")
    poll = {"Authorization": f"Bearer {table.tokens['red']}", "If-None-Match": headers["ETag"]}
    phones = [http.client.HTTPConnection("127.0.0.1", live_server.port, timeout=5,
                                         source_address=(loopback(n), 0))
              for n in range(151)]  # a phone an address, as on the club's Wi-Fi
    try:
        for phone in phones:  # the last one connects while 150 are held open
            phone.request("GET", table.path(), headers=poll)
            response = phone.getresponse()
            response.read()
            assert response.status == 304 and not response.will_close
    finally:
        for phone in phones:
            phone.close()
