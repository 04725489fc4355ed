"""The three levels between the recruit and the captain: each guesses at random until it hits,
then shoots next to its hits the way a beginner learns to.

- **cadet** tries the holes next to its latest hit, and gives the hit up after two misses in
  a row next to it (or when that hit sank a boat): back to guessing.
- **midshipman** works round its latest hit until every hole next to it is shot or that hit
  sank a boat; a hit made on another boat meanwhile is forgotten once the boat it was chasing
  sinks.
- **lieutenant** remembers every hit no sink announcement has accounted for (T8, as the
  captain reads them) and shoots next to any of them; it guesses at random, with no pattern,
  when none is left.

"Next to" is the six neighbours of T1, among the holes T7 allows (unshot sea while a boat
floats). None of them reads lines: that is the captain's. Once all five are sunk every level
searches the islands for the man at random (T7, T9).
"""

from __future__ import annotations

import random
from functools import lru_cache

from referee.battleship_tcg.holes import neighbours, on_half

from . import recruit
from .captain import open_hits
from .sight import HOLES, NAMES, Sight, hole_at, index

CADET_PATIENCE = 2  # misses in a row next to a hit before the cadet gives it up


@lru_cache(maxsize=1)
def _around() -> tuple[tuple[int, ...], ...]:
    """Each hole's neighbours on the half (T1), up to six."""
    return tuple(tuple(sorted(index(h) for h in neighbours(hole_at(i)) if on_half(h)))
                 for i in range(HOLES))


def around(i: int) -> tuple[int, ...]:
    return _around()[i]


def _next_to(sight: Sight, holes, rng: random.Random) -> dict | None:
    allowed = sight.allowed()
    near = sorted({j for i in holes for j in around(i) if allowed >> j & 1})
    return {"at": NAMES[rng.choice(near)]} if near else None


def cadet(sight: Sight, rng: random.Random) -> dict:
    if not sight.searching:
        for misses, shot in enumerate(reversed(sight.shots)):
            if shot.result == "hit":
                if not shot.sunk and misses < CADET_PATIENCE:
                    aim = _next_to(sight, [shot.at], rng)
                    if aim:
                        return aim
                break
    return recruit.move(sight, rng)


def midshipman(sight: Sight, rng: random.Random) -> dict:
    if not sight.searching:
        for shot in reversed(sight.shots):
            if shot.result == "hit":
                if not shot.sunk:
                    aim = _next_to(sight, [shot.at], rng)
                    if aim:
                        return aim
                break
    return recruit.move(sight, rng)


def lieutenant(sight: Sight, rng: random.Random) -> dict:
    if not sight.searching:
        aim = _next_to(sight, sorted(open_hits(sight)), rng)
        if aim:
            return aim
    return recruit.move(sight, rng)
