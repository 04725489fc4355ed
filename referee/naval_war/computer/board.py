"""The chart as the bots count it: squares as numbers 0-440, areas, and every ship placement.

A square ``i`` is column ``i % 21``, row ``i // 21`` (A 1 is 0, U 21 is 440). Everything here
is computed once, when the module is first imported, so that a bot's move costs only the
arithmetic of that move.

>>> SQUARE_NAMES[0], SQUARE_NAMES[440], index("k10")
('A 1', 'U 21', 199)
>>> len(AREA[1][0]), len(AREA[2][index("K 10")])
(4, 25)
>>> {kind: len(PLACEMENTS[kind]) for kind in SHIP_TYPES}
{'carrier': 400, 'battleship': 756, 'cruiser': 798, 'destroyer': 840, 'submarine': 441}
"""

from __future__ import annotations

from referee.naval_war.catalogue import DIRECTIONS, SHIP_TYPES, TURNS, on_chart, ship_squares
from referee.naval_war.squares import SIZE, Square, parse_square, square_name

__all__ = ["AREA", "CELLS", "DIRECTION", "NEIGHBOURS", "PLACEMENTS", "PLACEMENTS_AT",
           "SIZE", "SQUARE_NAMES", "WINDOWS", "covering_centres", "distance", "index"]

CELLS = SIZE * SIZE
SQUARE_NAMES: tuple[str, ...] = tuple(square_name(Square(i % SIZE, i // SIZE))
                                      for i in range(CELLS))
_INDEX = {name: i for i, name in enumerate(SQUARE_NAMES)}


def index(text: str) -> int:
    """The number of a square written as R1 allows."""
    found = _INDEX.get(text)
    if found is None:
        square = parse_square(text)
        found = square.row * SIZE + square.col
    return found


def _area(i: int, radius: int) -> tuple[int, ...]:
    c, r = i % SIZE, i // SIZE
    return tuple(rr * SIZE + cc
                 for rr in range(max(0, r - radius), min(SIZE, r + radius + 1))
                 for cc in range(max(0, c - radius), min(SIZE, c + radius + 1)))


# AREA[r][i]: the squares within r of square i (the larger of the column and row distances),
# in reading order; r = 1 is a bomber's or R.P.'s 3 x 3, r = 2 an atom bomber's 5 x 5 (R16),
# r = 3 how far the rest of a Battleship can lie from one of its squares.
AREA: dict[int, tuple[tuple[int, ...], ...]] = {
    r: tuple(_area(i, r) for i in range(CELLS)) for r in (0, 1, 2, 3)
}
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in AREA[1][i] if j != i) for i in range(CELLS))


def distance(a: int, b: int) -> int:
    return max(abs(a % SIZE - b % SIZE), abs(a // SIZE - b // SIZE))


def _placements(kind: str) -> list[tuple[tuple[int, ...], str]]:
    """Every (squares, dir) a ship of this type can take on an empty chart (R7)."""
    found = []
    for direction in DIRECTIONS if kind in TURNS else DIRECTIONS[:1]:
        for r in range(SIZE):
            for c in range(SIZE):
                squares = ship_squares(kind, Square(c, r), direction)
                if on_chart(squares):
                    found.append((tuple(s.row * SIZE + s.col for s in squares), direction))
    return found


_ALL = {kind: _placements(kind) for kind in SHIP_TYPES}
PLACEMENTS: dict[str, tuple[tuple[int, ...], ...]] = {
    kind: tuple(squares for squares, _ in found) for kind, found in _ALL.items()}
DIRECTION: dict[str, tuple[str, ...]] = {
    kind: tuple(d for _, d in found) for kind, found in _ALL.items()}
# PLACEMENTS_AT[kind][i]: the numbers of the placements of that type covering square i
PLACEMENTS_AT: dict[str, tuple[tuple[int, ...], ...]] = {}
for _kind, _found in PLACEMENTS.items():
    _at: list[list[int]] = [[] for _ in range(CELLS)]
    for _n, _squares in enumerate(_found):
        for _sq in _squares:
            _at[_sq].append(_n)
    PLACEMENTS_AT[_kind] = tuple(tuple(x) for x in _at)


def covering_centres(squares: tuple[int, ...] | list[int], radius: int) -> list[int]:
    """The centres whose (2r+1) x (2r+1) area covers every one of these squares."""
    cols = [s % SIZE for s in squares]
    rows = [s // SIZE for s in squares]
    c0, c1 = max(0, max(cols) - radius), min(SIZE - 1, min(cols) + radius)
    r0, r1 = max(0, max(rows) - radius), min(SIZE - 1, min(rows) + radius)
    return [r * SIZE + c for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


# WINDOWS[r][kind][n]: the centres of the areas of radius r that hold placement n entirely,
# so that a bomber (r = 1) or atom bomber (r = 2) there would sink such a ship outright.
WINDOWS: dict[int, dict[str, tuple[tuple[int, ...], ...]]] = {
    r: {kind: tuple(tuple(covering_centres(p, r)) for p in found)
        for kind, found in PLACEMENTS.items()}
    for r in (1, 2)
}
