"""A rule set's pages and paper, as the shared web layer reaches them (the web half of the seam).

Each rule set gives one ``WebParts``: its own blueprint (the forms and scripts of its setup and
play, its templates and static files inside its package), the page a seat sees at
``/games/<id>`` for each phase, its post-mortem page, its club table, its printables and the
entry script of its pages (the seats its games give the player who creates one and the
computer he plays are its ``RuleSet``'s, declared there once). The shared blueprints (home,
joining, recovery, the host's page, the end, the club, files, the PDFs' routes) serve every
game and hand a game's own pages to its rule set's ``WebParts``, found with ``for_rules`` from
the name the store keeps. Each ``RuleSet`` names its ``WebParts`` as "module:NAME"
(``RuleSet.web``), and ``create_app`` registers those of every registered rule set
(``every_rule_sets``); everything they show a player comes from his view (R21, T10).

Every page names its game: ``base.html`` takes its title's end, the catalogue it embeds for
the scripts and the one script it loads from ``frame_the_page``: a page drawn from a rule
set's own template (``<its blueprint's name>/...``) is its rule set's and loads its entry;
every other page (the shared templates) loads the shared one
(``referee/static/js/shared.js``) and names the game of the request (``g.rules``, kept by the
routes' authorisation in ``session``), or the referee on a page about no game.

A route of one rule set (every route of its blueprint) is refused for a game of another rule
set with a 404 before it runs, for everyone, in one place (``refuse_another_rule_sets_game``).
Each rule set's ``Paper`` takes what ``PAPER_CONTRACT`` says the shared routes pass, checked
as it is made.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from flask import Blueprint, Flask, current_app, g, request
from flask.signals import before_render_template
from jinja2 import Template

from . import rulesets
from .assets import asset_url
from .common.documents import Json
from .common.phrasing import is_computer
from .common.ruleset import RuleSet
from .errors import ApiError
from .web import store

Page = Any  # what a Flask view returns: a rendered template or a response


# What the shared routes (referee/printouts.py, the command line) pass each printable of every
# rule set: its arguments and its keywords, as placeholders. ``paper`` is "a4" or "letter";
# player_charts' ``opponents`` is the core's ``targets_for`` (a game of two seats may ignore it).
PAPER_CONTRACT: dict[str, tuple[tuple[Any, ...], Json]] = {
    "blank_chart": ((), {"paper": "a4", "layout": "pair"}),  # blank charts to play by pencil
    "blank_record": ((), {"paper": "a4", "pages": 2}),  # a blank move record
    "player_charts": (({},), {"paper": "a4", "opponents": []}),  # (view): as his view shows
    "player_record": (({},), {"paper": "a4"}),  # (record): a seat's move record
    # (postmortem_view, record): after the end, with the core's postmortem_document
    "postmortem": (({}, {}), {"paper": "a4", "analysis": {}}),
}


@dataclass(frozen=True)
class Paper:
    """A rule set's printables, each a PDF's bytes, each taking what ``PAPER_CONTRACT`` says:
    a rule set whose printable would refuse the shared routes' call is refused as it is
    made, not when a player asks for his PDF."""

    blank_chart: Callable[..., bytes]
    blank_record: Callable[..., bytes]
    player_charts: Callable[..., bytes]
    player_record: Callable[..., bytes]
    postmortem: Callable[..., bytes]

    def __post_init__(self) -> None:
        for printable in fields(self):
            args, keywords = PAPER_CONTRACT[printable.name]
            made = getattr(self, printable.name)
            try:
                inspect.signature(made).bind(*args, **keywords)
            except TypeError as refused:
                raise TypeError(f"Paper.{printable.name} ({made.__module__}.{made.__qualname__}) "
                                f"must take {len(args)} argument(s) and the keywords "
                                f"{', '.join(keywords)}: {refused}") from None


@dataclass(frozen=True)
class Words:
    """What a game's pages say in its own words where every game's pages say the same thing:
    the shared templates and macros (``templates/_macros.html``, ``game.html``, the join
    page) read them as ``words`` and never name a game or a ruling of their own."""

    # the order of play once it is known, said before the seats in their order
    order: str = "Order of play"
    # the order of play before it is known
    order_unknown: str = "Order of play: decided when every player has locked in."
    agree: str = "Agree to end now"  # the button that offers, or accepts, an end by agreement
    # the ruling that lets the players end the game by agreement, cited with an offer to end
    end_rule: str = ""
    # after "Red asks to end the game now (its ruling).": how an end by agreement comes out
    agreed_end: str = "It ends when every player agrees."
    resign: str = "Resign? You lose the game."  # what a player confirms before resigning
    resign_button: str = "Resign"  # the button's word


@dataclass(frozen=True)
class WebParts:
    rules: str
    # the rule set's own routes, templates (in a folder named as the blueprint: ``tcg/...``)
    # and static files (its scripts, served from its package), registered by create_app
    blueprint: Blueprint
    # (game_id, seat, view) -> the seat's page at /games/<id> in any phase
    seat_page: Callable[[str, str, Json], Page]
    # (game_id, seat) -> the post-mortem page (the rule set refuses it before the end)
    postmortem_page: Callable[[str, str], Page]
    # (the club summaries, ``RuleSet.club_entry``, of this rule set's finished games that
    # count in the records, oldest first, each with its "id") -> its section of the club page:
    # {"template", "title", "games" (counted), "forfeited", **what its template reads}. The
    # page lists the games themselves from the summaries' "players", "headline", "forfeited".
    club_section: Callable[[list[Json]], Json]
    paper: Paper
    entry: str  # the one script its pages load, a module in its blueprint's static folder
    # a template of the rule set's own part of the home page (what the game is, its blank
    # paper), included after the shared parts; None: the home page says nothing of its own
    home: str | None = None
    # what the game is, in a line of plain text, for the home page's list of the games here
    about: str = ""
    # its own stylesheet, in its blueprint's static folder, which its pages load in their
    # head (``game.html``); None: the shared one alone
    style: str | None = None
    words: Words = Words()  # what its pages say in its own words (order of play, ending)


PLAYERS_SHOWN = 20  # rows of a players' table on the club page: the page stays small


def leading_players(rows: list[Json]) -> Json:
    """A club section's players' tables: the people's first PLAYERS_SHOWN rows (the section
    orders them, most wins first, one row a person: ``person_key``) and how many more people
    there are ("more_players"); the computer's levels in a table of their own
    ("computers"), so that no computer stands among the people."""
    people = [row for row in rows if not is_computer(row["name"])]
    return {"players": people[:PLAYERS_SHOWN],
            "more_players": max(0, len(people) - PLAYERS_SHOWN),
            "computers": [row for row in rows if is_computer(row["name"])]}


def for_rules(rules: str) -> WebParts:
    """The web parts of a rule set, as the running app registered them; 404 for a rule set
    this app has no pages for."""
    parts: dict[str, WebParts] = current_app.extensions["referee.web_parts"]
    if rules not in parts:
        raise ApiError(404, f"This referee has no pages or printables for {str(rules)[:40]!r}",
                       field="rules")
    return parts[rules]


def registered() -> list[WebParts]:
    """Every rule set's web parts, in the order the app registered them."""
    return list(current_app.extensions["referee.web_parts"].values())


REFEREE = "The referee"  # what a page about no game is titled after
SHARED_ENTRY = "js/shared.js"  # the script of the pages every game shares
POLL_MS = 2000  # how often a page asks whether its game moved on, unless the config says


def frame_the_page(app: Flask, template: Template, context: Json, **_: object) -> None:
    """What ``base.html`` takes from the page's game, set as its template is rendered: the
    end of its title, the catalogue it embeds for its scripts (unless the page gives its
    own), the one script it loads, the game's stylesheet and words, and how often the page
    asks whether its game moved on (``POLL_MS``, or the app's config ``POLL_MS``: the
    browser tests ask often). A rule set's own template draws that rule set's page: its
    title, its catalogue, its entry. Any other is a shared page: the game of the request
    (``g.rules``), or the referee and the default rule set's catalogue (``GET
    /api/v1/rules``'s first) on a page about none, and the shared entry."""
    part = app.extensions["referee.template_parts"].get((template.name or "").partition("/")[0])
    rules = part.rules if part else g.get("rules")
    known = rules in rulesets.RULE_SETS
    context["page_title"] = rulesets.named(rules).title if known else REFEREE
    context["page_entry"] = (asset_url(f"{part.blueprint.name}.static", part.entry)
                             if part else asset_url("static", SHARED_ENTRY))
    game = part or app.extensions["referee.web_parts"].get(rules)
    context["game_style"] = (asset_url(f"{game.blueprint.name}.static", game.style)
                             if game and game.style else None)
    context["words"] = game.words if game else Words()
    context["poll_ms"] = poll_ms(app.config)
    if "rules_catalogue" not in context:
        context["rules_catalogue"] = embedded_catalogue(rules if known else rulesets.DEFAULT)


def poll_ms(config: Mapping[str, Any]) -> int:
    """How often the pages ask whether their game moved on, in ms: the config's ``POLL_MS``
    (``REFEREE_POLL_MS``), a whole number from 50 to 60000, else ``POLL_MS``; anything else
    is refused when the app is made (``register``)."""
    wanted = config.get("POLL_MS", POLL_MS)
    if isinstance(wanted, bool) or not isinstance(wanted, int) or not 50 <= wanted <= 60000:
        raise ValueError(f"REFEREE_POLL_MS is how often a page asks whether its game moved on: "
                         f"a whole number of milliseconds from 50 to 60000, not {wanted!r}")
    return wanted


@functools.cache
def embedded_catalogue(rules: str) -> Json:
    """A rule set's catalogue as its pages embed it, made once (it never changes)."""
    return rulesets.page_catalogue(rules)


def rules_of_route(endpoint: str | None) -> str | None:
    """The rule set a route belongs to: the rule set whose blueprint holds it; None for a
    route every game shares."""
    blueprint = (endpoint or "").rpartition(".")[0]
    route_rules: dict[str, str] = current_app.extensions["referee.route_rules"]
    return route_rules.get(blueprint)


def refuse_another_rule_sets_game() -> None:
    """Before any route of one rule set runs for a game: a game of another rule set is not
    here (404), whoever asks and whatever he sends, so nothing of it is read or written. A
    game this store does not hold is left to the route's own 404."""
    game_id = (request.view_args or {}).get("game_id")
    if not isinstance(game_id, str):
        return
    route = rules_of_route(request.endpoint)
    if route is None:
        return
    played = store().rules_of(game_id)
    if played is not None and played != route:
        raise ApiError(404, f"{request.path[:120]} is a page of {_title(route)}; game "
                            f"{game_id} plays {_title(played)}, whose own pages start at "
                            f"/games/{game_id}", field="game_id")


def _title(rules: str) -> str:
    return rulesets.named(rules).title if rules in rulesets.RULE_SETS else repr(rules)


def of_rule_set(rule_set: RuleSet) -> WebParts:
    """A rule set's web parts, imported from where its ``RuleSet.web`` names them."""
    parts = rulesets.load(rule_set.web)
    if not isinstance(parts, WebParts) or parts.rules != rule_set.rules:
        raise TypeError(f"{rule_set.web!r} is not the WebParts of {rule_set.rules!r}")
    return parts


def every_rule_sets() -> list[WebParts]:
    """The web parts of every registered rule set that has pages (``rulesets.REGISTRY``), in
    its order: what ``create_app`` registers."""
    return [of_rule_set(rule_set) for rule_set in rulesets.RULE_SETS.values() if rule_set.web]


def register(app: Flask, parts: list[WebParts]) -> None:
    poll_ms(app.config)  # a bad REFEREE_POLL_MS stops the referee before it serves a page
    app.extensions["referee.web_parts"] = {part.rules: part for part in parts}
    app.extensions["referee.route_rules"] = {part.blueprint.name: part.rules for part in parts}
    app.extensions["referee.template_parts"] = {part.blueprint.name: part for part in parts}
    app.before_request(refuse_another_rule_sets_game)
    before_render_template.connect(frame_the_page, app)
    app.jinja_env.globals["home_parts"] = [part.home for part in parts if part.home]
    app.jinja_env.globals["games_offered"] = [(rulesets.named(part.rules).title, part.about)
                                              for part in parts if part.rules in rulesets.RULE_SETS]
    for part in parts:
        app.register_blueprint(part.blueprint)
