"""Which holes a sunk boat covers, where a player can know it from what he was told (T8).

T8 tells the shooter the hole, "Hit" and, on a boat's last hole, its type: not the boat's other
holes. Those are known only where the shots leave one way for the boat to lie: a line of its
size in one of the three directions (T4) through the hole that sank it, every hole of it a hit,
none of them the hole where another boat sank or a hole of a boat already known. Each boat
found narrows the others, so the search runs until nothing changes. The outline on a player's
chart of the opponent (phones and paper) is drawn only for boats found so: never a guess.

Pure: it reads only the shots of a seat's view, and the one geometry of ``holes``.
"""

from __future__ import annotations

from ..catalogue import HOLES
from ..holes import DIRECTIONS, Hole, every_hole, hole_name, line, on_half, parse_hole


def _lines_through(hole: Hole, n: int) -> list[tuple[Hole, ...]]:
    """Every line of ``n`` holes on the half that runs through ``hole``."""
    found = []
    for start in every_hole():
        for dir in DIRECTIONS:
            holes = line(start, dir, n)
            if hole in holes and all(on_half(h) for h in holes):
                found.append(tuple(holes))
    return found


def sunk_boats(shots: list[dict]) -> list[dict]:
    """For each boat sunk by these shots (at one half, as a view's ``shots[half]`` lists them,
    or reports: ``at`` a hole name or a list of one), ``{"type", "at", "holes"}``: ``holes`` is
    the boat's holes in the referee's order where the shots leave one way, else None.

    >>> shots = [{"at": "D 3", "result": "hit", "sunk": None},
    ...          {"at": "D 4", "result": "hit", "sunk": "patrol-boat"}]
    >>> sunk_boats(shots)
    [{'type': 'patrol-boat', 'at': 'D 4', 'holes': ['D 3', 'D 4']}]
    >>> sunk_boats([{"at": "D 4", "result": "hit", "sunk": "patrol-boat"}])[0]["holes"] is None
    True
    """
    def at(shot: dict) -> Hole:
        name = shot["at"][0] if isinstance(shot["at"], list) else shot["at"]
        hole = parse_hole(name)
        assert hole is not None  # the referee wrote it
        return hole

    hits = {at(s) for s in shots if s["result"] == "hit"}
    sinkings = [(s["sunk"], at(s)) for s in shots if s.get("sunk")]
    last_holes = {hole for _, hole in sinkings}
    known: dict[int, tuple[Hole, ...]] = {}
    changed = True
    while changed:
        changed = False
        taken = {h for holes in known.values() for h in holes}
        for i, (kind, hole) in enumerate(sinkings):
            if i in known:
                continue
            ways = [holes for holes in _lines_through(hole, HOLES[kind])
                    if set(holes) <= hits and not set(holes) & (last_holes - {hole})
                    and not set(holes) & taken]
            if len(ways) == 1:
                known[i] = ways[0]
                changed = True
                break
    return [{"type": kind, "at": hole_name(hole),
             "holes": [hole_name(h) for h in sorted(known[i])] if i in known else None}
            for i, (kind, hole) in enumerate(sinkings)]
