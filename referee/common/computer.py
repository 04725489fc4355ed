"""A computer player of any rule set, playing from its seat's view alone (R21, T10, B12).

Each rule set's ``computer`` package says what its computer is (``Roster``, the ``ROSTER`` of
its subclass of ``Computer``): its levels, weakest first, each a line for the home page and a
way of making a disposition and a move (``Level``), and how a view is read for each
(``read_setup``, ``read_turn``: what the level is handed, and the random source it draws
from). ``Computer`` does what every rule set's computer
does alike:

- it refuses a level its rule set does not have;
- every choice is drawn from a ``random.Random`` seeded from the computer's seed and the words
  the rule set reads off the view (the game, the seat, the number of reports ...), through
  ``seeded``: the same view gets the same move, whoever asks and whenever; the server gives a
  seed drawn from the game's secret, never from anything a player sees;
- when a level fails (a bug, never a refusal of the rules) it tells ``on_failure(level,
  failure)`` (the server logs the kind of failure alone: a message may name a square) and plays
  the simplest level's disposition or move instead, from the same source, so a game is never
  stuck on the computer; ``strict`` raises the failure instead (the tests and the bench);
- ``simplest()`` is the simplest level with the same seed: what the server plays when the rules
  refuse a computer's move.

It is handed nothing but the view document its seat would get (a JSON copy), and imports
nothing that holds a game.

A rule set's computer is a subclass naming its levels:

>>> plain = Level("Counts.", move=lambda seen, rng: {"n": seen + rng.randrange(2)},
...               disposition=lambda seen, rng: {"ships": seen})
>>> class Counter(Computer):
...     ROSTER = Roster({"plain": plain}, read_setup=lambda view, seeded: (1, seeded("d")),
...                     read_turn=lambda view, seeded: (view["n"], seeded(view["n"])))
>>> bot = Counter("plain", seed=7)
>>> bot.move({"n": 3}) == bot.move({"n": 3}), bot.disposition({}), bot
(True, {'ships': 1}, Counter('plain', seed=7))
>>> Counter("grand", seed=7)
Traceback (most recent call last):
...
ValueError: 'grand' is not a level; the levels are plain
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

# a view or a move, as JSON (``documents.Json``: this module imports nothing of the referee's,
# so that nothing here can hold a game)
Json = dict[str, Any]

Seeded = Callable[..., random.Random]  # seeded(*words): a source from the seed and the words
Reading = Callable[[Json, Seeded], tuple[Any, random.Random]]  # (view, seeded) -> (seen, rng)
Failure = Callable[[str, Exception], None]  # on_failure(level, failure)


@dataclass(frozen=True)
class Level:
    """One level of a rule set's computer: what it is like (the home page's line), its move
    from what ``read_turn`` gave and its source, and its disposition from what
    ``read_setup`` gave; a level without a disposition of its own makes the simplest's."""

    description: str
    move: Callable[[Any, random.Random], Json]
    disposition: Callable[[Any, random.Random], Json] | None = None


@dataclass(frozen=True)
class Roster:
    """What a rule set's computer is: its levels, weakest first (the first is the simplest,
    which every other falls back on), and how a view is read for a disposition and a move."""

    levels: Mapping[str, Level]
    read_setup: Reading
    read_turn: Reading

    @property
    def descriptions(self) -> dict[str, str]:
        """Each level and what it is like, weakest first (``RuleSet.levels``)."""
        return {name: level.description for name, level in self.levels.items()}

    def __post_init__(self) -> None:
        if not self.levels or self.first.disposition is None:
            raise ValueError("the simplest level (the first) makes a disposition of its own")

    @property
    def simplest(self) -> str:
        """The simplest level's name: the first."""
        return next(iter(self.levels))

    @property
    def first(self) -> Level:
        return self.levels[self.simplest]

    @property
    def first_disposition(self) -> Callable[[Any, random.Random], Json]:
        """The simplest level's disposition (which ``__post_init__`` checked it has)."""
        made = self.first.disposition
        if made is None:
            raise ValueError("the simplest level (the first) makes a disposition of its own")
        return made


class Computer:
    """A computer player of one level; all its randomness comes from ``seed`` and the view. A
    rule set's computer is a subclass whose ``ROSTER`` is its own."""

    ROSTER: ClassVar[Roster]

    def __init__(self, level: str, seed: int | str = 0, on_failure: Failure | None = None, *,
                 strict: bool = False) -> None:
        if level not in self.ROSTER.levels:
            raise ValueError(f"{level!r} is not a level; the levels are "
                             f"{', '.join(self.ROSTER.levels)}")
        self.level = level
        self.plays = self.ROSTER.levels[level]  # the level's own way (a test may put another)
        self.seed = seed
        self.on_failure = on_failure
        self.strict = strict

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.level!r}, seed={self.seed!r})"

    def seeded(self, *words: object) -> random.Random:
        """A source drawn from this computer's seed and ``words``."""
        return random.Random(":".join(str(word) for word in (self.seed, *words)))

    def disposition(self, view: Json | None = None, rng: random.Random | None = None) -> Json:
        """A disposition legal for the seat whose view this is, in setup; ``rng``: a source of
        the caller's own instead of the seeded one (the tests' and the bench's)."""
        seen, seeded = self.ROSTER.read_setup(view or {}, self.seeded)
        source = rng or seeded
        simplest = self.ROSTER.first_disposition
        own = self.plays.disposition
        if own is None or self.plays is self.ROSTER.first:
            return simplest(seen, source)
        try:
            return own(seen, source)
        except Exception as failure:
            self._failed(failure)
        return simplest(seen, source)

    def move(self, view: Json) -> Json:
        """A move legal for the seat whose view this is, at its turn."""
        seen, source = self.ROSTER.read_turn(view, self.seeded)
        if self.plays is self.ROSTER.first:
            return self.plays.move(seen, source)
        try:
            return self.plays.move(seen, source)
        except Exception as failure:
            self._failed(failure)
        return self.ROSTER.first.move(seen, source)

    def simplest(self) -> Computer:
        """The simplest level, of the same kind, with this computer's seed and failure
        report: what plays when the rules refuse this computer's move."""
        return type(self)(self.ROSTER.simplest, self.seed, self.on_failure, strict=self.strict)

    def _failed(self, failure: Exception) -> None:
        if self.strict:
            raise failure
        if self.on_failure is not None:
            self.on_failure(self.level, failure)
