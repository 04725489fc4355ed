"""Broadside's documents, as types: what a player sends (the disposition, a move), the reports
and the views (docs/broadside.md, "B13 The documents" and "B14 The view"). The documents every
game gives alike (the result, the clock, the status, the host's view, each seat's entry) are
``referee.common.documents``'; ``tests/test_documents_typed.py`` plays real games and checks
every document against its type, both ways: no key missing, none undeclared, and every
declared key seen. The annotations are evaluated as the module loads (no ``from __future__
import annotations``): Python 3.11 reads ``NotRequired`` in a string annotation as required.
"""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from ..common.documents import Clock, MoveClock, Phase, ResultDocument, Seat, SeatInfo
from ..common.schema import Keywords

# "I 19": a cross of the harbour (B1)
CrossName = Annotated[str, Keywords(example="F 7", description="A point of the board (B1), "
                                    "column then row, written 'F 7'")]
ShipType = Literal["ship-of-the-line", "frigate", "brig", "cutter"]  # B3
Facing = Literal["up", "right", "down", "left"]  # B5
Turn = Literal["left", "right", "about"]  # B5; null: no turn
BuoyKind = Literal["sink", "pass"]  # B4, B6: a rock's buoy, or one that lets ships by
Battery = Literal["hit", "miss"]  # B4, B7
# why a game of these rules ends (``result.reason``): the ends every game shares, Red's fourth
# merchant ship sunk, or Red's whole fleet sunk (B10): docs/broadside.md, "B10 The end"
EndReason = Literal["agreed", "resigned", "forfeit", "merchants", "fleet"]


# -- what a player sends: B13 ------------------------------------------------------------------

class ShipPlaced(TypedDict):
    """A warship of a disposition: its type and starting cross (B3)."""
    type: ShipType
    at: CrossName


class Disposition(TypedDict):
    """A disposition in its normal form (B3, B4, B13): Red's ships; Blue's ships, his buoys
    on the yellow circles and his batteries' sites."""
    ships: list[ShipPlaced]
    buoys: NotRequired[dict[CrossName, BuoyKind]]
    batteries: NotRequired[dict[str, Battery]]


class Sail(TypedDict):
    """A move (B5): the ship at ``ship`` turns (or not) and sails in a straight run to ``to``."""
    ship: CrossName
    turn: Turn | None
    to: CrossName


Pass = TypedDict("Pass", {"pass": Literal[True]})  # "pass", a keyword: the functional form
Pass.__doc__ = """A pass, only when a side has no legal move (B5)."""
Move = Sail | Pass


# -- reports: B11 ------------------------------------------------------------------------------

# a ship's number among its side's ships of its type, along its start line: Frigate 2
ShipNumber = Annotated[int, Keywords(minimum=1, maximum=4)]


class ShipNamed(TypedDict):
    """Whose ship, of what type and its number among them (B11)."""
    side: Seat
    type: ShipType
    number: ShipNumber


class BuoyMet(TypedDict):
    """A buoy a ship sailed onto, revealed (B6)."""
    at: CrossName
    kind: BuoyKind


Broadside = TypedDict("Broadside", {
    "from": CrossName, "at": CrossName, "side": Seat, "type": ShipType, "number": ShipNumber,
    "target": ShipType | Literal["merchant"], "target_number": ShipNumber | None,
    "kind": Literal["exchange", "crossed-t", "merchant"]})
Broadside.__doc__ = """A broadside fired at the end of a move (B8, B9): from a ship at a ship
or a merchant ship (``target``: the ship type fired at, or ``merchant``; ``target_number``:
its number, null for a merchant ship)."""


class MastsLost(TypedDict):
    """Masts a ship lost in the move, where the move left it (B7, B9, B11)."""
    side: Seat
    type: ShipType
    number: ShipNumber
    at: CrossName
    lost: int
    masts: int


class Sunk(TypedDict):
    """A warship sunk, and by what: a broadside, the batteries or a rock (B9, B11)."""
    side: Seat
    type: ShipType
    number: ShipNumber
    at: CrossName
    by: Literal["broadside", "batteries", "rock"]


Report = TypedDict("Report", {
    "n": int, "seat": Seat, "move": dict[str, Any], "passed": bool,
    "ship": ShipNamed | None, "from": CrossName | None, "turn": Turn | None,
    "facing": Facing | None, "to": CrossName | None, "path": list[CrossName],
    "stopped_by": CrossName | None, "buoys": list[BuoyMet], "battery_masts": int,
    "broadsides": list[Broadside], "masts_lost": list[MastsLost], "sunk": list[Sunk],
    "merchants_sunk": list[CrossName], "stand_in": NotRequired[bool], "text": str})
Report.__doc__ = """A move's report as the referee keeps it (B11): the move, where the ship
sailed and why it stopped, the buoys it met, the masts the batteries took, the broadsides, the
masts lost, the ships and merchant ships sunk, and its sentence; ``stand_in`` on a move the
computer made for an absent player (R25)."""

SeatReport = TypedDict("SeatReport", {
    "n": int, "seat": Seat, "move": dict[str, Any], "passed": bool,
    "ship": ShipNamed | None, "from": CrossName | None, "turn": Turn | None,
    "facing": Facing | None, "to": CrossName | None, "path": list[CrossName],
    "stopped_by": CrossName | None, "buoys": list[BuoyMet], "battery_masts": int,
    "broadsides": list[Broadside], "masts_lost": list[MastsLost], "sunk": list[Sunk],
    "merchants_sunk": list[CrossName], "stand_in": bool, "text": str})
SeatReport.__doc__ = """A report as both seats are told it (B11): the report, ``stand_in``
always, and its sentence."""


# -- views: B14 --------------------------------------------------------------------------------

class Warship(TypedDict):
    """A warship on the board (B14): whose, its type, its number among its side's ships of
    that type and the name it gives ("Frigate 2"), cross, facing and masts left."""
    side: Seat
    type: ShipType
    number: ShipNumber
    name: str
    at: CrossName
    facing: Facing
    masts: int
    sunk: bool


class Merchant(TypedDict):
    """A merchant ship at its dock circle, the cross opposite it, and whether it is sunk (B9)."""
    at: CrossName
    opposite: CrossName
    sunk: bool


class Buoy(TypedDict):
    """A yellow circle's buoy as the seat may know it (B4, B6, B12)."""
    kind: Literal["sink", "pass", "unknown"]
    revealed: bool


class View(TypedDict):
    """A seat's view (B14): the fields every view has, the harbour, the warships, the
    merchant ships, the buoys and batteries as the seat may know them, the seat's legal moves
    at its turn; ``revealed`` (the other seat's disposition) only once the game is over."""
    rules: Literal["broadside"]
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
    move_minutes: int | None
    disposition: Disposition | None
    board: dict[str, Any]  # the harbour as data (B1: board.json)
    ships: list[Warship]
    merchants: list[Merchant]
    buoys: dict[CrossName, Buoy]
    batteries: dict[str, Literal["hit", "miss", "unknown"]]
    legal: list[Sail | Pass]
    reports: list[SeatReport]
    result: ResultDocument | None
    revealed: NotRequired[dict[Seat, Disposition]]


class ServedView(View):
    """The view the server serves (``GET /api/v1/games/{id}``): the core's view with the move
    clock the server keeps (R25), null without one."""
    move_clock: MoveClock | None


class MoveRecord(TypedDict):
    """A seat's move record: the fixed order (B5), then every move's report (B11)."""
    rules: Literal["broadside"]
    id: str
    phase: Phase
    you: Seat
    order: list[Seat]
    moves: list[SeatReport]
    result: ResultDocument | None
