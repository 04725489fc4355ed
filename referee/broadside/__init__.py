"""Broadside (Milton Bradley, 1962) as a pure rule set (rulings B1-B14): no web, storage or
PDF code. The harbour is ``board.json``, read by ``board`` (the one geometry module); the
warships and the numbers of the rules are in ``catalogue``, a side's disposition and its check
in ``fleet``, the game as an event log in ``game``, what each seat may know in ``views`` and
the post-mortem in ``postmortem``.

``RULE_SET`` (``rule_set.py``) is what the shared referee drives: the referee's ``RuleSet``
(``referee.common.ruleset``) filled in with this game's catalogue, ``new_game``, views, draft
check and computer (``computer/``).
"""

from __future__ import annotations

from .fleet import Disposition, check_disposition
from .game import Game, new_game, replay
from .rule_set import RULE_SET
from .views import describe, record_for, report_for, view_for

__all__ = ["RULE_SET", "Disposition", "Game", "check_disposition", "describe", "new_game",
           "record_for", "replay", "report_for", "view_for"]
