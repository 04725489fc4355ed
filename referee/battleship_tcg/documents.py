"""Battleship: The Tactical Combat Game's documents, as types: what a player sends (the
disposition, a move), the reports and the views (docs/battleship-tcg.md, "T11 The documents"
and "T12 The view"). The documents every game gives alike (the result, the clock, the status,
the host's view, each seat's entry) are ``referee.common.documents``';
``tests/test_documents_typed.py`` plays real games and checks every document against its type,
both ways: no key missing, none undeclared, and every declared key seen. The annotations are
evaluated as the module loads (no ``from __future__ import annotations``): Python 3.11 reads
``NotRequired`` in a string annotation as required.
"""

from typing import Annotated, Literal, NotRequired, TypedDict

from ..common.documents import (
    Clock,
    MoveClock,
    Phase,
    ResultDocument,
    Seat,
    SeatInfo,
    Seating,
    Toss,
)
from ..common.schema import Keywords

# "D 3" (T1): a hole of one half, column then row
HoleName = Annotated[str, Keywords(example="D 3", description="A hole of one half (T1): "
                                   "column then row, or its spoken word ('Delta 3')")]
BoatType = Literal["carrier", "battleship", "weapons-platform", "submarine", "patrol-boat"]
Direction = Literal["down", "up-right", "down-right"]  # T4
ShotResult = Literal["miss", "hit", "rescued"]  # T8
# what a shot found on a hole (T12 ``found``): a boat, the Captured Man, or nothing
Found = Literal["carrier", "battleship", "weapons-platform", "submarine", "patrol-boat", "man"]
# why a game of these rules ends (``result.reason``): the ends every game shares, or a player
# rescued his Captured Man (T9): docs/battleship-tcg.md, "T9 The end"
EndReason = Literal["agreed", "resigned", "forfeit", "rescued"]


# -- what a player sends: T11 ------------------------------------------------------------------

class Boat(TypedDict):
    """A boat of a disposition: its type, its first hole and the way its line runs (T3, T4)."""
    type: BoatType
    at: HoleName
    dir: Direction


class Disposition(TypedDict):
    """A disposition in its normal form, the boats in the catalogue's order, and the hole
    the Captured Man hides on (T3-T5, T11)."""
    boats: list[Boat]
    man: HoleName


class Move(TypedDict):
    """A move as the log keeps it: the hole shot at (T7, T11); a client may send it as a
    one-item list and name the one opponent as ``target``."""
    at: HoleName


# -- reports: T8, T11 --------------------------------------------------------------------------

class Report(TypedDict):
    """A shot's report as the referee keeps it (T8, T11); ``stand_in`` on a shot the computer
    made for an absent player (R25)."""
    n: int
    by: Seat
    target: Seat
    at: list[HoleName]
    result: ShotResult
    sunk: BoatType | None
    stand_in: NotRequired[bool]


class SeatReport(Report):
    """A seat's copy of a report: the report and its sentence (T8, T11)."""
    text: str


# -- views: T12 --------------------------------------------------------------------------------

class Card(TypedDict):
    """The mission card in play (T2): ``standard`` or ``drawn`` from a seed."""
    name: Literal["standard", "drawn"]
    seed: int | None


class Shot(TypedDict):
    """A shot at one half (T8, T12): ``found`` on the seat's own half, and on both once the
    game is over."""
    n: int
    at: HoleName
    result: ShotResult
    sunk: BoatType | None
    found: NotRequired[Found | None]


class Revealed(TypedDict):
    """The opponent's disposition and damage, once the game is over (T9, T12)."""
    disposition: Disposition
    damage: dict[BoatType, list[HoleName]]


class View(TypedDict):
    """A seat's view (T12): the fields every view has, the card and both halves' islands,
    the seat's own disposition and damage, the shots at each half, the boats sunk on each;
    ``revealed`` only once the game is over."""
    rules: Literal["battleship-tcg"]
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
    card: Card
    islands: dict[Seat, list[HoleName]]
    disposition: Disposition | None
    damage: dict[BoatType, list[HoleName]] | None
    shots: dict[Seat, list[Shot]]
    sunk: dict[Seat, list[BoatType]]
    reports: list[SeatReport]
    result: ResultDocument | None
    revealed: NotRequired[dict[Seat, Revealed]]


class ServedView(View):
    """The view the server serves (``GET /api/v1/games/{id}``): the core's view with the move
    clock the server keeps (R25), null without one."""
    move_clock: MoveClock | None


class MoveRecord(TypedDict):
    """A seat's move record: the toss (T6), then every shot (T8)."""
    rules: Literal["battleship-tcg"]
    id: str
    phase: Phase
    you: Seat
    toss: Toss | None
    moves: list[SeatReport]
    result: ResultDocument | None


class TcgSeating(Seating):
    """What a join link's holder sees before he joins: the seats, the order drawn at creation
    (T6) and, the card being public, each half's islands (T2)."""
    islands: dict[Seat, list[HoleName]]
