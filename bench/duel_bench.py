"""Strength and speed of the computer opponent (the bots issue): prints figures; not a test.

- The admiral beats the recruit in at least 95% of games and the captain in at least 65%
  (200 games each, seed 1, alternating who moves first).
- The admiral's median think time per move is under 250 ms.

Run with `.venv/bin/python bench/duel_bench.py [games] [seed]`; the same duels are
`referee duel --a admiral --b recruit --games 200 --seed 1` and `--b captain`.
"""

from __future__ import annotations

import statistics
import sys
import time

from referee.duel import duel

TARGETS = {"recruit": 0.95, "captain": 0.65}
THINK_TARGET_MS = 250.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    think: list[float] = []
    for opponent, target in TARGETS.items():
        start = time.perf_counter()
        done = 0

        def tick(n: int, opponent: str = opponent) -> None:
            nonlocal done
            done += n
            print(f"\r  admiral v {opponent}: {done}/{games}", end="", file=sys.stderr,
                  flush=True)

        result = duel("admiral", opponent, games, seed, progress=tick)
        print("\r", end="", file=sys.stderr)
        rate = result.wins_a / result.games
        think.extend(result.think_ms["a"])
        print(f"{result.headline()}  ({rate:.1%}, target {target:.0%}: "
              f"{'met' if rate >= target else 'NOT MET'})")
        print(f"  {result.scores_line()}; {opponent} wins {result.wins_b}; "
              f"{time.perf_counter() - start:.0f} s")
    median = statistics.median(think)
    print(f"admiral think per move over {len(think)} moves: median {median:.1f} ms, "
          f"90th percentile {percentile(think, 0.9):.1f} ms, max {max(think):.1f} ms "
          f"(target median under {THINK_TARGET_MS:.0f} ms: "
          f"{'met' if median < THINK_TARGET_MS else 'NOT MET'})")


if __name__ == "__main__":
    main()
