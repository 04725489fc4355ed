"""The careful level: weighs every legal move of its view (B5) by what it is likely to bring.

For each move in the view's ``legal`` list it reckons, from its seat's sight alone:

- the hazards of the run (B6, B7): each unrevealed buoy on the path with its odds of SINK
  (``sight.sink``: Blue knows his own, Red reckons them from the settings B4 allows and the
  buoys revealed so far), and for Red each red circle with the odds of its batteries being HIT
  given every mast lost to them so far (``sight.battery_worlds``);
- the broadsides where it stops (B8, B9): masts it takes and gives, ships sunk, a merchant
  sunk; a crossed T (giving without taking) scores best;
- the enemy's best answer on the board it leaves (every enemy ship's every turn and straight
  run that ends beside one of its ships or, against Blue, opposite a merchant), which it keeps
  small: a ship does not stop where the enemy can cross its T;
- its own best next move from there, a little, so that it lines up attacks;
- a pull toward its work: Red toward the crosses opposite the merchants still afloat and the
  crosses ahead of or astern of Blue's ships (where Red crosses their T); Blue toward the
  crosses ahead of or astern of Red's ships, while its ships opposite a merchant stay there
  when a Red ship is near.

Ties are broken by the computer's seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections import deque
from functools import lru_cache

from referee.broadside import board

from .sight import (
    Ship,
    Sight,
    agrees,
    battery_settings,
    circle_hits,
    other,
    path_of,
    red_paths,
)

MAST = 1.0  # a mast taken or lost
SUNK = 1.5  # a warship sunk, beyond its last mast
MERCHANT = 6.0  # a merchant ship sunk (B9)
WIN = 1000.0  # the move that wins (B10)
REPLY = 0.85  # how much the enemy's best answer weighs
FOLLOW = 0.25  # how much its own best next move weighs
PULL = 0.12  # per step nearer its work
GUARD = 1.2  # a Blue guard leaving a merchant's cross with a Red ship near

QUIET = 24  # moves without a shot that make a lull
LULL = 1.0  # in a lull, any move within this much of the best may be chosen

FACINGS = board.FACINGS
OPPOSITE_OF = {"up": "down", "down": "up", "left": "right", "right": "left"}
BROADSIDE = {f: board.broadside_sides(f) for f in FACINGS}


@lru_cache(maxsize=1)
def _next() -> dict[str, dict[str, str | None]]:
    return {at: {f: board.neighbours(at).get(f) for f in FACINGS} for at in board.CROSSES}


@lru_cache(maxsize=1)
def _distances() -> dict[str, dict[str, int]]:
    """Steps between every two crosses, along crosses (B2), ships ignored."""
    nxt = _next()
    table = {}
    for start in board.CROSSES:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in nxt[here].values():
                if there is not None and there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        table[start] = seen
    return table


def _toward(at: str, to: str) -> str:
    """The direction from a cross to the point next to it (B1's data puts them side by side)."""
    way = board.direction(at, to)
    if way is None:
        raise ValueError(f"{to} is not next to {at} (B1)")
    return way


@lru_cache(maxsize=1)
def _merchant_facing() -> dict[str, tuple[str, str]]:
    """Each merchant's opposite cross: (the merchant's dock circle, its direction from there)."""
    return {m["opposite"]: (m["at"], _toward(m["opposite"], m["at"]))
            for m in board.MERCHANTS}


def ship_value(masts: int) -> float:
    return masts * MAST + SUNK


class Board:
    """The warships as a cross -> [side, facing, masts] table, cheap to copy."""

    __slots__ = ("at", "merchants")

    def __init__(self, at: dict[str, list], merchants: set[str]) -> None:
        self.at = at
        self.merchants = merchants  # the opposite crosses of merchants still afloat

    @classmethod
    def of(cls, sight: Sight) -> Board:
        return cls({s.at: [s.side, s.facing, s.masts] for s in sight.ships.values()},
                   {m["opposite"] for m in sight.afloat_merchants()})

    def copy(self) -> Board:
        return Board({k: list(v) for k, v in self.at.items()}, set(self.merchants))

    def count(self, side: str) -> int:
        return sum(1 for v in self.at.values() if v[0] == side)


def landing(b: Board, side: str, at: str, facing: str, masts: int, origin: str | None = None
            ) -> tuple[float, list[str], int, str | None]:
    """What a ship of ``side`` with ``masts`` stopping on ``at`` facing ``facing`` brings (B8,
    B9), as (value for its side, enemy crosses it hits, masts it loses, merchant cross sunk)."""
    nxt = _next()[at]
    sides = BROADSIDE[facing]
    hits: list[str] = []
    taken = 0
    value = 0.0
    for d in FACINGS:
        n = nxt[d]
        if n is None or n == origin:
            continue
        enemy = b.at.get(n)
        if enemy is None or enemy[0] == side:
            continue
        if d in sides:
            hits.append(n)
            value += MAST + (SUNK if enemy[2] <= 1 else 0.0)
        if OPPOSITE_OF[d] in BROADSIDE[enemy[1]]:
            taken += 1
    merchant = None
    if side == "red" and at in b.merchants:
        dock, toward = _merchant_facing()[at]
        if toward in sides:
            merchant = at
            value += MERCHANT + (WIN if len(b.merchants) == 1 else 0.0)
    lost = min(taken, masts)
    value -= lost * MAST + (SUNK if taken >= masts else 0.0)
    if side == "blue" and hits:
        sunk = sum(1 for n in hits if b.at[n][2] <= 1)
        if sunk and sunk == b.count("red"):
            value += WIN
    return value, hits, taken, merchant


def after(b: Board, side: str, origin: str, at: str, facing: str, masts: int) -> Board:
    """The board once the ship has moved from ``origin`` to ``at`` and the broadsides are
    fired (B8, B9)."""
    _, hits, taken, merchant = landing(b, side, at, facing, masts, origin)
    nb = b.copy()
    del nb.at[origin]
    for n in hits:
        nb.at[n][2] -= 1
        if nb.at[n][2] <= 0:
            del nb.at[n]
    # the enemies that fired back (B8)
    if taken < masts:
        nb.at[at] = [side, facing, masts - taken]
    if merchant:
        nb.merchants.discard(merchant)
    return nb


class Reckoner:
    """A seat's reckoning of moves, from its sight."""

    def __init__(self, sight: Sight, worlds: list[tuple[frozenset[str], float]]):
        self.sight = sight
        self.me = sight.you
        self.enemy = other(sight.you)
        self.worlds = worlds  # battery settings Red thinks possible, with their weights
        self.dist = _distances()

    # -- hazards (B6, B7) ---------------------------------------------------------------
    def battery_loss(self, side: str, path: list[str]) -> list[tuple[int, float]]:
        """(masts lost, probability) for a ship of ``side`` along ``path``."""
        if side == "blue" or not any(at in board.RED_CIRCLES for at in path):
            return [(0, 1.0)]
        odds: dict[int, float] = {}
        for hit, weight in self.worlds:
            lost = circle_hits(path, hit)
            odds[lost] = odds.get(lost, 0.0) + weight
        return sorted(odds.items())

    def buoy_odds(self, path: list[str]) -> float:
        """The odds of reaching the end of ``path`` without meeting a SINK buoy (B6)."""
        alive = 1.0
        for at in path:
            p = self.sight.sink.get(at)
            if p:
                alive *= 1.0 - p
        return alive

    # -- the best move of a side on a board ------------------------------------------
    def best_reply(self, b: Board, side: str) -> float:
        """The most ``side`` can gain with one move on board ``b`` (0 if nothing): every ship's
        every straight run (any turn first, B5) that stops beside an enemy or, for Red,
        opposite a merchant."""
        hot: set[str] = set()
        nxt = _next()
        for at, (s, _, _) in b.at.items():
            if s != side:
                hot.update(n for n in nxt[at].values() if n is not None)
        if side == "red":
            hot |= b.merchants
        best = 0.0
        sink = self.sight.sink
        for origin, (s, _, masts) in list(b.at.items()):
            if s != side:
                continue
            for d in FACINGS:
                n = nxt[origin][d]
                odds = 1.0
                lost = 0.0
                while n is not None and n not in b.at:
                    p = sink.get(n)
                    if p:
                        if p >= 1.0:
                            break  # a buoy this seat knows sinks (Blue's own, or revealed)
                        odds *= 1.0 - p  # Blue goes on only if it is PASS
                    if side == "red" and n in board.RED_CIRCLES:
                        lost += sum(self.hit_odds(site) for site in board.controlling(n))
                        if lost >= masts:
                            break
                    if n in hot:
                        value = landing(b, side, n, d, masts, origin)[0] - lost * MAST
                        value *= odds
                        if value > best:
                            best = value
                    n = nxt[n][d]
        return best

    def hit_odds(self, site: str) -> float:
        return self.sight.hit.get(site, 0.5)

    # -- the pull toward its work ----------------------------------------------------
    def goals(self, b: Board, side: str) -> list[str]:
        nxt = _next()
        found = []
        for at, (s, facing, _) in b.at.items():
            if s == side:
                continue
            for d in (facing, OPPOSITE_OF[facing]):  # ahead and astern: the T crossed
                n = nxt[at][d]
                if n is not None:
                    found.append(n)
        if side == "red":
            found.extend(b.merchants)
        return found

    def distance(self, at: str, goals: list[str]) -> int:
        row = self.dist[at]
        return min((row.get(g, 99) for g in goals), default=0)

    def guard_penalty(self, b: Board, origin: str) -> float:
        if self.me != "blue" or origin not in b.merchants:
            return 0.0
        near = min((self.dist[origin].get(at, 99) for at, v in b.at.items() if v[0] == "red"),
                   default=99)
        return GUARD if near <= 8 else 0.0

    # -- one move ------------------------------------------------------------------------
    def value(self, b: Board, move: dict, goals: list[str]) -> float:
        origin = move["ship"]
        ship: Ship = self.sight.ships[origin]
        facing = board.turn(ship.facing, move.get("turn"))
        path = path_of(origin, facing, move["to"])
        to = move["to"]
        alive = self.buoy_odds(path)
        total = 0.0
        for lost, weight in self.battery_loss(ship.side, path):
            if lost >= ship.masts:
                total += weight * -ship_value(ship.masts)
                continue
            masts = ship.masts - lost
            gain = landing(b, ship.side, to, facing, masts, origin)[0]
            nb = after(b, ship.side, origin, to, facing, masts)
            if gain >= WIN:
                total += weight * (gain - lost * MAST)
                continue
            threat = self.best_reply(nb, self.enemy)
            follow = self.best_reply(nb, self.me)
            total += weight * (gain - lost * MAST - REPLY * threat + FOLLOW * follow)
        total = alive * total - (1.0 - alive) * ship_value(ship.masts)
        pull = self.distance(origin, goals) - self.distance(to, goals)
        return total + PULL * pull * alive - self.guard_penalty(b, origin)


def battery_worlds(sight: Sight) -> list[tuple[frozenset[str], float]]:
    """The battery settings (two HIT) this seat thinks possible, each with its weight."""
    sure = all(p in (0.0, 1.0) for p in sight.hit.values())
    if sure:
        return [(frozenset(s for s, p in sight.hit.items() if p == 1.0), 1.0)]
    worlds = [w for w in battery_settings()
              if all(sight.hit.get(s, 0.5) > 0.0 for s in w)
              and all(sight.hit.get(s, 0.5) < 1.0 for s in sight.hit if s not in w)]
    paths = red_paths(sight.reports)
    worlds = [w for w in worlds if agrees(w, paths)] or worlds
    return [(w, 1.0 / len(worlds)) for w in worlds]


def move(sight: Sight, rng: random.Random) -> dict:
    if not sight.legal:
        return {"pass": True}
    b = Board.of(sight)
    reckoner = Reckoner(sight, battery_worlds(sight))
    goals = reckoner.goals(b, sight.you)
    scored = []
    for legal in sight.legal:
        scored.append((reckoner.value(b, legal, goals) + rng.random() * 1e-3, legal))
    top = max(value for value, _ in scored)
    if quiet(sight.reports) >= QUIET:
        # a long lull: the fleets are circling or jammed (a ship in a corner, its every
        # neighbour held by the other side's ships); any move near the best, to break it
        chosen = rng.choice([legal for value, legal in scored if value >= top - LULL])
    else:
        chosen = next(legal for value, legal in scored if value == top)
    return {"ship": chosen["ship"], "turn": chosen.get("turn"), "to": chosen["to"]}


def quiet(reports: list[dict]) -> int:
    """How many moves in a row, lately, fired nothing and sank nothing (B8-B11)."""
    n = 0
    for report in reversed(reports):
        if report.get("broadsides") or report.get("sunk") or report.get("merchants_sunk") \
                or report.get("battery_masts"):
            break
        n += 1
    return n
