"""Errors with a status, and the one place that turns any error into a response.

Views never format their own errors: they raise ``ApiError`` (or the core raises
``RuleViolation``) and ``register(app)`` turns it into JSON in the error format of API.md, or
a page for a browser once pages exist. No request, however malformed, gets a traceback.
"""

from __future__ import annotations

import logging

from flask import Flask, flash, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from .common.problems import RuleViolation
from .store import Unavailable
from .web import refused_form_target

log = logging.getLogger("referee")

STATUS_FOR_KIND = {"illegal": 422, "turn": 409, "forbidden": 403}
UNAVAILABLE = ("The referee's database is busy or out of reach for a moment; nothing was "
               "changed: try again")
SLIPPED = ("The referee slipped: nothing was changed. Try again; if it happens again, tell "
           "the organiser")


class ApiError(Exception):
    """A refused request: its status, a readable message, and the field or ruling it names."""

    def __init__(self, status: int, message: str, *, field: str | None = None,
                 rule: str = "request", headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.field, self.rule = status, message, field, rule
        self.headers = headers or {}  # sent with the refusal, e.g. a 429's Retry-After

    def __reduce__(self):
        """Pickled whole (one raised in a worker process of the costly pool comes back to the
        request as it was raised)."""
        return (_rebuilt, (type(self), self.status, self.message, self.field, self.rule,
                           self.headers))

    def to_json(self) -> dict:
        error = {"rule": self.rule, "message": self.message, "squares": []}
        if self.field:
            error["field"] = self.field
        return {"errors": [error]}


def _rebuilt(kind: type, status: int, message: str, field: str | None, rule: str,
             headers: dict[str, str]) -> ApiError:
    return kind(status, message, field=field, rule=rule, headers=headers)


def refusal_body(exc: ApiError | RuleViolation | Unavailable) -> tuple[dict, int]:
    """The JSON body and status of a refusal the service raises, wherever it is answered (a
    request, a seat's socket)."""
    if isinstance(exc, ApiError):
        return exc.to_json(), exc.status
    if isinstance(exc, RuleViolation):
        return exc.to_json(), STATUS_FOR_KIND.get(exc.kind, 422)
    return ApiError(503, UNAVAILABLE).to_json(), 503


def error_body(exc: BaseException) -> tuple[dict, int]:
    """The JSON body and status for any exception a request can raise."""
    if isinstance(exc, ApiError | RuleViolation):
        return refusal_body(exc)
    if isinstance(exc, HTTPException):
        message = {
            404: "No such page or game",
            405: f"{request.method} is not allowed here",
            413: "The request body is too large",
        }.get(exc.code or 500, exc.description or exc.name)
        return ApiError(exc.code or 500, message).to_json(), exc.code or 500
    if isinstance(exc, Unavailable):
        log.warning("the database is unavailable on %s %s: %s", request.method, request.path,
                    exc)
        return refusal_body(exc)
    log.exception("unexpected error on %s %s", request.method, request.path)
    return ApiError(500, SLIPPED).to_json(), 500


def wants_json() -> bool:
    """API calls and the pages' own scripts get JSON; a browser navigating gets a page, a
    PDF's link tapped on a phone included (a PDF's address is the API's)."""
    accept = request.accept_mimetypes
    if request.path.startswith("/api/"):
        return not (request.path.endswith(".pdf")
                    and accept.best_match(["application/json", "text/html"]) == "text/html")
    return accept.accept_json and not accept.accept_html


def _problems(body: dict) -> list[str]:
    return [f"{e['message']} ({e['rule']})" if e.get("rule", "request") != "request"
            and f"({e['rule']})" not in e["message"] else e["message"] for e in body["errors"]]


def register(app: Flask) -> None:
    @app.errorhandler(Exception)
    def handle(exc: Exception):
        body, status = error_body(exc)
        methods = getattr(exc, "valid_methods", None)  # a 405's (werkzeug's MethodNotAllowed)
        allow = {"Allow": ", ".join(methods)} if methods else {}
        if isinstance(exc, ApiError):
            allow.update(exc.headers)
        if wants_json():
            return jsonify(body), status, allow
        game_id = (request.view_args or {}).get("game_id")
        endpoint, values = refused_form_target()
        if request.method == "POST" and game_id and status in (400, 409, 422) and endpoint:
            for line in _problems(body):
                flash(line, "problem")
            return redirect(url_for(endpoint, game_id=game_id, **values))
        return render_template("error.html", status=status, problems=_problems(body),
                               game_id=game_id), status, allow
