"""Hidden Number's web part (``referee/webparts.py``): a blueprint of its own with the routes
every game has alike (``add_play_routes``: the draft, locking in the number, a guess), its
seat and post-mortem pages drawn from the seat's view alone (H5), its club section and its
paper."""

from __future__ import annotations

import functools
from collections import Counter

from flask import Blueprint, render_template, request

from referee import service
from referee.common.problems import RuleViolation
from referee.errors import ApiError
from referee.playroutes import PlayRoutes, add_play_routes, kept_draft
from referee.session import is_host
from referee.web import store
from referee.webparts import Paper, WebParts, Words, leading_players

from ..catalogue import NUMBERS, RULES, TITLE
from ..views import headline, postmortem_document, postmortem_view
from . import paper

bp = Blueprint("hidden_number", __name__, template_folder="templates",
               static_folder="static", url_prefix="/hidden-number")


def seat_page(game_id: str, seat: str, view: dict):
    """A seat's page: hiding its number, waiting, guessing, or the end."""
    if view["phase"] == "setup":
        page = "waiting" if view["seats"][seat]["ready"] else "setup"
    else:
        page = "play" if view["phase"] == "play" else "over"
    return render_template(f"hidden_number/{page}.html", view=view, numbers=list(NUMBERS),
                           hosting=is_host(game_id), now=service.now(),
                           headline=headline(view) if view["result"] else "",
                           draft=(kept_draft(game_id, seat).get("disposition") or {}))


def postmortem_page(game_id: str, seat: str):
    page = service.derived(store(), game_id, ("hidden-number-postmortem", seat),
                           functools.partial(_postmortem_page, seat=seat))
    return render_template("hidden_number/postmortem.html", **page)


def _postmortem_page(game, seat: str) -> dict:
    try:
        shown = postmortem_view(game, seat)
    except RuleViolation:
        raise ApiError(409, "The post-mortem is shown once the game is over",
                       rule="H5") from None
    return {"view": shown["view"], "seats": shown["seats"], "checks": shown["checks"],
            "doc": postmortem_document(game), "headline": headline(shown["view"])}


def _read_number(form_or_json: object, key: str) -> object:
    """A number as a form or a script sent it: a whole number when it reads as one; what it
    is otherwise is the core's to refuse (H1)."""
    raw = form_or_json.get(key) if isinstance(form_or_json, dict) else None
    return int(raw) if isinstance(raw, str) and raw.isascii() and raw.isdigit() \
        and len(raw) < 3 else raw


def _read_draft(_seat: str) -> dict:
    sent = request.get_json(silent=True)
    draft = sent.get("disposition") if isinstance(sent, dict) else None
    if not isinstance(draft, dict) or set(draft) - {"number"}:
        raise ApiError(400, "The draft is a disposition: {\"number\": n} (H1)",
                       field="disposition")
    return dict(draft)


def _lock_document(_seat: str, note: dict) -> dict:
    """The number the setup form sent, else the draft kept."""
    if "number" in request.form:
        return {"number": _read_number(request.form.to_dict(), "number")}
    return note.get("disposition") or {}


def _read_guess() -> dict:
    if not request.form.get("guess"):
        raise ApiError(422, "Choose a number to guess (H1)", field="guess", rule="H1")
    return {"guess": _read_number(request.form.to_dict(), "guess")}


add_play_routes(bp, PlayRoutes(
    read_draft=_read_draft,
    keep_draft=lambda _view, _note, sent: ({"disposition": sent}, {"problems": []}),
    lock_document=_lock_document, read_move=_read_guess, locked_rule="H1", move_path="guess"))


def club_section(entries: list[dict]) -> dict:
    players: dict[str, Counter] = {}
    for entry in entries:
        for seat in entry["seats"]:
            tally = players.setdefault(seat["name"], Counter(games=0, won=0, drawn=0, lost=0))
            tally["games"] += 1
            tally[seat["outcome"]] += 1
    rows = sorted(({"name": n, **t} for n, t in players.items()),
                  key=lambda row: (-row["won"], row["name"]))
    return {"template": "hidden_number/_club.html", "title": TITLE, "games": len(entries),
            "forfeited": sum(1 for e in entries if e["forfeited"]), **leading_players(rows)}


HIDDEN_NUMBER = WebParts(
    rules=RULES, blueprint=bp, seat_page=seat_page, postmortem_page=postmortem_page,
    club_section=club_section,
    paper=Paper(blank_chart=paper.blank_chart, blank_record=paper.blank_record,
                player_charts=paper.player_charts, player_record=paper.player_record,
                postmortem=paper.postmortem),
    entry="hidden.js",
    words=Words(order="Order of play (H2), drawn when the game was created",
                agree="Agree to end now (a draw)", agreed_end="It ends when both agree: a draw."),
    about="each player hides a number from 1 to 9 and guesses the other's, told higher or "
          "lower")
