"""The computer opponent of Broadsides and Boarding Parties, playing from its seat's view alone
(BB5, BB25; R21, R25).

``computer(level, seed, on_failure=None)`` gives the shared computer
(``referee.common.computer.Computer``) of these levels (``ROSTER``): ``disposition(view)``,
where its Captain stands (BB16), and ``move(view)``, the order its view says it owes (a plot,
a declaration, a promotion or a boarding turn, BB26), read from the view's ``legal``. It is
handed nothing but the view its seat would get: never the other seat's sealed order, which its
view does not hold. Every choice is drawn from a ``random.Random`` seeded from the computer's
seed and the view (the game, the seat and the stage), so the same view gets the same order.

- ``deckhand``: closes on the enemy, fires at random, boards toward the enemy Captain
  (``deckhand``): the baseline.
- ``gunner``: brings its broadside to bear and keeps out of the enemy's, fires where a die does
  most harm, boards only when stronger in crew (``gunner``).
- ``bosun``: weighs every course it may sail against every course the enemy may, card by card,
  each volley by what it does less what it suffers, a collision by the boarding's odds; aims
  each cannon where it adds most (``bosun``, ``sailing``, ``gunnery``).
- ``commodore``: the bosun's reckoning with the enemy's courses weighed as he would weigh them
  and the next round's first card; fights the boarding by the odds of every fight and the
  enemy's best reply (``commodore``, ``melee``). The strongest.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from referee.common.computer import Computer, Level, Roster

from . import bosun, commodore, deckhand, gunner

STAND_IN_LEVEL = "deckhand"  # the level that plays for an absent player (R25)


def _read_setup(view: dict, seeded: Callable[..., random.Random]
                ) -> tuple[dict, random.Random]:
    return view, seeded(view.get("id"), view.get("you"), "captain")


def _read_turn(view: dict, seeded: Callable[..., random.Random]
               ) -> tuple[dict, random.Random]:
    stage = (view.get("stage") or {}).get("n")
    return view, seeded(view.get("id"), view.get("you"), stage, len(view.get("reports") or []))


ROSTER = Roster({
    "deckhand": Level("Closes on the enemy, fires at random, boards toward his Captain.",
                      move=deckhand.order,
                      disposition=lambda _view, rng: deckhand.captain_cell(rng)),
    "gunner": Level("Brings its broadside to bear, fires where a die does most harm.",
                    move=gunner.order),
    "bosun": Level("Reckons every course the enemy may sail, card by card; aims each cannon "
                   "apart.",
                   move=bosun.order,
                   disposition=lambda _view, rng: bosun.captain_cell(rng)),
    "commodore": Level("Reads which courses suit the enemy best and fights a boarding two "
                       "moves deep.",
                       move=commodore.order,
                       disposition=lambda _view, rng: bosun.captain_cell(rng)),
}, read_setup=_read_setup, read_turn=_read_turn)
LEVELS = ROSTER.descriptions


class BoardingComputer(Computer):
    """The shared computer with this rule set's levels."""

    ROSTER = ROSTER


def computer(level: str, seed: int | str = 0, on_failure=None, *,
             strict: bool = False) -> BoardingComputer:
    return BoardingComputer(level, seed, on_failure, strict=strict)


__all__ = ["LEVELS", "ROSTER", "STAND_IN_LEVEL", "BoardingComputer", "computer"]
