"""Battleship: The Tactical Combat Game's documents as OpenAPI schemas (T11, T12), for the
referee's OpenAPI document beside the Naval War Game's; written from the catalogue."""

from __future__ import annotations

from typing import get_args

from ..common.documents import Json
from ..common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MIN_MINUTES
from ..common.schema import json_schema
from . import documents
from .catalogue import (
    BOAT_TYPES,
    MAX_CARD_SEED,
    SEATS,
)
from .holes import COLUMNS, DEPTH, DIRECTIONS

HOLE = {"type": "string", "example": "D 3",
        "description": f"A hole of one half (T1): column {COLUMNS[0]}-{COLUMNS[-1]} (or its "
                       f"spoken word, 'Delta 3') then 1-{DEPTH}"}
SEAT = {"type": "string", "enum": list(SEATS)}
# what its documents' types name: its own seats and the reasons its games end by
NAMES = {"seat": list(SEATS), "end_reason": list(get_args(documents.EndReason))}


def schemas() -> Json:
    """The schemas by name: Options, Disposition, Move, Report, View and Catalogue."""
    boat = {"type": "object", "required": ["type", "at", "dir"], "additionalProperties": False,
            "properties": {"type": {"type": "string", "enum": list(BOAT_TYPES)}, "at": HOLE,
                           "dir": {"type": "string", "enum": list(DIRECTIONS)}}}
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
        # the documents it gives, made from their types (T11, T12: ``documents``)
        "Report": json_schema(documents.SeatReport, names=NAMES),
        "View": json_schema(documents.ServedView, names=NAMES),
        "Catalogue": {"type": "object", "required": ["boats", "man", "directions", "grid"],
                      "properties": {"boats": {"type": "object"}, "man": {"type": "object"},
                                     "directions": {"type": "array",
                                                    "items": {"type": "string"}},
                                     "grid": {"type": "object"}, "card": {"type": "object"},
                                     "limits": {"type": "object"}}},
    }
