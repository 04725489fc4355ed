"""The levels that sail at random but fire what is in reach: ``drifter``, ``dabbler`` and
``novice``.

Each turn the novice looks for a move that fires a broadside at an enemy warship, or (as Red)
sinks a merchant ship, for more than it costs (B8, B9), and makes the best of them; when none
is in reach it sails at random. The drifter sails at random too, and notices a broadside in
reach only one turn in five (``DRIFTER_NOTICES``), the dabbler one turn in two
(``DABBLER_NOTICES``). None looks at the enemy's answer, nor
ahead to where its ships are going.

What a move brings is reckoned from the seat's own sight (B12) by the stronger levels'
reckoner (``engine``): Blue knows his buoys and batteries; Red, who does not, reckons a run as
if every unrevealed buoy were PASS and every battery MISS (the careful level reckons the odds).
"""

from __future__ import annotations

import random

from . import engine
from .engine import FACING, SIDE, Knowledge, Reckoner, Style

DRIFTER_NOTICES = 0.2  # the share of turns the drifter looks for a broadside in reach
DABBLER_NOTICES = 0.5  # the dabbler's
TURNED = {None: 0, "right": 1, "about": 2, "left": 3}  # B5's turns, clockwise


def _reckoner(sight) -> Reckoner:
    me = SIDE[sight.you]
    if me == engine.RED:  # blind to what it has not been told: no rock, no battery
        know = Knowledge({}, {}, [(frozenset(), 1.0)])
    else:
        know = engine.knowledge_of(sight, [(frozenset(s for s, p in sight.hit.items()
                                                      if p >= 1.0), 1.0)])
    return Reckoner(me, know, Style())


def _shape(move: dict) -> dict:
    return {"ship": move["ship"], "turn": move.get("turn"), "to": move["to"]}


def best_shot(sight, rng: random.Random) -> dict | None:
    """The legal move that takes most for what it costs (B8, B9), if one takes more than it
    costs: a broadside at an enemy warship next to where it stops, or a merchant sunk."""
    reckoner = _reckoner(sight)
    g = reckoner.g
    me = reckoner.me
    ships, merch = engine.position_of(sight)
    best, chosen = 0.0, None
    for move in sight.legal:
        to = g.index[move["to"]]
        if not (me == engine.RED and to in merch) and not any(
                n in ships and ships[n][0] != me for n in g.nxt[to] if n >= 0):
            continue  # nothing to fire at from there
        origin = g.index[move["ship"]]
        facing = (FACING[sight.ships[move["ship"]].facing] + TURNED[move.get("turn")]) % 4
        path = g.ray[origin][facing][:g.ray[origin][facing].index(to) + 1]
        value = 0.0
        for odds, masts, sunk in reckoner.outcomes(ships, origin, path):
            value += odds * (-reckoner.ship_value(me, ships[origin][2]) if sunk else
                             reckoner.landing(ships, merch, me, to, facing, masts)[0])
        value += rng.random() * 1e-3
        if value > best:
            best, chosen = value, move
    return _shape(chosen) if chosen else None


def novice(sight, rng: random.Random, notices: float = 1.0) -> dict:
    if not sight.legal:
        return {"pass": True}
    shot = best_shot(sight, rng) if rng.random() < notices else None
    return shot or _shape(rng.choice(sight.legal))


def drifter(sight, rng: random.Random) -> dict:
    return novice(sight, rng, DRIFTER_NOTICES)


def dabbler(sight, rng: random.Random) -> dict:
    return novice(sight, rng, DABBLER_NOTICES)
