"""Text contrast on the pages meets WCAG AA (4.5:1), for every eye at the table.

The pairs are the text colours the stylesheet puts on each background it uses.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parent.parent / "referee" / "static" / "app.css").read_text()
VARIABLES = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{3,6})", CSS))


def colour(value: str) -> tuple[float, float, float]:
    value = VARIABLES.get(value.removeprefix("var(--").rstrip(")"), value).lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    return tuple(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))


def luminance(rgb: tuple[float, float, float]) -> float:
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(fg: str, bg: str) -> float:
    a, b = sorted((luminance(colour(fg)), luminance(colour(bg))), reverse=True)
    return (a + 0.05) / (b + 0.05)


PAIRS = [
    ("var(--ink)", "#fff", "body text"), ("var(--muted)", "#fff", "hints"),
    ("var(--ink)", "var(--sea)", "letters on sea"), ("var(--ink)", "var(--land)", "on land"),
    ("var(--ink)", "#9fb3c8", "ship letters"), ("var(--ink)", "var(--hit)", "hit squares"),
    ("#fff", "#111", "sunk squares"), ("#444", "#fff", "nothing there"),
    ("#5a2a82", "var(--sea)", "pencil marks"), ("var(--ink)", "#cfe3f7", "seen sea"),
    ("var(--ink)", "#fff1c2", "shot down"), ("#fff", "var(--accent)", "buttons"),
    ("var(--accent)", "#fff", "secondary buttons and links"), ("var(--red)", "#fff", "Red"),
    ("var(--blue)", "#fff", "Blue"), ("var(--green)", "#fff", "Green"),
    ("var(--gold)", "#fff", "Gold"), ("#fff", "var(--red)", "seat letter R"),
    ("#fff", "var(--blue)", "seat letter B"), ("#fff", "var(--green)", "seat letter G"),
    ("#fff", "var(--gold)", "seat letter G (gold)"), ("#fff", "#0d6b2f", "your turn"),
    ("#fff", "#0d2340", "header"), ("var(--ink)", "#ffecec", "problems"),
    ("var(--ink)", "#fff6d6", "notices"), ("#555", "#fff", "weapons used up"),
    ("#333", "#f1f1f1", "chart labels"), ("#222", "#bbb", "disabled buttons"),
]


@pytest.mark.parametrize(("fg", "bg", "where"), PAIRS, ids=[p[2] for p in PAIRS])
def test_text_contrast_is_at_least_wcag_aa(fg, bg, where):
    assert contrast(fg, bg) >= 4.5, f"{where}: {fg} on {bg} is {contrast(fg, bg):.2f}:1"


def test_the_contrast_check_can_fail():
    assert contrast("#999", "#fff") < 4.5 < contrast("#767676", "#fff")
