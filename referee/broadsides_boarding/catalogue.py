"""Broadsides and Boarding Parties' catalogue: every number and name of its rules, written once
(BB1-BB26), and ``catalogue()``, what ``GET /api/v1/rules`` serves for it and the pages embed, so
no script holds a rule of its own.
"""

from __future__ import annotations

from ..common.documents import Json
from ..common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MAX_NAME, MIN_MINUTES
from .deck import CANNONS, CELLS, CREW_PER_CANNON, DECK, MASTS, MOST_IN_CELL, SECTIONS, SHIPS
from .sea import HEADINGS, SEA

RULES = "broadsides-boarding"
TITLE = "Broadsides and Boarding Parties"
SEATS = ("red", "blue")  # red sails the Royal Isabella, blue the Seahawk (BB1)
ORDER = ("red", "blue")  # the seats' order: the rolls' (BB24); the boarding's first by dice

# BB4: each player's hand, three of each
CARDS = ("stay", "forward", "starboard", "port", "damaged")
CARD_NAMES = {"stay": "Remain in Place", "forward": "Move Forward",
              "starboard": "Turn Starboard", "port": "Turn Port",
              "damaged": "Damaged Mast and/or Hull"}
HAND = dict.fromkeys(CARDS, 3)
PLOTTED = 3  # BB4: cards plotted a round
MOST_DAMAGED = 3  # BB6

# BB11: what each face of a cannon's die does
EFFECTS = {1: "miss", 2: "hull", 3: "rail 3", 4: "mast", 5: "rail 5", 6: "miss"}
FINAL_MISSES = (2, 4)  # BB19: in the final volley
SUNK_SECTIONS = 3  # BB14: a third section beyond repair sinks the ship
BEYOND_REPAIR = 2  # BB14: hull markers that put a section beyond repair
MOVEMENTS = 3  # BB21: movements in a boarding turn

# the kinds of order a seat may owe (BB26), as the view's "owes" and a move's "kind" name them
KINDS = ("plot", "declaration", "promotion", "boarding")
KIND_KEYS = {"plot": "cards", "declaration": "targets", "promotion": "promote",
             "boarding": "moves"}
DISPOSITION_KEYS = ("captain",)  # BB16: where the Captain stands


def catalogue() -> Json:
    """The catalogue as the pages and ``GET /api/v1/rules`` read it."""
    return {
        "rules": RULES,
        "title": TITLE,
        "seats": list(SEATS),
        "ships": dict(SHIPS),
        "sea": SEA,
        "deck": DECK,
        "headings": list(HEADINGS),
        "cards": {card: CARD_NAMES[card] for card in CARDS},
        "hand": dict(HAND),
        "plotted": PLOTTED,
        "kinds": list(KINDS),
        "sections": list(SECTIONS),
        "cells": list(CELLS),
        "cannons": list(CANNONS),
        "crew_per_cannon": CREW_PER_CANNON,
        "most_in_cell": MOST_IN_CELL,
        "masts": dict(MASTS),
        "effects": {str(face): effect for face, effect in EFFECTS.items()},
        "final_misses": list(FINAL_MISSES),
        "movements": MOVEMENTS,
        "limits": {"name_length": MAX_NAME,
                   "minutes": {"min": MIN_MINUTES, "max": MAX_MINUTES,
                               "default": DEFAULT_MINUTES},
                   "move_minutes": {"min": MIN_MINUTES, "max": MAX_MINUTES}},
    }


__all__ = ["CARDS", "CARD_NAMES", "EFFECTS", "KINDS", "ORDER", "RULES", "SEATS", "TITLE",
           "catalogue"]
