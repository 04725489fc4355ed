"""The transaction engine: every change to a stored game is one ``act``, and what a version
of a game gives is made once (``derived``).

Every change follows one path (``act``): take the game's replayed state from this process's
cache (``states``: one indexed query brings it up to date), let the core check and apply the
command, then open the store's write transaction (SQLite's, or PostgreSQL's holding the
game's lock) only to check that the game's version is unchanged and append the new events
(and try again if another process or server got in first). Nothing
expensive (a replay, a PDF, a post-mortem) runs while the write lock is held. A refused command
raises before anything is written, so nothing is ever half-applied. After a change, any
computer whose turn it is moves (``settle``).

A game's log takes at most ``MAX_EVENTS`` events; past that, only what ends the game (an
agreement, a resignation, a forfeit, a move that wins), up to ``MAX_LOG``, so that no seat can
keep a result off the record by filling the log. Nothing here copies a state: a command changes
the cached state itself, under the game's lock, and what a page shows comes from the products
kept per version (a caller that wants a state of its own replays the log: ``states.replayed``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Hashable
from typing import TypeVar

from ..common.problems import RuleViolation
from ..common.ruleset import Game
from ..costly import run as run_costly
from ..errors import ApiError
from ..states import states_of
from ..store import SeqTaken, Store
from . import clock, clocks, computers, files, views

log = logging.getLogger("referee")

MAX_EVENTS = 2000  # a game has at most a few hundred moves: a guard against swollen logs
ENDING_ROOM = 64  # events past MAX_EVENTS kept for what ends a game (R14): more than any needs
MAX_LOG = MAX_EVENTS + ENDING_ROOM
ACT_ATTEMPTS = 50  # tries of a command while other processes change the same game
T = TypeVar("T")


# kept for a version (``States.derived``) at which ``act`` found, as it committed it, that no
# computer will move or answer (``clocks.computer_due_at``: None): so it is at that version
# whatever the time
NO_COMPUTER_DUE = "no computer due"


class Stale(Exception):
    """Another process changed the game between the command and the write: try again."""


def derived(store: Store, game_id: str, key: Hashable, build: Callable[[Game], T],
            size: Callable[[T], int] = lambda value: 4096, *, costly: str | None = None) -> T:
    """What ``build`` makes of the game's current version, made once per version and kept
    (a finished game's post-mortem and PDFs never change). ``build`` runs under the game's
    lock in this process, never inside the store's write lock; it must not change the game.
    ``costly`` (what it does, "printing"): ``build`` is costly work, made in a turn of the
    costly pool (``costly.run``: then ``build`` must be picklable, a module-level function or
    a partial of one); what is already kept needs none."""
    states = states_of(store)

    def make(game: Game) -> T:
        return build(game) if costly is None else run_costly(costly, build, game)

    with states.lock(game_id):
        game = states.current(store, game_id)
        return states.derived(game_id, game.version, key, lambda: make(game), size)


def settle(store: Store, game_id: str) -> None:
    """Let any computer whose turn it is move, or answer an offer to end the game (say a
    server stopped between a player's move and the computer's answer)."""
    if computers_waiting(store, game_id):
        computers.play_bots(store, game_id)


def computers_waiting(store: Store, game_id: str, version: int | None = None) -> bool:
    """Whether a computer owes the game a move or an answer now (``settle`` would play).
    ``version``: the game's latest as the caller has just read it (``States.current``)."""
    states = states_of(store)
    with states.lock(game_id):
        game = states.current(store, game_id, version)
        if states.peek(game_id, game.version, NO_COMPUTER_DUE):
            return False  # none at this version, whatever the time (``act``)
        return not log_full(game) and (
            clocks.computer_to_move(store, game_id, game) is not None
            or bool(clocks.computers_to_answer(views.status(game))))


class LogFull(ApiError):
    """The game's log is at the referee's limit: only what ends the game is taken (R14)."""


def log_full(game: Game) -> bool:
    """Whether the game's log is at the referee's limit: no computer moves or plays on then
    (its players may still agree to end, or resign), and none is woken to try (R14)."""
    return game.version >= MAX_EVENTS


def check_room(game: Game, before: int, new: list[dict]) -> None:
    """A command's events fit the log: within MAX_EVENTS, or within MAX_LOG for events that
    end the game or lead only towards its end (R14), which are always taken."""
    if before + len(new) <= MAX_EVENTS:
        return
    if before + len(new) <= MAX_LOG and game.ends_the_game(new):
        return
    raise LogFull(409, f"This game has reached the referee's limit of {MAX_EVENTS:,} "
                        "events; it can still end: agree to end it or resign (R14)",
                   field="events", rule="R14")


def append_events(store: Store, game_id: str, before: int, new: list[dict]) -> None:
    """Append a command's events (perhaps none) inside the write transaction, if the game is
    still at the version the command saw (their room in the log is checked by
    ``check_room``). With events, the first one's number tells: it is taken exactly when
    another writer appended first (``SeqTaken``), so no query asks the version first."""
    if not new:
        if store.version(game_id) != before:
            raise Stale
        return
    try:
        store.append(game_id, before + 1, new, clock.now())
    except SeqTaken:
        raise Stale from None


def act(store: Store, game_id: str, command: Callable[[Game], T], *,
        then: Callable[[T], None] | None = None, computers: bool = True,
        version: int | None = None, kept: bool = False) -> T:
    """Apply a command to a stored game: the command runs on the cached state, outside
    the store's write lock; the lock is taken only to check the version and append (and to run
    ``then``, the command's own writes, e.g. an Idempotency-Key's report). If another process
    appended first, the command runs again on the new state. ``then`` runs even when the
    command adds no event (a new join code for a seat nobody holds), at the version the
    command saw. What a caller shows afterwards comes from the views kept per version
    (``seat_view``, ``host_status``), never from a copy of the state, whose cost would
    grow with what is hidden (R21). ``version``: the game's latest as the caller has just
    read it, so that a state kept at it is taken without asking the store for events after
    it (``States.current``); a second attempt asks. ``kept``: the state kept in this process
    is taken as the latest without asking at all (the write's version check sends a state
    another process moved on back for a second attempt; a refusal on it is the caller's to
    look at again)."""
    states = states_of(store)
    for _ in range(ACT_ATTEMPTS):
        with states.lock(game_id):
            game = states.current(store, game_id, version, kept=kept)
            version, kept = None, False  # another attempt follows only a write it did not see
            before = game.version
            try:
                _hold_dice(store, game_id, game)  # BB24: the referee's dice in hand
                result = command(game)
                check_room(game, before, game.events[before:])
            except (RuleViolation, ApiError):
                if game.version != before:  # refused after a change: the state is not the log
                    states.forget(game_id)
                raise
            except BaseException:
                states.forget(game_id)
                raise
            new = game.events[before:]
            if not new and then is None:  # nothing to write: no write lock
                break
            over = bool(new) and views.status(game)["phase"] == "over"
            stamp = files.content_hash(game) if over else None
            entry = files.club_entry(game) if stamp else None
            try:
                with store.write(game_id):
                    append_events(store, game_id, before, new)
                    if then is not None:
                        then(result)
                    if new:
                        due = clocks.computer_due_at(store, game_id, game)
                        store.keep_due(game_id, due)
                    if stamp:
                        store.mark_finished(game_id, clock.now())
                        # its file cannot be imported here again; an imported copy that
                        # came first keeps the hash (the live game is counted on its own)
                        store.claim_content_hash(game_id, stamp)
                        files.keep_club_entry(store, game_id, game, entry)
            except Stale:
                states.forget(game_id)
                continue
            except BaseException:
                if game.version != before:
                    states.forget(game_id)
                raise
            if new and due is None:  # committed: so at this version, whatever the time
                states.derived(game_id, game.version, NO_COMPUTER_DUE, lambda: True,
                               lambda _: 64)
        break
    else:
        raise ApiError(503, "The game is changing too fast to apply this now; try again")
    if new:
        _log_events(game_id, new)
    if computers and new:
        settle(store, game_id)
    return result


def _hold_dice(store: Store, game_id: str, game: Game) -> None:
    """The referee's secret dice seed in the game's hand, where its rules roll dice (BB24)."""
    computers.hold_dice(store, game_id, game)


class _KeptLines(threading.local):
    """A thread's move lines kept for the log (``keep_move_lines``): None where they are
    written at once."""

    lines: list[tuple[float, str, str]] | None = None


_kept = _KeptLines()


def keep_move_lines(keep: bool = True) -> None:
    """From now on this thread's commands' log lines are kept, each with its time, until
    ``write_kept_lines`` (the hub's loop, every second): a line is some 6 us among others,
    but 60 us on its own on the loop's cold caches, a twentieth of a socket's move.
    ``keep`` False: written at once again (any kept are written first)."""
    if not keep:
        write_kept_lines()
    _kept.lines = [] if keep else None


def write_kept_lines() -> None:
    """Write this thread's kept move lines to the log, in order, each as it would have been
    written at its move, with its move's time."""
    lines = _kept.lines
    if not lines:
        return
    _kept.lines = []
    if not log.isEnabledFor(logging.INFO):
        return
    for at, game_id, events in lines:
        record = log.makeRecord(log.name, logging.INFO, __file__, 0, "game %s: %s",
                                (game_id, events), None)
        record.relativeCreated -= (record.created - at) * 1000
        record.created, record.msecs = at, (at - int(at)) * 1000
        log.handle(record)


def _log_events(game_id: str, new: list[dict]) -> None:
    """A command's events in the log: at once, or kept (``keep_move_lines``)."""
    events = ", ".join(_describe_event(e) for e in new)
    if _kept.lines is None:
        log.info("game %s: %s", game_id, events)
    else:
        _kept.lines.append((clock.now(), game_id, events))


def _describe_event(event: dict) -> str:
    """An event for the log: its type and seat, never a square (R21)."""
    seat = event.get("seat")
    return f"{event['type']} ({seat})" if seat else event["type"]
