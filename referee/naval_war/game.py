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
player, R25), ``stand_in`` (seat, by), ``end`` (seat), ``play_on`` (seat), ``resign`` (seat).

``alliances`` names the sides (R23): false (each seat alone), true (red with green against
blue with gold) or a list of sides, each a list of seats.

Logs written before R11 was amended toss after the last lock-in, over the seats still in the
game; they still replay, and such a toss starts play at once.

The move clock (R25) needs times the log does not hold: the core keeps ``turn_began``, the
number of the event that began the current turn, and the server reads that event's time.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from .catalogue import DEFAULT_MINUTES, MAX_MINUTES, MAX_NAME, SHOTS  # R10, R25; re-exported
from .combat import strike
from .documents import CostDocument, Event, Move, Report, ResultDocument
from .fleet import AIRCRAFT_TYPES, NAMES, WEAPONS, Fleet, a_or_an, check_disposition
from .problems import Problem, RuleViolation, problem, refuse
from .squares import NotationError, Square, parse_square, square_name

SEATS = ("red", "blue", "green", "gold")
ALLIANCES = (("red", "green"), ("blue", "gold"))  # R23 option, as API.md pairs them
MAX_TIME = 253402300799  # the last second of the year 9999: any real clock reads less
# characters a name may not hold: control and format characters (zero-width joiners and
# spaces, the byte-order mark, bidi overrides), surrogates, private and unassigned code
# points, line and paragraph separators, and fillers that print as nothing
INVISIBLE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
BLANK_FILLERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e", "\u034f"}
MAX_MARKS = 3  # combining marks on one letter: enough for any script, not for a tower of them
MOVE_KEYS = ("weapon", "from", "at", "target")


def fingerprint(disposition: dict, salt: str) -> str:
    """SHA-256 of the salt, a newline and the disposition's canonical JSON (UTF-8): shown to
    every player at lock-in, checkable by anyone once the salt is revealed at the end.

    >>> fingerprint({"salvoes": 1}, "ab")[:16]
    '71b22f090a87ebf0'
    """
    canonical = json.dumps(disposition, sort_keys=True, separators=(",", ":"),
                           ensure_ascii=True)
    return hashlib.sha256(f"{salt}\n{canonical}".encode()).hexdigest()


def check_name(name: object, field: str = "name") -> str:
    """The one rule for every name a seat is given (R10), on every path: joining through
    the API or the pages, an imported game file, a computer's level. The name in NFC form,
    trimmed; refused if empty, longer than MAX_NAME characters, or holding '<', '>' or a
    control or invisible character, since a name is printed on every phone and in PDFs.

    >>> check_name("  Ade\u0301le ")
    'Ad\xe9le'
    """
    subject = "A player's name" if field == "name" else f"A computer's name ({field})"
    if not isinstance(name, str):
        raise refuse("R10", f"{subject} is text of 1 to {MAX_NAME} characters", field=field)
    normal = unicodedata.normalize("NFC", name).strip()
    if not normal or len(normal) > MAX_NAME:
        raise refuse("R10", f"{subject} is 1 to {MAX_NAME} characters; this one has "
                            f"{len(normal)}", field=field)
    if "<" in normal or ">" in normal:
        raise refuse("R10", f"{subject} may not hold '<' or '>'", field=field)
    hidden = next((c for c in normal if unicodedata.category(c) in INVISIBLE_CATEGORIES
                   or c in BLANK_FILLERS), None)
    if hidden is not None:
        raise refuse("R10", f"{subject} may not hold control or invisible characters "
                            f"(U+{ord(hidden):04X})", field=field)
    marks = 0
    for c in normal:
        marks = marks + 1 if unicodedata.combining(c) or unicodedata.category(c) == "Me" else 0
        if marks > MAX_MARKS:
            raise refuse("R10", f"{subject} may not stack more than {MAX_MARKS} accents on "
                                "one letter", field=field)
    if field == "name" and normal.casefold().startswith("computer ("):
        raise refuse("R10", "A player's name may not pass for the computer's "
                            "(\"Computer (...)\")", field=field)
    return normal


def check_number(value: object, field: str, *, low: float, high: float,
                 whole: bool = False, rule: str = "R10") -> int | float:
    """A number from a client or a file: a finite int (or float unless ``whole``) within
    [low, high]; refused naming the field otherwise (issue 10, item 8)."""
    kinds = int if whole else int | float
    if isinstance(value, bool) or not isinstance(value, kinds) \
            or (isinstance(value, float) and not math.isfinite(value)) \
            or not low <= value <= high:
        raise refuse(rule, f"'{field}' is a {'whole ' if whole else ''}number from {low!r} to "
                           f"{high!r}", field=field)
    return value


def toss_order(seats: Iterable[str], seed: int) -> list[str]:
    """The order of play drawn for these seats from a seeded random source (R11).

    >>> toss_order(["red", "blue"], 7) == toss_order(["red", "blue"], 7)
    True
    """
    order = list(seats)
    random.Random(seed).shuffle(order)
    return order


class Submitted(NamedTuple):
    """What ``Game.submit`` gives: its events, the disposition's cost (R3) and warnings."""
    events: list[Event]
    cost: CostDocument
    warnings: list[Problem]


@dataclass(frozen=True)
class SideScore:
    """A side's seats and their points together (R22, R23)."""
    seats: tuple[str, ...]
    score: int


@dataclass(frozen=True)
class Result:
    """How a finished game came out (R14, R22, R23): each seat's points, each side's, the
    winning side's seats (none on a draw) and why the game ended (``exhausted``,
    ``agreed``, ``resigned`` or ``forfeit``). ``to_json`` is the view's ``result``."""
    scores: Mapping[str, int]
    winners: tuple[str, ...]
    sides: tuple[SideScore, ...]
    reason: str

    @property
    def winner(self) -> str | None:
        """The single winning seat; None on a draw or when a side of two or more wins."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> ResultDocument:
        """The ``result`` of docs/api.md, "A player's view"."""
        return {
            "scores": dict(self.scores),
            "winner": self.winner,
            "winners": list(self.winners),
            "sides": [{"seats": list(side.seats), "score": side.score} for side in self.sides],
            "reason": self.reason,  # type: ignore[typeddict-item]
        }


def result_document(game: Game) -> ResultDocument | None:
    """A game's result as the documents carry it: null until the game is over."""
    result = game.result()
    return result.to_json() if result else None


@dataclass
class Game:
    """Everything that follows from a game's events; build it with ``replay``."""

    id: str = ""
    seats: tuple[str, ...] = ()
    alliances: bool | list = False  # as the host gave it; ``sides`` is what it means
    sides: tuple[tuple[str, ...], ...] = ()
    bots: dict[str, str] = field(default_factory=dict)
    created_at: float = 0.0
    minutes: int = DEFAULT_MINUTES
    move_minutes: int | None = None  # R25: the move clock, off by default
    names: dict[str, str] = field(default_factory=dict)
    fleets: dict[str, Fleet] = field(default_factory=dict)
    ready: set[str] = field(default_factory=set)
    fingerprints: dict[str, str] = field(default_factory=dict)
    salts: dict[str, str] = field(default_factory=dict)
    forfeited: set[str] = field(default_factory=set)
    toss: dict | None = None
    order: list[str] = field(default_factory=list)
    started: bool = False
    turn: str | None = None
    reports: list[Report] = field(default_factory=list)
    agreed: set[str] = field(default_factory=set)
    stand_ins: set[str] = field(default_factory=set)  # seats the computer plays for (R25)
    turn_began: int = 0  # the event (numbered from 1) that began the current turn (R25)
    resigned: str | None = None
    over: str | None = None  # why the game ended: exhausted, agreed, resigned, forfeit
    events: list[Event] = field(default_factory=list)

    # -- facts derived from the state -------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        return "play" if self.started else "setup"

    @property
    def deadline(self) -> float:
        """When the disposition clock runs out (R10), in the server's seconds."""
        return self.created_at + 60 * self.minutes

    @property
    def active(self) -> list[str]:
        """Seats still in the game: not forfeited (R10)."""
        return [s for s in self.seats if s not in self.forfeited]

    def side(self, seat: str) -> tuple[str, ...]:
        """The seats of a seat's side: itself and its allies (R23)."""
        return next(members for members in self.sides if seat in members)

    def allied(self, a: str, b: str) -> bool:
        return b in self.side(a)

    def opponents(self, seat: str) -> list[str]:
        """Seats whose charts this seat may attack (R23)."""
        return [s for s in self.active if not self.allied(seat, s)]

    def can_attack(self, seat: str) -> bool:
        return seat in self.fleets and self.fleets[seat].has_offensive_forces()

    def result(self) -> Result | None:
        """Scores and winners once the game is over (R14, R22, R23)."""
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
        return Result(scores=MappingProxyType(scores),
                      winners=tuple(top[0]) if len(top) == 1 else (),
                      sides=tuple(SideScore(tuple(m), totals[m]) for m in sides),
                      reason=self.over)

    # -- commands: check, then append events ---------------------------------------------

    def join(self, seat: str, name: object) -> list[Event]:
        return self._emit({"type": "joined", "seat": seat, "name": name})

    def submit(self, seat: str, disposition: object) -> Submitted:
        """Store a seat's draft disposition; returns the events, its cost and warnings."""
        self._check_setup(seat)
        checked = check_disposition(disposition)
        events = self._emit({"type": "disposition", "seat": seat,
                             "disposition": checked.fleet.document})
        return Submitted(events, checked.cost.to_json(), checked.warnings)

    def lock_in(self, seat: str, seed: int | None = None, salt: str = "") -> list[Event]:
        """A seat locks in its disposition; when every seat has, play starts (R10).

        The server passes a secret random ``salt``; the disposition's fingerprint is public
        from now on, the salt only once the game is over. The order of play was drawn when
        the game was created (R11); ``seed`` tosses only for a game stored before that
        amendment, which has no toss yet."""
        fleet = self.fleets.get(seat)
        events = self._emit({"type": "ready", "seat": seat, "salt": salt,
                             "fingerprint": fingerprint(fleet.document, salt) if fleet else ""})
        return events + self._toss_if_all_ready(seed)

    def extend_clock(self, minutes: object) -> list[Event]:
        return self._emit({"type": "clock", "minutes": minutes})

    def forfeit(self, seat: str, now: float, seed: int | None = None) -> list[Event]:
        """The host forfeits a seat that has not locked in once the clock has run out (R10)."""
        events = self._emit({"type": "forfeit", "seat": seat, "at": now})
        return events + self._toss_if_all_ready(seed)

    def move(self, seat: str, move: object, *, stand_in: bool = False
             ) -> tuple[list[Event], Report]:
        """Make a move (R12); returns the events and the full report. ``stand_in``: the
        computer moves for a seat an opponent handed to it (R25)."""
        event = {"type": "move", "seat": seat, "move": move}
        if stand_in:
            event["stand_in"] = True
        events = self._emit(event)
        return events, self.reports[-1]

    def reissue(self, seat: str) -> list[Event]:
        """The host gives a seat that has not locked in a new join code (R24)."""
        return self._emit({"type": "reissued", "seat": seat})

    def stand_in(self, seat: str, by: str) -> list[Event]:
        """An opponent hands a seat whose move clock ran out to the computer (R25); the
        server checks the clock, which the log does not hold."""
        return self._emit({"type": "stand_in", "seat": seat, "by": by})

    def agree_to_end(self, seat: str) -> list[Event]:
        return self._emit({"type": "end", "seat": seat})

    def play_on(self, seat: str) -> list[Event]:
        """A player declines another's offer to end the game (R14): the offer lapses."""
        return self._emit({"type": "play_on", "seat": seat})

    def resign(self, seat: str) -> list[Event]:
        return self._emit({"type": "resign", "seat": seat})

    def _toss_if_all_ready(self, seed: int | None) -> list[Event]:
        """Only a game created before R11 was amended reaches its start without a toss."""
        if self.toss is None and seed is not None and self.phase == "setup" and self.active \
                and all(s in self.ready for s in self.active):
            return self._emit({"type": "toss", "seed": seed,
                               "order": toss_order(self.active, seed)})
        return []

    def _start_if_all_ready(self) -> None:
        """Play starts once the order is drawn and every seat still in has locked in (R10)."""
        if not self.started and not self.over and self.toss and self.active \
                and all(s in self.ready for s in self.active):
            self.started = True
            self.turn = self._next_turn(after=None)

    def _emit(self, event: dict) -> list[Event]:
        self.apply(event)
        return [event]

    # -- applying events -------------------------------------------------------------------

    def apply(self, event: dict) -> None:
        """Check one event against the state and apply it; nothing changes if it is refused."""
        if not isinstance(event, dict) or event.get("type") not in _APPLY:
            raise refuse("R21", f"Unknown event {event!r}", field="type")
        if event["type"] != "created" and not self.seats:
            raise refuse("R10", "A game's first event creates it", field="type")
        turn = self.turn
        normal = _APPLY[event["type"]](self, event)
        self.events.append(normal or event)
        if self.phase == "play" and (self.turn != turn or event["type"] == "move"):
            self.turn_began = len(self.events)  # the move clock starts again (R25)

    def _check_seat(self, seat: object) -> str:
        if seat not in self.seats:
            raise refuse("R23", f"{seat!r} is not a seat of this game; its seats are "
                                f"{', '.join(self.seats)}", field="seat", kind="forbidden")
        return seat

    def _check_setup(self, seat: object) -> str:
        self._check_seat(seat)
        if self.phase != "setup":
            raise refuse("R10", "Dispositions are made before play starts", kind="turn")
        if seat in self.forfeited:
            raise refuse("R10", f"{seat.title()} has been forfeited", kind="turn")
        if seat not in self.names:
            raise refuse("R10", f"{seat.title()} has not joined the game yet", kind="turn")
        if seat in self.ready:
            raise refuse("R10", f"{seat.title()} has already locked in a disposition", kind="turn")
        return seat

    def _apply_created(self, event: dict) -> None:
        if self.seats:
            raise refuse("R10", "This game has already been created")
        seats = event.get("seats")
        if not isinstance(seats, list) or list(seats) != list(SEATS[:len(seats)]) \
                or not 2 <= len(seats) <= 4:
            raise refuse("R23", "A game has 2 to 4 seats: red, blue, then green and gold",
                         field="seats")
        alliances = event.get("alliances", False)
        sides = read_sides(alliances, seats)
        minutes = event.get("disposition_minutes", DEFAULT_MINUTES)
        _check_minutes(minutes, "disposition_minutes")
        move_minutes = event.get("move_minutes")
        if move_minutes is not None and (isinstance(move_minutes, bool)
                                         or not isinstance(move_minutes, int)
                                         or not 1 <= move_minutes <= MAX_MINUTES):
            raise refuse("R25", "'move_minutes' is null (no move clock) or a whole number of "
                                f"minutes from 1 to {MAX_MINUTES}", field="move_minutes")
        bots = event.get("bots") or {}
        if not isinstance(bots, dict) or any(s not in seats or not isinstance(level, str)
                                             for s, level in bots.items()):
            raise refuse("R23", "'bots' names seats of this game, each with a level",
                         field="bots")
        names = {seat: check_name(f"Computer ({level})", f"bots.{seat}")
                 for seat, level in bots.items()}
        at = check_number(event.get("at", 0.0), "at", low=0, high=MAX_TIME)
        self.id = str(event.get("id", ""))
        self.seats, self.alliances, self.minutes = tuple(seats), alliances, minutes
        self.sides = sides
        self.bots, self.created_at = dict(bots), float(at)
        self.move_minutes = move_minutes
        self.names.update(names)

    def _apply_joined(self, event: dict) -> dict:
        seat = self._check_seat(event.get("seat"))
        name = check_name(event.get("name"))
        if seat in self.names:
            raise refuse("R10", f"The {seat} seat is already taken", field="seat",
                         kind="turn")
        if self.phase != "setup" or seat in self.forfeited:
            raise refuse("R10", "Seats are taken before play starts", kind="turn")
        self.names[seat] = name
        return {**event, "name": name}

    def _apply_disposition(self, event: dict) -> dict:
        seat = self._check_setup(event.get("seat"))
        fleet = check_disposition(event.get("disposition")).fleet
        self.fleets[seat] = fleet
        return {**event, "disposition": fleet.document}

    def _apply_ready(self, event: dict) -> None:
        seat = self._check_setup(event.get("seat"))
        if seat not in self.fleets:
            raise refuse("R10", "Submit a valid disposition before locking it in",
                         kind="turn")
        salt = event.get("salt", "")
        if not isinstance(salt, str) or len(salt) > 128:
            raise refuse("R10", "A lock-in's salt is a short string", field="salt")
        stamp = fingerprint(self.fleets[seat].document, salt)
        if event.get("fingerprint", stamp) != stamp:
            raise refuse("R10", f"The fingerprint of {seat}'s disposition does not match it",
                         field="fingerprint")
        self.ready.add(seat)
        self.salts[seat], self.fingerprints[seat] = salt, stamp
        self._start_if_all_ready()

    def _apply_clock(self, event: dict) -> None:
        if self.phase != "setup":
            raise refuse("R10", "The disposition clock runs only before play", kind="turn")
        minutes = event.get("minutes")
        _check_minutes(minutes, "minutes")
        if self.minutes + minutes > MAX_MINUTES:
            raise refuse("R10", f"The disposition clock cannot exceed {MAX_MINUTES} minutes",
                         field="minutes")
        self.minutes += minutes

    def _apply_forfeit(self, event: dict) -> None:
        seat = self._check_seat(event.get("seat"))
        now = event.get("at")
        if self.phase != "setup":
            raise refuse("R10", "Only a seat that has not locked in before play can be "
                                "forfeited", kind="turn")
        if seat in self.ready or seat in self.forfeited:
            raise refuse("R10", f"{seat.title()} has locked in a disposition or is already "
                                "forfeited", field="seat", kind="turn")
        if isinstance(now, bool) or not isinstance(now, int | float) \
                or not math.isfinite(now) or now > MAX_TIME or now < self.deadline:
            raise refuse("R10", "A seat can be forfeited only when the disposition clock has "
                                "run out", kind="turn")
        self.forfeited.add(seat)
        self.fleets.pop(seat, None)
        if len({self.side(s) for s in self.active}) < 2:
            self.over = "forfeit"
        self._start_if_all_ready()

    def _apply_toss(self, event: dict) -> None:
        if self.toss is not None:
            raise refuse("R11", "The order of play was drawn when the game was created; "
                                "nothing redraws it", kind="turn")
        if len(self.events) == 1:  # as the game is created, before anyone lays out (R11)
            seats = list(self.seats)
        elif self.phase == "setup" and all(s in self.ready for s in self.active):
            seats = self.active  # a log from before R11 was amended: the toss after lock-in
        else:
            raise refuse("R11", "The toss comes as the game is created, before anyone lays "
                                "out his forces", kind="turn")
        seed = event.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) \
                or event.get("order") != toss_order(seats, seed):
            raise refuse("R11", "The order of play must be the one the seeded toss gives",
                         field="order")
        self.toss = {"seed": seed, "order": list(event["order"])}
        self.order = list(event["order"])
        self._start_if_all_ready()

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

    def _apply_move(self, event: dict) -> dict:
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
        stand_in = event.get("stand_in", False)
        if stand_in is not False and (stand_in is not True or seat not in self.stand_ins):
            raise refuse("R25", f"The computer plays for {seat} only when an opponent has "
                                "handed the seat to it", field="stand_in")
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
        normal = {"weapon": weapon, "at": at, "target": target}
        fleet = self.fleets[seat]
        if weapon == "salvo":
            if move.get("from") is not None:
                found.append(problem("R5", "A salvo is not fired from a square; leave out "
                                           "'from'", field="from"))
            if fleet.salvoes_left <= 0:
                found.append(problem("R13", "You have no salvo left to fire"))
        elif weapon in AIRCRAFT_TYPES:
            normal["from"] = _check_aircraft(fleet, weapon, move.get("from"), found)
        if found:
            raise RuleViolation(found)
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

    def _apply_end(self, event: dict) -> None:
        seat = self._check_seat(event.get("seat"))
        if self.phase != "play" or seat in self.forfeited:
            raise refuse("R14", "A game can be ended by agreement only while it is in play",
                         kind="turn")
        self.agreed.add(seat)
        if all(s in self.agreed for s in self.active):
            self.over, self.turn = "agreed", None

    def _apply_reissued(self, event: dict) -> None:
        """The host gave a seat a new join code (R24): only before it locks in, never a
        computer's; its draft and name go, so its next holder learns nothing of them."""
        seat = self._check_seat(event.get("seat"))
        if seat in self.bots:
            raise refuse("R24", f"{seat.title()} is the computer's seat; nobody can be given it",
                         field="seat", kind="turn")
        if self.phase != "setup" or seat in self.ready or seat in self.forfeited:
            raise refuse("R24", f"{seat.title()} has locked in (or left the game): only its own "
                                "recovery code can move the seat now", field="seat",
                         kind="turn")
        self.names.pop(seat, None)
        self.fleets.pop(seat, None)

    def _apply_stand_in(self, event: dict) -> None:
        seat = self._check_seat(event.get("seat"))
        by = self._check_seat(event.get("by"))
        if self.move_minutes is None:
            raise refuse("R25", "This game has no move clock, so no seat can be handed to the "
                                "computer", kind="turn")
        if self.phase != "play":
            raise refuse("R25", "A seat can be handed to the computer only while the game is "
                                "in play", kind="turn")
        if seat != self.turn:
            raise refuse("R25", "Only the seat whose turn it is can be handed to the computer; "
                                f"it is {self.turn.title()}'s turn", kind="turn")
        if seat in self.bots or seat in self.stand_ins:
            raise refuse("R25", f"The computer already plays for {seat.title()}", kind="turn")
        if by not in self.opponents(seat) or by in self.forfeited:
            raise refuse("R25", f"Only an opponent of {seat.title()} can hand the seat to the "
                                "computer", field="by", kind="forbidden")
        self.stand_ins.add(seat)

    def _apply_play_on(self, event: dict) -> None:
        seat = self._check_seat(event.get("seat"))
        if self.phase != "play" or seat in self.forfeited or not self.agreed - {seat}:
            raise refuse("R14", "There is no offer to end the game to decline", kind="turn")
        self.agreed.clear()

    def _apply_resign(self, event: dict) -> None:
        seat = self._check_seat(event.get("seat"))
        if self.phase != "play" or seat in self.forfeited:
            raise refuse("R14", "A player can resign only while the game is in play",
                         kind="turn")
        self.resigned, self.over, self.turn = seat, "resigned", None


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


def _check_minutes(minutes: object, name: str) -> None:
    if isinstance(minutes, bool) or not isinstance(minutes, int) \
            or not 1 <= minutes <= MAX_MINUTES:
        raise refuse("R10", f"'{name}' is a whole number of minutes from 1 to {MAX_MINUTES}",
                     field=name)


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


_APPLY = {
    "created": Game._apply_created, "joined": Game._apply_joined,
    "disposition": Game._apply_disposition, "ready": Game._apply_ready,
    "clock": Game._apply_clock, "forfeit": Game._apply_forfeit, "toss": Game._apply_toss,
    "move": Game._apply_move, "end": Game._apply_end, "resign": Game._apply_resign,
    "stand_in": Game._apply_stand_in, "reissued": Game._apply_reissued,
    "play_on": Game._apply_play_on,
}


def new_game(*, seed: int, id: str = "", seats: int = 2, alliances: bool | list = False,
             disposition_minutes: int = DEFAULT_MINUTES, bots: dict | None = None,
             at: float = 0.0, move_minutes: int | None = None) -> tuple[Game, list[Event]]:
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


def replay(events: Iterable[dict]) -> Game:
    """The state of a game is its events applied in order, and nothing else."""
    game = Game()
    for event in events:
        game.apply(event)
    return game
