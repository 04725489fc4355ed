"""Placing the rest of a fleet for a player ("Place the rest for me" on the placement page).

The boats he has not placed go each on a line of sea holes of his half (T4) that none of his
boats covers, so nothing new overlaps; the Captured Man, if he has not hidden him on a hole,
on an island hole of his half (T5). What he has placed stays as he placed it, right or
wrong: the problems list still names what is wrong with it. Pure; the randomness is the
caller's (the page's route uses the system's, which nobody can predict).

>>> import random
>>> from .card import standard_card
>>> from .fleet import check_disposition
>>> mine = {"boats": [{"type": "carrier", "at": "O 1", "dir": "down"}], "man": None}
>>> filled = place_the_rest(mine, standard_card(), "red", random.Random(1))
>>> filled["boats"][0], len(filled["boats"])
({'type': 'carrier', 'at': 'O 1', 'dir': 'down'}, 5)
>>> sorted(check_disposition(filled, standard_card(), "red").boats) == sorted(BOAT_TYPES)
True
"""

from __future__ import annotations

import random

from ..common.documents import Json
from .card import Card, placements
from .catalogue import BOAT_TYPES, HOLES, NAMES
from .holes import DIRECTIONS, Hole, hole_name, line, on_half, parse_hole
from .problems import RuleViolation, problem

TRIES = 200  # fresh starts before the rest is declared not to fit


def covered(boat: Json) -> list[Hole]:
    """The holes of the half a boat document covers, as far as it can be read."""
    at, kind, dir = parse_hole(boat.get("at")), boat.get("type"), boat.get("dir")
    if at is None or kind not in BOAT_TYPES or dir not in DIRECTIONS:
        return []
    return [h for h in line(at, dir, HOLES[kind]) if on_half(h)]


def _document(kind: str, holes: tuple[Hole, ...]) -> Json:
    """A boat on these holes as T11 writes it: its first hole and the way it runs."""
    dir = next(d for d in DIRECTIONS if tuple(line(holes[0], d, len(holes))) == holes)
    return {"type": kind, "at": hole_name(holes[0]), "dir": dir}


def place_the_rest(document: Json, card: Card, seat: str, rng: random.Random) -> Json:
    """The disposition with every boat not in it placed at random on free sea holes and the
    man, if not on a hole, on a random island hole; ``RuleViolation`` when a boat is there
    twice (T3) or the boats left cannot all fit around those placed (T4)."""
    boats = [dict(b) for b in document.get("boats") or [] if isinstance(b, dict)]
    kinds = [b.get("type") for b in boats]
    twice = sorted({k for k in kinds if kinds.count(k) > 1 and k in BOAT_TYPES})
    if twice:
        raise RuleViolation([problem("T3", f"A second {NAMES[twice[0]]}: each player has "
                                           "exactly one; take one off first", field="boats")])
    have = set(kinds)
    used = {h for boat in boats for h in covered(boat)}
    sea = set(card.sea_holes(seat)) - used
    missing = sorted((k for k in BOAT_TYPES if k not in have), key=lambda k: -HOLES[k])
    for _ in range(TRIES):
        taken: set[Hole] = set()
        chosen: dict[str, tuple[Hole, ...]] = {}
        for kind in missing:
            free = [holes for holes in placements(kind, sea - taken)]
            if not free:
                break
            chosen[kind] = rng.choice(free)
            taken.update(chosen[kind])
        else:
            break
    else:
        names = ", ".join(NAMES[k] for k in missing)
        raise RuleViolation([problem("T4", f"There is no room left on your half for the "
                                           f"{names} around the boats placed: move some and "
                                           "try again", field="boats")])
    man = document.get("man")
    if parse_hole(man) is None:
        man = hole_name(rng.choice(sorted(card.island_holes(seat))))
    return {"boats": boats + [_document(k, chosen[k]) for k in BOAT_TYPES if k in chosen],
            "man": man}
