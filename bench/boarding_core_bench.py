"""Broadsides and Boarding Parties' core and computers, timed (not a test): prints medians.

- Whole games between the levels at the core (``referee.match``): orders a game, games that
  come to a boarding, each level's median think per order, and the gunner's wins against the
  deckhand, seats and first move alternated.
- Replaying the longest of those logs, and building both views and records from it.
- The size of a view at the end of that game (its bytes, as the referee serves them).

Run with `.venv/bin/python bench/boarding_core_bench.py [games]`. Figures taken on a busy
machine are provisional.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

from referee import match
from referee.rulesets import named

RULES = named("broadsides-boarding")


def main(games: int = 40) -> None:
    series = match.series(RULES, "gunner", "deckhand", games, seed=11)
    print(series.headline())
    print(series.times_line())
    played = [match.play(RULES, {"red": "gunner", "blue": "deckhand"}, seed=n)
              for n in range(games)]
    orders = sorted(m.moves for m in played)
    boarded = sum(1 for m in played if m.game.laid is not None)
    reasons: dict[str, int] = {}
    for m in played:
        reason = (m.result or {}).get("reason", "unfinished")
        reasons[reason] = reasons.get(reason, 0) + 1
    print(f"orders a game: median {statistics.median(orders)}, longest {orders[-1]}; "
          f"{boarded} of {games} came to a boarding; ends {reasons}")
    longest = max(played, key=lambda m: m.moves).game
    events = json.loads(json.dumps(longest.events))
    times = []
    for _ in range(5):
        start = time.perf_counter()
        game = RULES.replay(events)
        for seat in game.seats:
            RULES.view_for(game, seat)
            RULES.record_for(game, seat)
        times.append((time.perf_counter() - start) * 1000)
    print(f"replay of {len(events)} events and both views and records: median "
          f"{statistics.median(times):.1f} ms")
    view = json.dumps(RULES.view_for(game, "red"), separators=(",", ":")).encode()
    print(f"a view at the end of that game: {len(view):,} bytes")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
