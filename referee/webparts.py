"""A rule set's pages and paper, as the shared web layer reaches them (the web half of the seam).

Each rule set gives one ``WebParts``: its own blueprint (the forms and scripts of its setup and
play), the page a seat sees at ``/games/<id>`` for each phase, its post-mortem page, its club
table and its printables. The shared blueprints (home, joining, recovery, the host's page, the
end, the club, files, the PDFs' routes) serve every game and hand a game's own pages to its
rule set's ``WebParts``, found with ``for_rules`` from the name the store keeps. They are
registered by ``create_app`` from ``REGISTERED``; everything they show a player comes from his
view (R21, T10).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app

from . import rulesets
from .errors import ApiError

Page = Any  # what a Flask view returns: a rendered template or a response


@dataclass(frozen=True)
class Paper:
    """A rule set's printables, each a PDF's bytes; ``paper`` is "a4" or "letter"."""

    blank_chart: Callable[..., bytes]  # (paper=, layout=) blank charts to play on by pencil
    blank_record: Callable[..., bytes]  # (paper=, pages=) a blank move record
    # (view, paper=, opponents=) a seat's charts as its view shows them; opponents: targets_for
    player_charts: Callable[..., bytes]
    player_record: Callable[..., bytes]  # (record, paper=) a seat's move record
    postmortem: Callable[..., bytes]  # (postmortem_view, record, paper=, analysis=) after the end


@dataclass(frozen=True)
class WebParts:
    rules: str
    blueprint: Blueprint | None  # the rule set's own routes, registered by create_app
    # (game_id, seat, view) -> the seat's page at /games/<id> in any phase
    seat_page: Callable[[str, str, dict], Page]
    # (game_id, seat) -> the post-mortem page (the rule set refuses it before the end)
    postmortem_page: Callable[[str, str], Page]
    # (the club summaries, ``RuleSet.club_entry``, of this rule set's finished games that
    # count in the records, oldest first, each with its "id") -> its section of the club page:
    # {"template", "title", "games" (counted), "forfeited", **what its template reads}. The
    # page lists the games themselves from the summaries' "players", "headline", "forfeited".
    club_section: Callable[[list[dict]], dict]
    paper: Paper
    # a template of the rule set's own part of the home page (what the game is, its blank
    # paper), included after the shared parts; None: the home page says nothing of its own
    home: str | None = None
    # what the game is, in a line of plain text, for the home page's list of the games here
    about: str = ""


PLAYERS_SHOWN = 20  # rows of a players' table on the club page: the page stays small


def leading_players(rows: list[dict]) -> dict:
    """A club section's players' table: its first PLAYERS_SHOWN rows (the section orders
    them, most wins first) and how many more players there are ("more_players")."""
    return {"players": rows[:PLAYERS_SHOWN], "more_players": max(0, len(rows) - PLAYERS_SHOWN)}


def for_rules(rules: str) -> WebParts:
    """The web parts of a rule set, as the running app registered them; 404 for a rule set
    this app has no pages for."""
    parts = current_app.extensions["referee.web_parts"]
    if rules not in parts:
        raise ApiError(404, f"This referee has no pages or printables for {str(rules)[:40]!r}",
                       field="rules")
    return parts[rules]


def registered() -> list[WebParts]:
    """Every rule set's web parts, in the order the app registered them."""
    return list(current_app.extensions["referee.web_parts"].values())


def register(app, parts: list[WebParts]) -> None:
    app.extensions["referee.web_parts"] = {part.rules: part for part in parts}
    app.jinja_env.globals["home_parts"] = [part.home for part in parts if part.home]
    app.jinja_env.globals["games_offered"] = [(rulesets.named(part.rules).title, part.about)
                                              for part in parts if part.rules in rulesets.RULE_SETS]
    for part in parts:
        if part.blueprint is not None:
            app.register_blueprint(part.blueprint)
