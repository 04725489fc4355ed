"""The phone pages of Battleship: The Tactical Combat Game: its seat page for each phase and
its post-mortem page (reached through ``parts.TCG``, the rule set's ``WebParts``), and a
Blueprint of its own for its forms (the draft, locking in, a shot: the routes every game has,
``referee/playroutes.py``, given what this game reads and answers), over the shared service
(``referee/service.py``) and web helpers (``referee/web.py``, ``referee/session.py``).

Every page about a player is drawn from his own view (T10, T12): the placement page from his
view and his draft, the play page from his view (the opponent's half as he knows it, his own
half with the opponent's shots), the game-over page from his view once both halves are
revealed (T9). The honeycomb is drawn by ``web/static/honeycomb.js`` from the catalogue the
page embeds (``geometry.page_catalogue``).
"""

from __future__ import annotations

import functools
import secrets

from flask import Blueprint, render_template, request, url_for

from ... import service, strictjson
from ...common.problems import RuleViolation
from ...errors import ApiError
from ...playroutes import PlayRoutes, add_play_routes, kept_draft
from ...session import is_host
from ...web import script_json, store
from ..card import read_card_option
from ..catalogue import BOAT_TYPES, MAN, NAMES
from ..fleet import check_disposition
from ..holes import DIRECTIONS, parse_hole
from ..placing import place_the_rest
from ..postmortem import postmortem_document
from ..views import postmortem_view, result_headline
from .geometry import page_catalogue
from .known import sunk_boats

bp = Blueprint("tcg", __name__, template_folder="templates", static_folder="static",
               url_prefix="/tcg")
MAX_DRAFT = 4096  # bytes: five boats and a man, with room to spare


def _context(view: dict, **more) -> dict:
    catalogue = page_catalogue()
    return {"view": view, "catalogue": catalogue, "rules_catalogue": catalogue,
            "now": service.now(), "hosting": is_host(view["id"]), **more}


def _known(view: dict) -> dict:
    """For each half, the boats sunk there and, where the shots tell them, their holes."""
    return {seat: sunk_boats(view["shots"][seat]) for seat in view["seats"]}


def _card(view: dict):
    card = view["card"]
    return read_card_option("standard" if card["name"] == "standard" else {"seed": card["seed"]})


def _disposition(draft: dict) -> dict:
    """The disposition a kept draft holds: none yet, no boat and no man."""
    return draft.get("disposition") or {"boats": [], "man": None}


def draft_problems(view: dict, draft: dict) -> list[dict]:
    """What is wrong with a draft so far, as the core checks a disposition (T3-T5, T11), less
    the boats and man not placed yet (the piece bar shows those)."""
    try:
        check_disposition(draft, _card(view), view["you"])
    except RuleViolation as refused:
        return [p.to_json() for p in refused.problems if p.squares]
    return []


def seat_page(game_id: str, seat: str, view: dict):
    """A seat's page at ``/games/<id>``: placing, waiting, playing or the end (T3-T9)."""
    if view["phase"] == "setup":
        if view["seats"][seat]["ready"]:
            return render_template("tcg/waiting.html", page_data=script_json({"view": view}),
                                   **_context(view))
        draft = _disposition(kept_draft(game_id, seat))
        data = {"view": view, "draft": draft, "problems": draft_problems(view, draft),
                "urls": {"draft": url_for("tcg.save_draft", game_id=game_id),
                         "fill": url_for("tcg.fill_draft", game_id=game_id)}}
        return render_template("tcg/place.html", page_data=script_json(data), **_context(view))
    known = _known(view)
    page_data = script_json({"view": view, "known": known})
    if view["phase"] == "over":
        return render_template("tcg/over.html", page_data=page_data, headline=result_headline(view),
                               **_context(view))
    them = next(s for s in view["seats"] if s != seat)
    return render_template("tcg/play.html", page_data=page_data, key=secrets.token_hex(8),
                           rescuing=len(view["sunk"][them]) == len(BOAT_TYPES), **_context(view))


def postmortem_page(game_id: str, seat: str):
    """After the end (T9, T10): both halves with every shot numbered, each shot with what it
    found and whether it was wasted, and the shots each boat took to sink."""
    page = service.derived(store(), game_id, ("tcg-postmortem-page", seat),
                           functools.partial(_postmortem_page, seat=seat),
                           lambda page: 4 * len(page["page_data"]),
                           costly="working out a post-mortem")
    return render_template("tcg/postmortem.html", **page)


def _postmortem_page(game, seat: str) -> dict:
    try:
        shown = postmortem_view(game, seat)
    except RuleViolation:
        raise ApiError(409, "The post-mortem is shown once the game is over", rule="T10") \
            from None
    document = postmortem_document(game)
    view = shown["view"]
    return {"view": view, "doc": document, "headline": result_headline(view),
            "checks": shown["checks"], "catalogue": page_catalogue(),
            "rules_catalogue": page_catalogue(),
            "page_data": script_json({"view": view, "known": _known(view)})}


def _read_draft(_seat: str) -> dict:
    """The placement in progress as the page's script sends it: a disposition's shape, small,
    every hole a hole and every direction one of T4's; what it breaks is the core's to say."""
    body = request.get_data(cache=True)
    if len(body) > MAX_DRAFT:
        raise ApiError(413, "A draft is five boats and a man", field="disposition")
    try:
        document = strictjson.loads(body)
    except (ValueError, UnicodeDecodeError):
        document = None
    document = document.get("disposition") if isinstance(document, dict) else None
    if not isinstance(document, dict) or set(document) - {"boats", "man"}:
        raise ApiError(400, "The draft is a disposition: boats and man (T11)",
                       field="disposition")
    boats, man = document.get("boats") or [], document.get("man")
    if not isinstance(boats, list) or len(boats) > len(BOAT_TYPES):
        raise ApiError(400, "'boats' is a list of at most five boats (T3, T11)", field="boats")
    for i, boat in enumerate(boats):
        if not (isinstance(boat, dict) and set(boat) == {"type", "at", "dir"}
                and boat["type"] in BOAT_TYPES and boat["dir"] in DIRECTIONS
                and parse_hole(boat["at"]) is not None):
            raise ApiError(400, f"boats[{i}] is a boat: type, at (a hole) and dir (T11)",
                           field=f"boats[{i}]")
    if man is not None and parse_hole(man) is None:
        raise ApiError(400, "'man' is a hole, like K 7 (T5, T11)", field="man")
    return {"boats": [dict(b) for b in boats], "man": man}


def _keep_draft(view: dict, _draft: dict, sent: dict) -> tuple[dict, dict]:
    """The placement in progress as the seat's note, and what is wrong with it so far."""
    return {"disposition": sent}, {"problems": draft_problems(view, sent)}


def _fill(view: dict, _note: dict, sent: dict) -> tuple[dict, dict]:
    """Place the rest for me: the boats and the man not placed yet, legally at random (T4,
    T5) around what the player has placed, from the system's randomness, which nobody can
    predict; the note to keep and what the page reads back (the disposition, its problems,
    what was placed). Run in the costly pool by the shared route."""
    try:
        filled = place_the_rest(sent, _card(view), view["you"], secrets.SystemRandom())
    except RuleViolation as refused:
        found = refused.problems[0]
        raise ApiError(422, found.message, rule=found.rule, field="boats") from None
    had = {b["type"] for b in sent["boats"]}
    placed = [NAMES[b["type"]] for b in filled["boats"] if b["type"] not in had]
    if filled["man"] != sent["man"]:
        placed.append(NAMES[MAN])
    return {"disposition": filled}, {"problems": draft_problems(view, filled),
                                     "disposition": filled, "placed": placed}


def _read_shot() -> dict:
    """One shot (T7) from the play page's form: the hole tapped."""
    at = (request.form.get("at") or "").strip()[:20]
    if not at:
        raise ApiError(422, "Tap a hole on your opponent's half, then fire (T7)", field="at",
                       rule="T7")
    return {"at": at}


# the draft, locking in (the core checks it whole, T3-T5) and a shot at /tcg/games/<id>/shoot
add_play_routes(bp, PlayRoutes(read_draft=_read_draft, keep_draft=_keep_draft,
                               lock_document=lambda _seat, draft: _disposition(draft),
                               read_move=_read_shot, locked_rule="T11", move_path="shoot",
                               fill=_fill))


__all__ = ["bp", "postmortem_page", "seat_page"]
