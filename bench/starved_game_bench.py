"""Does a storm of costly requests starve another game? Starts a real `referee serve` (one
serving process, as tests/conftest.py's LiveServer, or as many as asked: `make run` starts one
per core) and times another game's moves (salvoes into empty squares, over HTTP) for SECONDS
each:

1. alone;
2. while 16 clients ask for blank move records of every page count, paper and rule set in
   turn, as fast as they are answered;
3. while 16 phones, each holding a seat with the largest purchase, ask "place the rest for
   me" as fast as they are answered;
4. for comparison, while 16 phones poll a game as fast as they are answered (no costly work
   at all).

The storms' clients run in a process of their own (tests/costly_support.py), so that a move's
time is the server's, not the storm's threads' contending with the mover for one interpreter.
Prints each case's moves, median and worst move, and what the storm's clients were answered.
Run with `.venv/bin/python bench/starved_game_bench.py [seconds] [serving processes]`
(defaults 15 and 1). Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from conftest import LiveServer  # noqa: E402
from costly_support import CLIENTS, moves_during  # noqa: E402


def report(label: str, times: list[float], answers: list[int], seconds: float) -> None:
    print(f"  {label}: {len(times)} moves in {seconds:.0f} s, median "
          f"{statistics.median(times) * 1000:.1f} ms, worst {max(times) * 1000:.0f} ms"
          + (f"; the storm was answered {dict(sorted(Counter(answers).items()))}"
             if answers else ""))


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 15
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "bench.db", workers=workers).start()
        try:
            print(f"Another game's moves, {CLIENTS} storm clients, a real server ({workers} "
                  f"serving process{'es' if workers > 1 else ''}, each with its costly-work "
                  "process)")
            report("alone", moves_during(server, None, seconds, clients=0, most=10_000), [],
                   seconds)
            answers: list[int] = []
            times = moves_during(server, "blank sheets", seconds, answers, most=10_000)
            report("16 clients printing blank records", times, answers, seconds)
            answers = []
            times = moves_during(server, "placing the rest", seconds, answers, most=10_000)
            report("16 phones placing the rest", times, answers, seconds)
            answers = []
            times = moves_during(server, "polls", seconds, answers, most=10_000)
            report("16 phones polling (no costly work, for comparison)", times, answers,
                   seconds)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
