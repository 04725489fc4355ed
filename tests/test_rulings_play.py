"""Rulings R10-R14 and R23: before play, the toss, moves, turns and the end of the game."""

from __future__ import annotations

import copy

import pytest
from helpers import (
    ATTACKER,
    QUIET,
    bomber,
    idle,
    joined_game,
    padded,
    plane,
    salvo,
    started_game,
)

from referee.naval_war import RuleViolation, new_game, record_for, replay, toss_order, view_for
from referee.naval_war.layout import pack

# Red and Blue each with one salvo and nothing else to attack with.
ONE_SALVO = pack({"battleship": 15, "aa-gun": 59, "salvo": 1})
NO_FORCES = pack({"battleship": 15, "aa-gun": 60})


def refused(action, *args) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        action(*args)
    return caught.value


# -- R10: the disposition clock, locking in and forfeits -------------------------------

def test_r10_the_clock_defaults_to_20_minutes_and_is_shown_to_every_player():
    game = joined_game(at=1000.0)
    assert game.minutes == 20
    assert game.deadline == 1000.0 + 20 * 60
    for seat in game.seats:
        assert view_for(game, seat)["clock"] == {"minutes": 20, "deadline": 2200.0}


def test_r10_the_host_sets_the_clock():
    game, _ = new_game(seats=2, disposition_minutes=45, at=0.0, seed=1)
    assert game.minutes == 45 and game.deadline == 45 * 60


@pytest.mark.parametrize("minutes", [0, -5, "20", 2.5, True, 24 * 60 + 1])
def test_r10_the_clock_is_a_whole_number_of_minutes(minutes):
    violation = refused(lambda: new_game(seats=2, disposition_minutes=minutes, seed=1))
    assert violation.problems[0].rule == "R10"
    assert "whole number of minutes" in violation.problems[0].message


def test_r10_forfeit_only_after_the_clock_runs_out():
    game = joined_game(at=0.0)
    game.submit("red", QUIET)
    game.lock_in("red")
    version = game.version
    violation = refused(game.forfeit, "blue", 20 * 60 - 1, 1)
    assert violation.problems[0].rule == "R10"
    assert "only when the disposition clock has run out" in violation.problems[0].message
    assert game.version == version and not game.forfeited
    game.forfeit("blue", 20 * 60)
    assert game.forfeited == {"blue"}
    assert game.phase == "over"
    assert game.outcome().to_json()["winners"] == ["red"]
    assert game.outcome().to_json()["reason"] == "forfeit"


def test_r10_the_host_may_give_more_time():
    game = joined_game(at=0.0)
    game.extend_clock(10)
    assert game.minutes == 30 and game.deadline == 30 * 60
    assert view_for(game, "red")["clock"]["minutes"] == 30
    violation = refused(game.forfeit, "blue", 25 * 60, 1)
    assert violation.problems[0].rule == "R10"
    game.forfeit("blue", 30 * 60)
    assert "blue" in game.forfeited


def test_r10_a_player_who_has_locked_in_cannot_be_forfeited():
    game = joined_game(at=0.0)
    game.submit("red", QUIET)
    game.lock_in("red")
    violation = refused(game.forfeit, "red", 10_000.0, 1)
    assert violation.problems[0].rule == "R10"
    assert "locked in" in violation.problems[0].message


def test_r10_the_clock_cannot_be_extended_once_play_starts():
    game = started_game()
    violation = refused(game.extend_clock, 10)
    assert violation.problems[0].rule == "R10" and violation.kind == "turn"


def test_r10_play_starts_when_every_player_has_locked_in():
    game = joined_game(seats=3, seed=5)
    for seat in game.seats:
        game.submit(seat, QUIET)
    game.lock_in("red")
    game.lock_in("green")
    assert game.phase == "setup" and game.turn is None  # R11 amended: the order is drawn
    game.lock_in("blue")
    assert game.phase == "play"
    assert game.order == toss_order(["red", "blue", "green"], 5)


def test_r10_locking_in_needs_a_valid_disposition():
    game = joined_game()
    violation = refused(game.lock_in, "red")
    assert violation.problems[0].rule == "R10"
    assert "Submit a valid disposition" in violation.problems[0].message
    game.submit("red", QUIET)
    game.lock_in("red")
    violation = refused(game.submit, "red", QUIET)
    assert "already locked in" in violation.problems[0].message


def test_r10_a_forfeit_lets_the_others_play():
    game = joined_game(seats=3, at=0.0, seed=3)
    game.submit("red", QUIET)
    game.submit("blue", QUIET)
    game.lock_in("red")
    game.lock_in("blue")
    game.submit("green", QUIET)  # a draft, never locked in
    game.forfeit("green", 20 * 60)
    assert game.phase == "play"
    # R11 amended: the order keeps its draw at creation; the forfeited seat is passed over
    assert game.order == toss_order(["red", "blue", "green"], 3)
    assert game.turn == [s for s in game.order if s != "green"][0]
    assert "green" not in game.fleets
    violation = refused(game.move, game.turn, salvo("A 1", "B 1", "C 1", target="green"))
    assert violation.problems[0].rule == "R23"
    assert "green was forfeited" in violation.problems[0].message


# -- R11: the toss ------------------------------------------------------------------------

def test_r11_the_toss_is_seeded_and_recorded_in_the_log():
    game, events = new_game(id="g", seats=2, seed=11)  # R11 amended: tossed at creation
    toss = events[-1]
    assert toss == {"type": "toss", "seed": 11, "order": toss_order(["red", "blue"], 11)}
    assert game.events[1] == toss
    for seat in game.seats:
        game.join(seat, seat.title())
        game.submit(seat, QUIET)
        game.lock_in(seat)
    assert game.toss == {"seed": 11, "order": toss["order"]}
    assert game.turn == toss["order"][0]
    for seat in game.seats:
        assert record_for(game, seat)["toss"] == {"seed": 11, "order": toss["order"]}
        assert view_for(game, seat)["order"] == toss["order"]


def test_r11_replay_reproduces_the_toss_and_the_game():
    game = started_game(dispositions={"red": ATTACKER}, order=["blue", "red"])
    idle(game, "blue")
    game.move("red", bomber("A 2", "K 15"))
    again = replay(copy.deepcopy(game.events))
    assert again.order == game.order == ["blue", "red"]
    assert again.toss == game.toss
    assert again.reports == game.reports
    assert again.turn == game.turn
    for seat in game.seats:
        assert view_for(again, seat) == view_for(game, seat)


def test_r11_the_toss_depends_on_the_seed():
    orders = {tuple(toss_order(["red", "blue", "green", "gold"], seed)) for seed in range(200)}
    assert len(orders) == 24
    firsts = {toss_order(["red", "blue"], seed)[0] for seed in range(50)}
    assert firsts == {"red", "blue"}


def test_r11_a_toss_that_the_seed_does_not_give_is_refused():
    game = joined_game()
    for seat in game.seats:
        game.submit(seat, QUIET)
        game.lock_in(seat)
    events = copy.deepcopy(game.events)
    assert events[1]["type"] == "toss"  # R11 amended: the toss is the second event
    events[1]["order"] = list(reversed(events[1]["order"]))
    violation = refused(replay, events)
    assert violation.problems[0].rule == "R11"
    assert "seeded toss" in violation.problems[0].message


def test_r11_the_toss_comes_only_once():
    # R11 amended: the toss is drawn at creation; a second one is refused at any time
    game = joined_game()
    game.submit("red", QUIET)
    game.lock_in("red")
    violation = refused(game.apply, {"type": "toss", "seed": 4,
                                     "order": toss_order(["red", "blue"], 4)})
    assert violation.problems[0].rule == "R11"


def test_r11_with_three_or_four_players_the_order_of_play_is_drawn():
    game = started_game(seats=4, order=["gold", "red", "green", "blue"])
    seen = []
    for _ in range(8):
        seen.append(game.turn)
        idle(game, game.turn, target="red" if game.turn != "red" else "blue")
    assert seen == ["gold", "red", "green", "blue"] * 2


# -- R12: what a move is ----------------------------------------------------------------

def test_r12_a_move_dispatches_one_aircraft_to_one_square():
    game = started_game(dispositions={"red": ATTACKER})
    _, report = game.move("red", {"weapon": "recon", "from": "a3", "at": "k5"})
    assert report["weapon"] == "recon" and report["at"] == ["K 5"]
    assert report["from"] == "A 3"
    assert game.fleets["red"].damage()["flown"] == ["A 3"]
    assert game.fleets["red"].forces()["recon"] == 5


def test_r12_a_salvo_is_three_shots_at_three_different_squares():
    game = started_game()
    _, report = game.move("red", salvo("a1", "K 10", "u21"))
    assert report["weapon"] == "salvo" and report["at"] == ["A 1", "K 10", "U 21"]
    assert [s["at"] for s in report["shots"]] == ["A 1", "K 10", "U 21"]


BAD_MOVES = [
    ({"weapon": "salvo", "at": ["A 1", "A 1", "B 2"]}, "R12",
     "A salvo's three shots go to three different squares"),
    ({"weapon": "salvo", "at": ["A 1", "a1", "B 2"]}, "R12",
     "three different squares"),
    ({"weapon": "salvo", "at": ["A 1", "B 2"]}, "R12", "'at' names three squares for a salvo"),
    ({"weapon": "salvo", "at": "A 1"}, "R12", "'at' names three squares for a salvo"),
    ({"weapon": "bomber", "from": "A 2", "at": ["A 1", "B 1"]}, "R12",
     "'at' names one square for an aircraft"),
    ({"weapon": "bomber", "from": "A 2"}, "R12", "'at' names one square"),
    ({"weapon": "torpedo", "at": "A 1"}, "R12", "'torpedo' is not a weapon"),
    ({"weapon": "pass"}, "R12", "'pass' is not a weapon"),
    ({"at": ["A 1", "B 1", "C 1"]}, "R12", "None is not a weapon"),
    ({"weapon": "salvo", "at": ["A 1", "B 1", "C 1"], "speed": 3}, "R12",
     "'speed' is not part of a move"),
    ({"weapon": "salvo", "at": ["V 3", "B 1", "C 1"]}, "R1",
     "'V 3' is not a square: columns run A to U"),
    ({"weapon": "salvo", "at": ["A 1", "B 22", "C 1"]}, "R1", "rows run 1 to 21"),
    ({"weapon": "bomber", "from": "A 2", "at": ""}, "R1", "write the column letter"),
    ({"weapon": "bomber", "from": "A 2", "at": 7}, "R12", "'at' names one square"),
    ({"weapon": "bomber", "from": "A 2", "at": [None]}, "R1", "a square is written as text"),
    ({"weapon": "salvo", "at": [7, "B 1", "C 1"]}, "R1", "7 is not a square: a square is written"),
    ({"weapon": "salvo", "at": ["A 1", "", "C 1"]}, "R1", "'' is not a square"),
    ({"weapon": "salvo", "at": ["A 1", "B 1", None]}, "R1", "None is not a square"),
    ({"weapon": "bomber", "from": None, "at": "K 5"}, "R1",
     "'from' names the square your aircraft stands on"),
    ({"weapon": "bomber", "from": "Z 9", "at": "K 5"}, "R1", "columns run A to U"),
    ({"weapon": "salvo", "from": "A 2", "at": ["A 1", "B 1", "C 1"]}, "R5",
     "A salvo is not fired from a square"),
    ({"weapon": "bomber", "from": "A 3", "at": "K 5"}, "R13",
     "The aircraft at A 3 is an R.P., not a Bomber"),
    ({"weapon": "recon", "from": "A 1", "at": "K 5"}, "R13",
     "The aircraft at A 1 is an Atom Bomber, not an R.P."),
    ({"weapon": "atom-bomber", "from": "A 2", "at": "K 5"}, "R13",
     "is a Bomber, not an Atom Bomber"),
    ({"weapon": "bomber", "from": "K 5", "at": "K 5"}, "R13", "You have no Bomber at K 5"),
    ({"weapon": "bomber", "from": "A 2", "at": "K 5", "target": "red"}, "R23",
     "you cannot attack your own chart"),
    ({"weapon": "bomber", "from": "A 2", "at": "K 5", "target": "green"}, "R23",
     "'green' is not a seat of this game"),
    ("salvo A 1 B 1 C 1", "R12", "A move is an object"),
    (None, "R12", "A move is an object"),
]


@pytest.mark.parametrize("move, rule, message", BAD_MOVES)
def test_r12_bad_moves_are_refused_with_the_ruling_and_a_message(move, rule, message):
    game = started_game(dispositions={"red": ATTACKER})
    version, snapshots = game.version, {s: f.snapshot() for s, f in game.fleets.items()}
    violation = refused(game.move, "red", move)
    assert violation.kind == "illegal"
    assert any(p.rule == rule and message in p.message for p in violation.problems), \
        [(p.rule, p.message) for p in violation.problems]
    assert game.version == version
    assert {s: f.snapshot() for s, f in game.fleets.items()} == snapshots
    assert game.turn == "red" and game.reports == []


def test_r12_every_problem_of_a_move_is_reported_at_once():
    game = started_game(dispositions={"red": ATTACKER})
    version = game.version
    move = {"weapon": "salvo", "from": "A 2", "at": ["V 3", "V 3", "B 22"],
            "target": "red", "speed": 3}
    problems = refused(game.move, "red", move).problems
    assert [p.rule for p in problems] == ["R12", "R23", "R1", "R1", "R1", "R5"]
    assert [p.field for p in problems] == ["speed", "target", "at[0]", "at[1]", "at[2]",
                                           "from"]
    assert game.version == version and game.reports == []


# -- R13: each aircraft flies once, each salvo is fired once -------------------------------

def test_r13_an_aircraft_flies_once():
    game = started_game(dispositions={"red": ATTACKER})
    game.move("red", bomber("A 2", "K 15"))
    idle(game, "blue")
    version = game.version
    violation = refused(game.move, "red", bomber("A 2", "K 17"))
    assert violation.problems[0].rule == "R13"
    assert violation.problems[0].message == (
        "Your Bomber at A 2 has already flown; each aircraft flies once")
    assert violation.problems[0].squares == ("A 2",)
    assert game.version == version
    assert game.fleets["red"].forces()["bomber"] == 5


def test_r13_a_destroyed_aircraft_cannot_fly():
    game = started_game(dispositions={"red": ATTACKER}, order=["blue", "red"])
    game.move("blue", salvo("B 2", "C 2", "S 13"))
    assert game.fleets["red"].forces()["bomber"] == 4
    violation = refused(game.move, "red", bomber("B 2", "K 15"))
    assert violation.problems[0].rule == "R13"
    assert violation.problems[0].message == "Your Bomber at B 2 has been destroyed"
    game.move("red", bomber("A 2", "K 15"))


def test_r13_only_your_own_aircraft_fly():
    red = padded(land=["A 1"], aircraft=[plane("bomber", "A 1")])
    blue = padded(land=["K 1"], aircraft=[plane("bomber", "K 1")])
    game = started_game(dispositions={"red": red, "blue": blue})
    violation = refused(game.move, "red", bomber("K 1", "K 1"))
    assert violation.problems[0].rule == "R13"
    assert violation.problems[0].message == "You have no Bomber at K 1"


def test_r13_salvoes_run_out():
    red = pack({"battleship": 15, "aa-gun": 58, "salvo": 2})
    game = started_game(dispositions={"red": red, "blue": QUIET})
    game.move("red", salvo("A 1", "B 1", "C 1"))
    idle(game, "blue")
    assert game.fleets["red"].forces()["salvo"] == 1
    game.move("red", salvo("A 1", "B 1", "C 1"))
    assert game.fleets["red"].forces()["salvo"] == 0
    assert not game.can_attack("red")
    assert game.turn == "blue"
    idle(game, "blue")
    assert game.turn == "blue"  # red, with nothing left, is passed over (R14)
    violation = refused(game.move, "red", salvo("D 1", "E 1", "F 1"))
    assert violation.problems[0].rule == "R14"


def test_r13_a_player_without_salvoes_cannot_fire_one():
    red = padded(land=["A 1"], aircraft=[plane("recon", "A 1")], salvoes=0)
    game = started_game(dispositions={"red": red, "blue": QUIET})
    version = game.version
    violation = refused(game.move, "red", salvo("A 1", "B 1", "C 1"))
    assert [(p.rule, p.message) for p in violation.problems] == [
        ("R13", "You have no salvo left to fire")]
    assert game.version == version
    game.move("red", {"weapon": "recon", "from": "A 1", "at": "K 5"})


# -- R14: turns, passing over, and the end ---------------------------------------------

def test_r14_players_move_in_turn_in_the_order_of_the_toss():
    game = started_game(order=["blue", "red"])
    assert game.turn == "blue"
    violation = refused(game.move, "red", salvo("A 1", "B 1", "C 1"))
    assert violation.kind == "turn" and violation.problems[0].rule == "R14"
    assert "It is blue's turn, not red's" in violation.problems[0].message
    idle(game, "blue")
    assert game.turn == "red"
    idle(game, "red")
    assert game.turn == "blue"


def test_r14_a_player_with_no_offensive_forces_is_passed_over():
    game = started_game(dispositions={"red": NO_FORCES, "blue": QUIET}, order=["red", "blue"])
    assert game.turn == "blue"
    for _ in range(3):
        idle(game, "blue")
        assert game.turn == "blue"


def test_r14_passing_over_in_a_three_player_game():
    game = started_game(seats=3, dispositions={"red": ONE_SALVO},
                        order=["red", "blue", "green"])
    idle(game, "red", target="blue")
    assert game.turn == "blue"
    idle(game, "blue", target="green")
    idle(game, "green", target="blue")
    assert game.turn == "blue"  # red is passed over


def test_r14_the_game_ends_when_no_player_has_offensive_forces_left():
    game = started_game(dispositions={"red": ONE_SALVO, "blue": ONE_SALVO})
    idle(game, "red")
    assert game.phase == "play"
    idle(game, "blue")
    assert game.phase == "over" and game.turn is None
    assert game.outcome().to_json()["reason"] == "exhausted"
    assert game.outcome().to_json()["winners"] == []  # untouched identical fleets draw (R22)


def test_r14_a_game_in_which_nobody_can_attack_is_over_at_once():
    game = joined_game()
    for seat in game.seats:
        game.submit(seat, NO_FORCES)
        game.lock_in(seat)
    assert game.phase == "over" and game.turn is None
    assert game.outcome().to_json()["reason"] == "exhausted"


def test_r14_there_is_no_passing():
    game = started_game()
    version = game.version
    for move in ({"weapon": "pass"}, {}, {"weapon": None}):
        violation = refused(game.move, "red", move)
        assert violation.problems[0].rule == "R12"
    violation = refused(game.apply, {"type": "pass", "seat": "red"})
    assert "Unknown event" in violation.problems[0].message
    assert game.version == version and game.turn == "red"


def test_r14_the_game_ends_when_every_player_agrees():
    game = started_game(seats=3)
    game.agree_to_end("red")
    game.agree_to_end("blue")
    assert game.phase == "play"
    assert view_for(game, "green")["seats"]["red"]["agreed_to_end"] is True
    game.agree_to_end("green")
    assert game.phase == "over" and game.outcome().to_json()["reason"] == "agreed"


def test_r14_agreement_is_only_while_in_play():
    game = joined_game()
    violation = refused(game.agree_to_end, "red")
    assert violation.problems[0].rule == "R14"
    violation = refused(game.resign, "red")
    assert violation.problems[0].rule == "R14"


def test_r14_a_resigning_player_loses_whatever_the_scores():
    strong = pack({"battleship": 25, "salvo": 60})  # scores 100
    weak = pack({"submarine": 60, "salvo": 60})  # scores 60
    game = started_game(dispositions={"red": strong, "blue": weak})
    game.resign("red")
    result = game.outcome().to_json()
    assert game.phase == "over" and result["reason"] == "resigned"
    assert result["scores"] == {"red": 100, "blue": 60}
    assert result["winner"] == "blue" and result["winners"] == ["blue"]
    violation = refused(game.move, "blue", salvo("A 1", "B 1", "C 1"))
    assert violation.kind == "turn"


def test_r14_among_the_others_the_scores_decide_after_a_resignation():
    dispositions = {"red": pack({"submarine": 60, "salvo": 60}),
                    "blue": pack({"battleship": 25, "salvo": 60}),
                    "green": pack({"battleship": 20, "salvo": 60})}
    game = started_game(seats=3, dispositions=dispositions)
    game.resign("blue")
    result = game.outcome().to_json()
    assert result["scores"] == {"red": 60, "blue": 100, "green": 80}
    assert result["winners"] == ["green"] and result["winner"] == "green"


def test_r14_a_resigning_player_and_his_ally_lose():
    dispositions = {"red": pack({"battleship": 25, "salvo": 60}),
                    "green": pack({"battleship": 25, "salvo": 60})}
    game = started_game(seats=4, alliances=True, dispositions=dispositions)
    game.resign("green")
    result = game.outcome().to_json()
    assert result["scores"] == {"red": 100, "blue": 60, "green": 100, "gold": 60}
    assert result["winners"] == ["blue", "gold"] and result["winner"] is None


# -- R23: three or four players -------------------------------------------------------

def test_r23_with_several_opponents_a_move_names_its_target():
    game = started_game(seats=3, dispositions={"red": ATTACKER})
    violation = refused(game.move, "red", bomber("A 2", "K 5"))
    assert violation.problems[0].rule == "R23"
    assert violation.problems[0].message == (
        "Name the opponent whose chart you attack: blue or green")
    _, report = game.move("red", bomber("A 2", "K 5", target="green"))
    assert report["target"] == "green"


def test_r23_with_one_opponent_the_target_may_be_left_out():
    game = started_game()
    _, report = game.move("red", salvo("A 1", "B 1", "C 1"))
    assert report["target"] == "blue"
    game.move("blue", salvo("A 1", "B 1", "C 1", target="red"))


def test_r23_allies_cannot_attack_each_other():
    game = started_game(seats=4, alliances=True, dispositions={"red": ATTACKER})
    version = game.version
    violation = refused(game.move, "red", bomber("A 2", "K 5", target="green"))
    assert violation.problems[0].rule == "R23"
    assert "allies cannot attack each other; attack blue or gold" in violation.problems[0].message
    assert game.version == version
    violation = refused(game.move, "red", bomber("A 2", "K 5"))
    assert "blue or gold" in violation.problems[0].message
    game.move("red", bomber("A 2", "K 5", target="gold"))


def test_r23_alliances_pair_red_with_green_and_blue_with_gold():
    game = started_game(seats=4, alliances=True)
    assert game.side("red") == ("red", "green") and game.side("gold") == ("blue", "gold")
    assert view_for(game, "blue")["allies"] == ["gold"]
    assert game.opponents("green") == ["blue", "gold"]


def test_r23_free_for_all_everyone_is_an_opponent():
    game = started_game(seats=4)
    assert game.opponents("red") == ["blue", "green", "gold"]
    assert view_for(game, "red")["allies"] == []


@pytest.mark.parametrize("seats, alliances", [(1, False), (5, False), (3, True), (2, True)])
def test_r23_games_have_two_to_four_seats_and_alliances_need_four(seats, alliances):
    violation = refused(lambda: new_game(seats=seats, alliances=alliances, seed=1))
    assert violation.problems[0].rule == "R23"
