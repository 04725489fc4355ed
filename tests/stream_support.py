"""A stream read as a phone's browser reads one (Server-Sent Events over one HTTP/1.1
connection, chunked), each event kept with the moment it came and every byte kept for leak
scans; and which of a real server's processes holds a connection (/proc), so that a test can
send a move through one worker and listen through another."""

from __future__ import annotations

import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Event:
    id: str | None
    name: str
    data: str
    at: float  # time.monotonic() when its last byte came

    def document(self) -> dict:
        return json.loads(self.data)


def read_once(sock: socket.socket, timeout: float) -> bytes | None:
    """What one read of ``sock`` gets within ``timeout`` s: None if nothing came, b"" if the
    connection ended (closed or reset)."""
    sock.settimeout(max(0.01, timeout))
    try:
        return sock.recv(65536)
    except TimeoutError:
        return None
    except OSError:
        return b""


class EventStream:
    """One stream: ``GET path`` with ``headers``, from ``address`` (a loopback address of its
    own) if given; ``receive_buffer`` shrinks the socket's receive buffer (a client that reads
    nothing fills it sooner)."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None, *,
                 address: str | None = None, receive_buffer: int | None = None,
                 timeout: float = 10) -> None:
        self.sock = socket.socket()
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        if address:
            self.sock.bind((address, 0))
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Accept: text/event-stream",
                 *(f"{k}: {v}" for k, v in (headers or {}).items())]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.raw = b""  # every byte received, framing included
        self.body = b""  # the body, its chunks joined
        self.pending = b""  # body bytes not yet parsed into events
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.events: list[Event] = []
        self.closed = False
        self._unframed = b""

    def _take(self, timeout: float) -> bool:
        """Read once (up to ``timeout`` s); False when nothing came or the stream ended."""
        data = read_once(self.sock, timeout)
        if not data:
            self.closed = data is not None
            return False
        self.raw += data
        self._unframed += data
        self._parse()
        return True

    def _parse(self) -> None:
        if self.status is None:
            head, sep, rest = self._unframed.partition(b"\r\n\r\n")
            if not sep:
                return
            first, *lines = head.decode("latin-1").split("\r\n")
            self.status = int(first.split()[1])
            self.headers = {k.strip().lower(): v.strip()
                            for k, _, v in (line.partition(":") for line in lines)}
            self._unframed = rest
        if self.headers.get("transfer-encoding") == "chunked":
            while True:
                size_line, sep, rest = self._unframed.partition(b"\r\n")
                if not sep:
                    break
                size = int(size_line, 16)
                if len(rest) < size + 2:
                    break
                self.body += rest[:size]
                self.pending += rest[:size]
                self._unframed = rest[size + 2:]
                if size == 0:
                    self.closed = True
                    break
        else:
            self.body += self._unframed
            self.pending += self._unframed
            self._unframed = b""
        while b"\n\n" in self.pending:
            block, _, self.pending = self.pending.partition(b"\n\n")
            fields: dict[str, str] = {}
            for line in block.decode().split("\n"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")
            if "data" in fields:
                self.events.append(Event(fields.get("id"), fields.get("event", "message"),
                                         fields["data"], time.monotonic()))

    def head(self, within: float = 10) -> int:
        """The response's status, once its head has come."""
        deadline = time.monotonic() + within
        while self.status is None and not self.closed and time.monotonic() < deadline:
            self._take(deadline - time.monotonic())
        assert self.status is not None, self.raw[:300]
        return self.status

    def wait_for(self, name: str, within: float, after: int = 0) -> Event | None:
        """The first event named ``name`` among those after the ``after``-th, waiting up to
        ``within`` seconds for it; None if none came."""
        deadline = time.monotonic() + within
        while True:
            found = [e for e in self.events[after:] if e.name == name]
            if found:
                return found[0]
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                return None
            self._take(left)

    def version(self, name: str, version: int, within: float) -> Event | None:
        """The event named ``name`` whose id is ``version`` (or later), waiting up to
        ``within`` seconds for it; None if it did not come."""
        deadline = time.monotonic() + within
        while True:
            found = [e for e in self.events if e.name == name and int(e.id) >= version]
            if found:
                return found[0]
            left = deadline - time.monotonic()
            if left <= 0 or self.closed:
                return None
            self._take(left)

    def read_for(self, seconds: float) -> None:
        """Read whatever comes for ``seconds``."""
        deadline = time.monotonic() + seconds
        while not self.closed and time.monotonic() < deadline:
            self._take(deadline - time.monotonic())

    def named(self, name: str) -> list[Event]:
        return [e for e in self.events if e.name == name]

    def close(self) -> None:
        self.sock.close()


def _inodes(pid: int) -> set[str]:
    found = set()
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:["):
                found.add(target[8:-1])
    except OSError:
        pass
    return found


def holder_of(sock: socket.socket, pids: list[int]) -> int | None:
    """Which of a server's processes ``pids`` holds the server's end of ``sock`` (a loopback
    TCP connection), from /proc/net/tcp and each process's open files."""
    port = sock.getsockname()[1]
    server = sock.getpeername()[1]
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        local, remote = parts[1], parts[2]
        if int(local.split(":")[1], 16) == server and int(remote.split(":")[1], 16) == port:
            inode = parts[9]
            break
    if inode is None:
        return None
    for pid in pids:
        if inode in _inodes(pid):
            return pid
    return None
