"""How a finished game came out, the same type for every rule set (R14, R22, R23, T9, B10).

As python-chess's ``Outcome`` and ``Termination``: a frozen ``Outcome`` holds each seat's
points, the winning seats (none on a draw), each side's seats and total, and why the game ended,
one of the reasons its rule set's game may end by; ``to_json`` writes it as every document
carries it (docs/api.md, "A player's view", ``result``), keys in that order.

>>> ends = (*SHARED_ENDS, "rescued")
>>> won = Outcome.of({"red": 3, "blue": 1}, ["red"], [("red",), ("blue",)], "rescued", ends)
>>> won.winner, won.to_json()["sides"]
('red', [{'seats': ['red'], 'score': 3}, {'seats': ['blue'], 'score': 1}])
>>> Outcome.of({"red": 0}, [], [("red",)], "bored", ends)
Traceback (most recent call last):
...
ValueError: 'bored' is not a reason a game ends; the reasons are agreed, resigned, forfeit, \
rescued

Pure like the cores that use it: no web, storage or PDF library is imported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import get_args

from .documents import EndReason, ResultDocument, SharedEndReason

# the ends every game shares (``Lifecycle``): agreeing to end (R14), resigning, a forfeit that
# leaves one side (R10); each rule set's ``Game`` adds its own (``Lifecycle.END_REASONS``)
SHARED_ENDS: tuple[str, ...] = get_args(SharedEndReason)


@dataclass(frozen=True)
class SideScore:
    """A side's seats and their points together (R22, R23)."""
    seats: tuple[str, ...]
    score: int


@dataclass(frozen=True)
class Outcome:
    """A finished game's result (see the module's text); ``scores`` cannot be changed.
    ``ends``: the reasons its game may end by, which ``reason`` must be one of (the ends every
    game shares, ``SHARED_ENDS``, unless its rule set names its own: a ``Lifecycle``'s
    ``END_REASONS``)."""
    scores: Mapping[str, int]
    winners: tuple[str, ...]
    sides: tuple[SideScore, ...]
    reason: EndReason
    ends: tuple[str, ...] = field(default=SHARED_ENDS, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.reason not in self.ends:
            raise ValueError(f"{self.reason!r} is not a reason a game ends; the reasons are "
                             f"{', '.join(self.ends)}")
        if not isinstance(self.scores, MappingProxyType):
            object.__setattr__(self, "scores", MappingProxyType(dict(self.scores)))

    @classmethod
    def of(cls, scores: Mapping[str, int], winners: Iterable[str],
           sides: Iterable[Iterable[str]], reason: EndReason,
           ends: tuple[str, ...] = SHARED_ENDS) -> Outcome:
        """The outcome of seats that scored ``scores``, on ``sides``, each side's total the
        sum of its seats' points."""
        return cls(scores, tuple(winners),
                   tuple(SideScore(tuple(side), sum(scores[s] for s in side))
                         for side in map(tuple, sides)), reason, tuple(ends))

    @property
    def winner(self) -> str | None:
        """The single winning seat; None on a draw or when a side of two or more wins."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> ResultDocument:
        """The ``result`` of docs/api.md, "A player's view"."""
        return {
            "scores": dict(self.scores),
            "winner": self.winner,
            "winners": list(self.winners),
            "sides": [{"seats": list(side.seats), "score": side.score} for side in self.sides],
            "reason": self.reason,
        }
