"""The boarding as the stronger levels reckon it (BB16, BB21, BB22): the odds of every fight,
the attacks a side can make in one turn, and a turn of three movements chosen to win fights
and keep its own Captain.

A fight (BB22) is worked out exactly (``fight``): each round both dice, each side adding one for
every piece more than the other in the cell and one for its Captain there, ties rolled again,
until one side has nobody left there; a Captain falls only when he stands alone, and his fall
ends the game. An **attack** is up to three pieces whose ways into one enemy cell, through cells
holding no enemy, take at most the turn's three movements together (``attacks``). A turn
(``Melee.turn``) is the best of: no attack, each attack, and each two attacks that fit in one
turn, its spare movements spent where a cheap reckoning of the position likes them best; each
judged by the fights it starts (every outcome weighed by its chance) and by the position they
leave (``Melee.judge``).

Places are numbered (the ship's seat and the cell, ``"red B5"``, as an index) so that the
reckoning is quick. Nothing here holds a game: the pieces are read from a view's ``"crews"``,
the movements from ``referee.broadsides_boarding.deck.steps``.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from functools import cache

from .. import deck

MOST = deck.MOST_IN_CELL
MOVEMENTS = 3
WIN = 40.0  # the worth of the enemy Captain's fall (the game), in crewmembers
GUARD, GUARD_STRONGER = 0.8, 0.2  # each guard beside its own Captain (up to two)
# each movement between a crewmember and the enemy Captain: the stronger side hunts him down
# (a side that only guarded would let a boarding go on for ever, as neither need attack)
HUNT, HUNT_STRONGER = 0.05, 0.3
# boarding turns (both sides') after which a side stops waiting: its Captain joins the hunt and
# a fight at even odds is taken (two lone Captains would otherwise circle each other for ever)
PATIENCE = 16
BOLDNESS = 1.0


def _round_odds(lead: int) -> float:
    """The chance that the side whose total is its die plus ``lead`` more than the other's
    wins a round of a fight (BB22: ties roll again)."""
    wins = sum(1 for x in range(1, 7) for y in range(1, 7) if x + lead > y)
    ties = sum(1 for x in range(1, 7) for y in range(1, 7) if x + lead == y)
    return wins / (36 - ties)


ROUND = {lead: _round_odds(lead) for lead in range(-12, 13)}


@cache
def fight(a: int, ca: int, b: int, cb: int) -> tuple[tuple[float, int, int, int, int], ...]:
    """Every way a fight can end (BB22), with its chance: side A's crew ``a`` and Captain
    ``ca`` (0 or 1) against side B's ``b`` and ``cb``; each outcome ``(chance, a, ca, b, cb)``
    as the cell is left (a Captain gone at 0 ends the game)."""
    if a + ca == 0 or b + cb == 0:
        return ((1.0, a, ca, b, cb),)
    ours, theirs = a + ca, b + cb
    lead = (max(0, ours - theirs) + ca) - (max(0, theirs - ours) + cb)
    p = ROUND[max(-12, min(12, lead))]
    found: dict[tuple[int, int, int, int], float] = {}
    won = fight(a, ca, b - 1, cb) if b else ((1.0, a, ca, 0, 0),)
    lost = fight(a - 1, ca, b, cb) if a else ((1.0, 0, 0, b, cb),)
    for chance, branch in ((p, won), (1 - p, lost)):
        for q, *end in branch:
            key = (end[0], end[1], end[2], end[3])
            found[key] = found.get(key, 0.0) + chance * q
    return tuple((q, *key) for key, q in found.items())


@dataclass
class Board:
    """The two decks laid side by side, their places numbered: ``names[i]`` is ``"red B5"``,
    ``near[i]`` the places one movement takes a piece to (BB21)."""

    names: list[str]
    index: dict[str, int]
    near: list[tuple[int, ...]]

    @classmethod
    def of(cls, seats: tuple[str, str], laid: dict) -> Board:
        names = [f"{seat} {cell}" for seat in seats for cell in deck.CELLS]
        index = {name: i for i, name in enumerate(names)}
        near = [tuple(index[p] for p in deck.steps(name, laid)) for name in names]
        return cls(names, index, near)


@dataclass
class Side:
    """One side's pieces: crew at each place (by index) and its Captain's (None: lost)."""

    crew: list[int]
    captain: int | None

    def at(self, i: int) -> int:
        return self.crew[i] + (self.captain == i)

    def count(self) -> int:
        return sum(self.crew) + (self.captain is not None)

    def copy(self) -> Side:
        return Side(list(self.crew), self.captain)


@dataclass(frozen=True)
class Move:
    """One movement: a piece (the Captain or a crewmember) from one place to the next."""

    start: int
    end: int
    captain: bool = False


@dataclass
class Attack:
    """Pieces whose ways into the enemy's cell ``target`` fit in ``cost`` movements."""

    target: int
    moves: tuple[Move, ...]
    cost: int
    pieces: tuple[tuple[int, bool], ...]  # (where each starts, whether it is the Captain)


def distances(board: Board, target: int, blocked: Side, limit: int = MOVEMENTS) -> dict[int, int]:
    """Movements from each place to ``target`` by ways through places holding none of
    ``blocked``'s pieces (a piece entering one stops, BB21), up to ``limit``."""
    found = {target: 0}
    frontier = [target]
    for depth in range(1, limit + 1):
        nxt = []
        for here in frontier:
            for there in board.near[here]:
                if there not in found and not blocked.at(there):
                    found[there] = depth
                    nxt.append(there)
        frontier = nxt
    return found


def _way(board: Board, start: int, far: dict[int, int]) -> list[int]:
    """The places a piece passes through from ``start`` to the target (0 in ``far``)."""
    way = [start]
    here = start
    while far[here]:
        here = min((p for p in board.near[here] if far.get(p, 99) == far[here] - 1),
                   key=lambda p: p)
        way.append(here)
    return way


def attacks(board: Board, us: Side, them: Side, budget: int = MOVEMENTS) -> list[Attack]:
    """Every attack ``us`` can make in one turn of ``budget`` movements: for each of the
    enemy's cells, each set of up to three pieces (in the cell, at most three, BB16) whose ways
    in, through cells free of the enemy, take at most ``budget`` movements together."""
    found = []
    for target in range(len(board.names)):
        if not them.at(target):
            continue
        far = distances(board, target, them, budget)
        units: list[tuple[int, int, bool]] = []  # (distance, place, captain)
        for place, d in far.items():
            if d == 0:
                continue
            units += [(d, place, False)] * min(us.crew[place], MOST)
            if us.captain == place:
                units.append((d, place, True))
        units.sort()
        room = MOST - us.at(target)
        seen = set()
        for size in range(1, min(room, MOVEMENTS) + 1):
            for group in itertools.combinations(units, size):
                cost = sum(u[0] for u in group)
                if cost > budget:
                    continue
                key = tuple(sorted((u[1], u[2]) for u in group))
                if key in seen:
                    continue
                seen.add(key)
                moves = []
                for _d, place, captain in group:
                    way = _way(board, place, far)
                    moves += [Move(a, b, captain) for a, b in zip(way, way[1:], strict=False)]
                found.append(Attack(target, tuple(moves), cost, key))
    return found


@dataclass
class Outcome:
    """A position after a turn's fights, with its chance; ``ended``: +1 the enemy Captain
    fell, -1 ours."""

    chance: float
    us: Side
    them: Side
    ended: int = 0


def play_moves(board: Board, us: Side, them: Side, moves: list[Move]
               ) -> tuple[Side, list[int]] | None:
    """``us`` after the movements (None if one is not allowed, BB16, BB21), and the enemy's
    cells entered, in the order entered."""
    us = us.copy()
    entered: list[int] = []
    for move in moves:
        if them.at(move.start) or move.end not in board.near[move.start]:
            return None
        if move.captain:
            if us.captain != move.start:
                return None
        elif not us.crew[move.start]:
            return None
        if us.at(move.end) >= MOST:
            return None
        if move.captain:
            us.captain = move.end
        else:
            us.crew[move.start] -= 1
            us.crew[move.end] += 1
        if them.at(move.end) and move.end not in entered:
            entered.append(move.end)
    return us, entered


def fights(us: Side, them: Side, entered: list[int], prune: float = 0.02) -> list[Outcome]:
    """Every way the fights of the cells entered can end (BB22), in the order entered, each
    with its chance (outcomes less likely than ``prune`` dropped, the rest weighed up)."""
    outcomes = [Outcome(1.0, us, them)]
    for cell in entered:
        nxt = []
        for o in outcomes:
            if o.ended:
                nxt.append(o)
                continue
            a, ca = o.us.crew[cell], int(o.us.captain == cell)
            b, cb = o.them.crew[cell], int(o.them.captain == cell)
            for q, a2, ca2, b2, cb2 in fight(a, ca, b, cb):
                u, t = o.us.copy(), o.them.copy()
                u.crew[cell], t.crew[cell] = a2, b2
                ended = 0
                if ca and not ca2:
                    u.captain, ended = None, -1
                if cb and not cb2:
                    t.captain, ended = None, 1
                nxt.append(Outcome(o.chance * q, u, t, ended))
        outcomes = nxt
    kept = [o for o in outcomes if o.chance >= prune or o.ended] or outcomes
    total = sum(o.chance for o in kept)
    for o in kept:
        o.chance /= total
    return kept


def attack_worth(board: Board, us: Side, them: Side, attack: Attack) -> float:
    """What an attack is worth to ``us`` on its own: pieces won less pieces lost, and the game
    by either Captain's fall."""
    played = play_moves(board, us, them, list(attack.moves))
    if played is None:
        return -1.0
    after, entered = played
    worth = 0.0
    before = us.count() - them.count()
    for o in fights(after, them, entered, prune=0.0):
        worth += o.chance * (o.ended * WIN + (o.us.count() - o.them.count()) - before)
    return worth


def best_attack(board: Board, us: Side, them: Side) -> float:
    """The most ``us`` can expect from one attack now (0: none worth making)."""
    return max((attack_worth(board, us, them, a) for a in attacks(board, us, them)),
               default=0.0) if us.count() and them.count() else 0.0


@dataclass
class Melee:
    """One side's boarding turn: ``us`` against ``them`` on ``board``, its choices drawn from
    ``rng``. ``reply``: whether a position is judged by the enemy's best attack from it (the
    commodore) or by a quicker reckoning of the danger (the bosun)."""

    board: Board
    us: Side
    them: Side
    rng: random.Random
    reply: bool = True
    bold: bool = False  # the boarding has gone on long: hunt and fight, guard no more
    enemy_captain_goal: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.them.captain is not None:
            self.enemy_captain_goal = distances(self.board, self.them.captain, Side(
                [0] * len(self.board.names), None), limit=30)

    # -- judging a position ---------------------------------------------------------------

    def positional(self, us: Side, them: Side) -> float:
        """A quick reckoning of a position (no fights): the Captain among guards and away
        from the enemy, the crew drawing near the enemy's Captain (hunting him down when
        they outnumber his side)."""
        stronger = us.count() > them.count() or self.bold
        worth = 0.0
        if us.captain is not None:
            worth += (GUARD_STRONGER if stronger else GUARD) * min(2, us.crew[us.captain])
            if not self.bold:
                near = distances(self.board, us.captain, us, limit=3)
                danger = sum(them.at(p) for p in near if p != us.captain)
                worth -= 0.35 * danger
        goal = self.enemy_captain_goal
        if goal:
            pull = HUNT_STRONGER if stronger else HUNT
            worth -= pull * sum(n * goal.get(i, 30) for i, n in enumerate(us.crew) if n)
            if self.bold and us.captain is not None:
                worth -= pull * goal.get(us.captain, 30)
        return worth

    def judge(self, us: Side, them: Side) -> float:
        """A position after our turn, the enemy to move: the pieces on each side, the
        danger he can do us now (his best attack, our Captain's fall the worst of it), what
        we threaten, and the quick reckoning."""
        worth = us.count() - them.count() + self.positional(us, them)
        if self.reply:
            worth -= 0.9 * best_attack(self.board, them, us)
            worth += 0.3 * best_attack(self.board, us, them)
        else:
            if us.captain is not None:
                far = distances(self.board, us.captain, us, MOVEMENTS)
                raiders = sorted((them.at(p) for p in far if p != us.captain and them.at(p)),
                                 reverse=True)[:MOST]
                guards = us.at(us.captain)
                if sum(raiders) >= guards:
                    worth -= 4.0 * (sum(raiders) - guards + 1)
        return worth

    def outcome_worth(self, moves: list[Move]) -> float | None:
        played = play_moves(self.board, self.us, self.them, moves)
        if played is None:
            return None
        after, entered = played
        worth = BOLDNESS * len(entered) if self.bold else 0.0
        for o in fights(after, self.them, entered):
            if o.ended:
                worth += o.chance * (o.ended * WIN * 10 + o.us.count() - o.them.count())
            else:
                worth += o.chance * self.judge(o.us, o.them)
        return worth

    # -- a turn ---------------------------------------------------------------------------

    def movable(self, us: Side) -> list[Move]:
        """Every single movement ``us`` may make now (BB16, BB21)."""
        found = []
        for place, n in enumerate(us.crew):
            if n and not self.them.at(place):
                found += [Move(place, p) for p in self.board.near[place] if us.at(p) < MOST]
        c = us.captain
        if c is not None and not self.them.at(c):
            found += [Move(c, p, True) for p in self.board.near[c] if us.at(p) < MOST]
        return found

    def fill(self, moves: list[Move]) -> list[Move] | None:
        """``moves`` and as many more as the turn still needs (BB21), each the one the quick
        reckoning likes best, stepping into no enemy's cell unless nothing else is left."""
        played = play_moves(self.board, self.us, self.them, moves)
        if played is None:
            return None
        us = played[0]
        moves = list(moves)
        while len(moves) < MOVEMENTS:
            options = self.movable(us)
            if not options:
                break
            quiet = [m for m in options if not self.them.at(m.end)] or options
            scored = []
            for m in quiet:
                after = play_moves(self.board, us, self.them, [m])
                if after is None:
                    continue
                scored.append((self.positional(after[0], self.them) + self.rng.random() * 1e-3,
                               m, after[0]))
            if not scored:
                break
            _, m, us = max(scored, key=lambda s: s[0])
            moves.append(m)
        return moves

    def turn(self) -> list[Move]:
        """The best turn found (see the module's text)."""
        found = attacks(self.board, self.us, self.them)
        ranked = sorted(((attack_worth(self.board, self.us, self.them, a), n, a)
                         for n, a in enumerate(found)), key=lambda s: (-s[0], s[1]))
        plans: list[list[Move]] = [[]]
        plans += [list(a.moves) for _, _, a in ranked[:10]]
        top = [a for _, _, a in ranked[:6]]
        for one, two in itertools.combinations(top, 2):
            if one.cost + two.cost <= MOVEMENTS and one.target != two.target:
                plans.append(list(one.moves) + list(two.moves))
        best, chosen = None, []
        for plan in plans:
            full = self.fill(plan)
            if full is None:
                continue
            worth = self.outcome_worth(full)
            if worth is None:
                continue
            worth += self.rng.random() * 1e-3
            if best is None or worth > best:
                best, chosen = worth, full
        return chosen


def read(view: dict) -> tuple[Board, Side, Side]:
    """The decks and both sides' pieces as a view shows them in the boarding."""
    you = view["you"]
    them = next(seat for seat in view["crews"] if seat != you)
    board = Board.of((you, them), view["boarding"])

    def side(seat: str) -> Side:
        crew = [0] * len(board.names)
        for place, n in view["crews"][seat]["crew"].items():
            crew[board.index[place]] = n
        captain = view["crews"][seat]["captain"]
        return Side(crew, board.index[captain] if captain else None)

    return board, side(you), side(them)


def order(view: dict, legal: dict, rng: random.Random, reply: bool = True) -> dict:
    """A boarding turn (BB21) for the seat whose view this is."""
    board, us, them = read(view)
    turns = sum(1 for report in view.get("reports") or [] if report.get("kind") == "boarding")
    moves = Melee(board, us, them, rng, reply, bold=turns >= PATIENCE).turn()
    return {"kind": "boarding", "stage": legal["stage"],
            "moves": [{"from": board.names[m.start], "to": board.names[m.end],
                       **({"captain": True} if m.captain else {})} for m in moves]}


__all__ = ["WIN", "Board", "Melee", "Side", "attacks", "fight", "order", "read"]
