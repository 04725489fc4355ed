"""waitress, tuned for a club of phones that poll, and for a client that tries to hold it.

* Keep the connection open after a 304. waitress closes the connection after any response
  without a Content-Length, 304 Not Modified included, although a 304 never has a body and
  its end is known (RFC 9112, 6.3). Every phone polls every two seconds and nearly always gets
  a 304, so each poll would cost a new TCP connection.
* Room for every phone (``connection_limit``), but idle connections are closed after
  ``IDLE_TIMEOUT`` seconds instead of waitress's 120 (a phone polls every 2 s, so only a
  phone that stopped polling is idle that long), checked every few seconds.
* One client address holds at most ``CONNECTIONS_PER_CLIENT`` connections (a phone needs one
  or two, a browser six at most); more are refused with a reset, so no one client can fill the
  server's room for every phone, or the disk with request bodies waitress buffers for each (a
  trusted proxy, which speaks for every client, is excepted).
* At the connection limit, the connection idle longest is closed to make room (or one whose
  answer has not moved for a second, before its send deadline), so clients holding a thousand
  idle connections cannot lock the club's phones out; the phone whose idle connection went
  reconnects at its next poll.
* A request body larger than ``MAX_REQUEST_BODY`` is refused with 413 by waitress itself,
  from its Content-Length (or as soon as a chunked body passes it), before anything reads or
  buffers it, so a slow or silent client holds no worker.
* A client that does not read cannot hold a thread. waitress has a task thread wait, with no
  end, while a connection has more than 16 MB waiting to be sent (``write_soon``), never
  closes a connection with a request in progress, and parses every request pipelined in a
  read and runs them one after another: 24 connections with small receive buffers, each
  pipelining six large exports and reading nothing, held every thread. Here
  - a connection's next pipelined request waits, parsed, until the response before it has
    been handed to the kernel: the thread goes back to the pool as soon as it has written its
    response, and each connection has at most one response waiting to be sent (the largest
    the referee makes, a game file's export, is a few MB, well under the watermark);
  - at most ``MAX_PIPELINED`` requests are taken from one read; the connection is closed
    after the last of them, unanswered ones dropped unrun (a pipelining client sends them
    again on a new connection, RFC 9112 9.3.2; browsers do not pipeline);
  - a connection whose waiting output has not moved for ``SEND_TIMEOUT`` seconds (or the
    idle timeout, if shorter) is reset, requests in progress or not, checked every second; a
    thread waiting for it (a response above the watermark) is woken, and its waits end every
    second in any case to look again. A connection waitress marked to close (idle, or
    evicted at the limit) is closed then too: waitress waits for its socket to take more
    output, which, for a client that reads nothing, it never does.
  A phone reads what it asked for at once; only a client that reads nothing for seconds, or
  sends many requests before reading one answer, meets these.
* A request whose headers have not all come ``HEADER_TIMEOUT`` seconds (or the idle timeout,
  if shorter) after its first byte is dropped with its connection: bytes trickled to look
  busy do not keep a connection from the idle timeout (a body, a 4 MiB game file from a
  phone, may take longer).
* ``poll()`` rather than ``select()``, which cannot watch a socket numbered above 1023, with
  the poll set kept from one pass of the loop to the next (``KeptPoll``): waitress makes a
  new one each pass, asking every connection whether it may read and write and registering
  each, which with hundreds of kept-alive phones cost most of the loop's time; here each pass
  asks every connection the same questions, as cheaply as they can be asked, and tells the
  kernel only what changed.
* Several worker processes on one port (``serve_workers``, for a league night's load): Python
  runs one thread at a time in a process, so one process uses one core. The first process
  binds a socket for each (SO_REUSEPORT: the kernel spreads new connections among them) and
  starts the others,
  each a whole referee handed its socket; they share the database file (each request checks
  its cached game against it) and end with the first. The first supervises them
  (``Workers``): it keeps every worker's socket open, so that a worker that exits unbidden is
  started again on the same one, at once if it had been serving a while, after a growing
  pause if it dies as soon as it starts (``restart_delay``); from a worker's exit until a
  few seconds after its successor started, the first process answers on its socket itself,
  so that no connection the kernel hands that socket waits for a worker.
"""

from __future__ import annotations

import contextlib
import gc
import heapq
import logging
import os
import resource
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import types
from typing import TYPE_CHECKING

import waitress
from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import BaseWSGIServer
from waitress.task import WSGITask

BODILESS = ("204", "304")
CONNECTION_LIMIT = 1000  # kept-alive phones hold a connection each; waitress's default is 100
IDLE_TIMEOUT = 30  # seconds an idle connection is kept; phones poll every 2 s
MAX_REQUEST_BODY = 8 * 1024 * 1024  # above the 4 MiB game-file import, with its form wrapping
PROXY_HEADERS = "x-forwarded-for x-forwarded-host x-forwarded-proto"  # with --trusted-proxy
SEND_TIMEOUT = 5  # seconds a response may wait to be sent with no byte taken by the client
HEADER_TIMEOUT = 10  # seconds from a request's first byte to the end of its headers
MAX_PIPELINED = 8  # requests taken from one read of a connection; it closes after the last
CHECK_EVERY_S = 1  # how often connections are checked against the two timeouts above
RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, 0 s: close() resets the connection
CONNECTIONS_PER_CLIENT = 32  # a phone holds one or two; a browser opens six at most
EVICT_AT_ONCE = 64  # idle connections closed together at the limit, so a burst finds room
ACCEPT_AT_ONCE = 64  # connections taken from the backlog in one pass of the loop
LOG_EVERY_S = 10
WATCH_EVERY_S = 0.2  # how often the first process looks whether a worker has exited
STEADY_S = 10  # a worker that served this long before it exited is started again at once
FIRST_PAUSE_S, LONGEST_PAUSE_S = 1, 30  # else the pause before the next start, doubling
GC_RENEW_S = 600.0  # how often a full pass of the garbage collector goes over everything again
HANDOVER_S = 5  # seconds after a worker's start until the first stops answering on its socket
HAND_OFF = "referee.hand_off"  # the environ's key of ``KeepAliveTask.hand_off`` (streams)

log = logging.getLogger("referee")


class KeepAliveTask(WSGITask):
    close_on_finish: bool  # waitress's, set by the task as it runs
    adopt = None  # who takes the connection over once this response's start is sent

    def get_environment(self) -> dict:
        environ = super().get_environment()
        environ[HAND_OFF] = self.hand_off
        return environ

    def hand_off(self, adopt) -> None:
        """Called by the application while it answers: once what it returns is sent, the
        connection is not closed but handed, open, to ``adopt(socket, chunked)`` (a stream,
        ``referee.streams``), and this server forgets it. The body is left open: no last
        chunk is sent, and ``chunked`` says whether whoever adopts it writes chunks."""
        self.adopt = adopt

    def finish(self) -> None:
        if self.adopt is not None and self.status.startswith("101") and not self.wrote_header:
            self.write(b"")  # a 101 has no body: its head alone (``switching_header``)
        headers = {name.lower(): value for name, value in self.response_headers}
        if self.adopt is not None and self.wrote_header and (
                self.status.startswith("101") or self.status.startswith("200")
                and headers.get("content-type", "").startswith("text/event-stream")):
            self.channel.adopt = (self.adopt, self.chunked_response)
            self.close_on_finish = True  # no further request is read on this connection
            return
        super().finish()

    def build_response_header(self) -> bytes:
        if self.adopt is not None and self.status.startswith("101"):
            return self.switching_header()
        if self.request is self.channel.last_before_close:
            self.set_close_on_finish()  # the last request taken from a pipelined burst
        closing_already = self.close_on_finish
        header = super().build_response_header()
        asked_to_close = self.request.headers.get("CONNECTION", "").lower() == "close"
        if (self.status.startswith(BODILESS) and self.version == "1.1"
                and not closing_already and not asked_to_close):
            self.close_on_finish = False
            header = header.replace(b"\r\nConnection: close", b"")
        return header


    def switching_header(self) -> bytes:
        """A 101's head for a connection handed off (a seat's socket, ``referee.sockets``):
        the Upgrade and Connection headers a WSGI application may not send itself (PEP
        3333's hop-by-hop headers), with the application's own; no request is read after it
        here."""
        self.close_on_finish = True  # nothing more is read here: the connection is handed on
        lines = [f"HTTP/1.1 {self.status}", "Upgrade: websocket", "Connection: Upgrade"]
        lines += [f"{name}: {value}" for name, value in self.response_headers
                  if name.lower() not in ("content-length", "content-type")]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class TimedParser(HTTPRequestParser):
    """waitress's request parser, knowing when the request's first byte came."""

    def __init__(self, adj) -> None:
        super().__init__(adj)
        self.begun = time.time()


class WakingCondition(threading.Condition):
    """waitress's ``outbuf_lock``, whose waits without a timeout end after ``CHECK_EVERY_S``:
    a task thread waiting for a client to read looks again whether the connection is still
    open even if nobody woke it."""

    def wait(self, timeout: float | None = None) -> bool:
        return super().wait(CHECK_EVERY_S if timeout is None else timeout)


class RefereeChannel(HTTPChannel):
    """A connection: keep-alive after a 304 (``KeepAliveTask``), a bounded pipeline, and the
    next pipelined request started only once the response before it is sent."""

    task_class = KeepAliveTask
    parser_class = TimedParser
    request: HTTPRequestParser | None  # waitress's: the request being read, if any
    socket: socket.socket | None  # waitress's: the connection, None once handed on
    last_before_close = None  # the request after which the connection closes
    next_waits = False  # a request waits for the response before it to be sent

    client: str | None = None  # the address counted in the listener's ``clients``
    adopt = None  # (adopt, chunked): the connection goes to ``adopt`` once sent (a stream)

    def __init__(self, server, sock, addr, adj, map=None) -> None:
        super().__init__(server, sock, addr, adj, map)
        self.outbuf_lock = WakingCondition()
        self.client = addr[0] if isinstance(addr, tuple) else str(addr)
        server.clients[self.client] = server.clients.get(self.client, 0) + 1

    def del_channel(self, map=None) -> None:
        if self.client is not None:  # counted off once, however often closed
            left = self.server.clients.get(self.client, 1) - 1
            if left > 0:
                self.server.clients[self.client] = left
            else:
                self.server.clients.pop(self.client, None)
            self.client = None
        super().del_channel(map)

    def handle_close(self) -> None:
        """Close the connection; or, for a stream whose response's start is all sent, hand
        it, open, to whoever adopts it (``KeepAliveTask.hand_off``) and forget it here."""
        adopt, self.adopt = self.adopt, None
        if adopt is None or self.total_outbufs_len or not self.connected \
                or self.socket is None:
            super().handle_close()
            return
        sock, self.socket = self.socket, None  # so that closing the channel keeps it open
        super().handle_close()
        try:
            adopt[0](sock, adopt[1])
        except Exception:
            log.exception("a stream could not be handed over")
            sock.close()

    def received(self, data: bytes) -> bool:
        taken = super().received(data)
        with self.requests_lock:
            if len(self.requests) > MAX_PIPELINED:
                for dropped in self.requests[MAX_PIPELINED:]:
                    dropped.close()
                del self.requests[MAX_PIPELINED:]
                self.last_before_close = self.requests[-1]  # not begun: only the first can be
                if self.request is not None:
                    self.request.close()
                    self.request = None
        return taken

    def write_soon(self, data) -> int:
        """An answer's bytes queued: activity, as a byte sent is. Else a connection idle
        for a while, whose request then took over a second (its thread waited its turn),
        looked as if its client had taken none of the answer just queued, and was closed
        mid-answer (``RefereeListener.close_stalled``, the eviction at the limit)."""
        queued = super().write_soon(data)
        if data:
            self.last_activity = time.time()
        return queued

    def handle_write(self) -> None:
        super().handle_write()
        if self.next_waits:
            with self.outbuf_lock:
                start = self.next_waits and not self.total_outbufs_len and self.connected
                if start:
                    self.next_waits = False
            if start:
                self.server.add_task(self)

    def stalled(self, now: float) -> bool:
        """Output waiting that has not moved for ``SEND_TIMEOUT`` s (waitress's
        ``last_activity`` is the last byte sent or read, or the last request finished), or a
        request's headers still coming ``HEADER_TIMEOUT`` s after its first byte; either
        shortened to the idle timeout if that is shorter."""
        if self.total_outbufs_len:
            return now - self.last_activity > min(SEND_TIMEOUT, self.adj.channel_timeout)
        request = self.request
        return (request is not None and not request.headers_finished
                and now - request.begun > min(HEADER_TIMEOUT, self.adj.channel_timeout))


if TYPE_CHECKING:  # what it is mixed into, at run time, by ``make_server``
    from waitress.server import BaseWSGIServer as _Listening
else:
    _Listening = object


class RefereeListener(_Listening):
    """A listening server that, at the connection limit, closes the connections idle longest
    (no request in progress, nothing left to send) rather than stop accepting; takes every
    waiting connection from the backlog in one pass rather than one a pass; closes, every
    second, the connections whose client has stopped reading (``RefereeChannel.stalled``);
    and starts a connection's next request only once nothing is left to send on it."""

    last_logged = 0.0
    last_checked = 0.0
    lent = False  # its socket is a worker's now: connections wait for it there (``Workers``)

    @property
    def clients(self) -> dict[str, int]:
        """How many connections each client address holds now."""
        if "_clients" not in self.__dict__:
            self._clients: dict[str, int] = {}
        return self._clients

    def readable(self):
        now = time.time()
        if now - self.last_checked >= CHECK_EVERY_S:
            self.last_checked = now
            self.close_stalled(now)
        if self.lent:
            return False
        if self.accepting and len(self._map) >= self.adj.connection_limit:
            idle = heapq.nsmallest(
                EVICT_AT_ONCE, (c for c in self.active_channels.values()
                                if not c.will_close and (not c.requests and not c.total_outbufs_len
                                                         or c.total_outbufs_len
                                                         and now - c.last_activity > 1)),
                key=lambda c: c.last_activity)
            for channel in idle:
                channel.will_close = True  # closed by the loop's next pass, as waitress does
            if idle and self.may_log():
                log.warning("connection limit (%d) reached: closing the connections idle "
                            "longest", self.adj.connection_limit)
        return super().readable()

    def may_log(self) -> bool:
        if time.monotonic() - self.last_logged > LOG_EVERY_S:
            self.last_logged = time.monotonic()
            return True
        return False

    def close_stalled(self, now: float) -> None:
        """Close at once each connection whose client has stopped reading or trickles its
        headers, with a reset, so that what the kernel holds for it goes too; a thread
        waiting to write to it is woken (``handle_close`` notifies ``outbuf_lock``) and
        finds it closed. Close too each connection marked to close (idle, or evicted at the
        limit) that is still open, once it has no request in progress and its answer, if any,
        has not moved for a check: waitress closes it when its socket can take more output,
        which, for a client that reads nothing, it never can; one still answering, or whose
        client is taking the answer, is left to finish (waitress closes it then)."""
        stalled = 0
        for channel in list(self.active_channels.values()):
            if isinstance(channel, RefereeChannel) and channel.stalled(now):
                stalled += 1
                channel.adopt = None  # a stream that cannot take its start is not handed on
                if channel.socket is not None:
                    with contextlib.suppress(OSError):
                        channel.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
                channel.handle_close()
            elif channel.will_close and not channel.requests and (
                    not channel.total_outbufs_len
                    or now - channel.last_activity > CHECK_EVERY_S):
                channel.handle_close()  # neither answering nor taking its answer
        if stalled and self.may_log():
            log.warning("closed %d connection(s) whose client took none of its answer for "
                        "%d s or sent its headers too slowly", stalled, SEND_TIMEOUT)

    def add_task(self, channel) -> None:
        """Run ``channel``'s next request, unless a response is still to be sent on it: then
        its ``handle_write`` starts the request once that is done."""
        with channel.outbuf_lock:
            if channel.total_outbufs_len and channel.connected:
                channel.next_waits = True
                return
        super().add_task(channel)

    def handle_accept(self):
        for _ in range(ACCEPT_AT_ONCE):
            before = len(self._map)
            if not self.accept_one():
                return
            if len(self._map) == before or len(self._map) >= self.adj.connection_limit:
                return

    def accept_one(self) -> bool:
        """Accept one waiting connection as waitress does, but refuse it (a reset) when its
        client already holds ``CONNECTIONS_PER_CLIENT`` (a trusted proxy, which speaks for
        every client, excepted); False when none was waiting."""
        try:
            taken = self.accept()
            if taken is None:
                return False
            conn, addr = taken
            self.set_socket_options(conn)
        except OSError:
            return True  # a connection gone before it was accepted: look for the next
        addr = self.fix_addr(addr)
        client = addr[0] if isinstance(addr, tuple) else str(addr)
        if self.clients.get(client, 0) >= CONNECTIONS_PER_CLIENT \
                and self.adj.trusted_proxy not in ("*", client):
            with contextlib.suppress(OSError):
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
            conn.close()
            if self.may_log():
                log.warning("a client at %s holds %d connections: refusing more",
                            client, CONNECTIONS_PER_CLIENT)
            return True
        self.channel_class(self, conn, addr, self.adj, map=self._map)
        return True


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


class KeptPoll:
    """One pass of waitress's loop (``wasyncore.poll2``) with the same outcome, its poll set
    kept between passes.

    Each pass asks every dispatcher of the map whether it may read (``readable``) and write
    (``writable``, never for one accepting), as waitress does, but registers with the poll set
    only the flags that changed since the last pass, and unregisters the descriptors no longer
    in the map (closed, or handed to a stream). ``select.poll`` watches descriptors by number,
    so a number closed and reused by a new connection is watched with the new one's flags as
    a new poll set would. A connection whose class answers both questions with
    ``HTTPChannel``'s own methods is asked through the same attributes without the two calls
    (the pass's cost with hundreds of kept-alive phones); any other (the listening sockets,
    whose ``readable`` also closes stalled connections, and the trigger) is asked by its
    methods."""

    READ = select.POLLIN | select.POLLPRI

    def __init__(self) -> None:
        self.pollster = select.poll()
        self.flags: dict[int, int] = {}  # what is registered for each descriptor watched
        self.plain: dict[type, bool] = {}  # a class asked through HTTPChannel's attributes

    def _plain(self, kind: type) -> bool:
        if kind not in self.plain:
            self.plain[kind] = (getattr(kind, "readable", None) is HTTPChannel.readable
                                and getattr(kind, "writable", None) is HTTPChannel.writable)
        return self.plain[kind]

    def __call__(self, timeout: float | None = 0.0, map: dict | None = None) -> None:
        if not map:
            return
        if timeout is not None:
            timeout = int(timeout * 1000)  # milliseconds, as poll2
        read, write = self.READ, select.POLLOUT
        kept, plain, pollster = self.flags, self.plain, self.pollster
        for fd, obj in list(map.items()):
            kind = type(obj)
            if plain.get(kind) if kind in plain else self._plain(kind):
                closing = obj.will_close or obj.close_when_flushed
                waiting = obj.total_outbufs_len
                flags = 0 if (closing or waiting or len(obj.requests)
                              > obj.adj.channel_request_lookahead) else read
                if (waiting or closing) and not obj.accepting:
                    flags |= write
            else:
                flags = read if obj.readable() else 0
                if obj.writable() and not obj.accepting:
                    flags |= write
            if kept.get(fd, 0) != flags:
                if flags:
                    pollster.register(fd, flags)
                    kept[fd] = flags
                else:
                    pollster.unregister(fd)
                    del kept[fd]
        for fd in kept.keys() - map.keys():  # closed since (some while they were asked)
            pollster.unregister(fd)
            del kept[fd]
        try:
            ready = pollster.poll(timeout)
        except InterruptedError:
            ready = []
        for fd, flags in ready:
            obj = map.get(fd)
            if obj is not None:
                wasyncore.readwrite(obj, flags)


def kept_poll_loop(timeout: float = 30.0, use_poll: bool = True, map: dict | None = None,
                   count: int | None = None) -> None:
    """``wasyncore.loop`` (with ``use_poll``, as ``options_for`` asks), passing by
    ``KeptPoll``."""
    passing = KeptPoll()
    while map and (count is None or count > 0):
        passing(timeout, map)
        if count is not None:
            count -= 1


KEPT_POLL = types.SimpleNamespace(loop=kept_poll_loop, dispatcher=wasyncore.dispatcher)


def make_server(app, idle_timeout: int = IDLE_TIMEOUT, **options):
    """A waitress server for ``app`` with the referee's settings (not yet running)."""
    server = waitress.create_server(app, **options_for(idle_timeout, **options))
    for listener in _listeners(server):
        listener.channel_class = RefereeChannel
        listener.__class__ = type(f"Referee{type(listener).__name__}",
                                  (RefereeListener, type(listener)), {})
    server.asyncore = KEPT_POLL  # its loop (``run``) passes by ``KeptPoll``
    return server


def serve(app, idle_timeout: int = IDLE_TIMEOUT, **options) -> None:
    """waitress.serve with the referee's settings: see the module's docstring."""
    run(make_server(app, idle_timeout, **options))


def run(server) -> None:
    """Run a server ``make_server`` made, saying where (once for each address: the sockets of
    ``serve_workers`` share one); what the process has made by then is set aside from the
    garbage collector's full passes (``keep_for_good``)."""
    logging.basicConfig()
    lean_log_records()
    if not isinstance(server, BaseWSGIServer):
        server.effective_listen = list(dict.fromkeys(server.effective_listen))
    server.print_listen("Serving on http://{}:{}")
    keep_for_good()
    server.run()


def lean_log_records() -> None:
    """Each log record made without what the referee's lines never show (their format is
    ``basicConfig``'s: level, logger, message), as the logging HOWTO's "Optimization" says:
    no walk up the stack for the caller's file and line, no thread's or process's name. A
    move's log line cost some 75 us of the hub's loop in the league bench, as much as
    parsing the move's message and checking its token together."""
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False


def keep_for_good() -> None:
    """Everything a serving process has made before it serves (its modules, the app, its
    routes and templates: some 67,000 objects, all living as long as the process) frozen out
    of the garbage collector's passes (``gc.freeze``), after one last collection. Each full
    pass went over them again: in the league bench a worker's full passes took 120-150 ms
    at the longest, the hub's loop and every push waiting, and half that after. And from
    then on, what survives each full pass is frozen too (``FullPasses``)."""
    gc.collect()
    gc.freeze()
    gc.callbacks.append(FullPasses())


class FullPasses:
    """The garbage collector's callback that keeps its full passes short while the process
    serves. A full pass comes once the objects kept since the last one are a quarter of
    those it kept, and goes over all of them: the games' states, every held socket's
    objects. Where one process gathers every game's sockets (``Hub.gatherer``), a league of
    600 games made passes of 100-440 ms, every move on the process waiting (the opponent's
    p99 from 56-94 ms to 126-164 ms). What a full pass leaves is what lives long, so it is
    frozen at the pass's end, and the next pass goes over only what came since: 40-55 ms at
    the longest. A frozen object is freed as any other when nothing refers to it; only one
    that dies in a reference cycle waits, so every ``GC_RENEW_S`` everything is unfrozen
    before a pass, which then goes over everything once (and frees any such cycle)."""

    def __init__(self, renew_s: float = GC_RENEW_S) -> None:
        self.renew_s = renew_s
        self.renew_at = time.monotonic() + renew_s

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        if time.monotonic() >= self.renew_at:
            self.renew_at = time.monotonic() + self.renew_s
            gc.unfreeze()  # the next full pass goes over everything
        else:
            gc.freeze()


def room_for_streams() -> int:
    """Let this process open as many files as the system allows it (the soft limit raised
    to the hard one): every stream holds a connection, and a laptop's default of 1,024 open
    files would refuse the 2,000 phones of a league. The limit now, in open files."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return soft


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
    other, supervised by this one (``Workers``), which keeps listening on their sockets too
    but answers there only while a worker is missing. The others are stopped when this one
    stops; each also stops by itself when this one is gone (``follow_parent``)."""
    server = make_server(app, idle_timeout, sockets=socks, **options)
    listeners = {listener.socket.fileno(): listener for listener in _listeners(server)}
    workers = Workers(child_args, [(sock, listeners[sock.fileno()]) for sock in socks[1:]])
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        workers.start()
        run(server)
    finally:
        workers.stop()


def restart_delay(lived_s: float, failures: int) -> tuple[int, float]:
    """After a worker that served ``lived_s`` seconds exits, having exited ``failures`` times
    in a row that soon after its start before: the failures in a row now, and the seconds to
    wait before starting the next. One that had been serving a while is started again at
    once; one that dies as soon as it starts waits 1 s, then 2, 4 ... 30 at the most.

    >>> restart_delay(3600, 4)
    (0, 0)
    >>> [restart_delay(0.5, n)[1] for n in range(7)]
    [1, 2, 4, 8, 16, 30, 30]
    """
    if lived_s >= STEADY_S:
        return 0, 0
    return failures + 1, min(LONGEST_PAUSE_S, FIRST_PAUSE_S * 2 ** failures)


class Workers:
    """The serving workers of ``serve_workers``, one for each socket but this process's own:
    started, watched every ``WATCH_EVERY_S``, and each started again on its socket (kept open
    here for the purpose) when it exits while this process is not stopping, with a log line
    for the exit and for the start. This process's listener on a worker's socket is ``lent``
    to the worker while it runs; it answers there again from the worker's exit until
    ``HANDOVER_S`` after its successor's start, when the successor is serving."""

    def __init__(self, child_args: list[str], slots: list[tuple[socket.socket, object]]) -> None:
        self.child_args = child_args
        self.slots = [_Slot(sock, listener) for sock, listener in slots]
        self.lock = threading.Lock()  # starts and stops, one at a time
        self.stopping = False

    def start(self) -> None:
        with self.lock:
            for slot in self.slots:
                self._start(slot)
                slot.listener.lent = True  # from the start, as the worker starts with it
        threading.Thread(target=self._watch, name="workers", daemon=True).start()

    def _start(self, slot: _Slot) -> subprocess.Popen[bytes]:
        fd = slot.sock.fileno()
        slot.sock.set_inheritable(True)
        slot.process = subprocess.Popen(
            [sys.executable, "-c", "from referee.cli import main; main()", "serve",
             *self.child_args, "--listen-fd", str(fd), "--parent-pid", str(os.getpid())],
            pass_fds=(fd,))
        slot.started = time.monotonic()
        return slot.process

    def _watch(self) -> None:
        while True:
            time.sleep(WATCH_EVERY_S)
            with self.lock:
                if self.stopping:
                    return
                for number, slot in enumerate(self.slots, start=1):
                    try:
                        self._look(number, slot, time.monotonic())
                    except Exception:  # an OSError starting one: the next look tries again
                        log.exception("serving worker %d could not be started", number)

    def _look(self, number: int, slot: _Slot, now: float) -> None:
        if slot.process is None:  # waiting for its pause to end
            if now >= slot.start_at:
                log.warning("serving worker %d started again (pid %d)", number,
                            self._start(slot).pid)
            return
        code = slot.process.poll()
        if code is None:
            if not slot.listener.lent and now - slot.started >= HANDOVER_S:
                slot.listener.lent = True
            return
        slot.listener.lent = False  # this process answers on its socket meanwhile
        slot.failures, pause = restart_delay(now - slot.started, slot.failures)
        how = f"signal {-code}" if code < 0 else f"status {code}"
        log.warning("serving worker %d (pid %d) exited with %s after %.0f s; starting another "
                    "%s", number, slot.process.pid, how, now - slot.started,
                    f"in {pause} s" if pause else "now")
        slot.process, slot.start_at = None, now + pause
        if not pause:
            self._look(number, slot, now)

    def stop(self) -> None:
        """Stop every worker (and start none again)."""
        with self.lock:
            self.stopping = True
            running = [slot.process for slot in self.slots if slot.process is not None]
        for process in running:
            process.terminate()
        for process in running:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()


class _Slot:
    """One worker's socket, this process's listener on it, and the worker serving it."""

    def __init__(self, sock: socket.socket, listener) -> None:
        self.sock, self.listener = sock, listener
        self.process: subprocess.Popen | None = None
        self.started = self.start_at = 0.0
        self.failures = 0


def _exit_on_signal(signum, _frame) -> None:
    raise SystemExit(128 + signum)  # so that ``serve_workers`` stops its workers


def name_os_thread() -> None:
    """Give the calling thread's name to the operating system too (Linux: what ``top -H`` and
    ``ps -L`` show, its first 15 bytes), so that the server's CPU can be read thread by thread
    (``bench/move_floor.py``); elsewhere nothing."""
    with contextlib.suppress(OSError), open("/proc/thread-self/comm", "w") as comm:
        comm.write(threading.current_thread().name[:15])


def every(seconds: float, work, name: str) -> None:
    """Run ``work()`` every ``seconds`` from a thread of its own, for as long as this process
    lives; a failure is logged and the next turn comes as usual."""
    def run() -> None:
        name_os_thread()
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
