"""The computer opponent's code: its odds in one settings dataclass, and a level's failure logged
(the rulings only, R21) rather than swallowed."""

from __future__ import annotations

import dataclasses
import logging

from helpers import started_game

from referee import service
from referee.common.computer import Level
from referee.naval_war import view_for
from referee.naval_war.computer import admiral, inference
from referee.naval_war.problems import RuleViolation, problem


def _refused(seen, rng):
    raise RuleViolation([problem("R16", "A 1 is not a square this bomber can reach")])


def test_bots_a_failed_level_is_logged_with_its_ruling(caplog):
    game = started_game()
    seat = game.order[0]
    bot = service.computers._computer("ab" * 16, seat, "captain")  # as the server makes them
    bot.plays = Level("refused", move=_refused)
    with caplog.at_level(logging.WARNING, logger="referee"):
        move = bot.move(view_for(game, seat))
    assert move["weapon"]  # the recruit's legal move, as before
    [record] = [r for r in caplog.records if r.name == "referee"]
    text = record.getMessage()
    assert "captain" in text and "RuleViolation: R16" in text
    assert "A 1" not in text  # a message may name squares of the chart (R21)


def test_bots_the_odds_are_settings_not_literals():
    odds = {f.name: f.default for f in dataclasses.fields(inference.Odds)}
    assert odds["flak_base"] == 0.015 and odds["flak_learned"] == 0.08
    assert odds["most_likely"] == 0.97
    assert dataclasses.is_dataclass(admiral.Doctrine)
    assert admiral.DOCTRINE.recon_worth == 0.05 and admiral.DOCTRINE.risk_worth == 0.2
