"""One stylesheet for every printable: paper, geometry in mm, the embedded font, text styles.

Black on white for a club's photocopier. The font is Bitstream Vera, shipped inside
reportlab, registered as a TrueType font so that every PDF embeds it.
"""

from __future__ import annotations

from pathlib import Path

import reportlab
from reportlab.lib.colors import Color, black, white
from reportlab.lib.pagesizes import A4, landscape, letter, portrait
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(reportlab.__file__).parent / "fonts"
FONT, FONT_BOLD = "RefereeSans", "RefereeSans-Bold"
pdfmetrics.registerFont(TTFont(FONT, str(FONT_DIR / "Vera.ttf")))
pdfmetrics.registerFont(TTFont(FONT_BOLD, str(FONT_DIR / "VeraBd.ttf")))
pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)

PAPERS = {"a4": A4, "letter": letter}
LAYOUTS = ("pair", "single")

MARGIN = 6 * mm  # most printers reach within 5 mm of the edge
LABEL_BAND = 3.2 * mm  # the row and column labels on each of the four sides
MAX_CELL = 9.5 * mm
MIN_PAIR_CELL = 6 * mm  # squares at least 6 mm on the pair layout
PAIR_GAP = 1 * mm
TITLE_HEIGHT = 9 * mm
TALLY_ROW = 5.2 * mm
TALLY_CIRCLES = 30
GUIDE_EVERY = 3  # land comes in 3 x 3 units

INK = black
PAPER = white
GRID = Color(0.35, 0.35, 0.35)
GUIDE = Color(0.15, 0.15, 0.15)
LAND = Color(0.86, 0.86, 0.86)
SHIP = Color(0.72, 0.72, 0.72)
LINE_THIN, LINE_GUIDE, LINE_FRAME = 0.3, 0.9, 1.1

STYLES = {
    "title": ParagraphStyle("title", fontName=FONT_BOLD, fontSize=15, leading=19,
                            spaceAfter=4),
    "heading": ParagraphStyle("heading", fontName=FONT_BOLD, fontSize=11.5, leading=14,
                              spaceBefore=6, spaceAfter=3),
    "body": ParagraphStyle("body", fontName=FONT, fontSize=9.5, leading=12),
    "cell": ParagraphStyle("cell", fontName=FONT, fontSize=7.6, leading=9.2),
    "cell_head": ParagraphStyle("cell_head", fontName=FONT_BOLD, fontSize=7.6, leading=9.2),
    "small": ParagraphStyle("small", fontName=FONT, fontSize=7, leading=8.5),
}


def page_size(paper: str, orientation: str) -> tuple[float, float]:
    """The page in points: A4 or US Letter, portrait or landscape."""
    if paper not in PAPERS:
        raise ValueError(f"paper is one of {', '.join(PAPERS)}, not {paper!r}")
    size = PAPERS[paper]
    return landscape(size) if orientation == "landscape" else portrait(size)


def chart_cell(width: float, charts_across: int) -> float:
    """The largest square that fits this many charts across a width, within MAX_CELL."""
    usable = width - 2 * MARGIN - (charts_across - 1) * PAIR_GAP
    return min(MAX_CELL, (usable / charts_across - 2 * LABEL_BAND) / 21)
