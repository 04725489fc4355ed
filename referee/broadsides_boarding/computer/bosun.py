"""The bosun: a level above the gunner, from its seat's view alone (BB5, BB25).

- A plot (BB4-BB9, BB17): every course it may sail this round against every course the enemy
  may (each of his plots as likely as the next; all Remain in Place when he cannot plot, BB7),
  card by card as the cards are turned up: each card that leaves the ships within a dot is a
  volley, worth what its cannons that bear can do to him less what his can do to it; a
  collision is worth the boarding's odds by the crews (after the final volley's losses, BB19),
  sought when its crew is the stronger and shunned when the weaker; the plot with the best
  sum over his courses is played. After ``PATIENCE`` rounds without a volley it stops
  standing off: his fire counts for a third and it closes to a dot.
- A declaration (BB10-BB14, BB19): each cannon where it adds most to the volley
  (``gunnery``): the cannons that bear on it, the Captain's rail, masts while they cost him
  cards, the hull when a marker puts a section beyond repair or sinks him; crew first once a
  boarding is coming or in the final volley.
- A promotion (BB7, BB19): the crewmember among most of his fellows, on the centreline
  (where no cannon reaches) if it can.
- A boarding turn (BB21): the deckhand's, every movement toward the enemy Captain by the
  shortest way (the commodore is the level that reckons the fights, ``melee``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .. import deck
from . import deckhand, gunnery
from .sailing import Ship, apart, bearing, collided, courses, touching_side

BOARD_STAKE = 30.0  # what winning the boarding rather than losing it is worth, in crewmembers
ODDS_SCALE = 3.0  # crewmembers more that make the boarding about 3 to 1
CLOSE = 0.6  # what each dot nearer the enemy (beyond two) is worth while none fires
# rounds without a volley after which the level stops standing off (an enemy who cannot sail,
# or two ships each waiting for the other, would otherwise never end the game): his fire then
# counts for a third, and every dot nearer him counts
PATIENCE = 3
WARY = 1 / 3


def rounds_quiet(view: dict) -> int:
    """Rounds since a volley was last fired (every round, when none has been)."""
    quiet = 0
    for report in reversed(view.get("reports") or []):
        happened = report.get("happened") or []
        if any(entry.get("what") == "volley" for entry in happened):
            break
        quiet += sum(1 for entry in happened if entry.get("what") == "round")
    return quiet


def captain_cell(rng: random.Random) -> dict:
    """The Captain on the forecastle's centreline (BB16): out of every volley's reach, with
    few ways to him in a boarding and the bow's crews near."""
    return {"captain": "A4"}


@dataclass
class Sides:
    """What a plot reckons with: both ships and crews from the view."""

    you: str
    them: str
    mine: dict
    theirs: dict
    my_crew: dict
    their_crew: dict

    @classmethod
    def of(cls, view: dict) -> Sides:
        you = view["you"]
        them = next(seat for seat in view["ships"] if seat != you)
        return cls(you, them, view["ships"][you], view["ships"][them], view["crews"][you],
                   view["crews"][them])


def boarding_odds(view: dict, sides: Sides, my_side: str | None, their_side: str | None
                  ) -> float:
    """The chance of winning a boarding begun now, from the crews once each touching side's
    cannons have fired the final volley (BB19); a side a die decides counted half each way."""
    def lost(shooter: str, target: str, side: str | None) -> float:
        ship = view["ships"][shooter]
        if side is None:
            return (lost(shooter, target, "port") + lost(shooter, target, "starboard")) / 2
        guns = [c for c in deck.rail_cannons(side) if c in ship["cannons"]]
        tally = gunnery.Target.read(view, target, gunnery.Worth(
            crew=1.0, cannon=0.0, bearing_cannon=0.0, captain=1.0), final=True)
        return tally.volley_worth(len(guns))

    mine = sides.my_crew["pieces"] - lost(sides.them, sides.you, their_side)
    theirs = sides.their_crew["pieces"] - lost(sides.you, sides.them, my_side)
    lead = (mine - theirs) / ODDS_SCALE
    return 1 / (1 + math.exp(-lead * math.log(3)))


class Plotter:
    """Weighs this round's courses against the enemy's, card by card."""

    def __init__(self, view: dict, legal: dict) -> None:
        self.view = view
        self.sides = s = Sides.of(view)
        self.me, self.foe = Ship.of(s.mine), Ship.of(s.theirs)
        self.mine_courses = courses(self.me, legal["damaged"])
        known = (view.get("plots") or {}).get(s.them)
        if known and None not in known:  # BB7: he cannot plot, and his cards are shown
            from .sailing import course
            self.their_courses = {course(self.foe, tuple(known)): [tuple(known)]}
        else:
            self.their_courses = courses(self.foe, s.theirs["damaged_required"])
        self.my_guns = set(s.mine["cannons"])
        self.their_guns = set(s.theirs["cannons"])
        worth = self.worth()
        self.to_them = [gunnery.Target.read(view, s.them, worth).volley_worth(n)
                        for n in range(6)]
        self.to_us = [gunnery.Target.read(view, s.you, worth).volley_worth(n)
                      for n in range(6)]
        self._volleys: dict[tuple[Ship, Ship], float] = {}
        self._collisions: dict[tuple[Ship, Ship], float] = {}
        self._against: dict[tuple, float] = {}
        self.odds_now = boarding_odds(view, s, None, None)
        self.bold = rounds_quiet(view) >= PATIENCE

    def worth(self) -> gunnery.Worth:
        return gunnery.BROADSIDES

    def volley(self, mine: Ship, theirs: Ship) -> float:
        key = (mine, theirs)
        found = self._volleys.get(key)
        if found is None:
            ours = sum(1 for c in bearing(mine, theirs.dot) if c in self.my_guns)
            his = sum(1 for c in bearing(theirs, mine.dot) if c in self.their_guns)
            found = self._volleys[key] = self.to_them[ours] \
                - (WARY if self.bold else 1.0) * self.to_us[his]
        return found

    def collision(self, mine_before: Ship, theirs_before: Ship) -> float:
        key = (mine_before, theirs_before)
        found = self._collisions.get(key)
        if found is None:
            odds = boarding_odds(self.view, self.sides,
                                 touching_side(mine_before, theirs_before.dot),
                                 touching_side(theirs_before, mine_before.dot))
            found = self._collisions[key] = BOARD_STAKE * (2 * odds - 1)
        return found

    def at_end(self, mine: Ship, theirs: Ship) -> float:
        """Where the round leaves the ships: nearer while none fires, when boarding suits."""
        gap = apart(mine, theirs)
        return -CLOSE * max(0, gap - (1 if self.bold else 2))

    def against(self, mine: tuple[Ship, ...], theirs: tuple[Ship, ...]) -> float:
        """One course of ours against one of his, card by card (BB8, BB17)."""
        key = (mine, theirs)
        found = self._against.get(key)
        if found is None:
            found = self._against[key] = self._against_now(mine, theirs)
        return found

    def _against_now(self, mine: tuple[Ship, ...], theirs: tuple[Ship, ...]) -> float:
        worth = 0.0
        m0, t0 = self.me, self.foe
        for m, t in zip(mine, theirs, strict=True):
            if collided(m, t, m0, t0):
                return worth + self.collision(m0, t0)
            if apart(m, t) == 1:
                worth += self.volley(m, t)
            m0, t0 = m, t
        return worth + self.at_end(m0, t0)

    def weights(self) -> dict[tuple[Ship, ...], float]:
        """How likely each of his courses is: as many of his plots sail it."""
        total = sum(len(p) for p in self.their_courses.values())
        return {c: len(p) / total for c, p in self.their_courses.items()}

    def best(self, rng: random.Random) -> tuple[str, ...]:
        weights = self.weights()
        scored = []
        for mine in self.mine_courses:
            worth = sum(w * self.against(mine, theirs) for theirs, w in weights.items())
            scored.append((worth + rng.random() * 1e-6, mine))
        _, mine = max(scored, key=lambda s: s[0])
        return rng.choice(self.mine_courses[mine])


def plot(view: dict, legal: dict, rng: random.Random, plotter=Plotter) -> dict:
    return deckhand.restless(view, legal, rng, {"kind": "plot", "stage": legal["stage"],
                                                "cards": list(plotter(view, legal).best(rng))})


def declare(view: dict, legal: dict, rng: random.Random) -> dict:
    """Each cannon where it adds most (see the module's text)."""
    you = view["you"]
    them = next(seat for seat in view["ships"] if seat != you)
    sides = Sides.of(view)
    if legal.get("final"):
        worth = gunnery.FINAL
    elif boarding_odds(view, sides, None, None) > 0.6:
        worth = gunnery.BOARDING_COMING
    else:
        worth = gunnery.BROADSIDES
    bearing_on_us = tuple(((view.get("stage") or {}).get("bearing") or {}).get(them) or ())
    target = gunnery.Target.read(view, them, worth, bearing_on_us=bearing_on_us,
                                 final=bool(legal.get("final")))
    targets, _ = target.allot(list(legal["cannons"]), rng)
    return {"kind": "declaration", "stage": legal["stage"], "targets": targets}


def promote(view: dict, legal: dict, rng: random.Random) -> dict:
    """The crewmember among most of his fellows, on the centreline if he can be."""
    crew = view["crews"][view["you"]]["crew"]

    def liked(place: str) -> tuple:
        cell = place.split(" ")[1]
        return (cell.endswith("4"), crew.get(place, 0), rng.random())

    return {"kind": "promotion", "stage": legal["stage"], "promote": max(legal["crew"], key=liked)}


def order(view: dict, rng: random.Random) -> dict:
    legal = view.get("legal")
    if not legal:
        raise ValueError("this seat owes no order now")
    kind = legal["kind"]
    if kind == "plot":
        return plot(view, legal, rng)
    if kind == "declaration":
        return declare(view, legal, rng)
    if kind == "promotion":
        return promote(view, legal, rng)
    return deckhand.board(view, legal, rng)


__all__ = ["Plotter", "boarding_odds", "captain_cell", "declare", "order", "plot", "promote"]
