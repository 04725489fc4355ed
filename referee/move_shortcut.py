"""A seat's move through the API, made before Flask is entered.

After the streams' pushes, a move (``POST /api/v1/games/{id}/moves``) is what a game night
asks of the referee most, and Flask's request cycle around it (its context, routing, hooks,
a Response object) cost about as much again as the move itself. This WSGI middleware makes
the move as the route does: the same authorisation (``service.authorise``), the same
Idempotency-Key and body checks (``api.idempotency_key``, ``api.json_object``), the same
``service.make_move``, and answers with the headers Flask would send.

It takes only what it expects: anything else (another method or path, a body that is not
``application/json`` of a stated length within the limit, no bearer token) goes on to the
app untouched. A refusal on the way (a bad token, a move the rules refuse, a full log) is
turned into its answer by the app's own error handler, in a request context of the same
request, so that a refused move answers exactly as the route's would; a test compares the
two header for header.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable

from flask import Flask
from werkzeug.http import HTTP_STATUS_CODES

from . import service
from .api import idempotency_key, json_object
from .store import Store
from .web import bearer_token

MOVE_PATH = re.compile(r"^/api/v1/games/([0-9a-f]{1,40})/moves$")


class MoveShortcut:
    """Makes a seat's move before Flask (see the module); anything unexpected goes on."""

    def __init__(self, app: Callable, flask: Flask, store: Callable[[], Store],
                 headers: dict[str, str]) -> None:
        self.app, self.flask, self.store = app, flask, store
        self.headers = list(headers.items())

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        taken = self._taken(environ)
        if taken is None:
            return self.app(environ, start_response)
        game_id, token, length = taken
        body = environ["wsgi.input"].read(length)
        environ["wsgi.input"] = io.BytesIO(body)  # for the app's error handler, if it answers
        if len(body) != length:  # cut short: the app says so as it always has
            return self.app(environ, start_response)
        try:
            store = self.store()
            seat = service.authorise(store, game_id, token)
            key = idempotency_key(environ.get("HTTP_IDEMPOTENCY_KEY"))
            made = service.make_move(store, game_id, seat, json_object(body), key)
        except Exception as refused:  # noqa: BLE001  # every refusal answers as the app's
            return self._refused(refused, environ, start_response)
        data = (made.written.text + "\n").encode()  # as Flask writes it: keys in order
        status = f"{made.status} {HTTP_STATUS_CODES.get(made.status, '').upper()}"
        start_response(status, [("Content-Type", "application/json"),
                                ("Content-Length", str(len(data))), *self.headers])
        return [data]

    def _taken(self, environ: dict) -> tuple[str, str, int] | None:
        """The game, the bearer token and the body's length of a move this takes."""
        if environ.get("REQUEST_METHOD") != "POST" or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        match = MOVE_PATH.match(environ.get("PATH_INFO", ""))
        if match is None:
            return None
        kind = environ.get("CONTENT_TYPE", "").partition(";")[0].strip().lower()
        length = environ.get("CONTENT_LENGTH", "")
        if kind != "application/json" or not length.isdigit() \
                or not 0 < int(length) <= self.flask.config["MAX_CONTENT_LENGTH"]:
            return None
        token = bearer_token(environ.get("HTTP_AUTHORIZATION", ""))
        if token is None:
            return None
        return match.group(1), token, int(length)

    def _refused(self, refused: Exception, environ: dict,
                 start_response: Callable) -> Iterable[bytes]:
        """The app's answer to a refusal raised by its route for this request: its error
        handler, its after-request hooks (the security headers) and its teardown."""
        flask = self.flask
        with flask.request_context(environ):
            try:
                answer = flask.handle_user_exception(refused)
            except Exception as error:  # noqa: BLE001  # as Flask's own wsgi_app
                return flask.handle_exception(error)(environ, start_response)
            return flask.finalize_request(answer)(environ, start_response)
