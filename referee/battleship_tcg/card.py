"""The mission card (T2): the islands of each half, the standard card and cards drawn from a
seed under the same limits.

Each half (``"red"``: the half Red's fleet lies on and Blue shoots at; ``"blue"`` the other)
has 3 to 5 islands, each 2 to 5 neighbouring holes (T1's six neighbours), 10 to 16 island
holes in all; islands do not touch one another (no hole of one is a neighbour of a hole of
another, so each island is one patch as it is printed); the two halves differ; and the whole
fleet of T3 fits on the sea of each half (``fleet_fits``). Both players see both halves'
islands (T2, T12).

>>> card = standard_card()
>>> [len(card.island_holes(seat)) for seat in ("red", "blue")]
[12, 15]
>>> check_card(draw_card(7)) == []
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from dataclasses import dataclass

from ..common.documents import Json
from ..common.problems import Problem, RuleViolation
from .catalogue import (
    BOAT_TYPES,
    CARD_ISLANDS,
    HALF_ISLAND_HOLES,
    HOLES,
    ISLAND_HOLES,
    MAX_CARD_SEED,
    SEATS,
)
from .holes import (
    DIRECTIONS,
    Hole,
    every_hole,
    hole_name,
    hole_named,
    line,
    neighbours,
    on_half,
    parse_hole,
)

STANDARD_ISLANDS: dict[str, tuple[tuple[str, ...], ...]] = {  # T2: the referee's standard card
    "red": (
        ("C 2", "C 3", "D 2"),
        ("B 8", "B 9"),
        ("G 5", "H 5", "H 6", "I 5"),
        ("L 8", "L 9", "M 8"),
    ),
    "blue": (
        ("B 3", "B 4"),
        ("E 7", "E 8", "F 8"),
        ("I 2", "J 2", "J 3", "K 3"),
        ("M 6", "M 7", "N 6", "N 7"),
        ("G 10", "H 10"),
    ),
}


@dataclass(frozen=True)
class Card:
    """A mission card: its name (``standard`` or ``drawn``), the seed a drawn card came from,
    and each half's islands, each island its holes in reading order."""

    name: str
    seed: int | None
    islands: dict[str, tuple[tuple[Hole, ...], ...]]

    def island_holes(self, seat: str) -> frozenset[Hole]:
        return _island_holes(self.islands[seat])

    def sea_holes(self, seat: str) -> list[Hole]:
        land = self.island_holes(seat)
        return [h for h in every_hole() if h not in land]

    def to_json(self) -> Json:
        """The card as the ``created`` event keeps it and views show it."""
        return {"name": self.name, "seed": self.seed,
                "islands": {seat: [[hole_name(h) for h in island] for island in islands]
                            for seat, islands in self.islands.items()}}

    def island_names(self, seat: str) -> list[str]:
        """One half's island holes, in the referee's order (column by column)."""
        return [hole_name(h) for h in sorted(self.island_holes(seat))]


@functools.lru_cache(maxsize=256)
def _island_holes(islands: tuple[tuple[Hole, ...], ...]) -> frozenset[Hole]:
    return frozenset(h for island in islands for h in island)


def _islands(names: Iterable[Iterable[str]]) -> tuple[tuple[Hole, ...], ...]:
    islands = []
    for island in names:
        islands.append(tuple(sorted(hole_named(n) for n in island)))
    return tuple(sorted(islands))


def standard_card() -> Card:
    return Card("standard", None, {seat: _islands(islands)
                                   for seat, islands in STANDARD_ISLANDS.items()})


def connected(holes: Iterable[Hole]) -> bool:
    """Whether these holes are one patch of neighbouring holes (T1, T2)."""
    holes = set(holes)
    if not holes:
        return False
    start = next(iter(holes))
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in holes and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == holes


@functools.cache
def lines_of(n: int) -> tuple[tuple[Hole, ...], ...]:
    """Every line of ``n`` holes wholly on a half, from each first hole down each direction
    (T4), in the referee's order: first hole, then direction."""
    every = (tuple(line(at, dir, n)) for at in every_hole() for dir in DIRECTIONS)
    return tuple(holes for holes in every if all(on_half(h) for h in holes))


def placements(kind: str, sea: frozenset[Hole] | set[Hole]) -> list[tuple[Hole, ...]]:
    """Every line a boat of this kind can lie on over these sea holes (T4)."""
    return [holes for holes in lines_of(HOLES[kind]) if all(h in sea for h in holes)]


def fleet_fits(sea: set[Hole] | frozenset[Hole]) -> bool:
    """Whether the five boats of T3 can all lie on these sea holes at once, sharing none."""
    options = {kind: placements(kind, sea) for kind in BOAT_TYPES}
    kinds = sorted(BOAT_TYPES, key=lambda k: -HOLES[k])

    def place(i: int, used: set[Hole]) -> bool:
        if i == len(kinds):
            return True
        for holes in options[kinds[i]]:
            if used.isdisjoint(holes) and place(i + 1, used | set(holes)):
                return True
        return False

    return place(0, set())


def half_problems(seat: str, islands: tuple[tuple[Hole, ...], ...]) -> list[Problem]:
    """Every way one half's islands break T2's limits."""
    found: list[Problem] = []
    low, high = CARD_ISLANDS
    if not low <= len(islands) <= high:
        found.append(Problem("T2", f"{seat.title()}'s half has {len(islands)} islands; a "
                                   f"half has {low} to {high}", (), f"card.islands.{seat}"))
    every = [h for island in islands for h in island]
    names = tuple(hole_name(h) for h in sorted(set(every)))
    if len(set(every)) != len(every):
        found.append(Problem("T2", f"Islands of {seat.title()}'s half share holes", names,
                             f"card.islands.{seat}"))
    low, high = HALF_ISLAND_HOLES
    if not low <= len(set(every)) <= high:
        found.append(Problem("T2", f"{seat.title()}'s half has {len(set(every))} island "
                                   f"holes; a half has {low} to {high}", names,
                             f"card.islands.{seat}"))
    low, high = ISLAND_HOLES
    for i, island in enumerate(islands):
        where = tuple(hole_name(h) for h in island)
        if not low <= len(island) <= high:
            found.append(Problem("T2", f"An island is {low} to {high} holes; this one has "
                                       f"{len(island)}", where, f"card.islands.{seat}[{i}]"))
        if not connected(island):
            found.append(Problem("T2", "An island's holes are neighbours, one patch", where,
                                 f"card.islands.{seat}[{i}]"))
        others = {h for j, other in enumerate(islands) if j != i for h in other}
        if any(n in others for h in island for n in neighbours(h)):
            found.append(Problem("T2", "Islands do not touch one another", where,
                                 f"card.islands.{seat}[{i}]"))
    if not found and not fleet_fits({h for h in every_hole() if h not in set(every)}):
        found.append(Problem("T2", f"The whole fleet must fit on the sea of {seat.title()}'s "
                                   "half", names, f"card.islands.{seat}"))
    return found


def check_card(card: Card) -> list[Problem]:
    """Every way a card breaks T2 (both halves, and that they differ)."""
    found = [p for seat in SEATS for p in half_problems(seat, card.islands.get(seat, ()))]
    if card.island_holes("red") == card.island_holes("blue"):
        found.append(Problem("T2", "The two halves of a mission card differ", (), "card"))
    return found


def _draw_half(rng: random.Random) -> tuple[tuple[Hole, ...], ...]:
    """One half's islands drawn under T2's limits (tries again until they hold)."""
    while True:
        count = rng.randint(*CARD_ISLANDS)
        total = rng.randint(max(HALF_ISLAND_HOLES[0], count * ISLAND_HOLES[0]),
                            min(HALF_ISLAND_HOLES[1], count * ISLAND_HOLES[1]))
        sizes = [ISLAND_HOLES[0]] * count
        while sum(sizes) < total:
            i = rng.randrange(count)
            if sizes[i] < ISLAND_HOLES[1]:
                sizes[i] += 1
        islands: list[tuple[Hole, ...]] = []
        taken: set[Hole] = set()  # island holes and their neighbours: no new island there
        holes = list(every_hole())
        for size in sizes:
            free = [h for h in holes if h not in taken]
            if not free:
                break
            island = [rng.choice(free)]
            while len(island) < size:
                edge = sorted({n for h in island for n in neighbours(h)
                               if n not in island and n not in taken})
                if not edge:
                    break
                island.append(rng.choice(edge))
            if len(island) < size:
                break
            islands.append(tuple(sorted(island)))
            taken |= set(island) | {n for h in island for n in neighbours(h)}
        result = tuple(sorted(islands))
        if len(islands) == count and not half_problems("red", result):
            return result


def draw_card(seed: int) -> Card:
    """A card drawn from a seed under T2's limits; the same seed always draws the same card."""
    rng = random.Random(seed)
    red = _draw_half(rng)
    blue = _draw_half(rng)
    while {h for i in blue for h in i} == {h for i in red for h in i}:
        blue = _draw_half(rng)
    return Card("drawn", seed, {"red": red, "blue": blue})


def read_card_option(option: object) -> Card:
    """A game's ``card`` option (T2): ``"standard"`` (or absent) or ``{"seed": n}``."""
    if option is None or option == "standard":
        return standard_card()
    if isinstance(option, dict) and set(option) == {"seed"}:
        seed = option["seed"]
        if not isinstance(seed, bool) and isinstance(seed, int) and 0 <= seed <= MAX_CARD_SEED:
            return draw_card(seed)
    raise RuleViolation([Problem(
        "T2", "'card' is \"standard\" or {\"seed\": n} for a card drawn from a whole number n "
              f"from 0 to {MAX_CARD_SEED}", (), "card")])


def card_from_json(doc: object) -> Card:
    """A card as a ``created`` event keeps it, checked against T2 (a game file is hostile)."""
    wrong = RuleViolation([Problem("T2", "A game's card is its name, seed and each half's "
                                         "islands as lists of hole names", (), "card")])
    if not isinstance(doc, dict) or set(doc) != {"name", "seed", "islands"}:
        raise wrong
    islands = doc["islands"]
    if not isinstance(islands, dict) or set(islands) != set(SEATS) or any(
            not isinstance(half, list) or len(half) > 10 or any(
                not isinstance(island, list) or len(island) > 20 for island in half)
            for half in islands.values()):
        raise wrong
    halves: dict[str, tuple[tuple[Hole, ...], ...]] = {}
    for seat, half in islands.items():
        holes = [[parse_hole(n) for n in island] for island in half]
        named = [[h for h in island if h is not None] for island in holes]
        if any(len(n) != len(island) for n, island in zip(named, holes, strict=True)):
            raise wrong
        halves[seat] = tuple(sorted(tuple(sorted(island)) for island in named))
    seed = doc["seed"]
    if doc["name"] == "standard" and seed is None:
        card = Card("standard", None, halves)
        if card != standard_card():
            raise RuleViolation([Problem("T2", "The standard card's islands are the ones in "
                                               "the rules", (), "card")])
        return card
    if doc["name"] != "drawn" or isinstance(seed, bool) or not isinstance(seed, int) \
            or not 0 <= seed <= MAX_CARD_SEED:
        raise wrong
    card = Card("drawn", seed, halves)
    found = check_card(card)
    if found:
        raise RuleViolation(found)
    return card


def drawing(card: Card, seat: str) -> str:
    """One half drawn as text, as the rules document shows it: ``o`` a sea hole, ``#`` an
    island hole; columns B, D ... N sit half a hole lower, on the line below A, C ... O.
    The number at the left of a line counts the holes of A, C ... O on it; the number at the
    right, those of B, D ... N.

    >>> print(drawing(standard_card(), "red").splitlines()[4])
     2  o     #     o     o     o     o     o     o
    """
    land = card.island_holes(seat)
    header = "    " + "".join(f"{c:<3}" for c in "ABCDEFGHIJKLMNO").rstrip()
    lines = [f"{seat.title()}'s half", header]
    for row in range(10):
        for low in (False, True):
            cells = []
            for column in range(15):
                if (column % 2 == 1) != low:
                    cells.append("   ")
                else:
                    cells.append(f"{'#' if Hole(column, row) in land else 'o':<3}")
            body = "".join(cells).rstrip()
            if low:
                lines.append(f"    {body}".ljust(47) + f"{row + 1:>2}")
            else:
                lines.append(f"{row + 1:>2}  {body}")
    return "\n".join(line.rstrip() for line in lines)
