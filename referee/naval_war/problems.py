"""Problems: what the referee says when a disposition, move or request breaks a ruling.

A problem names the ruling it breaks, says what is wrong in the game's words, and lists the
squares involved; a field name is added where the problem is in one part of a document.
``RuleViolation`` carries every problem found at once, in the error format of API.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .squares import Square, reading_order, square_name


@dataclass(frozen=True)
class Problem:
    """One broken ruling: ``rule`` like ``"R8"``, a readable message, and its squares."""

    rule: str
    message: str
    squares: tuple[str, ...] = ()
    field: str | None = None

    def to_json(self) -> dict:
        doc: dict = {"rule": self.rule, "message": self.message, "squares": list(self.squares)}
        if self.field is not None:
            doc["field"] = self.field
        return doc


def problem(
    rule: str, message: str, squares: Iterable[Square] = (), field: str | None = None
) -> Problem:
    """A problem whose squares are written the referee's way, in reading order."""
    names = tuple(square_name(s) for s in reading_order(set(squares)))
    return Problem(rule, message, names, field)


@dataclass
class RuleViolation(ValueError):
    """Raised with every problem found; nothing has been applied when it is raised.

    ``kind`` says what was refused, so a server can choose its status: ``"illegal"`` for a
    disposition or move that breaks a ruling, ``"turn"`` for acting out of turn or out of
    phase, ``"forbidden"`` for acting for a seat that is not one's own.
    """

    problems: list[Problem]
    kind: str = "illegal"
    _message: str = field(init=False, default="")

    def __post_init__(self) -> None:
        self._message = "; ".join(f"{p.rule}: {p.message}" for p in self.problems)
        ValueError.__init__(self, self._message)

    def __str__(self) -> str:
        return self._message

    def to_json(self) -> dict:
        return {"errors": [p.to_json() for p in self.problems]}


def refuse(rule: str, message: str, squares: Iterable[Square] = (), *,
           field: str | None = None, kind: str = "illegal") -> RuleViolation:
    """A violation with a single problem, ready to raise."""
    return RuleViolation([problem(rule, message, squares, field)], kind)
