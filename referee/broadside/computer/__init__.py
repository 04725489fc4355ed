"""The computer opponent of Broadside: two levels that play either side from their seat's view
alone (B12, B14).

``computer(level, seed, on_failure=None)`` gives an object with ``disposition(view)``, a
disposition document of B13 for the view's seat (Blue's with his buoys and batteries, B4), and
``move(view)``, a move document taken from the view's ``legal`` list (B5), or a pass when that
list is empty. It is handed nothing but the view document its seat would get (a JSON copy); it
never sees a ``Game`` and imports nothing that holds one: the harbour comes from
``referee.broadside.board``, the one geometry module. Every choice is drawn from a
``random.Random`` seeded from the computer's seed and the view (the game, the seat and the
number of reports), so the same view gets the same move, whoever asks and whenever.

- ``random``: a random legal move, a random legal disposition: the baseline.
- ``careful``: avoids unrevealed buoys and the red circles whose batteries it suspects, seeks
  crossed Ts and merchant ships, and keeps its ships from where the enemy can cross their T
  (see ``careful``).

A level that fails (a bug, never a refusal of the rules) tells ``on_failure(level, failure)``
and plays a random legal move instead, so a game is never stuck on the computer.
"""

from __future__ import annotations

import random
from typing import Callable  # noqa: UP035 (the computer imports only what its tests allow)

from . import careful, dispositions
from .sight import NotYourTurn, read_turn, seat_of

LEVELS = {
    "random": "A random legal move each turn: the baseline.",
    "careful": "Avoids unrevealed buoys and suspect batteries, seeks crossed Ts and merchant "
               "ships, and keeps out of reach of the enemy's broadsides.",
}
STAND_IN_LEVEL = "careful"  # the level that plays for an absent player (R25)


class Computer:
    """A computer player of one level; all its randomness comes from ``seed`` and the view."""

    def __init__(self, level: str, seed: int | str = 0,
                 on_failure: Callable[[str, Exception], None] | None = None, *,
                 strict: bool = False) -> None:
        if level not in LEVELS:
            raise ValueError(f"{level!r} is not a level; the levels are {', '.join(LEVELS)}")
        self.level = level
        self.seed = seed
        # told (level, the failure) when a level fails and a random move is played instead:
        # the server logs it; no message, which might name a secret (B12)
        self.on_failure = on_failure
        self.strict = strict  # raise a level's own failure instead (the tests and the bench)

    def __repr__(self) -> str:
        return f"computer({self.level!r}, seed={self.seed!r})"

    def _rng(self, view: dict, *what: object) -> random.Random:
        return random.Random(":".join(str(x) for x in (self.seed, view.get("id"),
                                                        seat_of(view), *what)))

    def disposition(self, view: dict) -> dict:
        """A disposition document (B13) for the view's seat, legal by B3 and B4."""
        seat = seat_of(view)
        rng = self._rng(view, "disposition")
        if self.level == "careful":
            try:
                return dispositions.careful_disposition(seat, rng)
            except Exception as failure:
                self._failed(failure)
        return dispositions.random_disposition(seat, rng)

    def move(self, view: dict) -> dict:
        """A move document (B13) legal for the seat whose view this is, at its turn (B5):
        one of the view's legal moves, or a pass when there is none."""
        sight = read_turn(view)
        rng = self._rng(view, len(view.get("reports") or []))
        if self.level == "careful":
            try:
                return careful.move(sight, rng)
            except Exception as failure:
                self._failed(failure)
        return random_move(sight.legal, rng)

    def _failed(self, failure: Exception) -> None:
        if self.strict:
            raise failure
        if self.on_failure is not None:
            self.on_failure(self.level, failure)


def random_move(legal: list[dict], rng: random.Random) -> dict:
    """A legal move drawn uniformly from the view's list; a pass when it is empty (B5)."""
    legal = [m for m in legal if not m.get("pass")]
    if not legal:
        return {"pass": True}
    chosen = rng.choice(legal)
    return {"ship": chosen["ship"], "turn": chosen.get("turn"), "to": chosen["to"]}


def computer(level: str, seed: int | str = 0,
             on_failure: Callable[[str, Exception], None] | None = None) -> Computer:
    """A computer player of ``level`` (one of ``LEVELS``) whose choices come from ``seed``."""
    return Computer(level, seed, on_failure)


__all__ = ["LEVELS", "STAND_IN_LEVEL", "Computer", "NotYourTurn", "computer"]
