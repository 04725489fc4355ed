"""The captain: sensible heuristics, reading its chart of the enemy as a careful player would.

Budget: one of three plans from the rules' illustrative games (a balanced force after Red's
first game, dispersed ships with a pair of atom bombers after Blue's fourth, concentrated
battleships behind A-A guns after Red's fourth), placed at random.

Play, on ``knowledge_chart`` (what its reports have written on its second chart):
an enemy aircraft seen on the ground draws a salvo; atom bombers go first, then R.P.s, each
to the unexplored area with the most unseen squares, away from where guns have fired;
bombers go to a 3 x 3 holding ships already seen, or at random once the R.P.s are spent;
salvoes finish what was seen or hit (hunting along a hit ship's line), then search the
unexplored squares on a checkerboard.
"""

from __future__ import annotations

import random

from referee.naval_war.catalogue import AIRCRAFT_TYPES, SHIP_TYPES
from referee.naval_war.knowledge import HIT, SEEN, SHOT_DOWN, knowledge_chart
from referee.naval_war.layout import scatter
from referee.naval_war.squares import SIZE

from .board import AREA, CELLS, SQUARE_NAMES, distance
from .seat import Seat, aircraft_move, salvo_move

PLANS = (
    {"battleship": 4, "cruiser": 7, "destroyer": 8, "submarine": 17,
     "recon": 24, "bomber": 8, "aa-gun": 12, "salvo": 30},
    {"destroyer": 15, "submarine": 40,
     "atom-bomber": 2, "recon": 30, "aa-gun": 10, "salvo": 30},
    {"battleship": 10, "cruiser": 6, "submarine": 22,
     "recon": 30, "aa-gun": 20, "salvo": 30},
)


def disposition(rng: random.Random) -> dict:
    return scatter(dict(rng.choice(PLANS)), rng)


class _Notes:
    """The captain's reading of its chart of one opponent."""

    def __init__(self, view: dict, opponent: str) -> None:
        chart = knowledge_chart(view, opponent)
        self.opponent = opponent
        entries = [chart.get(name) for name in SQUARE_NAMES]
        self.unknown = [e is None for e in entries]
        self.targets: list[int] = []  # ships seen and not hit, aircraft seen on the ground
        self.planes: list[int] = []
        self.hunt: list[int] = []
        self.danger: set[int] = set()
        hits = []
        for s, e in enumerate(entries):
            if e is None:
                continue
            piece = e.get("piece")
            if e["mark"] == SHOT_DOWN:
                self.danger.update(AREA[1][s])
            elif e["mark"] == SEEN and piece == "aa-gun" and not e.get("spent"):
                self.danger.update(AREA[1][s])
                self.targets.append(s)
            if e["mark"] == SEEN and (piece in AIRCRAFT_TYPES or e.get("aircraft")):
                self.planes.append(s)
            if piece in SHIP_TYPES and e["mark"] in (SEEN, HIT):
                if not e.get("hit"):
                    self.targets.append(s)
                elif not e.get("sunk"):
                    hits.append(s)
        for s in hits:
            self.hunt.extend(self._along(s, set(hits)))

    def _along(self, s: int, hits: set[int]) -> list[int]:
        """Unknown squares next to a hit; along its line if the line is known."""
        c, r = s % SIZE, s // SIZE
        steps = []
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= c + dc < SIZE and 0 <= r + dr < SIZE:
                steps.append((dc, dr))
        lined = [(dc, dr) for dc, dr in steps if s + dr * SIZE + dc in hits]
        if lined:
            steps = [(dc, dr) for dc, dr in steps if (-dc, -dr) in lined or (dc, dr) in lined]
        found = []
        for dc, dr in steps:
            k = 1
            while 0 <= c + k * dc < SIZE and 0 <= r + k * dr < SIZE:
                t = s + k * (dr * SIZE + dc)
                if t in hits:
                    k += 1
                    continue
                if self.unknown[t]:
                    found.append(t)
                break
        return found

    def unknown_in(self, centre: int, radius: int) -> int:
        return sum(1 for s in AREA[radius][centre] if self.unknown[s])


def move(seat: Seat, view: dict, rng: random.Random) -> dict:
    notes = [_Notes(view, opp) for opp in seat.opponents]
    rng.shuffle(notes)
    if seat.salvoes:
        for n in notes:
            if n.planes:
                return salvo_move(_shots(n, rng), n.opponent)
    if seat.aircraft["atom-bomber"]:
        return _explore("atom-bomber", seat.aircraft["atom-bomber"][0], notes, 2, rng)
    if seat.aircraft["recon"]:
        return _explore("recon", seat.aircraft["recon"][0], notes, 1, rng)
    if seat.aircraft["bomber"]:
        frm = seat.aircraft["bomber"][0]
        for n in notes:
            def near(c: int, n: _Notes = n) -> tuple[int, float]:
                return sum(1 for t in n.targets if distance(t, c) <= 1), rng.random()
            cluster = max(range(CELLS), key=near)
            if sum(1 for t in n.targets if distance(t, cluster) <= 1) >= 2 \
                    and cluster not in n.danger:
                return aircraft_move("bomber", frm, cluster, n.opponent)
        return _explore("bomber", frm, notes, 1, rng)
    best = max(notes, key=lambda n: len(n.targets) + len(n.hunt))
    return salvo_move(_shots(best, rng), best.opponent)


def _explore(kind: str, frm: int, notes: list[_Notes], radius: int, rng: random.Random
             ) -> dict:
    """Send an aircraft where the most unseen squares are, away from guns that fired."""
    best: tuple[float, str, int] | None = None
    for n in notes:
        for c in range(CELLS):
            score: float = n.unknown_in(c, radius) - (100 if c in n.danger and kind != "atom-bomber"
                                                 else 0)
            score += rng.random()
            if best is None or score > best[0]:
                best = (score, n.opponent, c)
    if best is None:
        raise ValueError("no opponent to explore")
    _, opp, centre = best
    return aircraft_move(kind, frm, centre, opp)


def _shots(n: _Notes, rng: random.Random) -> list[int]:
    shots: list[int] = []
    for group in (n.planes, n.targets, n.hunt):
        group = list(dict.fromkeys(group))
        rng.shuffle(group)
        for s in group:
            if s not in shots and len(shots) < 3:
                shots.append(s)
    search = [s for s in range(CELLS) if n.unknown[s] and s not in shots
              and (s % SIZE + s // SIZE) % 2 == 0]
    if len(search) < 3:
        search = [s for s in range(CELLS) if s not in shots]
    while len(shots) < 3:
        shots.append(search.pop(rng.randrange(len(search))))
    return shots
