"""One stylesheet for every game's printables: paper, margins in mm, the embedded font, the
inks and lines, text styles.

Black on white for a club's photocopier. The font is Bitstream Vera, shipped inside
reportlab, registered as a TrueType font so that every PDF embeds it. What one game draws
(a chart's squares, a honeycomb's holes, a harbour) has its geometry in that game's paper.
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
FRAME_PADDING = 6  # points: reportlab's frame pads a page's flowables so on each side

INK = black
PAPER = white
GRID = Color(0.35, 0.35, 0.35)  # the lines of a table, a chart or a honeycomb
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


def frame_width(size: tuple[float, float]) -> float:
    """What a page of ``size`` gives its flowables across: the page less its margins and its
    frame's padding. A table this wide runs from margin to margin."""
    return size[0] - 2 * MARGIN - 2 * FRAME_PADDING
