"""Computer against computer, for any rule set: ``referee duel --a admiral --b recruit
--games 200 --seed 1 [--rules R]``.

``duel`` plays complete two-player games through the seam (``referee.match``), each computer
only ever handed its own seat's view (R21), the two levels changing seats and the first move
alternating (``match.schedule``); it is deterministic for a seed. The command prints
``admiral wins W of N (draws D)``, then the mean scores (or, where the rule set's bench has its
own lines, those: Battleship: The Tactical Combat Game's solo runs); a progress bar runs on
standard error when it is a terminal, so that standard output stays clean. Nothing here names a
rule set: the levels and everything else come from ``RuleSet``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import click

from . import rulesets
from .match import Series, play, series, two_seats

DuelResult = Series  # the name the benches and tests know


def play_game(level_a: str, level_b: str, seed: int, a_first: bool,
              rules: str = rulesets.DEFAULT):
    """One whole game, a at the first seat and b at the second; returns the finished game."""
    rule_set = rulesets.named(rules)
    seat_a, seat_b = two_seats(rule_set)
    return play(rule_set, {seat_a: level_a, seat_b: level_b}, seed,
                first=seat_a if a_first else seat_b).game


def duel(level_a: str, level_b: str, games: int, seed: int,
         progress: Callable[[int], None] | None = None,
         rules: str = rulesets.DEFAULT) -> Series:
    """Play ``games`` games of ``level_a`` against ``level_b``, seats and first move
    alternated."""
    return series(rulesets.named(rules), level_a, level_b, games, seed, progress)


def every_level() -> list[str]:
    return list(dict.fromkeys(level for rs in rulesets.RULE_SETS.values() for level in rs.levels))


def with_progress(length: int, label: str, run: Callable[[Callable[[int], None] | None], object]):
    """``run(progress)`` with a progress bar on standard error when it is a terminal."""
    if sys.stderr.isatty():
        with click.progressbar(length=length, label=label, file=sys.stderr, show_pos=True,
                               show_eta=True) as bar:
            return run(bar.update)
    return run(None)


def check_levels(rule_set, *levels: str) -> None:
    for level in levels:
        if level not in rule_set.levels:
            raise click.BadParameter(f"{level!r} is not a level of {rule_set.title}; its "
                                     f"levels are {', '.join(rule_set.levels)}")


@click.command("duel")
@click.option("--a", "level_a", type=click.Choice(every_level()), default=None,
              help="The first computer's level [default: the game's strongest].")
@click.option("--b", "level_b", type=click.Choice(every_level()), default=None,
              help="The second computer's level [default: the game's weakest].")
@click.option("--games", default=200, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--times", is_flag=True, help="Also print the median think time per move.")
@click.option("--rules", type=click.Choice(list(rulesets.RULE_SETS)), default=rulesets.DEFAULT,
              show_default=True, help="The game (its bench may print more lines of its "
                                      "own: solo runs of each level, say).")
def duel_command(level_a: str | None, level_b: str | None, games: int, seed: int,
                 times: bool, rules: str) -> None:
    """Play computer against computer, alternating seats and first move; print the result."""
    rule_set = rulesets.named(rules)
    levels = list(rule_set.levels)  # weakest first
    level_a, level_b = level_a or levels[-1], level_b or levels[0]
    check_levels(rule_set, level_a, level_b)
    lines = getattr(rule_set.bench, "duel_lines", None)
    extra = 2 * games if lines else 0  # the bench's solo runs, one per game for each level

    def run(progress):
        result = series(rule_set, level_a, level_b, games, seed, progress)
        return result, (lines(result, seed, progress) if lines else None)

    result, bench_lines = with_progress(games + extra, f"{level_a} v {level_b}", run)
    click.echo(result.headline())
    if bench_lines is not None:
        for line in bench_lines:
            click.echo(line)
    else:
        click.echo(result.scores_line())
        if times:
            click.echo(result.times_line())
    if result.failures:
        click.echo(f"failures: {result.failures} moves where a level failed and played a "
                   "random move instead")


__all__ = ["DuelResult", "duel", "duel_command", "play_game"]
