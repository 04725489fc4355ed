"""Broadside through the shared referee's JSON API.

The seam carries the third game end to end: created with ``"rules": "broadside"``, both
dispositions of B13 (every problem refused at once, by ruling), moves and their refusals (B5),
the view of B14 with its ``legal`` list, the reports of B11, the end, the record, the game file
out and back in, the post-mortem, the documents as the OpenAPI document describes them, and
nothing of Blue's secrets in anything Red receives before they are revealed (B12).
"""

from __future__ import annotations

import json
import random

import jsonschema_rs
import pytest
from apiclient import Api, FlaskTransport
from broadside_support import BATTERIES, BUOYS, blue_disposition, red_disposition

from referee.app import create_app

GAMES = "/api/v1/games"


def open_broadside(api: Api, **options) -> tuple[str, dict[str, str], str]:
    status, created, _ = api.call("POST", GAMES, {"rules": "broadside", **options})
    assert status == 201, created
    tokens = {}
    for seat, info in created["seats"].items():
        status, data, _ = api.call("POST", f"{GAMES}/{created['id']}/seats/{seat}",
                                   {"join_code": info["join_code"], "name": seat.title()})
        assert status == 200, data
        tokens[seat] = data["token"]
    return created["id"], tokens, created["host_token"]


def in_play(api: Api) -> tuple[str, dict[str, str]]:
    game_id, tokens, _ = open_broadside(api)
    for seat, document in (("red", red_disposition()), ("blue", blue_disposition())):
        status, body, _ = api.call("PUT", f"{GAMES}/{game_id}/disposition", document,
                                   token=tokens[seat], seat=seat)
        assert status == 200, body
    for seat in ("red", "blue"):
        status, view, _ = api.call("POST", f"{GAMES}/{game_id}/ready", token=tokens[seat],
                                   seat=seat)
        assert status == 200, view
    assert view["phase"] == "play" and view["turn"] == "red"
    return game_id, tokens


def view_of(api: Api, game_id: str, token: str, seat: str) -> dict:
    status, view, _ = api.call("GET", f"{GAMES}/{game_id}", token=token, seat=seat)
    assert status == 200, view
    return view


def play_out(api: Api, game_id: str, tokens: dict[str, str], rng: random.Random,
             max_moves: int = 2000) -> dict:
    """Both seats play random moves from their views' legal lists until the end."""
    for _ in range(max_moves):
        view = view_of(api, game_id, tokens["red"], "red")
        if view["phase"] == "over":
            return view
        seat = view["turn"]
        if seat != "red":
            view = view_of(api, game_id, tokens[seat], seat)
        status, report, _ = api.call("POST", f"{GAMES}/{game_id}/moves",
                                     rng.choice(view["legal"]), token=tokens[seat], seat=seat)
        assert status == 201, report
    raise AssertionError("the game did not end")


def test_b13_both_dispositions_through_the_api_every_problem_refused_at_once(api):
    game_id, tokens, _ = open_broadside(api)
    bad = blue_disposition({"F 6": "sink", "G 6": "sink", "H 6": "sink", "J 13": "sink",
                            "K 13": "pass", "D 13": "pass"}, {"A": "hit", "B": "hit",
                                                              "C": "hit", "D": "hit"})
    bad["ships"][0]["at"] = "I 19"
    status, body, _ = api.call("PUT", f"{GAMES}/{game_id}/disposition", bad,
                               token=tokens["blue"], seat="blue")
    assert status == 422, body
    said = {(e["rule"], e.get("field")) for e in body["errors"]}
    assert {("B3", "ships[0].at"), ("B4", "buoys"), ("B4", "batteries")} <= said, said
    status, body, _ = api.call("PUT", f"{GAMES}/{game_id}/disposition",
                               {**red_disposition(), "buoys": BUOYS}, token=tokens["red"])
    assert status == 422 and body["errors"][0]["rule"] == "B4", body
    status, body, _ = api.call("PUT", f"{GAMES}/{game_id}/disposition", blue_disposition(),
                               token=tokens["blue"])
    assert status == 200 and body == {"cost": None, "warnings": []}, body
    view = view_of(api, game_id, tokens["blue"], "blue")
    assert view["phase"] == "setup" and view["disposition"]["buoys"] == BUOYS
    assert {s["at"] for s in view["ships"]} == {s["at"] for s in blue_disposition()["ships"]}
    red = view_of(api, game_id, tokens["red"], "red")
    assert red["ships"] == [] and red["disposition"] is None
    assert set(red["batteries"].values()) == {"unknown"}


def test_b5_moves_through_the_api_refused_by_ruling_and_reported_in_the_game_s_words(api):
    game_id, tokens = in_play(api)
    status, body, _ = api.call("POST", f"{GAMES}/{game_id}/moves",
                               {"ship": "A 2", "turn": None, "to": "A 5"}, token=tokens["blue"])
    assert status == 409 and body["errors"][0]["rule"] == "B5", body  # Red moves first
    status, body, _ = api.call("POST", f"{GAMES}/{game_id}/moves",
                               {"ship": "I 19", "turn": None, "to": "H 19"},
                               token=tokens["red"])
    assert status == 422 and body["errors"][0]["rule"] == "B5", body
    assert body["errors"][0]["squares"] == ["I 19", "H 19"]
    status, report, _ = api.call("POST", f"{GAMES}/{game_id}/moves",
                                 {"ship": "I19", "turn": None, "to": "I8"}, token=tokens["red"])
    assert status == 201, report
    assert report["text"] == ("Red's Ship-of-the-Line 1 sailed from I 19 to I 8; lost one mast "
                              "to the shore batteries")
    blue = view_of(api, game_id, tokens["blue"], "blue")
    assert blue["reports"][-1] == report and blue["turn"] == "blue" and blue["legal"]
    status, record, _ = api.call("GET", f"{GAMES}/{game_id}/record", token=tokens["red"])
    assert status == 200 and record["moves"] == [report]


def test_a_whole_game_through_the_api_out_as_a_file_and_back_in(api, tmp_path):
    game_id, tokens = in_play(api)
    status, body, _ = api.call("GET", f"{GAMES}/{game_id}/postmortem", token=tokens["red"])
    assert status in (403, 409), body  # not before the end (B12)
    view = play_out(api, game_id, tokens, random.Random(5))
    assert view["result"]["reason"] in ("merchants", "fleet"), view["result"]
    assert view["revealed"]["blue"]["buoys"] == BUOYS and view["batteries"] == BATTERIES
    status, summary, _ = api.call("GET", f"{GAMES}/{game_id}/postmortem", token=tokens["red"])
    assert status == 200 and summary["secrets"]["batteries"] == BATTERIES
    assert len(summary["steps"]) == len(view["reports"])
    status, file, _ = api.call("GET", f"{GAMES}/{game_id}/export", token=tokens["red"])
    assert status == 200 and file["format"] == "broadside-game", file.get("format")
    status, body, _ = api.call("POST", f"{GAMES}/import", file)
    assert status == 409, body  # already here
    elsewhere = Api(FlaskTransport(create_app({
        "TESTING": True, "DATABASE": str(tmp_path / "other.db"), "SECRET_KEY": "test",
        "PUBLIC_URL": "http://localhost"}).test_client()))
    status, imported, _ = elsewhere.call("POST", f"{GAMES}/import", file)
    assert status == 201, imported
    tampered = json.loads(json.dumps(file))
    for event in tampered["events"]:
        if event["type"] == "disposition" and event["seat"] == "blue":
            event["disposition"]["batteries"] = {"A": "miss", "B": "hit", "C": "miss",
                                                 "D": "hit"}
    status, body, _ = Api(FlaskTransport(create_app({
        "TESTING": True, "DATABASE": str(tmp_path / "third.db"), "SECRET_KEY": "test",
        "PUBLIC_URL": "http://localhost"}).test_client())).call("POST", f"{GAMES}/import",
                                                                tampered)
    assert status == 422, body  # the fingerprint no longer matches what Blue locked in


def test_b12_nothing_red_receives_from_the_api_names_a_secret_before_it_is_revealed(api):
    game_id, tokens = in_play(api)
    view = play_out(api, game_id, tokens, random.Random(8))
    assert view["phase"] == "over"
    received = api.received["red"]
    ended = next(i for i, text in enumerate(received) if '"phase": "over"' in text)
    revealed_at: dict[str, int] = {}  # a buoy, and the first response that told Red of it
    for i, text in enumerate(received[:ended]):
        document = json.loads(text)
        buoys = document.get("buoys")
        if isinstance(buoys, list):  # a report: the buoys it revealed (B6)
            for buoy in buoys:
                revealed_at.setdefault(buoy["at"], i)
        for cross in BUOYS if isinstance(buoys, dict) else ():  # a view
            shown = buoys[cross]
            if shown["revealed"]:
                revealed_at.setdefault(cross, i)
            else:
                assert shown["kind"] == "unknown", (cross, i)
        assert set((document.get("batteries") or {"A": "unknown"}).values()) == {"unknown"}
        assert "revealed" not in document and '"hit"' not in text and '"miss"' not in text
        assert json.dumps(BUOYS) not in text
        if document.get("disposition"):
            assert "buoys" not in document["disposition"]
        for cross, kind in BUOYS.items():  # a buoy's kind only once it has been revealed
            told = f'{{"at": "{cross}", "kind": "{kind}"}}' in text \
                or f'"{cross}": {{"kind": "{kind}"' in text
            assert not told or cross in revealed_at, (cross, i)


def test_b12_against_the_computer_red_is_told_nothing_of_its_secrets(api, app):
    status, created, _ = api.call("POST", GAMES, {"rules": "broadside",
                                                   "bots": {"blue": "careful"}})
    assert status == 201 and set(created["seats"]) == {"red"}, created
    game_id = created["id"]
    status, claimed, _ = api.call("POST", f"{GAMES}/{game_id}/seats/red",
                                  {"join_code": created["seats"]["red"]["join_code"],
                                   "name": "Ann"})
    red = claimed["token"]
    api.call("PUT", f"{GAMES}/{game_id}/disposition", red_disposition(), token=red, seat="red")
    status, view, _ = api.call("POST", f"{GAMES}/{game_id}/ready", token=red, seat="red")
    assert status == 200 and view["phase"] == "play", view
    store = app.extensions["referee.store"]()
    blue = next(e for e in store.events(game_id)
                if e["type"] == "disposition" and e["seat"] == "blue")["disposition"]
    rng = random.Random(2)
    for _ in range(40):
        view = view_of(api, game_id, red, "red")
        if view["phase"] != "play":
            break
        assert view["turn"] == "red"  # the computer answered at once
        status, report, _ = api.call("POST", f"{GAMES}/{game_id}/moves",
                                     rng.choice(view["legal"]), token=red, seat="red")
        assert status == 201, report
    for text in api.received["red"]:
        if '"phase": "over"' in text:  # B12: after the end all is revealed
            break
        assert json.dumps(blue["buoys"]) not in text and json.dumps(blue["batteries"]) not in text
        assert '"hit"' not in text and '"miss"' not in text


# -- the documents in the OpenAPI document -------------------------------------------------


def _json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema's null type, to check documents with."""
    if isinstance(node, dict):
        node = {k: _json_schema(v) for k, v in node.items()}
        if node.pop("nullable", False) and "type" in node:
            node["type"] = [node["type"], "null"]
        node.pop("example", None)
        return node
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    return node


@pytest.fixture
def schemas(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    found = doc["components"]["schemas"]
    named = {"Options": "GameOptions"}  # as the Naval War Game's are named
    return {name: jsonschema_rs.validator_for(_json_schema(
        found["Broadside" + named.get(name, name)]))
            for name in ("Options", "Disposition", "Move", "Report", "View", "Catalogue")}


def test_b13_b14_the_documents_are_the_openapi_document_s(api, schemas, client):
    assert schemas["Options"].is_valid({"rules": "broadside", "move_minutes": 5})
    assert schemas["Disposition"].is_valid(red_disposition())
    assert schemas["Disposition"].is_valid(blue_disposition())
    assert not schemas["Disposition"].is_valid({**red_disposition(), "guns": 4})
    assert schemas["Move"].is_valid({"ship": "I 19", "turn": None, "to": "I 12"})
    assert schemas["Move"].is_valid({"pass": True})
    assert not schemas["Move"].is_valid({"ship": "I 19", "turn": "around", "to": "I 12"})
    game_id, tokens = in_play(api)
    view = view_of(api, game_id, tokens["red"], "red")
    rng = random.Random(4)
    for _ in range(30):
        seat = view["turn"]
        view = view_of(api, game_id, tokens[seat], seat)
        status, report, _ = api.call("POST", f"{GAMES}/{game_id}/moves",
                                     rng.choice(view["legal"]), token=tokens[seat])
        assert status == 201 and schemas["Report"].is_valid(report), \
            list(schemas["Report"].iter_errors(report))[:1]
        view = view_of(api, game_id, tokens["blue"], "blue")
        assert schemas["View"].is_valid(view), list(schemas["View"].iter_errors(view))[:1]
    rules = client.get("/api/v1/rules").get_json()["rule_sets"]
    catalogue = next(r["catalogue"] for r in rules if r["rules"] == "broadside")
    assert schemas["Catalogue"].is_valid(catalogue)
    assert catalogue["fleets"]["red"] == {"ship-of-the-line": 2, "frigate": 3, "brig": 3,
                                          "cutter": 2}
