"""Battleship: The Tactical Combat Game as a pure rule set (rulings T1-T12): no web, storage or
PDF code. The honeycomb is in ``holes``, the mission card in ``card``, the fleet and its check
in ``fleet``, the game as an event log in ``game``, what each seat may know in ``views`` and the
post-mortem in ``postmortem``.

``RULE_SET`` is what the shared referee drives: the rule set's name and title, its catalogue,
``new_game`` and ``replay``, and the views, with every other field of the referee's
``RuleSet`` (``referee.common.ruleset``) by its name (``seam.RULESET_FIELDS``). The computer's
levels (``LEVELS``, ``computer``) are added to it by the computer's package.
"""

from __future__ import annotations

from types import SimpleNamespace

from . import views
from .catalogue import RULES, TITLE, catalogue
from .fleet import Fleet, check_disposition
from .game import Game, new_game, replay
from .seam import RULESET_FIELDS
from .views import (
    describe,
    game_file_view,
    host_view,
    postmortem_view,
    record_for,
    report_for,
    status_view,
    targets_for,
    view_for,
)

RULE_SET = SimpleNamespace(
    rules=RULES,
    title=TITLE,
    **RULESET_FIELDS,  # the rest of the referee's RuleSet (referee.common.ruleset), its names
    catalogue=catalogue,
    new_game=new_game,
    replay=replay,
    view_for=view_for,
    report_for=report_for,
    record_for=record_for,
    status_view=status_view,
    host_view=host_view,
    targets_for=targets_for,
    postmortem_view=postmortem_view,
    game_file_view=game_file_view,
    describe=describe,
    seating_for=views.seating_for,
    result_headline=views.result_headline,
    scores=views.scores,
    fingerprints_verify=views.fingerprints_verify,
)

__all__ = ["RULE_SET", "Fleet", "Game", "check_disposition", "describe", "new_game", "record_for",
           "replay", "report_for", "view_for"]
