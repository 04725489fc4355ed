"""The computer opponent of Battleship: The Tactical Combat Game: three levels that play from
their seat's view alone (T10, T12).

>>> bot = computer("admiral", seed=7)
>>> view = {"id": "g", "you": "red", "phase": "play", "turn": "red", "order": ["red", "blue"],
...         "islands": {"red": ["A 1", "A 2"], "blue": ["O 9", "O 10"]}, "reports": []}
>>> bot.move(view) == bot.move(view)
True
>>> sorted(bot.disposition(view))
['boats', 'man']

``computer(level, seed, on_failure=None)`` gives an object with ``disposition(view)``, a
disposition document of T11 for the seat's own half, and ``move(view)``, a move document legal
for that view (T7). It is handed nothing but the view document its seat would get (a JSON
copy); it never sees a ``Game`` and imports nothing that holds one. Every choice is drawn from a
``random.Random`` seeded from the computer's seed and the view (the game, the seat and the
number of reports), so the same view gets the same move, whoever asks and whenever.

- ``recruit``: a random legal fleet and random legal shots: the baseline.
- ``captain``: hunt on a pattern of the honeycomb, then target along the lines through hits.
- ``admiral``: the density of every placement consistent with the reports.

A level that fails (a bug, never a refusal of the rules) tells ``on_failure(level, failure)``
and plays a recruit's shot instead, so a game is never stuck on the computer.
"""

from __future__ import annotations

import random
from typing import Callable  # noqa: UP035 (the computer imports only what its tests allow)

from . import admiral, captain, recruit
from .sight import NotYourTurn, read_holes, read_turn

LEVELS = {
    "recruit": "Random legal shots: the baseline.",
    "captain": "Hunts on a pattern of the honeycomb, then follows hits along their lines.",
    "admiral": "Shoots where the most placements consistent with its reports put a boat.",
}


class Computer:
    """A computer player of one level; all its randomness comes from ``seed`` and the view."""

    def __init__(self, level: str, seed: int | str = 0,
                 on_failure: Callable[[str, Exception], None] | None = None, *,
                 strict: bool = False) -> None:
        if level not in LEVELS:
            raise ValueError(f"{level!r} is not a level; the levels are {', '.join(LEVELS)}")
        self.level = level
        self.seed = seed
        # told (level, the failure) when a level fails and a recruit's shot is played
        # instead: the server logs it; no message, which may name holes (T10)
        self.on_failure = on_failure
        self.strict = strict  # raise a level's own failure instead (the tests and the bench)

    def __repr__(self) -> str:
        return f"computer({self.level!r}, seed={self.seed!r})"

    def _rng(self, view: dict, *what: object) -> random.Random:
        return random.Random(":".join(str(x) for x in (self.seed, view.get("id"),
                                                        view.get("you"), *what)))

    def disposition(self, view: dict) -> dict:
        """A disposition document (T11) for the seat's own half of the view's card: boats on
        its sea holes, the man on one of its islands (T3-T5)."""
        islands = view.get("islands") or {}
        you = view.get("you")
        if you not in islands:
            raise ValueError("the view holds no islands for its own seat (T12)")
        own = read_holes(islands[you])
        rng = self._rng(view, "disposition", ",".join(sorted(islands[you])))
        if self.level == "admiral":
            try:
                return admiral.disposition(own, rng)
            except Exception as failure:
                self._failed(failure)
        return recruit.disposition(own, rng)

    def move(self, view: dict) -> dict:
        """A move document (T11) legal for the seat whose view this is, at its turn (T7)."""
        sight = read_turn(view)
        rng = self._rng(view, len(view.get("reports") or []))
        try:
            if self.level == "captain":
                pattern = self._rng(view, "pattern").randrange(3)
                return captain.move(sight, rng, pattern)
            if self.level == "admiral":
                return admiral.move(sight, rng)
        except Exception as failure:
            self._failed(failure)
        return recruit.move(sight, rng)

    def _failed(self, failure: Exception) -> None:
        if self.strict:
            raise failure
        if self.on_failure is not None:
            self.on_failure(self.level, failure)


def computer(level: str, seed: int | str = 0,
             on_failure: Callable[[str, Exception], None] | None = None) -> Computer:
    """A computer player of ``level`` (one of ``LEVELS``) whose choices come from ``seed``."""
    return Computer(level, seed, on_failure)


__all__ = ["LEVELS", "Computer", "NotYourTurn", "computer"]
