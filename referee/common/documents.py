"""The documents every rule set's core gives alike, as types: a finished game's result, the
disposition clock, the game's public state, what a join link shows and what the host sees
(docs/api.md, "A player's view" and "The host status"). Each rule set's own documents
(``naval_war/documents.py``) are typed beside its core. As there, the annotations are evaluated
as the module loads (no ``from __future__ import annotations``).
"""

from typing import Annotated, Any, Literal, TypedDict

from .schema import Keywords, Named

# a JSON object as the API sends it and the log keeps it, where no TypedDict says more (a
# rule set's own document read by shared code, a document being checked as it comes in)
Json = dict[str, Any]
# each rule set names its own seats ("red", "blue" ...; R23): the OpenAPI document lists every
# registered rule set's (``Named``)
Seat = Annotated[str, Named("seat")]
# a rule set's name in the API ("naval-war" ...), one of the registered rule sets'
Rules = Annotated[str, Named("rules")]
# when, in seconds since the epoch
Time = Annotated[float, Keywords(description="Seconds since the epoch")]
Phase = Literal["setup", "play", "over"]  # before play (dispositions), in play, over
# the ends every game shares (``Lifecycle``): agreeing to end (R14), resigning, a forfeit that
# leaves one side (R10)
SharedEndReason = Literal["agreed", "resigned", "forfeit"]
# why a game ended (``Outcome.reason``): a shared end or one of its rule set's own, each rule
# set declaring its ends as a ``Literal`` in its documents and on its ``Game``
# (``Lifecycle.END_REASONS``), which the seam collects (``rulesets.end_reasons``)
EndReason = Annotated[str, Named("end_reason")]


DiceRoll = TypedDict("DiceRoll", {"n": int, "value": int, "for": str})  # "for": a keyword
DiceRoll.__doc__ = """A roll of the referee's dice (BB24): its number from 1, its face and what
the rules drew it for, as every view lists it (``dice.rolls``)."""


class Dice(TypedDict):
    """The dice as every seat may see them, where the referee rolls dice (BB24): the
    commitment, each seat's seed once it has locked in, every roll so far, and the referee's
    secret seed once it is revealed at the end."""
    commitment: str | None
    seeds: dict[Seat, str | None]
    rolls: list[DiceRoll]
    secret: str | None


class SideScoreDocument(TypedDict):
    """A side and its points together (R22, R23): docs/api.md, "A player's view",
    ``result.sides``."""
    seats: list[Seat]
    score: int


class ResultDocument(TypedDict):
    """The result once the game is over (R14, R22, R23): docs/api.md, "A player's view",
    ``result``."""
    scores: dict[Seat, int]
    winner: Seat | None
    winners: list[Seat]
    sides: list[SideScoreDocument]
    reason: EndReason


class Clock(TypedDict):
    """The disposition clock (R10): docs/api.md, "A player's view", ``clock``."""
    minutes: int
    deadline: float


class StatusSeat(TypedDict):
    """A seat in the game's public state: docs/api.md, "The host status", ``seats``."""
    name: str | None
    ready: bool
    forfeited: bool
    bot: str | None
    stand_in: bool
    agreed_to_end: bool  # an offer to end the game stands from this seat (R14)


class StatusView(TypedDict):
    """The game's public state as the server runs it, nothing of any seat's forces (R21,
    R25): the server's own reading; its host's part is docs/api.md, "The host status"."""
    id: str
    phase: Phase
    version: int
    seats: dict[Seat, StatusSeat]
    turn: Seat | None
    turn_began: int
    owes: list[Seat]  # the seats that owe a move now (several where orders are sealed)
    owed_since: dict[Seat, int]  # each one's move clock, from that event (R25)
    simultaneous: bool  # whether the rules seal orders that several seats owe at once
    clock: Clock
    move_minutes: int | None
    stand_in_level: str | None  # the host's choice (R25); None until he makes one
    result: ResultDocument | None


class SeatInfo(TypedDict):
    """What every seat's view says of each seat, in every game: docs/api.md, "A player's
    view", ``seats{}``."""
    name: str | None
    ready: bool
    bot: str | None
    forfeited: bool
    agreed_to_end: bool
    stand_in: bool
    fingerprint: str | None
    salt: str | None


class Toss(TypedDict):
    """The toss's seed and the order it gave (R11, T6; Broadside's fixed order, B5, has no
    seed): docs/api.md, "The move record"."""
    seed: int | None
    order: list[Seat]


class MoveClock(TypedDict):
    """The move clock of the seat whose turn it is (R25): docs/api.md, "A player's view",
    ``move_clock``: what the server adds to every game's view."""
    minutes: int
    seat: Seat | None
    began: float | None
    deadline: float | None
    stand_in_level: str


class OwingClock(TypedDict):
    """The move clock of one seat that owes a sealed order (R25)."""
    began: float
    deadline: float


class SealedMoveClock(MoveClock):
    """The move clock where orders are sealed (``Lifecycle.SIMULTANEOUS``): besides the first
    owing seat's, each owing seat's own (R25), by seat."""
    owing: dict[Seat, OwingClock]


class HostSeat(StatusSeat):
    """A seat on the host status, with when its device last asked (R24): docs/api.md,
    "The host status"."""
    last_seen: float | None


class HostStatus(TypedDict):
    """``GET /api/v1/games/{id}/host`` (R24): docs/api.md, "The host status"."""
    id: str
    phase: Phase
    version: int
    clock: Clock
    move_clock: MoveClock | None
    seats: dict[Seat, HostSeat]
    turn: Seat | None
    result: ResultDocument | None
    host_seat: Seat | None
    now: float
    stand_in_level: str  # R25: the level of the computer that stands in


class Seating(TypedDict):
    """What a join link's holder sees before he joins (R11, R23): the seats, the order and
    the sides; docs/api.md, "Joining, recovery codes and hosting (R24)"."""
    id: str
    seats: list[Seat]
    order: list[Seat]
    sides: list[list[Seat]]


class HostView(TypedDict):
    """What the core gives the host (R24): docs/api.md, "The host status"."""
    id: str
    phase: Phase
    version: int
    clock: Clock
    seats: dict[Seat, StatusSeat]
    turn: Seat | None
    result: ResultDocument | None


class SealedHostView(HostView):
    """What the core gives the host of a game whose orders are sealed
    (``Lifecycle.SIMULTANEOUS``): besides the rest, the seats that owe one now."""
    owes: list[Seat]
