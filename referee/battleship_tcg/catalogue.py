"""Battleship: The Tactical Combat Game's catalogue: every number and name of its rules,
written once (T1-T5, T11), and ``catalogue()``, what ``GET /api/v1/rules`` serves for it and
the pages embed, so no script holds a rule of its own.

>>> [HOLES[t] for t in BOAT_TYPES]
[5, 4, 3, 3, 2]
>>> NAMES["weapons-platform"], NAMES[MAN]
('Weapons Platform', 'Captured Man')
"""

from __future__ import annotations

from ..common.documents import Json
from ..common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MAX_NAME, MIN_MINUTES
from .holes import COLUMNS, DEPTH, DIRECTIONS, SPOKEN, WIDTH, steps

RULES = "battleship-tcg"
TITLE = "Battleship: The Tactical Combat Game"
SEATS = ("red", "blue")  # two players

BOAT_TYPES = ("carrier", "battleship", "weapons-platform", "submarine", "patrol-boat")  # T3
MAN = "man"  # T5: the Captured Man
HOLES = {"carrier": 5, "battleship": 4, "weapons-platform": 3, "submarine": 3,
         "patrol-boat": 2, MAN: 1}  # T3: the holes each piece covers
NAMES = {"carrier": "Aircraft Carrier", "battleship": "Battleship",
         "weapons-platform": "Weapons Platform", "submarine": "Submarine",
         "patrol-boat": "Patrol Boat", MAN: "Captured Man"}
PLURALS = {kind: name + "s" for kind, name in NAMES.items()} | {MAN: "Captured Men"}
LETTERS = {"carrier": "A", "battleship": "B", "weapons-platform": "W", "submarine": "S",
           "patrol-boat": "P", MAN: "M"}  # on the charts, printed and on screen
FLEET_HOLES = sum(HOLES[t] for t in BOAT_TYPES)  # 17

RESULTS = ("miss", "hit", "rescued")  # T8, T11
SAID = {"miss": "Miss", "hit": "Hit", "rescued": "Rescued"}  # T8: what the referee says

# T2: the mission card's limits, for the standard card and every drawn one
CARD_ISLANDS = (3, 5)  # islands on each half
ISLAND_HOLES = (2, 5)  # holes in one island
HALF_ISLAND_HOLES = (10, 16)  # island holes on one half
MAX_CARD_SEED = 2**63 - 1  # a drawn card's seed: a whole number from 0 to this

DISPOSITION_KEYS = ("boats", "man")  # T11
BOAT_KEYS = ("type", "at", "dir")  # T11
MOVE_KEYS = ("at", "target")  # T11 (``target`` optional: the one opponent)


def catalogue() -> Json:
    """The catalogue as the pages and ``GET /api/v1/rules`` read it."""
    return {
        "rules": RULES,
        "title": TITLE,
        "seats": list(SEATS),
        "order": list(BOAT_TYPES),  # the boats in the rules' order (JSON objects may be sorted)
        "boats": {kind: {"name": NAMES[kind], "plural": PLURALS[kind], "holes": HOLES[kind],
                         "letter": LETTERS[kind], "on": "sea"} for kind in BOAT_TYPES},
        "man": {"type": MAN, "name": NAMES[MAN], "holes": 1, "letter": LETTERS[MAN],
                "on": "island"},
        "directions": list(DIRECTIONS),
        "steps": steps(),  # each direction's step from a high and a low column (T1, T4)
        "results": {r: SAID[r] for r in RESULTS},
        "grid": {"columns": COLUMNS, "width": WIDTH, "depth": DEPTH,
                 "spoken": list(SPOKEN), "low_columns": COLUMNS[1::2],
                 "high_columns": COLUMNS[0::2]},
        "card": {"options": ["standard", {"seed": "a whole number"}],
                 "islands": {"min": CARD_ISLANDS[0], "max": CARD_ISLANDS[1]},
                 "island_holes": {"min": ISLAND_HOLES[0], "max": ISLAND_HOLES[1]},
                 "half_island_holes": {"min": HALF_ISLAND_HOLES[0],
                                       "max": HALF_ISLAND_HOLES[1]},
                 "max_seed": MAX_CARD_SEED},
        "limits": {"name_length": MAX_NAME,
                   "minutes": {"min": MIN_MINUTES, "max": MAX_MINUTES,
                               "default": DEFAULT_MINUTES},
                   "move_minutes": {"min": MIN_MINUTES, "max": MAX_MINUTES}},
    }
