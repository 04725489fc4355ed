"""A web layer with one home for each thing: one service function makes a move for the API and the
pages alike (the pages now check the request behind a repeated key too), the error handler names no
endpoint, and no blueprint imports another inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from pages_support import FLEETS, Page, open_table, set_up, turn_of, view_of

ROOT = Path(__file__).resolve().parent.parent / "referee"
# the service, a module a job: each is held to the web layer's rules
SERVICE = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "service").glob("*.py"))
# the shared pages, a module a job
PAGES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "pages").glob("*.py"))


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


@pytest.fixture
def playing(app):
    table = open_table(app)
    set_up(table, FLEETS)
    return table


def test_a_page_move_key_reused_for_another_move_is_refused(playing):
    first = turn_of(playing)
    phone = playing.phones[first]
    page = phone.get(f"/games/{playing.id}")
    _, fields = Page(page.text).form(f"/games/{playing.id}/move")
    one = phone.post(f"/games/{playing.id}/move",
                     data={**fields, "weapon": "salvo", "at": "A 1, B 1, C 1"})
    assert one.status_code == 200 and phone.flashes(one) == []
    two = phone.post(f"/games/{playing.id}/move",  # the same key, another move
                     data={**fields, "weapon": "salvo", "at": "D 1, E 1, F 1"})
    assert two.status_code == 200 and two.request.path == f"/games/{playing.id}"
    [problem] = phone.flashes(two)
    assert "already used for a different move" in problem, problem
    assert len(view_of(phone, playing.id)["reports"]) == 1
    assert turn_of(playing) == other(first)


def test_the_error_handler_names_no_endpoint():
    tree = ast.parse((ROOT / "errors.py").read_text())
    named = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and node.value.startswith("pages.")]
    assert named == []


@pytest.mark.parametrize("name", ["api.py", *PAGES, "printouts.py", "errors.py", "web.py",
                                  *SERVICE, "session.py", "playroutes.py", "webparts.py",
                                  "naval_war/web/pages.py", "naval_war/web/parts.py"])
def test_no_import_inside_a_function(name):
    tree = ast.parse((ROOT / name).read_text())
    inner = [(node.name, sub.lineno) for node in ast.walk(tree)
             if isinstance(node, ast.FunctionDef) for sub in ast.walk(node)
             if isinstance(sub, ast.Import | ast.ImportFrom)]
    assert inner == []


@pytest.mark.parametrize("name", ["api.py", *PAGES, "printouts.py", *SERVICE,
                                  "forms.py", "session.py", "playroutes.py",
                                  "naval_war/web/pages.py", "naval_war/web/forms.py"])
def test_no_module_level_alias_of_another_name(name):
    tree = ast.parse((ROOT / name).read_text())
    aliases = [target.id for node in tree.body if isinstance(node, ast.Assign)
               and isinstance(node.value, ast.Name) for target in node.targets
               if isinstance(target, ast.Name)]
    assert aliases == []


@pytest.mark.parametrize("name", [name for name in SERVICE if name != "service/clock.py"])
def test_every_service_module_reads_the_time_through_the_one_clock(name):
    """The service's modules ask ``clock.now()`` at each use and never read the time
    themselves nor bind ``now`` at import: so moving ``service.clock.now`` (a test's clock)
    moves the time of every move clock, recovery wait and stand-in at once."""
    names = set()
    for node in ast.walk(ast.parse((ROOT / name).read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names |= {node.module or ""} | {alias.name for alias in node.names}
    assert not names & {"time", "datetime", "now"}, sorted(names & {"time", "datetime", "now"})
