"""The post-mortem of a finished game of Battleship: The Tactical Combat Game.

Everything here is worked out from the whole log, both dispositions included, so it tells what
T10 keeps hidden until the end: ``postmortem_document`` refuses before the game is over.

``steps``: every shot in order, each with its report, its sentence, what was on the hole
(``found``: a boat type, ``"man"`` or null), whether it was wasted and how many holes the
shooter could still usefully shoot at just before it (``open``).

``sinking``: for each seat, each of the opponent's boats: ``shots``, how many of the seat's
shots it had fired when the boat went down (its 1st, 2nd ... shot at that half); ``first_hit``,
which of its shots first hit that boat; ``to_finish``, the shots from that first hit to the
sinking, both counted (``shots - first_hit + 1``). A boat not sunk has null for all three.

``wasted``: a shot is wasted when, given only what the shooter had been told before it (T8:
the holes he had shot at that half, each a miss, a hit or a hit that sank a named boat), no
boat still afloat could lie on that hole. Exactly:

1. The boats still afloat are the five less those he was told sank.
2. Ruled out for every afloat boat: the half's islands (T4), his misses, and the hole of every
   sinking shot (it belongs to the boat that sank there; boats share no hole, T4).
3. Ruled out too: every hole that must belong to a sunk boat. A sunk boat of n holes lies on
   a line of n holes (T4) through its sinking hole, every hole of it a hit he had been told
   of and none of them another boat's sinking hole; a hole on every such line is that boat's.
   Repeated until nothing changes, since a hole known to be one sunk boat's is no other's.
4. A hole is still open if some afloat boat has a line of its length (down, down-right or
   up-right, wholly on the half) over holes none of which is ruled out, covering it. A shot at
   a hole that is not open is wasted. The hits of boats still afloat rule nothing out.

Every rule above holds of the real disposition, so a wasted shot is always a miss (the tests
check this over random games). Once all five boats are sunk the shots go at islands (T7) and
every island not yet shot may hide the man: no rescue shot is wasted.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from ..common.documents import Json
from ..common.views import require_over
from .card import lines_of
from .catalogue import BOAT_TYPES, HOLES, RULES
from .game import Game, other
from .holes import DEPTH, Hole, every_hole, parse_hole
from .views import describe


def _hole(name: str) -> Hole:
    hole = parse_hole(name)
    assert hole is not None  # written by the referee
    return hole


def open_holes(islands: frozenset[Hole], told: list[Json]) -> set[Hole]:
    """The holes of a half that some boat still afloat could cover, given the reports
    ``told`` (the shooter's earlier shots at that half, in order); see the module's text."""
    knowledge = Knowledge()
    for report in told:
        knowledge.add(report)
    return knowledge.open_holes(islands)


@functools.cache
def lines_through(n: int) -> dict[Hole, tuple[tuple[Hole, ...], ...]]:
    """For each hole, the lines of ``n`` holes on the half that cover it (T4)."""
    through: dict[Hole, list[tuple[Hole, ...]]] = {}
    for holes in lines_of(n):
        for h in holes:
            through.setdefault(h, []).append(holes)
    return {h: tuple(lines) for h, lines in through.items()}


def _bit(hole: Hole) -> int:
    return hole.column * DEPTH + hole.row


def _mask(holes: Iterable[Hole]) -> int:
    mask = 0
    for h in holes:
        mask |= 1 << _bit(h)
    return mask


@functools.cache
def line_masks(n: int) -> tuple[int, ...]:
    """Every line of ``n`` holes on the half as a bit mask (hole ``c, r`` is bit
    ``10 c + r``), for the hindsight's many tests of a line against what is ruled out."""
    return tuple(_mask(holes) for holes in lines_of(n))


class Knowledge:
    """What a shooter has been told of one half: his misses, hits and sinkings (T8)."""

    def __init__(self) -> None:
        self.misses: set[Hole] = set()
        self.hits: set[Hole] = set()
        self.sinks: dict[str, Hole] = {}

    def add(self, report: Json) -> None:
        hole = _hole(report["at"][0])
        (self.hits if report["result"] == "hit" else self.misses).add(hole)
        if report["sunk"]:
            self.sinks[report["sunk"]] = hole

    def open_holes(self, islands: frozenset[Hole]) -> set[Hole]:
        sinks, hits = self.sinks, self.hits
        afloat = [kind for kind in BOAT_TYPES if kind not in sinks]
        sink_holes = set(sinks.values())
        known: dict[str, set[Hole]] = {kind: set() for kind in sinks}
        changed = True
        while changed:
            changed = False
            for kind, at in sinks.items():
                others = {h for k, holes in known.items() if k != kind for h in holes}
                lines = [set(holes) for holes in lines_through(HOLES[kind]).get(at, ())
                         if holes_ok(holes, hits, at, sink_holes, others)]
                must = set.intersection(*lines) if lines else {at}
                if must - known[kind]:
                    known[kind] |= must
                    changed = True
        ruled_out = _mask(islands | self.misses | sink_holes | {
            h for holes in known.values() for h in holes})
        found = 0
        for n in {HOLES[kind] for kind in afloat}:  # the Weapons Platform and Submarine alike
            for line in line_masks(n):
                if not line & ruled_out:
                    found |= line
        found &= ~_mask(self.misses | self.hits)
        return {h for h in every_hole() if found >> _bit(h) & 1}


def holes_ok(holes: tuple[Hole, ...], hits: set[Hole], at: Hole, sink_holes: set[Hole],
             others: set[Hole]) -> bool:
    """Whether a sunk boat could have lain on these holes: every one a hit, none another
    boat's sinking hole or known to be another sunk boat's."""
    return all(h in hits and (h == at or h not in sink_holes) and h not in others
               for h in holes)


def steps(game: Game) -> list[Json]:
    """Every shot with its report, sentence, what it found, ``wasted`` and ``open``."""
    out = []
    told = {s: Knowledge() for s in game.seats}
    for report in game.reports:
        target = report["target"]
        hole = _hole(report["at"][0])
        earlier = told[target]
        islands = game.the_card.island_holes(target)
        if len(earlier.sinks) < len(BOAT_TYPES):
            still = earlier.open_holes(islands)
            wasted, count = hole not in still, len(still)
        else:
            count = len(islands - earlier.misses - earlier.hits)
            wasted = False
        fleet = game.fleets.get(target)
        out.append({**{k: report[k] for k in ("n", "by", "target", "result", "sunk")},
                    "at": list(report["at"]), "text": describe(report),
                    "found": fleet.piece_at(hole) if fleet else None,
                    "wasted": wasted, "open": count})
        earlier.add(report)
    return out


def sinking(game: Game) -> dict[str, dict[str, Json]]:
    """For each seat, the shots it took to sink each of the opponent's boats."""
    table: dict[str, dict[str, Json]] = {}
    for seat in game.seats:
        fleet = game.fleets.get(other(seat))
        rows: dict[str, dict[str, int | None]] = {
            kind: {"shots": None, "first_hit": None, "to_finish": None} for kind in BOAT_TYPES}
        mine = [r for r in game.reports if r["by"] == seat]
        for k, report in enumerate(mine, start=1):
            kind = fleet.at.get(_hole(report["at"][0])) if fleet else None
            if kind is None:
                continue
            first_hit = rows[kind]["first_hit"]
            if first_hit is None:
                rows[kind]["first_hit"] = first_hit = k
            if report["sunk"] == kind:
                rows[kind]["shots"] = k
                rows[kind]["to_finish"] = k - first_hit + 1
        table[seat] = rows
    return table


def postmortem_document(game: Game) -> Json:
    """The post-mortem of a finished game (refused before the end, T10)."""
    require_over(game, "The post-mortem is given", "T10")
    walked = steps(game)
    wasted = {s: [step["n"] for step in walked if step["by"] == s and step["wasted"]]
              for s in game.seats}
    return {
        "rules": RULES,
        "steps": walked,
        "sinking": sinking(game),
        "wasted": {s: {"count": len(ns), "shots": ns,
                       "holes": [walked[n - 1]["at"][0] for n in ns],
                       "of": sum(1 for step in walked if step["by"] == s)}
                   for s, ns in wasted.items()},
        "method": "A shot is wasted when, from what the shooter had been told before it, no "
                  "boat still afloat could lie on its hole: not on an island (T4), not where "
                  "he missed, not on the hole where a boat sank, and not on a hole that must "
                  "be a sunk boat's, because every line of hits that boat could lie on "
                  "passes through it.",
    }
