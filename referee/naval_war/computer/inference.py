"""A seat's chart of one opponent, and the odds on every square it has not seen.

``Chart(view, opponent)`` reads every report of the view that concerns the opponent's chart
(the seat's own and, in an alliance, its ally's) and works out:

- what is known square by square: ship squares (type, hit, sunk), empty sea or land, the
  aircraft and A-A guns an R.P. saw, the areas bombed and the R.P.s shot down;
- where unseen land must or may lie: land comes in 3 x 3 units (R6), so land seen at the
  edge of an R.P.'s view has more beside it, where no ship can be;
- the located ships: known ship squares grouped by R8 (two ship squares that touch, even at a
  corner, are the same ship), each with every placement of its type that fits what is known;
- the ships a bomber hit without showing where ("Two hits on a Battleship"), each with every
  placement that puts that many squares in the bombed area;
- for the ships not yet located, the density method that wins at Battleship: every placement
  of every type consistent with everything known is counted, weighted by how many ships of
  that type are still expected to be hidden;
- ``p[i]``: the chance that square ``i`` holds a ship square not yet hit, and ``risk(c)``,
  the chance that an A-A gun shoots down a bomber or R.P. sent to ``c``.

It reads only the view (R21): what the seat has not been told cannot reach it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.naval_war.catalogue import (
    AIRCRAFT_TYPES,
    BUDGET,
    MIN_FORCES,
    MIN_SHIPS,
    SHAPES,
    SHIP_LENGTH,
    SHIP_TYPES,
)
from referee.naval_war.catalogue import RADIUS as CATALOGUE_RADIUS

from .board import (
    AREA,
    CELLS,
    NEIGHBOURS,
    PLACEMENTS,
    PLACEMENTS_AT,
    SIZE,
    WINDOWS,
    covering_centres,
    distance,
    index,
)

UNKNOWN, EMPTY, LAND, SHIP = 0, 1, 2, 3
RADIUS = {kind: CATALOGUE_RADIUS[kind] for kind in AIRCRAFT_TYPES}  # R16
# What an enemy aircraft caught on the ground is worth, in ship points it would have cost us.
PLANE_VALUE = {"atom-bomber": 6.0, "bomber": 2.5, "recon": 1.2}
# How many ships of each type a fleet is expected to hold before anything is seen of it.
PRIOR = {"carrier": 2.0, "battleship": 4.0, "cruiser": 5.0, "destroyer": 8.0, "submarine": 18.0}


@dataclass(frozen=True)
class Odds:
    """The computer's odds and weights in one place (its estimates, not the rules')."""

    prior_weight: float = 0.3  # how much of the chart the prior counts for
    land_certain: float = 0.999  # odds of land above which a square is taken to be land
    most_likely: float = 0.97  # no unseen square is ever more likely than this to hold a ship
    flak_base: float = 0.015  # an unseen square's chance of an A-A gun, before any shoot-down
    flak_learned: float = 0.08  # ... and how much the shoot-downs so far add to it
    flak_flights: int = 4  # the flights the first shoot-down is weighed against, as a prior
    flak_beside: float = 0.25  # a gun's chance beside a square where one shot us down
    flak_two_away: float = 0.1  # ... and two squares away
    flak_most: float = 0.9  # no square's chance of a gun is higher than this
    unseen_bonus: float = 0.03  # what an R.P. learns from an unseen square, beyond ships
    bombed_unseen: float = 0.02  # ... from an unseen square a bomb already fell on
    near_miss: float = 0.15  # a bomb's worth, per expected hit that does not sink
    gun_worth: float = 0.3  # a salvo shot at a gun, while we still have aircraft to fly


ODDS = Odds()
# how far the rest of a ship can lie from one of its squares
REACH = {kind: max(max(abs(a[0] - b[0]), abs(a[1] - b[1])) for a in shape for b in shape)
         for kind, shape in SHAPES.items()}
MIN_SHIP_POINTS, MAX_SHIP_POINTS = MIN_SHIPS, BUDGET - MIN_FORCES  # R4 bounds the ships


@dataclass
class Bomb:
    """A bomber or atom bomber that reached the chart: its area and the hits reported."""

    area: tuple[int, ...]
    entries: list[tuple[str, int, bool]]


@dataclass
class KnownShip:
    """A ship known to exist: located by its squares, or only by a bomber's report."""

    kind: str
    squares: tuple[int, ...]  # known squares (none for a ship a bomber found)
    options: list[tuple[int, ...]] = field(default_factory=list)  # unhit squares per placement
    sunk: bool = False
    areas: list[frozenset[int]] = field(default_factory=list)  # bombed areas it lies in

    @property
    def length(self) -> int:
        return SHIP_LENGTH[self.kind]


class Chart:
    """What ``view``'s seat knows of ``opponent``'s chart, and the odds on the rest."""

    def __init__(self, view: dict, opponent: str) -> None:
        self.opponent = opponent
        self.state = [UNKNOWN] * CELLS
        self.kind: list[str | None] = [None] * CELLS
        self.hit = [False] * CELLS
        self.sunk = [False] * CELLS
        self.bombed = [False] * CELLS
        self.sea = [False] * CELLS  # known to be sea (R2): seen so, or a ship hit there
        self.bomb_kinds: list[set[str] | None] = [None] * CELLS
        self.planes: dict[int, str] = {}
        self.guns: dict[int, bool] = {}  # square -> spent
        self.shootdowns: list[int] = []
        self.flights = 0
        self.bombs: list[Bomb] = []
        # worked out by _analyse from the reports read below
        self.comp_of: list[int] = []  # the located ship (group) on each square, or -1
        self.near: list[int] = []  # the located ship touching each square; -2 for several
        self.land_p: list[float] = []  # the chance each unseen square is land
        self.blocked: list[bool] = []  # squares no unlocated ship can lie on
        self.hidden: dict[str, float] = {}  # ships of each type expected still unseen
        self._flak: tuple[set[int], list[float | None]] | None = None  # for risk(), once
        for report in view.get("reports", []):
            if report.get("target") == opponent and report.get("weapon"):
                self._read(report)
        self.ships: list[KnownShip] = []
        self.p = [0.0] * CELLS
        self.weights: dict[str, float] = {}
        self.consistent: dict[str, list[int]] = {}
        self._analyse()

    # -- reading reports --------------------------------------------------------------------

    def _read(self, report: dict) -> None:
        weapon = report["weapon"]
        at = [index(s) for s in report["at"]]
        if weapon in ("bomber", "recon"):
            self.flights += 1
        if report.get("shot_down"):
            self._shot_down(at[0])
        elif weapon == "recon":
            for entry in report.get("seen") or []:
                self._saw(entry)
        elif weapon == "salvo":
            for shot in report.get("shots") or []:
                self._shot(shot)
        else:
            self._bombed(at[0], RADIUS[weapon], report.get("hits") or [])

    def _shot_down(self, target: int) -> None:
        self.shootdowns.append(target)
        near = [g for g, spent in self.guns.items() if not spent and distance(g, target) <= 1]
        if near:  # R18: the nearest gun fires
            self.guns[min(near, key=lambda g: (distance(g, target), g))] = True

    def _saw(self, entry: dict) -> None:
        s = index(entry["square"])
        self.planes.pop(s, None)
        self.guns.pop(s, None)
        piece = entry.get("piece")
        self.sea[s] = entry.get("terrain") != "land"
        if piece in SHIP_TYPES:
            self.state[s], self.kind[s], self.hit[s] = SHIP, piece, bool(entry.get("hit"))
            if entry.get("aircraft"):
                self.planes[s] = entry["aircraft"]
            return
        self.state[s] = LAND if entry.get("terrain") == "land" else EMPTY
        if piece in AIRCRAFT_TYPES:
            self.planes[s] = piece
        elif piece == "aa-gun":
            self.guns[s] = bool(entry.get("spent"))

    def _shot(self, shot: dict) -> None:
        s = index(shot["at"])
        result = shot.get("result")
        self.planes.pop(s, None)
        if result in SHIP_TYPES:
            self.state[s], self.kind[s], self.hit[s] = SHIP, result, True
            self.sea[s] = True
            self.sunk[s] = self.sunk[s] or bool(shot.get("sunk"))
            return
        self.guns.pop(s, None)
        if result is None:
            if self.state[s] == UNKNOWN:
                self.state[s] = EMPTY
        else:  # an aircraft or A-A gun stood there, so it is land (R9)
            self.state[s] = LAND

    def _bombed(self, centre: int, radius: int, hits: list[dict]) -> None:
        area = AREA[radius][centre]
        entries = [(h["ship"], h["new_hits"], bool(h["sunk"])) for h in hits]
        kinds = {kind for kind, _, _ in entries}
        for s in area:
            self.planes.pop(s, None)
            if s in self.guns:
                del self.guns[s]
            if self.state[s] == SHIP:
                self.hit[s] = True
            elif self.state[s] == UNKNOWN:
                self.bombed[s] = True
                self.bomb_kinds[s] = (self.bomb_kinds[s] or set()) | kinds
        self.bombs.append(Bomb(area, entries))

    # -- working out the odds ------------------------------------------------------------------

    def _analyse(self) -> None:
        state = self.state
        comp_of = [-1] * CELLS
        groups: list[list[int]] = []
        for s in range(CELLS):
            if state[s] == SHIP and comp_of[s] < 0:
                comp_of[s] = len(groups)
                group, todo = [], [s]
                while todo:
                    x = todo.pop()
                    group.append(x)
                    for y in NEIGHBOURS[x]:
                        if state[y] == SHIP and comp_of[y] < 0:
                            comp_of[y] = comp_of[s]
                            todo.append(y)
                groups.append(sorted(group))
        self.comp_of = comp_of
        # near[i]: the located ship touching or on square i, or -2 if more than one
        near = [-1] * CELLS
        for k, group in enumerate(groups):
            for x in group:
                for y in AREA[1][x]:
                    near[y] = k if near[y] in (-1, k) else -2
        self.near = near
        self.land_p = self._land_odds()
        self.blocked = [state[s] != UNKNOWN or self.bombed[s] or near[s] != -1
                        or self.land_p[s] > ODDS.land_certain for s in range(CELLS)]
        located = [self._located(k, group) for k, group in enumerate(groups)]
        ghosts = self._match_bombs(located)
        for k, ship in enumerate(located):
            self._options(ship, k)
        self.ships = [s for s in located + ghosts if s.options or s.sunk]
        self._density()

    def _land_odds(self) -> list[float]:
        """The chance that each unseen square is land: land comes in 3 x 3 units (R6), so
        a land square seen at the edge of an R.P.'s view has more land beside it."""
        odds = [0.0] * CELLS
        sea = self.sea
        for x in range(CELLS):
            if self.state[x] != LAND:
                continue
            c, r = x % SIZE, x // SIZE
            units = []
            for top in range(max(0, r - 2), min(r, SIZE - 3) + 1):
                for left in range(max(0, c - 2), min(c, SIZE - 3) + 1):
                    squares = [(top + dr) * SIZE + left + dc for dr in range(3)
                               for dc in range(3)]
                    if not any(sea[y] for y in squares):
                        units.append(squares)
            if not units:
                continue
            share = 1.0 / len(units)
            tally: dict[int, float] = {}
            for squares in units:
                for y in squares:
                    tally[y] = tally.get(y, 0.0) + share
            for y, p in tally.items():
                if self.state[y] == UNKNOWN and p > odds[y]:
                    odds[y] = p
        return odds

    def _fits(self, squares: tuple[int, ...], k: int, kind: str) -> bool:
        """Whether located ship ``k`` of this type can take these squares (R7, R8)."""
        for s in squares:
            if self.comp_of[s] == k:
                continue
            if self.state[s] != UNKNOWN or self.near[s] not in (-1, k):
                return False
            if self.bombed[s] and kind not in (self.bomb_kinds[s] or ()):
                return False
        return True

    def _located(self, k: int, group: list[int]) -> KnownShip:
        kinds = [k for k in (self.kind[s] for s in group) if k is not None]
        kind = max(set(kinds), key=kinds.count)
        ship = KnownShip(kind, tuple(group), sunk=any(self.sunk[s] for s in group))
        if len(group) == SHIP_LENGTH[kind] and all(self.hit[s] for s in group):
            ship.sunk = True
        return ship

    def _candidates(self, ship: KnownShip, k: int) -> list[tuple[int, ...]]:
        placements = PLACEMENTS[ship.kind]
        found = []
        for n in PLACEMENTS_AT[ship.kind][ship.squares[0]]:
            squares = placements[n]
            if all(s in squares for s in ship.squares) and self._fits(squares, k, ship.kind):
                found.append(squares)
        return found

    def _match_bombs(self, located: list[KnownShip]) -> list[KnownShip]:
        """Give each hit a bomber reported to a located ship it may be, or to a new ship."""
        ghosts = []
        for bomb in self.bombs:
            area = frozenset(bomb.area)
            used: set[int] = set()
            for kind, new_hits, sunk in bomb.entries:
                match = None
                for k, ship in enumerate(located):
                    if ship.kind != kind or k in used:
                        continue
                    reach = {y for x in ship.squares for y in AREA[REACH[kind]][x]}
                    if reach & area:
                        match = k
                        break
                if match is not None:
                    used.add(match)
                    located[match].areas.append(area)
                    located[match].sunk = located[match].sunk or sunk
                    continue
                ghost = KnownShip(kind, (), sunk=sunk, areas=[area])
                if not sunk:
                    self._ghost_options(ghost, area, new_hits)
                ghosts.append(ghost)
        return ghosts

    def _unhit(self, squares: tuple[int, ...], kind: str) -> tuple[int, ...]:
        return tuple(s for s in squares if not (self.state[s] == SHIP and self.hit[s])
                     and not (self.bombed[s] and kind in (self.bomb_kinds[s] or ())))

    def _options(self, ship: KnownShip, comp_index: int) -> None:
        if ship.sunk:
            return
        candidates = self._candidates(ship, comp_index)
        for area in ship.areas:
            inside = [c for c in candidates if area.intersection(c)]
            candidates = inside or candidates
        options = [self._unhit(c, ship.kind) for c in candidates]
        if candidates and not any(options):
            ship.sunk = True
            return
        if not candidates:  # what is known does not fit any placement: aim at what is seen
            options = [tuple(s for s in ship.squares if not self.hit[s])]
        ship.options = [o for o in options if o]

    def _ghost_options(self, ghost: KnownShip, area: frozenset[int], new_hits: int) -> None:
        kind = ghost.kind
        placements = PLACEMENTS[kind]
        seen: set[int] = set()
        for s in area:
            seen.update(PLACEMENTS_AT[kind][s])
        options = []
        for n in sorted(seen):
            squares = placements[n]
            inside = 0
            ok = True
            for s in squares:
                if s in area:
                    inside += 1
                    if self.state[s] != UNKNOWN:
                        ok = False
                        break
                elif self.blocked[s]:
                    ok = False
                    break
            if ok and inside == new_hits:
                outside = tuple(s for s in squares if s not in area)
                if outside:
                    options.append(outside)
        ghost.options = options

    def _density(self) -> None:
        p = [0.0] * CELLS
        for ship in self.ships:
            if ship.sunk or not ship.options:
                continue
            share = 1.0 / len(ship.options)
            for option in ship.options:
                for s in option:
                    p[s] += share
        explored = sum(1 for s in range(CELLS) if self.state[s] != UNKNOWN or self.bombed[s])
        f = explored / CELLS
        observed = {kind: 0 for kind in SHIP_TYPES}
        for ship in self.ships:
            observed[ship.kind] += 1
        weight = ODDS.prior_weight
        hidden = {kind: (observed[kind] + weight * PRIOR[kind]) / (f + weight)
                  * (1 - f) for kind in SHIP_TYPES}
        known_points = sum(ship.length for ship in self.ships)
        hidden_points = sum(hidden[k] * SHIP_LENGTH[k] for k in SHIP_TYPES)
        if hidden_points > 0:
            scale = 1.0
            if known_points + hidden_points < MIN_SHIP_POINTS:
                scale = (MIN_SHIP_POINTS - known_points) / hidden_points
            elif known_points + hidden_points > MAX_SHIP_POINTS:
                scale = max(0.0, MAX_SHIP_POINTS - known_points) / hidden_points
            hidden = {k: v * scale for k, v in hidden.items()}
        self.hidden = hidden
        closed = [s for s in range(CELLS) if self.blocked[s]]
        counts = [0.0] * CELLS
        for kind in SHIP_TYPES:
            at = PLACEMENTS_AT[kind]
            ruled_out = {n for s in closed for n in at[s]}  # placements on a blocked square
            fits = [n for n in range(len(PLACEMENTS[kind])) if n not in ruled_out]
            self.consistent[kind] = fits
            weight = hidden[kind] / len(fits) if fits else 0.0
            self.weights[kind] = weight
            if not weight:
                continue
            placements = PLACEMENTS[kind]
            for n in fits:
                for s in placements[n]:
                    counts[s] += weight
        for s in range(CELLS):
            if self.state[s] == SHIP:
                p[s] = 0.0 if self.hit[s] else 1.0
            else:
                p[s] = min(ODDS.most_likely, p[s] + counts[s]) * (1.0 - self.land_p[s])
        self.p = p

    # -- what each weapon may find --------------------------------------------------------------

    def risk(self, centre: int) -> float:
        """The chance that a bomber or R.P. sent to ``centre`` is shot down (R18)."""
        if self._flak is None:
            self._flak = self._flak_odds()
        covered, unharmed = self._flak
        if centre in covered:
            return 1.0
        safe = 1.0
        for s in AREA[1][centre]:
            odds = unharmed[s]
            if odds is not None:
                safe *= odds
        return 1.0 - safe

    def _flak_odds(self) -> tuple[set[int], list[float | None]]:
        """The centres an unspent gun seen covers, and for every square the chance that no
        gun stands there (None where that is known); worked out once, for ``risk``."""
        covered = {c for g, spent in self.guns.items() if not spent for c in AREA[1][g]}
        base = ODDS.flak_base + ODDS.flak_learned * len(self.shootdowns) / (
            self.flights + ODDS.flak_flights)
        unharmed: list[float | None] = [None] * CELLS
        for s in range(CELLS):
            if self.state[s] != UNKNOWN or self.bombed[s]:
                continue
            g = base
            for t in self.shootdowns:
                d = distance(s, t)
                if d <= 1:
                    g += ODDS.flak_beside
                elif d == 2:
                    g += ODDS.flak_two_away
            unharmed[s] = 1.0 - min(g, ODDS.flak_most)
        return covered, unharmed

    def recon_values(self) -> list[float]:
        """For every centre, what an R.P. there is expected to find, before the risk."""
        unknown = [(self.p[s] + ODDS.unseen_bonus)
                   if self.state[s] == UNKNOWN and not self.bombed[s]
                   else (ODDS.bombed_unseen if self.state[s] == UNKNOWN else 0.0)
                   for s in range(CELLS)]
        return [sum(unknown[s] for s in AREA[1][c]) for c in range(CELLS)]

    def bomb_values(self, radius: int) -> list[float]:
        """For every centre, the ship points a bomb of this radius is expected to sink, plus
        the enemy aircraft it would catch on the ground, plus a little for hits that do not
        sink (they help later)."""
        value = [0.0] * CELLS
        for kind in SHIP_TYPES:
            weight = self.weights.get(kind, 0.0) * SHIP_LENGTH[kind]
            if not weight:
                continue
            windows = WINDOWS[radius][kind]
            for n in self.consistent[kind]:
                for c in windows[n]:
                    value[c] += weight
        for ship in self.ships:
            if ship.sunk or not ship.options:
                continue
            share = ship.length / len(ship.options)
            for option in ship.options:
                for c in covering_centres(option, radius):
                    value[c] += share
        p = self.p
        for c in range(CELLS):
            value[c] += ODDS.near_miss * sum(p[s] for s in AREA[radius][c])
        for s, kind in self.planes.items():
            for c in AREA[radius][s]:
                value[c] += PLANE_VALUE[kind]
        return value

    def shot_values(self, planes_to_fly: int) -> list[float]:
        """What a salvo shot on each square is worth: a hit, or an aircraft or gun destroyed."""
        value = list(self.p)
        for s, kind in self.planes.items():
            value[s] += PLANE_VALUE[kind]
        if planes_to_fly:
            for s, spent in self.guns.items():
                if not spent:
                    value[s] += ODDS.gun_worth
        return value
