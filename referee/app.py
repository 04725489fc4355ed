"""The Flask application: configuration, storage per request, security headers, blueprints."""

from __future__ import annotations

import contextlib
import gzip
import logging
import mimetypes
import os
import secrets
import tempfile
import threading
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from flask import Flask, request
from flask.json.provider import DefaultJSONProvider
from flask.sessions import SecureCookieSessionInterface
from flask_wtf.csrf import CSRFProtect

from . import errors, signing
from .common import limits
from .common.lifecycle import DEFAULT_MINUTES, MAX_MINUTES, MAX_NAME, MIN_MINUTES
from .hosts import AllowedHosts, HostCheck
from .move_shortcut import MoveShortcut
from .poll import PollShortcut
from .service import IMPORTS_PER_MINUTE
from .store import Store, is_postgresql
from .web import MAX_BODY

csrf = CSRFProtect()

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


# the limits the shared pages state (a name's length, the clocks, a blank record's pages),
# every game's alike: the shared templates read them as ``limits``
SHARED_LIMITS = {"MAX_NAME": MAX_NAME, "MIN_MINUTES": MIN_MINUTES, "MAX_MINUTES": MAX_MINUTES,
                 "DEFAULT_MINUTES": DEFAULT_MINUTES,
                 "MAX_CLOCK_EXTENSION": limits.MAX_CLOCK_EXTENSION,
                 "BLANK_RECORD_PAGES": limits.BLANK_RECORD_PAGES,
                 "MAX_BLANK_RECORD_PAGES": limits.MAX_BLANK_RECORD_PAGES}

SECURITY_LOWER = [(name.lower(), name, value) for name, value in SECURITY_HEADERS.items()]


def security_headers(response):
    """Each of ``SECURITY_HEADERS`` a response has not set itself (as ``setdefault`` would,
    with one look at the headers it has rather than a search for each)."""
    present = {name.lower() for name, _ in response.headers}
    for lower, name, value in SECURITY_LOWER:
        if lower not in present:
            response.headers.add(name, value)
    return response


class KeptSigningSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, the cookie's signing serializer made once for the
    app's secret keys (and again should they change) where Flask makes one for every request
    (a tenth of its own cost for a move through the API, which has no session at all)."""

    kept: tuple[tuple, object] | None = None

    def get_signing_serializer(self, app: Flask):
        if not app.secret_key:
            return None
        keys = (*(app.config.get("SECRET_KEY_FALLBACKS") or ()), app.secret_key)
        kept = self.kept
        if kept is None or kept[0] != keys:
            kept = self.kept = (keys, super().get_signing_serializer(app))
        return kept[1]


PRIVATE = 0o600  # the database, its -wal/-shm files, the secret and signing keys: the owner's


def _made_once(path: Path, make: Callable[[], bytes]) -> bytes:
    """A file shared by every process of this installation, made once (``make`` gives its
    bytes), readable by the owner only from the first byte: written to a private temporary
    file, then linked into place (so no process ever reads a half-written file, and two
    starting at once agree on the first)."""
    if not path.exists():
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # 0600
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(make())
                out.flush()
                os.fsync(out.fileno())
            with contextlib.suppress(FileExistsError):  # another process was first: use its
                os.link(temporary, path)
        finally:
            os.unlink(temporary)
    _make_private(path)
    return path.read_bytes()


def _secret_key(instance: Path) -> str:
    """A secret key shared by every process of this installation (the session cookie's)."""
    return _made_once(instance / "secret_key",
                      lambda: secrets.token_hex(32).encode()).decode().strip()


def _signing_key(path: Path) -> signing.SigningKey:
    """The key this installation signs its game files with (Ed25519), made once and kept
    private like the secret key; every worker process reads the same file."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        return signing.SigningKey(_made_once(path, signing.new_private_key))
    except ValueError as err:
        raise RuntimeError(f"{path} is not this referee's signing key ({err}); move it away "
                           "to make a new key, or put the right one back") from None


def _make_private(path: Path) -> None:
    """Take away group and other access from a file of ours that has any."""
    with contextlib.suppress(OSError):
        if path.stat().st_mode & 0o077:
            path.chmod(PRIVATE)


def _private_database(database: str) -> None:
    """Create the database file with mode 0600 before SQLite opens it; SQLite gives its -wal
    and -shm files the database's mode. A file made earlier with a looser mode is tightened."""
    if database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE))
    for each in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if each.exists():
            _make_private(each)


COMPRESSIBLE = ("text/html", "text/css", "text/javascript", "application/javascript",
                "application/json", "image/svg+xml", "application/manifest+json")
MIN_COMPRESS = 1024
# a body this large (a long game's record: 370 KB of page at its longest) is compressed
# harder: 12 ms rather than 5, and 4% fewer bytes to a phone on the club's Wi-Fi
HARD_COMPRESS = 64 * 1024


def gzipped(response):
    """Compress pages, scripts and JSON for phones on a slow club Wi-Fi (each page under 60 KB
    transferred); responses the browser did not ask to compress pass untouched."""
    if (response.status_code != 200 or response.mimetype not in COMPRESSIBLE
            or "gzip" not in request.headers.get("Accept-Encoding", "")
            or "Content-Encoding" in response.headers):
        return response
    response.direct_passthrough = False
    body = response.get_data()
    if len(body) < MIN_COMPRESS:
        return response
    response.set_data(gzip.compress(body, compresslevel=9 if len(body) >= HARD_COMPRESS else 6))
    response.headers["Content-Encoding"] = "gzip"
    response.headers.add("Vary", "Accept-Encoding")
    return response


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)  # the pages: referee/templates
    app.session_interface = KeptSigningSessions()
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "referee.db"),
        MAX_CONTENT_LENGTH=MAX_BODY,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),  # a seat outlives a closed browser
        # the cookie is sent only by a request that changed the session: a page's poll or
        # stream, begun before a move and answered after it, would otherwise send back the
        # session it read and undo what the move put there (a seat, a message to show)
        SESSION_REFRESH_EACH_REQUEST=False,
        WTF_CSRF_TIME_LIMIT=None,  # a form left open through a long game still submits
        JSON_SORT_KEYS=False,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("REFEREE")
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    limit = app.config.setdefault("IMPORTS_PER_MINUTE", IMPORTS_PER_MINUTE)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"REFEREE_IMPORTS_PER_MINUTE is a whole number of game files, 1 or "
                         f"more, not {limit!r}")
    app.extensions["referee.signing_key"] = _signing_key(Path(app.config.get(
        "SIGNING_KEY_FILE") or os.path.join(app.instance_path, "signing_key")))
    if isinstance(app.json, DefaultJSONProvider):  # documents keep their keys' order
        app.json.sort_keys = False
    # The scripts are ES modules, which a browser refuses unless served as JavaScript (and
    # nosniff is on); some systems' type registries say text/plain for .js, so say it here.
    mimetypes.add_type("text/javascript", ".js")

    logging.getLogger("referee").setLevel(logging.INFO)
    init_store(app)
    csrf.init_app(app)
    errors.register(app)
    app.jinja_env.globals["limits"] = SHARED_LIMITS  # templates hold no constant

    from . import (
        api,
        assets,
        cli,
        icons,
        pages,
        printouts,
        sockets,  # noqa: F401  # the seats' sockets' route, on the API's blueprint
        webparts,
    )

    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)
    app.register_blueprint(pages.bp)
    # each registered rule set's pages and paper, as its RuleSet names them
    webparts.register(app, webparts.every_rule_sets())
    app.register_blueprint(icons.bp)
    printouts.register(app)
    cli.register(app)
    assets.register(app)  # after every blueprint with static files

    app.after_request(security_headers)

    @app.after_request
    def compress(response):
        return gzipped(response)

    app.wsgi_app = MoveShortcut(  # type: ignore[method-assign]  # flask's way to wrap it
        app.wsgi_app, app, app.extensions["referee.store"], SECURITY_HEADERS)
    app.wsgi_app = PollShortcut(  # type: ignore[method-assign]  # flask's way to wrap it
        app.wsgi_app, app.extensions["referee.store"], SECURITY_HEADERS)
    allowed = AllowedHosts(app.config.get("PUBLIC_URL"), app.config.get("ALLOWED_HOSTS"))
    # outermost: every request
    app.wsgi_app = HostCheck(  # type: ignore[method-assign]  # flask's way to wrap it
        app.wsgi_app, allowed, SECURITY_HEADERS)
    return app


def init_store(app: Flask) -> None:
    """Create or migrate the database once; each server thread keeps one connection open.

    Connections are per thread (SQLite's rule, and a PostgreSQL connection serves one
    request at a time) and reused across requests; SQLite's WAL mode lets them, and other
    processes' connections, read while one writes, as PostgreSQL does of itself.
    """
    if not is_postgresql(app.config["DATABASE"]):  # a file: its folder, made private
        Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
        _private_database(app.config["DATABASE"])
    first = Store(app.config["DATABASE"])
    app.extensions["referee.migrated"] = first.migrate()  # for `referee init-db` to report
    first.close()
    local = threading.local()

    def store() -> Store:
        if getattr(local, "store", None) is None:  # `referee serve` checkpoints on its own
            local.store = Store(app.config["DATABASE"],
                                autocheckpoint=not app.config.get("CHECKPOINT_IN_BACKGROUND"))
        return local.store

    @app.teardown_request
    def end_open_transaction(_exc):
        held = getattr(local, "store", None)
        if held is not None:
            held.end_open_transaction()

    app.extensions["referee.store"] = store
