"""The computer's dispositions (B3, B4, B13): always legal, every choice from its own seed.

Red puts his ten warships on the ten crosses of his start (B3), each type where the level
likes; Blue his ten on ten of his twelve start crosses, and marks his buoys and batteries. Blue's
secrets are drawn among the settings B4 allows (3 SINK and 3 PASS, never all three of the row
nor both of the pair SINK; two batteries HIT and two MISS) by the ``random.Random`` the
computer seeds from its secret seed: uniformly up to the bold level, so that they follow no
pattern at all, and for the careful and cunning levels weighted toward where Red comes.
"""

from __future__ import annotations

import random
from typing import Callable  # noqa: UP035 (the computer imports only what its tests allow)

from referee.broadside import board

from .sight import buoy_settings

FLEETS = {  # B3
    "red": {"ship-of-the-line": 2, "frigate": 3, "brig": 3, "cutter": 2},
    "blue": {"frigate": 4, "brig": 2, "cutter": 4},
}
MASTS = {"ship-of-the-line": 4, "frigate": 3, "brig": 2, "cutter": 1}


def fleet_types(side: str) -> list[str]:
    return [kind for kind, n in FLEETS[side].items() for _ in range(n)]


def secrets(rng: random.Random) -> dict:
    """Blue's buoys and batteries (B4), uniformly among the legal settings."""
    sink = rng.choice(buoy_settings())
    return _set(sink, frozenset(rng.sample(sorted(board.BATTERIES), 2)))


def _set(sink: frozenset[str], hit: frozenset[str]) -> dict:
    """Blue's secrets as the disposition gives them: each buoy SINK or PASS, each battery
    site HIT or MISS (B4), from a setting of each."""
    return {"buoys": {at: "sink" if at in sink else "pass" for at in board.YELLOW_CIRCLES},
            "batteries": {site: "hit" if site in hit else "miss"
                          for site in sorted(board.BATTERIES)}}


def _from_red(at: str) -> float:
    """How far a cross lies from Red's start: the mean of its steps to each start cross."""
    column, row = board.coordinates(at)
    starts = [board.coordinates(start) for start in board.RED_START]
    return sum(abs(column - c) + abs(row - r) for c, r in starts) / len(starts)


def channel_secrets(rng: random.Random, armed: float) -> dict:
    """Blue's buoys and batteries (B4) where Red comes, ``armed`` of the time (the careful
    level's half, the cunning level's three times in four). Red starts at the foot of the
    east channel, and between the cunning levels nearly every Red ship comes through it (its
    red circles crossed in every game, the west's in half). So, when armed, the two batteries
    HIT are the two whose circles lie nearest Red's start (the east channel's, C and D), and
    the buoys are a setting B4 allows with a SINK in the pair, the one nearer Red's start
    two times in three; otherwise any setting at all, as the other levels draw them. Every
    setting B4 allows stays possible, all from the computer's secret seed: a Red who has
    watched it play can guess, never know."""
    if rng.random() >= armed:
        return secrets(rng)
    sites = sorted(board.BATTERIES, key=lambda site: sum(
        _from_red(at) for at in board.BATTERIES[site]["controls"]))
    near, far = sorted(board.BUOY_GROUPS["pair"], key=_from_red)
    settings = buoy_settings()
    weights = [2 if near in sink else 1 if far in sink else 0 for sink in settings]
    return _set(rng.choices(settings, weights)[0], frozenset(sites[:2]))


def random_disposition(side: str, rng: random.Random) -> dict:
    """Each type on a random start cross; Blue leaves two of his twelve empty at random."""
    kinds = fleet_types(side)
    rng.shuffle(kinds)
    crosses = list(board.RED_START if side == "red" else board.BLUE_START)
    chosen = rng.sample(crosses, len(kinds))
    document: dict = {"ships": [{"type": kind, "at": at} for kind, at in zip(kinds, chosen,
                                                                              strict=True)]}
    if side == "blue":
        document.update(secrets(rng))
    return document


def _front(crosses: tuple[str, ...], toward: str) -> list[str]:
    """The start crosses, those nearest the enemy first (ties in a random-free fixed order)."""
    def depth(at: str) -> int:
        _, row = board.coordinates(at)
        return row if toward == "down" else -row
    return sorted(crosses, key=lambda at: (-depth(at), at))


def careful_disposition(side: str, rng: random.Random,
                        hide: Callable[[random.Random], dict] = secrets) -> dict:
    """Red: the heaviest ships in the front row, where they lead the way through the channels
    and take the first broadsides; the lightest behind. Blue: a ship on each cross opposite a
    merchant (B9: Red must sink it before he can fire at the merchant there), the frigates
    there first, the rest spread along the line; the two crosses left empty drawn at random
    among those not opposite a merchant."""
    kinds = sorted(fleet_types(side), key=lambda k: -MASTS[k])
    if side == "red":
        crosses = _front(board.RED_START, "up")
        front, back = crosses[:5], crosses[5:]
        heavy, light = kinds[:5], kinds[5:]
        rng.shuffle(heavy)
        rng.shuffle(light)
        ships = [{"type": k, "at": at} for k, at in zip(heavy + light, front + back,
                                                         strict=True)]
        return {"ships": ships}
    guards = [m["opposite"] for m in board.MERCHANTS if m["opposite"] in board.BLUE_START]
    rest = [at for at in board.BLUE_START if at not in guards]
    rest = rng.sample(rest, len(kinds) - len(guards))
    places = guards + rest
    tail = kinds[len(guards):]  # the frigates guard; the others go anywhere
    rng.shuffle(tail)
    kinds = kinds[:len(guards)] + tail
    ships = [{"type": k, "at": at} for k, at in zip(kinds, places, strict=True)]
    return {"ships": ships, **hide(rng)}


def channel_disposition(armed: float) -> Callable[[str, random.Random], dict]:
    """A disposition as the careful level's, Blue's secrets where Red comes ``armed`` of the
    time (``channel_secrets``)."""
    def disposition(side: str, rng: random.Random) -> dict:
        return careful_disposition(side, rng, hide=lambda r: channel_secrets(r, armed))
    return disposition
