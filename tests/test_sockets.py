"""A seat's socket (a WebSocket, ``referee.sockets``) on a real `referee serve` with two worker
processes: it opens with the 101 handshake and the seat's view, exactly as the game's GET
gives it; a move sent on it is answered with its report and pushed to both seats, each its
own view (R21); a key sent twice moves once; a refused message names the ruling or field and
changes nothing, and the socket goes on; a frame the protocol forbids closes it with its
close code, and nothing is made of it; a handshake that is not one, or not the seat's, is
refused in the API's error format, and a server that cannot hold sockets says so; a token
that no longer holds the seat loses its socket; a reconnection resumes from its
Last-Event-ID; a move reaches the other worker's seats, socket or stream; a seat's
socket carries the same messages whatever the opponent hides; and every rule set's game is
played on its seats' sockets."""

from __future__ import annotations

import array
import base64
import contextlib
import http.client
import json
import os
import signal
import socket
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from api_support import assert_errors, squares_in_text, table_in_play
from apiclient import Api, FlaskTransport, TableGame, against_computers, open_table
from browser_support import RefereeHere
from conftest import LiveServer
from helpers import IDLE_SQUARES, QUIET
from process_support import workers_of
from rule_set_tables import RULES
from rule_set_tables import table_in_play as rule_set_table_in_play
from socket_support import SeatSocket, server_frames
from stream_support import EventStream, holder_of
from test_streams import MASKED, move_through, ship_squares, twin_fleet, twin_games

from referee import create_app, service, sockets, streams
from referee.service import clocks
from referee.sockets import MAX_MESSAGE
from referee.states import replayed, states_of
from referee.store import Store
from referee.websocket import (
    BINARY,
    CONTINUATION,
    PING,
    PONG,
    TEXT,
    accept_key,
    client_frame,
    close_frame,
)

IDLE = {"weapon": "salvo", "at": IDLE_SQUARES}
OTHER_IDLE = {"weapon": "salvo", "at": IDLE_SQUARES[:2]}  # another move, also clear of ships
HEARD_WITHIN_S = 5  # generous: a push comes in milliseconds


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("sockets") / "sockets.db", workers=2).start()
    yield live
    live.stop()


@pytest.fixture
def held():
    """Every socket and stream a test opens, closed after it (a process holds only so many
    of one address's, ``streams.STREAMS_PER_CLIENT``)."""
    opened: list = []
    yield opened
    for each in opened:
        each.close()


def processes(server) -> list[int]:
    """The serving processes: the first and the worker it starts (waited for)."""
    deadline = time.monotonic() + 30
    while not workers_of(server.process.pid):
        assert time.monotonic() < deadline, "the second worker did not start"
        time.sleep(0.1)
    return [server.process.pid, *workers_of(server.process.pid)]


def bearer(table: TableGame, seat: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {table.tokens[seat]}"}


def upgrade(path: str, headers: dict[str, str | None] | None = None) -> tuple[bytes, str]:
    """A WebSocket handshake's request, its key, with ``headers`` added to (or, None, taken
    from) a well-formed one's."""
    key = base64.b64encode(os.urandom(16)).decode()
    fields: dict[str, str | None] = {
        "Host": "127.0.0.1", "Upgrade": "websocket", "Connection": "Upgrade",
        "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13", **(headers or {})}
    lines = [f"GET {path} HTTP/1.1", *(f"{k}: {v}" for k, v in fields.items() if v is not None)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode(), key


def socket_of(server, table: TableGame, seat: str, held: list, **headers: str) -> SeatSocket:
    """The seat's socket, opened (101) with its token and ``headers``."""
    request, _ = upgrade(table.path("/socket"), {**bearer(table, seat), **headers})
    sock = SeatSocket(server.port, table.path("/socket"), request=request)
    held.append(sock)
    assert sock.status == 101, (sock.status, sock.body[:300])
    return sock


def placed(server, held: list, opener, want) -> tuple[object, int]:
    """A connection ``opener()`` makes, opened again until the process holding it passes
    ``want``; it and its holder."""
    serving = processes(server)
    for _ in range(200):
        connection = opener()
        holder = holder_of(connection.sock, serving)
        if holder is not None and want(holder):
            held.append(connection)
            return connection, holder
        connection.close()
    raise AssertionError("no connection reached the process wanted")


def placed_socket(server, held: list, table: TableGame, seat: str, want=lambda _: True
                  ) -> tuple[SeatSocket, int]:
    """The seat's socket, held by a process that passes ``want``; and that process."""
    path, headers = table.path("/socket"), bearer(table, seat)
    sock, holder = placed(server, held, lambda: SeatSocket(server.port, path, headers), want)
    assert sock.status == 101, sock.body[:300]
    return sock, holder


def turn(table: TableGame) -> str:
    return table.view("red")["turn"]


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


def version_of(table: TableGame) -> int:
    return table.view("red")["version"]


def view_at(sock: SeatSocket, version: int, after: int = 0) -> dict | None:
    """The first view message at ``version`` or later, waited for."""
    return sock.wait_for(lambda m: m.get("event") == "view" and m["id"] >= version,
                         HEARD_WITHIN_S, after)


def assert_open(sock: SeatSocket) -> None:
    sock.wait_for(lambda m: False, 0.05)  # take whatever came meanwhile
    assert not sock.closed and sock.close_code is None, sock.close_code


# -- opening ---------------------------------------------------------------------------------

def test_a_seats_socket_opens_with_the_handshake_and_the_seats_view(server, held):
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    for seat in ("red", "blue"):
        request, key = upgrade(table.path("/socket"), bearer(table, seat))
        sock = SeatSocket(server.port, table.path("/socket"), request=request)
        held.append(sock)
        assert sock.status == 101, sock.body[:300]
        assert sock.headers["upgrade"].lower() == "websocket"
        assert "upgrade" in sock.headers["connection"].lower()
        assert sock.headers["sec-websocket-accept"] == accept_key(key)
        assert "content-length" not in sock.headers  # a 101 has no body
        opening = sock.wait_for("view", HEARD_WITHIN_S)
        assert opening is not None, f"no opening view (closed: {sock.close_code})"
        assert sock.messages[0] is opening  # the first message
        assert set(opening) == {"event", "id", "data"}
        view = table.view(seat)
        assert opening["data"] == view  # the seat's own view, exactly (R21)
        assert opening["id"] == view["version"] and view["you"] == seat


# -- moves -----------------------------------------------------------------------------------

def test_a_move_on_a_seats_socket_is_answered_and_pushed_to_both_seats(server, held):
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    mover = turn(table)
    sockets = {seat: socket_of(server, table, seat, held) for seat in ("red", "blue")}
    before = version_of(table)
    for sock in sockets.values():
        assert view_at(sock, before) is not None
    answer = sockets[mover].move(IDLE)
    assert answer["event"] == "report" and answer["status"] == 201, answer
    assert answer["key"] is None
    report = answer["data"]
    assert report["by"] == mover and isinstance(report["n"], int)
    for seat, sock in sockets.items():
        pushed = view_at(sock, before + 1, after=1)
        assert pushed is not None, f"{seat}'s socket heard nothing of the move"
        view = table.view(seat)
        assert pushed["id"] == pushed["data"]["version"] == view["version"] == before + 1
        assert pushed["data"] == view  # each seat its own view, exactly (R21)
        assert pushed["data"]["reports"][-1]["n"] == report["n"]
    assert table.view(mover)["reports"][-1] == report  # the mover's own copy
    assert table.view(other(mover))["turn"] == other(mover)
    assert [m["event"] for m in sockets[other(mover)].messages] == ["view", "view"]


def test_a_move_made_on_a_socket_reaches_the_servers_log_within_a_sweep(server, held):
    """The hub's loop keeps its moves' log lines and writes them every second
    (``service.keep_move_lines``): a socket's move is in the server's log soon after, as a
    posted one is at once, and never lost."""
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    mover = turn(table)
    answer = socket_of(server, table, mover, held).move(IDLE)
    assert answer["status"] == 201, answer
    line = f"game {table.id}: move ({mover})"
    deadline = time.monotonic() + 5
    while line not in server.logs():
        assert time.monotonic() < deadline, "the socket's move never reached the log"
        time.sleep(0.1)


def test_the_movers_own_view_comes_in_the_one_write_with_his_moves_answer(server, held):
    """The mover's socket is sent his view at the version his move made in the same write as
    the move's answer: his phone reads both at once, and is pushed that version no second
    time; the other seat's view is pushed as ever (R21: ``ALIGN_S`` after the change, whatever
    building the mover's view took)."""
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    mover = turn(table)
    sockets = {seat: socket_of(server, table, seat, held) for seat in (mover, other(mover))}
    before = version_of(table)
    for sock in sockets.values():
        assert view_at(sock, before) is not None
    mine = sockets[mover]
    answer = mine.move(IDLE)
    assert answer["event"] == "report" and answer["status"] == 201, answer
    at = mine.messages.index(answer)
    assert mine.wait_for("view", HEARD_WITHIN_S, after=at + 1) is not None
    view = mine.messages[at + 1]
    assert view["event"] == "view" and view["id"] == before + 1, mine.messages
    assert view["data"] == table.view(mover)
    assert mine.read_of[at + 1] == mine.read_of[at], "his view came in a write of its own"
    assert view_at(sockets[other(mover)], before + 1, after=1) is not None
    assert mine.wait_for("view", 0.5, after=at + 2) is None  # nothing pushed again
    assert [m["event"] for m in mine.messages] == ["view", "report", "view"]


def test_a_move_sent_twice_with_one_key_is_made_once_and_answered_alike(server, held):
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    mover = turn(table)
    sock = socket_of(server, table, mover, held)
    before = version_of(table)
    first = sock.move(IDLE, key="salvo-1")
    assert first["event"] == "report" and first["status"] == 201 and first["key"] == "salvo-1"
    assert view_at(sock, before + 1) is not None
    again = sock.move(IDLE, key="salvo-1")  # not his turn now: the first report again
    assert again == first
    assert version_of(table) == before + 1
    # the route knows the socket's key, and answers it with the same report
    status, body, _ = table.as_seat(mover, "POST", "/moves", IDLE,
                                    headers={"Idempotency-Key": "salvo-1"})
    assert (status, body) == (201, first["data"])
    reused = sock.move(OTHER_IDLE, key="salvo-1")  # the key of another move
    assert reused["event"] == "refused" and reused["key"] == "salvo-1"
    assert_errors(reused["status"], reused["data"], 422, field="Idempotency-Key")
    assert version_of(table) == before + 1
    assert_open(sock)
    assert [m["id"] for m in sock.views()] == [before, before + 1]  # no version made twice


REFUSED = [  # what is sent, the status, and the ruling or field the refusal names
    (b"{not json", 400, {"field": "message"}),
    (b"[1, 2]", 400, {"field": "message"}),
    (b'"a move"', 400, {"field": "message"}),
    (json.dumps({"move": IDLE, "colour": 1}).encode(), 400, {"field": "colour"}),
    (json.dumps({"move": [IDLE]}).encode(), 400, {"field": "move"}),
    (json.dumps({"key": "no-move"}).encode(), 400, {"field": "move"}),
    (json.dumps({"move": IDLE, "key": 5}).encode(), 400, {"field": "key"}),
    # a key of 1 to 200 characters, refused as the route refuses its header
    (json.dumps({"move": IDLE, "key": ""}).encode(), 400, {"field": "key"}),
    (json.dumps({"move": IDLE, "key": "k" * 201}).encode(), 400, {"field": "key"}),
]


def test_a_refused_message_names_what_is_wrong_changes_nothing_and_the_socket_goes_on(
        server, held):
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    mover = turn(table)
    sockets = {seat: socket_of(server, table, seat, held) for seat in ("red", "blue")}
    before = version_of(table)
    out_of_turn = sockets[other(mover)].move(IDLE, key="early")
    assert out_of_turn["event"] == "refused" and out_of_turn["key"] == "early"
    assert_errors(out_of_turn["status"], out_of_turn["data"], 409, rule="R14")
    sock = sockets[mover]
    for sent, status, names in REFUSED:
        after = len(sock.messages)
        sock.send(sent)
        answer = sock.wait_for(lambda m: m.get("event") in ("report", "refused"),
                               HEARD_WITHIN_S, after)
        assert answer is not None, (sent, sock.close_code)
        assert answer["event"] == "refused", (sent, answer)
        assert_errors(answer["status"], answer["data"], status, **names)
        assert_open(sock)
    assert version_of(table) == before
    for seat, each in sockets.items():
        assert [m["id"] for m in each.views()] == [before], seat  # nothing pushed
    made = sock.move(IDLE)  # the socket goes on
    assert made["event"] == "report" and made["status"] == 201, made
    assert version_of(table) == before + 1


# -- the protocol ----------------------------------------------------------------------------

def unmasked(payload: bytes) -> bytes:
    """A text frame as only a server may send it."""
    assert len(payload) < 126
    return bytes((0x80 | TEXT, len(payload))) + payload


def reserved_bits(payload: bytes) -> bytes:
    data = bytearray(client_frame(TEXT, payload))
    data[0] |= 0x40  # RSV1: no extension was agreed
    return bytes(data)


def too_big(payload: bytes) -> bytes:
    """The head of a frame announcing more than a message may hold; its payload never
    comes (the socket is closed on the length alone)."""
    return bytes((0x80 | TEXT, 0x80 | 127)) + (MAX_MESSAGE + 1).to_bytes(8, "big") + os.urandom(4)


VIOLATIONS = {
    "binary": (lambda payload: client_frame(BINARY, payload), 1003),
    "unmasked": (unmasked, 1002),
    "too-big": (too_big, 1009),
    "reserved-bits": (reserved_bits, 1002),
    "not-utf-8": (lambda payload: client_frame(TEXT, b"\xff" + payload), 1007),
}


@pytest.mark.parametrize("violation", VIOLATIONS)
def test_a_frame_the_protocol_forbids_closes_the_socket_and_nothing_is_made(
        server, held, violation):
    build, code = VIOLATIONS[violation]
    assert MAX_MESSAGE <= 64 * 1024
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    mover = turn(table)
    sock = socket_of(server, table, mover, held)
    before = version_of(table)
    assert view_at(sock, before) is not None
    sock.send_raw(build(json.dumps({"move": IDLE}).encode()))  # a move, were it well framed
    assert sock.wait_closed(HEARD_WITHIN_S) == code
    assert sock.closed
    assert [m["event"] for m in sock.messages] == ["view"]
    assert version_of(table) == before
    assert turn(table) == mover


def resident_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def test_a_client_that_reads_none_of_its_answers_is_read_no_further_until_it_does(
        server, held):
    """A client that sends and never reads: once what waits for it passes the socket's
    high-water mark, the hub stops reading its messages, so its answers pile up no higher
    in the server (what it sends waits in the kernel's buffers); once it reads, every
    message it sent is answered, in order, none lost."""
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    sock, holder = placed_socket(server, held, table, "red")
    count = 100_000  # answered all at once, some 17 MB of answers would wait in the server
    refused = b"".join(client_frame(TEXT, b'{"colour":1}') for _ in range(count))
    before = resident_mb(holder)
    sender = threading.Thread(target=sock.sock.sendall, args=(refused,), daemon=True)
    sender.start()
    time.sleep(3)  # the hub has read what it will, and answered it (within SEND_TIMEOUT_S)
    grown = resident_mb(holder) - before
    assert grown < 4, f"the server held {grown:.0f} MB more for a client that reads nothing"
    answered = 0
    while answered < count:
        assert sock.wait_for(lambda _: True, HEARD_WITHIN_S, len(sock.messages)) \
            is not None or len(sock.messages) > answered + 1, f"{answered} of {count} answered"
        answered = len(sock.messages) - 1  # less the opening view
    sender.join(HEARD_WITHIN_S)
    assert [m["data"]["errors"][0]["field"] for m in sock.messages[1:]] == ["colour"] * count


def raw_frames_until(sock: SeatSocket, opcode: int, within: float) -> list[tuple[int, bytes]]:
    """The server's frames, read straight off the socket (``SeatSocket`` keeps no pong), up
    to the first of ``opcode``; its JSON messages kept as ``SeatSocket`` keeps them."""
    frames: list[tuple[int, bytes]] = []
    deadline = time.monotonic() + within
    while True:
        for op, payload in server_frames(sock.buffer):
            frames.append((op, payload))
            if op == TEXT:
                sock.messages.append(json.loads(payload))
        if any(op == opcode for op, _ in frames):
            return frames
        left = deadline - time.monotonic()
        assert left > 0, f"no frame {opcode} came: {frames}"
        sock.sock.settimeout(left)
        data = sock.sock.recv(65536)
        assert data, f"the socket closed: {frames}"
        sock.buffer += data


def test_a_ping_is_answered_with_its_pong_and_a_fragmented_move_is_made(server, held):
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    mover = turn(table)
    sock = socket_of(server, table, mover, held)
    before = version_of(table)
    assert view_at(sock, before) is not None
    sock.send_raw(client_frame(PING, b"are you there?"))
    assert (PONG, b"are you there?") in raw_frames_until(sock, PONG, HEARD_WITHIN_S)
    sock.send_raw(client_frame(PONG, b"unasked"))  # an unasked pong is let be
    # one move in three fragments, a ping between them (RFC 6455 5.4)
    text = json.dumps({"move": IDLE, "key": "in-pieces"}).encode()
    sock.send_raw(client_frame(TEXT, text[:10], fin=False))
    sock.send_raw(client_frame(CONTINUATION, text[10:20], fin=False))
    sock.send_raw(client_frame(PING, b"between"))
    sock.send_raw(client_frame(CONTINUATION, text[20:]))
    frames = raw_frames_until(sock, PONG, HEARD_WITHIN_S)
    assert (PONG, b"between") in frames
    answer = sock.wait_for(lambda m: m.get("event") in ("report", "refused"), HEARD_WITHIN_S)
    assert answer is not None and answer["event"] == "report", answer
    assert answer["key"] == "in-pieces" and answer["status"] == 201
    assert version_of(table) == before + 1
    assert_open(sock)


# -- the handshake refused -------------------------------------------------------------------

def refused_handshake(server, path: str, headers: dict[str, str | None]) -> SeatSocket:
    request, _ = upgrade(path, headers)
    sock = SeatSocket(server.port, path, request=request)
    assert sock.status != 101, "the socket was opened"
    assert sock.headers.get("content-type", "").startswith("application/json"), sock.headers
    return sock


def test_a_handshake_that_is_not_one_or_not_the_seats_is_refused_naming_why(server, held):
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    elsewhere = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    path = table.path("/socket")
    cases = [  # the headers changed, the status, what the refusal names
        ({}, 401, {"field": "Authorization"}),
        ({**bearer(table, "red"), "Sec-WebSocket-Version": "8"}, 426,
         {"field": "Sec-WebSocket-Version"}),
        ({**bearer(table, "red"), "Sec-WebSocket-Version": None}, 426,
         {"field": "Sec-WebSocket-Version"}),
        ({**bearer(table, "red"), "Sec-WebSocket-Key": "not a key"}, 400,
         {"field": "Sec-WebSocket-Key"}),
        ({**bearer(table, "red"), "Sec-WebSocket-Key": base64.b64encode(b"x" * 17).decode()},
         400, {"field": "Sec-WebSocket-Key"}),
        ({**bearer(table, "red"), "Sec-WebSocket-Key": None}, 400,
         {"field": "Sec-WebSocket-Key"}),
        (bearer(elsewhere, "red"), 403, {}),
    ]
    for headers, status, names in cases:
        sock = refused_handshake(server, path, headers)
        held.append(sock)
        assert_errors(sock.status, sock.refusal(), status, **names)
        if status == 426:
            assert sock.headers.get("sec-websocket-version") == "13", sock.headers
    # a plain GET, no Upgrade asked for
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", path, headers=bearer(table, "red"))
    response = connection.getresponse()
    assert_errors(response.status, json.loads(response.read()), 400, field="Upgrade")
    connection.close()


def test_a_server_that_cannot_hold_sockets_refuses_the_handshake_naming_the_socket(tmp_path):
    """Under Flask's test client (or another WSGI server) there is no hub: a well-formed
    handshake is answered 503, naming the socket (open the stream and post moves)."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "r.db"),
                      "PUBLIC_URL": "http://localhost"})
    table = open_table(Api(FlaskTransport(app.test_client())))
    request, _ = upgrade(table.path("/socket"), bearer(table, "red"))
    headers = dict(line.split(": ", 1)
                   for line in request.decode().split("\r\n")[1:] if ": " in line)
    response = app.test_client().get(table.path("/socket"), headers=headers)
    assert_errors(response.status_code, response.get_json(), 503, field="socket")
    plain = app.test_client().get(table.path("/socket"), headers=bearer(table, "red"))
    assert_errors(plain.status_code, plain.get_json(), 400, field="Upgrade")


# -- seats and reconnections -----------------------------------------------------------------

def test_a_seat_moved_to_another_phone_ends_the_old_phones_socket(server, held):
    """R24: once the seat's recovery code moves it to another phone, the old token's socket
    is closed: by the push that finds the token no longer holds the seat, or, if a move the
    old phone sends comes first, by that move's refusal (401 or 403, then close 1008).
    Nothing it sends is made, and the old token opens no other socket. Both seats' sockets
    held by one process: their pushes leave ``ALIGN_S`` after the change, so the move mostly
    comes first; the game is played again until it has once."""
    closings = []
    for _ in range(5):
        table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
        codes = table.recovery_codes
        mover = turn(table)
        old_token = table.tokens[mover]
        old, by = placed_socket(server, held, table, mover)
        placed_socket(server, held, table, other(mover), by.__eq__)
        before = version_of(table)
        assert view_at(old, before) is not None
        status, recovered, _ = server.api().call(
            "POST", table.path(f"/seats/{mover}/recover"), {"recovery_code": codes[mover]})
        assert status == 200, recovered
        with contextlib.suppress(OSError):  # closed already
            old.send({"move": IDLE})  # the seat's turn: a legal move, were the token his
        code = old.wait_closed(HEARD_WITHIN_S)
        assert old.closed, "the old token's socket was left open"
        answers = [m for m in old.messages if m.get("event") in ("report", "refused")]
        if answers:  # the move came first: refused, and the socket ends
            assert [a["event"] for a in answers] == ["refused"], answers
            assert_errors(answers[0]["status"], answers[0]["data"], answers[0]["status"])
            assert answers[0]["status"] in (401, 403), answers
            assert code == 1008, code
            closings.append("refused")
        else:  # the push came first
            assert code == 1008, code
            closings.append("pushed")
        assert [m["id"] for m in old.views()] == [before]
        table.tokens[mover] = recovered["token"]
        assert version_of(table) == before and turn(table) == mover  # nothing made
        again = refused_handshake(server, table.path("/socket"),
                                  {"Authorization": f"Bearer {old_token}"})  # opens no other
        held.append(again)
        assert_errors(again.status, again.refusal(), 401)
        if "refused" in closings:
            break
    assert "refused" in closings, f"the old phone's move never came first: {closings}"


def test_a_reconnected_socket_resumes_from_its_last_event_id(server, held):
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    first = socket_of(server, table, "red", held)
    had = first.wait_for("view", HEARD_WITHIN_S)
    assert had is not None
    first.close()  # a phone that lost its connection
    current = socket_of(server, table, "red", held, **{"Last-Event-ID": str(had["id"])})
    report, _ = move_through(server, table, turn(table), not_by=None)
    pushed = current.wait_for("view", HEARD_WITHIN_S)
    assert pushed is not None
    assert pushed["id"] == had["id"] + 1, "the opening view it had was sent again"
    assert pushed["data"] == table.view("red")
    assert pushed["data"]["reports"][-1]["n"] == report["n"]
    behind = socket_of(server, table, "red", held, **{"Last-Event-ID": str(had["id"])})
    caught_up = behind.wait_for("view", HEARD_WITHIN_S)  # at once: nothing else has moved
    assert caught_up is not None and caught_up["id"] == had["id"] + 1
    assert caught_up["data"] == table.view("red")


# -- two workers -----------------------------------------------------------------------------

def test_a_move_reaches_the_seats_held_by_the_other_worker_socket_or_stream(server, held):
    """A move made on a socket one worker holds reaches the opponent's stream the other
    worker holds; a move posted through one worker reaches a socket the other holds."""
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    mover = turn(table)
    before = version_of(table)
    sock, by = placed_socket(server, held, table, mover)

    def stream() -> EventStream:
        opened = EventStream(server.port, table.path("/stream"), bearer(table, other(mover)))
        assert opened.head() == 200
        return opened

    listener, _ = placed(server, held, stream, lambda holder: holder != by)
    assert listener.wait_for("view", HEARD_WITHIN_S) is not None
    answer = sock.move(IDLE)
    assert answer["event"] == "report" and answer["status"] == 201, answer
    pushed = listener.version("view", before + 1, HEARD_WITHIN_S)
    assert pushed is not None, "the socket's move did not reach the other worker's stream"
    assert int(pushed.id) == before + 1
    assert pushed.document() == table.view(other(mover))
    assert pushed.document()["reports"][-1]["n"] == answer["data"]["n"]
    # the other way: a move posted through one worker, heard on the other's socket
    mover = other(mover)
    sock, by = placed_socket(server, held, table, other(mover))
    assert view_at(sock, before + 1) is not None
    report, _ = move_through(server, table, mover, not_by=by)
    heard = view_at(sock, before + 2, after=1)
    assert heard is not None, "the posted move did not reach the other worker's socket"
    assert heard["id"] == before + 2 and heard["data"] == table.view(other(mover))
    assert heard["data"]["reports"][-1]["n"] == report["n"]


# -- R21 -------------------------------------------------------------------------------------

def masked(message: dict) -> str:
    """A message as another game alike would send it: its game's id, the fingerprints and
    salts of its commitments and its clock times masked (as ``test_streams`` masks)."""
    return MASKED.sub(r'"\1":"*"', json.dumps(message, separators=(",", ":")))


def test_a_seats_socket_carries_the_same_messages_whatever_the_opponent_hides(server, held):
    """Two games alike but for where one of Blue's ships lies (its twin, clear of every
    move), each seat moving on its own socket: Red's socket carries the very same messages,
    move after move, in both, and never a square of where that ship lies in the twin; Blue's
    own socket does show his own ship there."""
    twin, _ = twin_fleet(11)
    differ = ship_squares(twin) - ship_squares(QUIET)
    assert differ and not differ & set(IDLE_SQUARES)
    api = server.api()
    games: list[TableGame] = twin_games(api, twin)
    sockets: list[dict[str, SeatSocket]] = [
        {seat: socket_of(server, table, seat, held) for seat in ("red", "blue")}
        for table in games]
    steps: list[list[list[str]]] = [[], []]  # each game's: each step's messages to Red
    seen = [0, 0]
    for step in range(7):
        for n, (table, seats) in enumerate(zip(games, sockets, strict=True)):
            version = version_of(table)
            if step:  # the opening alone at step 0
                answer = seats[turn(table)].move(IDLE, key=f"step-{step}")
                assert answer["event"] == "report", answer
                version += 1
            for sock in seats.values():
                assert view_at(sock, version) is not None, "a push is missing"
            red = seats["red"]
            red.wait_for(lambda m: False, 0.05)  # anything else that came with it
            assert red.views()[-1]["data"] == table.view("red")
            # in each step, the order in which a report and a view come is timing, not R21
            steps[n].append(sorted(masked(m) for m in red.messages[seen[n]:]))
            seen[n] = len(red.messages)
    assert steps[0] == steps[1]
    assert sum(len(step) for step in steps[0]) == 10  # the opening, 6 views, Red's 3 reports
    for seats in sockets:
        text = json.dumps(seats["red"].messages)
        assert not squares_in_text(text) & differ
    assert squares_in_text(json.dumps(sockets[1]["blue"].messages)) & differ  # the scan sees



def test_every_games_sockets_are_gathered_in_one_process_whichever_took_their_handshakes(
        server, held):
    """With two worker processes the kernel gives each new connection to either; a seat's
    socket is then handed (its descriptor, over the processes' hands beside the database
    file) to the one process that gathers every game's sockets (the first hand by name), so
    that a move on one seat's socket is pushed to the other's by the process that made it,
    and every socket's move is made where the referee's code is warm. Both seats' sockets of
    six games all end in that process (were each game's taken where its handshake was, all
    twelve would share one once in 2,048 times), and moves go on as before."""
    serving = processes(server)
    hands = every_hand(server, serving)
    gatherer = int(gathering_hand(hands).split("-")[0])
    for _ in range(6):
        table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
        sockets = {seat: socket_of(server, table, seat, held) for seat in ("red", "blue")}
        for sock in sockets.values():
            assert sock.wait_for("view", HEARD_WITHIN_S) is not None  # adopted by now
        holders = {seat: holder_of(sock.sock, serving) for seat, sock in sockets.items()}
        assert holders == {"red": gatherer, "blue": gatherer}, (holders, serving, sorted(
            p.name for p in hands.iterdir()))
        mover = turn(table)
        before = version_of(table)
        assert sockets[mover].move(IDLE)["status"] == 201
        pushed = sockets[other(mover)].wait_for(
            lambda m, was=before: m.get("event") == "view" and m["id"] > was, HEARD_WITHIN_S)
        assert pushed is not None and pushed["data"] == table.view(other(mover))


def every_hand(server, serving: list[int]) -> Path:
    """The folder of the processes' hands, once every serving process has opened its own."""
    hands = Path(f"{server.database}.hands")
    deadline = time.monotonic() + 30
    while len(list(hands.iterdir()) if hands.exists() else []) < len(serving):
        assert time.monotonic() < deadline, "not every process opened its hand"
        time.sleep(0.1)
    return hands


def gathering_hand(hands: Path) -> str:
    """The hand (its process's origin, ``pid-token``) that gathers every game's sockets, as
    ``Hub.gatherer`` picks it: the first by name."""
    return sorted(p.name for p in hands.iterdir())[0]


def test_a_socket_waits_for_room_in_a_full_hand_and_is_still_gathered(server, held):
    """A hand holds only a few connections until its process's loop takes them (the
    system's ``net.unix.max_dgram_qlen``), and a burst of handshakes fills it: a league's
    600 phones opening at once left one socket in ten where its handshake was taken, and
    their games' moves were pushed across processes. A socket that finds the gathering
    process's hand full waits for room, behind any other socket waiting for it: here the
    gathering process is stopped, its hand filled, and both seats' handshakes, answered by
    the other process meanwhile, still end in the gathering process, each with its opening
    view, once that process runs again."""
    serving = processes(server)
    hands = every_hand(server, serving)
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    owner = gathering_hand(hands)
    owner_pid = int(owner.split("-")[0])
    assert owner_pid in serving
    os.kill(owner_pid, signal.SIGSTOP)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as filler:
            filler.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                for _ in range(100_000):  # empty: skipped once taken
                    filler.sendto(b"", str(hands / owner))
        # both connections found first, then both handshakes sent at once: neither waits
        # for room longer than HAND_WAIT_S, however long finding a connection took
        connections = {seat: taken_elsewhere(server, serving, owner_pid)
                       for seat in ("red", "blue")}
        sockets = {seat: SeatSocket(server.port, table.path("/socket"),
                                    request=upgrade(table.path("/socket"),
                                                    bearer(table, seat))[0],
                                    connected=connection)
                   for seat, connection in connections.items()}
        held.extend(sockets.values())
        for sock in sockets.values():
            assert sock.status == 101, (sock.status, sock.body[:300])
        time.sleep(0.3)  # they wait for room meanwhile, one behind the other
    finally:
        os.kill(owner_pid, signal.SIGCONT)
    for seat, sock in sockets.items():
        sock.sock.settimeout(10)
        opening = sock.wait_for("view", HEARD_WITHIN_S)
        assert opening is not None and opening["data"] == table.view(seat)
        assert holder_of(sock.sock, serving) == owner_pid, seat


def taken_elsewhere(server, serving: list[int], stopped: int) -> socket.socket:
    """A connection the kernel gave a process that runs (it spreads them among the
    processes, SO_REUSEPORT): each connection's holder is looked at before anything is sent
    on it, and one left waiting for the stopped process is closed unsent, so that process
    finds no handshake of ours when it runs again (one would be a stream of the same token,
    and the oldest beyond ``STREAMS_PER_LISTENER`` is closed)."""
    for _ in range(40):
        connection = socket.create_connection(("127.0.0.1", server.port))
        holder, deadline = None, time.monotonic() + 0.5
        while holder is None and time.monotonic() < deadline:  # accepted by a running one
            holder = holder_of(connection, serving)
            time.sleep(0 if holder else 0.01)
        if holder is None or holder == stopped:
            connection.close()
            continue
        return connection
    raise AssertionError("no connection reached a process that runs")


def test_a_move_on_a_socket_against_the_computer_brings_the_computers_answer_pushed(
        server, held):
    """The computer's move after a player's move on his socket is made off the hub's loop (a
    mover thread: its thinking never holds up the process's other sockets) and pushed to the
    player's socket like any other. The server's clock (R25, every second) may take a due
    computer's move in the same milliseconds, and either makes it once: the game is played
    again, up to three times, until the mover has made it."""
    origins: list = []
    for _ in range(3):
        table = against_computers(server.api(), {"blue": "recruit"})
        game_id = table.id
        assert table.as_seat("red", "PUT", "/disposition", QUIET)[0] == 200
        assert table.as_seat("red", "POST", "/ready")[0] == 200
        assert table.view("red")["turn"] == "red"  # the computer answers at once, if it began
        sock = socket_of(server, table, "red", held)
        before = table.view("red")["version"]
        assert sock.move(IDLE)["status"] == 201
        answered = sock.wait_for(lambda m, was=before: m.get("event") == "view"
                                 and m["id"] >= was + 2 and m["data"]["turn"] == "red",
                                 HEARD_WITHIN_S)
        assert answered is not None, [m.get("id") for m in sock.views()]
        assert answered["data"] == table.view("red")
        assert answered["data"]["reports"][-1]["by"] == "blue"
        with contextlib.closing(sqlite3.connect(server.database)) as db:
            origins = [origin for (origin,) in db.execute(
                "select origin from changes where game_id = ? order by seq desc limit 2",
                [game_id])]
        if None not in origins:
            break
        sock.close()
    assert None not in origins, "the computer's move was left for the server's clock"


def test_a_game_busy_in_the_process_leaves_other_games_moves_made_at_once(tmp_path):
    """A move whose game another thread of the process holds (a PDF drawn under its lock)
    is made by a mover thread once the game is free, never by the hub's loop waiting for
    it: another game's move on another socket is made meanwhile."""
    with contextlib.ExitStack() as stack:
        referee = RefereeHere(tmp_path, "busy")
        referee.start()
        stack.callback(referee.stop)
        store = Store(referee.database)
        stack.callback(store.close)
        states = states_of(store)
        busy = table_in_play(referee.api, {"red": QUIET, "blue": QUIET})
        free = table_in_play(referee.api, {"red": QUIET, "blue": QUIET})
        while states.lock(free.id) is states.lock(busy.id):  # another of the locks
            free = table_in_play(referee.api, {"red": QUIET, "blue": QUIET})
        sockets = {}
        for table in (busy, free):
            mover = turn(table)
            request, _ = upgrade(table.path("/socket"), bearer(table, mover))
            sock = SeatSocket(referee.port, table.path("/socket"), request=request)
            stack.callback(sock.close)
            assert sock.status == 101 and sock.wait_for("view", HEARD_WITHIN_S)
            sockets[table.id] = sock
        with states.lock(busy.id):  # as a PDF being drawn holds it
            sockets[busy.id].send({"move": IDLE})
            time.sleep(0.3)  # the busy game's move is waiting for its lock
            sent = time.monotonic()
            assert sockets[free.id].move(IDLE)["status"] == 201
            assert time.monotonic() - sent < 2, "the other game's move waited"
            assert not [m for m in sockets[busy.id].messages if m.get("event") == "report"]
        made = sockets[busy.id].wait_for("report", HEARD_WITHIN_S)
        assert made is not None and made["status"] == 201


def hand_over(hand: str, header: dict | bytes) -> socket.socket:
    """A connection handed to a process over its hand, as another process hands one
    (``Hub.hand_to``), with what it is (``header``): our end of it."""
    ours, theirs = socket.socketpair()
    if isinstance(header, dict):
        header = json.dumps(header).encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
        sender.sendmsg([header + b"\n"], [(
            socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [theirs.fileno()]))], 0, hand)
    theirs.close()
    ours.settimeout(HEARD_WITHIN_S)
    return ours


def first_hand(server) -> str:
    hands = Path(f"{server.database}.hands")
    deadline = time.monotonic() + 30
    while not (hands.exists() and list(hands.iterdir())):
        assert time.monotonic() < deadline, "no process opened its hand"
        time.sleep(0.1)
    return str(sorted(hands.iterdir())[0])


def test_a_handed_socket_beyond_its_addresss_limit_is_closed_saying_so(server):
    """A process that gathers a game's sockets keeps its own limit of sockets from one
    address: a socket handed to it beyond that (its 101 sent by the process that took the
    handshake) gets a close saying why and to try again later (1013), not a connection
    dropped without a word; the ones it holds go on."""
    tables = [table_in_play(server.api(), {"red": QUIET, "blue": QUIET}) for _ in range(2)]
    hand = first_hand(server)
    held = []
    try:
        for table in tables:
            for seat in ("red", "blue"):
                for _ in range(streams.STREAMS_PER_LISTENER):
                    held.append(hand_over(hand, {
                        "listener": ["view", table.id, seat, table.tokens[seat]], "sent": 0,
                        "client": "192.0.2.7", "framing": "socket"}))
        assert len(held) == streams.STREAMS_PER_CLIENT
        for ours in held:  # each adopted: its view pushed
            assert ours.recv(2)[:1] == bytes([0x80 | TEXT])
        beyond = hand_over(hand, {
            "listener": ["view", tables[0].id, "red", tables[0].tokens["red"]], "sent": 0,
            "client": "192.0.2.7", "framing": "socket"})
        got = b""
        while chunk := beyond.recv(65536):
            got += chunk
        assert got == close_frame(1013, f"This address holds {streams.STREAMS_PER_CLIENT} "
                                        "streams already; close one, or poll"), got[:200]
        beyond.close()
    finally:
        for ours in held:
            ours.close()


def test_a_connection_handed_over_with_a_token_that_holds_no_seat_gets_nothing_of_the_game(
        server):
    """What comes over a process's hand is checked as a request is: malformed, it is closed
    and logged; a socket handed with a token that holds no seat of the game (forged: only a
    process of the referee's own user can reach the hands) gets no view, only its close
    (1008), and the process serves on."""
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    hand = first_hand(server)
    forged = {"listener": ["view", table.id, "red", "x" * 43], "sent": 0,
              "client": "192.0.2.1", "framing": "socket"}
    ends = [hand_over(hand, header) for header in (b"not json", {**forged, "framing": "nope"},
                                                   forged)]
    assert ends[0].recv(1024) == b"" and ends[1].recv(1024) == b""  # closed at once
    got = b""
    while chunk := ends[2].recv(65536):
        got += chunk
    assert got == close_frame(1008, "the token no longer holds the seat"), got[:200]
    held: list = []
    try:
        sock = socket_of(server, table, "red", held)
        assert sock.wait_for("view", HEARD_WITHIN_S) is not None
    finally:
        for each in held:
            each.close()


# -- every rule set --------------------------------------------------------------------------

@pytest.mark.parametrize("rules", RULES)
def test_every_rule_sets_game_is_played_on_its_seats_sockets_each_seat_pushed_its_own_view(
        server, held, rules):
    """The sockets serve every rule set through the one seam: a game of each, its moves
    (sealed orders, where the rules seal them) chosen by its own computer from the mover's
    view and sent on the mover's socket; each is answered with its report and pushed to
    every seat at the new version, its own view exactly as the game's GET gives it (R21)."""
    table = rule_set_table_in_play(server.api(), rules)
    sockets = {seat: SeatSocket(server.port, table.path("/socket"),
                                {"Authorization": f"Bearer {token}"})
               for seat, token in table.tokens.items()}
    held.extend(sockets.values())
    for seat, sock in sockets.items():
        assert sock.status == 101, (seat, sock.status, sock.body[:300])
    before, made = -1, 0
    while True:
        views = {seat: table.view(seat) for seat in sockets}
        version = views["red"]["version"]
        assert version > before  # the move is in the log
        for seat, sock in sockets.items():
            pushed = view_at(sock, version)
            assert pushed is not None, f"{seat}'s socket heard nothing of version {version}"
            assert pushed["id"] == views[seat]["version"] == version
            assert pushed["data"] == views[seat]  # each seat its own view, exactly (R21)
        if made == 12 or views["red"]["phase"] != "play":
            break
        mover = table.turn()
        answer = sockets[mover].move(table.computer(mover).move(views[mover]),
                                     key=f"{table.id}-{made}")
        assert answer["event"] == "report" and answer["status"] == 201, answer
        before, made = version, made + 1
    assert made == 12, f"{rules}: the game ended after {made} moves"


# -- a socket's move made on the state the process keeps --------------------------------------

def in_process_table(tmp_path) -> tuple[object, TableGame]:
    """An app under Flask's test client and a Naval War Game in play on it, for calling a
    socket's message handling (``sockets.message_answer``) directly."""
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "r.db"),
                      "PUBLIC_URL": "http://localhost"})
    return app, table_in_play(Api(FlaskTransport(app.test_client())),
                              {"red": QUIET, "blue": QUIET})


def answered(app, table: TableGame, seat: str, move: dict, key: str,
             token: str | None = None) -> tuple[dict, bool]:
    """A socket's message answered as the hub's loop answers it: the answer and whether the
    socket ends."""
    with app.app_context():
        store = app.extensions["referee.store"]()
        listener = streams.Listener("view", table.id, seat, token or table.tokens[seat])
        reply, end, _ = sockets.message_answer(
            store, listener, json.dumps({"move": move, "key": key}).encode(), computers=False)
        store.end_open_transaction()
    return json.loads(reply), end


def test_a_socket_move_on_a_state_another_process_moved_on_is_made_from_the_log(tmp_path):
    """A socket's move is made on the state this process keeps, with no query first; where
    another process has moved the game on (here: the state kept is put back a move), the
    refusal the old state gives is looked at again, and the move is made from the log."""
    app, table = in_process_table(tmp_path)
    first = turn(table)
    with app.app_context():
        store = app.extensions["referee.store"]()
        assert table.as_seat(first, "POST", "/moves", IDLE)[0] == 201
        behind = replayed(store, table.id)  # the game as a process that saw one move has it
        assert table.as_seat(other(first), "POST", "/moves", IDLE)[0] == 201
        states = states_of(store)
        states.forget(table.id)
        states._keep(table.id, behind, 1)  # noqa: SLF001  # as kept by that process
        assert states.current(store, table.id, kept=True).turn == other(first)
        at = behind.version  # the state kept is brought up to date in place
    reply, end = answered(app, table, first, IDLE, "again")
    assert (reply["event"], reply["status"], end) == ("report", 201, False), reply
    assert version_of(table) == at + 2 and turn(table) == other(first)


def test_a_move_the_rules_refuse_at_the_latest_version_costs_the_rules_once(tmp_path,
                                                                           monkeypatch):
    """A socket's move refused on the state this process keeps is made again only where the
    game has moved on since: refused at the store's latest version, the refusal stands as
    the rules gave it (naming its ruling), the rules having run once, not twice, so that a
    client sending refused moves costs them once each; nothing is made, and the seat's next
    move is made as ever. Where the game had moved on (the test above), or the key was seen
    before (``test_a_move_sent_twice_with_one_key_is_made_once_and_answered_alike``), the
    move is made again."""
    from referee.common.lifecycle import Lifecycle

    app, table = in_process_table(tmp_path)
    mover = turn(table)
    with app.app_context():  # the state kept, as on a server that has been playing it
        store = app.extensions["referee.store"]()
        states_of(store).current(store, table.id)
        store.end_open_transaction()
    before = version_of(table)
    runs: list[str] = []
    made = Lifecycle.move

    def counted(game, seat, document):
        runs.append(seat)
        return made(game, seat, document)

    monkeypatch.setattr(Lifecycle, "move", counted)
    reply, end = answered(app, table, mover, {"weapon": "salvo", "at": ["Z 99"]}, "bad")
    assert (reply["event"], reply["status"], end) == ("refused", 422, False), reply
    assert reply["data"]["errors"][0].get("rule"), reply
    assert runs == [mover] and version_of(table) == before
    reply, end = answered(app, table, mover, IDLE, "good")
    assert (reply["event"], reply["status"], end) == ("report", 201, False), reply
    assert version_of(table) == before + 1


def test_a_token_that_lost_its_seat_is_told_only_that_whatever_its_move(tmp_path):
    """R21, R24: a socket's token whose seat has moved to another phone is refused (401 or
    403, and its socket ends) whether its move is one the rules would refuse or one they
    would take: never what the rules say of the move, and nothing is made; the seat's new
    token then moves as ever."""
    app, table = in_process_table(tmp_path)
    mover = turn(table)
    old_token = table.tokens[mover]
    before = version_of(table)
    status, recovered, _ = table.api.call(
        "POST", table.path(f"/seats/{mover}/recover"),
        {"recovery_code": table.recovery_codes[mover]})
    assert status == 200, recovered
    illegal = {"weapon": "salvo", "at": ["Z 99"]}
    for n, move in enumerate((illegal, IDLE)):
        reply, end = answered(app, table, mover, move, f"old-{n}", token=old_token)
        assert reply["event"] == "refused" and reply["status"] in (401, 403), reply
        assert end, reply
        assert "Z 99" not in json.dumps(reply) and not squares_in_text(json.dumps(reply))
    table.tokens[mover] = recovered["token"]
    assert version_of(table) == before
    reply, end = answered(app, table, mover, IDLE, "new")
    assert (reply["event"], reply["status"], end) == ("report", 201, False), reply
    assert version_of(table) == before + 1


def test_a_move_that_leaves_no_computer_due_is_not_looked_at_again_for_one(tmp_path,
                                                                           monkeypatch):
    """After a socket's move the hub asks whether a computer owes the game a move: where
    the move's write found none due at its version (``clocks.computer_due_at``: None), the
    answer is no without asking the clocks again; against the computer, it owes one."""
    asked: list[str] = []
    to_move = clocks.computers_to_move
    monkeypatch.setattr(clocks, "computers_to_move",
                        lambda store, game_id, game: asked.append(game_id)
                        or to_move(store, game_id, game))
    app, table = in_process_table(tmp_path)
    mover = turn(table)
    assert answered(app, table, mover, IDLE, "k")[0]["status"] == 201
    with app.app_context():
        store = app.extensions["referee.store"]()
        asked.clear()
        assert service.computers_waiting(store, table.id) is False and asked == []
    computer = against_computers(table.api, {"blue": "recruit"})
    assert computer.as_seat("red", "PUT", "/disposition", QUIET)[0] == 200
    assert computer.as_seat("red", "POST", "/ready")[0] == 200
    assert turn(computer) == "red"  # the computer answers at once, if it began
    made = answered(app, computer, "red", IDLE, "k")[0]  # computers=False: none moves yet
    assert made["status"] == 201, made
    with app.app_context():
        store = app.extensions["referee.store"]()
        assert service.computers_waiting(store, computer.id) is True and asked


def test_a_key_sent_again_when_its_move_would_be_taken_again_gets_its_first_report(tmp_path):
    """A socket's move on the state kept looks its Idempotency-Key up inside its write: a
    key seen before, sent again when the same move is the seat's to make once more (his
    turn again), is answered with its first report and changes nothing, as over the API."""
    app, table = in_process_table(tmp_path)
    mover = turn(table)
    first, end = answered(app, table, mover, IDLE, "once")
    assert (first["event"], first["status"], end) == ("report", 201, False), first
    assert table.as_seat(other(mover), "POST", "/moves", IDLE)[0] == 201
    before = version_of(table)
    assert turn(table) == mover  # the same move is his to make again
    again, end = answered(app, table, mover, IDLE, "once")
    assert again == first and not end
    assert version_of(table) == before and turn(table) == mover
    made, _ = answered(app, table, mover, IDLE, "twice")
    assert made["status"] == 201 and version_of(table) == before + 1


def test_a_game_whose_key_was_found_seen_in_a_write_looks_its_keys_up_before_its_moves(
        tmp_path):
    """A key seen before, sent again when its move (or another) is legal once more, undoes
    the move made on the state kept, and the game is read again from the log: from then on
    the game's moves look their key up first (``States.keys_first``), so that old keys sent
    again and again, with their move or another, leave the state kept as it is."""
    app, table = in_process_table(tmp_path)
    mover = turn(table)
    assert answered(app, table, mover, IDLE, "once")[0]["status"] == 201
    assert table.as_seat(other(mover), "POST", "/moves", IDLE)[0] == 201
    listener = streams.Listener("view", table.id, mover, table.tokens[mover])
    another = {"weapon": "salvo", "at": IDLE_SQUARES[:2] + ["A 1"]}
    with app.app_context():
        store = app.extensions["referee.store"]()
        states = states_of(store)
        kept = states.current(store, table.id, kept=True)
        assert not states.keys_first(table.id)
        reply, end, held = sockets.message_answer(
            store, listener, json.dumps({"move": IDLE, "key": "once"}).encode(),
            computers=False)
        assert json.loads(reply)["status"] == 201 and not end and held is None
        assert states.current(store, table.id, kept=True) is not kept  # read again
        assert states.keys_first(table.id)
        kept = states.current(store, table.id, kept=True)
        for move in (IDLE, another, IDLE):
            reply, _, _ = sockets.message_answer(
                store, listener, json.dumps({"move": move, "key": "once"}).encode(),
                computers=False)
            assert json.loads(reply)["status"] == (201 if move is IDLE else 422), reply
            assert states.current(store, table.id, kept=True) is kept  # not read again
        store.end_open_transaction()
