"""The computer opponent: a ladder of levels that play from a seat's view alone (R21).

>>> bot = Bot("admiral", seed=7)
>>> from referee.naval_war import check_disposition
>>> check_disposition(bot.disposition()).cost.total
160

``Bot(level, seed)`` is the shared computer (``referee.common.computer.Computer``) over these
levels (``NAVAL_WAR_ROSTER``): ``disposition(view=None, rng=None)``, a disposition document of
API.md (the Naval War Game's chart is the same for every seat, so the view is not needed), and
``move(view)``, a move document legal for that view. A bot is handed nothing but the view
document its seat would get (a JSON copy); it never sees a ``Game`` and imports nothing that
holds one. Every choice is drawn from a ``random.Random`` seeded from the bot's seed and the
view, so a bot given the same view plays the same move, whoever asks and whenever; a level that
fails plays a recruit's move instead.

The levels, weakest first (``ranks.LADDER``), each beating the one below in 60-85%
of games:

- ``recruit``: a random legal budget, placement and moves: the baseline.
- ``cadet``: a beginner's fleet; his R.P.s fly first, then his salvoes go where they saw ships.
- ``midshipman``: the captain's way, but three moves in five are spent at random.
- ``lieutenant``: the captain's way, but two moves in five are spent at random.
- ``captain``: sensible heuristics on its chart of the enemy (``knowledge_chart``).
- ``commodore``: the admiral, but three moves in ten are spent at random.
- ``vice-admiral``: the admiral, but one move in five is spent at random.
- ``admiral``: the density method over every enemy disposition consistent with its reports,
  and the budget and placement the rules' illustrative games teach.
"""

from __future__ import annotations

import random

from referee.common.computer import Computer, Level, Roster

from .ranks import LADDER, LEVELS_BY_NAME
from .seat import NotYourTurn, read_seat

LEVELS = dict(LEVELS_BY_NAME)  # weakest first


def _read_setup(view: dict, seeded) -> tuple[None, random.Random]:
    """The Naval War Game's chart is the same for every seat: a fleet needs nothing of the
    view, and its source only the seed."""
    return None, seeded("disposition")


def _read_turn(view: dict, seeded) -> tuple[tuple, random.Random]:
    """The seat read off its view (``NotYourTurn`` out of its turn), and the source of its
    move: the seed, the seat and the number of reports."""
    seat = read_seat(view)
    return (seat, view), seeded(seat.you, len(view.get("reports", [])))


def _level(rank) -> Level:
    return Level(rank.description, move=lambda seen, rng: rank.move(*seen, rng),
                 disposition=lambda _seen, rng: rank.disposition(rng))


NAVAL_WAR_ROSTER = Roster({rank.name: _level(rank) for rank in LADDER},
                          read_setup=_read_setup, read_turn=_read_turn)
DESCRIPTIONS = NAVAL_WAR_ROSTER.descriptions  # as the home page offers them


class Bot(Computer):
    """A computer player of one of the ladder's levels; all its randomness comes from
    ``seed`` (``referee.common.computer``)."""

    ROSTER = NAVAL_WAR_ROSTER


__all__ = ["DESCRIPTIONS", "LEVELS", "NAVAL_WAR_ROSTER", "Bot", "NotYourTurn"]
