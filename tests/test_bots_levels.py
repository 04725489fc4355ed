"""The Naval War Game's ladder of computer levels.

At least five levels, weakest first, each a way of playing with a name and a line for the home
page; the old names (recruit, captain, admiral) still work; every level plays legal games of
two, three and four players from its seat's view alone (R21, R23); a level that errs does so
at its rate, from its seed, and plays the same move for the same view. How far apart the
levels are is measured with ``referee duel`` (docs/levels.md), not asserted here.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from click.testing import CliRunner
from test_bots import play

from referee.duel import duel_command
from referee.naval_war import check_disposition, new_game, view_for
from referee.naval_war.computer import DESCRIPTIONS, LEVELS, Bot, cadet, ranks, recruit
from referee.naval_war.computer.board import index
from referee.naval_war.computer.seat import read_seat
from referee.naval_war.rule_set import RULE_SET

LADDER_NAMES = ["recruit", "cadet", "midshipman", "lieutenant", "captain", "commodore",
                "vice-admiral", "admiral"]


def test_the_ladder_has_at_least_five_levels_weakest_first():
    assert list(LEVELS) == LADDER_NAMES == [level.name for level in ranks.LADDER]
    assert len(LEVELS) >= 5


def test_every_level_has_a_name_and_a_one_line_description():
    assert list(DESCRIPTIONS) == list(LEVELS)
    titles = set()
    for name, text in DESCRIPTIONS.items():
        title, _, line = text.partition(": ")
        assert title.lower() == name and line and "\n" not in text, text
        assert len(text) <= 100, text
        titles.add(title)
    assert len(titles) == len(LEVELS)
    assert len(set(DESCRIPTIONS.values())) == len(LEVELS)


def test_the_rule_set_offers_the_whole_ladder_and_keeps_the_old_names():
    assert RULE_SET.levels == DESCRIPTIONS
    for name in ("recruit", "captain", "admiral"):  # games made before the ladder name these
        assert name in RULE_SET.levels
        assert RULE_SET.computer(name, 1).level == name
    assert RULE_SET.stand_in_level in RULE_SET.levels


def test_the_levels_are_distinct_ways_of_playing():
    """No two levels share both their fleet, their play and their rate of error."""
    seen = {(level.fleet, level.play, level.errs) for level in ranks.LADDER}
    assert len(seen) == len(ranks.LADDER)
    assert ranks.LEVELS_BY_NAME["recruit"].errs == 0  # the recruit is random already
    assert ranks.LEVELS_BY_NAME["admiral"].errs == 0  # and the admiral never errs on purpose


@pytest.mark.parametrize("level", LADDER_NAMES)
def test_r3_to_r9_every_level_lays_out_a_legal_fleet_from_its_seed(level):
    for seed in range(8):
        _, cost, _ = check_disposition(Bot(level, seed).disposition())
        assert cost.total <= 160 and cost.ships >= 60 and cost.forces >= 60
    assert Bot(level, 3).disposition() == Bot(level, 3).disposition()


@pytest.mark.parametrize("red, blue", [("cadet", "recruit"), ("midshipman", "cadet"),
                                       ("lieutenant", "midshipman"), ("commodore", "captain"),
                                       ("vice-admiral", "commodore")])
def test_r12_r13_every_level_plays_a_whole_legal_game(red, blue):
    game, moves = play({"red": red, "blue": blue}, seed=16)
    assert game.phase == "over" and game.over == "exhausted"
    assert moves == len(game.reports) > 40


def test_r23_the_new_levels_play_three_and_four_player_games_in_sides():
    game, _ = play({"red": "cadet", "blue": "midshipman", "green": "vice-admiral"},
                   seats=3, seed=16)
    assert game.phase == "over"
    assert {r["by"] for r in game.reports} == {"red", "blue", "green"}
    game, _ = play({"red": "lieutenant", "blue": "commodore", "green": "cadet",
                    "gold": "vice-admiral"}, seats=4, alliances=True, seed=16)
    assert game.phase == "over"
    for report in game.reports:
        assert not game.allied(report["by"], report["target"])


def test_a_level_errs_at_its_rate_and_its_errors_come_from_its_seed():
    """The vice-admiral spends a move at random at its rate, and only there: its other moves
    are the admiral's, and the same view gets the same move."""
    game = _first_move_game()
    seat = game.turn
    view = view_for(game, seat)
    vice, admiral = ranks.LEVELS_BY_NAME["vice-admiral"], ranks.LEVELS_BY_NAME["admiral"]
    outcome = Counter()
    for n in range(400):
        rng, same = random.Random(n), random.Random(n)
        move = vice.move(read_seat(view), view, rng)
        errs = same.random() < vice.errs
        expected = (recruit.move if errs else admiral.play)(read_seat(view), view, same)
        assert move == expected
        outcome[errs] += 1
    assert abs(outcome[True] / 400 - vice.errs) < 0.06
    bot = Bot("vice-admiral", 5)
    assert bot.move(json.loads(json.dumps(view))) == Bot("vice-admiral", 5).move(view)


def _first_move_game():
    """A two-player game of admirals, set up, at its first move."""
    game, _ = new_game(id="t", seats=2, bots={"red": "admiral", "blue": "admiral"}, seed=1)
    for n, seat in enumerate(("red", "blue")):
        game.submit(seat, Bot("admiral", n).disposition())
    for seat in ("red", "blue"):
        game.lock_in(seat)
    return game


def _recon_report(centre: str, seen: dict[str, str | None]) -> dict:
    return {"n": 1, "by": "red", "target": "blue", "weapon": "recon", "at": [centre],
            "shot_down": False, "hits": [], "destroyed": {}, "shots": None,
            "seen": [{"square": sq, "terrain": "sea", "piece": piece, "hit": False,
                      "spent": False} for sq, piece in seen.items()]}


def test_the_cadet_flies_his_rps_first_then_fires_at_what_they_saw():
    seen = {"J 9": None, "K 9": "submarine", "L 9": None, "J 10": None, "K 10": None,
            "L 10": "destroyer", "J 11": None, "K 11": None, "L 11": "destroyer"}
    view = {"phase": "play", "you": "red", "turn": "red", "seats": {"red": {}, "blue": {}},
            "disposition": {"aircraft": [{"type": "recon", "at": "A 1"}]},
            "damage": {"flown": [], "destroyed": []}, "forces": {"salvo": 5},
            "reports": [_recon_report("K 10", seen)]}
    move = cadet.move(read_seat(view), view, random.Random(1))
    assert move["weapon"] == "recon" and move["target"] == "blue"  # R.P.s first
    view["damage"]["flown"] = ["A 1"]
    for n in range(20):
        move = cadet.move(read_seat(view), view, random.Random(n))
        assert move["weapon"] == "salvo"
        assert sorted(move["at"], key=index) == ["K 9", "L 10", "L 11"]


def test_the_cadet_does_not_fire_again_at_a_square_he_knows():
    seen = dict.fromkeys(("J 9", "K 9", "L 9", "J 10", "K 10", "L 10", "J 11", "K 11",
                          "L 11"))
    view = {"phase": "play", "you": "red", "turn": "red", "seats": {"red": {}, "blue": {}},
            "disposition": {"aircraft": []}, "damage": {}, "forces": {"salvo": 5},
            "reports": [_recon_report("K 10", seen)]}
    for n in range(50):
        move = cadet.move(read_seat(view), view, random.Random(n))
        assert not set(move["at"]) & set(seen)


def test_the_duel_command_plays_every_new_level():
    result = CliRunner().invoke(duel_command, ["--a", "vice-admiral", "--b", "cadet",
                                               "--games", "2", "--seed", "16"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("vice-admiral wins ")
