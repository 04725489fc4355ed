"""The league night over streams, against boardgame.io's server on the same workload, in one
sitting: prints a table side by side; not a test.

Five runs, one after the other on this machine:

1. **The referee, on the seats' sockets**: `referee serve` as `make run` starts it (a worker
   process per core), 300 games and 600 phones, each holding its seat's socket
   (``GET .../socket``, a WebSocket: its views pushed, its moves sent on it, as boardgame.io's
   clients hold theirs); a player moves 1-4 s after his socket shows his turn. Timed: from the
   moment the mover sends his move until the opponent's phone has the view holding it
   (p50/p99), and the mover's round trip (until his move's report).
2. **boardgame.io**, straight after: its own server (``bench/peer/server.js``: Koa and
   socket.io, one Node process, games in memory) playing a mirror of the game
   (``bench/peer/game.js``: hidden fleets stripped by its ``playerView``), driven by
   ``bench/peer/league.js`` with the same league: 300 matches, 600 socket.io clients, each
   moving 1-4 s after its client shows its turn. Its npm packages are pinned in
   ``bench/peer/package-lock.json`` and installed here (``npm ci``), never by ``make run``.
3. **The referee, streaming**: the same league with each phone holding its seat's stream
   (``GET .../stream``, Server-Sent Events) and posting its moves on a keep-alive connection,
   as the pages do.
4. **The referee, polling** (phones that cannot stream, as every phone did before): the same
   league with each phone polling its view every 2 s with its ETag. Timed as above (the
   opponent has the move at his next poll), with the polls' own p50/p99.
5. **2,000 open streams**: 2,000 phones hold a stream each, idle; a new phone's first request
   (its game's page) is timed, 50 times.

For each: moves, the time until the opponent had the move (p50/p99), the mover's round
trip, the server's CPU per move and for the league (% of one core, every process of it),
its memory (resident, every process), and whether anything was lost: the referee's phones'
last views and every report each mover got are checked against the game's log, read from the
database after the server stops; boardgame.io's clients must each have seen every move.

`.venv/bin/python bench/league_streams.py` (about 9 minutes) or `--quick` (30 games, 12 s
each, a smoke test). Figures on a machine shared with other work are provisional.

`--pairs N` runs only the CPU goal: N leagues on the seats' sockets, each followed at once by
one on boardgame.io, and prints each pair's CPU per move, their ratio and the median ratio
(one pair alone moves by a fifth from one sitting to the next on this machine).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from apiclient import Api, HttpTransport, choose_move  # noqa: E402
from conftest import loopback  # noqa: E402
from league_night import (  # noqa: E402
    CLK_TCK,
    Phone,
    Server,
    check_against_log,
    children_of,
    league_tables,
)
from server_bench import pct  # noqa: E402
from socket_support import handshake, server_frames  # noqa: E402

from referee.websocket import CLOSE, PING, PONG, TEXT, client_frame  # noqa: E402

PEER = HERE / "peer"
IDLE_STREAMS_PER_ADDRESS = 10  # below the referee's 16 streams an address, per process


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def every_process(pid: int) -> list[int]:
    found, todo = [pid], [pid]
    while todo:
        for child in children_of(todo.pop()):
            found.append(child)
            todo.append(child)
    return found


THREADS = {"stream-loop": "the hub's loop", "stream-pusher": "the hub's pusher",
           **{f"socket-mover_{n}": "the sockets' movers" for n in range(8)}}


def task_cpu(task: Path) -> float:
    """A thread's CPU seconds so far: the scheduler's own count, to the nanosecond, where
    the kernel keeps it (a thread woken briefly and often is charged in whole clock ticks by
    its ``stat``, by chance), else its ``stat``'s user and system ticks."""
    try:
        return int((task / "schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        fields = (task / "stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK


def task_wakes(task: Path) -> float:
    """How often a thread has slept and been woken so far (its voluntary context switches):
    each wake costs this machine's virtual CPUs far more than the few lines a wake runs."""
    status = (task / "status").read_text()
    return float(status.partition("\nvoluntary_ctxt_switches:")[2].split()[0])


def thread_cpu(pids: list[int], of: Callable[[Path], float] = task_cpu) -> dict[str, float]:
    """CPU seconds so far of a server's processes, by part (or, ``of``, another count of
    each thread's): in each serving process (one with a hub), waitress's loop (its first
    thread), the hub's loop and pusher and the sockets' movers (by the names the server
    gives them), and the request threads and others; then its other processes (the costly
    work's)."""
    parts = dict.fromkeys(("waitress's loop", "request threads", *dict.fromkeys(
        THREADS.values()), "other processes"), 0.0)
    for pid in pids:
        tasks: list[tuple[int, str, float]] = []
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                name = (task / "comm").read_text().strip()
                tasks.append((int(task.name), name, of(task)))
        except OSError:
            continue  # ended meanwhile
        if not any(name == "stream-loop" for _, name, _ in tasks):
            parts["other processes"] += sum(seconds for *_, seconds in tasks)
            continue
        for tid, name, seconds in tasks:
            part = "waitress's loop" if tid == pid else THREADS.get(name, "request threads")
            parts[part] += seconds
    return parts


def cpu_of_all(pids: list[int]) -> float:
    from league_night import cpu_of
    total = 0.0
    for pid in pids:
        try:
            total += cpu_of(pid)
        except (OSError, IndexError):
            continue
    return total


# -- a stream read with asyncio -----------------------------------------------------------

async def opened(port: int, address: str, request: bytes
                 ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, int]:
    """A connection from ``address`` that has sent ``request`` and read its answer's head:
    its reader, its writer and the answer's status."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(request)
    await writer.drain()
    status = int((await reader.readline()).split()[1])
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    return reader, writer, status


class EventReader:
    """A stream's connection: its events as (id, name, data), chunked framing undone."""

    def __init__(self, port: int, path: str, headers: dict[str, str], address: str) -> None:
        self.port, self.path, self.headers, self.address = port, path, headers, address
        self.reader = self.writer = None
        self.body = b""

    async def open(self) -> int:
        lines = [f"GET {self.path} HTTP/1.1", "Host: 127.0.0.1", "Accept: text/event-stream",
                 *(f"{k}: {v}" for k, v in self.headers.items())]
        self.reader, self.writer, status = await opened(
            self.port, self.address, ("\r\n".join(lines) + "\r\n\r\n").encode())
        return status

    async def events(self):
        while True:
            size = int((await self.reader.readline()).strip() or b"0", 16)
            if size == 0:
                return
            self.body += await self.reader.readexactly(size)
            await self.reader.readexactly(2)
            while b"\n\n" in self.body:
                block, _, self.body = self.body.partition(b"\n\n")
                fields = {}
                for line in block.split(b"\n"):
                    name, _, value = line.partition(b":")
                    fields[name] = value.removeprefix(b" ")
                if b"data" in fields:
                    yield fields.get(b"id"), fields.get(b"event", b""), fields[b"data"]

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class SocketClient:
    """A seat's socket (``GET .../socket``, a WebSocket): its messages as they come, and the
    messages (moves) sent on it."""

    def __init__(self, port: int, path: str, headers: dict[str, str], address: str) -> None:
        self.port, self.path, self.headers, self.address = port, path, headers, address
        self.reader = self.writer = None

    async def open(self) -> int:
        self.reader, self.writer, status = await opened(
            self.port, self.address, handshake(self.path, self.headers))
        return status

    async def messages(self):
        buffer = bytearray()
        while True:
            data = await self.reader.read(65536)
            if not data:
                return
            buffer += data
            for opcode, payload in server_frames(buffer):
                if opcode == TEXT:
                    yield json.loads(payload)
                elif opcode == PING:
                    self.writer.write(client_frame(PONG, payload))
                elif opcode == CLOSE:
                    return

    def send(self, message: dict) -> None:
        self.writer.write(client_frame(TEXT, json.dumps(message).encode()))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


# -- the referee's league, streaming or polling ---------------------------------------------

class Sitting:
    """What the phones of one run share: each game's move in flight (the version it was made
    at and when it was sent), and what was measured."""

    def __init__(self) -> None:
        self.in_flight: dict[str, tuple[int, float, str]] = {}  # version, sent, mover
        self.opponent: list[float] = []
        self.mover: list[float] = []
        self.polls: list[float] = []
        self.refused: list = []
        self.playing = True

    def seen(self, game_id: str, version: int, seat: str) -> None:
        """The phone of ``seat`` has a view at ``version``: the move in flight, if another seat
        made it at an earlier version, has reached its opponent (the mover's own view, which
        comes with his move's answer on a socket, is not the opponent's)."""
        flying = self.in_flight.get(game_id)
        if flying and version > flying[0] and seat != flying[2]:
            self.opponent.append(time.perf_counter() - flying[1])
            del self.in_flight[game_id]


class Player:
    """One phone of the referee's league: its seat's stream (or its polls), its moves."""

    def __init__(self, table, seat: str, port: int, rng: random.Random, address: str,
                 sitting: Sitting) -> None:
        self.table, self.seat, self.rng, self.address = table, seat, rng, address
        self.port, self.sitting = port, sitting
        self.mover = Phone(port, address)
        self.auth = {"Authorization": f"Bearer {table.tokens[seat]}"}
        self.view: dict | None = None
        self.etag: str | None = None
        self.reports: list[dict] = []
        self.moved_at = -1
        self.moving: asyncio.Task | None = None
        self.socket: SocketClient | None = None  # a seat's socket, in that mode
        self.answer: asyncio.Future | None = None  # its move's answer, awaited

    def take(self, view: dict) -> None:
        if self.view is not None and view["version"] <= self.view["version"]:
            return
        self.view = view
        self.sitting.seen(self.table.id, view["version"], self.seat)
        if (view["turn"] == self.seat and self.sitting.playing and view["phase"] == "play"
                and self.moved_at != view["version"]
                and (self.moving is None or self.moving.done())):
            self.moved_at = view["version"]
            self.moving = asyncio.create_task(self.move(view))

    async def move(self, view: dict) -> None:
        await asyncio.sleep(self.rng.uniform(1, 4))
        if not self.sitting.playing:
            return
        move = choose_move(view, self.rng)
        self.sitting.in_flight[self.table.id] = (view["version"], time.perf_counter(), self.seat)
        if self.socket is not None:  # on the seat's socket: its answer comes on it
            self.answer = asyncio.get_running_loop().create_future()
            sent = time.perf_counter()
            self.socket.send({"move": move, "key": f"{self.seat}-{view['version']}"})
            message = await self.answer
            status, latency = message["status"], time.perf_counter() - sent
            data = json.dumps(message["data"]).encode()
        else:
            status, _, data, latency = await self.mover.request(
                "POST", self.table.path("/moves"), self.auth, json.dumps(move).encode())
        if status == 201:
            self.sitting.mover.append(latency)
            self.reports.append(json.loads(data))
        else:
            self.sitting.refused.append((self.table.id, self.seat, status, data[:200]))

    async def stream(self, stop: float) -> None:
        reader = EventReader(self.port, self.table.path("/stream"), self.auth, self.address)
        assert await reader.open() == 200
        try:
            async for _id, name, data in reader.events():
                if name == b"view":
                    self.take(json.loads(data))
                if time.perf_counter() > stop + 5:
                    break
        finally:
            reader.close()

    async def hold_socket(self, stop: float) -> None:
        """The seat's socket: its views taken, its moves' answers handed to ``move``."""
        self.socket = SocketClient(self.port, self.table.path("/socket"), self.auth,
                                   self.address)
        assert await self.socket.open() == 101
        try:
            async for message in self.socket.messages():
                if message["event"] == "view":
                    self.take(message["data"])
                elif self.answer is not None and not self.answer.done():
                    self.answer.set_result(message)
                if time.perf_counter() > stop + 5:
                    break
        finally:
            self.socket.close()

    async def poll(self, stop: float) -> None:
        poller = Phone(self.port, self.address)
        await asyncio.sleep(self.rng.random() * 2)
        next_at = time.perf_counter()
        while next_at < stop:
            headers = dict(self.auth, **({"If-None-Match": self.etag} if self.etag else {}))
            status, got, data, latency = await poller.request("GET", self.table.path(),
                                                              headers)
            self.sitting.polls.append(latency)
            if status == 200:
                self.etag = got["etag"]
                self.take(json.loads(data))
            next_at += 2.0
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        poller.close()

    async def final(self, streaming: bool) -> None:
        """The phone's view at the end, checked against the log afterwards; a stream must
        already have pushed it (a polling phone may not have polled since the last move)."""
        if self.moving is not None:
            await self.moving
        status, _, data, _ = await self.mover.request("GET", self.table.path(), self.auth)
        assert status == 200
        last = json.loads(data)
        if streaming and (self.view is None or self.view["version"] != last["version"]):
            self.sitting.refused.append((self.table.id, self.seat, "not pushed", self.view
                                         and self.view["version"], last["version"]))
        self.view = last
        self.mover.close()


async def referee_league(players: list[Player], seconds: float, mode: str,
                         server: Server) -> dict:
    """``mode``: "socket" (each seat's socket: its views and its moves), "stream" (each
    seat's stream, moves posted) or "poll"."""
    sitting = players[0].sitting
    pids = every_process(server.process.pid)
    streaming = mode != "poll"
    stop = time.perf_counter() + seconds + (2 if streaming else 0)
    if mode == "socket":  # as on a club night: every worker up before the phones connect
        await every_hand_open(server)
    if streaming:  # every stream open and heard before the clock starts
        tasks = [asyncio.create_task(p.hold_socket(stop) if mode == "socket"
                                     else p.stream(stop)) for p in players]
        for _ in range(100):
            if all(p.view is not None for p in players):
                break
            await asyncio.sleep(0.1)
        sitting.opponent.clear()
    cpu0, t0, threads0 = cpu_of_all(pids), time.perf_counter(), thread_cpu(pids)
    wakes0 = thread_cpu(pids, task_wakes)
    stop = t0 + seconds
    if not streaming:
        tasks = [asyncio.create_task(p.poll(stop)) for p in players]
    await asyncio.sleep(max(0.0, stop - time.perf_counter()))
    sitting.playing = False
    played = time.perf_counter() - t0
    await asyncio.gather(*(p.moving for p in players if p.moving is not None))
    await asyncio.sleep(1.0)  # the last pushes
    elapsed = time.perf_counter() - t0
    cpu = cpu_of_all(pids) - cpu0
    by_thread = {part: seconds - threads0[part] for part, seconds in thread_cpu(pids).items()}
    wakes = {part: n - wakes0[part] for part, n in thread_cpu(pids, task_wakes).items()}
    memory = rss_mb(pids)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(p.final(streaming) for p in players))
    moves = len(sitting.mover)
    return {"moves": moves, "played": played, "elapsed": elapsed, "cpu": cpu,
            "by_thread": by_thread, "wakes": wakes, "memory": memory,
            "opponent": sitting.opponent, "mover": sitting.mover, "polls": sitting.polls,
            "refused": sitting.refused, "processes": len(pids)}


async def every_hand_open(server: Server, within_s: float = 30) -> None:
    """Until every serving process (``referee serve``'s default: one a core, at most 4) has
    opened its hand (``streams.Hub.hand``), so that each game's sockets are gathered in one
    process from the first (a socket opened before a worker was up stays where it opened)."""
    serving = server.workers or min(os.cpu_count() or 1, 4)
    hands = Path(f"{server.database}.hands")
    deadline = time.perf_counter() + within_s
    while len(list(hands.iterdir()) if hands.exists() else []) < serving:
        assert time.perf_counter() < deadline, "not every worker opened its hand"
        await asyncio.sleep(0.1)


def run_referee(tmp: Path, games: int, seconds: float, mode: str) -> dict:
    server = Server(tmp / f"{mode}.db", None, None).start()
    try:
        api = Api(HttpTransport(server.url))
        tables = league_tables(api, games, 1000)
        rng = random.Random(24)
        sitting = Sitting()
        players = [Player(t, seat, server.port, random.Random(rng.random()),
                          loopback(2 * n + i), sitting)
                   for n, t in enumerate(tables) for i, seat in enumerate(("red", "blue"))]
        result = asyncio.run(referee_league(players, seconds, mode, server))
    finally:
        server.stop()
    views, reports, wrong = check_against_log(server.database, players)
    result["checked"] = (views, reports, wrong)
    return result


# -- 2,000 open streams ---------------------------------------------------------------------

async def held_streams(server: Server, tables: list, count: int, samples: int) -> dict:
    readers = []
    for n in range(count):
        table = tables[n % len(tables)]
        reader = EventReader(server.port, table.path("/stream"), {},
                             loopback(1000 + n // IDLE_STREAMS_PER_ADDRESS))
        assert await reader.open() == 200, n
        readers.append(reader)
    pids = every_process(server.process.pid)
    memory = rss_mb(pids)
    firsts = []
    for i in range(samples):  # a new phone: a new connection, its first request
        table = tables[i % len(tables)]
        phone = Phone(server.port, loopback(5000 + i))
        status, _, _, latency = await phone.request(
            "GET", table.path(), {"Authorization": f"Bearer {table.tokens['red']}"})
        assert status == 200
        firsts.append(latency)
        phone.close()
        await asyncio.sleep(0.05)
    still = 0
    for reader in readers:
        still += not reader.reader.at_eof()
        reader.close()
    return {"streams": count, "open_after": still, "memory": memory, "first": firsts}


def run_held(tmp: Path, count: int) -> dict:
    server = Server(tmp / "held.db", None, None).start()
    try:
        api = Api(HttpTransport(server.url))
        tables = league_tables(api, 50, 2000)
        return asyncio.run(held_streams(server, tables, count, 50))
    finally:
        server.stop()


# -- boardgame.io ---------------------------------------------------------------------------

def install_peer() -> None:
    """The peer's pinned packages (``npm ci``), unless they are installed already."""
    stamp = PEER / "node_modules" / ".package-lock.json"
    lock = PEER / "package-lock.json"
    if stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    if shutil.which("npm") is None:
        raise SystemExit("the peer needs node and npm (apt-get install nodejs npm)")
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=PEER, check=True)


def peer_server() -> tuple[subprocess.Popen, int]:
    """boardgame.io's server started, and its port. It listens on every address, so its
    port is one free on every address, and another is tried if the port was taken meanwhile
    (a league's 600 connections from many loopback addresses hold ports that a port free on
    127.0.0.1 alone may be one of)."""
    for _ in range(5):
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen(["node", "server.js", str(port)], cwd=PEER,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if server.stdout.readline().startswith(b"listening"):
            return server, port
        server.kill()
        server.wait()
    raise AssertionError("the peer did not start")


def run_peer(games: int, seconds: float) -> dict:
    install_peer()
    server, port = peer_server()
    try:
        driver = subprocess.Popen(["node", "league.js", str(port), str(games), str(seconds),
                                   "24"], cwd=PEER, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE)
        try:
            line = driver.stdout.readline()
            assert line.strip() == b"READY", line
            cpu0, t0 = cpu_of_all([server.pid]), time.perf_counter()
            driver.stdin.write(b"GO\n")
            driver.stdin.flush()
            result = json.loads(driver.stdout.readline())
            cpu = cpu_of_all([server.pid]) - cpu0
            memory = rss_mb([server.pid])
            driver.wait(30)
        finally:
            if driver.poll() is None:
                driver.kill()
                driver.wait()
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    elapsed = time.perf_counter() - t0
    return {"moves": result["moves"], "played": result["elapsed"], "cpu": cpu,
            "cpu_window": elapsed, "memory": memory, "lost": result["lost"],
            "opponent": [ms / 1000 for ms in result["opponent_ms"]],
            "mover_p": result["mover"]}


# -- the table -----------------------------------------------------------------------------

def cell_ms(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{pct(values, .5):.1f} / {pct(values, .99):.1f} ms"


def table(sockets: dict, streaming: dict, polling: dict, peer: dict, held: dict,
          games: int) -> str:
    def cpu_move(run: dict) -> str:
        return f"{run['cpu'] / max(1, run['moves']) * 1000:.2f} ms"

    def cpu_league(run: dict, window: float | None = None) -> str:
        return f"{run['cpu'] / (window or run['elapsed']):.0%} of a core"

    def lost(run: dict) -> str:
        if "checked" in run:
            views, reports, wrong = run["checked"]
            bad = len(wrong) + len(run["refused"])
            return (f"nothing ({views} views, {reports} reports checked against the log)"
                    if not bad else f"{bad} WRONG: {(wrong + run['refused'])[:3]}")
        return "nothing (every client saw every move)" if not run["lost"] else \
            f"{run['lost']} moves never seen"

    mover_peer = peer["mover_p"]
    referee = (sockets, streaming, polling)
    rows = [
        ("", "referee, sockets", "referee, streaming", "referee, polling (2 s)",
         "boardgame.io"),
        ("moves in the league", *(f"{r['moves']} in {r['played']:.0f} s "
                                  f"({r['moves'] / r['played']:.1f}/s)"
                                  for r in (*referee, peer))),
        ("the opponent has the move, p50 / p99", *(cell_ms(r["opponent"]) for r in referee),
         cell_ms(peer["opponent"])),
        ("the mover's round trip, p50 / p99", *(cell_ms(r["mover"]) for r in referee),
         f"{mover_peer['p50']:.1f} / {mover_peer['p99']:.1f} ms" if mover_peer["p50"]
         else "-"),
        ("polls, p50 / p99", "-", "-", cell_ms(polling["polls"]), "-"),
        ("server CPU per move", *(cpu_move(r) for r in (*referee, peer))),
        *((f"- {part}", *(f"{r['by_thread'][part] / max(1, r['moves']) * 1000:.2f} ms, "
                          f"{r['wakes'][part] / max(1, r['moves']):.1f} wakes"
                          for r in referee), "-") for part in sockets["by_thread"]),
        ("server CPU for the league", *(cpu_league(r) for r in referee),
         cpu_league(peer, peer["cpu_window"])),
        ("server memory (resident)", *(f"{r['memory']:.0f} MB" for r in (*referee, peer))),
        ("server processes", *(str(r["processes"]) for r in referee), "1"),
        ("lost", *(lost(r) for r in (*referee, peer))),
    ]
    width = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = [f"{games} games, {2 * games} phones, each player moving 1-4 s after he sees his "
             f"turn; {os.cpu_count()} cores, shared"]
    for n, row in enumerate(rows):
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(row, width, strict=True))
                     + " |")
        if n == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in width) + "|")
    lines.append("")
    lines.append(f"{held['streams']:,} open streams held ({held['open_after']:,} still open "
                 f"after): a new phone's first request {cell_ms(held['first'])} "
                 f"(p50 / p99 of {len(held['first'])}); server memory {held['memory']:.0f} MB")
    return "\n".join(lines)


def pairs(games: int, seconds: float, count: int) -> str:
    """The CPU goal measured on a noisy machine: ``count`` leagues on the seats' sockets, each
    followed at once by one on boardgame.io, and the median of their ratios (one pair alone
    moves by a fifth from one sitting to the next)."""
    rows, ratios = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(1, count + 1):
            print(f"pair {n} of {count} ...", flush=True)
            ours = run_referee(Path(tmp), games, seconds, "socket")
            theirs = run_peer(games, seconds)
            per_move = [run["cpu"] / max(1, run["moves"]) * 1000 for run in (ours, theirs)]
            ratios.append(per_move[0] / per_move[1])
            rows.append(f"| {n} | {per_move[0]:.2f} ms | {per_move[1]:.2f} ms | "
                        f"{ratios[-1]:.2f} | {cell_ms(ours['opponent'])} |")
    head = ["| pair | sockets, CPU per move | boardgame.io, CPU per move | ratio | "
            "the opponent has the move, p50 / p99 (sockets) |", "|---|---|---|---|---|"]
    return "\n".join([*head, *rows, "",
                      f"median ratio {statistics.median(ratios):.2f} "
                      f"(from {min(ratios):.2f} to {max(ratios):.2f}), {games} games, "
                      f"{seconds:.0f} s each"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a smoke test: fewer, shorter")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--streams", type=int, default=None, help="idle streams held (2,000)")
    parser.add_argument("--pairs", type=int, default=0,
                        help="only the CPU per move: this many leagues on sockets, each with "
                             "one on boardgame.io after it, and the median ratio")
    args = parser.parse_args()
    games = args.games or (30 if args.quick else 300)
    seconds = args.seconds or (12 if args.quick else 60)
    if args.pairs:
        print(pairs(games, seconds, args.pairs))
        return
    streams = args.streams or (200 if args.quick else 2000)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        print("1. the referee, on the seats' sockets ...", flush=True)
        sockets = run_referee(tmp_path, games, seconds, "socket")
        print("2. boardgame.io ...", flush=True)
        peer = run_peer(games, seconds)
        print("3. the referee, streaming ...", flush=True)
        streaming = run_referee(tmp_path, games, seconds, "stream")
        print("4. the referee, polling ...", flush=True)
        polling = run_referee(tmp_path, games, seconds, "poll")
        print(f"5. {streams:,} open streams ...", flush=True)
        held = run_held(tmp_path, streams)
    print()
    print(table(sockets, streaming, polling, peer, held, games))


if __name__ == "__main__":
    main()
