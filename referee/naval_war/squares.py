"""Squares and notation of the 21 x 21 chart (R1).

Columns are letters A-U from the left, rows are numbers 1-21 from the top; A 1 is the
top-left square. A square is a ``Square(col, row)`` of 0-based indices; the referee reads
``"S 6"``, ``"S6"``, ``"s6"`` and ``"s 6"`` alike and always writes ``"S 6"``.

>>> parse_square("s6")
Square(col=18, row=5)
>>> square_name(parse_square(" k 10 "))
'K 10'
>>> square_name(Square(0, 0))
'A 1'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NamedTuple

SIZE = 21
COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"

_SQUARE_RE = re.compile(r"^\s*([A-Za-z])\s*([0-9]{1,2})\s*$")


class Square(NamedTuple):
    """One square of a chart: 0-based column (A = 0) and row (1 = 0)."""

    col: int
    row: int

    def __str__(self) -> str:
        return square_name(self)


class NotationError(ValueError):
    """A square that R1 cannot read, or that lies off the chart."""

    def __init__(self, text: object, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"{text!r} is not a square: {reason} (R1)")


def parse_square(text: object) -> Square:
    """Read a square written as R1 allows.

    >>> parse_square("A1"), parse_square("u 21")
    (Square(col=0, row=0), Square(col=20, row=20))
    >>> parse_square("V 3")
    Traceback (most recent call last):
    ...
    referee.naval_war.squares.NotationError: 'V 3' is not a square: columns run A to U (R1)
    >>> parse_square("B 22")
    Traceback (most recent call last):
    ...
    referee.naval_war.squares.NotationError: 'B 22' is not a square: rows run 1 to 21 (R1)
    """
    if not isinstance(text, str):
        raise NotationError(text, "a square is written as text, column then row, like 'S 6'")
    match = _SQUARE_RE.match(text)
    if not match:
        raise NotationError(text, "write the column letter then the row number, like 'S 6'")
    letter, number = match.group(1).upper(), int(match.group(2))
    col = COLUMNS.find(letter)
    if col < 0:
        raise NotationError(text, "columns run A to U")
    if not 1 <= number <= SIZE:
        raise NotationError(text, "rows run 1 to 21")
    return Square(col, number - 1)


def square_name(square: Square) -> str:
    """Write a square the referee's way.

    >>> square_name(Square(18, 5))
    'S 6'
    """
    return f"{COLUMNS[square.col]} {square.row + 1}"


def on_chart(col: int, row: int) -> bool:
    """Whether a column and row index lie on the chart.

    >>> on_chart(20, 20), on_chart(21, 0), on_chart(0, -1)
    (True, False, False)
    """
    return 0 <= col < SIZE and 0 <= row < SIZE


def area(centre: Square, radius: int) -> list[Square]:
    """The squares of the (2r+1) x (2r+1) block centred on a square, off-chart ones left out (R16).

    >>> [square_name(s) for s in area(parse_square("A 1"), 1)]
    ['A 1', 'B 1', 'A 2', 'B 2']
    >>> len(area(parse_square("K 10"), 2))
    25
    """
    return [
        Square(c, r)
        for r in range(centre.row - radius, centre.row + radius + 1)
        for c in range(centre.col - radius, centre.col + radius + 1)
        if on_chart(c, r)
    ]


def distance(a: Square, b: Square) -> int:
    """The larger of the column and row distances (R18).

    >>> distance(parse_square("C 3"), parse_square("D 5"))
    2
    """
    return max(abs(a.col - b.col), abs(a.row - b.row))


def neighbours(square: Square) -> Iterator[Square]:
    """The up to eight squares touching a square along a side or at a corner (R8)."""
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dc or dr) and on_chart(square.col + dc, square.row + dr):
                yield Square(square.col + dc, square.row + dr)


def reading_order(squares: Iterable[Square]) -> list[Square]:
    """Squares sorted row by row, then column by column (R18's tie-break).

    >>> [square_name(s) for s in reading_order([parse_square("B 1"), parse_square("A 2")])]
    ['B 1', 'A 2']
    """
    return sorted(squares, key=lambda s: (s.row, s.col))


def span_name(squares: Iterable[Square]) -> str:
    """Write a ship by its squares, as the rules do.

    >>> span_name([parse_square("S 6"), parse_square("S 7")])
    'S 6-7'
    >>> span_name([parse_square(s) for s in ("C 5", "D 5", "E 5", "F 5")])
    'C 5-F 5'
    >>> span_name([parse_square("P 20")])
    'P 20'
    >>> span_name([parse_square(s) for s in ("K 10", "L 10", "K 11", "L 11")])
    'K 10-L 11'
    """
    ordered = reading_order(squares)
    first, last = ordered[0], ordered[-1]
    if first == last:
        return square_name(first)
    if first.col == last.col:
        return f"{square_name(first)}-{last.row + 1}"
    return f"{square_name(first)}-{square_name(last)}"
