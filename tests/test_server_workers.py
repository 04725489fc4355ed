"""`referee serve --workers N`: N processes on one port and one database file, the first
supervising the others. A game played through them is whole; the port is theirs alone; a
worker that dies is started again on its socket while the port goes on answering every
connection; and stopping the first, or killing it outright, leaves no process behind.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from api_support import table_in_play
from conftest import REFEREE, LiveServer
from helpers import IDLE_SQUARES, QUIET
from process_support import descendants_of, gone, workers_of

from referee.serving import HANDOVER_S

AT_ONCE = 24  # connections opened together: the kernel hands each socket on the port some


def idle(table) -> dict:
    turn = table.view("red")["turn"]
    status, report, _ = table.as_seat(turn, "POST", "/moves",
                                      {"weapon": "salvo", "at": IDLE_SQUARES})
    assert status == 201, report
    return report


def unanswered(url: str) -> list[str]:
    """What went wrong with any of ``AT_ONCE`` requests sent together, each on a connection of
    its own (so that every socket on the port gets some): nothing when all were answered."""
    def one(_) -> str | None:
        try:
            with urllib.request.urlopen(url, timeout=15) as response:
                return None if response.status == 200 else f"{response.status}"
        except OSError as err:
            return repr(err)

    with ThreadPoolExecutor(AT_ONCE) as pool:
        return [wrong for wrong in pool.map(one, range(AT_ONCE)) if wrong]


def test_serve_with_two_workers_shares_one_port_and_one_file_and_ends_with_the_first(
        tmp_path):
    """`referee serve --workers 2`: one more process on the same port; a game played through
    it is whole; SIGTERM to the first stops the other, and a first killed outright (no chance
    to stop anything) still leaves no worker behind."""
    server = LiveServer(tmp_path / "two.db", workers=2).start()
    try:
        workers = workers_of(server.process.pid)
        assert len(workers) == 1
        everything = descendants_of(server.process.pid)
        table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
        for _ in range(6):  # connections land on either process; every view stays current
            report = idle(table)
            for seat in ("red", "blue"):
                assert table.view(seat)["reports"][-1]["n"] == report["n"]
        for count in (2, 1):  # the port is the first referee's alone, shared or not
            other = subprocess.run(
                [str(REFEREE), "serve", "--host", "127.0.0.1", "--port", str(server.port),
                 "--quiet", "--workers", str(count)], capture_output=True, text=True,
                env={**os.environ, "REFEREE_DATABASE": str(tmp_path / "other.db"),
                     "REFEREE_SECRET_KEY": "other"}, timeout=60)
            assert other.returncode != 0 and "Address already in use" in other.stderr
            assert "Traceback" not in other.stderr
    finally:
        server.stop()
    assert gone(everything, 30), "a worker, or a worker's costly-work process, outlived it"
    killed = LiveServer(tmp_path / "two.db", workers=3).start()
    workers = workers_of(killed.process.pid)
    assert len(workers) == 2
    everything = descendants_of(killed.process.pid)
    killed.kill()
    assert gone(everything, 30), "a worker, or a worker's costly-work process, outlived it"


def test_a_worker_that_dies_is_started_again_and_every_connection_is_answered_meanwhile(
        tmp_path):
    """A worker SIGKILLed is followed by another within seconds, and one killed as soon as it
    started waits longer (the supervisor backs off); every connection made meanwhile, on any
    of the port's sockets, is answered, and so are those made once the last has taken its
    socket over. The first, killed outright, takes every worker with it, the new ones too."""
    server = LiveServer(tmp_path / "supervised.db", workers=2).start()
    url = f"{server.url}/favicon.ico"
    try:
        [first_worker] = workers_of(server.process.pid)
        assert unanswered(url) == []
        os.kill(first_worker, signal.SIGKILL)
        killed_at, wrong, rounds = time.monotonic(), [], 0
        successors: list[int] = []  # each worker started after the one before died
        while time.monotonic() - killed_at < 40:
            wrong += unanswered(url)
            rounds += 1
            now = [w for w in workers_of(server.process.pid)
                   if w != first_worker and w not in successors]
            if now and not successors:  # the second: killed as soon as it is seen
                successors.append(now[0])
                second_at = time.monotonic()
                os.kill(now[0], signal.SIGKILL)
            elif now:
                successors.append(now[0])
                third_at = time.monotonic()
            if len(successors) == 2 and time.monotonic() - third_at > HANDOVER_S + 2:
                break
            time.sleep(0.2)
        logs = server.logs()
        assert len(successors) == 2, logs
        assert wrong == [] and rounds > 10, wrong[:5]
        exits = re.findall(r"serving worker 1 \(pid (\d+)\) exited with signal 9 after \d+ s; "
                           r"starting another (?:now|in (\d+) s)", logs)
        assert [int(pid) for pid, _ in exits] == [first_worker, successors[0]], logs
        first_pause, second_pause = (int(pause or 0) for _, pause in exits)
        assert second_pause > first_pause  # the second died at once: a longer pause
        assert second_at - killed_at < first_pause + 8, logs
        assert third_at - second_at > second_pause - 0.5, logs
        assert f"serving worker 1 started again (pid {successors[1]})" in logs
        assert workers_of(server.process.pid) == [successors[1]]
        everything = descendants_of(server.process.pid)
        server.kill()
        assert gone(everything, 30), "a worker, or a worker's costly-work process, outlived it"
    finally:
        server.stop()
