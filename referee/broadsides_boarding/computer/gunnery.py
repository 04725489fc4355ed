"""What a cannon's die is worth at each section of the enemy's ship, and a volley's targets
chosen so (BB10-BB14, BB19), as the stronger levels reckon it from the public decks (BB16).

Each face of the die does one thing to the section aimed at (BB11): a 2 a hull marker, a 3 or a
5 every piece at that rail, a 4 a mast still standing. What each is worth (``Worth``) depends
on the enemy ship as it is: a marker that puts a section beyond repair costs him a card a round
and brings him a section nearer sinking, and the one that sinks him wins the game; a cannon is
worth more while it bears on us; crew and the Captain are worth more once a boarding is coming;
a mast lost costs a card a round. Several cannons at one section share what they can do there
(a rail emptied by one 3 is empty for the next), so a volley's cannons are given their sections
one by one, each where it adds most to those already given.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .. import deck

SIXTH = 1 / 6
MISS = 5 / 6


@dataclass(frozen=True)
class Worth:
    """What each loss is worth to the side that inflicts it, in crewmembers."""

    crew: float = 1.0
    cannon: float = 2.0
    bearing_cannon: float = 3.0  # a cannon that bears on us now: it would fire again
    captain: float = 5.0
    mast: float = 5.0  # a mast wholly lost: a Damaged card every round (BB6)
    mast_top: float = 2.0  # the mainmast's first hit (BB13)
    marker: float = 1.5  # a first hull marker on a section
    beyond: float = 5.0  # a section beyond repair: a Damaged card every round (BB6, BB14)
    beyond_step: float = 3.0  # more for each section already beyond repair
    sinking: float = 200.0  # the marker that sinks the ship (BB14): the game
    immobile: float = 6.0  # more for the Damaged card that stops the ship (BB6)


BROADSIDES = Worth()
BOARDING_COMING = Worth(crew=1.6, captain=4.0, cannon=1.6, bearing_cannon=2.4)
FINAL = Worth(crew=1.8, cannon=0.0, bearing_cannon=0.0, captain=3.0, mast=0.0, mast_top=0.0,
              marker=0.0, beyond=0.0, beyond_step=0.0, sinking=0.0, immobile=0.0)


@dataclass
class Target:
    """The enemy's ship and crew as a volley finds them: what each rail of each section holds
    (in worth), each section's hull markers and each mast's hits left."""

    rails: dict[str, float]  # "C3" -> the worth of every piece there
    hull: dict[str, int]
    masts: dict[str, int]  # "C4" -> hits left
    beyond: int  # sections beyond repair already
    required: int  # Damaged cards he plays already
    worth: Worth
    final: bool = False  # BB19: 2 and 4 are misses

    @classmethod
    def read(cls, view: dict, them: str, worth: Worth = BROADSIDES, *,
             bearing_on_us: tuple[str, ...] = (), final: bool = False) -> Target:
        """The enemy ``them`` as the view shows him; ``bearing_on_us``: his cannons that
        bear on us now."""
        ship, crew = view["ships"][them], view["crews"][them]
        cannons = set(ship["cannons"])
        rails = {}
        for section in deck.SECTIONS:
            for rail in deck.RAILS.values():
                cell = f"{section}{rail}"
                place = f"{them} {cell}"
                value = crew["crew"].get(place, 0) * worth.crew
                if crew["captain"] == place:
                    value += worth.captain
                if cell in cannons:
                    value += worth.bearing_cannon if cell in bearing_on_us else worth.cannon
                rails[cell] = value
        masts = {at: entry["hits_left"] for at, entry in ship["masts"].items()}
        return cls(rails, dict(ship["hull"]), masts, len(ship["beyond_repair"]),
                   ship["damaged_required"], worth, final)

    # -- what k dice at one section are worth together --------------------------------

    def _hull_worth(self, markers: int) -> float:
        """What the section's markers, from none, are worth (capped at beyond repair)."""
        w = self.worth
        if markers <= 0:
            return 0.0
        first = w.marker + w.beyond_step * self.beyond / 2
        if markers == 1:
            return first
        if self.beyond + 1 >= 3:
            return first + w.sinking
        extra = w.immobile if self.required == 2 else 0.0
        return first + w.beyond + w.beyond_step * self.beyond + extra

    def _mast_worth(self, at: str, hits: int) -> float:
        """What ``hits`` more hits on a mast are worth."""
        w = self.worth
        left = self.masts.get(at, 0)
        if left <= 0 or hits <= 0:
            return 0.0
        if hits >= left:
            return w.mast + (w.immobile if self.required == 2 else 0.0)
        return w.mast_top

    def together(self, section: str, k: int) -> float:
        """The expected worth of ``k`` dice at ``section`` (BB11), the final volley's
        misses counted (BB19)."""
        if k <= 0:
            return 0.0
        none = MISS ** k
        value = (self.rails[f"{section}3"] + self.rails[f"{section}5"]) * (1 - none)
        if self.final:
            return value
        # hull markers: binomial count of 2s among k dice, capped where they stop mattering
        markers = self.hull[section]
        if markers < 2:
            base = self._hull_worth(markers)
            for n in range(1, k + 1):
                chance = math.comb(k, n) * SIXTH ** n * MISS ** (k - n)
                value += chance * (self._hull_worth(min(2, markers + n)) - base)
        mast = f"{section}4"
        if self.masts.get(mast):
            for n in range(1, k + 1):
                chance = math.comb(k, n) * SIXTH ** n * MISS ** (k - n)
                value += chance * self._mast_worth(mast, n)
        return value

    def allot(self, cannons: list[str], rng: random.Random | None = None
              ) -> tuple[dict[str, str], float]:
        """Each cannon's section, one by one where it adds most (ties drawn from ``rng``),
        and the expected worth of the whole volley."""
        given = dict.fromkeys(deck.SECTIONS, 0)
        found: dict[str, str] = {}
        total = 0.0
        for cell in cannons:
            best, gain = deck.SECTIONS[0], -1.0
            for section in deck.SECTIONS:
                more = self.together(section, given[section] + 1) \
                    - self.together(section, given[section])
                more += rng.random() * 1e-6 if rng is not None else 0.0
                if more > gain:
                    best, gain = section, more
            given[best] += 1
            found[cell] = best
            total += gain
        return found, total

    def volley_worth(self, shots: int) -> float:
        """The expected worth of a volley of ``shots`` dice, each where it adds most."""
        return self.allot(["x"] * shots)[1]


__all__ = ["BOARDING_COMING", "BROADSIDES", "FINAL", "Target", "Worth"]
