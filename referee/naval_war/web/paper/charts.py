"""The Naval War Game's charts on paper: the 21 x 21 grid as a flowable, and what to draw in
each square.

A chart is drawn from ``looks``: square name to ``Look``. ``own_looks`` reads a player's own
disposition and damage; ``knowledge_looks`` reads the referee's knowledge chart of an
opponent (built from that player's reports only). Symbols follow the rules' habits, one per
meaning, on both charts and in the tallies: a ring round what has flown or fired,
a cross through an aircraft or gun destroyed, a ship square hit partly blackened (its lower
right corner) and wholly blackened once the ship is sunk, even where a plane stood on it.
The house style (font, inks, lines) is the paper kit's (``printables.style``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from printables.style import (
    FONT,
    FONT_BOLD,
    GRID,
    INK,
    LINE_FRAME,
    LINE_GUIDE,
    LINE_THIN,
    MARGIN,
    PAPER,
)

from ...catalogue import LAND_UNIT, SHIP_TYPES
from ...catalogue import LETTERS as LETTER
from ...catalogue import ship_squares as core_ship_squares
from ...squares import COLUMNS, SIZE, parse_square, square_name

LABEL_BAND = 3.2 * mm  # the row and column labels on each of the four sides
MAX_CELL = 9.5 * mm
MIN_PAIR_CELL = 6 * mm  # squares at least 6 mm on the pair layout
PAIR_GAP = 1 * mm  # between two charts side by side
TALLY_ROW = 5.2 * mm
TALLY_CIRCLES = 30
GUIDE_EVERY = LAND_UNIT  # a heavier line every three squares: land comes in 3 x 3 units (R6)
GUIDE = Color(0.15, 0.15, 0.15)
LAND = Color(0.86, 0.86, 0.86)
SHIP = Color(0.72, 0.72, 0.72)

TALLIES = (("atom-bomber", "Atom bombers"), ("bomber", "Bombers"), ("recon", "R.P.s"),
           ("aa-gun", "A-A guns"), ("salvo", "Salvoes"))
# In words where the symbol is drawn: the embedded font has no glyph for a ring or a corner.
KEY = ("K carrier, B battleship, C cruiser, D destroyer, S submarine, A atom bomber, "
       "b bomber, r R.P., G A-A gun; shaded: land; corner blackened: ship square hit; "
       "all black: ship sunk; crossed out: aircraft or gun destroyed; "
       "ringed: flown or fired; · seen, empty; – nothing there; "
       "! plane shot down aiming here; / bombed area")
HIT_CORNER = 0.5  # the blackened corner of a hit ship square, as a fraction of its side
TALLY_RING, TALLY_CROSS = 1.2, 1.15  # the ring round a tally circle; the cross's half-width


@dataclass
class Look:
    letter: str = ""
    land: bool = False
    ship: bool = False
    hit: bool = False
    sunk: bool = False
    ring: bool = False  # flown or fired
    cross: bool = False  # an aircraft or gun destroyed
    mark: str = ""  # "–", "!", "/" for what a player learnt without seeing a piece


def chart_cell(width: float, charts_across: int) -> float:
    """The largest square that fits this many charts across a width, within MAX_CELL."""
    usable = width - 2 * MARGIN - (charts_across - 1) * PAIR_GAP
    return min(MAX_CELL, (usable / charts_across - 2 * LABEL_BAND) / SIZE)


class Tally(NamedTuple):
    """One kind of a player's forces at the foot of his chart: how many he started with and
    what became of them, ringed as they flew or fired and crossed as they were destroyed,
    like the pieces on his chart. An A-A gun can fire and then be destroyed: ``both``."""

    bought: int
    ringed: int = 0  # flown or fired, and no more
    both: int = 0  # fired, then destroyed
    crossed: int = 0  # destroyed without having flown or fired

    def marks(self) -> list[tuple[bool, bool]]:
        """(ring, cross) for each circle from the first: ringed, then both, then crossed."""
        return ([(True, False)] * self.ringed + [(True, True)] * self.both
                + [(False, True)] * self.crossed)


def ship_squares(ship: dict) -> list[str]:
    """The names of a ship's squares, from the core's one geometry (R7)."""
    return [square_name(s) for s in
            core_ship_squares(ship["type"], parse_square(ship["at"]), ship.get("dir"))]


def own_looks(disposition: dict | None, damage: dict | None) -> dict[str, Look]:
    """A player's own chart: land, ships, aircraft and guns, with hits, sinkings and rings."""
    looks: dict[str, Look] = {}
    if not disposition:
        return looks
    damage = damage or {"hit": [], "destroyed": [], "flown": [], "spent": []}
    hit = set(damage["hit"])
    for top_left in disposition.get("land", []):
        at = parse_square(top_left)
        for r in range(LAND_UNIT):
            for c in range(LAND_UNIT):
                looks[f"{COLUMNS[at.col + c]} {at.row + r + 1}"] = Look(land=True)
    for ship in disposition.get("ships", []):
        squares = ship_squares(ship)
        sunk = all(s in hit for s in squares)
        for s in squares:
            looks[s] = Look(letter=LETTER[ship["type"]], ship=True, hit=s in hit, sunk=sunk)
    stands = [(a["type"], a["at"]) for a in disposition.get("aircraft", [])]
    stands += [("aa-gun", g) for g in disposition.get("guns", [])]
    for kind, s in stands:
        base = looks.get(s, Look())
        if base.sunk:  # the plane went down with its carrier: the square shows the sinking
            continue
        looks[s] = Look(letter=LETTER[kind], land=base.land, ship=base.ship, hit=base.hit,
                        ring=s in damage["flown"] or s in damage["spent"],
                        cross=s in damage["destroyed"])
    return looks


def knowledge_looks(knowledge: dict[str, dict]) -> dict[str, Look]:
    """A player's chart of an opponent, from the referee's knowledge chart of it."""
    looks = {}
    for square, entry in knowledge.items():
        piece, mark = entry.get("piece"), entry["mark"]
        if mark == "hit":
            ship = piece in SHIP_TYPES
            looks[square] = Look(letter=LETTER.get(piece or "", ""), ship=ship, hit=ship,
                                 sunk=entry.get("sunk", False), cross=not ship)
        elif mark == "seen":
            looks[square] = Look(letter=LETTER.get(piece, "") if piece else "",
                                 land=entry.get("terrain") == "land",
                                 ship=piece in SHIP_TYPES,
                                 hit=entry.get("hit", False), sunk=entry.get("sunk", False),
                                 ring=entry.get("spent", False), mark="" if piece else "·")
        else:
            looks[square] = Look(mark={"nothing": "–", "shot-down": "!", "bombed": "/"}[mark])
    return looks


class ChartFlowable(Flowable):
    """A 21 x 21 chart with its labels on all four sides and guides every three squares."""

    def __init__(self, cell: float, looks: dict[str, Look] | None = None, title: str = "",
                 tallies: dict[str, Tally] | None = None,
                 blank_tallies: bool = False) -> None:
        super().__init__()
        self.cell, self.looks, self.title = cell, looks or {}, title
        self.tallies, self.blank_tallies = tallies, blank_tallies
        self.grid = SIZE * cell
        self.width = self.grid + 2 * LABEL_BAND
        rows = len(TALLIES) if (tallies or blank_tallies) else 0
        self.tally_height = rows * TALLY_ROW + (2 * mm if rows else 0)
        self.title_height = 6 * mm if title else 0
        self.height = self.title_height + self.width + self.tally_height

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        origin_y = self.tally_height  # the chart's bottom-left label corner
        if self.title:
            c.setFont(FONT_BOLD, 9.5)
            c.setFillColor(INK)
            c.drawString(0, origin_y + self.width + 1.8 * mm, self.title)
        x0, y0 = LABEL_BAND, origin_y + LABEL_BAND
        self._squares(x0, y0)
        self._lines(x0, y0)
        self._labels(x0, y0)
        if self.tallies or self.blank_tallies:
            draw_tallies(c, 0, self.tally_height - 2 * mm, self.width, self.tallies)

    def _square_origin(self, x0: float, y0: float, col: int, row: int) -> tuple[float, float]:
        return x0 + col * self.cell, y0 + (SIZE - 1 - row) * self.cell

    def _squares(self, x0: float, y0: float) -> None:
        c, size = self.canv, self.cell
        for name, look in self.looks.items():
            square = parse_square(name)
            x, y = self._square_origin(x0, y0, square.col, square.row)
            fill = INK if look.sunk else SHIP if look.ship else LAND if look.land else None
            if fill is not None:
                c.setFillColor(fill)
                c.rect(x, y, size, size, stroke=0, fill=1)
            text = look.letter or look.mark
            if text:
                c.setFillColor(PAPER if look.sunk else INK)
                c.setFont(FONT_BOLD if look.letter else FONT, size * 0.58)
                c.drawCentredString(x + size / 2, y + size * 0.3, text)
            c.setStrokeColor(PAPER if look.sunk else INK)
            if look.hit and not look.sunk:  # partly blackened, as the rules have it
                c.setFillColor(INK)
                corner = c.beginPath()
                corner.moveTo(x + size * (1 - HIT_CORNER), y)
                corner.lineTo(x + size, y)
                corner.lineTo(x + size, y + size * HIT_CORNER)
                corner.close()
                c.drawPath(corner, stroke=0, fill=1)
            if look.cross and not look.sunk:
                c.setLineWidth(0.9)
                c.line(x + size * 0.15, y + size * 0.15, x + size * 0.85, y + size * 0.85)
                c.line(x + size * 0.15, y + size * 0.85, x + size * 0.85, y + size * 0.15)
            if look.ring:
                c.setLineWidth(0.8)
                c.circle(x + size / 2, y + size / 2, size * 0.42, stroke=1, fill=0)

    def _lines(self, x0: float, y0: float) -> None:
        c = self.canv
        for i in range(SIZE + 1):
            guide = i % GUIDE_EVERY == 0
            c.setStrokeColor(GUIDE if guide else GRID)
            c.setLineWidth(LINE_GUIDE if guide else LINE_THIN)
            c.line(x0 + i * self.cell, y0, x0 + i * self.cell, y0 + self.grid)
            c.line(x0, y0 + i * self.cell, x0 + self.grid, y0 + i * self.cell)
        c.setStrokeColor(INK)
        c.setLineWidth(LINE_FRAME)
        c.rect(x0, y0, self.grid, self.grid, stroke=1, fill=0)

    def _labels(self, x0: float, y0: float) -> None:
        """Columns A-U above and below, rows 1-21 left and right."""
        c = self.canv
        c.setFillColor(INK)
        text = c.beginText()  # one text object for all 84 labels: each centred on its line
        text.setFont(FONT, 6.2)
        for i in range(SIZE):
            cx = x0 + (i + 0.5) * self.cell
            cy = y0 + (SIZE - 1 - i) * self.cell + self.cell * 0.32
            for x, y, label in ((cx, y0 + self.grid + 1.1 * mm, COLUMNS[i]),
                                (cx, y0 - 2.6 * mm, COLUMNS[i]),
                                (x0 - LABEL_BAND / 2, cy, str(i + 1)),
                                (x0 + self.grid + LABEL_BAND / 2, cy, str(i + 1))):
                text.setTextOrigin(x - stringWidth(label, FONT, 6.2) / 2, y)
                text.textLine(label)
        c.drawText(text)


def draw_tallies(c, x: float, top: float, width: float,
                 tallies: dict[str, Tally] | None) -> None:
    """Tally circles at the foot of a chart: what a player starts with, ringed as it flies or
    fires and crossed as it is destroyed (``Tally``); None draws them blank, to fill in by
    hand."""
    label_width = 30 * mm
    step = (width - label_width - 14 * mm) / TALLY_CIRCLES
    radius = min(step, TALLY_ROW) * 0.36
    for i, (kind, label) in enumerate(TALLIES):
        y = top - (i + 0.5) * TALLY_ROW
        tally = tallies.get(kind, Tally(0)) if tallies else None
        bought = tally.bought if tally else None
        c.setFillColor(INK)
        c.setFont(FONT_BOLD, 7.2)
        c.drawString(x, y - 1 * mm, label)
        c.setFont(FONT, 6.5)
        c.drawString(x + label_width - 8 * mm, y - 1 * mm,
                     "____" if bought is None else f"{bought}")
        if tally is None or bought is None:  # the five blank rows are alike: one form, five times
            c.saveState()
            c.translate(0, y)
            c.doForm(_blank_tally_row(c, x + label_width, step, radius))
            c.restoreState()
            continue
        shown = min(bought, TALLY_CIRCLES)
        marks = tally.marks()
        c.setStrokeColor(INK)
        for n in range(shown):
            cx = x + label_width + (n + 0.5) * step
            ring, cross = marks[n] if n < len(marks) else (False, False)
            c.setLineWidth(0.4)
            c.circle(cx, y, radius, stroke=1, fill=0)
            if ring:  # ringed round, as a player rings it by hand
                c.setLineWidth(0.8)
                c.circle(cx, y, radius * TALLY_RING, stroke=1, fill=0)
            if cross:  # crossed out, as the piece is on the chart
                c.setLineWidth(0.9)
                reach = radius * TALLY_CROSS
                c.line(cx - reach, y - reach, cx + reach, y + reach)
                c.line(cx - reach, y + reach, cx + reach, y - reach)
            c.setFont(FONT, 4.6)
            c.drawCentredString(cx, y - 0.55 * mm, str(n + 1))
        if bought is not None and bought > TALLY_CIRCLES:
            c.setFont(FONT, 6.5)
            c.drawString(x + label_width + TALLY_CIRCLES * step + 1 * mm, y - 1 * mm,
                         f"+{bought - TALLY_CIRCLES}")



def _blank_tally_row(c, left: float, step: float, radius: float) -> str:
    """A row of numbered empty circles as a form XObject, centred on y = 0, made once per
    document and geometry; drawing a circle is dear in reportlab, placing a form is not."""
    name = f"blank-tally-{left:.3f}-{step:.3f}-{radius:.3f}"
    if c.hasForm(name):
        return name
    right = left + TALLY_CIRCLES * step
    c.beginForm(name, lowerx=left - 1, lowery=-radius - 2, upperx=right + 1,
                uppery=radius + 2)
    c.setStrokeColor(INK)
    c.setLineWidth(0.4)
    path = c.beginPath()
    for n in range(TALLY_CIRCLES):
        path.circle(left + (n + 0.5) * step, 0, radius)
    c.drawPath(path, stroke=1, fill=0)
    c.setFillColor(INK)
    text = c.beginText()
    text.setFont(FONT, 4.6)
    for n in range(TALLY_CIRCLES):
        label = str(n + 1)
        text.setTextOrigin(left + (n + 0.5) * step - stringWidth(label, FONT, 4.6) / 2,
                           -0.55 * mm)
        text.textLine(label)
    c.drawText(text)
    c.endForm()
    return name
