"""The cheap version poll: `GET /api/v1/games/{id}` answered 304 before Flask is entered.

Phones poll their game every couple of seconds and almost always nothing has changed. This
WSGI middleware answers exactly that case, a player's token with an `If-None-Match` equal to
his view's current ETag, from two indexed lookups, with the same headers Flask would send.
Anything else (no ETag, a changed game, any doubt about the token) goes on to the app, which
does the full authorisation and builds the view.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from flask import Response, request

from .service import mark_seen
from .store import Store

POLL_PATH = re.compile(r"^/api/v1/games/([0-9a-f]{1,40})$")


def view_etag(game_id: str, seat: str, version: int, draft: int = 0) -> str:
    """The ETag of a seat's view: it changes exactly when the game's version does, or the
    seat's own draft disposition (a private note, not an event: no other seat sees it)."""
    return f'"{game_id}.{seat}.{version}.{draft}"' if draft else f'"{game_id}.{seat}.{version}"'


def etag_matches(etag: str, if_none_match: str) -> bool:
    return etag in (tag.strip() for tag in if_none_match.split(","))


def conditional(etag: str, build: Callable[[], Response]) -> Response:
    """A 304 when the client's If-None-Match is this ETag, else the built response; both
    carry the ETag and ask to be revalidated every time."""
    if etag_matches(etag, request.headers.get("If-None-Match", "")):
        response = Response(status=304)
    else:
        response = build()
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


class PollShortcut:
    def __init__(self, app: Callable, store: Callable[[], Store],
                 headers: dict[str, str]) -> None:
        self.app, self.store = app, store
        self.headers = [*headers.items(), ("Cache-Control", "no-cache")]

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        etag = self._unchanged(environ)
        if etag is None:
            return self.app(environ, start_response)
        start_response("304 Not Modified", [("ETag", etag), *self.headers])
        return []

    def _unchanged(self, environ: dict) -> str | None:
        if environ.get("REQUEST_METHOD") != "GET" or "HTTP_IF_NONE_MATCH" not in environ:
            return None
        match = POLL_PATH.match(environ.get("PATH_INFO", ""))
        scheme, _, token = environ.get("HTTP_AUTHORIZATION", "").partition(" ")
        if not match or scheme.lower() != "bearer" or not token.strip():
            return None
        store = self.store()
        holder = store.holder_of(token.strip())
        game_id = match.group(1)
        if holder is None or holder.game_id != game_id or holder.seat is None:
            return None
        etag = view_etag(game_id, holder.seat, *store.view_stamp(game_id, holder.seat))
        if not etag_matches(etag, environ["HTTP_IF_NONE_MATCH"]):
            return None
        mark_seen(store, game_id, holder.seat)  # a poll answered here still shows he is here
        return etag
