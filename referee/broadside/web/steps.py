"""The harbour after each move of a finished game, for the post-mortem (its page and its
booklet): the two setups (the post-mortem view's dispositions) with each move's report laid
on in turn, as the players were told it (B11): the ship that moved where it ended and the way
it faced, the masts each ship was left with, the ships and merchant ships sunk, the buoys
found. Nothing is worked out here that the reports do not say; the tests check every step
against the game itself replayed from its log."""

from __future__ import annotations

import copy

from ..board import MERCHANTS
from ..views import set_out


def start(shown: dict) -> dict:
    """The harbour as set up, from ``postmortem_view``'s ``seats`` (both dispositions)."""
    seats = shown["seats"]
    ships = {}
    for seat in ("red", "blue"):
        placed = (seats.get(seat) or {}).get("disposition", {}).get("ships", [])
        for ship in set_out(seat, placed):
            ships[ship["at"]] = ship
    blue = (seats.get("blue") or {}).get("disposition") or {}
    return {"ships": ships,
            "merchants": [{"at": m["at"], "opposite": m["opposite"], "sunk": False}
                          for m in MERCHANTS],
            "buoys": {c: {"kind": k, "revealed": False} for c, k in blue.get("buoys", {}).items()},
            "batteries": dict(blue.get("batteries", {}))}


def after(state: dict, report: dict) -> dict:
    """The harbour once ``report``'s move is laid on ``state`` (a new state)."""
    state = copy.deepcopy(state)
    if report.get("passed"):
        return state
    ships = state["ships"]
    mover = ships.pop(report["from"])
    mover.update(at=report["to"], facing=report["facing"])
    ships[report["to"]] = mover
    for found in report.get("buoys") or []:
        state["buoys"][found["at"]] = {"kind": found["kind"], "revealed": True}
    path = set(report.get("path") or []) | {report["to"]}
    for lost in report.get("masts_lost") or []:
        # a ship's losses are one entry, at the cross of its last loss: the ship that moved
        # may have lost masts to a battery on its way (B7), any other ship stood still
        if (lost["side"], lost["type"], lost.get("number")) == (
                mover["side"], mover["type"], mover.get("number")) and lost["at"] in path:
            mover["masts"] = lost["masts"]
        elif lost["at"] in ships:
            ships[lost["at"]]["masts"] = lost["masts"]
    for sunk in report.get("sunk") or []:
        ships.pop(sunk["at"], None)
    for merchant in state["merchants"]:
        if merchant["at"] in (report.get("merchants_sunk") or []):
            merchant["sunk"] = True
    return state


def states(shown: dict) -> list[dict]:
    """The harbour as set up and after each move: ``states(shown)[n]`` after move n, each as
    ``board_drawing`` takes it (ships a list)."""
    state = start(shown)
    out = [state]
    for report in shown["view"]["reports"]:
        state = after(state, report)
        out.append(state)
    return [{**s, "ships": list(s["ships"].values())} for s in out]
