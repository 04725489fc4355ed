"""A game's drawing on paper, one shape at a time: the shapes a game's pages draw as SVG (a
rectangle, a circle, a line, a polygon, a line of text, as each game's ``drawing.py`` gives
them: a ``kind``, the numbers ``at`` and any ``text``), drawn by reportlab on a flowable's
canvas. How each shape is inked, and where the drawing's points fall on the page, is the
game's own paper."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from reportlab.lib.colors import Color, black, white
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

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


class Sized(Protocol):
    """What a game's drawing gives of its size, in its own units."""

    @property
    def width(self) -> float: ...

    @property
    def height(self) -> float: ...


D = TypeVar("D", bound=Sized)


class DrawingFlowable(Flowable, Generic[D]):
    """A game's drawing as a flowable: ``width`` points wide (its height follows), or fitted
    into ``height``; ``scale`` points to each of the drawing's units. A game's paper draws it
    (``draw``), its shapes by ``draw_shape`` with ``_xy`` for their points."""

    def __init__(self, drawing: D, width: float, height: float | None = None) -> None:
        super().__init__()
        self.drawing = drawing
        self.scale = width / drawing.width
        if height is not None:
            self.scale = min(self.scale, height / drawing.height)
        self.width = drawing.width * self.scale
        self.height = drawing.height * self.scale

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def _xy(self, x: float, y: float) -> tuple[float, float]:
        """A point of the drawing on the page (its y measured down from the top)."""
        return x * self.scale, self.height - y * self.scale


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
