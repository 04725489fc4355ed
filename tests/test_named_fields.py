"""Types at the boundaries: named fields where tuples were read by index, and distinct names for
distinct things (piece names vs square names, the core's ship vs the bots' knowledge of one)."""

from __future__ import annotations

from helpers import QUIET, joined_game

from referee.naval_war import fleet
from referee.naval_war.computer import board, inference
from referee.store import Store


def test_holder_and_remembered_have_named_fields(tmp_path):
    db = Store(str(tmp_path / "t.db"))
    db.migrate()
    db.add_game("g1", "host-token", ["red"], "naval-war", 0.0)
    assert db.holder_of("host-token").game_id == "g1" and db.holder_of("host-token").seat is None
    db.claim("g1", "red", "seat-token")
    assert db.holder_of("seat-token").seat == "red"
    db.remember("g1", "red", "k", 201, {"n": 1}, "digest")
    seen = db.remembered("g1", "red", "k")
    assert (seen.status, seen.body, seen.request) == (201, {"n": 1}, "digest")


def test_submit_names_its_parts():
    game = joined_game()
    made = game.submit("red", QUIET)
    assert made.events[0]["type"] == "disposition" and made.cost["total"] > 0
    assert [w.rule for w in made.warnings] == ["R4"]  # QUIET leaves 40 points unspent


def test_distinct_names_for_distinct_things():
    assert not hasattr(board, "NAMES") and board.SQUARE_NAMES[0] == "A 1"
    assert fleet.NAMES["battleship"] == "Battleship"
    assert not hasattr(inference, "Ship") and hasattr(inference, "KnownShip")
    assert "kind" in inference.KnownShip.__dataclass_fields__
    assert "type" in fleet.Ship.__dataclass_fields__
