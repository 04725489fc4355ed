"""The drawing of the sea and the decks (``drawing.py``) on paper: the same shapes the phones see,
drawn by reportlab in greys a club's photocopier keeps apart (islands grey, water white, Red's
hulls and crew black, Blue's white with a black rim, the raised decks a pale grey)."""

from __future__ import annotations

from reportlab.lib.colors import Color, black, white

from printables.shapes import DrawingFlowable, draw_shape

from .drawing import Drawing, Group, Shape

GREY = Color(0.5, 0.5, 0.5)
MID = Color(0.7, 0.7, 0.7)
LIGHT = Color(0.84, 0.84, 0.84)
PALE = Color(0.93, 0.93, 0.93)
SEAT_FILL = {"red": black, "blue": white}
# fill, stroke, stroke width in units of the drawing, for each kind of shape (its first class)
PRINT: dict[str, tuple[Color | None, Color | None, float]] = {
    "water": (white, black, 0.04),
    "guide": (None, LIGHT, 0.012),
    "island": (LIGHT, black, 0.03),
    "island-link": (None, LIGHT, 0.8),
    "island-name": (GREY, None, 0),
    "start": (None, black, 0.07),
    "start-inner": (None, black, 0.02),
    "dot": (black, None, 0),
    "axis": (black, None, 0),
    "north": (black, None, 0),
    "wake": (None, GREY, 0.05),
    "mark": (LIGHT, black, 0.03),
    "mast-spot": (white, None, 0),
    "wreck": (None, black, 0.08),
    "deck-sea": (PALE, None, 0),
    "deck-hull": (MID, black, 0.05),
    "plank": (white, LIGHT, 0.02),
    "level": (None, black, 0.05),
    "ladder": (None, black, 0.04),
    "mast": (GREY, black, 0.03),
    "mast-stump": (GREY, None, 0),
    "mast-gone": (None, GREY, 0.03),
    "gone": (None, black, 0.045),
    "cannon": (black, None, 0),
    "section": (black, None, 0),
    "position": (GREY, None, 0),
    "marker": (white, black, 0.02),
    "piece": (black, black, 0.025),
    "piece-blank": (white, black, 0.02),
    "captain": (black, black, 0.06),
    "captain-mark": (white, None, 0),
    "ship-name": (black, None, 0),
    "plank-across": (GREY, black, 0.02),
    "cell-mark": (LIGHT, None, 0),
    "tap": (None, None, 0),
}
DASHED = ("wake", "mast-gone")
BOLD = ("section", "ship-name", "captain-mark", "axis")


def _paint(cls: str) -> tuple[Color | None, Color | None, float]:
    words = cls.split()
    fill, stroke, width = PRINT.get(words[0], (None, black, 0.03))
    seat = next((w for w in words[1:] if w in SEAT_FILL), None)
    if words[0] == "hull" and seat:
        fill, stroke, width = SEAT_FILL[seat], black, 0.05
    elif words[0] in ("piece", "captain") and seat:
        fill = SEAT_FILL[seat]
    elif words[0] in ("mast-spot", "captain-mark") and seat == "blue":
        fill = black
    elif words[0] == "plank" and "raised" in words:
        fill = PALE
    elif words[0] == "mast" and "top-lost" in words:
        fill = white
    elif words[0] == "marker" and "hit" in words:
        fill = GREY
    elif words[0] == "marker" and "beyond" in words:
        fill = black
    return fill, stroke, width


class BoardFlowable(DrawingFlowable[Drawing]):
    """The sea or the decks on paper, the board without pieces drawn once a document."""

    def _shape(self, shape: Shape) -> None:
        fill, stroke, width = _paint(shape.cls)
        if fill is None and stroke is None:
            return
        s, kind = self.scale, shape.cls.split()[0]
        self.canv.setLineCap(1 if kind == "island-link" else 0)
        draw_shape(self.canv, shape, s, self._xy, fill, stroke, width, thinnest=0.25,
                   bold=kind in BOLD, dash=(0.12 * s, 0.08 * s) if kind in DASHED else None)

    def draw(self) -> None:
        c = self.canv
        c.saveState()
        c.setLineJoin(1)
        items = self.drawing.items
        if self.drawing.key and self.drawing.background:
            # the board without pieces, drawn once for each board and size in a document
            # as a form XObject and placed again (a booklet has a sea for every round)
            name = f"{self.drawing.key}-{self.scale:.4f}"
            if not c.hasForm(name):
                c.beginForm(name, lowerx=0, lowery=0, upperx=self.width, uppery=self.height)
                for shape in _shapes(items[:self.drawing.background]):
                    self._shape(shape)
                c.endForm()
            c.doForm(name)
            items = items[self.drawing.background:]
        for shape in _shapes(items):
            self._shape(shape)
        c.restoreState()


def _shapes(items: list[Shape | Group]) -> list[Shape]:
    """The shapes of a drawing's items, each group's where they lie."""
    return [shape for item in items
            for shape in (item.placed() if isinstance(item, Group) else [item])]


__all__ = ["BoardFlowable"]
