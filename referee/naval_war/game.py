"""A game of the Naval War Game as an event log (R10-R14, R22, R23).

The log is the only state: ``replay(events)`` builds a ``Game`` by applying each event in
turn, and every command (``join``, ``submit``, ``ready``, ``move`` ...) checks itself fully,
then appends its events through the same ``apply``. A refused command raises
``RuleViolation`` and changes nothing. The toss for the order of play (R11) is drawn when
the game is created, before anyone lays out his forces, from a seed the server draws from its
secret random source; the seed and the order it gave are the log's second event, and nothing
redraws them. Play starts when every seat still in the game has locked in (R10); a forfeited
seat keeps its place in the order and is passed over (R14).

Events are plain JSON objects with a ``type``:
``created`` (id, seats, alliances, disposition_minutes, move_minutes, bots, at), ``toss``
(seed, order), ``joined`` (seat, name), ``disposition`` (seat, disposition), ``ready`` (seat,
salt, fingerprint), ``clock`` (minutes), ``forfeit`` (seat, at), ``reissued`` (seat),
``move`` (seat, move, and ``stand_in: true`` for a move the computer made for an absent
player, R25), ``stand_in`` (seat, by), ``stand_in_level`` (level: the host's choice of the
computer that stands in, R25), ``end`` (seat), ``play_on`` (seat), ``resign`` (seat).

``alliances`` names the sides (R23): false (each seat alone), true (red with green against
blue with gold) or a list of sides, each a list of seats.

Logs written before R11 was amended toss after the last lock-in, over the seats still in the
game; they still replay, and such a toss starts play at once.

The move clock (R25) needs times the log does not hold: the core keeps ``turn_began``, the
number of the event that began the current turn, and the server reads that event's time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args

from ..common.documents import Json, ResultDocument

# the life every rule set's game shares; fingerprint, check_name and toss_order re-exported
from ..common.lifecycle import (  # noqa: F401
    Lifecycle,
    Submitted,
    check_name,
    fingerprint,
    toss_order,
)
from ..common.outcome import Outcome
from .catalogue import AIRCRAFT_TYPES, DEFAULT_MINUTES, NAMES, SHOTS, WEAPONS
from .combat import strike
from .documents import EVENTS, EndReason, Move
from .fleet import Fleet, a_or_an, check_disposition
from .problems import Problem, RuleViolation, problem, refuse
from .squares import NotationError, Square, parse_square, square_name

SEATS = ("red", "blue", "green", "gold")
ALLIANCES = (("red", "green"), ("blue", "gold"))  # R23 option, as API.md pairs them
MOVE_KEYS = ("weapon", "from", "at", "target")


def result_document(game: Game) -> ResultDocument | None:
    """A game's result as the documents carry it: null until the game is over."""
    return game.result_document()


@dataclass
class Game(Lifecycle):
    """Everything that follows from a game's events; build it with ``replay``. Beside the
    state every game has (``Lifecycle``), the sides as the host gave them; ``over`` is
    exhausted, agreed, resigned or forfeit."""

    END_REASONS = get_args(EndReason)

    alliances: bool | list[Any] = False  # as the host gave it; ``sides`` is what it means

    # -- facts derived from the state -------------------------------------------------

    def can_attack(self, seat: str) -> bool:
        return seat in self.fleets and self.fleets[seat].has_offensive_forces()

    def outcome(self) -> Outcome | None:
        """Scores and winners once the game is over (R14, R22, R23): the side with the most
        points among those that neither resigned nor were forfeited whole; none on a tie."""
        if not self.over:
            return None
        scores = {s: self.fleets[s].score() if s in self.fleets and s not in self.forfeited
                  else 0 for s in self.seats}
        sides = list(self.sides)
        contenders = [m for m in sides
                      if self.resigned not in m and any(s not in self.forfeited for s in m)]
        totals = {m: sum(scores[s] for s in m) for m in sides}
        best = max((totals[m] for m in contenders), default=None)
        top = [m for m in contenders if totals[m] == best]
        return Outcome.of(scores, top[0] if len(top) == 1 else (), sides, self.over,
                          self.END_REASONS)

    # -- commands: check, then append events ---------------------------------------------

    def submit(self, seat: str, disposition: object) -> Submitted:
        """Store a seat's draft disposition; returns the events, its cost and warnings."""
        self._check_setup(seat)
        checked = check_disposition(disposition)
        events = self._emit({"type": "disposition", "seat": seat,
                             "disposition": checked.fleet.document})
        return Submitted(events, checked.cost.to_json(), checked.warnings)


    # -- applying events -------------------------------------------------------------------

    def _apply_created(self, event: Json) -> None:
        if self.seats:
            raise refuse("R10", "This game has already been created")
        seats = event.get("seats")
        if not isinstance(seats, list) or list(seats) != list(SEATS[:len(seats)]) \
                or not 2 <= len(seats) <= 4:
            raise refuse("R23", "A game has 2 to 4 seats: red, blue, then green and gold",
                         field="seats")
        alliances = event.get("alliances", False)
        sides = read_sides(alliances, seats)
        self._read_created(event, seats)
        self.alliances, self.sides = alliances, sides

    def _apply_disposition(self, event: Json) -> Json:
        seat = self._check_setup(event.get("seat"))
        fleet = check_disposition(event.get("disposition")).fleet
        self.fleets[seat] = fleet
        return {**event, "disposition": fleet.document}

    def _next_turn(self, after: str | None) -> str | None:
        """The next seat in the order with offensive forces left; others are passed over
        (R14). With none left the game is over."""
        start = self.order.index(after) + 1 if after else 0
        for k in range(len(self.order)):
            seat = self.order[(start + k) % len(self.order)]
            if self.can_attack(seat):
                return seat
        self.over = "exhausted"
        return None

    def _apply_move(self, event: Json) -> Json:
        seat = self._check_seat(event.get("seat"))
        if self.phase != "play":
            raise refuse("R14", "Moves are made only while the game is in play", kind="turn")
        if seat != self.turn:
            raise refuse("R14", f"It is {self.turn}'s turn, not {seat}'s", kind="turn")
        move = self._check_move(seat, event.get("move"))
        mover = self.fleets[seat]
        squares = [parse_square(s) for s in move["at"]]
        if move["weapon"] == "salvo":
            mover.salvoes_fired += 1
        else:
            mover.aircraft[mover.aircraft_at[parse_square(move["from"])]].flown = True
            mover.damage_changed()
        stand_in = self._check_stand_in_flag(seat, event)
        effects = strike(self.fleets[move["target"]], move["weapon"], squares)
        self.reports.append({
            "n": len(self.reports) + 1, "by": seat, "target": move["target"],
            "weapon": move["weapon"], "at": move["at"], "from": move.get("from"),
            **effects, **({"stand_in": True} if stand_in else {}),
        })
        if not stand_in:  # the player moved himself: his seat is his again (R25)
            self.stand_ins.discard(seat)
        self.agreed.clear()
        self.turn = self._next_turn(after=seat)
        return {**event, "move": move}

    def _content_move(self, move: Json, label: dict[str, int]) -> Json:
        """A move as the game's content gives it: its target by its place in the order."""
        return {**move, "target": label[move["target"]]}

    def _check_move(self, seat: str, move: object) -> Move:
        """Every problem with a move (R12, R13, R23), or its normal form."""
        if not isinstance(move, dict):
            raise refuse("R12", "A move is an object with weapon, from, at and target")
        found: list[Problem] = [
            problem("R12", f"{key!r} is not part of a move; it has "
                           f"{', '.join(MOVE_KEYS)}", field=key)
            for key in move if key not in MOVE_KEYS
        ]
        weapon = move.get("weapon")
        if weapon not in WEAPONS:
            found.append(problem("R12", f"{weapon!r} is not a weapon; a move dispatches an "
                                        "atom-bomber, bomber or recon, or fires a salvo",
                                 field="weapon"))
        target = self._check_target(seat, move.get("target"), found)
        at = _read_targets(move.get("at"), weapon, found)
        fleet = self.fleets[seat]
        base: str | None = None
        if weapon == "salvo":
            if move.get("from") is not None:
                found.append(problem("R5", "A salvo is not fired from a square; leave out "
                                           "'from'", field="from"))
            if fleet.salvoes_left <= 0:
                found.append(problem("R13", "You have no salvo left to fire"))
        elif weapon in AIRCRAFT_TYPES:
            base = _check_aircraft(fleet, weapon, move.get("from"), found)
        if found or not isinstance(weapon, str) or target is None:
            raise RuleViolation(found)
        normal: Move = {"weapon": weapon, "at": at, "target": target}
        if base is not None:
            normal["from"] = base
        return normal

    def _check_target(self, seat: str, target: object, found: list[Problem]) -> str | None:
        opponents = self.opponents(seat)
        if target is None and len(opponents) == 1:
            return opponents[0]
        if target is None:
            found.append(problem("R23", "Name the opponent whose chart you attack: "
                                        f"{' or '.join(opponents)}", field="target"))
        elif target not in opponents:
            if target == seat:
                why = "you cannot attack your own chart"
            elif target in self.seats and self.allied(seat, target):
                why = "allies cannot attack each other"
            elif target in self.seats:
                why = f"{target} was forfeited and has no chart (R10)"
            else:
                why = f"{target!r} is not a seat of this game"
            found.append(problem("R23", f"Target {target!r}: {why}; attack "
                                        f"{' or '.join(opponents)}", field="target"))
        else:
            return target
        return None


SIDES_RULE = ("'alliances' is false (every seat for itself), true (four seats: red and green "
              "against blue and gold) or a list of sides, each a list of seats, every seat in "
              "exactly one side, at least two sides")


def read_sides(alliances: object, seats: list[str]) -> tuple[tuple[str, ...], ...]:
    """The sides (R23) that a game's ``alliances`` names, in seat order.

    >>> read_sides(False, ["red", "blue", "green"])
    (('red',), ('blue',), ('green',))
    >>> read_sides([["blue"], ["green", "red"]], ["red", "blue", "green"])
    (('red', 'green'), ('blue',))
    """
    if alliances is False:
        return tuple((seat,) for seat in seats)
    if alliances is True:
        if len(seats) != 4:
            raise refuse("R23", "'alliances': true pairs red with green and blue with gold, "
                                "so it needs exactly 4 seats; name the sides as a list of "
                                "seats for another shape", field="alliances")
        return ALLIANCES
    if not isinstance(alliances, list) or len(alliances) > len(SEATS) or any(
            not isinstance(side, list) or not side
            or any(not isinstance(seat, str) for seat in side) for side in alliances):
        raise refuse("R23", SIDES_RULE, field="alliances")
    named = [seat for side in alliances for seat in side]
    if sorted(named) != sorted(seats) or len(alliances) < 2:
        raise refuse("R23", f"{SIDES_RULE}; this game's seats are {', '.join(seats)}",
                     field="alliances")
    members = [tuple(sorted(side, key=seats.index)) for side in alliances]
    return tuple(sorted(members, key=lambda side: seats.index(side[0])))


def _read_targets(at: object, weapon: object, found: list[Problem]) -> list[str]:
    """The target squares of a move: one for an aircraft, three different ones for a salvo."""
    wanted = SHOTS.get(weapon, 1) if isinstance(weapon, str) else 1
    if isinstance(at, str) and wanted == 1:
        at = [at]
    if not isinstance(at, list) or len(at) != wanted:
        found.append(problem("R12", f"'at' names {'three squares' if wanted == 3 else 'one square'}"
                                    f" for {'a salvo' if wanted > 1 else 'an aircraft'}",
                             field="at"))
        return []
    squares: list[Square] = []
    for i, text in enumerate(at):
        try:
            squares.append(parse_square(text))
        except NotationError as err:
            found.append(problem("R1", f"at[{i}]: {err.text!r} is not a square: {err.reason}",
                                 field=f"at[{i}]"))
    if len(squares) == wanted and len(set(squares)) < wanted:
        found.append(problem("R12", "A salvo's three shots go to three different squares",
                             squares, field="at"))
    return [square_name(s) for s in squares]


def _check_aircraft(fleet: Fleet, weapon: str, where: object, found: list[Problem]
                    ) -> str | None:
    """R13: the aircraft named by its square is yours, of that type, and can still fly."""
    try:
        square = parse_square(where)
    except NotationError as err:
        found.append(problem("R1", f"'from' names the square your aircraft stands on: "
                                   f"{err.text!r} is not a square: {err.reason}", field="from"))
        return None
    index = fleet.aircraft_at.get(square)
    name = f"{NAMES[weapon]} at {square_name(square)}"
    if index is None:
        found.append(problem("R13", f"You have no {name}", [square], field="from"))
        return None
    plane = fleet.aircraft[index]
    if plane.type != weapon:
        found.append(problem("R13", f"The aircraft at {square_name(square)} is "
                                    f"{a_or_an(NAMES[plane.type])}, not "
                                    f"{a_or_an(NAMES[weapon])}", [square], field="from"))
    elif plane.destroyed:
        found.append(problem("R13", f"Your {name} has been destroyed", [square], field="from"))
    elif plane.flown:
        found.append(problem("R13", f"Your {name} has already flown; each aircraft flies once",
                             [square], field="from"))
    return square_name(square)


Game.APPLY = Game.apply_table(created=Game._apply_created,
                              disposition=Game._apply_disposition,
                              move=Game._apply_move)
# each event's fields, as documents.py types them (the log keeps those and nothing else)
Game.EVENT_FIELDS = {kind: tuple(key for key in typed.__annotations__ if key != "type")
                     for kind, typed in EVENTS.items()}


def new_game(*, seed: int, id: str = "", seats: int = 2, alliances: bool | list[Any] = False,
             disposition_minutes: int = DEFAULT_MINUTES, bots: Json | None = None,
             at: float = 0.0, move_minutes: int | None = None) -> tuple[Game, list[Json]]:
    """Create a game and toss for the order of play at once (R11); returns the game and its
    first two events. ``seed`` comes from the server's secret random source."""
    if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 4:
        raise refuse("R23", "A game has 2 to 4 seats", field="seats")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise refuse("R11", "The toss needs a whole-number seed", field="seed")
    game = Game()
    seat_names = list(SEATS[:seats])
    events = game._emit({"type": "created", "id": id, "seats": seat_names,
                         "alliances": alliances, "disposition_minutes": disposition_minutes,
                         "move_minutes": move_minutes, "bots": dict(bots or {}), "at": at})
    events += game._emit({"type": "toss", "seed": seed, "order": toss_order(seat_names, seed)})
    return game, events


replay = Game.replay  # the state of a game is its events applied in order (``Lifecycle``)
