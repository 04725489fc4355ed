"""The referee's SQLite storage through sqlite-utils: games, seats and every game's event log.

Every accepted change is appended to ``events`` inside one ``BEGIN IMMEDIATE`` transaction
(WAL mode), so several server processes can share one database file, a killed process loses
nothing that was acknowledged, and two writers to one game are served one after the other.
Tokens are stored only as SHA-256 hashes; join codes not at all (each is derived from the
installation's secret key and its seat's join generation, ``service.join_code``). Every table
is made by a migration (``MIGRATIONS``); nothing is created on first write.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import sqlite_utils

try:
    import fcntl
except ImportError:  # not a POSIX system: SQLite's own lock alone
    fcntl = None

T = TypeVar("T")
BUSY_TIMEOUT_S = 15
RATE_WINDOWS_KEPT_S = 3600  # a rate limit's window is a minute; older rows are dropped


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
    """The only form in which a token is stored."""
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
    """A table for the join codes the host page shows, so the phone's session cookie need not
    carry them (issue 10, item 12); never used, and dropped by 0009 (join codes are derived)."""
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


def _derive_join_codes(db: sqlite_utils.Database) -> None:
    """A seat's join code is derived, not stored: an HMAC of the installation's secret key,
    the game, the seat and the seat's join generation, which the host's reissue moves on
    (``service.join_code``). So a seat keeps its generation and no hash of a code, and the
    join codes kept for the host page go: ``join_links`` (never used) and ``join_urls``
    (sealed codes, which an upsert made on its first write, outside any migration).

    A game made before keeps working: its taken seats are untouched, and a seat not yet taken
    has the derived code of generation 0, which the host page shows at once; a link to it
    handed out before (its old random code) no longer works."""
    db["seats"].add_column("join_generation", int, not_null_default=0)
    db.execute("alter table seats drop column join_hash")
    for table in ("join_links", "join_urls"):
        db.execute(f"drop table if exists {table}")


def _add_stand_in_levels(db: sqlite_utils.Database) -> None:
    """R25 (issue 16): the level the host chose for the computer that stands in for an
    absent player, one row a game (its ``seat`` column empty)."""
    db["stand_in_levels"].create({"game_id": str, "seat": str, "body": str},
                                 pk=("game_id", "seat"))


def _content_hash_of_the_game(db: sqlite_utils.Database) -> None:
    """A game's content hash is now of the game itself (each seat's disposition and the
    moves, ``Lifecycle.content``), not of its events less names and times, which a file's
    salts, options and order of setup events changed at will. The old hashes are dropped;
    ``service.fill_content_hashes`` gives every finished game its new one (it replays games,
    which a migration does not)."""
    db.execute("update games set content_hash = null")


def _add_signers_and_trust(db: sqlite_utils.Database) -> None:
    """Signed game files: the public key whose valid signature an imported game's file
    carried (null: none), and the referees' keys the organiser trusts (``referee trust``),
    each with the name he gave it. An imported game counts in the club's records only if its
    signer is this referee or a trusted one (``service.counts_in_records``)."""
    db["games"].add_column("signer", str)
    db["trusted_keys"].create({"public_key": str, "name": str, "added_at": float},
                              pk="public_key")



def _stand_in_levels_as_events(db: sqlite_utils.Database) -> None:
    """R25: the host's choice of the stand-in's level is an event of the game's log, which
    every seat sees and the game file keeps; a choice kept in the table before is appended
    to its game's log (a game still in progress), and the table goes."""
    rows = db.execute("select s.game_id, s.body from stand_in_levels s join games g "
                      "on g.id = s.game_id where g.finished_at is null").fetchall()
    for game_id, body in rows:
        level = json.loads(body).get("level")
        last = db.execute("select max(seq) from events where game_id = ?", [game_id]).fetchone()
        if isinstance(level, str) and last[0]:
            event = {"type": "stand_in_level", "level": level}
            db.execute("insert into events (game_id, seq, type, body, at) values (?, ?, ?, ?, ?)",
                       [game_id, last[0] + 1, event["type"],
                        json.dumps(event, separators=(",", ":")), time.time()])
    db["stand_in_levels"].drop()


def _recovery_guesses_per_client(db: sqlite_utils.Database) -> None:
    """R24: wrong recovery codes are counted per client (its address), not per seat, so a
    stranger's guesses cannot lock a seat's owner out; a seat keeps the hash of the code its
    last recovery spent, and when, so that a double tap of the right code is not counted as
    a wrong guess."""
    db["recovery_guesses"].create({"client": str, "failures": int, "after": float,
                                   "last_at": float}, pk="client")
    db["seats"].add_column("spent_recovery_hash", str)
    db["seats"].add_column("recovered_at", float)
    db.execute("alter table seats drop column recover_failures")
    db.execute("alter table seats drop column recover_after")


def _computers_due(db: sqlite_utils.Database) -> None:
    """R25: when a computer of each game may next have to move (a computer's turn, or a seat
    handed to the computer whose player is away or whose clock will run out), so that the
    server's own clock moves it without waiting for a request (``service.wake_computers``)."""
    db["computers_due"].create({"game_id": str, "due_at": float}, pk="game_id")
    db["computers_due"].create_index(["due_at"])


def _rate_limits(db: sqlite_utils.Database) -> None:
    """How often something limited was asked in its current window, by whom (a seat's "place
    the rest for me", a client's game files to import), for every server process on the file
    (``Store.take_turn``)."""
    db["rate_limits"].create({"key": str, "window_start": float, "count": int}, pk="key")


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


def _one_drafts_table(db: sqlite_utils.Database) -> None:
    """A seat's drafts in one table, one row a seat: its pages' working note (``body``: what
    the setup pages keep between taps, ``note``/``keep_note``) beside its checked draft
    disposition (``disposition``, replaced in place, and its revision ``rev``, which a seat's
    view's ETag carries; ``draft``/``keep_draft``), where migration 0006 had made a second
    table for the second. Neither is game state: the event log never sees them, and only that
    seat reads them."""
    db["drafts"].add_column("disposition", str)
    db["drafts"].add_column("rev", int, not_null_default=0)
    db.execute("insert into drafts (game_id, seat, disposition, rev) "
               "select game_id, seat, body, rev from disposition_drafts where true "
               "on conflict (game_id, seat) do update set disposition = excluded.disposition, "
               "rev = excluded.rev")
    db["disposition_drafts"].drop()


def _club_entries_played(db: sqlite_utils.Database) -> None:
    """Whether a move was made in each finished game the club lists: one decided before any
    move (a resignation, an agreement or a forfeit at once) counts in no record, since anyone
    can make such a game against himself."""
    db["club_entries"].add_column("played", int, not_null_default=1)


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
    ("0009_join_codes_derived", _derive_join_codes),
    ("0010_content_hash_of_the_game", _content_hash_of_the_game),
    ("0011_signers_and_trusted_keys", _add_signers_and_trust),
    ("0012_rate_limits", _rate_limits),
    ("0013_stand_in_levels_as_events", _stand_in_levels_as_events),
    ("0014_recovery_guesses_per_client", _recovery_guesses_per_client),
    ("0015_computers_due", _computers_due),
    ("0016_club_entries", _add_club_entries),
    ("0017_one_drafts_table", _one_drafts_table),
    ("0018_club_entries_played", _club_entries_played),
]

# a seat's private notes, each a table of migration 0002 (``keep_note``): the pages' working
# draft (beside the checked draft disposition, ``keep_draft``, since 0017) and its pencil marks
NOTES = ("drafts", "marks")


@dataclass
class FileKept:
    """What this process keeps for one database file (``PerFile``)."""

    writers: threading.RLock = field(default_factory=threading.RLock)
    lock_file: int | None = None  # opened once: ``PerFile.lock_file``
    lock_file_opened: bool = False
    checkpointing: bool = False  # a thread of this process checkpoints its WAL
    states: Any = None  # the games' replayed states (``states.States``), made on first use


class PerFile:
    """Everything this process keeps for each database file it opens, in one place: the lock
    its threads' writers queue on, the lock file every process's writers queue on, whether a
    thread checkpoints its WAL, and the games' replayed states (``referee.states``). A new
    ``PerFile`` is a process that has kept nothing yet (``PER_FILE``)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._files: dict[str, FileKept] = {}

    def of(self, path: str) -> FileKept:
        found = self._files.get(path)
        if found is None:
            with self._guard:
                found = self._files.setdefault(path, FileKept())
        return found

    def writer_lock(self, path: str) -> threading.RLock:
        """The lock this process's writers to one database file queue on. Re-entrant, so
        that a write begun inside another on the same thread fails at once, as SQLite refuses
        a transaction within a transaction, rather than waiting on itself for ever."""
        return self.of(path).writers

    def lock_file(self, path: str) -> int | None:
        """The open lock file beside a database file (``<file>.writer``) on which the writers
        of every process on that file queue (``flock``), once this process's own turn has
        come: the kernel wakes the next writer the moment the one before it unlocks, where
        SQLite's busy handler would have it sleep and try again, up to 100 ms a sleep. None
        for a database in memory, or where the lock file cannot be made."""
        kept = self.of(path)
        with self._guard:
            if not kept.lock_file_opened:
                try:
                    kept.lock_file = None if path.startswith(":memory:") or fcntl is None \
                        else os.open(f"{path}.writer", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
                                     0o600)
                except OSError:
                    kept.lock_file = None
                kept.lock_file_opened = True
            return kept.lock_file

    def start_checkpointing(self, path: str) -> bool:
        """Whether the caller is the first to checkpoint this file's WAL in this process
        (then it does); False for a database in memory."""
        kept = self.of(path)
        with self._guard:
            if kept.checkpointing or path.startswith(":memory:"):
                return False
            kept.checkpointing = True
            return True

    def states(self, path: str, make: Callable[[], T]) -> T:
        """The games' replayed states kept for this file, made once by ``make``."""
        kept = self.of(path)
        if kept.states is None:
            with self._guard:
                if kept.states is None:
                    kept.states = make()
        return kept.states


PER_FILE = PerFile()  # this process's: every store reads it at the time of use
CHECKPOINT_EVERY_S = 1.0


def checkpoint_in_background(path: str, every_s: float = CHECKPOINT_EVERY_S) -> None:
    """Copy the WAL back into the database file from a thread of its own, every ``every_s``
    seconds, for connections made with ``autocheckpoint=False``. SQLite's automatic
    checkpoint runs inside the COMMIT of whichever write fills the WAL, with its fsync, while
    that writer still holds the writers' queue (``Store.write``): every move behind it
    waited. A PASSIVE checkpoint never waits for, or stops, a reader or a writer. Once a
    process and database file."""
    if not PER_FILE.start_checkpointing(path):
        return

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

    @property
    def in_transaction(self) -> bool:
        """Whether this connection is inside a transaction (a write, or one left open)."""
        return self.db.conn.in_transaction

    def end_open_transaction(self) -> None:
        """Roll back a transaction a request left open (it failed between BEGIN and COMMIT),
        so the connection's next user starts clean."""
        if self.db.conn.in_transaction:
            self.db.conn.rollback()

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
        processes on the same file queue on a lock file of their own (``PerFile.lock_file``) for
        the same reason; a write inside a write takes neither again, and fails at once."""
        with PER_FILE.writer_lock(self.path):
            shared = None if self.db.conn.in_transaction else PER_FILE.lock_file(self.path)
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

    def add_game(self, game_id: str, host_token: str, seats: Iterable[str],
                 rules: str, now: float) -> None:
        """A new game and its seats, none claimed, each at join generation 0."""
        self.db["games"].insert({"id": game_id, "created_at": now,
                                 "host_hash": digest(host_token), "rules": rules})
        self.db["seats"].insert_all(
            {"game_id": game_id, "seat": seat, "join_generation": 0, "claimed": 0,
             "token_hash": None}
            for seat in seats
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
                                                  "recovery_hash": recovery_hash})

    def recover(self, game_id: str, seat: str, token: str, recovery_hash: str,
                spent_hash: str, when: float) -> None:
        """The seat moves to a new device: its new token and code, and the hash of the code
        just spent, kept a while so a double tap of it is recognised (R24)."""
        self.db["seats"].update((game_id, seat), {
            "claimed": 1, "token_hash": digest(token), "recovery_hash": recovery_hash,
            "spent_recovery_hash": spent_hash, "recovered_at": when})

    def reissue(self, game_id: str, seat: str) -> int:
        """The seat's next join generation (so a new join code, and the old one no longer
        works); the seat's old token and recovery code stop working. Returns the generation."""
        self.db.execute(
            "update seats set join_generation = join_generation + 1, claimed = 0, "
            "token_hash = null, recovery_hash = null where game_id = ? and seat = ?",
            [game_id, seat])
        return self._one("select join_generation from seats where game_id = ? and seat = ?",
                         [game_id, seat])[0]

    def open_seats(self, game_id: str) -> dict[str, int]:
        """The seats nobody has claimed yet, each with its join generation."""
        return {seat: generation for seat, generation in self.db.conn.execute(
            "select seat, join_generation from seats where game_id = ? and not claimed "
            "order by rowid", [game_id])}

    def recovery_guesses(self, client: str) -> tuple[int, float, float]:
        """A client's wrong recovery codes: how many, when it may guess again, and when it
        last guessed wrong (R24)."""
        row = self._one("select failures, after, last_at from recovery_guesses "
                        "where client = ?", [client])
        return (row[0], row[1], row[2]) if row else (0, 0.0, 0.0)

    def guessed_wrong(self, client: str, failures: int, after: float, when: float) -> None:
        """Count a client's wrong recovery code; its next guess waits until ``after``."""
        self.db.execute(
            "insert into recovery_guesses (client, failures, after, last_at) "
            "values (?, ?, ?, ?) on conflict (client) do update set failures = "
            "excluded.failures, after = excluded.after, last_at = excluded.last_at",
            [client, failures, after, when])

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

    def event_time(self, game_id: str, seq: int) -> float | None:
        """When an event was appended (the move clock starts at a turn's first event, R25)."""
        row = self._one("select at from events where game_id = ? and seq = ?", [game_id, seq])
        return row[0] if row else None

    def keep_due(self, game_id: str, due_at: float | None) -> None:
        """When a computer of this game may next have to move; None: none will at this
        version."""
        if due_at is None:
            self.db.conn.execute("delete from computers_due where game_id = ?", [game_id])
        else:
            self.db.conn.execute(
                "insert into computers_due (game_id, due_at) values (?, ?) on conflict "
                "(game_id) do update set due_at = excluded.due_at", [game_id, due_at])

    def games_due(self, when: float, limit: int = 100) -> list[str]:
        """The games whose computers may have to move by ``when``, the longest due first."""
        return [row[0] for row in self.db.conn.execute(
            "select game_id from computers_due where due_at <= ? order by due_at limit ?",
            [when, limit])]

    def take_turn(self, key: str, limit: int, window_s: float, when: float) -> float:
        """Count one more ask of ``key`` (a seat's "place the rest", a client's imports) in
        its window of ``window_s`` seconds, for every process on the file: 0 when it is
        within ``limit``, else the seconds until the window ends (nothing counted). Windows
        over an hour old are dropped on the way."""
        with self.write():
            self.db.conn.execute("delete from rate_limits where window_start < ?",
                                 [when - RATE_WINDOWS_KEPT_S])
            row = self._one("select window_start, count from rate_limits where key = ?", [key])
            if row is None or when - row[0] >= window_s:
                self.db.conn.execute(
                    "insert into rate_limits (key, window_start, count) values (?, ?, 1) "
                    "on conflict (key) do update set window_start = excluded.window_start, "
                    "count = 1", [key, when])
                return 0.0
            if row[1] < limit:
                self.db.conn.execute("update rate_limits set count = count + 1 where key = ?",
                                     [key])
                return 0.0
            return window_s - (when - row[0])

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

    def secret_made_once(self, game_id: str, make: Callable[[], str]) -> str | None:
        """The game's secret, given one now (``make``) if it was stored before secrets were
        kept; two processes doing so at once agree on the first."""
        found = self.secret(game_id)
        if found:
            return found
        self.db.conn.execute("update games set secret = ? where id = ? and secret is null",
                             [make(), game_id])
        return self.secret(game_id)

    def draft(self, game_id: str, seat: str) -> tuple[dict, int] | None:
        """A seat's draft disposition and its revision (1, 2 ...), if it has one."""
        row = self._one("select disposition, rev from drafts where game_id = ? and seat = ? "
                        "and disposition is not null", [game_id, seat])
        return (json.loads(row[0]), row[1]) if row else None

    def draft_revision(self, game_id: str, seat: str) -> int:
        row = self._one("select rev from drafts where game_id = ? and seat = ?",
                        [game_id, seat])
        return row[0] if row else 0

    def view_stamp(self, game_id: str, seat: str) -> tuple[int, int]:
        """The game's version and the seat's draft revision, in one query (the cheap poll)."""
        version, draft = self._one(
            "select (select max(seq) from events where game_id = :g), "
            "(select rev from drafts where game_id = :g and seat = :s)",
            {"g": game_id, "s": seat})
        return version or 0, draft or 0

    def drop_draft(self, game_id: str, seat: str) -> None:
        """The seat's draft disposition is in the log now: it goes, and its revision starts
        again; its pages' note stays."""
        self.db.conn.execute("update drafts set disposition = null, rev = 0 "
                             "where game_id = ? and seat = ?", [game_id, seat])
        self._drop_empty_draft(game_id, seat)

    def keep_draft(self, game_id: str, seat: str, document: dict) -> None:
        """Replace the seat's draft disposition (never a new row or event per draft)."""
        self.db.conn.execute(
            "insert into drafts (game_id, seat, disposition, rev) values (?, ?, ?, 1) "
            "on conflict (game_id, seat) do update set disposition = excluded.disposition, "
            "rev = rev + 1", [game_id, seat, json.dumps(document, separators=(",", ":"))])

    def forget_drafts(self, game_id: str, seat: str) -> None:
        """A reissued seat's drafts (its pages' note and its draft disposition) are not
        handed to its next holder (R24)."""
        self.db.conn.execute("delete from drafts where game_id = ? and seat = ?",
                             [game_id, seat])

    def _drop_empty_draft(self, game_id: str, seat: str) -> None:
        self.db.conn.execute("delete from drafts where game_id = ? and seat = ? and body is "
                             "null and disposition is null", [game_id, seat])

    def mark_imported(self, game_id: str, content_hash: str, signer: str | None) -> None:
        """An imported game: its content hash (checked free by the caller, in the same
        transaction) and the public key whose valid signature its file carried, if any."""
        self.db.execute("update games set content_hash = ?, imported = 1, signer = ? "
                        "where id = ?", [content_hash, signer, game_id])

    def remove_game(self, game_id: str) -> None:
        """Remove a game and everything kept about it (every table with a ``game_id``): an
        unverified import that a signed file of the same game replaces."""
        for name in self.db.table_names():
            if "game_id" in self.db[name].columns_dict:
                self.db.execute(f"delete from [{name}] where game_id = ?", [game_id])
        self.db.execute("delete from games where id = ?", [game_id])

    def import_signers(self) -> dict[str, str | None]:
        """Every imported game and the key that signed its file (None: unsigned)."""
        return dict(self.db.conn.execute("select id, signer from games where imported = 1"))

    def import_signer(self, game_id: str) -> tuple[bool, str | None]:
        """Whether a game was imported, and the key that signed its file."""
        row = self._one("select imported, signer from games where id = ?", [game_id])
        return (bool(row[0]), row[1]) if row else (False, None)

    # -- the referees whose signed files the organiser trusts ------------------------------

    def trust(self, public_key: str, name: str, now: float) -> None:
        self.db.execute("insert into trusted_keys (public_key, name, added_at) values (?, ?, ?) "
                        "on conflict (public_key) do update set name = excluded.name",
                        [public_key, name, now])

    def distrust(self, public_key: str) -> bool:
        """Trust no more a key; False if it was not trusted."""
        return self.db.execute("delete from trusted_keys where public_key = ?",
                               [public_key]).rowcount > 0

    def trusted(self) -> list[dict]:
        """The trusted keys, oldest first: ``public_key``, ``name``, ``added_at``."""
        return list(self.db.query("select public_key, name, added_at from trusted_keys "
                                  "order by added_at, public_key"))

    def trusted_keys(self) -> set[str]:
        return {row[0] for row in self.db.conn.execute("select public_key from trusted_keys")}

    def claim_content_hash(self, game_id: str, content_hash: str) -> None:
        """Give a game played here its content hash, unless it has one or another game
        already holds that hash."""
        self.db.execute("update games set content_hash = ? where id = ? and content_hash is null "
                        "and not exists (select 1 from games where content_hash = ?)",
                        [content_hash, game_id, content_hash])

    def finished_without_content_hash(self) -> list[str]:
        return [row[0] for row in self.db.conn.execute(
            "select id from games where finished_at is not null and content_hash is null "
            "order by finished_at")]

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

    def keep_club_entry(self, game_id: str, rules: str, counted: bool, entry: dict,
                        played: bool = True) -> None:
        """A finished game's summary for the club (its first is kept: a finished game never
        changes, and two processes may summarise the same game at once); ``played``: a move
        was made in it (a game decided before any move counts in no record)."""
        self.db.execute(
            "insert or ignore into club_entries (game_id, rules, finished_at, counted, body, "
            "played) select id, ?, finished_at, ?, ?, ? from games where id = ? "
            "and finished_at is not null",
            [rules, int(counted and played), json.dumps(entry, separators=(",", ":")),
             int(played), game_id])

    def finished_without_entry(self) -> list[str]:
        """Finished games the club has no summary of yet (finished before summaries were
        kept, or whose summary failed), oldest first."""
        return [row[0] for row in self.db.conn.execute(
            "select g.id from games g left join club_entries e on e.game_id = g.id "
            "where g.finished_at is not null and e.game_id is null order by g.finished_at")]

    def created_at(self, game_id: str) -> float | None:
        row = self._one("select created_at from games where id = ?", [game_id])
        return row[0] if row else None

    def give_up_content(self, game_id: str) -> None:
        """A game played here found to be a copy of one played elsewhere first: it counts in
        no record, and its content hash goes to the original."""
        self.db.conn.execute("update games set content_hash = null where id = ?", [game_id])
        self.db.conn.execute("update club_entries set counted = 0 where game_id = ?", [game_id])

    def count_club_entry(self, game_id: str, counted: bool) -> None:
        """Whether a finished game's summary counts in the records, again (the trusted
        referees changed)."""
        self.db.conn.execute("update club_entries set counted = ? and played "
                             "where game_id = ?", [int(counted), game_id])

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

    def finished_before(self, game_ids: list[str], cutoff: float) -> set[str]:
        """Which of these games finished before ``cutoff`` (a phone's cookie lets them go)."""
        if not game_ids:
            return set()
        marks = ", ".join("?" * len(game_ids))
        return {row[0] for row in self.db.conn.execute(
            f"select id from games where finished_at < ? and id in ({marks})",
            [cutoff, *game_ids])}

    def finished_count(self) -> int:
        """How many finished games the club lists."""
        return self._one("select count(*) from club_entries", [])[0]

    def finished_listing(self, offset: int, limit: int) -> list[dict]:
        """A page of the finished games the club lists, newest first: each its summary with
        its ``id``, ``rules``, ``imported``, ``signer`` (of an imported game's file),
        ``counted`` and ``played``."""
        return [{**json.loads(body), "id": game_id, "rules": rules, "imported": bool(imported),
                 "signer": signer, "counted": bool(counted), "played": bool(played)}
                for game_id, rules, counted, imported, signer, played, body
                in self.db.conn.execute(
                    "select e.game_id, e.rules, e.counted, g.imported, g.signer, e.played, "
                    "e.body "
                    "from club_entries e join games g on g.id = e.game_id "
                    "order by e.finished_at desc, e.rowid desc limit ? offset ?",
                    [limit, offset])]

    # -- a seat's private notes: draft fleet and pencil marks -------------------------------

    def note(self, table: str, game_id: str, seat: str) -> dict | None:
        """A seat's note in one of the ``NOTES`` tables (the pages' working draft, its pencil
        marks), if it has one."""
        row = self._one(f"select body from {self._notes(table)} where game_id = ? and seat = ?",
                        [game_id, seat])
        return json.loads(row[0]) if row and row[0] is not None else None

    def keep_note(self, table: str, game_id: str, seat: str, body: dict) -> None:
        """Replace a seat's note in one of the ``NOTES`` tables, which migrations make; any
        other name is refused, never made a table on its first write."""
        self._notes(table)
        self.db.execute(
            f"insert into {table} (game_id, seat, body) values (?, ?, ?) "
            "on conflict (game_id, seat) do update set body = excluded.body",
            [game_id, seat, json.dumps(body)])

    @staticmethod
    def _notes(table: str) -> str:
        if table not in NOTES:
            raise ValueError(f"{table!r} is not a table of notes ({', '.join(NOTES)})")
        return table

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
