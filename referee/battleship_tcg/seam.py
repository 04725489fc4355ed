"""What the referee's seam (``RuleSet``) asks of a rule set beyond its game and views: a
seat's draft checked without an event, a view showing a kept draft, the options ``new_game``
reads and the level that stands in for an absent player.
"""

from __future__ import annotations

from typing import Any

from ..common.documents import Json
from .catalogue import BOAT_TYPES
from .fleet import check_disposition
from .game import OPTIONS, Game  # noqa: F401  (OPTIONS: what new_game reads)

STAND_IN_LEVEL = "captain"  # the level that plays for an absent player (R25)


def check_draft(game: Game, seat: str, document: object) -> tuple[Json, None, list[Any]]:
    """A seat's draft disposition checked as ``Game.submit`` checks it (T3-T5, T11), without
    an event: its normal form, no cost (nothing is bought) and no warnings."""
    game._check_setup(seat)  # the core's own check: joined, not ready, in setup
    fleet = check_disposition(document, game.the_card, seat)
    return fleet.document, None, []


def with_draft(view: Json, document: Json) -> Json:
    """A seat's view in setup showing its kept draft (already in normal form): the
    disposition and its damage (none yet), as after a lock-in."""
    return {**view, "disposition": document, "damage": {kind: [] for kind in BOAT_TYPES}}


__all__ = ["OPTIONS", "STAND_IN_LEVEL", "check_draft", "with_draft"]
