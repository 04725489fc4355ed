"""Where a number of bombs would have sunk the most ship points on a chart whose ships are known.

This is the post-mortem's hindsight: "Had his targets been E 3, E 8, I 17, L 3, Q 14 and
R 17, he would have sunk ships to the value of 39 points." Given the ships of a chart (each
its squares and its points), a number of bombs ``count`` and the radius of their area (2 for
an atom bomber's 5 x 5, 1 for a bomber's 3 x 3; R16), ``best_targets`` chooses up to
``count`` centre squares so that the ships whose every square lies in the union of the areas
are worth the most points. Every ship is taken as intact, and no bomb as shot down.

The problem is NP-hard in general (it contains maximum coverage), and because a ship counts
only once every square is covered, it is not submodular: two bombers that each cover half of
a Battleship sink it together though neither sinks anything alone. So greedy choice has no
(1 - 1/e) guarantee here. The method:

1. Candidates. Only squares whose area covers at least one ship square. A candidate whose
   ship squares (its footprint) are a subset of another's can be replaced by that one without
   loss, so only candidates with maximal footprints are kept, one per footprint (the first in
   reading order).
2. An incumbent by local search: greedy choice (most points sunk; ties to the one that covers
   most of the unsunk ships still uncovered, counted as fractions of each ship), then best
   improving swaps of one centre for another until none improves; from an empty start and
   from the targets actually flown. So the answer is never worse than the targets flown.
3. Exact branch and bound over the candidates, capped at ``budget`` search nodes (a node
   count, not a clock, so the answer never depends on the machine). Its bound: a newly sunk
   ship's remaining squares are all covered by the new bombs, so the fractions of those
   squares that each bomb covers add up to at least 1; a bomb is therefore worth at most the
   sum, over the ships it touches, of the ship's points times the fraction of its uncovered
   squares it covers, and r more bombs at most the r largest such sums. With one bomb left
   the best gain is found exactly.

If the search finishes, the plan is optimal (``exact``), and ``upper_bound`` equals its
points. If the cap stops it, the plan is the best found and ``upper_bound`` is a proven upper
bound on the optimum (the largest bound among the branches left unexplored), so the optimum
lies between the two.

>>> from referee.naval_war.squares import parse_square
>>> ships = [(["A 1"], 1), (["D 1", "D 2", "D 3"], 3)]
>>> plan = best_targets([([parse_square(s) for s in sq], p) for sq, p in ships], 1, 2)
>>> plan.targets, plan.points, plan.exact
(['B 1'], 4, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from .squares import SIZE, Square, area, square_name

NODE_BUDGET = 10_000  # search nodes for one plan; a node takes some 4-15 microseconds of CPU
SCALE = 12  # the fractions 1/1 ... 1/4 of a ship's squares, in whole twelfths

ShipPoints = tuple[Iterable[Square], int]


@dataclass(frozen=True)
class Plan:
    """The best targets found: squares in reading order, the points they sink, and how sure."""

    targets: list[str]
    points: int
    exact: bool
    upper_bound: int
    candidates: int = 0
    nodes: int = 0
    method: str = ""


def _bit(square: Square) -> int:
    return 1 << (square.row * SIZE + square.col)


def _mask(squares: Iterable[Square]) -> int:
    mask = 0
    for square in squares:
        mask |= _bit(square)
    return mask


@cache
def _area_masks(radius: int) -> tuple[int, ...]:
    """The area of every centre, as a bit mask, indexed by row * SIZE + col."""
    return tuple(_mask(area(Square(i % SIZE, i // SIZE), radius)) for i in range(SIZE * SIZE))


def sunk_points(ships: Sequence[ShipPoints], centres: Iterable[Square], radius: int) -> int:
    """The points of the ships whose every square lies in the areas of these centres.

    >>> from referee.naval_war.squares import parse_square
    >>> sunk_points([([parse_square("B 2")], 1), ([parse_square("E 5")], 1)],
    ...             [parse_square("A 1")], 1)
    1
    """
    masks = _area_masks(radius)
    covered = 0
    for centre in centres:
        covered |= masks[centre.row * SIZE + centre.col]
    total = 0
    for squares, points in ships:
        mask = _mask(squares)
        if mask & covered == mask:
            total += points
    return total


class _Chart:
    """The instance: ships as masks, and the candidate centres with their footprints."""

    def __init__(self, ships: Sequence[ShipPoints], radius: int) -> None:
        self.masks = [_mask(squares) for squares, _ in ships]
        self.points = [points for _, points in ships]
        self.radius = radius
        everything = 0
        owner: dict[int, int] = {}
        for j, mask in enumerate(self.masks):
            everything |= mask
            bits = mask
            while bits:
                low = bits & -bits
                owner[low.bit_length() - 1] = j
                bits ^= low
        self.owner = owner
        areas = _area_masks(radius)
        foot_of = [a & everything for a in areas]
        first: dict[int, int] = {}
        for i, foot in enumerate(foot_of):  # row by row: the first in reading order
            if foot and foot not in first:
                first[foot] = i
        reach = 2 * radius
        kept = []
        for foot, i in first.items():
            col, row = i % SIZE, i // SIZE
            dominated = any(
                (other := foot_of[r * SIZE + c]) != foot and foot & other == foot
                for r in range(max(0, row - reach), min(SIZE, row + reach + 1))
                for c in range(max(0, col - reach), min(SIZE, col + reach + 1))
            )
            if not dominated:
                kept.append(i)
        kept.sort()
        self.centres = [Square(i % SIZE, i // SIZE) for i in kept]
        self.foot = [foot_of[i] for i in kept]
        self.touched = [self._ships_in(foot) for foot in self.foot]
        self.pairs = [[(j, foot & self.masks[j]) for j in ships_]
                      for foot, ships_ in zip(self.foot, self.touched, strict=True)]
        self.foot_of = foot_of
        near: dict[int, set[int]] = {}
        for c, ships_ in enumerate(self.touched):
            for j in ships_:
                near.setdefault(j, set()).add(c)
        self.clash = [frozenset().union(*(near[j] for j in ships_)) for ships_ in self.touched]

    def _ships_in(self, foot: int) -> tuple[int, ...]:
        found = set()
        bits = foot
        while bits:
            low = bits & -bits
            found.add(self.owner[low.bit_length() - 1])
            bits ^= low
        return tuple(sorted(found))

    # -- values ------------------------------------------------------------------------

    def covered(self, chosen: Iterable[int]) -> int:
        mask = 0
        for c in chosen:
            mask |= self.foot[c]
        return mask

    def value(self, covered: int) -> int:
        return sum(p for m, p in zip(self.masks, self.points, strict=True) if m & covered == m)

    def gain(self, covered: int, c: int) -> int:
        """Points newly sunk by adding candidate ``c`` to what is covered."""
        total = 0
        after = covered | self.foot[c]
        for j in self.touched[c]:
            m = self.masks[j]
            if m & covered != m and m & after == m:
                total += self.points[j]
        return total

    def progress(self, covered: int, c: int) -> int:
        """In twelfths: for each unsunk ship ``c`` touches, its points times the fraction of
        its uncovered squares that ``c`` covers. The bound of the search (see the module)."""
        total = 0
        for j, inter in self.pairs[c]:
            rest = self.masks[j] & ~covered
            if rest:
                new = (inter & rest).bit_count()
                if new:
                    total += self.points[j] * SCALE // rest.bit_count() * new
        return total

    def candidate_for(self, square: Square) -> int | None:
        """A kept candidate at least as good as a bomb at ``square``, if it covers anything."""
        foot = self.foot_of[square.row * SIZE + square.col]
        if not foot:
            return None
        return next(c for c, other in enumerate(self.foot) if foot & other == foot)


def _greedy(chart: _Chart, chosen: list[int], count: int) -> list[int]:
    chosen = list(chosen)
    covered = chart.covered(chosen)
    while len(chosen) < count:
        taken = set(chosen)
        best, best_key = None, (0, 0)
        for c in range(len(chart.centres)):
            if c in taken:
                continue
            key = (chart.gain(covered, c), chart.progress(covered, c))
            if key > best_key:
                best, best_key = c, key
        if best is None:  # every ship in reach is sunk
            break
        chosen.append(best)
        covered |= chart.foot[best]
    return chosen


def _local_search(chart: _Chart, chosen: list[int]) -> tuple[list[int], int]:
    """Best improving swaps of one centre for another, until none improves."""
    chosen = list(chosen)
    value = chart.value(chart.covered(chosen))
    improved = True
    while improved:
        improved = False
        for i in range(len(chosen)):
            others = chart.covered(chosen[:i] + chosen[i + 1:])
            base = chart.value(others)
            taken = set(chosen)
            best, best_value = None, value
            for c in range(len(chart.centres)):
                if c not in taken:
                    v = base + chart.gain(others, c)
                    if v > best_value:
                        best, best_value = c, v
            if best is not None:
                chosen[i], value, improved = best, best_value, True
    return chosen, value


class _Search:
    """Branch and bound over the candidates, capped at a number of nodes."""

    def __init__(self, chart: _Chart, count: int, best: list[int], value: int,
                 budget: int) -> None:
        self.chart, self.count, self.budget = chart, count, budget
        self.best, self.best_value = list(best), value
        self.nodes = 0
        self.upper_bound = value

    def run(self) -> bool:
        """Search; True when finished (the incumbent is optimal). When the cap stops it,
        ``upper_bound`` is the largest bound of any branch left unexplored."""
        every = range(len(self.chart.centres))
        scores = {c: self.chart.progress(0, c) for c in every}
        return self._node([], 0, 0, list(every), scores, self.count)

    def _node(self, chosen: list[int], covered: int, value: int, rest: list[int],
              scores: dict[int, int], left: int) -> bool:
        """``scores`` holds each candidate's ``progress``, already worked out for this node
        except for those that share a ship with the last centre chosen."""
        chart = self.chart
        self.nodes += 1
        if value > self.best_value:
            self.best, self.best_value = list(chosen), value
        if left == 0 or not rest:
            return True
        if left == 1:
            for c in rest:
                v = value + chart.gain(covered, c)
                if v > self.best_value:
                    self.best, self.best_value = [*chosen, c], v
            return True
        if chosen:
            clash = chart.clash[chosen[-1]]
            scores = {c: chart.progress(covered, c) if c in clash else scores[c]
                      for c in rest}
        ranked = sorted(((scores[c], c) for c in rest if scores[c] > 0), reverse=True)
        worth = [g for g, _ in ranked]
        for i, (_, c) in enumerate(ranked):
            bound = value * SCALE + sum(worth[i:i + left])
            if bound <= self.best_value * SCALE:
                return True
            if self.nodes >= self.budget:  # this branch and those after it stay open
                self._open(bound)
                return False
            done = self._node([*chosen, c], covered | chart.foot[c],
                              value + chart.gain(covered, c),
                              [d for _, d in ranked[i + 1:]], scores, left - 1)
            if not done:  # the branches after this one stay open
                if i + 1 < len(ranked):
                    self._open(value * SCALE + sum(worth[i + 1:i + 1 + left]))
                return False
        return True

    def _open(self, bound: int) -> None:
        self.upper_bound = max(self.upper_bound, bound // SCALE)


def _minimal(chart: _Chart, chosen: list[int]) -> list[int]:
    """Drop the centres that add nothing to what the others sink."""
    chosen = list(chosen)
    value = chart.value(chart.covered(chosen))
    for c in list(chosen):
        without = [d for d in chosen if d != c]
        if chart.value(chart.covered(without)) == value:
            chosen = without
    return chosen


def best_targets(ships: Sequence[ShipPoints], count: int, radius: int, *,
                 flown: Iterable[Square] = (), budget: int = NODE_BUDGET) -> Plan:
    """Up to ``count`` centres whose areas of this ``radius`` sink the most ship points.

    ``ships`` lists each ship's squares and points, all intact; ``flown`` are the targets
    actually chosen, used as one starting point of the local search. See the module for the
    method and what ``exact`` and ``upper_bound`` promise.
    """
    ships = [(tuple(squares), points) for squares, points in ships]
    total = sum(points for _, points in ships)
    if count <= 0 or not ships:
        return Plan([], 0, True, 0, method="nothing to search")
    chart = _Chart(ships, radius)
    starts = [_greedy(chart, [], count)]
    mapped = [c for c in (chart.candidate_for(sq) for sq in flown) if c is not None]
    mapped = list(dict.fromkeys(mapped))[:count]
    if mapped:
        starts.append(_greedy(chart, mapped, count))
    best, best_value = [], 0
    for start in starts:
        chosen, value = _local_search(chart, start)
        if value > best_value:
            best, best_value = chosen, value
    search = _Search(chart, count, best, best_value, budget)
    exact = search.run() or search.best_value == total
    chosen = _minimal(chart, search.best)
    upper = search.best_value if exact else min(total, max(search.upper_bound,
                                                           search.best_value))
    exact = exact or upper == search.best_value
    names = [square_name(s) for s in sorted((chart.centres[c] for c in chosen),
                                            key=lambda s: (s.row, s.col))]
    method = ("exact: branch and bound finished" if exact
              else f"best found: local search, then branch and bound stopped after "
                   f"{search.nodes} nodes")
    return Plan(names, search.best_value, exact, upper, len(chart.centres), search.nodes,
                method)
