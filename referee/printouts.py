"""The printables on the web and the command line: thin wrappers round ``printables``.

Blank charts and record sheets are for anyone; a player's charts, record and post-mortem are
for that player (bearer token or his phone's session cookie), built from his view (R21).
"""

from __future__ import annotations

import re

import click
from flask import Blueprint, Response, request, session

import printables
from printables.documents import BLANK_RECORD_PAGES, MAX_BLANK_RECORD_PAGES

from . import service
from .errors import ApiError
from .naval_war import RuleViolation, record_for, view_for
from .naval_war.postmortem import postmortem_document
from .naval_war.views import postmortem_view, targets_for
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


@bp.get("/printables/blank-chart.pdf")
def blank_chart():
    paper, layout = _choice("paper", PAPERS, "a4"), _choice("layout", LAYOUTS, "pair")
    return pdf(printables.blank_chart(paper=paper, layout=layout),
               f"blank-chart-{layout}-{paper}.pdf")


def _pages() -> int:
    """``?pages=``: how many pages of blank move record, 1 to 20 in plain digits (issue 12)."""
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
    paper, pages = _choice("paper", PAPERS, "a4"), _pages()
    return pdf(printables.blank_record(paper=paper, pages=pages),
               f"blank-record-{paper}-pages-{pages}.pdf")


def _seat(game_id: str) -> str:
    """The player asking: his bearer token, or else his phone's session cookie."""
    token = bearer() or session.get("seats", {}).get(game_id)
    return service.authorise(store(), game_id, token)


def _printed(game_id: str, key: tuple, render) -> bytes:
    """A player's PDF of the game's current version, printed once and kept (a finished
    game's never change); printed under the game's lock, never SQLite's write lock."""
    return service.derived(store(), game_id, key, render, len)


@bp.get("/api/v1/games/<game_id>/charts.pdf")
def charts(game_id: str):
    seat = _seat(game_id)
    paper = _choice("paper", PAPERS, "a4")
    body = _printed(game_id, ("charts.pdf", seat, paper),
                    lambda game: printables.player_charts(
                        view_for(game, seat), paper=paper, opponents=targets_for(game, seat)))
    return pdf(body, f"charts-{game_id}-{seat}.pdf")


@bp.get("/api/v1/games/<game_id>/record.pdf")
def record(game_id: str):
    seat = _seat(game_id)
    paper = _choice("paper", PAPERS, "a4")
    body = _printed(game_id, ("record.pdf", seat, paper),
                    lambda game: printables.player_record(record_for(game, seat), paper=paper))
    return pdf(body, f"record-{game_id}-{seat}.pdf")


@bp.get("/api/v1/games/<game_id>/postmortem.pdf")
def postmortem(game_id: str):
    seat = _seat(game_id)
    paper = _choice("paper", PAPERS, "a4")

    def render(game) -> bytes:
        try:
            shown = postmortem_view(game, seat)
        except RuleViolation:
            raise ApiError(409, "The post-mortem is printed once the game is over",
                           rule="R21") from None
        return printables.postmortem(shown["view"], record_for(game, seat),
                                     paper=paper, analysis=postmortem_document(game))

    return pdf(_printed(game_id, ("postmortem.pdf", seat, paper), render),
               f"postmortem-{game_id}.pdf")


@click.command("blank-chart")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True)
@click.option("--layout", type=click.Choice(LAYOUTS), default="pair", show_default=True)
@click.option("-o", "--output", type=click.File("wb"), required=True, help="The PDF to write.")
def blank_chart_command(paper: str, layout: str, output) -> None:
    """Print blank charts: the pair a player keeps, or one large chart."""
    output.write(printables.blank_chart(paper=paper, layout=layout))


@click.command("blank-record")
@click.option("--paper", type=click.Choice(PAPERS), default="a4", show_default=True)
@click.option("--pages", type=click.IntRange(1, MAX_BLANK_RECORD_PAGES),
              default=BLANK_RECORD_PAGES, show_default=True,
              help="How many pages (about 30 moves a page).")
@click.option("-o", "--output", type=click.File("wb", lazy=True), required=True,
              help="The PDF to write.")
def blank_record_command(paper: str, pages: int, output) -> None:
    """Print a blank move record, as many pages as asked."""
    output.write(printables.blank_record(paper=paper, pages=pages))


def register(app) -> None:
    app.register_blueprint(bp)
    app.cli.add_command(blank_chart_command)
    app.cli.add_command(blank_record_command)
