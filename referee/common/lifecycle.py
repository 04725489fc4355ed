"""The life of a game that every rule set shares: seats and names, the clocks, the toss, the
lock-in fingerprint, forfeit, a new join code, the computer standing in, agreeing to end,
playing on and resigning.

The Naval War Game (R10, R11, R14, R21, R24, R25) and Battleship: The Tactical Combat Game
(T6, T9, and those same rulings where its own are silent) run these the same way, so they live
here once. ``Lifecycle`` is a mixin for a rule set's ``Game`` dataclass: the game supplies its
state fields (listed below), a ``fleets`` dict of seat -> an object with a ``document`` (the
disposition in its normal form), ``_next_turn(after)`` and an ``APPLY`` table from event
type to handler (``apply_table``); the mixin supplies the commands, the handlers of the shared
events and ``replay``.

The rule a refusal cites comes from class attributes, so each rule set names its own:
``END_RULE`` (agreeing to end, playing on, resigning: R14 or T9) and ``TOSS_RULE`` (R11 or T6).

The log keeps every event in its normal form: the fields its type has (``EVENT_FIELDS``: the
shared events' here, a rule set adds its ``created`` and any event of its own), as its handler
read them, and nothing else. A field an event's type does not have is dropped as the event is
applied, so neither a stored log nor a game file replayed here can carry one further (a game
file's junk is not kept, whatever its size).

Pure like the cores that use it: no web, storage or PDF library is imported here.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, Self

from . import dice
from .documents import DiceRoll, EndReason, Json, Phase, ResultDocument
from .outcome import SHARED_ENDS, Outcome
from .phrasing import is_computer
from .problems import ErrorKind, Problem, RuleViolation

MAX_NAME = 40  # R10: a player's name
DEFAULT_MINUTES = 20  # R10: the disposition clock
MIN_MINUTES, MAX_MINUTES = 1, 24 * 60  # R10 disposition clock, R25 move clock
MAX_TIME = 253402300799  # the last second of the year 9999: any real clock reads less
# characters a name may not hold: control and format characters (zero-width joiners and
# spaces, the byte-order mark, bidi overrides), surrogates, private and unassigned code
# points, line and paragraph separators, and fillers that print as nothing
INVISIBLE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
BLANK_FILLERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e", "\u034f"}
MAX_MARKS = 3  # combining marks on one letter: enough for any script, not for a tower of them
MAX_REISSUES = 20  # R24: new join codes for one seat; each may let a new holder join
MAX_CLOCK_EXTENSIONS = 30  # R10: times the host gives more minutes for dispositions
MAX_LEVEL = 40  # R25: a computer's level is a short name ("admiral")
MAX_LEVEL_CHANGES = 20  # R25: times the host may choose the stand-in's level in a game


def refuse(rule: str, message: str, *, field: str | None = None,
           kind: ErrorKind = "illegal") -> RuleViolation:
    """A violation with a single problem that names no square, ready to raise."""
    return RuleViolation([Problem(rule, message, (), field)], kind)


# what a game of two seats, one each, reads the API's shared options as: the only values
# they may have there
TWO_SEATS = {"seats": 2, "alliances": False}


def created_event(rules: str, id: str, seats: Sequence[str], options: Json, bots: Json | None,
                  at: float, **own: object) -> Json:
    """The first event of a game of ``rules``: its id and seats, the game's ``own`` fields
    (a TCG's card), the dispositions' clock (R10: ``DEFAULT_MINUTES`` unless the options say),
    the move clock (R25: none unless they say), the seats the computer plays, and when."""
    return {"type": "created", "rules": rules, "id": id, "seats": list(seats), **own,
            "disposition_minutes": options.get("disposition_minutes", DEFAULT_MINUTES),
            "move_minutes": options.get("move_minutes"), "bots": dict(bots or {}), "at": at}


def two_seat_options(options: object, known: tuple[str, ...], *, rule: str, seats_rule: str,
                     shape: str) -> Json:
    """The options of a two-seat game, checked: an object of its own ``known`` keys, and
    ``seats`` 2 and ``alliances`` false read as what they can only be (``TWO_SEATS``).
    Anything else is refused naming the key: under ``seats_rule`` for a shape of seats the
    game does not have (``shape`` says its own), else under ``rule``."""
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise refuse(rule, "The options are an object", field="options")
    for key, value in options.items():
        if key in TWO_SEATS and value == TWO_SEATS[key] \
                and type(value) is type(TWO_SEATS[key]):
            continue
        if key not in known:
            raise refuse(seats_rule if key in TWO_SEATS else rule,
                         f"{str(key)[:40]!r} is not an option of this game ({shape}); its "
                         f"options are {', '.join(known)}", field=str(key)[:40])
    return options


def fingerprint(disposition: Json, salt: str) -> str:
    """SHA-256 of the salt, a newline and the disposition's canonical JSON (UTF-8): shown to
    every player at lock-in, checkable by anyone once the salt is revealed at the end.

    >>> fingerprint({"salvoes": 1}, "ab")[:16]
    '71b22f090a87ebf0'
    """
    canonical = json.dumps(disposition, sort_keys=True, separators=(",", ":"),
                           ensure_ascii=True)
    return hashlib.sha256(f"{salt}\n{canonical}".encode()).hexdigest()


def unordered(disposition: Json) -> Json:
    """A disposition with each of its lists (ships, land, aircraft, guns ...) in one order, the
    order of their pieces' canonical JSON: the order a player (or a file's editor) listed
    them in says nothing, so two dispositions of the same pieces are one.

    >>> unordered({"land": ["B 2", "A 1"], "salvoes": 3})
    {'land': ['A 1', 'B 2'], 'salvoes': 3}
    """
    return {key: sorted(value, key=lambda piece: json.dumps(piece, sort_keys=True))
            if isinstance(value, list) else value for key, value in disposition.items()}


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
    if field == "name" and is_computer(normal):  # however spaced or capitalised
        raise refuse("R10", "A player's name may not pass for the computer's "
                            "(\"Computer (...)\")", field=field)
    return normal


def check_number(value: object, field: str, *, low: float, high: float,
                 whole: bool = False, rule: str = "R10") -> int | float:
    """A number from a client or a file: a finite int (or float unless ``whole``) within
    [low, high]; refused naming the field otherwise (no NaN, infinity or huge number)."""
    kinds = int if whole else int | float
    if isinstance(value, bool) or not isinstance(value, kinds) \
            or (isinstance(value, float) and not math.isfinite(value)) \
            or not low <= value <= high:
        raise refuse(rule, f"'{field}' is a {'whole ' if whole else ''}number from {low!r} to "
                           f"{high!r}", field=field)
    return value


def check_minutes(minutes: object, name: str) -> int:
    """A disposition clock (R10): a whole number of minutes from 1 to MAX_MINUTES."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) \
            or not 1 <= minutes <= MAX_MINUTES:
        raise refuse("R10", f"'{name}' is a whole number of minutes from 1 to {MAX_MINUTES}",
                     field=name)
    return minutes


def toss_order(seats: Iterable[str], seed: int) -> list[str]:
    """The order of play drawn for these seats from a seeded random source (R11).

    >>> toss_order(["red", "blue"], 7) == toss_order(["red", "blue"], 7)
    True
    """
    order = list(seats)
    random.Random(seed).shuffle(order)
    return order


# The fields of the events every rule set shares, beside ``type`` (docs/rules.md, "The game as
# an event log"); a rule set's ``EVENT_FIELDS`` adds its ``created`` (and its own events).
SHARED_EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "toss": ("seed", "order"), "joined": ("seat", "name"),
    "disposition": ("seat", "disposition"), "ready": ("seat", "salt", "fingerprint"),
    "clock": ("minutes",), "forfeit": ("seat", "at"), "reissued": ("seat",),
    "move": ("seat", "move", "stand_in"), "stand_in": ("seat", "by"), "end": ("seat",),
    "play_on": ("seat",), "resign": ("seat",), "stand_in_level": ("level",),
}
# the fields of a rule set whose referee rolls dice (``Lifecycle.DICE``, BB24): its commitment
# as the game is created, each seat's seed as it locks in, the rolls each move drew, the
# secret seed revealed at the end (``referee.common.dice``)
DICE_EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "dice_committed": ("commitment",), "dice_revealed": ("secret",),
    "ready": ("seat", "salt", "fingerprint", "dice_seed"),
    "move": ("seat", "move", "stand_in", "rolls"),
}


class Submitted(NamedTuple):
    """What ``Game.submit`` gives: its events, the disposition's cost (R3; None where nothing
    is bought) and warnings."""
    events: list[Json]
    cost: Json | None
    warnings: list[Problem]


class Memo(dict[tuple[Any, ...], Any]):
    """What a game has worked out from its state, kept to save working it out again (its
    public status at its version, ``views.status_view``; a rule set's own, as the Naval War
    Game's copies of each report for each seat, ``views.seat_reports``), by keys that tell
    them apart by their length and first item: a copy of the game starts without it
    (``copy.deepcopy`` would copy it at a cost that grows with the game, for a cache the
    copy can refill)."""

    def __deepcopy__(self, _memo: Json) -> Memo:
        return Memo()

    def __copy__(self) -> Memo:
        return Memo()


@dataclass
class Lifecycle:
    """The state and the commands and events every rule set's ``Game`` shares (see the
    module's text); a rule set's ``Game`` is a dataclass adding its own fields."""

    END_RULE: ClassVar[str] = "R14"
    TOSS_RULE: ClassVar[str] = "R11"
    # a game whose stages may ask several seats for an order at once, each sealed until all
    # are in (BB5, BB10): its ``owes`` names every seat that owes one, each seat's move clock
    # runs from when it came to owe (``owed_since``), and its host and move clock say so. A
    # game of turns (False) owes a move of the seat whose turn it is, and no more
    SIMULTANEOUS: ClassVar[bool] = False
    # a game whose referee rolls dice (BB24, ``referee.common.dice``), and the ruling its dice
    # refusals cite: its ``apply_table(dice=True)`` and ``DICE_EVENT_FIELDS`` take the events
    DICE: ClassVar[bool] = False
    DICE_RULE: ClassVar[str] = "BB24"
    # the reasons its games may end by: the shared ends and the rule set's own (its documents'
    # ``EndReason``), which the seam collects for the API's documents (``rulesets``)
    END_REASONS: ClassVar[tuple[str, ...]] = SHARED_ENDS
    APPLY: ClassVar[dict[str, Any]] = {}
    EVENT_FIELDS: ClassVar[dict[str, tuple[str, ...]]] = SHARED_EVENT_FIELDS

    id: str = ""
    seats: tuple[str, ...] = ()
    sides: tuple[tuple[str, ...], ...] = ()
    bots: dict[str, str] = field(default_factory=dict)
    created_at: float = 0.0
    minutes: int = DEFAULT_MINUTES
    move_minutes: int | None = None  # R25: the move clock, off by default
    names: dict[str, str] = field(default_factory=dict)
    fleets: dict[str, Any] = field(default_factory=dict)  # each rule set's own Fleet
    ready: set[str] = field(default_factory=set)
    fingerprints: dict[str, str] = field(default_factory=dict)
    salts: dict[str, str] = field(default_factory=dict)
    forfeited: set[str] = field(default_factory=set)
    toss: Json | None = None
    order: list[str] = field(default_factory=list)
    started: bool = False
    turn: str | None = None
    reports: list[Json] = field(default_factory=list)
    agreed: set[str] = field(default_factory=set)
    stand_ins: set[str] = field(default_factory=set)  # seats the computer plays for (R25)
    stand_in_level: str | None = None  # the host's choice of the stand-in's level (R25)
    reissues: dict[str, int] = field(default_factory=dict)  # new join codes per seat (R24)
    extensions: int = 0  # the times the disposition clock was given more minutes (R10)
    level_changes: int = 0  # the times the host chose the stand-in's level (R25)
    turn_began: int = 0  # the event (numbered from 1) that began the current turn (R25)
    # each seat that owes a move now and the event (numbered from 1) from which it has owed
    # it: when its move clock started (R25)
    owed_since: dict[str, int] = field(default_factory=dict)
    resigned: str | None = None
    over: EndReason | None = None  # why the game ended (``EndReason``)
    events: list[Json] = field(default_factory=list)
    # the dice (BB24; only where ``DICE``): the commitment published at creation, each seat's
    # seed, every roll so far ({"n", "value", "for"}), the secret seed once revealed at the end
    dice_commitment: str | None = None
    dice_seeds: dict[str, str] = field(default_factory=dict)
    dice_rolls: list[DiceRoll] = field(default_factory=list)
    dice_revealed: str | None = None
    # the referee's secret seed while it holds it (``hold_dice``): never from the log, never in
    # any view before the end; and a move's rolls while it is applied (logged, or drawn)
    dice_secret: str | None = field(default=None, repr=False, compare=False)
    _rolls_logged: list[object] | None = field(default=None, repr=False, compare=False)
    _rolls_drawn: list[int] = field(default_factory=list, repr=False, compare=False)
    # what the game has worked out from its state (``Memo``); not the game's state
    memo: Memo = field(default_factory=Memo, repr=False, compare=False)

    # -- facts derived from the state -------------------------------------------------

    @property
    def version(self) -> int:
        return len(self.events)

    def outcome(self) -> Outcome | None:  # pragma: no cover - each rule set's own
        """How the game came out (``Outcome``), None until it is over."""
        raise NotImplementedError

    def result_document(self) -> ResultDocument | None:
        """The result as the documents carry it: null until the game is over."""
        outcome = self.outcome()
        return outcome.to_json() if outcome else None

    def one_a_side_outcome(self, scores: dict[str, int], won_by: str | None) -> Outcome:
        """The outcome of a finished game of one seat a side: ``won_by`` the seat that won by
        the game's own rules (None when it ended otherwise); else the other seat when one
        resigned, the seat still in it after a forfeit, or nobody (agreed)."""
        if self.over is None:
            raise ValueError("a game has an outcome only once it is over")
        if won_by is not None:
            winners = [won_by]
        elif self.over == "resigned":
            winners = [s for s in self.seats if s != self.resigned]
        elif self.over == "forfeit":
            winners = list(self.active)
        else:
            winners = []
        return Outcome.of(scores, winners, self.sides, self.over, self.END_REASONS)

    @property
    def phase(self) -> Phase:
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

    @property
    def owes(self) -> tuple[str, ...]:
        """The seats that owe a move now, in the order of the seats: in a game of turns the
        seat whose turn it is; a rule set of sealed orders (``SIMULTANEOUS``) names every
        seat that owes one, and keeps ``turn`` the first of them."""
        return (self.turn,) if self.phase == "play" and self.turn else ()

    def _next_turn(self, after: str | None) -> str | None:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- commands: check, then append events ---------------------------------------------

    def join(self, seat: str, name: object) -> list[Json]:
        return self._emit({"type": "joined", "seat": seat, "name": name})

    def lock_in(self, seat: str, seed: int | None = None, salt: str = "",
                dice_seed: str | None = None) -> list[Json]:
        """A seat locks in its disposition; when every seat has, play starts (R10).

        The server passes a secret random ``salt``; the disposition's fingerprint is public
        from now on, the salt only once the game is over. The order of play was drawn when
        the game was created (R11); ``seed`` tosses only for a game stored before that
        amendment, which has no toss yet. Where the referee rolls dice (BB24), ``dice_seed``
        is the seat's own seed (its phone's); a computer's, given none, is drawn from the
        referee's secret."""
        fleet = self.fleets.get(seat)
        event: Json = {"type": "ready", "seat": seat, "salt": salt,
                 "fingerprint": fingerprint(fleet.document, salt) if fleet else ""}
        if self.DICE:
            event["dice_seed"] = dice_seed if dice_seed is not None or self.dice_secret is None \
                else dice.seat_seed(self.dice_secret, seat)
        events = self._emit(event)
        return events + self._toss_if_all_ready(seed)

    def extend_clock(self, minutes: object) -> list[Json]:
        return self._emit({"type": "clock", "minutes": minutes})

    def forfeit(self, seat: str, now: float, seed: int | None = None) -> list[Json]:
        """The host forfeits a seat that has not locked in once the clock has run out (R10)."""
        events = self._emit({"type": "forfeit", "seat": seat, "at": now})
        return events + self._toss_if_all_ready(seed)

    def reissue(self, seat: str) -> list[Json]:
        """The host gives a seat that has not locked in a new join code (R24). A seat nobody
        has joined since its last code has nothing to drop, so its new code (which the
        server keeps) adds no event: repeating it cannot swell the log."""
        self._check_reissue(self._check_seat(seat))
        if seat not in self.names and seat not in self.fleets:
            return []
        return self._emit({"type": "reissued", "seat": seat})

    def move(self, seat: str, move: object, *, stand_in: bool = False
             ) -> tuple[list[Json], Json]:
        """Make a move (R12, T7): the rule set's ``_apply_move`` checks it whole; returns the
        events and the full report. ``stand_in``: the computer moves for a seat an opponent
        handed to it (R25)."""
        event = {"type": "move", "seat": seat, "move": move}
        if stand_in:
            event["stand_in"] = True
        events = self._emit(event)
        return events, self.reports[-1]

    def stand_in(self, seat: str, by: str) -> list[Json]:
        """An opponent hands a seat whose move clock ran out to the computer (R25); the
        server checks the clock, which the log does not hold."""
        return self._emit({"type": "stand_in", "seat": seat, "by": by})

    def agree_to_end(self, seat: str) -> list[Json]:
        """A seat agrees to end the game (R14); agreeing again, before anyone has played on,
        changes nothing and adds no event, so no seat can fill the log with offers."""
        if seat in self.agreed and self.phase == "play":
            return []
        return self._emit({"type": "end", "seat": seat})

    def play_on(self, seat: str) -> list[Json]:
        """A player declines another's offer to end the game (R14): the offer lapses."""
        return self._emit({"type": "play_on", "seat": seat})

    def resign(self, seat: str) -> list[Json]:
        return self._emit({"type": "resign", "seat": seat})

    def choose_stand_in_level(self, level: object) -> list[Json]:
        """The host chooses the level of the computer that stands in for an absent player
        (R25): an event, so every seat sees the choice and the game file keeps it. The same
        level again changes nothing and adds no event. The server checks that the rule set
        has the level."""
        if level == self.stand_in_level and self.phase != "over":
            return []
        return self._emit({"type": "stand_in_level", "level": level})

    # the events every rule set shares, each with its handler here; a rule set adds its own
    # ("created", "disposition", "move") in ``apply_table``
    SHARED_EVENTS: ClassVar[dict[str, str]] = {
        "joined": "_apply_joined", "ready": "_apply_ready", "clock": "_apply_clock",
        "forfeit": "_apply_forfeit", "toss": "_apply_toss", "end": "_apply_end",
        "resign": "_apply_resign", "stand_in": "_apply_stand_in",
        "reissued": "_apply_reissued", "play_on": "_apply_play_on",
        "stand_in_level": "_apply_stand_in_level"}

    @classmethod
    def replay(cls, events: Iterable[Json]) -> Self:
        """The state of a game is its events applied in order, and nothing else: a rule set's
        ``replay`` (its ``Game.replay``), built from its ``APPLY`` table."""
        game = cls()
        for event in events:
            game.apply(event)
        return game

    DICE_EVENTS: ClassVar[dict[str, str]] = {
        "dice_committed": "_apply_dice_committed", "dice_revealed": "_apply_dice_revealed"}

    @classmethod
    def apply_table(cls, *, dice: bool = False, **own: Any) -> dict[str, Any]:
        """A rule set's ``APPLY`` table: the shared events' handlers (a rule set's own
        override taking their place), the dice's where its referee rolls them (``dice``,
        BB24), and its own events' handlers, ``own``."""
        shared = {**cls.SHARED_EVENTS, **(cls.DICE_EVENTS if dice else {})}
        return {**{kind: getattr(cls, name) for kind, name in shared.items()}, **own}

    ENDING_EVENTS: ClassVar[frozenset[str]] = frozenset({"end", "resign", "forfeit"})

    def ends_the_game(self, events: list[Json]) -> bool:
        """Whether these events, just applied, end the game or lead only towards its end
        (an agreement, a resignation, a forfeit): what a log at the referee's limit still
        takes, so that no seat can keep a result off the record by filling the log."""
        return self.phase == "over" or all(e.get("type") in self.ENDING_EVENTS
                                           for e in events)

    def _toss_if_all_ready(self, seed: int | None) -> list[Json]:
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

    def _emit(self, event: Json) -> list[Json]:
        """Apply a command's event and return it as the log keeps it; where the referee
        rolls dice and the event ended the game, the secret seed is revealed after it
        (BB24), so no finished game keeps its dice unchecked."""
        before = len(self.events)
        self.apply(event)
        if self.DICE and self.phase == "over" and self.dice_revealed is None \
                and self.dice_secret is not None and self.dice_commitment is not None:
            self.apply({"type": "dice_revealed", "secret": self.dice_secret})
        return self.events[before:]

    # -- the dice (BB24) ------------------------------------------------------------------

    def commit_dice(self, secret: str) -> list[Json]:
        """As the game is created, the referee commits to its secret seed (publishes its
        SHA-256) and holds it; a game whose referee rolls no dice adds nothing."""
        if not self.DICE:
            return []
        events = self._emit({"type": "dice_committed", "commitment": dice.commitment(secret)})
        self.dice_secret = secret
        return events

    def hold_dice(self, secret: str) -> None:
        """The referee takes up its secret seed to roll with (a state replayed from the log
        has none): it must be the one committed to."""
        if not self.DICE:
            return
        if self.dice_commitment is None or dice.commitment(secret) != self.dice_commitment:
            raise ValueError("this is not the secret seed this game's dice are committed to")
        self.dice_secret = secret

    def roll(self, why: str) -> int:
        """The next roll (BB24): the one the move being applied logged, when replayed; drawn
        from the referee's secret and the seats' seeds when it is made. ``why`` says what it
        is for, as the views tell it."""
        n = len(self.dice_rolls) + 1
        if self._rolls_logged is not None:
            if not self._rolls_logged:
                raise refuse(self.DICE_RULE, f"This move's logged rolls run out before roll {n}",
                             field="rolls")
            value = self._rolls_logged.pop(0)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise refuse(self.DICE_RULE, f"Roll {n} is not a die's face (1 to 6)",
                             field="rolls")
        elif self.dice_secret is None:
            raise refuse(self.DICE_RULE, "The referee's dice are not in hand: the game cannot "
                                         "roll", kind="turn")
        else:
            value = dice.roll(self.dice_secret, [self.dice_seeds[s] for s in self.seats], n)
        self.dice_rolls.append({"n": n, "value": value, "for": why})
        self._rolls_drawn.append(value)
        return value

    def _apply_dice_committed(self, event: Json) -> None:
        stated = event.get("commitment")
        if self.dice_commitment is not None or self.ready or self.phase != "setup":
            raise refuse(self.DICE_RULE, "The referee commits to its dice once, as the game is "
                                         "created", kind="turn")
        if not isinstance(stated, str) or not dice.COMMITMENT.fullmatch(stated):
            raise refuse(self.DICE_RULE, "A commitment is a SHA-256 in 64 lowercase hex digits",
                         field="commitment")
        self.dice_commitment = stated

    def _apply_dice_revealed(self, event: Json) -> None:
        """The secret seed revealed at the end: its SHA-256 must be the commitment, and every
        roll of the log the one it gives (BB24); a log that fails is refused."""
        secret = event.get("secret")
        if self.phase != "over" or self.dice_revealed is not None:
            raise refuse(self.DICE_RULE, "The referee's secret seed is revealed once, at the "
                                         "end", kind="turn")
        if not isinstance(secret, str) or not 0 < len(secret) <= dice.MAX_SECRET \
                or self.dice_commitment is None \
                or dice.commitment(secret) != self.dice_commitment:
            raise refuse(self.DICE_RULE, "The revealed secret seed is not the one committed to "
                                         "when the game was created", field="secret")
        seeds = [self.dice_seeds.get(s, "") for s in self.seats]
        for entry in self.dice_rolls:
            if dice.roll(secret, seeds, entry["n"]) != entry["value"]:
                raise refuse(self.DICE_RULE, f"Roll {entry['n']} ({entry['for']}) is not the one "
                                             "the revealed seed and the players' seeds give",
                             field="rolls")
        self.dice_revealed = secret

    # -- applying events -------------------------------------------------------------------

    def apply(self, event: Json) -> None:
        """Check one event against the state and apply it; nothing changes if it is refused."""
        if not isinstance(event, dict) or not isinstance(event.get("type"), str) \
                or event["type"] not in self.APPLY:
            raise refuse("R21", f"Unknown event {event!r}", field="type")
        if event["type"] != "created" and not self.seats:
            raise refuse("R10", "A game's first event creates it", field="type")
        turn, owed = self.turn, set(self.owes)
        if self.DICE and event["type"] == "move":  # BB24: a logged move brings its rolls
            logged = event.get("rolls")
            if logged is not None and not isinstance(logged, list):
                raise refuse(self.DICE_RULE, "A move's rolls are a list of faces", field="rolls")
            self._rolls_logged, self._rolls_drawn = (None if logged is None else list(logged)), []
        normal = self.APPLY[event["type"]](self, event) or event
        if self.DICE and event["type"] == "move":
            if self._rolls_logged:
                raise refuse(self.DICE_RULE, "This move logs more rolls than it drew",
                             field="rolls")
            self._rolls_logged = None
            normal = {**normal, "rolls": list(self._rolls_drawn)} if self._rolls_drawn else \
                {key: value for key, value in normal.items() if key != "rolls"}
        fields = self.EVENT_FIELDS[event["type"]]
        self.events.append({"type": event["type"],
                            **{key: normal[key] for key in fields if key in normal}})
        if self.phase == "play" and (self.turn != turn or event["type"] == "move"):
            self.turn_began = len(self.events)  # the move clock starts again (R25)
        # each seat's move clock (R25) starts when it comes to owe a move, or owes another
        # after its own; a seat that still owes one while another moved keeps its clock
        mover = normal.get("seat") if event["type"] == "move" else None
        self.owed_since = {seat: self.owed_since.get(seat, len(self.events))
                           if seat in owed and seat != mover else len(self.events)
                           for seat in self.owes}

    def content(self) -> Json:
        """What makes two games one game, on which a game file offered twice is found: each
        seat's final disposition (null for a seat forfeited before play) and the moves in
        order, each seat named by its place in the order of play, and how the game ended.
        Nothing of the names, id, times, options, salts or fingerprints, nor the order of the
        events before play (joins, dispositions, lock-ins, clock changes): re-salted,
        re-ordered, re-timed or with its seats' colours swapped, a game is the same game; nor the
        order in which a disposition lists its pieces (``unordered``)."""
        places = [*self.order, *(s for s in self.seats if s not in self.order)]
        label = {seat: n for n, seat in enumerate(places)}
        return {
            "seats": [unordered(self.fleets[s].document) if s in self.fleets else None
                      for s in places],
            "moves": [[label[e["seat"]], self._content_move(e["move"], label)]
                      for e in self.events if e["type"] == "move"],
            "end": [self.over, label.get(self.resigned) if self.resigned else None],
        }

    def _content_move(self, move: Json, label: dict[str, int]) -> object:
        """A move as ``content`` gives it: a rule set whose moves name seats names them by
        ``label`` (their places in the order of play)."""
        return move

    def _check_seat(self, seat: object) -> str:
        if seat not in self.seats:
            raise refuse("R23", f"{seat!r} is not a seat of this game; its seats are "
                                f"{', '.join(self.seats)}", field="seat", kind="forbidden")
        return seat

    def _check_setup(self, chosen: object) -> str:
        seat = self._check_seat(chosen)
        if self.phase != "setup":
            raise refuse("R10", "Dispositions are made before play starts", kind="turn")
        if seat in self.forfeited:
            raise refuse("R10", f"{seat.title()} has been forfeited", kind="turn")
        if seat not in self.names:
            raise refuse("R10", f"{seat.title()} has not joined the game yet", kind="turn")
        if seat in self.ready:
            raise refuse("R10", f"{seat.title()} has already locked in a disposition", kind="turn")
        return seat

    def _read_created(self, event: Json, seats: list[str]) -> None:
        """The fields every game's ``created`` event shares, checked and kept: the clocks
        (R10, R25), the computer's seats and the time. The caller has checked the seats."""
        minutes = event.get("disposition_minutes", DEFAULT_MINUTES)
        check_minutes(minutes, "disposition_minutes")
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
        self.seats, self.minutes = tuple(seats), minutes
        self.bots, self.created_at = dict(bots), float(at)
        self.move_minutes = move_minutes
        self.names.update(names)

    def _apply_joined(self, event: Json) -> Json:
        seat = self._check_seat(event.get("seat"))
        name = check_name(event.get("name"))
        if seat in self.names:
            raise refuse("R10", f"The {seat} seat is already taken", field="seat",
                         kind="turn")
        if self.phase != "setup" or seat in self.forfeited:
            raise refuse("R10", "Seats are taken before play starts", kind="turn")
        self.names[seat] = name
        return {**event, "name": name}

    def _apply_ready(self, event: Json) -> None:
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
        if self.DICE:  # BB24: each seat's seed comes with its lock-in, after the commitment
            if self.dice_commitment is None:
                raise refuse(self.DICE_RULE, "The referee commits to its dice before anyone "
                                             "locks in", kind="turn")
            if not dice.is_seed(event.get("dice_seed")):
                raise refuse(self.DICE_RULE, "A seat's dice seed is 1 to 64 letters, digits, "
                                             "'-' or '_'", field="dice_seed")
            self.dice_seeds[seat] = event["dice_seed"]
        self.ready.add(seat)
        self.salts[seat], self.fingerprints[seat] = salt, stamp
        self._start_if_all_ready()

    def _apply_clock(self, event: Json) -> None:
        if self.phase != "setup":
            raise refuse("R10", "The disposition clock runs only before play", kind="turn")
        minutes = check_minutes(event.get("minutes"), "minutes")
        if self.minutes + minutes > MAX_MINUTES:
            raise refuse("R10", f"The disposition clock cannot exceed {MAX_MINUTES} minutes",
                         field="minutes")
        if self.extensions >= MAX_CLOCK_EXTENSIONS:
            raise refuse("R10", f"The disposition clock has been given more time "
                                f"{MAX_CLOCK_EXTENSIONS} times; forfeit a seat that has not "
                                "locked in, or agree a new game", field="minutes", kind="turn")
        self.minutes += minutes
        self.extensions += 1

    def _apply_forfeit(self, event: Json) -> None:
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

    def _apply_toss(self, event: Json) -> None:
        rule = self.TOSS_RULE
        if self.toss is not None:
            raise refuse(rule, "The order of play was drawn when the game was created; "
                               "nothing redraws it", kind="turn")
        if len(self.events) == 1:  # as the game is created, before anyone lays out (R11)
            seats = list(self.seats)
        elif self.phase == "setup" and all(s in self.ready for s in self.active):
            seats = self.active  # a log from before R11 was amended: the toss after lock-in
        else:
            raise refuse(rule, "The toss comes as the game is created, before anyone lays "
                               "out his forces", kind="turn")
        seed = event.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) \
                or event.get("order") != toss_order(seats, seed):
            raise refuse(rule, "The order of play must be the one the seeded toss gives",
                         field="order")
        self.toss = {"seed": seed, "order": list(event["order"])}
        self.order = list(event["order"])
        self._start_if_all_ready()

    def _apply_end(self, event: Json) -> None:
        seat = self._check_seat(event.get("seat"))
        if self.phase != "play" or seat in self.forfeited:
            raise refuse(self.END_RULE, "A game can be ended by agreement only while it is in "
                                        "play", kind="turn")
        self.agreed.add(seat)
        if all(s in self.agreed for s in self.active):
            self.over, self.turn = "agreed", None

    def _apply_reissued(self, event: Json) -> None:
        """The host gave a seat a new join code (R24): only before it locks in, never a
        computer's; its draft and name go, so its next holder learns nothing of them."""
        seat = self._check_reissue(self._check_seat(event.get("seat")))
        self.reissues[seat] = self.reissues.get(seat, 0) + 1
        self.names.pop(seat, None)
        self.fleets.pop(seat, None)

    def _check_reissue(self, seat: str) -> str:
        """A seat may be given a new join code (R24): not a computer's, not once locked in,
        and not more than MAX_REISSUES times (each may let a new holder join)."""
        if seat in self.bots:
            raise refuse("R24", f"{seat.title()} is the computer's seat; nobody can be given it",
                         field="seat", kind="turn")
        if self.phase != "setup" or seat in self.ready or seat in self.forfeited:
            raise refuse("R24", f"{seat.title()} has locked in (or left the game): only its own "
                                "recovery code can move the seat now", field="seat",
                         kind="turn")
        if self.reissues.get(seat, 0) >= MAX_REISSUES:
            raise refuse("R24", f"{seat.title()} has been given a new join code "
                                f"{MAX_REISSUES} times; no more can be issued for it",
                         field="seat", kind="turn")
        return seat

    def _apply_stand_in(self, event: Json) -> None:
        seat = self._check_seat(event.get("seat"))
        by = self._check_seat(event.get("by"))
        if self.move_minutes is None:
            raise refuse("R25", "This game has no move clock, so no seat can be handed to the "
                                "computer", kind="turn")
        if self.phase != "play":
            raise refuse("R25", "A seat can be handed to the computer only while the game is "
                                "in play", kind="turn")
        if seat not in self.owes:
            if len(self.owes) > 1:
                raise refuse("R25", "Only a seat that owes a move can be handed to the "
                                    f"computer; {' and '.join(s.title() for s in self.owes)} "
                                    "owe one", kind="turn")
            raise refuse("R25", "Only the seat whose turn it is can be handed to the computer; "
                                f"it is {(self.turn or '').title()}'s turn", kind="turn")
        if seat in self.bots or seat in self.stand_ins:
            raise refuse("R25", f"The computer already plays for {seat.title()}", kind="turn")
        if by not in self.opponents(seat) or by in self.forfeited:
            raise refuse("R25", f"Only an opponent of {seat.title()} can hand the seat to the "
                                "computer", field="by", kind="forbidden")
        self.stand_ins.add(seat)

    def _check_stand_in_flag(self, seat: str, event: Json) -> bool:
        """A move's ``stand_in`` flag (R25): true only for a seat handed to the computer."""
        stand_in = event.get("stand_in", False)
        if stand_in is not False and (stand_in is not True or seat not in self.stand_ins):
            raise refuse("R25", f"The computer plays for {seat} only when an opponent has "
                                "handed the seat to it", field="stand_in")
        return stand_in

    def _apply_stand_in_level(self, event: Json) -> Json:
        level = event.get("level")
        if self.phase == "over":
            raise refuse("R25", "The game is over: no computer stands in any more",
                         field="level", kind="turn")
        if not isinstance(level, str) or not 0 < len(level) <= MAX_LEVEL:
            raise refuse("R25", "'level' names one of the computer's levels", field="level")
        if self.level_changes >= MAX_LEVEL_CHANGES:
            raise refuse("R25", f"The stand-in's level has been chosen {MAX_LEVEL_CHANGES} "
                                "times in this game; it stays as it is", field="level",
                         kind="turn")
        self.stand_in_level = level
        self.level_changes += 1
        return {"type": "stand_in_level", "level": level}

    def _apply_play_on(self, event: Json) -> None:
        seat = self._check_seat(event.get("seat"))
        if self.phase != "play" or seat in self.forfeited or not self.agreed - {seat}:
            raise refuse(self.END_RULE, "There is no offer to end the game to decline",
                         kind="turn")
        self.agreed.clear()

    def _apply_resign(self, event: Json) -> None:
        seat = self._check_seat(event.get("seat"))
        if self.phase != "play" or seat in self.forfeited:
            raise refuse(self.END_RULE, "A player can resign only while the game is in play",
                         kind="turn")
        self.resigned, self.over, self.turn = seat, "resigned", None
