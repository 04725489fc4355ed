"""The decks (BB9, BB13, BB15, BB16, BB18, BB21): the one geometry module of a ship's deck, read
from the one data file ``deck.json``.

A deck is eight sections, A (bow) to H (stern), of three positions: 3 the port rail, 4 the
centreline, 5 the starboard rail; a cell is named like ``"B5"``. The forecastle (A-B), the main
deck (C-F) and the quarterdeck (G-H) are three levels, joined by the ladders B4-C4 and F4-G4.
Where a piece stands in the boarding is its *place*: the ship's seat and the cell,
``"red B5"`` (a piece may stand on either ship).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..common.documents import Json

DECK: dict[str, Any] = json.loads(Path(__file__).with_name("deck.json").read_text(
    encoding="utf-8"))

SECTIONS: tuple[str, ...] = tuple(DECK["sections"])
POSITIONS: tuple[int, ...] = tuple(DECK["positions"])
RAILS: dict[str, int] = dict(DECK["rails"])  # "port": 3, "starboard": 5
CELLS: tuple[str, ...] = tuple(f"{s}{p}" for s in SECTIONS for p in POSITIONS)
CANNONS: tuple[str, ...] = tuple(DECK["cannons"])  # the order volleys roll in (BB24)
CREW_PER_CANNON: int = DECK["crew_per_cannon"]
MOST_IN_CELL: int = DECK["most_in_cell"]  # BB16: one player's pieces in a cell
MASTS: dict[str, int] = {mast["at"]: mast["hits"] for mast in DECK["masts"]}  # BB13
MAST_NAMES: dict[str, str] = {mast["at"]: mast["name"] for mast in DECK["masts"]}
LEVEL: dict[str, str] = {section: level["name"] for level in DECK["levels"]
                         for section in level["sections"]}
LADDERS: dict[str, str] = {**{a: b for a, b in DECK["ladders"]},
                           **{b: a for a, b in DECK["ladders"]}}
BEARING: dict[str, tuple[str, ...]] = {arc: tuple(s) for arc, s in DECK["bearing"].items()}
SHIPS: dict[str, str] = dict(DECK["ships"])  # BB1: the two ships differ only in name
_CELL = re.compile(r"\s*([A-Ha-h])\s*([3-5])\s*\Z", re.ASCII)
_PLACE = re.compile(r"\s*(\w+)\s+(\S.*)\Z", re.ASCII)


def parse_cell(text: object) -> str:
    """The cell ``text`` names, in its normal form ``"B5"``; ``ValueError`` naming BB15."""
    match = _CELL.match(text) if isinstance(text, str) and len(text) <= 8 else None
    if match is None:
        raise ValueError(f"{str(text)[:20]!r} is not a cell of a deck: a section A-H and a "
                         "position 3 (port rail), 4 (centreline) or 5 (starboard rail), like "
                         "\"B5\" (BB15)")
    return f"{match.group(1).upper()}{match.group(2)}"


def parse_place(text: object, you: str, other: str) -> str:
    """The place ``text`` names for the seat ``you`` (whose enemy is ``other``): ``"B5"`` or
    ``"my B5"`` on its own ship, ``"their C3"`` on the other, or ``"red B5"`` naming the
    ship's seat; its normal form ``"red B5"``. ``ValueError`` naming BB26.

    >>> parse_place("their c3", "red", "blue"), parse_place("B5", "blue", "red")
    ('blue C3', 'blue B5')
    """
    if not isinstance(text, str) or len(text) > 20:
        raise ValueError(f"{str(text)[:20]!r} is not a place: a cell like \"B5\" (your "
                         "ship) or \"their C3\" (BB26)")
    match = _PLACE.match(text)
    ship, cell = (match.group(1).lower(), match.group(2)) if match else ("my", text)
    owner = {"my": you, "mine": you, "their": other, "theirs": other, you: you,
             other: other}.get(ship)
    if owner is None:
        raise ValueError(f"{text!r} is not a place: say \"my\" or \"their\" before the cell "
                         "(BB26)")
    return f"{owner} {parse_cell(cell)}"


def split(place: str) -> tuple[str, str]:
    """``(ship's seat, cell)`` of a place in normal form."""
    ship, cell = place.split(" ")
    return ship, cell


def side_of(cell: str) -> str | None:
    """The rail a cell is on ("port", "starboard"), None on the centreline."""
    position = int(cell[1])
    return next((side for side, rail in RAILS.items() if rail == position), None)


def bearing(relative: int | None) -> tuple[str, ...]:
    """The cannon cells that bear on an enemy lying ``relative`` steps of 45 degrees
    clockwise from dead ahead (BB9): none dead ahead or astern, the two forward of that side
    45 degrees off the bow, all five abeam, the two aft 45 degrees off the stern.

    >>> bearing(1), bearing(6), bearing(0)
    (('B5', 'C5'), ('B3', 'C3', 'D3', 'E3', 'F3'), ())
    """
    if relative is None or relative % 4 == 0:
        return ()
    side = "starboard" if relative < 4 else "port"
    arc = {1: "bow", 2: "abeam", 3: "quarter", 5: "quarter", 6: "abeam", 7: "bow"}[relative]
    return tuple(f"{section}{RAILS[side]}" for section in BEARING[arc])


def rail_cannons(side: str) -> tuple[str, ...]:
    """The cannon cells of one side, bow to stern (BB19: a touching side's five)."""
    return tuple(cell for cell in CANNONS if cell[1] == str(RAILS[side]))


def opposite_section(section: str, orientation: str) -> str:
    """The section of the other ship lying opposite ``section`` when the ships lie side by
    side facing the same way (A opposite A) or opposite ways (A opposite H), BB18.

    >>> opposite_section("B", "same"), opposite_section("B", "opposite")
    ('B', 'G')
    """
    if orientation == "same":
        return section
    return SECTIONS[len(SECTIONS) - 1 - SECTIONS.index(section)]


def across(place: str, laid: Json) -> str | None:
    """The place straight across from a touching-side rail cell (BB21), on the other ship;
    None from any other cell. ``laid``: how the ships lie (``{"orientation", "touching":
    {seat: side}}``)."""
    ship, cell = split(place)
    touching = laid["touching"]
    if ship not in touching or cell[1] != str(RAILS[touching[ship]]):
        return None
    other = next(seat for seat in touching if seat != ship)
    return f"{other} {opposite_section(cell[0], laid['orientation'])}{RAILS[touching[other]]}"


def steps(place: str, laid: Json | None = None) -> list[str]:
    """Every place one movement takes a piece to from ``place`` (BB21), where nothing stands
    in its way: the up to eight neighbouring cells on the same level of the same ship, the
    other end of a ladder, and (once the ships are laid side by side, ``laid``) the cell
    straight across from a touching-side rail cell.

    >>> steps("red A3")
    ['red A4', 'red B3', 'red B4']
    >>> steps("red B4")
    ['red A3', 'red A4', 'red A5', 'red B3', 'red B5', 'red C4']
    """
    ship, cell = split(place)
    found = [f"{ship} {near}" for near in _NEAR[cell]]
    if laid is not None:
        over = across(place, laid)
        if over is not None:
            found.append(over)
    return found


def _near(cell: str) -> tuple[str, ...]:
    """The cells one movement takes a piece to on its own ship (``steps``' table)."""
    section, position = SECTIONS.index(cell[0]), int(cell[1])
    found = []
    for s in range(max(0, section - 1), min(len(SECTIONS), section + 2)):
        for p in POSITIONS:
            if abs(p - position) > 1 or (s == section and p == position):
                continue
            if LEVEL[SECTIONS[s]] == LEVEL[cell[0]]:
                found.append(f"{SECTIONS[s]}{p}")
    if cell in LADDERS:
        found.append(LADDERS[cell])
    return tuple(found)


_NEAR: dict[str, tuple[str, ...]] = {cell: _near(cell) for cell in CELLS}


__all__ = ["CANNONS", "CELLS", "CREW_PER_CANNON", "DECK", "LADDERS", "LEVEL", "MASTS",
           "MAST_NAMES", "MOST_IN_CELL", "POSITIONS", "RAILS", "SECTIONS", "SHIPS", "across",
           "bearing", "opposite_section", "parse_cell", "parse_place", "rail_cannons",
           "side_of", "split", "steps"]
