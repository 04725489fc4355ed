"""Does any request's time say how large the opponent's fleet is? (R21)

Two games on one real `referee serve` differ only in Blue's fleet: 22 pieces or 172 (a
piece: a ship, an aircraft, a gun or a square of land; tests/hidden_cost_support.py). Red's
fleet and the moves (salvoes into squares empty in every fleet) are the same, and Red moves
first in both, so everything Red, a stranger or the host is told is the same. Each request
below is timed over loopback, the two games in random order:

- `GET /api/v1/games/{id}/record` with Red's token;
- the join page and the recover page, with no token at all;
- `GET /api/v1/games/{id}/host` with the host's token;
- Red's move itself (`POST .../moves`, a salvo into empty squares), after Blue's.

Each run starts two new games, plays a few moves, then times each request as it is kept
(`rounds` times) and as it is first made after a move (`fresh` times, each after Red's move,
which is timed too). A difference between the fleets' medians smaller than the spread of the runs'
medians says nothing to a player with a stopwatch.

Run with `.venv/bin/python bench/hidden_cost_bench.py [rounds] [runs] [fresh]` (defaults 200,
5, 30); prints medians in ms.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from conftest import LiveServer  # noqa: E402
from hidden_cost_support import (  # noqa: E402
    EMPTY_IN_BLUE,
    FLEETS,
    MOST_MOVES,
    idle,
    pieces,
    play_both,
    requests_of,
    start_game,
)

PAIRS_BEFORE = 5
MOVE = "Red's move"


def timed(connection: http.client.HTTPConnection, method: str, path: str, headers: dict,
          body: bytes | None = None) -> float:
    start = time.perf_counter()
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    elapsed = (time.perf_counter() - start) * 1e3
    assert response.status in (200, 201), (path, response.status)
    return elapsed


def red_move(connection: http.client.HTTPConnection, game: dict) -> float:
    return timed(connection, "POST", f"/api/v1/games/{game['id']}/moves",
                 {"Authorization": f"Bearer {game['tokens']['red']}",
                  "Content-Type": "application/json"},
                 json.dumps({"weapon": "salvo", "at": EMPTY_IN_BLUE}).encode())


def one_run(server: LiveServer, rounds: int, fresh_rounds: int, rng: random.Random
            ) -> tuple[dict, dict]:
    """Two new games; each request's times as kept and as first made after a move, by
    (kind, fleet)."""
    api = server.api()
    games = {label: start_game(api, blue) for label, blue in FLEETS.items()}
    play_both(api, games, PAIRS_BEFORE)
    kinds = list(requests_of(next(iter(games.values()))))
    kept = {(k, g): [] for k in kinds for g in games}
    fresh = {(k, g): [] for k in [*kinds, MOVE] for g in games}
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    for label in games:  # warm: the connection, and each kind's first request
        for path, headers in requests_of(games[label]).values():
            timed(connection, "GET", path, headers)
    for _ in range(rounds):
        for label in rng.sample(list(games), len(games)):
            for kind, (path, headers) in requests_of(games[label]).items():
                kept[(kind, label)].append(timed(connection, "GET", path, headers))
    for _ in range(fresh_rounds):
        for label in rng.sample(list(games), len(games)):
            game = games[label]
            fresh[(MOVE, label)].append(red_move(connection, game))
            order = list(requests_of(game).items())
            rng.shuffle(order)  # none always first after the move
            for kind, (path, headers) in order:
                fresh[(kind, label)].append(timed(connection, "GET", path, headers))
            idle(api, game, "blue")
    connection.close()
    return kept, fresh


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    fresh_rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    if PAIRS_BEFORE + fresh_rounds > MOST_MOVES:
        sys.exit(f"at most {MOST_MOVES - PAIRS_BEFORE} fresh rounds: Blue's larger fleet "
                 f"has {MOST_MOVES} salvoes")
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "bench.db").start()
        try:
            run_bench(server, rounds, runs, fresh_rounds)
        finally:
            server.stop()


def run_bench(server: LiveServer, rounds: int, runs: int, fresh_rounds: int) -> None:
    rng = random.Random(1)
    labels = list(FLEETS)
    results = [one_run(server, rounds, fresh_rounds, rng) for _ in range(runs)]
    print(f"Blue's fleet {' or '.join(f'{pieces(d)} pieces' for d in FLEETS.values())}; "
          f"a real server on loopback; {runs} runs, each of two new games")
    for n, when in enumerate((f"as kept ({rounds} each a run)",
                              f"first after a move ({fresh_rounds} each a run)")):
        print(f"  {when}: median ms by fleet; difference; run-to-run spread of the medians")
        kinds = sorted({kind for kind, _ in results[0][n]}, key=lambda k: (k == MOVE, k))
        for kind in kinds:
            medians = [statistics.median([t for run in results for t in run[n][(kind, g)]])
                       for g in labels]
            run_medians = {g: [statistics.median(run[n][(kind, g)]) for run in results]
                           for g in labels}
            spread = max(max(m) - min(m) for m in run_medians.values())
            diff = medians[1] - medians[0]
            print(f"    {kind:13s} " + " vs ".join(f"{m:.3f}" for m in medians)
                  + f"; {diff:+.3f}; spread {spread:.3f}: "
                  + ("below the noise" if abs(diff) <= spread else "NOT below the noise"))


if __name__ == "__main__":
    main()
