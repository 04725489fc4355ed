"""Does a view's time say anything about the opponent's fleet? (R21)

Two games on one referee differ only in Blue's fleet: 15 battleships (15 pieces) or 60
submarines, 20 R.P.s and 20 A-A guns (100 pieces and 45 land squares, beside 60 salvoes).
Red's fleet and the moves (salvoes into squares empty in every fleet), so the reports, are
the same. Red's full view (no If-None-Match) is timed through the whole Flask app, the two
games interleaved in random order, in several runs; so is the first view after Blue moves
(the view built anew). A difference between the fleets smaller than the spread between runs
says nothing to a player with a stopwatch.

Run with `.venv/bin/python bench/view_timing_bench.py [rounds] [runs]`; prints medians.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from apiclient import Api, FlaskTransport  # noqa: E402
from helpers import IDLE_SQUARES, QUIET  # noqa: E402

from referee import create_app  # noqa: E402
from referee.naval_war import check_disposition  # noqa: E402
from referee.naval_war.layout import pack  # noqa: E402
from referee.naval_war.squares import Square, square_name  # noqa: E402

FLEETS = {
    "15 pieces": pack({"battleship": 15, "salvo": 100}),
    "100 pieces": pack({"submarine": 60, "recon": 20, "aa-gun": 20, "salvo": 60}),
}
MOVES_BEFORE = 10  # each side fires some salvoes first, so the view holds reports


def occupied(document: dict) -> set:
    fleet = check_disposition(document)[0]
    return set(fleet.land) | set(fleet.ship_at) | set(fleet.aircraft_at) | set(fleet.gun_at)


EMPTY_IN_BLUE = [square_name(s) for s in (Square(c, r) for r in range(21) for c in range(21))
                 if not any(s in occupied(d) for d in FLEETS.values())][-3:]


def pieces(document: dict) -> int:
    fleet = check_disposition(document)[0]
    return len(fleet.ships) + len(fleet.aircraft) + len(fleet.guns) + len(fleet.land)


def start_game(api: Api, blue: dict) -> tuple[str, dict[str, str]]:
    status, created, _ = api.call("POST", "/api/v1/games", {})
    tokens = {}
    for seat, info in created["seats"].items():
        tokens[seat] = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                {"join_code": info["join_code"], "name": seat.title()})[1]["token"]
    for seat, document in (("red", QUIET), ("blue", blue)):
        assert api.call("PUT", f"/api/v1/games/{created['id']}/disposition", document,
                        token=tokens[seat])[0] == 200
        assert api.call("POST", f"/api/v1/games/{created['id']}/ready",
                        token=tokens[seat])[0] == 200
    return created["id"], tokens


def turn_of(api: Api, game_id: str, tokens: dict[str, str]) -> str:
    return api.call("GET", f"/api/v1/games/{game_id}", token=tokens["red"])[1]["turn"]


def idle(api: Api, game_id: str, tokens: dict[str, str], seat: str) -> None:
    squares = EMPTY_IN_BLUE if seat == "red" else IDLE_SQUARES
    status, body, _ = api.call("POST", f"/api/v1/games/{game_id}/moves",
                               {"weapon": "salvo", "at": squares}, token=tokens[seat])
    assert status == 201, body


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": f"{folder}/bench.db",
                          "SECRET_KEY": "bench", "PUBLIC_URL": "http://localhost"})
        api = Api(FlaskTransport(app.test_client()))
        games = {}
        for label, blue in FLEETS.items():
            game_id, tokens = start_game(api, blue)
            for _ in range(2 * MOVES_BEFORE):
                idle(api, game_id, tokens, turn_of(api, game_id, tokens))
            if turn_of(api, game_id, tokens) == "blue":
                idle(api, game_id, tokens, "blue")
            games[label] = (game_id, tokens)
        rng = random.Random(1)
        full = {label: [] for label in games}
        fresh = {label: [] for label in games}
        per_run = {label: [] for label in games}
        fresh_per_run = {label: [] for label in games}
        for _ in range(runs):
            run = {label: [] for label in games}
            for _ in range(rounds):
                for label in rng.sample(list(games), len(games)):
                    game_id, tokens = games[label]
                    start = time.perf_counter()
                    status, _, _ = api.call("GET", f"/api/v1/games/{game_id}",
                                            token=tokens["red"])
                    run[label].append((time.perf_counter() - start) * 1e3)
                    assert status == 200
            for label in games:
                full[label] += run[label]
                per_run[label].append(statistics.median(run[label]))
            fresh_run = {label: [] for label in games}
            for _ in range(8):  # cache misses: Blue moves, Red looks
                for label in rng.sample(list(games), len(games)):
                    game_id, tokens = games[label]
                    if turn_of(api, game_id, tokens) == "red":
                        idle(api, game_id, tokens, "red")
                    idle(api, game_id, tokens, "blue")
                    start = time.perf_counter()
                    api.call("GET", f"/api/v1/games/{game_id}", token=tokens["red"])
                    fresh_run[label].append((time.perf_counter() - start) * 1e3)
            for label in games:
                fresh[label] += fresh_run[label]
                fresh_per_run[label].append(statistics.median(fresh_run[label]))
        print(f"Red's full view, {rounds} interleaved requests x {runs} runs per fleet")
        for label, (_, _) in games.items():
            medians = per_run[label]
            print(f"  against {label} ({pieces(FLEETS[label])} incl. land): median "
                  f"{statistics.median(full[label]):.3f} ms; run medians "
                  f"{min(medians):.3f}-{max(medians):.3f} ms; first view after a move "
                  f"median {statistics.median(fresh[label]):.3f} ms "
                  f"({len(fresh[label])} samples)")
        labels = list(games)
        difference = abs(statistics.median(full[labels[0]]) - statistics.median(full[labels[1]]))
        noise = max(max(per_run[label]) - min(per_run[label]) for label in labels)
        fresh_difference = abs(statistics.median(fresh[labels[0]])
                               - statistics.median(fresh[labels[1]]))
        print(f"  difference between fleets {difference:.3f} ms; run-to-run spread "
              f"{noise:.3f} ms: {'below' if difference < noise else 'NOT below'} the noise")
        fresh_noise = max(max(fresh_per_run[label]) - min(fresh_per_run[label])
                          for label in labels)
        print(f"  first view after a move: difference {fresh_difference:.3f} ms; run-to-run "
              f"spread {fresh_noise:.3f} ms: "
              f"{'below' if fresh_difference < fresh_noise else 'NOT below'} the noise")


if __name__ == "__main__":
    main()
