"""The printables on the web and the command line: thin wrappers round each rule set's paper.

Blank charts and record sheets are for anyone; a player's charts, record and post-mortem are
for that player (bearer token or his phone's session cookie), built from his view (R21); once
a game is over its post-mortem booklet is for anyone, since nothing is hidden then.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from collections.abc import Callable

import click
from flask import Blueprint, Response, request, session
from flask.cli import with_appcontext

from . import rulesets, service, webparts
from .common.limits import BLANK_RECORD_PAGES, MAX_BLANK_RECORD_PAGES
from .common.problems import RuleViolation
from .costly import run as run_costly
from .errors import ApiError
from .web import bearer, store

bp = Blueprint("printouts", __name__)
PAPERS, LAYOUTS = ("a4", "letter"), ("pair", "single")


def _choice(name: str, allowed: tuple[str, ...], default: str) -> str:
    value = request.args.get(name, default)
    if value not in allowed:
        raise ApiError(400, f"{name!r} is one of {', '.join(allowed)}, not {value!r}",
                       field=name)
    return value


def pdf(body: bytes, filename: str) -> Response:
    return Response(body, mimetype="application/pdf", headers={
        "Content-Disposition": f'inline; filename="{filename}"',
        "Cache-Control": "private, no-store"})


BLANKS_KEPT = 160  # blank sheets kept per process: all 132 (rule sets x papers x layouts or pages)
_blanks: OrderedDict[tuple, bytes] = OrderedDict()
_blanks_guard = threading.Lock()


def blank(key: tuple, render: Callable[..., bytes], **options) -> bytes:
    """A blank sheet, ``render(**options)``, which depends only on its parameters (``key``):
    printed once (in the costly pool) and kept, so asking for it again costs nothing."""
    with _blanks_guard:
        if key in _blanks:
            _blanks.move_to_end(key)
            return _blanks[key]
    body = run_costly("printing", render, **options)
    with _blanks_guard:
        _blanks[key] = body
        while len(_blanks) > BLANKS_KEPT:
            _blanks.popitem(last=False)
    return body


@bp.get("/printables/blank-chart.pdf")
def blank_chart():
    paper, layout = _choice("paper", PAPERS, "a4"), _choice("layout", LAYOUTS, "pair")
    rules = _rules()
    body = blank(("chart", rules, paper, layout), webparts.for_rules(rules).paper.blank_chart,
                 paper=paper, layout=layout)
    return pdf(body, f"blank-chart-{_prefix(rules)}{layout}-{paper}.pdf")


def _rules() -> str:
    """``?rules=``: the rule set whose blank sheets to print (the default rule set's unless
    named)."""
    return _choice("rules", tuple(rulesets.RULE_SETS), rulesets.DEFAULT)


def _prefix(rules: str) -> str:
    return "" if rules == rulesets.DEFAULT else f"{rules}-"


def _pages() -> int:
    """``?pages=``: how many pages of blank move record, 1 to 20 in plain digits."""
    values = request.args.getlist("pages")
    value = values[0] if len(values) == 1 else None if values else str(BLANK_RECORD_PAGES)
    if value is None or not re.fullmatch(r"[0-9]{1,2}", value) or not (
            1 <= int(value) <= MAX_BLANK_RECORD_PAGES):
        shown = values if len(values) > 1 else value
        raise ApiError(400, f"'pages' is a whole number from 1 to {MAX_BLANK_RECORD_PAGES}, "
                            f"not {shown!r}", field="pages")
    return int(value)


@bp.get("/printables/blank-record.pdf")
def blank_record():
    paper, pages, rules = _choice("paper", PAPERS, "a4"), _pages(), _rules()
    body = blank(("record", rules, paper, pages), webparts.for_rules(rules).paper.blank_record,
                 paper=paper, pages=pages)
    return pdf(body, f"blank-record-{_prefix(rules)}{paper}-pages-{pages}.pdf")


def _seat(game_id: str) -> str:
    """The player asking: his bearer token, or else his phone's session cookie."""
    token = bearer() or session.get("seats", {}).get(game_id)
    return service.authorise(store(), game_id, token)


def _reader(game_id: str) -> str:
    """Whose booklet: the player asking (``_seat``); once the game is over, anyone's, since
    nothing is hidden then (R21, T10, B12): the creator's seat's, everything revealed. Before
    the end, the player's own or ``_seat``'s refusal."""
    try:
        return _seat(game_id)
    except ApiError as refused:
        if refused.status in (401, 403) and \
                service.public_status(store(), game_id)["phase"] == "over":
            return rulesets.named(store().rules_of(game_id)).creator_seat
        raise


def _printed(game_id: str, key: tuple, render, *, whole_game: bool) -> bytes:
    """A player's PDF of the game's current version, printed once and kept (a finished
    game's never change); made under the game's lock, never SQLite's write lock. The drawing
    is costly work, in the costly pool (``costly.run``): a PDF of what a seat may see is
    drawn from its view or record, made here, so that nothing hidden from it goes to the
    pool's process (its size would show in the time taken, R21); the post-mortem, after the
    end when everything is revealed, is made there whole (``whole_game``)."""
    return service.derived(store(), game_id, key, render, len,
                           costly="printing" if whole_game else None)


def charts_pdf(game, *, paper_kit: webparts.Paper, seat: str, paper: str) -> bytes:
    """A seat's charts as its view shows them, one page per opponent it may attack."""
    rule_set = rulesets.of(game)
    return run_costly("printing", paper_kit.player_charts, rule_set.view_for(game, seat),
                      paper=paper, opponents=rule_set.targets_for(game, seat))


def record_pdf(game, *, paper_kit: webparts.Paper, seat: str, paper: str) -> bytes:
    """A seat's move record as it may see it."""
    return run_costly("printing", paper_kit.player_record,
                      rulesets.of(game).record_for(game, seat), paper=paper)


def postmortem_pdf(game, *, paper_kit: webparts.Paper, seat: str, paper: str) -> bytes:
    """The post-mortem booklet from the seat's post-mortem view; refused before the end."""
    rule_set = rulesets.of(game)
    try:
        shown = rule_set.postmortem_view(game, seat)
        analysis = rule_set.postmortem_document(game)
    except RuleViolation:
        raise ApiError(409, "The post-mortem is printed once the game is over",
                       rule=rule_set.secrecy_rule) from None
    return paper_kit.postmortem(shown, rule_set.record_for(game, seat), paper=paper,
                                analysis=analysis)


PRINTED = {"charts": charts_pdf, "record": record_pdf, "postmortem": postmortem_pdf}


def _player_pdf(game_id: str, kind: str) -> Response:
    seat = _reader(game_id) if kind == "postmortem" else _seat(game_id)
    paper = _choice("paper", PAPERS, "a4")
    paper_kit = webparts.for_rules(store().rules_of(game_id) or "").paper
    render = functools.partial(PRINTED[kind], paper_kit=paper_kit, seat=seat, paper=paper)
    body = _printed(game_id, (f"{kind}.pdf", seat, paper), render,
                    whole_game=kind == "postmortem")
    return pdf(body, f"postmortem-{game_id}.pdf" if kind == "postmortem"
               else f"{kind}-{game_id}-{seat}.pdf")


@bp.get("/api/v1/games/<game_id>/charts.pdf")
def charts(game_id: str):
    return _player_pdf(game_id, "charts")


@bp.get("/api/v1/games/<game_id>/record.pdf")
def record(game_id: str):
    return _player_pdf(game_id, "record")


@bp.get("/api/v1/games/<game_id>/postmortem.pdf")
def postmortem(game_id: str):
    return _player_pdf(game_id, "postmortem")


@click.command("blank-chart")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True)
@click.option("--layout", type=click.Choice(LAYOUTS), default="pair", show_default=True)
@click.option("--rules", type=click.Choice(list(rulesets.RULE_SETS)), default=rulesets.DEFAULT,
              show_default=True, help="The game whose charts to print.")
@click.option("-o", "--output", type=click.File("wb"), required=True, help="The PDF to write.")
@with_appcontext
def blank_chart_command(paper: str, layout: str, rules: str, output) -> None:
    """Print blank charts: the pair a player keeps, or one large chart."""
    output.write(webparts.for_rules(rules).paper.blank_chart(paper=paper, layout=layout))


@click.command("blank-record")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True)
@click.option("--pages", type=click.IntRange(1, MAX_BLANK_RECORD_PAGES),
              default=BLANK_RECORD_PAGES, show_default=True,
              help="How many pages (about 30 moves a page).")
@click.option("--rules", type=click.Choice(list(rulesets.RULE_SETS)), default=rulesets.DEFAULT,
              show_default=True, help="The game whose record to print.")
@click.option("-o", "--output", type=click.File("wb", lazy=True), required=True,
              help="The PDF to write.")
@with_appcontext
def blank_record_command(paper: str, pages: int, rules: str, output) -> None:
    """Print a blank move record, as many pages as asked."""
    output.write(webparts.for_rules(rules).paper.blank_record(paper=paper, pages=pages))


def register(app) -> None:
    app.register_blueprint(bp)
    app.cli.add_command(blank_chart_command)
    app.cli.add_command(blank_record_command)
