"""Rulings R1-R9: the chart, the budget and placement, and every bad disposition."""

from __future__ import annotations

import copy

import pytest
from helpers import ATTACKER, joined_game, padded, plane, ship, started_game

from referee.naval_war import RuleViolation, check_disposition, parse_square, square_name
from referee.naval_war.squares import NotationError, Square


def problems_of(document: object) -> list:
    with pytest.raises(RuleViolation) as caught:
        check_disposition(document)
    return caught.value.problems


def only_problem(document: object):
    found = problems_of(document)
    assert len(found) == 1, [p.message for p in found]
    return found[0]


# -- R1: the chart and its notation -------------------------------------------------------

@pytest.mark.parametrize("text", ["S 6", "S6", "s6", "s 6", " s  6 "])
def test_r1_a_square_may_be_written_four_ways(text):
    assert parse_square(text) == Square(18, 5)
    assert square_name(parse_square(text)) == "S 6"


def test_r1_a1_is_top_left_and_u21_bottom_right():
    assert parse_square("A 1") == Square(0, 0)
    assert parse_square("U 1") == Square(20, 0)
    assert parse_square("A 21") == Square(0, 20)
    assert square_name(Square(20, 20)) == "U 21"


@pytest.mark.parametrize("text, reason", [
    ("V 3", "columns run A to U"),
    ("B 22", "rows run 1 to 21"),
    ("B 0", "rows run 1 to 21"),
    ("", "write the column letter then the row number"),
    ("6 S", "write the column letter then the row number"),
    ("AA 1", "write the column letter then the row number"),
    ("K \u0661\u0660", "write the column letter then the row number"),  # Arabic-Indic 10
    (7, "a square is written as text"),
    (None, "a square is written as text"),
    (["A", 1], "a square is written as text"),
])
def test_r1_bad_squares_are_refused_with_the_reason(text, reason):
    with pytest.raises(NotationError, match="R1"):
        parse_square(text)
    document = padded(land=["A 1"])
    document["land"].append(text)
    problem = only_problem(document)
    assert problem.rule == "R1"
    assert reason in problem.message
    assert problem.field == "land[1]"


@pytest.mark.parametrize("where", ["ships", "aircraft", "guns"])
def test_r1_bad_squares_are_refused_in_every_part_of_a_disposition(where):
    document = padded(land=["A 1"], ships=[ship("submarine", "H 1")],
                      aircraft=[plane("bomber", "A 1")], guns=["B 1"])
    if where == "guns":
        document["guns"][0] = "V 3"
    else:
        document[where][0]["at"] = "V 3"
    problem = next(p for p in problems_of(document) if p.rule == "R1")
    assert "'V 3' is not a square: columns run A to U" in problem.message


def test_r1_a_ship_is_written_by_its_squares():
    document = padded(ships=[ship("cruiser", "S 6", "down"), ship("battleship", "C 5")])
    fleet, _, _ = check_disposition(document)
    assert fleet.ships[0].name == "Cruiser at S 6-8"
    assert fleet.ships[1].name == "Battleship at C 5-F 5"


def test_r1_the_referee_writes_squares_its_own_way():
    document = padded(land=["a1"], ships=[ship("destroyer", "h1")],
                      aircraft=[plane("bomber", "b2")])
    fleet, _, _ = check_disposition(document)
    assert fleet.document["land"][0] == "A 1"
    assert fleet.document["ships"][0] == {"type": "destroyer", "at": "H 1", "dir": "across"}
    assert fleet.document["aircraft"][0] == {"type": "bomber", "at": "B 2"}


# -- R2: sea unless land --------------------------------------------------------------------

def test_r2_every_square_is_sea_unless_its_owner_puts_land_there():
    target = padded(ships=[ship("submarine", "B 2")])
    game = started_game(dispositions={"blue": target,
                                      "red": padded(land=["A 1"],
                                                    aircraft=[plane("recon", "A 1")])})
    _, report = game.move("red", {"weapon": "recon", "from": "A 1", "at": "K 5"})
    assert [e["terrain"] for e in report["seen"]] == ["sea"] * 9
    fleet, _, _ = check_disposition(padded(land=["J 4"]))
    assert {Square(c, r) for c in range(9, 12) for r in range(3, 6)} == set(fleet.land)


# -- R3: prices -------------------------------------------------------------------------------

def test_r3_prices_of_every_piece():
    base = padded(land=["A 1", "D 1"], salvoes=0)
    base_cost = check_disposition(base)[1]
    additions = [
        ("ships", ship("carrier", "H 1"), 4, 0),
        ("ships", ship("battleship", "H 4"), 4, 0),
        ("ships", ship("cruiser", "H 6"), 3, 0),
        ("ships", ship("destroyer", "H 8"), 2, 0),
        ("ships", ship("submarine", "H 10"), 1, 0),
        ("aircraft", plane("atom-bomber", "A 1"), 0, 10),
        ("aircraft", plane("bomber", "B 1"), 0, 3),
        ("aircraft", plane("recon", "C 1"), 0, 1),
        ("guns", "D 1", 0, 1),
    ]
    for part, item, ships, forces in additions:
        document = copy.deepcopy(base)
        document[part].append(item)
        cost = check_disposition(document)[1]
        added = (cost.ships - base_cost.ships, cost.forces - base_cost.forces)
        assert added == (ships, forces), item
    document = copy.deepcopy(base)
    document["salvoes"] = 5
    assert check_disposition(document)[1].forces == base_cost.forces + 5


def test_r3_land_costs_nothing():
    plain = check_disposition(padded(salvoes=60))[1]
    with_land = check_disposition(padded(land=["A 1", "D 1", "G 1", "A 4"], salvoes=60))[1]
    assert plain == with_land


def test_r3_an_unknown_piece_is_refused():
    document = padded()
    document["ships"].append({"type": "frigate", "at": "A 1", "dir": "across"})
    document["aircraft"].append({"type": "zeppelin", "at": "A 1"})
    found = problems_of(document)
    assert [p.rule for p in found] == ["R3", "R3"]
    assert "'frigate' is not one of carrier, battleship" in found[0].message
    assert "'zeppelin' is not one of atom-bomber, bomber, recon" in found[1].message


# -- R4: the budget ---------------------------------------------------------------------------

def fleet_of(ships: int, forces: int, atom_bombers: int = 0) -> dict:
    """Battleships and submarines worth ``ships``; Atom Bombers on land and salvoes worth
    ``forces``."""
    battleships, submarines = divmod(ships, 4)
    entries = [ship("battleship", f"{'AFKP'[i % 4]} {2 * (i // 4) + 1}")
               for i in range(battleships)]
    entries += [ship("submarine", f"{'ACEGIKMOQSU'[i % 11]} {15 + 2 * (i // 11)}")
                for i in range(submarines)]
    land = ["A 19", "D 19"] if atom_bombers else []
    aircraft = [plane("atom-bomber", f"{'ABCDEF'[i % 6]} {19 + i // 6}")
                for i in range(atom_bombers)]
    return {"land": land, "ships": entries, "aircraft": aircraft, "guns": [],
            "salvoes": forces - 10 * atom_bombers}


def test_r4_exactly_the_minimums_and_the_maximum_are_accepted():
    assert check_disposition(fleet_of(60, 60))[1].total == 120
    assert check_disposition(fleet_of(100, 60))[1].total == 160
    assert check_disposition(fleet_of(60, 100, atom_bombers=6))[1].total == 160


@pytest.mark.parametrize("ships, forces, atom_bombers, message", [
    (56, 80, 0, "Ships cost 56 points; at least 60 are needed"),
    (80, 59, 0, "Aircraft, A-A guns and salvoes cost 59 points; at least 60 are needed"),
    (100, 61, 0, "The fleet costs 161 points; at most 160 may be spent"),
    (60, 70, 7, "7 Atom Bombers are bought; no player may buy more than 6"),
])
def test_r4_budget_shortfalls_and_overspending_are_refused(ships, forces, atom_bombers,
                                                           message):
    problem = only_problem(fleet_of(ships, forces, atom_bombers))
    assert problem.rule == "R4"
    assert message in problem.message


def test_r4_every_budget_problem_is_reported_at_once():
    found = problems_of(fleet_of(8, 2))
    assert [p.rule for p in found] == ["R4", "R4"]
    assert "Ships cost 8 points" in found[0].message
    assert "cost 2 points" in found[1].message


def test_r4_unspent_points_are_lost_with_a_warning_but_accepted():
    _, cost, warnings = check_disposition(fleet_of(60, 60))
    assert cost.unspent == 40
    assert [(w.rule, w.message) for w in warnings] == [
        ("R4", "40 points are unspent and will be lost")]
    assert check_disposition(fleet_of(100, 60))[2] == []


def test_r4_a_game_accepts_a_fleet_with_unspent_points_and_says_so():
    game = joined_game()
    _, cost, warnings = game.submit("red", fleet_of(60, 60))
    assert cost == {"ships": 60, "forces": 60, "total": 120, "unspent": 40}
    assert warnings[0].rule == "R4"


# -- R5: what is bought is what is placed --------------------------------------------------

def test_r5_what_is_listed_is_what_is_bought():
    document = padded(land=["A 1"], ships=[ship("carrier", "H 1")],
                      aircraft=[plane("bomber", "H 1"), plane("recon", "A 1")], guns=["B 1"])
    fleet, cost, _ = check_disposition(document)
    assert [s.type for s in fleet.ships].count("carrier") == 1
    assert [a.type for a in fleet.aircraft] == ["bomber", "recon"]
    assert [square_name(g.square) for g in fleet.guns] == ["B 1"]
    assert cost.forces == 3 + 1 + 1 + document["salvoes"]


@pytest.mark.parametrize("salvoes", ["8", -1, 8.0, True, None, 161])
def test_r5_salvoes_are_a_whole_number(salvoes):
    document = fleet_of(60, 60)
    document["salvoes"] = salvoes
    found = problems_of(document)
    assert found[0].rule == "R5"
    assert "'salvoes' is how many salvoes are bought" in found[0].message


def test_r5_a_disposition_lists_only_its_five_parts():
    document = fleet_of(60, 60)
    document["artillery"] = 3
    problem = only_problem(document)
    assert problem.rule == "R5"
    assert "'artillery' is not part of a disposition" in problem.message
    assert only_problem(["not", "a", "dict"]).rule == "R5"


def test_r5_salvoes_are_not_placed_and_cannot_be_destroyed():
    target = padded(land=["A 1", "D 1"], guns=["B 2", "E 2"], salvoes=30)
    assert "salvo" not in str(target["land"] + target["guns"])
    game = started_game(dispositions={"red": ATTACKER, "blue": target})
    before = game.fleets["blue"].forces()
    game.move("red", {"weapon": "atom-bomber", "from": "A 1", "at": "C 2"})
    assert game.fleets["blue"].damage()["destroyed"] == ["B 2", "E 2"]
    assert game.fleets["blue"].forces() == before == {"atom-bomber": 0, "bomber": 0,
                                                      "recon": 0, "salvo": 30}
    game.move("blue", {"weapon": "salvo", "at": ["A 1", "B 1", "C 1"]})
    assert game.fleets["blue"].salvoes_left == 29


# -- R6: land ---------------------------------------------------------------------------------

def test_r6_land_units_are_3_by_3_and_may_adjoin():
    fleet, _, _ = check_disposition(padded(land=["A 1", "D 1", "A 4", "S 10"]))
    assert len(fleet.land) == 36
    assert parse_square("C 6") in fleet.land and parse_square("U 12") in fleet.land
    assert parse_square("D 4") not in fleet.land


def test_r6_a_player_may_put_down_as_much_land_as_he_likes():
    units = [f"{'ADGJMPS'[i % 7]} {1 + 3 * (i // 7)}" for i in range(28)]  # rows 1-12
    fleet, _, _ = check_disposition(padded(land=units))
    assert len(fleet.land) == 28 * 9


@pytest.mark.parametrize("units, message, squares", [
    (["T 1"], "The land unit at T 1 runs off the chart", ["T 1"]),
    (["A 20"], "The land unit at A 20 runs off the chart", ["A 20"]),
    (["A 1", "B 2"], "The land unit at B 2 overlaps the land unit at A 1",
     ["B 2", "C 2", "B 3", "C 3"]),
    (["D 1", "D 1"], "The land unit at D 1 overlaps the land unit at D 1", None),
])
def test_r6_land_off_the_chart_or_overlapping_is_refused(units, message, squares):
    problem = only_problem(padded(salvoes=60) | {"land": units})
    assert problem.rule == "R6"
    assert message in problem.message
    if squares is not None:
        assert list(problem.squares) == squares


def test_r6_land_must_be_a_list():
    problem = only_problem(padded() | {"land": "A 1"})
    assert (problem.rule, problem.message) == ("R6", "'land' must be a list")


# -- R7: ships --------------------------------------------------------------------------------

@pytest.mark.parametrize("entry, squares", [
    (ship("carrier", "K 10"), ["K 10", "L 10", "K 11", "L 11"]),
    (ship("battleship", "C 5", "across"), ["C 5", "D 5", "E 5", "F 5"]),
    (ship("battleship", "C 5", "down"), ["C 5", "C 6", "C 7", "C 8"]),
    (ship("cruiser", "H 2", "down"), ["H 2", "H 3", "H 4"]),
    (ship("destroyer", "S 6", "down"), ["S 6", "S 7"]),
    (ship("submarine", "P 12"), ["P 12"]),
    ({"type": "carrier", "at": "K 10", "dir": "down"}, ["K 10", "L 10", "K 11", "L 11"]),
    ({"type": "submarine", "at": "P 12", "dir": "sideways"}, ["P 12"]),
])
def test_r7_ships_have_their_shapes(entry, squares):
    fleet, _, _ = check_disposition(padded(ships=[entry]))
    assert [square_name(s) for s in fleet.ships[0].squares] == squares


def test_r7_ships_may_lie_along_the_edges():
    document = padded(ships=[ship("battleship", "R 1"), ship("cruiser", "A 11", "down"),
                             ship("carrier", "T 12")])
    assert check_disposition(document)[1].ships >= 60


@pytest.mark.parametrize("entry, message", [
    (ship("battleship", "S 1", "across"), "The Battleship at S 1 runs off the chart"),
    (ship("cruiser", "A 11", "down"), None),  # fits: A 11-13
    (ship("destroyer", "U 3", "across"), "The Destroyer at U 3 runs off the chart"),
    (ship("carrier", "U 5"), "The Aircraft Carrier at U 5 runs off the chart"),
    (ship("battleship", "B 19", "down"), "The Battleship at B 19 runs off the chart"),
])
def test_r7_a_ship_off_the_chart_is_refused(entry, message):
    document = padded(salvoes=60)
    document["ships"].append(entry)
    if message is None:
        assert check_disposition(document)
        return
    problem = next(p for p in problems_of(document) if p.rule == "R7")
    assert message in problem.message
    assert list(problem.squares) == [entry["at"]]


@pytest.mark.parametrize("entry, message, squares", [
    (ship("cruiser", "A 3", "down"), "The Cruiser at A 3-5 lies on land", ["A 3"]),
    (ship("battleship", "B 1", "across"), "The Battleship at B 1-E 1 lies on land",
     ["B 1", "C 1"]),
    (ship("carrier", "C 3"), "The Aircraft Carrier at C 3-D 4 lies on land", ["C 3"]),
    (ship("submarine", "B 2"), "The Submarine at B 2 lies on land", ["B 2"]),
])
def test_r7_a_ship_on_land_is_refused(entry, message, squares):
    document = padded(land=["A 1"], salvoes=60)
    document["ships"].append(entry)
    problem = only_problem(document)
    assert problem.rule == "R7"
    assert message in problem.message and "ships lie on sea squares" in problem.message
    assert list(problem.squares) == squares


@pytest.mark.parametrize("direction", ["diagonal", None, "Down", 1])
def test_r7_a_ship_lies_across_or_down(direction):
    document = padded()
    entry = {"type": "cruiser", "at": "H 5"}
    if direction is not None:
        entry["dir"] = direction
    document["ships"].append(entry)
    problem = only_problem(document)
    assert problem.rule == "R7"
    assert f"a Cruiser lies 'across' or 'down', not {direction!r}" in problem.message
    assert problem.field.endswith(".dir")


def test_r7_ships_must_be_a_list():
    found = problems_of(padded() | {"ships": {"type": "submarine", "at": "A 1"}})
    assert (found[0].rule, found[0].message) == ("R7", "'ships' must be a list")
    assert found[1].message == "Ships cost 0 points; at least 60 are needed"


# -- R8: ships may not touch -------------------------------------------------------------

def test_r8_ships_may_not_touch_at_a_corner():
    document = padded(ships=[ship("battleship", "C 5"), ship("cruiser", "G 2", "down")],
                      check=False)
    problem = only_problem(document)
    assert problem.rule == "R8"
    assert problem.message == ("The Cruiser at G 2-4 touches the Battleship at C 5-F 5 "
                               "at a corner")
    assert list(problem.squares) == ["G 4", "F 5"]


def test_r8_ships_may_not_touch_along_a_side():
    document = padded(ships=[ship("battleship", "C 5"), ship("destroyer", "D 6")], check=False)
    problem = only_problem(document)
    assert problem.rule == "R8"
    assert problem.message == ("The Destroyer at D 6-E 6 touches the Battleship at C 5-F 5 "
                               "along a side")
    assert set(problem.squares) == {"C 5", "D 5", "E 5", "F 5", "D 6", "E 6"}


def test_r8_end_to_end_is_touching_along_a_side():
    problem = only_problem(padded(ships=[ship("submarine", "A 1"), ship("submarine", "B 1")],
                                  check=False))
    assert problem.message == "The Submarine at B 1 touches the Submarine at A 1 along a side"
    assert list(problem.squares) == ["A 1", "B 1"]


def test_r8_overlapping_ships_are_refused():
    problem = only_problem(padded(ships=[ship("battleship", "C 5"),
                                         ship("cruiser", "E 4", "down")], check=False))
    assert problem.rule == "R8"
    assert problem.message == "The Cruiser at E 4-6 overlaps the Battleship at C 5-F 5"
    assert list(problem.squares) == ["E 5"]


def test_r8_one_square_apart_is_allowed():
    document = padded(ships=[ship("battleship", "C 5"), ship("cruiser", "H 2", "down"),
                             ship("submarine", "C 7"), ship("carrier", "H 6")])
    assert len(check_disposition(document)[0].ships) >= 4


def test_r8_ships_may_touch_land():
    document = padded(land=["A 1"], ships=[ship("cruiser", "D 1", "down"),
                                           ship("destroyer", "A 4")])
    assert check_disposition(document)


def test_r8_every_touching_pair_is_reported():
    document = padded(ships=[ship("submarine", "E 5"), ship("submarine", "D 4"),
                             ship("submarine", "F 6"), ship("submarine", "F 4")], check=False)
    found = problems_of(document)
    assert [p.rule for p in found] == ["R8"] * 3
    assert {p.squares for p in found} == {("D 4", "E 5"), ("E 5", "F 6"), ("F 4", "E 5")}


# -- R9: where aircraft and guns stand ------------------------------------------------------

def test_r9_aircraft_and_guns_stand_where_they_may():
    document = padded(land=["A 1"], ships=[ship("carrier", "H 1")],
                      aircraft=[plane("atom-bomber", "A 1"), plane("bomber", "B 1"),
                                plane("recon", "C 1"), plane("bomber", "H 1"),
                                plane("recon", "I 1"), plane("bomber", "H 2"),
                                plane("recon", "I 2")],
                      guns=["A 2", "B 2"])
    fleet, _, _ = check_disposition(document)
    assert len(fleet.aircraft) == 7 and len(fleet.guns) == 2


@pytest.mark.parametrize("aircraft, guns, message, square", [
    ([plane("atom-bomber", "K 5")], [], "The Atom Bomber at K 5 must stand on land", "K 5"),
    ([plane("atom-bomber", "H 1")], [], "The Atom Bomber at H 1 must stand on land", "H 1"),
    ([], ["H 2"], "The A-A gun at H 2 must stand on land", "H 2"),
    ([], ["K 5"], "The A-A gun at K 5 must stand on land", "K 5"),
    ([plane("bomber", "K 5")], [],
     "The Bomber at K 5 must stand on land or on an Aircraft Carrier", "K 5"),
    ([plane("recon", "J 1")], [],
     "The R.P. at J 1 must stand on land or on an Aircraft Carrier", "J 1"),
    ([plane("bomber", "A 1"), plane("recon", "A 1")], [],
     "The R.P. at A 1 shares its square with the Bomber listed before it", "A 1"),
    ([plane("atom-bomber", "B 2")], ["B 2"],
     "The A-A gun at B 2 shares its square with the Atom Bomber listed before it", "B 2"),
    ([], ["C 3", "C 3"], "The A-A gun at C 3 shares its square", "C 3"),
    ([plane("bomber", s) for s in ("H 1", "I 1", "H 2", "I 2", "I 2")], [],
     "The Bomber at I 2 shares its square with the Bomber listed before it", "I 2"),
])
def test_r9_misplaced_aircraft_and_guns_are_refused(aircraft, guns, message, square):
    document = padded(land=["A 1"], ships=[ship("carrier", "H 1")])
    document["aircraft"] = aircraft
    document["guns"] = guns
    found = [p for p in problems_of(document) if p.rule == "R9"]
    assert len(found) == 1
    assert message in found[0].message
    assert list(found[0].squares) == [square]


# -- Every problem at once, and nothing changes -----------------------------------------

def test_every_problem_of_a_disposition_is_reported_at_once():
    document = {
        "land": ["A 1", "T 1", "V 3"],
        "ships": [ship("battleship", "C 5"), ship("cruiser", "G 2", "down"),
                  ship("destroyer", "U 9"), ship("submarine", "B 2"),
                  {"type": "cruiser", "at": "K 5", "dir": "diagonal"}],
        "aircraft": [plane("atom-bomber", "K 12")],
        "guns": ["A 1", "A 1"],
        "salvoes": 3,
    }
    found = problems_of(document)
    rules = [p.rule for p in found]
    for rule in ("R1", "R4", "R6", "R7", "R8", "R9"):
        assert rule in rules, rule
    messages = " | ".join(p.message for p in found)
    assert "'V 3' is not a square" in messages
    assert "The land unit at T 1 runs off the chart" in messages
    assert "The Destroyer at U 9 runs off the chart" in messages
    assert "The Submarine at B 2 lies on land" in messages
    assert "not 'diagonal'" in messages
    assert "touches the Battleship at C 5-F 5 at a corner" in messages
    assert "The Atom Bomber at K 12 must stand on land" in messages
    assert "The A-A gun at A 1 shares its square" in messages
    assert "Ships cost" in messages
    assert found[0].to_json().keys() >= {"rule", "message", "squares"}


def test_a_refused_disposition_changes_nothing():
    game = joined_game()
    good = padded(ships=[ship("submarine", "B 2")])
    game.submit("red", good)
    version, document = game.version, copy.deepcopy(game.fleets["red"].document)
    bad = padded(ships=[ship("submarine", "B 2"), ship("submarine", "C 3")], check=False)
    with pytest.raises(RuleViolation) as caught:
        game.submit("red", bad)
    assert caught.value.problems[0].rule == "R8"
    assert game.version == version
    assert game.fleets["red"].document == document
    with pytest.raises(RuleViolation):
        game.submit("blue", bad)
    assert "blue" not in game.fleets
    assert game.version == version
