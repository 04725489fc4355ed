"""What an attack does to the chart it strikes (R15-R19), as a full report of API.md.

``strike(fleet, weapon, squares)`` changes the target's fleet and returns every field of the
report that depends on the target's chart, the private ones (``squares_hit``, ``gun``)
included. Which of them each player may read is decided in ``views``, nowhere else.
"""

from __future__ import annotations

from ..common.documents import Json
from .catalogue import AIRCRAFT_TYPES, GUN_RADIUS, RADIUS, SHIP_TYPES
from .fleet import Fleet
from .squares import Square, area, distance, reading_order, square_name

SHOOTABLE = ("bomber", "recon")  # R18: atom bombers cannot be shot down


def firing_gun(fleet: Fleet, target: Square) -> int | None:
    """The A-A gun that shoots down a bomber or R.P. aimed at ``target``, if any (R18).

    Every intact, unspent gun whose 3 x 3 covers the target is a candidate; the nearest by
    the larger of the column and row distances fires; ties go to the first in reading order.
    """
    candidates = [
        (distance(gun.square, target), gun.square.row, gun.square.col, i)
        for i, gun in enumerate(fleet.guns)
        if gun.can_fire and distance(gun.square, target) <= GUN_RADIUS
    ]
    return min(candidates)[3] if candidates else None


def _empty_destroyed() -> dict[str, int]:
    return {**dict.fromkeys(AIRCRAFT_TYPES, 0), "aa-gun": 0}


class _Strike:
    """The running tally of one move's effects on one chart."""

    def __init__(self, fleet: Fleet) -> None:
        self.fleet = fleet
        self.new_hits: dict[int, int] = {}
        self.destroyed = _empty_destroyed()
        self.squares_hit: set[Square] = set()

    def shot(self, square: Square) -> Json:
        """One shot on one square (R15, R19); returns the salvo's per-shot entry."""
        fleet = self.fleet
        entry = {"at": square_name(square), "result": None, "new": False, "sunk": False,
                 "aircraft": None}
        ship_index = fleet.ship_at.get(square)
        if ship_index is not None:
            ship = fleet.ships[ship_index]
            entry["result"] = ship.type
            if square not in ship.hits:
                ship.hits.add(square)
                fleet.damage_changed()
                self.new_hits[ship_index] = self.new_hits.get(ship_index, 0) + 1
                self.squares_hit.add(square)
                entry["new"] = True
            entry["sunk"] = ship.sunk
        plane_index = fleet.aircraft_at.get(square)
        if plane_index is not None and fleet.aircraft[plane_index].can_fly:
            plane = fleet.aircraft[plane_index]
            plane.destroyed = True
            fleet.damage_changed()
            self.destroyed[plane.type] += 1
            self.squares_hit.add(square)
            entry["aircraft"] = plane.type
            if entry["result"] is None:
                entry["result"] = plane.type
                entry["new"] = True
        gun_index = fleet.gun_at.get(square)
        if gun_index is not None and not fleet.guns[gun_index].destroyed:
            fleet.guns[gun_index].destroyed = True
            fleet.damage_changed()
            self.destroyed["aa-gun"] += 1
            self.squares_hit.add(square)
            entry["result"] = "aa-gun"
            entry["new"] = True
        return entry

    def hits(self) -> list[Json]:
        """One entry per ship that took new hits, in an order that tells nothing of where
        the ships lie: by type, then by number of hits (R20)."""
        entries = [
            {"ship": self.fleet.ships[i].type, "new_hits": n, "sunk": self.fleet.ships[i].sunk}
            for i, n in self.new_hits.items()
        ]
        return sorted(entries, key=lambda h: (SHIP_TYPES.index(h["ship"]), -h["new_hits"],
                                              h["sunk"]))


def look(fleet: Fleet, centre: Square) -> list[Json]:
    """What an R.P. over ``centre`` reports: every square of the 3 x 3 on the chart (R17)."""
    seen = []
    for square in area(centre, 1):
        entry = {"square": square_name(square),
                 "terrain": "land" if square in fleet.land else "sea",
                 "piece": None, "hit": False, "spent": False, "aircraft": None}
        ship_index = fleet.ship_at.get(square)
        plane_index = fleet.aircraft_at.get(square)
        gun_index = fleet.gun_at.get(square)
        if plane_index is not None and fleet.aircraft[plane_index].can_fly:
            entry["aircraft"] = entry["piece"] = fleet.aircraft[plane_index].type
        if ship_index is not None:
            entry["piece"] = fleet.ships[ship_index].type
            entry["hit"] = square in fleet.ships[ship_index].hits
        if gun_index is not None and not fleet.guns[gun_index].destroyed:
            entry["piece"] = "aa-gun"
            entry["spent"] = fleet.guns[gun_index].spent
        seen.append(entry)
    return seen


def strike(fleet: Fleet, weapon: str, squares: list[Square]) -> Json:
    """Apply one move's weapon to the target's fleet and return the report's effect fields.

    The move must already be legal (R12, R13); this only works out what happens.
    """
    gun_square = None
    if weapon in SHOOTABLE:
        gun_index = firing_gun(fleet, squares[0])
        if gun_index is not None:
            fleet.guns[gun_index].spent = True
            fleet.damage_changed()
            gun_square = square_name(fleet.guns[gun_index].square)
    tally = _Strike(fleet)
    report: Json = {"shot_down": gun_square is not None, "shots": None, "seen": None}
    if gun_square is None:
        if weapon == "salvo":
            report["shots"] = [tally.shot(square) for square in squares]
        elif weapon == "recon":
            report["seen"] = look(fleet, squares[0])
        else:
            for square in area(squares[0], RADIUS[weapon]):
                tally.shot(square)
    report["hits"] = tally.hits()
    report["destroyed"] = tally.destroyed
    report["squares_hit"] = [square_name(s) for s in reading_order(tally.squares_hit)]
    report["gun"] = gun_square
    return report
