"""How many random games a property test plays: enough in ``make test`` to find a broken
invariant in any rule set while the whole suite stays under ten minutes on two cores, and
several times more in ``make soak`` (REFEREE_SOAK=1), the long run before a release."""

from __future__ import annotations

import os

SOAK = os.environ.get("REFEREE_SOAK") == "1"


def examples(everyday: int, soak: int) -> int:
    """The number of random games (Hypothesis examples) for this run."""
    return soak if SOAK else everyday
