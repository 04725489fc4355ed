"""docs/battleship-tcg.md states T1-T12, every T-ruling the code cites is there, and the standard
card it draws and lists is the card the referee plays (T2)."""

from __future__ import annotations

import re
from pathlib import Path

from referee.battleship_tcg.card import drawing, standard_card

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "battleship-tcg.md"
CITING = ("referee", "printables", "tests", "bench")
SUFFIXES = {".py", ".html", ".js", ".mjs", ".css", ".json", ".txt", ".md"}
CITED = re.compile(r"(?<![A-Za-z0-9_])T(\d{1,3})(?![A-Za-z0-9_])")
TEST_NAME = re.compile(r"\btest_t(\d{1,3})_")
HEADING = re.compile(r"^### T(\d+)\b", re.MULTILINE)
LISTED = re.compile(r"^- (Red|Blue)'s half: (.*)$", re.MULTILINE)


def cited(text: str) -> set[int]:
    """The T-rulings a text cites.

    >>> sorted(cited('refuse("T7", ...) # T1-T12; test_t4_x; UTF8; T2x; AT3'))
    [1, 4, 7, 12]
    """
    return {int(n) for n in CITED.findall(text)} | {int(n) for n in TEST_NAME.findall(text)}


def citing_files() -> list[Path]:
    return [p for top in CITING for p in sorted((ROOT / top).rglob("*"))
            if p.is_file() and p.suffix in SUFFIXES and not p.name.endswith("-lock.json")
            and not {"__pycache__", "node_modules"} & set(p.parts)]


def test_t1_to_t12_are_stated_once_each_in_order():
    assert [int(n) for n in HEADING.findall(DOC.read_text())] == list(range(1, 13))


def test_t2_every_t_ruling_cited_in_the_code_is_in_the_document():
    stated = {int(n) for n in HEADING.findall(DOC.read_text())}
    citations = {}
    for path in citing_files():
        for n in cited(path.read_text(encoding="utf-8", errors="replace")):
            citations.setdefault(n, path.relative_to(ROOT))
    missing = {n: str(p) for n, p in citations.items() if n not in stated}
    assert not missing, f"T-rulings cited but not in docs/battleship-tcg.md: {missing}"
    assert set(range(1, 13)) <= set(citations)  # the code cites every ruling


def test_t2_the_listed_island_holes_are_the_standard_cards():
    card = standard_card()
    listed = {seat.lower(): holes.split(", ") for seat, holes in LISTED.findall(DOC.read_text())}
    assert listed == {seat: card.island_names(seat) for seat in ("red", "blue")}


def test_t2_the_drawn_card_is_the_standard_card():
    text = DOC.read_text()
    for seat in ("red", "blue"):
        assert f"```\n{drawing(standard_card(), seat)}\n```" in text


def test_t2_the_check_catches_a_ruling_missing_from_the_document():
    assert 13 in cited("refuse('T" + "13', ...)") and 13 not in {
        int(n) for n in HEADING.findall(DOC.read_text())}
