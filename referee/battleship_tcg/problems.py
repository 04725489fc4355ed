"""Problems with a disposition, shot or request, written the way this game writes holes.

``Problem`` and ``RuleViolation`` are shared by every rule set (``referee.common.problems``);
here a problem's holes are named ``D 3`` and listed column by column (T1).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..common.problems import ErrorKind, Problem, RuleViolation
from .holes import Hole, hole_name

__all__ = ["Problem", "RuleViolation", "problem", "refuse"]


def problem(rule: str, message: str, holes: Iterable[Hole] = (),
            field: str | None = None) -> Problem:
    """A problem whose holes are written ``D 3``, column by column."""
    return Problem(rule, message, tuple(hole_name(h) for h in sorted(set(holes))), field)


def refuse(rule: str, message: str, holes: Iterable[Hole] = (), *,
           field: str | None = None, kind: ErrorKind = "illegal") -> RuleViolation:
    """A violation with a single problem, ready to raise."""
    return RuleViolation([problem(rule, message, holes, field)], kind)
