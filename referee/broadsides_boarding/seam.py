"""What the referee's seam (``RuleSet``) asks of a rule set beyond its game and views: a
seat's draft checked without an event, a view showing a kept draft.
"""

from __future__ import annotations

from ..common.documents import Json
from ..common.problems import Problem
from .game import Game, check_setup
from .views import with_draft


def check_draft(game: Game, seat: str, document: object) -> tuple[Json, None, list[Problem]]:
    """A seat's draft disposition checked as ``Game.submit`` checks it (BB16), without an
    event: its normal form, no cost (nothing is bought) and no warnings."""
    game._check_setup(seat)  # the core's own check: joined, not ready, in setup
    return check_setup(document), None, []


__all__ = ["check_draft", "with_draft"]
