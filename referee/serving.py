"""waitress, tuned for a club of phones that poll, and for a client that tries to hold it.

* Keep the connection open after a 304. waitress closes the connection after any response
  without a Content-Length, 304 Not Modified included, although a 304 never has a body and
  its end is known (RFC 9112, 6.3). Every phone polls every two seconds and nearly always gets
  a 304, so each poll would cost a new TCP connection.
* Room for every phone (``connection_limit``), but idle connections are closed after
  ``IDLE_TIMEOUT`` seconds instead of waitress's 120 (a phone polls every 2 s, so only a
  phone that stopped polling is idle that long), checked every few seconds.
* At the connection limit, the connection idle longest is closed to make room, so one client
  holding a thousand idle connections cannot lock the club's phones out (issue 10, item 6);
  the phone whose idle connection went reconnects at its next poll.
* A request body larger than ``MAX_REQUEST_BODY`` is refused with 413 by waitress itself,
  from its Content-Length (or as soon as a chunked body passes it), before anything reads or
  buffers it (issue 10, item 10).
* ``poll()`` rather than ``select()``, which cannot watch a socket numbered above 1023.
* Several worker processes on one port (``serve_workers``, issue 15): Python runs one thread
  at a time in a process, so one process uses one core. The first process binds a socket for
  each (SO_REUSEPORT: the kernel spreads new connections among them) and starts the others,
  each a whole referee handed its socket; they share the database file (each request checks
  its cached game against it) and end with the first.
"""

from __future__ import annotations

import heapq
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import waitress
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer
from waitress.task import WSGITask

BODILESS = ("204", "304")
CONNECTION_LIMIT = 1000  # kept-alive phones hold a connection each; waitress's default is 100
IDLE_TIMEOUT = 30  # seconds an idle connection is kept; phones poll every 2 s
MAX_REQUEST_BODY = 8 * 1024 * 1024  # above the 4 MiB game-file import, with its form wrapping
PROXY_HEADERS = "x-forwarded-for x-forwarded-host x-forwarded-proto"  # with --trusted-proxy
EVICT_AT_ONCE = 64  # idle connections closed together at the limit, so a burst finds room
ACCEPT_AT_ONCE = 64  # connections taken from the backlog in one pass of the loop
LOG_EVERY_S = 10

log = logging.getLogger("referee")


class KeepAliveTask(WSGITask):
    def build_response_header(self) -> bytes:
        closing_already = self.close_on_finish
        header = super().build_response_header()
        asked_to_close = self.request.headers.get("CONNECTION", "").lower() == "close"
        if (self.status.startswith(BODILESS) and self.version == "1.1"
                and not closing_already and not asked_to_close):
            self.close_on_finish = False
            header = header.replace(b"\r\nConnection: close", b"")
        return header


class KeepAliveChannel(HTTPChannel):
    task_class = KeepAliveTask


class EvictIdleAtLimit:
    """A listening server that, at the connection limit, closes the connections idle longest
    (no request in progress, nothing left to send) rather than stop accepting, and takes
    every waiting connection from the backlog in one pass rather than one a pass."""

    last_logged = 0.0

    def readable(self):
        if self.accepting and len(self._map) >= self.adj.connection_limit:
            idle = heapq.nsmallest(
                EVICT_AT_ONCE, (c for c in self.active_channels.values()
                                if not c.requests and not c.total_outbufs_len
                                and not c.will_close), key=lambda c: c.last_activity)
            for channel in idle:
                channel.will_close = True  # closed by the loop's next pass, as waitress does
            if idle and time.monotonic() - self.last_logged > LOG_EVERY_S:
                self.last_logged = time.monotonic()
                log.warning("connection limit (%d) reached: closing the connections idle "
                            "longest", self.adj.connection_limit)
        return super().readable()

    def handle_accept(self):
        for _ in range(ACCEPT_AT_ONCE):
            before = len(self._map)
            super().handle_accept()
            if len(self._map) == before or len(self._map) >= self.adj.connection_limit:
                return


def _listeners(server) -> list[BaseWSGIServer]:
    """The listening servers waitress made (one, or several in a MultiSocketServer)."""
    if isinstance(server, BaseWSGIServer):
        return [server]
    return [s for s in server.map.values() if isinstance(s, BaseWSGIServer)]


def options_for(idle_timeout: int = IDLE_TIMEOUT, **options) -> dict:
    """waitress's adjustments for the referee; ``options`` override them."""
    return {"connection_limit": CONNECTION_LIMIT, "channel_timeout": idle_timeout,
            "cleanup_interval": max(1, min(5, idle_timeout // 2)),
            "max_request_body_size": MAX_REQUEST_BODY, "asyncore_use_poll": True, **options}


def make_server(app, idle_timeout: int = IDLE_TIMEOUT, **options):
    """A waitress server for ``app`` with the referee's settings (not yet running)."""
    server = waitress.create_server(app, **options_for(idle_timeout, **options))
    for listener in _listeners(server):
        listener.channel_class = KeepAliveChannel
        listener.__class__ = type(f"Referee{type(listener).__name__}",
                                  (EvictIdleAtLimit, type(listener)), {})
    return server


def serve(app, idle_timeout: int = IDLE_TIMEOUT, **options) -> None:
    """waitress.serve with the referee's settings: see the module's docstring."""
    logging.basicConfig()
    server = make_server(app, idle_timeout, **options)
    server.print_listen("Serving on http://{}:{}")
    server.run()


def listening_socket(host: str, port: int, share: bool = False) -> socket.socket:
    """A socket bound and listening as waitress makes its own; with ``share``, one of a group
    on the same port among which the kernel spreads new connections (SO_REUSEPORT)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if share:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(1024)
    return sock


def listening_sockets(host: str, port: int, n: int) -> list[socket.socket]:
    """``n`` sockets on one port, one for each worker process: the kernel spreads new
    connections evenly among them, where on one shared socket the first process to wake
    took every waiting connection. The port is first bound alone, so that a port another
    program (or another referee) holds is refused rather than shared."""
    if n == 1 or not hasattr(socket, "SO_REUSEPORT"):
        return [listening_socket(host, port)]
    listening_socket(host, port).close()  # OSError when the port is taken
    return [listening_socket(host, port, share=True) for _ in range(n)]


def serve_workers(app, child_args: list[str], socks: list[socket.socket],
                  idle_timeout: int = IDLE_TIMEOUT, **options) -> None:
    """Serve ``app`` from a process for each of ``socks`` (``listening_sockets``): this one
    on the first, and one started as ``referee serve <child_args> --listen-fd N`` on each
    other, which this one then closes (a worker's socket lives and dies with its worker, so
    no connection waits on a socket nobody serves). The others are stopped when this one
    stops; each also stops by itself when this one is gone (``follow_parent``)."""
    children = []
    for sock in socks[1:]:
        sock.set_inheritable(True)
        children.append(subprocess.Popen(
            [sys.executable, "-c", "from referee.cli import main; main()", "serve",
             *child_args, "--listen-fd", str(sock.fileno()), "--parent-pid", str(os.getpid())],
            pass_fds=(sock.fileno(),)))
        sock.close()
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        serve(app, idle_timeout, sockets=socks[:1], **options)
    finally:
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(5)
            except subprocess.TimeoutExpired:
                child.kill()


def _exit_on_signal(signum, _frame) -> None:
    raise SystemExit(128 + signum)  # so that ``serve_workers`` stops its workers


def every(seconds: float, work, name: str) -> None:
    """Run ``work()`` every ``seconds`` from a thread of its own, for as long as this process
    lives; a failure is logged and the next turn comes as usual."""
    def run() -> None:
        while True:
            time.sleep(seconds)
            try:
                work()
            except Exception:
                log.exception("%s failed", name)

    threading.Thread(target=run, name=name, daemon=True).start()


def follow_parent(parent: int | None, poll_s: float = 0.5) -> None:
    """End this worker process as soon as ``parent``, the process that started it, is gone
    (even killed outright, when it could not stop its workers itself; perhaps before this
    worker got this far)."""
    if parent is None:
        parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_s)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()
