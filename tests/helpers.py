"""Helpers for the rule tests: hand-made fleets and games that have started.

A test places the pieces it cares about in the top rows of a chart (rows 1-13); ``padded``
then adds what R4 demands: Battleships in lanes along the foot of the chart (rows 15-21),
and salvoes, or, when the test fixes the salvoes, A-A guns on land in the top-right corner
(columns P-U, rows 1-12). A test that pads with guns keeps its own pieces in columns A-N.
Squares U 13, T 13 and S 13 are never used: ``idle`` fires there to pass the turn on.
"""

from __future__ import annotations

from referee.naval_war import Game, check_disposition, new_game, toss_order
from referee.naval_war.fleet import SHIP_LENGTH
from referee.naval_war.squares import SIZE, Square, neighbours, parse_square, square_name

PAD_LANES = (14, 16, 18, 20)  # row indices of rows 15, 17, 19 and 21
PAD_GUN_LAND = ("P 1", "S 1", "P 4", "S 4", "P 7", "S 7", "P 10", "S 10")
IDLE_SQUARES = ["S 13", "T 13", "U 13"]


def ship(kind: str, at: str, dir: str = "across") -> dict:
    """A ship entry of a disposition document."""
    doc = {"type": kind, "at": at}
    if kind not in ("carrier", "submarine"):
        doc["dir"] = dir
    return doc


def plane(kind: str, at: str) -> dict:
    """An aircraft entry of a disposition document."""
    return {"type": kind, "at": at}


def ship_squares(doc: dict) -> list[Square]:
    """The squares of a ship entry of a disposition document (R7)."""
    at = parse_square(doc["at"])
    if doc["type"] == "carrier":
        return [Square(at.col + c, at.row + r) for r in (0, 1) for c in (0, 1)]
    across = doc.get("dir", "across") == "across"
    return [Square(at.col + i, at.row) if across else Square(at.col, at.row + i)
            for i in range(SHIP_LENGTH[doc["type"]])]


def land_squares(units: list[str]) -> set[Square]:
    squares = set()
    for unit in units:
        top = parse_square(unit)
        squares |= {Square(top.col + c, top.row + r) for r in range(3) for c in range(3)}
    return squares


def padded(*, land: list[str] = (), ships: list[dict] = (), aircraft: list[dict] = (),
           guns: list[str] = (), salvoes: int | None = None, check: bool = True) -> dict:
    """A disposition with exactly the given pieces, padded out to meet R4.

    Ships are padded with Battleships across the foot of the chart until they cost at least
    60; aircraft, guns and salvoes are padded with salvoes (when ``salvoes`` is None) or with
    A-A guns on land in the top-right corner (when the test fixes ``salvoes``). With
    ``check`` (the default) the result must be a legal disposition; a test that builds a bad
    one on purpose says ``check=False``.
    """
    land, ships, aircraft, guns = list(land), list(ships), list(aircraft), list(guns)
    taken = land_squares(land)
    for entry in ships:
        for sq in ship_squares(entry):
            taken |= {sq, *neighbours(sq)}
    ship_cost = sum(4 if s["type"] == "carrier" else SHIP_LENGTH[s["type"]] for s in ships)
    for row in PAD_LANES:
        for col in range(0, SIZE - 3, 5):
            if ship_cost >= 60:
                break
            cells = [Square(col + i, row) for i in range(4)]
            if any(c in taken for c in cells):
                continue
            ships.append(ship("battleship", square_name(cells[0])))
            ship_cost += 4
            for sq in cells:
                taken |= {sq, *neighbours(sq)}
    prices = {"atom-bomber": 10, "bomber": 3, "recon": 1}
    forces = sum(prices[a["type"]] for a in aircraft) + len(guns)
    if salvoes is None:
        salvoes = max(1, 60 - forces)
    elif forces + salvoes < 60:
        free = [sq for sq in sorted(land_squares(list(PAD_GUN_LAND)), key=lambda s: (s.row, s.col))
                if sq not in taken]
        need = 60 - forces - salvoes
        land += list(PAD_GUN_LAND)
        guns += [square_name(sq) for sq in free[:need]]
    doc = {"land": land, "ships": ships, "aircraft": aircraft, "guns": guns, "salvoes": salvoes}
    if check:
        check_disposition(doc)  # a helper that builds a bad fleet by mistake is broken
    return doc


# An attacker with everything on land at A 1-F 3: Atom Bombers on row 1, Bombers on row 2,
# R.P.s on row 3, and a cruiser out at sea.
ATTACKER = padded(
    land=["A 1", "D 1"],
    ships=[ship("cruiser", "H 1")],
    aircraft=[plane("atom-bomber", sq) for sq in ("A 1", "B 1", "C 1")]
    + [plane("bomber", sq) for sq in ("A 2", "B 2", "C 2", "D 2", "E 2", "F 2")]
    + [plane("recon", sq) for sq in ("A 3", "B 3", "C 3", "D 3", "E 3", "F 3")],
    salvoes=20,
)
# A quiet fleet: Battleships along the foot, nothing else but salvoes.
QUIET = padded(salvoes=60)


def seed_for(order: list[str]) -> int:
    """A seed whose toss (R11) gives this order of play."""
    seats = sorted(order, key=["red", "blue", "green", "gold"].index)
    return next(seed for seed in range(100_000) if toss_order(seats, seed) == list(order))


def joined_game(seats: int = 2, alliances: bool | list = False, minutes: int = 20,
                at: float = 0.0, seed: int = 0) -> Game:
    """A game in which every seat has been taken, still in setup; ``seed`` draws its order of
    play at creation (R11)."""
    game, _ = new_game(id="g", seats=seats, alliances=alliances, disposition_minutes=minutes,
                       at=at, seed=seed)
    for seat in game.seats:
        game.join(seat, seat.title())
    return game


def started_game(seats: int = 2, alliances: bool | list = False,
                 dispositions: dict[str, dict] | None = None,
                 order: list[str] | None = None) -> Game:
    """A game in play: tossed for this order as it was created (R11), every seat joined,
    submitted and locked in."""
    order = order or ["red", "blue", "green", "gold"][:seats]
    game = joined_game(seats, alliances, seed=seed_for(order))
    dispositions = dispositions or {}
    for seat in game.seats:
        game.submit(seat, dispositions.get(seat, QUIET))
    for seat in game.seats:
        game.lock_in(seat)
    assert game.phase == "play" and game.order == order
    return game


def idle(game: Game, seat: str, target: str | None = None) -> dict:
    """A move that harms nothing (the helpers never use S 13-U 13), to pass the turn on."""
    move = {"weapon": "salvo", "at": list(IDLE_SQUARES)}
    if target:
        move["target"] = target
    return game.move(seat, move)[1]


def bomber(frm: str, at: str, target: str | None = None, weapon: str = "bomber") -> dict:
    move = {"weapon": weapon, "from": frm, "at": at}
    if target:
        move["target"] = target
    return move


def salvo(*squares: str, target: str | None = None) -> dict:
    move = {"weapon": "salvo", "at": list(squares)}
    if target:
        move["target"] = target
    return move


def random_move(game: Game, rng, fly: float = 0.6) -> dict:
    """A random legal move for the seat whose turn it is: one of its aircraft that can still
    fly (with chance ``fly``, or when no salvo is left) at a random square, else a salvo."""
    seat = game.turn
    fleet = game.fleets[seat]
    planes = [a for a in fleet.aircraft if a.can_fly]
    target = rng.choice(game.opponents(seat))
    if planes and (rng.random() < fly or not fleet.salvoes_left):
        plane = rng.choice(planes)
        move = {"weapon": plane.type, "from": square_name(plane.square),
                "at": square_name(Square(rng.randrange(21), rng.randrange(21)))}
    else:
        move = {"weapon": "salvo", "at": [square_name(Square(i % 21, i // 21))
                                          for i in rng.sample(range(441), 3)]}
    return {**move, "target": target}
