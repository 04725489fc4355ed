"""Broadside's catalogue: every number and name of its rules, written once (B1-B5, B13), and
``catalogue()``, what ``GET /api/v1/rules`` serves for it and the pages embed, so no script
holds a rule of its own.

>>> [sum(MASTS[t] * n for t, n in FLEETS[side].items()) for side in SEATS]
[25, 20]
"""

from __future__ import annotations

from ..common.documents import Json
from ..common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MAX_NAME, MIN_MINUTES
from .board import BOARD, FACINGS, START_FACING, TURNS

RULES = "broadside"
TITLE = "Broadside"
SEATS = ("red", "blue")  # B5: Red invades and moves first, Blue defends; no toss
ORDER = ("red", "blue")

SHIP_TYPES = ("ship-of-the-line", "frigate", "brig", "cutter")  # B3, largest first
MASTS = {"ship-of-the-line": 4, "frigate": 3, "brig": 2, "cutter": 1}  # B3
NAMES = {"ship-of-the-line": "Ship-of-the-Line", "frigate": "Frigate", "brig": "Brig",
         "cutter": "Cutter"}
PLURALS = {"ship-of-the-line": "Ships-of-the-Line", "frigate": "Frigates", "brig": "Brigs",
           "cutter": "Cutters"}
LETTERS = {"ship-of-the-line": "L", "frigate": "F", "brig": "B", "cutter": "C"}
FLEETS = {  # B3: each side's ten warships
    "red": {"ship-of-the-line": 2, "frigate": 3, "brig": 3, "cutter": 2},
    "blue": {"ship-of-the-line": 0, "frigate": 4, "brig": 2, "cutter": 4},
}
FLEET_SIZE = 10
BUOY_KINDS = ("sink", "pass")  # B4
BUOY_LIMITS = {"sink": 3, "pass": 3}
BATTERY_KINDS = ("hit", "miss")  # B4
BATTERY_LIMITS = {"hit": 2, "miss": 2}

DISPOSITION_KEYS = {"red": ("ships",), "blue": ("ships", "buoys", "batteries")}  # B13
SHIP_KEYS = ("type", "at")  # B13
MOVE_KEYS = ("ship", "turn", "to")  # B13; or {"pass": true} (B5)


def side_name(seat: str) -> str:
    return seat.title()


def catalogue() -> Json:
    """The catalogue as the pages and ``GET /api/v1/rules`` read it."""
    return {
        "rules": RULES,
        "title": TITLE,
        "seats": list(SEATS),
        "order": list(ORDER),  # B5: Red moves first, always
        "ship_types": list(SHIP_TYPES),
        "ships": {kind: {"name": NAMES[kind], "plural": PLURALS[kind], "masts": MASTS[kind],
                         "letter": LETTERS[kind]} for kind in SHIP_TYPES},
        "fleets": {seat: {kind: n for kind, n in FLEETS[seat].items() if n}
                   for seat in SEATS},
        "start": {"red": list(BOARD["red_start"]), "blue": list(BOARD["blue_start"])},
        "start_facing": dict(START_FACING),
        "facings": list(FACINGS),
        "turns": list(TURNS),
        "buoys": {"kinds": list(BUOY_KINDS), "limits": dict(BUOY_LIMITS),
                  "groups": dict(BOARD["buoys"]),
                  "never": ["sink on all three of the row", "sink on both of the pair"]},
        "batteries": {"kinds": list(BATTERY_KINDS), "limits": dict(BATTERY_LIMITS),
                      "sites": [b["site"] for b in BOARD["batteries"]]},
        "board": BOARD,
        "limits": {"name_length": MAX_NAME,
                   "minutes": {"min": MIN_MINUTES, "max": MAX_MINUTES,
                               "default": DEFAULT_MINUTES},
                   "move_minutes": {"min": MIN_MINUTES, "max": MAX_MINUTES}},
    }
