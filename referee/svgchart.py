"""Small bar charts drawn on the server as SVG: no charting library, nothing from the internet.

Bars are black on white with their value written beside them, so the figure reads in print,
on a photocopy and without colour.
"""

from __future__ import annotations

from html import escape

ROW, LABEL, BAR, GAP = 22, 130, 150, 6
TEXT = 140  # room after the bar for its figure


def bar_chart(title: str, rows: list[tuple[str, float, str]], maximum: float) -> str:
    """A horizontal bar chart: each row is (label, value, text written after the bar)."""
    height = ROW * len(rows) + 28
    width = LABEL + BAR + TEXT
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-labelledby="t-{id(rows)}">',
             f'<title id="t-{id(rows)}">{escape(title)}</title>',
             f'<text x="0" y="14" font-size="13" font-weight="bold">{escape(title)}</text>']
    for i, (label, value, text) in enumerate(rows):
        y = 24 + i * ROW
        length = 0 if not maximum else max(0.0, min(1.0, value / maximum)) * BAR
        parts += [f'<text x="{LABEL - GAP}" y="{y + 14}" font-size="12" '
                  f'text-anchor="end">{escape(label)}</text>',
                  f'<rect x="{LABEL}" y="{y + 3}" width="{BAR}" height="{ROW - 8}" '
                  'fill="#fff" stroke="#777"/>',
                  f'<rect x="{LABEL}" y="{y + 3}" width="{length:.1f}" height="{ROW - 8}" '
                  'fill="#222"/>',
                  f'<text x="{LABEL + BAR + GAP}" y="{y + 14}" font-size="12">'
                  f'{escape(text)}</text>']
    parts.append("</svg>")
    return "".join(parts)
