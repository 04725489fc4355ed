"""Broadsides and Boarding Parties (Milton Bradley, 1984) as a pure rule set (rulings BB1-BB26):
no web, storage or PDF code. The sea is ``sea.json``, read by ``sea`` (its geometry); a ship's
deck plan is ``deck.json``, read by ``deck``; the cards, dice faces and numbers of the rules are
in ``catalogue``, the game as an event log of sealed orders and logged dice in ``game``, what
each seat may know in ``views`` (its words in ``words``), the post-mortem and dice audit in
``postmortem``.

``RULE_SET`` (``rule_set.py``) is what the shared referee drives: the referee's ``RuleSet``
(``referee.common.ruleset``) filled in with this game's catalogue, ``new_game``, views, draft
check and computer (``computer/``).
"""

from __future__ import annotations

from .game import Game, check_setup, new_game, replay
from .rule_set import RULE_SET
from .views import record_for, report_for, view_for

__all__ = ["RULE_SET", "Game", "check_setup", "new_game", "record_for", "replay",
           "report_for", "view_for"]
