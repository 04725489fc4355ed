"""The browser tests share one gate and one ``browser`` fixture (``tests/browser_support.py``,
``tests/conftest.py``). Without Chromium a browser module is skipped, loudly, and only it; under
CI=true it fails; no module keeps a gate or a launch of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import browser_support
import pytest

TESTS = Path(__file__).resolve().parent
NOWHERE = Path("/nonexistent/chromium")


def test_without_chromium_a_browser_module_is_skipped_loudly(monkeypatch):
    monkeypatch.setattr(browser_support, "CHROMIUM", NOWHERE)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        browser_support.require_browser()
    assert "BROWSER TESTS SKIPPED" in str(skipped.value)
    header = browser_support.report_header()
    assert any("the browser tests will be SKIPPED" in line for line in header)
    assert header[0] == "!" * 78


def test_under_ci_a_missing_browser_fails(monkeypatch):
    monkeypatch.setattr(browser_support, "CHROMIUM", NOWHERE)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception) as failed:
        browser_support.require_browser()
    assert "CI must run the browser tests" in str(failed.value)


def modules_to_scan() -> list[Path]:
    return [p for p in sorted(TESTS.glob("test_*.py")) if p.name != Path(__file__).name]


def test_every_browser_module_takes_the_shared_gate():
    uses_browser = {p.name for p in modules_to_scan() if any(
                        isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
                        and "browser" in [a.arg for a in node.args.args]
                        for node in ast.walk(ast.parse(p.read_text())))}
    assert {"test_browser.py", "test_browser_placement.py", "test_browser_seats.py",
            "test_browser_marks.py", "test_browser_record_pages_and_marks.py",
            "test_browser_order_and_sides.py"} <= uses_browser
    gated = {p.name for p in modules_to_scan() if "require_browser()" in p.read_text()}
    assert uses_browser <= gated, f"browser tests without the shared gate: {uses_browser - gated}"


@pytest.mark.parametrize("path", modules_to_scan(), ids=lambda p: p.name)
def test_no_module_keeps_a_gate_or_browser_of_its_own(path):
    text = path.read_text()
    tree = ast.parse(text)
    own_fixture = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)
                   and node.name == "browser"]
    assert own_fixture == [] and ".launch(" not in text
    assert "usr/bin/chromium\")" not in text and "allow_module_level=True" not in text
