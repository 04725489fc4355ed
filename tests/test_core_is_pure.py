"""The rules core (referee/naval_war, its computer included, its web part aside) is pure: no
web, storage or PDF library reaches it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "referee" / "naval_war"
FORBIDDEN = {"flask", "sqlite3", "sqlite_utils", "reportlab", "werkzeug", "waitress"}
CORE_FILES = sorted(p for p in CORE.rglob("*.py") if "web" not in p.relative_to(CORE).parts)


def imported_modules(path: Path) -> set[str]:
    """Every module a source file names in an import, or hands to __import__/import_module."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called in ("__import__", "import_module") and node.args \
                    and isinstance(node.args[0], ast.Constant):
                names.add(str(node.args[0].value))
    return names


def test_the_core_has_modules_to_scan():
    assert {p.name for p in CORE_FILES} >= {
        "__init__.py", "squares.py", "problems.py", "fleet.py", "combat.py", "game.py",
        "views.py", "layout.py"}


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.relative_to(CORE).as_posix())
def test_no_core_module_imports_web_storage_or_pdf_code(path):
    tops = {name.split(".")[0] for name in imported_modules(path)}
    assert not tops & FORBIDDEN, f"{path.name} imports {sorted(tops & FORBIDDEN)}"
    # absolute imports reach only the standard library or the core itself
    assert tops <= set(sys.stdlib_module_names) | {"referee"}, path.name


def test_the_scan_sees_an_import():
    sample = CORE.parent.parent / "tests" / "test_core_is_pure.py"
    assert {"ast", "json", "subprocess"} <= imported_modules(sample)


def test_importing_the_core_loads_no_web_storage_or_pdf_code():
    script = (
        "import importlib, json, pkgutil, sys\n"
        "import referee.naval_war as core\n"
        "def walk(path, prefix):\n"
        "    for info in pkgutil.iter_modules(path, prefix):\n"
        "        if info.name.endswith('.web'):  # the pages' part, not the core\n"
        "            continue\n"
        "        module = importlib.import_module(info.name)\n"
        "        if info.ispkg:\n"
        "            walk(module.__path__, info.name + '.')\n"
        "walk(core.__path__, 'referee.naval_war.')\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=CORE.parent.parent, check=True, timeout=60)
    loaded = {name.split(".")[0] for name in json.loads(done.stdout)}
    assert "referee" in loaded and "referee.naval_war.computer.admiral" in json.loads(done.stdout)
    assert not loaded & FORBIDDEN, sorted(loaded & FORBIDDEN)


# Battleship: The Tactical Combat Game's core and what the cores share are pure too
OTHER_CORES = (CORE.parent / "battleship_tcg", CORE.parent / "common")
OTHER_FILES = sorted(p for core in OTHER_CORES for p in core.glob("*.py"))


def test_the_other_cores_have_modules_to_scan():
    assert {p.name for p in OTHER_FILES} >= {
        "holes.py", "catalogue.py", "card.py", "fleet.py", "game.py", "views.py",
        "postmortem.py", "problems.py", "lifecycle.py"}


@pytest.mark.parametrize("path", OTHER_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_tcg_or_common_module_imports_web_storage_or_pdf_code(path):
    tops = {name.split(".")[0] for name in imported_modules(path)}
    assert not tops & FORBIDDEN, f"{path.name} imports {sorted(tops & FORBIDDEN)}"
    assert tops <= set(sys.stdlib_module_names) | {"referee"}, path.name


@pytest.mark.parametrize("package", ["battleship_tcg", "common"])
def test_importing_the_tcg_core_loads_no_web_storage_or_pdf_code(package):
    script = (
        "import importlib, json, pkgutil, sys\n"
        f"import referee.{package} as core\n"
        "for info in pkgutil.iter_modules(core.__path__):\n"
        "    if not (info.ispkg and info.name == 'web'):  # the pages' part, not the core\n"
        f"        importlib.import_module('referee.{package}.' + info.name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=CORE.parent.parent, check=True, timeout=60)
    loaded = {name.split(".")[0] for name in json.loads(done.stdout)}
    assert not loaded & FORBIDDEN, sorted(loaded & FORBIDDEN)


# Broadside's core (its computer included; its web part aside) is pure too
BROADSIDE = CORE.parent / "broadside"
BROADSIDE_FILES = sorted(p for p in BROADSIDE.rglob("*.py") if "web" not in p.parts)


def test_broadside_has_modules_to_scan():
    assert {p.name for p in BROADSIDE_FILES} >= {
        "board.py", "catalogue.py", "fleet.py", "game.py", "views.py", "postmortem.py",
        "schemas.py", "seam.py", "rule_set.py"}


@pytest.mark.parametrize("path", BROADSIDE_FILES, ids=lambda p: p.name)
def test_no_broadside_core_module_imports_web_storage_or_pdf_code(path):
    tops = {name.split(".")[0] for name in imported_modules(path)}
    assert not tops & FORBIDDEN, f"{path.name} imports {sorted(tops & FORBIDDEN)}"
    assert tops <= set(sys.stdlib_module_names) | {"referee"}, path.name


def test_importing_the_broadside_core_loads_no_web_storage_or_pdf_code():
    script = (
        "import importlib, json, pkgutil, sys\n"
        "import referee.broadside as core\n"
        "for info in pkgutil.walk_packages(core.__path__, 'referee.broadside.'):\n"
        "    if '.web' not in info.name:  # the pages' part, not the core\n"
        "        importlib.import_module(info.name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=CORE.parent.parent, check=True, timeout=60)
    loaded = {name.split(".")[0] for name in json.loads(done.stdout)}
    assert "referee" in loaded
    assert not loaded & FORBIDDEN, sorted(loaded & FORBIDDEN)
