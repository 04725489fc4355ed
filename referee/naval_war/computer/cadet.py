"""The cadet: a beginner who sends his R.P.s out first and then fires at what they saw.

Budget: a beginner's fleet, many ships of every kind and plenty of R.P.s and salvoes but few
A-A guns, placed at random.

Play, on ``knowledge_chart``: every R.P. flies first, each to a random square of a random
opponent; then the bombers and atom bombers, at random; then the salvoes, at the ship squares
and aircraft the R.P.s saw (the ones not yet hit), and at random unexplored squares for the
rest. He does not follow up a hit, read a bomber's report or keep away from A-A guns.
"""

from __future__ import annotations

import random

from referee.naval_war.catalogue import AIRCRAFT_TYPES, SHIP_TYPES
from referee.naval_war.knowledge import SEEN, knowledge_chart
from referee.naval_war.layout import scatter

from .board import CELLS, SQUARE_NAMES
from .seat import Seat, aircraft_move, salvo_move

PLAN = {"battleship": 2, "cruiser": 5, "destroyer": 8, "submarine": 26,
        "recon": 30, "aa-gun": 10, "salvo": 55}


def disposition(rng: random.Random) -> dict:
    return scatter(dict(PLAN), rng)


def _sighted(view: dict, opponent: str) -> tuple[list[int], list[int]]:
    """The squares the R.P.s saw a target on (not yet hit), and the squares not yet known."""
    chart = knowledge_chart(view, opponent)
    targets, unknown = [], []
    for s, name in enumerate(SQUARE_NAMES):
        entry = chart.get(name)
        if entry is None:
            unknown.append(s)
        elif entry["mark"] == SEEN and (
                (entry.get("piece") in SHIP_TYPES and not entry.get("hit"))
                or entry.get("piece") in AIRCRAFT_TYPES or entry.get("aircraft")):
            targets.append(s)
    return targets, unknown


def move(seat: Seat, view: dict, rng: random.Random) -> dict:
    for kind in ("recon", "bomber", "atom-bomber"):
        if seat.aircraft[kind]:
            frm = rng.choice(seat.aircraft[kind])
            return aircraft_move(kind, frm, rng.randrange(CELLS), rng.choice(seat.opponents))
    best: tuple[str, list[int], list[int]] | None = None
    for opponent in seat.opponents:
        targets, unknown = _sighted(view, opponent)
        if best is None or len(targets) > len(best[1]):
            best = (opponent, targets, unknown)
    if best is None:
        raise ValueError("no opponent to fire at")
    opponent, targets, unknown = best
    rng.shuffle(targets)
    shots = targets[:3]
    rest = [s for s in unknown if s not in shots] or [s for s in range(CELLS) if s not in shots]
    while len(shots) < 3:
        shots.append(rest.pop(rng.randrange(len(rest))))
    return salvo_move(shots, opponent)
