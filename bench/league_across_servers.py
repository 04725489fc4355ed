"""A league across servers, measured: prints a table of figures; not a test.

Drives the same league (``league_night.py``'s: two-player games in play at once, each phone
polling its game every 2 s with its ETag and moving 1-4 s after its poll shows its turn) at
two set-ups, one after the other, in the same run on this machine:

- **SQLite, the default**: one `referee serve` as `make run` starts it (its worker processes
  on one SQLite file), the phones connecting to it directly;
- **PostgreSQL, several servers**: two or more `referee serve` processes (``--servers``,
  ``--workers`` each) on one real PostgreSQL (Debian's, started in a temporary folder with
  its durable defaults: fsync and synchronous commit on), behind a real nginx (Debian's,
  started from a temporary configuration as an unprivileged process) that routes every
  request for a game to one server by a hash of the game's id, as docs/scaling.md describes;
  a new game goes to any server.

For each it reports the games in play, moves per second, poll and move p50/p99, the CPU of
each part (every server process, PostgreSQL's processes, nginx's, this client), and that
nothing was lost: every phone's last view and every move report it received checked against
the game's log, read from the database afterwards.

    .venv/bin/python bench/league_across_servers.py            # 300 games, 60 s a league
    .venv/bin/python bench/league_across_servers.py --quick    # 30 games, 12 s: a smoke test
    .venv/bin/python bench/league_across_servers.py --games 600 --servers 3

It needs Debian's ``postgresql`` and ``nginx`` packages (``make bench-servers`` installs what
is missing) and the ``postgres`` extra (``make .venv/.test-stamp`` has it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pwd
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from apiclient import Api, HttpTransport  # noqa: E402
from conftest import LiveServer, free_port, loopback  # noqa: E402
from league_night import Player, check_against_log, children_of, cpu_of, league, league_tables  # noqa: E402
from postgres_support import PostgresServer, binaries  # noqa: E402
from server_bench import pct  # noqa: E402

NGINX_CONF = """
worker_processes 1;
worker_rlimit_nofile 16384;  # a phone's connection and its upstream one each: 1,024 is short
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    keepalive_timeout 30s;
    keepalive_requests 100000;
    # a game's requests go to the server that has it warm; anything else to any server
    map $uri $game_id {{
        ~^/api/v1/games/(?<api_game>[0-9a-f]+) $api_game;
        ~^/games/(?<page_game>[0-9a-f]+) $page_game;
        default $request_id;
    }}
    upstream referees {{
        hash $game_id consistent;
{servers}
        keepalive 128;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://referees;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto http;
            proxy_set_header X-Forwarded-Host $host;
        }}
    }}
}}
"""


class Nginx:
    """Debian's nginx from a configuration of our own in a temporary folder, in the
    foreground, as ``nobody`` when this runs as root (an unprivileged process either way)."""

    def __init__(self, upstream_ports: list[int]) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="referee-nginx-"))
        self.port = free_port()
        servers = "\n".join(f"        server 127.0.0.1:{p};" for p in upstream_ports)
        (self.dir / "nginx.conf").write_text(NGINX_CONF.format(dir=self.dir, port=self.port,
                                                               servers=servers))
        self.run_as = []
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            for path in (self.dir, self.dir / "nginx.conf"):
                os.chown(path, nobody.pw_uid, nobody.pw_gid)
            self.run_as = ["runuser", "-u", "nobody", "--"]
        self.process: subprocess.Popen | None = None
        self.errors: list[str] = []

    def start(self) -> Nginx:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen(
            [*self.run_as, nginx, "-p", str(self.dir), "-e", str(self.dir / "error.log"),
             "-c", str(self.dir / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/v1/openapi.json",
                                       timeout=1)
                return self
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        raise RuntimeError(f"nginx did not start: {self.error_log()}")

    def error_log(self) -> str:
        log = self.dir / "error.log"
        return log.read_text(errors="replace")[-2000:] if log.exists() else ""

    def pids(self) -> list[int]:
        """nginx's master and its workers (runuser's child, when started through it)."""
        if self.process is None:
            return []
        master = self.process.pid
        if self.run_as:
            found = children_of(master)
            master = found[0] if found else master
        return [master, *children_of(master)]

    def cpu_seconds(self) -> float:
        return sum(cpu_of(pid) for pid in self.pids())

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            for pid in self.pids()[:1]:
                os.kill(pid, signal.SIGTERM)  # nginx's own: a fast shutdown
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.errors = [line for line in self.error_log().splitlines()
                       if any(f"[{level}]" in line for level in ("error", "crit", "alert"))]
        shutil.rmtree(self.dir, ignore_errors=True)


def server_cpu(server: LiveServer) -> list[float]:
    """The CPU seconds of a `referee serve` and each of its worker processes."""
    return [cpu_of(pid) for pid in (server.process.pid, *children_of(server.process.pid))]


class Parts:
    """Every part of one set-up whose CPU is measured: ``cpu_seconds()`` in a fixed order,
    with ``names`` for the table."""

    def __init__(self, servers: list[LiveServer], postgres: PostgresServer | None = None,
                 nginx: Nginx | None = None) -> None:
        self.servers, self.postgres, self.nginx = servers, postgres, nginx
        self.names = [f"referee {i + 1}" + (f" ({len(server_cpu(s))} processes)"
                                             if len(server_cpu(s)) > 1 else "")
                      for i, s in enumerate(servers)]
        self.names += ["PostgreSQL"] * bool(postgres) + ["nginx"] * bool(nginx)

    def cpu_seconds(self) -> list[float]:
        found = [sum(server_cpu(s)) for s in self.servers]
        if self.postgres:
            found.append(self.postgres.cpu_seconds())
        if self.nginx:
            found.append(self.nginx.cpu_seconds())
        return found


def play_league(name: str, url: str, port: int, parts: Parts, database: str, games: int,
                seconds: float, seed: int) -> dict:
    """Open ``games`` games through ``url``, play the league through ``port`` for
    ``seconds``, and check everything against the log; the figures."""
    api = Api(HttpTransport(url))
    start = time.perf_counter()
    tables = league_tables(api, games, seed)
    opened = time.perf_counter() - start
    rng = random.Random(seed)
    players = [Player(t, seat, port, random.Random(rng.random()), loopback(2 * n + i))
               for n, t in enumerate(tables) for i, seat in enumerate(("red", "blue"))]
    polls, statuses, moves, errors, elapsed, cpu, client = asyncio.run(
        league(players, seconds, parts))
    figures = {"name": name, "games": games, "phones": len(players), "opened_s": opened,
               "elapsed": elapsed, "polls": len(polls), "statuses": statuses,
               "moves": len(moves), "moves_per_s": len(moves) / elapsed,
               "poll_p50": pct(polls, .5), "poll_p99": pct(polls, .99),
               "move_p50": pct(moves, .5) if moves else 0.0,
               "move_p99": pct(moves, .99) if moves else 0.0,
               "refused": errors, "cpu": dict(zip(parts.names, cpu, strict=True)),
               "client_cpu": client, "players": players, "database": database}
    return figures


def checked(figures: dict) -> dict:
    views, reports, wrong = check_against_log(figures.pop("database"), figures.pop("players"))
    figures.update(views=views, reports=reports, wrong=wrong)
    return figures


def report(results: list[dict], cores: int) -> None:
    print()
    print(f"| | {' | '.join(r['name'] for r in results)} |")
    print(f"|---|{'---|' * len(results)}")
    rows = [
        ("games in play (phones)", lambda r: f"{r['games']} ({r['phones']})"),
        ("moves/s", lambda r: f"{r['moves_per_s']:.0f}"),
        ("poll p50 / p99", lambda r: f"{r['poll_p50']:.1f} / {r['poll_p99']:.0f} ms"),
        ("move p50 / p99", lambda r: f"{r['move_p50']:.1f} / {r['move_p99']:.0f} ms"),
        ("CPU, % of one core", lambda r: ", ".join(
            f"{name} {seconds / r['elapsed']:.0%}" for name, seconds in r["cpu"].items())),
        ("CPU in all (this client besides)",
         lambda r: f"{sum(r['cpu'].values()) / r['elapsed']:.0%} "
                   f"({r['client_cpu'] / r['elapsed']:.0%})"),
        ("answers to polls", lambda r: ", ".join(f"{n} {status}" for status, n in
                                                 sorted(r["statuses"].items()))),
        ("refused moves", lambda r: str(len(r["refused"]))),
        ("checked against the log", lambda r: f"{r['views']} views, {r['reports']} reports: "
                                              + ("nothing lost" if not r["wrong"] else
                                                 f"{len(r['wrong'])} WRONG")),
    ]
    for label, cell in rows:
        print(f"| {label} | {' | '.join(cell(r) for r in results)} |")
    print(f"\n({cores} cores; {results[0]['elapsed']:.0f} s of play each)")
    for r in results:
        if r["wrong"] or r["refused"]:
            print(f"{r['name']}: wrong {r['wrong'][:5]} refused {r['refused'][:3]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke test: 30 games, 12 s")
    parser.add_argument("--games", default=None,
                        help="games in play; several, comma-separated, for a ramp (300,600)")
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--servers", type=int, default=2, help="referee servers on PostgreSQL")
    parser.add_argument("--workers", type=int, default=1,
                        help="`referee serve --workers` of each server on PostgreSQL")
    parser.add_argument("--threads", type=int, default=8,
                        help="`referee serve --threads` of each server on PostgreSQL")
    parser.add_argument("--synchronous-commit", choices=("on", "off"), default="on",
                        help="PostgreSQL's: off answers a commit before its WAL is on disk "
                             "(as SQLite's synchronous=NORMAL does)")
    parser.add_argument("--only", choices=("sqlite", "postgresql"), default=None)
    args = parser.parse_args()
    counts = [int(n) for n in args.games.split(",")] if args.games else [30 if args.quick
                                                                         else 300]
    seconds = args.seconds or (12 if args.quick else 60)
    pg_bin = binaries()
    missing = [what for what, found in (("postgresql", pg_bin), ("nginx", shutil.which("nginx")
                                                                 or Path("/usr/sbin/nginx")
                                                                 .exists())) if not found]
    if missing:
        sys.exit(f"This bench needs Debian's {' and '.join(missing)}: make bench-servers "
                 f"installs them (apt-get install {' '.join(missing)})")
    for games in counts:
        report(run_both(args, games, seconds, pg_bin), os.cpu_count() or 1)


def run_both(args: argparse.Namespace, games: int, seconds: float, pg_bin: Path) -> list[dict]:
    """The same league on the SQLite default and on PostgreSQL behind nginx."""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        if args.only != "postgresql":
            server = LiveServer(tmp_path / "league.db", workers=None).start()  # as make run
            try:
                figures = play_league("SQLite, 1 server (as make run)", server.url, server.port,
                                      Parts([server]), str(tmp_path / "league.db"), games,
                                      seconds, 1000)
            finally:
                server.stop()
            results.append(checked(figures))
            print(f"{games} games on SQLite: {figures['moves_per_s']:.0f} moves/s", flush=True)
        if args.only != "sqlite":
            postgres = PostgresServer(pg_bin, durable=True, settings={
                "synchronous_commit": args.synchronous_commit}).start()
            servers: list[LiveServer] = []
            nginx = None
            try:
                url = postgres.fresh_database("league")
                for _ in range(args.servers):
                    servers.append(LiveServer(
                        tmp_path / "pg.db", workers=args.workers,
                        args=("--trusted-proxy", "127.0.0.1", "--threads", str(args.threads)),
                        env={"REFEREE_DATABASE": url}).start())
                nginx = Nginx([s.port for s in servers]).start()
                name = (f"PostgreSQL, {args.servers} servers x {args.workers} process"
                        f"{'es' if args.workers > 1 else ''} x {args.threads} threads, nginx")
                figures = play_league(name, f"http://127.0.0.1:{nginx.port}", nginx.port,
                                      Parts(servers, postgres, nginx), url, games, seconds,
                                      1000)
            finally:
                if nginx:
                    nginx.stop()
                for server in servers:
                    server.stop()
                if nginx and nginx.errors:
                    print(f"nginx logged {len(nginx.errors)} errors: {nginx.errors[:5]}")
                failures = [line for server in servers for line in server.logs().splitlines()
                            if "Traceback" in line or " ERROR " in line or "Error:" in line]
                if failures:
                    print(f"the servers logged {len(failures)} failures: {failures[:5]}")
            try:
                results.append(checked(figures))
            finally:
                postgres.stop()
    return results


if __name__ == "__main__":
    main()
