"""The post-mortem of Battleship: The Tactical Combat Game: every shot stepped through, shots to
sink each boat, and shots wasted on holes already ruled out (hindsight, as docs/battleship-tcg.md
decides it)."""

from __future__ import annotations

import pytest
from tcg_support import miss_holes, play_to_rescue, shoot, started

from referee.battleship_tcg.card import standard_card
from referee.battleship_tcg.holes import parse_hole
from referee.battleship_tcg.postmortem import open_holes, postmortem_document
from referee.common.problems import RuleViolation


def red_shoots(game, holes: list[str]) -> None:
    """Red shoots these holes of Blue's half in turn; Blue misses in between."""
    misses = iter(miss_holes("red")[::-1])
    for hole in holes:
        if game.turn == "blue":
            shoot(game, "blue", next(misses))
        shoot(game, "red", hole)


def blue_shoots(game, holes: list[str]) -> None:
    """Blue shoots these holes of Red's half in turn; Red misses in between."""
    misses = iter(miss_holes("blue")[::-1])
    for hole in holes:
        if game.turn == "red":
            shoot(game, "red", next(misses))
        shoot(game, "blue", hole)


def steps_by(game, seat: str = "red") -> dict[str, dict]:
    game.resign("red" if seat == "blue" else "blue")
    return {s["at"][0]: s for s in postmortem_document(game)["steps"] if s["by"] == seat}


def test_t10_the_postmortem_is_refused_before_the_end():
    game = started()
    with pytest.raises(RuleViolation) as refused:
        postmortem_document(game)
    assert refused.value.problems[0].rule == "T10" and refused.value.kind == "turn"


def test_t8_a_shot_at_a_hole_its_misses_already_ruled_out_is_wasted():
    game = started()
    red_shoots(game, ["A 2", "B 1", "A 1"])  # A 1's every line runs through A 2 or B 1
    steps = steps_by(game)
    assert [steps[h]["wasted"] for h in ("A 2", "B 1", "A 1")] == [False, False, True]
    assert steps["A 1"]["result"] == "miss" and steps["A 1"]["found"] is None
    sea = 150 - len(standard_card().island_holes("blue"))
    assert steps["A 2"]["open"] == sea  # nothing ruled out before the first shot
    assert steps["A 1"]["open"] == sea - 3  # A 2, B 1 shot, and A 1 itself ruled out


def test_t8_holes_that_must_be_a_sunk_boats_are_ruled_out_for_the_others():
    game = started()
    # on Red's half the Patrol Boat at L 1-L 2 sinks; K 1's lines run through J 1, K 2
    # (misses) or L 1, which can only be the Patrol Boat's: the one line of two hits
    # through L 2 (K 1, L 1, M 2 would be open for a larger boat otherwise)
    blue_shoots(game, ["L 1", "L 2", "K 2", "J 1", "K 1"])
    steps = steps_by(game, "blue")
    assert steps["L 2"]["sunk"] == "patrol-boat"
    assert steps["K 1"]["wasted"] and not steps["K 2"]["wasted"] and not steps["J 1"]["wasted"]


def test_t8_without_the_sinking_the_same_hole_is_still_open():
    game = started()
    blue_shoots(game, ["L 1", "K 2", "J 1", "K 1"])  # L 1 hit, but the boat is afloat
    assert not steps_by(game, "blue")["K 1"]["wasted"]


def test_t8_open_holes_follows_the_rules_of_the_method():
    islands = standard_card().island_holes("red")
    told = [{"at": ["L 1"], "result": "hit", "sunk": None},
            {"at": ["L 2"], "result": "hit", "sunk": "patrol-boat"}]
    still = open_holes(islands, told)
    assert parse_hole("L 1") not in still and parse_hole("L 2") not in still
    assert not still & islands
    assert parse_hole("K 1") in still


def test_t9_shots_to_sink_each_boat_and_no_rescue_shot_wasted():
    game = started()
    play_to_rescue(game, "red")
    post = postmortem_document(game)
    red = post["sinking"]["red"]
    assert red["carrier"] == {"shots": 5, "first_hit": 1, "to_finish": 5}
    assert red["battleship"] == {"shots": 9, "first_hit": 6, "to_finish": 4}
    assert red["patrol-boat"] == {"shots": 17, "first_hit": 16, "to_finish": 2}
    assert post["sinking"]["blue"]["carrier"] == {"shots": None, "first_hit": None,
                                                  "to_finish": None}
    assert post["steps"][-1]["result"] == "rescued" and not post["steps"][-1]["wasted"]
    assert post["steps"][-1]["found"] == "man"
    assert post["wasted"]["red"] == {"count": 0, "shots": [], "holes": [], "of": 18}
    assert [s["n"] for s in post["steps"]] == list(range(1, len(game.reports) + 1))
