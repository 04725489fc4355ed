"""Strength and speed of Battleship TCG's computer: prints figures; not a test.

- Each level's shots to sink all five boats and rescue the man, solo against a random fleet on
  the standard card (``referee.battleship_tcg.duel.solo``, the same fleets for every level):
  each level, weakest first, should need fewer than the one before.
- Think time per move: median, 90th and 99th percentile and the slowest (target: median well
  under 250 ms).

Run with `.venv/bin/python bench/tcg_duel_bench.py [games] [seed]`; the duels themselves are
`referee duel --rules battleship-tcg --a admiral --b captain --games 200 --seed 1`, and every
step of the ladder `bench/ladder_steps.py battleship-tcg`.
"""

from __future__ import annotations

import random
import statistics
import sys

from referee.battleship_tcg.computer import LEVELS
from referee.battleship_tcg.duel import solo


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    rng = random.Random(seed)
    seeds = [rng.randrange(2**63) for _ in range(games)]
    means = {}
    for level in LEVELS:
        think: dict[str, list[float]] = {}
        shots = [solo(level, s, think) for s in seeds]
        times = think[level]
        means[level] = statistics.fmean(shots)
        print(f"{level}: shots mean {means[level]:.1f}, sd {statistics.stdev(shots):.1f}, "
              f"median {statistics.median(shots):.0f}, fewest {min(shots)}, most {max(shots)} "
              f"({games} solo games, seed {seed}); think per move median "
              f"{statistics.median(times):.2f} ms, p90 {percentile(times, 0.9):.1f} ms, "
              f"p99 {percentile(times, 0.99):.1f} ms, slowest {max(times):.0f} ms")
    order = sorted(means, key=means.get)
    right = order == list(reversed(LEVELS))
    print("fewest shots first: " + " < ".join(order),
          "(as it should be)" if right else "(NOT AS IT SHOULD BE)")


if __name__ == "__main__":
    main()
