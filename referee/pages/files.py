"""Games as files: importing one to the club (replayed and checked before it is kept), and a
seat's export of its game."""

from __future__ import annotations

from flask import current_app, flash, redirect, url_for

from .. import rulesets, service, strictjson
from ..errors import ApiError
from ..forms import ImportForm
from ..session import remember, seated_or_over
from ..web import MAX_GAME_FILE, client_address, signing_key, store
from .blueprint import bp


@bp.post("/club/import")
def import_game():
    """Import a game file: it is replayed and every claim in it checked before it is kept."""
    service.admit_import(store(), client_address(), current_app.config["IMPORTS_PER_MINUTE"])
    form = ImportForm()
    if not form.validate_on_submit():
        raise ApiError(400, "; ".join(e for errors in form.errors.values() for e in errors),
                       field="game_file")
    raw = form.game_file.data.read(MAX_GAME_FILE + 1)
    if len(raw) > MAX_GAME_FILE:
        raise ApiError(413, "That file is too large to be a game file", field="game_file")
    try:
        document = strictjson.loads(raw)
    except strictjson.NotFinite as err:
        raise ApiError(422, f"That file is not a game file: {err}", field="game_file") from None
    except (ValueError, UnicodeDecodeError):
        raise ApiError(422, "That file is not a game file: it is not JSON",
                       field="game_file") from None
    imported = service.import_game(store(), document, signing_key().public)
    creator = rulesets.named(store().rules_of(imported["id"])).creator_seat
    remember("seats", imported["id"], imported["seats"][creator]["token"])
    flash("Game imported: it replays to the same result, and every fingerprint matches. "
          + ("It is signed by this referee or one the club trusts, so it counts in the "
             "club's records." if imported["counted"] else
             "It is not signed by this referee or one the club trusts, so it is listed on "
             "the club page as unverified and counted in no record."))
    return redirect(url_for("pages.game", game_id=imported["id"]))


@bp.get("/games/<game_id>/export.json")
@seated_or_over
def export_game(game_id: str):
    """The game as a file: for a seat, and anyone once the game is over (R21); the rule set
    refuses it before the end."""
    response = current_app.json.response(service.export_game(store(), game_id,
                                                             signing_key()))
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.json"'
    return response
