"""What every store does, in SQL both engines speak: games, seats, every game's event log, the
club's records. An engine (``sqlite.SqliteStore``, ``postgresql.PostgresStore``) adds its
connection, its write transaction and its migrations; nothing above the store writes SQL.

``Store(database)`` opens the engine the database names: a PostgreSQL URL
(``postgresql://...``) or a SQLite file (anything else, the default).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from ..common.encoded import Encoded, compact

RATE_WINDOWS_KEPT_S = 3600  # a rate limit's window is a minute; older rows are dropped

# a seat's private notes, each a table of migration 0002 (``keep_note``): the pages' working
# draft (beside the checked draft disposition, ``keep_draft``, since 0017) and its pencil marks
NOTES = ("drafts", "marks")

# every table that keeps something of one game (its ``game_id`` column), which a removed game
# leaves (``remove_game``); tests/test_store_contract.py checks the list against the schema.
# Not SQLite's ``changes``: the numbered notes the streams read in order, pruned on their own
GAME_TABLES = ("seats", "events", "idempotency", "drafts", "marks", "computers_due",
               "club_entries")

# what moving a club takes (``dump``, ``load``): every table but the migrations (the target
# has its own) and the rate limits (windows of a minute); rows in this order, so that each
# row's game is there before it. ``rowid``: the tables whose order of insertion is read
# (a game's seats, the club's finished games), moved with it.
CLUB_TABLES = ("games", "seats", "events", "idempotency", "drafts", "marks", "computers_due",
               "club_entries", "trusted_keys", "recovery_guesses")
ORDERED_TABLES = ("seats", "club_entries")


def is_postgresql(database: str | object) -> bool:
    """Whether a database setting names PostgreSQL (a ``postgresql://`` or ``postgres://``
    URL) rather than a SQLite file."""
    return isinstance(database, str) and database.startswith(("postgresql://", "postgres://"))


def shown(database: str | object) -> str:
    """A database setting as a terminal or a log may show it: a URL's password hidden.

    >>> shown("postgresql://club:s3cret@db.example.org/referee")
    'postgresql://club:***@db.example.org/referee'
    >>> shown("instance/referee.db")
    'instance/referee.db'
    """
    text = str(database)
    if not is_postgresql(text):
        return text
    scheme, _, rest = text.partition("://")
    credentials, at, place = rest.rpartition("@")
    if at and ":" in credentials:
        credentials = credentials.split(":", 1)[0] + ":***"
    return f"{scheme}://{credentials}{at}{place}"


class Unavailable(RuntimeError):
    """The database could not be reached, or a write waited too long for another's lock:
    nothing was changed, and the request may be tried again (the app answers 503)."""


class SeqTaken(Exception):
    """An event's number in its game's log is taken already (``Store.append``): another
    writer appended to the game first. Nothing of the write is kept."""


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


class ChangeWatcher(Protocol):
    """A watcher of the games that change from now on, by any process or server on one
    database (``Store.change_watcher``), as each engine makes it."""

    def wait(self, timeout: float) -> set[str] | None:
        """The games changed since the last call, waiting up to ``timeout`` seconds for the
        first (an empty set if none did); None if some may have been missed: the caller then
        looks at every game it watches."""
        ...

    def wake(self) -> None:
        """End a ``wait`` now (from another thread)."""
        ...

    def watching(self, games: set[str]) -> None:
        """The games the caller streams now, told before it builds the first documents of a
        game it has just begun to stream: from then on a watcher may leave the others'
        changes unheard for a while (never for longer than its own look), until told again.
        A watcher never told hears every change."""
        ...

    def close(self) -> None:
        ...


def digest(secret: str) -> str:
    """The only form in which a token is stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


class Store:
    """One connection to the referee's database. ``Store(database)`` is the engine's store:
    ``PostgresStore`` for a PostgreSQL URL, ``SqliteStore`` for a file (or ``:memory:``).

    A write is ``with store.write(scope):``, one transaction: ``scope`` names what it
    changes, a game's id (writes to different games need not wait for each other) or None
    for a write across games (it waits for every other, and every other for it). Inside a
    write, what the write reads to decide is held until it ends: the game's version and
    rows, a client's recovery guesses, a rate limit's count, a content hash's owner."""

    path: str  # what names this database in this process (``PER_FILE``'s key)
    # what the engine raises when a row's primary key is taken (``append``: ``SeqTaken``)
    key_taken: tuple[type[Exception], ...] = ()
    # the origin its changes are noted with: a writer that pushes its own changes to its
    # process's streams (a seat's socket's mover), whose watcher leaves them (``changed``)
    pushes_as: str | None = None
    noted = 0  # changes this store has noted (``changed``), committed or not

    def __new__(cls, database: str | Any = None, *args: Any, **kwargs: Any) -> Store:
        if cls is Store:
            if is_postgresql(str(database)):
                try:
                    from .postgresql import PostgresStore
                except ImportError as missing:
                    raise RuntimeError(
                        f"The database {shown(database)} is PostgreSQL, which needs psycopg "
                        f"({missing}): pip install -e '.[postgres]'") from None
                cls = PostgresStore
            else:
                from .sqlite import SqliteStore
                cls = SqliteStore
        return super().__new__(cls)

    # -- what each engine provides ---------------------------------------------------------

    engine = ""  # "sqlite" or "postgresql"

    def close(self) -> None:
        raise NotImplementedError

    @property
    def in_transaction(self) -> bool:
        """Whether this connection is inside a transaction (a write, or one left open)."""
        raise NotImplementedError

    def end_open_transaction(self) -> None:
        """Roll back a transaction a request left open, so the connection's next user
        starts clean."""
        raise NotImplementedError

    def migrate(self) -> list[str]:
        """Create the database's tables, applying each named migration not yet applied."""
        raise NotImplementedError

    def applied_migrations(self) -> list[str]:
        """The names of the migrations applied to this database, in their order."""
        raise NotImplementedError

    def write(self, scope: str | None = None) -> contextlib.AbstractContextManager[Any]:
        raise NotImplementedError

    def _run(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement (``?`` marks its parameters); the engine's cursor."""
        raise NotImplementedError

    def _run_many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    def _hold(self, name: str) -> None:
        """Inside a write: hold ``name`` (a client, a rate limit, a content hash) until the
        write ends, so that another write deciding on the same thing waits for this one.
        SQLite's writes already wait for each other whole."""

    def columns(self, table: str) -> list[str]:
        """The columns of one of the store's tables, in their order."""
        raise NotImplementedError

    def tables(self) -> set[str]:
        raise NotImplementedError

    def take_due(self, when: float, limit: int = 100, lease_s: float = 30.0) -> list[str]:
        """The games whose computers may have to move by ``when``, the longest due first,
        each taken by this caller: its due time moves ``lease_s`` on, so that another server
        looking meanwhile leaves it (the caller then keeps its real due time,
        ``keep_due``; if the caller dies, the game is due again once the lease is over)."""
        raise NotImplementedError

    def changed(self, game_id: str) -> None:
        """Note, inside the caller's write, that a game changed (events appended, a token
        replaced or revoked, hosting handed on), for every server process's streams
        (``change_watcher``), once the write commits."""
        raise NotImplementedError

    def change_watcher(self, skip: str | None = None) -> ChangeWatcher:
        """A watcher of the games that change from now on, by any process or server on this
        database: ``wait(timeout) -> set[str] | None`` (None: some may have been missed,
        look at every game), ``wake()`` (end a wait now, from another thread), ``close()``.
        ``skip``: leave the changes made by stores whose ``pushes_as`` is this (if the
        store can tell them apart); ``watching`` says which games the caller streams."""
        raise NotImplementedError

    def _one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The first row of a read; None for a read that finds nothing."""
        row: tuple[Any, ...] | None = self._run(sql, params).fetchone()
        return row

    def _row(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...]:
        """The row of a read that always gives one (an aggregate, a row just written)."""
        row = self._one(sql, params)
        if row is None:
            raise LookupError(f"no row for {sql[:60]!r}")
        return row

    def _dicts(self, sql: str, params: Sequence[Any] = ()) -> list[dict]:
        cursor = self._run(sql, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    # -- games and seats ---------------------------------------------------------------

    def add_game(self, game_id: str, host_token: str, seats: Iterable[str],
                 rules: str, now: float) -> None:
        """A new game and its seats, none claimed, each at join generation 0."""
        self._run("insert into games (id, created_at, host_hash, rules) values (?, ?, ?, ?)",
                  [game_id, now, digest(host_token), rules])
        self._run_many("insert into seats (game_id, seat, join_generation, claimed, token_hash) "
                       "values (?, ?, 0, 0, null)", [(game_id, seat) for seat in seats])

    def mark_finished(self, game_id: str, when: float) -> None:
        self._run("update games set finished_at = ? where id = ? and finished_at is null",
                  [when, game_id])

    def rules_of(self, game_id: str) -> str | None:
        """The rule set a game plays; None for a game this store does not hold."""
        row = self._one("select rules from games where id = ?", [game_id])
        return row[0] if row else None

    def game_exists(self, game_id: str) -> bool:
        return self._one("select 1 from games where id = ?", [game_id]) is not None

    def seat_row(self, game_id: str, seat: str) -> dict | None:
        rows = self._dicts("select game_id, seat, claimed, token_hash, recovery_hash, seen_at, "
                           "join_generation, spent_recovery_hash, recovered_at from seats "
                           "where game_id = ? and seat = ?", [game_id, seat])
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
        self._run("update seats set claimed = 1, token_hash = ?, recovery_hash = ? "
                  "where game_id = ? and seat = ?",
                  [digest(token), recovery_hash, game_id, seat])

    def recover(self, game_id: str, seat: str, token: str, recovery_hash: str,
                spent_hash: str, when: float) -> None:
        """The seat moves to a new device: its new token and code, and the hash of the code
        just spent, kept a while so a double tap of it is recognised (R24)."""
        self._run("update seats set claimed = 1, token_hash = ?, recovery_hash = ?, "
                  "spent_recovery_hash = ?, recovered_at = ? where game_id = ? and seat = ?",
                  [digest(token), recovery_hash, spent_hash, when, game_id, seat])
        self.changed(game_id)  # a stream on the old token ends

    def reissue(self, game_id: str, seat: str) -> int:
        """The seat's next join generation (so a new join code, and the old one no longer
        works); the seat's old token and recovery code stop working. Returns the generation."""
        self._run("update seats set join_generation = join_generation + 1, claimed = 0, "
                  "token_hash = null, recovery_hash = null where game_id = ? and seat = ?",
                  [game_id, seat])
        self.changed(game_id)  # a stream on the old token ends
        return int(self._row("select join_generation from seats where game_id = ? and seat = ?",
                             [game_id, seat])[0])

    def open_seats(self, game_id: str) -> dict[str, int]:
        """The seats nobody has claimed yet, each with its join generation."""
        return {seat: generation for seat, generation in self._run(
            "select seat, join_generation from seats where game_id = ? and claimed = 0 "
            "order by rowid", [game_id]).fetchall()}

    def recovery_guesses(self, client: str) -> tuple[int, float, float]:
        """A client's wrong recovery codes: how many, when it may guess again, and when it
        last guessed wrong (R24). Inside a write, held until it ends: a wrong guess sent to
        another server at the same moment is counted after this one."""
        if self.in_transaction:
            self._hold(f"recovery:{client}")
        row = self._one("select failures, after, last_at from recovery_guesses "
                        "where client = ?", [client])
        return (row[0], row[1], row[2]) if row else (0, 0.0, 0.0)

    def guessed_wrong(self, client: str, failures: int, after: float, when: float) -> None:
        """Count a client's wrong recovery code; its next guess waits until ``after``."""
        self._run("insert into recovery_guesses (client, failures, after, last_at) "
                  "values (?, ?, ?, ?) on conflict (client) do update set failures = "
                  "excluded.failures, after = excluded.after, last_at = excluded.last_at",
                  [client, failures, after, when])

    def host_seat(self, game_id: str) -> str | None:
        row = self._one("select host_seat from games where id = ?", [game_id])
        return row[0] if row else None

    def hand_over(self, game_id: str, seat: str, unheld_token: str) -> None:
        """The host's powers pass to a seat; the host token is replaced by one nobody holds."""
        self._run("update games set host_seat = ?, host_hash = ? where id = ?",
                  [seat, digest(unheld_token), game_id])
        self.changed(game_id)  # a stream on the old token ends

    def seen(self, game_id: str, seat: str, when: float) -> None:
        """When this seat's phone (or script) last asked about its game (R25's absent player)."""
        with self.write(game_id):
            self._run("update seats set seen_at = ? where game_id = ? and seat = ?",
                      [when, game_id, seat])

    def seen_many(self, seats: list[tuple[str, str]], when: float) -> None:
        """``seen`` for many (game, seat) pairs at once, in one transaction."""
        with self.write():
            self._run_many("update seats set seen_at = ? where game_id = ? and seat = ?",
                           [(when, game_id, seat) for game_id, seat in seats])

    def seats_seen(self, game_id: str) -> dict[str, float | None]:
        return dict(self._run("select seat, seen_at from seats where game_id = ?",
                              [game_id]).fetchall())

    def event_time(self, game_id: str, seq: int) -> float | None:
        """When an event was appended (the move clock starts at a turn's first event, R25)."""
        row = self._one("select at from events where game_id = ? and seq = ?", [game_id, seq])
        return row[0] if row else None

    def keep_due(self, game_id: str, due_at: float | None) -> None:
        """When a computer of this game may next have to move; None: none will at this
        version."""
        if due_at is None:
            self._run("delete from computers_due where game_id = ?", [game_id])
        else:
            self._run("insert into computers_due (game_id, due_at) values (?, ?) on conflict "
                      "(game_id) do update set due_at = excluded.due_at", [game_id, due_at])

    def games_due(self, when: float, limit: int = 100) -> list[str]:
        """The games whose computers may have to move by ``when``, the longest due first."""
        return [row[0] for row in self._run(
            "select game_id from computers_due where due_at <= ? order by due_at limit ?",
            [when, limit]).fetchall()]

    def take_turn(self, key: str, limit: int, window_s: float, when: float) -> float:
        """Count one more ask of ``key`` (a seat's "place the rest", a client's imports) in
        its window of ``window_s`` seconds, for every process and server on the database: 0
        when it is within ``limit``, else the seconds until the window ends (nothing
        counted). Windows over an hour old are dropped on the way. An ask past the limit is
        refused from a read alone: a client asking without end must not queue every move
        behind its writes."""
        row = self._one("select window_start, count from rate_limits where key = ?", [key])
        if row is not None and when - row[0] < window_s and row[1] >= limit:
            return window_s - (when - row[0])
        with self.write(f"rate:{key}"):
            self._run("delete from rate_limits where window_start < ?",
                      [when - RATE_WINDOWS_KEPT_S])
            row = self._one("select window_start, count from rate_limits where key = ?", [key])
            if row is None or when - row[0] >= window_s:
                self._run("insert into rate_limits (key, window_start, count) values (?, ?, 1) "
                          "on conflict (key) do update set window_start = "
                          "excluded.window_start, count = 1", [key, when])
                return 0.0
            if row[1] < limit:
                self._run("update rate_limits set count = count + 1 where key = ?", [key])
                return 0.0
            return window_s - (when - row[0])

    # -- the event log ---------------------------------------------------------------------

    def events(self, game_id: str) -> list[dict]:
        return [json.loads(body) for body in self.event_bodies_after(game_id, 0)]

    def events_after(self, game_id: str, seq: int) -> list[dict]:
        """The game's events numbered after ``seq``: none when a cached state is current."""
        return [json.loads(body) for body in self.event_bodies_after(game_id, seq)]

    def event_bodies_after(self, game_id: str, seq: int) -> list[str]:
        """The JSON text of the game's events numbered after ``seq`` (its length is what the
        cached states weigh a game by)."""
        return [body for (body,) in self._run(
            "select body from events where game_id = ? and seq > ? order by seq",
            [game_id, seq]).fetchall()]

    def version(self, game_id: str) -> int:
        """How many events the game has: its view's version (events are numbered 1, 2 ...)."""
        return int(self._row("select max(seq) from events where game_id = ?", [game_id])[0] or 0)

    def append(self, game_id: str, first_seq: int, events: list[dict], now: float) -> None:
        """One plain INSERT per event. A sequence number already taken fails on the primary
        key (game, seq), ``SeqTaken``: a log never forks, and as a log's numbers run on from
        1 without a gap, the first event's number is taken exactly when the game is no
        longer at the version before it. The change is noted for the streams (``changed``)
        in the same transaction."""
        try:
            self._run_many(
                "insert into events (game_id, seq, type, body, at) values (?, ?, ?, ?, ?)",
                [(game_id, first_seq + i, event["type"],
                  compact(event), now)
                 for i, event in enumerate(events)])
        except self.key_taken as taken:
            raise SeqTaken(f"event {first_seq} of game {game_id} is taken") from taken
        self.changed(game_id)

    # -- a game's secret, its draft dispositions, and where an imported game came from ----

    def keep_secret(self, game_id: str, secret: str) -> None:
        self._run("update games set secret = ? where id = ?", [secret, game_id])

    def secret(self, game_id: str) -> str | None:
        row = self._one("select secret from games where id = ?", [game_id])
        return row[0] if row else None

    def secret_made_once(self, game_id: str, make: Callable[[], str]) -> str | None:
        """The game's secret, given one now (``make``) if it was stored before secrets were
        kept; two processes doing so at once agree on the first."""
        found = self.secret(game_id)
        if found:
            return found
        self._run("update games set secret = ? where id = ? and secret is null",
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
        version, draft = self._row(
            "select (select max(seq) from events where game_id = ?), "
            "(select rev from drafts where game_id = ? and seat = ?)",
            [game_id, game_id, seat])
        return version or 0, draft or 0

    def seat_stamp(self, token: str) -> tuple[Holder, tuple[int, int]] | None:
        """The seat a token holds and its view's stamp (``view_stamp``), in one query: a
        phone's poll costs one round trip to the database (None for a token that holds no
        seat: a host's, a revoked one, a guess)."""
        row = self._one(
            "select s.game_id, s.seat, (select max(seq) from events e where e.game_id = "
            "s.game_id), (select rev from drafts d where d.game_id = s.game_id and d.seat = "
            "s.seat) from seats s where s.token_hash = ?", [digest(token)])
        return (Holder(row[0], row[1]), (row[2] or 0, row[3] or 0)) if row else None

    def seat_tokens(self, game_id: str) -> dict[str, tuple[str, int]]:
        """Each token that holds one of the game's seats now (by its hash, ``digest``): the
        seat, and that seat's draft revision (``view_stamp``'s), in one query. Read inside a
        write transaction, it is what holds as the write commits (``sockets``: a socket's
        move, and its pushes)."""
        return {row[0]: (row[1], row[2] or 0) for row in self._run(
            "select s.token_hash, s.seat, d.rev from seats s left join drafts d "
            "on d.game_id = s.game_id and d.seat = s.seat "
            "where s.game_id = ? and s.token_hash is not null", [game_id])}

    def drop_draft(self, game_id: str, seat: str) -> None:
        """The seat's draft disposition is in the log now: it goes, and its revision starts
        again; its pages' note stays."""
        self._run("update drafts set disposition = null, rev = 0 "
                  "where game_id = ? and seat = ?", [game_id, seat])
        self._drop_empty_draft(game_id, seat)

    def keep_draft(self, game_id: str, seat: str, document: Mapping[str, Any]) -> None:
        """Replace the seat's draft disposition (never a new row or event per draft)."""
        self._run(
            "insert into drafts (game_id, seat, disposition, rev) values (?, ?, ?, 1) "
            "on conflict (game_id, seat) do update set disposition = excluded.disposition, "
            "rev = drafts.rev + 1", [game_id, seat, compact(document)])

    def forget_drafts(self, game_id: str, seat: str) -> None:
        """A reissued seat's drafts (its pages' note and its draft disposition) are not
        handed to its next holder (R24)."""
        self._run("delete from drafts where game_id = ? and seat = ?", [game_id, seat])

    def _drop_empty_draft(self, game_id: str, seat: str) -> None:
        self._run("delete from drafts where game_id = ? and seat = ? and body is "
                  "null and disposition is null", [game_id, seat])

    def mark_imported(self, game_id: str, content_hash: str, signer: str | None) -> None:
        """An imported game: its content hash (checked free by the caller, in the same
        transaction) and the public key whose valid signature its file carried, if any."""
        self._run("update games set content_hash = ?, imported = 1, signer = ? where id = ?",
                  [content_hash, signer, game_id])

    def remove_game(self, game_id: str) -> None:
        """Remove a game and everything kept about it (``GAME_TABLES``): an unverified
        import that a signed file of the same game replaces."""
        for table in GAME_TABLES:
            self._run(f"delete from {table} where game_id = ?", [game_id])
        self._run("delete from games where id = ?", [game_id])

    def import_signers(self) -> dict[str, str | None]:
        """Every imported game and the key that signed its file (None: unsigned)."""
        return dict(self._run("select id, signer from games where imported = 1").fetchall())

    def import_signer(self, game_id: str) -> tuple[bool, str | None]:
        """Whether a game was imported, and the key that signed its file."""
        row = self._one("select imported, signer from games where id = ?", [game_id])
        return (bool(row[0]), row[1]) if row else (False, None)

    # -- the referees whose signed files the organiser trusts ------------------------------

    def trust(self, public_key: str, name: str, now: float) -> None:
        self._run("insert into trusted_keys (public_key, name, added_at) values (?, ?, ?) "
                  "on conflict (public_key) do update set name = excluded.name",
                  [public_key, name, now])

    def distrust(self, public_key: str) -> bool:
        """Trust no more a key; False if it was not trusted."""
        return self._run("delete from trusted_keys where public_key = ?",
                         [public_key]).rowcount > 0

    def trusted(self) -> list[dict]:
        """The trusted keys, oldest first: ``public_key``, ``name``, ``added_at``."""
        return self._dicts("select public_key, name, added_at from trusted_keys "
                           "order by added_at, public_key")

    def trusted_keys(self) -> set[str]:
        return {row[0] for row in self._run("select public_key from trusted_keys").fetchall()}

    def claim_content_hash(self, game_id: str, content_hash: str) -> None:
        """Give a game played here its content hash, unless it has one or another game
        already holds that hash (held until the write ends: two games of the same content
        finishing at once on two servers do not both claim it)."""
        self._hold(f"content:{content_hash}")
        self._run("update games set content_hash = ? where id = ? and content_hash is null "
                  "and not exists (select 1 from games where content_hash = ?)",
                  [content_hash, game_id, content_hash])

    def finished_without_content_hash(self) -> list[str]:
        return [row[0] for row in self._run(
            "select id from games where finished_at is not null and content_hash is null "
            "order by finished_at").fetchall()]

    def game_with_content(self, content_hash: str) -> str | None:
        """The game stored with this content hash (played here or imported), if any."""
        row = self._one("select id from games where content_hash = ?", [content_hash])
        return row[0] if row else None

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
        self._run(
            "insert into club_entries (game_id, rules, finished_at, counted, body, played) "
            "select id, ?, finished_at, ?, ?, ? from games where id = ? "
            "and finished_at is not null on conflict (game_id) do nothing",
            [rules, int(counted and played), compact(entry),
             int(played), game_id])

    def finished_without_entry(self) -> list[str]:
        """Finished games the club has no summary of yet (finished before summaries were
        kept, or whose summary failed), oldest first."""
        return [row[0] for row in self._run(
            "select g.id from games g left join club_entries e on e.game_id = g.id "
            "where g.finished_at is not null and e.game_id is null "
            "order by g.finished_at").fetchall()]

    def created_at(self, game_id: str) -> float | None:
        row = self._one("select created_at from games where id = ?", [game_id])
        return row[0] if row else None

    def give_up_content(self, game_id: str) -> None:
        """A game played here found to be a copy of one played elsewhere first: it counts in
        no record, and its content hash goes to the original."""
        self._run("update games set content_hash = null where id = ?", [game_id])
        self._run("update club_entries set counted = 0 where game_id = ?", [game_id])

    def count_club_entry(self, game_id: str, counted: bool) -> None:
        """Whether a finished game's summary counts in the records, again (the trusted
        referees changed)."""
        self._run("update club_entries set counted = case when played = 1 then ? else 0 end "
                  "where game_id = ?", [int(counted), game_id])

    def club_stamp(self, rules: str) -> tuple[int, int]:
        """What changes whenever the set of one rule set's counted summaries does."""
        count, total = self._row("select count(*), coalesce(sum(rowid), 0) from club_entries "
                                 "where rules = ? and counted = 1", [rules])
        return int(count), int(total)

    def counted_club_entries(self, rules: str) -> list[dict]:
        """Every summary of one rule set's games that count in the records, oldest first,
        each with its game's ``id``."""
        return [{**json.loads(body), "id": game_id} for game_id, body in self._run(
            "select game_id, body from club_entries where rules = ? and counted = 1 "
            "order by finished_at, rowid", [rules]).fetchall()]

    def finished_before(self, game_ids: list[str], cutoff: float) -> set[str]:
        """Which of these games finished before ``cutoff`` (a phone's cookie lets them go)."""
        if not game_ids:
            return set()
        marks = ", ".join("?" * len(game_ids))
        return {row[0] for row in self._run(
            f"select id from games where finished_at < ? and id in ({marks})",
            [cutoff, *game_ids]).fetchall()}

    def finished_count(self) -> int:
        """How many finished games the club lists."""
        return int(self._row("select count(*) from club_entries")[0])

    def finished_listing(self, offset: int, limit: int) -> list[dict]:
        """A page of the finished games the club lists, newest first: each its summary with
        its ``id``, ``rules``, ``imported``, ``signer`` (of an imported game's file),
        ``counted`` and ``played``."""
        return [{**json.loads(body), "id": game_id, "rules": rules, "imported": bool(imported),
                 "signer": signer, "counted": bool(counted), "played": bool(played)}
                for game_id, rules, counted, imported, signer, played, body
                in self._run(
                    "select e.game_id, e.rules, e.counted, g.imported, g.signer, e.played, "
                    "e.body from club_entries e join games g on g.id = e.game_id "
                    "order by e.finished_at desc, e.rowid desc limit ? offset ?",
                    [limit, offset]).fetchall()]

    def unfinished_games(self, since: float, limit: int) -> tuple[list[dict], int]:
        """The games not yet over whose last event was at ``since`` or later, the longest
        quiet first (at most ``limit``): each its ``id``, ``rules`` and ``last_at``; and how
        many other games not yet over have been quiet since before ``since``."""
        quiet = ("select g.id, g.rules, coalesce((select max(e.at) from events e "
                 "where e.game_id = g.id), g.created_at) as last_at "
                 "from games g where g.finished_at is null")
        rows = [{"id": game_id, "rules": rules, "last_at": last_at}
                for game_id, rules, last_at in self._run(
                    f"select * from ({quiet}) as quiet where last_at >= ? "
                    "order by last_at, id limit ?", [since, limit]).fetchall()]
        older = self._row(f"select count(*) from ({quiet}) as quiet where last_at < ?",
                          [since])[0]
        return rows, older

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
        self._run(f"insert into {table} (game_id, seat, body) values (?, ?, ?) "
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
        row = self._one("select status, body, request from idempotency "
                        "where game_id = ? and seat = ? and key = ?", [game_id, seat, key])
        return Remembered(row[0], json.loads(row[1]), row[2]) if row else None

    def remember(self, game_id: str, seat: str, key: str, status: int,
                 body: Mapping[str, Any] | Encoded, request: str | None = None) -> None:
        """An Idempotency-Key's first status and body (given as JSON already, or written
        here), and its request's digest."""
        self._run("insert into idempotency (game_id, seat, key, status, body, request) "
                  "values (?, ?, ?, ?, ?, ?)",
                  [game_id, seat, key, status,
                   body.text if isinstance(body, Encoded) else compact(body), request])

    # -- moving a club from one database to another ----------------------------------------

    def game_count(self) -> int:
        return int(self._row("select count(*) from games")[0])

    def dump(self) -> Iterator[tuple[str, list[str], Iterator[tuple]]]:
        """Every table a club moves (``CLUB_TABLES``): its name, its columns (``rowid``
        first where the order of its rows is read) and its rows, in a read of its own."""
        for table in CLUB_TABLES:
            columns = [c for c in self.columns(table) if c != "rowid"]
            if table in ORDERED_TABLES:
                columns = ["rowid", *columns]
            order = "rowid" if table in ORDERED_TABLES else "1"
            cursor = self._run(f"select {', '.join(columns)} from {table} order by {order}")
            yield table, columns, iter(cursor.fetchall())

    def load(self, table: str, columns: list[str], rows: list[Sequence[Any]]) -> None:
        """Insert rows moved from another database (inside a write across games); only the
        tables and columns a club moves (anything else is refused, never made)."""
        known = set(self.columns(table)) | ({"rowid"} if table in ORDERED_TABLES else set()) \
            if table in CLUB_TABLES else set()
        unknown = [c for c in columns if c not in known]
        if table not in CLUB_TABLES or unknown or not columns:
            raise ValueError(f"{table!r} {unknown[:3]} is not a table and columns of a club "
                             f"({', '.join(CLUB_TABLES)})")
        marks = ", ".join("?" * len(columns))
        self._run_many(f"insert into {table} ({', '.join(columns)}) values ({marks})", rows)

    def after_load(self) -> None:
        """What an engine does once rows are moved in (PostgreSQL: its counters move past
        the moved ``rowid``s)."""
