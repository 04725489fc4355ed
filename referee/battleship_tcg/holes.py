"""The honeycomb of T1: holes, their names, their six neighbours and the lines boats lie on.

Each half is 15 columns lettered A-O and 10 holes a column, numbered 1-10 from the top.
Columns B, D ... N sit half a hole lower than A, C ... O. A hole is ``Hole(column, row)``
counted from 0 (``A 1`` is ``Hole(0, 0)``) and written column then number, ``D 3``; the
referee also reads ``D3``, ``d 3`` and ``Delta 3`` (T1). ``line(at, dir, n)`` is the one place
the holes a boat covers are worked out (T4, T11), for the core, the computer and the printables.

>>> [hole_name(h) for h in line(parse_hole("A 1"), "down-right", 5)]
['A 1', 'B 1', 'C 2', 'D 2', 'E 3']
>>> hole_name(parse_hole("delta 3")), hole_name(parse_hole("d3"))
('D 3', 'D 3')
>>> sorted(hole_name(h) for h in neighbours(parse_hole("B 1")))
['A 1', 'A 2', 'B 2', 'C 1', 'C 2']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ..common.documents import Json

COLUMNS = "ABCDEFGHIJKLMNO"
WIDTH, DEPTH = len(COLUMNS), 10  # 15 columns of 10 holes (T1)
SPOKEN = (  # T1: "Delta 3"; Alpha and Juliet are read too, as people spell them
    "Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India",
    "Juliett", "Kilo", "Lima", "Mike", "November", "Oscar",
)
_SPOKEN_INDEX = {word.lower(): i for i, word in enumerate(SPOKEN)} | {"alpha": 0, "juliet": 9}
DIRECTIONS = ("down", "down-right", "up-right")  # T4, T11: the ways a boat's line runs

_NAME = re.compile(r"^\s*([A-Za-z]+)\s*0*(\d{1,2})\s*$")


class Hole(NamedTuple):
    column: int
    row: int


def sits_low(column: int) -> bool:
    """Columns B, D ... N (odd from 0) sit half a hole lower than A, C ... O (T1)."""
    return column % 2 == 1


def on_half(hole: Hole) -> bool:
    return 0 <= hole.column < WIDTH and 0 <= hole.row < DEPTH


def hole_name(hole: Hole) -> str:
    return f"{COLUMNS[hole.column]} {hole.row + 1}"


def hole_named(text: str) -> Hole:
    """The hole a name the referee wrote gives (its own documents, the card's islands):
    ``ValueError`` when it names none."""
    hole = parse_hole(text)
    if hole is None:
        raise ValueError(f"{text[:20]!r} is not a hole of a half (T1)")
    return hole


def parse_hole(text: object) -> Hole | None:
    """A hole from ``D 3``, ``D3``, ``d 3`` or ``Delta 3``; None when it names no hole."""
    if not isinstance(text, str) or len(text) > 20:
        return None
    found = _NAME.match(text)
    if not found:
        return None
    word, number = found.group(1).lower(), int(found.group(2))
    column = COLUMNS.lower().index(word) if len(word) == 1 and word in COLUMNS.lower() \
        else _SPOKEN_INDEX.get(word)
    hole = Hole(column, number - 1) if column is not None else None
    return hole if hole is not None and on_half(hole) else None


def every_hole() -> Iterator[Hole]:
    """Column by column, top to bottom: the order the referee lists holes in."""
    for column in range(WIDTH):
        for row in range(DEPTH):
            yield Hole(column, row)


def _across(hole: Hole, step: int) -> tuple[Hole, Hole]:
    """The up and down neighbours of a hole in the column ``step`` (+1 or -1) away (T1)."""
    column = hole.column + step
    if sits_low(hole.column):
        return Hole(column, hole.row), Hole(column, hole.row + 1)
    return Hole(column, hole.row - 1), Hole(column, hole.row)


def neighbours(hole: Hole) -> list[Hole]:
    """Up to six: above and below in its column, two in each neighbouring column (T1)."""
    around = [Hole(hole.column, hole.row - 1), Hole(hole.column, hole.row + 1),
              *_across(hole, 1), *_across(hole, -1)]
    return [h for h in around if on_half(h)]


def step(hole: Hole, dir: str) -> Hole:
    """The next hole along a boat's line: down the column, down-right or up-right (T4)."""
    if dir == "down":
        return Hole(hole.column, hole.row + 1)
    up_right, down_right = _across(hole, 1)
    if dir == "down-right":
        return down_right
    if dir == "up-right":
        return up_right
    raise ValueError(f"{dir!r} is not a direction; the directions are {', '.join(DIRECTIONS)}")


def line(at: Hole, dir: str, n: int) -> list[Hole]:
    """The ``n`` holes of a boat whose first hole is ``at`` running ``dir`` (T4, T11); holes
    off the half are included as they fall, so a checker can say the boat leaves the half."""
    holes = [at]
    while len(holes) < n:
        holes.append(step(holes[-1], dir))
    return holes


def reading_order(holes: Iterable[Hole]) -> list[Hole]:
    return sorted(set(holes))


def steps() -> Json:
    """For each direction a boat may run, the step to the next hole from a high column (A, C
    ...) and from a low one (B, D ...), as [columns, rows]: ``step`` as data, for the
    catalogue the phones' scripts read (they hold no rule of their own).

    >>> steps()["down-right"], steps()["up-right"]
    ({'high': [1, 0], 'low': [1, 1]}, {'high': [1, -1], 'low': [1, 0]})
    """
    probe = DEPTH // 2  # a row clear of the edges, to read each step off

    def offset(column: int, dir: str) -> list[int]:
        to = step(Hole(column, probe), dir)
        return [to.column - column, to.row - probe]

    return {d: {"high": offset(0, d), "low": offset(1, d)} for d in DIRECTIONS}
