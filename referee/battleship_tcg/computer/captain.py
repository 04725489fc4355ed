"""The captain: hunt and target on the honeycomb.

Hunting, it shoots at random among one colour of a three-colouring of the honeycomb
(``sight.colour``): any three holes in a line hold each colour once, so while every boat still
afloat is three holes or longer, a third of the sea finds them all; once only the Patrol Boat
floats it widens the pattern to two colours (any two neighbouring holes hold one of them). It
skips holes where the shortest boat afloat no longer fits between misses, islands and the edge.

Targeting, it follows hits along the three lines of T4: from every hit not yet accounted for by
a sink, along each line, it looks at the holes just beyond the run of hits through it and
shoots the one beyond the longest run (a lone hit's six neighbours first, then along the line
two hits make). A sink announcement (T8) clears the boat's holes: the line of the sunk boat's
length through the sinking hole made only of open hits; where several fit, the most recently
hit.
"""

from __future__ import annotations

import random
from functools import lru_cache

from referee.battleship_tcg.holes import DIRECTIONS, on_half, step

from .sight import BOATS, HOLES, NAMES, Sight, bits, colour, hole_at, index, lines_through


@lru_cache(maxsize=1)
def _ways() -> tuple[tuple[int | None, ...], ...]:
    """For each hole, its neighbour one step along each direction of T4 and back again, in
    the order down, up, down-right, up-left, up-right, down-left (``None`` off the half)."""
    ahead: dict[str, list[int | None]] = {d: [None] * HOLES for d in DIRECTIONS}
    behind: dict[str, list[int | None]] = {d: [None] * HOLES for d in DIRECTIONS}
    for i in range(HOLES):
        for d in DIRECTIONS:
            nxt = step(hole_at(i), d)
            if on_half(nxt):
                ahead[d][i] = index(nxt)
                behind[d][index(nxt)] = i
    return tuple(tuple(table[d]) for d in DIRECTIONS for table in (ahead, behind))


def open_hits(sight: Sight) -> dict[int, int]:
    """The hits no sink announcement has accounted for yet, each with its shot's number."""
    open_: dict[int, int] = {}
    for shot in sight.shots:
        if shot.result != "hit":
            continue
        open_[shot.at] = shot.n
        if shot.sunk:
            fits = [p for p in lines_through(BOATS[shot.sunk])[shot.at]
                    if all(i in open_ for i in bits(p.mask))]
            if fits:
                newest = max(fits, key=lambda p: sum(open_[i] for i in bits(p.mask)))
                for i in bits(newest.mask):
                    del open_[i]
            else:
                del open_[shot.at]
    return open_


def _room(i: int, sight: Sight, free: int, size: int) -> bool:
    """Whether a boat of ``size`` could still lie over hole ``i`` on holes in ``free``."""
    return any(not p.mask & ~free for p in lines_through(size)[i])


def target(sight: Sight, open_: dict[int, int], rng: random.Random) -> int | None:
    allowed = sight.allowed()
    shortest = min(BOATS[kind] for kind in sight.afloat)
    free = allowed | sum(1 << i for i in open_)
    ways = _ways()
    best: dict[int, int] = {}
    for hit in open_:
        for forward, backward in zip(ways[0::2], ways[1::2], strict=True):
            run = 1
            ends = []
            for way in (forward, backward):
                at = way[hit]
                while at is not None and at in open_:
                    run += 1
                    at = way[at]
                ends.append(at)
            for end in ends:
                if end is not None and allowed >> end & 1 and _room(end, sight, free, shortest):
                    best[end] = max(best.get(end, 0), run)
    if not best:
        return None
    top = max(best.values())
    return rng.choice(sorted(i for i, run in best.items() if run == top))


def hunt(sight: Sight, rng: random.Random, pattern: int) -> int:
    allowed = sight.allowed()
    shortest = min(BOATS[kind] for kind in sight.afloat)
    colours = {pattern} if shortest >= 3 else {pattern, (pattern + 1) % 3}
    holes = bits(allowed)
    roomy = [i for i in holes if _room(i, sight, allowed, shortest)] or holes
    chosen = [i for i in roomy if colour(i) in colours] or roomy
    return rng.choice(chosen)


def move(sight: Sight, rng: random.Random, pattern: int) -> dict:
    if sight.searching:  # T9: the man is on an island hole, any of them
        return {"at": NAMES[rng.choice(bits(sight.allowed()))]}
    open_ = open_hits(sight)
    aim = target(sight, open_, rng) if open_ else None
    return {"at": NAMES[aim if aim is not None else hunt(sight, rng, pattern)]}
