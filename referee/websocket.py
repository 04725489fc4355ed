"""The WebSocket protocol's framing (RFC 6455), what a seat's socket (``referee.sockets``)
reads and writes: the handshake's accept key, a server's frames, and a reader of a client's
frames that refuses what the protocol or the referee's limits do not allow.

>>> accept_key("dGhlIHNhbXBsZSBub25jZQ==")  # the RFC's own example
's3pPLMBiTxaQ9kYGzzhZRbK+xOo='
>>> reader = FrameReader(max_message=64)
>>> reader.feed(client_frame(TEXT, b'{"move": {}}'))
[(1, b'{"move": {}}')]
>>> frame(TEXT, b"hi")
b'\\x81\\x02hi'
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os

CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
# close codes (RFC 6455, 7.4.1)
NORMAL, GOING_AWAY, PROTOCOL_ERROR, UNSUPPORTED = 1000, 1001, 1002, 1003
NOT_UTF8, POLICY, TOO_BIG = 1007, 1008, 1009
TRY_AGAIN_LATER = 1013  # RFC 6455's registry: the server is at a limit for now


class Refused(Exception):
    """What the client sent breaks the protocol or a limit: the connection closes with
    ``code`` and ``reason``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def valid_key(key: str | None) -> bool:
    """A client's Sec-WebSocket-Key: 16 random bytes in base64."""
    if not key or len(key) != 24:
        return False
    try:
        return len(base64.b64decode(key, validate=True)) == 16
    except (binascii.Error, ValueError):
        return False


def accept_key(key: str) -> str:
    """The server's Sec-WebSocket-Accept for a client's Sec-WebSocket-Key."""
    return base64.b64encode(hashlib.sha1(key.encode("ascii") + GUID).digest()).decode()


def frame(opcode: int, payload: bytes = b"") -> bytes:
    """One whole, unmasked frame, as a server sends it."""
    return frame_head(opcode, len(payload)) + payload


def frame_head(opcode: int, n: int) -> bytes:
    """The head of a whole, unmasked frame of ``n`` bytes of payload."""
    if n < 126:
        return bytes((0x80 | opcode, n))
    if n < 1 << 16:
        return bytes((0x80 | opcode, 126)) + n.to_bytes(2, "big")
    return bytes((0x80 | opcode, 127)) + n.to_bytes(8, "big")


def close_frame(code: int, reason: str = "") -> bytes:
    return frame(CLOSE, code.to_bytes(2, "big") + reason.encode()[:120])


def masked(mask: bytes, data: bytes) -> bytes:
    """``data`` XORed with the four-byte ``mask`` repeated (masking and unmasking alike)."""
    n = len(data)
    if not n:
        return data
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "little") ^ int.from_bytes(key, "little")).to_bytes(n, "little")


def client_frame(opcode: int, payload: bytes, *, fin: bool = True,
                 mask: bytes | None = None) -> bytes:
    """One frame as a client sends it (masked): for the referee's own tests and benches."""
    mask = os.urandom(4) if mask is None else mask
    n = len(payload)
    first = (0x80 if fin else 0) | opcode
    if n < 126:
        head = bytes((first, 0x80 | n))
    elif n < 1 << 16:
        head = bytes((first, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((first, 0x80 | 127)) + n.to_bytes(8, "big")
    return head + mask + masked(mask, payload)


class FrameReader:
    """A client's frames, fed as they come: ``feed`` returns each whole message (text or
    binary, its fragments joined) and each control frame, as (opcode, payload). It raises
    ``Refused`` for an unmasked frame, reserved bits, an unknown opcode, a fragmented or
    oversized control frame, a continuation of nothing, or a message past ``max_message``
    bytes (counted as its frames' lengths arrive, before their payloads do)."""

    def __init__(self, max_message: int) -> None:
        self.max_message = max_message
        self.buffer = bytearray()
        self.parts: list[bytes] = []
        self.opcode: int | None = None  # the message being put together from fragments
        self.size = 0

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        self.buffer += data
        out: list[tuple[int, bytes]] = []
        while True:
            taken = self._one()
            if taken is None:
                return out
            if taken[0] >= 0:
                out.append(taken)

    def _one(self) -> tuple[int, bytes] | None:
        """The next whole frame's message if it completes one, (-1, b"") for a fragment
        taken, None if the buffer holds no whole frame."""
        buffer = self.buffer
        if len(buffer) < 2:
            return None
        first, second = buffer[0], buffer[1]
        fin, opcode = first & 0x80, first & 0x0F
        if first & 0x70:
            raise Refused(PROTOCOL_ERROR, "reserved bits set")
        if not second & 0x80:
            raise Refused(PROTOCOL_ERROR, "a client's frames are masked")
        n, at = second & 0x7F, 2
        if n == 126:
            if len(buffer) < 4:
                return None
            n, at = int.from_bytes(buffer[2:4], "big"), 4
        elif n == 127:
            if len(buffer) < 10:
                return None
            n, at = int.from_bytes(buffer[2:10], "big"), 10
        control = opcode >= CLOSE
        if control and (not fin or n > 125):
            raise Refused(PROTOCOL_ERROR, "a control frame is whole and short")
        if opcode not in (CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG):
            raise Refused(PROTOCOL_ERROR, "unknown opcode")
        if not control:
            if (opcode == CONTINUATION) == (self.opcode is None):
                raise Refused(PROTOCOL_ERROR, "a fragment out of place")
            if self.size + n > self.max_message:
                raise Refused(TOO_BIG, f"a message is at most {self.max_message} bytes")
        end = at + 4 + n
        if len(buffer) < end:
            return None
        payload = masked(bytes(buffer[at:at + 4]), bytes(buffer[at + 4:end]))
        del buffer[:end]
        if control:
            return opcode, payload
        if opcode != CONTINUATION:
            self.opcode = opcode
        self.parts.append(payload)
        self.size += n
        if not fin:
            return -1, b""
        whole, kind = b"".join(self.parts), self.opcode
        self.parts, self.opcode, self.size = [], None, 0
        assert kind is not None
        return kind, whole
