"""The layers, declared once and derived from the registry, so that a new rule set is covered by
registering it (Hidden Number, the tests' own, is registered here and held to them too):

- a rule set's core (its package but its ``web`` part: the rules, the views, ``rule_set.py``,
  its computer) imports nothing but itself, what the cores share (``referee.common``) and the
  standard library: no Flask, Werkzeug, SQLite, sqlite-utils, reportlab or waitress, nothing of
  the web layer (the service, the store, the pages, the paper kit) and no other rule set;
- its computer imports nothing, directly or through another module, of the module that holds
  its ``Game``: it plays from a view alone;
- the shared code (``referee``'s modules outside the rule sets' packages, and the paper kit
  ``printables``) imports no rule set's package: the registry (``rulesets``) finds them by
  name.

The import graph is grimp's (the engine of import-linter), built from the source, relative
imports included; a fresh interpreter that imports every core checks the same at run time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from contract_support import minimal_game_registered

from referee import rulesets

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"flask", "werkzeug", "sqlite3", "sqlite_utils", "reportlab", "waitress"}
SHARED_CORE = "referee.common"


@pytest.fixture(scope="module")
def registered() -> list:
    with minimal_game_registered():
        yield list(rulesets.RULE_SETS.values())


@pytest.fixture(scope="module")
def graph(registered) -> grimp.ImportGraph:
    tops = sorted({"referee", "printables"} | {package_of(rs).split(".")[0] for rs in registered})
    return grimp.build_graph(*tops, include_external_packages=True, cache_dir=None)


def package_of(rule_set) -> str:
    """A rule set's package: the one its ``Game``'s module is in."""
    return rule_set.game_type.__module__.rpartition(".")[0]


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def core_modules(graph, rule_set) -> list[str]:
    package = package_of(rule_set)
    return sorted(m for m in graph.modules
                  if within(m, package) and not within(m, f"{package}.web"))


def computer_modules(graph, rule_set) -> list[str]:
    """The module its ``computer`` comes from, and everything under it if it is a package."""
    home = rule_set.computer.__module__
    return sorted(m for m in graph.modules if within(m, home))


def test_every_registered_rule_set_has_a_package_and_a_computer_to_check(registered, graph):
    packages = [package_of(rs) for rs in registered]
    assert len(set(packages)) == len(registered) >= 4, packages  # each its own package
    for rule_set in registered:
        assert len(core_modules(graph, rule_set)) >= 4, package_of(rule_set)
        computer = computer_modules(graph, rule_set)
        assert computer and all(within(m, package_of(rule_set)) for m in computer)


def test_a_rule_sets_core_imports_only_itself_the_shared_core_and_the_standard_library(
        registered, graph):
    stdlib = set(sys.stdlib_module_names)
    for rule_set in registered:
        own = set(core_modules(graph, rule_set))
        for module in sorted(own):
            for imported in graph.find_modules_directly_imported_by(module):
                top = imported.split(".")[0]
                allowed = imported in own or within(imported, SHARED_CORE) \
                    or imported == "referee" or (top in stdlib and top not in FORBIDDEN)
                assert allowed, f"{module} imports {imported}"


def test_what_the_cores_share_imports_no_web_storage_or_pdf_library(graph):
    for module in sorted(m for m in graph.modules if within(m, SHARED_CORE)):
        for forbidden in sorted(FORBIDDEN & set(graph.modules)):
            chain = graph.find_shortest_chain(module, forbidden)
            assert chain is None, " -> ".join(chain)
        for imported in graph.find_modules_directly_imported_by(module):
            assert within(imported, SHARED_CORE) or imported.split(".")[0] in \
                set(sys.stdlib_module_names) - FORBIDDEN, f"{module} imports {imported}"


def test_a_computer_imports_nothing_of_its_cores_game(registered, graph):
    for rule_set in registered:
        game = rule_set.game_type.__module__
        for module in computer_modules(graph, rule_set):
            chain = graph.find_shortest_chain(module, game)
            assert chain is None, " -> ".join(chain)


def test_shared_code_imports_no_rule_sets_package(registered, graph):
    packages = [package_of(rs) for rs in registered]
    shared = sorted(m for m in graph.modules if within(m, "referee") or within(m, "printables")
                    if not any(within(m, p) for p in packages))
    assert "referee.rulesets" in shared and "printables.tables" in shared
    for module in shared:
        for imported in graph.find_modules_directly_imported_by(module):
            assert not any(within(imported, p) for p in packages), f"{module} imports {imported}"


def test_importing_every_core_loads_no_web_storage_or_pdf_library(registered, graph):
    cores = [m for rs in registered for m in core_modules(graph, rs)]
    script = ("import importlib, json, sys\n"
              f"sys.path.insert(0, {str(ROOT / 'tests')!r})\n"
              f"for name in {cores!r}:\n"
              "    importlib.import_module(name)\n"
              "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, check=True, timeout=60)
    loaded = set(json.loads(done.stdout))
    assert set(cores) <= loaded
    assert not {name.split(".")[0] for name in loaded} & FORBIDDEN


def test_the_layering_checks_see_a_forbidden_import(graph):
    """The checks read the graph they are given: the web layer does import what the cores
    may not."""
    assert graph.find_shortest_chain("referee.webparts", "flask")
    assert graph.find_modules_directly_imported_by("referee.naval_war.web.pages") & {
        "flask", "referee.service"}
