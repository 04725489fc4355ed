"""A PDF in the house style of every game's printables: the embedded font, the document's
title at the foot of each page and "Page N of M" at its right: a sheet that comes
loose from the pile still says what it is and where it belongs."""

from __future__ import annotations

import io

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import SimpleDocTemplate

from .style import FONT, INK, MARGIN

FOOT_TEXT = 6.5  # points: the title and the page number at the foot of each page


def _footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont(FONT, FOOT_TEXT)
    canvas.setFillColor(INK)
    canvas.drawString(MARGIN, MARGIN / 2, doc.title)
    canvas.restoreState()


class NumberedCanvas(Canvas):
    """A canvas that holds its pages back until the end, to write "Page 3 of 5" on each."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._held: list[dict] = []

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        self._held.append(dict(self.__dict__))
        self._startPage()  # type: ignore[attr-defined]  # reportlab's, not in its stubs

    def save(self) -> None:
        for number, page in enumerate(self._held, 1):
            self.__dict__.update(page)
            self.saveState()
            self.setFont(FONT, FOOT_TEXT)
            self.setFillColor(INK)
            width = self._pagesize[0]  # type: ignore[attr-defined]  # reportlab's, not in stubs
            self.drawRightString(width - MARGIN, MARGIN / 2,
                                 f"Page {number} of {len(self._held)}")
            self.restoreState()
            super().showPage()
        super().save()


def build(size: tuple[float, float], title: str, story: list, *, subject: str) -> bytes:
    """The PDF's bytes: ``story`` (reportlab flowables) on pages of ``size`` within the
    margins, ``title`` in the document's properties and at the foot of every page, the game
    (``subject``) in its properties, and every page numbered."""
    buffer = io.BytesIO()
    document = SimpleDocTemplate(buffer, pagesize=size, leftMargin=MARGIN, rightMargin=MARGIN,
                                 topMargin=MARGIN, bottomMargin=MARGIN, title=title,
                                 author="The referee", subject=subject,
                                 initialFontName=FONT)  # else every page names Helvetica
    document.build(story, onFirstPage=_footer, onLaterPages=_footer, canvasmaker=NumberedCanvas)
    return buffer.getvalue()
