"""The log holds events in their normal form only, at every depth: the core's replay keeps the
fields each event's type has and nothing else, so neither the store nor an export can hold a
game file's junk; and a client's imports are limited per minute."""

from __future__ import annotations

import copy
import io
import json
import os
import sqlite3

import pytest
from apiclient import Api, FlaskTransport
from conftest import LiveServer
from forgery_support import RULES, fabricated
from helpers import padded

from referee import create_app, rulesets
from referee.states import states_of
from referee.store import Store

JUNK = "x" * 1_000_000  # 1 MB, in a field no event type has
GAMES = "/api/v1/games"


def with_junk(events: list[dict], value: object = "junk") -> list[dict]:
    """The events with a field no event type has added to each."""
    return [{**copy.deepcopy(event), "comment": value} for event in events]


@pytest.mark.parametrize("rules", RULES)
def test_replay_keeps_only_the_fields_each_event_type_has(rules):
    document = fabricated(rules)
    game = rulesets.named(rules).empty()
    for event in with_junk(document["events"]):
        game.apply(event)
    assert game.events == document["events"]  # the normal form, whatever came in
    assert "comment" not in json.dumps(game.events)


@pytest.mark.parametrize("rules", RULES)
def test_every_event_type_a_rule_set_applies_has_its_fields_declared(rules):
    game_type = rulesets.named(rules).game_type
    assert set(game_type.APPLY) <= set(game_type.EVENT_FIELDS)


def database_bytes(app) -> int:
    """The database's size on disk once its write-ahead log is folded back in."""
    path = app.config["DATABASE"]
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(os.path.getsize(p) for p in (path, f"{path}-wal") if os.path.exists(p))


@pytest.mark.parametrize("rules", RULES)
def test_an_imported_file_s_unknown_event_field_is_neither_stored_nor_exported(rules, app,
                                                                              api):
    document = fabricated(rules)
    document["events"][2] = {**document["events"][2], "comment": JUNK}
    before = database_bytes(app)
    status, imported, _ = api.call("POST", f"{GAMES}/import", document)
    assert status == 201, imported
    assert database_bytes(app) - before < 200_000  # a game's log, not the megabyte
    with sqlite3.connect(app.config["DATABASE"]) as db:
        bodies = [body for (body,) in db.execute("select body from events where game_id = ?",
                                                 [imported["id"]])]
    assert bodies and not any("comment" in body for body in bodies)
    token = imported["seats"]["red"]["token"]
    status, exported, _ = api.call("GET", f"{GAMES}/{imported['id']}/export", token=token)
    assert status == 200, exported
    assert "comment" not in json.dumps(exported) and len(json.dumps(exported)) < 100_000


def test_a_stored_log_with_unknown_fields_still_replays_and_exports_without_them(app, api):
    """A log stored before the normal form was kept (an import's junk) replays as it did."""
    status, imported, _ = api.call("POST", f"{GAMES}/import", fabricated())
    assert status == 201, imported
    with sqlite3.connect(app.config["DATABASE"]) as db:
        for seq, body in list(db.execute("select seq, body from events where game_id = ?",
                                         [imported["id"]])):
            db.execute("update events set body = ? where game_id = ? and seq = ?",
                       [json.dumps({**json.loads(body), "comment": "old"}), imported["id"],
                        seq])
    states_of(Store(app.config["DATABASE"])).forget(imported["id"])  # replayed from the store
    token = imported["seats"]["blue"]["token"]
    status, exported, _ = api.call("GET", f"{GAMES}/{imported['id']}/export", token=token)
    assert status == 200, exported
    assert exported["result"]["winner"] == "blue" and "comment" not in json.dumps(exported)


# -- imports are limited per client --------------------------------------------------------------

def client_at(app, address: str) -> Api:
    """A client of the app whose requests come from ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return Api(FlaskTransport(client))


def other_games(n: int) -> list[dict]:
    """``n`` different games' files (each fleet a salvo short of the one before)."""
    return [fabricated(fleets={"red": padded(salvoes=60 - i), "blue": padded(salvoes=60 - i)})
            for i in range(n)]


def assert_limited(status: int, body: dict, headers, limit: int) -> None:
    assert status == 429, body
    error = body["errors"][0]
    assert error["field"] == "file" and f"at most {limit} game files a minute" in \
        error["message"], error
    assert 1 <= int(headers["Retry-After"]) <= 60, headers


def test_a_burst_of_imports_from_one_client_is_refused_past_the_limit_while_another_imports(
        tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db"),
                      "SIGNING_KEY_FILE": str(tmp_path / "signing_key"), "SECRET_KEY": "test",
                      "IMPORTS_PER_MINUTE": 3})
    burst, other = client_at(app, "10.0.0.1"), client_at(app, "10.0.0.2")
    files = other_games(6)
    assert burst.call("POST", f"{GAMES}/import", {"format": "junk"})[0] == 422  # counted too
    for document in files[:2]:
        assert burst.call("POST", f"{GAMES}/import", document)[0] == 201
    for document in files[2:4]:  # refused before anything is read, so nothing is stored
        assert_limited(*burst.call("POST", f"{GAMES}/import", document), limit=3)
    status, imported, _ = other.call("POST", f"{GAMES}/import", files[4])
    assert status == 201, imported
    with sqlite3.connect(app.config["DATABASE"]) as db:
        assert db.execute("select count(*) from games").fetchone()[0] == 3
    phone = app.test_client()  # the club page's form is held to the same limit
    phone.environ_base["REMOTE_ADDR"] = "10.0.0.1"
    page = phone.get("/club").get_data(as_text=True)
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    response = phone.post("/club/import", content_type="multipart/form-data", data={
        "csrf_token": token, "game_file": (io.BytesIO(json.dumps(files[5]).encode()),
                                           "game.json")})
    assert response.status_code == 429 and response.headers["Retry-After"]
    assert "at most 3 game files a minute" in response.get_data(as_text=True)


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(tmp_path):
    server = LiveServer(tmp_path / "live.db", args=("--trusted-proxy", "127.0.0.1"),
                        env={"REFEREE_IMPORTS_PER_MINUTE": "1"}).start()
    try:
        api = server.api()
        first, second, third = other_games(3)

        def send(document: dict, address: str):
            return api.call("POST", f"{GAMES}/import", document,
                            headers={"X-Forwarded-For": address})

        assert send(first, "203.0.113.7")[0] == 201
        status, body, headers = send(second, "203.0.113.7")
        assert status == 429 and "at most 1 game file a minute" in body["errors"][0]["message"]
        assert int(headers["Retry-After"]) >= 1
        assert send(second, "198.51.100.9")[0] == 201  # another client behind the proxy
    finally:
        server.stop()
    direct = LiveServer(tmp_path / "direct.db", env={"REFEREE_IMPORTS_PER_MINUTE": "1"}).start()
    try:  # without --trusted-proxy a forged X-Forwarded-For is no way round the limit
        api = direct.api()
        assert api.call("POST", f"{GAMES}/import", first,
                        headers={"X-Forwarded-For": "203.0.113.7"})[0] == 201
        assert api.call("POST", f"{GAMES}/import", third,
                        headers={"X-Forwarded-For": "198.51.100.9"})[0] == 429
    finally:
        direct.stop()
