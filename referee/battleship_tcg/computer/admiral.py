"""The admiral: probability density over every placement consistent with what it was told.

The DataGenetics method, adapted to the honeycomb and the islands, and made to respect every
report:

1. **The sunk boats.** A sink announcement names the boat and the hole that sank it (T8): the
   boat lies on a line of its length through that hole (``holes.line``, T4), every hole of it a
   hit made at or before that shot. The sunk boats' placements that fit together (no hole
   shared) are each a *reading* of the reports; usually there is one.
2. **The boats afloat.** For a reading, a boat still afloat may lie on any line of its length
   on sea holes (T2, T4) that covers no miss, no hole of a sunk boat, and is not wholly hit (it
   would have been announced sunk).
3. **The hits.** Every hit no sunk boat accounts for is a hole of a boat afloat. The admiral
   enumerates the ways the boats afloat can cover those open hits (a *cover*: some of the
   boats on placements, sharing no hole, together covering every open hit); the other boats are
   free to lie anywhere else. A cover counts as many times as the free boats have placements
   clear of it (boats counted independently of one another, the DataGenetics simplification).
   Each boat more than the fewest that can cover the hits divides a cover's weight by about the
   number of places a free boat has (some hundreds), so the covers counted are those of the
   fewest boats and of one boat more.
4. **The shot.** Each open hole's chance of holding a boat is the weight of the covers that
   cover it plus, for each free boat, its share of that boat's placements; the admiral shoots
   the likeliest hole (ties drawn at random). With no open hits this is the plain density of
   the hunt; with hits it is the target phase, without a separate rule.

When a position has so many covers that counting them would be slow, it falls back to the
plain DataGenetics weighting (a placement through open hits counts many times over).

Once all five are sunk the man is on one of the island holes not yet shot (T5, T7); nothing
the admiral has been told makes one likelier than another for a fleet placed at random, so it
shoots among them uniformly.

Its own fleet: it draws many random legal fleets and keeps one of those whose holes the plain
density (what a searcher like itself shoots first) rates least likely, so that a density
searcher comes to its boats late; the man goes on a random island hole of its half.
"""

from __future__ import annotations

import random

from .recruit import document, random_fleet
from .sight import BOATS, HOLES, NAMES, Placement, Sight, bits, lines_through, sea_placements

COVER_BUDGET = 20_000  # steps of the cover search before the plain weighting takes over
FALLBACK_HIT_WEIGHT = 40  # DataGenetics: a placement through an open hit counts this much more
FLEETS_TRIED = 40  # random fleets the admiral weighs for its own disposition
FLEETS_KEPT = 4  # the best few, one of which it picks at random


class TooManyCovers(Exception):
    """The cover search would take too long for a move."""


def sunk_readings(sight: Sight, limit: int = 64) -> list[list[tuple[str, Placement]]]:
    """Every way the sunk boats can lie that the reports allow (step 1), up to ``limit``."""
    when: dict[int, int] = {}
    sinks: list[tuple[str, list[Placement]]] = []
    for k, shot in enumerate(sight.shots):
        if shot.result != "hit":
            continue
        when[shot.at] = k
        if shot.sunk:
            fits = [p for p in lines_through(BOATS[shot.sunk])[shot.at]
                    if all(when.get(i, k + 1) <= k for i in p.holes)]
            sinks.append((shot.sunk, fits))
    readings: list[list[tuple[str, Placement]]] = []

    def place(n: int, used: int, chosen: list[tuple[str, Placement]]) -> None:
        if len(readings) >= limit:
            return
        if n == len(sinks):
            readings.append(list(chosen))
            return
        kind, fits = sinks[n]
        for p in fits:
            if not p.mask & used:
                chosen.append((kind, p))
                place(n + 1, used | p.mask, chosen)
                chosen.pop()

    place(0, 0, [])
    return readings


def _covers(open_: int, afloat: list[str], valid: dict[int, set[int]], budget: list[int],
            most: int):
    """Every cover of the open hits by at most ``most`` boats (step 3): yields (holes used,
    boats used)."""

    def cover(uncovered: int, used: int, boats: tuple[str, ...]):
        if not uncovered:
            yield used, boats
            return
        if len(boats) == most:
            return
        low = (uncovered & -uncovered).bit_length() - 1
        for kind in afloat:
            if kind in boats:
                continue
            size = BOATS[kind]
            for p in lines_through(size)[low]:
                if p.mask in valid[size] and not p.mask & used:
                    budget[0] -= 1
                    if budget[0] < 0:
                        raise TooManyCovers
                    yield from cover(uncovered & ~p.mask, used | p.mask, (*boats, kind))

    yield from cover(open_, 0, ())


def _clear_of(size: int, used: int, free: set[int], counts: dict) -> int:
    """How many of a boat's free placements share no hole with ``used``."""
    key = (size, used)
    if key not in counts:
        touching = {p.mask for i in bits(used) for p in lines_through(size)[i]
                    if p.mask in free}
        counts[key] = len(free) - len(touching)
    return counts[key]


def density(sight: Sight) -> list[float]:
    """Each hole's weight of holding a boat afloat, given every report (steps 1-4)."""
    afloat = sight.afloat
    sizes = {BOATS[kind] for kind in afloat}
    hits, misses = sight.hits, sight.misses
    weights = [0.0] * HOLES
    budget = [COVER_BUDGET]
    for reading in sunk_readings(sight) or [[]]:
        sunk = 0
        for _, p in reading:
            sunk |= p.mask
        open_ = hits & ~sunk
        blocked = misses | sunk
        valid = {size: {p.mask for p in sea_placements(size, sight.islands)
                        if not p.mask & blocked and p.mask & ~hits}
                 for size in sizes}
        free = {size: {m for m in masks if not m & open_} for size, masks in valid.items()}
        share: dict[int, list[float]] = {}
        for size, masks in free.items():
            counts = [0.0] * HOLES
            for m in masks:
                for i in bits(m):
                    counts[i] += 1
            share[size] = [c / len(masks) for c in counts] if masks else counts
        free_weight = dict.fromkeys(afloat, 0.0)
        clear: dict = {}
        try:
            fewest = next((n for n in range(len(afloat) + 1)
                           if any(True for _ in _covers(open_, afloat, valid, budget, n))),
                          len(afloat))
            for used, boats in _covers(open_, afloat, valid, budget, fewest + 1):
                weight = 1.0
                for kind in afloat:
                    if kind not in boats:
                        weight *= _clear_of(BOATS[kind], used, free[BOATS[kind]], clear)
                if not weight:
                    continue
                for i in bits(used):
                    weights[i] += weight
                for kind in afloat:
                    if kind not in boats:
                        free_weight[kind] += weight
        except TooManyCovers:
            return plain_density(sight, open_, valid)
        for kind, weight in free_weight.items():
            if weight:
                for i, s in enumerate(share[BOATS[kind]]):
                    if s:
                        weights[i] += weight * s
    return weights


def plain_density(sight: Sight, open_: int, valid: dict[int, set[int]]) -> list[float]:
    """The DataGenetics weighting: each placement counts once, and many times more for each
    open hit it covers."""
    weights = [0.0] * HOLES
    for kind in sight.afloat:
        for m in valid[BOATS[kind]]:
            weight = FALLBACK_HIT_WEIGHT ** (m & open_).bit_count()
            for i in bits(m):
                weights[i] += weight
    return weights


def move(sight: Sight, rng: random.Random) -> dict:
    allowed = bits(sight.allowed())
    if sight.searching:  # T9: every island hole not yet shot is as likely as the next
        return {"at": NAMES[rng.choice(allowed)]}
    weights = density(sight)
    top = max(weights[i] for i in allowed)
    if top <= 0:
        raise ValueError("no placement of the boats afloat fits the reports")
    return {"at": NAMES[rng.choice([i for i in allowed if weights[i] >= top * (1 - 1e-9)])]}


def prior(islands: int) -> list[float]:
    """Each hole's plain density on an unshot half with these islands, summed over the fleet."""
    weights = [0.0] * HOLES
    for size in BOATS.values():
        placements = sea_placements(size, islands)
        for p in placements:
            for i in p.holes:
                weights[i] += 1 / len(placements)
    return weights


def disposition(islands: int, rng: random.Random) -> dict:
    weights = prior(islands)
    drawn = [random_fleet(islands, rng) for _ in range(FLEETS_TRIED)]
    drawn.sort(key=lambda fleet: sum(weights[i] for p in fleet.values() for i in p.holes))
    return document(rng.choice(drawn[:FLEETS_KEPT]), rng.choice(bits(islands)))
