"""How close a level comes to a player who sees every fleet: prints figures; not a
test.

The level (the strongest, unless named) plays ``fleets`` games against an opponent (the
weakest, unless named, as ``referee ladder``); the clairvoyant reference player then plays the
same fleets, tosses and seeds with the level's forces. Prints the ship points each sank, the
tempo (what the level had sunk after as many of its own moves as the clairvoyant needed), and
last ``clairvoyance 0.NN``, as ``referee ladder`` does.

Run with `.venv/bin/python bench/clairvoyance_bench.py [fleets] [seed] [level] [opponent]`.
"""

from __future__ import annotations

import statistics
import sys
import time

from referee import match
from referee.rulesets import named


def main() -> None:
    rule_set = named("naval-war")
    levels = list(rule_set.levels)
    fleets = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    level = sys.argv[3] if len(sys.argv) > 3 else levels[-1]
    opponent = sys.argv[4] if len(sys.argv) > 4 else levels[0]
    start = time.perf_counter()
    done = 0

    def tick(n: int) -> None:
        nonlocal done
        done += n
        print(f"\r  {done}/{fleets}", end="", file=sys.stderr, flush=True)

    result = match.clairvoyance(rule_set, level, opponent, fleets, seed, tick)
    print("\r", end="", file=sys.stderr)
    print(f"{level} against {opponent}, {fleets} fleets, seed {seed}, "
          f"{time.perf_counter() - start:.0f} s")
    print(f"per fleet: {level} sank median {statistics.median(result.sunk_by_level)}, "
          f"the clairvoyant median {statistics.median(result.sunk_by_clairvoyant)}")
    print(result.line())
    print(result.tempo_line())
    print(f"clairvoyance {result.fraction:.2f}")


if __name__ == "__main__":
    main()
