"""Strength and speed of Broadsides and Boarding Parties' computer: prints figures; not a test.

Each level plays the next one up (deckhand v gunner, gunner v bosun, bosun v commodore) through
the seam (``referee.match.series``: every computer handed its own seat's view alone, seats and
the first plot alternated, the dice the match's own), and the bench prints, for each step, the
stronger level's share of the games with a 95% Wilson interval (the target: 60-85%), how the
games ended (sunk, Captain fallen, crew gone) and their mean length in orders; then each
level's think time per order (median, 90th percentile, slowest), and which orders cost most.

Run with `nice -n 10 .venv/bin/python bench/boarding_duel_bench.py [games] [seed] [jobs]` (40
games a step by default, seed 1, 1 process; the steps run in ``jobs`` processes at once and
give the same figures however many). The whole round robin with ratings for the home page is
`referee ladder --rules broadsides-boarding --games N --seed S --write`.
"""

from __future__ import annotations

import math
import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from referee import rulesets
from referee.match import play, schedule, two_seats

RULES = "broadsides-boarding"
TARGET = (0.60, 0.85)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def step(strong: str, weak: str, games: int, seed: int) -> dict:
    """``games`` games of ``strong`` against ``weak``, as ``referee.match.series`` plays them,
    with how each ended and every order's think time by level."""
    import random

    rule_set = rulesets.named(RULES)
    seats = two_seats(rule_set)
    rng = random.Random(seed)
    out = {"strong": strong, "weak": weak, "games": games, "wins": 0, "losses": 0, "draws": 0,
           "reasons": Counter(), "orders": [], "think": {strong: [], weak: []},
           "unfinished": 0, "failures": 0}
    for n in range(games):
        swapped, first = schedule(n, seats)
        seat_s, seat_w = (seats[1], seats[0]) if swapped else seats
        match = play(rule_set, {seat_s: strong, seat_w: weak}, rng.randrange(2**63),
                     first=first)
        if not match.finished:
            out["unfinished"] += 1
        winners = match.winners
        if seat_s in winners and seat_w not in winners:
            out["wins"] += 1
        elif seat_w in winners and seat_s not in winners:
            out["losses"] += 1
        else:
            out["draws"] += 1
        out["reasons"][(match.result or {}).get("reason") or "unfinished"] += 1
        out["orders"].append(match.moves)
        out["think"][strong] += match.think_ms[seat_s]
        out["think"][weak] += match.think_ms[seat_w]
        out["failures"] += len(match.failures)
        print(f"{strong} v {weak}: game {n + 1} of {games}, {match.moves} orders",
              file=sys.stderr, flush=True)
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    levels = list(rulesets.named(RULES).levels)
    steps = [(levels[n + 1], levels[n]) for n in range(len(levels) - 1)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(step, *zip(*[(s, w, games, seed + n)
                                                  for n, (s, w) in enumerate(steps)],
                                                strict=True)))
    else:
        results = [step(s, w, games, seed + n) for n, (s, w) in enumerate(steps)]
    think: dict[str, list[float]] = {}
    for r in results:
        share = (r["wins"] + r["draws"] / 2) / r["games"]
        low, high = wilson(r["wins"] + r["draws"] / 2, r["games"])
        inside = TARGET[0] <= share <= TARGET[1]
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(r["reasons"].items()))
        print(f"{r['strong']} v {r['weak']}: {r['strong']} wins {r['wins']}, loses "
              f"{r['losses']}, draws {r['draws']} of {r['games']} = {share:.0%} "
              f"(95% {low:.0%}-{high:.0%}; target 60-85%: "
              f"{'inside' if inside else 'OUTSIDE'}); ended by {reasons}; "
              f"{statistics.fmean(r['orders']):.0f} orders a game"
              + (f"; {r['unfinished']} stopped by the cap" if r["unfinished"] else "")
              + (f"; {r['failures']} failures" if r["failures"] else ""))
        for level, times in r["think"].items():
            think.setdefault(level, []).extend(times)
    print(f"think per order ({games} games a step, seed {seed}):")
    for level in levels:
        times = think.get(level) or [0.0]
        print(f"  {level:<10} median {statistics.median(times):6.1f} ms, p90 "
              f"{percentile(times, 0.9):6.1f} ms, slowest {max(times):6.0f} ms "
              f"({len(times)} orders)")


if __name__ == "__main__":
    main()
