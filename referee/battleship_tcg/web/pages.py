"""The phone pages and printables of Battleship: The Tactical Combat Game: a Blueprint of its
own, over the shared service (``referee/service.py``) and web helpers (``referee/web.py``).

Every page about a player is drawn from his own view (T10, T12): the placement page from his
view and his draft, the play page from his view (the opponent's half as he knows it, his own
half with the opponent's shots), the game-over page from his view once both halves are
revealed (T9). The honeycomb is drawn by ``static/js/honeycomb.js`` from the catalogue the
page embeds (``geometry.page_catalogue``).
"""

from __future__ import annotations

import re
import secrets

import click
from flask import Blueprint, abort, redirect, render_template, request, url_for

from printables.documents import BLANK_RECORD_PAGES, MAX_BLANK_RECORD_PAGES

from ... import service, strictjson
from ...common.problems import RuleViolation
from ...errors import ApiError
from ...pages import _is_host, my_seat, script_json
from ...printouts import PAPERS, pdf
from ...web import refused_form_goes_to, store
from ..card import read_card_option, standard_card
from ..catalogue import BOAT_TYPES, DIRECTIONS, RULES, SEATS
from ..fleet import check_disposition
from ..holes import parse_hole
from ..postmortem import postmortem_document
from ..views import postmortem_view, result_headline, view_for
from . import printables
from .geometry import page_catalogue
from .known import sunk_boats

bp = Blueprint("tcg", __name__, template_folder="templates", url_prefix="/tcg")
DRAFTS = "drafts"  # the seats' private notes the Naval War Game's placement uses too
MAX_DRAFT = 4096  # bytes: five boats and a man, with room to spare


def _context(view: dict, **more) -> dict:
    catalogue = page_catalogue()
    return {"view": view, "catalogue": catalogue, "rules_catalogue": catalogue,
            "now": service.now(), "hosting": _is_host(view["id"]), **more}


def _known(view: dict) -> dict:
    """For each half, the boats sunk there and, where the shots tell them, their holes."""
    return {seat: sunk_boats(view["shots"][seat]) for seat in view["seats"]}


def _card(view: dict):
    card = view["card"]
    return read_card_option("standard" if card["name"] == "standard" else {"seed": card["seed"]})


def _draft(game_id: str, seat: str) -> dict:
    return (store().note(DRAFTS, game_id, seat) or {}).get("disposition") or {
        "boats": [], "man": None}


def draft_problems(view: dict, draft: dict) -> list[dict]:
    """What is wrong with a draft so far, as the core checks a disposition (T3-T5, T11), less
    the boats and man not placed yet (the piece bar shows those)."""
    try:
        check_disposition(draft, _card(view), view["you"])
    except RuleViolation as refused:
        return [p.to_json() for p in refused.problems if p.squares]
    return []


@bp.get("/games/<game_id>")
def game(game_id: str):
    seat = my_seat(game_id)
    view = service.seat_view(store(), game_id, seat).fresh()
    if view.get("rules") != RULES:
        return redirect(url_for("pages.game", game_id=game_id))
    if view["phase"] == "setup":
        if view["seats"][seat]["ready"]:
            return render_template("tcg/waiting.html", page_data=script_json({"view": view}),
                                   **_context(view))
        draft = _draft(game_id, seat)
        data = {"view": view, "draft": draft, "problems": draft_problems(view, draft),
                "urls": {"draft": url_for("tcg.save_draft", game_id=game_id)}}
        return render_template("tcg/place.html", page_data=script_json(data), **_context(view))
    known = _known(view)
    data = script_json({"view": view, "known": known})
    if view["phase"] == "over":
        return render_template("tcg/over.html", page_data=data, headline=result_headline(view),
                               **_context(view))
    them = next(s for s in view["seats"] if s != seat)
    return render_template("tcg/play.html", page_data=data, key=secrets.token_hex(8),
                           rescuing=len(view["sunk"][them]) == len(BOAT_TYPES),
                           **_context(view))


def _read_draft() -> dict:
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


@bp.post("/games/<game_id>/draft")
def save_draft(game_id: str):
    """Keep the placement in progress as the seat's private note and say what is wrong so
    far; nothing enters the log until he locks in (as the Naval War Game's drafts)."""
    seat = my_seat(game_id)
    draft = _read_draft()
    view = service.seat_view(store(), game_id, seat).fresh()
    if view.get("rules") != RULES:
        abort(404)
    if view["phase"] != "setup" or view["seats"][seat]["ready"]:
        raise ApiError(409, "Your fleet is locked in: it can no longer be moved (T11)",
                       rule="T11")
    with store().write():
        store().keep_note(DRAFTS, game_id, seat, {"disposition": draft})
    return {"problems": draft_problems(view, draft)}


@bp.post("/games/<game_id>/lock")
@refused_form_goes_to("tcg.game")
def lock_in(game_id: str):
    """Lock in the draft: the core checks it whole (T3-T5) and every problem comes back."""
    seat = my_seat(game_id)
    document = _draft(game_id, seat)
    service.act(store(), game_id, lambda game: service.submit_and_lock_in(game, seat, document))
    return redirect(url_for("tcg.game", game_id=game_id))


@bp.post("/games/<game_id>/shoot")
@refused_form_goes_to("tcg.game")
def shoot(game_id: str):
    """One shot (T7) from the play page's form; the key makes a second tap harmless."""
    seat = my_seat(game_id)
    at = (request.form.get("at") or "").strip()[:20]
    if not at:
        raise ApiError(422, "Tap a hole on your opponent's half, then fire (T7)", field="at",
                       rule="T7")
    key = request.form.get("key", "")[:32]
    service.make_move(store(), game_id, seat, {"at": at}, f"page:{key}" if key else None)
    return redirect(url_for("tcg.game", game_id=game_id) + "#last")


# -- paper --------------------------------------------------------------------------------

def _paper() -> str:
    value = request.args.get("paper", "a4")
    if value not in PAPERS:
        raise ApiError(400, f"'paper' is one of {', '.join(PAPERS)}, not {value[:20]!r}",
                       field="paper")
    return value


@bp.get("/games/<game_id>/charts.pdf")
def charts(game_id: str):
    """A player's charts as they stand, from his view only (T10)."""
    seat = my_seat(game_id)
    paper = _paper()
    body = service.derived(store(), game_id, ("tcg-charts.pdf", seat, paper),
                           lambda game: printables.player_charts(view_for(game, seat),
                                                                 paper=paper), len)
    return pdf(body, f"charts-{game_id}-{seat}.pdf")


@bp.get("/games/<game_id>/postmortem.pdf")
def postmortem_pdf(game_id: str):
    seat = my_seat(game_id)
    paper = _paper()

    def render(game) -> bytes:
        try:
            shown = postmortem_view(game, seat)
        except RuleViolation:
            raise ApiError(409, "The post-mortem is printed once the game is over",
                           rule="T10") from None
        return printables.postmortem(shown["view"], paper=paper,
                                     analysis=postmortem_document(game))

    body = service.derived(store(), game_id, ("tcg-postmortem.pdf", seat, paper), render, len)
    return pdf(body, f"postmortem-{game_id}.pdf")


@bp.get("/printables/blank-charts.pdf")
def blank_charts():
    """Blank charts of both halves of the standard card, for players without phones."""
    paper = _paper()
    card = standard_card()
    islands = {seat: card.island_names(seat) for seat in SEATS}
    return pdf(printables.blank_charts(islands, paper=paper), f"tcg-blank-charts-{paper}.pdf")


@bp.get("/printables/blank-record.pdf")
def blank_record():
    paper = _paper()
    pages = request.args.get("pages", str(BLANK_RECORD_PAGES))
    if not re.fullmatch(r"[0-9]{1,2}", pages) or not 1 <= int(pages) <= MAX_BLANK_RECORD_PAGES:
        raise ApiError(400, f"'pages' is a whole number from 1 to {MAX_BLANK_RECORD_PAGES}",
                       field="pages")
    return pdf(printables.blank_record(paper=paper, pages=int(pages)),
               f"tcg-blank-record-{paper}.pdf")


@click.command("tcg-blank-charts")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True)
@click.option("-o", "--output", type=click.File("wb"), required=True, help="The PDF to write.")
def blank_charts_command(paper: str, output) -> None:
    """Print blank charts of both halves of Battleship TCG's standard card."""
    card = standard_card()
    output.write(printables.blank_charts({s: card.island_names(s) for s in SEATS}, paper=paper))


@click.command("tcg-blank-record")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True)
@click.option("--pages", type=click.IntRange(1, MAX_BLANK_RECORD_PAGES),
              default=BLANK_RECORD_PAGES, show_default=True,
              help="How many pages (about 70 shots a page).")
@click.option("-o", "--output", type=click.File("wb"), required=True, help="The PDF to write.")
def blank_record_command(paper: str, pages: int, output) -> None:
    """Print a blank record of shots for Battleship TCG."""
    output.write(printables.blank_record(paper=paper, pages=pages))


def register(app) -> None:
    app.register_blueprint(bp)
    app.cli.add_command(blank_charts_command)
    app.cli.add_command(blank_record_command)
    app.extensions.setdefault("referee.game_pages", {})[RULES] = "tcg.game"


__all__ = ["bp", "register"]
