"""The reckoner of the bold and cunning levels: a fast board and a short look ahead (B5-B10).

The harbour is numbered once (``geometry``): every cross an index, its neighbour each way, the
straight run of crosses from it each way (B2, B5), the steps between any two crosses, the red
circles with their battery sites (B7). A board is a table of the warships,
``{cross: [side, facing, masts]}`` (side 0 Red, 1 Blue; facing 0 up, 1 right, 2 down, 3 left),
and the crosses opposite the merchant ships still afloat (B9).

What a seat knows of Blue's secrets (``Knowledge``) comes from its sight alone (B12): Blue knows
his buoys and batteries; Red reckons the odds of each from the settings B4 allows and what the
reports have told him (``sight.sink``, ``sight.hit``, ``careful.battery_worlds``).

``move`` weighs every legal move of the view (B5), as the level's ``Style`` says:

1. what the move brings at once (B6-B9): the masts it takes and loses, a merchant sunk, the
   hazards of its run (each unrevealed buoy's odds of SINK; each battery setting Red thinks
   possible, weighted);
2. less the enemy's best answer on the board it leaves (``reply``): every enemy run that ends
   beside one of the seat's ships or, against Blue, opposite a merchant, valued at what it
   takes less what the seat could take back at once (``recapture``);
3. plus what the seat could take next if the enemy let it (``follow``);
4. plus where its ships stand: Red nearer the merchants' crosses and (``t_cells``) the crosses
   ahead of and astern of Blue's ships, where a T is crossed; Blue in the inner harbour
   (``home``), nearer the Red ships (``chase``), and with few bows and sterns open
   (``open_ends``: a ship whose bow and stern crosses are land, the edge or its own ships can
   be fired on only broadside to broadside, B8).

In a lull (``patience`` moves without a shot) the side that must attack to win presses on and
the choice widens among the moves near the best, so that fleets do not circle for ever (B10
invents no limit of moves).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, replace
from functools import lru_cache

from referee.broadside import board

from .careful import battery_worlds, quiet

RED, BLUE = 0, 1
SIDE = {"red": RED, "blue": BLUE}
FACING = {f: k for k, f in enumerate(board.FACINGS)}  # board.FACINGS: up, right, down, left

MAST = 1.0  # a mast taken or lost
WIN = 1000.0


@dataclass(frozen=True)
class Geometry:
    names: tuple[str, ...]
    index: dict[str, int]
    row: tuple[int, ...]
    nxt: tuple[tuple[int, ...], ...]  # [cross][direction], four each; -1: no cross that way
    ray: tuple[tuple[tuple[int, ...], ...], ...]  # [cross][direction]: the run of crosses
    circle: dict[int, tuple[str, ...]]  # red circle -> its battery sites
    steps: tuple[tuple[int, ...], ...]  # steps between crosses along crosses (B2)


@lru_cache(maxsize=1)
def geometry() -> Geometry:
    def order(name: str) -> tuple[int, int]:
        column, row = board.coordinates(name)
        return row, column

    names = tuple(sorted(board.CROSSES, key=order))
    index = {name: i for i, name in enumerate(names)}
    nxt = []
    for name in names:
        around = board.neighbours(name)
        nxt.append(tuple(index[around[f]] if f in around else -1 for f in board.FACINGS))
    rays = []
    for i in range(len(names)):
        mine = []
        for d in range(4):
            run, here = [], nxt[i][d]
            while here >= 0:
                run.append(here)
                here = nxt[here][d]
            mine.append(tuple(run))
        rays.append(tuple(mine))
    steps = []
    for i in range(len(names)):
        seen = [-1] * len(names)
        seen[i] = 0
        queue = deque([i])
        while queue:
            here = queue.popleft()
            for there in nxt[here]:
                if there >= 0 and seen[there] < 0:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        steps.append(tuple(seen))
    circle = {index[at]: board.controlling(at) for at in board.RED_CIRCLES}
    return Geometry(names, index, tuple(board.coordinates(n)[1] for n in names), tuple(nxt),
                    tuple(rays), circle, tuple(steps))


@dataclass
class Knowledge:
    """What the thinking seat knows of the hazards (B6, B7), from its sight alone."""

    sink: dict[int, float]  # unrevealed buoy still in place -> odds of SINK
    circle_cost: dict[int, float]  # red circle -> masts a Red ship expects to lose there
    worlds: list[tuple[frozenset[str], float]]  # battery settings (sites HIT), weighted


@dataclass(frozen=True)
class Style:
    """How a level weighs what it reckons (the defaults are the strongest's)."""

    ship: float = 1.5  # a warship sunk, beyond its last mast
    blue_mast: float = 1.0  # a Blue mast, in Red masts (Blue has fewer)
    merchant: float = 6.0  # a merchant ship sunk (B9)
    reply: float = 0.9  # the enemy's best answer
    recapture: float = 0.8  # what the seat can take back after the enemy's answer
    follow: float = 0.25  # what the seat threatens to take next
    pull: float = 0.10  # Red: a step nearer the merchants' crosses, for the ship that moved
    t_cells: bool = False  # Red's pull is also toward the crosses ahead of and astern of Blue's
    chase: float = 0.06  # Blue: a step nearer the Red ships, for the ship that moved
    home: float = 0.0  # Blue: a ship moved into the inner harbour (out of it: as much less)
    home_row: int = 7  # the inner harbour: rows 2 to this, above the channels (B1)
    open_ends: float = 0.0  # Blue: each bow or stern cross of its own ships left open water
    noise: float = 1e-3  # ties broken at random
    window: float = 0.0  # any move within this much of the best may be chosen (a lull)
    patience: int = 16  # moves without a shot, a mast or a ship lost that make a lull; the
    # cunning Blue waits longer (Red must come to the merchants; Blue need not go out)


def knowledge_of(sight, worlds: list[tuple[frozenset[str], float]]) -> Knowledge:
    g = geometry()
    sink = {g.index[at]: p for at, p in sight.sink.items() if p > 0.0}
    cost = {}
    for i, sites in g.circle.items():
        cost[i] = sum(sight.hit.get(site, 0.5) for site in sites)
    return Knowledge(sink, cost, worlds)


def position_of(sight) -> tuple[dict[int, list[int]], frozenset[int]]:
    g = geometry()
    ships = {g.index[s.at]: [SIDE[s.side], FACING[s.facing], s.masts]
             for s in sight.ships.values()}
    merch = frozenset(g.index[m["opposite"]] for m in sight.afloat_merchants())
    return ships, merch


class Reckoner:
    """One seat's reckoning of the moves of one turn."""

    def __init__(self, me: int, know: Knowledge, style: Style) -> None:
        self.g = geometry()
        self.me = me
        self.enemy = 1 - me
        self.know = know
        self.style = style

    # -- values -------------------------------------------------------------------------
    def ship_value(self, side: int, masts: int) -> float:
        mast = MAST if side == RED else self.style.blue_mast
        return masts * mast + self.style.ship

    def loss(self, side: int, masts: int, lost: int) -> float:
        """What losing ``lost`` masts of a ship with ``masts`` costs its side."""
        if lost >= masts:
            return self.ship_value(side, masts)
        return lost * (MAST if side == RED else self.style.blue_mast)

    # -- one ship stopping (B8, B9) --------------------------------------------------------
    def landing(self, ships: dict, merch: frozenset, side: int, at: int, facing: int,
                masts: int) -> tuple[float, list[int], int, bool]:
        """What a ship of ``side`` with ``masts`` stopping on ``at`` facing ``facing`` brings
        its side at once: (value, the enemy crosses it hits, masts it loses, merchant sunk).
        The value is WIN (or -WIN) when the move ends the game (B10)."""
        nxt = self.g.nxt[at]
        value = 0.0
        hits = []
        taken = 0
        parity = facing & 1
        for d in range(4):
            n = nxt[d]
            if n < 0:
                continue
            enemy = ships.get(n)
            if enemy is None or enemy[0] == side:
                continue
            if (d & 1) != parity:
                hits.append(n)
                value += self.loss(enemy[0], enemy[2], 1)
            if (d & 1) != (enemy[1] & 1):
                taken += 1
        merchant = side == RED and at in merch and parity == 1
        if merchant:
            if len(merch) == 1:
                return WIN, hits, taken, True
            value += self.style.merchant
        if taken:
            value -= self.loss(side, masts, taken)
        if side == BLUE and hits:
            sunk = sum(1 for n in hits if ships[n][2] <= 1)
            if sunk and sunk == sum(1 for v in ships.values() if v[0] == RED):
                return WIN, hits, taken, merchant
        if side == RED and taken >= masts and \
                sum(1 for v in ships.values() if v[0] == RED) == 1:
            return -WIN, hits, taken, merchant
        return value, hits, taken, merchant

    @staticmethod
    def after(ships: dict, merch: frozenset, origin: int, at: int, facing: int, masts: int,
              hits: list[int], taken: int, merchant: bool) -> tuple[dict, frozenset]:
        """The board once the ship has moved from ``origin`` to ``at`` and every broadside
        of the move is fired (B8, B9)."""
        new = {k: v for k, v in ships.items() if k != origin}
        side = ships[origin][0]
        for n in hits:
            target = new[n]
            if target[2] <= 1:
                del new[n]
            else:
                new[n] = [target[0], target[1], target[2] - 1]
        if masts - taken > 0:
            new[at] = [side, facing, masts - taken]
        if merchant:
            merch = merch - {at}
        return new, merch

    # -- a side's best immediate gain ------------------------------------------------------
    def hot(self, ships: dict, merch: frozenset, side: int) -> set[int]:
        """The crosses where a ship of ``side`` stopping may fire or be fired on."""
        nxt = self.g.nxt
        hot = set()
        for at, v in ships.items():
            if v[0] != side:
                for n in nxt[at]:
                    if n >= 0:
                        hot.add(n)
        if side == RED:
            hot |= merch
        return hot

    def contacts(self, ships: dict, merch: frozenset, side: int):
        """Every run of a ship of ``side`` that ends on a hot cross: (origin, cross, facing,
        masts on arrival, hazard cost, odds of getting there)."""
        hot = self.hot(ships, merch, side)
        if not hot:
            return
        rays = self.g.ray
        sink = self.know.sink
        cost = self.know.circle_cost
        for origin, (s, _, masts) in list(ships.items()):
            if s != side:
                continue
            for d in range(4):
                reach = 1.0
                spent = 0.0
                for n in rays[origin][d]:
                    if n in ships:
                        break
                    if side == RED and n in cost:
                        spent += cost[n]
                        if spent >= masts - 0.5:  # the batteries would likely sink it
                            break
                    if n in hot:
                        yield origin, n, d, masts, spent, reach
                    p = sink.get(n)
                    if p:
                        if p >= 1.0:
                            break
                        reach *= 1.0 - p

    def best_gain(self, ships: dict, merch: frozenset, side: int) -> float:
        """The most ``side`` can take with one move on this board (0 if nothing)."""
        best = 0.0
        for _, n, d, masts, spent, reach in self.contacts(ships, merch, side):
            lost = int(spent + 0.5)
            value = self.landing(ships, merch, side, n, d, masts - lost)[0]
            value = reach * (value - spent * MAST)
            if value > best:
                best = value
        return best

    def best_answer(self, ships: dict, merch: frozenset, side: int) -> float:
        """The most ``side`` can take with one move, less what the other side then takes
        back at once (weighted by ``recapture``); 0 if nothing."""
        found = []
        for origin, n, d, masts, spent, reach in self.contacts(ships, merch, side):
            lost = int(spent + 0.5)
            value, hits, taken, merchant = self.landing(ships, merch, side, n, d,
                                                        masts - lost)
            gain = reach * (value - spent * MAST)
            if gain > 0:
                found.append((gain, origin, n, d, masts - lost, hits, taken, merchant, reach))
        if not found:
            return 0.0
        found.sort(key=lambda f: -f[0])
        best = 0.0
        weight = self.style.recapture
        for gain, origin, n, d, masts, hits, taken, merchant, reach in found:
            if gain <= best:
                break
            if gain >= WIN * 0.5:
                return gain
            after, left = self.after(ships, merch, origin, n, d, masts, hits, taken, merchant)
            back = self.best_gain(after, left, 1 - side) if weight else 0.0
            value = gain - weight * reach * back
            if value > best:
                best = value
        return best

    def open_ends(self, ships: dict, side: int) -> int:
        """How many bow and stern crosses of ``side``'s ships are open water: where an enemy
        could one day stop to cross a T (B8). A ship whose bow and stern are land, the edge
        or its own ships can only be fired on broadside to broadside."""
        nxt = self.g.nxt
        count = 0
        for at, (s, facing, _) in ships.items():
            if s == side:
                for end in (nxt[at][facing], nxt[at][(facing + 2) % 4]):
                    if end >= 0 and end not in ships:
                        count += 1
        return count

    # -- where the ships stand ---------------------------------------------------------------
    def standing(self, ships: dict, merch: frozenset, moved_from: int, moved_to: int) -> float:
        """The change in the seat's standing made by its ship moving (``Style``)."""
        st = self.style
        steps = self.g.steps
        value = 0.0
        if self.me == RED:
            goals = list(merch)
            if st.t_cells:
                nxt = self.g.nxt
                for at, (s, facing, _) in ships.items():
                    if s == BLUE:
                        goals += [n for n in (nxt[at][facing], nxt[at][(facing + 2) % 4])
                                  if n >= 0]
            if st.pull and goals:
                before = min(steps[moved_from][m] for m in goals)
                now = min(steps[moved_to][m] for m in goals)
                value += st.pull * (before - now)
        else:
            if st.home:
                rows = self.g.row
                value += st.home * ((rows[moved_to] <= st.home_row)
                                    - (rows[moved_from] <= st.home_row))
            reds = [k for k, v in ships.items() if v[0] == RED]
            if st.chase and reds:
                before = min(steps[moved_from][r] for r in reds)
                now = min(steps[moved_to][r] for r in reds)
                value += st.chase * (before - now)
        return value

    # -- one move ----------------------------------------------------------------------------
    def outcomes(self, ships: dict, origin: int, path: tuple[int, ...]):
        """(odds, masts on arrival, sunk on the way) of a run along ``path``, over the buoys
        (B6) and the battery worlds (B7) this seat thinks possible."""
        side, _, masts = ships[origin]
        alive = 1.0
        for n in path:
            p = self.know.sink.get(n)
            if p:
                alive *= 1.0 - p
        if alive < 1.0:
            yield 1.0 - alive, 0, True
        if alive <= 0.0:
            return
        if side == BLUE or not any(n in self.g.circle for n in path):
            yield alive, masts, False
            return
        lost: dict[int, float] = {}
        circles = [self.g.circle[n] for n in path if n in self.g.circle]
        for hit, weight in self.know.worlds:
            k = sum(1 for sites in circles for site in sites if site in hit)
            lost[k] = lost.get(k, 0.0) + weight
        for k, weight in lost.items():
            if k >= masts:
                yield alive * weight, 0, True
            else:
                yield alive * weight, masts - k, False

    def value(self, ships: dict, merch: frozenset, origin: int, facing: int, to: int,
              path: tuple[int, ...]) -> float:
        st = self.style
        me = self.me
        masts0 = ships[origin][2]
        total = 0.0
        for odds, masts, sunk in self.outcomes(ships, origin, path):
            if sunk:  # a rock or the batteries: the ship is lost on its way (B6, B7)
                if me == RED and sum(1 for v in ships.values() if v[0] == RED) == 1:
                    total -= odds * WIN
                    continue
                gain = -self.ship_value(me, masts0)
                after = {k: v for k, v in ships.items() if k != origin}
                left = merch
            else:
                gain, hits, taken, merchant = self.landing(ships, merch, me, to, facing, masts)
                gain -= self.loss(me, masts0, masts0 - masts) if masts < masts0 else 0.0
                if gain >= WIN * 0.5:
                    total += odds * gain
                    continue
                after, left = self.after(ships, merch, origin, to, facing, masts, hits, taken,
                                         merchant)
            threat = self.best_answer(after, left, self.enemy)
            if threat >= WIN * 0.5:
                total += odds * (gain - WIN)
                continue
            follow = self.best_gain(after, left, me) if st.follow else 0.0
            shape = -st.open_ends * self.open_ends(after, me) if st.open_ends else 0.0
            total += odds * (gain - st.reply * threat + st.follow * follow + shape)
        return total + self.standing(ships, merch, origin, to)

    def choose(self, ships: dict, merch: frozenset, legal: list[dict], rng: random.Random
               ) -> dict:
        g = self.g
        best: float | None = None
        chosen: dict | None = None
        scored = []
        for move in legal:
            origin = g.index[move["ship"]]
            facing = FACING[board.turn(board.FACINGS[ships[origin][1]], move.get("turn"))]
            to = g.index[move["to"]]
            path = []
            for n in g.ray[origin][facing]:
                path.append(n)
                if n == to:
                    break
            value = self.value(ships, merch, origin, facing, to, tuple(path))
            value += rng.random() * self.style.noise
            scored.append((value, move))
            if best is None or value > best:
                best, chosen = value, move
        assert best is not None and chosen is not None, "choose is given the legal moves"
        if self.style.window and best < MAST:  # a lull with nothing worth a mast in reach
            return rng.choice([move for value, move in scored
                               if value >= best - self.style.window])
        return chosen


LULL = 3.0  # in a long lull, any move within this much of the best may be chosen


def impatient(style: Style, quiet: int, me: int) -> Style:
    """The style in a lull of ``quiet`` moves (B10 invents no limit of moves, so the fleets
    must not circle for ever): the longer it lasts, the more the side that must attack to
    win presses on (Red toward the merchants, Blue toward the Red ships, fearing the answer
    less; a style's ``patience`` says when), and the wider the choice among moves near the
    best, which breaks a cycle."""
    if quiet < style.patience:
        return style
    over = quiet - style.patience
    push = min(3.0, 1.0 + over / 16)
    return replace(style, reply=style.reply * max(0.4, 1.0 - over / 60),
                   pull=style.pull * push if me == RED else style.pull,
                   chase=max(style.chase, 0.04) * push if me == BLUE else style.chase,
                   window=min(LULL, 0.1 * over))


def move(sight, rng: random.Random, style: Style = Style()) -> dict:
    """The move this style reckons best among the view's legal moves (B5); a pass when there
    is none."""
    if not sight.legal:
        return {"pass": True}
    style = impatient(style, quiet(sight.reports), SIDE[sight.you])
    ships, merch = position_of(sight)
    reckoner = Reckoner(SIDE[sight.you], knowledge_of(sight, battery_worlds(sight)), style)
    chosen = reckoner.choose(ships, merch, sight.legal, rng)
    return {"ship": chosen["ship"], "turn": chosen.get("turn"), "to": chosen["to"]}


# The levels that reckon with this engine (docs/broadside-computer.md)
BOLD = Style(reply=0.0, recapture=0.0, follow=0.0, pull=0.12)  # never looks at the answer
CUNNING = {  # each side its own way
    RED: Style(t_cells=True, pull=0.12, recapture=0.0),
    BLUE: Style(blue_mast=1.25, open_ends=0.3, chase=0.0, home=0.5, patience=48),
}


def bold(sight, rng: random.Random) -> dict:
    """What each move brings at once, hazards reckoned, and a pull toward its work; never the
    enemy's answer."""
    return move(sight, rng, BOLD)


def cunning(sight, rng: random.Random) -> dict:
    """Red: the enemy's best answer weighed against what the move brings, and a pull toward
    the merchants' crosses and the crosses ahead of and astern of Blue's ships. Blue: the
    enemy's best answer less what Blue takes back at once; its masts valued above Red's (it
    has fewer to lose); its ships held in the inner harbour, bows and sterns covered."""
    return move(sight, rng, CUNNING[SIDE[sight.you]])
