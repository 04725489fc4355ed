"""A league night on one laptop: prints percentiles, ratios and CPU; not a test.

Drives a real `referee serve` process (waitress, exactly as `make run` starts it) over
loopback only, and measures, in one run:

1. side by side with a bare Flask app under the same server and settings: a full view (no
   If-None-Match) of a game of 200 moves, closed loop with the same keep-alive connections;
2. a move's round trip at move 3 (fresh games) against move 300 (a long game), interleaved;
3. Red's view against a 15-piece and a 181-piece Blue fleet (R21), the games interleaved in
   random order, in two runs: the view built anew after Blue's move, and the cached view;
   the difference between the fleets is shown beside the difference between the runs;
4. the league: 300 two-player games in play at once, 600 phones each polling every 2 s with
   its ETag, each player moving 1-4 s after his poll shows his turn; poll and move p50/p99,
   moves per second, the server's CPU. Then every phone's view is compared with the view the
   server's event log gives (read from the database after the server stops), and every move
   report each phone received with the log's report of that move: nothing lost, every
   report right.

Run with `.venv/bin/python bench/league_night.py [--quick] [--profile FILE]`. `--quick` is a
smoke test (fewer games, shorter runs); `--profile` runs the server's request threads under
cProfile and writes the merged statistics to FILE when it stops.
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from apiclient import Api, HttpTransport, choose_move, lock_in_random_fleets, open_table  # noqa: E402
from conftest import REFEREE, LiveServer, free_port, loopback  # noqa: E402
from helpers import IDLE_SQUARES, padded  # noqa: E402
from server_bench import BareServer, closed_loop, pct  # noqa: E402

from referee import rulesets, service  # noqa: E402
from referee.naval_war.layout import pack  # noqa: E402
from referee.store import Store  # noqa: E402

FLEETS = {"15 pieces": pack({"battleship": 15, "salvo": 100}),
          "181 pieces": pack({"submarine": 60, "recon": 29, "aa-gun": 29, "salvo": 42})}
CLK_TCK = os.sysconf("SC_CLK_TCK")
QUIET = padded(salvoes=100)  # battleships along the foot and 100 salvoes: 100 idle moves
SEATS = ("red", "blue", "green", "gold")

PROFILED = """
import cProfile, pstats, signal, sys, threading
import waitress.channel
out = sys.argv.pop(1)
profiles, local = [], threading.local()
service = waitress.channel.HTTPChannel.service
def profiled(self):
    if not hasattr(local, "p"):
        local.p = cProfile.Profile(); profiles.append(local.p)
    local.p.enable()
    try:
        return service(self)
    finally:
        local.p.disable()
waitress.channel.HTTPChannel.service = profiled
def stop(*_):
    stats = pstats.Stats(*profiles) if profiles else None
    if stats: stats.dump_stats(out)
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
from referee.cli import main
sys.argv[0] = "referee"
main()
"""


class Server(LiveServer):
    """`referee serve` as `make run` starts it; under the profiler with ``profile``."""

    def __init__(self, database: Path, profile: str | None, workers: int | None) -> None:
        super().__init__(database, workers=1 if profile else workers)  # one, to profile it
        self.profile = profile

    def start(self) -> Server:
        if not self.profile:
            return super().start()
        env = {**os.environ, "REFEREE_DATABASE": str(self.database),
               "REFEREE_SECRET_KEY": "bench", "REFEREE_PUBLIC_URL": self.url}
        self.log = open(self.database.with_suffix(".log"), "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [str(Path(REFEREE).parent / "python"), "-c", PROFILED, self.profile, "serve",
             "--host", "127.0.0.1", "--port", str(self.port), "--quiet", "--workers", "1"],
            env=env, stdout=self.log, stderr=subprocess.STDOUT)
        import urllib.request
        for _ in range(200):
            try:
                urllib.request.urlopen(self.url + "/api/v1/openapi.json", timeout=1)
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("profiled server did not start")

    def cpu_seconds(self) -> list[float]:
        """The CPU seconds of each of the server's processes: the first, then its workers."""
        return [cpu_of(pid) for pid in (self.process.pid, *children_of(self.process.pid))]


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_of(pid: int) -> float:
    fields = _stat(pid)
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(_stat(int(entry.name))[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return sorted(found)


# -- a small async HTTP/1.1 client: one keep-alive connection per phone -----------------------

class Phone:
    """One keep-alive connection, one request at a time, as a phone's page makes them; a
    connection the server closed while idle is opened again, as a browser does."""

    def __init__(self, port: int, address: str | None = None) -> None:
        """``address``: the loopback address the phone connects from (its own, as on the
        club's Wi-Fi, where each phone has one); by default 127.0.0.1."""
        self.port, self.address, self.reader, self.writer = port, address, None, None
        self.busy = asyncio.Lock()

    async def request(self, method: str, path: str, headers: dict[str, str],
                      body: bytes = b"") -> tuple[int, dict[str, str], bytes, float]:
        async with self.busy:
            for attempt in range(2):
                reused = self.writer is not None
                try:
                    return await self._request(method, path, headers, body)
                except (ConnectionError, IndexError, asyncio.IncompleteReadError):
                    self.close()
                    if not reused or attempt:
                        raise
            raise AssertionError("unreachable")

    async def _request(self, method: str, path: str, headers: dict[str, str],
                       body: bytes) -> tuple[int, dict[str, str], bytes, float]:
        start = time.perf_counter()
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port,
                local_addr=(self.address, 0) if self.address else None)
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1",
                 *(f"{k}: {v}" for k, v in headers.items())]
        if body:
            lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status = int((await self.reader.readline()).split()[1])
        got: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            got[name.strip().lower()] = value.strip()
        data = await self.reader.readexactly(int(got.get("content-length", 0)))
        if got.get("connection", "").lower() == "close":
            self.close()
        return status, got, data, time.perf_counter() - start

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# -- set-up through the API --------------------------------------------------------------

def quiet_game(api: Api, blue: dict = QUIET, seats: int = 2):
    """Every seat with a fleet that idle salvoes never touch (Blue's may be another). A
    seat has at most 100 points of salvoes and aircraft (R4), so a game of 300 moves needs
    four seats."""
    table = open_table(api, seats)
    for seat in table.tokens:
        document = blue if seat == "blue" else QUIET
        assert table.as_seat(seat, "PUT", "/disposition", document)[0] == 200
        assert table.as_seat(seat, "POST", "/ready")[0] == 200
    return table


def turn_of(table) -> str:
    return table.view("red")["turn"]


def idle_move(table, seat: str | None = None) -> float:
    """An idle salvo by the seat whose turn it is; returns its round trip."""
    seat = seat or turn_of(table)
    target = next(s for s in SEATS if s in table.tokens and s != seat)
    start = time.perf_counter()
    status, body, _ = table.api.call("POST", table.path("/moves"),
                                     {"weapon": "salvo", "at": list(IDLE_SQUARES),
                                      "target": target}, token=table.tokens[seat])
    assert status == 201, body
    return time.perf_counter() - start


def idle_moves(table, n: int) -> None:
    for _ in range(n):
        idle_move(table)


def league_tables(api: Api, n: int, seed: int) -> list:
    def one(i: int):
        table = open_table(api, 2)
        lock_in_random_fleets(table, random.Random(seed + i))
        return table
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, range(n)))


# -- 1. a full view against the bare app ------------------------------------------------------

def full_view_ratio(api: Api, port: int, bare_port: int, seconds: float) -> None:
    table = quiet_game(api, seats=4)
    idle_moves(table, 200)
    targets = [(table.path(), {"Authorization": f"Bearer {table.tokens[seat]}"})
               for seat in ("red", "blue")]
    conns = 16
    view_rps, lat, st1 = asyncio.run(closed_loop(port, targets, conns, seconds))
    bare_rps, _, st2 = asyncio.run(closed_loop(bare_port, [("/ping", {})], conns, seconds))
    zipped = [(path, dict(headers, **{"Accept-Encoding": "gzip, deflate"}))
              for path, headers in targets]
    gzip_rps, gzip_lat, st3 = asyncio.run(closed_loop(port, zipped, conns, seconds))
    size = len(json.dumps(table.view("red")))
    print(f"1. full view (no If-None-Match) of a 200-move game ({size:,} bytes): "
          f"{view_rps:.0f} req/s {st1}, p50 {pct(lat, .5):.1f} ms; bare Flask JSON "
          f"{bare_rps:.0f} req/s {st2}; ratio {view_rps / bare_rps:.2f}x (goal >= 0.5x)")
    print(f"   the same view asked as a browser asks (Accept-Encoding: gzip): {gzip_rps:.0f} "
          f"req/s {st3}, p50 {pct(gzip_lat, .5):.1f} ms; ratio {gzip_rps / bare_rps:.2f}x")


# -- 2. move 3 against move 300 ------------------------------------------------------------

def move_cost(api: Api, samples: int) -> None:
    long = quiet_game(api, seats=4)
    idle_moves(long, 299)
    shorts = [quiet_game(api, seats=4) for _ in range(samples)]
    for table in shorts:
        idle_moves(table, 2)
    third, three_hundredth = [], []
    for table in shorts:  # each timed move's seat is known beforehand: no GET in the timing
        third.append(idle_move(table, turn_of(table)))
        three_hundredth.append(idle_move(long, turn_of(long)))
    a, b = statistics.median(third) * 1000, statistics.median(three_hundredth) * 1000
    print(f"2. a move's round trip: move 3 median {a:.1f} ms, moves 300-{299 + samples} "
          f"median {b:.1f} ms over {samples} each; ratio {b / a:.2f}")


# -- 3. a view against a small and a large hidden fleet (R21) ------------------------------

def fleet_views(api: Api, rounds: int) -> None:
    runs = []
    for _ in range(2):
        built = {name: [] for name in FLEETS}
        cached = {name: [] for name in FLEETS}
        for i in range(rounds):
            if i % 20 == 0:  # fresh games: Blue's 181 pieces leave him 42 salvoes
                games = {name: quiet_game(api, fleet) for name, fleet in FLEETS.items()}
                for table in games.values():
                    idle_moves(table, 4)  # reports in the view
            order = list(games)
            random.shuffle(order)
            for name in order:  # Blue moves: Red's next view is built anew
                table = games[name]
                if idle_move(table) and turn_of(table) == "blue":
                    idle_move(table, "blue")
            for name in order:
                table = games[name]
                for bucket in (built, cached, cached):
                    start = time.perf_counter()
                    status, _, _ = table.api.call("GET", table.path(),
                                                  token=table.tokens["red"])
                    bucket[name].append(time.perf_counter() - start)
                    assert status == 200
        runs.append({name: (statistics.median(built[name]) * 1000,
                            statistics.median(cached[name]) * 1000) for name in games})
    for kind, k in (("built anew", 0), ("cached", 1)):
        small = [run["15 pieces"][k] for run in runs]
        large = [run["181 pieces"][k] for run in runs]
        fleet_diff = abs(statistics.mean(large) - statistics.mean(small))
        noise = max(abs(small[0] - small[1]), abs(large[0] - large[1]))
        print(f"3. Red's view {kind} (median of {rounds}, runs 1 and 2): 15 pieces "
              f"{small[0]:.2f} / {small[1]:.2f} ms, 181 pieces {large[0]:.2f} / "
              f"{large[1]:.2f} ms; fleet difference {fleet_diff:.2f} ms, run-to-run "
              f"{noise:.2f} ms: {'within' if fleet_diff <= noise else 'ABOVE'} the noise")


# -- 4. the league ------------------------------------------------------------------------

class Player:
    def __init__(self, table, seat: str, port: int, rng: random.Random, address: str) -> None:
        self.table, self.seat, self.rng = table, seat, rng
        self.poller = self.mover = Phone(port, address)
        self.etag, self.view, self.moved_at_version = None, None, -1
        self.reports: list[dict] = []
        self.auth = {"Authorization": f"Bearer {table.tokens[seat]}"}

    async def poll(self, polls: list, statuses: dict) -> None:
        headers = dict(self.auth, **({"If-None-Match": self.etag} if self.etag else {}))
        status, got, data, latency = await self.poller.request("GET", self.table.path(),
                                                                headers)
        polls.append(latency)
        statuses[status] = statuses.get(status, 0) + 1
        if status == 200:
            self.etag, self.view = got["etag"], json.loads(data)

    async def move(self, moves: list, errors: list) -> None:
        view = self.view
        version = self.etag
        await asyncio.sleep(self.rng.uniform(1, 4))
        body = json.dumps(choose_move(view, self.rng)).encode()
        status, _, data, latency = await self.mover.request("POST", self.table.path("/moves"),
                                                             self.auth, body)
        if status == 201:
            moves.append(latency)
            self.reports.append(json.loads(data))
        else:
            errors.append((self.table.id, self.seat, version, status, data[:200]))

    async def run(self, stop: float, polls, statuses, moves, errors) -> None:
        await asyncio.sleep(self.rng.random() * 2)
        next_at = time.perf_counter()
        moving = None
        while next_at < stop:
            await self.poll(polls, statuses)
            view = self.view  # None until a poll is answered 200 (the statuses count the others)
            if view is not None and (moving is None or moving.done()) and view["phase"] == "play" \
                    and view["turn"] == self.seat and self.moved_at_version != self.etag:
                self.moved_at_version = self.etag
                moving = asyncio.create_task(self.move(moves, errors))
            next_at += 2.0
            await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        if moving is not None:
            await moving

    async def final(self) -> None:
        status, got, data, _ = await self.poller.request("GET", self.table.path(), self.auth)
        assert status == 200
        self.etag, self.view = got["etag"], json.loads(data)
        self.poller.close()


async def league(players: list[Player], seconds: float, server: Server):
    polls, statuses, moves, errors = [], {}, [], []
    cpu0, client0, t0 = server.cpu_seconds(), time.process_time(), time.perf_counter()
    stop = t0 + seconds
    await asyncio.gather(*(p.run(stop, polls, statuses, moves, errors) for p in players))
    elapsed = time.perf_counter() - t0
    cpu = [after - before for before, after in zip(cpu0, server.cpu_seconds(), strict=True)]
    client = time.process_time() - client0
    await asyncio.gather(*(p.final() for p in players))
    return polls, statuses, moves, errors, elapsed, cpu, client


def check_against_log(database: Path, players: list[Player]) -> tuple[int, int, list[str]]:
    """Each phone's final view and every report it received, against the log's."""
    store = Store(database)
    wrong: list[str] = []
    views = reports = 0
    games: dict[str, object] = {}
    for player in players:
        game_id = player.table.id
        if game_id not in games:
            game = rulesets.named(store.rules_of(game_id)).empty()
            for event in store.events(game_id):
                game.apply(event)
            games[game_id] = game
        game = games[game_id]
        expected = {**service.view(game, player.seat),
                    "move_clock": service.move_clock(store, game_id, game)}
        views += 1
        if json.loads(json.dumps(expected)) != player.view:
            wrong.append(f"{game_id} {player.seat}: view differs from the log's")
        by_n = {r["n"]: r for r in game.reports}
        rule_set = rulesets.of(game)
        for got in player.reports:
            reports += 1
            want = rule_set.report_for(game, by_n[got["n"]], player.seat) \
                if got["n"] in by_n else None
            if json.loads(json.dumps(want)) != got:
                wrong.append(f"{game_id} {player.seat}: report {got['n']} differs")
        made = sum(1 for r in game.reports if r["by"] == player.seat)
        if made != len(player.reports):
            wrong.append(f"{game_id} {player.seat}: {len(player.reports)} moves accepted, "
                         f"{made} in the log")
    store.close()
    return views, reports, wrong


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a smoke test: fewer, shorter")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--profile", default=None, help="write the server's profile here")
    parser.add_argument("--skip-side", action="store_true", help="only the league")
    parser.add_argument("--workers", type=int, default=None,
                        help="`referee serve --workers` (default: the command's own)")
    args = parser.parse_args()
    games = args.games or (30 if args.quick else 300)
    seconds = args.seconds or (12 if args.quick else 60)
    closed = 3 if args.quick else 8
    random.seed(15)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        server = Server(tmp_path / "league.db", args.profile, args.workers).start()
        bare = BareServer(tmp_path / "bare.db", free_port(),
                          workers=len(server.cpu_seconds())).start()  # as many processes
        print(f"the referee and the bare app each in {len(server.cpu_seconds())} process(es)")
        try:
            api = Api(HttpTransport(server.url))
            if not args.skip_side:
                full_view_ratio(api, server.port, bare.port, closed)
                move_cost(api, 10 if args.quick else 30)
                fleet_views(api, 20 if args.quick else 60)
            bare.stop()
            start = time.perf_counter()
            tables = league_tables(api, games, 1000)
            print(f"4. {games} games opened and locked in through the API in "
                  f"{time.perf_counter() - start:.1f} s")
            rng = random.Random(15)
            players = [Player(t, seat, server.port, random.Random(rng.random()),
                              loopback(2 * n + i))
                       for n, t in enumerate(tables) for i, seat in enumerate(("red", "blue"))]
            polls, statuses, moves, errors, elapsed, cpu, client = asyncio.run(
                league(players, seconds, server))
            print(f"   {len(players)} phones polling every 2 s for {elapsed:.0f} s: "
                  f"{len(polls)} polls {statuses}; poll p50 {pct(polls, .5):.1f} ms, p99 "
                  f"{pct(polls, .99):.1f} ms (goal < 100 ms)")
            print(f"   {len(moves)} moves, {len(moves) / elapsed:.1f} moves/s; move p50 "
                  f"{pct(moves, .5):.1f} ms, p99 {pct(moves, .99):.1f} ms (goal < 150 ms); "
                  f"refused: {len(errors)} {errors[:3]}")
            each = ", ".join(f"{c / elapsed:.0%}" for c in cpu)
            print(f"   server CPU {sum(cpu):.1f} s in {elapsed:.0f} s = "
                  f"{sum(cpu) / elapsed:.0%} of one core ({len(cpu)} processes: {each}); "
                  f"this client {client / elapsed:.0%} of one core ({os.cpu_count()} cores)")
        finally:
            server.stop()
            bare.stop()
        views, reports, wrong = check_against_log(server.database, players)
        print(f"   checked against the server's log: {views} views, {reports} reports; "
              f"{len(wrong)} wrong {wrong[:5]}")


if __name__ == "__main__":
    main()
