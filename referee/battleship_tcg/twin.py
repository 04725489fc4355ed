"""A disposition's secret twin (T7, T8, T10): the same half with one boat on another line of sea
holes and the Captured Man on another island hole.

The opponent learns of a half only what his shots find (T8): the hole shot, its result and a
boat's type when it sinks. So two games whose halves differ only there tell him the same
until he shoots a hole where either holds a boat or the man: ``clear`` says whether a shot
stays off them. The owner's own shots go at the other half and never depend on his own.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..common.documents import Json
from ..common.problems import RuleViolation
from ..common.ruleset import Twin
from .card import placements, read_card_option
from .catalogue import BOAT_TYPES
from .fleet import check_disposition
from .holes import DIRECTIONS, Hole, hole_name, line, parse_hole


def secret_twin(view: Json, rng: random.Random) -> Twin | None:
    """A twin of the disposition in a seat's view (its own half of the view's card)."""
    document, owner, card = view.get("disposition"), view.get("you"), view.get("card") or {}
    if not isinstance(document, dict) or not isinstance(owner, str):
        return None
    card = read_card_option("standard" if card.get("name") == "standard"
                            else {"seed": card.get("seed")})
    fleet = check_disposition(document, card, owner)
    kind = rng.choice(BOAT_TYPES)
    others = {hole for k, holes in fleet.boats.items() if k != kind for hole in holes}
    sea = {hole for hole in card.sea_holes(owner) if hole not in others}
    lines = [holes for holes in placements(kind, sea) if holes != fleet.boats[kind]]
    islands = sorted(card.island_holes(owner) - {fleet.man})
    if not lines or not islands:
        return None
    holes, man = rng.choice(lines), rng.choice(islands)
    boats = [boat if boat["type"] != kind else _boat(kind, holes)
             for boat in document["boats"]]
    try:
        twin = check_disposition({"boats": boats, "man": hole_name(man)}, card, owner)
    except RuleViolation:
        return None
    differ = frozenset({*fleet.boats[kind], *holes, fleet.man, man})
    return Twin(twin.document, _clear_of(owner, differ))


def _boat(kind: str, holes: tuple[Hole, ...]) -> Json:
    for way in DIRECTIONS:
        if tuple(line(holes[0], way, len(holes))) == tuple(holes):
            return {"type": kind, "at": hole_name(holes[0]), "dir": way}
    raise ValueError(f"{[hole_name(h) for h in holes]} is not a line of T4")


def _clear_of(owner: str, differ: frozenset[Hole]) -> Callable[[str, Json, Json], bool]:
    def clear(seat: str, move: Json, _view: Json) -> bool:
        if seat == owner:
            return True
        at = move.get("at") if isinstance(move, dict) else None
        hole = parse_hole(at[0] if isinstance(at, list) and len(at) == 1 else at)
        return hole is not None and hole not in differ
    return clear


__all__ = ["secret_twin"]
