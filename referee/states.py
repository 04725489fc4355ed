"""Each game's replayed state, kept in this process and checked against the store on every use.

Replaying a game's whole event log on every request costs time that grows with the game (and
with its fleets, which R21 forbids a view's time to show). So each server process keeps, per
database file, the state of the games it has served, keyed by the game's version:

- ``current(store, game_id)`` asks the store for the events after the cached version (one
  indexed range query, empty when nothing changed) and applies only those. Several processes
  share one database file, so the cache is never trusted without that query.
- The states kept are bounded in bytes (``MAX_STATE_BYTES``), not only in number: each is
  weighed as its events' stored JSON times ``STATE_BYTES_PER_EVENT_BYTE`` (what a replayed
  state was measured to hold, tests/test_club_records.py), and the least recently used go
  first. A state heavier than an eighth of the bound is used and not kept.
- A command runs on the cached state under the game's lock (``lock``). The core changes
  nothing when it refuses a command (``RuleViolation``); on any other failure, or when the
  state changed but its events were not stored, the entry is dropped (``forget``) and the next
  use replays the log from the store.
- ``derived(game_id, version, key, build)`` memoises what follows from one version of a game
  (a seat's view and its JSON bytes, a record, a finished game's post-mortem and PDFs). A
  version's events never change, so neither does anything derived from it; a finished game's
  products are therefore kept until the bounded memory pushes them out.

Readers that use the state itself (not a derived copy) hold the game's lock while they do.
"""

from __future__ import annotations

import json
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

from . import rulesets
from . import store as store_module
from .common.ruleset import Game

T = TypeVar("T")

MAX_GAMES = 1000  # replayed states kept per process and database file, at most
MAX_STATE_BYTES = 128 * 1024 * 1024  # and their weight, at most (see STATE_BYTES_PER_EVENT_BYTE)
# A replayed state's Python objects (its events as dicts, its fleets, reports ...) took 10-30
# bytes for each byte of its events' JSON in every rule set's games, measured with tracemalloc
# (tests/test_club_records.py fails if a game outweighs this); 40 leaves a margin.
STATE_BYTES_PER_EVENT_BYTE = 40
MAX_DERIVED_BYTES = 64 * 1024 * 1024  # views, records, PDFs ... kept per database file
LOCK_STRIPES = 64


class States:
    """The replayed games and derived products of one database file, in this process."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._weights: dict[str, int] = {}  # each kept state's weight in bytes
        self._state_bytes = 0
        self._derived: OrderedDict[tuple, tuple[object, int]] = OrderedDict()
        self._derived_bytes = 0
        self._stamps: dict[Hashable, Hashable] = {}  # the stamp each ``latest`` key was made at
        self._guard = threading.Lock()
        self._locks = [threading.RLock() for _ in range(LOCK_STRIPES)]
        # games whose moves on a state kept look their Idempotency-Key up before the move
        # (``keys_first``): one of their keys was found seen inside a write
        self._keys_first: set[str] = set()

    def lock(self, game_id: str) -> threading.RLock:
        """The lock under which a game's cached state is read or changed in this process."""
        return self._locks[zlib.crc32(game_id.encode()) % LOCK_STRIPES]

    def current(self, store, game_id: str, version: int | None = None, *,
                kept: bool = False) -> Game:
        """The game at the store's latest version; hold ``lock(game_id)`` while using it.
        ``version``: the store's latest as the caller has just read it, so that a state kept
        at that version is taken without asking the store for events after it. ``kept``: a
        state kept is taken as the latest without asking, by a caller whose write checks
        the version it saw (``engine.act``) and who looks again at a refusal
        (``sockets.message_answer``)."""
        with self._guard:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            weight = self._weights.get(game_id, 0)
        if game is not None and (kept or version is not None and game.version == version):
            return game
        if game is None:
            game, weight = _empty(store, game_id), 0
        try:
            weight += _apply(game, store.event_bodies_after(game_id, game.version))
        except Exception:  # a log this state cannot follow: replay it whole
            self.forget(game_id)
            game = _empty(store, game_id)
            weight = _apply(game, store.event_bodies_after(game_id, 0))
        if game.version:
            self._keep(game_id, game, weight)
        return game

    def _keep(self, game_id: str, game: Game, weight: int) -> None:
        """Keep a state as the most recently used, then drop the least recently used until
        the kept states are within their bounds. A state heavier than an eighth of the bound
        is not kept at all (a game of 2,000 ordinary events weighs some 10 MiB; one swollen
        by a game file's padding must not push every other game out)."""
        if weight > MAX_STATE_BYTES // 8:
            self.forget(game_id)
            return
        with self._guard:
            self._state_bytes += weight - self._weights.get(game_id, 0)
            self._games[game_id] = game
            self._games.move_to_end(game_id)
            self._weights[game_id] = weight
            while self._games and (len(self._games) > MAX_GAMES
                                   or self._state_bytes > MAX_STATE_BYTES):
                dropped, _ = self._games.popitem(last=False)
                self._keys_first.discard(dropped)
                self._state_bytes -= self._weights.pop(dropped)

    def keys_first(self, game_id: str, *, found: bool = False) -> bool:
        """Whether a move on the game's state kept looks its key up before it is made
        (``commands.make_move``); ``found``: from now on, since a key seen before was found
        inside a write, which undid a move made on the state kept and had the game read again
        from its log: old keys sent again and again must not have it read again and again.
        Held while the game is kept."""
        with self._guard:
            if found:
                self._keys_first.add(game_id)
            return game_id in self._keys_first

    @property
    def state_bytes(self) -> int:
        """The weight of the states kept, in bytes (never above ``MAX_STATE_BYTES``)."""
        return self._state_bytes

    def version_kept(self, game_id: str) -> int | None:
        """The version of the state kept for a game, None where none is kept. Kept states
        only move on (or are dropped, and read again from the store), so a state used after
        this is asked is at this version or later."""
        with self._guard:
            game = self._games.get(game_id)
        return None if game is None else game.version

    def forget(self, game_id: str) -> None:
        """Drop a game's cached state: the next use replays it from the store."""
        with self._guard:
            if self._games.pop(game_id, None) is not None:
                self._state_bytes -= self._weights.pop(game_id)

    def peek(self, game_id: str, version: int, key: Hashable) -> object | None:
        """What was derived for this version of the game, if it is still kept (no state, no
        lock: a version's products never change)."""
        full = (game_id, version, key)
        with self._guard:
            found = self._derived.get(full)
            if found is not None:
                self._derived.move_to_end(full)
        return found[0] if found is not None else None

    def derived(self, game_id: str, version: int, key: Hashable, build: Callable[[], T],
                size: Callable[[T], int] = lambda value: 1024) -> T:
        """What ``build`` gives for this version of the game, built once and kept."""
        full = (game_id, version, key)
        with self._guard:
            if full in self._derived:
                self._derived.move_to_end(full)
                return self._derived[full][0]  # type: ignore[return-value]
        value = build()
        cost = size(value)
        with self._guard:
            if full not in self._derived:
                self._derived[full] = (value, cost)
                self._derived_bytes += cost
            while self._derived_bytes > MAX_DERIVED_BYTES and self._derived:
                _, (_, freed) = self._derived.popitem(last=False)
                self._derived_bytes -= freed
        return value


    def latest(self, key: Hashable, stamp: Hashable, build: Callable[[], T],
               size: Callable[[T], int]) -> T:
        """What ``build`` gives for ``key`` at ``stamp`` (a product of many games, such as a
        club table, that changes as games end), built once and kept; what it gave at an
        earlier stamp is dropped, not left to age out."""
        with self._guard:
            before = self._stamps.get(key)
            if before is not None and before != stamp:
                found = self._derived.pop(("", 0, (key, before)), None)
                if found is not None:
                    self._derived_bytes -= found[1]
            self._stamps[key] = stamp
        return self.derived("", 0, (key, stamp), build, size)


def _apply(game: Game, bodies: list[str]) -> int:
    """Apply stored events to a state; the weight they add to it."""
    for body in bodies:
        game.apply(json.loads(body))
    return STATE_BYTES_PER_EVENT_BYTE * sum(len(body) for body in bodies)


def replayed(store, game_id: str) -> Game:
    """The game replayed whole from the store, for a caller that needs it once (a finished
    game summarised for the club): not kept, and nothing kept is moved out for it."""
    game = _empty(store, game_id)
    _apply(game, store.event_bodies_after(game_id, 0))
    return game


def _empty(store, game_id: str) -> Game:
    """A game of the rule set the store says this game plays, before its first event."""
    return rulesets.named(store.rules_of(game_id) or rulesets.DEFAULT).empty()


def states_of(store) -> States:
    """The states kept for the database file this store opens, made once, among what this
    process keeps for that file (``store.PER_FILE``)."""
    return store_module.PER_FILE.states(store.path, States)
