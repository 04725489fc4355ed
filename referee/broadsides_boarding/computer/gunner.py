"""The gunner: a level above the deckhand, from its seat's view alone (BB5, BB25).

- A plot (BB4, BB6): of every three cards it may play, the one whose end brings its ship
  within a dot of the enemy (as he stands now) with most of its own cannons (those it has left)
  bearing and fewest of his; a collision only when its crew outnumber his; else the nearest,
  as the deckhand (a dot beside him where none of its cannons bears counts as one away).
- A declaration (BB10, BB11): every cannon at the section where a die does most harm: the
  pieces a 3 or a 5 removes there (a Captain counts five), a hull marker that puts a section
  beyond repair (more as the ship nears sinking), a mast still standing.
- A promotion and a boarding turn as the deckhand's.
"""

from __future__ import annotations

import itertools
import random

from .. import deck, sea
from . import deckhand

MOVING = ("stay", "forward", "starboard", "port")


def _bears(at: str, heading: str, enemy: str, cannons: list[str]) -> int:
    """How many of ``cannons`` (those a ship has left) would bear on an enemy at ``enemy``
    (BB9)."""
    if not sea.neighbours(at, enemy):
        return 0
    return len(set(deck.bearing(sea.relative(heading, at, enemy))) & set(cannons))


def plot(view: dict, legal: dict, rng: random.Random) -> dict:
    you = view["you"]
    them = next(seat for seat in view["ships"] if seat != you)
    mine, enemy = view["ships"][you], view["ships"][them]
    stronger = view["crews"][you]["pieces"] > view["crews"][them]["pieces"] + 2
    damaged = legal["damaged"]
    scored = []
    for slots in itertools.combinations(range(3), damaged):
        for free in itertools.product(MOVING, repeat=3 - damaged):
            moving = iter(free)
            cards = tuple("damaged" if n in slots else next(moving) for n in range(3))
            at, heading = deckhand._sail(mine["at"], mine["heading"], cards)
            if at == enemy["at"]:
                score = 50.0 if stronger else -50.0
            elif sea.neighbours(at, enemy["at"]) and (
                    ours := _bears(at, heading, enemy["at"], mine["cannons"])):
                score = 20.0 + 4 * ours \
                    - 3 * _bears(enemy["at"], enemy["heading"], at, enemy["cannons"])
            else:
                score = -float(deckhand._apart(at, enemy["at"]))
            scored.append((score + rng.random() / 10, cards))
    best = max(scored)[1]
    return deckhand.restless(view, legal, rng,
                             {"kind": "plot", "stage": legal["stage"], "cards": list(best)})


def _harm(view: dict, them: str, section: str) -> float:
    """What one die does at ``section`` of the enemy's ship, on average (BB11)."""
    ship, crew = view["ships"][them], view["crews"][them]

    def pieces(cell: str) -> float:
        place = f"{them} {cell}"
        return (cell in ship["cannons"]) + crew["crew"].get(place, 0) \
            + 5 * (crew["captain"] == place)

    harm = pieces(f"{section}3") + pieces(f"{section}5")
    beyond = len(ship["beyond_repair"])
    if ship["hull"][section] == 1:
        harm += 3 + 6 * beyond
    mast = ship["masts"].get(f"{section}4")
    if mast and mast["hits_left"]:
        harm += 2
    return harm / 6


def declare(view: dict, legal: dict, rng: random.Random) -> dict:
    you = view["you"]
    them = next(seat for seat in view["ships"] if seat != you)
    best = max(deck.SECTIONS, key=lambda s: (_harm(view, them, s), rng.random()))
    return {"kind": "declaration", "stage": legal["stage"],
            "targets": dict.fromkeys(legal["cannons"], best)}


def order(view: dict, rng: random.Random) -> dict:
    legal = view.get("legal")
    if not legal:
        raise ValueError("this seat owes no order now")
    if legal["kind"] == "plot":
        return plot(view, legal, rng)
    if legal["kind"] == "declaration":
        return declare(view, legal, rng)
    return deckhand.order(view, rng)


__all__ = ["declare", "order", "plot"]
