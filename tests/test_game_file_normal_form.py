"""The log holds events in their normal form only, at every depth: the core's replay keeps the
fields each event's type has and nothing else, so neither the store nor an export can hold a
game file's junk; and a client's imports are limited per minute."""

from __future__ import annotations

import copy
import json
import os
import sqlite3

import pytest
from forgery_support import RULES, fabricated

from referee import rulesets
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
