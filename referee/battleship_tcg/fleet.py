"""A player's fleet (T3-T5, T11): the disposition check, and the fleet as shots find it.

``check_disposition(document, card, seat)`` returns a ``Fleet`` or raises ``RuleViolation``
with every problem at once, each naming its ruling, the field and the holes involved:

- T11: the document's shape (an object with ``boats`` and ``man``; each boat an object with
  ``type``, ``at`` and ``dir``; nothing else);
- T3: a type that is not a boat, a boat given twice, a boat missing;
- T1: ``at`` or ``man`` that names no hole;
- T4: a ``dir`` that is not ``down``, ``down-right`` or ``up-right``; a boat running off its
  owner's half, lying on an island, or sharing a hole with another boat;
- T5: the Captured Man missing, or not on an island of his owner's half.

The fleet's ``document`` is the disposition's normal form: the boats in the rules' order,
holes written ``D 3``; it is what the log keeps and the fingerprint is taken of.

>>> from .card import standard_card
>>> fleet = check_disposition({"boats": [
...     {"type": "carrier", "at": "O 1", "dir": "down"},
...     {"type": "battleship", "at": "A 6", "dir": "up-right"},
...     {"type": "weapons-platform", "at": "F 1", "dir": "down"},
...     {"type": "submarine", "at": "h1", "dir": "down"},
...     {"type": "patrol-boat", "at": "Lima 1", "dir": "down"}], "man": "C 2"},
...     standard_card(), "red")
>>> [hole_name(h) for h in fleet.boats["battleship"]], fleet.document["boats"][3]["at"]
(['A 6', 'B 5', 'C 5', 'D 4'], 'H 1')
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..common.documents import Json
from .card import Card
from .catalogue import BOAT_KEYS, BOAT_TYPES, DISPOSITION_KEYS, HOLES, NAMES
from .holes import DIRECTIONS, Hole, hole_name, line, on_half, parse_hole
from .problems import Problem, RuleViolation, problem

MAX_BOATS_LISTED = 20  # a longer list is refused whole, not checked boat by boat
HOLE_RULE = "names a hole: a column A-O and a number 1-10, as D 3, D3 or Delta 3"


@dataclass
class Fleet:
    """A player's boats and man as placed, and what the opponent's shots have done."""

    boats: dict[str, tuple[Hole, ...]]
    man: Hole
    document: Json
    hit: set[Hole] = field(default_factory=set)
    rescued: bool = False

    def __post_init__(self) -> None:
        self.at = {h: kind for kind, holes in self.boats.items() for h in holes}
        self.hits_on = {kind: sum(1 for h in holes if h in self.hit)
                        for kind, holes in self.boats.items()}

    def take_hit(self, hole: Hole) -> str:
        """A shot found a boat (T8): mark the hole; the boat's type."""
        kind = self.at[hole]
        if hole not in self.hit:
            self.hit.add(hole)
            self.hits_on[kind] += 1
        return kind

    def sunk(self, kind: str) -> bool:
        return self.hits_on[kind] == len(self.boats[kind])

    def afloat(self) -> list[str]:
        return [kind for kind in BOAT_TYPES if not self.sunk(kind)]

    def all_sunk(self) -> bool:
        return not self.afloat()

    def piece_at(self, hole: Hole) -> str | None:
        """The boat type on a hole, ``"man"`` for the Captured Man's, None for open water
        or bare island."""
        return self.at.get(hole) or ("man" if hole == self.man else None)

    def damage(self) -> dict[str, list[str]]:
        """Each boat's holes that have been hit, for its owner's view."""
        return {kind: [hole_name(h) for h in holes if h in self.hit]
                for kind, holes in self.boats.items()}


def _check_boat(i: int, boat: object, found: list[Problem]) -> tuple[str, Hole, str] | None:
    where = f"boats[{i}]"
    if not isinstance(boat, dict):
        found.append(problem("T11", "A boat is an object with type, at and dir", field=where))
        return None
    found.extend(problem("T11", f"{key!r} is not part of a boat; a boat has "
                                f"{', '.join(BOAT_KEYS)}", field=f"{where}.{key}")
                 for key in boat if key not in BOAT_KEYS)
    kind, at, dir = boat.get("type"), boat.get("at"), boat.get("dir")
    ok = True
    if not isinstance(kind, str) or kind not in BOAT_TYPES:
        found.append(problem("T3", f"{_shown(kind)} is not a boat; the boats are "
                                   f"{', '.join(BOAT_TYPES)}", field=f"{where}.type"))
        ok = False
    hole = parse_hole(at)
    if hole is None:
        found.append(problem("T1", f"'at' {HOLE_RULE}; {_shown(at)} does not",
                             field=f"{where}.at"))
        ok = False
    if not isinstance(dir, str) or dir not in DIRECTIONS:
        found.append(problem("T4", f"{_shown(dir)} is not a direction; a boat runs "
                                   f"{', '.join(DIRECTIONS[:-1])} or {DIRECTIONS[-1]}",
                             field=f"{where}.dir"))
        ok = False
    if not ok or not isinstance(kind, str) or hole is None or not isinstance(dir, str):
        return None
    return kind, hole, dir


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_disposition(document: object, card: Card, seat: str) -> Fleet:
    """The fleet a disposition places on ``seat``'s half of ``card``, or every problem."""
    if not isinstance(document, dict):
        raise RuleViolation([problem("T11", "A disposition is an object with boats and man")])
    found = [problem("T11", f"{key!r} is not part of a disposition; it has "
                            f"{', '.join(DISPOSITION_KEYS)}", field=str(key)[:40])
             for key in document if key not in DISPOSITION_KEYS]
    islands = card.island_holes(seat)
    boats = document.get("boats")
    placed: dict[str, tuple[Hole, ...]] = {}
    covered: dict[str, list[Hole]] = {}  # each boat's holes on the half, even a bad boat's
    firsts: dict[str, tuple[Hole, str]] = {}
    if not isinstance(boats, list) or len(boats) > MAX_BOATS_LISTED:
        found.append(problem("T11", "'boats' is a list of the five boats", field="boats"))
        boats = []
    counts = Counter(b.get("type") for b in boats
                     if isinstance(b, dict) and isinstance(b.get("type"), str))
    seen: set[str] = set()
    for i, boat in enumerate(boats):
        kind = boat.get("type") if isinstance(boat, dict) else None
        if isinstance(kind, str) and kind in BOAT_TYPES:
            if kind in seen:
                found.append(problem("T3", f"A second {NAMES[kind]}: each player has exactly "
                                           "one", field=f"boats[{i}].type"))
                continue
            seen.add(kind)
        checked = _check_boat(i, boat, found)
        if checked is None:
            continue
        kind, at, dir = checked
        name = NAMES[kind]
        holes = line(at, dir, HOLES[kind])
        on = [h for h in holes if on_half(h)]
        bad = False
        if len(on) < len(holes):
            found.append(problem("T4", f"The {name} from {hole_name(at)} {dir} runs off the "
                                       "half", on, field=f"boats[{i}]"))
            bad = True
        wet = [h for h in on if h in islands]
        if wet:
            found.append(problem("T4", f"The {name} lies on an island; boats lie on sea "
                                       "holes only", wet, field=f"boats[{i}]"))
            bad = True
        firsts[kind] = (at, dir)
        covered[kind] = on
        if not bad:
            placed[kind] = tuple(holes)
    if boats or isinstance(document.get("boats"), list):
        for kind in BOAT_TYPES:
            if counts[kind] == 0:
                found.append(problem("T3", f"No {NAMES[kind]}: each player has exactly one of "
                                           "each boat", field="boats"))
    kinds = [k for k in BOAT_TYPES if k in covered]  # a boat off the half overlaps too
    for a_index, a in enumerate(kinds):
        for b in kinds[a_index + 1:]:
            shared = set(covered[a]) & set(covered[b])
            if shared:
                found.append(problem("T4", f"The {NAMES[a]} and the {NAMES[b]} share "
                                           f"{'a hole' if len(shared) == 1 else 'holes'}",
                                     shared, field="boats"))
    man = _check_man(document, islands, seat, found)
    if found or man is None:
        raise RuleViolation(found)
    normal = {"boats": [{"type": kind, "at": hole_name(firsts[kind][0]),
                         "dir": firsts[kind][1]} for kind in BOAT_TYPES],
              "man": hole_name(man)}
    return Fleet(placed, man, normal)


def _check_man(document: Json, islands: frozenset[Hole], seat: str,
               found: list[Problem]) -> Hole | None:
    if "man" not in document:
        found.append(problem("T5", "Hide the Captured Man on an island of your half: 'man' "
                                   "is missing", field="man"))
        return None
    man = parse_hole(document["man"])
    if man is None:
        found.append(problem("T1", f"'man' {HOLE_RULE}; {_shown(document['man'])} does not",
                             field="man"))
        return None
    if man not in islands:
        found.append(problem("T5", f"The Captured Man hides on an island of {seat.title()}'s "
                                   f"half; {hole_name(man)} is sea", [man], field="man"))
    return man
