"""The commodore: the strongest level, from its seat's view alone (BB5, BB25).

It sails and fights as the bosun does, and reads the enemy as a thinking player:

- A plot (BB4-BB9, BB17): the bosun's reckoning of every course against every course of the
  enemy's, card by card; but the enemy's courses are not all as likely: each is weighed by how
  well it would serve him against any course of ours (the better for him, the likelier, some
  weight kept on every one), and the round's end is judged by the first card of the next round
  (what each ship could fire then), so that it does not end a round under his broadside.
- A declaration and a promotion: the bosun's.
- A boarding turn (BB21, BB22): the bosun's attacks, each position judged by the enemy's best
  attack from it (its own Captain's fall the worst of it) as well as by the pieces won.
"""

from __future__ import annotations

import math
import random

from . import bosun, melee
from .sailing import MOVING, Ship, apart, collided, step

KEEN = 0.35  # how sharply the enemy is expected to prefer his better courses
SPREAD = 0.3  # the weight kept on every course of his, whatever it is worth to him
NEXT = 0.5  # what the next round's first card counts for, beside this round's


class Plotter(bosun.Plotter):
    """The bosun's reckoning, the enemy's courses weighed as he would weigh them."""

    def __init__(self, view: dict, legal: dict) -> None:
        super().__init__(view, legal)
        self._ends: dict[tuple[Ship, Ship], float] = {}

    def at_end(self, mine: Ship, theirs: Ship) -> float:
        """The bosun's closing, and the next round's first card: what each ship can fire
        after it, both cards any of the four (BB8)."""
        worth = super().at_end(mine, theirs)
        if apart(mine, theirs) > 2:
            return worth
        key = (mine, theirs)
        found = self._ends.get(key)
        if found is None:
            total = 0.0
            for ours in MOVING:
                m, _ = step(mine, ours)
                for his in MOVING:
                    t, _ = step(theirs, his)
                    if collided(m, t, mine, theirs):
                        total += self.collision(mine, theirs)
                    elif apart(m, t) == 1:
                        total += self.volley(m, t)
            found = self._ends[key] = NEXT * total / len(MOVING) ** 2
        return worth + found

    def weights(self) -> dict[tuple[Ship, ...], float]:
        """Each course of his weighed by what it is worth to him against ours, all of ours
        as likely (a softened best answer), with ``SPREAD`` kept even."""
        plain = super().weights()
        ours = list(self.mine_courses)
        his_worth = {}
        for theirs in plain:
            his_worth[theirs] = -sum(self.against(mine, theirs) for mine in ours) / len(ours)
        top = max(his_worth.values())
        keen = {t: math.exp(KEEN * (w - top)) for t, w in his_worth.items()}
        total = sum(keen.values())
        return {t: (1 - SPREAD) * keen[t] / total + SPREAD * plain[t] for t in plain}


def plot(view: dict, legal: dict, rng: random.Random) -> dict:
    return bosun.plot(view, legal, rng, plotter=Plotter)


def order(view: dict, rng: random.Random) -> dict:
    legal = view.get("legal")
    if not legal:
        raise ValueError("this seat owes no order now")
    kind = legal["kind"]
    if kind == "plot":
        return plot(view, legal, rng)
    if kind == "boarding":
        return melee.order(view, legal, rng, reply=True)
    return bosun.order(view, rng)


__all__ = ["Plotter", "order", "plot"]
