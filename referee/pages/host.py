"""The host's page and what only the host may do: the stand-in's level, the join links and
their QR codes, a new join link, handing hosting over, more time, forfeiting a seat; the
host page's stream of the game (``referee.streams``) and its poll, for when the stream fails."""

from __future__ import annotations

import io

import segno
from flask import (
    Response,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)

from .. import rulesets, service, streams
from ..common.limits import MAX_CLOCK_EXTENSION
from ..errors import ApiError
from ..forms import ClockForm, PlainForm
from ..poll import conditional
from ..session import forget_seat, held_seat, hosting
from ..web import client_address, join_key, join_url, refused_form_goes_to, store
from .blueprint import bp


@bp.get("/games/<game_id>/host")
@hosting
def host(game_id: str):
    here = held_seat(game_id)
    if here:  # the host at his page is at the table too
        service.mark_seen(store(), game_id, here)
    status = service.host_status(store(), game_id)
    # a link for every seat not yet claimed, including one the host has just reissued
    links = {seat: join_url(game_id, seat, code)
             for seat, code in service.join_codes(store(), game_id, key=join_key()).items()}
    present = {seat: bool(info["last_seen"])
               and status["now"] - info["last_seen"] <= service.PRESENT_S
               for seat, info in status["seats"].items()}  # its page open (polling)
    rule_set = rulesets.named(g.rules)
    return render_template("host.html", game_id=game_id, status=status, links=links,
                           form=PlainForm(), clock_form=ClockForm(), now=service.now(),
                           my_seat=here, present=present, levels=rule_set.levels,
                           title=rule_set.title)


@bp.get("/games/<game_id>/host/status")
@hosting
def host_poll(game_id: str):
    """The host page's poll, for a page whose stream fails: the host status, with an ETag
    that changes with the game's version."""
    shown = service.host_status(store(), game_id)
    return conditional(f'"{game_id}.host.{shown["version"]}"',
                       lambda: current_app.json.response(shown))


@bp.get("/games/<game_id>/host/stream")
@hosting
def host_stream(game_id: str):
    """The host status at every new version of the game, pushed as it is committed
    (Server-Sent Events named host; ``referee.streams``)."""
    return streams.open_stream(streams.Listener("host", game_id, None, g.host_token),
                               client_address())


@bp.post("/games/<game_id>/host/stand-in-level")
@refused_form_goes_to("pages.host")
@hosting
def host_stand_in_level(game_id: str):
    """The host chooses the level of the computer that stands in for an absent player
    (R25)."""
    if not PlainForm().validate_on_submit():
        abort(400)
    level = service.choose_stand_in_level(store(), game_id, request.form.get("level"))
    flash(f"The computer that stands in for an absent player plays as {level} (R25).")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.get("/games/<game_id>/qr/<seat>.svg")
@hosting
def join_qr(game_id: str, seat: str):
    code = service.join_codes(store(), game_id, key=join_key()).get(seat)
    if code is None:
        raise ApiError(404, f"No join link for {seat[:20]!r}: it is not a seat of this game, "
                            "or its player has taken it", field="seat")
    buffer = io.BytesIO()
    segno.make(join_url(game_id, seat, code), error="m").save(
        buffer, kind="svg", scale=4, dark="#000", light="#fff", title=f"Join link for {seat}")
    svg = buffer.getvalue()
    return Response(svg, mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, no-store"})


@bp.post("/games/<game_id>/host/reissue/<seat>")
@refused_form_goes_to("pages.host")
@hosting
def host_reissue(game_id: str, seat: str):
    if not PlainForm().validate_on_submit():
        abort(400)
    service.reissue_join_code(store(), game_id, seat, key=join_key())
    if seat == held_seat(game_id):
        forget_seat(game_id)
    flash(f"New join link for {seat.title()}: the old one and the phone that held the seat "
          "no longer work.")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.post("/games/<game_id>/host/handover/<seat>")
@refused_form_goes_to("pages.host")
@hosting
def host_handover(game_id: str, seat: str):
    """"Make Blue the host": the host's powers pass to Blue's seat, and leave this phone."""
    if not PlainForm().validate_on_submit():
        abort(400)
    service.hand_over_hosting(store(), game_id, seat)
    flash(f"{seat.title()} is now the host. Hosting shows nothing of any fleet (R24).")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/host/clock")
@refused_form_goes_to("pages.host")
@hosting
def host_clock(game_id: str):
    form = ClockForm()
    if not form.validate_on_submit():
        raise ApiError(422, f"Minutes to add: a whole number from 1 to {MAX_CLOCK_EXTENSION}",
                       field="minutes", rule="R10")
    service.extend_clock(store(), game_id, form.minutes.data)
    flash(f"{form.minutes.data} more minutes for dispositions (R10).")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.post("/games/<game_id>/host/forfeit/<seat>")
@refused_form_goes_to("pages.host")
@hosting
def host_forfeit(game_id: str, seat: str):
    if not PlainForm().validate_on_submit():
        abort(400)
    service.forfeit_seat(store(), game_id, seat)
    flash(f"{seat.title()} is forfeited (R10).")
    return redirect(url_for("pages.host", game_id=game_id))
