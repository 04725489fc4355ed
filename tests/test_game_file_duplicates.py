"""A game is one game however its file is edited: duplicates are found on the game itself
(each seat's disposition and the moves), never on salts, fingerprints, options, names, ids,
times or the order of the events before play."""

from __future__ import annotations

import copy
import sqlite3

import pytest
from api_support import table_in_play
from forgery_support import RULES, dispositions, fabricated
from helpers import QUIET

from referee.common.lifecycle import fingerprint

GAMES = "/api/v1/games"


def resalted(document: dict, salt: str = "c3") -> dict:
    """The file with new salts at every lock-in and fingerprints that match them."""
    edited = copy.deepcopy(document)
    edited.pop("signature", None)
    fleets = {e["seat"]: e["disposition"] for e in edited["events"]
              if e["type"] == "disposition"}
    for event in edited["events"]:
        if event["type"] == "ready":
            event["salt"] = salt * 16
            event["fingerprint"] = fingerprint(fleets[event["seat"]], event["salt"])
            edited["salts"][event["seat"]] = event["salt"]
            edited["fingerprints"][event["seat"]] = event["fingerprint"]
    return edited


def variants(rules: str) -> dict[str, dict]:
    """The same game's file, edited as a forger would to pass it off as another."""
    return {
        "new salts": fabricated(rules, salts={"red": "d4" * 16, "blue": "e5" * 16}),
        "joins reversed": fabricated(rules, joins=("blue", "red")),
        "a clock extension in setup": fabricated(rules, clock=5),
        "another disposition clock": fabricated(rules, minutes=45),
        "other names and id": fabricated(rules, names={"red": "Eve", "blue": "Trent"},
                                         game_id="other"),
        "its pieces listed in another order": fabricated(rules, fleets={
            seat: {key: list(reversed(value)) if isinstance(value, list) else value
                   for key, value in fleet.items()}
            for seat, fleet in dispositions(rules).items()}),
    }


@pytest.mark.parametrize("rules", RULES)
def test_the_same_game_re_salted_re_ordered_or_re_clocked_is_one_game(rules, api):
    status, first, _ = api.call("POST", f"{GAMES}/import", fabricated(rules))
    assert status == 201, first
    for what, document in variants(rules).items():
        status, body, _ = api.call("POST", f"{GAMES}/import", document)
        assert status == 409, (what, body)
        assert first["id"] in body["errors"][0]["message"], (what, body)


def test_the_same_naval_war_game_with_its_seats_swapped_is_one_game(api):
    fleets = dispositions("naval-war")
    status, first, _ = api.call("POST", f"{GAMES}/import", fabricated(
        order=("red", "blue"), fleets=fleets, resigns="red"))
    assert status == 201, first
    swapped = fabricated(order=("blue", "red"), names={"red": "Mallory", "blue": "Alice"},
                         fleets={"red": fleets["blue"], "blue": fleets["red"]},
                         resigns="blue")
    status, body, _ = api.call("POST", f"{GAMES}/import", swapped)
    assert status == 409 and first["id"] in body["errors"][0]["message"], body


def test_a_game_played_here_cannot_be_imported_back_re_salted(api):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    assert table.as_seat("red", "POST", "/resign")[0] == 200
    status, document, _ = table.as_seat("red", "GET", "/export")
    assert status == 200, document
    for edited in (resalted(document), resalted(document, "f6")):
        edited["events"][0]["disposition_minutes"] = 33
        status, body, _ = api.call("POST", f"{GAMES}/import", edited)
        assert status == 409 and table.id in body["errors"][0]["message"], body


def test_a_game_stored_before_hashes_were_of_the_game_is_still_found_once_imported(app, api):
    """Migration 0009 drops the old hashes; the first import gives every finished game its
    new one before it looks for the game already here."""
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    assert table.as_seat("blue", "POST", "/resign")[0] == 200
    status, document, _ = table.as_seat("red", "GET", "/export")
    assert status == 200, document
    with sqlite3.connect(app.config["DATABASE"]) as db:
        db.execute("update games set content_hash = null")  # as migration 0009 leaves it
    status, body, _ = api.call("POST", f"{GAMES}/import", resalted(document))
    assert status == 409 and table.id in body["errors"][0]["message"], body
