"""A game's drawing on paper, one shape at a time: the shapes a game's pages draw as SVG (a
rectangle, a circle, a line, a polygon, a line of text, as each game's ``drawing.py`` gives
them: a ``kind``, the numbers ``at`` and any ``text``), drawn by reportlab on a flowable's
canvas. How each shape is inked, and where the drawing's points fall on the page, is the
game's own paper."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from reportlab.lib.colors import Color, black, white
from reportlab.pdfgen.canvas import Canvas

from .style import FONT, FONT_BOLD


class Shape(Protocol):
    """What a game's drawing gives of a shape (its frozen dataclass's fields)."""

    @property
    def kind(self) -> str: ...  # "rect", "circle", "line", "poly" or "text"

    @property
    def at(self) -> tuple[float, ...]: ...  # rect: x, y, w, h; circle: cx, cy, r; line: x1,
    # y1, x2, y2; poly: x1, y1, x2, y2 ...; text: x, y, size

    @property
    def text(self) -> str: ...


def draw_shape(canvas: Canvas, shape: Shape, scale: float,
               xy: Callable[[float, float], tuple[float, float]],
               fill: Color | None, stroke: Color | None, width: float, *, thinnest: float,
               bold: bool = False, dash: tuple[float, float] | None = None) -> None:
    """Draw ``shape`` with this ink: ``fill`` and ``stroke`` (None: not filled, not stroked),
    a stroke ``width`` in the drawing's units (``scale`` points each) but never thinner than
    ``thinnest`` points, a ``bold`` text, ``dash`` (on and off, in points) for a dashed stroke;
    ``xy`` puts a point of the drawing on the page."""
    canvas.setFillColor(fill or white)
    canvas.setStrokeColor(stroke or black)
    canvas.setLineWidth(max(width * scale, thinnest))
    if dash is not None:
        canvas.setDash(*dash)
    a = shape.at
    paint = {"stroke": int(stroke is not None), "fill": int(fill is not None)}
    if shape.kind == "rect":
        x, y = xy(a[0], a[1] + a[3])
        canvas.rect(x, y, a[2] * scale, a[3] * scale, **paint)
    elif shape.kind == "circle":
        x, y = xy(a[0], a[1])
        canvas.circle(x, y, a[2] * scale, **paint)
    elif shape.kind == "line":
        canvas.line(*xy(a[0], a[1]), *xy(a[2], a[3]))
    elif shape.kind == "poly":
        path = canvas.beginPath()
        points = [xy(a[i], a[i + 1]) for i in range(0, len(a), 2)]
        path.moveTo(*points[0])
        for point in points[1:]:
            path.lineTo(*point)
        path.close()
        canvas.drawPath(path, **paint)
    else:
        x, y = xy(a[0], a[1])
        canvas.setFont(FONT_BOLD if bold else FONT, a[2] * scale)
        canvas.setFillColor(fill or black)
        canvas.drawCentredString(x, y, shape.text)
    if dash is not None:
        canvas.setDash()
