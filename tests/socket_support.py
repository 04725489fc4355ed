"""A seat's socket (``referee.sockets``) as a client holds it: the WebSocket handshake, masked
frames sent, the server's frames read and its JSON messages kept in order. Plain sockets, so
that a test can also send what no well-behaved client would."""

from __future__ import annotations

import base64
import json
import os
import socket
import time

from stream_support import read_once

from referee.websocket import CLOSE, PING, PONG, TEXT, client_frame


def server_frames(buffer: bytearray) -> list[tuple[int, bytes]]:
    """The whole frames at the start of ``buffer`` (unmasked, as a server sends them), taken
    out of it."""
    frames = []
    while len(buffer) >= 2:
        opcode, n, at = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
        if n == 126:
            if len(buffer) < 4:
                break
            n, at = int.from_bytes(buffer[2:4], "big"), 4
        elif n == 127:
            if len(buffer) < 10:
                break
            n, at = int.from_bytes(buffer[2:10], "big"), 10
        if len(buffer) < at + n:
            break
        frames.append((opcode, bytes(buffer[at:at + n])))
        del buffer[:at + n]
    return frames


def handshake(path: str, headers: dict[str, str] | None = None) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
             *(f"{k}: {v}" for k, v in (headers or {}).items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class SeatSocket:
    """One socket: ``GET path`` upgraded, with ``headers`` (the seat's token)."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None, *,
                 timeout: float = 10, request: bytes | None = None,
                 receive_buffer: int | None = None,
                 connected: socket.socket | None = None) -> None:
        """``connected``: a connection to the server already open, its handshake not sent."""
        self.sock = connected or socket.socket()
        if receive_buffer:  # a client that reads nothing fills it sooner
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(timeout)
        if connected is None:
            self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(request or handshake(path, headers))
        head = b""
        while b"\r\n\r\n" not in head:
            data = self.sock.recv(65536)
            if not data:
                break
            head += data
        head, _, rest = head.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split()[1]) if status_line else 0
        self.headers = {k.strip().lower(): v.strip()
                        for k, _, v in (line.partition(":") for line in lines)}
        self.body = rest  # of a refusal: its JSON (if the server closed after it)
        self.buffer = bytearray(rest if self.status == 101 else b"")
        self.messages: list[dict] = []  # every JSON message received, in order
        self.reads = 0  # reads of the socket so far
        self.read_of: list[int] = []  # the read that brought each message (0: the handshake's)
        self.close_code: int | None = None
        self.closed = False

    def refusal(self) -> dict:
        """A refused handshake's JSON body, read to its Content-Length."""
        length = int(self.headers.get("content-length", "0"))
        while len(self.body) < length:
            data = self.sock.recv(65536)
            if not data:
                break
            self.body += data
        return json.loads(self.body[:length])

    def send(self, message: dict | bytes, opcode: int = TEXT) -> None:
        payload = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.sock.sendall(client_frame(opcode, payload))

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def _take(self, timeout: float) -> bool:
        """Read once (up to ``timeout`` s), unless whole frames are already waiting (they may
        have come with the handshake's head); False when nothing came or the socket ended."""
        if not self._parse():
            data = read_once(self.sock, timeout)
            if not data:
                self.closed = data is not None
                return False
            self.reads += 1
            self.buffer += data
            self._parse()
        return True

    def _parse(self) -> bool:
        """The whole frames in the buffer taken; whether there were any."""
        frames = server_frames(self.buffer)
        for opcode, payload in frames:
            if opcode == TEXT:
                self.messages.append(json.loads(payload))
                self.read_of.append(self.reads)
            elif opcode == PING:
                self.sock.sendall(client_frame(PONG, payload))
            elif opcode == CLOSE:
                self.close_code = int.from_bytes(payload[:2], "big") if payload else 1005
        return bool(frames)

    def wait_for(self, test, timeout: float = 10, after: int = 0) -> dict | None:
        """The first message at index ``after`` or later that passes ``test`` (an event's
        name, or a function of the message), waiting up to ``timeout`` s for it."""
        check = (lambda m: m.get("event") == test) if isinstance(test, str) else test
        end = time.monotonic() + timeout
        while True:
            for message in self.messages[after:]:
                if check(message):
                    return message
            left = end - time.monotonic()
            if left <= 0 or self.closed:
                return None
            self._take(left)

    def move(self, move: dict, key: str | None = None, timeout: float = 10) -> dict:
        """A move sent, and its answer (a report or a refusal)."""
        after = len(self.messages)
        self.send({"move": move, **({"key": key} if key else {})})
        answer = self.wait_for(lambda m: m.get("event") in ("report", "refused"), timeout,
                               after)
        assert answer is not None, f"no answer to the move (closed: {self.close_code})"
        return answer

    def views(self) -> list[dict]:
        return [m for m in self.messages if m.get("event") == "view"]

    def wait_closed(self, timeout: float = 10) -> int | None:
        end = time.monotonic() + timeout
        while not self.closed and time.monotonic() < end:
            self._take(end - time.monotonic())
        return self.close_code

    def close(self) -> None:
        self.sock.close()
