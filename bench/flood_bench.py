"""A new phone's wait while one client floods the referee: prints
medians; not a test. Starts a real `referee serve` on 127.0.0.1 and measures, each over
REPEATS fresh connections, the time of `GET /api/v1/openapi.json`:

1. with no other client;
2. with 1,100 idle connections (over the 1,000-connection limit), opened just before;
3. with 1,100 connections trickling header bytes (slowloris);
4. with 24 slow readers: connections with a 4 KiB receive buffer that each pipeline six
   exports of a game file near the import cap (4 MB each) and never read, for 15 s (requests
   unanswered within 10 s are counted, not timed);
and the time to a 413 for a body announced as 200 MB.

Run with `.venv/bin/python bench/flood_bench.py`. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import http.client
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from conftest import LiveServer, loopback  # noqa: E402
from test_slow_clients import (  # noqa: E402
    LARGE,
    PIPELINED,
    SLOW_CLIENTS,
    large_response,
    slow_reader,
)

from referee import serving  # noqa: E402

FLOOD = 1100
REPEATS = 15
SLOW_READING_S = 15


def timed_get(port: int) -> float:
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/api/v1/openapi.json")
    conn.getresponse().read()
    conn.close()
    return time.monotonic() - start


def flood(port: int, trickle: bool) -> list[socket.socket]:
    per = serving.CONNECTIONS_PER_CLIENT - 2  # a client address holds only so many
    sockets = [socket.create_connection(("127.0.0.1", port), timeout=5,
                                        source_address=(loopback(n // per), 0))
               for n in range(FLOOD)]
    if trickle:
        for s in sockets:
            s.sendall(b"GET / HTTP/1.1\r\n")
    return sockets


def ms(samples: list[float]) -> str:
    return f"median {statistics.median(samples) * 1000:.1f} ms, max {max(samples) * 1000:.1f} ms"


def slow_readers(server: LiveServer) -> str:
    """Plain requests, one every half second, while SLOW_CLIENTS connections read nothing of
    the large responses they pipelined."""
    large_response(server)
    request = f"GET {LARGE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    sockets = [slow_reader(server.port, request) for _ in range(SLOW_CLIENTS)]
    samples, unanswered = [], 0
    started = time.monotonic()
    try:
        while time.monotonic() - started < SLOW_READING_S:
            try:
                samples.append(timed_get(server.port))
            except TimeoutError:
                unanswered += 1
            time.sleep(0.5)
    finally:
        for s in sockets:
            s.close()
    timed = ms(samples) if samples else "none answered"
    return (f"{SLOW_CLIENTS} slow readers x {PIPELINED} large responses: {len(samples)} answered, "
            f"{timed}; {unanswered} unanswered within 10 s")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "flood.db").start()
        try:
            port = server.port
            print("no flood:        ", ms([timed_get(port) for _ in range(REPEATS)]))
            for trickle in (False, True):
                first, later = [], []
                for _ in range(3):
                    sockets = flood(port, trickle)
                    first.append(timed_get(port))
                    later += [timed_get(port) for _ in range(REPEATS // 3)]
                    for s in sockets:
                        s.close()
                    time.sleep(1)
                name = "slowloris 1,100" if trickle else "idle 1,100     "
                print(f"{name}:  first request {ms(first)}; later {ms(later)}")
            print(slow_readers(server))
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            start = time.monotonic()
            s.sendall(b"POST /api/v1/games/import HTTP/1.1\r\nHost: x\r\nContent-Type: "
                      b"application/json\r\nContent-Length: 209715200\r\n\r\n")
            answer = s.recv(64)
            print(f"200 MB body:      {answer[:32]!r} after "
                  f"{(time.monotonic() - start) * 1000:.1f} ms")
            s.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
