"""A seat's socket: its view pushed and its moves taken on one WebSocket
(``GET /api/v1/games/{id}/socket``), for bots and clients that play many moves.

A stream (``referee.streams``) pushes a seat's view, and each move is a request of its own
(``POST .../moves``): its head parsed by the server, a thread of its own, the move made, then
the change seen by the hub's pusher, which reads it back from the database and builds the
seats' views. On a seat's socket the move comes on the connection the hub already holds: the
hub's loop reads it and makes it (one of a few mover threads, where another thread of the
process holds the game) with ``service.make_move``, as the route does: the same
Idempotency-Key, the same refusals, its token checked again, inside the move's write
(``message_answer``). It answers it on the socket and builds this process's documents of the
game for their pushes at once, with no query, where the pusher would have waited for the
change to be seen. Other processes and servers see the change as they see any other. Under
several worker processes on one database file, every game's sockets are gathered in one of
them (``Hub.gatherer``): a handshake taken by another is handed to it, its connection's
descriptor sent over that process's hand (``Hub.hand_to``), so that both seats' views of a
move are built where it is made.

Messages are JSON text, one a frame (RFC 6455, ``referee.websocket``):

* the client sends ``{"move": {...}, "key": "..."}``: the move document the moves route
  takes, and its Idempotency-Key (optional, 1-200 characters); one at a time, in order;
* the referee sends ``{"event": "view", "id": V, "data": {...}}``: the seat's whole view at
  version ``V``, exactly as ``GET /api/v1/games/{id}`` gives it, at the opening (unless the
  ``Last-Event-ID`` the client sent is ``V``) and at each new version; ``{"event":
  "report", "key": K, "status": 201, "data": {...}}``: a move made, its report (the first
  report again, for a key seen before); ``{"event": "refused", "key": K, "status": 4xx, "data":
  {"errors": [...]}}``: a message refused, in the API's error format, naming the ruling or
  field. A token that no longer holds the seat is refused, and the socket closed (1008), at
  its next message or its next push.

R21 as on a stream: a push is the seat's own view, and two seats' views of one version leave
together (``Hub.push_game``). The stream's limits hold: per address, per process, per token;
a client that does not read is cut off; a message is at most ``MAX_MESSAGE`` bytes.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable

from flask import Response, current_app, request

from . import service
from .api import MAX_KEY, bp, json_object, player
from .common.encoded import dumps
from .common.problems import RuleViolation
from .errors import SLIPPED, ApiError, refusal_body
from .serving import HAND_OFF
from .states import states_of
from .store import Store, Unavailable
from .streams import (
    FRAMINGS,
    Held,
    Hub,
    Listener,
    Stream,
    StreamProtocol,
    document,
    held_digest,
    held_seat,
    hub,
    last_event_id,
)
from .web import MAX_BODY, bearer, client_address, store
from .websocket import (
    BINARY,
    CLOSE,
    GOING_AWAY,
    NORMAL,
    NOT_UTF8,
    PING,
    POLICY,
    PONG,
    TRY_AGAIN_LATER,
    UNSUPPORTED,
    FrameReader,
    Refused,
    accept_key,
    close_frame,
    frame,
    frame_head,
    valid_key,
)
from .websocket import TEXT as TEXT_FRAME

log = logging.getLogger("referee")

MAX_MESSAGE = MAX_BODY  # bytes of one message, as of a request's body
MAX_WAITING = 8  # messages read ahead of the one being made; reading pauses beyond
FIELDS = {"move", "key"}
_local = threading.local()  # each mover thread's store


def view_message(version: int, body: bytes) -> bytes:
    """The frame of a seat's view (``body``, its JSON) at ``version``."""
    return b"".join(view_frame(version, body))


def view_frame(version: int, body: bytes) -> list[bytes]:
    """``view_message``'s frame in pieces, for one join with whatever is sent with it: a
    view is some kilobytes (every report of the game), copied once where it was copied
    three times."""
    start = b'{"event":"view","id":%d,"data":' % version
    return [frame_head(TEXT_FRAME, len(start) + len(body) + 1), start, body, b"}"]


class SocketStream(Stream):
    """A seat's socket, held by the hub as a stream: its pushes are WebSocket frames."""

    def message(self, version: int, body: bytes) -> bytes:
        return view_message(version, body)

    def heartbeat(self) -> None:
        self.write(frame(PING))

    def revoke(self) -> None:
        self.end(code=POLICY, reason="the token no longer holds the seat")

    @staticmethod
    def refused(problem: ApiError) -> bytes:
        """Its close, saying why and that it may open again later (1013)."""
        return close_frame(TRY_AGAIN_LATER, problem.message)

    closing: tuple[int, str] = (GOING_AWAY, "")  # the close frame of an end asked early

    def end(self, reset: bool = False, code: int | None = None, reason: str = "") -> None:
        if self.closed:
            return
        if self.transport is None:  # ended before the hub took it over: once it has
            self.ending = "reset" if reset else "end"
            if code is not None:
                self.closing = (code, reason)
            return
        if code is None:
            code, reason = self.closing
        if reset:
            self.transport.abort()
            return
        self.transport.write(close_frame(code, reason))
        self.transport.close()


class SocketProtocol(StreamProtocol):
    """A seat's socket's connection on the hub's loop: frames read, moves handed to the
    hub's movers one at a time, in order."""

    stream: SocketStream

    def __init__(self, hub: Hub, stream: Stream) -> None:
        super().__init__(hub, stream)
        self.reader = FrameReader(MAX_MESSAGE)
        self.waiting: deque[bytes] = deque()
        self.busy = self.reading_paused = False

    def data_received(self, data: bytes) -> None:
        stream = self.stream
        if stream.closed:
            return
        try:
            messages = self.reader.feed(data)
        except Refused as refused:
            stream.end(code=refused.code, reason=refused.reason)
            return
        for opcode, payload in messages:
            if opcode == PING:
                stream.write(frame(PONG, payload))
            elif opcode == CLOSE:
                stream.end(code=NORMAL)
                return
            elif opcode == BINARY:
                stream.end(code=UNSUPPORTED, reason="messages are JSON text")
                return
            elif opcode != PONG:
                try:
                    payload.decode()
                except UnicodeDecodeError:
                    stream.end(code=NOT_UTF8, reason="a text message is UTF-8")
                    return
                self.waiting.append(payload)
        if len(self.waiting) >= MAX_WAITING and stream.transport is not None:
            stream.transport.pause_reading()
            self.reading_paused = True
        self._next()

    def resume_writing(self) -> None:
        super().resume_writing()
        self._next()

    def _next(self) -> None:
        """The next message made: here, on the loop, if nothing in this process holds its
        game (``here``); else by one of the hub's movers. None while the client has not
        taken what waits for it (its answers would pile up unread)."""
        if self.busy or not self.waiting or self.stream.closed or self.stream.paused:
            return
        self.busy = True
        payload = self.waiting.popleft()
        game_lock = states_of(mover_store(self.hub)).lock(self.stream.listener.game_id)
        if game_lock.acquire(blocking=False):
            try:
                take(self.hub, self, payload, here=True)
            finally:
                game_lock.release()
        else:
            self.hub.movers.submit(take, self.hub, self, payload, here=False)

    def answered(self, reply: bytes, end: bool, view: tuple[int, bytes] | None = None) -> None:
        """On the loop: a message's answer sent, with the seat's view at the version its move
        made (``view``) in the same write where it made one, and the next message taken."""
        stream = self.stream
        self.busy = False
        if stream.closed:
            return
        data = frame(TEXT_FRAME, reply)
        if view is not None and view[0] > stream.sent:
            data = b"".join([data, *view_frame(*view)])
            stream.sent = view[0]
        stream.write(data)
        if end:
            stream.revoke()
            return
        if self.reading_paused and len(self.waiting) < MAX_WAITING \
                and stream.transport is not None:
            stream.transport.resume_reading()
            self.reading_paused = False
        if self.waiting:
            self.hub.loop.call_soon(self._next)


def mover_store(hub: Hub) -> Store:
    """The thread's store for the sockets' moves (the loop's, or a mover's), whose changes
    its hub's pusher leaves to it."""
    if getattr(_local, "store", None) is None:
        _local.store = Store(hub.database, autocheckpoint=False)
        _local.store.pushes_as = hub.origin
    return _local.store


def take(hub: Hub, protocol: SocketProtocol, payload: bytes, *, here: bool) -> None:
    """A socket's message made (``message_answer``) and answered, then, if it changed the
    game, this process's pushes of the game built at once. ``here``: on the loop, where
    the game's lock is held and nothing waits for long: a computer that then owes a move
    makes it on a mover; else on a mover thread."""
    store = mover_store(hub)
    listener = protocol.stream.listener
    noted = store.noted
    held = None
    try:
        reply, end, held = message_answer(store, listener, payload, computers=not here)
    except Exception:  # never leave the socket waiting
        log.exception("a socket's message could not be answered")
        reply, end = refused(None, ApiError(500, SLIPPED)), False
    finally:
        store.end_open_transaction()
    changed = store.noted != noted
    seen = hub.loop.time()  # before the mover's view is built: the others' pushes leave
    # ALIGN_S after this, whatever building his took (R21)
    view = own_view(store, listener, held) if changed and not end else None
    if here:
        protocol.answered(reply, end, view)
    else:
        hub.loop.call_soon_threadsafe(protocol.answered, reply, end, view)
    if changed:
        push(hub, store, listener.game_id, here, seen=seen,
             answered=protocol.stream if view is not None else None, held=held)
        store.end_open_transaction()


def own_view(store: Store, listener: Listener, held: Held | None
             ) -> tuple[int, bytes] | None:
    """The mover's view at the version his move made, for his answer's write (``take``):
    one write and one wake of his phone where two were; None where it cannot be had now
    (the push sends it then, or ends the socket). ``held``: the version his move made and
    the seats' tokens as it was written (``message_answer``): built with no query."""
    try:
        return document(store, listener, held=held)
    except Exception:  # Revoked, or the store: the push decides
        return None
    finally:
        store.end_open_transaction()


def push(hub: Hub, store: Store, game_id: str, here: bool, *, seen: float | None = None,
         answered: Stream | None = None, held: Held | None = None) -> None:
    """What this thread changed (the hub's pusher leaves it): the game's pushes, built now
    (``Hub.push_game``: ``seen``, ``answered`` and ``held`` as there); on the loop, a
    computer that then owes the game a move is left to a mover (``settle``)."""
    try:
        version = hub.push_game(store, game_id, on_loop=here, seen=seen, answered=answered,
                                held=held)
        if here and service.computers_waiting(store, game_id, version):
            hub.movers.submit(settle, hub, game_id)
    except Exception:
        log.exception("a socket's move could not be pushed; the pusher will")
        hub.look_again(game_id)


def settle(hub: Hub, game_id: str) -> None:
    """On a mover: a computer that owes the game a move makes it, and it is pushed."""
    store = mover_store(hub)
    noted = store.noted
    try:
        service.settle(store, game_id)
    except Exception:
        log.exception("a computer could not move after a socket's move")
    finally:
        store.end_open_transaction()
    if store.noted != noted:
        push(hub, store, game_id, False)
        store.end_open_transaction()


class NotHeld(Exception):
    """Inside a socket's move's write: its token no longer holds the seat; the move is undone."""


def message_answer(store: Store, listener: Listener, payload: bytes, *,
                   computers: bool = True) -> tuple[bytes, bool, Held | None]:
    """A message's answer; whether the socket ends (its token no longer holds the seat);
    and, where it made a move, the version it made with the seats' tokens as it was written
    (``streams.document``'s ``held``: the seats' views built with no query).

    The move is made on the state this process keeps, with no query before it (the token
    and the game's version were read first, one query of the three a move read): the token
    is checked inside the move's write, as it commits, and the write's version check sends a
    state another process had moved on back to be made again. A refusal is looked at again
    (``looked_at_again``)."""
    key = None
    try:
        message = json_object(payload, field="message")
        extra = sorted(set(message) - FIELDS)
        if extra:
            raise ApiError(400, f"A socket's message has only 'move' and 'key', not "
                                f"{extra[0]!r}", field=extra[0])
        key = message.get("key")
        if key is not None and not (isinstance(key, str) and 0 < len(key) <= MAX_KEY):
            key = None
            raise ApiError(400, f"'key' is the move's Idempotency-Key, a string of 1 to "
                                f"{MAX_KEY} characters", field="key")
        move = message.get("move")
        if not isinstance(move, dict):
            raise ApiError(400, "'move' is the move's document, a JSON object", field="move")
    except ApiError as problem:
        return refused(key, problem), False, None
    assert listener.token is not None and listener.seat is not None
    token = held_digest(listener.token)
    tokens: dict[str, tuple[str, int]] = {}
    kept_at = states_of(store).version_kept(listener.game_id)  # the move's state, or older

    def still_held() -> None:
        """Inside the move's write: the seats' tokens as it commits (R21)."""
        tokens.update(store.seat_tokens(listener.game_id))
        if tokens.get(token, ("", 0))[0] != listener.seat:
            raise NotHeld

    try:
        made = service.make_move(store, listener.game_id, listener.seat, move, key,
                                 computers=computers, kept=True, inside=still_held)
    except Unavailable as problem:
        return refused(key, problem), False, None
    except (NotHeld, ApiError, RuleViolation) as problem:
        tokens.clear()
        first = None if isinstance(problem, NotHeld) else (problem, kept_at)
        try:
            made = looked_at_again(store, listener, move, key, computers, still_held, first)
        except (ApiError, RuleViolation, Unavailable) as final:
            return refused(key, final), isinstance(final, SeatLost), None
    held = (made.version, tokens) if made.version and tokens else None
    return answer("report", key, made.status, made.written), False, held


class SeatLost(ApiError):
    """The socket's token no longer holds its seat: the refusal says so, and the socket
    ends."""


def looked_at_again(store: Store, listener: Listener, move: dict, key: str | None,
                    computers: bool, still_held: Callable[[], None],
                    first: tuple[ApiError | RuleViolation, int | None] | None = None
                    ) -> service.MoveMade:
    """A move refused on the state kept (``message_answer``): its token and the game's
    version read now, in one query (``held_seat``). A token that no longer holds the seat is
    told only that (R21: never what the rules said of its move), and its socket ends. Where
    the refusal (``first``: what refused it, and the version kept as the move began) was
    given at the store's latest version, and its Idempotency-Key (not looked up before the
    rules on the state kept) was not seen before, it stands: the rules would say the same of
    the same state, and a client sending refused moves costs them once each. Else the move
    is made again from the store's latest version, and what that says is the answer (a key
    seen before: its first report)."""
    try:
        seat, stamp = held_seat(store, listener)
    except ApiError as refusal:
        raise SeatLost(refusal.status, refusal.message, field=refusal.field,
                       rule=refusal.rule, headers=refusal.headers) from None
    if seat != listener.seat:
        raise SeatLost(403, "That token holds another seat now", field="Authorization")
    if first is not None and stamp is not None and first[1] == stamp[0] and (
            key is None or store.remembered(listener.game_id, seat, key) is None):
        raise first[0]  # its key, if any, not seen before: the refusal was not its report's
    try:
        return service.make_move(store, listener.game_id, seat, move, key, computers=computers,
                                 version=None if stamp is None else stamp[0], inside=still_held)
    except NotHeld:  # taken from it since the look above
        raise SeatLost(403, "That token no longer holds this seat",
                       field="Authorization") from None


def answer(event: str, key: str | None, status: int, data: object) -> bytes:
    """A message's answer; ``data`` may be given written already (``Encoded``)."""
    return dumps({"event": event, "key": key, "status": status, "data": data}).encode()


def refused(key: str | None, problem: ApiError | RuleViolation | Unavailable) -> bytes:
    """A refusal's message, in the API's error format (``errors.refusal_body``)."""
    body, status = refusal_body(problem)
    return answer("refused", key, status, body)


def open_socket(listener: Listener, client: str) -> Response:
    """The answer to a socket's request, its seat authorised by the route: 101, and the
    connection handed to this process's hub, which sends the opening view first. Refused
    (naming the header) unless it is a WebSocket handshake; 503 where the server cannot hold
    sockets (Flask's test client, another WSGI server): open the stream and post moves."""
    headers = request.headers
    if request.environ.get("SERVER_PROTOCOL") != "HTTP/1.1" \
            or headers.get("Upgrade", "").lower() != "websocket" \
            or "upgrade" not in {t.strip().lower() for t in headers.get("Connection", "")
                                 .split(",")}:
        raise ApiError(400, "A socket opens with a WebSocket handshake over HTTP/1.1 "
                            "('Upgrade: websocket', 'Connection: Upgrade')", field="Upgrade")
    if headers.get("Sec-WebSocket-Version") != "13":
        raise ApiError(426, "The referee speaks WebSocket version 13",
                       field="Sec-WebSocket-Version", headers={"Sec-WebSocket-Version": "13"})
    key = headers.get("Sec-WebSocket-Key")
    if not valid_key(key):
        raise ApiError(400, "'Sec-WebSocket-Key' is 16 bytes in base64",
                       field="Sec-WebSocket-Key")
    assert key is not None
    hand_off = request.environ.get(HAND_OFF)
    held = hub(current_app.config["DATABASE"])
    if hand_off is None or held is None:
        raise ApiError(503, "This server holds no sockets: open the game's stream and post "
                            "moves instead", field="socket")
    refusal = held.refusal(client)
    if refusal is not None:
        raise refusal
    after = last_event_id(headers.get("Last-Event-ID"))
    version, body = document(store(), listener, settle=True)
    first = view_message(version, body) if after != version else None
    owner = held.gatherer()

    def adopt(sock, chunked: bool) -> None:
        """Held here, or by the process that gathers the sockets."""
        if owner is None or owner == held.origin:
            held.adopt(sock, chunked, listener, version, client, kind=SocketStream,
                       protocol=SocketProtocol, first=first)
        else:
            held.hand_to(owner, sock, chunked, listener, version, client, "socket", first)

    hand_off(adopt)
    return Response(status=101, headers={"Sec-WebSocket-Accept": accept_key(key),
                                         "Cache-Control": "no-cache"})


@bp.get("/games/<game_id>/socket", websocket=True)  # werkzeug routes a handshake apart
@bp.get("/games/<game_id>/socket")  # anything else: refused, naming what it lacks
def seat_socket(game_id: str):
    """A seat's socket (see the module): its view pushed, its moves taken, on one
    WebSocket; the seat's token in the Authorization header."""
    listener = Listener("view", game_id, player(game_id), bearer())
    return open_socket(listener, client_address())


FRAMINGS["socket"] = (SocketStream, SocketProtocol)  # handed between processes as it is
