"""Broadside's documents as OpenAPI schemas (B13, B14, B11), for the referee's OpenAPI document
beside the other rule sets'; written from the catalogue and the board."""

from __future__ import annotations

from .board import BATTERIES, COLUMNS, FACINGS, ROWS, TURNS, YELLOW_CIRCLES
from .catalogue import (
    BATTERY_KINDS,
    BUOY_KINDS,
    DEFAULT_MINUTES,
    FLEET_SIZE,
    MAX_MINUTES,
    MIN_MINUTES,
    RULES,
    SEATS,
    SHIP_TYPES,
)

CROSS = {"type": "string", "example": "F 7",
         "description": f"A point of the board (B1): column {COLUMNS[0]}-{COLUMNS[-1]} then row "
                        f"1-{ROWS}, written 'F 7' (also read: 'F7', 'f 7')"}
SEAT = {"type": "string", "enum": list(SEATS)}
SHIP_TYPE = {"type": "string", "enum": list(SHIP_TYPES)}
TURN = {"type": "string", "nullable": True, "enum": [t for t in TURNS if t] + [None],
        "description": "B5: null (no turn), left, right (a right angle) or about (180 degrees), "
                       "at the start of the move"}
FACING = {"type": "string", "enum": list(FACINGS), "description": "'up' is toward the docks"}


def _obj(required: list[str], properties: dict, closed: bool = True, **more) -> dict:
    doc = {"type": "object", "required": required, "properties": properties, **more}
    if closed:
        doc["additionalProperties"] = False
    return doc


def schemas() -> dict:
    """The schemas by name: Options, Disposition, Move, Report, View and Catalogue."""
    placed = _obj(["type", "at"], {"type": SHIP_TYPE, "at": CROSS})
    ship = _obj(["side", "type", "at", "facing", "masts", "sunk"], {
        "side": SEAT, "type": SHIP_TYPE, "at": CROSS, "facing": FACING,
        "masts": {"type": "integer", "minimum": 1, "maximum": 4},
        "sunk": {"type": "boolean", "enum": [False]}})
    a_pass = _obj(["pass"], {"pass": {"type": "boolean", "enum": [True]}},
                  description="B5: only when the player has no legal move")
    legal = {"oneOf": [_obj(["ship", "turn", "to"], {"ship": CROSS, "turn": TURN, "to": CROSS}),
                       a_pass]}
    broadside = _obj(["from", "at", "side", "type", "target", "kind"], {
        "from": CROSS, "at": CROSS, "side": SEAT, "type": SHIP_TYPE,
        "target": {"type": "string", "enum": [*SHIP_TYPES, "merchant"]},
        "kind": {"type": "string", "enum": ["exchange", "crossed-t", "merchant"]}})
    lost = _obj(["side", "type", "at", "lost", "masts"], {
        "side": SEAT, "type": SHIP_TYPE, "at": CROSS, "lost": {"type": "integer"},
        "masts": {"type": "integer", "description": "masts left; 0 when sunk"}})
    sunk = _obj(["side", "type", "at", "by"], {
        "side": SEAT, "type": SHIP_TYPE, "at": CROSS,
        "by": {"type": "string", "enum": ["broadside", "batteries", "rock"]}})
    buoy = _obj(["kind", "revealed"], {
        "kind": {"type": "string", "enum": ["unknown", *BUOY_KINDS]},
        "revealed": {"type": "boolean"}})
    return {
        "Options": _obj(["rules"], {
            "rules": {"type": "string", "enum": [RULES]},
            "disposition_minutes": {"type": "integer", "minimum": MIN_MINUTES,
                                    "maximum": MAX_MINUTES, "default": DEFAULT_MINUTES},
            "move_minutes": {"type": "integer", "minimum": MIN_MINUTES,
                             "maximum": MAX_MINUTES, "nullable": True},
            "seats": {"type": "integer", "enum": [2]},
            "alliances": {"type": "boolean", "enum": [False]},
            "bots": {"type": "object", "additionalProperties": {"type": "string"}}}),
        "Disposition": _obj(["ships"], {
            "ships": {"type": "array", "items": placed, "minItems": FLEET_SIZE,
                      "maxItems": FLEET_SIZE,
                      "description": "B3: ten warships on the side's start crosses"},
            "buoys": {"type": "object", "description": "Blue only (B4): every yellow circle, "
                                                       "three sink and three pass",
                      "properties": {c: {"type": "string", "enum": list(BUOY_KINDS)}
                                     for c in YELLOW_CIRCLES},
                      "additionalProperties": False},
            "batteries": {"type": "object", "description": "Blue only (B4): every site, two "
                                                           "hit and two miss",
                          "properties": {s: {"type": "string", "enum": list(BATTERY_KINDS)}
                                         for s in BATTERIES},
                          "additionalProperties": False}}),
        "Move": {"oneOf": [
            _obj(["ship", "to"], {"ship": CROSS, "turn": TURN, "to": CROSS},
                 description="B5, B13: the ship named by its cross, its turn, its stop"),
            a_pass]},
        "Report": _obj(["n", "seat", "move", "passed", "ship", "from", "to", "path",
                        "stopped_by", "buoys", "battery_masts", "broadsides", "masts_lost",
                        "sunk", "merchants_sunk", "text"], {
            "n": {"type": "integer"}, "seat": SEAT, "move": legal, "passed": {"type": "boolean"},
            "ship": {"type": "object", "nullable": True,
                     "properties": {"side": SEAT, "type": SHIP_TYPE}},
            "from": CROSS | {"nullable": True}, "turn": TURN,
            "facing": FACING | {"nullable": True}, "to": CROSS | {"nullable": True},
            "path": {"type": "array", "items": CROSS},
            "stopped_by": CROSS | {"nullable": True},
            "buoys": {"type": "array", "items": _obj(["at", "kind"], {
                "at": CROSS, "kind": {"type": "string", "enum": list(BUOY_KINDS)}})},
            "battery_masts": {"type": "integer", "minimum": 0,
                              "description": "B11: never which battery"},
            "broadsides": {"type": "array", "items": broadside},
            "masts_lost": {"type": "array", "items": lost},
            "sunk": {"type": "array", "items": sunk},
            "merchants_sunk": {"type": "array", "items": CROSS},
            "stand_in": {"type": "boolean"}, "text": {"type": "string"}}, closed=False),
        "View": _obj(["rules", "id", "phase", "you", "version", "seats", "turn", "board",
                      "ships", "merchants", "buoys", "batteries", "legal", "reports"], {
            "rules": {"type": "string", "enum": [RULES]},
            "board": {"type": "object", "description": "board.json as it is (B1, B14)"},
            "ships": {"type": "array", "items": ship},
            "merchants": {"type": "array", "items": _obj(["at", "opposite", "sunk"], {
                "at": CROSS, "opposite": CROSS, "sunk": {"type": "boolean"}})},
            "buoys": {"type": "object", "additionalProperties": buoy,
                      "description": "B12: 'unknown' to Red until revealed or the end"},
            "batteries": {"type": "object", "additionalProperties": {
                "type": "string", "enum": ["unknown", *BATTERY_KINDS]}},
            "legal": {"type": "array", "items": legal,
                      "description": "B5: the seat whose turn it is; [{pass: true}] when it "
                                     "has no move"},
            "disposition": {"type": "object", "nullable": True},
            "revealed": {"type": "object", "description": "After the end (B12)"}},
            closed=False),
        "Catalogue": _obj(["ship_types", "ships", "fleets", "board"], {
            "ship_types": {"type": "array", "items": SHIP_TYPE},
            "ships": {"type": "object"}, "fleets": {"type": "object"},
            "board": {"type": "object"}, "buoys": {"type": "object"},
            "batteries": {"type": "object"}, "limits": {"type": "object"}}, closed=False),
    }
