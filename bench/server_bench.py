"""Speed of the referee as a server: prints medians and ratios; not a test.

Starts real waitress processes on loopback (the referee exactly as `make run` starts it, and a
bare Flask app returning a small JSON under the same server and settings) and measures:

1. poll throughput: `GET /api/v1/games/{id}` answered 304 by ETag, against the bare app,
   both closed-loop with the same number of keep-alive connections, in one run;
2. a move's round trip on loopback (median of many moves);
3. 200 games with 400 phones each polling every 2 s: latency percentiles.

Run with `.venv/bin/python bench/server_bench.py [--quick]`. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from apiclient import (  # noqa: E402
    Api,
    HttpTransport,
    choose_move,
    lock_in_random_fleets,
    open_table,
)
from conftest import LiveServer, free_port  # noqa: E402

BARE_APP = """
from flask import Flask, jsonify
app = Flask("bare")
@app.get("/ping")
def ping():
    return jsonify({"ok": True, "version": 17})
"""


class BareServer(LiveServer):
    """The bare Flask app under the referee's own server (waitress, 8 threads), in as many
    processes sharing one listening socket as the referee it is compared with."""

    def start(self) -> BareServer:
        app_dir = self.database.parent
        (app_dir / "bare_app.py").write_text(BARE_APP)
        self.log = open(app_dir / "bare.log", "ab")  # noqa: SIM115
        workers = self.workers or min(os.cpu_count() or 1, 4)  # `referee serve`'s default
        if workers == 1:
            code = ("import bare_app; from referee.serving import serve; serve(bare_app.app, "
                    f"host='127.0.0.1', port={self.port}, threads=8, ident='bare', "
                    "clear_untrusted_proxy_headers=True)")
            self.process = subprocess.Popen([sys.executable, "-c", code], cwd=app_dir,
                                            stdout=self.log, stderr=subprocess.STDOUT)
        else:
            from referee.serving import listening_sockets
            code = ("import socket, sys, bare_app; from referee.serving import serve; "
                    "serve(bare_app.app, sockets=[socket.socket(fileno=int(sys.argv[1]))], "
                    "threads=8, ident='bare', clear_untrusted_proxy_headers=True)")
            self.others = []
            for sock in listening_sockets("127.0.0.1", self.port, workers):
                sock.set_inheritable(True)
                self.others.append(subprocess.Popen(
                    [sys.executable, "-c", code, str(sock.fileno())], cwd=app_dir,
                    pass_fds=(sock.fileno(),), stdout=self.log, stderr=subprocess.STDOUT))
                sock.close()
            self.process = self.others[0]
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                import urllib.request
                urllib.request.urlopen(self.url + "/ping", timeout=1)
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("bare server did not start")

    def stop(self) -> None:
        for other in getattr(self, "others", [])[1:]:
            other.terminate()
            other.wait(10)
        super().stop()


class Connection:
    """A keep-alive connection that reconnects when the server closes it, as a browser does
    (waitress closes after every 304, which carries no Content-Length)."""

    def __init__(self, port: int) -> None:
        self.port, self.reader, self.writer = port, None, None

    async def get(self, path: str, headers: dict[str, str]) -> tuple[int, float]:
        start = time.perf_counter()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        status, close = await _request(self.reader, self.writer, path, headers)
        if close:
            self.writer.close()
            self.reader = self.writer = None
        return status, time.perf_counter() - start

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _request(reader, writer, path: str, headers: dict[str, str]) -> tuple[int, bool]:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1"] + [f"{k}: {v}" for k, v in
                                                           headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    status_line = await reader.readline()
    length, close = 0, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
        if name.lower() == "connection" and value.strip().lower() == "close":
            close = True
    if length:
        await reader.readexactly(length)
    return int(status_line.split()[1]), close


async def closed_loop(port: int, targets: list[tuple[str, dict]], connections: int,
                      seconds: float) -> tuple[float, list[float], dict[int, int]]:
    """As many requests as `connections` keep-alive connections can make in `seconds`."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    stop = time.perf_counter() + seconds

    async def worker(k: int) -> None:
        connection, i = Connection(port), k
        while time.perf_counter() < stop:
            path, headers = targets[i % len(targets)]
            status, latency = await connection.get(path, headers)
            statuses[status] = statuses.get(status, 0) + 1
            latencies.append(latency)
            i += connections
        connection.close()

    start = time.perf_counter()
    await asyncio.gather(*(worker(k) for k in range(connections)))
    return len(latencies) / (time.perf_counter() - start), latencies, statuses


async def open_loop(port: int, targets: list[tuple[str, dict]], period: float,
                    seconds: float) -> tuple[list[float], dict[int, int]]:
    """Each target is one phone polling every `period` seconds, phases spread at random."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    stop = time.perf_counter() + seconds

    async def phone(path: str, headers: dict) -> None:
        await asyncio.sleep(random.random() * period)
        connection, next_at = Connection(port), time.perf_counter()
        while next_at < stop:
            status, latency = await connection.get(path, headers)
            statuses[status] = statuses.get(status, 0) + 1
            latencies.append(latency)
            next_at += period
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        connection.close()

    await asyncio.gather(*(phone(p, h) for p, h in targets))
    return latencies, statuses


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def poll_targets(api: Api, tables: list) -> list[tuple[str, dict]]:
    """One (path, headers) per phone: its game's view with the ETag it last saw."""
    targets = []
    for table in tables:
        for token in table.tokens.values():
            _, _, headers = api.call("GET", table.path(), token=token)
            targets.append((table.path(), {"Authorization": f"Bearer {token}",
                                           "If-None-Match": headers["ETag"]}))
    return targets


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    args = parser.parse_args()
    seconds = 4 if args.quick else 10
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        referee = LiveServer(tmp_path / "bench.db").start()
        bare = BareServer(tmp_path / "bare.db", free_port()).start()
        try:
            api = Api(HttpTransport(referee.url))
            tables = []
            for _ in range(200):
                table = open_table(api, 2)
                tables.append(table)
            for table in tables[:20]:
                lock_in_random_fleets(table, rng)
            targets = poll_targets(api, tables)

            # 1. poll throughput against the bare app, same connections, same run
            conns = 16
            referee_rps, _, st1 = asyncio.run(closed_loop(referee.port, targets, conns,
                                                          seconds))
            bare_rps, _, st2 = asyncio.run(closed_loop(bare.port, [("/ping", {})], conns,
                                                       seconds))
            print(f"poll (304 by ETag): {referee_rps:.0f} req/s {st1}; bare Flask JSON: "
                  f"{bare_rps:.0f} req/s {st2}; ratio {referee_rps / bare_rps:.0%} "
                  "(target >= 60%)")

            # 2. a move's round trip on loopback
            times = []
            for table in tables[:20]:
                for _ in range(10):
                    view = api.call("GET", table.path(), token=table.tokens["red"])[1]
                    if view["phase"] != "play":
                        break
                    seat = view["turn"]
                    seat_view = api.call("GET", table.path(), token=table.tokens[seat])[1]
                    move = choose_move(seat_view, rng)
                    start = time.perf_counter()
                    status, _, _ = api.call("POST", table.path("/moves"), move,
                                            token=table.tokens[seat])
                    times.append(time.perf_counter() - start)
                    assert status == 201
            print(f"move round trip: median {statistics.median(times) * 1000:.1f} ms over "
                  f"{len(times)} moves (target < 30 ms)")

            # 3. 200 games, 400 phones polling every 2 s
            targets = poll_targets(api, tables)
            latencies, statuses = asyncio.run(open_loop(referee.port, targets, 2.0,
                                                        seconds * 2))
            print(f"200 games, {len(targets)} phones polling every 2 s for {seconds * 2} s: "
                  f"{len(latencies)} requests {statuses}; p50 {pct(latencies, 0.5):.1f} ms, "
                  f"p99 {pct(latencies, 0.99):.1f} ms (target p99 < 100 ms)")
        finally:
            referee.stop()
            bare.stop()
    print(json.dumps({"cpus": os.cpu_count()}))


if __name__ == "__main__":
    main()
