"""The harbour (B1, B2): the one geometry module, read from the one data file ``board.json``.

Every point of the grid is named by its column letter and row number, ``"F 7"``; row 1 is at
the top (the docks, Blue's side), the harbour entrance and Red's start are at the bottom. A
point is either a cross (a ship may stand on it; red and yellow circles are crosses too, B2)
or land. "up" is toward the docks. Crosses connect up, down, left and right, never diagonally
(B2).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from ..common.documents import Json

BOARD: Json = json.loads((Path(__file__).with_name("board.json")).read_text(encoding="utf-8"))

COLUMNS: tuple[str, ...] = tuple(BOARD["columns"])
ROWS: int = BOARD["rows"]
CROSSES: frozenset[str] = frozenset(BOARD["crosses"])
LAND: frozenset[str] = frozenset(BOARD["land"])
FACINGS = ("up", "right", "down", "left")  # clockwise; "up" is toward the docks
TURNS = (None, "left", "right", "about")
_DELTA = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}

MERCHANTS: tuple[Json, ...] = tuple(BOARD["merchants"])
RED_CIRCLES: dict[str, Json] = {circle["at"]: circle for circle in BOARD["red_circles"]}
BATTERIES: dict[str, Json] = {battery["site"]: battery for battery in BOARD["batteries"]}
BUOY_GROUPS: dict[str, tuple[str, ...]] = {group: tuple(at) for group, at
                                           in BOARD["buoys"].items()}
YELLOW_CIRCLES: tuple[str, ...] = tuple(at for group in BUOY_GROUPS.values() for at in group)
BLUE_START: tuple[str, ...] = tuple(BOARD["blue_start"])
RED_START: tuple[str, ...] = tuple(BOARD["red_start"])
START_FACING: dict[str, str] = dict(BOARD["facing"])  # B3: Blue outward, Red toward Blue

_NAME = re.compile(r"\s*([A-Za-z])\s*([0-9]{1,2})\s*\Z", re.ASCII)


def parse_cross(text: object) -> str:
    """The point of the grid ``text`` names, in its normal form ``"F 7"`` (``"F7"``, ``"f 7"``
    are read too); ``ValueError`` when it names no point of the grid. The point may be land:
    whether it is a cross is ``is_cross``'s question."""
    if not isinstance(text, str) or len(text) > 12:
        raise ValueError(f"{str(text)[:20]!r} is not a point of the board: write a column "
                         f"{COLUMNS[0]}-{COLUMNS[-1]} and a row 1-{ROWS}, like \"F 7\" (B1)")
    match = _NAME.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a point of the board: write a column "
                         f"{COLUMNS[0]}-{COLUMNS[-1]} and a row 1-{ROWS}, like \"F 7\" (B1)")
    column, row = match.group(1).upper(), int(match.group(2))
    if column not in COLUMNS or not 1 <= row <= ROWS:
        raise ValueError(f"{text!r} is off the board: columns run {COLUMNS[0]}-{COLUMNS[-1]} "
                         f"and rows 1-{ROWS} (B1)")
    return cross_name(COLUMNS.index(column), row)


def cross_name(column: int, row: int) -> str:
    """The name of the point in column index ``column`` (0 = the first letter) and ``row``."""
    return f"{COLUMNS[column]} {row}"


def coordinates(name: str) -> tuple[int, int]:
    """``(column index, row)`` of a point named in normal form."""
    letter, row = name.split(" ")
    return COLUMNS.index(letter), int(row)


def is_cross(name: str) -> bool:
    """Whether a ship may stand on the point (B1, B2)."""
    return name in CROSSES


def step(at: str, facing: str) -> str | None:
    """The point next to ``at`` in the direction ``facing`` (it may be land); ``None`` off the
    grid."""
    column, row = coordinates(at)
    dx, dy = _DELTA[facing]
    column, row = column + dx, row + dy
    if not 0 <= column < len(COLUMNS) or not 1 <= row <= ROWS:
        return None
    return cross_name(column, row)


def neighbours(at: str) -> dict[str, str]:
    """The crosses next to the cross ``at``, by direction (B2: never diagonally)."""
    found = {}
    for facing in FACINGS:
        there = step(at, facing)
        if there is not None and there in CROSSES:
            found[facing] = there
    return found


def turn(facing: str, how: str | None) -> str:
    """The facing after turning ``how`` ("left", "right" a right angle, "about" 180 degrees,
    ``None`` not at all: B5)."""
    if how not in TURNS:
        raise ValueError(f"{how!r} is not a turn: left, right, about or none (B5)")
    index = FACINGS.index(facing)
    shift = {None: 0, "right": 1, "about": 2, "left": 3}[how]
    return FACINGS[(index + shift) % 4]


def broadside_sides(facing: str) -> tuple[str, str]:
    """The two directions a ship facing ``facing`` fires in: its left and right (B8)."""
    return turn(facing, "left"), turn(facing, "right")


def direction(at: str, to: str) -> str | None:
    """The direction from ``at`` to the point next to it, ``to``; ``None`` if not next to it."""
    for facing in FACINGS:
        if step(at, facing) == to:
            return facing
    return None


def line(at: str, facing: str) -> list[str]:
    """Every cross in a straight line from ``at`` (not included) in the direction ``facing``,
    up to the first point that is not a cross (land or the edge)."""
    found = []
    here = step(at, facing)
    while here is not None and here in CROSSES:
        found.append(here)
        here = step(here, facing)
    return found


def controlling(circle: str) -> tuple[str, ...]:
    """The battery sites controlling a red circle (two at the double circle, B1, B7)."""
    return tuple(site for site, battery in BATTERIES.items() if circle in battery["controls"])


def merchant_opposite(cross: str) -> Json | None:
    """The merchant ship whose cross "just opposite" is ``cross`` (B9), if any."""
    for merchant in MERCHANTS:
        if merchant["opposite"] == cross:
            return merchant
    return None


def _check() -> None:
    """The data file holds what B1 describes; a broken file stops the import, not a game."""
    names = {cross_name(c, r) for c in range(len(COLUMNS)) for r in range(1, ROWS + 1)}
    assert names == CROSSES | LAND and not CROSSES & LAND, "every point is a cross or land"
    assert len(MERCHANTS) == 4 and all(m["at"] in LAND and m["opposite"] in CROSSES
                                       and direction(m["opposite"], m["at"]) for m in MERCHANTS)
    assert len(RED_CIRCLES) == 6 and all(at in CROSSES for at in RED_CIRCLES)
    assert sum(c["double"] for c in RED_CIRCLES.values()) == 2
    assert len(BATTERIES) == 4 and all(b["at"] in LAND for b in BATTERIES.values())
    assert all(len(controlling(at)) == (2 if c["double"] else 1)
               for at, c in RED_CIRCLES.items())
    assert [len(g) for g in BUOY_GROUPS.values()] == [3, 2, 1]
    assert all(at in CROSSES for at in YELLOW_CIRCLES)
    assert len(set(BLUE_START)) == 12 and len(set(RED_START)) == 10
    assert set(BLUE_START) <= CROSSES and set(RED_START) <= CROSSES


_check()
