"""Hidden Number as an event log (H1-H4): the shared ``Lifecycle`` with the game's own events.

Events: ``created`` (rules, id, seats, disposition_minutes, move_minutes, bots, at), ``toss``
(drawn at creation, H2), the shared ones, ``disposition`` (seat, ``{"number": n}``) and
``move`` (seat, ``{"guess": n}``, and ``stand_in: true`` for the computer's move for an absent
player). The score is 1 for the seat that guessed right, 0 otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.common.lifecycle import (
    DEFAULT_MINUTES,
    SHARED_EVENT_FIELDS,
    Lifecycle,
    Submitted,
    refuse,
    toss_order,
)
from referee.common.outcome import SHARED_ENDS, Outcome

from .catalogue import NUMBERS, RULES, SEATS, TITLE

OPTIONS = ("disposition_minutes", "move_minutes")


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


def read_number(document: object, key: str) -> int:
    """The number a disposition or a guess names (H1), or its refusal naming the field."""
    if not isinstance(document, dict) or set(document) != {key}:
        raise refuse("H1", f"This is an object with one field, {key!r}: {{{key!r}: 7}}",
                     field=key)
    number = document[key]
    if isinstance(number, bool) or not isinstance(number, int) or number not in NUMBERS:
        raise refuse("H1", f"'{key}' is a whole number from 1 to 9", field=key)
    return number


@dataclass
class Hidden:
    """A seat's hidden number, as the log keeps it."""
    number: int

    @property
    def document(self) -> dict:
        return {"number": self.number}


def answer(guess: int, hidden: int) -> str:
    """H4's answer to a guess.

    >>> answer(3, 7), answer(8, 7), answer(7, 7)
    ('higher', 'lower', 'right')
    """
    return "right" if guess == hidden else "higher" if hidden > guess else "lower"


@dataclass
class Game(Lifecycle):
    END_RULE = "H4"
    TOSS_RULE = "H2"
    END_REASONS = (*SHARED_ENDS, "guessed")

    winner: str | None = None
    guessed: dict[str, list[int]] = field(default_factory=dict)

    def outcome(self) -> Outcome | None:
        if not self.over:
            return None
        return self.one_a_side_outcome({s: int(s == self.winner) for s in self.seats},
                                       self.winner if self.over == "guessed" else None)

    def submit(self, seat: str, disposition: object) -> Submitted:
        self._check_setup(seat)
        read_number(disposition, "number")
        return Submitted(self._emit({"type": "disposition", "seat": seat,
                                     "disposition": disposition}), None, [])

    def _next_turn(self, after: str | None) -> str | None:
        return self.order[0] if after is None else other(after)

    def _apply_created(self, event: dict) -> dict:
        if self.seats:
            raise refuse("H2", "This game has already been created")
        if event.get("rules") != RULES or event.get("seats") != list(SEATS):
            raise refuse("H2", f"This log is not a game of {TITLE} for Red and Blue",
                         field="rules")
        self._read_created(event, list(SEATS))
        self.sides = tuple((s,) for s in SEATS)
        self.guessed = {s: [] for s in SEATS}
        return event

    def _apply_disposition(self, event: dict) -> dict:
        seat = self._check_setup(event.get("seat"))
        self.fleets[seat] = Hidden(read_number(event.get("disposition"), "number"))
        return {**event, "disposition": self.fleets[seat].document}

    def _apply_move(self, event: dict) -> dict:
        seat = self._check_seat(event.get("seat"))
        if self.phase != "play":
            raise refuse("H2", "Guesses are made while the game is in play", kind="turn")
        if seat != self.turn:
            raise refuse("H2", f"It is {self.turn.title()}'s turn to guess", kind="turn")
        guess = read_number(event.get("move"), "guess")
        if guess in self.guessed[seat]:
            raise refuse("H3", f"{seat.title()} has guessed {guess} already", field="guess")
        stand_in = self._check_stand_in_flag(seat, event)
        said = answer(guess, self.fleets[other(seat)].number)
        self.guessed[seat].append(guess)
        self.reports.append({"n": len(self.reports) + 1, "by": seat, "target": other(seat),
                             "guess": guess, "answer": said,
                             **({"stand_in": True} if stand_in else {})})
        if not stand_in:
            self.stand_ins.discard(seat)
        self.agreed.clear()
        if said == "right":
            self.over, self.winner, self.turn = "guessed", seat, None
        else:
            self.turn = self._next_turn(after=seat)
        return {**event, "move": {"guess": guess}}


Game.APPLY = Game.apply_table(created=Game._apply_created,
                              disposition=Game._apply_disposition, move=Game._apply_move)
Game.EVENT_FIELDS = {**SHARED_EVENT_FIELDS, "created": (
    "rules", "id", "seats", "disposition_minutes", "move_minutes", "bots", "at")}


def new_game(*, id: str = "", seed: int, at: float = 0.0, options: dict | None = None,
             bots: dict | None = None) -> tuple[Game, list[dict]]:
    """A new game and its toss (H2) from the API's options."""
    options = options or {}
    unknown = [key for key in options if key not in OPTIONS]
    if unknown:
        raise refuse("H2", f"{str(unknown[0])[:40]!r} is not an option of {TITLE}",
                     field=str(unknown[0])[:40])
    game = Game()
    events = game._emit({"type": "created", "rules": RULES, "id": id, "seats": list(SEATS),
                         "disposition_minutes": options.get("disposition_minutes",
                                                            DEFAULT_MINUTES),
                         "move_minutes": options.get("move_minutes"),
                         "bots": dict(bots or {}), "at": at})
    events += game._emit({"type": "toss", "seed": seed, "order": toss_order(SEATS, seed)})
    return game, events
