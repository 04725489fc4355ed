"""The per-process caches (replayed states, kept views and their ETags) are never trusted over the
database. Two referees on one database file are two real processes (`referee serve` on loopback, as
`make run` starts it) or a process and this test's own app: a move through one is seen by the other
at once; a restart loses nothing and serves the same views and ETags; a kept view is never served
for a version another process moved past.
"""

from __future__ import annotations

import gzip

from apiclient import Api, FlaskTransport, TableGame
from conftest import LiveServer
from helpers import IDLE_SQUARES, QUIET

from referee import create_app


def in_play(api: Api) -> TableGame:
    status, created, _ = api.call("POST", "/api/v1/games", {})
    assert status == 201, created
    tokens = {}
    for seat, info in created["seats"].items():
        status, body, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                   {"join_code": info["join_code"], "name": seat.title()})
        assert status == 200, body
        tokens[seat] = body["token"]
    table = TableGame(api, created["id"], created["host_token"], tokens)
    for seat in tokens:
        assert table.as_seat(seat, "PUT", "/disposition", QUIET)[0] == 200
        assert table.as_seat(seat, "POST", "/ready")[0] == 200
    return table


def on(api: Api, table: TableGame) -> TableGame:
    """The same game and tokens, reached through another referee."""
    return TableGame(api, table.id, table.host_token, table.tokens)


def idle(table: TableGame) -> dict:
    turn = table.view("red")["turn"]
    status, report, _ = table.as_seat(turn, "POST", "/moves",
                                      {"weapon": "salvo", "at": IDLE_SQUARES})
    assert status == 201, report
    return report


def view_and_etag(table: TableGame, seat: str) -> tuple[dict, str]:
    status, body, headers = table.as_seat(seat, "GET")
    assert status == 200, body
    return body, headers["ETag"]


def test_a_move_through_one_server_is_seen_by_the_other_at_once(tmp_path):
    one = LiveServer(tmp_path / "shared.db").start()
    two = LiveServer(tmp_path / "shared.db").start()
    try:
        first = in_play(one.api())
        second = on(two.api(), first)
        for n in range(6):  # each server in turn, each view cached on both before the move
            mover, watcher = (first, second) if n % 2 == 0 else (second, first)
            before = {seat: view_and_etag(watcher, seat) for seat in ("red", "blue")}
            report = idle(mover)
            for seat in ("red", "blue"):
                old_view, old_etag = before[seat]
                status, _, headers = watcher.as_seat(seat, "GET",
                                                     headers={"If-None-Match": old_etag})
                assert status == 200, "the other server still answered 304 after the move"
                view, etag = view_and_etag(watcher, seat)
                assert etag == headers["ETag"] != old_etag
                assert len(view["reports"]) == len(old_view["reports"]) + 1
                assert view["reports"][-1]["n"] == report["n"]
                assert view == mover.view(seat)
    finally:
        one.stop()
        two.stop()


def test_a_restart_loses_nothing_and_serves_the_same_views_and_etags(tmp_path):
    server = LiveServer(tmp_path / "club.db").start()
    try:
        table = in_play(server.api())
        for _ in range(7):
            idle(table)
        before = {seat: view_and_etag(table, seat) for seat in ("red", "blue")}
    finally:
        server.kill()  # a pulled plug: nothing is flushed on the way out
    again = LiveServer(tmp_path / "club.db").start()
    try:
        table = on(again.api(), table)
        for seat, (view, etag) in before.items():
            status, _, headers = table.as_seat(seat, "GET", headers={"If-None-Match": etag})
            assert (status, headers["ETag"]) == (304, etag)
            assert view_and_etag(table, seat) == (view, etag)
        idle(table)  # and play goes on from where it stopped
        assert len(table.view("red")["reports"]) == len(before["red"][0]["reports"]) + 1
    finally:
        again.stop()


def test_a_kept_view_is_never_served_after_another_process_appends(tmp_path):
    """This test's app keeps Red's view; another process moves; the kept view must not be
    served again, whether asked with its ETag, without one, or for the raw JSON."""
    database = tmp_path / "shared.db"
    app = create_app({"TESTING": True, "DATABASE": str(database), "SECRET_KEY": "test",
                      "PUBLIC_URL": "http://localhost"})
    here = Api(FlaskTransport(app.test_client()))
    other = LiveServer(database).start()
    try:
        table = in_play(here)
        there = on(other.api(), table)
        for _ in range(4):
            kept, etag = view_and_etag(table, "red")
            assert view_and_etag(table, "red") == (kept, etag)  # served from the cache
            report = idle(there)
            status, _, headers = table.as_seat("red", "GET", headers={"If-None-Match": etag})
            assert status == 200 and headers["ETag"] != etag
            view, _ = view_and_etag(table, "red")
            assert view != kept and view["reports"][-1]["n"] == report["n"]
            assert view == there.view("red")
    finally:
        other.stop()


def test_a_kept_view_is_gzipped_once_and_says_so(api):
    table = in_play(api)
    for _ in range(30):
        idle(table)
    plain = api.send("GET", table.path(), None, {"Authorization": f"Bearer "
                                                 f"{table.tokens['red']}"})
    client = api.send.client
    zipped = client.get(table.path(), headers={"Authorization": f"Bearer {table.tokens['red']}",
                                               "Accept-Encoding": "gzip, deflate, br"})
    again = client.get(table.path(), headers={"Authorization": f"Bearer {table.tokens['red']}",
                                              "Accept-Encoding": "gzip"})
    assert zipped.status_code == 200 and zipped.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped.headers["Vary"]
    assert zipped.headers["ETag"] == plain[2]["ETag"]
    assert zipped.data == again.data  # the same bytes: compressed once, kept
    assert len(zipped.data) < len(gzip.decompress(zipped.data)) // 3
    assert gzip.decompress(zipped.data) == client.get(
        table.path(), headers={"Authorization": f"Bearer {table.tokens['red']}"}).data
    assert zipped.headers["Content-Length"] == str(len(zipped.data))


def test_a_write_inside_a_write_fails_at_once_rather_than_waiting_for_ever(tmp_path):
    """Threads queue on the store's own writer lock; a nested write on one thread
    is refused by SQLite as before, never a thread stuck on its own lock."""
    import sqlite3
    import threading

    from referee.store import Store

    store = Store(tmp_path / "nested.db")
    store.migrate()
    failed = []

    def nested() -> None:
        try:
            with store.write(), store.write():
                pass
        except sqlite3.OperationalError as error:
            failed.append(error)

    worker = threading.Thread(target=nested, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive() and failed, "a nested write waited on its own lock"


def test_a_kept_view_answered_before_flask_is_what_flask_sends(api):
    """The cheap path serves a built view's bytes without entering Flask: the same status,
    headers (but the date) and body as the app itself sends for the same request, plain and
    gzipped, and it is taken only once the view is built."""
    table = in_play(api)
    for _ in range(5):
        idle(table)
    app = api.send.client.application
    host_check = app.wsgi_app  # the outermost layer (referee/hosts.py)
    shortcut = host_check.app
    flask_only = shortcut.app  # the app behind the shortcut
    auth = {"Authorization": f"Bearer {table.tokens['red']}"}
    entered = []

    def counting(environ, start_response):
        entered.append(environ["PATH_INFO"])
        return flask_only(environ, start_response)

    shortcut.app = counting
    try:
        for extra in ({}, {"Accept-Encoding": "gzip, deflate"}):
            first = api.send.client.get(table.path(), headers={**auth, **extra})
            entered_before = len(entered)
            kept = api.send.client.get(table.path(), headers={**auth, **extra})
            assert len(entered) == entered_before  # the second never entered Flask
            shortcut.app = flask_only
            app.wsgi_app = flask_only
            try:
                direct = api.send.client.get(table.path(), headers={**auth, **extra})
            finally:
                app.wsgi_app = host_check
                shortcut.app = counting
            for response in (first, kept):
                assert response.status_code == direct.status_code == 200
                assert response.data == direct.data
                assert sorted((k, v) for k, v in response.headers.items() if k != "Date") == \
                    sorted((k, v) for k, v in direct.headers.items() if k != "Date")
        assert entered  # the first asking of each was built by the app
    finally:
        shortcut.app = flask_only


def test_r21_a_seats_kept_report_copies_give_the_view_a_fresh_replay_gives():
    """The Naval War Game's views keep each seat's copy of each report (so a view's cost does
    not grow with the reports already copied): after every move of a random three-seat game,
    and once it is over (when every copy becomes the full report, R21), every seat's view and
    record are those of a fresh replay of the same log, which has kept nothing."""
    import copy
    import random

    from helpers import random_move, started_game

    from referee.naval_war import replay, view_for
    from referee.naval_war.views import record_for

    rng = random.Random(15)
    game = started_game(seats=3)
    for _ in range(40):
        if game.phase != "play":
            break
        game.move(game.turn, random_move(game, rng))
        fresh = replay(game.events)
        for seat in game.seats:
            assert view_for(game, seat) == view_for(fresh, seat)
            assert record_for(game, seat) == record_for(fresh, seat)
    forked = copy.deepcopy(game)
    assert not forked.memo  # a copy starts without the kept copies, and refills them
    game.resign(game.turn)
    assert game.phase == "over"
    fresh = replay(game.events)
    for seat in game.seats:
        assert view_for(game, seat) == view_for(fresh, seat)
        assert all("from" in r for r in view_for(game, seat)["reports"]
                   if r["weapon"] in ("bomber", "atom-bomber", "recon"))
    assert view_for(forked, "red") == view_for(replay(forked.events), "red")


def test_a_games_status_is_made_once_a_version_and_is_a_fresh_replays():
    """A game's public status is made once a version and kept in the game's memo (a move
    asks for it some ten times): asked twice at one version it is the same document, and
    after every move, and at the end, it is the status a fresh replay of the same log gives,
    which has kept nothing; a copy of the game starts without it."""
    import copy
    import random

    from helpers import random_move, started_game

    from referee.common.views import status_view
    from referee.naval_war import replay

    rng = random.Random(16)
    game = started_game(seats=2)
    for _ in range(30):
        if game.phase != "play":
            break
        shown = status_view(game)
        assert status_view(game) is shown
        assert shown == status_view(replay(game.events))
        game.move(game.turn, random_move(game, rng))
        assert status_view(game) is not shown and status_view(game)["version"] == game.version
    forked = copy.deepcopy(game)
    assert not forked.memo
    game.resign(game.turn)
    assert status_view(game)["phase"] == "over"
    assert status_view(game) == status_view(replay(game.events))
    assert status_view(forked) == status_view(replay(forked.events))
