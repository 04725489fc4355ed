"""What the referee's seam (``RuleSet``) asks of a rule set beyond its game and views: a
seat's draft checked without an event, a view showing a kept draft, the options ``new_game``
reads.
"""

from __future__ import annotations

from typing import Any

from ..common.documents import Json
from .fleet import check_disposition
from .game import OPTIONS, Game  # noqa: F401  (OPTIONS: what new_game reads)
from .views import with_draft


def check_draft(game: Game, seat: str, document: object) -> tuple[Json, None, list[Any]]:
    """A seat's draft disposition checked as ``Game.submit`` checks it (B3, B4, B13), without
    an event: its normal form, no cost (nothing is bought) and no warnings."""
    game._check_setup(seat)  # the core's own check: joined, not ready, in setup
    return check_disposition(document, seat).document, None, []


__all__ = ["OPTIONS", "check_draft", "with_draft"]
