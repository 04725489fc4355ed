"""The catalogue served as ``GET /api/v1/rules`` and embedded in every page."""

from __future__ import annotations

import json
import re

from referee.naval_war import catalogue
from referee.naval_war.catalogue import (
    AIRCRAFT_TYPES,
    BUYABLE,
    SHIP_TYPES,
    WEAPONS,
    ship_squares,
)
from referee.naval_war.squares import COLUMNS, SIZE, Square


def served(client) -> dict:
    answer = client.get("/api/v1/rules")  # no token
    assert answer.status_code == 200 and answer.is_json
    sets = answer.get_json()["rule_sets"]
    assert [(s["rules"], s["name"]) for s in sets] == [
        ("naval-war", "The Naval War Game"),
        ("battleship-tcg", "Battleship: The Tactical Combat Game"),
        ("broadside", "Broadside"),
        ("broadsides-boarding", "Broadsides and Boarding Parties")]
    return sets[0]["catalogue"]


def test_rules_served_match_the_core_s_constants(client):
    cat = served(client)
    assert list(cat["pieces"]) == cat["order"] == list(BUYABLE)
    for kind, piece in cat["pieces"].items():
        assert piece["name"] == catalogue.NAMES[kind]
        assert piece["plural"] == catalogue.PLURALS[kind]
        assert piece["price"] == catalogue.PRICES[kind]
        assert piece["letter"] == catalogue.LETTERS.get(kind)
        group = ("ship" if kind in SHIP_TYPES else "aircraft" if kind in AIRCRAFT_TYPES
                 else "gun" if kind == "aa-gun" else "salvo")
        assert piece["group"] == group
    for kind in SHIP_TYPES:
        piece = cat["pieces"][kind]
        assert piece["length"] == piece["score"] == catalogue.SHIP_LENGTH[kind]
        # the shape's offsets are the core's squares of a ship at A 1 lying across
        assert [tuple(o) for o in piece["shape"]] == \
            [(s.col, s.row) for s in ship_squares(kind, Square(0, 0), "across")]
        down = [(s.col, s.row) for s in ship_squares(kind, Square(0, 0), "down")]
        assert down == ([(r, c) for c, r in piece["shape"]] if piece["turns"]
                        else [tuple(o) for o in piece["shape"]])
    assert {k: (w["radius"], w["shots"]) for k, w in cat["weapons"].items()} == \
        {"atom-bomber": (2, 1), "bomber": (1, 1), "recon": (1, 1), "salvo": (0, 3)}
    assert list(cat["weapons"]) == list(WEAPONS)
    assert cat["gun"] == {"radius": catalogue.GUN_RADIUS}
    assert cat["budget"] == {"total": catalogue.BUDGET, "min_ships": catalogue.MIN_SHIPS,
                             "min_forces": catalogue.MIN_FORCES,
                             "max_atom_bombers": catalogue.MAX_ATOM_BOMBERS}
    limits = cat["limits"]
    assert limits["name_length"] == catalogue.MAX_NAME == 40
    assert limits["minutes"] == {"min": 1, "max": 1440, "default": 20}
    assert limits["move_minutes"] == {"min": 1, "max": 1440}
    assert limits["clock_extension"] == {"min": 1, "max": catalogue.MAX_CLOCK_EXTENSION}
    assert limits["record_pages"] == {"min": 1, "max": 20, "default": 2}
    assert cat["board"]["size"] == SIZE and cat["board"]["columns"] == COLUMNS[:SIZE]


def test_rules_are_in_the_openapi_document(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    operation = doc["paths"]["/api/v1/rules"]["get"]
    assert operation["security"] == []
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == \
        {"$ref": "#/components/schemas/RuleSets"}
    options = doc["components"]["schemas"]["GameOptions"]["properties"]
    assert options["disposition_minutes"]["maximum"] == catalogue.MAX_MINUTES


def test_every_page_embeds_the_served_catalogue(client):
    cat = served(client)
    for path in ("/", "/club"):
        page = client.get(path).get_data(as_text=True)
        found = re.search(r'<script type="application/json" id="rules-catalogue">(.*?)</script>',
                          page, re.S)
        assert found, path
        embedded = json.loads(found.group(1))
        assert embedded["rules"] == "naval-war"
        assert {k: embedded[k] for k in cat} == cat
