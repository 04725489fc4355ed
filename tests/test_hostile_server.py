"""A real `referee serve` (waitress) on 127.0.0.1: a client holding idle connections or sending a
huge body cannot shut the club's phones out.

Every loop is bounded in count and time; every connection goes to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import time

import pytest
from conftest import loopback

from referee import serving


def timed_get(port: int, path: str = "/api/v1/openapi.json", timeout: float = 5.0,
              headers: dict | None = None) -> tuple[int, float]:
    start = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        response.read()
        return response.status, time.monotonic() - start
    finally:
        conn.close()


def test_a_thousand_idle_connections_do_not_lock_out_a_new_phone(default_server):
    """Clients open more idle connections than the limit (the default settings of
    `referee serve`), a few each from many addresses; a new phone is still served within a
    second."""
    flood: list[socket.socket] = []
    per = serving.CONNECTIONS_PER_CLIENT - 2
    try:
        for n in range(serving.CONNECTION_LIMIT + 20):
            s = socket.create_connection(("127.0.0.1", default_server.port), timeout=5,
                                         source_address=(loopback(n // per), 0))
            flood.append(s)
        status, took = timed_get(default_server.port, timeout=3)
        assert status == 200
        assert took < 1.0, f"a new phone waited {took:.2f} s behind idle connections"
        # and again, with the flood still open and trickling bytes to look busy
        for s in flood[::10]:
            s.sendall(b"GET / HTTP/1.1\r\n")
        status, took = timed_get(default_server.port, timeout=3)
        assert status == 200 and took < 1.0, f"the second phone waited {took:.2f} s"
    finally:
        for s in flood:
            s.close()


def test_one_client_address_holds_a_bounded_number_of_connections(default_server):
    """One address opening connection after connection is refused past
    ``CONNECTIONS_PER_CLIENT`` (a reset, at once), and that address is served again once it
    lets some go; meanwhile another address is served as usual."""
    held: list[socket.socket] = []
    try:
        for _ in range(serving.CONNECTIONS_PER_CLIENT):
            held.append(socket.create_connection(("127.0.0.1", default_server.port),
                                                 timeout=5, source_address=("127.0.9.9", 0)))
        time.sleep(1)  # each accepted and counted
        with pytest.raises((ConnectionResetError, BrokenPipeError)):  # reset, whenever seen
            extra = socket.create_connection(("127.0.0.1", default_server.port), timeout=5,
                                             source_address=("127.0.9.9", 0))
            try:
                extra.sendall(b"GET /api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                if not extra.recv(1024):
                    raise ConnectionResetError("closed")
            finally:
                extra.close()
        status, took = timed_get(default_server.port, timeout=3)
        assert status == 200 and took < 1.0  # another address, at once
        held.pop().close()
        deadline = time.monotonic() + 10  # until the server has seen that one go
        while True:
            again = http.client.HTTPConnection("127.0.0.1", default_server.port, timeout=5,
                                               source_address=("127.0.9.9", 0))
            try:
                again.request("GET", "/api/v1/openapi.json")
                assert again.getresponse().status == 200
                break
            except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected):
                assert time.monotonic() < deadline, "the address was not let in again"
                time.sleep(0.2)
            finally:
                again.close()
    finally:
        for s in held:
            s.close()


def test_an_idle_connection_is_closed_after_the_timeout(short_idle_server):
    """A kept-alive connection left idle is closed by the server after the idle timeout
    (2 s here, by REFEREE_IDLE_TIMEOUT; 30 s by default instead of waitress's 120 s)."""
    s = socket.create_connection(("127.0.0.1", short_idle_server.port), timeout=10)
    try:
        s.sendall(b"GET /api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        got = b""
        while b"\r\n\r\n" not in got:
            got += s.recv(65536)
        assert got.startswith(b"HTTP/1.1 200")
        start = time.monotonic()
        with contextlib.suppress(ConnectionResetError):
            while s.recv(65536):  # the rest of the body, then the close (b"")
                pass
        idle = time.monotonic() - start
        assert 1.5 <= idle <= 8, f"closed after {idle:.1f} s"
    finally:
        s.close()


def test_idle_timeout_is_30_seconds_or_less_by_default():
    options = serving.options_for()
    assert options["channel_timeout"] <= 30
    assert options["connection_limit"] >= 1000
    assert options["cleanup_interval"] <= 5
    assert options["asyncore_use_poll"]  # select() cannot watch a socket above 1023


def test_a_200_mb_body_is_refused_before_it_is_read(default_server):
    """The headers announce 200 MB: waitress answers 413 at once, without waiting for (or
    buffering) the body."""
    s = socket.create_connection(("127.0.0.1", default_server.port), timeout=3)
    try:
        s.sendall(b"POST /api/v1/games/import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/json\r\n"
                  b"Content-Length: 209715200\r\n\r\n" + b"{" * 1000)
        start = time.monotonic()
        got = s.recv(4096)
        assert got.startswith(b"HTTP/1.1 413"), got[:200]
        assert time.monotonic() - start < 2
    finally:
        s.close()


def test_a_chunked_body_is_cut_off_at_the_cap(default_server):
    """A chunked body (no Content-Length to refuse) is refused once it passes the cap: the
    server stops reading well before 200 MB."""
    s = socket.create_connection(("127.0.0.1", default_server.port), timeout=5)
    sent = 0
    chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
    try:
        s.sendall(b"POST /api/v1/games/import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        with contextlib.suppress(ConnectionError, TimeoutError, socket.timeout):
            while sent < 200 * 1024 * 1024:
                s.sendall(chunk)
                sent += 65536
        assert sent <= 4 * serving.MAX_REQUEST_BODY, f"the server read {sent} bytes"
        with contextlib.suppress(ConnectionError):
            got = s.recv(4096)
            assert not got or got.startswith(b"HTTP/1.1 413"), got[:200]
    finally:
        s.close()
