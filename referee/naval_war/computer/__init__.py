"""The computer opponent: a ladder of levels that play from a seat's view alone (R21).

>>> bot = Bot("admiral", seed=7)
>>> from referee.naval_war import check_disposition
>>> check_disposition(bot.disposition()).cost.total
160

``Bot(level, seed)`` gives ``disposition(view=None, rng=None)``, a disposition document of
API.md (the Naval War Game's chart is the same for every seat, so the view is not needed), and
``move(view)``, a move document legal for that view. A bot is handed nothing but the view
document its seat would get (a JSON copy); it never sees a ``Game`` and imports nothing that
holds one. Every choice is drawn from a ``random.Random`` seeded from the bot's seed and the
view, so a bot given the same view plays the same move, whoever asks and whenever.

The levels, weakest first (``ranks.LADDER``, issue 16), each beating the one below in 60-85%
of games:

- ``recruit``: a random legal budget, placement and moves: the baseline.
- ``cadet``: a beginner's fleet; his R.P.s fly first, then his salvoes go where they saw ships.
- ``midshipman``: the captain's way, but three moves in five are spent at random.
- ``lieutenant``: the captain's way, but two moves in five are spent at random.
- ``captain``: sensible heuristics on its chart of the enemy (``knowledge_chart``).
- ``commodore``: the admiral, but three moves in ten are spent at random.
- ``vice-admiral``: the admiral, but one move in five is spent at random.
- ``admiral``: the density method over every enemy disposition consistent with its reports,
  and the budget and placement the rules' illustrative games teach.
"""

from __future__ import annotations

import random
from typing import Callable  # noqa: UP035 (the bots import only what tests/test_bots.py allows)

from . import recruit
from .ranks import LADDER, LEVELS_BY_NAME
from .seat import NotYourTurn, read_seat

LEVELS = dict(LEVELS_BY_NAME)  # weakest first
DESCRIPTIONS = {level.name: level.description for level in LADDER}  # as the home page offers


class Bot:
    """A computer player of one level; all its randomness comes from ``seed``."""

    def __init__(self, level: str, seed: int | str = 0, *, strict: bool = False,
                 on_failure: Callable[[str, Exception], None] | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"{level!r} is not a level; the levels are {', '.join(LEVELS)}")
        self.level = level
        self.seed = seed
        self.strict = strict  # raise a level's own failure instead of playing a random move
        self._plan = LEVELS[level]
        # told (level, the failure) when a level fails and a recruit's move is
        # played instead: the server logs it; no message, which may name squares (R21)
        self.on_failure = on_failure

    def __repr__(self) -> str:
        return f"Bot({self.level!r}, seed={self.seed!r})"

    def disposition(self, view: dict | None = None, rng: random.Random | None = None) -> dict:
        """A disposition document (API.md) that ``check_disposition`` accepts; ``view`` (the
        seat's, as every rule set's computer is handed) changes nothing here."""
        return self._plan.disposition(rng or random.Random(f"{self.seed}:disposition"))

    def move(self, view: dict) -> dict:
        """A move document (API.md) legal for the seat whose view this is, at its turn."""
        seat = read_seat(view)
        rng = random.Random(f"{self.seed}:{seat.you}:{len(view.get('reports', []))}")
        try:
            return self._plan.move(seat, view, rng)
        except Exception as failure:
            if self.strict:
                raise
            if self.on_failure is not None:
                self.on_failure(self.level, failure)
            return recruit.move(seat, view, rng)  # a legal move rather than none


__all__ = ["DESCRIPTIONS", "LEVELS", "Bot", "NotYourTurn"]
