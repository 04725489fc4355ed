"""The dice checked from a game's file (BB24): a game played here to its end through the API, its
file exported, every roll recomputed by ``referee verify-dice`` and by another referee's import;
a file whose roll, seed, commitment or revealed secret was changed, or whose secret was cut
out, is refused by both."""

from __future__ import annotations

import copy
import json

import pytest
from apiclient import Api, FlaskTransport
from click.testing import CliRunner
from contract_support import make_app
from rule_set_tables import open_table

from referee import rulesets
from referee.cli import verify_dice_command

RULES = "broadsides-boarding"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict:
    """A whole game between the two levels, played through the API to its end, as a file."""
    app = make_app(tmp_path_factory.mktemp("dice"))
    table = open_table(Api(FlaskTransport(app.test_client())), RULES)
    rule_set = rulesets.named(RULES)
    computers = {"red": rule_set.computer("gunner", "dice:red"),
                 "blue": rule_set.computer("deckhand", "dice:blue")}
    for seat, computer in computers.items():
        status, body, _ = table.call(seat, "PUT", "/disposition",
                                     computer.disposition(table.view(seat)))
        assert status == 200, body
        assert table.call(seat, "POST", "/ready", {"dice_seed": f"{seat}-phone"})[0] == 200
    for _ in range(2000):
        owing = table.owing()
        if not owing:
            break
        status, report, _ = table.call(owing[0], "POST", "/moves",
                                       computers[owing[0]].move(table.view(owing[0])))
        assert status == 201, report
    status, document, _ = table.call("red", "GET", "/export")
    assert status == 200 and document["result"]["reason"] in ("sunk", "all-lost", "captain")
    assert document["dice"]["rolls"] > 10
    return document


def verify(tmp_path, document: dict):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    return CliRunner().invoke(verify_dice_command, [str(path)])


def imported(tmp_path, document: dict):
    api = Api(FlaskTransport(make_app(tmp_path / "elsewhere").test_client()))
    return api.call("POST", "/api/v1/games/import", document)


def test_bb24_the_verifier_recomputes_every_roll_of_an_exported_file(exported, tmp_path):
    ran = verify(tmp_path, exported)
    assert ran.exit_code == 0, ran.output
    rolls = exported["dice"]["rolls"]
    assert f"rolls        {rolls} recomputed, {rolls} match" in ran.output
    assert "verified" in ran.output and exported["dice"]["secret"] in ran.output
    status, body, _ = imported(tmp_path, exported)
    assert status == 201, body


def a_miss(document: dict) -> tuple[int, int, int, int]:
    """A cannon's roll of 1 or 6 (a miss either way, BB11): its number, its event, its place
    among the event's rolls and its face; turned into the other, the game goes as it went."""
    game = rulesets.named(RULES).replay(copy.deepcopy(document["events"]))
    n = next(r["n"] for r in game.dice_rolls if "cannon" in r["for"] and r["value"] in (1, 6))
    counted = 0
    for at, event in enumerate(document["events"]):
        rolls = event.get("rolls") or []
        if counted + len(rolls) >= n:
            return n, at, n - counted - 1, rolls[n - counted - 1]
        counted += len(rolls)
    raise AssertionError("no roll")


def test_bb24_a_file_whose_roll_was_changed_is_refused_by_the_verifier_and_the_import(
        exported, tmp_path):
    forged = copy.deepcopy(exported)
    forged.pop("signature", None)
    n, at, place, face = a_miss(forged)
    forged["events"][at]["rolls"][place] = 7 - face
    ran = verify(tmp_path, forged)
    assert ran.exit_code == 1
    assert f"roll {n:<7} the file says {7 - face}, the seeds give {face}" in ran.output
    status, body, _ = imported(tmp_path, forged)
    assert status == 422 and "BB24" in body["errors"][0]["message"], body
    assert f"Roll {n} (" in body["errors"][0]["message"]


def test_bb24_a_roll_changed_so_that_the_game_goes_otherwise_is_refused_too(exported, tmp_path):
    forged = copy.deepcopy(exported)
    forged.pop("signature", None)
    at = next(i for i, e in enumerate(forged["events"]) if e.get("rolls"))
    forged["events"][at]["rolls"] = [r % 6 + 1 for r in forged["events"][at]["rolls"]]
    assert verify(tmp_path, forged).exit_code == 1
    status, body, _ = imported(tmp_path, forged)
    assert status == 422 and "cannot be imported" in body["errors"][0]["message"], body


@pytest.mark.parametrize("forgery", ["seed", "commitment", "secret", "cut", "dice"])
def test_bb24_a_file_whose_seeds_commitment_or_secret_were_changed_is_refused(
        exported, tmp_path, forgery):
    forged = copy.deepcopy(exported)
    forged.pop("signature", None)
    events = forged["events"]
    if forgery == "seed":
        next(e for e in events if e["type"] == "ready")["dice_seed"] = "another"
    elif forgery == "commitment":
        next(e for e in events if e["type"] == "dice_committed")["commitment"] = "0" * 64
    elif forgery == "secret":
        events[-1]["secret"] = "f" * 64
    elif forgery == "cut":
        forged["events"] = [e for e in events if e["type"] != "dice_revealed"]
    else:
        forged["dice"]["rolls"] += 1
    if forgery != "dice":
        assert verify(tmp_path, forged).exit_code == 1
    status, body, _ = imported(tmp_path, forged)
    assert status == 422, body
    assert "BB24" in body["errors"][0]["message"] or body["errors"][0]["field"] == "dice", body
