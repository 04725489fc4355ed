"""A web layer with one home for each thing, continued: the pages and the API make each of a seat's
and the host's actions through one service function (no blueprint runs its own command on the game),
and the seats a player may attack come from the core's ``targets_for`` view, never worked out again
by a page or a printout."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pages_support import PURCHASE, Page, open_table, set_up, strip_fleet, turn_of

from referee import service
from referee.naval_war.views import targets_for
from referee.states import replayed
from referee.store import Store


def store_of(app) -> Store:
    return app.extensions["referee.store"]()

ROOT = Path(__file__).resolve().parent.parent / "referee"
ACTIONS = ("agree_to_end", "play_on", "resign", "extend_clock", "forfeit_seat", "make_move",
           "stand_in")
# each blueprint's modules: the API's, and the pages' (the shared pages package, the routes
# every game's pages have alike, the Naval War Game's own); every game's pages are web modules
PAGE_MODULES = tuple(sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py")))
BLUEPRINTS = {"api": ("api.py",),
              "pages": (*PAGE_MODULES, "playroutes.py", "naval_war/web/pages.py")}
WEB_MODULES = sorted({name for names in BLUEPRINTS.values() for name in names}
                     | {"printouts.py", "session.py"}
                     | {p.relative_to(ROOT).as_posix() for p in ROOT.glob("*/web/pages.py")})
GAME_COMMANDS = {"agree_to_end", "play_on", "resign", "extend_clock", "forfeit", "move",
                 "stand_in"}


def calls_of(*names: str) -> set[str]:
    """The ``service.X`` functions these modules call."""
    return {called for name in names for called in _calls_of(name)}


def _calls_of(name: str) -> set[str]:
    tree = ast.parse((ROOT / name).read_text())
    return {node.func.attr for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "service"}


@pytest.mark.parametrize("action", ACTIONS)
def test_both_blueprints_call_one_service_function(action):
    assert callable(getattr(service, action))
    assert {bp: action in calls_of(*names) for bp, names in BLUEPRINTS.items()} == \
        dict.fromkeys(BLUEPRINTS, True)


@pytest.mark.parametrize("name", WEB_MODULES)
def test_no_blueprint_runs_a_command_of_its_own(name):
    # service.act with a lambda that calls the game: the command belongs in the service
    tree = ast.parse((ROOT / name).read_text())
    own = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
           and isinstance(node.func, ast.Attribute) and node.func.attr == "act"
           and any(isinstance(arg, ast.Lambda)
                   and getattr(getattr(arg.body, "func", None), "attr", None) in GAME_COMMANDS
                   for arg in node.args)]
    assert own == []


@pytest.mark.parametrize("name", WEB_MODULES)
def test_no_web_module_works_out_the_targets(name):
    # the seats one may attack (R23) filtered from a view: allies and forfeited seats left out
    text = (ROOT / name).read_text()
    tree = ast.parse(text)
    worked_out = [node.lineno for node in ast.walk(tree)
                  if isinstance(node, ast.ListComp | ast.GeneratorExp)
                  and "allies" in ast.unparse(node) and "forfeited" in ast.unparse(node)]
    assert worked_out == []


def test_pages_and_printouts_take_targets_from_the_core():
    for name in ("naval_war/web/pages.py", "printouts.py"):  # the play page, the charts
        assert "targets_for(" in (ROOT / name).read_text(), name


def test_the_play_page_offers_the_core_s_targets(app):
    # three seats, red and green against blue (R23): red and green attack blue, blue either
    table = open_table(app, seats=3, alliances="red+green/blue")
    fleet = strip_fleet(0, 10, PURCHASE)  # each seat's chart is its own: the same squares do
    set_up(table, {seat: fleet for seat in ("red", "blue", "green")})
    seat = turn_of(table)
    page = Page(table.phones[seat].get(f"/games/{table.id}").text)
    offered = [o.attrs["value"] for o in page.find("option")
               if o.attrs.get("value") in ("red", "blue", "green")] \
        or [e.attrs["value"] for e in page.find("input", id="target")]
    with app.app_context():
        game = replayed(store_of(app), table.id)
    assert offered == targets_for(game, seat) == \
        {"red": ["blue"], "green": ["blue"], "blue": ["red", "green"]}[seat]
