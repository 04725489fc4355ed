"""Speed of Battleship: The Tactical Combat Game on paper and on the play page:
prints medians; not a test.

- The blank charts (pair), the blank record (2 pages), a player's charts after 11 shots, the
  post-mortem booklet with the core's post-mortem.
- Working out which sunk boats' holes a player knows (``known.sunk_boats``) at the end of a
  whole game, as every play page does.

Run with `.venv/bin/python bench/tcg_paper_bench.py`.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from tcg_web_support import played  # noqa: E402

from referee.battleship_tcg.postmortem import postmortem_document  # noqa: E402
from referee.battleship_tcg.views import view_for  # noqa: E402
from referee.battleship_tcg.web import printables  # noqa: E402
from referee.battleship_tcg.web.known import sunk_boats  # noqa: E402
from referee.battleship_tcg.web.parts import blank_chart  # noqa: E402


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    game = played()
    red = view_for(game, "red")
    game.resign("blue")
    over, analysis = view_for(game, "blue"), postmortem_document(game)
    every_hit = [{"at": f"{c} {r}", "result": "hit", "sunk": "submarine" if r == 3 else None}
                 for c in "ACEGIKMO" for r in (1, 2, 3)]
    rows = [
        ("blank charts, pair (2 pages)", lambda: blank_chart(paper="a4"), 10),
        ("blank record (2 pages)", lambda: printables.blank_record(paper="a4", pages=2), 10),
        ("a player's charts after 11 shots", lambda: printables.player_charts(red), 10),
        ("post-mortem booklet", lambda: printables.postmortem(over, analysis=analysis), 10),
        ("known sunk boats, 24 hits and 8 sinkings", lambda: sunk_boats(every_hit), 20),
    ]
    for label, fn, repeat in rows:
        print(f"{label:45s} {median_ms(fn, repeat):8.1f} ms (median of {repeat})")


if __name__ == "__main__":
    main()
