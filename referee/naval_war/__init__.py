"""The Naval War Game (The Penguin Hoyle) as a pure rule set: no web, storage or PDF code.

The public surface: ``new_game`` and ``replay`` build a ``Game`` from its event log;
``check_disposition`` checks a fleet (R3-R9); ``view_for``, ``report_for`` and ``record_for``
are the only ways anything about a game leaves the core (R21).
"""

from ..common.lifecycle import toss_order
from .catalogue import PRICES
from .fleet import Cost, Fleet, check_disposition
from .game import SEATS, Game, new_game, replay
from .problems import Problem, RuleViolation
from .squares import Square, parse_square, square_name
from .views import describe, record_for, report_for, view_for

__all__ = [
    "PRICES", "SEATS", "Cost", "Fleet", "Game", "Problem", "RuleViolation", "Square",
    "check_disposition", "describe", "new_game", "parse_square", "record_for", "replay",
    "report_for", "square_name", "toss_order", "view_for",
]
