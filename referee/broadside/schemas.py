"""Broadside's documents as OpenAPI schemas (B13, B14, B11), for the referee's OpenAPI document
beside the other rule sets'; written from the catalogue and the board."""

from __future__ import annotations

from typing import get_args

from ..common.documents import Json
from ..common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MIN_MINUTES
from ..common.schema import json_schema
from . import documents
from .board import BATTERIES, COLUMNS, FACINGS, ROWS, TURNS, YELLOW_CIRCLES
from .catalogue import (
    BATTERY_KINDS,
    BUOY_KINDS,
    FLEET_SIZE,
    RULES,
    SEATS,
    SHIP_TYPES,
)

CROSS = {"type": "string", "example": "F 7",
         "description": f"A point of the board (B1): column {COLUMNS[0]}-{COLUMNS[-1]} then row "
                        f"1-{ROWS}, written 'F 7' (also read: 'F7', 'f 7')"}
SEAT = {"type": "string", "enum": list(SEATS)}
# what its documents' types name: its own seats and the reasons its games end by
NAMES = {"seat": list(SEATS), "end_reason": list(get_args(documents.EndReason))}
SHIP_TYPE = {"type": "string", "enum": list(SHIP_TYPES)}
TURN = {"type": "string", "nullable": True, "enum": [t for t in TURNS if t] + [None],
        "description": "B5: null (no turn), left, right (a right angle) or about (180 degrees), "
                       "at the start of the move"}
FACING = {"type": "string", "enum": list(FACINGS), "description": "'up' is toward the docks"}


def _obj(required: list[str], properties: Json, closed: bool = True, **more: object) -> Json:
    doc = {"type": "object", "required": required, "properties": properties, **more}
    if closed:
        doc["additionalProperties"] = False
    return doc


def schemas() -> Json:
    """The schemas by name: Options, Disposition, Move, Report, View and Catalogue."""
    placed = _obj(["type", "at"], {"type": SHIP_TYPE, "at": CROSS})
    a_pass = _obj(["pass"], {"pass": {"type": "boolean", "enum": [True]}},
                  description="B5: only when the player has no legal move")
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
        # the documents it gives, made from their types (B11, B14: ``documents``)
        "Report": json_schema(documents.SeatReport, names=NAMES),
        "View": json_schema(documents.ServedView, names=NAMES),
        "Catalogue": _obj(["ship_types", "ships", "fleets", "board"], {
            "ship_types": {"type": "array", "items": SHIP_TYPE},
            "ships": {"type": "object"}, "fleets": {"type": "object"},
            "board": {"type": "object"}, "buoys": {"type": "object"},
            "batteries": {"type": "object"}, "limits": {"type": "object"}}, closed=False),
    }
