"""A disposition's secret twin (R17, R20, R21): the same forces with one ship laid elsewhere.

What an opponent learns of a chart comes only from the squares his moves reach: a salvo's
three squares (R15), a bomber's or an R.P.'s 3 x 3 block and an atom bomber's 5 x 5 (R16,
R17); A-A guns fire on what is aimed near them (R18), and the twin keeps every gun where it
was. So two games whose charts differ only in where one ship lies (its type, and so the
scores of R22, the same) tell an opponent the same until one of his moves reaches a square
that ship holds in either: ``clear`` says whether a move stays away from both. The owner's own
moves go at other charts and never depend on where his ships lie.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..common.documents import Json
from ..common.problems import RuleViolation
from ..common.ruleset import Twin
from .fleet import check_disposition
from .squares import SIZE, NotationError, Square, area, parse_square, square_name

TRIES = 200  # random places tried for a ship before the next ship is tried
REACH = 2  # the largest reach of an aircraft's target (an atom bomber's 5 x 5 block, R16)


def secret_twin(view: Json, rng: random.Random) -> Twin | None:
    """A twin of the disposition in a seat's view: one of its ships (not a carrier with
    aircraft on it) laid in another legal place; None if no ship can be moved."""
    document, owner = view.get("disposition"), view.get("you")
    if not isinstance(document, dict) or not isinstance(owner, str):
        return None
    fleet = check_disposition(document).fleet
    standing = {plane.square for plane in fleet.aircraft}
    movable = [i for i, ship in enumerate(fleet.ships) if not standing & set(ship.squares)]
    rng.shuffle(movable)
    for i in movable:
        for _ in range(TRIES):
            other = _moved(document, i, rng)
            try:
                moved = check_disposition(other).fleet
            except RuleViolation:
                continue
            # the ship's squares in both places: every other ship lies where it lay
            ours = {square for ship in fleet.ships for square in ship.squares}
            theirs = {square for ship in moved.ships for square in ship.squares}
            differ = (ours ^ theirs) | set(fleet.ships[i].squares)
            if theirs == ours:
                continue
            return Twin(moved.document, _clear_of(owner, frozenset(differ)))
    return None


def _moved(document: Json, i: int, rng: random.Random) -> Json:
    ships = [dict(ship) for ship in document["ships"]]
    ships[i]["at"] = square_name(Square(rng.randrange(SIZE), rng.randrange(SIZE)))
    if "dir" in ships[i]:
        ships[i]["dir"] = rng.choice(("across", "down"))
    return {**document, "ships": ships}


def reach(move: Json) -> set[Square] | None:
    """Every square of the target's chart a move can learn anything of: a salvo's squares,
    or the largest block any aircraft strikes or sees round its target (R15-R17); None for a
    move that names no square (the rules refuse it, whatever the chart holds).

    >>> sorted(map(square_name, reach({"weapon": "salvo", "at": ["A 1", "b2", "C 3"]})))
    ['A 1', 'B 2', 'C 3']
    >>> len(reach({"weapon": "bomber", "from": "A 1", "at": "K 10"}))
    25
    """
    at = move.get("at")
    try:
        if move.get("weapon") == "salvo":
            return {parse_square(square) for square in at} if isinstance(at, list) else None
        return set(area(parse_square(at), REACH))
    except (NotationError, TypeError):
        return None


def _clear_of(owner: str, differ: frozenset[Square]) -> Callable[[str, Json, Json], bool]:
    def clear(seat: str, move: Json, _view: Json) -> bool:
        if seat == owner or move.get("target", owner) != owner:
            return True
        reached = reach(move)
        return reached is not None and not reached & differ
    return clear


__all__ = ["reach", "secret_twin"]
