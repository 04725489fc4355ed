"""The routes every game's pages have alike, written once: keeping the setup in progress (the
draft a page's script sends, the seat's private note until he locks in), locking it in, and
a move from the play page's form.

A rule set's blueprint gets them from ``add_play_routes`` with a ``PlayRoutes`` that says only
what its game does differently: how a draft is read and answered, what locking in submits,
how a move is read from the form, and the ruling that a locked-in setup cannot change. The
routes do the rest alike for every game: the seat from the phone's cookie (``seated``), a
locked-in seat's draft refused, the draft kept in one write, the disposition locked in and a
move made through the one service function each (``service.act``, ``service.make_move``,
the API's too), the move form's key making a second tap harmless, and every refusal flashed
on the game's page. Whether a draft, a disposition or a move is right is the core's to say.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Blueprint, g, redirect, request, url_for

from . import service
from .errors import ApiError
from .session import seated
from .web import refused_form_goes_to, store

DRAFTS = "drafts"  # the seats' private notes of their setups in progress
MAX_KEY = 32  # characters of the move form's key that are kept


@dataclass(frozen=True)
class PlayRoutes:
    """What one game's draft, lock-in and move routes do of their own."""

    # (seat) -> the draft the page's script sent, in the shape of a disposition (a 400 that
    # names the field otherwise); what it breaks is the core's to say
    read_draft: Callable[[str], dict]
    # (the seat's view, the note kept so far ({} before the first), the draft sent) ->
    # (the note to keep, the JSON the page's script reads back: the problems so far ...)
    keep_draft: Callable[[dict, dict, dict], tuple[dict, dict]]
    # (seat, the note kept) -> the disposition locking in submits; refusals are raised
    lock_document: Callable[[str, dict], dict]
    # () -> the move the play page's form sent, as the core reads it (a 422 naming the
    # ruling when there is none to read)
    read_move: Callable[[], dict]
    locked_rule: str  # the ruling by which a locked-in setup no longer changes
    move_path: str = "move"  # the move's route, /games/<id>/<move_path> ("shoot": the TCG's)


def kept_draft(game_id: str, seat: str) -> dict:
    """The seat's setup in progress as kept so far; {} before the first."""
    return store().note(DRAFTS, game_id, seat) or {}


def add_play_routes(bp: Blueprint, play: PlayRoutes) -> None:
    """Add the draft (``save_draft``), lock-in (``lock_in``) and move (``play.move_path``)
    routes to a rule set's blueprint."""

    def save_draft(game_id: str):
        """Keep the setup in progress as the seat's private note and say what is wrong so
        far; nothing enters the log until he locks in."""
        sent = play.read_draft(g.seat)
        view = service.seat_view(store(), game_id, g.seat).fresh()
        if view["phase"] != "setup" or view["seats"][g.seat]["ready"]:
            raise ApiError(409, "Your fleet is locked in: it can no longer be changed "
                                f"({play.locked_rule})", rule=play.locked_rule)
        note, answer = play.keep_draft(view, kept_draft(game_id, g.seat), sent)
        with store().write():
            store().keep_note(DRAFTS, game_id, g.seat, note)
        return answer

    def lock_in(game_id: str):
        """Lock in the draft: the core checks it whole and every problem comes back."""
        document = play.lock_document(g.seat, kept_draft(game_id, g.seat))
        seat = g.seat
        service.act(store(), game_id,
                    lambda game: service.submit_and_lock_in(game, seat, document))
        return redirect(url_for("pages.game", game_id=game_id))

    def move(game_id: str):
        """One move from the play page's form; its key makes a second tap harmless."""
        document = play.read_move()
        key = request.form.get("key", "")[:MAX_KEY]
        service.make_move(store(), game_id, g.seat, document, f"page:{key}" if key else None)
        return redirect(url_for("pages.game", game_id=game_id) + "#last")

    game = "/games/<game_id>"
    bp.add_url_rule(f"{game}/draft", "save_draft", seated(save_draft), methods=["POST"])
    bp.add_url_rule(f"{game}/lock", "lock_in",
                    refused_form_goes_to("pages.game")(seated(lock_in)), methods=["POST"])
    bp.add_url_rule(f"{game}/{play.move_path}", play.move_path,
                    refused_form_goes_to("pages.game")(seated(move)), methods=["POST"])
