"""Broadsides and Boarding Parties' documents as OpenAPI schemas (BB26), for the referee's
OpenAPI document beside the other rule sets': the options and an order written from the
catalogue and the deck, the disposition, the report and the view made from their types
(``documents``)."""

from __future__ import annotations

from typing import get_args

from ..common.documents import Json
from ..common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MIN_MINUTES
from ..common.schema import json_schema
from . import documents
from .catalogue import CARDS, KINDS, MOVEMENTS, PLOTTED, RULES, SEATS
from .deck import CELLS, SECTIONS
from .game import MAX_ORDER_KEYS

# what its documents' types name: its own seats and the reasons its games end by
NAMES = {"seat": list(SEATS), "end_reason": list(get_args(documents.EndReason))}
STAGE = {"type": "integer", "minimum": 1,
         "description": "BB5: the stage the order answers (the view's stage.n); optional"}
OPEN = {"type": "object"}
PLACE = {"type": "string", "example": "their C3",
         "description": "BB26: a cell of your ship ('B5', 'my B5'), of the enemy's ('their "
                        "C3') or of a ship named by its seat ('red B5')"}


def _obj(required: list[str], properties: Json, **more: object) -> Json:
    return {"type": "object", "required": required, "properties": properties,
            "additionalProperties": False, **more}


def _order(kind: str, field: str, schema: Json, description: str) -> Json:
    return _obj([field], {"kind": {"type": "string", "enum": [kind]}, "stage": STAGE,
                          field: schema}, description=description,
                maxProperties=MAX_ORDER_KEYS)


def _view() -> Json:
    """The view the server serves (``documents.ServedView``), its move clock (R25) described
    but not required: the core's own view (``view_for``), which the clock is added to as it
    is served, is valid under it too."""
    view = json_schema(documents.ServedView, names=NAMES)
    view["required"] = [key for key in view["required"] if key != "move_clock"]
    return view


def schemas() -> Json:
    """The schemas by name: Options, Disposition, Move, Report, View and Catalogue."""
    movement = _obj(["from", "to"], {"from": PLACE, "to": PLACE, "captain": {"type": "boolean"}})
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
        "Disposition": json_schema(documents.Disposition, closed=True),
        "Move": {"oneOf": [
            _order("plot", "cards", {"type": "array", "minItems": PLOTTED,
                                     "maxItems": PLOTTED,
                                     "items": {"type": "string", "enum": list(CARDS)}},
                   "BB4-BB6: three cards in order"),
            _order("declaration", "targets", {
                "type": "object", "additionalProperties": {
                    "type": "string", "nullable": True, "enum": [*SECTIONS, None]}},
                "BB9, BB10: a section (or null, holding fire) for each cannon that bears"),
            _obj(["standing"], {"kind": {"type": "string", "enum": ["declaration"]},
                                "stage": STAGE, "standing": {"type": "boolean", "enum": [True]}},
                 description="BB10: standing orders, the last volley's targets again"),
            _order("promotion", "promote", PLACE, "BB7: the crewmember made Captain"),
            _order("boarding", "moves", {"type": "array", "maxItems": MOVEMENTS,
                                         "items": movement},
                   "BB21: three movements, fewer only when no more are possible")]},
        # the documents it gives, made from their types (BB25, BB26: ``documents``)
        "Report": json_schema(documents.SeatReport, names=NAMES),
        "View": _view(),
        # every key the catalogue always carries; open, as the sea, deck and cards are data
        "Catalogue": {"type": "object", "required": [
            "rules", "title", "seats", "ships", "sea", "deck", "cards", "hand", "plotted",
            "kinds", "cells", "cannons", "effects", "movements", "limits"], "properties": {
            "rules": {"type": "string", "enum": [RULES]}, "title": {"type": "string"},
            "seats": {"type": "array", "items": {"type": "string", "enum": list(SEATS)}},
            "ships": OPEN, "sea": OPEN, "deck": OPEN, "cards": OPEN, "hand": OPEN,
            "plotted": {"type": "integer"},
            "kinds": {"type": "array", "items": {"type": "string", "enum": list(KINDS)}},
            "cells": {"type": "array", "items": {"type": "string", "enum": list(CELLS)}},
            "cannons": {"type": "array"}, "effects": OPEN, "movements": {"type": "integer"},
            "limits": OPEN}},
    }
