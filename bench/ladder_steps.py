"""Each step of a rule set's ladder of computer levels: prints figures; not a test.

For every pair of neighbouring levels (weakest first, as the rule set lists them), or the pairs
named, the stronger plays the weaker ``games`` games exactly as ``referee duel --rules R --a
STRONGER --b WEAKER --games N --seed S`` plays them (``referee.match``: the two levels change
seats every game, the first move alternating where the rules toss for it; the same seed gives
the same games), and the bench prints the stronger's wins, the draws and the weaker's wins
(a draw is not a win; the target is 60-85% for each step), the wins from each seat (for
Broadside, as Red and as Blue), the mean length of a game and each level's median think time
per move.

Run with `nice .venv/bin/python bench/ladder_steps.py RULES [games] [seed] [strong:weak ...]`
(200 games a step and seed 23 by default).
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from referee import rulesets
from referee.match import play, schedule, two_seats

LOW, HIGH = 0.60, 0.85  # each level beats the one below in 60-85% of games


def step(rules: str, strong: str, weak: str, games: int, seed: int) -> str:
    rule_set = rulesets.named(rules)
    seats = two_seats(rule_set)
    rng = random.Random(seed)  # as referee.match.series draws the games' seeds
    wins = {"a": 0, "b": 0, "draw": 0}
    by_seat = {seat: {"a": 0, "b": 0, "draw": 0, "games": 0} for seat in seats}
    think: dict[str, list[float]] = {"a": [], "b": []}
    moves = []
    began = time.perf_counter()
    for n in range(games):
        swapped, first = schedule(n, seats)
        seat_a, seat_b = (seats[1], seats[0]) if swapped else seats
        match = play(rule_set, {seat_a: strong, seat_b: weak}, rng.randrange(2**63),
                     first=first)
        outcome = "a" if seat_a in match.winners and seat_b not in match.winners else \
            "b" if seat_b in match.winners and seat_a not in match.winners else "draw"
        wins[outcome] += 1
        by_seat[seat_a][outcome] += 1
        by_seat[seat_a]["games"] += 1
        think["a"].extend(match.think_ms[seat_a])
        think["b"].extend(match.think_ms[seat_b])
        moves.append(match.moves)
    share = wins["a"] / games
    verdict = "in 60-85%" if LOW <= share <= HIGH else "OUTSIDE 60-85%"
    lines = [f"{strong} v {weak}: {strong} wins {wins['a']}, draws {wins['draw']}, "
             f"{weak} wins {wins['b']} of {games} ({share:.1%}, {verdict})"]
    for seat, tally in by_seat.items():
        lines.append(f"  {strong} as {seat}: wins {tally['a']}, draws {tally['draw']}, "
                     f"loses {tally['b']} of {tally['games']}")
    lines.append(f"  moves a game: median {statistics.median(moves):.0f}; median think per "
                 f"move: {strong} {statistics.median(think['a']):.1f} ms, {weak} "
                 f"{statistics.median(think['b']):.1f} ms; {time.perf_counter() - began:.0f} s")
    return "\n".join(lines)


def main() -> None:
    rules = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 23
    levels = list(rulesets.named(rules).levels)
    pairs = [tuple(p.split(":")) for p in sys.argv[4:]] or \
        [(levels[k + 1], levels[k]) for k in range(len(levels) - 1)]
    print(f"{rules}: {games} games a step, seed {seed}", flush=True)
    for strong, weak in pairs:
        print(step(rules, strong, weak, games, seed), flush=True)


if __name__ == "__main__":
    main()
