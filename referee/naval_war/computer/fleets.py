"""Laying out a fleet so that no single atom bomber or R.P. finds much (R6-R9).

``dispersed(purchase, rng)`` spreads the land units apart, puts an A-A gun in the middle of
each unit (so an R.P. or bomber aimed at the unit is shot down, R18) and the aircraft round
the units in turn, then places the ships one by one, each where the fewest ship squares
already lie within two squares: the "widely dispersed" fleet of the rules' third and fourth
games, which an atom bomber's 5 x 5 or an R.P.'s 3 x 3 cannot find much of.
"""

from __future__ import annotations

import random

from referee.naval_war.catalogue import AIRCRAFT_TYPES, SHIP_TYPES, TURNS
from referee.naval_war.layout import Purchase, scatter
from referee.naval_war.squares import SIZE

from .board import AREA, CELLS, DIRECTION, PLACEMENTS, SQUARE_NAMES

TRIES = 60  # random placements weighed for each ship


def _land_units(count: int, rng: random.Random) -> list[int]:
    """Top-left squares of ``count`` 3 x 3 land units, spread apart (R6)."""
    units: list[int] = []
    for _ in range(count):
        best, best_gap = None, -1.0
        for _try in range(40):
            c, r = rng.randrange(SIZE - 2), rng.randrange(SIZE - 2)
            if any(abs(c - u % SIZE) < 3 and abs(r - u // SIZE) < 3 for u in units):
                continue
            gap: float = min((max(abs(c - u % SIZE), abs(r - u // SIZE)) for u in units),
                             default=SIZE)
            gap += rng.random()
            if gap > best_gap:
                best, best_gap = r * SIZE + c, gap
        if best is None:
            raise ValueError("no room for land")
        units.append(best)
    return units


def _unit_squares(unit: int) -> list[int]:
    return [unit + r * SIZE + c for r in range(3) for c in range(3)]


def dispersed(purchase: Purchase, rng: random.Random, extra_land: int = 0) -> dict:
    """A legal disposition of ``purchase`` with land, guns, aircraft and ships spread out;
    ``extra_land`` more land units than the aircraft and guns need spread them thinner."""
    try:
        return _dispersed(purchase, rng, extra_land)
    except ValueError:
        return scatter(purchase, rng)


def _dispersed(purchase: Purchase, rng: random.Random, extra_land: int) -> dict:
    planes = [kind for kind in ("atom-bomber", "bomber", "recon")
              for _ in range(purchase.get(kind, 0))]
    guns_wanted = purchase.get("aa-gun", 0)
    units = _land_units(-(-(len(planes) + guns_wanted) // 9) + extra_land, rng)
    land = {s for u in units for s in _unit_squares(u)}
    # guns in the middle of each unit first, then anywhere; aircraft round the units in turn
    free_by_unit = [_unit_squares(u) for u in units]
    for squares in free_by_unit:
        rng.shuffle(squares)
    guns: list[int] = []
    for unit, squares in zip(units, free_by_unit, strict=True):
        if len(guns) < guns_wanted:
            middle = unit + SIZE + 1
            squares.remove(middle)
            guns.append(middle)
    aircraft = []
    turn = 0
    rng.shuffle(planes)
    for kind in sorted(planes, key=lambda k: AIRCRAFT_TYPES.index(k)):
        for _ in range(len(free_by_unit)):
            squares = free_by_unit[turn % len(free_by_unit)]
            turn += 1
            if squares:
                aircraft.append({"type": kind, "at": SQUARE_NAMES[squares.pop()]})
                break
    while len(guns) < guns_wanted:
        squares = max(free_by_unit, key=len)
        guns.append(squares.pop())
    ships = _place_ships(purchase, land, rng)
    return {"land": [SQUARE_NAMES[u] for u in units], "ships": ships, "aircraft": aircraft,
            "guns": [SQUARE_NAMES[g] for g in guns], "salvoes": purchase.get("salvo", 0)}


def _place_ships(purchase: Purchase, land: set[int], rng: random.Random) -> list[dict]:
    taken = [s in land for s in range(CELLS)]  # land, ship squares and their neighbours
    crowd = [0] * CELLS  # ship squares within two squares
    ships = []
    for kind in SHIP_TYPES:
        placements = PLACEMENTS[kind]
        for _ in range(purchase.get(kind, 0)):
            best, best_score = None, None
            for _try in range(TRIES * 3):
                n = rng.randrange(len(placements))
                squares = placements[n]
                if any(taken[s] for s in squares):
                    continue
                score = sum(crowd[s] for s in squares) + rng.random()
                if best_score is None or score < best_score:
                    best, best_score = n, score
                if _try >= TRIES and best is not None:
                    break
            if best is None:
                best = next((n for n, squares in enumerate(placements)
                             if not any(taken[s] for s in squares)), None)
                if best is None:
                    raise ValueError("no room for a ship")
            squares = placements[best]
            for s in squares:
                for t in AREA[1][s]:
                    taken[t] = True
                for t in AREA[2][s]:
                    crowd[t] += 1
            doc = {"type": kind, "at": SQUARE_NAMES[squares[0]]}
            if kind in TURNS:
                doc["dir"] = DIRECTION[kind][best]
            ships.append(doc)
    return ships
