"""The recruit: a random legal fleet, and random legal shots.

Every shot is drawn uniformly from the holes the rules allow now (T7): the opponent's sea holes
not yet shot while any boat floats, his island holes not yet shot once all five are sunk.
"""

from __future__ import annotations

import random

from .sight import BOATS, NAMES, Placement, Sight, bits, sea_placements


def move(sight: Sight, rng: random.Random) -> dict:
    return {"at": NAMES[rng.choice(bits(sight.allowed()))]}


def random_fleet(islands: int, rng: random.Random) -> dict[str, Placement]:
    """Each boat on a random line of sea holes of the half (T4), none sharing a hole; a fleet
    that paints itself into a corner starts again."""
    while True:
        used = 0
        fleet: dict[str, Placement] = {}
        for kind, size in BOATS.items():
            free = [p for p in sea_placements(size, islands) if not p.mask & used]
            if not free:
                break
            fleet[kind] = rng.choice(free)
            used |= fleet[kind].mask
        else:
            return fleet


def document(fleet: dict[str, Placement], man: int) -> dict:
    """The disposition document of T11."""
    return {"boats": [fleet[kind].document(kind) for kind in BOATS], "man": NAMES[man]}


def disposition(islands: int, rng: random.Random) -> dict:
    """A random legal disposition for a half with these islands: the man on one of them (T5)."""
    fleet = random_fleet(islands, rng)
    return document(fleet, rng.choice(bits(islands)))
