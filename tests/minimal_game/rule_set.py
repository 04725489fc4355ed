"""Hidden Number as the referee's seam sees it: registered by ``rulesets.register``."""

from __future__ import annotations

from referee.common.ruleset import RuleSet

from . import views
from .catalogue import RULES, SEATS, TITLE
from .computer import ROSTER, computer
from .game import OPTIONS, Game, new_game

RULE_SET = RuleSet(
    rules=RULES, title=TITLE, game_type=Game, catalogue=views.catalogue, new_game=new_game,
    options=OPTIONS, seats=SEATS, view_for=views.view_for, report_for=views.report_for,
    record_for=views.record_for, headline=views.headline,
    postmortem_view=views.postmortem_view, postmortem_document=views.postmortem_document,
    club_entry=views.club_entry, check_draft=views.check_draft, with_draft=views.with_draft,
    levels=ROSTER.descriptions, computer=computer, stand_in_level="halver",
    secret_twin=views.secret_twin, web="minimal_game.web.parts:HIDDEN_NUMBER",
    secrecy_rule="H5")
