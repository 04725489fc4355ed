"""Against a real `referee serve` on loopback: a hostile client looping the expensive calls
(agreeing to end a swollen finished game, its views, its post-mortem PDF, the club's page, draft
dispositions) cannot slow another game's moves.

Before the fix every one of those calls replayed the swollen log, and `POST .../end` did so
inside SQLite's write lock, so another game's move waited seconds. The figures are printed
(run with `-s`); the bound is generous, for a noisy shared two-core machine. Every loop is
bounded in count and time; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import statistics
import threading
import time

from apiclient import Api, HttpTransport
from forgery_support import swollen_file
from helpers import IDLE_SQUARES, QUIET

HOSTILE_SECONDS = 8
MOVES = 24


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def game_in_play(api: Api) -> tuple[str, dict[str, str]]:
    status, created, _ = api.call("POST", "/api/v1/games", {})
    assert status == 201
    tokens = {}
    for seat, info in created["seats"].items():
        status, body, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                   {"join_code": info["join_code"], "name": seat.title()})
        tokens[seat] = body["token"]
    for token in tokens.values():
        assert api.call("PUT", f"/api/v1/games/{created['id']}/disposition", QUIET,
                        token=token)[0] == 200
        assert api.call("POST", f"/api/v1/games/{created['id']}/ready", token=token)[0] == 200
    return created["id"], tokens


def timed_moves(api: Api, game_id: str, tokens: dict[str, str], n: int) -> list[float]:
    """Move times in ms: each player in turn fires a salvo at empty squares."""
    path = f"/api/v1/games/{game_id}"
    times = []
    for _ in range(n):
        turn = api.call("GET", path, token=tokens["red"])[1]["turn"]
        start = time.perf_counter()
        status, body, _ = api.call("POST", f"{path}/moves",
                                   {"weapon": "salvo", "at": IDLE_SQUARES}, token=tokens[turn])
        times.append((time.perf_counter() - start) * 1000)
        assert status == 201, body
    return times


def hostile(url: str, swollen: dict, setup: tuple[str, str], stop: threading.Event,
            counts: dict, kind: str) -> None:
    api = Api(HttpTransport(url, timeout=30))
    path, token = f"/api/v1/games/{swollen['id']}", swollen["seats"]["red"]["token"]
    calls = {
        "end": lambda: api.call("POST", f"{path}/end", token=token),
        "view": lambda: api.call("GET", path, token=token),
        "pdf": lambda: api.call("GET", f"{path}/postmortem.pdf", token=token),
        "club": lambda: api.call("GET", "/club"),
        "draft": lambda: api.call("PUT", f"/api/v1/games/{setup[0]}/disposition", QUIET,
                                  token=setup[1]),
    }
    deadline = time.monotonic() + HOSTILE_SECONDS + 30
    while not stop.is_set() and time.monotonic() < deadline:
        status = calls[kind]()[0]
        counts[kind] = counts.get(kind, 0) + 1
        assert status < 500, (kind, status)


def test_a_hostile_client_cannot_slow_another_games_moves(live_server):
    api = live_server.api()
    status, swollen, _ = api.call("POST", "/api/v1/games/import", swollen_file(2000))
    assert status == 201, swollen
    status, setup, _ = api.call("POST", "/api/v1/games", {})
    joined = api.call("POST", f"/api/v1/games/{setup['id']}/seats/red",
                      {"join_code": setup["seats"]["red"]["join_code"], "name": "Eve"})[1]
    game_id, tokens = game_in_play(api)
    baseline = timed_moves(api, game_id, tokens, MOVES)

    stop, counts, errors = threading.Event(), {}, []

    def run(kind: str) -> None:
        try:
            hostile(live_server.url, swollen, (setup["id"], joined["token"]), stop, counts,
                    kind)
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=run, args=(kind,), daemon=True)
               for kind in ("end", "end", "view", "pdf", "club", "draft")]
    for thread in threads:
        thread.start()
    time.sleep(1)
    started = time.monotonic()
    loaded = timed_moves(api, game_id, tokens, MOVES)
    while time.monotonic() - started < HOSTILE_SECONDS and not errors:
        time.sleep(0.1)
    stop.set()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    figures = (f"another game's move, ms: baseline median {statistics.median(baseline):.1f} "
               f"p95 {percentile(baseline, 95):.1f}; under a hostile client median "
               f"{statistics.median(loaded):.1f} p95 {percentile(loaded, 95):.1f}; "
               f"hostile calls {counts}")
    print(figures)
    # before the fix: median 214 ms, p95 2,810 ms; generous bounds for a shared machine
    assert statistics.median(loaded) < 100, figures
    assert percentile(loaded, 95) < 250 + percentile(baseline, 95), figures
    assert sum(counts.values()) > 50, figures  # the hostile client did hammer the server
