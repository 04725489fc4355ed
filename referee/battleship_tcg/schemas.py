"""Battleship: The Tactical Combat Game's documents as OpenAPI schemas (T11, T12), for the
referee's OpenAPI document beside the Naval War Game's; written from the catalogue."""

from __future__ import annotations

from .catalogue import (
    BOAT_TYPES,
    DEFAULT_MINUTES,
    MAX_CARD_SEED,
    MAX_MINUTES,
    MIN_MINUTES,
    RESULTS,
    SEATS,
)
from .holes import COLUMNS, DEPTH, DIRECTIONS

HOLE = {"type": "string", "example": "D 3",
        "description": f"A hole of one half (T1): column {COLUMNS[0]}-{COLUMNS[-1]} (or its "
                       f"spoken word, 'Delta 3') then 1-{DEPTH}"}
SEAT = {"type": "string", "enum": list(SEATS)}


def schemas() -> dict:
    """The schemas by name: Options, Disposition, Move, Report, View and Catalogue."""
    boat = {"type": "object", "required": ["type", "at", "dir"], "additionalProperties": False,
            "properties": {"type": {"type": "string", "enum": list(BOAT_TYPES)}, "at": HOLE,
                           "dir": {"type": "string", "enum": list(DIRECTIONS)}}}
    shot = {"type": "object", "required": ["n", "at", "result", "sunk"], "properties": {
        "n": {"type": "integer"}, "at": HOLE, "result": {"type": "string", "enum": list(RESULTS)},
        "sunk": {"type": "string", "nullable": True, "enum": [*BOAT_TYPES, None]},
        "found": {"type": "string", "nullable": True,
                  "description": "On one's own half, and on both after the end (T12)"}}}
    halves = {"type": "object", "properties": {seat: {"type": "array", "items": HOLE}
                                               for seat in SEATS}}
    return {
        "Options": {"type": "object", "additionalProperties": False, "required": ["rules"],
                    "properties": {
            "rules": {"type": "string", "enum": ["battleship-tcg"]},
            "card": {"description": "T2: \"standard\" (the default; null or absent says "
                                    "the same) or a card drawn from a seed",
                     "nullable": True, "oneOf": [
                {"type": "string", "enum": ["standard"]},
                {"type": "object", "required": ["seed"], "additionalProperties": False,
                 "properties": {"seed": {"type": "integer", "minimum": 0,
                                         "maximum": MAX_CARD_SEED}}}]},
            "disposition_minutes": {"type": "integer", "minimum": MIN_MINUTES,
                                    "maximum": MAX_MINUTES, "default": DEFAULT_MINUTES},
            "move_minutes": {"type": "integer", "minimum": MIN_MINUTES,
                             "maximum": MAX_MINUTES, "nullable": True},
            "seats": {"type": "integer", "enum": [2]},
            "alliances": {"type": "boolean", "enum": [False]},
            "bots": {"type": "object", "additionalProperties": {"type": "string"}}}},
        "Disposition": {"type": "object", "required": ["boats", "man"],
                        "additionalProperties": False, "properties": {
            "boats": {"type": "array", "items": boat, "minItems": len(BOAT_TYPES),
                      "maxItems": len(BOAT_TYPES)},
            "man": HOLE}},
        "Move": {"type": "object", "required": ["at"], "properties": {
            "at": {"oneOf": [HOLE, {"type": "array", "items": HOLE, "minItems": 1,
                                    "maxItems": 1}]},
            "target": SEAT}},
        "Report": {"type": "object", "required": ["n", "by", "target", "at", "result", "sunk"],
                   "properties": {
            "n": {"type": "integer"}, "by": SEAT, "target": SEAT,
            "at": {"type": "array", "items": HOLE, "minItems": 1, "maxItems": 1},
            "result": {"type": "string", "enum": list(RESULTS)},
            "sunk": {"type": "string", "nullable": True}, "text": {"type": "string"},
            "stand_in": {"type": "boolean"}}},
        "View": {"type": "object", "required": ["id", "rules", "phase", "you", "version",
                                                "seats", "islands", "shots", "reports"],
                 "properties": {
            "rules": {"type": "string", "enum": ["battleship-tcg"]},
            "islands": halves, "shots": {"type": "object", "properties": {
                seat: {"type": "array", "items": shot} for seat in SEATS}},
            "sunk": {"type": "object", "properties": {
                seat: {"type": "array", "items": {"type": "string"}} for seat in SEATS}},
            "disposition": {"type": "object", "nullable": True},
            "damage": {"type": "object", "nullable": True},
            "revealed": {"type": "object", "description": "After the end (T9)"}}},
        "Catalogue": {"type": "object", "required": ["boats", "man", "directions", "grid"],
                      "properties": {"boats": {"type": "object"}, "man": {"type": "object"},
                                     "directions": {"type": "array",
                                                    "items": {"type": "string"}},
                                     "grid": {"type": "object"}, "card": {"type": "object"},
                                     "limits": {"type": "object"}}},
    }
