"""The computer opponent of Broadside: seven levels, weakest first, that play either side from
their seat's view alone (B12, B14).

``computer(level, seed, on_failure=None)`` gives the shared computer
(``referee.common.computer.Computer``) of these levels (``BROADSIDE_ROSTER``):
``disposition(view)``, a disposition document of B13 for the view's seat (Blue's with his
buoys and batteries, B4), and ``move(view)``, a move document taken from the view's ``legal``
list (B5), or a pass when that list is empty. It is handed nothing but the view document its
seat would get (a JSON copy); it never sees a ``Game`` and imports nothing that holds one: the
harbour comes from ``referee.broadside.board``, the one geometry module. Every choice is drawn
from a ``random.Random`` seeded from the computer's seed and the view (the game, the seat and
the number of reports), so the same view gets the same move, whoever asks and whenever.

- ``random``: a random legal move, a random legal disposition: the baseline.
- ``drifter``, ``dabbler``, ``novice``: sail at random, and fire at what is in reach one turn
  in five, one in two, every turn (``greedy``).
- ``bold``: what each move brings at once, hazards reckoned, and a pull toward its work; never
  the enemy's answer (``engine``).
- ``careful``: avoids unrevealed buoys and the red circles whose batteries it suspects, seeks
  crossed Ts and merchant ships, and keeps its ships from where the enemy can cross their T
  (``careful``); the stand-in for an absent player (R25).
- ``cunning``: weighs the enemy's best answer and its own reply to it; as Blue it holds the
  inner harbour, bows and sterns covered (``engine``).

The figures (how far apart the levels are, the balance between Red and Blue, think times)
are in docs/broadside-computer.md.

A level that fails (a bug, never a refusal of the rules) tells ``on_failure(level, failure)``
and plays a random legal move instead, so a game is never stuck on the computer.
"""

from __future__ import annotations

import random
from typing import Callable  # noqa: UP035 (the computer imports only what its tests allow)

from referee.common.computer import Computer as SharedComputer
from referee.common.computer import Level, Roster

from . import careful, dispositions, engine, greedy
from .sight import NotYourTurn, Sight, read_turn, seat_of

STAND_IN_LEVEL = "careful"  # the level that plays for an absent player (R25)


def random_move(legal: list[dict], rng: random.Random) -> dict:
    """A legal move drawn uniformly from the view's list; a pass when it is empty (B5)."""
    legal = [m for m in legal if not m.get("pass")]
    if not legal:
        return {"pass": True}
    chosen = rng.choice(legal)
    return {"ship": chosen["ship"], "turn": chosen.get("turn"), "to": chosen["to"]}


def _read_setup(view: dict, seeded) -> tuple[str, random.Random]:
    """The seat (its side, B3), and the source of its disposition."""
    seat = seat_of(view)
    return seat, seeded(view.get("id"), seat, "disposition")


def _read_turn(view: dict, seeded) -> tuple[Sight, random.Random]:
    """The sight at the seat's turn (``NotYourTurn`` out of it), and the source of its move:
    the game, the seat and the number of reports."""
    sight = read_turn(view)
    return sight, seeded(view.get("id"), seat_of(view), len(view.get("reports") or []))


BROADSIDE_ROSTER = Roster({
    "random": Level("Plays a random legal move each turn: the baseline.",
                    move=lambda sight, rng: random_move(sight.legal, rng),
                    disposition=dispositions.random_disposition),
    "drifter": Level("Sails at random, and fires at what is in reach one turn in five.",
                     move=greedy.drifter, disposition=dispositions.random_disposition),
    "dabbler": Level("Sails at random, and fires at what is in reach one turn in two.",
                     move=greedy.dabbler, disposition=dispositions.random_disposition),
    "novice": Level("Sails at random, but never lets a broadside or a merchant ship in reach "
                    "go by.",
                    move=greedy.novice, disposition=dispositions.random_disposition),
    "bold": Level("Fires what is in reach, reckons the rocks and batteries, and sails toward "
                  "its work, but never looks at the enemy's answer.",
                  move=engine.bold, disposition=dispositions.careful_disposition),
    "careful": Level("Avoids unrevealed buoys and suspect batteries, seeks crossed Ts and "
                     "merchant ships, and keeps out of reach of the enemy's broadsides.",
                     move=careful.move, disposition=dispositions.channel_disposition(0.5)),
    "cunning": Level("Weighs the enemy's best answer and its own reply to it; as Blue it "
                     "holds the inner harbour with its bows and sterns covered, and arms "
                     "the channel Red comes through.",
                     move=engine.cunning,
                     disposition=dispositions.channel_disposition(0.75)),
}, read_setup=_read_setup, read_turn=_read_turn)
LEVELS = BROADSIDE_ROSTER.descriptions


class Computer(SharedComputer):
    """A computer player of one of Broadside's levels; all its randomness comes from
    ``seed`` and the view (``referee.common.computer``)."""

    ROSTER = BROADSIDE_ROSTER


def computer(level: str, seed: int | str = 0,
             on_failure: Callable[[str, Exception], None] | None = None) -> Computer:
    """A computer player of ``level`` (one of ``LEVELS``) whose choices come from ``seed``."""
    return Computer(level, seed, on_failure)


__all__ = ["BROADSIDE_ROSTER", "LEVELS", "STAND_IN_LEVEL", "Computer", "NotYourTurn",
           "computer"]
