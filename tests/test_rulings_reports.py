"""Rulings R20-R22: reports and who sees them, what stays hidden, and the score."""

from __future__ import annotations

import json

import pytest
from helpers import ATTACKER, QUIET, bomber, idle, padded, plane, salvo, ship, started_game

from referee.naval_war import RuleViolation, record_for, view_for
from referee.naval_war.layout import pack

COMMON = {"n", "by", "target", "weapon", "at", "shot_down", "hits", "destroyed", "shots",
          "seen"}
BLUE = padded(land=["A 1"], guns=["B 2"],
              aircraft=[plane("atom-bomber", "A 1"), plane("bomber", "C 1"),
                        plane("bomber", "A 3"), plane("recon", "C 3")],
              ships=[ship("battleship", "C 5"), ship("submarine", "K 5")])


def reports_of(game, seat: str) -> list[dict]:
    return view_for(game, seat)["reports"]


# -- R20: the four copies of a report -------------------------------------------------------

def test_r20_the_attackers_copy_has_from_but_not_squares_hit_or_gun():
    game = started_game(dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", bomber("D 2", "D 6"))
    copy = reports_of(game, "red")[0]
    assert copy.keys() >= COMMON
    assert copy["from"] == "D 2"
    assert "squares_hit" not in copy and "gun" not in copy
    assert copy["hits"] == [{"ship": "battleship", "new_hits": 3, "sunk": False}]
    assert copy["text"] == "Bomber at D 6: Three hits on a Battleship."


def test_r20_the_targets_copy_has_squares_hit_and_gun_but_not_from():
    game = started_game(dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", bomber("D 2", "C 4"))
    copy = reports_of(game, "blue")[0]
    assert copy.keys() >= COMMON
    assert "from" not in copy
    assert copy["squares_hit"] == ["C 3", "C 5", "D 5"] and copy["gun"] is None
    assert copy["text"] == "Bomber at C 4: Two hits on a Battleship. An R.P. destroyed."
    assert "D 2" not in json.dumps(copy)


def test_r20_shot_down_the_target_learns_which_gun_fired_the_attacker_does_not():
    game = started_game(dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", bomber("D 2", "C 2"))
    mine, theirs = reports_of(game, "red")[0], reports_of(game, "blue")[0]
    assert mine["shot_down"] is theirs["shot_down"] is True
    assert theirs["gun"] == "B 2" and "gun" not in mine
    assert mine["text"] == "Bomber at C 2: Shot down by an A-A gun."
    assert theirs["text"] == "Bomber at C 2: Shot down by the A-A gun at B 2."
    assert "B 2" not in json.dumps(mine)


def test_r20_destroyed_aircraft_and_guns_are_counted_by_type():
    game = started_game(dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", bomber("A 1", "B 3", weapon="atom-bomber"))
    copy = reports_of(game, "red")[0]
    assert copy["destroyed"] == {"atom-bomber": 1, "bomber": 2, "recon": 1, "aa-gun": 1}
    assert copy["hits"] == [{"ship": "battleship", "new_hits": 2, "sunk": False}]
    assert copy["text"] == ("Atom Bomber at B 3: Two hits on a Battleship. An Atom Bomber, "
                            "two Bombers, an R.P. and an A-A gun destroyed.")  # good English
    target = reports_of(game, "blue")[0]
    assert target["squares_hit"] == ["A 1", "C 1", "B 2", "A 3", "C 3", "C 5", "D 5"]
    assert "squares_hit" not in copy


def test_r20_a_salvo_reports_each_shot():
    game = started_game(dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", salvo("K 5", "C 1", "U 1"))
    for seat in ("red", "blue"):
        shots = reports_of(game, seat)[0]["shots"]
        assert [(s["at"], s["result"], s["new"], s["sunk"]) for s in shots] == [
            ("K 5", "submarine", True, True), ("C 1", "bomber", True, False),
            ("U 1", None, False, False)]
    assert reports_of(game, "red")[0]["text"] == (
        "Salvo at K 5, C 1, U 1: K 5: Submarine, hit, sunk; C 1: Bomber destroyed; "
        "U 1: nothing.")


def test_r20_hits_are_listed_per_ship_in_an_order_that_tells_nothing_of_place():
    blue = padded(ships=[ship("submarine", "K 12"), ship("battleship", "K 10"),
                         ship("cruiser", "I 8")])
    game = started_game(dispositions={"red": ATTACKER, "blue": blue})
    _, report = game.move("red", bomber("A 1", "K 10", weapon="atom-bomber"))
    assert [h["ship"] for h in report["hits"]] == ["battleship", "cruiser", "submarine"]


def test_r20_a_third_player_learns_only_that_a_move_was_made_by_whom_at_whom():
    game = started_game(seats=3, dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", bomber("D 2", "C 4", target="blue"))
    third = reports_of(game, "green")[0]
    assert third["withheld"] is True
    assert {k for k, v in third.items() if v not in (None, [], False)} == {
        "n", "by", "target", "withheld", "text"}
    assert (third["n"], third["by"], third["target"]) == (1, "red", "blue")
    assert "from" not in third and "squares_hit" not in third and "gun" not in third
    assert third["text"] == "Red made a move against Blue."
    assert record_for(game, "green")["moves"] == [third]
    assert reports_of(game, "blue")[0]["squares_hit"] == ["C 3", "C 5", "D 5"]


def test_r20_in_a_four_player_free_for_all_the_other_two_see_only_the_move():
    game = started_game(seats=4, dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", bomber("D 2", "C 4", target="blue"))
    for seat in ("green", "gold"):
        assert reports_of(game, seat)[0]["withheld"] is True


def test_r20_allies_see_each_others_copies():
    game = started_game(seats=4, alliances=True, dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", bomber("D 2", "C 4", target="blue"))
    attacker, ally_of_attacker = reports_of(game, "red")[0], reports_of(game, "green")[0]
    target, ally_of_target = reports_of(game, "blue")[0], reports_of(game, "gold")[0]
    assert ally_of_attacker == attacker and ally_of_attacker["from"] == "D 2"
    assert "squares_hit" not in ally_of_attacker and "gun" not in ally_of_attacker
    assert ally_of_target == target and ally_of_target["squares_hit"] == ["C 3", "C 5", "D 5"]
    assert "from" not in ally_of_target
    assert not any(r.get("withheld") for r in (attacker, ally_of_attacker, target,
                                               ally_of_target))


def test_r20_an_rp_report_shows_what_it_saw_to_both():
    game = started_game(dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", {"weapon": "recon", "from": "A 3", "at": "K 6"})
    mine, theirs = reports_of(game, "red")[0], reports_of(game, "blue")[0]
    assert mine["seen"] == theirs["seen"]
    assert [e["piece"] for e in mine["seen"]] == [None, "submarine"] + [None] * 7
    assert "from" not in theirs and "squares_hit" not in mine


def test_r20_the_record_carries_the_same_copies_as_the_view():
    game = started_game(seats=3, dispositions={"red": ATTACKER, "blue": BLUE})
    game.move("red", bomber("D 2", "C 4", target="blue"))
    idle(game, "blue", target="red")
    for seat in game.seats:
        assert record_for(game, seat)["moves"] == reports_of(game, seat)


# -- R21: nothing a player has not been told, until the end ---------------------------------

SECRET_RED = padded(land=["M 7"], aircraft=[plane("bomber", "M 7"), plane("recon", "N 8")],
                    ships=[ship("cruiser", "Q 2", "down"), ship("carrier", "H 10")])
SECRET_SQUARES = ["M 7", "N 8", "O 9", "Q 2", "Q 3", "Q 4", "H 10", "I 11"]


def test_r21_before_the_end_the_view_holds_no_opponent_disposition():
    game = started_game(dispositions={"red": SECRET_RED, "blue": QUIET})
    game.move("red", bomber("M 7", "C 3"))
    idle(game, "blue")
    game.move("red", {"weapon": "recon", "from": "N 8", "at": "B 15"})
    view, record = view_for(game, "blue"), record_for(game, "blue")
    assert "revealed" not in view and view["result"] is None
    assert view["disposition"] == game.fleets["blue"].document
    assert view["forces"] == game.fleets["blue"].forces()
    text = json.dumps(view) + json.dumps(record)
    for square in SECRET_SQUARES:
        assert f'"{square}"' not in text, square
    assert all("from" not in r for r in view["reports"] + record["moves"] if r["by"] == "red")
    # Red's own view holds his own squares, and nothing of Blue's beyond what he was told
    red_view = view_for(game, "red")
    assert red_view["disposition"] == game.fleets["red"].document
    assert all("squares_hit" not in r and "gun" not in r
               for r in red_view["reports"] if r["by"] == "red")
    assert [r["squares_hit"] for r in red_view["reports"] if r["by"] == "blue"] == [[]]


def test_r21_after_the_game_is_over_everything_is_revealed():
    game = started_game(seats=3, dispositions={"red": SECRET_RED, "blue": QUIET})
    game.move("red", bomber("M 7", "C 15", target="blue"))
    for seat in game.seats:
        game.agree_to_end(seat)
    assert game.phase == "over"
    for seat in game.seats:
        view = view_for(game, seat)
        assert set(view["revealed"]) == set(game.seats) - {seat}
        for other, shown in view["revealed"].items():
            assert shown["disposition"] == game.fleets[other].document
            assert shown["damage"] == game.fleets[other].damage()
        report = view["reports"][0]
        assert report["from"] == "M 7"
        assert report["squares_hit"] == ["B 15", "C 15", "D 15"]
        assert report["gun"] is None and "withheld" not in report
        assert record_for(game, seat)["moves"] == view["reports"]
        assert view["result"]["scores"]["blue"] == 60


def test_r21_a_refused_move_names_only_the_movers_own_squares():
    game = started_game(dispositions={"red": SECRET_RED, "blue": BLUE})
    with pytest.raises(RuleViolation) as caught:
        game.move("red", bomber("N 8", "B 2"))  # an R.P., aimed beside Blue's gun
    problems = caught.value.problems
    assert [(p.rule, p.squares) for p in problems] == [("R13", ("N 8",))]
    assert "gun" not in str(caught.value)


# -- R22: scores -----------------------------------------------------------------------------

TARGET_22 = padded(ships=[ship("battleship", "C 5"), ship("submarine", "K 5"),
                          ship("carrier", "H 10")])  # 9 points + 13 Battleships = 61
RED_22 = pack({"carrier": 1, "battleship": 14, "salvo": 60})  # 60 points


def test_r22_damaged_ships_count_in_full_and_equal_scores_draw():
    game = started_game(dispositions={"red": RED_22, "blue": TARGET_22})
    game.move("red", salvo("C 5", "D 5", "K 5"))
    idle(game, "blue")
    game.move("red", salvo("H 10", "I 10", "H 11"))
    game.agree_to_end("red")
    game.agree_to_end("blue")
    result = game.outcome().to_json()
    assert result["scores"] == {"red": 60, "blue": 60}
    assert result["winner"] is None and result["winners"] == []
    assert view_for(game, "red")["result"] == result


def test_r22_the_higher_score_wins():
    game = started_game(dispositions={"red": RED_22, "blue": TARGET_22})
    game.move("red", salvo("H 10", "I 10", "H 11"))
    idle(game, "blue")
    game.move("red", salvo("I 11", "A 1", "B 1"))
    assert game.fleets["blue"].ships[2].sunk
    game.agree_to_end("blue")
    game.agree_to_end("red")
    result = game.outcome().to_json()
    assert result["scores"] == {"red": 60, "blue": 57}
    assert result["winner"] == "red" and result["winners"] == ["red"]


def test_r22_ship_lengths_are_the_scores():
    fleet_doc = padded(ships=[ship("carrier", "A 1"), ship("battleship", "D 1"),
                              ship("cruiser", "I 1"), ship("destroyer", "M 1"),
                              ship("submarine", "P 1")])
    assert len(fleet_doc["ships"]) == 5 + 12  # padded with 12 Battleships
    game = started_game(dispositions={"red": fleet_doc})
    game.resign("blue")
    assert game.outcome().to_json()["scores"]["red"] == 4 + 4 + 3 + 2 + 1 + 12 * 4


def test_r22_in_alliances_a_sides_score_is_the_sum_of_its_members():
    dispositions = {"red": pack({"battleship": 25, "salvo": 60}),
                    "gold": pack({"battleship": 20, "salvo": 60})}
    game = started_game(seats=4, alliances=True, dispositions=dispositions)
    for seat in game.seats:
        game.agree_to_end(seat)
    result = game.outcome().to_json()
    assert result["scores"] == {"red": 100, "blue": 60, "green": 60, "gold": 80}
    assert result["sides"] == [{"seats": ["red", "green"], "score": 160},
                               {"seats": ["blue", "gold"], "score": 140}]
    assert result["winners"] == ["red", "green"] and result["winner"] is None


def test_r22_allied_sides_with_equal_sums_draw():
    dispositions = {"red": pack({"battleship": 25, "salvo": 60}),
                    "blue": pack({"battleship": 20, "salvo": 60}),
                    "gold": pack({"battleship": 20, "salvo": 60})}
    game = started_game(seats=4, alliances=True, dispositions=dispositions)
    for seat in game.seats:
        game.agree_to_end(seat)
    result = game.outcome().to_json()
    assert [s["score"] for s in result["sides"]] == [160, 160]
    assert result["winners"] == [] and result["winner"] is None


def test_r22_free_for_all_the_highest_single_score_wins():
    dispositions = {"red": QUIET, "blue": pack({"battleship": 20, "salvo": 60}),
                    "green": pack({"battleship": 20, "salvo": 60})}
    game = started_game(seats=3, dispositions=dispositions)
    for seat in game.seats:
        game.agree_to_end(seat)
    assert game.outcome().to_json()["winners"] == []  # blue and green tie at 80
    game = started_game(seats=3, dispositions=dispositions)
    game.move("red", salvo("A 1", "B 1", "C 1", target="green"))
    for seat in game.seats:
        game.agree_to_end(seat)
    assert game.outcome().to_json()["scores"] == {"red": 60, "blue": 80, "green": 80}
    game = started_game(seats=3, dispositions=dispositions)
    game.move("red", salvo("A 1", "B 1", "C 1", target="green"))
    idle(game, "blue", target="red")
    game.move("green", salvo("A 1", "B 1", "C 1", target="red"))
    game.move("red", salvo("D 1", "S 14", "T 14", target="green"))
    for seat in game.seats:
        game.agree_to_end(seat)
    result = game.outcome().to_json()
    assert result["scores"] == {"red": 60, "blue": 80, "green": 76}
    assert result["winner"] == "blue" and result["winners"] == ["blue"]
