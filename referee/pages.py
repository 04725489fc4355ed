"""The pages every game shares: home, playing the computer, the host's page, joining,
recovering a seat, a seat's game page and post-mortem (each drawn by its game's rule set,
``webparts``), the status poll, agreeing to end, playing on, a stand-in and resigning, the
club's records and games as files.

A phone holds its seats in its session cookie (``session``); every page about a player is
rendered from his view (R21), exactly as the JSON API's responses are. Each rule set's own
forms (its setup and moves) are routes of its own blueprint (``playroutes`` has those every
game has alike).
"""

from __future__ import annotations

import io

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)

from . import ladder, rulesets, service, strictjson, webparts
from .common.limits import MAX_CLOCK_EXTENSION
from .common.phrasing import capitalise, number_word, side_words, sides_words
from .errors import ApiError
from .forms import (
    ClockForm,
    ComputerGameForm,
    CreateGameForm,
    ImportForm,
    JoinForm,
    PlainForm,
    RecoverForm,
    read_shape,
)
from .poll import conditional, view_etag
from .session import (
    forget_seat,
    held_seat,
    hosting,
    of_a_game,
    recovery_to_show,
    remember,
    seated,
    seats,
    show_recovery_once,
)
from .web import (
    MAX_GAME_FILE,
    client_address,
    join_key,
    join_url,
    minutes_since,
    refused_form_goes_to,
    short_fingerprint,
    signing_key,
    store,
    time_left,
)

bp = Blueprint("pages", __name__)

bp.app_context_processor(recovery_to_show)
bp.add_app_template_global(sides_words, "sides_words")  # "Red and Green against Blue" (R23)
bp.add_app_template_global(side_words, "side_words")  # "Red and Green"
# issue 13: the templates' arithmetic lives here, not in the templates
bp.add_app_template_filter(time_left, "time_left")  # "4:59 left" (R10, R25)
bp.add_app_template_filter(minutes_since, "minutes_since")
bp.add_app_template_filter(short_fingerprint, "short_fingerprint")
bp.add_app_template_filter(capitalise, "capitalise")  # "salvo" -> "Salvo"


# -- home, playing the computer ----------------------------------------------------------------

@bp.route("/", methods=["GET", "POST"])
def home():
    form = CreateGameForm()
    if form.validate_on_submit():
        seat_count = int(form.seats.data)
        sides = read_shape(form.sides.data)
        fits = sides is not None and len([s for side in sides for s in side]) == seat_count
        created = service.create_game(store(), _options(form.rules.data, {
            "seats": seat_count, "alliances": sides if fits else False,
            "disposition_minutes": form.minutes.data,
            "move_minutes": form.move_minutes.data or None}), join_url, key=join_key())
        if sides is not None and not fits and "alliances" in \
                rulesets.named(form.rules.data).options:
            players = len([s for side in sides for s in side])
            flash(f"{sides_words(sides)} needs {number_word(players)} players; this game has "
                  f"{number_word(seat_count)}, every player for himself (R23).")
        game_id = _seat_the_creator(created, form.rules.data, form.name.data)
        return redirect(url_for("pages.host", game_id=game_id))
    return render_template("home.html", form=form, games=_my_games(),
                           computer=ComputerGameForm(), creator_seat=_creator_seat(),
                           ladders=ladder.shown())


def _creator_seat() -> str | None:
    """The seat who creates a game takes, if every game here gives him the same one."""
    declared = {part.creator_seat for part in webparts.registered()}
    return declared.pop() if len(declared) == 1 else None


def _seat_the_creator(created: dict, rules: str, name: str) -> str:
    """Who creates a game on his phone takes its rule set's creator's seat and hosts it
    (R24); this phone keeps both tokens, and shows the seat's recovery code once."""
    seat, game_id = webparts.for_rules(rules).creator_seat, created["id"]
    keys = service.claim_seat(store(), game_id, seat, created["seats"][seat]["join_code"],
                              name, key=join_key())
    service.hand_over_hosting(store(), game_id, seat)  # hosting follows the seat
    remember("seats", game_id, keys.token)
    remember("host", game_id, created["host_token"])
    show_recovery_once(game_id, seat, keys.recovery_code)
    return game_id


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
    for game_id, token in seats().items():
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
    """Play the computer: the player takes his rule set's creator's seat; the computer, in
    its computer's seat, sets up its fleet at once."""
    form = ComputerGameForm()
    if not form.validate_on_submit():
        raise ApiError(400, "; ".join(f"{form[name].label.text}: {' '.join(errors)}"
                                      for name, errors in form.errors.items()),
                       field=next(iter(form.errors)))
    computer_seat = webparts.for_rules(form.rules.data).computer_seat
    created = service.create_game(store(), _options(form.rules.data, {
        "seats": 2, "bots": {computer_seat: form.level.data}}), join_url, key=join_key())
    game_id = _seat_the_creator(created, form.rules.data, form.player.data)
    return redirect(url_for("pages.game", game_id=game_id))


# -- the host's page -----------------------------------------------------------------------------

@bp.get("/games/<game_id>/host")
@hosting
def host(game_id: str):
    here = held_seat(game_id)
    if here:  # the host at his page is at the table too
        service.mark_seen(store(), game_id, here)
    status = service.host_status(store(), game_id)
    # a link for every seat not yet claimed, including one the host has just reissued
    links = {seat: join_url(game_id, seat, code)
             for seat, code in service.join_codes(store(), game_id, key=join_key()).items()}
    present = {seat: bool(info["last_seen"])
               and status["now"] - info["last_seen"] <= service.PRESENT_S
               for seat, info in status["seats"].items()}  # its page open (polling)
    rule_set = rulesets.named(g.rules)
    return render_template("host.html", game_id=game_id, status=status, links=links,
                           form=PlainForm(), clock_form=ClockForm(), now=service.now(),
                           my_seat=here, present=present, levels=rule_set.levels,
                           title=rule_set.title)


@bp.post("/games/<game_id>/host/stand-in-level")
@refused_form_goes_to("pages.host")
@hosting
def host_stand_in_level(game_id: str):
    """The host chooses the level of the computer that stands in for an absent player
    (R25)."""
    if not PlainForm().validate_on_submit():
        abort(400)
    level = service.choose_stand_in_level(store(), game_id, request.form.get("level"))
    flash(f"The computer that stands in for an absent player plays as {level} (R25).")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.get("/games/<game_id>/qr/<seat>.svg")
@hosting
def join_qr(game_id: str, seat: str):
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
@hosting
def host_reissue(game_id: str, seat: str):
    if not PlainForm().validate_on_submit():
        abort(400)
    service.reissue_join_code(store(), game_id, seat, key=join_key())
    if seat == held_seat(game_id):
        forget_seat(game_id)
    flash(f"New join link for {seat.title()}: the old one and the phone that held the seat "
          "no longer work.")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.post("/games/<game_id>/host/handover/<seat>")
@refused_form_goes_to("pages.host")
@hosting
def host_handover(game_id: str, seat: str):
    """"Make Blue the host": the host's powers pass to Blue's seat, and leave this phone."""
    if not PlainForm().validate_on_submit():
        abort(400)
    service.hand_over_hosting(store(), game_id, seat)
    flash(f"{seat.title()} is now the host. Hosting shows nothing of any fleet (R24).")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/host/clock")
@refused_form_goes_to("pages.host")
@hosting
def host_clock(game_id: str):
    form = ClockForm()
    if not form.validate_on_submit():
        raise ApiError(422, f"Minutes to add: a whole number from 1 to {MAX_CLOCK_EXTENSION}",
                       field="minutes", rule="R10")
    service.extend_clock(store(), game_id, form.minutes.data)
    flash(f"{form.minutes.data} more minutes for dispositions (R10).")
    return redirect(url_for("pages.host", game_id=game_id))


@bp.post("/games/<game_id>/host/forfeit/<seat>")
@refused_form_goes_to("pages.host")
@hosting
def host_forfeit(game_id: str, seat: str):
    if not PlainForm().validate_on_submit():
        abort(400)
    service.forfeit_seat(store(), game_id, seat)
    flash(f"{seat.title()} is forfeited (R10).")
    return redirect(url_for("pages.host", game_id=game_id))


# -- joining and recovering a seat ---------------------------------------------------------------

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
                                  form.name.data, key=join_key())
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
    form.seat.choices = list(service.public_status(store(), game_id)["seats"])
    if request.method == "POST":
        if not form.validate_on_submit():
            raise ApiError(400, "Choose your seat and enter your recovery code",
                           field="recovery_code")
        keys = service.recover_seat(store(), game_id, form.seat.data,
                                    form.recovery_code.data, request.remote_addr or "")
        remember("seats", game_id, keys.token)
        show_recovery_once(game_id, form.seat.data, keys.recovery_code)
        flash("This phone now holds your seat; the old phone is logged out (R24). Your "
              "recovery code has changed: write down the new one.")
        return redirect(url_for("pages.game", game_id=game_id))
    return render_template("recover.html", form=form, game_id=game_id)


# -- a seat's game page, and what every game's seat may do there --------------------------------

@bp.get("/games/<game_id>")
@seated
def game(game_id: str):
    """A seat's page in every phase, drawn by its game's rule set."""
    view = service.seat_view(store(), game_id, g.seat).fresh()
    return webparts.for_rules(g.rules).seat_page(game_id, g.seat, view)


@bp.post("/games/<game_id>/end")
@seated
def agree_to_end(game_id: str):
    if not PlainForm().validate_on_submit():
        abort(400)
    service.agree_to_end(store(), game_id, g.seat)
    flash("You agreed to end the game; it ends when every player has (R14).")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/play-on")
@seated
def play_on(game_id: str):
    """"Play on": decline another player's offer to end the game (R14)."""
    if not PlainForm().validate_on_submit():
        abort(400)
    service.play_on(store(), game_id, g.seat)
    flash("You play on: the offer to end the game has lapsed (R14).")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/stand-in/<target>")
@seated
def stand_in(game_id: str, target: str):
    """"Let the computer play for Blue" once Blue's move clock has run out (R25)."""
    if not PlainForm().validate_on_submit():
        abort(400)
    service.stand_in(store(), game_id, target, g.seat)
    flash(f"The computer plays for {target.title()} until {target.title()} moves again "
          "himself (R25).")
    return redirect(url_for("pages.game", game_id=game_id))


@bp.post("/games/<game_id>/resign")
@seated
def resign(game_id: str):
    if not PlainForm().validate_on_submit():
        abort(400)
    service.resign(store(), game_id, g.seat)
    return redirect(url_for("pages.game", game_id=game_id))


@bp.get("/games/<game_id>/status")
@seated
def status(game_id: str):
    """The cheap poll of the pages: version, phase and whose turn, with an ETag."""
    shown = service.seat_view(store(), game_id, g.seat)
    view = shown.document
    status = {"version": view["version"], "phase": view["phase"], "turn": view["turn"],
              "you": g.seat,
              "ready": sorted(s for s, v in view["seats"].items() if v["ready"]),
              "joined": sorted(s for s, v in view["seats"].items() if v["name"]),
              "deadline": view.get("clock", {}).get("deadline"), "now": service.now()}
    return conditional(view_etag(game_id, g.seat, shown.version),
                       lambda: current_app.json.response(status))


@bp.get("/games/<game_id>/postmortem")
@seated
def postmortem(game_id: str):
    """After the end: the game's own post-mortem page (its rule set refuses it before)."""
    return webparts.for_rules(g.rules).postmortem_page(game_id, g.seat)


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
    mine = seats()
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
    creator = webparts.for_rules(store().rules_of(imported["id"])).creator_seat
    remember("seats", imported["id"], imported["seats"][creator]["token"])
    flash("Game imported: it replays to the same result, and every fingerprint matches. "
          + ("It is signed by this referee or one the club trusts, so it counts in the "
             "club's records." if imported["counted"] else
             "It is not signed by this referee or one the club trusts, so it is listed on "
             "the club page as unverified and counted in no record."))
    return redirect(url_for("pages.game", game_id=imported["id"]))


@bp.get("/games/<game_id>/export.json")
@seated
def export_game(game_id: str):
    response = current_app.json.response(service.export_game(store(), game_id,
                                                             signing_key()))
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.json"'
    return response

