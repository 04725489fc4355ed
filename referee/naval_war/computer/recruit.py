"""The recruit: a random legal budget, a random placement and random moves (the baseline)."""

from __future__ import annotations

import random

from referee.naval_war.layout import random_purchase, scatter

from .board import CELLS
from .seat import Seat, aircraft_move, salvo_move


def disposition(rng: random.Random) -> dict:
    return scatter(random_purchase(rng), rng)


def move(seat: Seat, view: dict, rng: random.Random) -> dict:
    """Any weapon that can still attack, at any opponent, at any squares."""
    choices = [(kind, sq) for kind, squares in seat.aircraft.items() for sq in squares]
    if seat.salvoes:
        choices.append(("salvo", -1))
    weapon, frm = rng.choice(choices)
    target = rng.choice(seat.opponents)
    if weapon == "salvo":
        return salvo_move(rng.sample(range(CELLS), 3), target)
    return aircraft_move(weapon, frm, rng.randrange(CELLS), target)
