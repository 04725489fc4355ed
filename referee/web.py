"""What every blueprint shares (the API, the pages, the printouts): the store of this
request, the bearer token it carries, the public address phones reach the referee at, the
join links built on it and the key their codes are derived from, the limits on a request's
body, and the Jinja filters that do the templates' arithmetic (a template holds no
arithmetic or rule constant)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
from collections.abc import Callable
from typing import TypeVar

from flask import current_app, request, url_for

from .network import LOOPBACK_NAMES, host_name, lan_addresses
from .signing import SigningKey
from .store import Store

MAX_BODY = 64 * 1024  # any request's body, unless its view allows more
MAX_GAME_FILE = 4 * 1024 * 1024  # a game file to import: a long four-player game's log
# a game's refused form, unless its view says
REFUSED_FORM_GOES_TO: tuple[str, dict[str, str]] = ("pages.game", {})
V = TypeVar("V", bound=Callable)


def store() -> Store:
    """This thread's store (see ``app.init_store``)."""
    return current_app.extensions["referee.store"]()


def signing_key() -> SigningKey:
    """This installation's signing key (``app._signing_key``): it signs the game files the
    referee exports, and its public key is trusted here without asking."""
    return current_app.extensions["referee.signing_key"]


def client_address() -> str:
    """The client's address as the server sees it: the peer's, or the one a trusted proxy
    names (waitress rewrites REMOTE_ADDR only for ``--trusted-proxy``)."""
    return request.remote_addr or "unknown"


def bearer() -> str | None:
    """The token of this request's 'Authorization: Bearer ...' header, or None."""
    return bearer_token(request.headers.get("Authorization", ""))


def bearer_token(header: str) -> str | None:
    """The token of an 'Authorization: Bearer ...' header's value, or None (read the same
    way by the app and by the shortcuts that answer before it, ``poll`` and
    ``move_shortcut``)."""
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def public_base() -> str:
    """Where phones reach this referee: PUBLIC_URL if set; the LAN address in place of a
    loopback host, since a join link made on the organiser's laptop must work on a phone."""
    if current_app.config.get("PUBLIC_URL"):
        return current_app.config["PUBLIC_URL"].rstrip("/")
    host = request.host
    name, port = host.rsplit(":", 1) if ":" in host.rpartition("]")[2] else (host, "")
    if host_name(name) in LOOPBACK_NAMES:
        host = f"{lan_addresses()[0]}:{port}" if port else lan_addresses()[0]
    return f"{request.scheme}://{host}"


def join_key() -> str | bytes:
    """The key every seat's join code is derived from (``service.join_code``): the
    installation's secret key, which no player sees and a copy of the database does not hold."""
    return current_app.config["SECRET_KEY"]


def join_url(game_id: str, seat: str, code: str) -> str:
    """The join page a seat's QR code and link lead to."""
    return public_base() + url_for("pages.join", game_id=game_id, seat=seat, code=code)


EVENING_KEY_CHARS = 24  # hex digits of the organiser's key: 96 bits, out of any guesser's reach


def evening_key() -> str:
    """The organiser's key to the evening's page from another device, derived from the
    installation's secret key (which no player sees): the same in every process and restart,
    printed by ``referee serve``, and guessable by nobody who does not hold the secret."""
    secret = current_app.config["SECRET_KEY"]
    secret = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(secret, b"referee: the evening's page", hashlib.sha256).hexdigest()[
        :EVENING_KEY_CHARS]


def from_the_laptop() -> bool:
    """Whether the request comes from the machine the referee runs on: a loopback peer that
    asked for a loopback name. A phone on the LAN asks for the laptop's LAN address; a proxy
    on the laptop passes the public name on (and, trusted, the phone's address), so neither
    counts as the laptop."""
    try:
        peer = ipaddress.ip_address((request.remote_addr or "").split("%")[0])
    except ValueError:
        return False
    return peer.is_loopback and host_name(request.host) in LOOPBACK_NAMES


def script_json(data: object) -> str:
    """JSON to sit in a page's <script type="application/json"> block: '<', '>' and '&' are
    written as escapes, so that no player's name ("</script>...") can end the block."""
    return (json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026"))


def refused_form_goes_to(endpoint: str | None, **values: object) -> Callable[[V], V]:
    """Say where a page's refused form (400, 409 or 422 on a game's POST) goes back to, its
    problems flashed there: ``endpoint`` for the request's game with ``values``, or None for
    the error page. A game's form that says nothing goes back to the game's page."""
    def mark(view: V) -> V:
        view.refused_form_goes_to = (endpoint, values)  # type: ignore[attr-defined]
        return view
    return mark


def refused_form_target() -> tuple[str | None, dict]:
    """Where the view of this request sends its refused form (see refused_form_goes_to)."""
    view = current_app.view_functions.get(request.endpoint or "")
    return getattr(view, "refused_form_goes_to", REFUSED_FORM_GOES_TO)


# -- the templates' arithmetic, as Jinja filters (registered by the pages' blueprint) ---------

FINGERPRINT_SHOWN = 16  # hex digits of a fingerprint shown in full only on hover


def time_left(deadline: float, now: float) -> str:
    """A clock's time left as the pages show it (R10, R25), the same words as the script's.

    >>> time_left(1300.5, 1000), time_left(1000, 1000), time_left(900, 1000)
    ('5:00 left', 'time is up', 'time is up')
    """
    left = int(deadline - now)
    return f"{left // 60}:{left % 60:02d} left" if left > 0 else "time is up"


def minutes_since(then: float, now: float) -> int:
    """Whole minutes from ``then`` to ``now``: "Not seen for 3 min."

    >>> minutes_since(100, 400), minutes_since(100, 159)
    (5, 0)
    """
    return int((now - then) // 60)


def short_fingerprint(fingerprint: str) -> str:
    """The start of a fingerprint, enough to compare across the table by eye.

    >>> short_fingerprint("9c1e" * 16)
    '9c1e9c1e9c1e9c1e'
    """
    return fingerprint[:FINGERPRINT_SHOWN]
