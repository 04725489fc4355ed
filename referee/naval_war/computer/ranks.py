"""The ladder of levels, weakest first: each a way of playing a person would recognise.

A level is a fleet (``disposition(rng)``) and a way of playing (``move(seat, view, rng)``),
and may err: with probability ``errs`` a move is a recruit's instead (a weapon spent at
random), drawn from the same seeded ``random.Random`` as the rest of the move, so a level
handed the same view still plays the same move. The odds of erring are the ladder's
handicaps, tuned with ``referee duel`` so that each level beats the one below in 60-85% of
games; the measured figures are in docs/levels.md.

>>> [level.name for level in LADDER][:2]
['recruit', 'cadet']
>>> LEVELS_BY_NAME["vice-admiral"].errs > 0 == LEVELS_BY_NAME["admiral"].errs
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable  # noqa: UP035 (the bots import only what tests/test_bots.py allows)

from . import admiral, cadet, captain, recruit
from .seat import Seat

Fleet = Callable[[random.Random], dict]
Play = Callable[[Seat, dict, random.Random], dict]


@dataclass(frozen=True)
class Level:
    """One rung of the ladder: a name, a line for the home page, a fleet and a way of play."""

    name: str
    title: str
    line: str
    fleet: Fleet
    play: Play
    errs: float = 0.0  # the chance that a move is spent at random instead

    @property
    def description(self) -> str:
        return f"{self.title}: {self.line}"

    def disposition(self, rng: random.Random) -> dict:
        return self.fleet(rng)

    def move(self, seat: Seat, view: dict, rng: random.Random) -> dict:
        if self.errs and rng.random() < self.errs:
            return recruit.move(seat, view, rng)
        return self.play(seat, view, rng)


LADDER: tuple[Level, ...] = (
    Level("recruit", "Recruit", "random, for learning the rules",
          recruit.disposition, recruit.move),
    Level("cadet", "Cadet",
          "a beginner: flies his R.P.s first, then fires at what they saw",
          cadet.disposition, cadet.move),
    Level("midshipman", "Midshipman",
          "has learnt the captain's way, but three moves in five are still hunches",
          captain.disposition, captain.move, errs=0.6),
    Level("lieutenant", "Lieutenant",
          "the captain's way, but two moves in five are spent on hunches",
          captain.disposition, captain.move, errs=0.4),
    Level("captain", "Captain", "sensible: scouts, bombs what he saw, hunts along hits",
          captain.disposition, captain.move),
    Level("commodore", "Commodore",
          "the admiral's fleet and method, but hasty: three moves in ten are hunches",
          admiral.disposition, admiral.move, errs=0.3),
    Level("vice-admiral", "Vice-admiral",
          "the admiral's fleet and method, but one move in five is spent on a hunch",
          admiral.disposition, admiral.move, errs=0.2),
    Level("admiral", "Admiral", "the strongest: dispersed submarines, odds on every square",
          admiral.disposition, admiral.move),
)
LEVELS_BY_NAME = {level.name: level for level in LADDER}
