"""The referee's SQLite storage through sqlite-utils: games, seats and every game's event log.

Every accepted change is appended to ``events`` inside one ``BEGIN IMMEDIATE`` transaction
(WAL mode), so several server processes can share one database file, a killed process loses
nothing that was acknowledged, and two writers to one game are served one after the other.
Tokens and join codes are stored only as SHA-256 hashes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import sqlite_utils

try:
    import fcntl
except ImportError:  # not a POSIX system: SQLite's own lock alone
    fcntl = None

BUSY_TIMEOUT_S = 15


class Holder(NamedTuple):
    """Who holds a token: a seat of a game, or the game's host (seat None)."""
    game_id: str
    seat: str | None


class Remembered(NamedTuple):
    """What an idempotency key's first request got: its status, its response body and the
    digest of its request (None for a key kept before digests were)."""
    status: int
    body: dict
    request: str | None


def digest(secret: str) -> str:
    """The only form in which a token or join code is stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _create_games(db: sqlite_utils.Database) -> None:
    db["games"].create({"id": str, "created_at": float, "host_hash": str, "rules": str},
                       pk="id")
    db["seats"].create({"game_id": str, "seat": str, "join_hash": str, "claimed": int,
                        "token_hash": str}, pk=("game_id", "seat"))
    db["seats"].create_index(["token_hash"])
    db["events"].create({"game_id": str, "seq": int, "type": str, "body": str, "at": float},
                        pk=("game_id", "seq"))
    db["idempotency"].create({"game_id": str, "seat": str, "key": str, "status": int,
                              "body": str}, pk=("game_id", "seat", "key"))


def _create_notes(db: sqlite_utils.Database) -> None:
    """A seat's private scratch: its draft fleet and its pencil marks. Not game state: the
    event log never sees them, and only that seat's token reads them."""
    db["drafts"].create({"game_id": str, "seat": str, "body": str}, pk=("game_id", "seat"))
    db["marks"].create({"game_id": str, "seat": str, "body": str}, pk=("game_id", "seat"))


def _add_finished(db: sqlite_utils.Database) -> None:
    """Finished games are listed on the club's records page without replaying every game."""
    db["games"].add_column("finished_at", float)
    db["games"].create_index(["finished_at"])


def _add_request_digest(db: sqlite_utils.Database) -> None:
    """An Idempotency-Key remembers which move it was for, so reusing it for another fails."""
    db["idempotency"].add_column("request", str)


def _add_join_links(db: sqlite_utils.Database) -> None:
    """The join codes the host page shows, sealed under the host's token (pages.seal), so
    the phone's session cookie need not carry them (issue 10, item 12)."""
    db["join_links"].create({"game_id": str, "seat": str, "body": str}, pk=("game_id", "seat"))


def _add_secrets_drafts_and_imports(db: sqlite_utils.Database) -> None:
    """Issue 10: each game's server secret (the seed of its computers, never shown before the
    end), a seat's draft disposition as a private note replaced in place (not an event per
    draft), and each finished game's content hash (its events without names, unique, so the
    same game cannot be imported twice, nor a game played here imported again), with whether
    it was imported."""
    db["games"].add_column("secret", str)
    db["games"].add_column("content_hash", str)
    db["games"].add_column("imported", int)
    db["games"].create_index(["content_hash"], unique=True)
    db["disposition_drafts"].create({"game_id": str, "seat": str, "body": str, "rev": int},
                                    pk=("game_id", "seat"))


def _add_recovery_hosting_seen(db: sqlite_utils.Database) -> None:
    """R24: a seat's recovery code (its hash only) and the count of wrong guesses; the seat
    that holds the host's powers once handed on; when each seat's phone was last seen."""
    for column, kind in (("recovery_hash", str), ("recover_failures", int),
                         ("recover_after", float), ("seen_at", float)):
        db["seats"].add_column(column, kind)
    db["games"].add_column("host_seat", str)


def _add_stand_in_levels(db: sqlite_utils.Database) -> None:
    """R25 (issue 16): the level the host chose for the computer that stands in for an
    absent player, one row a game (its ``seat`` column empty)."""
    db["stand_in_levels"].create({"game_id": str, "seat": str, "body": str},
                                 pk=("game_id", "seat"))


def _add_club_entries(db: sqlite_utils.Database) -> None:
    """Each finished game's part of the club's records, summarised once by its rule set as the
    game ends (``RuleSet.club_entry``, plain JSON), and whether it counts in them: the club's
    page sums these and lists them newest first, and never replays a game. Games finished
    before this table get theirs when the club's page is next asked for
    (``service.fill_club_entries``), each replayed once."""
    db["club_entries"].create({"game_id": str, "rules": str, "finished_at": float,
                               "counted": int, "body": str}, pk="game_id")
    db["club_entries"].create_index(["finished_at"])
    db["club_entries"].create_index(["rules", "counted"])


# Named migrations, applied once each, in this order. Add new ones at the end.
MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = [
    ("0001_games_seats_events", _create_games),
    ("0002_drafts_and_marks", _create_notes),
    ("0003_finished_games", _add_finished),
    ("0004_idempotency_request", _add_request_digest),
    ("0005_join_links_sealed", _add_join_links),
    ("0006_game_secrets_drafts_imports", _add_secrets_drafts_and_imports),
    ("0007_seat_recovery_hosting_seen", _add_recovery_hosting_seen),
    ("0008_stand_in_levels", _add_stand_in_levels),
    ("0009_club_entries", _add_club_entries),
]


_WRITERS: dict[str, threading.RLock] = {}
_WRITERS_GUARD = threading.Lock()


def _writer_lock(path: str) -> threading.RLock:
    """The lock this process's writers to one database file queue on. Re-entrant, so that a
    write begun inside another on the same thread fails at once, as SQLite refuses a
    transaction within a transaction, rather than waiting on itself for ever."""
    with _WRITERS_GUARD:
        return _WRITERS.setdefault(path, threading.RLock())


_WRITER_FILES: dict[str, int | None] = {}


def _writer_file(path: str) -> int | None:
    """The open lock file beside a database file (``<file>.writer``) on which the writers of
    every process on that file queue (``flock``), once this process's own turn has come: the
    kernel wakes the next writer the moment the one before it unlocks, where SQLite's busy
    handler would have it sleep and try again, up to 100 ms a sleep (issue 15). None for a
    database in memory, or where the lock file cannot be made."""
    with _WRITERS_GUARD:
        if path not in _WRITER_FILES:
            try:
                found = None if path.startswith(":memory:") or fcntl is None else \
                    os.open(f"{path}.writer", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError:
                found = None
            _WRITER_FILES[path] = found
        return _WRITER_FILES[path]


_CHECKPOINTERS: set[str] = set()
CHECKPOINT_EVERY_S = 1.0


def checkpoint_in_background(path: str, every_s: float = CHECKPOINT_EVERY_S) -> None:
    """Copy the WAL back into the database file from a thread of its own, every ``every_s``
    seconds, for connections made with ``autocheckpoint=False``. SQLite's automatic
    checkpoint runs inside the COMMIT of whichever write fills the WAL, with its fsync, while
    that writer still holds the writers' queue (``Store.write``): every move behind it waited
    (issue 15). A PASSIVE checkpoint never waits for, or stops, a reader or a writer. Once a
    process and database file."""
    with _WRITERS_GUARD:
        if path in _CHECKPOINTERS or path.startswith(":memory:"):
            return
        _CHECKPOINTERS.add(path)

    def run() -> None:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        while True:
            time.sleep(every_s)
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.Error:
                continue  # busy or gone for a moment: the next turn checkpoints

    threading.Thread(target=run, name="wal-checkpoint", daemon=True).start()


class Store:
    """One connection to the referee's database."""

    def __init__(self, path: str | Path, autocheckpoint: bool = True) -> None:
        """``autocheckpoint=False``: this connection leaves the WAL's checkpoints to
        ``checkpoint_in_background`` (the server's request threads, issue 15)."""
        self.path = str(path) if str(path) != ":memory:" else f":memory:{id(self)}"
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_S * 1000}")
        conn.execute("PRAGMA synchronous = NORMAL")
        if not autocheckpoint:
            conn.execute("PRAGMA wal_autocheckpoint = 0")
        self.db = sqlite_utils.Database(conn)

    def close(self) -> None:
        self.db.close()

    def migrate(self) -> list[str]:
        """Create the database's tables, applying each named migration not yet applied."""
        self._enable_wal()
        applied = []
        with self.write():
            if "migrations" not in self.db.table_names():
                self.db["migrations"].create({"name": str, "applied_at": float}, pk="name")
            done = {row["name"] for row in self.db["migrations"].rows}
            for name, step in MIGRATIONS:
                if name not in done:
                    step(self.db)
                    self.db["migrations"].insert({"name": name, "applied_at": time.time()})
                    applied.append(name)
        return applied

    def _enable_wal(self) -> None:
        """WAL mode, waiting for another process that is setting up the same new file (the
        journal-mode switch is not covered by SQLite's busy timeout)."""
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self.db.enable_wal()
                return
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite_utils.Database]:
        """One write transaction, taken at once so writers queue rather than clash. The
        threads of one process queue on a lock of their own first (issue 15): a thread that
        finds SQLite's write lock taken sleeps in SQLite's busy handler for up to 100 ms a
        try, while a waiter on this lock runs as soon as the writer before it commits. Other
        processes on the same file queue on a lock file of their own (``_writer_file``) for
        the same reason; a write inside a write takes neither again, and fails at once."""
        with _writer_lock(self.path):
            shared = None if self.db.conn.in_transaction else _writer_file(self.path)
            if shared is not None:
                fcntl.flock(shared, fcntl.LOCK_EX)
            try:
                self.db.execute("BEGIN IMMEDIATE")
                try:
                    yield self.db
                except BaseException:
                    self.db.conn.rollback()
                    raise
                else:
                    self.db.conn.execute("COMMIT")
            finally:
                if shared is not None:
                    fcntl.flock(shared, fcntl.LOCK_UN)

    # -- games and seats ---------------------------------------------------------------

    def add_game(self, game_id: str, host_token: str, join_codes: dict[str, str],
                 rules: str, now: float) -> None:
        self.db["games"].insert({"id": game_id, "created_at": now,
                                 "host_hash": digest(host_token), "rules": rules})
        self.db["seats"].insert_all(
            {"game_id": game_id, "seat": seat, "join_hash": digest(code), "claimed": 0,
             "token_hash": None}
            for seat, code in join_codes.items()
        )

    def mark_finished(self, game_id: str, when: float) -> None:
        self.db.execute("update games set finished_at = ? where id = ? and finished_at is null",
                        [when, game_id])

    def rules_of(self, game_id: str) -> str | None:
        """The rule set a game plays; None for a game this store does not hold."""
        row = self.db.execute("select rules from games where id = ?", [game_id]).fetchone()
        return row[0] if row else None

    def _one(self, sql: str, params: list | dict) -> tuple | None:
        """The first row of a read, straight from the connection: sqlite-utils' ``query``
        wraps every read in a savepoint, three statements where one does (issue 15)."""
        return self.db.conn.execute(sql, params).fetchone()

    def game_exists(self, game_id: str) -> bool:
        return self._one("select 1 from games where id = ?", [game_id]) is not None

    def seat_row(self, game_id: str, seat: str) -> dict | None:
        rows = list(self.db.query("select * from seats where game_id = ? and seat = ?",
                                  [game_id, seat]))
        return rows[0] if rows else None

    def holder_of(self, token: str) -> Holder | None:
        """The game and seat a token belongs to (seat None for a host token), if any."""
        hashed = digest(token)
        row = self._one("select game_id, seat from seats where token_hash = ?", [hashed])
        if row:
            return Holder(row[0], row[1])
        row = self._one("select id from games where host_hash = ?", [hashed])
        return Holder(row[0], None) if row else None

    def claim(self, game_id: str, seat: str, token: str, recovery_hash: str | None = None
              ) -> None:
        self.db["seats"].update((game_id, seat), {"claimed": 1, "token_hash": digest(token),
                                                  "recovery_hash": recovery_hash,
                                                  "recover_failures": 0})

    def reissue(self, game_id: str, seat: str, join_code: str) -> None:
        """A new join code for a seat; the seat's old token and recovery code stop working."""
        self.db["seats"].update((game_id, seat), {"join_hash": digest(join_code),
                                                  "claimed": 0, "token_hash": None,
                                                  "recovery_hash": None})

    def recover_failed(self, game_id: str, seat: str, failures: int, after: float) -> None:
        """A wrong recovery code: count it, and refuse the next guess before ``after``."""
        self.db["seats"].update((game_id, seat), {"recover_failures": failures,
                                                  "recover_after": after})

    def host_seat(self, game_id: str) -> str | None:
        row = self._one("select host_seat from games where id = ?", [game_id])
        return row[0] if row else None

    def hand_over(self, game_id: str, seat: str, unheld_token: str) -> None:
        """The host's powers pass to a seat; the host token is replaced by one nobody holds."""
        self.db["games"].update(game_id, {"host_seat": seat,
                                          "host_hash": digest(unheld_token)})

    def seen(self, game_id: str, seat: str, when: float) -> None:
        """When this seat's phone (or script) last asked about its game (R25's absent player)."""
        with self.write():
            self.db.execute("update seats set seen_at = ? where game_id = ? and seat = ?",
                            [when, game_id, seat])

    def seats_seen(self, game_id: str) -> dict[str, float | None]:
        return {row["seat"]: row["seen_at"] for row in self.db.query(
            "select seat, seen_at from seats where game_id = ?", [game_id])}

    def forget_draft(self, game_id: str, seat: str) -> None:
        """A reissued seat's private draft is not handed to its next holder (R24)."""
        self.db.execute("delete from drafts where game_id = ? and seat = ?", [game_id, seat])

    def event_time(self, game_id: str, seq: int) -> float | None:
        """When an event was appended (the move clock starts at a turn's first event, R25)."""
        row = self._one("select at from events where game_id = ? and seq = ?", [game_id, seq])
        return row[0] if row else None

    # -- the event log ---------------------------------------------------------------------

    def events(self, game_id: str) -> list[dict]:
        return [json.loads(body) for (body,) in self.db.conn.execute(
            "select body from events where game_id = ? order by seq", [game_id])]

    def events_after(self, game_id: str, seq: int) -> list[dict]:
        """The game's events numbered after ``seq``: none when a cached state is current."""
        return [json.loads(body) for body in self.event_bodies_after(game_id, seq)]

    def event_bodies_after(self, game_id: str, seq: int) -> list[str]:
        """The JSON text of the game's events numbered after ``seq`` (its length is what the
        cached states weigh a game by)."""
        return [body for (body,) in self.db.conn.execute(
            "select body from events where game_id = ? and seq > ? order by seq",
            [game_id, seq])]

    def version(self, game_id: str) -> int:
        """How many events the game has: its view's version (events are numbered 1, 2 ...)."""
        return self._one("select max(seq) from events where game_id = ?", [game_id])[0] or 0

    def append(self, game_id: str, first_seq: int, events: list[dict], now: float) -> None:
        """One plain INSERT per event (sqlite-utils' insert_all reads the schema and takes a
        savepoint first: three more statements inside the write lock, on every move). A
        sequence number already taken fails on the primary key: a log never forks."""
        self.db.conn.executemany(
            "insert into events (game_id, seq, type, body, at) values (?, ?, ?, ?, ?)",
            [(game_id, first_seq + i, event["type"],
              json.dumps(event, separators=(",", ":")), now)
             for i, event in enumerate(events)])

    # -- a game's secret, its draft dispositions, and where an imported game came from ----

    def keep_secret(self, game_id: str, secret: str) -> None:
        self.db.execute("update games set secret = ? where id = ?", [secret, game_id])

    def secret(self, game_id: str) -> str | None:
        row = self._one("select secret from games where id = ?", [game_id])
        return row[0] if row else None

    def draft(self, game_id: str, seat: str) -> tuple[dict, int] | None:
        """A seat's draft disposition and its revision (1, 2 ...), if it has one."""
        row = self._one("select body, rev from disposition_drafts where game_id = ? and seat = ?",
                        [game_id, seat])
        return (json.loads(row[0]), row[1]) if row else None

    def draft_revision(self, game_id: str, seat: str) -> int:
        row = self._one("select rev from disposition_drafts where game_id = ? and seat = ?",
                        [game_id, seat])
        return row[0] if row else 0

    def view_stamp(self, game_id: str, seat: str) -> tuple[int, int]:
        """The game's version and the seat's draft revision, in one query (the cheap poll)."""
        version, draft = self._one(
            "select (select max(seq) from events where game_id = :g), "
            "(select rev from disposition_drafts where game_id = :g and seat = :s)",
            {"g": game_id, "s": seat})
        return version or 0, draft or 0

    def drop_draft(self, game_id: str, seat: str) -> None:
        self.db.execute("delete from disposition_drafts where game_id = ? and seat = ?",
                        [game_id, seat])

    def keep_draft(self, game_id: str, seat: str, document: dict) -> None:
        """Replace the seat's draft (never a new row or event per draft)."""
        self.db.execute(
            "insert into disposition_drafts (game_id, seat, body, rev) values (?, ?, ?, 1) "
            "on conflict (game_id, seat) do update set body = excluded.body, rev = rev + 1",
            [game_id, seat, json.dumps(document, separators=(",", ":"))])

    def keep_content_hash(self, game_id: str, content_hash: str, *,
                          imported: bool = False) -> None:
        self.db.execute("update games set content_hash = ?, imported = ? where id = ?",
                        [content_hash, int(imported), game_id])

    def game_with_content(self, content_hash: str) -> str | None:
        """The game stored with this content hash (played here or imported), if any."""
        rows = list(self.db.query("select id from games where content_hash = ?",
                                  [content_hash]))
        return rows[0]["id"] if rows else None

    def is_imported(self, game_id: str) -> bool:
        """Whether the game came from a game file rather than being played here."""
        row = self._one("select imported from games where id = ?", [game_id])
        return bool(row and row[0])

    # -- the club's records: one summary a finished game -----------------------------------

    def keep_club_entry(self, game_id: str, rules: str, counted: bool, entry: dict) -> None:
        """A finished game's summary for the club (its first is kept: a finished game never
        changes, and two processes may summarise the same game at once)."""
        self.db.execute(
            "insert or ignore into club_entries (game_id, rules, finished_at, counted, body) "
            "select id, ?, finished_at, ?, ? from games where id = ? and finished_at is not null",
            [rules, int(counted), json.dumps(entry, separators=(",", ":")), game_id])

    def finished_without_entry(self) -> list[str]:
        """Finished games the club has no summary of yet (finished before summaries were
        kept, or whose summary failed), oldest first."""
        return [row[0] for row in self.db.conn.execute(
            "select g.id from games g left join club_entries e on e.game_id = g.id "
            "where g.finished_at is not null and e.game_id is null order by g.finished_at")]

    def club_stamp(self, rules: str) -> tuple[int, int]:
        """What changes whenever the set of one rule set's counted summaries does."""
        count, total = self._one("select count(*), total(rowid) from club_entries "
                                 "where rules = ? and counted = 1", [rules])
        return count, int(total)

    def counted_club_entries(self, rules: str) -> list[dict]:
        """Every summary of one rule set's games that count in the records, oldest first,
        each with its game's ``id``."""
        return [{**json.loads(body), "id": game_id} for game_id, body in self.db.conn.execute(
            "select game_id, body from club_entries where rules = ? and counted = 1 "
            "order by finished_at, rowid", [rules])]

    def finished_count(self) -> int:
        """How many finished games the club lists."""
        return self._one("select count(*) from club_entries", [])[0]

    def finished_listing(self, offset: int, limit: int) -> list[dict]:
        """A page of the finished games the club lists, newest first: each its summary with
        its ``id``, ``rules``, ``imported`` and ``counted``."""
        return [{**json.loads(body), "id": game_id, "rules": rules, "imported": bool(imported),
                 "counted": bool(counted)}
                for game_id, rules, counted, imported, body in self.db.conn.execute(
                    "select e.game_id, e.rules, e.counted, g.imported, e.body "
                    "from club_entries e join games g on g.id = e.game_id "
                    "order by e.finished_at desc, e.rowid desc limit ? offset ?",
                    [limit, offset])]

    # -- a seat's private notes: draft fleet and pencil marks -------------------------------

    def note(self, table: str, game_id: str, seat: str) -> dict | None:
        rows = list(self.db.query(f"select body from {table} where game_id = ? and seat = ?",
                                  [game_id, seat]))
        return json.loads(rows[0]["body"]) if rows else None

    def keep_note(self, table: str, game_id: str, seat: str, body: dict) -> None:
        self.db[table].upsert({"game_id": game_id, "seat": seat, "body": json.dumps(body)},
                              pk=("game_id", "seat"))

    # -- idempotent moves ------------------------------------------------------------------

    def remembered(self, game_id: str, seat: str, key: str) -> Remembered | None:
        """The status, response and request digest first given for this key, if any."""
        rows = list(self.db.query(
            "select status, body, request from idempotency "
            "where game_id = ? and seat = ? and key = ?", [game_id, seat, key]))
        return (Remembered(rows[0]["status"], json.loads(rows[0]["body"]), rows[0]["request"])
                if rows else None)

    def remember(self, game_id: str, seat: str, key: str, status: int, body: dict,
                 request: str | None = None) -> None:
        self.db["idempotency"].insert({"game_id": game_id, "seat": seat, "key": key,
                                       "status": status, "body": json.dumps(body),
                                       "request": request})
