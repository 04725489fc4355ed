"""The documents every rule set's core gives alike, as types: a finished game's result, the
disposition clock, the game's public state, what a join link shows and what the host sees
(docs/api.md, "A player's view" and "The host status"). Each rule set's own documents
(``naval_war/documents.py``) are typed beside its core. As there, the annotations are evaluated
as the module loads (no ``from __future__ import annotations``).
"""

from typing import Literal, TypedDict

Seat = str  # each rule set names its own seats ("red", "blue" ...; R23)
Phase = Literal["setup", "play", "over"]  # before play (dispositions), in play, over
# why a game ended (``Outcome.reason``): the ends every game shares (agreed R14, resigned,
# forfeit R10), then each rule set's own: no seat can attack (the Naval War Game, R14), the
# Captured Man rescued (Battleship TCG, T9), the merchant ships or Red's fleet sunk (Broadside,
# B10)
EndReason = Literal["agreed", "resigned", "forfeit", "exhausted", "rescued", "merchants",
                    "fleet"]


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


class StatusView(TypedDict):
    """The game's public state as the server runs it, nothing of any seat's forces (R21,
    R25): the server's own reading; its host's part is docs/api.md, "The host status"."""
    id: str
    phase: Phase
    version: int
    seats: dict[Seat, StatusSeat]
    turn: Seat | None
    turn_began: int
    clock: Clock
    move_minutes: int | None
    stand_in_level: str | None  # the host's choice (R25); None until he makes one
    result: ResultDocument | None


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
