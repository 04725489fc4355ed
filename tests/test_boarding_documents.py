"""Broadsides and Boarding Parties' documents are the OpenAPI document's (BB16, BB26): the
options, a disposition, every order both computers sent over whole games, every report, each
seat's view after every order, and the catalogue ``GET /api/v1/rules`` answers, each valid
under the rule set's schema as ``/api/v1/openapi.json`` publishes it; and what the core refuses
the schema refuses too."""

from __future__ import annotations

import jsonschema_rs
import pytest
from boarding_support import in_play
from test_broadside_api import _json_schema

from referee.broadsides_boarding.computer import computer
from referee.broadsides_boarding.views import view_for


@pytest.fixture
def schemas(client):
    found = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    named = {"Options": "GameOptions"}  # as the Naval War Game's are named
    return {name: jsonschema_rs.validator_for(_json_schema(
        found["BroadsidesBoarding" + named.get(name, name)]))
            for name in ("Options", "Disposition", "Move", "Report", "View", "Catalogue")}


def valid(validator, document) -> bool:
    errors = list(validator.iter_errors(document))[:1]
    assert not errors, errors
    return True


def test_bb26_the_orders_reports_and_views_of_whole_games_are_the_openapi_documents(schemas):
    assert valid(schemas["Options"], {"rules": "broadsides-boarding", "move_minutes": 5})
    assert valid(schemas["Disposition"], {"captain": "D4"})
    assert not schemas["Disposition"].is_valid({"captain": "D4", "crew": "B3"})
    assert not schemas["Disposition"].is_valid({"captain": "Z9"})
    assert not schemas["Move"].is_valid({"kind": "plot", "stage": 1, "cards": ["forward"]})
    assert not schemas["Move"].is_valid({"kind": "fire", "stage": 1})
    kinds = set()
    for seed in range(3):
        game = in_play()
        players = {seat: computer("gunner", seed) for seat in ("red", "blue")}
        for _ in range(400):
            if game.phase != "play":
                break
            for seat in list(view_for(game, "red")["owes"]):
                view = view_for(game, seat)
                if view["legal"] is None:
                    continue
                order = players[seat].move(view)
                assert valid(schemas["Move"], order)
                kinds.add(order["kind"])
                game.move(seat, order)
                for reader in ("red", "blue"):
                    assert valid(schemas["View"], view_for(game, reader))
        for report in view_for(game, "red")["reports"]:
            assert valid(schemas["Report"], report)
    assert {"plot", "declaration"} <= kinds


def test_bb26_the_rules_catalogue_is_the_openapi_document_s(schemas, client):
    rules = client.get("/api/v1/rules").get_json()["rule_sets"]
    catalogue = next(r["catalogue"] for r in rules if r["rules"] == "broadsides-boarding")
    assert valid(schemas["Catalogue"], catalogue)
