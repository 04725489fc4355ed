"""The store's contract, on both engines (a SQLite file and a real PostgreSQL): the same
migrations and tables, a log that never forks, a write that is whole or nothing, a write inside
a write refused at once, and the write path's guarantees when several connections (as several
servers would) write at once: one version check and append per command, every wrong recovery
code counted, a rate limit kept, a due game taken by one server, a content hash claimed once.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Iterator

import pytest
from conftest import database_of

from referee import store as store_module
from referee.store import GAME_TABLES, MIGRATIONS, SeqTaken, Store, digest


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    return database_of(request.param, tmp_path, request)


@pytest.fixture
def store(database):
    opened = Store(database)
    opened.migrate()
    yield opened
    opened.close()


def game(store: Store, game_id: str = "g1", seats=("red", "blue")) -> str:
    with store.write(game_id):
        store.add_game(game_id, f"host-{game_id}", seats, "naval-war", 1.0)
    return game_id


def event(n: int) -> dict:
    return {"type": "note", "n": n}


def in_threads(count: int, work) -> list[BaseException]:
    """Run ``work(i)`` in ``count`` threads at once; the failures."""
    failures: list[BaseException] = []
    start = threading.Barrier(count)

    def run(i: int) -> None:
        try:
            start.wait()
            work(i)
        except BaseException as failure:  # noqa: BLE001 - reported to the test
            failures.append(failure)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads), "a writer never finished"
    return failures


def test_both_engines_apply_the_same_named_migrations_once(store):
    assert store.applied_migrations() == [name for name, _ in MIGRATIONS]
    assert store.migrate() == []  # a second start applies nothing
    from referee.store import postgresql

    assert [n for names, _ in postgresql.MIGRATIONS for n in names] == \
        [name for name, _ in MIGRATIONS]


def test_both_engines_have_the_same_tables_and_columns(tmp_path, request):
    sqlite, postgres = (Store(database_of(engine, tmp_path, request))
                        for engine in ("sqlite", "postgresql"))
    for each in (sqlite, postgres):
        each.migrate()
    assert sqlite.tables() - {"changes"} == postgres.tables()  # PostgreSQL NOTIFYs instead
    for table in postgres.tables():  # PostgreSQL names the order of rows SQLite keeps itself
        assert set(sqlite.columns(table)) == set(postgres.columns(table)) - {"rowid"}, table


def test_every_table_that_keeps_a_game_is_left_by_a_removed_game(store):
    keeping = {t for t in store.tables() if "game_id" in store.columns(t)}
    assert keeping - {"changes"} == set(GAME_TABLES)  # SQLite's notes for the streams
    game(store, "gone")
    game(store, "kept")
    with store.write("gone"):
        store.append("gone", 1, [event(1)], 2.0)
        store.keep_draft("gone", "red", {"a": 1})
        store.keep_note("marks", "gone", "red", {"b": 2})
        store.remember("gone", "red", "k", 201, {"n": 1})
        store.keep_due("gone", 5.0)
        store.mark_finished("gone", 3.0)
        store.keep_club_entry("gone", "naval-war", True, {"x": 1})
    with store.write():
        store.remove_game("gone")
    assert not store.game_exists("gone") and store.game_exists("kept")
    for table, _, rows in store.dump():
        assert all("gone" not in row for row in rows), table


def schema_of(store: Store) -> list[tuple]:
    """Every table, column and index of the store's database, as its engine lists them."""
    if store.engine == "sqlite":
        return sorted(store.db.conn.execute("select type, name, sql from sqlite_master"))
    return sorted([*store.conn.execute(
        "select table_name, column_name, data_type from information_schema.columns "
        "where table_schema = current_schema()"), *store.conn.execute(
        "select tablename, indexname, indexdef from pg_indexes "
        "where schemaname = current_schema()")])


@contextlib.contextmanager
def schema_frozen(store: Store) -> Iterator[list]:
    """The store's connection may read and write rows but not change the schema: SQLite's
    authoriser refuses every CREATE, ALTER and DROP (each noted in the list yielded); on
    PostgreSQL the connection acts as a role of its own that may use the schema's tables
    and sequences and neither create in the schema nor alter what it does not own."""
    refused: list = []
    if store.engine == "sqlite":
        changes = {sqlite3.SQLITE_CREATE_TABLE, sqlite3.SQLITE_CREATE_INDEX,
                   sqlite3.SQLITE_CREATE_TEMP_TABLE, sqlite3.SQLITE_CREATE_VIEW,
                   sqlite3.SQLITE_CREATE_TRIGGER, sqlite3.SQLITE_ALTER_TABLE,
                   sqlite3.SQLITE_DROP_TABLE, sqlite3.SQLITE_DROP_INDEX}

        def frozen(action, *names):
            if action in changes:
                refused.append((action, names))
                return sqlite3.SQLITE_DENY
            return sqlite3.SQLITE_OK

        store.db.conn.set_authorizer(frozen)
        try:
            yield refused
        finally:
            store.db.conn.set_authorizer(None)
        return
    role = f"rows_only_{secrets.token_hex(4)}"
    schema = store.conn.execute("select current_schema()").fetchone()[0]
    for statement in (f"create role {role}", f"grant usage on schema {schema} to {role}",
                      f"grant select, insert, update, delete on all tables in schema {schema} "
                      f"to {role}",
                      f"grant usage, select on all sequences in schema {schema} to {role}",
                      f"set role {role}"):
        store.conn.execute(statement)
    try:
        yield refused
    finally:
        store.conn.execute("reset role")
        store.conn.execute(f"drop owned by {role}")
        store.conn.execute(f"drop role {role}")


def test_a_first_write_makes_no_table_every_table_is_the_migrations(store):
    """Every table and index the store writes is made by a migration (``MIGRATIONS``): with
    the schema frozen once the migrations ran, every kind of first write succeeds and the
    schema is as the migrations left it: a game, its seats and events, hosting, a draft and
    a note, an idempotent move's answer, a rate limit, a wrong recovery code, a trusted key,
    a computer due, the finish, an import's hash and signer, a club entry, a seat seen."""
    schema = schema_of(store)
    with schema_frozen(store) as refused:
        with store.write():
            store.add_game("g1", "host", ["red", "blue"], "naval-war", 1.0)
            store.append("g1", 1, [event(1), event(2)], 2.0)
            store.claim("g1", "red", "token", "recovery")
            store.hand_over("g1", "red", "nobody")
            store.keep_secret("g1", "secret")
            store.keep_draft("g1", "red", {"ships": []})
            for table in store_module.NOTES:
                store.keep_note(table, "g1", "red", {"note": table})
            store.remember("g1", "red", "key", 200, {"ok": True}, "digest")
            store.guessed_wrong("client", 1, 3.0, 2.0)
            store.trust("public", "another club", 2.0)
            store.keep_due("g1", 5.0)
            store.mark_finished("g1", 6.0)
            store.claim_content_hash("g1", "hash")
            store.mark_imported("g1", "hash", "public")
            store.keep_club_entry("g1", "naval-war", True, {"players": []})
        store.seen("g1", "red", 7.0)
        store.seen_many([("g1", "blue")], 7.5)
        assert store.take_turn("client:imports", 3, 60.0, 8.0) == 0
        assert store.take_due(9.0) == ["g1"]
        assert not refused
        assert schema_of(store) == schema
        assert store.note("marks", "g1", "red") == {"note": "marks"}
        assert store.draft("g1", "red") == ({"ships": []}, 1)
        with pytest.raises(Exception, match="not authorized|permission denied"):  # noqa: B017
            store._run("create table stray (x integer)")  # the guard is real
    assert "stray" not in store.tables()


def test_sqlite_changes_take_the_next_number_without_a_counter_and_the_migration_keeps_them(
        tmp_path):
    """A SQLite file migrated to 0020 keeps its changes through migration 0021, which
    numbers them without AUTOINCREMENT's counter: a new change takes the next number, the
    oldest pruned leave the newest's number as it was, and a move's write leaves a page
    fewer in the WAL (five here, none split, of six)."""
    store = Store(tmp_path / "old.db")
    store.db["migrations"].create({"name": str, "applied_at": float}, pk="name")
    for name, step in MIGRATIONS[:20]:
        step(store.db)
        store.db["migrations"].insert({"name": name, "applied_at": 0.0})
    game(store)
    with store.write("g1"):
        store.append("g1", 1, [event(1), event(2)], 2.0)
    last = store.db.conn.execute("select max(seq) from changes").fetchone()[0]
    assert store.migrate() == ["0021_changes_without_their_counter"]
    schema = {name: sql for name, sql in store.db.conn.execute(
        "select name, sql from sqlite_master where type = 'table'")}
    assert "autoincrement" not in schema["changes"].lower()
    assert store.events("g1") == [event(1), event(2)] and store.version("g1") == 2
    with store.write("g1"):
        store.append("g1", 3, [event(3)], 3.0)
    assert store.db.conn.execute("select max(seq) from changes").fetchone()[0] == last + 1
    with store.write("g1"):
        store.db.conn.execute("delete from changes where seq < ?", [last + 1])
        store.append("g1", 4, [event(4)], 3.0)
    assert store.db.conn.execute("select min(seq), max(seq) from changes").fetchone() == \
        (last + 1, last + 2)
    wal = tmp_path / "old.db-wal"
    store.db.conn.execute("pragma wal_checkpoint(truncate)")
    with store.write("g1"):  # a move: its event, its change, its key
        store.append("g1", 5, [event(5)], 4.0)
        store.remember("g1", "blue", "k2", 201, {"n": 4}, "digest")
    assert wal.stat().st_size <= 5 * (4096 + 24) + 32, "more pages than a move needs"
    store.close()


def test_a_sequence_number_taken_twice_fails_and_the_log_never_forks(store):
    game(store)
    with store.write("g1"):
        store.append("g1", 1, [event(1), event(2)], 2.0)
    with pytest.raises(SeqTaken), store.write("g1"):
        store.append("g1", 2, [event(99)], 3.0)
    assert store.events("g1") == [event(1), event(2)] and store.version("g1") == 2
    with pytest.raises(SeqTaken), store.write("g1"):  # the first one taken, the second not
        store.append("g1", 2, [event(98), event(99)], 3.0)
    assert store.events("g1") == [event(1), event(2)] and not store.in_transaction


def test_a_write_that_fails_leaves_nothing_half_applied(store):
    game(store)
    with pytest.raises(RuntimeError), store.write("g1"):
        store.append("g1", 1, [event(1)], 2.0)
        store.remember("g1", "red", "k", 201, {"n": 1})
        raise RuntimeError("the command failed after its events")
    assert store.version("g1") == 0 and store.remembered("g1", "red", "k") is None
    assert not store.in_transaction


def test_a_write_inside_a_write_fails_at_once(store):
    failed: list[BaseException] = []

    def nested() -> None:
        try:
            with store.write("g1"), store.write("g1"):
                pass
        except Exception as error:  # noqa: BLE001 - each engine's own refusal
            failed.append(error)

    worker = threading.Thread(target=nested, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert not worker.is_alive() and failed, "a nested write waited on its own lock"
    assert not store.in_transaction


def eight_connections_append_ten_times(database: str, append_once) -> None:
    """Eight connections (as eight servers) each append 10 times to one game, each append
    ``append_once(store, i, n)``, which tells whether it was made (else it is tried again):
    no append is lost or doubled and no number is taken twice."""
    first = Store(database)
    first.migrate()
    game(first)

    def writer(i: int) -> None:
        mine = Store(database)
        done = 0
        while done < 10:
            done += append_once(mine, i, done)
        mine.close()

    assert in_threads(8, writer) == []
    events = first.events("g1")
    assert len(events) == 80 == first.version("g1")
    assert sorted((e["by"], e["n"]) for e in events) == [(i, n) for i in range(8)
                                                         for n in range(10)]
    first.close()


def test_one_version_check_and_append_per_command_across_connections(database):
    """Each append after checking, inside its write, the version it read before: a write
    that found the version moved tries again, as ``service.act`` does with no events."""
    def checked_first(mine: Store, i: int, n: int) -> bool:
        seen = mine.version("g1")
        with mine.write("g1"):
            if mine.version("g1") != seen:
                return False
            mine.append("g1", seen + 1, [{"type": "note", "by": i, "n": n}], time.time())
        return True

    eight_connections_append_ten_times(database, checked_first)


def test_an_append_made_without_reading_the_version_finds_its_number_taken_and_tries_again(
        database):
    """Each append at the version read before its write, reading nothing inside it: a
    number taken meanwhile fails the append (``SeqTaken``, as ``engine.append_events``
    relies on) and nothing else of that write is kept."""
    def unread(mine: Store, i: int, n: int) -> bool:
        seen = mine.version("g1")
        try:
            with mine.write("g1"):
                mine.append("g1", seen + 1, [{"type": "note", "by": i, "n": n}], time.time())
                mine.remember("g1", "red", f"{i}-{n}", 201, {"n": n})
        except SeqTaken:
            assert mine.remembered("g1", "red", f"{i}-{n}") is None
            return False
        return True

    eight_connections_append_ten_times(database, unread)


def test_every_wrong_recovery_code_is_counted_when_servers_count_at_once(database):
    """Six connections each count 5 wrong codes of one client, reading and writing its count
    inside a write of a game of their own, as ``recover_seat`` does: all 30 are counted."""
    first = Store(database)
    first.migrate()
    for i in range(6):
        game(first, f"g{i}")

    def guesser(i: int) -> None:
        mine = Store(database)
        for _ in range(5):
            with mine.write(f"g{i}"):
                failures, _, _ = mine.recovery_guesses("10.0.0.9")
                mine.guessed_wrong("10.0.0.9", failures + 1, 0.0, time.time())
        mine.close()

    assert in_threads(6, guesser) == []
    assert first.recovery_guesses("10.0.0.9")[0] == 30
    first.close()


def test_a_rate_limit_holds_when_servers_ask_at_once(database):
    first = Store(database)
    first.migrate()
    granted = []

    def asker(i: int) -> None:
        mine = Store(database)
        for _ in range(5):
            granted.append(mine.take_turn("imports:10.0.0.9", 7, 60.0, time.time()) == 0)
        mine.close()

    assert in_threads(4, asker) == []
    assert sum(granted) == 7 and len(granted) == 20
    first.close()


def test_a_due_game_is_taken_by_one_server_until_its_lease_ends(database):
    one, two = Store(database), Store(database)
    one.migrate()
    for i in range(6):
        game(one, f"g{i}")
        with one.write(f"g{i}"):
            one.keep_due(f"g{i}", 100.0 + i)
    taken: dict[int, list[str]] = {}

    def taker(i: int) -> None:
        taken[i] = (one, two)[i].take_due(200.0, limit=4, lease_s=30.0)

    assert in_threads(2, taker) == []
    assert sorted(taken[0] + taken[1]) == [f"g{i}" for i in range(6)]  # each once
    assert one.take_due(210.0) == []  # taken, and the lease not over
    assert sorted(two.take_due(231.0)) == [f"g{i}" for i in range(6)]  # the takers died
    with one.write("g0"):
        one.keep_due("g0", None)  # moved: no computer due
    assert "g0" not in one.take_due(1000.0)


def test_a_content_hash_is_claimed_by_one_game_when_two_finish_at_once(database):
    first = Store(database)
    first.migrate()
    for i in range(4):
        game(first, f"g{i}")

    def finisher(i: int) -> None:
        mine = Store(database)
        with mine.write(f"g{i}"):
            mine.mark_finished(f"g{i}", 5.0)
            mine.claim_content_hash(f"g{i}", "same-content")
        mine.close()

    assert in_threads(4, finisher) == []
    owner = first.game_with_content("same-content")
    assert owner in {f"g{i}" for i in range(4)}
    assert len(first.finished_without_content_hash()) == 3
    first.close()


def test_postgresql_writes_to_different_games_do_not_wait_for_each_other(tmp_path, request):
    """A write to one game held open does not hold up a write to another; a write across
    games waits for it, as every write does on SQLite."""
    database = database_of("postgresql", tmp_path, request)
    one, two, three = Store(database), Store(database), Store(database)
    one.migrate()
    game(one, "a")
    game(one, "b")
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with one.write("a"):
            one.append("a", 1, [event(1)], 1.0)
            holding.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(10)
    started = time.monotonic()
    with two.write("b"):
        two.append("b", 1, [event(1)], 1.0)
    assert time.monotonic() - started < 2
    waited: list[float] = []

    def write_across() -> None:
        begun = time.monotonic()
        with three.write():
            three.trust("key", "Other club", 1.0)
        waited.append(time.monotonic() - begun)

    across = threading.Thread(target=write_across)
    across.start()
    time.sleep(0.5)
    assert not waited, "a write across games did not wait for the write to a game"
    release.set()
    holder.join(10)
    across.join(10)
    assert waited and waited[0] >= 0.4 and three.trusted_keys() == {"key"}
    assert one.version("a") == 1 == two.version("b")


def test_a_draft_is_replaced_in_place_and_its_revision_counts(store):
    game(store)
    for n in range(3):
        with store.write("g1"):
            store.keep_draft("g1", "red", {"n": n})
    assert store.draft("g1", "red") == ({"n": 2}, 3) and store.view_stamp("g1", "red") == (0, 3)
    with store.write("g1"):
        store.drop_draft("g1", "red")
    assert store.draft("g1", "red") is None and store.draft_revision("g1", "red") == 0


def test_seats_keep_their_order_and_tokens_find_their_holder(store):
    game(store, "g1", seats=("red", "blue", "green", "gold"))
    assert list(store.open_seats("g1")) == ["red", "blue", "green", "gold"]
    with store.write("g1"):
        store.claim("g1", "blue", "token-blue", "recovery")
    assert list(store.open_seats("g1")) == ["red", "green", "gold"]
    assert store.holder_of("token-blue") == ("g1", "blue")
    assert store.holder_of("host-g1") == ("g1", None) and store.holder_of("nobody") is None
    with store.write("g1"):
        assert store.reissue("g1", "blue") == 1
    assert store.holder_of("token-blue") is None and store.open_seats("g1")["blue"] == 1


def test_a_games_seat_tokens_name_each_held_seat_and_its_draft_revision(store):
    """``seat_tokens``: every token that holds one of the game's seats (by its hash), the
    seat and its draft's revision; a seat nobody holds, a reissued token and another game's
    seats are not among them."""
    game(store, "g1", seats=("red", "blue", "green"))
    game(store, "g2", seats=("red", "blue"))
    with store.write("g1"):
        store.claim("g1", "red", "token-red", "recovery-red")
        store.claim("g1", "blue", "token-blue", "recovery-blue")
        store.keep_draft("g1", "blue", {"n": 1})
        store.keep_draft("g1", "blue", {"n": 2})
    with store.write("g2"):
        store.claim("g2", "red", "token-other", "recovery-other")
    assert store.seat_tokens("g1") == {digest("token-red"): ("red", 0),
                                       digest("token-blue"): ("blue", 2)}
    with store.write("g1"):
        store.reissue("g1", "red")
    assert store.seat_tokens("g1") == {digest("token-blue"): ("blue", 2)}


def test_the_club_stamp_moves_whenever_the_counted_games_change(store):
    stamps = [store.club_stamp("naval-war")]
    for i in range(3):
        game(store, f"g{i}")
        with store.write(f"g{i}"):
            store.mark_finished(f"g{i}", 10.0 + i)
            store.keep_club_entry(f"g{i}", "naval-war", True, {"i": i}, played=i != 1)
        stamps.append(store.club_stamp("naval-war"))
    assert stamps[1] != stamps[0] and stamps[2] == stamps[1] and stamps[3] != stamps[2]
    assert [e["i"] for e in store.counted_club_entries("naval-war")] == [0, 2]
    with store.write():
        store.count_club_entry("g1", True)  # never played: counts in no record
        store.count_club_entry("g2", False)
    assert [e["i"] for e in store.counted_club_entries("naval-war")] == [0]
    assert [e["id"] for e in store.finished_listing(0, 10)] == ["g2", "g1", "g0"]
    assert store.finished_count() == 3


def test_a_process_keeps_its_states_per_database(database):
    """Two stores on one database share this process's kept states; a new ``PerFile`` (a
    new process) keeps nothing."""
    from referee.states import states_of

    one, two = Store(database), Store(database)
    kept = states_of(one)
    assert states_of(two) is kept
    before = store_module.PER_FILE
    try:
        store_module.PER_FILE = store_module.PerFile()
        assert states_of(one) is not kept and states_of(two) is states_of(one)
    finally:
        store_module.PER_FILE = before
    one.close()
    two.close()


def test_a_lost_postgresql_connection_is_a_503_and_the_next_request_connects_again(
        tmp_path, request):
    """The database restarted (its connection to this server ended): the request that finds
    out is told to try again, nothing changed (503, never a 500); the next one reconnects."""
    import psycopg
    from apiclient import Api, FlaskTransport, open_table

    from referee import create_app

    database = database_of("postgresql", tmp_path, request)
    app = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test",
                      "SIGNING_KEY_FILE": str(tmp_path / "key"),
                      "PUBLIC_URL": "http://localhost"})
    api = Api(FlaskTransport(app.test_client()))
    table = open_table(api)

    def lose_connection() -> None:
        lost = app.extensions["referee.store"]().conn.info.backend_pid
        with psycopg.connect(database, autocommit=True) as admin:
            admin.execute("select pg_terminate_backend(%s, 10000)", [lost])  # till it ends

    lose_connection()
    status, body, _ = api.call("GET", table.path("/host"), token=table.host_token)
    assert status == 503 and "try again" in body["errors"][0]["message"], body
    assert api.call("GET", table.path("/host"), token=table.host_token)[0] == 200
    lose_connection()  # a poll: the shortcut before Flask steps aside, the app connects again
    assert table.as_seat("red", "GET")[0] == 200


def test_postgresql_tells_every_watcher_which_games_changed_once_committed(tmp_path, request):
    """What a server's streams wait on: a game noted as changed inside a write reaches a
    watcher on another connection when the write commits, never when it rolls back; a
    lost connection says that changes may have been missed, then listens again."""
    import psycopg

    database = database_of("postgresql", tmp_path, request)
    writer = Store(database)
    writer.migrate()
    watcher = Store(database).change_watcher()
    assert watcher.wait(0.05) == set()
    with writer.write("g1"):
        writer.changed("g1")
        assert watcher.wait(0.2) == set()  # not before it commits
    assert watcher.wait(5) == {"g1"}
    with pytest.raises(RuntimeError), writer.write("g2"):
        writer.changed("g2")
        raise RuntimeError("rolled back")
    for game_id in ("g3", "g4"):
        with writer.write(game_id):
            writer.changed(game_id)
    seen: set[str] = set()
    while len(seen) < 2:
        seen |= watcher.wait(5)
    assert seen == {"g3", "g4"}  # g2 never
    other = database_of("postgresql", tmp_path, request)  # another referee's schema
    with Store(other).write("g5") as elsewhere:
        elsewhere.changed("g5")
    assert watcher.wait(0.3) == set()
    with psycopg.connect(database, autocommit=True) as admin:
        admin.execute("select pg_terminate_backend(%s, 10000)", [watcher.conn.info.backend_pid])
    assert watcher.wait(1) is None  # lost: changes may have been missed
    with writer.write("g6"):
        writer.changed("g6")  # while nobody listens
    assert watcher.wait(1) is None  # listening again, and g6 may have been missed
    with writer.write("g7"):
        writer.changed("g7")
    assert watcher.wait(5) == {"g7"}
    woken = threading.Timer(0.2, watcher.wake)  # the hub has a new stream to look at
    woken.start()
    started = time.monotonic()
    assert watcher.wait(10) == set() and time.monotonic() - started < 5
    watcher.close()
    writer.close()


def test_a_sqlite_watcher_reads_at_once_the_games_its_process_streams_and_the_rest_within_a_look(
        tmp_path):
    """A write rings the watchers' bells on the file naming the games it changed: a watcher
    whose process streams one of them reads the changes at once; one rung only for games its
    process does not stream (a game whose slot in its wants it shares) leaves the table
    unread and still has those changes within ``LOOK_ANYWAY_S``; a rolled back write rings
    nobody, and a watcher that came after a ring is rung by the next."""
    from referee.store import sqlite as sqlite_store

    database = str(tmp_path / "watched.db")
    writer = Store(database)
    writer.migrate()
    with writer.write("before"):
        writer.changed("before")  # the writer has rung (and listed the bells) already
    time.sleep(0.05)  # a tick of the folder's clock: a bell made now changes its time
    twin = next(f"twin-{n}" for n in itertools.count()  # its slot in the wants is theirs'
                if sqlite_store.wants_slot(f"twin-{n}") == sqlite_store.wants_slot("theirs"))
    streamed = {"mine", twin}
    watcher = Store(database).change_watcher()
    watcher.watching(streamed)  # its twin's slot set: a writer rings it for theirs too
    assert watcher.wait(0.05) == set()
    with writer.write("theirs"):
        writer.changed("theirs")
    started = time.monotonic()
    assert watcher.wait(5) == set()  # rung, for a game this process does not stream
    assert time.monotonic() - started < sqlite_store.LOOK_ANYWAY_S / 2  # by the bell
    with pytest.raises(RuntimeError), writer.write("mine"):
        writer.changed("mine")
        raise RuntimeError("rolled back")
    assert watcher.wait(0.2) == set()
    with writer.write("mine"):
        writer.changed("mine")
    started = time.monotonic()
    assert watcher.wait(5) == {"theirs", "mine"}  # at once, with the change left unread
    assert time.monotonic() - started < sqlite_store.LOOK_ANYWAY_S / 2
    with writer.write("theirs"):
        writer.changed("theirs")
    seen: set[str] | None = set()
    started = time.monotonic()
    while seen == set() and time.monotonic() - started < 5:
        seen = watcher.wait(5)
    assert seen == {"theirs"}  # never lost: read on the watcher's own look
    assert time.monotonic() - started >= sqlite_store.LOOK_ANYWAY_S / 2
    many = [f"game-{n:04}" for n in range(sqlite_store.RUNG_AT_ONCE // 8)]
    with writer.write("many"):
        for game_id in many:
            writer.changed(game_id)  # too many to name: the ring names none, and is read
    started = time.monotonic()
    assert watcher.wait(5) == set(many)
    assert time.monotonic() - started < sqlite_store.LOOK_ANYWAY_S / 2
    watcher.close()
    writer.close()


def test_a_sqlite_writer_rings_only_the_watchers_whose_process_streams_the_game(tmp_path):
    """A watcher says which games its process streams (``watching``); a writer rings its
    bell only for a change of one of those, so that a process is not woken at each move of
    a game it holds no stream of (a wake costs this machine about 0.2 ms). Such a change
    is still read, with the next change rung for, or on the watcher's own look."""
    from referee.store import sqlite as sqlite_store

    database = str(tmp_path / "wants.db")
    writer = Store(database)
    writer.migrate()
    watcher = Store(database).change_watcher()
    watcher.watching({"mine"})
    assert watcher.wait(0.05) == set()
    with writer.write("theirs"):
        writer.changed("theirs")
    started = time.monotonic()
    assert watcher.wait(0.3) == set()
    assert time.monotonic() - started >= 0.25  # not woken: it waited its whole timeout
    with writer.write("mine"):
        writer.changed("mine")
    started = time.monotonic()
    assert watcher.wait(5) == {"theirs", "mine"}  # woken at once; the other read with it
    assert time.monotonic() - started < sqlite_store.LOOK_ANYWAY_S / 2
    watcher.watching(set())  # its last stream of the game closed
    with writer.write("mine"):
        writer.changed("mine")
    started = time.monotonic()
    assert watcher.wait(0.3) == set() and time.monotonic() - started >= 0.25
    watcher.watching({"mine", "another"})
    with writer.write("mine"):
        writer.changed("mine")
    assert watcher.wait(5) == {"mine"}
    watcher.close()
    assert not any((tmp_path / "wants.db.wants").iterdir())  # its wants go with its bell
    writer.close()


def test_a_sqlite_watcher_whose_bell_is_past_descriptor_1023_still_waits_and_is_rung(
        tmp_path):
    """A process holding a thousand streams (``serving.room_for_streams`` lets it) may make a
    watcher whose bell's descriptor is past 1,023, which ``select.select`` refuses; the
    watcher waits on it all the same, and a writer's ring ends its wait at once."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"this system lets a process open {hard} files, not past 1,023")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    database = str(tmp_path / "many.db")
    writer = Store(database)
    writer.migrate()
    spare = []
    try:
        while not spare or spare[-1] < 1030:
            spare.append(os.open(os.devnull, os.O_RDONLY))
        watcher = Store(database).change_watcher()
        assert watcher.bell is not None and watcher.bell.fileno() > 1023
        assert watcher.wait(0.05) == set()
        with writer.write("g"):
            writer.changed("g")
        started = time.monotonic()
        assert watcher.wait(5) == {"g"}
        assert time.monotonic() - started < 0.5  # rung, not its own look
        watcher.close()
    finally:
        for fd in spare:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        writer.close()

def test_a_process_that_writes_to_many_database_files_keeps_the_bells_of_the_last_few(
        tmp_path):
    """Each database file's bells hold a socket, and a map of each watcher's wants; a
    process that writes to file after file (a test run, a shard tool) keeps only the last
    ``BELLS_KEPT`` files', not a descriptor or two for every file it ever wrote to."""
    from referee.store import sqlite as sqlite_store

    def held() -> int:
        """The bells' sockets and maps of wants this process holds open."""
        targets = []
        for fd in os.listdir("/proc/self/fd"):
            with contextlib.suppress(OSError):
                targets.append(os.readlink(f"/proc/self/fd/{fd}"))
        return sum(t.startswith("socket:") or ".wants/" in t for t in targets)

    before = held()
    for n in range(4 * sqlite_store.BELLS_KEPT):
        database = str(tmp_path / f"file-{n}.db")
        writer = Store(database)
        writer.migrate()
        watcher = Store(database).change_watcher()
        watcher.watching({"g"})
        with writer.write("g"):
            writer.changed("g")
        assert watcher.wait(5) == {"g"}  # rung, through the file's bells
        watcher.close()
        writer.close()
    assert len(sqlite_store._BELLS) <= sqlite_store.BELLS_KEPT
    assert held() - before <= 2 * sqlite_store.BELLS_KEPT  # a socket and a map a file

def test_a_files_checkpointing_thread_ends_once_the_file_is_gone(tmp_path):
    """The thread that copies a file's WAL back (``checkpoint_in_background``) ends, with
    its connection, once the file is gone; a file made there again is checkpointed again."""
    from referee.store import sqlite as sqlite_store

    database = str(tmp_path / "gone.db")
    store = Store(database)
    store.migrate()
    store.close()

    def checkpointing() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name == "wal-checkpoint"]

    before = checkpointing()
    sqlite_store.checkpoint_in_background(database, every_s=0.05)
    [thread] = [t for t in checkpointing() if t not in before]
    assert not sqlite_store.per_file().start_checkpointing(database)  # one a file
    for tail in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(database + tail)
    thread.join(5)
    assert not thread.is_alive()
    assert sqlite_store.per_file().start_checkpointing(database)  # made again: again

def test_a_watchers_wants_cleared_by_something_else_are_set_again_within_its_look(
        tmp_path, monkeypatch):
    """Wants zeroed in place (a hostile process of the referee's own user, a tool) would
    leave the watcher's changes to its own look, slower, never lost; the watcher sets its
    slots again every ``LOOK_ANYWAY_S``, so writers ring it at once again after that."""
    import mmap

    from referee.store import sqlite as sqlite_store

    monkeypatch.setattr(sqlite_store, "LOOK_ANYWAY_S", 0.2)
    database = str(tmp_path / "wants.db")
    Store(database).migrate()
    watcher = Store(database).change_watcher()
    watcher.watching({"mine"})
    [wants_file] = (tmp_path / "wants.db.wants").iterdir()
    slot = sqlite_store.wants_slot("mine")
    with open(wants_file, "r+b") as file, mmap.mmap(file.fileno(), 0) as wants:
        assert wants[slot] == 1
        wants[:] = bytes(len(wants))  # cleared by something else
        watcher.watching({"mine"})
        assert wants[slot] == 0  # not set again at every call: each costs the pusher
        time.sleep(0.25)
        watcher.watching({"mine"})
        assert wants[slot] == 1
        assert wants[:].count(1) == 1  # its own slot, no other
    watcher.close()
