"""Taking a seat: joining by the seat's link, and recovering a seat on another phone (R24)."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

from .. import service
from ..errors import ApiError
from ..forms import JoinForm, RecoverForm
from ..session import held_seat, of_a_game, remember, seats, show_recovery_once
from ..web import join_key, refused_form_goes_to, store
from .blueprint import bp


@bp.route("/games/<game_id>/join/<seat>", methods=["GET", "POST"])
@refused_form_goes_to(None)  # the join page shows its own error page
@of_a_game
def join(game_id: str, seat: str):
    service.require_seat(store(), game_id, seat)  # a seat of another game's rules: 404
    form = JoinForm(code=request.args.get("code", ""))
    if form.validate_on_submit():
        held = store().holder_of(seats()[game_id]) if seats().get(game_id) else None
        # one seat a phone; a second loses the first
        if held and held.game_id == game_id and held.seat:
            raise ApiError(409, f"This phone already plays {held.seat.title()} in this game; "
                                f"open the {seat.title()} link on another phone", field="seat")
        keys = service.claim_seat(store(), game_id, seat, form.code.data or "",
                                  form.name.data or "", key=join_key())
        remember("seats", game_id, keys.token)
        show_recovery_once(game_id, seat, keys.recovery_code)
        return redirect(url_for("pages.game", game_id=game_id))
    seating = service.seating(store(), game_id)
    row = store().seat_row(game_id, seat)
    if request.method == "GET" and row and row.get("claimed") and held_seat(game_id) == seat:
        return redirect(url_for("pages.game", game_id=game_id))  # an old link: his page
    return render_template("join.html", form=form, game_id=game_id, seat=seat,
                           seating=seating, recover_form=RecoverForm(seat=seat),
                           taken=bool(row and row.get("claimed")))


@bp.route("/games/<game_id>/recover", methods=["GET", "POST"])
@of_a_game
def recover(game_id: str):
    """"I had this seat": the recovery code moves a seat to this phone; the old phone is
    logged out, and a fresh code is shown once (R24)."""
    form = RecoverForm()
    form.seat.choices = [(seat, seat.title())
                         for seat in service.public_status(store(), game_id)["seats"]]
    if request.method == "POST":
        try:
            if not form.validate_on_submit():
                raise ApiError(400, "Choose your seat and enter your recovery code",
                               field="recovery_code")
            keys = service.recover_seat(store(), game_id, form.seat.data,
                                        form.recovery_code.data, request.remote_addr or "")
        except ApiError as refused:  # on the form, the seat chosen kept
            return render_template("recover.html", form=form, game_id=game_id,
                                   problem=refused.message), refused.status, refused.headers
        remember("seats", game_id, keys.token)
        show_recovery_once(game_id, form.seat.data, keys.recovery_code)
        flash("This phone now holds your seat; the old phone is logged out (R24). Your "
              "recovery code has changed: write down the new one.")
        return redirect(url_for("pages.game", game_id=game_id))
    return render_template("recover.html", form=form, game_id=game_id)
