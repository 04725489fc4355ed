"""The JSON API of API.md (v1): every response about a player is built from his view (R21)."""

from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, g, jsonify, request

from . import service, streams, strictjson
from .errors import ApiError
from .openapi import openapi_document
from .poll import conditional, view_etag
from .rulesets import rule_sets
from .web import MAX_GAME_FILE, bearer, client_address, join_key, join_url, signing_key, store

bp = Blueprint("api", __name__, url_prefix="/api/v1")

MAX_KEY = 200


def json_body(*, required: bool = True) -> dict:
    """The request's JSON object; a 400 naming the problem if it is not one."""
    return json_object(request.get_data(cache=True), required=required)


def json_object(raw: bytes, *, required: bool = True, field: str = "body") -> dict:
    """A request body's JSON object (or a socket's message: ``field``); a 400 naming the
    problem if it is not one."""
    the = f"The {field}"
    if not raw:
        if required:
            raise ApiError(400, f"The request needs a JSON {field}", field=field)
        return {}
    try:
        body = strictjson.loads(raw)
    except strictjson.NotFinite as err:
        raise ApiError(422, f"{the} holds a number the referee cannot take: {err}",
                       field=field) from None
    except (ValueError, UnicodeDecodeError) as err:
        raise ApiError(400, f"{the} is not valid JSON: {err}", field=field) from None
    except RecursionError:
        raise ApiError(400, f"{the} is not valid JSON: it is nested too deeply",
                       field=field) from None
    if not isinstance(body, dict):
        raise ApiError(400, f"{the} must be a JSON object", field=field)
    # text that cannot be written as UTF-8 (a lone surrogate, "\ud800") is refused here: it
    # can come only from an escape or from bytes beyond ASCII (UTF-8's; a NUL byte is how
    # UTF-16 and UTF-32 write ASCII), so most bodies need no second look
    if raw.isascii() and b"\\u" not in raw and b"\0" not in raw:
        return body
    try:
        json.dumps(body, ensure_ascii=False).encode()
    except (UnicodeEncodeError, RecursionError):
        raise ApiError(400, f"{the} is not valid JSON: it holds text that is not Unicode",
                       field=field) from None
    return body


JSON_ONLY = ("POST", "PUT", "PATCH")


@bp.before_request
def json_only():
    """Every body sent here is JSON, said so by its Content-Type: a page elsewhere can post a
    form or plain text across sites without asking, but not application/json (no
    cross-site request forgery). A request with no body and no Content-Type has nothing to
    parse and passes."""
    if request.method not in JSON_ONLY:
        return
    has_body = bool(request.content_length) or "chunked" in request.headers.get(
        "Transfer-Encoding", "").lower()
    if request.mimetype == "application/json" or (not request.content_type and not has_body):
        return
    sent = request.content_type or "none"
    raise ApiError(415, f"Send the body as JSON with 'Content-Type: application/json' "
                        f"(this request's Content-Type is {sent[:60]!r})", field="Content-Type")


def player(game_id: str) -> str:
    """The seat this request plays, or 401/403/404."""
    g.seat = service.authorise(store(), game_id, bearer())
    return g.seat


def host(game_id: str) -> None:
    service.authorise(store(), game_id, bearer(), host=True)


@bp.post("/games")
def create_game():
    body = json_body(required=False)
    return jsonify(service.create_game(store(), body, join_url, key=join_key())), 201


@bp.post("/games/<game_id>/seats/<seat>")
def claim_seat(game_id: str, seat: str):
    service.require_game(store(), game_id)
    body = json_body()
    code, name = body.get("join_code"), body.get("name")
    if not isinstance(code, str) or not code:
        raise ApiError(400, "'join_code' is the code from your join link", field="join_code")
    if not isinstance(name, str):
        raise ApiError(400, "'name' is your name as the table will see it", field="name")
    return jsonify(service.claim_seat(store(), game_id, seat, code, name,
                                      key=join_key())._asdict())


@bp.post("/games/<game_id>/seats/<seat>/recover")
def recover(game_id: str, seat: str):
    """Move a seat to this device with its recovery code (R24); a fresh code comes back."""
    service.require_game(store(), game_id)
    code = json_body().get("recovery_code")
    return jsonify(service.recover_seat(store(), game_id, seat, code,
                                        request.remote_addr or "")._asdict())


@bp.get("/games/<game_id>")
def view(game_id: str):
    """A player's view; 304 when his ETag is current (mostly answered by ``poll``)."""
    seat = player(game_id)
    shown = service.seat_view(store(), game_id, seat)  # built once per version and seat
    return conditional(view_etag(game_id, seat, shown.version, shown.draft),
                       lambda: view_response(shown))


def view_response(shown: service.SeatView) -> Response:
    """A kept view's bytes, gzipped once per version for a phone that asks (the cheap poll)."""
    if "gzip" not in request.headers.get("Accept-Encoding", ""):
        return Response(shown.body, mimetype="application/json")
    response = Response(shown.gzipped, mimetype="application/json")
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response


@bp.get("/games/<game_id>/stream")
def stream(game_id: str):
    """The game's new versions as they are committed (Server-Sent Events): a player's token
    hears his view (``view`` events), no token the game's public status (``public``)."""
    token = bearer()
    if token is None:
        service.require_game(store(), game_id)
        listener = streams.Listener("public", game_id, None, None)
    else:
        listener = streams.Listener("view", game_id, player(game_id), token)
    return streams.open_stream(listener, client_address())


@bp.put("/games/<game_id>/disposition")
def disposition(game_id: str):
    seat = player(game_id)
    document = json_body()
    cost, warnings = service.submit_draft(store(), game_id, seat, document)
    return jsonify({"cost": cost, "warnings": [w.to_json() for w in warnings]})


def seat_view_response(game_id: str, seat: str) -> Response:
    """A seat's view after a command, as the poll serves it (R21, R25): the bytes kept for
    the game's version, never a copy of the state, whose cost would grow with what is hidden
    from the seat."""
    return Response(service.seat_view(store(), game_id, seat).body,
                    mimetype="application/json")


@bp.post("/games/<game_id>/ready")
def ready(game_id: str):
    seat = player(game_id)
    sent = json_body(required=False)  # {"dice_seed": "..."}: the phone's own seed (BB24)
    unknown = [key for key in sent if key != "dice_seed"]
    if unknown:
        raise ApiError(400, f"{str(unknown[0])[:40]!r} is not part of a lock-in; it may send "
                            "only its dice seed", field=str(unknown[0])[:40])
    service.lock_in_draft(store(), game_id, seat, sent.get("dice_seed"))
    return seat_view_response(game_id, seat)


@bp.post("/games/<game_id>/moves")
def move(game_id: str):
    """A seat's move (mostly answered by ``move_shortcut``, before Flask, the same way)."""
    seat = player(game_id)
    key = idempotency_key(request.headers.get("Idempotency-Key"))
    document = json_body()
    made = service.make_move(store(), game_id, seat, document, key)
    # the report as its move wrote it once (``MoveMade.written``), as ``move_shortcut`` sends it
    return Response(made.written.text + "\n", made.status, mimetype="application/json")


def idempotency_key(key: str | None) -> str | None:
    """A move's Idempotency-Key, if it sent one; a 400 if it is empty or too long."""
    if key is not None and not 0 < len(key) <= MAX_KEY:
        raise ApiError(400, f"'Idempotency-Key' is 1 to {MAX_KEY} characters",
                       field="Idempotency-Key")
    return key


@bp.get("/games/<game_id>/record")
def record(game_id: str):
    seat = player(game_id)
    return Response(service.record_body(store(), game_id, seat), mimetype="application/json")


@bp.post("/games/<game_id>/end")
def end(game_id: str):
    seat = player(game_id)
    service.agree_to_end(store(), game_id, seat)
    return seat_view_response(game_id, seat)


@bp.post("/games/<game_id>/play-on")
def play_on(game_id: str):
    """Decline another player's offer to end the game (R14)."""
    seat = player(game_id)
    service.play_on(store(), game_id, seat)
    return seat_view_response(game_id, seat)


@bp.post("/games/<game_id>/seats/<seat>/stand-in")
def stand_in(game_id: str, seat: str):
    """An opponent hands a seat whose move clock ran out to the computer (R25)."""
    by = player(game_id)
    service.stand_in(store(), game_id, seat, by)
    return seat_view_response(game_id, by)


@bp.post("/games/<game_id>/resign")
def resign(game_id: str):
    seat = player(game_id)
    service.resign(store(), game_id, seat)
    return seat_view_response(game_id, seat)


@bp.get("/games/<game_id>/postmortem")
def postmortem(game_id: str):
    """What each weapon bought and what hindsight says; for the game's players, after the end."""
    player(game_id)
    document = service.derived(store(), game_id, "postmortem-summary",
                               service.postmortem_document,
                               costly="working out a post-mortem")
    return jsonify(document)


# -- games as files ----------------------------------------------------------------------------



@bp.get("/games/<game_id>/export")
def export(game_id: str):
    player(game_id)
    response = jsonify(service.export_game(store(), game_id, signing_key()))
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.json"'
    return response


@bp.post("/games/import")
def import_game():
    service.admit_import(store(), client_address(), current_app.config["IMPORTS_PER_MINUTE"])
    request.max_content_length = MAX_GAME_FILE
    return jsonify(service.import_game(store(), json_body(), signing_key().public)), 201


# -- the host's powers (R10) -------------------------------------------------------------

@bp.get("/games/<game_id>/host")
def host_view(game_id: str):
    host(game_id)
    return jsonify(service.host_status(store(), game_id))


@bp.get("/games/<game_id>/host/stream")
def host_stream(game_id: str):
    """The host status's new versions as they are committed (``host`` events)."""
    host(game_id)
    listener = streams.Listener("host", game_id, None, bearer())
    return streams.open_stream(listener, client_address())


@bp.post("/games/<game_id>/host/handover")
def hand_over(game_id: str):
    """Hand the host's powers to a player's seat; the host token stops working (R24)."""
    host(game_id)
    seat = json_body().get("seat")
    if not isinstance(seat, str):
        raise ApiError(400, "'seat' names the seat that becomes the host", field="seat")
    service.hand_over_hosting(store(), game_id, seat)
    return jsonify(service.host_status(store(), game_id))


@bp.post("/games/<game_id>/seats/<seat>/reissue")
def reissue(game_id: str, seat: str):
    host(game_id)
    code = service.reissue_join_code(store(), game_id, seat, key=join_key())
    return jsonify({"seat": seat, "join_code": code, "join_url": join_url(game_id, seat, code)})


@bp.post("/games/<game_id>/clock")
def extend_clock(game_id: str):
    host(game_id)
    service.extend_clock(store(), game_id, json_body().get("minutes"))
    return jsonify(service.host_status(store(), game_id))


@bp.post("/games/<game_id>/stand-in-level")
def choose_stand_in_level(game_id: str):
    """The host chooses the level of the computer that stands in for an absent player (R25)."""
    host(game_id)
    service.choose_stand_in_level(store(), game_id, json_body().get("level"))
    return jsonify(service.host_status(store(), game_id))


@bp.post("/games/<game_id>/seats/<seat>/forfeit")
def forfeit(game_id: str, seat: str):
    host(game_id)
    service.forfeit_seat(store(), game_id, seat)
    return jsonify(service.host_status(store(), game_id))


@bp.get("/rules")
def rules():
    """The rule sets and their catalogues; no token needed."""
    return jsonify(rule_sets())


@bp.get("/openapi.json")
def openapi():
    return jsonify(openapi_document())
