"""The SQLite store, the default: one file through sqlite-utils, in WAL mode.

Every accepted change is appended to ``events`` inside one ``BEGIN IMMEDIATE`` transaction,
so several server processes can share one database file, a killed process loses nothing that
was acknowledged, and two writers are served one after the other (every write waits for the
one before, whatever game it changes). Tokens are stored only as SHA-256 hashes; join codes
not at all (each is derived from the installation's secret key and its seat's join
generation, ``service.join_code``). Every table is made by a migration (``MIGRATIONS``);
nothing is created on first write.
"""

from __future__ import annotations

import collections
import contextlib
import json
import logging
import mmap
import os
import secrets
import select
import socket
import sqlite3
import threading
import time
import urllib.parse
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import sqlite_utils

from .base import Store
from .perfile import PerFile, fcntl

log = logging.getLogger(__name__)

BUSY_TIMEOUT_S = 15

def _create_games(db: sqlite_utils.Database) -> None:
    db.table("games").create({"id": str, "created_at": float, "host_hash": str, "rules": str},
                       pk="id")
    db.table("seats").create({"game_id": str, "seat": str, "join_hash": str, "claimed": int,
                        "token_hash": str}, pk=("game_id", "seat"))
    db.table("seats").create_index(["token_hash"])
    db.table("events").create({"game_id": str, "seq": int, "type": str, "body": str, "at": float},
                        pk=("game_id", "seq"))
    db.table("idempotency").create({"game_id": str, "seat": str, "key": str, "status": int,
                              "body": str}, pk=("game_id", "seat", "key"))


def _create_notes(db: sqlite_utils.Database) -> None:
    """A seat's private scratch: its draft fleet and its pencil marks. Not game state: the
    event log never sees them, and only that seat's token reads them."""
    db.table("drafts").create({"game_id": str, "seat": str, "body": str}, pk=("game_id", "seat"))
    db.table("marks").create({"game_id": str, "seat": str, "body": str}, pk=("game_id", "seat"))


def _add_finished(db: sqlite_utils.Database) -> None:
    """Finished games are listed on the club's records page without replaying every game."""
    db.table("games").add_column("finished_at", float)
    db.table("games").create_index(["finished_at"])


def _add_request_digest(db: sqlite_utils.Database) -> None:
    """An Idempotency-Key remembers which move it was for, so reusing it for another fails."""
    db.table("idempotency").add_column("request", str)


def _add_join_links(db: sqlite_utils.Database) -> None:
    """A table for the join codes the host page shows, so the phone's session cookie need not
    carry them; never used, and dropped by 0009 (join codes are derived)."""
    db.table("join_links").create({"game_id": str, "seat": str, "body": str},
                                  pk=("game_id", "seat"))


def _add_secrets_drafts_and_imports(db: sqlite_utils.Database) -> None:
    """Each game's server secret (the seed of its computers, never shown before the
    end), a seat's draft disposition as a private note replaced in place (not an event per
    draft), and each finished game's content hash (its events without names, unique, so the
    same game cannot be imported twice, nor a game played here imported again), with whether
    it was imported."""
    db.table("games").add_column("secret", str)
    db.table("games").add_column("content_hash", str)
    db.table("games").add_column("imported", int)
    db.table("games").create_index(["content_hash"], unique=True)
    db.table("disposition_drafts").create({"game_id": str, "seat": str, "body": str, "rev": int},
                                    pk=("game_id", "seat"))


def _add_recovery_hosting_seen(db: sqlite_utils.Database) -> None:
    """R24: a seat's recovery code (its hash only) and the count of wrong guesses; the seat
    that holds the host's powers once handed on; when each seat's phone was last seen."""
    for column, kind in (("recovery_hash", str), ("recover_failures", int),
                         ("recover_after", float), ("seen_at", float)):
        db.table("seats").add_column(column, kind)
    db.table("games").add_column("host_seat", str)


def _derive_join_codes(db: sqlite_utils.Database) -> None:
    """A seat's join code is derived, not stored: an HMAC of the installation's secret key,
    the game, the seat and the seat's join generation, which the host's reissue moves on
    (``service.join_code``). So a seat keeps its generation and no hash of a code, and the
    join codes kept for the host page go: ``join_links`` (never used) and ``join_urls``
    (sealed codes, which an upsert made on its first write, outside any migration).

    A game made before keeps working: its taken seats are untouched, and a seat not yet taken
    has the derived code of generation 0, which the host page shows at once; a link to it
    handed out before (its old random code) no longer works."""
    db.table("seats").add_column("join_generation", int, not_null_default=0)
    db.execute("alter table seats drop column join_hash")
    for table in ("join_links", "join_urls"):
        db.execute(f"drop table if exists {table}")


def _add_stand_in_levels(db: sqlite_utils.Database) -> None:
    """R25: the level the host chose for the computer that stands in for an
    absent player, one row a game (its ``seat`` column empty)."""
    db.table("stand_in_levels").create({"game_id": str, "seat": str, "body": str},
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
    db.table("games").add_column("signer", str)
    db.table("trusted_keys").create({"public_key": str, "name": str, "added_at": float},
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
    db.table("stand_in_levels").drop()


def _recovery_guesses_per_client(db: sqlite_utils.Database) -> None:
    """R24: wrong recovery codes are counted per client (its address), not per seat, so a
    stranger's guesses cannot lock a seat's owner out; a seat keeps the hash of the code its
    last recovery spent, and when, so that a double tap of the right code is not counted as
    a wrong guess."""
    db.table("recovery_guesses").create({"client": str, "failures": int, "after": float,
                                   "last_at": float}, pk="client")
    db.table("seats").add_column("spent_recovery_hash", str)
    db.table("seats").add_column("recovered_at", float)
    db.execute("alter table seats drop column recover_failures")
    db.execute("alter table seats drop column recover_after")


def _computers_due(db: sqlite_utils.Database) -> None:
    """R25: when a computer of each game may next have to move (a computer's turn, or a seat
    handed to the computer whose player is away or whose clock will run out), so that the
    server's own clock moves it without waiting for a request (``service.wake_computers``)."""
    db.table("computers_due").create({"game_id": str, "due_at": float}, pk="game_id")
    db.table("computers_due").create_index(["due_at"])


def _rate_limits(db: sqlite_utils.Database) -> None:
    """How often something limited was asked in its current window, by whom (a seat's "place
    the rest for me", a client's game files to import), for every server process on the file
    (``Store.take_turn``)."""
    db.table("rate_limits").create({"key": str, "window_start": float, "count": int}, pk="key")


def _add_club_entries(db: sqlite_utils.Database) -> None:
    """Each finished game's part of the club's records, summarised once by its rule set as the
    game ends (``RuleSet.club_entry``, plain JSON), and whether it counts in them: the club's
    page sums these and lists them newest first, and never replays a game. Games finished
    before this table get theirs when the club's page is next asked for
    (``service.fill_club_entries``), each replayed once."""
    db.table("club_entries").create({"game_id": str, "rules": str, "finished_at": float,
                               "counted": int, "body": str}, pk="game_id")
    db.table("club_entries").create_index(["finished_at"])
    db.table("club_entries").create_index(["rules", "counted"])


def _one_drafts_table(db: sqlite_utils.Database) -> None:
    """A seat's drafts in one table, one row a seat: its pages' working note (``body``: what
    the setup pages keep between taps, ``note``/``keep_note``) beside its checked draft
    disposition (``disposition``, replaced in place, and its revision ``rev``, which a seat's
    view's ETag carries; ``draft``/``keep_draft``), where migration 0006 had made a second
    table for the second. Neither is game state: the event log never sees them, and only that
    seat reads them."""
    db.table("drafts").add_column("disposition", str)
    db.table("drafts").add_column("rev", int, not_null_default=0)
    db.execute("insert into drafts (game_id, seat, disposition, rev) "
               "select game_id, seat, body, rev from disposition_drafts where true "
               "on conflict (game_id, seat) do update set disposition = excluded.disposition, "
               "rev = excluded.rev")
    db.table("disposition_drafts").drop()


def _club_entries_played(db: sqlite_utils.Database) -> None:
    """Whether a move was made in each finished game the club lists: one decided before any
    move (a resignation, an agreement or a forfeit at once) counts in no record, since anyone
    can make such a game against himself."""
    db.table("club_entries").add_column("played", int, not_null_default=1)


def _changes(db: sqlite_utils.Database) -> None:
    """What every server process on the file watches to push a game's new version to the
    phones that hold a stream of it (``ChangeWatcher``): one row for each committed change to
    a game (events appended, a seat's token replaced or revoked, hosting handed on), numbered
    in commit order. A number is never used twice (AUTOINCREMENT here; migration 0021 keeps
    that without it, as only the oldest rows are ever pruned), so a watcher that has read up
    to a number never misses a later row."""
    db.execute("create table changes (seq integer primary key autoincrement, "
               "game_id text not null, at float not null)")


def _change_origins(db: sqlite_utils.Database) -> None:
    """Which changes a server process pushes itself as it makes them (a seat's socket's
    moves, ``Store.pushes_as``): its own watcher leaves them; NULL for every other."""
    db.table("changes").add_column("origin", str)


def _changes_without_their_counter(db: sqlite_utils.Database) -> None:
    """The changes are numbered by INTEGER PRIMARY KEY alone: AUTOINCREMENT also wrote its
    counter in ``sqlite_sequence`` at every change, a page more in every move's write (its
    write took 7% less CPU without it, timed alternately), to keep a number from being used
    again after the newest rows are deleted, and only the oldest ever are (``changed``)."""
    db.execute("create table changes_numbered (seq integer primary key, "
               "game_id text not null, at float not null, origin text)")
    db.execute("insert into changes_numbered (seq, game_id, at, origin) "
               "select seq, game_id, at, origin from changes")
    db.execute("drop table changes")
    db.execute("alter table changes_numbered rename to changes")


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
    ("0019_changes", _changes),
    ("0020_change_origins", _change_origins),
    ("0021_changes_without_their_counter", _changes_without_their_counter),
]



def per_file() -> PerFile:
    """This process's ``PerFile`` (``referee.store.PER_FILE``), read at the time of use."""
    from referee import store as package
    return package.PER_FILE


CHECKPOINT_EVERY_S = 1.0


def checkpoint_in_background(path: str, every_s: float = CHECKPOINT_EVERY_S) -> None:
    """Copy the WAL back into the database file from a thread of its own, every ``every_s``
    seconds, for connections made with ``autocheckpoint=False``. SQLite's automatic
    checkpoint runs inside the COMMIT of whichever write fills the WAL, with its fsync, while
    that writer still holds the writers' queue (``Store.write``): every move behind it
    waited. A PASSIVE checkpoint never waits for, or stops, a reader or a writer. Once a
    process and database file, until the file is gone: a process that opens file after
    file (a test run) keeps no thread and connection for each."""
    kept = per_file()
    if path.startswith("postgres") or not kept.start_checkpointing(path):
        return

    def run() -> None:
        try:  # never making the file again, should it be gone already
            conn = sqlite3.connect(f"file:{urllib.parse.quote(os.path.abspath(path))}?mode=rw",
                                   timeout=BUSY_TIMEOUT_S, isolation_level=None, uri=True)
        except sqlite3.Error:
            kept.stop_checkpointing(path)
            return
        while True:
            time.sleep(every_s)
            if not os.path.exists(path):  # the file is gone (a test's, a shard moved away)
                conn.close()
                kept.stop_checkpointing(path)  # a file made there again is checkpointed
                return
            try:
                conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            except sqlite3.Error:
                continue  # busy or gone for a moment: the next turn checkpoints

    threading.Thread(target=run, name="wal-checkpoint", daemon=True).start()


CHANGES_KEPT = 20_000  # rows of ``changes`` kept: minutes of a busy league's changes
PRUNE_CHANGES_EVERY = 1000
LOOK_ANYWAY_S = 1.0  # a watcher reads the changes table this often even if nobody rang
WATCH_AT_ONCE = 5000  # changes read in one look


def _bells(path: str) -> str | None:
    """The folder beside a database file where each watching process keeps its bell (a
    Unix datagram socket), None for a database in memory or without Unix sockets."""
    if path.startswith(":memory:") or not hasattr(socket, "AF_UNIX"):
        return None
    return f"{path}.bells"


RUNG_AT_ONCE = 1024  # bytes of game ids a bell's ring names; a longer ring names none
WANTS_SLOTS = 1 << 16  # a watcher's wants: one byte for each game id's slot


def _wants(path: str) -> str:
    """The folder beside a database file where each watcher with a bell says which games
    its process streams (``ChangeWatcher.watching``), in a file of the bell's name."""
    return f"{path}.wants"


def wants_slot(game_id: str) -> int:
    return zlib.crc32(game_id.encode()) & (WANTS_SLOTS - 1)


class Bells:
    """The bells of the watchers on one database file, as a writer that rings them sees
    them: the folder is listed again when it changes (a process came or went) and at least
    every ``LOOK_ANYWAY_S`` (two changes within one tick of its clock leave its time as it
    was), and one unbound socket sends every ring, where each ring listed the folder and
    made a socket. A watcher that says which games its process streams (its wants, mapped
    from their file) is rung only for those: on this machine's virtual CPUs a process woken
    for nothing costs about 0.2 ms, as much as reading the changes did."""

    def __init__(self, path: str, folder: str) -> None:
        self.folder, self.wants_folder = folder, _wants(path)
        # the folder's mtime when it was listed, when that was, and the names it held
        self.listed: tuple[int, float, list[str]] = (-1, 0.0, [])
        self.wants: dict[str, mmap.mmap | None] = {}  # by bell: None where it has none
        self.guard = threading.Lock()  # the writers' threads share the lists
        self.sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sender.setblocking(False)

    def names(self) -> list[str]:
        stamp, now = os.stat(self.folder).st_mtime_ns, time.monotonic()
        if stamp != self.listed[0] or now - self.listed[1] >= LOOK_ANYWAY_S:
            names = os.listdir(self.folder)
            with self.guard:
                self.listed = (stamp, now, names)
                self.wants = {name: wants for name, wants in self.wants.items()
                              if name in names and wants is not None}  # the rest looked at again
        return self.listed[2]

    def wants_of(self, name: str) -> mmap.mmap | None:
        """The wants of the bell ``name``, None if it has none (yet)."""
        with self.guard:
            if name in self.wants:
                return self.wants[name]
        wants = None
        with contextlib.suppress(OSError, ValueError):
            fd = os.open(os.path.join(self.wants_folder, name), os.O_RDONLY)
            try:
                wants = mmap.mmap(fd, WANTS_SLOTS, access=mmap.ACCESS_READ)
            finally:
                os.close(fd)
        with self.guard:
            self.wants[name] = wants
        return wants

    def close(self) -> None:
        """Its socket and maps let go (a ring still under way through it is lost: its
        watchers read the change on their own look)."""
        with self.guard:
            maps, self.wants = self.wants, {}
        self.sender.close()
        for wants in maps.values():
            if wants is not None:
                with contextlib.suppress(BufferError):
                    wants.close()

    def ring(self, games: Iterable[str], skip: str | None) -> None:
        named = sorted(games)
        rung = "\n".join(named).encode()
        slots = [wants_slot(game_id) for game_id in named]
        if not rung or len(rung) > RUNG_AT_ONCE:
            rung, slots = b"!", []  # it names no game: every watcher reads the changes
        try:
            names = self.names()
        except OSError:
            return
        for name in names:
            if name == skip:
                continue
            wants = self.wants_of(name) if slots else None
            if wants is not None and not any(wants[slot] for slot in slots):
                continue  # its process streams none of them
            try:
                self.sender.sendto(rung, os.path.join(self.folder, name))
            except (ConnectionRefusedError, FileNotFoundError):
                for gone in (self.folder, self.wants_folder):
                    with contextlib.suppress(OSError):
                        os.unlink(os.path.join(gone, name))
            except OSError:
                continue  # its queue is full: it is awake and will read everything


# each database file's bells, the most recently rung last: a process that writes to many
# files (a test run, a shard tool) keeps the sockets and maps of only the last few
_BELLS: collections.OrderedDict[str, Bells] = collections.OrderedDict()
_BELLS_GUARD = threading.Lock()
BELLS_KEPT = 8


def ring(path: str, skip: str | None = None, games: Iterable[str] = ()) -> None:
    """Ring every watcher's bell on this database file (once a write that changed a game has
    committed), naming the ``games`` it changed: each watcher wakes at once, where it would
    otherwise look again only after ``LOOK_ANYWAY_S``, and reads the changes if it watches
    one of them. A bell nobody answers (its process is gone) is taken down. ``skip``: the
    bell of the watcher that leaves this write's changes (its name is their origin)."""
    folder = _bells(path)
    if folder is None:
        return
    with _BELLS_GUARD:
        bells = _BELLS.get(folder)
        if bells is None:
            bells = _BELLS[folder] = Bells(path, folder)
            while len(_BELLS) > BELLS_KEPT:
                _BELLS.popitem(last=False)[1].close()
        else:
            _BELLS.move_to_end(folder)
    with contextlib.suppress(OSError, ValueError):  # closed meanwhile: the looks read it
        bells.ring(games, skip)


class ChangeWatcher:
    """The games that change, committed by any process on the database file, in commit
    order: what a server process's stream hub waits on (``wait``) to push each game's new
    version to the phones that hold its streams.

    SQLite: every change is a row of the ``changes`` table, written in the transaction that
    made it; a write that made one rings every watcher's bell when it commits (``ring``: a
    Unix datagram to a socket each watcher keeps beside the database file), and the watcher,
    woken, reads the rows past the last it read (one indexed query). It reads them every
    ``LOOK_ANYWAY_S`` too, should a bell go unheard. Idle, it costs nothing; a change reaches
    it in well under a millisecond. SQLite serialises writers, so rows commit in the order of
    their numbers, and reading past the last number seen misses none. Another store keeps
    the same interface (a PostgreSQL store: LISTEN on a channel its ``changed`` NOTIFYs in the
    write's transaction, ``wait`` returning when a notification comes, ``wake`` a NOTIFY)."""

    def __init__(self, path: str, skip: str | None = None) -> None:
        self.path = path
        self.skip = skip  # the origin of the changes its own process pushes itself
        self.read_at = time.monotonic()  # when it last read the changes
        self.conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                    check_same_thread=False)
        self.cursor = self.conn.execute("select coalesce(max(seq), 0) from changes"
                                        ).fetchone()[0]
        self.behind = False  # its last read stopped at WATCH_AT_ONCE rows
        self.bell: socket.socket | None = None
        # what waits on the bell (``wait``): poll, as select refuses a descriptor past 1,023
        self.ringing = select.poll()
        self.bell_path: str | None = None
        folder = _bells(path)
        if folder is not None:
            with contextlib.suppress(OSError):
                os.makedirs(folder, mode=0o700, exist_ok=True)
                bell = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self.bell_path = os.path.join(  # named by the origin it leaves, if any
                    folder, skip or f"{os.getpid()}-{secrets.token_hex(4)}")
                bell.bind(self.bell_path)
                self.bell = bell
                self.ringing.register(bell, select.POLLIN)
        # what the watcher's process streams, by slot (``watching``), for the writers to read
        self.wants: mmap.mmap | None = None
        self.wants_path: str | None = None
        self.slots: dict[int, int] = {}  # games watched in each slot
        self.wanted_at = time.monotonic()  # when its slots were last set (``watching``)
        self.watched: set[str] | None = None  # None until told (``watching``): every game

    def _make_wants(self, path: str, name: str) -> None:
        """The watcher's wants, every slot 0, made under a name of its own and then given
        the bell's, so that a writer never maps half of one."""
        folder = _wants(path)
        making = os.path.join(folder, f".{name}.{secrets.token_hex(4)}")
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            fd = os.open(making, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                # written out, not a sparse file: a page of one first written through the
                # map on a full disk would kill the process (SIGBUS); this fails here instead
                if os.write(fd, bytes(WANTS_SLOTS)) != WANTS_SLOTS:
                    raise OSError("the wants were not written whole")
                self.wants = mmap.mmap(fd, WANTS_SLOTS)
            finally:
                os.close(fd)
            self.wants_path = os.path.join(folder, name)
            os.replace(making, self.wants_path)
        except OSError as err:
            log.warning("a watcher rung for every change (its wants: %s)", err)
            self.wants = self.wants_path = None
            with contextlib.suppress(OSError):
                os.unlink(making)

    def watching(self, games: set[str]) -> None:
        """The games its process streams now: from now on a writer rings its bell only for
        a change of one of these (or a change it cannot name). Called, by the thread that
        waits, before it builds the first documents of a game it has just begun to stream:
        a change committed before the game's slot was set is in them. Called again and again
        (after each ``wait``), it sets its slots again every ``LOOK_ANYWAY_S``: wants that
        anything else cleared (a file zeroed in place) are whole again within that."""
        if self.watched is None:  # told for the first time: its wants are made
            self.watched = set()
            if self.bell_path is not None:
                self._make_wants(self.path, os.path.basename(self.bell_path))
        wants = self.wants
        if wants is None:
            self.watched = set(games)
            return
        if games == self.watched:
            if time.monotonic() - self.wanted_at >= LOOK_ANYWAY_S:
                for slot in self.slots:  # set again, should anything else have cleared one
                    wants[slot] = 1
                self.wanted_at = time.monotonic()
            return
        for game_id in games - self.watched:
            slot = wants_slot(game_id)
            self.slots[slot] = self.slots.get(slot, 0) + 1
            wants[slot] = 1
        for game_id in self.watched - games:
            slot = wants_slot(game_id)
            left = self.slots.pop(slot, 1) - 1
            if left > 0:
                self.slots[slot] = left
            else:
                wants[slot] = 0
        self.watched = set(games)

    def wait(self, timeout: float) -> set[str] | None:
        """The games changed since the last call, waiting up to ``timeout`` seconds for a
        bell (an empty set if none changed); None if some changes may have been missed (rows
        pruned before this watcher read them: it fell minutes behind): the caller then looks
        at every game it watches. A bell that names only games its process does not stream
        (``watching``) is left unread: its changes are read with the next, or within
        ``LOOK_ANYWAY_S``, and a process holding none of a busy league's other games' streams
        does not read the table at each of their moves."""
        since = time.monotonic() - self.read_at
        if self.behind or since >= LOOK_ANYWAY_S:
            return self._read()
        if self.bell is None:
            time.sleep(min(timeout, 0.005))
            return self._read()
        if not self.ringing.poll(1000 * max(0.0, min(timeout, LOOK_ANYWAY_S - since))):
            return self._read() if time.monotonic() - self.read_at >= LOOK_ANYWAY_S else set()
        if self._rung_for_another():
            return set()
        return self._read()

    def _rung_for_another(self) -> bool:
        """Every ring so far taken off the bell (one look reads them all): whether each named
        only games its process does not stream."""
        watched, others = self.watched, True
        with contextlib.suppress(OSError):
            self.bell.setblocking(False)  # type: ignore[union-attr]
            while rung := self.bell.recv(RUNG_AT_ONCE + 1):  # type: ignore[union-attr]
                if others and (watched is None or rung == b"!" or any(
                        game_id in watched
                        for game_id in rung.decode(errors="replace").split("\n"))):
                    others = False
        return others

    def _read(self) -> set[str] | None:
        self.read_at = time.monotonic()
        rows = self.conn.execute(
            "select seq, game_id, origin from changes where seq > ? order by seq limit ?",
            [self.cursor, WATCH_AT_ONCE]).fetchall()
        self.behind = len(rows) == WATCH_AT_ONCE  # more wait: the next call reads on
        if not rows:
            return set()
        missed = rows[0][0] != self.cursor + 1  # numbers run on without a gap
        self.cursor = rows[-1][0]
        skip = self.skip
        return None if missed else {game_id for _, game_id, origin in rows
                                    if origin is None or origin != skip}

    def wake(self) -> None:
        """End a ``wait`` now (from another thread: the hub has a new stream to look at)."""
        if self.bell_path is not None:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender, \
                    contextlib.suppress(OSError):
                sender.setblocking(False)
                sender.sendto(b"!", self.bell_path)

    def close(self) -> None:
        self.conn.close()
        if self.bell is not None:
            self.bell.close()
            for path in (self.bell_path, self.wants_path):
                if path is not None:
                    with contextlib.suppress(OSError):
                        os.unlink(path)
        if self.wants is not None:
            self.wants.close()


class SqliteStore(Store):
    """One connection to a SQLite database file."""

    engine = "sqlite"
    key_taken = (sqlite3.IntegrityError,)

    def __init__(self, path: str | Path, autocheckpoint: bool = True) -> None:
        """``autocheckpoint=False``: this connection leaves the WAL's checkpoints to
        ``checkpoint_in_background`` (the server's request threads)."""
        self.path = str(path) if str(path) != ":memory:" else f":memory:{id(self)}"
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_S * 1000}")
        conn.execute("PRAGMA synchronous = NORMAL")
        if not autocheckpoint:
            conn.execute("PRAGMA wal_autocheckpoint = 0")
        self.db = sqlite_utils.Database(conn)
        self._rings: set[str] = set()  # the games noted changed in the write under way

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
                self.db.table("migrations").create({"name": str, "applied_at": float}, pk="name")
            done = {row["name"] for row in self.db.table("migrations").rows}
            for name, step in MIGRATIONS:
                if name not in done:
                    step(self.db)
                    self.db.table("migrations").insert({"name": name, "applied_at": time.time()})
                    applied.append(name)
        return applied

    def applied_migrations(self) -> list[str]:
        if "migrations" not in self.db.table_names():
            return []
        order = [name for name, _ in MIGRATIONS]
        done = {row[0] for row in self.db.conn.execute("select name from migrations")}
        return [name for name in order if name in done] + sorted(done - set(order))

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
    def write(self, scope: str | None = None) -> Iterator[sqlite_utils.Database]:
        """One write transaction, taken at once so writers queue rather than clash (every
        write, whatever its ``scope``: SQLite has one writer at a time). The
        threads of one process queue on a lock of their own first: a thread that
        finds SQLite's write lock taken sleeps in SQLite's busy handler for up to 100 ms a
        try, while a waiter on this lock runs as soon as the writer before it commits. Other
        processes on the same file queue on a lock file of their own (``PerFile.lock_file``) for
        the same reason; a write inside a write takes neither again, and fails at once."""
        with per_file().writer_lock(self.path):
            shared = None if self.db.conn.in_transaction else per_file().lock_file(self.path)
            if shared is not None:
                fcntl.flock(shared, fcntl.LOCK_EX)
            try:
                self.db.conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self.db
                except BaseException:
                    self.db.conn.rollback()
                    self._rings.clear()  # nothing changed after all
                    raise
                else:
                    self.db.conn.execute("COMMIT")
            finally:
                if shared is not None:
                    fcntl.flock(shared, fcntl.LOCK_UN)
        if self._rings:  # committed: the watchers may read it now
            games, self._rings = self._rings, set()
            ring(self.path, self.pushes_as, games)


    def _run(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Straight to the connection: sqlite-utils' ``query`` wraps every read in a
        savepoint, three statements where one does."""
        return self.db.conn.execute(sql, params)

    def _run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.db.conn.executemany(sql, rows)

    def columns(self, table: str) -> list[str]:
        return [row[1] for row in self.db.conn.execute(f"pragma table_info([{table}])")]

    def tables(self) -> set[str]:
        """The store's tables (not SQLite's own, ``sqlite_sequence``)."""
        return {name for name in self.db.table_names() if not name.startswith("sqlite_")}

    def take_due(self, when: float, limit: int = 100, lease_s: float = 30.0) -> list[str]:
        with self.write():
            due = self.games_due(when, limit)
            self._run_many("update computers_due set due_at = ? where game_id = ?",
                           [(when + lease_s, game_id) for game_id in due])
        return due

    # -- what the streams watch: which games changed, in commit order ----------------------

    def changed(self, game_id: str) -> None:
        """Note, inside the caller's write transaction, that a game changed (events
        appended, a token replaced or revoked, hosting handed on), so that every server
        process's ``ChangeWatcher`` wakes the streams of that game; the oldest notes beyond
        ``CHANGES_KEPT`` go now and then."""
        cursor = self.db.conn.execute(
            "insert into changes (game_id, at, origin) values (?, ?, ?)",
            [game_id, time.time(), self.pushes_as])
        self._rings.add(game_id)  # the watchers' bells, once the write commits
        self.noted += 1
        if (cursor.lastrowid or 0) % PRUNE_CHANGES_EVERY == 0:
            self.db.conn.execute("delete from changes where seq <= ?",
                                 [(cursor.lastrowid or 0) - CHANGES_KEPT])

    def change_watcher(self, skip: str | None = None) -> ChangeWatcher:
        """A watcher of the games that change from now on, by any process or server on this
        database (``ChangeWatcher``): one a server process, for its streams; ``skip``: the
        origin of the changes that process pushes itself (``pushes_as``)."""
        return ChangeWatcher(self.path, skip)
