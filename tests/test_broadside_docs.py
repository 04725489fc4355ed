"""docs/broadside.md states B1-B14 once each in order, every B-ruling Broadside's code and tests
cite is there, and each is cited by the code and by a test named after it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "broadside.md"
CITED = re.compile(r"(?<![A-Za-z0-9_])B(\d{1,2})(?![A-Za-z0-9_])")
TEST_NAME = re.compile(r"\btest_b(\d{1,2})_")
HEADING = re.compile(r"^### B(\d+)\b", re.MULTILINE)


def cited(text: str) -> set[int]:
    """The B-rulings a text cites (``B 10``, a point of the board, is not one).

    >>> sorted(cited('refuse("B5", ...) # B1-B14; test_b4_x; the cross B 10; AB3; B2x'))
    [1, 4, 5, 14]
    """
    return {int(n) for n in CITED.findall(text)} | {int(n) for n in TEST_NAME.findall(text)}


def code_files() -> list[Path]:
    return sorted(p for p in (ROOT / "referee" / "broadside").rglob("*.py")
                  if "__pycache__" not in p.parts)


def broadside_test_files() -> list[Path]:
    return sorted((ROOT / "tests").glob("test_broadside*.py"))


def test_b1_to_b14_are_stated_once_each_in_order():
    assert [int(n) for n in HEADING.findall(DOC.read_text())] == list(range(1, 15))


def test_b12_every_b_ruling_cited_by_the_code_or_tests_is_in_the_document():
    stated = {int(n) for n in HEADING.findall(DOC.read_text())}
    for path in code_files() + broadside_test_files():
        missing = cited(path.read_text(encoding="utf-8")) - stated
        assert not missing, f"{path.relative_to(ROOT)} cites {sorted(missing)}"


def test_b13_the_code_cites_every_ruling_and_a_test_is_named_after_each():
    in_code = set().union(*(cited(p.read_text(encoding="utf-8")) for p in code_files()))
    named = set().union(*({int(n) for n in TEST_NAME.findall(p.read_text(encoding="utf-8"))}
                          for p in broadside_test_files()))
    assert set(range(1, 15)) <= in_code, sorted(set(range(1, 15)) - in_code)
    assert set(range(1, 15)) <= named, sorted(set(range(1, 15)) - named)
