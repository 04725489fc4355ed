"""The cheap version poll: `GET /api/v1/games/{id}` answered before Flask is entered.

Phones poll their game every couple of seconds and almost always nothing has changed. This
WSGI middleware answers that case, a player's token with an `If-None-Match` equal to his
view's current ETag, from two indexed lookups, with the same headers Flask would send; and,
when his view at the game's current version is already built and kept, it sends
those kept bytes the same way. Anything else (a view not yet built, a computer still to
move, any doubt about the token) goes on to the app, which does the full authorisation and
builds the view.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from flask import Response, request
from werkzeug.sansio.response import Response as SansioResponse

from .service import kept_view, mark_seen
from .store import Store, Unavailable
from .web import bearer_token

POLL_PATH = re.compile(r"^/api/v1/games/([0-9a-f]{1,40})$")


def view_etag(game_id: str, seat: str, version: int, draft: int = 0) -> str:
    """The ETag of a seat's view: it changes exactly when the game's version does, or the
    seat's own draft disposition (a private note, not an event: no other seat sees it)."""
    return f'"{game_id}.{seat}.{version}.{draft}"' if draft else f'"{game_id}.{seat}.{version}"'


def etag_matches(etag: str, if_none_match: str) -> bool:
    return etag in (tag.strip() for tag in if_none_match.split(","))


def conditional(etag: str, build: Callable[[], SansioResponse]) -> SansioResponse:
    """A 304 when the client's If-None-Match is this ETag, else the built response; both
    carry the ETag and ask to be revalidated every time."""
    response: SansioResponse
    if etag_matches(etag, request.headers.get("If-None-Match", "")):
        response = Response(status=304)
    else:
        response = build()
    response.headers["ETag"] = etag
    response.headers["Cache-Control"] = "no-cache"
    return response


class PollShortcut:
    """Answers a player's view from what is kept, before Flask is entered: a 304 when his
    ETag is current, the kept bytes (gzipped when asked) when his view at the store's
    version is already built; anything else goes on to the app."""

    def __init__(self, app: Callable, store: Callable[[], Store],
                 headers: dict[str, str]) -> None:
        self.app, self.store = app, store
        self.headers = [*headers.items(), ("Cache-Control", "no-cache")]

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        try:
            answer = self._kept(environ)
        except Unavailable:  # the app says so, as JSON (503)
            answer = None
        if answer is None:
            return self.app(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body] if body else []

    def _kept(self, environ: dict) -> tuple[str, list, bytes] | None:
        if environ.get("REQUEST_METHOD") != "GET":
            return None
        match = POLL_PATH.match(environ.get("PATH_INFO", ""))
        token = bearer_token(environ.get("HTTP_AUTHORIZATION", ""))
        if not match or token is None:
            return None
        store = self.store()
        found = store.seat_stamp(token)  # one query: the seat and its view's stamp
        game_id = match.group(1)
        if found is None:
            return None
        holder, stamp = found
        seat = holder.seat  # a seat's token (a host token has no seat, nor a row there)
        if holder.game_id != game_id or seat is None:
            return None
        etag = view_etag(game_id, seat, *stamp)
        if etag_matches(etag, environ.get("HTTP_IF_NONE_MATCH", "")):
            answer = ("304 Not Modified", [("ETag", etag), *self.headers], b"")
        else:
            shown = kept_view(store, game_id, seat, *stamp)
            if shown is None:
                return None
            answer = ("200 OK", [("Content-Type", "application/json"), ("ETag", etag),
                                 *self.headers], shown.body)
            if "gzip" in environ.get("HTTP_ACCEPT_ENCODING", ""):
                answer = ("200 OK", [*answer[1], ("Content-Encoding", "gzip"),
                                     ("Vary", "Accept-Encoding")], shown.gzipped)
            answer[1].append(("Content-Length", str(len(answer[2]))))
        mark_seen(store, game_id, seat)  # a poll answered here still shows he is here
        return answer
