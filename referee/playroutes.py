"""The routes every game's pages have alike, written once: keeping the setup in progress (the
draft a page's script sends, the seat's private note until he locks in), "place the rest for
me" (the rest of the setup at random, for a game that offers it), locking it in, and a move
from the play page's form.

A rule set's blueprint gets them from ``add_play_routes`` with a ``PlayRoutes`` that says only
what its game does differently: how a draft is read and answered, what locking in submits,
how a move is read from the form, and the ruling that a locked-in setup cannot change. The
routes do the rest alike for every game: the seat from the phone's cookie (``seated``), a
locked-in seat's draft refused, the draft kept in one write, "place the rest" asked at most
``FILLS_PER_MINUTE`` times a minute by a seat and run in the costly pool (``referee.costly``),
the disposition locked in and a
move made through the one service function each (``service.act``, ``service.make_move``,
the API's too), the move form's key making a second tap harmless, and every refusal flashed
on the game's page. Whether a draft, a disposition or a move is right is the core's to say.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Blueprint, g, redirect, request, url_for
from flask.typing import ResponseReturnValue

from . import service
from .common.documents import Json
from .costly import run as run_costly
from .errors import ApiError
from .session import seated
from .web import refused_form_goes_to, store

DRAFTS = "drafts"  # the seats' private notes of their setups in progress
MAX_KEY = 32  # characters of the move form's key that are kept
FILLS_PER_MINUTE = 10  # "place the rest for me" a seat may ask, each up to a second's work


@dataclass(frozen=True)
class PlayRoutes:
    """What one game's draft, lock-in and move routes do of their own."""

    # (seat) -> the draft the page's script sent, in the shape of a disposition (a 400 that
    # names the field otherwise); what it breaks is the core's to say
    read_draft: Callable[[str], Json]
    # (the seat's view, the note kept so far ({} before the first), the draft sent) ->
    # (the note to keep, the JSON the page's script reads back: the problems so far ...)
    keep_draft: Callable[[Json, Json, Json], tuple[Json, Json]]
    # (seat, the note kept) -> the disposition locking in submits; refusals are raised
    lock_document: Callable[[str, Json], Json]
    # () -> the move the play page's form sent, as the core reads it (a 422 naming the
    # ruling when there is none to read)
    read_move: Callable[[], Json]
    locked_rule: str  # the ruling by which a locked-in setup no longer changes
    move_path: str = "move"  # the move's route, /games/<id>/<move_path> ("shoot": the TCG's)
    # "Place the rest for me" (/games/<id>/draft/fill): (the seat's view, the note kept so
    # far, the draft sent) -> (the note to keep, the JSON the page reads back), the rest
    # placed legally at random from a source nobody can predict; a module-level function (it
    # runs in the costly pool's worker processes) raising ApiError for what it cannot place.
    # None: the game's pages offer no such button
    fill: Callable[[Json, Json, Json], tuple[Json, Json]] | None = None


def kept_draft(game_id: str, seat: str) -> Json:
    """The seat's setup in progress as kept so far; {} before the first."""
    return store().note(DRAFTS, game_id, seat) or {}


def add_play_routes(bp: Blueprint, play: PlayRoutes) -> None:
    """Add the draft (``save_draft``), lock-in (``lock_in``) and move (``play.move_path``)
    routes to a rule set's blueprint."""

    def setting_up(game_id: str) -> Json:
        """The seat's view while he may still change his setup; 409 once he locked in."""
        view = service.seat_view(store(), game_id, g.seat).fresh()
        if view["phase"] != "setup" or view["seats"][g.seat]["ready"]:
            raise ApiError(409, "Your fleet is locked in: it can no longer be changed "
                                f"({play.locked_rule})", rule=play.locked_rule)
        return view

    def save_draft(game_id: str) -> ResponseReturnValue:
        """Keep the setup in progress as the seat's private note and say what is wrong so
        far; nothing enters the log until he locks in."""
        sent = play.read_draft(g.seat)
        view = setting_up(game_id)
        note, answer = play.keep_draft(view, kept_draft(game_id, g.seat), sent)
        with store().write(game_id):
            store().keep_note(DRAFTS, game_id, g.seat, note)
        return answer

    def fill_draft(game_id: str) -> ResponseReturnValue:
        """Place the rest for me: what the seat has not placed, placed legally at random
        around what he has (``play.fill``), kept as his draft; at most ``FILLS_PER_MINUTE``
        times a minute a seat, since each is up to a second's work."""
        assert play.fill is not None
        sent = play.read_draft(g.seat)
        view = setting_up(game_id)
        wait = store().take_turn(f"fill:{game_id}:{g.seat}", FILLS_PER_MINUTE, 60,
                                 service.now())
        if wait:
            raise ApiError(429, f"\u201cPlace the rest for me\u201d works {FILLS_PER_MINUTE} "
                                f"times a minute; try again in {service.seconds(int(wait) + 1)}",
                           field="disposition", headers={"Retry-After": str(int(wait) + 1)})
        note, answer = run_costly("placing the rest", play.fill, view,
                                  kept_draft(game_id, g.seat), sent)
        with store().write(game_id):
            store().keep_note(DRAFTS, game_id, g.seat, note)
        return answer

    def lock_in(game_id: str) -> ResponseReturnValue:
        """Lock in the draft: the core checks it whole and every problem comes back."""
        document = play.lock_document(g.seat, kept_draft(game_id, g.seat))
        seat = g.seat
        seed = request.form.get("dice_seed")  # the phone's own dice seed, where dice roll (BB24)
        service.act(store(), game_id,
                    lambda game: service.submit_and_lock_in(game, seat, document, seed))
        return redirect(url_for("pages.game", game_id=game_id))

    def move(game_id: str) -> ResponseReturnValue:
        """One move from the play page's form; its key makes a second tap harmless."""
        document = play.read_move()
        key = request.form.get("key", "")[:MAX_KEY]
        service.make_move(store(), game_id, g.seat, document, f"page:{key}" if key else None)
        return redirect(url_for("pages.game", game_id=game_id) + "#last")

    game = "/games/<game_id>"
    bp.add_url_rule(f"{game}/draft", "save_draft", seated(save_draft), methods=["POST"])
    if play.fill is not None:
        bp.add_url_rule(f"{game}/draft/fill", "fill_draft", seated(fill_draft),
                        methods=["POST"])
    bp.add_url_rule(f"{game}/lock", "lock_in",
                    refused_form_goes_to("pages.game")(seated(lock_in)), methods=["POST"])
    bp.add_url_rule(f"{game}/{play.move_path}", play.move_path,
                    refused_form_goes_to("pages.game")(seated(move)), methods=["POST"])
