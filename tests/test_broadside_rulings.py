"""Broadside's rulings B1-B14, one test (or more) each, on the rules core.

Most tests set the harbour for the ruling they check (``arrange``: the ships it needs where it
needs them, on a game in play with the standard secrets of broadside_support: buoys F 6 sink,
G 6 pass, H 6 sink, J 13 sink, K 13 pass, D 13 pass; batteries A hit, B miss, C hit, D miss).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from broadside_support import (
    BATTERIES,
    BLUE_AT,
    BUOYS,
    RED_AT,
    arrange,
    blue_disposition,
    created,
    move,
    play_random,
    red_disposition,
    started,
)

from referee.broadside import board
from referee.broadside.fleet import check_disposition
from referee.broadside.game import replay
from referee.broadside.views import describe, record_for, report_for, result_headline, view_for
from referee.common.problems import RuleViolation

DOCS = Path(__file__).resolve().parent.parent / "docs" / "broadside.md"


def refused(action, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        action(*args, **kwargs)
    return caught.value


def rules_of(violation: RuleViolation) -> set[str]:
    return {p.rule for p in violation.problems}


def fork(game):
    return replay(json.loads(json.dumps(game.events)))


# -- B1, B2: the board -------------------------------------------------------------------


def test_b1_every_point_is_a_cross_or_land_and_the_board_holds_what_b1_describes():
    points = {board.cross_name(c, r) for c in range(len(board.COLUMNS))
              for r in range(1, board.ROWS + 1)}
    assert points == board.CROSSES | board.LAND and not board.CROSSES & board.LAND
    assert len(board.BLUE_START) == 12 and len(board.RED_START) == 10
    assert all(board.coordinates(c)[1] == 2 for c in board.BLUE_START)  # nearest the docks
    assert all(board.coordinates(c)[1] >= 19 for c in board.RED_START)  # two rows, lower right
    assert len(board.MERCHANTS) == 4
    for merchant in board.MERCHANTS:  # on the docks, each with its cross just opposite
        assert merchant["at"] in board.LAND and board.coordinates(merchant["at"])[1] == 1
        assert board.direction(merchant["opposite"], merchant["at"]) == "up"
    by_channel = {}
    for circle in board.RED_CIRCLES.values():
        by_channel.setdefault(circle["channel"], []).append(circle)
    assert {ch: [c["double"] for c in cs] for ch, cs in by_channel.items()} == {
        "west": [False, True, False], "east": [False, True, False]}  # three across, mid double
    for battery in board.BATTERIES.values():  # the nearest red circle and the double
        near, double = battery["controls"]
        assert battery["at"] in board.LAND
        assert board.step(battery["at"], battery["points"]) == near
        assert board.RED_CIRCLES[double]["double"]
    assert [b["shore"] for b in board.BATTERIES.values()].count("centre island") == 2
    assert [len(board.BUOY_GROUPS[g]) for g in ("row", "pair", "single")] == [3, 2, 1]
    assert set(board.YELLOW_CIRCLES) <= board.CROSSES


def test_b1_points_are_read_as_people_write_them_and_anything_else_is_refused():
    assert board.parse_cross("F 7") == board.parse_cross("F7") == board.parse_cross(" f 7 ")
    assert board.parse_cross("m20") == "M 20"
    for bad in ("N 1", "A 0", "A 21", "F", "7", "FF 7", "", None, 7, "F 7 8", "F-7"):
        with pytest.raises(ValueError, match="B1"):
            board.parse_cross(bad)


def test_b1_the_rules_document_draws_the_board_from_board_json_and_lists_its_points():
    text = DOCS.read_text()
    merchants = {m["at"]: "M" for m in board.MERCHANTS}
    sites = {b["at"]: site for site, b in board.BATTERIES.items()}
    for row in range(1, board.ROWS + 1):
        marks = []
        for column in board.COLUMNS:
            p = f"{column} {row}"
            marks.append(merchants.get(p) or sites.get(p) or (
                "#" if p in board.LAND else
                ("@" if board.RED_CIRCLES[p]["double"] else "o") if p in board.RED_CIRCLES
                else "y" if p in board.YELLOW_CIRCLES else "b" if p in board.BLUE_START
                else "r" if p in board.RED_START else "+"))
        assert f"{row:>3} {' '.join(marks)}" in text, row
    assert f"**Land** ({len(board.LAND)} points)" in text
    assert f"**Crosses** ({len(board.CROSSES)} points)" in text
    for point in [*board.RED_CIRCLES, *board.YELLOW_CIRCLES, *board.RED_START[:1],
                  *(m["opposite"] for m in board.MERCHANTS)]:
        assert f"`{point}`" in text, point


def test_b2_crosses_connect_up_down_left_right_and_never_diagonally():
    assert board.neighbours("C 9") == {"up": "C 8", "right": "D 9", "down": "C 10"}
    assert board.neighbours("D 10") == {"up": "D 9", "right": "E 10", "down": "D 11",
                                        "left": "C 10"}  # a red circle is a cross too
    assert board.neighbours("J 13") == {"up": "J 12", "right": "K 13", "down": "J 14",
                                        "left": "I 13"}  # and a yellow circle
    for cross in board.CROSSES:
        for there in board.neighbours(cross).values():
            (a, b), (c, d) = board.coordinates(cross), board.coordinates(there)
            assert abs(a - c) + abs(b - d) == 1


# -- B3, B4: setting up ------------------------------------------------------------------


def test_b3_each_side_starts_on_its_start_crosses_facing_the_other():
    view = view_for(started(), "red")
    ships = {s["at"]: s for s in view["ships"]}
    assert {at for at, s in ships.items() if s["side"] == "red"} == set(RED_AT)
    assert {at for at, s in ships.items() if s["side"] == "blue"} == set(BLUE_AT)
    assert all(s["facing"] == ("up" if s["side"] == "red" else "down") for s in ships.values())
    assert sum(s["masts"] for s in ships.values() if s["side"] == "red") == 25
    assert sum(s["masts"] for s in ships.values() if s["side"] == "blue") == 20


def test_b3_blue_places_his_ten_on_any_ten_of_his_twelve_start_crosses():
    doc = blue_disposition()
    doc["ships"][-1]["at"], doc["ships"][-2]["at"] = "M 2", "L 2"
    assert len(check_disposition(doc, "blue").ships) == 10


def test_b3_a_disposition_with_every_problem_is_refused_at_once_each_by_its_ruling():
    doc = red_disposition()
    doc["ships"][4]["type"] = "ship-of-the-line"  # three of them, two frigates
    doc["ships"][0]["at"] = "A 2"  # Blue's start
    doc["ships"][1]["at"] = "K 19"  # two on one cross
    doc["ships"][3]["at"] = "Z 9"  # no point
    doc["ships"][5]["type"] = "galleon"
    doc["ships"][6]["dir"] = "up"
    violation = refused(check_disposition, doc, "red")
    messages = [f"{p.rule} {p.field}: {p.message}" for p in violation.problems]
    assert any("B3 ships[0].at" in m and "A 2" in m for m in messages), messages
    assert any(m.startswith("B3 ships:") and "K 19" in m for m in messages), messages
    assert any(m.startswith("B1 ships[3].at") for m in messages), messages
    assert any(m.startswith("B3 ships[5].type") and "galleon" in m for m in messages)
    assert any(m.startswith("B13 ships[6].dir") for m in messages), messages
    assert any("Ships-of-the-Line" in m and "has 3" in m for m in messages), messages
    assert any("3 Frigates" in m and "has 2" in m for m in messages), messages


def test_b3_blue_has_no_ship_of_the_line_and_red_no_buoys():
    doc = blue_disposition()
    doc["ships"][0]["type"] = "ship-of-the-line"
    assert any(p.field == "ships[0].type" for p in refused(check_disposition, doc,
                                                           "blue").problems)
    doc = {**red_disposition(), "buoys": BUOYS}
    assert rules_of(refused(check_disposition, doc, "red")) == {"B4"}


def test_b4_never_sink_on_all_three_of_the_row():
    buoys = {**BUOYS, "F 6": "sink", "G 6": "sink", "H 6": "sink", "J 13": "pass",
             "K 13": "pass", "D 13": "pass"}
    violation = refused(check_disposition, blue_disposition(buoys), "blue")
    assert [(p.rule, p.squares) for p in violation.problems] == [
        ("B4", ("F 6", "G 6", "H 6"))]


def test_b4_never_sink_on_both_of_the_pair():
    buoys = {"F 6": "sink", "G 6": "pass", "H 6": "pass", "J 13": "sink", "K 13": "sink",
             "D 13": "pass"}
    violation = refused(check_disposition, blue_disposition(buoys), "blue")
    assert [(p.rule, p.squares) for p in violation.problems] == [("B4", ("J 13", "K 13"))]


def test_b4_three_sink_three_pass_two_hit_two_miss_every_circle_and_site():
    buoys = {"F 6": "sink", "G 6": "pass", "H 6": "sink", "J 13": "sink", "D 13": "sink",
             "Q 1": "pass", "K 13": "maybe"}
    batteries = {"A": "hit", "B": "hit", "C": "hit", "E": "miss"}
    violation = refused(check_disposition, blue_disposition(buoys, batteries), "blue")
    said = " | ".join(f"{p.rule}: {p.message}" for p in violation.problems)
    assert "'Q 1' is not a yellow circle" in said
    assert "The buoy at K 13 is \"sink\" or \"pass\"" in said
    assert "'E' is not a battery site" in said
    assert "Every battery site has a battery; D has none" in said
    assert rules_of(violation) <= {"B4", "B13"}
    said = str(refused(check_disposition, blue_disposition(
        {"F 6": "sink", "G 6": "pass", "H 6": "sink", "J 13": "sink", "K 13": "pass",
         "D 13": "sink"}, {"A": "hit", "B": "hit", "C": "hit", "D": "miss"}), "blue"))
    assert "these have 4 SINK" in said and "these have 3 HIT" in said


def test_b4_red_sees_only_where_the_buoys_and_batteries_are():
    game = started()
    red, blue = view_for(game, "red"), view_for(game, "blue")
    assert red["buoys"] == {c: {"kind": "unknown", "revealed": False}
                            for c in board.YELLOW_CIRCLES}
    assert red["batteries"] == {site: "unknown" for site in "ABCD"}
    assert blue["buoys"] == {c: {"kind": BUOYS[c], "revealed": False}
                             for c in board.YELLOW_CIRCLES}
    assert blue["batteries"] == BATTERIES


# -- B5: moves -----------------------------------------------------------------------------


def test_b5_red_moves_first_and_turns_alternate():
    game = started()
    assert game.turn == "red"
    violation = refused(move, game, "blue", "A 2", "A 5")
    assert violation.kind == "turn" and rules_of(violation) == {"B5"}
    move(game, "red", "I 19", "I 15")
    assert game.turn == "blue"
    assert refused(move, game, "red", "J 19", "J 15").kind == "turn"
    move(game, "blue", "A 2", "A 5")
    assert game.turn == "red"


def test_b5_a_ship_turns_first_then_sails_straight_and_ends_facing_the_way_it_moved():
    game = started()
    report = move(game, "red", "I 19", "H 19", "left")
    assert report["path"] == ["H 19"] and report["facing"] == "left"
    assert game.ships["H 19"].facing == "left"
    move(game, "blue", "A 2", "A 7")
    move(game, "red", "H 19", "H 13", "right")
    assert game.ships["H 13"].facing == "up"


@pytest.mark.parametrize("name, document, words", [
    ("no_ship_there", {"ship": "G 15", "turn": None, "to": "G 14"}, "There is no ship at G 15"),
    ("the_enemy_s_ship", {"ship": "A 2", "turn": None, "to": "A 5"},
     "The ship at A 2 is Blue's Frigate 1; Red moves only his own ships"),
    ("turn_in_place", {"ship": "I 19", "turn": "left", "to": "I 19"},
     "cannot turn in place"),
    ("diagonally", {"ship": "I 19", "turn": None, "to": "H 18"}, "never diagonally"),
    ("turning_a_corner", {"ship": "I 19", "turn": None, "to": "H 19"},
     "faces up; without a turn it sails up, not left toward H 19. A ship turns only at the "
     "start of its move and never turns a corner: to reach H 19 it must turn left first"),
    ("the_wrong_turn", {"ship": "I 19", "turn": "right", "to": "H 19"},
     "turning right it sails right, not left"),
    ("through_a_ship", {"ship": "J 20", "turn": None, "to": "J 15"},
     "Red's Ship-of-the-Line 2 is at J 19: a ship cannot pass through or onto another ship"),
    ("onto_a_ship", {"ship": "I 20", "turn": None, "to": "I 19"},
     "Red's Ship-of-the-Line 1 is at I 19"),
    ("onto_land", {"ship": "I 20", "turn": "left", "to": "G 20"},
     "G 20 is land: a ship stops on a cross"),
    ("a_turn_that_is_not_one", {"ship": "I 19", "turn": "sideways", "to": "I 15"},
     "'turn' is null (no turn)"),
    ("a_point_off_the_board", {"ship": "I 19", "turn": None, "to": "I 25"}, "off the board"),
    ("a_part_that_is_not_a_move's", {"ship": "I 19", "to": "I 15", "speed": 3},
     "'speed' is not part of a move"),
    ("no_destination", {"ship": "I 19", "turn": None}, "A move names 'to'"),
    ("a_pass_with_a_move_to_make", {"pass": True}, "Red has a legal move"),
    ("a_pass_that_is_not_true", {"pass": "yes"}, "A pass is {\"pass\": true}"),
    ("not_an_object", ["I 19", "I 15"], "A move is an object"),
])
def test_b5_a_move_is_refused_and_changes_nothing(name, document, words):
    game = started()
    before = json.dumps(game.events)
    violation = refused(game.move, "red", document)
    assert violation.kind == "illegal"
    assert words in str(violation), str(violation)
    assert rules_of(violation) <= {"B1", "B5", "B13"}
    assert json.dumps(game.events) == before and game.turn == "red"


def test_b5_a_move_across_land_is_refused():
    game = arrange(started(), ("red", "frigate", "E 9", "right"), ("blue", "cutter", "A 3",
                                                                   "down"))
    violation = refused(move, game, "red", "E 9", "I 9")
    assert "F 9 is land; the way from E 9 to I 9" in str(violation)
    assert violation.problems[0].squares == ("F 9",)
    game = arrange(started(), ("blue", "frigate", "F 2", "down"), ("red", "cutter", "M 20",
                                                                   "up"), turn="blue")
    assert "G 2 is land" in str(refused(move, game, "blue", "F 2", "H 2", "left"))


def test_b5_the_view_s_legal_moves_are_exactly_the_moves_the_referee_accepts():
    game = started()
    legal = view_for(game, "red")["legal"]
    assert view_for(game, "blue")["legal"] == []  # not his turn
    assert {"ship": "I 19", "turn": None, "to": "I 2"} not in legal  # Blue's ship at I 2
    assert {"ship": "I 19", "turn": None, "to": "I 3"} in legal
    allowed = {(m["ship"], m["turn"], m["to"]) for m in legal}
    accepted = set()
    trial = fork(game)
    for ship in RED_AT:
        for how in board.TURNS:
            for to in sorted(board.CROSSES):
                try:
                    move(trial, "red", ship, to, how)
                except RuleViolation as refusal:  # refused: the trial game is unchanged
                    assert rules_of(refusal) <= {"B5"}, refusal
                    continue
                accepted.add((ship, how, to))
                trial = fork(game)
    assert accepted == allowed and len(allowed) == len(legal)


def test_b5_a_player_with_no_legal_move_passes_and_only_then():
    game = arrange(started(), ("red", "cutter", "H 20", "down"),
                   ("blue", "frigate", "H 19", "left"), ("blue", "brig", "I 20", "up"))
    view = view_for(game, "red")
    assert view["legal"] == [{"pass": True}]
    _, report = game.move("red", {"pass": True})
    assert report["passed"] and report_for(game, report, "red")["text"] == \
        "Red had no legal move and passed"
    assert game.turn == "blue" and game.phase == "play"
    assert "Blue has a legal move" in str(refused(game.move, "blue", {"pass": True}))


# -- B6: buoys -------------------------------------------------------------------------------


def test_b6_a_buoy_on_the_path_stops_the_ship_is_revealed_and_pass_lets_it_sail_on():
    game = started()
    report = move(game, "red", "K 19", "K 12")
    assert report["buoys"] == [{"at": "K 13", "kind": "pass"}] and report["to"] == "K 12"
    assert report["path"] == ["K 18", "K 17", "K 16", "K 15", "K 14", "K 13", "K 12"]
    assert report["stopped_by"] is None and not report["sunk"]
    assert report_for(game, report, "red")["text"] == (
        "Red's Frigate 1 sailed from K 19 to K 12; stopped at the buoy at K 13: PASS, and "
        "sailed on")
    for seat in ("red", "blue"):  # revealed to both, and removed
        assert view_for(game, seat)["buoys"]["K 13"] == {"kind": "pass", "revealed": True}
    assert view_for(game, "red")["buoys"]["J 13"] == {"kind": "unknown", "revealed": False}


def test_b6_a_sink_buoy_on_the_path_sinks_the_ship_where_it_lies():
    game = started()
    report = move(game, "red", "J 19", "J 11")
    assert report["stopped_by"] == "J 13" and report["to"] == "J 13"
    assert report["path"] == ["J 18", "J 17", "J 16", "J 15", "J 14", "J 13"]
    assert report["sunk"] == [{"side": "red", "type": "ship-of-the-line", "number": 2,
                               "at": "J 13", "by": "rock"}]
    assert "J 13" not in game.ships and "J 19" not in game.ships
    assert report_for(game, report, "blue")["text"] == (
        "Red's Ship-of-the-Line 2 sailed from J 19 toward J 11; struck the rock at J 13 (a SINK "
        "buoy) and sank")


def test_b6_blue_ships_stop_at_buoys_too():
    game = arrange(started(), ("blue", "frigate", "F 3", "down"), ("red", "brig", "M 20", "up"),
                   turn="blue")
    report = move(game, "blue", "F 3", "F 7")
    assert report["sunk"] == [{"side": "blue", "type": "frigate", "number": 1, "at": "F 6",
                               "by": "rock"}]


def test_b6_a_ship_named_to_the_buoy_stops_on_it_and_a_revealed_circle_is_an_ordinary_cross():
    game = started()
    report = move(game, "red", "K 19", "K 13")
    assert report["buoys"] == [{"at": "K 13", "kind": "pass"}] and game.ships["K 13"]
    move(game, "blue", "A 2", "A 5")
    move(game, "red", "K 13", "K 12")
    move(game, "blue", "A 5", "A 6")
    move(game, "red", "M 19", "M 13")
    move(game, "blue", "A 6", "A 7")
    report = move(game, "red", "M 13", "J 13", "left")
    assert report["buoys"] == [{"at": "J 13", "kind": "sink"}]  # K 13 passed without a stop
    assert report["path"] == ["L 13", "K 13", "J 13"] and report["sunk"][0]["by"] == "rock"


# -- B7: shore batteries ---------------------------------------------------------------------


def test_b7_a_red_ship_loses_a_mast_at_a_circle_a_hit_battery_controls():
    game = started()
    report = move(game, "red", "I 19", "I 8")  # I 10: battery C (hit)
    assert report["battery_masts"] == 1 and game.ships["I 8"].masts == 3
    assert report["masts_lost"] == [{"side": "red", "type": "ship-of-the-line", "number": 1,
                                     "at": "I 8", "lost": 1, "masts": 3}]
    assert report_for(game, report, "red")["text"] == (
        "Red's Ship-of-the-Line 1 sailed from I 19 to I 8; lost one mast to the shore batteries")


def test_b7_the_double_circle_controlled_by_two_hit_batteries_costs_two_masts():
    game = arrange(started(batteries={"A": "miss", "B": "miss", "C": "hit", "D": "hit"}),
                   ("red", "frigate", "J 12", "up"), ("blue", "cutter", "A 3", "down"))
    report = move(game, "red", "J 12", "J 9")
    assert report["battery_masts"] == 2 and game.ships["J 9"].masts == 1
    assert "lost two masts to the shore batteries" in report_for(game, report, "red")["text"]


def test_b7_a_miss_battery_does_no_harm_and_moving_across_the_circles_costs_at_each():
    game = arrange(started(), ("red", "frigate", "K 12", "up"), ("red", "frigate", "C 10",
                                                                 "right"),
                   ("blue", "cutter", "A 3", "down"))
    assert move(game, "red", "K 12", "K 9")["battery_masts"] == 0  # K 10: battery D, miss
    move(game, "blue", "A 3", "A 4")
    report = move(game, "red", "C 10", "E 10")  # D 10 (A hit, B miss), E 10 (B miss)
    assert report["battery_masts"] == 1 and report["path"] == ["D 10", "E 10"]


def test_b7_staying_on_a_circle_costs_nothing_more_nor_does_leaving_it():
    game = started()
    move(game, "red", "I 19", "I 10")
    assert game.ships["I 10"].masts == 3
    move(game, "blue", "A 2", "A 5")
    move(game, "red", "J 19", "J 14")
    move(game, "blue", "A 5", "A 6")
    assert game.ships["I 10"].masts == 3
    report = move(game, "red", "I 10", "I 9")
    assert report["battery_masts"] == 0 and game.ships["I 9"].masts == 3


def test_b7_blue_ships_are_never_harmed_by_the_batteries():
    game = arrange(started(batteries={"A": "hit", "B": "hit", "C": "miss", "D": "miss"}),
                   ("blue", "cutter", "D 8", "down"), ("red", "brig", "M 20", "up"),
                   turn="blue")
    report = move(game, "blue", "D 8", "D 12")
    assert report["battery_masts"] == 0 and game.ships["D 12"].masts == 1


def test_b7_a_ship_the_batteries_take_the_last_mast_of_sinks_there():
    game = arrange(started(), ("red", "cutter", "I 12", "up"), ("red", "brig", "M 20", "up"),
                   ("blue", "cutter", "A 3", "down"))
    report = move(game, "red", "I 12", "I 8")
    assert report["to"] == "I 10" and report["path"] == ["I 11", "I 10"]
    assert report["sunk"] == [{"side": "red", "type": "cutter", "number": 1, "at": "I 10",
                               "by": "batteries"}]
    assert report_for(game, report, "red")["text"] == (
        "Red's Cutter 1 sailed from I 12 toward I 8; lost one mast to the shore batteries and "
        "sank at I 10")


def test_b11_which_battery_hit_is_never_said():
    game = arrange(started(), ("red", "frigate", "C 12", "up"), ("blue", "cutter", "A 3",
                                                                 "down"))
    report = report_for(game, move(game, "red", "C 12", "C 9"), "red")  # C 10: battery A
    assert report["battery_masts"] == 1
    text = json.dumps(report)
    assert "site" not in text and not re.search(r"\bbatter(y|ies) [A-D]\b", text)
    assert view_for(game, "red")["batteries"] == {s: "unknown" for s in "ABCD"}


# -- B8, B9: broadsides ---------------------------------------------------------------------


def test_b8_an_exchange_of_broadsides_when_both_broadsides_face():
    game = arrange(started(), ("red", "frigate", "E 7", "up"), ("blue", "frigate", "F 5", "up"))
    report = move(game, "red", "E 7", "E 5")
    assert report["broadsides"] == [
        {"from": "E 5", "at": "F 5", "side": "red", "type": "frigate", "number": 1,
         "target": "frigate", "target_number": 1, "kind": "exchange"},
        {"from": "F 5", "at": "E 5", "side": "blue", "type": "frigate", "number": 1,
         "target": "frigate", "target_number": 1, "kind": "exchange"}]
    assert game.ships["E 5"].masts == 2 and game.ships["F 5"].masts == 2
    assert report_for(game, report, "red")["text"] == (
        "Red's Frigate 1 sailed from E 7 to E 5; exchanged broadsides with Blue's Frigate 1 at "
        "F 5; Blue's Frigate 1 at F 5 lost one mast; Red's Frigate 1 at E 5 lost one mast")


def test_b8_crossing_the_t_fires_one_way_only():
    game = arrange(started(), ("red", "frigate", "E 7", "up"),
                   ("blue", "frigate", "F 5", "right"))  # Blue's stern toward E 5
    report = move(game, "red", "E 7", "E 5")
    assert [(b["side"], b["kind"]) for b in report["broadsides"]] == [("red", "crossed-t")]
    assert game.ships["E 5"].masts == 3 and game.ships["F 5"].masts == 2
    assert "crossed the T of Blue's Frigate 1 at F 5" in report_for(game, report, "red")[
        "text"]


def test_b8_the_enemy_crosses_the_t_of_a_ship_that_sails_bow_on_into_its_broadside():
    game = arrange(started(), ("red", "frigate", "E 7", "up"),
                   ("blue", "brig", "E 4", "left"))  # its broadside faces E 5
    report = move(game, "red", "E 7", "E 5")
    assert [(b["side"], b["kind"]) for b in report["broadsides"]] == [("blue", "crossed-t")]
    assert game.ships["E 5"].masts == 2 and game.ships["E 4"].masts == 2
    assert "had its T crossed by Blue's Brig 1 at E 4" in report_for(game, report, "red")[
        "text"]


@pytest.mark.parametrize("blue_facing", ["down", "up"])  # bow to bow, bow to stern
def test_b8_no_broadside_bow_to_bow_or_bow_to_stern(blue_facing):
    """(A ship that has just moved never lies stern on to a ship next to it: it sailed from
    that side, through that cross.)"""
    game = arrange(started(), ("red", "frigate", "E 7", "up"),
                   ("blue", "frigate", "E 4", blue_facing))
    report = move(game, "red", "E 7", "E 5")
    assert report["broadsides"] == [] and report["masts_lost"] == []


def test_b8_never_diagonally():
    game = arrange(started(), ("red", "frigate", "E 7", "up"), ("blue", "frigate", "F 4", "up"))
    assert move(game, "red", "E 7", "E 5")["broadsides"] == []


def test_b8_a_ship_between_two_enemies_fires_from_both_sides():
    game = arrange(started(), ("red", "frigate", "E 7", "up"), ("blue", "frigate", "D 5", "up"),
                   ("blue", "frigate", "F 5", "right"))
    report = move(game, "red", "E 7", "E 5")
    fired = {(b["from"], b["at"], b["kind"]) for b in report["broadsides"]}
    assert fired == {("E 5", "D 5", "exchange"), ("D 5", "E 5", "exchange"),
                     ("E 5", "F 5", "crossed-t")}
    assert [game.ships[c].masts for c in ("D 5", "E 5", "F 5")] == [2, 2, 2]
    text = report_for(game, report, "red")["text"]
    assert "exchanged broadsides with Blue's Frigate 1 at D 5" in text  # told apart
    assert "crossed the T of Blue's Frigate 2 at F 5" in text


def test_b8_only_the_move_that_brings_ships_into_position_fires():
    game = arrange(started(), ("red", "frigate", "E 7", "up"), ("blue", "frigate", "F 5", "up"),
                   ("red", "brig", "M 20", "up"), ("blue", "cutter", "A 3", "down"))
    move(game, "red", "E 7", "E 5")  # the exchange
    assert move(game, "blue", "A 3", "A 4")["broadsides"] == []
    assert move(game, "red", "M 20", "M 18")["broadsides"] == []
    assert [game.ships[c].masts for c in ("E 5", "F 5")] == [2, 2]  # side by side, quiet


def test_b9_a_ship_with_no_masts_left_is_sunk_and_removed():
    game = arrange(started(), ("red", "cutter", "E 7", "up"), ("blue", "cutter", "F 5", "up"),
                   ("red", "brig", "M 20", "up"), ("blue", "cutter", "A 3", "down"))
    report = move(game, "red", "E 7", "E 5")
    assert {(s["side"], s["at"], s["by"]) for s in report["sunk"]} == {
        ("red", "E 5", "broadside"), ("blue", "F 5", "broadside")}
    assert "E 5" not in game.ships and "F 5" not in game.ships
    assert {s["at"] for s in view_for(game, "red")["ships"]} == {"M 20", "A 3"}
    text = report_for(game, report, "red")["text"]
    assert "Blue's Cutter 1 at F 5 was sunk" in text and "Red's Cutter 1 at E 5 was sunk" in text


def test_b9_a_merchant_ship_is_sunk_by_one_broadside_from_the_cross_opposite():
    game = arrange(started(), ("red", "frigate", "L 2", "left"), ("blue", "cutter", "A 3",
                                                                  "down"))
    report = move(game, "red", "L 2", "I 2")
    assert report["merchants_sunk"] == ["I 1"]
    assert report["broadsides"] == [{"from": "I 2", "at": "I 1", "side": "red",
                                     "type": "frigate", "number": 1, "target": "merchant",
                                     "target_number": None, "kind": "merchant"}]
    merchants = {m["at"]: m["sunk"] for m in view_for(game, "blue")["merchants"]}
    assert merchants == {"B 1": False, "E 1": False, "I 1": True, "L 1": False}
    assert report_for(game, report, "red")["text"] == (
        "Red's Frigate 1 sailed from L 2 to I 2; sank the merchant ship at I 1")


def test_b9_no_merchant_is_sunk_bow_on_nor_by_blue_and_merchants_never_fire():
    game = arrange(started(), ("red", "frigate", "I 5", "up"), ("blue", "cutter", "E 4",
                                                                "up"))
    assert move(game, "red", "I 5", "I 2")["merchants_sunk"] == []  # its bow at the merchant
    assert move(game, "blue", "E 4", "E 2")["merchants_sunk"] == []  # Blue's own
    assert game.ships["I 2"].masts == 3


# -- B10: the end -------------------------------------------------------------------------


def test_b10_red_wins_when_the_fourth_merchant_ship_sinks():
    game = arrange(started(), ("red", "frigate", "L 2", "left"), ("blue", "cutter", "A 3",
                                                                  "down"))
    game.merchants_sunk.extend(["B 1", "E 1", "L 1"])
    move(game, "red", "L 2", "I 2")
    assert game.phase == "over" and game.turn is None
    result = game.result_document()
    assert (result["winner"], result["reason"], result["scores"]) == (
        "red", "merchants", {"red": 4, "blue": 0})
    assert result_headline(view_for(game, "red")) == (
        "Red sank all four merchant ships; Blue sank 0 of Red's warships.")


def test_b10_blue_wins_when_the_last_red_warship_sinks_by_broadside_battery_or_rock():
    game = arrange(started(), ("red", "cutter", "E 7", "up"), ("blue", "frigate", "F 5",
                                                               "right"))
    move(game, "red", "E 7", "E 6")
    report = move(game, "blue", "F 5", "E 5", "about")  # crosses the T of E 6 (its bow up)
    assert report["sunk"] == [{"side": "red", "type": "cutter", "number": 1, "at": "E 6",
                               "by": "broadside"}]
    assert (game.phase, game.result_document()["winner"], game.result_document()["reason"]) == (
        "over", "blue", "fleet")
    game = arrange(started(), ("red", "frigate", "C 12", "up", 1), ("blue", "cutter", "A 3",
                                                                    "down"))
    move(game, "red", "C 12", "C 9")  # C 10: battery A, hit
    assert game.result_document()["reason"] == "fleet"
    game = arrange(started(), ("red", "cutter", "J 16", "up"), ("blue", "cutter", "A 3",
                                                                "down"))
    move(game, "red", "J 16", "J 12")  # J 13: SINK
    assert game.phase == "over"
    assert (game.result_document()["winner"], game.result_document()["reason"]) == ("blue", "fleet")
    assert result_headline(view_for(game, "blue")) == (
        "Blue sank all ten of Red's warships; Red sank 0 merchant ships.")


def test_b10_a_player_may_resign():
    game = started()
    game.resign("red")
    result = game.result_document()
    assert (result["winner"], result["reason"]) == ("blue", "resigned")
    assert result_headline(view_for(game, "blue")) == "Red resigned; Blue wins."


# -- B11: reports ---------------------------------------------------------------------------


def test_b11_both_players_are_told_the_same_and_the_record_holds_every_move():
    game = play_random(started(), random.Random(3), max_moves=60)
    n = len(game.reports)
    assert n == 60 or game.phase == "over"
    for report in game.reports:
        red, blue = report_for(game, report, "red"), report_for(game, report, "blue")
        assert red == blue and red["text"] == describe(report)
        assert "\n" not in red["text"] and red["text"].startswith(report["seat"].title())
    assert [m["n"] for m in record_for(game, "red")["moves"]] == list(range(1, n + 1))


# -- B12: secrets ---------------------------------------------------------------------------


def _without_fingerprints(view: dict) -> dict:
    view = json.loads(json.dumps(view))
    for seat in view["seats"].values():
        seat["fingerprint"] = None
    return view


def test_b12_red_s_view_is_the_same_whatever_blue_hid_until_something_reveals_it():
    """Two games with the same moves whose Blue secrets differ only where nothing has been
    revealed give Red the very same views and reports (the salted fingerprint aside)."""
    other_buoys = {"F 6": "pass", "G 6": "sink", "H 6": "pass", "J 13": "sink", "K 13": "pass",
                   "D 13": "sink"}
    other_batteries = {"A": "miss", "B": "hit", "C": "hit", "D": "miss"}  # C the same
    one, two = started(), started(other_buoys, other_batteries)
    moves = [("red", "I 19", "I 8", None),  # I 10: battery C in both
             ("blue", "A 2", "A 5", None), ("red", "K 19", "K 17", None),
             ("blue", "B 2", "B 4", None), ("red", "I 8", "J 8", "right")]
    for seat, ship, to, how in moves:
        a, b = move(one, seat, ship, to, how), move(two, seat, ship, to, how)
        assert report_for(one, a, "red") == report_for(two, b, "red")
        assert _without_fingerprints(view_for(one, "red")) == \
            _without_fingerprints(view_for(two, "red"))
    assert view_for(one, "blue")["buoys"] != view_for(two, "blue")["buoys"]


def test_b12_nothing_red_receives_before_the_end_names_an_unrevealed_secret():
    for seed in range(2):
        game = started()
        secret = json.dumps(blue_disposition()["buoys"])

        def scan(game, report, secret=secret):
            view = view_for(game, "red")
            told = json.dumps(view["buoys"]) + json.dumps(view["reports"][-1:]) + (
                json.dumps(record_for(game, "red")) if report["n"] % 25 == 0 else "")
            if game.phase != "over":
                assert secret not in told and "revealed" not in view
                assert set(view["batteries"].values()) == {"unknown"}
                assert view["disposition"] == game.fleets["red"].document
                for cross, buoy in view["buoys"].items():
                    assert buoy["kind"] == (game.revealed[cross] if buoy["revealed"]
                                            else "unknown")
            else:
                assert view["revealed"]["blue"]["buoys"] == BUOYS
                assert view["batteries"] == BATTERIES

        play_random(game, random.Random(seed), each=scan)
        assert game.phase == "over"


def test_b12_blue_s_secrets_are_in_every_view_once_the_game_is_over():
    game = play_random(started(), random.Random(11))
    view = view_for(game, "red")
    assert view["batteries"] == BATTERIES
    assert {c: b["kind"] for c, b in view["buoys"].items()} == BUOYS


# -- B13: the documents ---------------------------------------------------------------------


def test_b13_documents_are_kept_in_their_normal_form():
    doc = red_disposition()
    doc["ships"].reverse()
    doc["ships"][0]["at"] = "m20"
    normal = check_disposition(doc, "red").document
    assert [s["at"] for s in normal["ships"]] == RED_AT
    blue = blue_disposition()
    blue["buoys"] = {k.replace(" ", "").lower(): v for k, v in reversed(blue["buoys"].items())}
    blue["batteries"] = {k.lower(): v for k, v in blue["batteries"].items()}
    normal = check_disposition(blue, "blue").document
    assert list(normal["buoys"]) == list(board.YELLOW_CIRCLES)
    assert normal["batteries"] == BATTERIES
    game = started()
    game.move("red", {"ship": "i19", "to": "I15"})
    assert game.events[-1]["move"] == {"ship": "I 19", "turn": None, "to": "I 15"}


def test_b13_a_disposition_that_is_not_a_document_is_refused():
    for bad in (None, [], "ships", {"ships": "all"}, {"ships": [1, 2]}, {"ships": [{}] * 40}):
        violation = refused(check_disposition, bad, "red")
        assert rules_of(violation) <= {"B1", "B3", "B13"}, violation
    game = created()
    game.join("red", "Ann")
    assert rules_of(refused(game.submit, "red", {"ships": []})) == {"B3"}


# -- B14: the view ---------------------------------------------------------------------------


def test_b14_the_view_holds_the_board_and_every_ship_the_same_for_both():
    game = started()
    move(game, "red", "I 19", "I 15")
    red, blue = view_for(game, "red"), view_for(game, "blue")
    assert red["board"] == blue["board"] == board.BOARD
    assert red["ships"] == blue["ships"] and len(red["ships"]) == 20
    assert {"side": "red", "type": "ship-of-the-line", "number": 1, "name": "Ship-of-the-Line 1",
            "at": "I 15", "facing": "up", "masts": 4, "sunk": False} in red["ships"]
    assert red["merchants"] == blue["merchants"]
    assert blue["legal"] and red["legal"] == []
    assert red["rules"] == "broadside" and red["order"] == ["red", "blue"]


def test_b14_before_play_a_seat_sees_only_its_own_ships():
    game = created()
    game.join("red", "Ann")
    game.join("blue", "Bob")
    game.submit("red", red_disposition())
    game.submit("blue", blue_disposition())
    assert {s["side"] for s in view_for(game, "red")["ships"]} == {"red"}
    assert view_for(game, "red")["buoys"]["F 6"]["kind"] == "unknown"
    assert view_for(game, "blue")["buoys"]["F 6"]["kind"] == "sink"
