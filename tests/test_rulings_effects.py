"""Rulings R15-R19: what shots, bombers, atom bombers, R.P.s and A-A guns do."""

from __future__ import annotations

from helpers import ATTACKER, bomber, idle, padded, plane, salvo, ship, started_game

from referee.naval_war import report_for
from referee.naval_war.combat import firing_gun
from referee.naval_war.squares import area, parse_square, square_name

NOTHING = {"atom-bomber": 0, "bomber": 0, "recon": 0, "aa-gun": 0}


def game_against(blue: dict, **kwargs):
    """Red (the ATTACKER fleet) moves first against Blue's chart."""
    return started_game(dispositions={"red": ATTACKER, "blue": blue}, **kwargs)


def red(game, move: dict) -> dict:
    """Red's move and its full report; Blue then fires harmlessly, so Red is on turn again."""
    _, report = game.move("red", move)
    if game.turn == "blue":
        idle(game, "blue")
    return report


def recon(frm: str, at: str) -> dict:
    return bomber(frm, at, weapon="recon")


def atom(frm: str, at: str) -> dict:
    return bomber(frm, at, weapon="atom-bomber")


def seen(report: dict) -> dict[str, tuple]:
    return {e["square"]: (e["terrain"], e["piece"], e["hit"], e["spent"])
            for e in report["seen"]}


# -- R15: a shot destroys whatever is on its square --------------------------------------

R15_BLUE = padded(land=["A 1"], guns=["B 2"],
                  aircraft=[plane("bomber", "A 1"), plane("recon", "C 1"),
                            plane("bomber", "H 1")],
                  ships=[ship("carrier", "H 1"), ship("submarine", "K 5")])


def test_r15_a_shot_hits_a_ship_and_destroys_an_aircraft_and_its_carrier_square():
    game = game_against(R15_BLUE)
    report = red(game, salvo("C 1", "H 1", "K 5"))
    assert [(s["at"], s["result"], s["new"], s["sunk"]) for s in report["shots"]] == [
        ("C 1", "recon", True, False),
        ("H 1", "carrier", True, False),
        ("K 5", "submarine", True, True),
    ]
    assert report["shots"][1]["aircraft"] == "bomber"
    assert report["destroyed"] == {**NOTHING, "recon": 1, "bomber": 1}
    assert report["hits"] == [{"ship": "carrier", "new_hits": 1, "sunk": False},
                              {"ship": "submarine", "new_hits": 1, "sunk": True}]
    blue = game.fleets["blue"]
    assert blue.damage()["destroyed"] == ["C 1", "H 1"]
    assert blue.forces()["recon"] == 0 and blue.forces()["bomber"] == 1


def test_r15_a_spent_aa_gun_is_destroyed_by_a_shot():
    game = game_against(R15_BLUE)
    shot_down = red(game, bomber("A 2", "B 2"))
    assert shot_down["shot_down"] is True
    assert game.fleets["blue"].damage()["spent"] == ["B 2"]
    report = red(game, salvo("B 2", "B 3", "S 13"))
    assert report["shots"][0]["result"] == "aa-gun"
    assert report["destroyed"] == {**NOTHING, "aa-gun": 1}
    damage = game.fleets["blue"].damage()
    assert damage["destroyed"] == ["B 2"] and damage["spent"] == []


def test_r15_an_aircraft_that_has_flown_has_left_the_chart():
    game = game_against(R15_BLUE, order=["blue", "red"])
    game.move("blue", bomber("A 1", "K 10"))  # Blue's Bomber at A 1 flies off
    report = red(game, salvo("A 1", "B 3", "S 13"))
    assert [s["result"] for s in report["shots"]] == [None, None, None]
    assert report["destroyed"] == NOTHING
    damage = game.fleets["blue"].damage()
    assert damage["flown"] == ["A 1"] and damage["destroyed"] == []


def test_r15_land_is_not_harmed():
    game = game_against(R15_BLUE)
    red(game, atom("A 1", "B 2"))
    report = red(game, recon("A 3", "B 2"))
    assert {terrain for terrain, *_ in seen(report).values()} == {"land"}
    assert all(piece is None for _, piece, *_ in seen(report).values())
    assert len(game.fleets["blue"].land) == 9


# -- R16: the areas of bombers and atom bombers ------------------------------------------

R16_BLUE = padded(ships=[ship("submarine", s) for s in
                         ("A 1", "C 3", "D 1", "I 8", "K 10", "M 12", "N 10", "K 13")])


def test_r16_a_bomber_hits_the_3_by_3_and_squares_off_the_chart_are_ignored():
    game = game_against(R16_BLUE)
    report = red(game, bomber("A 2", "A 1"))
    assert report["hits"] == [{"ship": "submarine", "new_hits": 1, "sunk": True}]
    assert report_for(game, report, "blue")["squares_hit"] == ["A 1"]
    report = red(game, bomber("B 2", "B 2"))  # A 1-C 3
    assert report_for(game, report, "blue")["squares_hit"] == ["C 3"]
    assert game.fleets["blue"].damage()["hit"] == ["A 1", "C 3"]


def test_r16_an_atom_bomber_hits_the_5_by_5():
    game = game_against(R16_BLUE)
    report = red(game, atom("A 1", "K 10"))
    assert report["hits"] == [{"ship": "submarine", "new_hits": 1, "sunk": True}] * 3
    assert report_for(game, report, "blue")["squares_hit"] == ["I 8", "K 10", "M 12"]
    assert "N 10" not in game.fleets["blue"].damage()["hit"]
    assert "K 13" not in game.fleets["blue"].damage()["hit"]


def test_r16_an_atom_bomber_in_a_corner_hits_only_the_squares_on_the_chart():
    game = game_against(R16_BLUE)
    report = red(game, atom("A 1", "A 1"))
    assert report_for(game, report, "blue")["squares_hit"] == ["A 1", "C 3"]
    assert "D 1" not in game.fleets["blue"].damage()["hit"]


def test_r16_area_leaves_out_squares_off_the_chart():
    assert len(area(parse_square("A 1"), 1)) == 4
    assert len(area(parse_square("A 1"), 2)) == 9
    assert len(area(parse_square("K 1"), 2)) == 15
    assert len(area(parse_square("U 21"), 1)) == 4
    assert [square_name(s) for s in area(parse_square("U 21"), 1)] == [
        "T 20", "U 20", "T 21", "U 21"]
    assert len(area(parse_square("K 10"), 2)) == 25


# -- R17: what an R.P. reports ---------------------------------------------------------------

R17_BLUE = padded(land=["A 1"], guns=["A 1"],
                  aircraft=[plane("bomber", "B 1"), plane("bomber", "B 3"),
                            plane("atom-bomber", "C 1"), plane("recon", "A 3")],
                  ships=[ship("destroyer", "D 2", "down"), ship("carrier", "F 5")])


def test_r17_an_rp_reports_the_exact_contents_of_the_3_by_3():
    game = game_against(R17_BLUE, order=["blue", "red"])
    game.move("blue", bomber("B 3", "K 10"))  # Blue's Bomber at B 3 has flown
    first = red(game, recon("A 3", "A 1"))  # shot down by the gun at A 1, which is spent
    assert first["shot_down"] is True and first["seen"] is None
    red(game, salvo("A 3", "D 2", "T 13"))  # Blue's R.P. at A 3 destroyed, D 2 hit
    report = red(game, recon("B 3", "B 2"))
    assert report["shot_down"] is False
    assert seen(report) == {
        "A 1": ("land", "aa-gun", False, True),
        "B 1": ("land", "bomber", False, False),
        "C 1": ("land", "atom-bomber", False, False),
        "A 2": ("land", None, False, False),
        "B 2": ("land", None, False, False),
        "C 2": ("land", None, False, False),
        "A 3": ("land", None, False, False),  # destroyed: no longer stands there
        "B 3": ("land", None, False, False),  # flown: has left the chart
        "C 3": ("land", None, False, False),
    }
    assert [e["square"] for e in report["seen"]] == [
        "A 1", "B 1", "C 1", "A 2", "B 2", "C 2", "A 3", "B 3", "C 3"]
    assert report["hits"] == [] and report["destroyed"] == NOTHING


def test_r17_an_rp_reports_ships_and_which_squares_are_hit():
    game = game_against(R17_BLUE)
    red(game, salvo("D 2", "S 13", "T 13"))
    report = red(game, recon("A 3", "D 3"))
    assert seen(report) == {
        "C 2": ("land", None, False, False),
        "D 2": ("sea", "destroyer", True, False),
        "E 2": ("sea", None, False, False),
        "C 3": ("land", None, False, False),
        "D 3": ("sea", "destroyer", False, False),
        "E 3": ("sea", None, False, False),
        "C 4": ("sea", None, False, False),
        "D 4": ("sea", None, False, False),
        "E 4": ("sea", None, False, False),
    }
    report = red(game, recon("B 3", "G 6"))
    assert seen(report)["F 5"] == ("sea", "carrier", False, False)
    assert seen(report)["G 6"] == ("sea", "carrier", False, False)
    assert seen(report)["H 7"] == ("sea", None, False, False)


def test_r17_an_rp_does_no_damage_and_sees_only_the_squares_on_the_chart():
    game = game_against(R17_BLUE)
    before = game.fleets["blue"].snapshot()
    _, report = game.move("red", recon("A 3", "U 1"))
    assert [e["square"] for e in report["seen"]] == ["T 1", "U 1", "T 2", "U 2"]
    assert report["hits"] == [] and report["destroyed"] == NOTHING
    assert game.fleets["blue"].snapshot() == before


# -- R18: A-A guns ---------------------------------------------------------------------------

R18_BLUE = padded(land=["A 1", "H 1"], guns=["C 3", "C 1", "A 2", "H 2", "I 3"],
                  ships=[ship("battleship", "C 5"), ship("cruiser", "L 1", "down")])


def test_r18_a_bomber_near_a_gun_is_shot_down_and_the_gun_is_spent():
    game = game_against(R18_BLUE)
    report = red(game, bomber("A 2", "C 4"))
    assert report["shot_down"] is True
    assert report["hits"] == [] and report["destroyed"] == NOTHING
    target_copy = report_for(game, report, "blue")
    assert target_copy["gun"] == "C 3" and target_copy["squares_hit"] == []
    assert game.fleets["blue"].damage() == {"hit": [], "destroyed": [], "flown": [],
                                            "spent": ["C 3"]}
    # the spent gun does not fire again: the next Bomber hits the Battleship and the gun
    report = red(game, bomber("B 2", "C 4"))
    assert report["shot_down"] is False
    assert report["hits"] == [{"ship": "battleship", "new_hits": 2, "sunk": False}]
    assert report["destroyed"] == {**NOTHING, "aa-gun": 1}
    assert report_for(game, report, "blue")["squares_hit"] == ["C 3", "C 5", "D 5"]


def test_r18_an_rp_near_a_gun_is_shot_down():
    game = game_against(R18_BLUE)
    report = red(game, recon("A 3", "D 4"))
    assert report["shot_down"] is True and report["seen"] is None
    assert report_for(game, report, "blue")["gun"] == "C 3"


def test_r18_atom_bombers_are_not_shot_down():
    game = game_against(R18_BLUE)
    report = red(game, atom("A 1", "C 4"))
    assert report["shot_down"] is False
    assert report_for(game, report, "blue")["gun"] is None
    assert report["hits"] == [{"ship": "battleship", "new_hits": 3, "sunk": False}]
    assert report["destroyed"]["aa-gun"] == 2  # A 2 and C 3 destroyed, neither spent
    assert game.fleets["blue"].damage()["spent"] == []


def test_r18_salvoes_are_not_shot_down():
    game = game_against(R18_BLUE)
    report = red(game, salvo("C 3", "C 4", "D 5"))
    assert report["shot_down"] is False
    assert [s["result"] for s in report["shots"]] == ["aa-gun", None, "battleship"]


def test_r18_nearest_gun_fires():
    game = game_against(R18_BLUE)
    report = red(game, bomber("A 2", "H 3"))  # H 2 is 1 away, I 3 is 1 away; H 2 first
    assert report_for(game, report, "blue")["gun"] == "H 2"
    report = red(game, bomber("B 2", "I 3"))  # I 3 is 0 away; the spent H 2 cannot fire
    assert report_for(game, report, "blue")["gun"] == "I 3"
    game2 = game_against(R18_BLUE)
    report = red(game2, bomber("A 2", "I 3"))  # both cover I 3; the nearer I 3 fires
    assert report_for(game2, report, "blue")["gun"] == "I 3"
    assert game2.fleets["blue"].damage()["spent"] == ["I 3"]


def test_r18_nearest_gun_fires_ties_in_reading_order():
    game = game_against(R18_BLUE)
    # B 2 is one away from C 1, A 2 and C 3: C 1 comes first, row by row
    report = red(game, bomber("A 2", "B 2"))
    assert report_for(game, report, "blue")["gun"] == "C 1"
    report = red(game, bomber("B 2", "B 2"))
    assert report_for(game, report, "blue")["gun"] == "A 2"
    report = red(game, bomber("C 2", "B 2"))
    assert report_for(game, report, "blue")["gun"] == "C 3"
    report = red(game, bomber("D 2", "B 2"))  # every gun covering B 2 is spent
    assert report["shot_down"] is False
    assert report["destroyed"]["aa-gun"] == 3
    assert game.fleets["blue"].damage()["spent"] == []
    assert game.fleets["blue"].damage()["destroyed"] == ["C 1", "A 2", "C 3"]


def test_r18_a_destroyed_gun_does_not_fire():
    game = game_against(R18_BLUE)
    red(game, salvo("H 2", "I 3", "S 13"))
    report = red(game, recon("A 3", "H 3"))
    assert report["shot_down"] is False and report["seen"] is not None
    assert game.fleets["blue"].damage()["destroyed"] == ["H 2", "I 3"]


def test_r18_a_square_just_outside_the_guns_reach_is_not_covered():
    game = game_against(R18_BLUE)
    report = red(game, recon("A 3", "E 5"))  # C 3 is 2 away
    assert report["shot_down"] is False
    assert firing_gun(game.fleets["blue"], parse_square("E 5")) is None


def test_r18_only_the_target_players_guns_fire():
    guarded = padded(land=["A 1"], guns=["B 2"])
    game = started_game(seats=3, dispositions={"red": ATTACKER, "blue": padded(),
                                               "green": guarded})
    _, report = game.move("red", bomber("A 2", "B 2", target="blue"))
    assert report["shot_down"] is False
    assert game.fleets["green"].damage()["spent"] == []


# -- R19: hit squares stay hit --------------------------------------------------------------

R19_BLUE = padded(ships=[ship("destroyer", "E 5"), ship("submarine", "H 8")])


def test_r19_re_hit_is_not_new_and_the_salvo_shot_names_the_ship():
    game = game_against(R19_BLUE)
    first = red(game, salvo("E 5", "S 13", "T 13"))
    assert first["shots"][0] == {"at": "E 5", "result": "destroyer", "new": True,
                                 "sunk": False, "aircraft": None}
    assert first["hits"] == [{"ship": "destroyer", "new_hits": 1, "sunk": False}]
    second = red(game, salvo("E 5", "F 5", "S 13"))
    assert [(s["result"], s["new"], s["sunk"]) for s in second["shots"]] == [
        ("destroyer", False, False), ("destroyer", True, True), (None, False, False)]
    assert second["hits"] == [{"ship": "destroyer", "new_hits": 1, "sunk": True}]
    third = red(game, salvo("E 5", "F 5", "G 5"))
    assert [(s["result"], s["new"], s["sunk"]) for s in third["shots"]] == [
        ("destroyer", False, True), ("destroyer", False, True), (None, False, False)]
    assert third["hits"] == []
    assert "already hit" in report_for(game, third, "red")["text"]
    assert report_for(game, third, "blue")["squares_hit"] == []


def test_r19_a_bomber_on_hit_squares_reports_no_new_hits():
    game = game_against(R19_BLUE)
    red(game, salvo("E 5", "F 5", "S 13"))
    report = red(game, bomber("A 2", "F 5"))
    assert report["hits"] == [] and report["destroyed"] == NOTHING
    assert report_for(game, report, "red")["text"] == "Bomber at F 5: No damage."


def test_r19_a_sunk_ship_stays_on_its_owners_chart():
    game = game_against(R19_BLUE)
    red(game, salvo("E 5", "F 5", "H 8"))
    blue = game.fleets["blue"]
    assert blue.damage()["hit"] == ["E 5", "F 5", "H 8"]
    assert len(blue.ships) == len(R19_BLUE["ships"])
    report = red(game, recon("A 3", "F 5"))
    assert seen(report)["E 5"] == ("sea", "destroyer", True, False)
    assert seen(report)["F 5"] == ("sea", "destroyer", True, False)
    assert sum(4 for s in R19_BLUE["ships"] if s["type"] == "battleship") == 60
    assert blue.score() == 60  # 63 points of ships, less the sunk Destroyer and Submarine
