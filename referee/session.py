"""The phone's session: which seats and hosted games this phone holds, in its (HttpOnly,
SameSite=Lax) session cookie, and the decorators that authorise a route from it.

The cookie is signed, not secret: anyone holding the phone can read it. It keeps only the
tokens this phone plays and hosts with (no join code: the host page derives those from the
installation's secret key, ``service.join_code``), drops a finished game an hour after its
end, and keeps at most KEPT_GAMES of each, the oldest dropped: well under 4 KB however many
games a phone has played (a cookie stays small). A seat's recovery code rides in it once, to the
next page of the game, which shows it and drops it (R24).

``seated`` and ``hosting`` authorise a route as flaskr's ``login_required`` does: the phone's
seat (or host token) is found before the view runs and kept in ``flask.g`` with the game and
the rule set it plays (``g.game_id``, ``g.seat`` or ``g.host_token``, ``g.rules``); a phone
without one gets a page that says how to get it back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar, cast

from flask import g, request, session, url_for
from flask.typing import ResponseReturnValue

from . import rulesets, service
from .common.documents import Json
from .errors import ApiError
from .web import public_base, store

KEPT_GAMES = 12
FINISHED_KEPT_S = 3600  # time to print the booklet or download the file after the end
V = TypeVar("V", bound=Callable[..., ResponseReturnValue])


def seats() -> Json:
    """This phone's seats: game id to the seat's token."""
    held: Json = session.get("seats", {})
    return held


def hosted() -> Json:
    """The games this phone created: game id to the host token."""
    held: Json = session.get("host", {})
    return held


def remember(key: str, game_id: str, value: str) -> None:
    """Keep a token of this phone's ("seats" or "host") for a game, the newest last."""
    held = {game: v for game, v in session.get(key, {}).items() if game != game_id}
    held[game_id] = value
    session[key] = held
    session.permanent = True
    prune()


def forget_seat(game_id: str) -> None:
    """This phone no longer holds a seat in the game (its join link was reissued)."""
    session["seats"] = {game: t for game, t in seats().items() if game != game_id}


def prune() -> None:
    """Drop games finished over an hour ago, then all but the newest KEPT_GAMES."""
    held = {key: dict(session.get(key, {})) for key in ("seats", "host")}
    ids = sorted({game for games in held.values() for game in games})
    done = store().finished_before(ids, service.now() - FINISHED_KEPT_S)
    for key, games in held.items():
        kept = [(game, v) for game, v in games.items() if game not in done][-KEPT_GAMES:]
        if len(kept) != len(games):
            session[key] = dict(kept)


def _host_entry(game_id: str) -> str | None:
    """The host token this phone holds for a game; an old cookie's join codes are dropped
    from it (the host page derives every seat's code)."""
    held = hosted().get(game_id)
    if isinstance(held, dict):  # a cookie from before item 12: {"token", "codes"}
        held = held.get("token")
        if isinstance(held, str):
            remember("host", game_id, held)
    return held if isinstance(held, str) and held else None


NO_SEAT = ("This phone holds no seat in this game. To join, ask the host for your join link "
           "or QR code; if you had a seat on another phone, take it back here with the "
           "recovery code you wrote down (R24).")
SEAT_MOVED = ("This phone's seat was handed to another device: by its recovery code, or by "
              "the host with a new join link before lock-in. If that was not you, take it back "
              "here with your recovery code; otherwise play on that device (R24).")


def my_seat(game_id: str) -> str:
    """The seat this device holds in the game; a friendly 403 page otherwise, which says
    what happened and links the way back (``error.html``)."""
    token = seats().get(game_id)
    if token is None:
        service.require_game(store(), game_id)
        raise ApiError(403, NO_SEAT)
    try:
        return service.authorise(store(), game_id, token)
    except ApiError as err:
        if err.status == 401:
            raise ApiError(403, SEAT_MOVED) from None
        raise


def is_over(game_id: str) -> bool:
    """Whether the game has ended (its public status; R21's secrecy ends with it)."""
    return service.public_status(store(), game_id)["phase"] == "over"


def viewpoint(game_id: str) -> str:
    """The seat whose view this phone's page of a finished game is drawn from: its own seat;
    anyone else's once the game is over, when nothing is hidden (R21, T10, B12): the seat of
    the game's creator, everything revealed. Before the end, ``my_seat``'s refusal."""
    try:
        return my_seat(game_id)
    except ApiError as refused:
        if refused.status == 403 and is_over(game_id):
            return rulesets.named(store().rules_of(game_id)).creator_seat
        raise


def held_seat(game_id: str) -> str | None:
    """The seat this phone's token for the game holds now, if it holds one at all."""
    token = seats().get(game_id)
    holder = store().holder_of(token) if isinstance(token, str) else None
    return holder.seat if holder and holder.game_id == game_id else None


def host_token(game_id: str) -> str:
    """The token with which this phone hosts the game: the host token it created the game
    with, or its seat's token once hosting is that seat's (R24)."""
    for token in (_host_entry(game_id), seats().get(game_id)):
        if token and service.is_host(store(), game_id, token):
            return token
    service.require_game(store(), game_id)
    raise ApiError(403, "Only the game's host can manage it: the phone that created it, or "
                        "the player it was handed to.")


def is_host(game_id: str) -> bool:
    """Whether this phone hosts the game (its pages offer the host page)."""
    try:
        host_token(game_id)
    except ApiError:
        return False
    return True


def _of_game(game_id: str) -> None:
    g.game_id = game_id
    g.rules = store().rules_of(game_id)


def _authorised_by(kept: str, find: Callable[[str], str]) -> Callable[[V], V]:
    """A decorator that finds what authorises the request (``find(game_id)``, which refuses
    otherwise) and keeps it in ``g.<kept>``, with the game, before the view runs."""
    def decorate(view: V) -> V:
        @functools.wraps(view)
        def authorised(game_id: str, **values: object) -> ResponseReturnValue:
            setattr(g, kept, find(game_id))
            _of_game(game_id)
            return view(game_id, **values)
        return cast(V, authorised)  # the view's own signature: wraps keeps it
    return decorate


def seated(view: V) -> V:
    """A route of a seat: this phone must hold a seat of the game (``my_seat``), kept in
    ``g.seat``, with ``g.game_id`` and ``g.rules``, before the view runs."""
    return _authorised_by("seat", my_seat)(view)


def seated_or_over(view: V) -> V:
    """A route of a seat, or of anyone once the game is over (``viewpoint``), kept in
    ``g.seat``, with ``g.game_id`` and ``g.rules``, before the view runs."""
    return _authorised_by("seat", viewpoint)(view)


def hosting(view: V) -> V:
    """A route of the game's host: this phone must host it (``host_token``), its token kept
    in ``g.host_token``, with ``g.game_id`` and ``g.rules``, before the view runs."""
    return _authorised_by("host_token", host_token)(view)


def of_a_game(view: V) -> V:
    """A route about a game that anyone may open (joining, recovering a seat): the game
    must exist (404 otherwise); ``g.game_id`` and ``g.rules`` are kept for its page."""
    @functools.wraps(view)
    def found(game_id: str, **values: object) -> ResponseReturnValue:
        service.require_game(store(), game_id)
        _of_game(game_id)
        return view(game_id, **values)
    return cast(V, found)  # the view's own signature: wraps keeps it


def show_recovery_once(game_id: str, seat: str, code: str) -> None:
    """The seat's recovery code rides in this phone's cookie to the next page of the game,
    which shows it once and drops it (R24); the server keeps only its hash."""
    session["recovery"] = {"game": game_id, "seat": seat, "code": code}


def recovery_to_show() -> Json:
    """The recovery code to show on this page, if it is the game's next page (a context
    processor of the shared pages' blueprint): then it leaves the cookie."""
    held = session.get("recovery")
    if (held and request.method == "GET" and request.blueprint == "pages"
            and (request.view_args or {}).get("game_id") == held.get("game")):
        session.pop("recovery")
        url = public_base() + url_for("pages.recover", game_id=held["game"])
        return {"recovery": {**held, "url": url}}
    return {}
