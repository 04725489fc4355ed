"""A player's fleet: the budget (R3-R5), the disposition document and its placement (R6-R9).

``check_disposition(document)`` reads a disposition document of API.md and either returns the
``Fleet`` it describes, with its cost and warnings, or raises ``RuleViolation`` listing every
problem at once. A ``Fleet`` is also the live state of one player's chart during play: what
has been hit, flown, destroyed and spent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..common.documents import Json
from .catalogue import (  # re-exported: the catalogue is where they are written
    AIRCRAFT_TYPES,
    BUDGET,
    DIRECTIONS,
    LINE_LENGTH,  # noqa: F401  (re-exported)
    MAX_ATOM_BOMBERS,
    MIN_FORCES,
    MIN_SHIPS,
    NAMES,
    PLURALS,  # noqa: F401  (re-exported)
    PRICES,
    SHIP_LENGTH,
    SHIP_TYPES,
    TURNS,
    WEAPONS,  # noqa: F401  (re-exported)
    on_chart,
    ship_squares,
)
from .documents import Damage, Disposition, ShipEntry
from .phrasing import with_article
from .problems import Problem, RuleViolation, problem
from .squares import (
    SIZE,
    NotationError,
    Square,
    neighbours,
    parse_square,
    reading_order,
    span_name,
    square_name,
)

MAX_ITEMS = SIZE * SIZE  # no list in a disposition can sensibly be longer than the chart

DOCUMENT_KEYS = ("land", "ships", "aircraft", "guns", "salvoes")


def a_or_an(name: str) -> str:
    """A piece's name with its article: "a Bomber", "an R.P.", "an A-A gun".

    >>> a_or_an("Atom Bomber"), a_or_an("R.P."), a_or_an("Cruiser")
    ('an Atom Bomber', 'an R.P.', 'a Cruiser')
    """
    return with_article(name)


@dataclass
class Ship:
    type: str
    squares: tuple[Square, ...]
    hits: set[Square] = field(default_factory=set)

    @property
    def sunk(self) -> bool:
        return len(self.hits) == len(self.squares)

    @property
    def name(self) -> str:
        return f"{NAMES[self.type]} at {span_name(self.squares)}"


@dataclass
class Aircraft:
    type: str
    square: Square
    flown: bool = False
    destroyed: bool = False

    @property
    def can_fly(self) -> bool:  # R13
        return not self.flown and not self.destroyed


@dataclass
class Gun:
    square: Square
    spent: bool = False
    destroyed: bool = False

    @property
    def can_fire(self) -> bool:  # R18
        return not self.spent and not self.destroyed


@dataclass(frozen=True)
class Cost:
    ships: int
    forces: int

    @property
    def total(self) -> int:
        return self.ships + self.forces

    @property
    def unspent(self) -> int:
        return max(0, BUDGET - self.total)

    def to_json(self) -> Json:
        return {"ships": self.ships, "forces": self.forces, "total": self.total,
                "unspent": self.unspent}


@dataclass
class Fleet:
    """One player's chart: land, ships, aircraft, guns and salvoes, and what befell them."""

    document: Disposition
    land: frozenset[Square]
    ships: list[Ship]
    aircraft: list[Aircraft]
    guns: list[Gun]
    salvoes: int
    salvoes_fired: int = 0
    ship_at: dict[Square, int] = field(default_factory=dict)
    aircraft_at: dict[Square, int] = field(default_factory=dict)
    gun_at: dict[Square, int] = field(default_factory=dict)
    # how many times what ``damage`` lists has changed (a hit, an aircraft flown or
    # destroyed, a gun spent or destroyed: ``damage_changed``): with ``salvoes_fired``, what tells a
    # view its damage and forces written before still hold (``views.view_parts``)
    revision: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        self.ship_at = {sq: i for i, ship in enumerate(self.ships) for sq in ship.squares}
        self.aircraft_at = {a.square: i for i, a in enumerate(self.aircraft)}
        self.gun_at = {g.square: i for i, g in enumerate(self.guns)}

    @property
    def salvoes_left(self) -> int:
        return self.salvoes - self.salvoes_fired

    def forces(self) -> dict[str, int]:
        """What can still attack: aircraft neither flown nor destroyed, salvoes unfired (R14)."""
        counts = dict.fromkeys(AIRCRAFT_TYPES, 0)
        for plane in self.aircraft:
            if plane.can_fly:
                counts[plane.type] += 1
        counts["salvo"] = self.salvoes_left
        return counts

    def has_offensive_forces(self) -> bool:
        return self.salvoes_left > 0 or any(plane.can_fly for plane in self.aircraft)

    def score(self) -> int:
        """The length of every ship not sunk, damaged or not (R22)."""
        return sum(SHIP_LENGTH[ship.type] for ship in self.ships if not ship.sunk)

    def damage_changed(self) -> None:
        """What ``damage`` lists has just changed: called where the rules change it."""
        self.revision += 1

    def damage(self) -> Damage:
        """What has befallen this chart, as the view document of API.md lists it."""
        def names(squares: Iterable[Square]) -> list[str]:
            return [square_name(s) for s in reading_order(squares)]
        return {
            "hit": names(sq for ship in self.ships for sq in ship.hits),
            "destroyed": names([a.square for a in self.aircraft if a.destroyed]
                               + [g.square for g in self.guns if g.destroyed]),
            "flown": names(a.square for a in self.aircraft if a.flown),
            "spent": names(g.square for g in self.guns if g.spent and not g.destroyed),
        }

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that can change during play, for comparing two fleets."""
        return (
            tuple(frozenset(ship.hits) for ship in self.ships),
            tuple((a.flown, a.destroyed) for a in self.aircraft),
            tuple((g.spent, g.destroyed) for g in self.guns),
            self.salvoes_fired,
        )


def cost_of(ship_types: Iterable[str], force_types: Iterable[str], salvoes: int) -> Cost:
    """The price of what is bought (R3); land costs nothing."""
    return Cost(ships=sum(PRICES[t] for t in ship_types),
                forces=sum(PRICES[t] for t in force_types) + salvoes)


def budget_problems(cost: Cost, atom_bombers: int) -> list[Problem]:
    """Every way a purchase breaks R4."""
    found = []
    if cost.ships < MIN_SHIPS:
        found.append(problem("R4", f"Ships cost {cost.ships} points; at least {MIN_SHIPS} "
                                   "are needed"))
    if cost.forces < MIN_FORCES:
        found.append(problem("R4", f"Aircraft, A-A guns and salvoes cost {cost.forces} points; "
                                   f"at least {MIN_FORCES} are needed"))
    if cost.total > BUDGET:
        found.append(problem("R4", f"The fleet costs {cost.total} points; at most {BUDGET} "
                                   "may be spent"))
    if atom_bombers > MAX_ATOM_BOMBERS:
        found.append(problem("R4", f"{atom_bombers} Atom Bombers are bought; no player may "
                                   f"buy more than {MAX_ATOM_BOMBERS}"))
    return found


def budget_warnings(cost: Cost) -> list[Problem]:
    """R4: points left unspent are lost; the referee warns but accepts."""
    if cost.unspent:
        return [problem("R4", f"{cost.unspent} points are unspent and will be lost")]
    return []


@dataclass
class _Reader:
    """Reads the fields of a disposition document, collecting every problem on the way."""

    problems: list[Problem] = field(default_factory=list)

    def square(self, text: object, where: str, rule: str = "R1") -> Square | None:
        try:
            return parse_square(text)
        except NotationError as err:
            self.problems.append(problem(rule, f"{where}: {err.text!r} is not a square: "
                                               f"{err.reason}", field=where))
            return None

    def items(self, doc: Json, key: str, rule: str) -> list[Any]:
        value = doc.get(key, [])
        if not isinstance(value, list):
            self.problems.append(problem(rule, f"'{key}' must be a list", field=key))
            return []
        if len(value) > MAX_ITEMS:
            self.problems.append(problem(rule, f"'{key}' lists {len(value)} entries; the chart "
                                               f"has only {MAX_ITEMS} squares", field=key))
            return []
        return value

    def piece(self, item: object, where: str, types: tuple[str, ...], rule: str) -> str | None:
        if not isinstance(item, dict):
            self.problems.append(problem(rule, f"{where} must be an object with 'type' and "
                                               "'at'", field=where))
            return None
        kind = item.get("type")
        if not isinstance(kind, str) or kind not in types:
            self.problems.append(problem("R3", f"{where}: {kind!r} is not one of "
                                               f"{', '.join(types)}", field=f"{where}.type"))
            return None
        return kind


def _read_land(reader: _Reader, doc: Json) -> tuple[list[Square], list[Problem]]:
    units: list[Square] = []
    found: list[Problem] = []
    owner: dict[Square, int] = {}
    for i, text in enumerate(reader.items(doc, "land", "R6")):
        top_left = reader.square(text, f"land[{i}]")
        if top_left is None:
            continue
        if top_left.col + 3 > SIZE or top_left.row + 3 > SIZE:
            found.append(problem("R6", f"The land unit at {square_name(top_left)} runs off the "
                                       "chart; a unit is 3 x 3 squares wholly inside it",
                                 [top_left], f"land[{i}]"))
            continue
        squares = [Square(top_left.col + c, top_left.row + r) for r in range(3) for c in range(3)]
        clashes = {owner[sq] for sq in squares if sq in owner}
        for other in sorted(clashes):
            shared = [sq for sq in squares if owner.get(sq) == other]
            found.append(problem("R6", f"The land unit at {square_name(top_left)} overlaps the "
                                       f"land unit at {square_name(units[other])}",
                                 shared, f"land[{i}]"))
        if clashes:
            continue
        owner.update(dict.fromkeys(squares, len(units)))
        units.append(top_left)
    return units, found


def _read_ships(reader: _Reader, doc: Json, land: frozenset[Square]
                ) -> tuple[list[str], list[Ship], list[Problem]]:
    bought, ships, found = [], [], []
    for i, item in enumerate(reader.items(doc, "ships", "R7")):
        where = f"ships[{i}]"
        kind = reader.piece(item, where, SHIP_TYPES, "R7")
        if kind is None:
            continue
        bought.append(kind)
        at = reader.square(item.get("at"), f"{where}.at")
        direction = item.get("dir", None if kind in TURNS else "across")
        if kind in TURNS and direction not in DIRECTIONS:
            found.append(problem("R7", f"{where}: a {NAMES[kind]} lies 'across' or 'down', "
                                       f"not {direction!r}", field=f"{where}.dir"))
            continue
        if at is None:
            continue
        squares = tuple(ship_squares(kind, at, direction))
        if not on_chart(squares):
            found.append(problem("R7", f"The {NAMES[kind]} at {square_name(at)} runs off the "
                                       "chart", [at], where))
            continue
        on_land = [sq for sq in squares if sq in land]
        if on_land:
            found.append(problem("R7", f"The {NAMES[kind]} at {span_name(squares)} lies on "
                                       "land; ships lie on sea squares", on_land, where))
            continue
        ships.append(Ship(kind, squares))
    return bought, ships, found


def _touching_problems(ships: list[Ship]) -> list[Problem]:
    """R8: no square of a ship touches a square of another, along a side or at a corner."""
    owner = {sq: i for i, ship in enumerate(ships) for sq in ship.squares}
    found: list[Problem] = []
    overlaps: dict[tuple[int, int], set[Square]] = {}
    for i, ship in enumerate(ships):
        for sq in ship.squares:
            if owner[sq] != i:
                overlaps.setdefault((i, owner[sq]), set()).add(sq)
    pairs: dict[tuple[int, int], tuple[set[Square], bool]] = {}
    for i, ship in enumerate(ships):
        for sq in ship.squares:
            for near in neighbours(sq):
                j = owner.get(near)
                if j is None or j <= i or (i, j) in overlaps:
                    continue
                squares, side = pairs.setdefault((i, j), (set(), False))
                squares.update((sq, near))
                if near.col == sq.col or near.row == sq.row:
                    pairs[(i, j)] = (squares, True)
    for (i, j), squares in sorted(overlaps.items()):
        found.append(problem("R8", f"The {ships[j].name} overlaps the {ships[i].name}", squares))
    for (i, j), (squares, side) in sorted(pairs.items()):
        how = "along a side" if side else "at a corner"
        found.append(problem("R8", f"The {ships[j].name} touches the {ships[i].name} {how}",
                             squares))
    return found


def _read_stands(reader: _Reader, doc: Json, land: frozenset[Square], ships: list[Ship]
                 ) -> tuple[list[str], list[Aircraft], list[Gun], list[Problem]]:
    """R9: where aircraft and A-A guns stand, one to a square."""
    carrier_squares = {sq for s in ships if s.type == "carrier" for sq in s.squares}
    bought, aircraft, guns, found = [], [], [], []
    taken: dict[Square, str] = {}

    def stand(kind: str, at: Square, where: str) -> bool:
        if kind in ("atom-bomber", "aa-gun") and at not in land:
            found.append(problem("R9", f"The {NAMES[kind]} at {square_name(at)} must stand on "
                                       "land", [at], where))
            return False
        if at not in land and at not in carrier_squares:
            found.append(problem("R9", f"The {NAMES[kind]} at {square_name(at)} must stand on "
                                       "land or on an Aircraft Carrier", [at], where))
            return False
        if at in taken:
            found.append(problem("R9", f"The {NAMES[kind]} at {square_name(at)} shares its "
                                       f"square with {taken[at]}; each has a square to itself",
                                 [at], where))
            return False
        taken[at] = f"the {NAMES[kind]} listed before it"
        return True

    for i, item in enumerate(reader.items(doc, "aircraft", "R9")):
        where = f"aircraft[{i}]"
        kind = reader.piece(item, where, AIRCRAFT_TYPES, "R9")
        if kind is None:
            continue
        bought.append(kind)
        at = reader.square(item.get("at"), f"{where}.at")
        if at is not None and stand(kind, at, where):
            aircraft.append(Aircraft(kind, at))
    for i, text in enumerate(reader.items(doc, "guns", "R9")):
        bought.append("aa-gun")
        at = reader.square(text, f"guns[{i}]")
        if at is not None and stand("aa-gun", at, f"guns[{i}]"):
            guns.append(Gun(at))
    return bought, aircraft, guns, found


def _read_salvoes(reader: _Reader, doc: Json) -> int:
    salvoes = doc.get("salvoes", 0)
    if isinstance(salvoes, bool) or not isinstance(salvoes, int) or not 0 <= salvoes <= BUDGET:
        reader.problems.append(problem("R5", f"'salvoes' is how many salvoes are bought, a "
                                             f"whole number from 0 to {BUDGET}, not {salvoes!r}",
                                       field="salvoes"))
        return 0
    return salvoes


def _normal_document(units: list[Square], ships: list[Ship], aircraft: list[Aircraft],
                     guns: list[Gun], salvoes: int) -> Disposition:
    def ship_doc(ship: Ship) -> ShipEntry:
        doc: ShipEntry = {"type": ship.type, "at": square_name(ship.squares[0])}
        if ship.type in TURNS:
            doc["dir"] = "across" if ship.squares[1].row == ship.squares[0].row else "down"
        return doc
    return {
        "land": [square_name(u) for u in units],
        "ships": [ship_doc(s) for s in ships],
        "aircraft": [{"type": a.type, "at": square_name(a.square)} for a in aircraft],
        "guns": [square_name(g.square) for g in guns],
        "salvoes": salvoes,
    }


class CheckedDisposition(NamedTuple):
    """What ``check_disposition`` gives for an acceptable disposition: the fleet, its cost
    (R3) and the warnings it draws (R4's unspent points)."""
    fleet: Fleet
    cost: Cost
    warnings: list[Problem]


def check_disposition(document: object) -> CheckedDisposition:
    """Read and check a disposition (R3-R9): the fleet, its cost and warnings, or every problem.

    >>> checked = check_disposition({
    ...     "land": ["A 1"], "ships": [{"type": "battleship", "at": "E 5", "dir": "down"}],
    ...     "aircraft": [{"type": "bomber", "at": "A 1"}], "guns": ["B 2"], "salvoes": 1})
    Traceback (most recent call last):
    ...
    referee.common.problems.RuleViolation: R4: Ships cost 4 points; at least 60 are needed; \
R4: Aircraft, A-A guns and salvoes cost 5 points; at least 60 are needed
    """
    if not isinstance(document, dict):
        raise RuleViolation([problem("R5", "A disposition is an object listing land, ships, "
                                           "aircraft, guns and salvoes")])
    reader = _Reader()
    for key in document:
        if key not in DOCUMENT_KEYS:
            reader.problems.append(problem("R5", f"{key!r} is not part of a disposition; it "
                                                 f"lists {', '.join(DOCUMENT_KEYS)}", field=key))
    units, land_problems = _read_land(reader, document)
    land = frozenset(Square(u.col + c, u.row + r) for u in units for r in range(3)
                     for c in range(3))
    ship_types, ships, ship_problems = _read_ships(reader, document, land)
    force_types, aircraft, guns, stand_problems = _read_stands(reader, document, land, ships)
    salvoes = _read_salvoes(reader, document)
    cost = cost_of(ship_types, force_types, salvoes)
    found = (reader.problems + land_problems + ship_problems + _touching_problems(ships)
             + stand_problems + budget_problems(cost, force_types.count("atom-bomber")))
    if found:
        raise RuleViolation(found)
    fleet = Fleet(_normal_document(units, ships, aircraft, guns, salvoes), land, ships,
                  aircraft, guns, salvoes)
    return CheckedDisposition(fleet, cost, budget_warnings(cost))
