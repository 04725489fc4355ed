"""What the computer reads from its seat's view (T10, T12), and the honeycomb as bit masks.

A hole is numbered ``column * 10 + row`` (``A 1`` is 0, ``O 10`` is 149) and a set of holes is
an ``int`` whose bit ``i`` is hole ``i``: a boat's placement, the misses, the hits. Every line a
boat can lie on comes from ``holes.line`` (T4), the one geometry function, and the islands of
the half (T2) rule out the placements that touch one.

``read_sight(view)`` keeps only what the view tells the seat: the opponent's islands and, in
order, the seat's own shots at the opponent's half with their results and the boat each sink
named (T8), from the view's ``shots`` of that half (or its own reports). Nothing else of the
opponent reaches the computer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from referee.battleship_tcg.catalogue import BOAT_TYPES
from referee.battleship_tcg.catalogue import HOLES as SIZES
from referee.battleship_tcg.holes import (
    DEPTH,
    DIRECTIONS,
    WIDTH,
    Hole,
    hole_name,
    line,
    on_half,
    parse_hole,
)

# T3: the five boats and their lengths, in the rules' order (longest first), from the catalogue
BOATS = {kind: SIZES[kind] for kind in BOAT_TYPES}
HOLES = WIDTH * DEPTH
ALL = (1 << HOLES) - 1


class NotYourTurn(ValueError):
    """The computer was asked to move when its view says it may not (T7)."""


def index(hole: Hole) -> int:
    return hole.column * DEPTH + hole.row


def hole_at(i: int) -> Hole:
    return Hole(*divmod(i, DEPTH))


NAMES = tuple(hole_name(hole_at(i)) for i in range(HOLES))
_INDEX = {name: i for i, name in enumerate(NAMES)}  # the referee writes holes as "D 3"


def read_hole(name: object) -> int | None:
    """A hole's number from its name, as ``parse_hole`` reads it (T1); None for no hole."""
    if isinstance(name, str) and name in _INDEX:
        return _INDEX[name]
    hole = parse_hole(name)
    return None if hole is None else index(hole)


def bits(mask: int) -> list[int]:
    """The holes of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(holes) -> int:
    mask = 0
    for i in holes:
        mask |= 1 << i
    return mask


def colour(i: int) -> int:
    """A proper three-colouring of the honeycomb: neighbours (T1) never share a colour, and
    along any line a boat can lie on the colours run 0, 1, 2, 0 ... so any three holes in a
    line hold each colour once. In axial terms ``(q - r) mod 3``, where the low columns B, D ...
    are the odd ones."""
    column, row = divmod(i, DEPTH)
    axial_row = row - (column - (column & 1)) // 2
    return (column - axial_row) % 3


@dataclass(frozen=True)
class Placement:
    """One way a boat of ``size`` holes can lie: first hole, direction and the holes' mask."""

    at: int
    dir: str
    size: int
    mask: int
    holes: tuple[int, ...]

    def document(self, kind: str) -> dict:
        return {"type": kind, "at": NAMES[self.at], "dir": self.dir}


@lru_cache(maxsize=16)
def every_placement(size: int) -> tuple[Placement, ...]:
    """Every line of ``size`` holes wholly on a half, each set of holes once (T4)."""
    seen: dict[int, Placement] = {}
    for i in range(HOLES):
        for dir in DIRECTIONS:
            holes = line(hole_at(i), dir, size)
            if all(on_half(h) for h in holes):
                mask = mask_of(index(h) for h in holes)
                seen.setdefault(mask, Placement(i, dir, size, mask, tuple(bits(mask))))
    return tuple(seen.values())


@lru_cache(maxsize=64)
def sea_placements(size: int, islands: int) -> tuple[Placement, ...]:
    """The placements of a boat of ``size`` on sea holes only, for a half with these islands
    (T2, T4)."""
    return tuple(p for p in every_placement(size) if not p.mask & islands)


@lru_cache(maxsize=64)
def lines_through(size: int) -> tuple[tuple[Placement, ...], ...]:
    """For each hole, the placements of ``size`` holes that cover it."""
    through: list[list[Placement]] = [[] for _ in range(HOLES)]
    for p in every_placement(size):
        for i in p.holes:
            through[i].append(p)
    return tuple(tuple(ps) for ps in through)


def read_holes(names) -> int:
    mask = 0
    for name in names or []:
        i = read_hole(name)
        if i is None:
            raise ValueError(f"the view names {name!r}, which is not a hole (T1)")
        mask |= 1 << i
    return mask


@dataclass
class Shot:
    """One of the seat's own shots as the view reports it (T8)."""

    n: int
    at: int
    result: str  # "miss", "hit" or "rescued"
    sunk: str | None


@dataclass
class Sight:
    """The seat's knowledge of the opponent's half, read from its view alone."""

    you: str
    opponent: str
    islands: int  # the opponent's island holes (T2: both players see both halves)
    own_islands: int
    shots: list[Shot] = field(default_factory=list)

    @property
    def sea(self) -> int:
        return ALL & ~self.islands

    @property
    def shot(self) -> int:
        return mask_of(s.at for s in self.shots)

    @property
    def misses(self) -> int:
        return mask_of(s.at for s in self.shots if s.result == "miss")

    @property
    def hits(self) -> int:
        return mask_of(s.at for s in self.shots if s.result == "hit")

    @property
    def sunk(self) -> list[str]:
        return [s.sunk for s in self.shots if s.sunk]

    @property
    def afloat(self) -> list[str]:
        """The opponent's boats not yet announced sunk, longest first."""
        gone = self.sunk
        return [kind for kind in BOATS if kind not in gone]

    @property
    def searching(self) -> bool:
        """All five are sunk: the shot must be at an island hole, for the man (T7, T9)."""
        return not self.afloat

    def allowed(self) -> int:
        """The holes a shot may go to now (T7): sea while a boat floats, then islands; never a
        hole shot before."""
        return (self.islands if self.searching else self.sea) & ~self.shot


def opponent_of(view: dict) -> str:
    you = view.get("you")
    seats = list(view.get("order") or []) or list(view.get("seats") or {}) \
        or list(view.get("islands") or {})
    others = [s for s in seats if s != you]
    if you not in (view.get("islands") or {}) or len(others) != 1:
        raise ValueError("the view names no single opponent (T12)")
    return others[0]


def own_shots(view: dict, you: str, opponent: str) -> list[dict]:
    """The seat's shots at the opponent's half, in order: the view's ``shots`` of that half
    (T12), or where a view has none, the seat's own reports (T11)."""
    shots = view.get("shots")
    if isinstance(shots, dict) and isinstance(shots.get(opponent), list):
        return shots[opponent]
    return [r for r in view.get("reports") or [] if r.get("by") == you]


def read_sight(view: dict) -> Sight:
    """The seat's own shots and the islands, from its view; the seat's turn is not checked."""
    you = view.get("you")
    if not isinstance(you, str):
        raise ValueError("a view names its seat (T12 'you')")
    opponent = opponent_of(view)
    islands = view["islands"]
    sight = Sight(you, opponent, read_holes(islands.get(opponent)),
                  read_holes(islands.get(you)))
    for report in own_shots(view, you, opponent):
        at = report.get("at")
        name = at[0] if isinstance(at, list) and at else at
        at = read_hole(name)
        if at is None:
            raise ValueError(f"a report names {name!r}, which is not a hole (T11)")
        sunk = report.get("sunk")
        if sunk is not None and sunk not in BOATS:
            raise ValueError(f"a report sinks {sunk!r}, which is not a boat (T3)")
        sight.shots.append(Shot(int(report.get("n") or len(sight.shots) + 1),
                                at, str(report.get("result")), sunk))
    return sight


def read_turn(view: dict) -> Sight:
    """As ``read_sight``, refusing a view that is not at the seat's turn to shoot (T7)."""
    you = view.get("you")
    if view.get("phase") != "play" or view.get("turn") != you:
        raise NotYourTurn(f"It is not {you}'s turn to shoot")
    sight = read_sight(view)
    if not sight.allowed():
        raise NotYourTurn(f"{you} has no hole left to shoot at")
    return sight
