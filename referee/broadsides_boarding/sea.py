"""The sea (BB1-BB3, BB8, BB9, BB17, BB18): the one geometry module of the board, read from the one
data file ``sea.json``.

A dot is named by its column letter and row number, ``"H 6"``; row 1 is at the top (north), and
column A at the left (west). A ship stands on a dot facing one of eight headings, ``N``, ``NE``,
``E`` ... ``NW`` (clockwise from north, BB2); starboard is clockwise. Island dots can never be
entered (BB3). The sea is the same after a half-turn: the dot in column ``c`` and row ``r``
(counting from 0) matches the dot in column ``14 - c`` and row ``10 - r``, so neither side is
favoured (BB1).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

SEA: dict[str, Any] = json.loads(Path(__file__).with_name("sea.json").read_text(encoding="utf-8"))

COLUMNS: tuple[str, ...] = tuple(SEA["columns"])
ROWS: int = SEA["rows"]
HEADINGS: tuple[str, ...] = tuple(SEA["headings"])  # clockwise from north (BB2)
ISLANDS: frozenset[str] = frozenset(dot for island in SEA["islands"] for dot in island["dots"])
STARTS: dict[str, dict[str, str]] = {seat: dict(start) for seat, start in SEA["starts"].items()}
DOTS: tuple[str, ...] = tuple(f"{column} {row}" for row in range(1, ROWS + 1)
                              for column in COLUMNS)  # row by row from the top
_DELTA: dict[str, tuple[int, int]] = {"N": (0, -1), "NE": (1, -1), "E": (1, 0),
                                      "SE": (1, 1), "S": (0, 1), "SW": (-1, 1),
                                      "W": (-1, 0), "NW": (-1, -1)}
_NAME = re.compile(r"\s*([A-Za-z])\s*([0-9]{1,2})\s*\Z", re.ASCII)


def parse_dot(text: object) -> str:
    """The dot ``text`` names, in its normal form ``"H 6"`` (``"h6"`` is read too);
    ``ValueError`` naming BB1 when it names none."""
    match = _NAME.match(text) if isinstance(text, str) and len(text) <= 12 else None
    if match is None:
        raise ValueError(f"{str(text)[:20]!r} is not a dot of the sea: write a column "
                         f"{COLUMNS[0]}-{COLUMNS[-1]} and a row 1-{ROWS}, like \"H 6\" (BB1)")
    column, row = match.group(1).upper(), int(match.group(2))
    if column not in COLUMNS or not 1 <= row <= ROWS:
        raise ValueError(f"{text!r} is off the sea: columns run {COLUMNS[0]}-{COLUMNS[-1]} "
                         f"and rows 1-{ROWS} (BB1)")
    return f"{column} {row}"


def coordinates(dot: str) -> tuple[int, int]:
    """``(column, row)`` of a dot in normal form, both counted from 0.

    >>> coordinates("B 6")
    (1, 5)
    """
    letter, row = dot.split(" ")
    return COLUMNS.index(letter), int(row) - 1


def dot_at(column: int, row: int) -> str | None:
    """The dot in ``column`` and ``row`` (from 0), None off the sea."""
    if 0 <= column < len(COLUMNS) and 0 <= row < ROWS:
        return f"{COLUMNS[column]} {row + 1}"
    return None


def half_turn(dot: str) -> str:
    """The dot a half-turn of the board puts where ``dot`` was (BB1).

    >>> half_turn("B 6"), half_turn("H 6")
    ('N 6', 'H 6')
    """
    column, row = coordinates(dot)
    found = dot_at(len(COLUMNS) - 1 - column, ROWS - 1 - row)
    assert found is not None
    return found


def ahead(dot: str, heading: str) -> str | None:
    """The next dot in ``heading`` (BB2), diagonally too; None off the sea (it may be an
    island: BB3 is the caller's).

    >>> ahead("B 6", "E"), ahead("B 6", "NW"), ahead("A 1", "N")
    ('C 6', 'A 5', None)
    """
    column, row = coordinates(dot)
    dx, dy = _DELTA[heading]
    return dot_at(column + dx, row + dy)


def turned(heading: str, steps: int) -> str:
    """A heading turned ``steps`` times 45 degrees clockwise (negative: counter-clockwise).

    >>> turned("N", 1), turned("N", -1), turned("W", 4)
    ('NE', 'NW', 'E')
    """
    return HEADINGS[(HEADINGS.index(heading) + steps) % len(HEADINGS)]


def toward(here: str, there: str) -> str | None:
    """The heading whose line from ``here`` comes nearest ``there``: exact for a neighbouring
    dot, by the signs of the steps between them otherwise; None for the same dot.

    >>> toward("B 6", "C 5"), toward("B 6", "F 6"), toward("B 6", "B 6")
    ('NE', 'E', None)
    """
    (c1, r1), (c2, r2) = coordinates(here), coordinates(there)
    step = ((c2 > c1) - (c2 < c1), (r2 > r1) - (r2 < r1))
    return next((h for h, delta in _DELTA.items() if delta == step), None)


def sail(at: str, heading: str, card: str) -> tuple[str, str, bool]:
    """Where one card turned up takes a ship on ``at`` heading ``heading`` (BB2, BB3, BB6):
    its dot and heading after it, and whether a Move Forward was not made (an island or the
    edge ahead: the ship stays, and its other cards of the round are lost, BB3). A Damaged
    card is played as Remain in Place.

    >>> sail("B 6", "E", "forward"), sail("B 6", "E", "port"), sail("G 6", "E", "forward")
    (('C 6', 'E', False), ('B 6', 'NE', False), ('G 6', 'E', True))
    """
    if card in ("starboard", "port"):
        return at, turned(heading, 1 if card == "starboard" else -1), False
    if card == "forward":
        there = ahead(at, heading)
        if there is None or there in ISLANDS:
            return at, heading, True
        return there, heading, False
    return at, heading, False


def neighbours(here: str, there: str) -> bool:
    """Whether two dots are "within 1 dot" (BB8): the eight around, not the same dot."""
    (c1, r1), (c2, r2) = coordinates(here), coordinates(there)
    return (c1, r1) != (c2, r2) and abs(c1 - c2) <= 1 and abs(r1 - r2) <= 1


def relative(heading: str, here: str, there: str) -> int | None:
    """Where ``there`` lies from a ship at ``here`` facing ``heading``, in steps of 45 degrees
    clockwise from dead ahead (0 ahead, 2 abeam to starboard, 4 astern, 6 abeam to port);
    None for the same dot."""
    line = toward(here, there)
    if line is None:
        return None
    return (HEADINGS.index(line) - HEADINGS.index(heading)) % len(HEADINGS)


def angle_between(one: str, two: str) -> int:
    """How far apart two headings are, in steps of 45 degrees (0 to 4).

    >>> angle_between("N", "E"), angle_between("NE", "W"), angle_between("S", "S")
    (2, 3, 0)
    """
    apart = abs(HEADINGS.index(one) - HEADINGS.index(two)) % len(HEADINGS)
    return min(apart, len(HEADINGS) - apart)


__all__ = ["COLUMNS", "DOTS", "HEADINGS", "ISLANDS", "ROWS", "SEA", "STARTS", "ahead",
           "angle_between", "coordinates", "dot_at", "half_turn", "neighbours", "parse_dot",
           "relative", "sail", "toward", "turned"]
