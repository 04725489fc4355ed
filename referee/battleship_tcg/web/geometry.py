"""The honeycomb's steps as data for the phones' scripts, worked out from ``holes`` (the one
geometry), so that the honeycomb script (``web/static/honeycomb.js``) holds no rule of its own
(T1, T4). The rest of the grid (columns, spoken words, depth, low columns) is in the core's
catalogue."""

from __future__ import annotations

from ..catalogue import catalogue
from ..holes import DEPTH, DIRECTIONS, Hole, step

_PROBE_ROW = DEPTH // 2  # a hole clear of the edges, to read each step off


def steps() -> dict:
    """For each direction a boat may run, the step to the next hole from a high column (A, C
    ...) and from a low one (B, D ...), as [columns, rows].

    >>> steps()["down-right"], steps()["up-right"]
    ({'high': [1, 0], 'low': [1, 1]}, {'high': [1, -1], 'low': [1, 0]})
    """
    def offset(column: int, dir: str) -> list[int]:
        to = step(Hole(column, _PROBE_ROW), dir)
        return [to.column - column, to.row - _PROBE_ROW]

    return {d: {"high": offset(0, d), "low": offset(1, d)} for d in DIRECTIONS}


def page_catalogue() -> dict:
    """What the rule set's pages embed as ``rules-catalogue``: its catalogue and the steps."""
    return {**catalogue(), "name": catalogue()["title"], "steps": steps()}
