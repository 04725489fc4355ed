"""The phone pages: create, join, budget, place, play and see the end.

A device holds its seat in the (HttpOnly, SameSite=Lax) session cookie; every page about a
player is rendered from his view (R21), exactly as the JSON API's responses are.
"""

from __future__ import annotations

import functools
import io
import json
import secrets
from collections import Counter

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from . import ladder, rulesets, service, strictjson, webparts
from .costly import run as run_costly
from .errors import ApiError
from .forms import (
    BudgetForm,
    ClockForm,
    ComputerGameForm,
    CreateGameForm,
    ImportForm,
    JoinForm,
    MoveForm,
    PlainForm,
    RecoverForm,
    budget_fields,
    read_shape,
)
from .naval_war import SEATS
from .naval_war.book import BOOK_FLEETS, describe_fleet
from .naval_war.catalogue import MAX_CLOCK_EXTENSION
from .naval_war.catalogue import RULES as NAVAL_WAR
from .naval_war.catalogue import TITLE as NAVAL_WAR_TITLE
from .naval_war.club import club_records
from .naval_war.fleet import NAMES, PLURALS, SHIP_TYPES
from .naval_war.knowledge import knowledge_chart
from .naval_war.layout import LayoutError, complete
from .naval_war.phrasing import capitalise, number_word, side_words, sides_words
from .naval_war.postmortem import postmortem_document, step_deltas
from .naval_war.purchase import BUYABLE, placement_check, purchase_cost, trim_to_purchase
from .naval_war.views import (
    postmortem_view,
    result_headline,
    targets_for,
)
from .poll import conditional, view_etag
from .svgchart import bar_chart
from .web import (
    MAX_GAME_FILE,
    client_address,
    join_key,
    join_url,
    minutes_since,
    public_base,
    refused_form_goes_to,
    short_fingerprint,
    signing_key,
    store,
    time_left,
)

bp = Blueprint("pages", __name__)


# -- who this device is ----------------------------------------------------------------------

def _seats() -> dict:
    return session.get("seats", {})


def _hosted() -> dict:
    return session.get("host", {})


# The session cookie is signed, not secret: anyone holding the phone can read it. It keeps
# only the tokens this phone plays and hosts with (no join code: the host page derives those
# from the installation's secret key, service.join_code), drops a finished game an hour after
# its end, and keeps at most KEPT_GAMES of each, the oldest dropped: well under 4 KB however
# many games a phone has played (issue 10, item 12).
KEPT_GAMES = 12
FINISHED_KEPT_S = 3600  # time to print the booklet or download the file after the end


def _remember(key: str, game_id: str, value) -> None:
    held = {g: v for g, v in session.get(key, {}).items() if g != game_id}
    held[game_id] = value  # the newest last
    session[key] = held
    session.permanent = True
    _prune_session()


def _prune_session() -> None:
    """Drop games finished over an hour ago, then all but the newest KEPT_GAMES."""
    held = {key: dict(session.get(key, {})) for key in ("seats", "host")}
    ids = sorted({g for games in held.values() for g in games})
    cutoff = service.now() - FINISHED_KEPT_S
    done = {row["id"] for row in store().db.query(
        f"select id from games where finished_at < ? and id in ({', '.join('?' * len(ids))})",
        [cutoff, *ids])} if ids else set()
    for key, games in held.items():
        kept = [(g, v) for g, v in games.items() if g not in done][-KEPT_GAMES:]
        if len(kept) != len(games):
            session[key] = dict(kept)


def _host_entry(game_id: str) -> str | None:
    """The host token this phone holds for a game; an old cookie's join codes are dropped
    from it (the host page derives every seat's code)."""
    held = _hosted().get(game_id)
    if isinstance(held, dict):  # a cookie from before item 12: {"token", "codes"}
        held = held.get("token")
        if isinstance(held, str):
            _remember("host", game_id, held)
    return held if isinstance(held, str) and held else None


def my_seat(game_id: str) -> str:
    """The seat this device holds in the game; a friendly 403 page otherwise."""
    token = _seats().get(game_id)
    if token is None:
        service.require_game(store(), game_id)
        raise ApiError(403, "This phone holds no seat in this game. Ask the host for your "
                            "join link or QR code; if you had a seat, open "
                            f"/games/{game_id}/recover and enter your recovery code (R24).")
    try:
        return service.authorise(store(), game_id, token)
    except ApiError as err:
        if err.status == 401:
            raise ApiError(403, "This phone's seat was handed to another device (by its "
                                "recovery code, or by the host with a new join link before "
                                f"lock-in). To take it back, open /games/{game_id}/recover "
                                "and enter your recovery code (R24).") from None
        raise


def host_token(game_id: str) -> str:
    """The token with which this phone hosts the game: the host token it created the game
    with, or its seat's token once hosting is that seat's (R24)."""
    for token in (_host_entry(game_id), _seats().get(game_id)):
        if token and service.is_host(store(), game_id, token):
            return token
    service.require_game(store(), game_id)
    raise ApiError(403, "Only the game's host can manage it: the phone that created it, or "
                        "the player it was handed to.")


def _is_host(game_id: str) -> bool:
    try:
        host_token(game_id)
    except ApiError:
        return False
    return True


def _show_recovery_once(game_id: str, seat: str, code: str) -> None:
    """The seat's recovery code rides in this phone's cookie to the next page of the game,
    which shows it once and drops it (R24); the server keeps only its hash."""
    session["recovery"] = {"game": game_id, "seat": seat, "code": code}


@bp.app_context_processor
def recovery_to_show() -> dict:
    held = session.get("recovery")
    if (held and request.method == "GET" and request.blueprint == "pages"
            and (request.view_args or {}).get("game_id") == held.get("game")):
        session.pop("recovery")
        url = public_base() + url_for("pages.recover", game_id=held["game"])
        return {"recovery": {**held, "url": url}}
    return {}


bp.add_app_template_global(sides_words, "sides_words")  # "Red and Green against Blue" (R23)
bp.add_app_template_global(side_words, "side_words")  # "Red and Green"
# issue 13: the templates' arithmetic lives here, not in the templates
bp.add_app_template_filter(time_left, "time_left")  # "4:59 left" (R10, R25)
bp.add_app_template_filter(minutes_since, "minutes_since")
bp.add_app_template_filter(short_fingerprint, "short_fingerprint")
bp.add_app_template_filter(capitalise, "capitalise")  # "salvo" -> "Salvo"

FILLS_PER_MINUTE = 10  # "place the rest for me" a seat may ask, each up to a second's work
CREATOR_SEAT = SEATS[0]  # who creates a game on his phone takes its first seat, and hosts


# -- home, host and join ---------------------------------------------------------------------

@bp.route("/", methods=["GET", "POST"])
def home():
    form = CreateGameForm()
    if form.validate_on_submit():
        seats = int(form.seats.data)
        sides = read_shape(form.sides.data)
        fits = sides is not None and len([s for side in sides for s in side]) == seats
        created = service.create_game(store(), _options(form.rules.data, {
            "seats": seats, "alliances": sides if fits else False,
            "disposition_minutes": form.minutes.data,
            "move_minutes": form.move_minutes.data or None}), join_url, key=join_key())
        if sides is not None and not fits and "alliances" in \
                rulesets.named(form.rules.data).options:
            players = len([s for side in sides for s in side])
            flash(f"{sides_words(sides)} needs {number_word(players)} players; this game has "
                  f"{number_word(seats)}, every player for himself (R23).")
        game_id = created["id"]
        keys = service.claim_seat(store(), game_id, CREATOR_SEAT,
                                  created["seats"][CREATOR_SEAT]["join_code"],
                                  form.name.data, key=join_key())
        service.hand_over_hosting(store(), game_id, CREATOR_SEAT)  # hosting follows it (R24)
        _remember("seats", game_id, keys.token)
        _remember("host", game_id, created["host_token"])
        _show_recovery_once(game_id, CREATOR_SEAT, keys.recovery_code)
        return redirect(url_for("pages.host", game_id=game_id))
    return render_template("home.html", form=form, games=_my_games(),
                           computer=ComputerGameForm(), creator_seat=CREATOR_SEAT,
                           ladders=ladder.shown())


def _options(rules: str, asked: dict) -> dict:
    """The home page's options that the chosen game reads (two seats for a two-player
    game): its rule set refuses any other."""
    known = rulesets.named(rules).options
    return {"rules": rules, **{key: value for key, value in asked.items()
                               if key in known or key == "bots"}}


PHASES = {"setup": "buying and placing fleets", "play": "in play", "over": "over"}


def _my_games() -> list[dict]:
    """This phone's games for the home page: each told from its seat's own view (R21), with
    the opponents' names, the phase and whose turn it is."""
    games = []
    for game_id, token in _seats().items():
        holder = store().holder_of(token) if isinstance(token, str) else None
        if not holder or holder.game_id != game_id or not holder.seat:
            continue  # the seat went to another phone
        seat = holder.seat
        try:
            view = service.seat_view(store(), game_id, seat).document  # read only
        except ApiError:
            continue
        others = [{"seat": s, "name": info["name"] or "not joined yet",
                   "ally": s in view.get("allies", ())}
                  for s, info in view["seats"].items() if s != seat]
        if view["phase"] == "over":
            state = rulesets.named(store().rules_of(game_id)).headline(view)
        elif view["phase"] == "play":
            turn = view["turn"]
            state = ("your turn" if turn == seat else
                     f"{view['seats'][turn]['name'] or turn.title()} ({turn.title()}) to move")
        else:
            state = ("you are locked in; waiting for the others"
                     if view["seats"][seat]["ready"] else "your fleet is still to place")
        games.append({"id": game_id, "seat": seat, "others": others,
                      "phase": PHASES.get(view["phase"], view["phase"]), "state": state,
                      "your_turn": view["phase"] == "play" and view["turn"] == seat})
    return games


@bp.post("/play-computer")
def play_computer():
    """Play the computer: the player takes the first seat (Red); the computer's buys and
    places its fleet at once."""
    form = ComputerGameForm()
    if not form.validate_on_submit():
        raise ApiError(400, "; ".join(f"{form[name].label.text}: {' '.join(errors)}"
                                      for name, errors in form.errors.items()),
                       field=next(iter(form.errors)))
    computer_seat = SEATS[1]
    created = service.create_game(store(), _options(form.rules.data, {
        "seats": 2, "bots": {computer_seat: form.level.data}}), join_url, key=join_key())
    game_id = created["id"]
    keys = service.claim_seat(store(), game_id, CREATOR_SEAT,
                              created["seats"][CREATOR_SEAT]["join_code"], form.player.data,
                              key=join_key())
    service.hand_over_hosting(store(), game_id, CREATOR_SEAT)
    _remember("seats", game_id, keys.token)
    _remember("host", game_id, created["host_token"])
    _show_recovery_once(game_id, CREATOR_SEAT, keys.recovery_code)
    return redirect(url_for("pages.game", game_id=game_id))




@bp.get("/games/<game_id>/host")
def host(game_id: str):
    host_token(game_id)
    here = _seats().get(game_id) and _held_seat(game_id)
    if here:  # the host at his page is at the table too
        service.mark_seen(store(), game_id, here)
    status = service.host_status(store(), game_id)
    # a link for every seat not yet claimed, including one the host has just reissued
    links = {seat: join_url(game_id, seat, code)
             for seat, code in service.join_codes(store(), game_id, key=join_key()).items()}
    present = {seat: bool(info["last_seen"])
               and status["now"] - info["last_seen"] <= service.PRESENT_S
               for seat, info in status["seats"].items()}  # its page open (polling)
    return render_template("host.html", game_id=game_id, status=status, links=links,
                           form=PlainForm(), clock_form=ClockForm(), now=service.now(),
                           my_seat=_seats().get(game_id) and _held_seat(game_id),
                           present=present, levels=_rule_set(game_id).levels,
                           title=_rule_set(game_id).title)


def _rule_set(game_id: str):
    return rulesets.named(store().rules_of(game_id))


@bp.post("/games/<game_id>/host/stand-in-level")
@refused_form_goes_to("pages.host")
def host_stand_in_level(game_id: str):
    """The host chooses the level of the computer that stands in for an absent player
    (R25)."""
    host_token(game_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    level = service.choose_stand_in_level(store(), game_id, request.form.get("level"))
    flash(f"The computer that stands in for an absent player plays as {level} (R25).")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.get("/games/<game_id>/qr/<seat>.svg")
def join_qr(game_id: str, seat: str):
    host_token(game_id)
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
def host_reissue(game_id: str, seat: str):
    host_token(game_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    service.reissue_join_code(store(), game_id, seat, key=join_key())
    if _seats().get(game_id) and seat == _held_seat(game_id):
        session["seats"] = {g: t for g, t in _seats().items() if g != game_id}
    flash(f"New join link for {seat.title()}: the old one and the phone that held the seat "
          "no longer work.")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.post("/games/<game_id>/host/handover/<seat>")
@refused_form_goes_to("pages.host")
def host_handover(game_id: str, seat: str):
    """"Make Blue the host": the host's powers pass to Blue's seat, and leave this phone."""
    host_token(game_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    service.hand_over_hosting(store(), game_id, seat)
    flash(f"{seat.title()} is now the host. Hosting shows nothing of any fleet (R24).")
    return redirect(url_for("pages.game", game_id=game_id))


def _held_seat(game_id: str) -> str | None:
    holder = store().holder_of(_seats()[game_id])
    return holder.seat if holder else None


@bp.post("/games/<game_id>/host/clock")
@refused_form_goes_to("pages.host")
def host_clock(game_id: str):
    host_token(game_id)
    form = ClockForm()
    if not form.validate_on_submit():
        raise ApiError(422, f"Minutes to add: a whole number from 1 to {MAX_CLOCK_EXTENSION}",
                       field="minutes", rule="R10")
    service.extend_clock(store(), game_id, form.minutes.data)
    flash(f"{form.minutes.data} more minutes for dispositions (R10).")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.post("/games/<game_id>/host/forfeit/<seat>")
@refused_form_goes_to("pages.host")
def host_forfeit(game_id: str, seat: str):
    host_token(game_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    service.forfeit_seat(store(), game_id, seat)
    flash(f"{seat.title()} is forfeited (R10).")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.route("/games/<game_id>/join/<seat>", methods=["GET", "POST"])
@refused_form_goes_to(None)  # the join page shows its own error page
def join(game_id: str, seat: str):
    service.require_seat(store(), game_id, seat)  # a seat of another game's rules: 404
    form = JoinForm(code=request.args.get("code", ""))
    if form.validate_on_submit():
        held = store().holder_of(_seats()[game_id]) if _seats().get(game_id) else None
        # one seat a phone; a second loses the first
        if held and held.game_id == game_id and held.seat:
            raise ApiError(409, f"This phone already plays {held.seat.title()} in this game; "
                                f"open the {seat.title()} link on another phone", field="seat")
        keys = service.claim_seat(store(), game_id, seat, form.code.data or "",
                                  form.name.data, key=join_key())
        _remember("seats", game_id, keys.token)
        _show_recovery_once(game_id, seat, keys.recovery_code)
        return redirect(url_for("pages.game", game_id=game_id))
    seating = service.seating(store(), game_id)
    row = store().seat_row(game_id, seat)
    if request.method == "GET" and row and row.get("claimed"):  # an old link: say so at once
        held = store().holder_of(_seats()[game_id]) if _seats().get(game_id) else None
        if held and held.game_id == game_id and held.seat == seat:
            return redirect(url_for("pages.game", game_id=game_id))
    return render_template("join.html", form=form, game_id=game_id, seat=seat,
                           seating=seating, recover_form=RecoverForm(seat=seat),
                           taken=bool(row and row.get("claimed")))


@bp.route("/games/<game_id>/recover", methods=["GET", "POST"])
def recover(game_id: str):
    """"I had this seat": the recovery code moves a seat to this phone; the old phone is
    logged out, and a fresh code is shown once (R24)."""
    service.require_game(store(), game_id)
    form = RecoverForm()
    form.seat.choices = list(service.public_status(store(), game_id)["seats"])
    if request.method == "POST":
        if not form.validate_on_submit():
            raise ApiError(400, "Choose your seat and enter your recovery code",
                           field="recovery_code")
        keys = service.recover_seat(store(), game_id, form.seat.data,
                                    form.recovery_code.data, request.remote_addr or "")
        _remember("seats", game_id, keys.token)
        _show_recovery_once(game_id, form.seat.data, keys.recovery_code)
        flash("This phone now holds your seat; the old phone is logged out (R24). Your "
              "recovery code has changed: write down the new one.")
        return redirect(url_for("pages.game", game_id=game_id))
    return render_template("recover.html", form=form, game_id=game_id)


# -- a seat's game page ------------------------------------------------------------------------

def _draft(game_id: str, seat: str) -> dict:
    return store().note("drafts", game_id, seat) or {}


@bp.get("/games/<game_id>")
def game(game_id: str):
    """A seat's page in every phase, drawn by its game's rule set."""
    seat = my_seat(game_id)
    view = service.seat_view(store(), game_id, seat).fresh()
    return webparts.for_rules(store().rules_of(game_id)).seat_page(game_id, seat, view)


def naval_war_page(game_id: str, seat: str, view: dict):
    """A Naval War Game seat's page: budget, placement, waiting, play or the end."""
    if view["phase"] == "setup":
        draft = _draft(game_id, seat)
        if view["seats"][seat]["ready"]:
            return render_template("waiting.html", view=view, now=service.now(),
                                   hosting=_is_host(game_id),
                                   page_data=script_json({"view": view, "names": NAMES}))
        if not draft.get("purchase") or request.args.get("budget"):
            form = BudgetForm(data={k.replace("-", "_"): n for k, n in
                                    draft.get("purchase", {}).items()})
            fields = dict(zip(BUYABLE, budget_fields(form), strict=True))
            return render_template("budget.html", view=view, form=form,
                                   ship_fields=[fields[k] for k in SHIP_TYPES],
                                   force_fields=[f for k, f in fields.items()
                                                 if k not in SHIP_TYPES],
                                   now=service.now(),
                                   hosting=_is_host(game_id), book=[
                                       (key, title, describe_fleet(purchase))
                                       for key, (title, purchase) in BOOK_FLEETS.items()],
                                   draft_placed=bool(draft.get("purchase")))
        return render_template("place.html", view=view, draft=draft, form=PlainForm(),
                               names=NAMES, now=service.now(), hosting=_is_host(game_id))
    marks = store().note("marks", game_id, seat) or {}
    others = [s for s in view["seats"] if s != seat]
    charts = {other: knowledge_chart(view, other) for other in others}
    if view["phase"] == "over":
        return render_template("over.html", view=view, headline=result_headline(view),
                               page_data=_page_data(view, charts, marks))
    return render_template("play.html", view=view, move_form=MoveForm(key=secrets.token_hex(8)),
                           form=PlainForm(), page_data=_page_data(view, charts, marks),
                           opponents=service.derived(store(), game_id, ("targets", seat),
                                                     lambda game: targets_for(game, seat)),
                           move_clock=view.get("move_clock"),
                           now=service.now(), hosting=_is_host(game_id))


def _page_data(view: dict, charts: dict, marks: dict) -> str:
    """What the page's script draws, as JSON: this seat's own view and what follows from it."""
    return script_json({"view": view, "knowledge": charts, "marks": marks, "names": NAMES})


def script_json(data: object) -> str:
    """JSON to sit in a page's <script type="application/json"> block: '<', '>' and '&' are
    written as escapes, so that no player's name ("</script>...") can end the block."""
    return (json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026"))


@bp.post("/games/<game_id>/budget")
@refused_form_goes_to("pages.game", budget=1)
@webparts.plays(NAVAL_WAR)
def budget(game_id: str):
    seat = my_seat(game_id)
    form = BudgetForm()
    if not form.validate_on_submit():
        problems = [f"{getattr(form, f).label.text}: {'; '.join(e)}"
                    for f, e in form.errors.items()]
        raise ApiError(422, "The budget has problems: " + " ".join(problems), rule="R3")
    purchase = {kind: getattr(form, kind.replace("-", "_")).data or 0 for kind in BUYABLE}
    purchase = {k: n for k, n in purchase.items() if n}
    cost = purchase_cost(purchase)
    _keep_budget(game_id, seat, purchase)
    if cost.unspent:
        flash(f"{cost.unspent} points are unspent and will be lost (R4).")
    return redirect(url_for("pages.game", game_id=game_id))


def _keep_budget(game_id: str, seat: str, purchase: dict) -> None:
    """Keep a new budget, and take off the chart what it no longer buys (issue 12 §1)."""
    draft = _draft(game_id, seat)
    draft["purchase"] = purchase
    draft["disposition"], removed = trim_to_purchase(draft.get("disposition") or {}, purchase)
    with store().write():
        store().keep_note("drafts", game_id, seat, draft)
    if removed:
        flash("Taken off the chart, as the new budget does not buy them (R5): "
              f"{', '.join(removed)}.")


@bp.post("/games/<game_id>/budget/book")
@webparts.plays(NAVAL_WAR)
def budget_from_book(game_id: str):
    """A beginner's budget: the purchase of one side of the rulebook's Games 2-4."""
    seat = my_seat(game_id)
    form = PlainForm()
    choice = request.form.get("fleet", "")
    if not form.validate_on_submit():
        abort(400)
    if choice not in BOOK_FLEETS:
        raise ApiError(422, "Choose one of the book's fleets (Games 2-4)", field="fleet",
                       rule="R3")
    if service.public_status(store(), game_id)["seats"][seat]["ready"]:
        raise ApiError(409, "Your disposition is locked in; the budget cannot change (R10)",
                       rule="R10")
    title, purchase = BOOK_FLEETS[choice]
    _keep_budget(game_id, seat, dict(purchase))
    flash(f"You bought the fleet of {title} from the book: {describe_fleet(purchase)}. "
          "Place it square by square, or tap \u201cPlace the rest for me\u201d and change "
          "what you like.")
    return redirect(url_for("pages.game", game_id=game_id))


def _script_json():
    """The JSON a page's script sent, or None: never an exception, however deeply nested,
    and never NaN or Infinity (issue 10, item 8)."""
    if not request.is_json:
        return None
    try:
        return strictjson.loads(request.get_data(cache=True))
    except (ValueError, UnicodeDecodeError):
        return None


def _posted_draft(game_id: str) -> tuple[str, dict, dict]:
    """The seat posting, the disposition its page's script sent, and its kept draft, which
    must have a budget (R3)."""
    seat = my_seat(game_id)
    body = _script_json()
    document = body.get("disposition") if isinstance(body, dict) else None
    if not isinstance(document, dict):
        raise ApiError(400, "The draft is a disposition object", field="disposition")
    draft = _draft(game_id, seat)
    if not draft.get("purchase"):
        raise ApiError(409, "Choose a budget first (R3)", rule="R3")
    return seat, document, draft


@bp.post("/games/<game_id>/draft")
@webparts.plays(NAVAL_WAR)
def save_draft(game_id: str):
    """Save the placement in progress (from the page's script) and say what is wrong so far."""
    seat, document, draft = _posted_draft(game_id)
    draft["disposition"], removed = trim_to_purchase(document, draft["purchase"])
    with store().write():
        store().keep_note("drafts", game_id, seat, draft)
    check = placement_check(draft["purchase"], draft["disposition"])
    if removed:  # a page older than the budget: it adopts the referee's copy
        check.update(removed=removed, disposition=draft["disposition"])
    return check


@bp.post("/games/<game_id>/draft/fill")
@webparts.plays(NAVAL_WAR)
def fill_draft(game_id: str):
    """Place the rest for me: what is left of the purchase, at random (from the server's own
    randomness, which nobody can predict) around what the player has placed (R6-R9)."""
    seat, document, draft = _posted_draft(game_id)
    document, _ = trim_to_purchase(document, draft["purchase"])
    wait = store().take_turn(f"fill:{game_id}:{seat}", FILLS_PER_MINUTE, 60, service.now())
    if wait:
        raise ApiError(429, f"\u201cPlace the rest for me\u201d works {FILLS_PER_MINUTE} times a "
                            f"minute; try again in {service.seconds(int(wait) + 1)}",
                       field="disposition", headers={"Retry-After": str(int(wait) + 1)})
    try:
        filled = run_costly("placing the rest", fill_at_random, document, draft["purchase"])
    except LayoutError as err:
        raise ApiError(422, f"Place the rest for me: {err} (R6-R9)", rule="R9") from None
    before = Counter(_kinds_placed(document))
    added = Counter(_kinds_placed(filled)) - before
    draft["disposition"] = filled
    with store().write():
        store().keep_note("drafts", game_id, seat, draft)
    check = placement_check(draft["purchase"], filled)
    check.update(disposition=filled,
                 placed=[f"{n} {PLURALS.get(k, k + 's') if n > 1 else NAMES.get(k, k)}"
                         for k, n in added.items()])
    return check


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


@bp.post("/games/<game_id>/lock")
@webparts.plays(NAVAL_WAR)
def lock_in(game_id: str):
    seat = my_seat(game_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    draft = _draft(game_id, seat)
    purchase = draft.get("purchase", {})
    document = {**draft.get("disposition", {}), "salvoes": purchase.get("salvo", 0)}
    check = placement_check(purchase, draft.get("disposition", {}))
    left = [f"{n} {PLURALS[k] if n > 1 else NAMES[k]}" for k, n in check["left"].items()
            if n > 0]
    if left:
        raise ApiError(422, f"Place everything you bought before locking in: {', '.join(left)} "
                            "still to place (R5)", rule="R5")

    service.act(store(), game_id, lambda game: service.submit_and_lock_in(game, seat, document))
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/move")
@webparts.plays(NAVAL_WAR)
def move(game_id: str):
    seat = my_seat(game_id)
    form = MoveForm()
    if not form.validate_on_submit():
        wrong = " ".join(f"{getattr(form, f).label.text}: {' '.join(e)}"
                         for f, e in form.errors.items())
        raise ApiError(422, f"Choose a weapon and tap your target square(s). {wrong}",
                       field=next(iter(form.errors), "at"), rule="R12")
    document = {"weapon": form.weapon.data,
                "at": [s.strip() for s in form.at.data.split(",") if s.strip()]}
    if form.weapon.data != "salvo":
        document["from"] = (form.base.data or "").strip()
        document["at"] = document["at"][0] if len(document["at"]) == 1 else document["at"]
    if form.target.data:
        document["target"] = form.target.data
    key = f"page:{form.key.data}" if form.key.data else None
    service.make_move(store(), game_id, seat, document, key)
    return redirect(url_for("pages.game", game_id=game_id) + "#last")


@bp.post("/games/<game_id>/marks")
@webparts.plays(NAVAL_WAR)
def save_marks(game_id: str):
    """A player's own pencil marks on his charts of the opponents; his alone."""
    seat = my_seat(game_id)
    body = _script_json()
    if not isinstance(body, dict) or len(json.dumps(body)) > 20000:
        raise ApiError(400, "Pencil marks are an object of charts and squares", field="marks")
    marks = {}
    for opponent, squares in body.items():
        if opponent not in SEATS or not isinstance(squares, dict):
            raise ApiError(400, f"{opponent!r} is not a seat", field="marks")
        marks[opponent] = {str(sq)[:6]: str(mark)[:2] for sq, mark in squares.items()}
    with store().write():
        store().keep_note("marks", game_id, seat, marks)
    return {"saved": sum(len(v) for v in marks.values())}


@bp.post("/games/<game_id>/end")
def agree_to_end(game_id: str):
    seat = my_seat(game_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    service.agree_to_end(store(), game_id, seat)
    flash("You agreed to end the game; it ends when every player has (R14).")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/play-on")
def play_on(game_id: str):
    """"Play on": decline another player's offer to end the game (R14)."""
    seat = my_seat(game_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    service.play_on(store(), game_id, seat)
    flash("You play on: the offer to end the game has lapsed (R14).")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/stand-in/<target>")
def stand_in(game_id: str, target: str):
    """"Let the computer play for Blue" once Blue's move clock has run out (R25)."""
    seat = my_seat(game_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    service.stand_in(store(), game_id, target, seat)
    flash(f"The computer plays for {target.title()} until {target.title()} moves again "
          "himself (R25).")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/resign")
def resign(game_id: str):
    seat = my_seat(game_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    service.resign(store(), game_id, seat)
    return redirect(url_for("pages.game", game_id=game_id))


@bp.get("/games/<game_id>/status")
def status(game_id: str):
    """The cheap poll of the pages: version, phase and whose turn, with an ETag."""
    seat = my_seat(game_id)
    shown = service.seat_view(store(), game_id, seat)
    view = shown.document
    status = {"version": view["version"], "phase": view["phase"], "turn": view["turn"],
              "you": seat, "ready": sorted(s for s, v in view["seats"].items() if v["ready"]),
              "joined": sorted(s for s, v in view["seats"].items() if v["name"]),
              "deadline": view.get("clock", {}).get("deadline"), "now": service.now()}
    return conditional(view_etag(game_id, seat, shown.version),
                       lambda: current_app.json.response(status))



# -- the club's records and games as files ------------------------------------------------------

GAMES_PER_PAGE = 50  # finished games listed on one page of /club, newest first


@bp.get("/club")
def club():
    """The rules' summary tables over every finished game that counts, and the finished games
    themselves, newest first, GAMES_PER_PAGE a page (``?page=2`` ...). Each is summed or listed
    from the summary its rule set made as the game ended: no game is replayed here."""
    service.fill_club_entries(store(), signing_key().public)
    pages = max(1, -(-store().finished_count() // GAMES_PER_PAGE))
    page = _page_number(pages)
    parts = webparts.registered()
    sections = [service.club_section(store(), part.rules, part.club_section) for part in parts]
    titles = {part.rules: section["title"] for part, section in zip(parts, sections,
                                                                     strict=True)}
    mine = _seats()
    trusted = service.trusted_keys(store(), signing_key().public)
    finished = [{**row, "mine": row["id"] in mine, "rules_title": titles.get(row["rules"]),
                 "verified": service.counts_in_records(row["imported"], row["signer"], trusted)}
                for row in store().finished_listing((page - 1) * GAMES_PER_PAGE,
                                                    GAMES_PER_PAGE)]
    return render_template("club.html", sections=sections, finished=finished,
                           page=page, pages=pages, per_page=GAMES_PER_PAGE,
                           pager=pager(page, pages),
                           games=sum(section["games"] for section in sections),
                           forfeited=sum(section["forfeited"] for section in sections),
                           several=len(sections) > 1, form=ImportForm())


def pager(page: int, pages: int) -> dict:
    """The links under a paged list: the page before and after (None at either end), and the
    page numbers to show, the first, the last and two either side of this one, with None
    where numbers are left out.

    >>> pager(5, 9)["numbers"]
    [1, None, 3, 4, 5, 6, 7, None, 9]
    >>> pager(1, 3)
    {'newer': None, 'older': 2, 'numbers': [1, 2, 3]}
    """
    numbers: list[int | None] = []
    for n in range(1, pages + 1):
        if n in (1, pages) or abs(n - page) <= 2:
            numbers.append(n)
        elif numbers[-1] is not None:
            numbers.append(None)
    return {"newer": page - 1 if page > 1 else None,
            "older": page + 1 if page < pages else None, "numbers": numbers}


def _page_number(pages: int) -> int:
    """``?page=`` of /club: a whole number from 1 to the last page, or a 400 that says so."""
    raw = request.args.get("page", "1")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6 and 1 <= int(raw) <= pages):
        raise ApiError(400, f"The club's finished games run to {pages} page"
                            f"{'' if pages == 1 else 's'}: page is a whole number from 1 to "
                            f"{pages}, not {raw[:20]!r}", field="page")
    return int(raw)


def naval_war_club(entries: list[dict]) -> dict:
    """The Naval War Game's section of the club page, summed over the summaries of its
    finished games that count (``naval_war.club``); kept until another game counts."""
    records = club_records(entries)
    survival = [(PLURALS[row["ship"]], row["percent"] or 0,
                 f"{row['percent']}% ({row['survived']} of {row['bought']})"
                 if row["bought"] else "none bought") for row in records["survival"]]
    sunk = records["sunk"]
    weapons = [(NAMES[k][0].upper() + NAMES[k][1:], sunk[k], f"{sunk[k]} points")
               for k in ("atom-bomber", "bomber", "salvo")]
    return {"template": "_club_naval_war.html", "title": NAVAL_WAR_TITLE,
            "games": records["games"], "forfeited": records["forfeited"],
            **webparts.leading_players(records.pop("players")),  # kept: the leading rows
            "records": records,
            "survival_chart": bar_chart("Ships that survived", survival, 100),
            "weapon_chart": bar_chart("Enemy ship points sunk, by weapon", weapons,
                                      max([1] + [n for _, n, _ in weapons]))}


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
    _remember("seats", imported["id"], imported["seats"][CREATOR_SEAT]["token"])
    flash("Game imported: it replays to the same result, and every fingerprint matches. "
          + ("It is signed by this referee or one the club trusts, so it counts in the "
             "club's records." if imported["counted"] else
             "It is not signed by this referee or one the club trusts, so it is listed on "
             "the club page as unverified and counted in no record."))
    return redirect(url_for("pages.game", game_id=imported["id"]))


@bp.get("/games/<game_id>/export.json")
def export_game(game_id: str):
    my_seat(game_id)
    response = current_app.json.response(service.export_game(store(), game_id,
                                                             signing_key()))
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.json"'
    return response



# -- the post-mortem ----------------------------------------------------------------------------

@bp.get("/games/<game_id>/postmortem")
def postmortem(game_id: str):
    seat = my_seat(game_id)
    return webparts.for_rules(store().rules_of(game_id)).postmortem_page(game_id, seat)


def naval_war_postmortem(game_id: str, seat: str):
    page = service.derived(store(), game_id, ("postmortem-page", seat),
                           functools.partial(_postmortem_page, seat=seat),
                           lambda page: 4 * len(page["page_data"]),
                           costly="working out a post-mortem")
    return render_template("postmortem.html", **page, names=NAMES)


def _postmortem_page(game, seat: str) -> dict:
    """What the post-mortem page shows a seat; refuses before the end (R21)."""
    document = postmortem_document(game)
    shown = postmortem_view(game, seat)
    view = shown["view"]
    data = {"seats": shown["seats"], "steps": step_deltas(game), "names": NAMES}
    return {"view": view, "doc": document, "headline": result_headline(view),
            "checks": shown["checks"], "page_data": script_json(data)}
