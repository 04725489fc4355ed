"""Streams: each game's new version pushed, the moment it is committed, to the phones that
hold a stream of it (Server-Sent Events), by any process or server.

Who hears what (each a ``Listener``, checked again before every push):

* a seat, through the API (``GET /api/v1/games/{id}/stream`` with its token): ``view``
  events, each its whole view exactly as ``GET /api/v1/games/{id}`` gives it (R21);
* a seat's pages (``GET /games/{id}/stream``, the phone's cookie): ``status`` events, the
  page's status exactly as ``GET /games/{id}/status`` gives it;
* the host (the API with the host token, or ``GET /games/{id}/host/stream``): ``host``
  events, the host status (``GET /api/v1/games/{id}/host``);
* anyone (the API without a token): ``public`` events, the game's public status.

Each event's id is the game's version. A stream starts with the listener's current document
(or, reconnecting with a ``Last-Event-ID``, with it only if the game has moved on since), then
sends the next version's whenever the game changes: always the whole document at the newest
version, never a difference, so a push missed (a phone asleep, a connection lost) is made good
by the next one or by the reconnection, and no move is ever lost. A ``ping`` every
``HEARTBEAT_S`` keeps proxies and phones' radios from dropping an idle stream.

How it is served: the stream's first request is an ordinary one, authorised by Flask on a
server thread like any other; then ``serving`` hands its connection to this process's
``Hub``, which holds every stream on one thread of its own (an asyncio loop: epoll, a few
hundred bytes a stream, nothing done for a stream with nothing to send) and gives the server
thread back at once. A stream nobody reads costs no thread: what it cannot take waits, only
the newest document is kept for it, and it is cut off after ``serving.SEND_TIMEOUT`` s
without progress. A second thread of the hub waits on the store's ``ChangeWatcher`` (which
sees what every process on the database commits), builds each changed game's documents once
per listener, and hands them to the loop.

R21, timing included: every document is its listener's own (a seat's view, kept per version
as the polls keep it), or public (a page's status, the host status, the public status: their
cost follows nothing any seat hides), and the public ones are built first. Only a seat's whole
view costs what that seat hides (its own fleet), so when one process builds two seats' views
for one version, their pushes leave together, ``ALIGN_S`` after the change was seen, whatever
the building of each took: no seat's push waits on the building of another seat's view. A
move made on a seat's socket is the one exception, and it keeps the rule: the mover's own
view goes with his move's answer, built after the change was seen, and the other seats'
pushes still leave ``ALIGN_S`` after that moment (``push_game``'s ``answered``).
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import functools
import json
import logging
import os
import secrets
import socket
import threading
import time
from collections import deque
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from flask import Response, current_app, request

from . import service
from .common.documents import Json, StatusView
from .common.encoded import compact
from .errors import ApiError
from .serving import HAND_OFF, name_os_thread
from .store import ChangeWatcher, Store, digest, is_postgresql
from .web import store
from .webparts import poll_ms

log = logging.getLogger("referee")

Kind = Literal["view", "status", "host", "public"]
HEARTBEAT_S = 15  # a ping on a stream with nothing else sent for this long
RETRY_MS = 2000  # how soon a browser reconnects a stream that closed, unless told (``opening``)
ALIGN_S = 0.010  # one game's pushes for a version leave together, this long after the change
SEND_TIMEOUT_S = 5  # a stream whose waiting output has not moved for this long is cut off
HIGH_WATER = 64 * 1024  # bytes waiting for a stream beyond which only the newest push is kept
SEND_BUFFER = 64 * 1024  # the kernel's send buffer of a stream (not its autotuned megabytes)
MAX_STREAMS = 4000  # streams one process holds; more are refused 503 (the pages then poll)
STREAMS_PER_CLIENT = 16  # streams one client address holds in one process
STREAMS_PER_LISTENER = 4  # streams of one token (tabs, reloads): the oldest closed beyond
MAX_RECEIVED = 64 * 1024  # bytes a client may send on a stream after its request
SWEEP_S = 1.0  # how often the hub looks for streams to ping, cut off, or mark present
PING = b"event: ping\ndata: 0\n\n"
HAND_AGAIN_S = 0.005  # how soon a full hand is tried again (``Hub.hand_to``)
HAND_WAIT_S = 2.0  # how long it waits for room in a full hand before it stays where it is
MOVERS = 4  # threads making the moves the seats' sockets send (``referee.sockets``)


class Listener(NamedTuple):
    """Who a stream is for: its kind (the events it carries), its game, the seat (None for
    the host and the public) and the token it was opened with (None for the public), which
    must still hold the seat, or the host's powers, at every push."""
    kind: Kind
    game_id: str
    seat: str | None
    token: str | None


class Revoked(Exception):
    """The listener may no longer hear this game: the stream ends."""


def page_status(status: StatusView, seat: str) -> Json:
    """A seat's pages' status (``GET /games/{id}/status``): version, phase, whose turn (and,
    where orders are sealed, every seat that owes one, never what), who has joined and locked
    in, the disposition clock, from the game's public status (so that its cost follows
    nothing any seat hides, R21), and the seat it is for."""
    shown: Json = {
        "version": status["version"], "phase": status["phase"], "turn": status["turn"],
        "you": seat,
        "ready": sorted(s for s, v in status["seats"].items() if v["ready"]),
        "joined": sorted(s for s, v in status["seats"].items() if v["name"]),
        "deadline": status["clock"]["deadline"], "now": service.now()}
    if status.get("simultaneous"):  # where orders are sealed: every seat that owes one
        shown["owes"] = list(status["owes"])
    return shown


Held = tuple[int, dict[str, tuple[str, int]]]  # a version, and the seats' tokens as it was made


def document(store: Store, listener: Listener, *, settle: bool = False,
             held: Held | None = None) -> tuple[int, bytes]:
    """The listener's document now, as JSON on one line, and its version; ``Revoked`` if its
    token no longer holds its seat or the host's powers (recovered, reissued, handed on) or
    the game is gone. ``settle``: let a computer that is due move first (a request does; the
    hub leaves that to the request or the server's clock that moves it, and pushes again).
    ``held``: a version of the game and each token that held one of its seats as that
    version was written (``Store.seat_tokens``, read inside a socket's move's write): a
    seat's view is then built at that version with no query."""
    game_id = listener.game_id
    body: Mapping[str, Any]
    try:
        if listener.kind == "view" and not settle:  # a push: one query most times
            return _pushed_view(store, listener, held)
        if listener.kind in ("view", "status"):
            if service.authorise(store, game_id, listener.token) != listener.seat:
                raise Revoked
            if listener.kind == "status":
                if settle:
                    service.settle(store, game_id)
                body = page_status(service.public_status(store, game_id), listener.seat)
            else:
                shown = service.seat_view(store, game_id, listener.seat, settle=settle)
                return shown.version, shown.body.rstrip(b"\n")
        elif listener.kind == "host":
            if not service.is_host(store, game_id, listener.token):
                raise Revoked
            body = service.host_status(store, game_id, settle=settle)
        else:
            service.require_game(store, game_id)
            body = service.public_status(store, game_id)
    except ApiError as refused:
        if refused.status in (401, 403, 404):
            raise Revoked from None
        raise
    return body["version"], compact(body).encode()


def held_seat(store: Store, listener: Listener) -> tuple[str, tuple[int, int] | None]:
    """The seat a seat's listener's token holds now, with its view's stamp, in one query
    (``Store.seat_stamp``, as the cheap poll asks); a token that no longer holds the
    listener's seat is asked about as a request's is (``service.authorise``: refused for the
    same reasons, or the seat it holds now, without a stamp). Not noted as seen (R25): the
    hub notes every seat it holds a stream of together (``Hub._mark_present``)."""
    assert listener.token is not None and listener.seat is not None
    found = store.seat_stamp(listener.token)
    if found is not None and found[0] == (listener.game_id, listener.seat):
        return listener.seat, found[1]
    return service.authorise(store, listener.game_id, listener.token, seen=False), None


@functools.lru_cache(maxsize=4096)
def held_digest(token: str) -> str:
    """The digest of a held stream's or socket's token (``store.digest``), made once: a
    socket's every move and each of its seats' pushes looks its token up among the
    seats' (``held``), a SHA-256 each, timed at up to 17 us on the hub's loop."""
    return digest(token)


def _pushed_view(store: Store, listener: Listener, held: Held | None = None
                 ) -> tuple[int, bytes]:
    """A seat's view for a push: the seat its token holds and its view's stamp
    (``held_seat``, or ``held``'s version and the seat's draft revision there), the view kept
    for that stamp if one is (else built, ``service.seat_view``); a token that no longer
    holds the seat ends the stream."""
    if held is not None:
        assert listener.token is not None
        version, tokens = held
        seat, draft = tokens.get(held_digest(listener.token), ("", 0))
        stamp: tuple[int, int] | None = (version, draft)
    else:
        seat, stamp = held_seat(store, listener)
    if seat != listener.seat:
        raise Revoked
    shown = None if stamp is None else service.kept_view(store, listener.game_id, seat, *stamp)
    if shown is None:
        shown = service.seat_view(store, listener.game_id, seat, settle=False, stamp=stamp)
    return shown.version, shown.body.rstrip(b"\n")


def event(listener: Listener, version: int, body: bytes) -> bytes:
    """One Server-Sent Event: its id the version, its name the listener's kind."""
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (version, listener.kind.encode(), body)


def opening(listener: Listener, version: int | None, body: bytes | None,
            retry_ms: int = RETRY_MS) -> bytes:
    """What a stream starts with: how soon to reconnect (``retry_ms``), a ping (so that a
    page knows at once that events come through), and the document if the client has not
    seen its version."""
    first = b"retry: %d\n\n" % retry_ms + PING
    if body is None or version is None:
        return first
    return first + event(listener, version, body)


def last_event_id(header: str | None) -> int | None:
    """The version a reconnecting client last had (its Last-Event-ID), if it is one."""
    if header and header.strip().isdigit() and len(header.strip()) <= 12:
        return int(header.strip())
    return None


# -- the hub: every stream of this process ------------------------------------------------

@dataclass(eq=False)
class Stream:
    """One open stream, owned by the hub's loop thread."""

    listener: Listener
    client: str
    sent: int  # the version the client has
    chunked: bool  # HTTP/1.1: each write a chunk
    opened: float = field(default_factory=time.monotonic)
    transport: asyncio.Transport | None = None
    written: int = 0  # bytes handed to the transport
    taken: int = 0  # of those, bytes the client has taken, as last seen
    progress_at: float = field(default_factory=time.monotonic)
    last_write: float = field(default_factory=time.monotonic)
    paused: bool = False
    pending: bytes | None = None  # the newest event, waiting for the client to read
    pending_version: int = 0
    received: int = 0
    closed: bool = False
    ending: str | None = None  # ended before its connection was taken over: "end" or "reset"

    def write(self, data: bytes) -> None:
        if self.closed or self.transport is None:
            return
        if self.chunked:
            data = b"%X\r\n%s\r\n" % (len(data), data)
        self.transport.write(data)
        self.written += len(data)
        self.last_write = time.monotonic()

    def message(self, version: int, body: bytes) -> bytes:
        """What a push of ``body`` (the listener's document at ``version``) sends."""
        return event(self.listener, version, body)

    def heartbeat(self) -> None:
        self.write(PING)

    def revoke(self) -> None:
        """Its token no longer holds the seat (or the host's powers): it ends."""
        self.end()

    @staticmethod
    def refused(problem: ApiError) -> bytes:
        """What a connection handed to this process (``Hub.hand_to``), its answer's start
        sent already, is sent before it is closed when this process's limits refuse it
        (``Hub.refusal``): nothing here; its client opens it again, as after any end."""
        return b""

    def push(self, version: int, data: bytes) -> None:
        """Send an event now, or keep it (the newest only) until the client reads, or until
        the connection is taken over (``StreamProtocol.connection_made``)."""
        if self.paused or self.transport is None:
            self.pending, self.pending_version = data, version
        else:
            self.write(data)
        self.sent = version

    def end(self, reset: bool = False) -> None:
        if self.closed:
            return
        if self.transport is None:  # not taken over yet: it ends as soon as it is
            self.ending = "reset" if reset else "end"
            return
        if reset:
            self.transport.abort()
            return
        if self.chunked:
            self.transport.write(b"0\r\n\r\n")
        self.transport.close()


class StreamProtocol(asyncio.Protocol):
    def __init__(self, hub: Hub, stream: Stream) -> None:
        self.hub, self.stream = hub, stream

    def connection_made(self, transport) -> None:
        stream = self.stream
        stream.transport = transport
        transport.set_write_buffer_limits(high=HIGH_WATER)
        if stream.ending is not None:
            stream.end(reset=stream.ending == "reset")
        elif stream.pending is not None:
            data, stream.pending = stream.pending, None
            stream.write(data)

    def data_received(self, data: bytes) -> None:
        self.stream.received += len(data)  # a stream's client has nothing more to say
        if self.stream.received > MAX_RECEIVED:
            self.stream.end(reset=True)

    def eof_received(self) -> bool:
        return False  # the client is done: close

    def pause_writing(self) -> None:
        self.stream.paused = True

    def resume_writing(self) -> None:
        stream = self.stream
        stream.paused = False
        if stream.pending is not None:
            data, stream.pending = stream.pending, None
            stream.write(data)

    def connection_lost(self, exc) -> None:
        self.hub.forget(self.stream)


@dataclass
class Handing:
    """A connection on its way to the process that gathers the sockets (``Hub.hand_to``):
    where to, what the stream is (sent with it, and what it is here should it stay), and
    until when it may wait for room in a full hand."""
    path: str
    sock: socket.socket
    chunked: bool
    listener: Listener
    sent: int
    client: str
    framing: str
    first: bytes | None
    deadline: float

    def send(self) -> bool | None:
        """One try: True when the owner's hand took it (this process's descriptor is then
        closed), False when it cannot (a hand nobody answers is taken down), None when the
        hand is full for now."""
        header = json.dumps({"listener": list(self.listener), "sent": self.sent,
                             "client": self.client, "framing": self.framing}).encode()
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
                sender.setblocking(False)
                sender.sendmsg(  # (socket.send_fds drops its address before Python 3.12)
                    [header + b"\n" + (self.first or b"")],
                    [(socket.SOL_SOCKET, socket.SCM_RIGHTS,
                      array.array("i", [self.sock.fileno()]))], 0, self.path)
        except BlockingIOError:
            return None
        except (ConnectionRefusedError, FileNotFoundError):
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            return False
        except OSError as err:
            log.warning("a socket could not be handed to the process gathering the sockets "
                        "(%s); it stays here", err)
            return False
        self.sock.close()  # the owner holds it now
        return True


class Hub:
    """This process's streams: an asyncio loop on a thread of its own holds them all, and a
    second thread waits for changes (``Store.change_watcher``), builds the documents and
    hands them to the loop. Started once a process and database (``start_hub``)."""

    def __init__(self, database: str, trusted_proxy: str | None = None) -> None:
        self.database = database
        self.trusted_proxy = trusted_proxy
        self.loop = asyncio.new_event_loop()
        self.lock = threading.Lock()  # guards the maps below, read by both threads
        self.by_game: dict[str, set[Stream]] = {}
        self.by_listener: dict[Listener, list[Stream]] = {}
        self.clients: dict[str, int] = {}
        self.count = 0
        self.dirty: set[str] = set()  # games to look at again now (a stream just opened)
        # on the loop: the connections waiting for room in a full hand, by the hand, in order
        self.full_hands: dict[str, deque[Handing]] = {}
        self.pushes = 0  # events pushed, for the benches
        # the store's ChangeWatcher, once the pusher has made it
        self.watcher: ChangeWatcher | None = None
        # what the seats' sockets send (their moves, ``referee.sockets``), taken off the loop
        self.movers = ThreadPoolExecutor(MOVERS, "socket-mover", initializer=name_os_thread)
        # what the movers' changes are noted as: they push them, this hub's watcher leaves them
        self.origin = f"{os.getpid()}-{secrets.token_hex(6)}"

    stopping = False  # ``stop``: the threads end

    def start(self) -> Hub:
        self.threads = [threading.Thread(target=self._run_loop, name="stream-loop", daemon=True),
                        threading.Thread(target=self._run_pusher, name="stream-pusher",
                                         daemon=True)]
        for thread in self.threads:
            thread.start()
        return self

    def stop(self) -> None:
        """End every stream and both threads (a server that stops while its process goes on:
        a test's). ``referee serve`` never stops its hub; its process ends."""
        self.stopping = True
        if self.watcher is not None:
            self.watcher.wake()
        self.loop.call_soon_threadsafe(self._end_all)
        for thread in self.threads:
            thread.join(10)
        self.movers.shutdown(wait=True, cancel_futures=True)

    def _end_all(self) -> None:
        with self.lock:
            streams = [s for held in self.by_game.values() for s in held]
        for stream in streams:
            stream.end()
        self.loop.stop()

    # -- admission, on a server thread -------------------------------------------------------

    def refusal(self, client: str) -> ApiError | None:
        """Why a new stream from ``client`` cannot be held now, if it cannot: asked as its
        request comes, and again as it is counted (``adopt``), since handshakes from one
        client may be under way at once."""
        with self.lock:
            return self._refusal(client)

    def _refusal(self, client: str) -> ApiError | None:
        """``refusal``, under the hub's lock."""
        if self.count >= MAX_STREAMS:
            return ApiError(503, "The referee holds as many streams as it can; poll the "
                                 "game instead", field="stream")
        if self.clients.get(client, 0) >= STREAMS_PER_CLIENT and client != self.trusted_proxy:
            return ApiError(429, f"This address holds {STREAMS_PER_CLIENT} streams already; "
                                 "close one, or poll", field="stream")
        return None

    def adopt(self, sock: socket.socket, chunked: bool, listener: Listener, sent: int,
              client: str, *, kind: type[Stream] | None = None,
              protocol: type[StreamProtocol] | None = None, first: bytes | None = None
              ) -> None:
        """Take over a stream's connection from the server (on its loop thread, once the
        response's start is sent): from now on the hub writes to it. ``kind`` and
        ``protocol``: a stream of another framing (a seat's socket, ``referee.sockets``);
        ``first``: what it starts with, if the server has not sent it. Refused here, where
        the limits checked as its request came (``refusal``) were reached meanwhile by
        another of the client's handshakes: its connection is sent why, where its framing
        can say it (``Stream.refused``), and closed."""
        stream = (kind or Stream)(listener, client, sent, chunked)
        stream.pending = first
        older: list[Stream] = []
        with self.lock:
            problem = self._refusal(client)
            if problem is None:
                self.count += 1
                self.clients[client] = self.clients.get(client, 0) + 1
                self.by_game.setdefault(listener.game_id, set()).add(stream)
                held = self.by_listener.setdefault(listener, [])
                held.append(stream)
                older = held[:-STREAMS_PER_LISTENER] if listener.token else []
                self.dirty.add(listener.game_id)  # a change between its opening and now
        if problem is not None:
            with contextlib.suppress(OSError):
                sock.setblocking(False)
                sock.send(type(stream).refused(problem))  # a few bytes to an empty buffer
            sock.close()
            return
        if self.watcher is not None:
            self.watcher.wake()
        self.loop.call_soon_threadsafe(self._connect, sock, stream, older,
                                       protocol or StreamProtocol)

    def _connect(self, sock: socket.socket, stream: Stream, older: list[Stream],
                 protocol: type[StreamProtocol]) -> None:
        for old in older:
            old.end()
        with contextlib.suppress(OSError):  # what the kernel holds for a client that does not
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)  # read: bounded

        async def connect() -> None:
            try:
                await self.loop.connect_accepted_socket(
                    lambda: protocol(self, stream), sock=sock)
            except OSError:
                self.forget(stream)
                sock.close()

        self.loop.create_task(connect())

    def forget(self, stream: Stream) -> None:
        """A stream closed: it is counted off once."""
        with self.lock:
            if stream.closed:
                return
            stream.closed = True
            self.count -= 1
            left = self.clients.get(stream.client, 1) - 1
            if left > 0:
                self.clients[stream.client] = left
            else:
                self.clients.pop(stream.client, None)
            streams = self.by_game.get(stream.listener.game_id)
            if streams is not None:
                streams.discard(stream)
                if not streams:
                    del self.by_game[stream.listener.game_id]
            held = self.by_listener.get(stream.listener)
            if held is not None:
                with contextlib.suppress(ValueError):
                    held.remove(stream)
                if not held:
                    del self.by_listener[stream.listener]

    # -- the loop thread ---------------------------------------------------------------------

    def _run_loop(self) -> None:
        name_os_thread()
        asyncio.set_event_loop(self.loop)
        service.keep_move_lines()  # written by the sweep, every second
        self.loop.call_later(SWEEP_S, self._sweep)
        self._open_hand()
        self.loop.run_forever()
        service.write_kept_lines()
        if self.hand is not None:
            self.hand.close()
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(self.hands, self.origin))

    # -- connections handed between the processes on one database file ----------------------

    hand: socket.socket | None = None  # where other processes hand this one connections
    hands = ""  # the folder of every process's hand (by origin)

    def _open_hand(self) -> None:
        """This process's hand: a Unix datagram socket beside the database file, named by
        its origin, where another process hands it a connection (its descriptor) with what
        the stream is (``hand_to``)."""
        folder = hands_folder(self.database)
        if folder is None:
            return
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            hand = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            hand.bind(os.path.join(folder, self.origin))
        except OSError as err:
            log.warning("no hand for other processes' sockets (%s): each stays where it "
                        "opened", err)
            return
        hand.setblocking(False)
        self.hand, self.hands = hand, folder
        self.loop.add_reader(hand.fileno(), self._take_handed)

    def gatherer(self) -> str | None:
        """The process (its origin) that gathers every game's sockets: the first of the
        hands in the folder by name, so that every process picks the same one; None where
        there are no hands (a database that is not a file). One process for every game, not
        one picked by each game's id: a move's cost is mostly the CPU's caches filled again
        with the referee's code and data (docs/scaling.md), and a process that makes every
        socket's move finds them warmer, its SQLite page cache not emptied by the other
        processes' moves; the league's moves cost 12-18% less so, at a fifth of a core."""
        if self.hand is None:
            return None
        try:
            names = sorted(os.listdir(self.hands))
        except OSError:
            return None
        return names[0] if names else None

    def hand_to(self, owner: str, sock: socket.socket, chunked: bool, listener: Listener,
                sent: int, client: str, framing: str, first: bytes | None) -> None:
        """Hand an open connection to the process ``owner`` (its descriptor, sent over its
        hand), or hold it here (``keep``) where it cannot be. A hand holds only a few
        connections until its process's loop takes them (the system's
        ``net.unix.max_dgram_qlen``, 10 by default), and a burst of handshakes (a league's
        phones opening at once) fills it: then the connection waits for room
        (``_wait_for_room``) and stays here only if it waited ``HAND_WAIT_S`` in vain. A hand
        nobody answers (its process is gone) is taken down, and the connection stays here."""
        handing = Handing(os.path.join(self.hands, owner), sock, chunked, listener, sent,
                          client, framing, first, time.monotonic() + HAND_WAIT_S)
        handed = None if handing.path in self.full_hands else handing.send()
        if handed is None:
            self.loop.call_soon_threadsafe(self._wait_for_room, handing)
        elif not handed:
            self.keep(handing)

    def keep(self, handing: Handing) -> None:
        """A connection that could not be handed on, held here after all."""
        kind, protocol = FRAMINGS[handing.framing]
        self.adopt(handing.sock, handing.chunked, handing.listener, handing.sent,
                   handing.client, kind=kind, protocol=protocol, first=handing.first)

    def _wait_for_room(self, handing: Handing) -> None:
        """On the loop: a connection queued for a full hand, behind any already waiting for
        it; the first of them is tried again every ``HAND_AGAIN_S`` (one timer a hand, however
        many wait)."""
        waiting = self.full_hands.get(handing.path)
        if waiting is None:
            self.full_hands[handing.path] = deque([handing])
            self.loop.call_later(HAND_AGAIN_S, self._hand_again, handing.path)
        else:
            waiting.append(handing)

    def _hand_again(self, path: str) -> None:
        """On the loop: the connections waiting for room in one hand, handed in order while
        it takes them; one that has waited ``HAND_WAIT_S`` in vain, or whose hand is gone,
        stays here."""
        waiting = self.full_hands[path]
        while waiting:
            handing = waiting[0]
            handed = handing.send()
            if handed is None and time.monotonic() < handing.deadline:
                self.loop.call_later(HAND_AGAIN_S, self._hand_again, path)
                return
            waiting.popleft()
            if handed is None:
                log.warning("a socket could not be handed to the process gathering the "
                            "sockets (its hand stayed full for %s s); it stays here",
                            HAND_WAIT_S)
            if not handed:
                self.keep(handing)
        del self.full_hands[path]

    def _take_handed(self) -> None:
        """On the loop: connections handed by other processes, each adopted as the stream
        it is."""
        assert self.hand is not None
        while True:
            try:
                data, fds, _flags, _address = socket.recv_fds(self.hand, 1 << 20, 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                log.exception("a connection handed over could not be taken")
                return
            if not fds:
                continue
            sock = socket.socket(fileno=fds[0])
            try:
                header, _, first = data.partition(b"\n")
                what = json.loads(header)
                kind, protocol = FRAMINGS[what["framing"]]
                listener = Listener(*what["listener"])
                # adopted, or refused where this process holds as many as it may
                self.adopt(sock, False, listener, what["sent"], what["client"], kind=kind,
                           protocol=protocol, first=first or None)
            except Exception:
                log.exception("a connection handed over could not be adopted")
                sock.close()

    def _sweep(self) -> None:
        """Every ``SWEEP_S``: write the log lines of the moves made on the loop since the
        last (``service.keep_move_lines``); ping the streams idle for ``HEARTBEAT_S``; cut
        off the ones whose client has taken nothing of what waits for ``SEND_TIMEOUT_S``."""
        try:
            service.write_kept_lines()
        except Exception:  # a handler that fails: the sweep goes on, and comes again
            log.exception("the log lines of the loop's moves could not be written")
        now = time.monotonic()
        with self.lock:
            streams = [s for held in self.by_game.values() for s in held]
        stalled = 0
        for stream in streams:
            transport = stream.transport
            if transport is None or stream.closed:
                continue
            waiting = transport.get_write_buffer_size()
            taken = stream.written - waiting
            if not waiting or taken > stream.taken:
                stream.taken, stream.progress_at = taken, now
            if waiting and now - stream.progress_at > SEND_TIMEOUT_S:
                stalled += 1
                stream.end(reset=True)
            elif now - stream.last_write >= HEARTBEAT_S and not stream.paused:
                stream.heartbeat()
        if stalled:
            log.warning("cut off %d stream(s) whose client took nothing for %d s", stalled,
                        SEND_TIMEOUT_S)
        self.loop.call_later(SWEEP_S, self._sweep)

    def _send(self, sends: list[tuple[Stream, int | None, bytes | None]]) -> None:
        for stream, version, data in sends:
            if stream.closed:
                continue
            if data is None:
                stream.revoke()
            elif version is not None and version > stream.sent:
                stream.push(version, stream.message(version, data))
                self.pushes += 1

    # -- the pusher thread -----------------------------------------------------------------

    def _run_pusher(self) -> None:
        name_os_thread()
        store = Store(self.database, autocheckpoint=False)
        watcher = self.watcher = store.change_watcher(skip=self.origin)
        seen_at = time.monotonic()
        while not self.stopping:
            try:
                changed = watcher.wait(SWEEP_S)
                with self.lock:
                    dirty, self.dirty = self.dirty, set()
                    watched = set(self.by_game)
                watcher.watching(watched)  # before a new stream's game is first pushed
                games = (watched if changed is None else changed & watched) | (dirty & watched)
                for game_id in sorted(games):
                    self.push_game(store, game_id)
                if time.monotonic() - seen_at >= service.SEEN_EVERY_S:
                    seen_at = time.monotonic()
                    self._mark_present(store)
            except Exception:
                log.exception("the stream pusher failed; it goes on")
                store.end_open_transaction()
                time.sleep(SWEEP_S)
        watcher.close()
        store.close()

    def push_game(self, store: Store, game_id: str, *, on_loop: bool = False,
                  seen: float | None = None, answered: Stream | None = None,
                  held: Held | None = None) -> int | None:
        """Build each listener's document of one game once, then send them all together,
        ``ALIGN_S`` after the change was seen (R21: see the module's docstring); the version
        they were built at (None if none was). ``on_loop``: called on the loop's own thread
        (a seat's socket's move). ``answered``: the mover's socket, sent his view with his
        move's answer already (``sockets.take``), after the change was ``seen``: it is sent
        nothing here, and the other seats' pushes still leave ``ALIGN_S`` after ``seen``,
        whatever building his view took. ``held``: the version the move made and the seats'
        tokens as it was written (``document``): the seats' views built with no query."""
        seen = self.loop.time() if seen is None else seen
        with self.lock:
            streams = [s for s in self.by_game.get(game_id, ()) if s is not answered]
        built: dict[Listener, tuple[int | None, bytes | None]] = {}
        for listener in sorted({s.listener for s in streams},
                               key=lambda each: (each.kind, each.seat or "", each.token or "")):
            try:
                built[listener] = document(store, listener, held=held)
            except Revoked:
                built[listener] = (None, None)
        sends = [(s, *built[s.listener]) for s in streams]
        seats = {listener.seat for listener in built if listener.kind == "view"}
        if answered is not None:
            seats.add(answered.listener.seat)
        aligned = len(seats) > 1
        if on_loop:
            self.loop.call_at(seen + ALIGN_S, self._send, sends) if aligned \
                else self._send(sends)
        elif aligned:
            self.loop.call_soon_threadsafe(self.loop.call_at, seen + ALIGN_S, self._send,
                                           sends)
        else:
            self.loop.call_soon_threadsafe(self._send, sends)
        return max((version for version, _ in built.values() if version is not None),
                   default=None)

    def look_again(self, game_id: str) -> None:
        """Have the pusher look at a game now (its change was not pushed as it was made)."""
        with self.lock:
            self.dirty.add(game_id)
        if self.watcher is not None:
            self.watcher.wake()

    def _mark_present(self, store: Store) -> None:
        """A seat with a stream open has its page open: it is present (R25), as a phone that
        polls is."""
        with self.lock:
            seats = {(listener.game_id, listener.seat) for listener in self.by_listener
                     if listener.seat is not None}
        service.mark_present(store, seats)

    # -- for tests and benches -------------------------------------------------------------

    def held(self) -> int:
        with self.lock:
            return self.count


_HUBS: dict[str, Hub] = {}  # by database: one under ``referee serve``
# the stream and protocol classes of a framing that may be handed between processes
# (``Hub.hand_to``): a seat's socket's, registered by ``referee.sockets``
FRAMINGS: dict[str, tuple[type[Stream], type[StreamProtocol]]] = {}


def hands_folder(database: str) -> str | None:
    """The folder of the hands of the processes serving one database file (``Hub.hand``);
    None for PostgreSQL (its servers may be on other machines) or a database in memory."""
    if is_postgresql(database) or database.startswith(":memory:") \
            or not hasattr(socket, "AF_UNIX"):
        return None
    return f"{database}.hands"


def start_hub(database: str, trusted_proxy: str | None = None) -> Hub:
    """This process's hub for the database, started on first asking (``referee serve`` asks
    as it starts)."""
    if database not in _HUBS:
        _HUBS[database] = Hub(database, trusted_proxy).start()
    return _HUBS[database]


def stop_hub(database: str) -> None:
    """Stop the database's hub, if one was started (``Hub.stop``)."""
    held = _HUBS.pop(database, None)
    if held is not None:
        held.stop()


def hub(database: str) -> Hub | None:
    return _HUBS.get(database)


def open_stream(listener: Listener, client: str) -> Response:
    """The answer to a stream's request, its listener authorised by the route: the opening
    (``opening``), then, under ``referee serve``, the connection handed to this process's
    hub. Anywhere else (Flask's test client, another WSGI server) the opening alone, after
    which a browser reconnects as often as a page polls (the config's ``POLL_MS``): a poll
    by another name, as prompt as the polls it stands for."""
    after = last_event_id(request.headers.get("Last-Event-ID"))
    version, body = document(store(), listener, settle=True)
    first = opening(listener, version, body if after != version else None,
                    poll_ms(current_app.config))
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    hand_off = request.environ.get(HAND_OFF)
    held = hub(current_app.config["DATABASE"])
    if hand_off is None or held is None or request.method != "GET":
        return Response(first, mimetype="text/event-stream", headers=headers)
    refused = held.refusal(client)
    if refused is not None:
        raise refused
    hand_off(lambda sock, chunked: held.adopt(sock, chunked, listener, version, client))
    return Response(iter([first]), mimetype="text/event-stream", headers=headers)
