"""A seat's secret twin (BB5, BB10; the contract's ``Twin``): here the secrets are sealed orders,
not a disposition. The decks are public once play starts (BB16), so a seat's twin disposition is
its own; what differs is an order it gives while the other seat still owes its own in the same
stage: another plot with the same Damaged cards required (BB6), another target for one cannon
(BB10), another crewmember promoted (BB7). Until every order of the stage is in (and, for a plot,
until the card that differs is turned up), nothing the other seat is shown may differ.
"""

from __future__ import annotations

import random

from ..common.documents import Json
from ..common.ruleset import Twin
from .catalogue import CARDS
from .deck import SECTIONS

MOVING = tuple(card for card in CARDS if card != "damaged")


def other_order(view: Json, order: Json) -> Json | None:
    """Another order as legal as ``order`` for the seat whose view this is, differing in one
    part: the last card of a plot that is not Damaged, one cannon's target, or the crewmember
    promoted; None when there is none (a plot of three Damaged cards, one crewmember left)."""
    kind = order.get("kind")
    if kind == "plot":
        cards = list(order["cards"])
        for n in reversed(range(len(cards))):
            if cards[n] != "damaged":
                cards[n] = next(card for card in MOVING if card != cards[n])
                return {**order, "cards": cards}
        return None
    if kind == "declaration":
        targets = dict(order["targets"])
        if not targets:
            return None
        cell = next(iter(targets))
        targets[cell] = next(s for s in SECTIONS if s != targets[cell])
        return {key: value for key, value in order.items() if key != "standing"} \
            | {"targets": targets}
    if kind == "promotion":
        crew = [place for place in (view.get("legal") or {}).get("crew", [])
                if place != order["promote"]]
        return {**order, "promote": crew[0]} if crew else None
    return None


def secret_twin(view: Json, rng: random.Random) -> Twin | None:
    """The twin of a seat's setup: the same disposition (the decks are public), its sealed
    orders told apart by ``other_order``; None before the seat has a disposition."""
    document = view.get("disposition")
    if not isinstance(document, dict):
        return None
    return Twin(dict(document), lambda _seat, _move, _view: True, other_order)


__all__ = ["other_order", "secret_twin"]
