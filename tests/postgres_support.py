"""A real PostgreSQL for the tests and benches: Debian's ``postgresql`` package, started in a
temporary directory (initdb, then pg_ctl on a unix socket in that directory, no TCP port), and
stopped and removed when done, even when the tests fail. PostgreSQL refuses to run as root,
so as root it runs as ``nobody``.

Without the package the tests that need it are skipped, loudly (``make test`` says so in its
header and its summary), or fail under CI=true, where they must run: ``.ci/run`` installs
it. Each test gets a schema of its own (``PostgresServer.fresh_database``), so tests share
one server and never each other's tables.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import quote

import pytest

# Stops the server and removes its folder once the process that started it is gone, however
# it went (killed outright, interrupted before its teardown); ends at once if the folder goes.
WATCHDOG = """
import os, shutil, subprocess, sys, time
parent, folder, data, pg_ctl, *run_as = sys.argv[1:]
while os.path.isdir(folder):
    try:
        os.kill(int(parent), 0)
    except ProcessLookupError:
        subprocess.run([*run_as, pg_ctl, "-D", data, "-m", "immediate", "-w", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
        break
    time.sleep(1)
"""

MISSING = ("no PostgreSQL server binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin "
           "(apt-get install postgresql)")


def binaries() -> Path | None:
    """The folder of Debian's PostgreSQL server programs, the newest version's; None if
    the package is not installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parent.parent.name)
                   if Path(p).parent.parent.name.isdigit() else 0)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).resolve().parent if on_path and shutil.which("initdb") else None


def report_header() -> list[str]:
    if binaries() is None:
        return ["!" * 78, f"NO POSTGRESQL: {MISSING}: the PostgreSQL store's tests will be "
                "SKIPPED (under CI=true they fail instead)", "!" * 78]
    return [f"PostgreSQL tests: {binaries()}"]


def require_postgres() -> Path:
    """The server programs' folder; otherwise skip the calling test, or fail it under
    CI=true."""
    found = binaries()
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is not installed: {MISSING}. CI must run the "
                        "PostgreSQL store's tests", pytrace=False)
        pytest.skip(f"POSTGRESQL TESTS SKIPPED: {MISSING}")
    return found


class PostgresServer:
    """One PostgreSQL cluster in a temporary directory, its socket there too."""

    def __init__(self, bin_dir: Path, *, durable: bool = False,
                 settings: dict[str, str] | None = None) -> None:
        """``durable``: fsync on (a bench's real figures); off for tests, whose data
        outlives nothing. ``settings``: more of the server's settings."""
        self.bin_dir, self.durable = bin_dir, durable
        self.settings = settings or {}
        self.dir = Path(tempfile.mkdtemp(prefix="referee-pg-"))
        self.data = self.dir / "data"
        self.port = 5432
        self.user = "referee"
        self.started = False
        self._as = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
            self._as = ["runuser", "-u", "nobody", "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self._as, *args], capture_output=True, text=True,
                              timeout=120, cwd=self.dir)
        if done.returncode:
            raise RuntimeError(f"{args[0]} failed: {done.stdout}{done.stderr}"
                               f"{self.log_text()}")

    def log_text(self) -> str:
        log = self.dir / "server.log"
        with contextlib.suppress(OSError):
            return log.read_text(errors="replace")[-3000:]
        return ""

    def start(self) -> PostgresServer:
        self._run(str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", self.user,
                  "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync")
        options = {"listen_addresses": "''", "unix_socket_directories": f"'{self.dir}'",
                   "port": str(self.port), "max_connections": "200",
                   **({} if self.durable else {"fsync": "off", "synchronous_commit": "off",
                                               "full_page_writes": "off"}),
                   **self.settings}
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.writelines(f"{key} = {value}\n" for key, value in options.items())
        atexit.register(self.stop)  # even if the session dies before its teardown
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.dir / "server.log"), "-w", "-t", "60", "start")
        self.started = True
        subprocess.Popen([sys.executable, "-c", WATCHDOG, str(os.getpid()), str(self.dir),
                          str(self.data), str(self.bin_dir / "pg_ctl"), *self._as],
                         start_new_session=True, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return self

    def stop(self) -> None:
        if self.started:
            self.started = False
            with contextlib.suppress(Exception):
                self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate",
                          "-w", "-t", "30", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres", schema: str | None = None) -> str:
        """A URL the referee takes as ``REFEREE_DATABASE`` (``schema``: its own tables)."""
        url = f"postgresql://{self.user}@/{database}?host={quote(str(self.dir))}&port={self.port}"
        return url + (f"&options={quote(f'-csearch_path={schema}')}" if schema else "")

    def fresh_database(self, name: str = "t") -> str:
        """The URL of a schema nobody has used, made now."""
        import psycopg

        schema = f"{name}_{secrets.token_hex(6)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"create schema {schema}")
        return self.url(schema=schema)

    def cpu_seconds(self) -> float:
        """The CPU seconds of every process of this cluster so far (the postmaster and its
        backends, ended ones included: a process's children's times count once reaped)."""
        pid = int((self.data / "postmaster.pid").read_text().split()[0])
        total = 0.0
        ticks = os.sysconf("SC_CLK_TCK")
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += sum(int(f) for f in fields[11:15]) / ticks  # utime stime cutime cstime
        for entry in Path("/proc").iterdir():  # the backends still running
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    child = Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()
                    if int(child[1]) == pid:
                        total += (int(child[11]) + int(child[12])) / ticks
        return total
