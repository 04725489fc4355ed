"""The phone pages of the Naval War Game: its seat page for each phase (budget, placement,
waiting, play, the end) and its post-mortem page (reached through ``parts.NAVAL_WAR``, the
rule set's ``WebParts``), and a Blueprint of its own for its forms: the budget (R3-R5) and a
fleet from the book, the placement draft (R5-R9) with "place the rest for me", locking in, a
move (R12) and the player's pencil marks, over the shared service (``referee/service.py``)
and web helpers (``referee/web.py``, ``referee/session.py``, ``referee/playroutes.py``).

Every page about a player is drawn from his own view (R21): the budget and placement pages
from his view and his draft, the play page from his view and the knowledge charts it gives,
the game-over and post-mortem pages once everything is revealed. The charts are drawn by the
package's scripts (``web/static``, served at ``/naval-war/static/``) from the catalogue the
page embeds; the templates read the catalogue as ``rules``. Its URLs are the referee's first
(``/games/<id>/budget`` ...): the blueprint has no prefix.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections import Counter

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for

from ... import service, strictjson
from ...common.views import targets_for
from ...errors import ApiError
from ...forms import PlainForm
from ...playroutes import DRAFTS, PlayRoutes, add_play_routes, kept_draft
from ...session import is_host, seated
from ...web import refused_form_goes_to, script_json, store
from .. import catalogue
from ..book import BOOK_FLEETS, describe_fleet
from ..catalogue import BUYABLE, NAMES, PLURALS, SHIP_TYPES
from ..game import SEATS
from ..knowledge import knowledge_chart
from ..layout import LayoutError, complete
from ..postmortem import postmortem_document, step_deltas
from ..purchase import placement_check, purchase_cost, trim_to_purchase
from ..views import postmortem_view, result_headline
from .forms import BudgetForm, MoveForm, budget_fields

bp = Blueprint("naval_war", __name__, template_folder="templates", static_folder="static",
               static_url_path="/naval-war/static")
MARKS = "marks"  # a seat's pencil marks on his charts of the opponents: his alone
MAX_MARKS = 20000  # characters of JSON: every square of three opponents' charts, marked


def _page(template: str, view: dict, **context):
    """One of this game's pages: its template (``naval_war/...``) with the seat's view, the
    catalogue as ``rules`` and the host link when this phone hosts."""
    return render_template(f"naval_war/{template}", view=view, rules=catalogue,
                           hosting=is_host(view["id"]), now=service.now(), **context)


# -- the seat's page in each phase --------------------------------------------------------------

def seat_page(game_id: str, seat: str, view: dict):
    """A seat's page at ``/games/<id>``: budget, placement, waiting, play or the end."""
    if view["phase"] == "setup":
        draft = kept_draft(game_id, seat)
        if view["seats"][seat]["ready"]:
            return _page("waiting.html", view,
                         page_data=script_json({"view": view, "names": NAMES}))
        if not draft.get("purchase") or request.args.get("budget"):
            form = BudgetForm(data={k.replace("-", "_"): n for k, n in
                                    draft.get("purchase", {}).items()})
            fields = dict(zip(BUYABLE, budget_fields(form), strict=True))
            return _page("budget.html", view, form=form,
                         ship_fields=[fields[k] for k in SHIP_TYPES],
                         force_fields=[f for k, f in fields.items() if k not in SHIP_TYPES],
                         book=[(key, title, describe_fleet(purchase))
                               for key, (title, purchase) in BOOK_FLEETS.items()],
                         draft_placed=bool(draft.get("purchase")))
        return _page("place.html", view, draft=draft, form=PlainForm(), names=NAMES)
    marks = store().note(MARKS, game_id, seat) or {}
    others = [s for s in view["seats"] if s != seat]
    charts = {other: knowledge_chart(view, other) for other in others}
    if view["phase"] == "over":
        return _page("over.html", view, headline=result_headline(view),
                     page_data=_page_data(view, charts, marks))
    return _page("play.html", view, move_form=MoveForm(key=secrets.token_hex(8)),
                 form=PlainForm(), page_data=_page_data(view, charts, marks),
                 opponents=service.derived(store(), game_id, ("targets", seat),
                                           lambda game: targets_for(game, seat)))


def _page_data(view: dict, charts: dict, marks: dict) -> str:
    """What the page's script draws, as JSON: this seat's own view and what follows from it."""
    return script_json({"view": view, "knowledge": charts, "marks": marks, "names": NAMES})


# -- the budget ------------------------------------------------------------------------------------

@bp.post("/games/<game_id>/budget")
@refused_form_goes_to("pages.game", budget=1)
@seated
def budget(game_id: str):
    form = BudgetForm()
    if not form.validate_on_submit():
        problems = [f"{getattr(form, f).label.text}: {'; '.join(e)}"
                    for f, e in form.errors.items()]
        raise ApiError(422, "The budget has problems: " + " ".join(problems), rule="R3")
    purchase = {kind: getattr(form, kind.replace("-", "_")).data or 0 for kind in BUYABLE}
    purchase = {k: n for k, n in purchase.items() if n}
    cost = purchase_cost(purchase)
    _keep_budget(game_id, g.seat, purchase)
    if cost.unspent:
        flash(f"{cost.unspent} points are unspent and will be lost (R4).")
    return redirect(url_for("pages.game", game_id=game_id))


def _keep_budget(game_id: str, seat: str, purchase: dict) -> None:
    """Keep a new budget, and take off the chart what it no longer buys (R3)."""
    draft = kept_draft(game_id, seat)
    draft["purchase"] = purchase
    draft["disposition"], removed = trim_to_purchase(draft.get("disposition") or {}, purchase)
    with store().write(game_id):
        store().keep_note(DRAFTS, game_id, seat, draft)
    if removed:
        flash("Taken off the chart, as the new budget does not buy them (R5): "
              f"{', '.join(removed)}.")


@bp.post("/games/<game_id>/budget/book")
@seated
def budget_from_book(game_id: str):
    """A beginner's budget: the purchase of one side of the rulebook's Games 2-4."""
    form = PlainForm()
    choice = request.form.get("fleet", "")
    if not form.validate_on_submit():
        abort(400)
    if choice not in BOOK_FLEETS:
        raise ApiError(422, "Choose one of the book's fleets (Games 2-4)", field="fleet",
                       rule="R3")
    if service.public_status(store(), game_id)["seats"][g.seat]["ready"]:
        raise ApiError(409, "Your disposition is locked in; the budget cannot change (R10)",
                       rule="R10")
    title, purchase = BOOK_FLEETS[choice]
    _keep_budget(game_id, g.seat, dict(purchase))
    flash(f"You bought the fleet of {title} from the book: {describe_fleet(purchase)}. "
          "Place it square by square, or tap \u201cPlace the rest for me\u201d and change "
          "what you like.")
    return redirect(url_for("pages.game", game_id=game_id))


# -- the placement: the draft, place the rest, lock in ---------------------------------------

def _script_json():
    """The JSON a page's script sent, or None: never an exception, however deeply nested,
    and never NaN or Infinity."""
    if not request.is_json:
        return None
    try:
        return strictjson.loads(request.get_data(cache=True))
    except (ValueError, UnicodeDecodeError):
        return None


def _read_draft(_seat: str = "") -> dict:
    """The disposition the placement page's script sent."""
    body = _script_json()
    document = body.get("disposition") if isinstance(body, dict) else None
    if not isinstance(document, dict):
        raise ApiError(400, "The draft is a disposition object", field="disposition")
    return document


def _bought(draft: dict) -> dict:
    """The purchase of a kept draft: placing needs a budget first (R3)."""
    if not draft.get("purchase"):
        raise ApiError(409, "Choose a budget first (R3)", rule="R3")
    return draft["purchase"]


def _keep_draft(view: dict, draft: dict, document: dict) -> tuple[dict, dict]:
    """The placement in progress kept with its budget, less what the budget does not buy,
    and what is wrong with it so far (R5-R9)."""
    purchase = _bought(draft)
    placed, removed = trim_to_purchase(document, purchase)
    check = placement_check(purchase, placed)
    if removed:  # a page older than the budget: it adopts the referee's copy
        check.update(removed=removed, disposition=placed)
    return {**draft, "disposition": placed}, check


def _lock_document(seat: str, draft: dict) -> dict:
    """The disposition locking in submits: everything bought placed, the salvoes bought
    (R5); what else is wrong is the core's to say."""
    purchase = draft.get("purchase", {})
    check = placement_check(purchase, draft.get("disposition", {}))
    left = [f"{n} {PLURALS[k] if n > 1 else NAMES[k]}" for k, n in check["left"].items()
            if n > 0]
    if left:
        raise ApiError(422, f"Place everything you bought before locking in: {', '.join(left)} "
                            "still to place (R5)", rule="R5")
    return {**draft.get("disposition", {}), "salvoes": purchase.get("salvo", 0)}


def _read_move() -> dict:
    """The move form: a weapon and its target square or squares (R12)."""
    form = MoveForm()
    if not form.validate_on_submit():
        wrong = " ".join(f"{getattr(form, f).label.text}: {' '.join(e)}"
                         for f, e in form.errors.items())
        raise ApiError(422, f"Choose a weapon and tap your target square(s). {wrong}",
                       field=next(iter(form.errors), "at"), rule="R12")
    document = {"weapon": form.weapon.data,
                "at": [s.strip() for s in (form.at.data or "").split(",") if s.strip()]}
    if form.weapon.data != "salvo":
        document["from"] = (form.base.data or "").strip()
        document["at"] = document["at"][0] if len(document["at"]) == 1 else document["at"]
    if form.target.data:
        document["target"] = form.target.data
    return document


def _fill(_view: dict, draft: dict, document: dict) -> tuple[dict, dict]:
    """Place the rest for me: what is left of the purchase, at random (from the server's own
    randomness, which nobody can predict) around what the player has placed (R6-R9); the
    draft to keep and what the page reads back (the check, the disposition, what was
    placed). Run in the costly pool by the shared route (``PlayRoutes.fill``)."""
    purchase = _bought(draft)
    document, _ = trim_to_purchase(document, purchase)
    try:
        filled = fill_at_random(document, purchase)
    except LayoutError as err:
        raise ApiError(422, f"Place the rest for me: {err} (R6-R9)", rule="R9") from None
    added = Counter(_kinds_placed(filled)) - Counter(_kinds_placed(document))
    check = placement_check(purchase, filled)
    check.update(disposition=filled,
                 placed=[f"{n} {PLURALS.get(k, k + 's') if n > 1 else NAMES.get(k, k)}"
                         for k, n in added.items()])
    return {**draft, "disposition": filled}, check


add_play_routes(bp, PlayRoutes(read_draft=_read_draft, keep_draft=_keep_draft,
                               lock_document=_lock_document, read_move=_read_move,
                               locked_rule="R10", fill=_fill))


def fill_at_random(document: dict, purchase: dict) -> dict:
    """What is left of the purchase placed at random around the disposition (R6-R9), from the
    system's own randomness, which nobody can predict: the costly part of "place the rest
    for me", run in the costly pool."""
    return complete(document, purchase, secrets.SystemRandom())


def _kinds_placed(document: dict) -> list[str]:
    kinds = [p["type"] for key in ("ships", "aircraft") for p in document.get(key) or []
             if isinstance(p, dict) and isinstance(p.get("type"), str) and p["type"] in NAMES]
    land = len(document.get("land") or [])
    return kinds + ["aa-gun"] * len(document.get("guns") or []) + ["land unit"] * land


# -- play -----------------------------------------------------------------------------------------

@bp.post("/games/<game_id>/marks")
@seated
def save_marks(game_id: str):
    """A player's own pencil marks on his charts of the opponents; his alone."""
    body = _script_json()
    if not isinstance(body, dict) or len(json.dumps(body)) > MAX_MARKS:
        raise ApiError(400, "Pencil marks are an object of charts and squares", field="marks")
    marks = {}
    for opponent, squares in body.items():
        if opponent not in SEATS or not isinstance(squares, dict):
            raise ApiError(400, f"{opponent!r} is not a seat", field="marks")
        marks[opponent] = {str(sq)[:6]: str(mark)[:2] for sq, mark in squares.items()}
    with store().write(game_id):
        store().keep_note(MARKS, game_id, g.seat, marks)
    return {"saved": sum(len(v) for v in marks.values())}


# -- the post-mortem ----------------------------------------------------------------------------

def postmortem_page(game_id: str, seat: str):
    """After the end: every chart revealed, stepping through the moves, what each weapon
    bought, hindsight and the fingerprints checked."""
    page = service.derived(store(), game_id, ("postmortem-page", seat),
                           functools.partial(_postmortem_page, seat=seat),
                           lambda page: 4 * len(page["page_data"]),
                           costly="working out a post-mortem")
    return render_template("naval_war/postmortem.html", **page, names=NAMES, rules=catalogue)


def _postmortem_page(game, seat: str) -> dict:
    """What the post-mortem page shows a seat; refuses before the end (R21)."""
    document = postmortem_document(game)
    shown = postmortem_view(game, seat)
    view = shown["view"]
    data = {"seats": shown["seats"], "steps": step_deltas(game), "names": NAMES}
    return {"view": view, "doc": document, "headline": result_headline(view),
            "checks": shown["checks"], "page_data": script_json(data)}


__all__ = ["bp", "postmortem_page", "seat_page"]
