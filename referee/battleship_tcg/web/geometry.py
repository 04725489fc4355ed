"""The honeycomb as data for the phones' scripts: worked out from ``holes`` (the one geometry),
so that the drawing in ``static/js/honeycomb.js`` holds no rule of its own (T1, T4)."""

from __future__ import annotations

from ..holes import COLUMNS, DEPTH, DIRECTIONS, SPOKEN, WIDTH, Hole, sits_low, step

_PROBE_ROW = DEPTH // 2  # a hole clear of the edges, to read each step off


def honeycomb() -> dict:
    """Columns, their spoken words and depth; which columns sit half a hole low; and for each
    direction a boat may run, the step to the next hole from a high and from a low column.

    >>> honeycomb()["steps"]["down-right"]
    {'high': [1, 0], 'low': [1, 1]}
    """
    def offset(column: int, dir: str) -> list[int]:
        to = step(Hole(column, _PROBE_ROW), dir)
        return [to.column - column, to.row - _PROBE_ROW]

    return {"columns": list(COLUMNS), "spoken": list(SPOKEN), "depth": DEPTH,
            "low_columns": [c for c in range(WIDTH) if sits_low(c)],
            "directions": list(DIRECTIONS),
            "steps": {d: {"high": offset(0, d), "low": offset(1, d)} for d in DIRECTIONS}}
