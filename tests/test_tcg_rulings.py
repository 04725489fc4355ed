"""The rulings of Battleship: The Tactical Combat Game (T1-T12), one or more tests each, as the
referee plays them (docs/battleship-tcg.md)."""

from __future__ import annotations

import json

import pytest
from helpers import started_game
from tcg_support import (
    BOAT_HOLES,
    MAN,
    created,
    disposition,
    miss_holes,
    play_to_rescue,
    shoot,
    started,
)

from referee.battleship_tcg import RULE_SET
from referee.battleship_tcg.card import (
    STANDARD_ISLANDS,
    Card,
    card_from_json,
    check_card,
    connected,
    draw_card,
    fleet_fits,
    read_card_option,
    standard_card,
)
from referee.battleship_tcg.catalogue import BOAT_TYPES, HOLES, NAMES, catalogue
from referee.battleship_tcg.fleet import check_disposition
from referee.battleship_tcg.game import new_game, replay
from referee.battleship_tcg.holes import (
    Hole,
    every_hole,
    hole_name,
    line,
    neighbours,
    parse_hole,
)
from referee.battleship_tcg.views import (
    describe,
    host_view,
    postmortem_view,
    record_for,
    report_for,
    status_view,
    view_for,
)
from referee.common.problems import RuleViolation
from referee.naval_war.views import status_view as naval_status_view


def names(holes) -> list[str]:
    return sorted(hole_name(h) for h in holes)


def refusal(call, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        call(*args, **kwargs)
    return caught.value


def rules_of(err: RuleViolation) -> list[str]:
    return [p.rule for p in err.problems]


# -- T1 the honeycomb ---------------------------------------------------------------------

@pytest.mark.parametrize("text", ["D 3", "D3", "d 3", "Delta 3", "delta3", "DELTA 3", " D 3 ",
                                  "D 03"])
def test_t1_a_hole_is_read_in_every_way_the_rules_say(text):
    assert parse_hole(text) == Hole(3, 2)
    assert hole_name(parse_hole(text)) == "D 3"


@pytest.mark.parametrize("text,name", [("Alfa 1", "A 1"), ("Alpha 1", "A 1"),
                                       ("Juliett 10", "J 10"), ("Juliet 10", "J 10"),
                                       ("Oscar 10", "O 10"), ("o10", "O 10")])
def test_t1_the_spoken_columns(text, name):
    assert hole_name(parse_hole(text)) == name


@pytest.mark.parametrize("text", ["P 1", "A 11", "A 0", "", "D", "3", "D 3 4", "Deltaa 3",
                                  "D -3", None, 3, ["D 3"], "D 3" * 10])
def test_t1_what_names_no_hole(text):
    assert parse_hole(text) is None


def test_t1_a_half_is_fifteen_columns_of_ten():
    holes = list(every_hole())
    assert len(holes) == 150 and len(set(holes)) == 150
    assert hole_name(holes[0]) == "A 1" and hole_name(holes[-1]) == "O 10"


@pytest.mark.parametrize("hole,expected", [
    ("A 1", ["A 2", "B 1"]),  # a high column's top corner
    ("B 1", ["A 1", "A 2", "B 2", "C 1", "C 2"]),  # a low column's top
    ("A 10", ["A 9", "B 9", "B 10"]),  # a high column's foot
    ("B 10", ["A 10", "B 9", "C 10"]),  # a low column's foot: nothing lower in A or C
    ("O 1", ["N 1", "O 2"]),
    ("O 10", ["N 9", "N 10", "O 9"]),
    ("C 5", ["B 4", "B 5", "C 4", "C 6", "D 4", "D 5"]),  # high: r-1 and r across
    ("D 5", ["C 5", "C 6", "D 4", "D 6", "E 5", "E 6"]),  # low: r and r+1 across
    ("N 1", ["M 1", "M 2", "N 2", "O 1", "O 2"]),
])
def test_t1_six_neighbours_and_fewer_at_the_edges(hole, expected):
    assert names(neighbours(parse_hole(hole))) == sorted(expected)


def test_t1_neighbours_are_mutual_and_six_inside():
    for hole in every_hole():
        around = neighbours(hole)
        assert len(around) == len(set(around)) <= 6
        assert all(hole in neighbours(n) for n in around)
        if 0 < hole.column < 14 and 0 < hole.row < 9:
            assert len(around) == 6


def test_t1_lines_run_down_and_along_both_diagonals():
    assert [hole_name(h) for h in line(parse_hole("A 1"), "down", 3)] == ["A 1", "A 2", "A 3"]
    assert [hole_name(h) for h in line(parse_hole("A 10"), "up-right", 4)] == \
        ["A 10", "B 9", "C 9", "D 8"]
    assert [hole_name(h) for h in line(parse_hole("B 1"), "down-right", 3)] == \
        ["B 1", "C 2", "D 2"]


# -- T2 the mission card -----------------------------------------------------------------

def test_t2_the_standard_card_keeps_the_limits_and_its_halves_differ():
    card = standard_card()
    assert check_card(card) == []
    for seat in ("red", "blue"):
        islands = card.islands[seat]
        assert 3 <= len(islands) <= 5
        assert all(2 <= len(i) <= 5 and connected(i) for i in islands)
        assert 10 <= len(card.island_holes(seat)) <= 16
        assert fleet_fits(set(card.sea_holes(seat)))
    assert card.island_holes("red") != card.island_holes("blue")


def test_t2_islands_do_not_touch_one_another():
    card = standard_card()
    for seat in ("red", "blue"):
        for i, island in enumerate(card.islands[seat]):
            others = {h for j, o in enumerate(card.islands[seat]) if j != i for h in o}
            assert not any(n in others for h in island for n in neighbours(h))


@pytest.mark.parametrize("seed", [0, 1, 2, 99, 2**40, 2**63 - 1])
def test_t2_drawn_cards_keep_the_same_limits(seed):
    card = draw_card(seed)
    assert check_card(card) == []
    assert card == draw_card(seed)  # the same seed, the same card
    assert card_from_json(json.loads(json.dumps(card.to_json()))) == card


def test_t2_different_seeds_draw_different_cards():
    assert len({frozenset(draw_card(s).island_holes("red")) for s in range(8)}) > 4


@pytest.mark.parametrize("option", ["random", {"seed": -1}, {"seed": True}, {"seed": 1.5},
                                    {"seed": 1, "x": 2}, {}, 7, {"seed": 2**63}])
def test_t2_a_bad_card_option_is_refused_naming_the_field(option):
    err = refusal(read_card_option, option)
    assert rules_of(err) == ["T2"] and err.problems[0].field == "card"
    err = refusal(new_game, seed=1, options={"card": option})
    assert err.problems[0].field == "card"


def test_t2_a_tampered_card_in_a_log_is_refused():
    game = created()
    event = json.loads(json.dumps(game.events[0]))
    event["card"]["islands"]["red"][0].append("A 10")  # the standard card, changed
    with pytest.raises(RuleViolation):
        replay([event])
    drawn = draw_card(3).to_json()
    drawn["islands"]["red"] = [["A 1", "A 2"], ["C 1", "C 2"], ["E 1", "E 2"]]  # 6 holes
    err = refusal(card_from_json, drawn)
    assert "T2" in rules_of(err)
    touching = draw_card(3).to_json()
    touching["islands"]["blue"] = [["A 1", "A 2", "A 3", "A 4"], ["B 1", "B 2", "B 3"],
                                   ["H 1", "H 2", "H 3", "H 4"]]
    assert any("touch" in p.message for p in refusal(card_from_json, touching).problems)


def test_t2_both_players_see_both_halves_islands_from_the_start():
    game = created()
    for seat in ("red", "blue"):
        view = view_for(game, seat)
        for half in ("red", "blue"):
            assert sorted(view["islands"][half]) == sorted(
                h for island in STANDARD_ISLANDS[half] for h in island)


# -- T3 the fleet --------------------------------------------------------------------------

def test_t3_the_fleet_is_five_boats_and_a_man():
    assert [HOLES[t] for t in BOAT_TYPES] == [5, 4, 3, 3, 2]
    assert [NAMES[t] for t in BOAT_TYPES] == ["Aircraft Carrier", "Battleship",
                                             "Weapons Platform", "Submarine", "Patrol Boat"]
    assert catalogue()["man"]["holes"] == 1


def test_t3_missing_duplicate_and_unknown_boats_are_all_named_at_once():
    doc = disposition("red")
    doc["boats"] = [b for b in doc["boats"] if b["type"] != "patrol-boat"]
    doc["boats"].append(dict(doc["boats"][0]))  # a second carrier
    doc["boats"].append({"type": "dinghy", "at": "J 9", "dir": "down"})
    err = refusal(check_disposition, doc, standard_card(), "red")
    found = {(p.rule, p.field) for p in err.problems}
    assert ("T3", "boats") in found  # no Patrol Boat
    assert ("T3", "boats[4].type") in found  # a second Aircraft Carrier
    assert ("T3", "boats[5].type") in found  # not a boat
    assert any("Patrol Boat" in p.message for p in err.problems)


# -- T4 boats on the sea -------------------------------------------------------------------

def test_t4_off_the_half_on_an_island_overlapping_and_a_bad_direction_together():
    doc = disposition("red")
    doc["boats"][0] = {"type": "carrier", "at": "O 8", "dir": "down"}  # off the foot
    doc["boats"][1] = {"type": "battleship", "at": "C 1", "dir": "down"}  # C 2, C 3 islands
    doc["boats"][2] = {"type": "weapons-platform", "at": "H 2", "dir": "down"}  # over the sub
    doc["boats"][4] = {"type": "patrol-boat", "at": "L 1", "dir": "left"}
    err = refusal(check_disposition, doc, standard_card(), "red")
    by_field = {p.field: p for p in err.problems}
    assert by_field["boats[0]"].rule == "T4" and "off the half" in by_field["boats[0]"].message
    assert by_field["boats[0]"].squares == ("O 8", "O 9", "O 10")
    assert by_field["boats[1]"].squares == ("C 2", "C 3")
    overlap = by_field["boats"]
    assert overlap.rule == "T4" and overlap.squares == ("H 2", "H 3")
    assert by_field["boats[4].dir"].rule == "T4"


def test_t4_a_boat_off_the_half_that_also_lies_on_another_is_told_both():
    # the carrier moved onto the submarine's holes and down off the foot of the half: the
    # player hears of the overlap as well as of the half, not only "runs off the half"
    doc = disposition("red")
    doc["boats"][0] = {"type": "carrier", "at": "H 7", "dir": "down"}  # H 7-H 10, then off
    doc["boats"][3] = {"type": "submarine", "at": "H 8", "dir": "down"}  # H 8-H 10
    err = refusal(check_disposition, doc, standard_card(), "red")
    told = {(p.field, p.message.split(" ")[-1], p.squares) for p in err.problems}
    assert ("boats[0]", "half", ("H 7", "H 8", "H 9", "H 10")) in told
    overlap = next(p for p in err.problems if p.field == "boats")
    assert overlap.rule == "T4" and "share" in overlap.message
    assert overlap.squares == ("H 8", "H 9", "H 10")


def test_t4_boats_may_touch():
    doc = disposition("red")
    doc["boats"][3] = {"type": "submarine", "at": "G 1", "dir": "down"}  # beside F 1-F 3
    fleet = check_disposition(doc, standard_card(), "red")
    assert names(fleet.boats["submarine"]) == ["G 1", "G 2", "G 3"]


def test_t4_every_line_of_a_boat_is_down_or_diagonal():
    fleet = check_disposition(disposition("red"), standard_card(), "red")
    for kind, holes in fleet.boats.items():
        assert names(holes) == sorted(BOAT_HOLES[kind])


# -- T5 the Captured Man -------------------------------------------------------------------

@pytest.mark.parametrize("man,rule", [("J 9", "T5"), ("B 3", "T5"), ("Z 9", "T1"),
                                      (None, "T1")])
def test_t5_the_man_hides_on_an_island_of_his_own_half(man, rule):
    doc = disposition("red")
    doc["man"] = man  # B 3 is an island of Blue's half, sea on Red's
    err = refusal(check_disposition, doc, standard_card(), "red")
    assert [(p.rule, p.field) for p in err.problems] == [(rule, "man")]


def test_t5_the_man_missing():
    doc = disposition("blue")
    del doc["man"]
    assert rules_of(refusal(check_disposition, doc, standard_card(), "blue")) == ["T5"]


# -- T6 the toss ---------------------------------------------------------------------------

def test_t6_the_toss_is_drawn_at_creation_from_the_seed():
    assert created(5).order == ["red", "blue"] and created(1).order == ["blue", "red"]
    game = created(5)
    assert game.events[1]["type"] == "toss"
    assert view_for(game, "blue")["order"] == ["red", "blue"]
    assert rules_of(refusal(game.apply, {"type": "toss", "seed": 1,
                                         "order": ["blue", "red"]})) == ["T6"]
    assert started(5).turn == "red" and started(1).turn == "blue"


# -- T7 shots ------------------------------------------------------------------------------

def test_t7_players_take_turns_and_out_of_turn_is_refused():
    game = started()
    err = refusal(game.move, "blue", {"at": "A 1"})
    assert err.kind == "turn" and rules_of(err) == ["T7"]
    shoot(game, "red", "A 1")
    assert game.turn == "blue"


def test_t7_no_hole_twice_no_island_while_afloat_and_nothing_changes():
    game = started()
    shoot(game, "red", "A 1")
    shoot(game, "blue", "A 1")  # the same name on the other half is another hole
    version = game.version
    err = refusal(game.move, "red", {"at": "a1"})
    assert rules_of(err) == ["T7"] and err.problems[0].squares == ("A 1",)
    err = refusal(game.move, "red", {"at": "B 3"})  # an island of Blue's half
    assert rules_of(err) == ["T7"] and "island" in err.problems[0].message
    assert game.version == version and len(game.reports) == 2


def test_t7_after_the_last_boat_sinks_shots_go_at_islands():
    game = started()
    misses = iter(miss_holes("red"))
    for hole in [h for holes in BOAT_HOLES.values() for h in holes]:
        shoot(game, "red", hole)
        shoot(game, "blue", next(misses))
    err = refusal(game.move, "red", {"at": "J 9"})
    assert rules_of(err) == ["T7"] and "sea" in err.problems[0].message
    assert shoot(game, "red", "E 7")["result"] == "miss"  # an island without the man


@pytest.mark.parametrize("move,rule,field", [
    ({"at": "P 1"}, "T1", "at"), ({}, "T1", "at"), ({"at": "A 1", "weapon": "salvo"}, "T11",
                                                    "weapon"),
    ({"at": "A 1", "target": "red"}, "T11", "target"), ("A 1", "T11", None),
])
def test_t7_a_bad_shot_document_is_refused(move, rule, field):
    game = started()
    err = refusal(game.move, "red", move)
    assert (err.problems[0].rule, err.problems[0].field) == (rule, field) or \
        (rule, field) in {(p.rule, p.field) for p in err.problems}
    assert game.reports == []


def test_t7_shots_before_play_and_after_the_end_are_refused():
    game = created()
    assert refusal(game.move, "red", {"at": "A 1"}).kind == "turn"
    game = started()
    game.resign("blue")
    err = refusal(game.move, "red", {"at": "A 1"})
    assert err.kind == "turn" and rules_of(err) == ["T9"]


def test_t7_a_seat_that_is_not_in_the_game():
    game = started()
    assert refusal(game.move, "green", {"at": "A 1"}).kind == "forbidden"


def test_t7_a_shot_may_name_its_target_and_its_hole_as_a_list():
    game = started()
    report = game.move("red", {"at": ["Delta 9"], "target": "blue"})[1]
    assert report["at"] == ["D 9"]
    assert game.events[-1]["move"] == {"at": "D 9"}


# -- T8 reports ---------------------------------------------------------------------------

def test_t8_miss_hit_and_sunk_named():
    game = started()
    assert shoot(game, "red", "J 9")["result"] == "miss"
    shoot(game, "blue", "J 9")
    first = shoot(game, "red", "L 1")
    assert (first["result"], first["sunk"]) == ("hit", None)
    shoot(game, "blue", "J 8")
    last = shoot(game, "red", "L 2")
    assert (last["result"], last["sunk"]) == ("hit", "patrol-boat")
    assert describe(last) == "Red shot at L 2: Hit: you sank my Patrol Boat"
    assert describe(first) == "Red shot at L 1: Hit"


def test_t8_the_attacker_learns_the_hole_and_result_and_the_target_which_of_his_holes():
    game = started()
    shoot(game, "red", "O 3")
    red, blue = view_for(game, "red"), view_for(game, "blue")
    assert red["shots"]["blue"] == [{"n": 1, "at": "O 3", "result": "hit", "sunk": None}]
    assert blue["shots"]["blue"] == [{"n": 1, "at": "O 3", "result": "hit", "sunk": None,
                                      "found": "carrier"}]
    assert blue["damage"]["carrier"] == ["O 3"]
    assert red["reports"] == blue["reports"]
    assert red["reports"][0]["text"] == "Red shot at O 3: Hit"


# -- T9 the end ---------------------------------------------------------------------------

def test_t9_sinking_all_five_then_rescuing_wins_at_once():
    game = started()
    play_to_rescue(game, "blue")
    assert game.phase == "over" and game.reports[-1]["result"] == "rescued"
    result = game.result_document()
    assert result["winner"] == "blue" and result["winners"] == ["blue"]
    assert result["reason"] == "rescued"
    assert result["scores"] == {"red": 0, "blue": 5}
    assert result["sides"] == [{"seats": ["red"], "score": 0}, {"seats": ["blue"], "score": 5}]
    assert game.turn is None
    assert describe(game.reports[-1]) == f"Blue shot at {MAN['red']}: Rescued"


def test_t9_resigning_loses_and_agreeing_is_a_draw():
    game = started()
    game.resign("red")
    result = game.result_document()
    assert result["winner"] == "blue" and result["reason"] == "resigned"
    game = started()
    shoot(game, "red", "O 1")
    game.agree_to_end("red")
    assert game.phase == "play"
    game.agree_to_end("blue")
    result = game.result_document()
    assert result["winners"] == [] and result["winner"] is None and result["reason"] == "agreed"


def test_t9_an_offer_lapses_when_declined_or_a_shot_is_made():
    game = started()
    game.agree_to_end("red")
    game.play_on("blue")
    assert game.agreed == set()
    err = refusal(game.play_on, "blue")
    assert rules_of(err) == ["T9"]
    game.agree_to_end("blue")
    shoot(game, "red", "A 1")
    assert game.agreed == set()


def test_t9_after_the_end_both_halves_are_revealed():
    game = started()
    shoot(game, "red", "O 1")
    before = view_for(game, "red")
    assert "revealed" not in before
    game.resign("blue")
    view = view_for(game, "red")
    assert view["revealed"]["blue"]["disposition"] == game.fleets["blue"].document
    assert view["seats"]["blue"]["salt"] == "salt-blue"
    assert view["shots"]["blue"][0]["found"] == "carrier"


# -- T10 nothing leaks ---------------------------------------------------------------------

def test_t10_the_postmortem_and_game_file_are_refused_before_the_end():
    game = started()
    for call in (lambda: postmortem_view(game, "red"), lambda: RULE_SET.game_file_view(game)):
        err = refusal(call)
        assert err.kind == "turn" and rules_of(err) == ["T10"]
    game.resign("red")
    post = postmortem_view(game, "blue")
    assert all(check["matches"] for check in post["checks"])
    assert RULE_SET.game_file_view(game)["events"] == game.events


def test_t10_status_and_host_views_hold_no_fleet():
    game = started()
    status = status_view(game)
    assert set(status) == set(naval_status_view(started_game()))
    text = json.dumps(host_view(game)) + json.dumps(status)
    for hole in [h for holes in BOAT_HOLES.values() for h in holes] + list(MAN.values()):
        assert f'"{hole}"' not in text
    assert "disposition" not in text and "salt" not in text


def test_t10_the_opponents_fingerprint_is_public_his_salt_is_not():
    game = started()
    red = view_for(game, "red")
    assert red["seats"]["blue"]["fingerprint"] and red["seats"]["blue"]["salt"] is None
    assert red["disposition"] == game.fleets["red"].document


# -- T11 the documents ---------------------------------------------------------------------

def test_t11_the_carrier_example():
    assert [hole_name(h) for h in line(parse_hole("A 1"), "down-right", 5)] == \
        ["A 1", "B 1", "C 2", "D 2", "E 3"]
    card = Card("drawn", None, {"red": ((parse_hole("O 9"), parse_hole("O 10")),),
                                "blue": standard_card().islands["blue"]})
    doc = {"boats": [{"type": "carrier", "at": "A 1", "dir": "down-right"},
                     {"type": "battleship", "at": "A 3", "dir": "down"},
                     {"type": "weapons-platform", "at": "K 1", "dir": "down"},
                     {"type": "submarine", "at": "M 1", "dir": "down"},
                     {"type": "patrol-boat", "at": "G 9", "dir": "up-right"}], "man": "O 9"}
    fleet = check_disposition(doc, card, "red")
    assert names(fleet.boats["carrier"]) == ["A 1", "B 1", "C 2", "D 2", "E 3"]


def test_t11_the_disposition_is_kept_in_its_normal_form():
    doc = disposition("red")
    doc["boats"].reverse()
    doc["boats"][0]["at"] = "lima1"
    game = started()
    normal = game.fleets["red"].document
    fleet = check_disposition(doc, standard_card(), "red")
    assert fleet.document == normal
    assert [b["type"] for b in normal["boats"]] == list(BOAT_TYPES)


@pytest.mark.parametrize("doc,field", [
    ([], None), ({"boats": {}, "man": "C 2"}, "boats"), ({"boats": [], "man": "C 2", "x": 1}, "x"),
    ({"boats": [7], "man": "C 2"}, "boats[0]"),
    ({"boats": [{"type": "carrier", "at": "O 1", "dir": "down", "hp": 5}], "man": "C 2"},
     "boats[0].hp"),
])
def test_t11_a_malformed_disposition_names_the_field(doc, field):
    err = refusal(check_disposition, doc, standard_card(), "red")
    assert "T11" in rules_of(err)
    assert field in {p.field for p in err.problems}


def test_t11_a_report_has_exactly_its_keys():
    game = started()
    report = shoot(game, "red", "A 1")
    assert set(report) == {"n", "by", "target", "at", "result", "sunk"}
    assert report == {"n": 1, "by": "red", "target": "blue", "at": ["A 1"], "result": "miss",
                      "sunk": None}
    assert set(report_for(game, report, "blue")) == set(report) | {"text"}


def test_t11_submit_in_setup_only_and_by_a_seat_that_joined():
    game = created()
    assert refusal(game.submit, "red", disposition("red")).kind == "turn"
    game.join("red", "Ann")
    submitted = game.submit("red", disposition("red"))
    assert submitted.cost is None and submitted.warnings == []


# -- T12 the view --------------------------------------------------------------------------

def test_t12_the_view_has_its_fields():
    game = started()
    view = view_for(game, "red")
    assert {"islands", "disposition", "shots", "phase", "turn", "order", "version",
            "reports", "result"} <= set(view)
    assert view["rules"] == "battleship-tcg" and view["you"] == "red"
    assert view["shots"] == {"red": [], "blue": []}
    assert view["card"] == {"name": "standard", "seed": None}


def test_t12_a_seat_sees_its_own_disposition_and_not_the_other():
    game = started()
    assert view_for(game, "blue")["disposition"]["man"] == MAN["blue"]
    assert "B 3" not in json.dumps(view_for(game, "red")["disposition"])


def test_t12_the_record_holds_the_toss_and_every_shot():
    game = started()
    shoot(game, "red", "A 1")
    record = record_for(game, "blue")
    assert record["toss"]["order"] == ["red", "blue"]
    assert [m["text"] for m in record["moves"]] == ["Red shot at A 1: Miss"]


# -- the seam ------------------------------------------------------------------------------

def test_t12_the_rule_set_exposes_the_seam():
    assert RULE_SET.rules == "battleship-tcg"
    assert RULE_SET.title == "Battleship: The Tactical Combat Game"
    json.dumps(RULE_SET.catalogue())
    game, events = RULE_SET.new_game(id="x", seed=3, at=0.0, options={"card": {"seed": 4}},
                                     bots={"blue": "recruit"})
    assert [e["type"] for e in events] == ["created", "toss"]
    again = replay(events)
    assert again.card == game.card == draw_card(4)
    assert again.names["blue"] == "Computer (recruit)"


@pytest.mark.parametrize("options,field", [
    ({"seats": 3}, "seats"), ({"alliances": True}, "alliances"), ({"budget": 3}, "budget"),
    ({"disposition_minutes": 0}, "disposition_minutes"), ({"move_minutes": "5"}, "move_minutes"),
])
def test_t12_bad_options_are_refused_naming_the_field(options, field):
    err = refusal(new_game, seed=1, options=options)
    assert err.problems[0].field == field


def test_t12_the_ignored_options_at_their_only_values():
    game, _ = new_game(seed=1, options={"seats": 2, "alliances": False, "move_minutes": 5})
    assert game.move_minutes == 5


def test_t12_replay_gives_the_same_game():
    game = started()
    play_to_rescue(game, "red")
    again = replay(json.loads(json.dumps(game.events)))
    for seat in ("red", "blue"):
        assert view_for(again, seat) == view_for(game, seat)


# -- the shared life of a game (R10, R24, R25), played the same way here --------------------

def test_t6_the_shared_lifecycle_clock_forfeit_and_reissue():
    game = created()
    game.join("red", "Ann")
    game.submit("red", disposition("red"))
    game.extend_clock(10)
    assert game.minutes == 30
    game.reissue("red")
    assert "red" not in game.names and "red" not in game.fleets
    game.join("red", "Cy")
    game.submit("red", disposition("red"))
    game.lock_in("red", salt="s")
    assert refusal(game.forfeit, "blue", 5.0).kind == "turn"  # the clock has not run out
    game.forfeit("blue", game.deadline)
    assert game.phase == "over" and game.result_document()["winner"] == "red"
    assert game.result_document()["reason"] == "forfeit"


def test_t7_the_computer_stands_in_for_an_absent_player_only_with_a_move_clock():
    game = started()
    assert refusal(game.stand_in, "red", "blue").kind == "turn"  # no move clock
    game = started(move_minutes=3)
    game.stand_in("red", "blue")
    report = game.move("red", {"at": "A 1"}, stand_in=True)[1]
    assert report["stand_in"] is True and view_for(game, "blue")["reports"][0]["stand_in"]
    assert refusal(game.move, "blue", {"at": "A 1"}, stand_in=True).problems[0].rule == "R25"


def test_t10_a_name_goes_through_the_one_name_rule():
    game = created()
    assert rules_of(refusal(game.join, "red", "<b>")) == ["R10"]
    assert rules_of(refusal(game.join, "red", "Computer (admiral)")) == ["R10"]


def test_t3_the_catalogue_is_json_and_says_what_the_rules_say():
    served = json.loads(json.dumps(catalogue()))
    assert served["rules"] == "battleship-tcg" and served["order"] == list(BOAT_TYPES)
    assert {k: v["holes"] for k, v in served["boats"].items()} == \
        {k: HOLES[k] for k in BOAT_TYPES}
    letters = [v["letter"] for v in served["boats"].values()] + [served["man"]["letter"]]
    assert len(set(letters)) == 6
    assert served["directions"] == ["down", "down-right", "up-right"]
    assert served["grid"]["columns"] == "ABCDEFGHIJKLMNO" and served["grid"]["depth"] == 10
    assert served["grid"]["low_columns"] == "BDFHJLN"
    assert served["limits"]["name_length"] == 40
    assert served["card"]["half_island_holes"] == {"min": 10, "max": 16}


# the fields of the referee's RuleSet (referee.common.ruleset) this core fills in; ``levels``
# and ``computer`` come from the computer's package
SEAM_FIELDS = ("rules", "title", "game_type", "catalogue", "new_game", "options", "empty",
               "view_for", "report_for", "record_for", "status_view", "host_view", "seating",
               "headline", "targets_for", "postmortem_view", "postmortem_document",
               "game_file_view", "fingerprints_verify", "check_draft", "with_draft",
               "game_content", "stand_in_level", "seats")


def test_t12_rule_set_has_every_field_of_the_seam():
    assert all(hasattr(RULE_SET, name) for name in SEAM_FIELDS)
    assert RULE_SET.seats == ("red", "blue") and RULE_SET.empty().events == []
    game = created()
    game.join("red", "Ann")
    doc = disposition("red")
    doc["boats"][0]["at"] = "o1"
    normal, cost, warnings = RULE_SET.check_draft(game, "red", doc)
    assert normal["boats"][0]["at"] == "O 1" and cost is None and warnings == []
    assert game.events[-1]["type"] == "joined"  # no event
    assert rules_of(refusal(RULE_SET.check_draft, game, "red", {"boats": []})) == ["T3"] * 5 + \
        ["T5"]
    shown = RULE_SET.with_draft(view_for(game, "red"), normal)
    assert shown["disposition"] == normal and shown["damage"]["carrier"] == []
    assert RULE_SET.seating(game)["order"] == ["red", "blue"]
    assert RULE_SET.headline({"result": {"reason": "resigned", "winner": "red",
                                         "winners": ["red"], "scores": {}}}) == \
        "Blue resigned; Red wins."
