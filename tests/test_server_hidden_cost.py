"""Against a real `referee serve`: nothing a request's caller may not see changes what the
server sends him or the work of sending it (R21), so no stopwatch tells how large the
opponent's fleet is. Two games differ only in Blue's hidden fleet, 22 pieces or 172
(tests/hidden_cost_support.py); Red's record (Red's token), the join page and the recover page
(no token at all) and the host's status are compared between them:

- what is sent is the same bytes, headers and body, but for what names the game itself (its
  id, its toss's seed, its times, a form's CSRF token);
- the server's processor time for each request (its threads' run time, from
  /proc/<pid>/task/*/schedstat, in nanoseconds) has the same median in both games, taken
  over many requests sent in turns to one game and the other: each kind as it is kept, and
  the four together as they are first made after a move (tests/test_hidden_cost.py counts
  each kind's work then). Processor time, not the time on a clock: another program on the
  machine delays a request but does not add to the server's run time, so the medians agree
  on a busy machine too (within 12% each, 6% together, at a load of 10 on two cores). Made
  from the whole game, as before, each cost 50-80% more against the larger fleet.
  (bench/hidden_cost_bench.py times the same requests by the clock.)
"""

from __future__ import annotations

import http.client
import re
import statistics
from pathlib import Path

import pytest
from conftest import LiveServer
from hidden_cost_support import FLEETS, MOST_MOVES, idle, play_both, requests_of, start_game

KEPT_ROUNDS = 60  # requests of each kind to each game, as kept
FRESH_ROUNDS = 30  # ... and as first made after a move (Red's and Blue's)
PAIRS_BEFORE = 4
TOLERANCE = 0.2  # of the smaller median; made from the game whole, they differed by 0.5-0.8


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("hidden-cost") / "cost.db").start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def games(server):
    api = server.api()
    games = {label: start_game(api, blue) for label, blue in FLEETS.items()}
    play_both(api, games, PAIRS_BEFORE)
    return games


def run_time_ns(pid: int) -> int:
    """The processor time the process's threads have had, in nanoseconds."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            continue  # a thread that ended meanwhile
    return total


def fetch(connection: http.client.HTTPConnection, path: str, headers: dict):
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    assert response.status == 200, (path, response.status, body[:300])
    return response, body


def costs(server: LiveServer, connection, game: dict) -> dict[str, int]:
    """The server's processor time for each kind of request to this game."""
    pid = server.process.pid
    spent = {}
    for kind, (path, headers) in requests_of(game).items():
        before = run_time_ns(pid)
        fetch(connection, path, headers)
        spent[kind] = run_time_ns(pid) - before
    return spent


def normalised(text: str, games: dict) -> str:
    for game in games.values():
        text = text.replace(game["id"], "<game>").replace(game["host"], "<host's token>")
        for seat, token in game["tokens"].items():
            text = text.replace(token, f"<{seat}'s token>")
    text = re.sub(r"[\w-]{20,}\.[\w-]{6}\.[\w-]{20,}", "<signed>", text)  # CSRF, cookie
    text = re.sub(r'"seed":\d+', '"seed":<seed>', text)
    return re.sub(r"\d{10}\.\d+", "<time>", text)


def test_r21_a_real_server_sends_the_same_bytes_whatever_the_opponent_hides(server, games):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        for kind in requests_of(next(iter(games.values()))):
            sent = []
            for game in games.values():
                response, body = fetch(connection, *requests_of(game)[kind])
                if response.getheader("Content-Encoding") != "gzip":
                    assert int(response.getheader("Content-Length")) == len(body)
                headers = sorted((name, normalised(value, games))
                                 for name, value in response.getheaders()
                                 if name not in ("Date", "Content-Length"))
                sent.append((headers, normalised(body.decode(), games)))
            assert sent[0] == sent[1], kind
    finally:
        connection.close()


def test_r21_a_real_server_spends_the_same_time_working_whatever_the_opponent_hides(
        server, games):
    api = server.api()
    assert PAIRS_BEFORE + FRESH_ROUNDS <= MOST_MOVES
    labels = list(games)
    kept = {label: [] for label in labels}
    fresh = {label: [] for label in labels}
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        for label in labels:  # the first requests of a connection and of each kind: warm
            costs(server, connection, games[label])
        for n in range(KEPT_ROUNDS):
            for label in labels[n % 2:] + labels[:n % 2]:
                kept[label].append(costs(server, connection, games[label]))
        for n in range(FRESH_ROUNDS):
            for label in labels:
                idle(api, games[label], "red")
                idle(api, games[label], "blue")
            for label in labels[n % 2:] + labels[:n % 2]:
                fresh[label].append(costs(server, connection, games[label]))
    finally:
        connection.close()
    far = []
    compared = [(f"{kind} (kept)", kept, lambda spent, kind=kind: spent[kind])
                for kind in requests_of(games[labels[0]])]
    compared.append(("all four (first after a move)", fresh, lambda spent: sum(spent.values())))
    for what, samples, cost in compared:
        medians = [statistics.median(cost(spent) for spent in samples[label]) / 1e6
                   for label in labels]
        if abs(medians[0] - medians[1]) > TOLERANCE * min(medians):
            far.append(f"{what}: " + " vs ".join(
                f"{m:.3f} ms ({label})" for m, label in zip(medians, labels, strict=True)))
    assert not far, far
