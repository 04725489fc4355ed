"""The names the referee answers to: a request whose Host header names anything else is refused.

Join links, QR codes and redirects are built from the request's host, and most routes ask
no password: a page on another site whose name an attacker points at the laptop (DNS
rebinding) could otherwise read and drive the referee from a phone's browser. So every
request, those ``poll.PollShortcut`` answers before Flask included, passes ``HostCheck``
first, the outermost WSGI layer. The names are:

* ``localhost``, ``127.0.0.1`` and ``[::1]``;
* the laptop's LAN addresses (``network.lan_addresses``, looked up again, at most every
  ``LAN_LOOKUP_EVERY_S``, when a Host is not found: the laptop may change network);
* its host name, and that name under ``.local`` (mDNS);
* the host of ``PUBLIC_URL``, the address phones are given (behind a trusted proxy, waitress
  has already put the proxy's X-Forwarded-Host in the Host);
* whatever ``ALLOWED_HOSTS`` (``REFEREE_ALLOWED_HOSTS``, comma-separated) adds.

Any port. Names are compared lower-case, without a final dot, IPv6 addresses in their
short form. Anything else, a missing Host in HTTP/1.1 included, gets 400 with a message that
names the Host header: JSON in the API's error format under ``/api/``, plain text elsewhere.
An HTTP/1.0 request may leave the Host out (a proxy's health check does); no browser does.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from .errors import ApiError
from .network import LOOPBACK_NAMES, NAME, host_name, lan_addresses

log = logging.getLogger("referee")

LAN_LOOKUP_EVERY_S = 10
LOG_EVERY_S = 10
SHOWN = 80  # characters of a refused Host header repeated in the message


def configured_names(setting: object) -> set[str]:
    """The names of ``ALLOWED_HOSTS``: a comma-separated string, or a list of names."""
    items = setting.split(",") if isinstance(setting, str) else setting
    if items is None:
        return set()
    if not isinstance(items, list | tuple | set) or not all(isinstance(i, str) for i in items):
        raise ValueError(f"REFEREE_ALLOWED_HOSTS is host names separated by commas, not "
                         f"{setting!r}")
    names = set()
    for item in (i for i in items if i.strip()):
        name = host_name(item)
        if name is None:
            raise ValueError(f"REFEREE_ALLOWED_HOSTS: {item.strip()!r} is not a host name "
                             f"(or an address), with an optional port")
        names.add(name)
    return names


class AllowedHosts:
    """The referee's own names (see the module's docstring)."""

    def __init__(self, public_url: str | None = None, allowed: object = None) -> None:
        machine = socket.gethostname().lower()
        short = machine.split(".")[0]
        names = {*LOOPBACK_NAMES, *configured_names(allowed)}
        names.update(n for n in (machine, short, f"{short}.local") if NAME.fullmatch(n))
        public = urlsplit(public_url).netloc.rpartition("@")[2] if public_url else ""
        named = host_name(public)
        if named:
            names.add(named)
        self.fixed = frozenset(names)
        self.lan, self.lan_looked_up = frozenset(lan_addresses()), time.monotonic()

    def __contains__(self, name: str) -> bool:
        if name in self.fixed or name in self.lan:
            return True
        if time.monotonic() - self.lan_looked_up > LAN_LOOKUP_EVERY_S:
            self.lan, self.lan_looked_up = frozenset(lan_addresses()), time.monotonic()
        return name in self.lan


class HostCheck:
    """WSGI middleware: a request whose Host is not one of ``allowed`` gets 400, naming it."""

    last_logged = 0.0

    def __init__(self, app: Callable, allowed: AllowedHosts, headers: dict[str, str]) -> None:
        self.app, self.allowed = app, allowed
        self.headers = [*headers.items(), ("Cache-Control", "no-store")]

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        header = environ.get("HTTP_HOST")
        if header is None:
            if environ.get("SERVER_PROTOCOL") == "HTTP/1.0":
                return self.app(environ, start_response)
            return self.refuse(environ, start_response,
                               "An HTTP/1.1 request names the host it is for in its Host "
                               "header, and this one has none")
        name = host_name(header)
        if name is not None and name in self.allowed:
            return self.app(environ, start_response)
        if time.monotonic() - self.last_logged > LOG_EVERY_S:
            HostCheck.last_logged = time.monotonic()
            log.warning("refused a request whose Host header is %r", header[:SHOWN])
        return self.refuse(environ, start_response,
                           f"The Host header {header[:SHOWN]!r} is not a name of this "
                           "referee: open it at its own address (its LAN address, or the "
                           "public address it was given); REFEREE_ALLOWED_HOSTS adds a name")

    def refuse(self, environ: dict, start_response: Callable, message: str
               ) -> Iterable[bytes]:
        if environ.get("PATH_INFO", "").startswith("/api/"):
            body = json.dumps(ApiError(400, message, field="Host").to_json()).encode()
            kind = "application/json"
        else:
            body = f"Bad request. {message}.\n".encode()
            kind = "text/plain; charset=utf-8"
        start_response("400 Bad Request", [("Content-Type", kind),
                                           ("Content-Length", str(len(body))), *self.headers])
        return [body]
