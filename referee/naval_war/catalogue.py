"""The Naval War Game's catalogue: every number and name of the rules, written once.

The pieces (names, plurals, prices R3, ship lengths and shapes R7, letters on the charts),
the weapons' blast radii (R16-R18), the budget limits (R3, R4) and the limits every channel
shares (API, pages, forms, printouts). ``ship_squares(kind, at, dir)`` is the one place a
ship's squares are computed; the core, the bots, the printables and (through ``to_json``
served as ``GET /api/v1/rules``) the pages' scripts all take them from here.

>>> [square_name(s) for s in ship_squares("carrier", Square(0, 0), None)]
['A 1', 'B 1', 'A 2', 'B 2']
>>> [square_name(s) for s in ship_squares("cruiser", Square(4, 4), "down")]
['E 5', 'E 6', 'E 7']
"""

from __future__ import annotations

from collections.abc import Iterable

from ..common import limits
from ..common.documents import Json
from .squares import COLUMNS, SIZE, Square, square_name  # noqa: F401  (the doctests)

RULES = "naval-war"
TITLE = "The Naval War Game"

SHIP_TYPES = ("carrier", "battleship", "cruiser", "destroyer", "submarine")
AIRCRAFT_TYPES = ("atom-bomber", "bomber", "recon")
WEAPONS = (*AIRCRAFT_TYPES, "salvo")
DIRECTIONS = ("across", "down")
# every kind a player buys, in the order the budget lists them
BUYABLE = (*SHIP_TYPES, *AIRCRAFT_TYPES, "aa-gun", "salvo")

PRICES = {  # R3
    "carrier": 4, "battleship": 4, "cruiser": 3, "destroyer": 2, "submarine": 1,
    "atom-bomber": 10, "bomber": 3, "recon": 1, "aa-gun": 1, "salvo": 1,
}
# R7: a ship's shape as (column, row) offsets from its named square when it lies across;
# a line lying down swaps them. The carrier is a 2 x 2 block and has no direction.
SHAPES: dict[str, tuple[tuple[int, int], ...]] = {
    "carrier": ((0, 0), (1, 0), (0, 1), (1, 1)),
    "battleship": ((0, 0), (1, 0), (2, 0), (3, 0)),
    "cruiser": ((0, 0), (1, 0), (2, 0)),
    "destroyer": ((0, 0), (1, 0)),
    "submarine": ((0, 0),),
}
TURNS = frozenset(kind for kind, shape in SHAPES.items()  # ships that lie across or down
                  if kind != "carrier" and len(shape) > 1)
SHIP_LENGTH = {kind: len(shape) for kind, shape in SHAPES.items()}  # and its score (R22)
LINE_LENGTH = {kind: n for kind, n in SHIP_LENGTH.items() if kind != "carrier"}

NAMES = {
    "carrier": "Aircraft Carrier", "battleship": "Battleship", "cruiser": "Cruiser",
    "destroyer": "Destroyer", "submarine": "Submarine", "atom-bomber": "Atom Bomber",
    "bomber": "Bomber", "recon": "R.P.", "aa-gun": "A-A gun", "salvo": "salvo",
}
PLURALS = {
    "carrier": "Aircraft Carriers", "battleship": "Battleships", "cruiser": "Cruisers",
    "destroyer": "Destroyers", "submarine": "Submarines", "atom-bomber": "Atom Bombers",
    "bomber": "Bombers", "recon": "R.P.s", "aa-gun": "A-A guns", "salvo": "salvoes",
}
LETTERS = {  # on the charts, printed and on screen
    "carrier": "K", "battleship": "B", "cruiser": "C", "destroyer": "D", "submarine": "S",
    "atom-bomber": "A", "bomber": "b", "recon": "r", "aa-gun": "G",
}
GROUPS = {
    **dict.fromkeys(SHIP_TYPES, "ship"), **dict.fromkeys(AIRCRAFT_TYPES, "aircraft"),
    "aa-gun": "gun", "salvo": "salvo",
}
LAND_ONLY = ("atom-bomber", "aa-gun")  # R9: stand on land; bombers and R.P.s also on carriers
LAND_UNIT = 3  # R6: a land unit is 3 x 3 squares

# R16-R18: the half-width of the square area a weapon strikes or a gun covers
RADIUS = {"atom-bomber": 2, "bomber": 1, "recon": 1, "salvo": 0}
SHOTS = {"salvo": 3}  # R3, R12: a salvo is three shots at three different squares
GUN_RADIUS = 1  # R18: an A-A gun covers the 3 x 3 round it

BUDGET = 160  # R3
MIN_SHIPS = 60  # R4
MIN_FORCES = 60  # R4
MAX_ATOM_BOMBERS = 6  # R4

MAX_NAME = 40  # R10: a player's name
DEFAULT_MINUTES = 20  # R10: the disposition clock
MIN_MINUTES, MAX_MINUTES = 1, 24 * 60  # R10 disposition clock, R25 move clock
# the limits every game's pages share (the host's clock form, a blank record's pages)
MAX_CLOCK_EXTENSION = limits.MAX_CLOCK_EXTENSION
DEFAULT_RECORD_PAGES, MAX_RECORD_PAGES = limits.BLANK_RECORD_PAGES, limits.MAX_BLANK_RECORD_PAGES


def ship_squares(kind: str, at: Square, direction: str | None) -> list[Square]:
    """The squares of a ship of this kind with its named square ``at`` (R7), in the order the
    shape lists them. They may run off the chart: the caller checks ``on_chart``."""
    down = direction == "down" and kind in TURNS
    return [Square(at.col + dr, at.row + dc) if down else Square(at.col + dc, at.row + dr)
            for dc, dr in SHAPES[kind]]


def on_chart(squares: Iterable[Square]) -> bool:
    return all(0 <= s.col < SIZE and 0 <= s.row < SIZE for s in squares)


def to_json() -> Json:
    """The catalogue as the pages and ``GET /api/v1/rules`` read it."""
    return {
        "order": list(BUYABLE),  # the pieces in the budget's order (JSON objects may be sorted)
        "pieces": {kind: {
            "name": NAMES[kind], "plural": PLURALS[kind], "price": PRICES[kind],
            "letter": LETTERS.get(kind), "group": GROUPS[kind],
            **({"length": SHIP_LENGTH[kind], "shape": [list(o) for o in SHAPES[kind]],
                "turns": kind in TURNS, "score": SHIP_LENGTH[kind]}
               if kind in SHAPES else {}),
            **({"on": "land"} if kind in LAND_ONLY
               else {"on": "land or carrier"} if kind in AIRCRAFT_TYPES else {}),
        } for kind in BUYABLE},
        "weapons": {kind: {"name": NAMES[kind], "radius": RADIUS[kind],
                           "shots": SHOTS.get(kind, 1)} for kind in WEAPONS},
        "gun": {"radius": GUN_RADIUS},
        "budget": {"total": BUDGET, "min_ships": MIN_SHIPS, "min_forces": MIN_FORCES,
                   "max_atom_bombers": MAX_ATOM_BOMBERS},
        "limits": {"name_length": MAX_NAME, "minutes": {"min": MIN_MINUTES,
                                                        "max": MAX_MINUTES,
                                                        "default": DEFAULT_MINUTES},
                   "move_minutes": {"min": MIN_MINUTES, "max": MAX_MINUTES},
                   "clock_extension": {"min": 1, "max": MAX_CLOCK_EXTENSION},
                   "record_pages": {"min": 1, "max": MAX_RECORD_PAGES,
                                    "default": DEFAULT_RECORD_PAGES}},
        "board": {"size": SIZE, "columns": COLUMNS[:SIZE], "land_unit": LAND_UNIT},
    }
