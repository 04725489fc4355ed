"""The phone pages of Broadside: its seat page for each phase and its post-mortem page
(reached through ``parts.BROADSIDE``, the rule set's ``WebParts``), and a Blueprint of its own
for its forms (the setup draft, locking in, a move: the routes every game has,
``referee/playroutes.py``, given what this game reads and answers), over the shared service
(``referee/service.py``) and web helpers (``referee/web.py``, ``referee/session.py``).

Every page about a player is drawn from his own view (B12, B14): the setup page from his view
and his draft, the play page from his view (Blue's buoys and batteries as Red may know them),
the game-over page once everything is revealed. The harbour is the one drawing
(``drawing.py``), served as SVG (``svg.py``); the page's script only marks crosses on it, from
the view's ``legal`` list.
"""

from __future__ import annotations

import functools
import secrets

from flask import Blueprint, render_template, request, url_for

from ... import service, strictjson
from ...common.documents import Json
from ...common.problems import RuleViolation
from ...errors import ApiError
from ...playroutes import PlayRoutes, add_play_routes, kept_draft
from ...session import is_host
from ...web import script_json, store
from ..board import BOARD, BUOY_GROUPS, CROSSES, START_FACING, YELLOW_CIRCLES, parse_cross
from ..catalogue import (
    BATTERY_LIMITS,
    BUOY_LIMITS,
    FLEETS,
    MASTS,
    NAMES,
    SHIP_TYPES,
    catalogue,
)
from ..fleet import check_disposition
from ..postmortem import postmortem_document
from ..views import postmortem_view, result_headline
from .drawing import board_drawing
from .steps import states as harbour_states
from .svg import to_svg
from .totals import totals

bp = Blueprint("broadside", __name__, template_folder="templates", static_folder="static",
               url_prefix="/broadside")
MAX_DRAFT = 4096  # bytes: ten ships, six buoys and four batteries, with room to spare
SITES = tuple(b["site"] for b in BOARD["batteries"])


def page_catalogue() -> dict:
    """The catalogue as the pages embed it (``rules-catalogue``): this rule set's, so the
    shared script leaves these pages to their own."""
    served = catalogue()
    return {**served, "name": served["title"]}


def _context(view: dict, **more) -> dict:
    return {"view": view, "rules_catalogue": page_catalogue(), "names": NAMES,
            "now": service.now(), "hosting": is_host(view["id"]), **more}


# -- the harbour as each page shows it ----------------------------------------------------------

def _last_path(view: dict) -> dict[str, str]:
    """The crosses the last move passed through, marked faintly (B11)."""
    if not view.get("reports"):
        return {}
    last = view["reports"][-1]
    marks = {cross: "path" for cross in last.get("path") or []}
    if last.get("from"):
        marks[last["from"]] = "from"
    return marks


def view_board(view: dict, *, taps: bool = False, title: str = "The harbour") -> str:
    """The harbour with everything the view holds: ships, masts, merchant ships, the buoys
    and batteries as this seat knows them (B14)."""
    return to_svg(board_drawing(view["board"], ships=view["ships"], merchants=view["merchants"],
                                buoys=view["buoys"], batteries=view["batteries"],
                                marks=_last_path(view), taps=taps, title=title))


def draft_board(view: dict, draft: dict, problems: list[dict]) -> str:
    """The harbour with a seat's setup in progress: his ships facing as B3 sets them, and for
    Blue his buoys and batteries as marked so far; the crosses of a problem in red."""
    seat = view["you"]
    ships = [{"side": seat, "type": s["type"], "at": s["at"], "facing": START_FACING[seat],
              "masts": MASTS[s["type"]]} for s in draft.get("ships", [])
             if s["at"] in CROSSES]  # a ship on no cross is a problem, drawn nowhere
    buoys = ({c: draft.get("buoys", {}).get(c, "unknown") for c in YELLOW_CIRCLES}
             if seat == "blue" else None)
    batteries = draft.get("batteries", {}) if seat == "blue" else None
    marks = {square: "problem" for p in problems for square in p.get("squares", [])
             if square in CROSSES}
    return to_svg(board_drawing(view["board"], ships=ships, buoys=buoys, batteries=batteries,
                                marks=marks, taps=True, title=f"{seat.title()}'s setup"))


def secrets_line(view: dict) -> str:
    """Blue's buoys and batteries in words, once the view shows them (the end, B12)."""
    buoys = view.get("buoys") or {}
    told = [f"{c} {b['kind'].upper()}" for c, b in buoys.items()
            if isinstance(b, dict) and b.get("kind") in ("sink", "pass")]
    sites = [f"{s} {k.upper()}" for s, k in (view.get("batteries") or {}).items()
             if k in ("hit", "miss")]
    return (f"Blue's buoys: {', '.join(told) or 'not shown'}. Shore batteries: "
            f"{', '.join(sites) or 'not shown'}.")


# -- the setup draft ------------------------------------------------------------------------

def _disposition(seat: str, draft: dict) -> dict:
    """The setup a kept draft holds: none yet, no ship placed and (Blue) nothing marked."""
    if draft.get("disposition"):
        return draft["disposition"]
    return {"ships": [], "buoys": {}, "batteries": {}} if seat == "blue" else {"ships": []}


def draft_problems(seat: str, draft: dict) -> list[dict]:
    """What is wrong with a setup so far, as the core checks a disposition (B3, B4), less what
    is only not done yet (ships not placed, buoys and batteries not marked); and, as Blue taps,
    more SINK or PASS buoys, HIT or MISS batteries than B4 allows."""
    placed = {s.get("at") for s in draft.get("ships", [])}
    buoys, batteries = draft.get("buoys") or {}, draft.get("batteries") or {}
    complete = {"ships": len(placed) == sum(FLEETS[seat].values()),
                "buoys": len(buoys) == len(YELLOW_CIRCLES),
                "batteries": len(batteries) == len(SITES)}
    found: list[dict] = []
    try:
        check_disposition(draft, seat)
    except RuleViolation as refused:
        for p in refused.problems:
            group = (p.field or "ships").split(".")[0].split("[")[0]
            marked = placed if group == "ships" else set(buoys)
            if p.squares:
                if set(p.squares) <= marked:
                    found.append(p.to_json())
            elif complete.get(group, True):
                found.append(p.to_json())
    if seat == "blue":
        for kinds, limits, what, field in ((buoys, BUOY_LIMITS, "buoys", "buoys"),
                                           (batteries, BATTERY_LIMITS, "batteries",
                                            "batteries")):
            for kind, limit in limits.items():
                n = sum(1 for k in kinds.values() if k == kind)
                if n > limit and not complete[field]:
                    found.append({"rule": "B4", "message": f"{limit} {what} are "
                                  f"{kind.upper()}; {n} are marked so", "squares": [],
                                  "field": field})
    return found


def _normal(at: str) -> str:
    """A cross as the board names it ("i19" is "I 19"); what names none stays as it was sent,
    for the core to refuse by its ruling (B1)."""
    try:
        return parse_cross(at)
    except ValueError:
        return at


def _read_draft(seat: str) -> dict:
    """The setup in progress as the page's script sends it: a disposition's shape, small;
    what it breaks is the core's to say."""
    body = request.get_data(cache=True)
    if len(body) > MAX_DRAFT:
        raise ApiError(413, "A setup is ten ships, six buoys and four batteries",
                       field="disposition")
    try:
        document = strictjson.loads(body)
    except (ValueError, UnicodeDecodeError):
        document = None
    document = document.get("disposition") if isinstance(document, dict) else None
    keys = {"ships", "buoys", "batteries"} if seat == "blue" else {"ships"}
    if not isinstance(document, dict) or set(document) - keys:
        raise ApiError(400, f"The draft is {seat.title()}'s disposition: "
                            f"{', '.join(sorted(keys))} (B13)", field="disposition")
    ships = document.get("ships", [])
    if not isinstance(ships, list) or len(ships) > sum(FLEETS[seat].values()):
        raise ApiError(400, "'ships' is a list of at most ten ships (B3, B13)", field="ships")
    for i, ship in enumerate(ships):
        if not (isinstance(ship, dict) and set(ship) == {"type", "at"}
                and ship["type"] in SHIP_TYPES and isinstance(ship["at"], str)
                and len(ship["at"]) <= 8):
            raise ApiError(400, f"ships[{i}] is a ship: type and at (B13)", field=f"ships[{i}]")
    shaped: Json = {"ships": [{"type": s["type"], "at": _normal(s["at"])} for s in ships]}
    if seat == "blue":
        for key, values, count in (("buoys", ("sink", "pass"), len(YELLOW_CIRCLES)),
                                   ("batteries", ("hit", "miss"), len(SITES))):
            marks = document.get(key, {})
            if not isinstance(marks, dict) or len(marks) > count or not all(
                    isinstance(k, str) and len(k) <= 8 and v in values
                    for k, v in marks.items()):
                raise ApiError(400, f"'{key}' names each of its places with "
                                    f"{' or '.join(values)} (B4, B13)", field=key)
            shaped[key] = dict(marks)
    return shaped


# -- the seat's page in each phase --------------------------------------------------------------

def seat_page(game_id: str, seat: str, view: dict):
    """A seat's page at ``/games/<id>``: setting up, waiting, playing or the end (B3-B12)."""
    if view["phase"] == "setup":
        if view["seats"][seat]["ready"]:
            return render_template("broadside/waiting.html", board=view_board(view),
                                   page_data=script_json({"view": view}), **_context(view))
        draft = _disposition(seat, kept_draft(game_id, seat))
        problems = draft_problems(seat, draft)
        data = {"you": seat, "draft": draft, "problems": problems,
                "fleet": {k: n for k, n in FLEETS[seat].items() if n},
                "order": [k for k in SHIP_TYPES if FLEETS[seat][k]], "names": NAMES,
                "starts": view["board"][f"{seat}_start"], "yellow": list(YELLOW_CIRCLES),
                "groups": dict(BUOY_GROUPS), "sites": list(SITES),
                "urls": {"draft": url_for("broadside.save_draft", game_id=game_id)}}
        return render_template("broadside/setup.html", page_data=script_json(data),
                               board=draft_board(view, draft, problems), **_context(view))
    if view["phase"] == "over":
        return render_template("broadside/over.html", board=view_board(view),
                               headline=result_headline(view), secrets=secrets_line(view),
                               **_context(view))
    yours = view["turn"] == seat
    passing = yours and view.get("legal") == [{"pass": True}]
    data = {"view": view, "names": NAMES}
    return render_template("broadside/play.html", page_data=script_json(data),
                           board=view_board(view, taps=yours), key=secrets.token_hex(8),
                           passing=passing, **_context(view))


def _keep_draft(view: dict, _draft: dict, sent: dict) -> tuple[dict, dict]:
    """The setup in progress as the seat's note; what is wrong with it so far, and the
    harbour drawn with it."""
    problems = draft_problems(view["you"], sent)
    return {"disposition": sent}, {"problems": problems,
                                   "board": draft_board(view, sent, problems)}


def _read_move() -> dict:
    """One move (B5) from the play page's form, or a pass; whether it is legal is the
    core's to say."""
    if request.form.get("pass"):
        return {"pass": True}
    ship = (request.form.get("ship") or "").strip()[:12]
    to = (request.form.get("to") or "").strip()[:12]
    turn = (request.form.get("turn") or "").strip()[:12] or None
    if not ship or not to:
        raise ApiError(422, "Tap one of your ships, then a cross it can reach (B5)",
                       field="ship", rule="B5")
    return {"ship": ship, "turn": turn, "to": to}


# the setup draft, locking in (the core checks it whole, B3, B4) and a move
add_play_routes(bp, PlayRoutes(read_draft=_read_draft, keep_draft=_keep_draft,
                               lock_document=_disposition, read_move=_read_move,
                               locked_rule="B3"))


# -- the post-mortem ----------------------------------------------------------------------------

def postmortem_page(game_id: str, seat: str):
    """After the end: the harbour after any move (``?step=n``, 0 the setups), every secret
    shown, the move's report, and every move to step to."""
    raw = request.args.get("step", "")
    step = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 4 else None
    page = service.derived(store(), game_id, ("broadside-postmortem-page", seat, step),
                           functools.partial(_postmortem_page, seat=seat, step=step),
                           lambda page: len(page["board"]) + 200 * len(page["reports"]),
                           costly="working out a post-mortem")
    return render_template("broadside/postmortem.html", **page)


def _postmortem_page(game, seat: str, step: int | None) -> dict:
    try:
        shown = postmortem_view(game, seat)
    except RuleViolation:
        raise ApiError(409, "The post-mortem is shown once the game is over",
                       rule="B12") from None
    view = shown["view"]
    reports = view["reports"]
    steps = len(reports)
    step = steps if step is None else min(step, steps)
    state = harbour_states(shown)[step]
    board = to_svg(board_drawing(view["board"], **state, marks=_last_path(
        {"reports": reports[:step]}), title=f"The harbour after move {step}" if step else
        "The harbour as set up"))
    return {"view": view, "headline": result_headline(view), "secrets": secrets_line(view),
            "totals": totals(postmortem_document(game)),
            "checks": shown.get("checks", []), "reports": reports, "steps": steps,
            "step": step, "report": reports[step - 1] if step else None,
            "board": board, "rules_catalogue": page_catalogue(), "names": NAMES}


__all__ = ["bp", "postmortem_page", "seat_page"]
