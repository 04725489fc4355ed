"""Fixtures in the Flask tutorial's shape: an app over a temporary database, its client and
CLI runner, and a real `referee serve` process (waitress) for tests that need one."""

from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from apiclient import Api, FlaskTransport, HttpTransport  # noqa: E402
from browser_support import ARGS, CHROMIUM, report_header, require_browser  # noqa: E402
from postgres_support import PostgresServer, binaries, require_postgres  # noqa: E402
from postgres_support import report_header as postgres_header  # noqa: E402

from referee import create_app  # noqa: E402

REFEREE = Path(sys.executable).parent / "referee"


def _same_builders_once() -> None:
    """The suite makes about a thousand apps of the same hundred-odd URL rules, and Werkzeug
    compiles two URL builders for every rule of every app (Python source made, parsed and
    compiled: two-thirds of the 60 ms an app takes). A builder is a function of the rule's
    parts alone (what it reads of its rule, the converters, it reads when called), so one
    compiled for a rule of one app is the same as one for that rule of the next: keep them."""
    from werkzeug.routing.rules import Rule

    compile_builder = Rule._compile_builder
    kept: dict[tuple, object] = {}

    def kept_builder(self: Rule, append_unknown: bool = True):
        defaults = self.defaults or {}
        resolved = tuple((data, self._converters[data].to_url(defaults[data]))
                         for dynamic, data in self._trace if dynamic and data in defaults)
        key = (tuple(self._trace), resolved, append_unknown)
        if key not in kept:
            kept[key] = compile_builder(self, append_unknown)
        return kept[key]

    Rule._compile_builder = kept_builder  # type: ignore[method-assign]


_same_builders_once()


def pytest_report_header(config):
    return report_header() + postgres_header()


def _kind(module: str) -> int:
    """0: a browser module (long, busy with Chromium); 1: a module of real servers (long too,
    mostly waiting on timeouts); 2: the rest."""
    name = Path(module).name
    if name.startswith("test_browser"):
        return 0
    if name.startswith(("test_server", "test_slow_clients", "test_streams")):
        return 1
    return 2


def pytest_collection_modifyitems(config, items):
    """Hand the longest modules out first (``pytest -n 2 --dist loadfile`` gives each worker
    whole modules, in the order they were collected): the browser modules and the real
    servers' modules, one of each kind in turn so that one worker's waiting leaves the other
    the processor, each kind largest file first; then the rest, largest first, to fill in as
    each worker comes free. In name order the longest came last, and one worker finished
    minutes before the other."""
    root = Path(str(config.rootpath))
    modules = {item.nodeid.split("::")[0] for item in items}
    kinds: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for module in sorted(modules, key=lambda m: (-(root / m).stat().st_size, m)):
        kinds[_kind(module)].append(module)
    turns = [m for pair in itertools.zip_longest(kinds[0], kinds[1]) for m in pair if m]
    order = {module: n for n, module in enumerate(turns + kinds[2])}
    items.sort(key=lambda item: order[item.nodeid.split("::")[0]])


def pytest_terminal_summary(terminalreporter):
    if not CHROMIUM.exists():
        terminalreporter.write_sep("!", "BROWSER TESTS SKIPPED: no /usr/bin/chromium", red=True)
    if binaries() is None:
        terminalreporter.write_sep("!", "POSTGRESQL TESTS SKIPPED: no initdb/pg_ctl "
                                   "(apt-get install postgresql)", red=True)


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium through Playwright, one for the session (one for each xdist worker):
    every test opens its phones in contexts of their own, which share nothing. The browser
    test modules call ``require_browser`` first, so without Chromium this is never reached."""
    sync_api = require_browser()
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def _phones_put_away(request):
    """After a browser test, every phone it opened is closed: the browser outlives the test,
    and a page left open would go on polling a server that is gone."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One real PostgreSQL for the session (each xdist worker its own), started when a test
    first needs it and stopped at the end, whatever happened."""
    server = PostgresServer(require_postgres()).start()
    yield server
    server.stop()


ENGINES = ("sqlite", "postgresql")


def database_of(engine: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A new empty database of an engine: a SQLite file in ``tmp_path``, or a schema of its
    own on the session's PostgreSQL."""
    if engine == "postgresql":
        return request.getfixturevalue("postgres_server").fresh_database()
    return str(tmp_path / "referee.db")


@pytest.fixture
def database(tmp_path) -> str:
    """What the ``app`` fixture stores in: a SQLite file. A module whose tests run on both
    engines overrides it with ``engine_database``."""
    return str(tmp_path / "referee.db")


@pytest.fixture(params=ENGINES)
def engine_database(request, tmp_path) -> str:
    """A new database of each engine in turn (the test runs once on each)."""
    return database_of(request.param, tmp_path, request)


@pytest.fixture
def app(tmp_path, database):
    return create_app({"TESTING": True, "DATABASE": database,
                       "SIGNING_KEY_FILE": str(tmp_path / "signing_key"),
                       "SECRET_KEY": "test", "PUBLIC_URL": "http://localhost"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def api(client) -> Api:
    return Api(FlaskTransport(client))


def loopback(n: int) -> str:
    """The n-th of many loopback addresses (127.0.1.2, 127.0.1.3 ...): a client each, as the
    phones on a club's Wi-Fi have, for tests and benches of many clients (the referee lets one
    client address hold only so many connections, ``serving.CONNECTIONS_PER_CLIENT``)."""
    return f"127.0.{1 + n // 200}.{2 + n % 200}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


START_S = 60  # a loaded machine can take this long to start a server; a quiet one takes 1 s


class LiveServer:
    """A real `referee serve` process on loopback over a given database file."""

    def __init__(self, database: Path, port: int | None = None, workers: int | None = 1,
                 args: tuple[str, ...] = (), env: dict[str, str] | None = None,
                 referee: Path = REFEREE, cwd: Path | None = None,
                 inherit: dict[str, str] | None = None) -> None:
        """``workers``: processes on the port (``referee serve --workers``); one unless a
        test says otherwise, None for the command's own default (as ``make run``); ``args``
        and ``env``: more of `referee serve`'s options and environment; ``referee``: the
        command (this venv's unless another installation's), run in ``cwd``, with ``inherit``
        as the environment it starts from (this process's unless given)."""
        self.database, self.port, self.workers = database, port or free_port(), workers
        self.args, self.env = args, env or {}
        self.referee, self.cwd = referee, cwd
        self.inherit = os.environ if inherit is None else inherit
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        env = {**self.inherit, "REFEREE_DATABASE": str(self.database),
               "REFEREE_SIGNING_KEY_FILE": str(self.database.with_suffix(".signing_key")),
               "REFEREE_SECRET_KEY": "live-test", "REFEREE_PUBLIC_URL": self.url, **self.env}
        self.log = open(self.database.with_suffix(f".{self.port}.log"), "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [str(self.referee), "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--quiet", *(["--workers", str(self.workers)] if self.workers else []),
             *self.args],
            env=env, cwd=self.cwd, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/api/v1/openapi.json", timeout=1)
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"referee serve exited: {self.logs()}") from None
                time.sleep(0.1)
        self.stop()  # never left running behind a test that failed for it
        raise RuntimeError(f"referee serve did not start in {START_S} s")

    def kill(self) -> None:
        """SIGKILL: no chance to clean up, as a pulled plug."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        if getattr(self, "log", None):
            self.log.close()

    def logs(self) -> str:
        path = self.database.with_suffix(f".{self.port}.log")
        return path.read_text(errors="replace") if path.exists() else ""

    def api(self) -> Api:
        return Api(HttpTransport(self.url))


@pytest.fixture
def live_server(tmp_path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "live.db").start()
    yield server
    server.stop()


@pytest.fixture
def default_server(tmp_path, monkeypatch) -> Iterator[LiveServer]:
    """`referee serve` with its default timeouts, whatever the environment says."""
    monkeypatch.delenv("REFEREE_IDLE_TIMEOUT", raising=False)
    server = LiveServer(tmp_path / "default.db").start()
    yield server
    server.stop()


@pytest.fixture
def short_idle_server(tmp_path, monkeypatch) -> Iterator[LiveServer]:
    """`referee serve` closing idle connections after 2 s (REFEREE_IDLE_TIMEOUT)."""
    monkeypatch.setenv("REFEREE_IDLE_TIMEOUT", "2")
    server = LiveServer(tmp_path / "short-idle.db").start()
    yield server
    server.stop()
