"""Does any request's time say how large the opponent's fleet is? (R21)

Two games on one real `referee serve` differ only in Blue's fleet: 15 battleships (15 pieces)
or 60 submarines, 20 R.P.s and 20 A-A guns (145 pieces with their land). Red's fleet and the
moves (salvoes into squares empty in every fleet) are the same, so everything Red, a
stranger or the host is told is the same. Each request below is timed over loopback, the
two games interleaved in random order, in several runs; then the first request after a move
(when nothing is kept for the new version yet):

- `GET /api/v1/games/{id}/record` with Red's token;
- the join page and the recover page, with no token at all;
- `GET /api/v1/games/{id}/host` with the host's token.

A difference between the fleets smaller than the spread between runs says nothing to a
player with a stopwatch.

Run with `.venv/bin/python bench/hidden_cost_bench.py [rounds] [runs]`; prints medians.
"""

from __future__ import annotations

import http.client
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from conftest import LiveServer  # noqa: E402
from helpers import IDLE_SQUARES, QUIET  # noqa: E402

from referee.naval_war import check_disposition  # noqa: E402
from referee.naval_war.layout import pack  # noqa: E402
from referee.naval_war.squares import Square, square_name  # noqa: E402

FLEETS = {
    "15 pieces": pack({"battleship": 15, "salvo": 100}),
    "145 pieces": pack({"submarine": 60, "recon": 20, "aa-gun": 20, "salvo": 60}),
}
MOVES_BEFORE = 10


def occupied(document: dict) -> set:
    fleet = check_disposition(document)[0]
    return set(fleet.land) | set(fleet.ship_at) | set(fleet.aircraft_at) | set(fleet.gun_at)


EMPTY_IN_BLUE = [square_name(s) for s in (Square(c, r) for r in range(21) for c in range(21))
                 if not any(s in occupied(d) for d in FLEETS.values())][-3:]


def start_game(api, blue: dict) -> dict:
    status, created, _ = api.call("POST", "/api/v1/games", {})
    assert status == 201, created
    tokens = {}
    for seat, info in created["seats"].items():
        tokens[seat] = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                {"join_code": info["join_code"], "name": seat.title()})[1]["token"]
    for seat, document in (("red", QUIET), ("blue", blue)):
        assert api.call("PUT", f"/api/v1/games/{created['id']}/disposition", document,
                        token=tokens[seat])[0] == 200
        assert api.call("POST", f"/api/v1/games/{created['id']}/ready",
                        token=tokens[seat])[0] == 200
    return {"id": created["id"], "tokens": tokens, "host": created["host_token"]}


def idle(api, game: dict, seat: str) -> None:
    squares = EMPTY_IN_BLUE if seat == "red" else IDLE_SQUARES
    status, body, _ = api.call("POST", f"/api/v1/games/{game['id']}/moves",
                               {"weapon": "salvo", "at": squares}, token=game["tokens"][seat])
    assert status == 201, body


def turn_of(api, game: dict) -> str:
    return api.call("GET", f"/api/v1/games/{game['id']}", token=game["tokens"]["red"])[1]["turn"]


def requests_of(game: dict) -> dict[str, tuple[str, dict]]:
    gid = game["id"]
    return {
        "record (Red)": (f"/api/v1/games/{gid}/record",
                         {"Authorization": f"Bearer {game['tokens']['red']}"}),
        "join page": (f"/games/{gid}/join/blue", {}),
        "recover page": (f"/games/{gid}/recover", {}),
        "host status": (f"/api/v1/games/{gid}/host", {"Authorization": f"Bearer {game['host']}"}),
    }


def timed(connection: http.client.HTTPConnection, path: str, headers: dict) -> float:
    start = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    elapsed = (time.perf_counter() - start) * 1e3
    assert response.status == 200, (path, response.status)
    return elapsed


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as folder:
        server = LiveServer(Path(folder) / "bench.db").start()
        try:
            run_bench(server, rounds, runs)
        finally:
            server.stop()


def run_bench(server: LiveServer, rounds: int, runs: int) -> None:
    api = server.api()
    games = {}
    for label, blue in FLEETS.items():
        game = start_game(api, blue)
        for _ in range(2 * MOVES_BEFORE):
            idle(api, game, turn_of(api, game))
        if turn_of(api, game) == "blue":
            idle(api, game, "blue")
        games[label] = game
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    rng = random.Random(1)
    kinds = list(requests_of(next(iter(games.values()))))
    kept = {(k, g): [] for k in kinds for g in games}
    run_medians = {(k, g): [] for k in kinds for g in games}
    fresh = {(k, g): [] for k in kinds for g in games}
    for _ in range(runs):
        run = {(k, g): [] for k in kinds for g in games}
        for _ in range(rounds):
            for label in rng.sample(list(games), len(games)):
                for kind, (path, headers) in requests_of(games[label]).items():
                    run[(kind, label)].append(timed(connection, path, headers))
        for key, samples in run.items():
            kept[key] += samples
            run_medians[key].append(statistics.median(samples))
        for _ in range(6):  # the first request after a move: nothing kept for the version
            for label in rng.sample(list(games), len(games)):
                game = games[label]
                idle(api, game, "red")
                idle(api, game, "blue")
                for kind, (path, headers) in requests_of(game).items():
                    fresh[(kind, label)].append(timed(connection, path, headers))
    connection.close()
    labels = list(games)
    print(f"{rounds} interleaved requests x {runs} runs per fleet, real server on loopback")
    for kind in kinds:
        medians = [statistics.median(kept[(kind, g)]) for g in labels]
        spread = max(max(run_medians[(kind, g)]) - min(run_medians[(kind, g)]) for g in labels)
        first = [statistics.median(fresh[(kind, g)]) for g in labels]
        diff = abs(medians[0] - medians[1])
        print(f"  {kind:13s} " + " vs ".join(f"{m:.3f}" for m in medians)
              + f" ms ({' vs '.join(labels)}); difference {diff:.3f}, run-to-run "
              f"{spread:.3f}: {'below' if diff <= spread else 'NOT below'} the noise; "
              "first after a move " + " vs ".join(f"{m:.3f}" for m in first) + " ms")


if __name__ == "__main__":
    main()
