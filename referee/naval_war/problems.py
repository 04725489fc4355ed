"""Problems: what the referee says when a disposition, move or request breaks a ruling.

A problem names the ruling it breaks, says what is wrong in the game's words, and lists the
squares involved; a field name is added where the problem is in one part of a document.
``Problem`` and ``RuleViolation`` (every problem found at once, in the API's error format)
are shared by every rule set (``referee.common.problems``); this module writes squares the
Naval War Game's way.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..common.problems import ErrorKind, Problem, RuleViolation
from .squares import Square, reading_order, square_name

__all__ = ["Problem", "RuleViolation", "problem", "refuse"]


def problem(
    rule: str, message: str, squares: Iterable[Square] = (), field: str | None = None
) -> Problem:
    """A problem whose squares are written the referee's way, in reading order."""
    names = tuple(square_name(s) for s in reading_order(set(squares)))
    return Problem(rule, message, names, field)


def refuse(rule: str, message: str, squares: Iterable[Square] = (), *,
           field: str | None = None, kind: ErrorKind = "illegal") -> RuleViolation:
    """A violation with a single problem, ready to raise."""
    return RuleViolation([problem(rule, message, squares, field)], kind)
