"""A seat's game page and post-mortem (each drawn by its game's rule set, ``webparts``), the
status poll and its stream (``referee.streams``), and what every game's seat may do there:
agree to end, play on, let the computer stand in, resign."""

from __future__ import annotations

from flask import abort, current_app, flash, g, redirect, url_for

from .. import service, streams, webparts
from ..forms import PlainForm
from ..poll import conditional, view_etag
from ..session import held_seat, seated, seated_or_over, seats
from ..web import client_address, store
from .blueprint import bp


@bp.get("/games/<game_id>")
@seated_or_over
def game(game_id: str):
    """A seat's page in every phase, drawn by its game's rule set. A finished game opened
    on a phone without a seat in it (one whose seat moved to another phone, or anyone's)
    goes to its post-mortem, where everything is shown (R21 ends with the game)."""
    if held_seat(game_id) != g.seat:
        flash(("This phone's seat moved to another phone during the game (R24). "
               if seats().get(game_id) else "You held no seat in this game. ")
              + "The game is over, so nothing is hidden now: here is how it went.")
        return redirect(url_for("pages.postmortem", game_id=game_id))
    view = service.seat_view(store(), game_id, g.seat).fresh()
    return webparts.for_rules(g.rules).seat_page(game_id, g.seat, view)


@bp.post("/games/<game_id>/end")
@seated
def agree_to_end(game_id: str):
    if not PlainForm().validate_on_submit():
        abort(400)
    service.agree_to_end(store(), game_id, g.seat)
    words = webparts.for_rules(g.rules).words
    now = service.public_status(store(), game_id)
    if now["phase"] == "play" and not now["seats"][g.seat]["agreed_to_end"] \
            and any(info["bot"] for info in now["seats"].values()):
        # a computer answers an offer at once, and plays on (R14)
        flash("You offered to end the game; the computer plays on, so the offer has lapsed. "
              "Play on, or resign.")
    else:
        flash(f"You agreed to end the game{f' ({words.end_rule})' if words.end_rule else ''}. "
              f"{words.agreed_end}")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/play-on")
@seated
def play_on(game_id: str):
    """"Play on": decline another player's offer to end the game."""
    if not PlainForm().validate_on_submit():
        abort(400)
    service.play_on(store(), game_id, g.seat)
    flash("You play on: the offer to end the game has lapsed.")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/stand-in/<target>")
@seated
def stand_in(game_id: str, target: str):
    """"Let the computer play for Blue" once Blue's move clock has run out (R25)."""
    if not PlainForm().validate_on_submit():
        abort(400)
    service.stand_in(store(), game_id, target, g.seat)
    flash(f"The computer plays for {target.title()} until {target.title()} moves again "
          "himself (R25).")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/resign")
@seated
def resign(game_id: str):
    if not PlainForm().validate_on_submit():
        abort(400)
    service.resign(store(), game_id, g.seat)
    return redirect(url_for("pages.game", game_id=game_id))


@bp.get("/games/<game_id>/status")
@seated
def status(game_id: str):
    """The cheap poll of the pages: version, phase and whose turn, with an ETag; what the
    page's stream sends at each version (``streams.page_status``), for a page whose stream
    fails."""
    service.settle(store(), game_id)
    shown = service.public_status(store(), game_id)
    return conditional(view_etag(game_id, g.seat, shown["version"]),
                       lambda: current_app.json.response(streams.page_status(shown, g.seat)))


@bp.get("/games/<game_id>/stream")
@seated
def stream(game_id: str):
    """The page's status at every new version of the game, pushed as it is committed
    (Server-Sent Events named status; ``referee.streams``)."""
    token = seats()[game_id]
    return streams.open_stream(streams.Listener("status", game_id, g.seat, token),
                               client_address())


@bp.get("/games/<game_id>/postmortem")
@seated_or_over
def postmortem(game_id: str):
    """After the end: the game's own post-mortem page, for anyone (nothing is hidden once a
    game is over, R21); before it, a seat's rule set refuses it, and anyone else is refused
    as at any page of a seat."""
    return webparts.for_rules(g.rules).postmortem_page(game_id, g.seat)
