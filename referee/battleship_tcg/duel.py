"""The duel bench's own part for Battleship: The Tactical Combat Game:
``referee duel --rules battleship-tcg --a admiral --b captain --games 200 --seed 1`` plays the
duels through ``referee.match`` like every rule set's, then (``duel_lines``, the rule set's
``bench``) these solo runs.

Two measures, both played through the rules core (``new_game``, ``move``) with each computer
handed only ``view_for(game, its_seat)`` (T10):

- **Duels**: whole games of level a (red) against level b (blue), a moving first in even games
  (T6's toss drawn to make it so); the winner is who rescues his man first (T9).
- **Solo runs**: how many shots a level needs to sink all five boats and rescue the man, against
  a random fleet (a recruit's) on the standard card. The level plays red and moves first;
  blue is the bench itself, which knows red's fleet and shoots red's empty sea first, then red's
  boats, then red's islands with the man last: it cannot win before its 150th shot, and red,
  moving first, has shot every one of blue's 150 holes by then, so every solo run ends with
  red's rescue and counts red's shots. Both levels face the same fleets (the same seeds).

Deterministic for a seed. Think time is the wall time of ``move(view)`` alone.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ..common.computer import Computer
from ..common.documents import Json
from ..common.lifecycle import toss_order
from . import new_game, view_for
from .catalogue import HOLES
from .computer import LEVELS, computer
from .game import Game
from .holes import every_hole, hole_name, hole_named, line
from .views import status_view

SEATS = ("red", "blue")
MAX_MOVES = 2 * 150  # each half has 150 holes, and no hole is shot twice (T1, T7)


@dataclass
class TcgDuelResult:
    level_a: str
    level_b: str
    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    solo_shots: dict[str, list[int]] = field(default_factory=dict)
    think_ms: dict[str, list[float]] = field(default_factory=dict)

    def headline(self) -> str:
        return f"{self.level_a} wins {self.wins_a} of {self.games} (draws {self.draws})"

    def solo_lines(self) -> list[str]:
        lines = []
        for level, shots in self.solo_shots.items():
            sd = statistics.stdev(shots) if len(shots) > 1 else 0.0
            lines.append(f"  {level}: mean {statistics.fmean(shots):.1f}, sd {sd:.1f}, "
                         f"fewest {min(shots)}, most {max(shots)}")
        return lines

    def times_line(self) -> str:
        return "median think per move: " + ", ".join(
            f"{level} {statistics.median(times):.1f} ms"
            for level, times in self.think_ms.items() if times)


def toss_seed(first: str, rng: random.Random) -> int:
    """A seed, drawn from ``rng``, whose toss (T6) gives ``first`` the first move."""
    while True:
        seed = rng.randrange(2**31)
        if toss_order(SEATS, seed)[0] == first:
            return seed


class DuelSeries(Protocol):
    """What ``referee duel`` hands a rule set's bench of the duels it played."""
    games: int
    level_a: str
    level_b: str
    think_ms: dict[str, list[float]]


def _timed(bot: Computer, view: Json, think_ms: dict[str, list[float]] | None) -> Json:
    start = time.perf_counter()
    move = bot.move(view)
    if think_ms is not None:
        think_ms.setdefault(bot.level, []).append((time.perf_counter() - start) * 1000)
    return move


def _start(levels: dict[str, str], seed: int, first: str) -> tuple[Game, dict[str, Computer]]:
    """A game on the standard card with each seat's fleet placed by its own computer."""
    rng = random.Random(seed)
    bots: dict[str, Computer] = {seat: computer(levels[seat], rng.randrange(2**31))
                                 for seat in SEATS}
    for bot in bots.values():
        bot.strict = True  # the bench shows a level's failure rather than hide it
    game, _ = new_game(id=f"duel-{seed}", seed=toss_seed(first, rng),
                       bots={seat: bot.level for seat, bot in bots.items()})
    for seat in SEATS:
        game.submit(seat, bots[seat].disposition(view_for(game, seat)))
    for seat in SEATS:
        game.lock_in(seat)
    return game, bots


def play_game(level_a: str, level_b: str, seed: int, a_first: bool,
              think_ms: dict[str, list[float]] | None = None) -> Game:
    """One whole game, a at red and b at blue; returns the finished game."""
    game, bots = _start({"red": level_a, "blue": level_b}, seed, "red" if a_first else "blue")
    for _ in range(MAX_MOVES):
        status = status_view(game)
        if status["phase"] != "play":
            break
        seat = status["turn"]
        if seat is None:
            break
        game.move(seat, _timed(bots[seat], view_for(game, seat), think_ms))
    return game


def stalling_order(view: Json) -> list[str]:
    """Red's half as the bench shoots it in a solo run, from red's own view: the empty sea,
    then the boats, then the islands with the man last (T7 allows exactly this order)."""
    own = view["disposition"]
    boats = [hole_name(h) for b in own["boats"]
             for h in line(hole_named(b["at"]), b["dir"], HOLES[b["type"]])]
    islands = view["islands"][view["you"]]
    sea = [hole_name(h) for h in every_hole()
           if hole_name(h) not in islands and hole_name(h) not in boats]
    return sea + boats + [h for h in islands if h != own["man"]] + [own["man"]]


def solo(level: str, seed: int, think_ms: dict[str, list[float]] | None = None) -> int:
    """Shots ``level`` needs to sink a recruit's fleet and rescue its man (see above)."""
    game, bots = _start({"red": level, "blue": "recruit"}, seed, "red")
    for shot in stalling_order(view_for(game, "red")):
        game.move("red", _timed(bots["red"], view_for(game, "red"), think_ms))
        if status_view(game)["phase"] != "play":
            break
        game.move("blue", {"at": shot})
    red = view_for(game, "red")  # the game over, as red sees it (T9)
    if not red["result"] or red["result"]["winner"] != "red":
        raise AssertionError("a solo run ends with red's rescue")
    return len(red["shots"]["blue"])


def tcg_duel(level_a: str, level_b: str, games: int, seed: int,
             progress: Callable[[int], None] | None = None,
             solo_games: int | None = None) -> TcgDuelResult:
    """``games`` duels of a against b, then ``solo_games`` (as many unless told) solo runs of
    each level."""
    for level in (level_a, level_b):
        if level not in LEVELS:
            raise ValueError(f"{level!r} is not a level; the levels are {', '.join(LEVELS)}")
    rng = random.Random(seed)
    result = TcgDuelResult(level_a, level_b)
    result.think_ms = {level: [] for level in dict.fromkeys((level_a, level_b))}
    for n in range(games):
        game = play_game(level_a, level_b, rng.randrange(2**63), n % 2 == 0, result.think_ms)
        result_document = status_view(game)["result"]
        winner = result_document["winner"] if result_document else None
        result.games += 1
        if winner == "red":
            result.wins_a += 1
        elif winner == "blue":
            result.wins_b += 1
        else:
            result.draws += 1
        if progress:
            progress(1)
    solo_seeds = [rng.randrange(2**63) for _ in range(games if solo_games is None
                                                       else solo_games)]
    for level in dict.fromkeys((level_a, level_b)):
        result.solo_shots[level] = [solo(level, s, result.think_ms) for s in solo_seeds]
        if progress:
            progress(len(solo_seeds))
    return result


def duel_lines(series: DuelSeries, seed: int,
               progress: Callable[[int], None] | None = None) -> list[str]:
    """What ``referee duel --rules battleship-tcg`` prints after the duels' headline (the
    rule set's ``bench.duel_lines``): ``series.games`` solo runs of each level on fleets drawn
    from ``seed``, and the median think time per move over the duels and the solo runs."""
    rng = random.Random(f"solo:{seed}")
    seeds = [rng.randrange(2**63) for _ in range(series.games)]
    think_ms = {series.level_a: list(series.think_ms["a"])}
    think_ms.setdefault(series.level_b, []).extend(series.think_ms["b"])
    shots = {}
    for level in think_ms:
        shots[level] = [solo(level, s, think_ms) for s in seeds]
        if progress:
            progress(len(seeds))
    result = TcgDuelResult(series.level_a, series.level_b, solo_shots=shots, think_ms=think_ms)
    return [f"shots to sink all five and rescue the man, {series.games} solo games each "
            f"against a random fleet on the standard card (seed {seed}):",
            *result.solo_lines(), result.times_line()]
