"""The tables every game's paper prints: the line a player writes his name on, the record of
moves (filled from a record, or blank to fill by hand, as many pages as asked) and the grid
of figures the post-mortems print. Every text a player or a file supplied passes through
``plain`` on its way in, so it prints as typed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph, Table, TableStyle

from referee.common.limits import BLANK_RECORD_PAGES, MAX_BLANK_RECORD_PAGES

from .style import FONT, GRID, INK, STYLES

__all__ = ["BLANK_RECORD_PAGES", "MAX_BLANK_RECORD_PAGES", "blank_pages", "check_pages",
           "grid_table", "name_line", "plain", "record_table"]

CELL_PADDING = 1.6  # points above and below a record's text
SPARE = 6  # points a blank page keeps under its last row, for rounding


def plain(value: object) -> str:
    """Plain text for reportlab's Paragraph markup: every string a player or a file supplied
    (a name "<img src=...>", "<b>x", "&amp;") passes through here and prints as typed."""
    return escape(str(value))


def name_line(player: str = "", colour: str = "", date: str = "", *, label: str = "Colour",
              width: int = 12) -> Paragraph:
    """"Player ___ Colour ___ Date ___": filled in, or blanks to write on (``label``: what
    this game calls a player's colour, ``width`` its blank's length)."""
    def blank(value: str, length: int) -> str:
        return plain(value) if value else "_" * length
    return Paragraph(f"<b>Player</b> {blank(player, 22)} &nbsp; <b>{label}</b> "
                     f"{blank(colour, width)} &nbsp; <b>Date</b> {blank(date, 14)}",
                     STYLES["body"])


def record_table(columns: Sequence[str], widths_mm: Sequence[float],
                 rows: Sequence[Sequence[str]], width: float,
                 row_height: float | None = None) -> Table:
    """A record of moves: a head of ``columns`` repeated on every page, the columns
    ``widths_mm`` wide but the last, which takes the rest of ``width`` (from the left margin:
    ``style.frame_width`` to run to the right one); ``row_height`` for blank rows with room
    to write by hand."""
    widths = [w * mm for w in widths_mm]
    widths.append(width - sum(widths))
    head = [Paragraph(plain(h), STYLES["cell_head"]) for h in columns]
    body = [[Paragraph(plain(text), STYLES["cell"]) for text in row] for row in rows]
    heights = [None] + [row_height] * len(body) if row_height else None
    table = Table([head, *body], colWidths=widths, repeatRows=1, rowHeights=heights,
                  hAlign="LEFT")
    table.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
        ("LINEBELOW", (0, 0), (-1, 0), 1.0, INK),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("TOPPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("BOTTOMPADDING", (0, 0), (-1, -1), CELL_PADDING),
    ]))
    return table


def grid_table(rows: Sequence[Sequence[str]], widths_mm: Sequence[float]) -> Table:
    """A table of figures: its first row and first column in bold, the head repeated on
    every page."""
    table = Table([[Paragraph(plain(text), STYLES["cell_head" if i == 0 or j == 0 else "cell"])
                    for j, text in enumerate(row)] for i, row in enumerate(rows)],
                  colWidths=[w * mm for w in widths_mm], repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.4, GRID),
                               ("LINEBELOW", (0, 0), (-1, 0), 1.0, INK),
                               ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("FONTNAME", (0, 0), (-1, -1), FONT)]))
    return table


def check_pages(pages: object) -> int:
    """How many pages of blank record to print: a whole number from 1 to 20."""
    if (isinstance(pages, bool) or not isinstance(pages, int)
            or not 1 <= pages <= MAX_BLANK_RECORD_PAGES):
        raise ValueError(f"pages is a whole number from 1 to {MAX_BLANK_RECORD_PAGES}, "
                         f"not {pages!r}")
    return pages


def blank_pages(pages: int, head: Callable[[], list], rows: Callable[[int], Flowable], *,
                width: float, height: float, row_height: float) -> list:
    """A blank record's story, ``pages`` pages (``check_pages``), each standing alone:
    ``head()`` (a title, the name line, what to write) above ``rows(n)``, the record with as
    many blank rows ``row_height`` high as fill the page to its foot: ``width`` is the frame's
    (``style.frame_width``), as the head will wrap in it, and ``height`` the page's within
    its margins."""
    check_pages(pages)
    used = sum(f.wrap(width, height)[1] + f.getSpaceBefore() + f.getSpaceAfter()
               for f in head()) + rows(0).wrap(width, height)[1]
    fitting = int((height - used - SPARE) // row_height)
    story: list = []
    for page in range(pages):
        story += [PageBreak()] if page else []
        story += [*head(), rows(fitting)]
    return story
