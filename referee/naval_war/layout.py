"""Building legal dispositions from a purchase: a tidy packer and a random placer.

A purchase counts what is bought, by the type names of API.md plus ``aa-gun`` and
``salvo``: ``{"battleship": 15, "bomber": 10, "aa-gun": 6, "salvo": 8, ...}``. The tests,
the benches and the computer opponent use these to lay out fleets that R6-R9 accept.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..common.documents import Json
from .catalogue import (
    AIRCRAFT_TYPES,
    BUDGET,
    LAND_ONLY,
    MAX_ATOM_BOMBERS,
    MIN_FORCES,
    MIN_SHIPS,
    PRICES,
    SHAPES,
    SHIP_LENGTH,
    SHIP_TYPES,
    TURNS,
    ship_squares,
)
from .squares import SIZE, NotationError, Square, neighbours, parse_square, square_name

Purchase = dict[str, int]
_LAND_PIECES = LAND_ONLY


class LayoutError(ValueError):
    """The purchase does not fit on the chart by this method."""


def _ship_cells(kind: str, col: int, row: int, across: bool) -> list[Square]:
    return ship_squares(kind, Square(col, row), "across" if across else "down")


def _ship_doc(kind: str, at: Square, across: bool) -> Json:
    doc = {"type": kind, "at": square_name(at)}
    if kind in TURNS:
        doc["dir"] = "across" if across else "down"
    return doc


def _land_needed(purchase: Purchase) -> int:
    """Land squares needed: atom bombers and guns always; bombers and R.P.s beyond the
    carriers' squares (R9)."""
    carried = min(SHIP_LENGTH["carrier"] * purchase.get("carrier", 0),
                  purchase.get("bomber", 0) + purchase.get("recon", 0))
    planes = purchase.get("bomber", 0) + purchase.get("recon", 0) - carried
    return sum(purchase.get(k, 0) for k in _LAND_PIECES) + planes


def _stand_pieces(purchase: Purchase, land: list[Square], carrier_squares: list[Square],
                  rng: random.Random | None) -> tuple[list[Json], list[str]]:
    """Put aircraft and guns on land and carriers (R9), one to a square."""
    land, carrier_squares = list(land), list(carrier_squares)
    if rng:
        rng.shuffle(land)
        rng.shuffle(carrier_squares)
    aircraft, guns = [], []
    for kind in ("bomber", "recon"):
        for _ in range(purchase.get(kind, 0)):
            spot = carrier_squares.pop() if carrier_squares else land.pop()
            aircraft.append({"type": kind, "at": square_name(spot)})
    for _ in range(purchase.get("atom-bomber", 0)):
        aircraft.append({"type": "atom-bomber", "at": square_name(land.pop())})
    guns = [square_name(land.pop()) for _ in range(purchase.get("aa-gun", 0))]
    return aircraft, guns


def pack(purchase: Purchase) -> Json:
    """A tidy disposition: land units along the foot of the chart, ships in lanes above.

    >>> from .fleet import check_disposition
    >>> doc = pack({"battleship": 15, "cruiser": 10, "submarine": 10, "recon": 16,
    ...             "bomber": 10, "aa-gun": 6, "salvo": 8})
    >>> check_disposition(doc).cost.total
    160
    """
    units = -(-_land_needed(purchase) // 9)
    if units > 49:
        raise LayoutError("more land is needed than the chart holds")
    land_units = [Square(3 * (i % 7), SIZE - 3 - 3 * (i // 7)) for i in range(units)]
    land_top = SIZE - 3 * (-(-units // 7)) if units else SIZE
    land = [Square(u.col + c, u.row + r) for u in land_units for r in range(3) for c in range(3)]
    ships, carrier_squares = [], []
    row, col, lane_height = 0, 0, 1
    for kind in SHIP_TYPES:
        for _ in range(purchase.get(kind, 0)):
            width = 1 + max(dc for dc, _ in SHAPES[kind])
            height = 1 + max(dr for _, dr in SHAPES[kind])
            if col + width > SIZE:
                row, col, lane_height = row + lane_height + 1, 0, 1
            if row + height > land_top:
                raise LayoutError("the ships do not fit in lanes above the land")
            cells = _ship_cells(kind, col, row, True)
            ships.append(_ship_doc(kind, cells[0], True))
            if kind == "carrier":
                carrier_squares.extend(cells)
            col += width + 1
            lane_height = max(lane_height, height)
    aircraft, guns = _stand_pieces(purchase, land, carrier_squares, None)
    return {"land": [square_name(u) for u in land_units], "ships": ships,
            "aircraft": aircraft, "guns": guns, "salvoes": purchase.get("salvo", 0)}


def scatter(purchase: Purchase, rng: random.Random, tries: int = 40) -> Json:
    """A random disposition that realises the purchase; falls back to ``pack``."""
    for _ in range(tries):
        try:
            return _scatter_once(purchase, rng)
        except LayoutError:
            continue
    return pack(purchase)


def _scatter_once(purchase: Purchase, rng: random.Random) -> Json:
    units: list[Square] = []
    land: set[Square] = set()
    needed = -(-_land_needed(purchase) // 9)
    for _ in range(needed):
        for _attempt in range(200):
            at = Square(rng.randrange(SIZE - 2), rng.randrange(SIZE - 2))
            block = {Square(at.col + c, at.row + r) for r in range(3) for c in range(3)}
            if not block & land:
                units.append(at)
                land |= block
                break
        else:
            raise LayoutError("no room for land")
    taken: set[Square] = set()  # ship squares and their neighbours
    ships, carrier_squares = [], []
    for kind in SHIP_TYPES:
        for _ in range(purchase.get(kind, 0)):
            for _attempt in range(400):
                across = rng.random() < 0.5
                cells = _ship_cells(kind, rng.randrange(SIZE), rng.randrange(SIZE), across)
                if all(0 <= c.col < SIZE and 0 <= c.row < SIZE and c not in land
                       and c not in taken for c in cells):
                    break
            else:
                raise LayoutError("no room for a ship")
            ships.append(_ship_doc(kind, cells[0], across))
            taken.update(cells)
            taken.update(n for c in cells for n in neighbours(c))
            if kind == "carrier":
                carrier_squares.extend(cells)
    aircraft, guns = _stand_pieces(purchase, sorted(land), carrier_squares, rng)
    return {"land": [square_name(u) for u in units], "ships": ships, "aircraft": aircraft,
            "guns": guns, "salvoes": purchase.get("salvo", 0)}


def _spend(rng: random.Random, budget: int, kinds: tuple[str, ...], limits: Counter[Any]
           ) -> Counter[Any]:
    bought: Counter[Any] = Counter()
    while True:
        affordable = [k for k in kinds if PRICES[k] <= budget
                      and bought[k] < limits.get(k, BUDGET)]
        if not affordable:
            return bought
        kind = rng.choice(affordable)
        bought[kind] += 1
        budget -= PRICES[kind]


def random_purchase(rng: random.Random) -> Purchase:
    """A purchase that R4 accepts, spending between 120 and 160 points."""
    ships_budget = rng.randint(MIN_SHIPS, 80)
    forces_budget = rng.randint(MIN_FORCES, BUDGET - ships_budget)
    ships = _spend(rng, ships_budget, SHIP_TYPES, Counter())
    forces = _spend(rng, forces_budget, (*AIRCRAFT_TYPES, "aa-gun", "salvo"),
                    Counter({"atom-bomber": MAX_ATOM_BOMBERS, "bomber": 12, "recon": 20}))
    return dict(ships + forces)


def complete(document: Json, purchase: Purchase, rng: random.Random) -> Json:
    """The disposition with what is left of the purchase added at random where R6-R9 allow,
    around the pieces already placed, which stay exactly as they are ("Place the rest for
    me"). A piece of the document that cannot be read is kept as it is and ignored here (the
    check names it). Each piece goes to a random one of the places still open to it; if that
    leaves no room, it is tried again packing each ship where it closes the fewest squares to
    the others (still at random among those). Raises ``LayoutError`` when the rest does not fit
    around the pieces placed."""
    for tight in (False, False, True, True):
        try:
            return _complete_once(document, purchase, rng, tight)
        except LayoutError:
            continue
    raise LayoutError("there is no room to place the rest at random around your pieces: "
                      "move some of them and try again")


def _open_places(kind: str, taken: set[Square]) -> list[tuple[list[Square], bool]]:
    """Every place a ship of this kind can lie without touching ``taken`` (land, and ships
    with their neighbours)."""
    places = []
    for row in range(SIZE):
        for col in range(SIZE):
            for across in ((True, False) if kind in TURNS else (True,)):
                cells = _ship_cells(kind, col, row, across)
                if all(c.col < SIZE and c.row < SIZE and c not in taken for c in cells):
                    places.append((cells, across))
    return places


def _ship_place(kind: str, taken: set[Square], rng: random.Random, tight: bool
                ) -> tuple[list[Square], bool]:
    """A random open place for a ship: a few blind tries first (quick on an open chart), then
    a choice among every open place; packed tight, among those closing the fewest squares."""
    if not tight:
        for _attempt in range(60):
            across = kind not in TURNS or rng.random() < 0.5
            cells = _ship_cells(kind, rng.randrange(SIZE), rng.randrange(SIZE), across)
            if all(c.col < SIZE and c.row < SIZE and c not in taken for c in cells):
                return cells, across
    places = _open_places(kind, taken)
    if not places:
        raise LayoutError("no room for a ship")
    if tight:
        def closes(place: tuple[list[Square], bool]) -> int:
            return len({n for c in place[0] for n in (c, *neighbours(c))} - taken)

        scored = [(closes(p), p) for p in places]
        least = min(score for score, _ in scored)
        places = [p for score, p in scored if score == least]
    return rng.choice(places)


def _readable(text: object) -> Square | None:
    try:
        return parse_square(text)
    except NotationError:
        return None


def _complete_once(document: Json, purchase: Purchase, rng: random.Random,
                   tight: bool) -> Json:
    lists = {key: list(document.get(key) or []) if isinstance(document.get(key), list) else []
             for key in ("land", "ships", "aircraft", "guns")}
    land: set[Square] = set()
    for text in lists["land"]:
        at = _readable(text)
        if at:
            land |= {Square(at.col + c, at.row + r) for r in range(3) for c in range(3)}
    placed: Counter[Any] = Counter()
    ship_cells: set[Square] = set()
    carrier_cells: list[Square] = []
    for ship in lists["ships"]:
        kind = ship.get("type") if isinstance(ship, dict) else None
        if not isinstance(kind, str) or kind not in SHIP_TYPES:
            continue
        at = _readable(ship.get("at"))
        if at is None:
            continue
        placed[kind] += 1
        cells = [c for c in _ship_cells(kind, at.col, at.row, ship.get("dir") != "down")
                 if c.col < SIZE and c.row < SIZE]
        ship_cells.update(cells)
        if kind == "carrier":
            carrier_cells.extend(cells)
    standing: set[Square] = set()
    for plane in lists["aircraft"]:
        kind = plane.get("type") if isinstance(plane, dict) else None
        at = _readable(plane.get("at")) if kind in AIRCRAFT_TYPES else None
        if at is not None:
            placed[kind] += 1
            standing.add(at)
    for gun in lists["guns"]:
        at = _readable(gun)
        placed["aa-gun"] += 1
        if at is not None:
            standing.add(at)
    rest = {k: max(0, purchase.get(k, 0) - placed[k])
            for k in (*SHIP_TYPES, *AIRCRAFT_TYPES, "aa-gun")}
    free_carrier = [c for c in carrier_cells if c not in standing]
    free_land = sorted(c for c in land if c not in standing and c not in ship_cells)
    planes = rest["bomber"] + rest["recon"]
    on_land = max(0, planes - len(free_carrier) - SHIP_LENGTH["carrier"] * rest["carrier"])
    short = rest["atom-bomber"] + rest["aa-gun"] + on_land - len(free_land)
    new_units = []
    for _ in range(-(-max(0, short) // 9)):
        blocks = [block for row in range(SIZE - 2) for col in range(SIZE - 2)
                  for block in [{Square(col + c, row + r) for r in range(3) for c in range(3)}]
                  if not block & (land | ship_cells)]
        if not blocks:
            raise LayoutError("no room for more land")
        block = rng.choice(blocks)
        new_units.append(min(block))
        land |= block
        free_land.extend(sorted(block))
    taken = set(land) | {n for c in ship_cells for n in (c, *neighbours(c))}
    new_ships = []
    for kind in SHIP_TYPES:
        for _ in range(rest[kind]):
            cells, across = _ship_place(kind, taken, rng, tight)
            new_ships.append(_ship_doc(kind, cells[0], across))
            taken.update(n for c in cells for n in (c, *neighbours(c)))
            if kind == "carrier":
                free_carrier.extend(cells)
    try:
        aircraft, guns = _stand_pieces(rest, free_land, free_carrier, rng)
    except IndexError:
        raise LayoutError("no room for the aircraft and guns") from None
    return {"land": lists["land"] + [square_name(u) for u in new_units],
            "ships": lists["ships"] + new_ships, "aircraft": lists["aircraft"] + aircraft,
            "guns": lists["guns"] + guns}
