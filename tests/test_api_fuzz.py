"""Malformed requests of every kind get a 4xx in the error format of API.md, never a 500:
first by hand, field by field, then generated from the OpenAPI document by schemathesis
against a game in setup and a game in play, with valid tokens."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
import schemathesis
from api_support import assert_errors, table_in_play
from apiclient import Api, FlaskTransport, TableGame, open_table
from helpers import ATTACKER, IDLE_SQUARES, QUIET
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from werkzeug.exceptions import MethodNotAllowed

from referee import create_app, strictjson

WRONG_TYPES = [None, True, False, 0, -1, 2.5, 10**30, "", "x", "K 10", [], ["K 10"], {},
               {"type": "bomber"}]
BAD_SQUARES = ["V 1", "A 22", "A 0", "A 100", "AA 1", "1 A", "K", "10", "", " ", "K 1 0",
               "K-10", "K 10.5", "é 3", "\u0000", "K\n10x", "<script>"]


def refused(status: int, body, *, field: str | None = None) -> list[dict]:
    """A 4xx in the error format of API.md; with ``field``, naming that field (or a part of
    it, like ships[0].at) in some error, or else a ruling."""
    assert 400 <= status < 500, (status, body)
    errors = assert_errors(status, body, status)
    if field is not None:
        named = [e.get("field") or "" for e in errors]
        assert any(f == field or f.startswith((f"{field}[", f"{field}.")) for f in named), (
            field, body)
    return errors


@pytest.fixture
def setup_table(api) -> TableGame:
    return open_table(api)


@pytest.fixture
def three_in_play(api) -> TableGame:
    """Three seats in play, each with the aircraft of ATTACKER (bombers on A 2-F 2)."""
    return table_in_play(api, {"red": ATTACKER, "blue": ATTACKER, "green": ATTACKER})


def body_endpoints(table: TableGame) -> list[tuple[str, str, str | None]]:
    """(method, path, token) of every endpoint that reads a body."""
    return [
        ("POST", "/api/v1/games", None),
        ("POST", table.path("/seats/red"), None),
        ("PUT", table.path("/disposition"), table.tokens["red"]),
        ("POST", table.path("/moves"), table.tokens["red"]),
        ("POST", table.path("/clock"), table.host_token),
    ]


# -- bodies that are not JSON objects -----------------------------------------------------

NOT_OBJECTS = [b"{", b"not json", b" ", b"\r\n", b"\xff\xfe\x00", b"[1, 2]", b'"a string"',
               b"42", b"null", b"true", b'{"a": ', b"{'seats': 2}", b'{"seats": 2}{"seats": 3}',
               b"[" * 20000 + b"]" * 20000,
               b'{"a":' * 10000 + b"1" + b"}" * 10000, b'{"name": "\\ud800"}',
               b'{"join_code": "\\udfff", "name": "x"}', b"\x00" * 100,
               # a lone surrogate however the text carries it: UTF-16 and UTF-32 (whose ASCII
               # is not ASCII bytes), and a surrogate's own bytes in UTF-8
               '{"name": "\\ud800"}'.encode("utf-16"), '{"name": "\\udfff"}'.encode("utf-32-le"),
               b'{"name": "\xed\xa0\x80"}']


@pytest.mark.parametrize("raw", NOT_OBJECTS, ids=range(len(NOT_OBJECTS)))
def test_a_body_that_is_not_a_json_object_is_400(api, setup_table, raw):
    for method, path, token in body_endpoints(setup_table):
        status, body, _ = api.call(method, path, raw, token=token)
        refused(status, body, field="body")
        assert status == 400, (method, path, body)


def test_a_missing_body_is_400_where_one_is_needed(api, setup_table):
    for method, path, token in body_endpoints(setup_table)[1:]:
        status, body, _ = api.call(method, path, b"", token=token)
        refused(status, body, field="body")
    status, body, _ = api.call("POST", "/api/v1/games", b"")
    assert status == 201, body  # every option of a new game has a default


def test_a_body_over_64_kib_is_413(api, setup_table):
    big = json.dumps({"land": ["A 1"] * 20000}).encode()
    assert len(big) > 64 * 1024
    for method, path, token in body_endpoints(setup_table):
        status, body, _ = api.call(method, path, big, token=token)
        assert_errors(status, body, 413)


def test_a_body_just_under_64_kib_is_read(api, setup_table):
    document = {"land": ["A 1"] * 8000}
    assert len(json.dumps(document)) < 64 * 1024
    status, body, _ = setup_table.as_seat("red", "PUT", "/disposition", document)
    refused(status, body, field="land")


# -- wrong types, field by field --------------------------------------------------------------

@pytest.mark.parametrize("field", ["seats", "alliances", "disposition_minutes", "bots"])
@pytest.mark.parametrize("value", WRONG_TYPES, ids=repr)
def test_create_with_a_wrong_type(api, field, value):
    status, body, _ = api.call("POST", "/api/v1/games", {field: value})
    good = [("alliances", False), ("seats", 2), ("disposition_minutes", 1), ("bots", {})]
    if status == 201:  # the few that are good values (of the right type: True is not 1)
        assert any((f, type(v), v) == (field, type(value), value) for f, v in good), (
            field, value)
        return
    refused(status, body, field=field)


@pytest.mark.parametrize("value", WRONG_TYPES, ids=repr)
def test_claim_with_a_wrong_type(api, value):
    _, created, _ = api.call("POST", "/api/v1/games", {})
    code = created["seats"]["red"]["join_code"]
    path = f"/api/v1/games/{created['id']}/seats/red"
    status, body, _ = api.call("POST", path, {"join_code": value, "name": "Ann"})
    if isinstance(value, str) and value:
        assert_errors(status, body, 403, field="join_code")
    else:
        refused(status, body, field="join_code")
    status, body, _ = api.call("POST", path, {"join_code": code, "name": value})
    if isinstance(value, str) and value.strip():
        assert status == 200, body
    else:
        refused(status, body, field="name")


def _disposition_with(path: tuple, value) -> dict:
    document = json.loads(json.dumps(ATTACKER))
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return document


DISPOSITION_FIELDS = {  # where each field is in a document, and the JSON type it has
    "land": (("land",), list), "land[0]": (("land", 0), str), "ships": (("ships",), list),
    "ships[0]": (("ships", 0), dict), "ships[0].type": (("ships", 0, "type"), str),
    "ships[0].at": (("ships", 0, "at"), str), "ships[0].dir": (("ships", 0, "dir"), str),
    "aircraft": (("aircraft",), list), "aircraft[0]": (("aircraft", 0), dict),
    "aircraft[0].type": (("aircraft", 0, "type"), str),
    "aircraft[0].at": (("aircraft", 0, "at"), str), "guns": (("guns",), list),
    "salvoes": (("salvoes",), int),
}


def _right_type(value, kind: type) -> bool:
    return isinstance(value, kind) and not (kind is int and isinstance(value, bool))


@pytest.mark.parametrize("field", list(DISPOSITION_FIELDS))
def test_disposition_with_a_wrong_type(setup_table, field):
    where, kind = DISPOSITION_FIELDS[field]
    for value in WRONG_TYPES:
        document = _disposition_with(where, value)
        status, body, _ = setup_table.as_seat("red", "PUT", "/disposition", document)
        if _right_type(value, kind):  # a value of the right type may be right, or break R4-R9
            assert status == 200 or refused(status, body) and status == 422, body
            continue
        errors = refused(status, body, field=field)
        assert status == 422, body
        assert all(re.fullmatch(r"R\d+", e["rule"]) for e in errors), errors


@pytest.mark.parametrize("square", BAD_SQUARES, ids=repr)
def test_squares_off_the_chart_or_misspelt(api, setup_table, three_in_play, square):
    for field in ("land[0]", "ships[0].at", "aircraft[0].at"):
        document = _disposition_with(DISPOSITION_FIELDS[field][0], square)
        status, body, _ = setup_table.as_seat("red", "PUT", "/disposition", document)
        refused(status, body, field=field)
        assert status == 422 and "R1" in [e["rule"] for e in body["errors"]], body
    status, body, _ = setup_table.as_seat("red", "PUT", "/disposition",
                                          {**ATTACKER, "guns": [square]})
    refused(status, body, field="guns")
    turn = three_in_play.view("red")["turn"]
    for move, field in (
        ({"weapon": "bomber", "from": "A 2", "at": square, "target": "red"}, "at"),
        ({"weapon": "bomber", "from": square, "at": "K 10", "target": "red"}, "from"),
        ({"weapon": "salvo", "at": ["A 1", square, "C 1"], "target": "red"}, "at"),
    ):
        if turn == "red":
            move["target"] = "blue"
        status, body, _ = three_in_play.as_seat(turn, "POST", "/moves", move)
        refused(status, body, field=field)
        assert status == 422 and "R1" in [e["rule"] for e in body["errors"]], body


def test_land_and_ships_that_run_off_the_chart(setup_table):
    for document, rule in (({**QUIET, "land": ["T 1"]}, "R6"), ({**QUIET, "land": ["A 20"]},
                           "R6"),
                           ({**QUIET, "ships": QUIET["ships"] + [
                               {"type": "battleship", "at": "S 1", "dir": "across"}]}, "R7"),
                           ({**QUIET, "ships": QUIET["ships"] + [
                               {"type": "carrier", "at": "U 1"}]}, "R7")):
        status, body, _ = setup_table.as_seat("red", "PUT", "/disposition", document)
        assert_errors(status, body, 422, rule=rule)


MOVE_BASES = {"salvo": {"weapon": "salvo", "at": IDLE_SQUARES},
              "bomber": {"weapon": "bomber", "from": "A 2", "at": "K 10"}}


@pytest.mark.parametrize("field", ["weapon", "from", "at", "at[0]", "target"])
@pytest.mark.parametrize("base", list(MOVE_BASES))
def test_move_with_a_wrong_type(three_in_play, field, base):
    table = three_in_play
    view = table.view("red")
    turn = view["turn"]
    target = next(s for s in view["order"] if s != turn)
    for value in WRONG_TYPES:
        move = {**MOVE_BASES[base], "target": target}
        if field == "at[0]":
            move["at"] = [value, *([] if base == "bomber" else IDLE_SQUARES[1:])]
        else:
            move[field] = value
        if (field, value) in [("at", "K 10"), ("at", ["K 10"])] and base == "bomber" \
                or (field, value) == ("at[0]", "K 10"):
            continue  # a square where a square goes; a bomber's "at" may be a list of one
        if field == "from" and base == "salvo" and value is None:
            continue  # a salvo has no "from"; null is leaving it out
        status, body, _ = table.as_seat(turn, "POST", "/moves", move)
        refused(status, body, field=field.split("[")[0])
        assert status == 422, (move, body)
    assert table.view("red")["version"] == view["version"]


def test_unknown_fields_are_named(api, setup_table, three_in_play):
    status, body, _ = api.call("POST", "/api/v1/games", {"seats": 2, "referee": "me"})
    refused(status, body, field="referee")
    status, body, _ = setup_table.as_seat("red", "PUT", "/disposition",
                                          {**QUIET, "mines": ["A 1"]})
    refused(status, body, field="mines")
    turn = three_in_play.view("red")["turn"]
    status, body, _ = three_in_play.as_seat(
        turn, "POST", "/moves", {"weapon": "salvo", "at": IDLE_SQUARES, "power": 9,
                                 "target": "green" if turn != "green" else "red"})
    refused(status, body, field="power")


@pytest.mark.parametrize("weapon", ["torpedo", "Bomber", "BOMBER", "atom bomber", "mine",
                                    "recon ", "aa-gun", "carrier", ""])
def test_unknown_weapons(three_in_play, weapon):
    view = three_in_play.view("red")
    status, body, _ = three_in_play.as_seat(
        view["turn"], "POST", "/moves",
        {"weapon": weapon, "from": "A 2", "at": "K 10",
         "target": next(s for s in view["order"] if s != view["turn"])})
    refused(status, body, field="weapon")
    assert status == 422 and "R12" in [e["rule"] for e in body["errors"]]


# -- methods, headers and paths -------------------------------------------------------------

def test_wrong_http_methods_are_405(app, api, setup_table):
    table = setup_table
    values = {"game_id": table.id, "seat": "red"}
    rules = [rule for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")]
    adapter = app.url_map.bind("localhost")
    assert len(rules) >= 13
    tried = 0
    for rule in rules:
        path = rule.rule
        for name, value in values.items():
            path = path.replace(f"<{name}>", value)
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
            try:  # a path another route serves with this method (GET /games/import) is not 405
                adapter.match(path, method=method)
                continue
            except MethodNotAllowed:
                pass
            status, body, _ = api.call(method, path, {}, token=table.tokens["red"])
            assert_errors(status, body, 405)
            tried += 1
    assert tried > 40


def test_a_very_long_or_empty_idempotency_key_is_400(three_in_play):
    turn = three_in_play.view("red")["turn"]
    move = {"weapon": "salvo", "at": IDLE_SQUARES,
            "target": "green" if turn != "green" else "red"}
    for key in ("k" * 201, "k" * 10_000, ""):
        status, body, _ = three_in_play.as_seat(turn, "POST", "/moves", move,
                                                headers={"Idempotency-Key": key})
        refused(status, body, field="Idempotency-Key")
        assert status == 400
    status, body, _ = three_in_play.as_seat(turn, "POST", "/moves", move,
                                            headers={"Idempotency-Key": "k" * 200})
    assert status == 201, body


@pytest.mark.parametrize("game_id", ["x" * 5000, "%00", "%ff%fe", "a%2Fb", "..", "'; drop"])
def test_odd_game_ids_are_404(api, setup_table, game_id):
    for tail in ("", "/record", "/moves", "/seats/red"):
        status, body, _ = api.call("GET" if tail in ("", "/record") else "POST",
                                   f"/api/v1/games/{game_id}{tail}", {},
                                   token=setup_table.tokens["red"])
        assert_errors(status, body, 404)


def test_odd_authorization_headers_are_401(api, setup_table):
    for header in ("Bearer " + "A" * 10_000, "Bearer \t", "bearer", "Bearer a b c",
                   "Bearer \u00e9\u00e8", "Basic Zm9vOmJhcg==", ","):
        status, body, _ = api.call("GET", setup_table.path(), headers={"Authorization": header})
        assert_errors(status, body, 401)


# -- generated from the OpenAPI document -----------------------------------------------------

class Tables:
    """A game in setup and a game in play over one app: a fresh one when a generated request
    ended it, and a seat claimed again when one reissued its join code."""

    def __init__(self, tmp_path) -> None:
        self.app = create_app({"TESTING": False, "DATABASE": str(tmp_path / "fuzz.db"),
                               "SECRET_KEY": "fuzz"})
        self.api = Api(FlaskTransport(self.app.test_client()))
        self.schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", self.app)
        self.tables: dict[str, TableGame] = {}

    def table(self, phase: str) -> TableGame:
        table = self.tables.get(phase)
        if table is None or self.phase(table) != phase:
            if phase == "setup":
                table = open_table(self.api)
                table.as_seat("red", "PUT", "/disposition", QUIET)
            else:
                table = table_in_play(self.api, {"red": ATTACKER, "blue": QUIET})
            self.tables[phase] = table
        return table

    def phase(self, table: TableGame) -> str:
        status, hosted, _ = self.api.call("GET", table.path("/host"), token=table.host_token)
        assert status == 200, hosted
        return hosted["phase"]

    def token(self, table: TableGame, role: str) -> str:
        return table.host_token if role == "host" else table.tokens[role]

    def after(self, table: TableGame, path: str, status: int, body: object) -> None:
        """A seat whose join code was reissued takes its seat again with the new code; a
        table whose hosting was handed to a seat (R24) is replaced by a fresh one."""
        if path.endswith("/host/handover") and status == 200:
            self.tables = {k: t for k, t in self.tables.items() if t is not table}
            return
        if path.endswith("/reissue") and status == 200:
            seat = body["seat"]
            status, claimed, _ = self.api.call("POST", table.path(f"/seats/{seat}"),
                                               {"join_code": body["join_code"], "name": "X"})
            assert status == 200, claimed
            table.tokens[seat] = claimed["token"]


@pytest.fixture
def tables(tmp_path) -> Tables:
    """A referee of its own for each test, so that no test starts from the games another's
    generated requests left behind."""
    return Tables(tmp_path)


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
                         ids=["positive", "negative"])
@pytest.mark.parametrize("phase", ["setup", "play"])
def test_generated_requests_never_get_a_500_and_answer_as_documented(tables, mode, phase):
    statuses: Counter = Counter()

    @settings(max_examples=150, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def one_request(data):
        table = tables.table(phase)
        role = data.draw(st.sampled_from(["red", "blue", "host"]), label="token of")
        case = data.draw(tables.schema.as_strategy(
            generation_mode=mode, path_parameters={"game_id": table.id},
            headers={"Authorization": f"Bearer {tables.token(table, role)}",
                     "Accept-Encoding": "identity"}), label="case")
        response = case.call()
        statuses[response.status_code] += 1
        assert response.status_code < 500, (case.method, case.formatted_path, case.body,
                                            response.text)
        checks = CHECKS + ([negative_data_rejection] if mode == GenerationMode.NEGATIVE else [])
        case.validate_response(response, checks=checks)
        if response.status_code >= 400:
            assert_errors(response.status_code, response.json(), response.status_code)
        tables.after(table, case.formatted_path, response.status_code,
                     response.json() if response.content else None)

    one_request()
    # the requests reached the game: valid tokens got answers, and bodies were judged
    assert sum(statuses.values()) >= 100, statuses
    if mode == GenerationMode.POSITIVE:
        assert any(200 <= s < 300 for s in statuses), statuses
    assert statuses[400] + statuses[409] + statuses[422] > 0, statuses


STRICT_TEXTS = [b'{"a": 1}', '{"a": 1}', b'\xef\xbb\xbf{"a": 1}', '\ufeff{"a": 1}',
                '{"a": "é"}'.encode("utf-16"), '{"a": [1.5]}'.encode("utf-32-be"),
                b'{"a": "\\u00e9"}', b'{"a": "\xc3\xa9"}', b'{"a": 1', "", b""]


@pytest.mark.parametrize("raw", STRICT_TEXTS, ids=range(len(STRICT_TEXTS)))
def test_strict_json_reads_every_text_as_json_loads_does(raw):
    """The referee's parser keeps one decoder for every call; what it takes and refuses
    (a byte-order mark in bytes, but not in a string; JSON's UTF-16 and UTF-32) is still
    exactly json.loads's."""
    try:
        expected = ("value", json.loads(raw))
    except ValueError as err:
        expected = ("refused", type(err))
    try:
        got = ("value", strictjson.loads(raw))
    except ValueError as err:
        got = ("refused", type(err))
    assert got == expected
