"""The documents that cross the core's boundary, as types: the events of the log, the reports,
and the views each seat, the host and the server are given: the types at the core's
boundaries.

Each ``TypedDict`` names the section of ``docs/api.md`` (the JSON contract) or
``docs/rules.md`` / ``docs/rulings.md`` that describes it in words; the core's functions are
annotated with them, and ``tests/test_documents_typed.py`` plays real games and checks that
every document carries exactly the keys its type declares, so the types cannot drift from
the documents. Keys some copies of a document lack (a report as one seat is given it, an
event only some moves carry) are ``NotRequired``.

Names with a hyphen or a Python keyword (``"from"``, ``"atom-bomber"``) are written in the
functional form. The annotations are evaluated as the module loads (no ``from __future__
import annotations``): Python 3.11 reads ``NotRequired`` in a string annotation as required.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

# the documents every rule set gives alike (the result, the clock, the status, the host's)
from ..common.documents import (  # noqa: F401  (re-exported with the rest)
    Clock,
    HostSeat,
    HostStatus,
    HostView,
    MoveClock,
    Phase,
    ResultDocument,
    Seat,
    SeatInfo,
    Seating,
    SideScoreDocument,
    StatusSeat,
    StatusView,
    Toss,
)
from ..common.schema import Keywords

# "K 10" (R1): a square of the chart, column then row
SquareName = Annotated[str, Keywords(
    pattern=r"^\s*[A-Ua-u]\s*([1-9]|1[0-9]|2[01])\s*$", example="K 10",
    description="A square of the chart, column then row (R1)")]
# why a game of these rules ends (``result.reason``): the ends every game shares, or no seat
# left able to attack (R14): docs/api.md, "A player's view"
EndReason = Literal["agreed", "resigned", "forfeit", "exhausted"]


# -- what a player sends: docs/api.md "The disposition" and "Moves" ---------------------------

class ShipEntry(TypedDict):
    """A ship of a disposition (R7), ``dir`` for one that lies across or down:
    docs/api.md, "The disposition"."""
    type: str
    at: SquareName
    dir: NotRequired[str]


class AircraftEntry(TypedDict):
    """An aircraft of a disposition and the square it stands on (R9): docs/api.md,
    "The disposition"."""
    type: str
    at: SquareName


class Disposition(TypedDict):
    """A disposition as the referee normalised it (R3-R9): docs/api.md, "The disposition:
    what a player buys and where he puts it"."""
    land: list[SquareName]
    ships: list[ShipEntry]
    aircraft: list[AircraftEntry]
    guns: list[SquareName]
    salvoes: int


class CostDocument(TypedDict):
    """What a disposition costs (R3, R4): docs/api.md, "The disposition", the answer to
    ``PUT .../disposition``."""
    ships: int
    forces: int
    total: int
    unspent: int


Move = TypedDict("Move", {"weapon": str, "at": list[SquareName], "target": Seat,
                          "from": NotRequired[SquareName]})
Move.__doc__ = """A move in its normal form, as the log keeps it (R12, R13, R23): docs/api.md,
"Moves"; ``at`` always a list, ``from`` only for an aircraft."""


# -- the event log: docs/rules.md "The game as an event log" ----------------------------------

class CreatedEvent(TypedDict):
    """The first event (R10, R23, R25): docs/rules.md, "The game as an event log"."""
    type: Literal["created"]
    id: str
    seats: list[Seat]
    alliances: bool | list[list[Seat]]
    disposition_minutes: int
    move_minutes: int | None
    bots: dict[Seat, str]
    at: float


class TossEvent(TypedDict):
    """The toss for the order of play, always the second event (R11): docs/rules.md, "The
    game as an event log"; docs/rulings.md, "R11"."""
    type: Literal["toss"]
    seed: int
    order: list[Seat]


class JoinedEvent(TypedDict):
    """A seat is taken under a name (R10, R24): docs/rules.md, "The game as an event log"."""
    type: Literal["joined"]
    seat: Seat
    name: str


class DispositionEvent(TypedDict):
    """A seat's disposition, written into the log as it locks in (R3-R10): docs/rules.md,
    "The game as an event log"."""
    type: Literal["disposition"]
    seat: Seat
    disposition: Disposition


class ReadyEvent(TypedDict):
    """A seat locks in, with the salt and fingerprint of its disposition (R10, R21):
    docs/rules.md, "The game as an event log" and "A referee nobody has to trust"."""
    type: Literal["ready"]
    seat: Seat
    salt: str
    fingerprint: str


class ClockEvent(TypedDict):
    """The host gives the disposition clock more minutes (R10): docs/rules.md, "The game as
    an event log"."""
    type: Literal["clock"]
    minutes: int


class ForfeitEvent(TypedDict):
    """The host forfeits a seat once the clock has run out (R10): docs/rules.md, "The game as
    an event log"."""
    type: Literal["forfeit"]
    seat: Seat
    at: float


class MoveEvent(TypedDict):
    """A move (R12), ``stand_in`` only on one the computer made for an absent player (R25):
    docs/rules.md, "The game as an event log"."""
    type: Literal["move"]
    seat: Seat
    move: Move
    stand_in: NotRequired[bool]


class StandInEvent(TypedDict):
    """An opponent hands a seat whose move clock ran out to the computer (R25):
    docs/rules.md, "The game as an event log"."""
    type: Literal["stand_in"]
    seat: Seat
    by: Seat


class StandInLevelEvent(TypedDict):
    """The host chooses the level of the computer that stands in for an absent player (R25):
    docs/rules.md, "The game as an event log"."""
    type: Literal["stand_in_level"]
    level: str


class SeatEvent(TypedDict):
    """``reissued`` (R24), ``end``, ``play_on`` and ``resign`` (R14): a seat and nothing
    else. docs/rules.md, "The game as an event log"."""
    type: Literal["reissued", "end", "play_on", "resign"]
    seat: Seat


Event = (CreatedEvent | TossEvent | JoinedEvent | DispositionEvent | ReadyEvent | ClockEvent
         | ForfeitEvent | MoveEvent | StandInEvent | StandInLevelEvent | SeatEvent)

EVENTS: dict[str, type] = {  # each event type and the TypedDict that describes it
    "created": CreatedEvent, "toss": TossEvent, "joined": JoinedEvent,
    "disposition": DispositionEvent, "ready": ReadyEvent, "clock": ClockEvent,
    "forfeit": ForfeitEvent, "move": MoveEvent, "stand_in": StandInEvent,
    "reissued": SeatEvent, "end": SeatEvent, "play_on": SeatEvent, "resign": SeatEvent,
    "stand_in_level": StandInLevelEvent,
}


# -- reports: docs/api.md "Reports: one per move" ---------------------------------------------

class Hit(TypedDict):
    """New hits on one ship (R19, R20): docs/api.md, "Reports", ``hits``."""
    ship: str
    new_hits: int
    sunk: bool


class Shot(TypedDict):
    """One shot of a salvo (R15, R19): docs/api.md, "Reports", ``shots``."""
    at: SquareName
    result: str | None
    new: bool
    sunk: bool
    aircraft: str | None


class Seen(TypedDict):
    """One square an R.P. saw (R17): docs/api.md, "Reports", ``seen``."""
    square: SquareName
    terrain: Literal["land", "sea"]
    piece: str | None
    hit: bool
    spent: bool
    aircraft: str | None


Report = TypedDict("Report", {
    "n": int, "by": Seat, "target": Seat, "weapon": str, "at": list[SquareName],
    "from": SquareName | None, "shot_down": bool, "hits": list[Hit],
    "destroyed": dict[str, int], "shots": list[Shot] | None, "seen": list[Seen] | None,
    "squares_hit": list[SquareName], "gun": SquareName | None,
    "stand_in": NotRequired[bool],
})
Report.__doc__ = """The full report of a move, as the referee keeps it (R15-R20): docs/api.md,
"Reports: one per move"."""

SeatReport = TypedDict("SeatReport", {
    "n": int, "by": Seat, "target": Seat, "weapon": str | None, "at": list[SquareName],
    "from": NotRequired[SquareName | None], "shot_down": bool | None, "hits": list[Hit],
    "destroyed": dict[str, int] | None, "shots": list[Shot] | None,
    "seen": list[Seen] | None, "squares_hit": NotRequired[list[SquareName]],
    "gun": NotRequired[SquareName | None], "stand_in": NotRequired[bool],
    "withheld": NotRequired[bool], "text": str,
})
SeatReport.__doc__ = """One seat's copy of a report (R20, R21): docs/api.md, "Reports: one per
move", the table of who is given which field; ``text`` on every copy."""


# -- views: docs/api.md "A player's view", "The move record", "The host status" ---------------

class Damage(TypedDict):
    """What has befallen a seat's chart: docs/api.md, "A player's view", ``damage``."""
    hit: list[SquareName]
    destroyed: list[SquareName]
    flown: list[SquareName]
    spent: list[SquareName]


class Revealed(TypedDict):
    """Another seat's chart, once the game is over (R21): docs/api.md, "A player's view",
    ``revealed``."""
    disposition: Disposition | None
    damage: Damage | None


class View(TypedDict):
    """A seat's view, as the core gives it (R20, R21): docs/api.md, "A player's view";
    ``revealed`` only once the game is over."""
    id: str
    phase: Phase
    you: Seat
    version: int
    seats: dict[Seat, SeatInfo]
    allies: list[Seat]
    turn: Seat | None
    order: list[Seat]
    sides: list[list[Seat]]
    clock: Clock
    disposition: Disposition | None
    damage: Damage | None
    forces: dict[str, int] | None
    reports: list[SeatReport]
    result: ResultDocument | None
    revealed: NotRequired[dict[Seat, Revealed]]


class ServedView(View):
    """The view the server serves (``GET /api/v1/games/{id}``): the core's view with the
    move clock the server keeps (R25). docs/api.md, "A player's view"."""
    move_clock: MoveClock | None


class MoveRecord(TypedDict):
    """A seat's move record (R11, R20, R21): docs/api.md, "The move record"."""
    id: str
    phase: Phase
    you: Seat
    toss: Toss | None
    moves: list[SeatReport]
    result: ResultDocument | None


class FingerprintCheck(TypedDict):
    """A locked-in seat's fingerprint checked against its disposition and salt (R21):
    docs/rules.md, "A referee nobody has to trust"."""
    seat: Seat
    fingerprint: str
    salt: str | None
    matches: bool


class PostmortemSeat(TypedDict):
    """A seat's name and disposition on the post-mortem (R21): docs/rules.md, "A referee
    nobody has to trust"."""
    name: str
    disposition: Disposition


class PostmortemView(TypedDict):
    """Everything the post-mortem shows a seat, only once the game is over (R21): its view,
    every seat's disposition and the fingerprint checks. docs/rules.md, "A referee nobody has
    to trust"."""
    view: View
    seats: dict[Seat, PostmortemSeat]
    names: dict[Seat, str]
    checks: list[FingerprintCheck]


class GameFile(TypedDict):
    """What a game file holds of the game (R21): docs/api.md, "Game files: export and
    import"."""
    fingerprints: dict[Seat, str]
    salts: dict[Seat, str]
    result: ResultDocument | None
    events: list[Event]


class FileSignature(TypedDict):
    """The exporting referee's Ed25519 signature of a game file without this member:
    docs/api.md, "Signed files and the club's records"."""
    algorithm: Literal["Ed25519"]
    public_key: str
    value: str


class ExportedGame(GameFile):
    """``GET /api/v1/games/{id}/export``: docs/api.md, "Game files: export and import";
    ``signature`` on a game the referee counts in its records."""
    format: str
    version: int
    rules: str
    id: str
    exported_at: float
    signature: NotRequired[FileSignature]
