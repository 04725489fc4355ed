"""Clients that hold the server without reading, against a real `referee serve` (waitress) on
127.0.0.1: large responses never read, bursts of pipelined requests, headers trickled in
(referee/serving.py's docstring has the mechanism).

Before, each task thread stopped in waitress's ``write_soon`` once a connection had 16 MB
waiting to be sent, and waited for the client to read it, for ever: 24 connections with small
receive buffers, each pipelining large responses it never read (six exports of padded game
files, once; here 200 blank move records of 20 pages, about 18 MB), held every thread, and a
plain request went unanswered until they closed.

Every loop is bounded in count and time; every connection goes to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import LiveServer, free_port
from test_hostile_server import timed_get

from referee import serving

SLOW_CLIENTS = 24
PIPELINED = 200
PLAIN_WITHIN_S = 3.0
WATCH_S = 12  # longer than the send deadline (serving.SEND_TIMEOUT) with its checks


LARGE = "/printables/blank-record.pdf?pages=20"  # about 92 KB, the same for everyone


def large_response(server: LiveServer) -> int:
    """The size of the large response the slow clients ask for (printed once and kept)."""
    status, took = timed_get(server.port, LARGE, timeout=30)
    assert status == 200
    status, body, headers = server.api().call("GET", LARGE)
    size = int(headers["Content-Length"])
    assert size * PIPELINED > 16_000_000, size  # more than waitress's 16 MB high watermark
    return size


def slow_reader(port: int, request: bytes) -> socket.socket:
    """A connection with a 4 KiB receive buffer that sends its pipelined requests and never
    reads."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    s.sendall(request * PIPELINED)
    return s


def read_to_the_end(s: socket.socket, limit_s: float) -> tuple[int, bool]:
    """Bytes read until the server closes the connection (or ``limit_s`` passes), and whether
    it did close it."""
    got, deadline = 0, time.monotonic() + limit_s
    s.settimeout(1)
    while time.monotonic() < deadline:
        try:
            chunk = s.recv(1 << 20)
        except TimeoutError:
            continue
        except ConnectionError:
            return got, True
        if not chunk:
            return got, True
        got += len(chunk)
    return got, False


def test_clients_that_never_read_their_pipelined_responses_hold_no_thread(default_server):
    server = default_server
    size = large_response(server)
    request = f"GET {LARGE} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    slow = [slow_reader(server.port, request) for _ in range(SLOW_CLIENTS)]
    try:
        waits = []
        started = time.monotonic()
        while time.monotonic() - started < WATCH_S:
            try:
                status, took = timed_get(server.port, timeout=PLAIN_WITHIN_S)
            except TimeoutError:
                pytest.fail(f"a plain request went unanswered for {PLAIN_WITHIN_S} s behind "
                            f"{SLOW_CLIENTS} clients that do not read (after {waits})")
            assert status == 200
            waits.append(round(took, 2))
            time.sleep(0.5)
        assert max(waits) < PLAIN_WITHIN_S, waits

        # by now every slow client has been cut off: what it can still read is what was
        # already on its way, far less than the responses it asked for
        for s in slow:
            got, closed = read_to_the_end(s, 10)
            assert closed, f"a client that read nothing for {WATCH_S} s is still connected"
            assert got < 2 * size, got

        # and the threads are free: as many large responses at once as the server has threads
        results: list[int] = []

        def export() -> None:
            results.append(timed_get(server.port, LARGE, timeout=10)[0])
        workers = [threading.Thread(target=export) for _ in range(8)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(15)
        assert results == [200] * 8, results
    finally:
        for s in slow:
            with contextlib.suppress(OSError):
                s.close()


# One thread, a 256 KiB high watermark and a 16 MB response: the thread writing it waits for
# the client to read (waitress's ``_flush_outbufs_below_high_watermark``).
WATERMARK_SERVER = """
import sys
from referee import serving

def app(environ, start_response):
    if environ["PATH_INFO"] == "/large":
        start_response("200 OK", [("Content-Type", "application/octet-stream")])
        return (b"x" * 65536 for _ in range(256))
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]

serving.serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=1,
              outbuf_high_watermark=256 * 1024)
"""


@pytest.fixture
def one_thread_server():
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", WATERMARK_SERVER, str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(10)


def test_a_thread_waiting_on_a_client_that_reads_nothing_is_woken_and_freed(
        one_thread_server):
    """The server's only thread is writing a response larger than the high watermark to a
    client that reads nothing: the connection is cut after the send deadline and the thread
    serves the next client."""
    slow = slow_reader(one_thread_server, b"GET /large HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    try:
        time.sleep(0.5)  # the thread is now waiting for the slow client to read
        limit = 10  # the send deadline (serving.SEND_TIMEOUT), its check, and a margin
        try:
            status, took = timed_get(one_thread_server, "/plain", timeout=limit)
        except TimeoutError:
            pytest.fail(f"the only thread was still held after {limit} s")
        assert status == 200 and took < limit
        got, closed = read_to_the_end(slow, 5)
        assert closed and got < 8 * 1024 * 1024, got
    finally:
        slow.close()


def pipelined_answers(s: socket.socket, request: bytes, n: int, limit_s: float = 10
                      ) -> tuple[list[int], bool]:
    """Send ``n`` requests at once; the statuses answered, in order, and whether the server
    closed the connection after them (rather than keeping it open, silent, for more)."""
    s.settimeout(limit_s)
    s.sendall(request * n)
    stream, statuses = s.makefile("rb"), []
    try:
        while len(statuses) < n:
            status_line = stream.readline()
            if not status_line:
                return statuses, True
            headers = {}
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            stream.read(int(headers.get("content-length", 0)))
            statuses.append(int(status_line.split()[1]))
        return statuses, False
    except ConnectionError:
        return statuses, True
    except TimeoutError:
        return statuses, False
    finally:
        stream.close()


RULES = b"GET /api/v1/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def test_a_burst_of_pipelined_requests_is_answered_up_to_the_cap_then_closed(
        default_server):
    """Forty requests in one write: the first ``MAX_PIPELINED`` are answered in order, the
    last of them with Connection: close, and the rest are never run."""
    with socket.create_connection(("127.0.0.1", default_server.port)) as s:
        statuses, closed = pipelined_answers(s, RULES, 40)
    assert closed and len(statuses) < 40, f"{len(statuses)} answered, closed: {closed}"
    assert statuses == [200] * serving.MAX_PIPELINED


def test_a_few_pipelined_requests_are_all_answered_and_the_connection_stays_open(
        default_server):
    with socket.create_connection(("127.0.0.1", default_server.port)) as s:
        statuses, closed = pipelined_answers(s, RULES, 3)
        assert statuses == [200, 200, 200] and not closed
        assert pipelined_answers(s, RULES, 1) == ([200], False)


def test_headers_trickled_in_do_not_keep_a_connection_past_the_idle_timeout(
        short_idle_server):
    """A byte of header every half second looks busy to waitress's idle timeout (2 s here)
    for ever; the request is dropped with its connection once its headers are late."""
    with socket.create_connection(("127.0.0.1", short_idle_server.port), timeout=1) as s:
        s.sendall(b"GET /api/v1/rules HTTP/1.1\r\n")
        started, cut = time.monotonic(), None
        while time.monotonic() - started < 10 and cut is None:
            try:
                s.sendall(b"X")
                if s.recv(1) == b"":
                    cut = time.monotonic() - started
            except TimeoutError:
                pass
            except OSError:
                cut = time.monotonic() - started
            time.sleep(0.5)
    assert cut is not None, "the trickling client was still connected after 10 s"
    assert cut < 6, cut
