"""Broadsides and Boarding Parties' documents, as types: what a player sends (the disposition, an
order), what happened as the referee tells it, the reports and the views
(docs/broadsides-boarding.md, "BB26 The documents", "BB25 What each player is told" and "BB24
The dice"). The documents every game gives alike (the result, the clocks, the status, the host's
view, each seat's entry, the dice) are ``referee.common.documents``';
``tests/test_documents_typed.py`` plays real games and checks every document against its type,
both ways: no key missing, none undeclared, and every declared key seen. The annotations are
evaluated as the module loads (no ``from __future__ import annotations``): Python 3.11 reads
``NotRequired`` in a string annotation as required.
"""

from typing import Annotated, Any, Literal, NotRequired, TypedDict

from ..common.documents import (
    Clock,
    Dice,
    Phase,
    ResultDocument,
    SealedMoveClock,
    Seat,
    SeatInfo,
)
from ..common.schema import Keywords
from .deck import CELLS

# "D4": a cell of a deck (BB15), section A-H then position 3 (port rail), 4 or 5 (starboard)
Cell = Annotated[str, Keywords(example="D4", enum=list(CELLS),
                               description="A cell of a deck (BB15): a section A-H, then 3 "
                               "(port rail), 4 (centreline) or 5 (starboard rail)")]
# "red B5": where a piece stands (BB21), the ship's seat and a cell
Place = Annotated[str, Keywords(example="red B5", description="Where a piece stands (BB21): "
                                "the seat whose ship it is, then a cell")]
# "F 7": a dot of the sea (BB1)
Dot = Annotated[str, Keywords(example="F 7", description="A dot of the sea (BB1), column then "
                              "row")]
Section = Literal["A", "B", "C", "D", "E", "F", "G", "H"]  # BB15, bow to stern
Heading = Literal["N", "NE", "E", "SE", "S", "SW", "W", "NW"]  # BB2, clockwise from north
Card = Literal["stay", "forward", "starboard", "port", "damaged"]  # BB4
Kind = Literal["plot", "declaration", "promotion", "boarding"]  # the orders a seat may owe
Side = Literal["port", "starboard"]  # BB18: a ship's touching side
Effect = Literal["miss", "hull", "rail 3", "mast", "rail 5"]  # BB11: what a cannon's roll does
# why a game of these rules ends (``result.reason``): the ends every game shares, a ship sunk,
# a player with every cannon, crewmember and Captain lost, or a Captain eliminated in
# hand-to-hand: docs/broadsides-boarding.md, "BB23 The end"
EndReason = Literal["agreed", "resigned", "forfeit", "sunk", "all-lost", "captain"]


# -- what a player sends: BB26 -----------------------------------------------------------------

class Disposition(TypedDict):
    """A disposition (BB16): where the seat's Captain stands on its deck."""
    captain: Cell


class Plot(TypedDict):
    """A plot (BB4-BB6) in its normal form: three cards in order."""
    kind: Literal["plot"]
    stage: int
    cards: list[Card]


class Declaration(TypedDict):
    """A declaration (BB9, BB10) in its normal form: a section, or null (holding fire), for
    each cannon that bears; ``standing`` when it was given as standing orders."""
    kind: Literal["declaration"]
    stage: int
    targets: dict[Cell, Section | None]
    standing: NotRequired[Literal[True]]


class Promotion(TypedDict):
    """A promotion (BB7, BB19) in its normal form: the crewmember made Captain."""
    kind: Literal["promotion"]
    stage: int
    promote: Place


Movement = TypedDict("Movement", {"from": Place, "to": Place,  # "from": a keyword
                                  "captain": NotRequired[Literal[True]]})
Movement.__doc__ = """One movement of a boarding turn (BB21): a crewmember, or the Captain
(``captain``), from one place to the next."""


class BoardingTurn(TypedDict):
    """A boarding turn (BB21) in its normal form: up to three movements."""
    kind: Literal["boarding"]
    stage: int
    moves: list[Movement]


# an order as the log keeps it (``POST .../moves`` takes it with ``kind`` and ``stage`` optional)
Move = Plot | Declaration | Promotion | BoardingTurn


# -- what happened: BB25 -----------------------------------------------------------------------
# each as the log keeps it in a report's ``happened``; a seat's copy adds its sentence (``text``)

class RoundBegun(TypedDict):
    """A round begins (BB4-BB7): each seat's Damaged cards required and who cannot plot."""
    what: Literal["round"]
    round: int
    required: dict[Seat, int]
    cannot_plot: list[Seat]
    text: NotRequired[str]


ShipMoved = TypedDict("ShipMoved", {"from": Dot, "to": Dot, "heading": Heading,
                                    "blocked": bool, "idle": bool})
ShipMoved.__doc__ = """Where a card took a ship (BB2, BB3): from, to and its heading after;
``blocked`` by an island or the edge, ``idle`` when its cards this round are lost."""


class CardTurned(TypedDict):
    """A card of both plots turned up and played (BB2, BB5)."""
    what: Literal["card"]
    card: int
    cards: dict[Seat, Card]
    ships: dict[Seat, ShipMoved]
    text: NotRequired[str]


class Collision(TypedDict):
    """The ships meet, or pass each other trading dots (BB17)."""
    what: Literal["collision"]
    at: Dot
    traded: bool
    text: NotRequired[str]


class NoVolley(TypedDict):
    """The ships lie within 1 dot but no cannon bears (BB8, BB9)."""
    what: Literal["no volley"]
    card: int
    text: NotRequired[str]


class Shot(TypedDict):
    """A cannon fired (BB11): at which section, its roll and what it did."""
    seat: Seat
    cannon: Cell
    target: Section
    roll: int
    effect: Effect


class Removed(TypedDict):
    """What a volley removed from a seat (BB11, BB12): cannons, crewmembers, the Captain."""
    cannons: list[Cell]
    crew: int
    captain: bool


class Volley(TypedDict):
    """A volley (BB8-BB14, BB19): every shot, then all it destroyed, removed at once; each
    ship's hull markers and masts where they changed, and its sections beyond repair."""
    what: Literal["volley"]
    final: bool
    shots: list[Shot]
    removed: dict[Seat, Removed]
    hull: dict[Seat, dict[Section, int]]
    masts: dict[Seat, dict[Cell, int]]
    beyond_repair: dict[Seat, list[Section]]
    captains_lost: list[Seat]
    text: NotRequired[str]


LieRoll = TypedDict("LieRoll", {"for": str, "roll": int})  # "for": a keyword
LieRoll.__doc__ = """A die for the ships' lie (BB18): the orientation or a ship's side."""


class Laid(TypedDict):
    """The ships laid side by side (BB18): facing the same way or opposite ways, each ship's
    touching side, and the dice that decided."""
    what: Literal["laid"]
    orientation: Literal["same", "opposite"]
    touching: dict[Seat, Side]
    rolls: list[LieRoll]
    text: NotRequired[str]


class FirstBoarder(TypedDict):
    """The dice for the first boarder (BB20): each try's faces, and who boards first."""
    what: Literal["first"]
    rolls: list[dict[Seat, int]]
    first: Seat
    text: NotRequired[str]


class Movements(TypedDict):
    """A boarding turn's movements, made (BB21)."""
    what: Literal["movements"]
    seat: Seat
    moves: list[Movement]
    text: NotRequired[str]


class Eliminated(TypedDict):
    """The piece a fight's round eliminated (BB22)."""
    seat: Seat
    piece: Literal["crew", "captain"]


class FightRound(TypedDict):
    """One round of a fight (BB22): both dice, the totals, the piece eliminated (none on a
    tie)."""
    rolls: dict[Seat, int]
    totals: dict[Seat, int]
    eliminated: Eliminated | None


class Fight(TypedDict):
    """Hand-to-hand at a place (BB22): its rounds and who holds the place after."""
    what: Literal["fight"]
    at: Place
    rounds: list[FightRound]
    won_by: Seat | None
    text: NotRequired[str]


class Promoted(TypedDict):
    """A crewmember made Captain where he stands (BB7, BB19)."""
    what: Literal["promotion"]
    seat: Seat
    at: Place
    text: NotRequired[str]


class Ended(TypedDict):
    """The game ends by the rules (BB23): why, the winner (none on a draw), the ships sunk and
    the players who lost everything."""
    what: Literal["end"]
    reason: Literal["sunk", "all-lost", "captain"]
    winner: Seat | None
    sunk: list[Seat]
    all_lost: list[Seat]
    text: NotRequired[str]


Happened = (RoundBegun | CardTurned | Collision | NoVolley | Volley | Laid | FirstBoarder
            | Movements | Fight | Promoted | Ended)


# -- reports: BB25 -----------------------------------------------------------------------------

class Report(TypedDict):
    """A report as the referee keeps it (BB25): the order, which stage and round it answered,
    and everything it set in train; ``stand_in`` on an order the computer gave for an absent
    player (R25)."""
    n: int
    seat: Seat
    kind: Kind
    stage: int
    round: int
    order: Move
    happened: list[Happened]
    stand_in: NotRequired[Literal[True]]


class ShownPlot(TypedDict):
    """Another seat's plot as a seat may know it (BB5): each card null until turned up."""
    kind: Literal["plot"]
    stage: int
    cards: list[Card | None]


class SealedOrder(TypedDict):
    """Another seat's declaration or promotion while it is sealed (BB10): only that it is in."""
    kind: Kind
    stage: int


class SeatReport(TypedDict):
    """A report as a seat is told it (BB25): the order as it may know it (``sealed`` while it
    is), ``stand_in`` always, what followed and its sentence."""
    n: int
    seat: Seat
    kind: Kind
    stage: int
    round: int
    order: Move | ShownPlot | SealedOrder
    sealed: bool
    stand_in: bool
    happened: list[Happened]
    text: str


# -- views: BB26 -------------------------------------------------------------------------------

class Mast(TypedDict):
    """A mast (BB13): its name, the hits it can still take and its state (``removed`` once
    the ships are laid side by side, BB18)."""
    name: str
    hits_left: int
    state: Literal["standing", "top lost", "lost", "removed"]


class Ship(TypedDict):
    """A ship (BB2, BB11-BB14): its name, dot and heading, cannons left, masts, each section's
    hull markers, the sections beyond repair, the masts lost, the Damaged cards it must play
    and whether it is sunk."""
    name: str
    at: Dot
    heading: Heading
    cannons: list[Cell]
    masts: dict[Cell, Mast]
    hull: dict[Section, int]
    beyond_repair: list[Section]
    masts_lost: list[Cell]
    damaged_required: int
    sunk: bool


class Crew(TypedDict):
    """A seat's pieces (BB16): its crewmembers by place, its Captain's place and how many."""
    crew: dict[Place, int]
    captain: Place | None
    pieces: int


class Stage(TypedDict):
    """The stage (BB5-BB22): its number and kind (null outside play), the phase of the game,
    the round and the cards turned up in it, whether a volley is the final one, the cannons
    that bear in a volley, whose boarding turn, and which seats asked have given their order."""
    n: int
    kind: Literal["plot", "volley", "promotion", "boarding"] | None
    phase: Literal["broadsides", "boarding"]
    round: int
    card: int
    final: bool
    bearing: dict[Seat, list[Cell]] | None
    boarder: Seat | None
    orders_in: dict[Seat, bool]


class Boarding(TypedDict):
    """How the ships lie side by side (BB18), and the place across from each touching rail
    cell (BB21)."""
    orientation: Literal["same", "opposite"]
    touching: dict[Seat, Side]
    at: Dot
    across: dict[Place, Place]
    boarder: Seat | None


class LegalPlot(TypedDict):
    """A plot owed (BB4, BB6): how many cards, how many of them Damaged, the other cards and
    the hand."""
    kind: Literal["plot"]
    stage: int
    cards: int
    damaged: int
    choices: list[Card]
    hand: dict[Card, int]


class LegalDeclaration(TypedDict):
    """A declaration owed (BB9, BB10): the cannons that bear, the sections, what standing
    orders would give (null before the first declaration), and whether it is the final."""
    kind: Literal["declaration"]
    stage: int
    final: bool
    cannons: list[Cell]
    sections: list[Section]
    standing: dict[Cell, Section | None] | None


class LegalPromotion(TypedDict):
    """A promotion owed (BB7): the places holding the seat's crew."""
    kind: Literal["promotion"]
    stage: int
    crew: list[Place]


Piece = TypedDict("Piece", {"from": Place, "captain": bool, "to": list[Place]})
Piece.__doc__ = """A piece that can move (BB21) and every place one movement takes it to."""


class LegalBoarding(TypedDict):
    """A boarding turn owed (BB21): how many movements, each piece's first movement, and how
    many pieces a cell holds."""
    kind: Literal["boarding"]
    stage: int
    movements: int
    pieces: list[Piece]
    most_in_cell: int


Legal = LegalPlot | LegalDeclaration | LegalPromotion | LegalBoarding


class Revealed(TypedDict):
    """The other seat's disposition and any order of his never turned up, after the end."""
    disposition: Disposition
    sealed: Move | None


class View(TypedDict):
    """A seat's view (BB26): the fields every view has, the sea and the deck plan (as data:
    sea.json, deck.json), both ships and crews, the stage and what each seat owes, the seat's
    own sealed order, this round's cards as it may know them, the boarding, what it may order
    now, the dice, and what happened; ``revealed`` once the game is over."""
    rules: Literal["broadsides-boarding"]
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
    sea: dict[str, Any]  # BB1: the sea as data (sea.json)
    deck_plan: dict[str, Any]  # BB15: the deck plan as data (deck.json)
    ships: dict[Seat, Ship]
    crews: dict[Seat, Crew]
    stage: Stage
    owes: dict[Seat, Kind]
    your_order: Move | None
    plots: dict[Seat, list[Card | None] | None]
    boarding: Boarding | None
    legal: Legal | None
    dice: Dice
    opening: list[Happened]
    reports: list[SeatReport]
    result: ResultDocument | None
    revealed: NotRequired[dict[Seat, Revealed]]


class ServedView(View):
    """The view the server serves (``GET /api/v1/games/{id}``): the core's view with the move
    clocks the server keeps (R25: each owing seat's), null without one."""
    move_clock: SealedMoveClock | None


class MoveRecord(TypedDict):
    """A seat's move record (BB24, BB25): what happened before any order, every order as it
    may know it with what followed, and the dice."""
    rules: Literal["broadsides-boarding"]
    id: str
    phase: Phase
    you: Seat
    order: list[Seat]
    opening: list[Happened]
    moves: list[SeatReport]
    dice: Dice
    result: ResultDocument | None
