"""Speed of Broadside's rules core: prints medians; not a test.

- Replaying a whole random game (both sides playing random legal moves to the end).
- Building a seat's view, with its ``legal`` list, at the start and at the end of that game.
- Checking Blue's disposition; listing the legal moves; making one move.
- The post-mortem of the whole game.

Run with `.venv/bin/python bench/broadside_core_bench.py`.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from broadside_support import blue_disposition, play_random, started  # noqa: E402

from referee.broadside.fleet import check_disposition  # noqa: E402
from referee.broadside.game import replay  # noqa: E402
from referee.broadside.postmortem import postmortem_document  # noqa: E402
from referee.broadside.views import view_for  # noqa: E402


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    game = play_random(started(), random.Random(1))
    events = json.loads(json.dumps(game.events))
    fresh = started()
    print(f"a random game: {len(game.reports)} moves, {game.result_document()['reason']}")
    print(f"replay the whole game:          {median_ms(lambda: replay(events), 15):8.2f} ms")
    print(f"view at the start (Red):        "
          f"{median_ms(lambda: view_for(fresh, 'red'), 50):8.2f} ms")
    print(f"view at the end (Red):          {median_ms(lambda: view_for(game, 'red'), 15):8.2f} ms")
    print(f"legal moves at the start:       "
          f"{median_ms(lambda: fresh.legal_moves('red'), 200):8.3f} ms")
    doc = blue_disposition()
    print(f"check Blue's disposition:       "
          f"{median_ms(lambda: check_disposition(doc, 'blue'), 200):8.3f} ms")

    def one_move():
        trial = started()
        trial.move("red", {"ship": "I 19", "turn": None, "to": "I 8"})
    print(f"a new game to a first move:     {median_ms(one_move, 50):8.2f} ms")
    print(f"post-mortem of the whole game:  "
          f"{median_ms(lambda: postmortem_document(game), 5):8.2f} ms")


if __name__ == "__main__":
    main()
