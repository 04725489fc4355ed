"""Against a real `referee serve`: game files forged as a club member could forge them, sent
over HTTP. Games made offline with the referee's own core ("Alice resigns to Mallory" after a
move, every fingerprint right) are listed as unverified and counted nowhere, and a game
played here comes back edited (new salts with fingerprints to match, its joins in another
order, a clock extension in setup, another disposition clock, other names) only to be told it
is the game already here. The club page gives Mallory no win.
(tests/test_signed_game_files.py and test_game_file_duplicates.py check the same rules in the
app alone.)"""

from __future__ import annotations

import copy

import pytest
import requests
from api_support import table_in_play
from conftest import LiveServer
from forgery_support import RULES, fabricated
from helpers import IDLE_SQUARES, QUIET, padded

from referee.common.lifecycle import fingerprint

GAMES = "/api/v1/games"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("forged") / "forged.db",
                      env={"REFEREE_IMPORTS_PER_MINUTE": "60"}).start()  # a forger's many
    yield live
    live.stop()


def club(server: LiveServer) -> str:
    response = requests.get(f"{server.url}/club", timeout=30)
    assert response.status_code == 200
    return response.text


def listed(page: str, game_id: str) -> str:
    """The club page's line about one game."""
    return next(li.split("</li>")[0] for li in page.split("<li>") if f"Game {game_id}" in li)


def unsigned(document: dict) -> dict:
    edited = copy.deepcopy(document)
    edited.pop("signature", None)
    return edited


def resalted(document: dict) -> dict:
    """New salts at every lock-in, and fingerprints made to match them."""
    edited = unsigned(document)
    fleets = {e["seat"]: e["disposition"] for e in edited["events"]
              if e["type"] == "disposition"}
    for event in edited["events"]:
        if event["type"] == "ready":
            event["salt"] = "c3" * 16
            event["fingerprint"] = fingerprint(fleets[event["seat"]], event["salt"])
            edited["salts"][event["seat"]] = event["salt"]
            edited["fingerprints"][event["seat"]] = event["fingerprint"]
    return edited


def joins_reordered(document: dict) -> dict:
    edited = unsigned(document)
    events = edited["events"]
    joins = [n for n, event in enumerate(events) if event["type"] == "joined"]
    for n, event in zip(joins, [events[n] for n in reversed(joins)], strict=True):
        events[n] = event
    return edited


def reclocked(document: dict) -> dict:
    edited = unsigned(document)
    first_join = next(n for n, e in enumerate(edited["events"]) if e["type"] == "joined")
    edited["events"].insert(first_join, {"type": "clock", "minutes": 5})
    return edited


def other_options(document: dict) -> dict:
    edited = unsigned(document)
    edited["events"][0]["disposition_minutes"] = 33
    return edited


def renamed(document: dict) -> dict:
    edited = unsigned(document)
    for event in edited["events"]:
        if event["type"] == "joined":
            event["name"] = {"red": "Alice", "blue": "Mallory"}[event["seat"]]
    return edited


def test_games_fabricated_offline_and_sent_over_http_are_listed_but_counted_nowhere(server):
    api = server.api()
    forged = [fabricated(fleets={"red": padded(salvoes=n), "blue": padded(salvoes=n)},
                         moves=1, game_id=f"forged{n}") for n in (60, 59, 58)]
    forged += [fabricated(rules, moves=1) for rules in RULES if rules != "naval-war"]
    ids = []
    for document in forged:
        assert document["result"]["winner"] == "blue"  # Alice resigned to Mallory
        status, imported, _ = api.call("POST", f"{GAMES}/import", document)
        assert status == 201 and imported["counted"] is False, imported
        assert "signer" not in imported or imported["signer"] is None, imported
        ids.append(imported["id"])
    page = club(server)
    for game_id in ids:
        line = listed(page, game_id)
        assert "Alice" in line and "Mallory" in line and "(unverified: not counted)" in line
    assert "Mallory</th>" not in page and "Alice</th>" not in page  # in no table


EDITS = {"new salts": resalted, "the joins in another order": joins_reordered,
         "a clock extension in setup": reclocked, "another disposition clock": other_options,
         "other names": renamed}


def test_a_game_played_here_sent_back_edited_over_http_is_the_game_already_here(server):
    api = server.api()
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    turn = table.view("red")["turn"]
    assert table.as_seat(turn, "POST", "/moves", {"weapon": "salvo", "at": IDLE_SQUARES})[0] \
        == 201
    assert table.as_seat("red", "POST", "/resign")[0] == 200
    status, document, _ = table.as_seat("blue", "GET", "/export")
    assert status == 200 and document["signature"], document
    status, body, _ = api.call("POST", f"{GAMES}/import", document)
    assert status == 409 and table.id in body["errors"][0]["message"], body
    for what, edit in EDITS.items():
        status, body, _ = api.call("POST", f"{GAMES}/import", edit(document))
        assert status == 409, (what, body)
        assert table.id in body["errors"][0]["message"], (what, body)
    both = renamed(resalted(reclocked(joins_reordered(other_options(document)))))
    status, body, _ = api.call("POST", f"{GAMES}/import", both)
    assert status == 409 and table.id in body["errors"][0]["message"], body
    page = club(server)
    assert "not counted" not in listed(page, table.id)
    assert "Blue</th><td>1" in page  # the game once, won by Blue
    assert "Mallory</th>" not in page
    assert page.count(f"Game {table.id}") == 1  # no copy listed beside it
