"""The sea as the stronger levels reckon it (BB2, BB3, BB6, BB8, BB9, BB17): every course a
ship may plot this round, where each card of it leaves the ship, and what each card turned up
with the enemy's brings (a volley, a collision, nothing).

Dots and headings are turned into small numbers once (``Ship``: column, row and heading index,
clockwise from north) so that the thousands of course against course a plot weighs cost little.
Nothing here holds a game: the sea is ``referee.broadsides_boarding.sea``'s data, and a ship is
read from a view's ``"ships"`` entry.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from .. import deck, sea

MOVING = ("stay", "forward", "starboard", "port")  # BB4: the cards that are not Damaged
CARDS_PLOTTED = 3
_DELTA = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))  # N, NE ...
_WIDTH, _HEIGHT = len(sea.COLUMNS), sea.ROWS
_ISLANDS = frozenset(sea.coordinates(dot) for dot in sea.ISLANDS)


@dataclass(frozen=True)
class Ship:
    """A ship on the sea: its column and row (from 0) and heading (0 north, clockwise)."""

    column: int
    row: int
    heading: int

    @classmethod
    def of(cls, entry: dict) -> Ship:
        """The ship a view's ``"ships"`` entry describes."""
        column, row = sea.coordinates(entry["at"])
        return cls(column, row, sea.HEADINGS.index(entry["heading"]))

    @property
    def dot(self) -> tuple[int, int]:
        return self.column, self.row


def plots(damaged: int) -> list[tuple[str, ...]]:
    """Every plot a ship may make with ``damaged`` Damaged cards required (BB4, BB6): the
    Damaged cards in any slots, the other cards any of the four that move it."""
    return _plots(min(damaged, CARDS_PLOTTED))


@lru_cache(maxsize=4)
def _plots(damaged: int) -> list[tuple[str, ...]]:
    found = []
    for slots in itertools.combinations(range(CARDS_PLOTTED), damaged):
        for free in itertools.product(MOVING, repeat=CARDS_PLOTTED - damaged):
            moving = iter(free)
            found.append(tuple("damaged" if n in slots else next(moving)
                               for n in range(CARDS_PLOTTED)))
    return found


def step(ship: Ship, card: str) -> tuple[Ship, bool]:
    """The ship after one card (BB2, BB6: a Damaged card is Remain in Place), and whether a
    Move Forward was not made (onto an island or off the sea, BB3)."""
    if card == "starboard":
        return Ship(ship.column, ship.row, (ship.heading + 1) % 8), False
    if card == "port":
        return Ship(ship.column, ship.row, (ship.heading - 1) % 8), False
    if card != "forward":
        return ship, False
    dx, dy = _DELTA[ship.heading]
    column, row = ship.column + dx, ship.row + dy
    if not (0 <= column < _WIDTH and 0 <= row < _HEIGHT) or (column, row) in _ISLANDS:
        return ship, True
    return Ship(column, row, ship.heading), False


def course(ship: Ship, cards: tuple[str, ...]) -> tuple[Ship, ...]:
    """Where each card of a plot leaves the ship, the enemy aside: after a Move Forward not
    made the ship stays where it is for the rest of the round (BB3)."""
    return _course(ship, tuple(cards))


@lru_cache(maxsize=65536)
def _course(ship: Ship, cards: tuple[str, ...]) -> tuple[Ship, ...]:
    found = []
    stopped = False
    for card in cards:
        if not stopped:
            ship, stopped = step(ship, card)
        found.append(ship)
    return tuple(found)


def courses(ship: Ship, damaged: int) -> dict[tuple[Ship, ...], list[tuple[str, ...]]]:
    """The different courses a ship may sail this round, each with the plots that sail it."""
    found: dict[tuple[Ship, ...], list[tuple[str, ...]]] = {}
    for cards in plots(damaged):
        found.setdefault(course(ship, cards), []).append(cards)
    return found


def apart(one: Ship, two: Ship) -> int:
    """Dots between two ships, diagonal steps counting one (0: the same dot)."""
    return max(abs(one.column - two.column), abs(one.row - two.row))


def relative(ship: Ship, there: tuple[int, int]) -> int | None:
    """Where a dot lies from the ship in steps of 45 degrees clockwise from dead ahead (0
    ahead, 2 abeam to starboard, 4 astern, 6 abeam to port), by the line toward it; None for
    its own dot (``sea.relative``)."""
    dx, dy = there[0] - ship.column, there[1] - ship.row
    line = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    if line == (0, 0):
        return None
    return (_DELTA.index(line) - ship.heading) % 8


def bearing(ship: Ship, there: tuple[int, int]) -> tuple[str, ...]:
    """The cannon cells whose line meets a ship at ``there`` (BB9), destroyed or not."""
    return deck.bearing(relative(ship, there))


def collided(mine: Ship, theirs: Ship, mine_before: Ship, theirs_before: Ship) -> bool:
    """Whether a card brought the ships together: one dot, or dots traded (BB17)."""
    return mine.dot == theirs.dot or (mine.dot == theirs_before.dot
                                      and theirs.dot == mine_before.dot)


def touching_side(before: Ship, there: tuple[int, int]) -> str | None:
    """The side of a ship that touches the other once they collide (BB18): the side the
    other lay on before; None when it lay dead ahead or astern (a die decides)."""
    lies = relative(before, there)
    if lies in (1, 2, 3):
        return "starboard"
    if lies in (5, 6, 7):
        return "port"
    return None


__all__ = ["MOVING", "Ship", "apart", "bearing", "collided", "course", "courses", "plots",
           "relative", "step", "touching_side"]
