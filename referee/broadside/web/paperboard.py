"""The harbour drawing (``drawing.py``) on paper: the same shapes as the phones see, drawn by
reportlab in greys a club's photocopier keeps apart (land mid grey, water white, Red's hulls
black, Blue's white with a black rim, a mast a dot on the hull)."""

from __future__ import annotations

from reportlab.lib.colors import Color, black, white

from printables.shapes import DrawingFlowable, draw_shape

from .drawing import Drawing, Group, Shape

GREY = Color(0.55, 0.55, 0.55)
LIGHT = Color(0.86, 0.86, 0.86)
PALE = Color(0.94, 0.94, 0.94)
# fill, stroke, stroke width in cells, for each kind of shape (its first class)
PRINT: dict[str, tuple[Color | None, Color | None, float]] = {
    "water": (white, black, 0.04),
    "land": (LIGHT, None, 0),
    "coast": (None, black, 0.05),
    "lane": (None, Color(0.7, 0.7, 0.7), 0.02),
    "cross": (None, Color(0.3, 0.3, 0.3), 0.04),
    "start-blue": (PALE, None, 0),
    "start-red": (PALE, None, 0),
    "mark": (Color(0.8, 0.8, 0.8), None, 0),
    "fire": (None, GREY, 0.025),
    "red-circle": (None, black, 0.07),
    "battery": (Color(0.3, 0.3, 0.3), black, 0.04),
    "battery-site": (white, None, 0),
    "battery-word": (black, None, 0),
    "yellow": (white, black, 0.05),
    "buoy-top": (black, None, 0),
    "buoy-word": (black, None, 0),
    "ship-number": (black, None, 0),
    "dock": (white, black, 0.05),
    "merchant-hull": (GREY, black, 0.03),
    "wreck": (None, black, 0.08),
    "mast": (white, black, 0.015),
    "axis": (black, None, 0),
    "panel": (GREY, None, 0),
    "panel-small": (GREY, None, 0),
    "tap": (None, None, 0),
}
BOLD = ("panel", "battery-site", "buoy-word", "battery-word", "ship-number")  # their text


def _paint(cls: str) -> tuple[Color | None, Color | None, float]:
    words = cls.split()
    fill, stroke, width = PRINT.get(words[0], (None, black, 0.03))
    if words[0] == "hull":
        fill, stroke, width = (black if words[1] == "red" else white), black, 0.05
    if words[0] == "mast" and words[1] == "blue":
        fill = black
    if words[0] == "battery" and "miss" in words:
        fill = white
    if words[0] == "yellow" and "sink" in words:
        fill = GREY
    if words[0] == "yellow" and "gone" in words:
        stroke = GREY
    return fill, stroke, width


class HarbourFlowable(DrawingFlowable[Drawing]):
    """The harbour on paper, its board and each look of a piece drawn once a document."""

    _origin: tuple[float, float] = (0.0, 0.0)  # a piece's cross, while its form is drawn

    def _xy(self, x: float, y: float) -> tuple[float, float]:
        ox, oy = self._origin
        if self._origin != (0.0, 0.0):  # a piece's points about its cross
            return (x - ox) * self.scale, -(y - oy) * self.scale
        return super()._xy(x, y)

    def _piece(self, group: Group) -> None:
        """A piece (a ship, a buoy, a merchant ship) drawn once for each look and size in a
        document, as a form XObject, and placed on its cross."""
        c, s = self.canv, self.scale
        look = group.relative()
        name = f"piece-{hash(look) & 0xFFFFFFFF:08x}-{s:.4f}"
        ox, oy = group.origin or (0.0, 0.0)
        if not c.hasForm(name):
            # reportlab takes any number for a form's box; its stubs say int
            c.beginForm(name, lowerx=-s, lowery=-s, upperx=s, uppery=s)  # type: ignore[arg-type]
            self._origin = (ox, oy)
            try:
                for shape in group.shapes:
                    self._shape(shape)
            finally:
                self._origin = (0.0, 0.0)
            c.endForm()
        c.saveState()
        c.translate(ox * s, self.height - oy * s)
        c.doForm(name)
        c.restoreState()

    def _shape(self, shape: Shape) -> None:
        fill, stroke, width = _paint(shape.cls)
        if fill is None and stroke is None:
            return
        s = self.scale
        draw_shape(self.canv, shape, s, self._xy, fill, stroke, width, thinnest=0.2,
                   bold=shape.cls.split()[0] in BOLD,
                   dash=(0.12 * s, 0.1 * s) if shape.cls == "fire" else None)

    def draw(self) -> None:
        c = self.canv
        c.saveState()
        c.setLineJoin(1)
        # the board without pieces is drawn once for each board and size in a document, as
        # a form XObject, then placed under each harbour's pieces (the booklet has hundreds)
        name = f"harbour-{self.drawing.key}-{self.scale:.4f}"
        if self.drawing.key and c.hasForm(name):
            c.doForm(name)
        elif self.drawing.key:
            c.beginForm(name, lowerx=0, lowery=0, upperx=self.width, uppery=self.height)
            for shape in self.drawing.background:
                self._shape(shape)
            c.endForm()
            c.doForm(name)
        else:
            for shape in self.drawing.background:
                self._shape(shape)
        for item in self.drawing.layers:
            if isinstance(item, Group) and item.origin is not None:
                self._piece(item)
                continue
            for shape in (item.shapes if isinstance(item, Group) else [item]):
                self._shape(shape)
        c.restoreState()
