"""The computer opponent of Battleship: The Tactical Combat Game: six levels, weakest first,
that play from their seat's view alone (T10, T12).

>>> bot = computer("admiral", seed=7)
>>> view = {"id": "g", "you": "red", "phase": "play", "turn": "red", "order": ["red", "blue"],
...         "islands": {"red": ["A 1", "A 2"], "blue": ["O 9", "O 10"]}, "reports": []}
>>> bot.move(view) == bot.move(view)
True
>>> sorted(bot.disposition(view))
['boats', 'man']

``computer(level, seed, on_failure=None)`` gives the shared computer
(``referee.common.computer.Computer``) of these levels (``TCG_ROSTER``): ``disposition(view)``, a
disposition document of T11 for the seat's own half, and ``move(view)``, a move document legal
for that view (T7). It is handed nothing but the view document its seat would get (a JSON
copy); it never sees a ``Game`` and imports nothing that holds one. Every choice is drawn from a
``random.Random`` seeded from the computer's seed and the view (the game, the seat and the
number of reports), so the same view gets the same move, whoever asks and whenever.

- ``recruit``: a random legal fleet and random legal shots: the baseline.
- ``cadet``: guesses; after a hit tries next to it, and gives it up after two misses there.
- ``midshipman``: guesses; works round its latest hit until the boat sinks or the holes round
  it are all shot.
- ``lieutenant``: guesses; shoots next to every hit no sink has accounted for.
- ``captain``: hunt on a pattern of the honeycomb, then target along the lines through hits.
- ``admiral``: the density of every placement consistent with the reports.

The levels below the captain are ``followers``; each is a step a beginner takes, measured
(``referee ladder --rules battleship-tcg``) to beat the one below in 60-85% of games.

A level that fails (a bug, never a refusal of the rules) tells ``on_failure(level, failure)``
and plays a recruit's shot instead, so a game is never stuck on the computer.
"""

from __future__ import annotations

import random
from typing import Callable, NamedTuple  # noqa: UP035 (only what its tests allow)

from referee.common.computer import Computer as SharedComputer
from referee.common.computer import Level, Roster

from . import admiral, captain, followers, recruit
from .sight import NotYourTurn, Sight, read_holes, read_turn


class Turn(NamedTuple):
    """What a level reads at its turn: its sight of the view, and the captain's pattern of the
    honeycomb (one of three, drawn once a game and seat)."""
    sight: Sight
    pattern: int


def _read_setup(view: dict, seeded) -> tuple[int, random.Random]:
    """The seat's own island holes (T2, as a mask), and the source of its disposition."""
    islands = view.get("islands") or {}
    you = view.get("you")
    if you not in islands:
        raise ValueError("the view holds no islands for its own seat (T12)")
    return read_holes(islands[you]), seeded(view.get("id"), you, "disposition",
                                            ",".join(sorted(islands[you])))


def _read_turn(view: dict, seeded) -> tuple[Turn, random.Random]:
    """The sight at the seat's turn (``NotYourTurn`` out of it), and the source of its shot:
    the game, the seat and the number of reports."""
    sight = read_turn(view)
    key = (view.get("id"), view.get("you"))
    return (Turn(sight, seeded(*key, "pattern").randrange(3)),
            seeded(*key, len(view.get("reports") or [])))


TCG_ROSTER = Roster({
    "recruit": Level("Random legal shots: the baseline.",
                     move=lambda turn, rng: recruit.move(turn.sight, rng),
                     disposition=recruit.disposition),
    "cadet": Level("Guesses; after a hit tries the holes next to it, and gives it up after two "
                   "misses there.",
                   move=lambda turn, rng: followers.cadet(turn.sight, rng)),
    "midshipman": Level("Guesses; after a hit works round it until the boat sinks or every "
                        "hole next to it is shot.",
                        move=lambda turn, rng: followers.midshipman(turn.sight, rng)),
    "lieutenant": Level("Guesses; shoots next to every hit no sinking has yet accounted for.",
                        move=lambda turn, rng: followers.lieutenant(turn.sight, rng)),
    "captain": Level("Hunts on a pattern of the honeycomb, then follows hits along their lines.",
                     move=lambda turn, rng: captain.move(turn.sight, rng, turn.pattern)),
    "admiral": Level("Shoots where the most placements consistent with its reports put a boat.",
                     move=lambda turn, rng: admiral.move(turn.sight, rng),
                     disposition=admiral.disposition),
}, read_setup=_read_setup, read_turn=_read_turn)
LEVELS = TCG_ROSTER.descriptions


class Computer(SharedComputer):
    """A computer player of one of the TCG's levels; all its randomness comes from ``seed``
    and the view (``referee.common.computer``)."""

    ROSTER = TCG_ROSTER


def computer(level: str, seed: int | str = 0,
             on_failure: Callable[[str, Exception], None] | None = None) -> Computer:
    """A computer player of ``level`` (one of ``LEVELS``) whose choices come from ``seed``."""
    return Computer(level, seed, on_failure)


__all__ = ["LEVELS", "TCG_ROSTER", "Computer", "NotYourTurn", "computer"]
