"""A game of Battleship: The Tactical Combat Game as an event log (T6-T9, T11).

As with the Naval War Game, the log is the only state: ``replay(events)`` builds a ``Game`` by
applying each event in turn, every command checks itself fully and then appends its events
through the same ``apply``, and a refused command raises ``RuleViolation`` and changes
nothing. The life every game shares (seats and names, the disposition and move clocks, the
lock-in fingerprint and salt, forfeit, new join codes, the computer standing in, agreeing to
end, playing on, resigning) is ``referee.common.lifecycle``; this module adds the mission card
(T2), the fleets (T3-T5), the shots (T7), the reports (T8) and the end (T9).

Events are plain JSON objects with a ``type``: ``created`` (rules, id, seats, card,
disposition_minutes, move_minutes, bots, at), ``toss`` (seed, order: T6, drawn at creation
from a server secret), ``joined``, ``disposition``, ``ready`` (seat, salt, fingerprint),
``clock``, ``forfeit``, ``reissued``, ``move`` (seat, move ``{"at": "D 3"}``, and
``stand_in: true`` for the computer's move for an absent player), ``stand_in``, ``end``,
``play_on``, ``resign``.

A game ends (``over``) when a player rescues his man (``"rescued"``, T9), resigns
(``"resigned"``), both agree (``"agreed"``, a draw) or a seat is forfeited before play
(``"forfeit"``, R10).

``outcome()`` is the shared ``Outcome`` (scores, winners, sides, reason), as in the Naval War
Game. Here a seat's score is the number of the opponent's boats it sank (0 to 5): it says how
close a game was, but it does not decide it; the winner is who rescued his man, or the one who
did not resign or was not forfeited; an agreed end is a draw (no winner) whatever the scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import get_args

from ..common.documents import Json
from ..common.lifecycle import (
    SHARED_EVENT_FIELDS,
    TWO_SEATS,
    Lifecycle,
    Submitted,
    created_event,
    refuse,
    toss_order,
    two_seat_options,
)
from ..common.outcome import Outcome
from .card import Card, card_from_json, read_card_option
from .catalogue import MOVE_KEYS, NAMES, RULES, SEATS
from .documents import EndReason
from .fleet import HOLE_RULE, check_disposition
from .holes import Hole, hole_name, parse_hole
from .problems import Problem, RuleViolation, problem

OPTIONS = ("card", "disposition_minutes", "move_minutes")  # what new_game reads
IGNORED_OPTIONS = TWO_SEATS  # the only values these may have here


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


@dataclass
class Game(Lifecycle):
    """Everything that follows from a game's events; build it with ``replay``. Beside the
    state every game has (``Lifecycle``), the mission card, the shots at each half and who
    rescued his man; ``over`` is rescued, agreed, resigned or forfeit."""

    END_RULE = "T9"
    END_REASONS = get_args(EndReason)
    TOSS_RULE = "T6"

    card: Card | None = None
    shots: dict[str, dict[Hole, int]] = field(default_factory=dict)  # half -> hole -> n
    rescuer: str | None = None  # T9: who rescued his man, and so won

    # -- facts derived from the state -------------------------------------------------

    def sunk_by(self, seat: str) -> list[str]:
        """The opponent's boats this seat has sunk, in the order they went down (T8)."""
        return [r["sunk"] for r in self.reports if r["by"] == seat and r["sunk"]]

    @property
    def the_card(self) -> Card:
        """The mission card, which every game has from its first event (T2)."""
        if self.card is None:
            raise ValueError("a game has its mission card from its first event (T2)")
        return self.card

    def outcome(self) -> Outcome | None:
        """Scores (boats sunk) and the winner once the game is over (T9)."""
        if not self.over:
            return None
        return self.one_a_side_outcome({s: len(self.sunk_by(s)) for s in self.seats},
                                      self.rescuer if self.over == "rescued" else None)

    def half_of(self, seat: str) -> frozenset[Hole]:
        """The island holes of a seat's half of the card (T2)."""
        return self.the_card.island_holes(seat)

    # -- commands -----------------------------------------------------------------------

    def submit(self, seat: str, disposition: object) -> Submitted:
        """Store a seat's draft disposition (T3-T5, T11); nothing is bought, so no cost."""
        self._check_setup(seat)
        fleet = check_disposition(disposition, self.the_card, seat)
        events = self._emit({"type": "disposition", "seat": seat,
                             "disposition": fleet.document})
        return Submitted(events, None, [])


    # -- applying events -------------------------------------------------------------------

    def _apply_created(self, event: Json) -> Json:
        if self.seats:
            raise refuse("R10", "This game has already been created")
        if event.get("rules") != RULES:
            raise refuse("T11", f"This log is not a game of {RULES}", field="rules")
        seats = event.get("seats")
        if seats != list(SEATS):
            raise refuse("T3", "Battleship: The Tactical Combat Game has two seats, red and "
                               "blue", field="seats")
        card = card_from_json(event.get("card"))
        self._read_created(event, seats)
        self.sides = tuple((s,) for s in seats)
        self.card = card
        self.shots = {s: {} for s in seats}
        return {**event, "card": card.to_json()}

    def _apply_disposition(self, event: Json) -> Json:
        seat = self._check_setup(event.get("seat"))
        fleet = check_disposition(event.get("disposition"), self.the_card, seat)
        self.fleets[seat] = fleet
        return {**event, "disposition": fleet.document}

    def _next_turn(self, after: str | None) -> str | None:
        """Players take turns (T7); the first is the one the toss put first (T6)."""
        return self.order[0] if after is None else other(after)

    def _apply_move(self, event: Json) -> Json:
        seat = self._check_seat(event.get("seat"))
        if self.phase == "over":
            raise refuse("T9", "The game is over: no more shots", kind="turn")
        if self.phase != "play":
            raise refuse("T7", "Shots are made only while the game is in play; it starts "
                               "when both players have locked in", kind="turn")
        if seat != self.turn:
            raise refuse("T7", f"It is {(self.turn or '').title()}'s turn, not {seat.title()}'s",
                         kind="turn")
        target = other(seat)
        hole = self._check_shot(seat, target, event.get("move"))
        stand_in = self._check_stand_in_flag(seat, event)
        fleet = self.fleets[target]
        self.shots[target][hole] = len(self.reports) + 1
        kind = fleet.at.get(hole)
        sunk = None
        if kind is not None:
            fleet.take_hit(hole)
            result = "hit"
            sunk = kind if fleet.sunk(kind) else None
        elif hole == fleet.man:  # only shot at once every boat is sunk (T7)
            fleet.rescued = True
            result = "rescued"
        else:
            result = "miss"
        self.reports.append({"n": len(self.reports) + 1, "by": seat, "target": target,
                             "at": [hole_name(hole)], "result": result, "sunk": sunk,
                             **({"stand_in": True} if stand_in else {})})
        if not stand_in:  # the player moved himself: his seat is his again (R25)
            self.stand_ins.discard(seat)
        self.agreed.clear()
        if result == "rescued":  # T9: he wins at once
            self.over, self.rescuer, self.turn = "rescued", seat, None
        else:
            self.turn = self._next_turn(after=seat)
        return {**event, "move": {"at": hole_name(hole)}}

    def _check_shot(self, seat: str, target: str, move: object) -> Hole:
        """A shot's hole, or every problem with it (T1, T7, T11)."""
        if not isinstance(move, dict):
            raise refuse("T11", "A move is an object: {\"at\": \"D 3\"}")
        found: list[Problem] = [
            problem("T11", f"{str(key)[:40]!r} is not part of a move; it has 'at' (and "
                           "optionally 'target')", field=str(key)[:40])
            for key in move if key not in MOVE_KEYS]
        if "target" in move and move["target"] != target:
            found.append(problem("T11", f"'target' can only be {target}, the one opponent",
                                 field="target"))
        at = move.get("at")
        if isinstance(at, list) and len(at) == 1:
            at = at[0]
        hole = parse_hole(at)
        if hole is None:
            found.append(problem("T1", f"'at' {HOLE_RULE}", field="at"))
            raise RuleViolation(found)
        fleet = self.fleets[target]
        name = hole_name(hole)
        if hole in self.shots[target]:
            found.append(problem("T7", f"{name} has been shot at already; no hole is shot "
                                       "twice", [hole], field="at"))
        elif fleet.afloat() and hole in self.half_of(target):
            found.append(problem("T7", f"{name} is an island: while any of {target.title()}'s "
                                       "boats is afloat, shots go at sea holes", [hole],
                                 field="at"))
        elif not fleet.afloat() and hole not in self.half_of(target):
            found.append(problem("T7", f"{name} is sea: every one of {target.title()}'s "
                                       "boats is sunk, so shots go at island holes, where "
                                       "the Captured Man is", [hole], field="at"))
        if found:
            raise RuleViolation(found)
        return hole


Game.APPLY = Game.apply_table(created=Game._apply_created,
                              disposition=Game._apply_disposition,
                              move=Game._apply_move)
# each event's fields (the module's text): the log keeps those and nothing else
Game.EVENT_FIELDS = {**SHARED_EVENT_FIELDS, "created": (
    "rules", "id", "seats", "card", "disposition_minutes", "move_minutes", "bots", "at")}


def new_game(*, id: str = "", seed: int, at: float = 0.0, options: Json | None = None,
             bots: Json | None = None) -> tuple[Game, list[Json]]:
    """Create a game and toss for the first move at once (T6); returns the game and its
    first two events. ``seed`` comes from the server's secret random source; ``options`` are
    the API's (``card``, ``disposition_minutes``, ``move_minutes``)."""
    options = two_seat_options(options, OPTIONS, rule="T11", seats_rule="T3",
                               shape="two players, one fleet each")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise refuse("T6", "The toss needs a whole-number seed", field="seed")
    card = read_card_option(options.get("card"))
    game = Game()
    seats = list(SEATS)
    events = game._emit(created_event(RULES, id, seats, options, bots, at, card=card.to_json()))
    events += game._emit({"type": "toss", "seed": seed, "order": toss_order(seats, seed)})
    return game, events


replay = Game.replay  # the state of a game is its events applied in order (``Lifecycle``)


__all__ = ["Game", "NAMES", "new_game", "other", "replay"]
