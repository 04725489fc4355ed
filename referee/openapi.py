"""The OpenAPI 3 description of the JSON API (API.md v1, with the host's endpoints)."""

from __future__ import annotations

from typing import Any

from . import rulesets
from .common.documents import HostStatus, Json, ResultDocument
from .common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MAX_NAME, MIN_MINUTES
from .common.schema import json_schema
from .service import export_format

SQUARE = {"type": "string", "pattern": r"^\s*[A-Ua-u]\s*([1-9]|1[0-9]|2[01])\s*$",
          "example": "K 10", "description": "A square of the chart, column then row (R1)"}
COUNTS = {"type": "object", "additionalProperties": {"type": "integer"}}
NULLABLE_STR = {"type": "string", "nullable": True}


def ref(name: str) -> Json:
    return {"$ref": f"#/components/schemas/{name}"}


def _rules_schemas() -> Json:
    """The catalogue of GET /api/v1/rules, described from the catalogue itself."""
    integer, string = {"type": "integer"}, {"type": "string"}
    bounds = {"type": "object", "required": ["min", "max"], "properties": {
        "min": integer, "max": integer, "default": integer}}
    piece = {"type": "object", "required": ["name", "plural", "price", "group"], "properties": {
        "name": string, "plural": string, "price": integer,
        "letter": {"type": "string", "nullable": True},
        "group": {"type": "string", "enum": ["ship", "aircraft", "gun", "salvo"]},
        "length": integer, "score": integer, "turns": {"type": "boolean"},
        "on": {"type": "string", "enum": ["land", "land or carrier"]},
        "shape": {"type": "array", "description": "(column, row) offsets from the named "
                  "square lying across; down swaps them (R7)",
                  "items": {"type": "array", "items": integer, "minItems": 2, "maxItems": 2}}}}
    return {
        "Catalogue": {"type": "object", "required": [
            "order", "pieces", "weapons", "budget", "limits", "board"], "properties": {
            "order": {"type": "array", "items": {"type": "string"},
                      "description": "Every kind of piece, in the budget's order"},
            "pieces": {"type": "object", "additionalProperties": piece},
            "weapons": {"type": "object", "additionalProperties": {
                "type": "object", "properties": {"name": string, "radius": integer,
                                                 "shots": integer}}},
            "gun": {"type": "object", "properties": {"radius": integer}},
            "budget": {"type": "object", "properties": {k: integer for k in (
                "total", "min_ships", "min_forces", "max_atom_bombers")}},
            "limits": {"type": "object", "properties": {
                "name_length": integer, "minutes": bounds, "move_minutes": bounds,
                "clock_extension": bounds, "record_pages": bounds}},
            "board": {"type": "object", "properties": {
                "size": integer, "columns": string, "land_unit": integer}}}},
        "RuleSets": {"type": "object", "required": ["rule_sets"], "properties": {
            "rule_sets": {"type": "array", "items": {
                "type": "object", "required": ["rules", "name", "catalogue"], "properties": {
                    "rules": {"type": "string", "enum": list(rulesets.RULE_SETS)},
                    "name": string, "catalogue": ref("Catalogue"),
                    "levels": {"type": "object", "additionalProperties": string,
                               "description": "The computer's levels, each described"}}}}}},
    }


def seat() -> Json:
    """A seat: one of the registered rule sets' seats (``rulesets.SEATS``), read as the
    document is made (``rulesets.register`` may add a rule set)."""
    return {"type": "string", "enum": list(rulesets.SEATS)}


def names() -> dict[str, list[str]]:
    """The values of each kind the documents' types name (``common.schema.Named``), from the
    registry: every seat, every rule set, every reason a game may end by."""
    return {"seat": list(rulesets.SEATS), "rules": list(rulesets.RULE_SETS),
            "end_reason": list(rulesets.end_reasons())}


def _derived() -> Json:
    """The documents the referee gives, made from their types (``common.schema``), each a
    component of its name: every game's result and host status, and the default rule set's
    view, report and record (its ``RuleSet.documents``); where one holds another it refers to
    its component."""
    derived = {"Result": ResultDocument, "HostStatus": HostStatus,
               **rulesets.named(rulesets.DEFAULT).documents}
    refs: dict[object, str] = {hint: name for name, hint in derived.items()}
    made = {name: json_schema(hint, refs=refs, names=names()) for name, hint in derived.items()}
    made["Result"]["nullable"] = True  # null until the game is over, wherever it is given
    return made


def _schemas() -> Json:
    a_seat = seat()
    return {
        **_derived(),
        **_rules_schemas(),
        "Error": {"type": "object", "required": ["rule", "message", "squares"], "properties": {
            "rule": {"type": "string", "description": "The ruling broken (R1-R25), or "
                                                      "'request' for a malformed request"},
            "message": {"type": "string"}, "squares": {"type": "array", "items": SQUARE},
            "field": {"type": "string"}}},
        "Errors": {"type": "object", "required": ["errors"], "properties": {
            "errors": {"type": "array", "items": ref("Error")}}},
        "GameOptions": {"type": "object", "additionalProperties": False, "properties": {
            "rules": {"type": "string", "enum": [rulesets.DEFAULT], "default": rulesets.DEFAULT,
                      "description": "The rule set the game plays (GET /api/v1/rules): "
                                     "these are the default rule set's options (the first "
                                     "listed there); another rule set's game names it and "
                                     "takes its own options"},
            "seats": {"type": "integer", "minimum": 2, "maximum": 4, "default": 2},
            "alliances": {
                "description": "R23: false (every seat for itself), true (four seats: the "
                               "first and third against the second and fourth), or a list "
                               "of sides, each a list of seats, every seat in exactly one "
                               "side, at least two sides: two against one, say",
                "default": False,
                "oneOf": [{"type": "boolean"},
                          {"type": "array", "minItems": 2, "maxItems": 4,
                           "items": {"type": "array", "minItems": 1, "maxItems": 3,
                                     "uniqueItems": True, "items": a_seat}}]},
            "disposition_minutes": {"type": "integer", "minimum": MIN_MINUTES,
                                    "maximum": MAX_MINUTES, "default": DEFAULT_MINUTES},
            "move_minutes": {"type": "integer", "minimum": MIN_MINUTES, "maximum": MAX_MINUTES,
                             "nullable": True, "default": None,
                             "description": "The move clock (R25); null: none"},
            "bots": {"type": "object", "additionalProperties": {"type": "string"}}}},
        "CreatedGame": {"type": "object", "required": ["id", "host_token", "seats"],
                        "properties": {
            "id": {"type": "string"}, "host_token": {"type": "string"},
            "seats": {"type": "object", "additionalProperties": {
                "type": "object", "properties": {"join_code": {"type": "string"},
                                                 "join_url": {"type": "string"}}}}}},
        "Claim": {"type": "object", "required": ["join_code", "name"], "properties": {
            "join_code": {"type": "string"}, "name": {"type": "string", "maxLength": MAX_NAME}}},
        "Token": {"type": "object", "required": ["token"],
                  "properties": {"token": {"type": "string"},
                                 "recovery_code": {"type": "string",
                                                   "description": "Shown once (R24)"}}},
        "RecoveryCode": {"type": "object", "required": ["recovery_code"], "properties": {
            "recovery_code": {"type": "string", "minLength": 1, "maxLength": 64}}},
        "HandOver": {"type": "object", "required": ["seat"], "properties": {"seat": a_seat}},
        "Disposition": {"type": "object", "additionalProperties": False, "properties": {
            "land": {"type": "array", "items": SQUARE,
                     "description": "Top-left square of each 3 x 3 land unit (R6)"},
            "ships": {"type": "array", "items": {
                "type": "object", "required": ["type", "at"], "properties": {
                    "type": {"type": "string", "enum": ["carrier", "battleship", "cruiser",
                                                        "destroyer", "submarine"]},
                    "at": SQUARE, "dir": {"type": "string", "enum": ["across", "down"]}}}},
            "aircraft": {"type": "array", "items": {
                "type": "object", "required": ["type", "at"], "properties": {
                    "type": {"type": "string", "enum": ["atom-bomber", "bomber", "recon"]},
                    "at": SQUARE}}},
            "guns": {"type": "array", "items": SQUARE},
            "salvoes": {"type": "integer", "minimum": 0}}},
        "Cost": {"type": "object", "properties": {
            "cost": {"type": "object", "properties": {k: {"type": "integer"} for k in (
                "ships", "forces", "total", "unspent")}},
            "warnings": {"type": "array", "items": ref("Error")}}},
        "Move": {"type": "object", "required": ["weapon", "at"], "additionalProperties": False,
                 "properties": {
            "weapon": {"type": "string", "enum": ["atom-bomber", "bomber", "recon", "salvo"]},
            "from": SQUARE,
            "at": {"oneOf": [SQUARE, {"type": "array", "items": SQUARE, "minItems": 1,
                                      "maxItems": 3}]},
            "target": a_seat}},
        "StandInLevel": {"type": "object", "required": ["level"], "properties": {
            "level": {"type": "string"}}},
        "Postmortem": {"type": "object", "required": ["result", "spending", "hindsight"],
                       "properties": {"id": {"type": "string"}, "result": ref("Result"),
                                      "spending": {"type": "object"},
                                      "hindsight": {"type": "object"}}},
        "GameFile": {"type": "object", "required": ["format", "version", "rules", "events"],
                     "properties": {
            "format": {"type": "string",
                       "enum": [export_format(rules) for rules in rulesets.RULE_SETS]},
            "version": {"type": "integer", "enum": [1]},
            "rules": {"type": "string", "enum": list(rulesets.RULE_SETS)},
            "id": {"type": "string"}, "exported_at": {"type": "number"},
            "fingerprints": {"type": "object"}, "salts": {"type": "object"},
            "result": ref("Result"), "events": {"type": "array", "items": {"type": "object"}},
            "signature": {"type": "object", "required": ["algorithm", "public_key", "value"],
                          "additionalProperties": False,
                          "description": "The exporting referee's Ed25519 signature of the "
                                         "file without this member (docs/api.md, \"Signed "
                                         "files and the club's records\")",
                          "properties": {
                "algorithm": {"type": "string", "enum": ["Ed25519"]},
                "public_key": {"type": "string", "minLength": 44, "maxLength": 44},
                "value": {"type": "string", "minLength": 88, "maxLength": 88}}}}},
        "Imported": {"type": "object", "required": ["id", "seats", "signer", "counted"],
                     "properties": {
            "id": {"type": "string"}, "seats": {"type": "object"},
            "signer": {"type": "string", "nullable": True,
                       "description": "The public key whose valid signature the file carried"},
            "counted": {"type": "boolean",
                        "description": "Whether the game counts in the club's records: its "
                                       "file was signed by this referee or a trusted one"}}},
        "Minutes": {"type": "object", "required": ["minutes"], "properties": {
            "minutes": {"type": "integer", "minimum": 1}}},
        "JoinCode": {"type": "object", "properties": {
            "seat": a_seat, "join_code": {"type": "string"}, "join_url": {"type": "string"}}},
    }


def _response(description: str, schema: str | None = None) -> Json:
    doc: Json = {"description": description}
    if schema:
        doc["content"] = {"application/json": {"schema": ref(schema)}}
    return doc


ERRORS = {
    "400": _response("Malformed request", "Errors"),
    "401": _response("Missing or unknown token", "Errors"),
    "403": _response("A token of another game or seat", "Errors"),
    "404": _response("Unknown game", "Errors"),
}


def _op(summary: str, ok: tuple[str, str, str | None], *, body: str | None = None,
        secure: bool = True, extra: Json | None = None, params: list[Any] | None = None) -> Json:
    doc: Json = {"summary": summary,
                 "responses": {ok[0]: _response(ok[1], ok[2]), **ERRORS, **(extra or {})}}
    if body:
        doc["requestBody"] = {"required": True,
                              "content": {"application/json": {"schema": ref(body)}}}
    if not secure:
        doc["security"] = []
    if params:
        doc["parameters"] = params
    return doc


LAST_EVENT_ID = {"name": "Last-Event-ID", "in": "header", "required": False,
                 "description": "The version last received: the stream sends the document "
                                "at once only if the game has moved on since",
                 "schema": {"type": "string"}}


def _socket_op() -> Json:
    """A seat's socket: a WebSocket handshake answered 101 (``referee.sockets``)."""
    headers = [{"name": name, "in": "header", "required": True, "schema": schema}
               for name, schema in (("Upgrade", {"type": "string", "enum": ["websocket"]}),
                                    ("Sec-WebSocket-Version", {"type": "string",
                                                               "enum": ["13"]}),
                                    ("Sec-WebSocket-Key", {"type": "string"}))]
    doc = _op("A seat's socket (WebSocket): its view pushed at each new version and its "
              "moves taken, each a JSON message (docs/api.md, A seat's socket)",
              ("101", "Switching Protocols: the WebSocket", None),
              params=[GAME_ID, LAST_EVENT_ID, *headers],
              extra={"426": _response("Another WebSocket version than 13", "Errors"),
                     "429": _response("This address holds too many streams", "Errors"),
                     "503": _response("This server holds no sockets, or as many streams as "
                                      "it can: use the stream and the moves route",
                                      "Errors")})
    return doc


def _stream_op(summary: str, *, optional_token: bool = False) -> Json:
    """A stream: ``text/event-stream``, each event's id the game's version."""
    doc = _op(summary, ("200", "", None), params=[GAME_ID, LAST_EVENT_ID],
              extra={"429": _response("This address holds too many streams", "Errors"),
                     "503": _response("The referee holds as many streams as it can: poll",
                                      "Errors")})
    doc["responses"]["200"] = {
        "description": "An event stream: `id` the version, `event` view, public or host, "
                       "`data` the document as JSON; a ping every 15 s",
        # OpenAPI 3.0 has no keyword for one event of a stream: the schema is each event's
        "content": {"text/event-stream": {"schema": {
            "type": "object", "required": ["data"], "properties": {
                "id": {"type": "string", "pattern": "^[0-9]+$",
                       "description": "The game's version the document is at"},
                "event": {"type": "string", "enum": ["view", "public", "host", "ping"]},
                "data": {"type": "string", "description": "The document as JSON (a view, "
                                                          "the public status or the host "
                                                          "status), or 0 for a ping"},
                "retry": {"type": "integer"}}}}}}
    if optional_token:
        doc["security"] = [{"bearer": []}, {}]
    return doc


GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
def seat_param() -> Json:
    return {"name": "seat", "in": "path", "required": True, "schema": seat()}
CONFLICT = {"409": _response("Not your turn, not in this phase, or seat taken", "Errors")}
ILLEGAL = {"422": _response("Breaks a ruling; every problem listed", "Errors")}


JSON_ONLY = {"415": _response("A body sent with a Content-Type other than application/json",
                             "Errors")}


def openapi_document() -> Json:
    """The document; every POST and PUT says it takes application/json only (415 else)."""
    document = _document()
    for operations in document["paths"].values():
        for method in ("post", "put"):
            if method in operations:
                operations[method]["responses"].update(JSON_ONLY)
    return _every_rule_set(document)


# the Naval War Game's schema of a document, and what each other rule set calls its own
PER_RULE_SET = {"GameOptions": "Options", "Disposition": "Disposition", "Move": "Move",
                "Report": "Report", "View": "View", "Catalogue": "Catalogue"}


def _every_rule_set(document: Json) -> Json:
    """Each other rule set's documents beside the Naval War Game's: its schemas under its
    own prefix (``BattleshipTcgDisposition``), and wherever an operation reads or answers one
    of those documents, any one of them, each rule set's (``anyOf``: a document may fit more
    than one rule set's schema, as ``{}`` fits every game's options)."""
    schemas = document["components"]["schemas"]
    choices = {name: [ref(name)] for name in PER_RULE_SET}
    for rules, rule_set in rulesets.RULE_SETS.items():
        prefix = "".join(word.title() for word in rules.split("-"))
        own = rule_set.schemas()
        for name, theirs in PER_RULE_SET.items():
            if theirs in own:
                schemas[prefix + name] = own[theirs]
                choices[name].append(ref(prefix + name))

    def one_of(node: object) -> object:
        if isinstance(node, dict):
            target = node.get("$ref", "").removeprefix("#/components/schemas/")
            if len(node) == 1 and len(choices.get(target, ())) > 1:
                return {"anyOf": choices[target]}
            return {key: one_of(value) for key, value in node.items()}
        if isinstance(node, list):
            return [one_of(item) for item in node]
        return node

    document["paths"] = one_of(document["paths"])
    catalogue = schemas["RuleSets"]["properties"]["rule_sets"]["items"]["properties"]
    catalogue["catalogue"] = one_of(catalogue["catalogue"])
    return document


def _document() -> Json:
    game = [GAME_ID]
    return {
        "openapi": "3.0.3",
        "info": {"title": "The referee: " + ", ".join(
                     rule_set.title for rule_set in rulesets.RULE_SETS.values()), "version": "1",
                 "description": "The JSON contract of API.md. Rulings are cited as R1-R25. "
                                "Every POST and PUT takes Content-Type: application/json "
                                "only (415 otherwise)."},
        "components": {"schemas": _schemas(), "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearer": []}],
        "paths": {
            "/api/v1/games": {"post": {**_op(
                "Create a game", ("201", "The game, its host token and join codes",
                                  "CreatedGame"), secure=False, extra=ILLEGAL),
                "requestBody": {"required": False, "content": {
                    "application/json": {"schema": ref("GameOptions")}}}}},
            "/api/v1/games/{game_id}": {"get": _op(
                "A player's view of the game (R21)", ("200", "The view", "View"), params=game,
                extra={"304": _response("Nothing changed since the ETag given")})},
            "/api/v1/games/{game_id}/stream": {"get": _stream_op(
                "The game's new versions as they are committed (Server-Sent Events, "
                "docs/api.md): with a player's token his view at each version (events named "
                "view, R21); with no token the game's public status (public)",
                optional_token=True)},
            "/api/v1/games/{game_id}/seats/{seat}": {"post": _op(
                "Claim a seat with its join code", ("200", "The seat's token", "Token"),
                body="Claim", secure=False, params=[GAME_ID, seat_param()],
                extra={**CONFLICT, **ILLEGAL})},
            "/api/v1/games/{game_id}/disposition": {"put": _op(
                "Submit a draft disposition (R3-R9)", ("200", "Its cost and warnings", "Cost"),
                body="Disposition", params=game, extra={**CONFLICT, **ILLEGAL})},
            "/api/v1/games/{game_id}/ready": {"post": _op(
                "Lock in the disposition (R10); the last one in starts the toss (R11)",
                ("200", "The view", "View"), params=game, extra=CONFLICT)},
            "/api/v1/games/{game_id}/moves": {"post": _op(
                "Make a move (R12-R19)", ("201", "Your copy of the report (R20)", "Report"),
                body="Move", params=[GAME_ID, {"name": "Idempotency-Key", "in": "header",
                                               "required": False,
                                               "schema": {"type": "string", "maxLength": 200}}],
                extra={**CONFLICT, **ILLEGAL})},
            "/api/v1/games/{game_id}/record": {"get": _op(
                "The move record as you may see it (R20, R21)", ("200", "The record", "Record"),
                params=game)},
            "/api/v1/games/{game_id}/end": {"post": _op(
                "Agree to end the game (R14)", ("200", "The view", "View"), params=game,
                extra=CONFLICT)},
            "/api/v1/games/{game_id}/seats/{seat}/recover": {"post": _op(
                "Move a seat to this device with its recovery code (R24); a fresh code",
                ("200", "The seat's new token and recovery code", "Token"),
                body="RecoveryCode", secure=False, params=[GAME_ID, seat_param()],
                extra={"429": _response("Too many wrong codes: wait", "Errors")})},
            "/api/v1/games/{game_id}/seats/{seat}/stand-in": {"post": _op(
                "An opponent lets the computer play a seat whose move clock ran out (R25)",
                ("200", "The view", "View"), params=[GAME_ID, seat_param()], extra=CONFLICT)},
            "/api/v1/games/{game_id}/play-on": {"post": _op(
                "Decline another player's offer to end the game (R14)",
                ("200", "The view", "View"), params=game, extra=CONFLICT)},
            "/api/v1/games/{game_id}/host/handover": {"post": _op(
                "Host: hand the host's powers to a player's seat; the host token stops (R24)",
                ("200", "Status", "HostStatus"), body="HandOver", params=game,
                extra=CONFLICT)},
            "/api/v1/games/{game_id}/resign": {"post": _op(
                "Resign (R14)", ("200", "The view", "View"), params=game, extra=CONFLICT)},
            "/api/v1/games/{game_id}/postmortem": {"get": _op(
                "After the end: what each weapon bought (spending) and hindsight",
                ("200", "The post-mortem", "Postmortem"), params=game, extra=CONFLICT)},
            "/api/v1/games/{game_id}/export": {"get": _op(
                "A finished game as one file: events, fingerprints, salts, result",
                ("200", "The game file", "GameFile"), params=game, extra=CONFLICT)},
            "/api/v1/games/import": {"post": _op(
                "Import a game file; it is replayed and every claim checked, its signature "
                "too; it counts in the club's records only if this referee or a trusted one "
                "signed it",
                ("201", "The new game's id, a token per seat, its signer and whether it counts",
                 "Imported"), body="GameFile",
                secure=False, extra={**ILLEGAL, "429": _response(
                    "Too many game files from this address: wait Retry-After seconds",
                    "Errors")})},
            "/api/v1/games/{game_id}/host": {"get": _op(
                "The host's status of the game", ("200", "Status", "HostStatus"), params=game)},
            "/api/v1/games/{game_id}/socket": {"get": _socket_op()},
            "/api/v1/games/{game_id}/host/stream": {"get": _stream_op(
                "The host's status at each new version (Server-Sent Events named host)")},
            "/api/v1/games/{game_id}/clock": {"post": _op(
                "Host: give more time for dispositions (R10)", ("200", "Status", "HostStatus"),
                body="Minutes", params=game, extra={**CONFLICT, **ILLEGAL})},
            "/api/v1/games/{game_id}/seats/{seat}/reissue": {"post": _op(
                "Host: a new join code for a seat that has not locked in, never a computer's, "
                "revoking its token (R24)",
                ("200", "The new join code", "JoinCode"), params=[GAME_ID, seat_param()],
                extra=CONFLICT)},
            "/api/v1/games/{game_id}/stand-in-level": {"post": _op(
                "Host: the level of the computer that stands in for an absent player, one of "
                "the rule set's levels (R25)", ("200", "Status", "HostStatus"),
                body="StandInLevel", params=game, extra={**CONFLICT, **ILLEGAL})},
            "/api/v1/games/{game_id}/seats/{seat}/forfeit": {"post": _op(
                "Host: forfeit a seat that has not locked in once the clock ran out (R10)",
                ("200", "Status", "HostStatus"), params=[GAME_ID, seat_param()],
                extra=CONFLICT)},
            "/api/v1/rules": {"get": _op(
                "The rule sets the referee plays, each with its catalogue: pieces, weapons, "
                "budget (R3, R4), limits and board", ("200", "The rule sets", "RuleSets"),
                secure=False)},
            "/api/v1/openapi.json": {"get": _op(
                "This document", ("200", "OpenAPI 3", None), secure=False)},
        },
    }
