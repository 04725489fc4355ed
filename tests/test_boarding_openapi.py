"""BB26: Broadsides and Boarding Parties' documents are the OpenAPI document's: the orders a
player sends fit its Move schema and the rest do not, and every report and view the server
gives while a game is played through the API fits its Report and View schemas."""

from __future__ import annotations

import jsonschema_rs
from apiclient import Api, FlaskTransport
from contract_support import make_app
from rule_set_tables import table_in_play

RULES = "broadsides-boarding"
NAMES_OF_ENDS = ("sunk", "all-lost", "captain", "resigned")


def _json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema's null type, to check documents with (beside
    a type, or an ``anyOf`` of objects: a view's ``legal``, null when nothing is owed)."""
    if isinstance(node, dict):
        node = {k: _json_schema(v) for k, v in node.items()}
        node.pop("example", None)
        if node.pop("nullable", False):
            if "type" not in node:
                return {"anyOf": [node, {"type": "null"}]}
            node["type"] = [node["type"], "null"]
        return node
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    return node


def test_bb26_the_documents_are_the_openapi_document_s(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    found = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    schemas = {name: jsonschema_rs.validator_for(_json_schema(
        found["BroadsidesBoarding" + {"Options": "GameOptions"}.get(name, name)]))
        for name in ("Options", "Disposition", "Move", "Report", "View")}
    assert schemas["Options"].is_valid({"rules": RULES, "move_minutes": 5})
    assert schemas["Disposition"].is_valid({"captain": "D4"})
    assert not schemas["Disposition"].is_valid({"captain": "D4", "crew": 3})
    for order in ({"kind": "plot", "stage": 4, "cards": ["forward", "starboard", "damaged"]},
                  {"targets": {"B5": "C", "C5": None}}, {"standing": True},
                  {"kind": "boarding", "moves": [{"from": "B5", "to": "their C3"}]},
                  {"promote": "D4"}):
        assert schemas["Move"].is_valid(order), order
    for order in ({"cards": ["forward", "sideways", "stay"]}, {"targets": {"B5": "Z"}},
                  {"standing": True, "targets": {}}, {"kind": "plot", "promote": "D4"}):
        assert not schemas["Move"].is_valid(order), order
    for _ in range(5):  # the referee's dice come from a server secret (BB24): a game that
        # ended within 20 orders, by the dice, is played again for documents enough
        table = table_in_play(Api(FlaskTransport(client)), RULES, move_minutes=5)
        for n in range(61):
            if n == 60 and table.turn() is not None:  # long enough: Red surrenders (BB23)
                assert table.call("red", "POST", "/resign")[0] == 200
            over = table.turn() is None
            for seat in table.tokens if n % 6 == 0 or over else ():
                view = table.view(seat)
                assert schemas["View"].is_valid(view), list(
                    schemas["View"].iter_errors(view))[:1]
            if over:
                break
            status, report = table.move()
            assert status == 201, report
            assert schemas["Report"].is_valid(report), list(
                schemas["Report"].iter_errors(report))[:1]
        if n > 20:
            break
    assert n > 20 and view["phase"] == "over" and "revealed" in view, (n, view["phase"])
    assert view["dice"]["secret"] and view["result"]["reason"] in NAMES_OF_ENDS
