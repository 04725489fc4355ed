"""Against a real `referee serve`: clients that ask for costly work without end (blank
sheets printed afresh, "place the rest for me" with the largest purchase) cannot starve the
other games. Costly work runs in a few slots (``referee.costly``): whoever finds them taken is
told 503 with Retry-After at once, blank sheets are printed once and kept, and a seat may ask
for its fleet to be placed only so often; the threads left serve every other game's polls and
moves, and the processes doing the work give way to the server's for the cores.
(tests/test_costly_work_limits.py counts the same bounds in the app alone;
bench/starved_game_bench.py measures the storms' effect.)

Every loop is bounded in count and in time; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import requests
from api_support import table_in_play
from conftest import LiveServer
from costly_support import moves_during
from helpers import QUIET
from process_support import descendants_of

from referee import costly

STORM_S = 8  # how long the costly clients ask


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("costly") / "costly.db").start()
    yield live
    live.stop()


def test_costly_work_processes_give_way_to_the_server_s_own_for_the_cores(server):
    workers = [pid for pid in descendants_of(server.process.pid)  # not the resource tracker
               if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert workers, "referee serve started no process for costly work"
    server_nice = os.getpriority(os.PRIO_PROCESS, server.process.pid)
    for pid in workers:
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, server_nice
                                                           + costly.WORKER_NICE), pid


def test_costly_work_blank_sheets_asked_without_end_do_not_starve_other_games(server):
    answers: list[int] = []
    times = moves_during(server, "blank sheets", STORM_S, answers)
    assert len(times) >= 10, f"only {len(times)} moves in {STORM_S} s"
    assert max(times) < 3, times
    assert set(answers) <= {200, 503} and 200 in answers


def test_costly_work_placing_the_rest_without_end_does_not_starve_other_games(server):
    answers: list[int] = []
    times = moves_during(server, "placing the rest", STORM_S, answers)
    assert len(times) >= 10, f"only {len(times)} moves in {STORM_S} s"
    assert max(times) < 3, times
    assert 200 in answers and 429 in answers  # each seat may ask only so often
    assert set(answers) <= {200, 429, 503}


def test_costly_work_done_in_the_server_s_worker_process_comes_back_whole(server):
    """`referee serve` hands costly work to a process of its own: each printable, the
    post-mortem and an import come back from it as the app alone makes them, and so does a
    refusal raised there (the post-mortem before the end)."""
    api = server.api()
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    headers = {"Authorization": f"Bearer {table.tokens['red']}"}
    early = requests.get(f"{server.url}{table.path('/postmortem.pdf')}", headers=headers,
                         timeout=30)
    assert early.status_code == 409 and early.json()["errors"][0]["rule"] == "R21"
    for tail in ("/charts.pdf", "/record.pdf"):
        response = requests.get(f"{server.url}{table.path(tail)}", headers=headers, timeout=30)
        assert response.status_code == 200 and response.content.startswith(b"%PDF")
    status, view, _ = table.as_seat("blue", "POST", "/resign")
    assert status == 200 and view["phase"] == "over"
    response = requests.get(f"{server.url}{table.path('/postmortem.pdf')}", headers=headers,
                            timeout=60)
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    status, summary, _ = table.as_seat("red", "GET", "/postmortem")
    assert status == 200 and summary["id"] == table.id
    status, file, _ = table.as_seat("red", "GET", "/export")
    status, body, _ = api.call("POST", "/api/v1/games/import", file)
    assert status == 409, body  # replayed in the worker, found to be the game already here
    file["events"][-1]["seat"] = "nobody"
    status, body, _ = api.call("POST", "/api/v1/games/import", file)
    assert status == 422 and body["errors"][0]["field"] == "events", body
