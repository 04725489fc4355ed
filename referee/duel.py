"""Bot against bot: ``referee duel --a admiral --b recruit --games 200 --seed 1``.

``duel`` plays complete two-player games with the rules core, each bot only ever handed
``view_for(game, its_seat)`` (R21), alternating who moves first; it is deterministic for a
seed. The command prints ``admiral wins W of N (draws D)``, then the mean scores; a progress
bar runs on standard error so that standard output stays clean.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import click

from .bots import LEVELS, Bot
from .naval_war import Game, new_game, toss_order, view_for
from .naval_war.views import scores, status_view

SEATS = ("red", "blue")
MAX_MOVES = 2000  # no game can be longer: every move spends a weapon bought with 160 points


@dataclass
class DuelResult:
    level_a: str
    level_b: str
    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    scores_a: list[int] = field(default_factory=list)
    scores_b: list[int] = field(default_factory=list)
    think_ms: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})

    @property
    def mean_a(self) -> float:
        return statistics.fmean(self.scores_a) if self.scores_a else 0.0

    @property
    def mean_b(self) -> float:
        return statistics.fmean(self.scores_b) if self.scores_b else 0.0

    def median_think_ms(self, side: str) -> float:
        times = self.think_ms[side]
        return statistics.median(times) if times else 0.0

    def headline(self) -> str:
        return f"{self.level_a} wins {self.wins_a} of {self.games} (draws {self.draws})"

    def scores_line(self) -> str:
        return (f"mean scores: {self.level_a} {self.mean_a:.1f}, "
                f"{self.level_b} {self.mean_b:.1f}")


def toss_seed(first: str, rng: random.Random) -> int:
    """A seed, drawn from ``rng``, whose toss (R11) gives ``first`` the first move."""
    while True:
        seed = rng.randrange(2**31)
        if toss_order(SEATS, seed)[0] == first:
            return seed


def play_game(level_a: str, level_b: str, seed: int, a_first: bool,
              think_ms: dict[str, list[float]] | None = None) -> Game:
    """One whole game, bot a at red and bot b at blue; returns the finished game."""
    rng = random.Random(seed)
    bots = {"red": Bot(level_a, rng.randrange(2**31), strict=True),
            "blue": Bot(level_b, rng.randrange(2**31), strict=True)}
    sides = {"red": "a", "blue": "b"}
    fleets = {seat: bots[seat].disposition(rng=random.Random(rng.randrange(2**31)))
              for seat in SEATS}
    toss = toss_seed("red" if a_first else "blue", rng)
    game, _ = new_game(id=f"duel-{seed}", seats=2, bots={s: b.level for s, b in bots.items()},
                       seed=toss)
    for seat in SEATS:  # a bot's seat is taken when the game is made
        game.submit(seat, fleets[seat])
    for seat in SEATS:
        game.lock_in(seat)
    for _ in range(MAX_MOVES):
        status = status_view(game)
        if status["phase"] != "play":
            break
        seat = status["turn"]
        view = view_for(game, seat)
        start = time.perf_counter()
        move = bots[seat].move(view)
        if think_ms is not None:
            think_ms[sides[seat]].append((time.perf_counter() - start) * 1000)
        game.move(seat, move)
    return game


def duel(level_a: str, level_b: str, games: int, seed: int,
         progress: Callable[[int], None] | None = None) -> DuelResult:
    """Play ``games`` games of ``level_a`` against ``level_b``; a moves first in even games."""
    for level in (level_a, level_b):
        if level not in LEVELS:
            raise ValueError(f"{level!r} is not a level; the levels are {', '.join(LEVELS)}")
    rng = random.Random(seed)
    result = DuelResult(level_a, level_b)
    for n in range(games):
        game = play_game(level_a, level_b, rng.randrange(2**63), n % 2 == 0, result.think_ms)
        points = scores(game)
        a, b = (points[seat] for seat in SEATS)  # R22
        result.games += 1
        result.scores_a.append(a)
        result.scores_b.append(b)
        if a > b:
            result.wins_a += 1
        elif b > a:
            result.wins_b += 1
        else:
            result.draws += 1
        if progress:
            progress(1)
    return result


@click.command("duel")
@click.option("--a", "level_a", type=click.Choice(list(LEVELS)), default="admiral",
              show_default=True, help="The first bot's level.")
@click.option("--b", "level_b", type=click.Choice(list(LEVELS)), default="recruit",
              show_default=True, help="The second bot's level.")
@click.option("--games", default=200, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--times", is_flag=True, help="Also print the median think time per move.")
@click.option("--rules", type=click.Choice(["naval-war", "battleship-tcg"]), default="naval-war",
              show_default=True, help="The game: battleship-tcg also runs each level solo.")
def duel_command(level_a: str, level_b: str, games: int, seed: int, times: bool,
                 rules: str) -> None:
    """Play bot against bot, alternating who moves first, and print the result."""
    if rules == "battleship-tcg":
        from .tcg_duel import tcg_duel_command

        tcg_duel_command(level_a, level_b, games, seed)
        return
    if sys.stderr.isatty():
        with click.progressbar(length=games, label=f"{level_a} v {level_b}",
                               file=sys.stderr, show_pos=True, show_eta=True) as bar:
            result = duel(level_a, level_b, games, seed, progress=bar.update)
    else:
        result = duel(level_a, level_b, games, seed)
    click.echo(result.headline())
    click.echo(result.scores_line())
    if times:
        click.echo(f"median think per move: {level_a} {result.median_think_ms('a'):.1f} ms, "
                   f"{level_b} {result.median_think_ms('b'):.1f} ms")
