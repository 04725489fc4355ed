"""Charts on paper: the 21 x 21 grid as a flowable, and what to draw in each square.

A chart is drawn from ``looks``: square name to ``Look``. ``own_looks`` reads a player's own
disposition and damage; ``knowledge_looks`` reads the referee's knowledge chart of an
opponent (built from that player's reports only). Symbols follow the rules' habits: a ring
round what has flown or been spent, the whole square blackened when a ship is sunk.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable

from referee.naval_war.squares import COLUMNS, SIZE, parse_square

from .style import (
    FONT,
    FONT_BOLD,
    GRID,
    GUIDE,
    GUIDE_EVERY,
    INK,
    LABEL_BAND,
    LAND,
    LINE_FRAME,
    LINE_GUIDE,
    LINE_THIN,
    PAPER,
    SHIP,
    TALLY_CIRCLES,
    TALLY_ROW,
)

LETTER = {"carrier": "K", "battleship": "B", "cruiser": "C", "destroyer": "D",
          "submarine": "S", "atom-bomber": "A", "bomber": "b", "recon": "r", "aa-gun": "G"}
LINE_LENGTH = {"battleship": 4, "cruiser": 3, "destroyer": 2, "submarine": 1}
TALLIES = (("atom-bomber", "Atom bombers"), ("bomber", "Bombers"), ("recon", "R.P.s"),
           ("aa-gun", "A-A guns"), ("salvo", "Salvoes"))
KEY = ("K carrier  B battleship  C cruiser  D destroyer  S submarine  A atom bomber  "
       "b bomber  r R.P.  G A-A gun  ·  shaded: land  X hit  black: sunk  "
       "ring: flown or spent  –  nothing there  !  plane shot down aiming here  "
       "/  bombed area")


@dataclass
class Look:
    letter: str = ""
    land: bool = False
    ship: bool = False
    hit: bool = False
    sunk: bool = False
    ring: bool = False
    cross: bool = False
    mark: str = ""  # "–", "!", "/" for what a player learnt without seeing a piece


def ship_squares(ship: dict) -> list[str]:
    at = parse_square(ship["at"])
    if ship["type"] == "carrier":
        cells = [(at.col + dc, at.row + dr) for dr in (0, 1) for dc in (0, 1)]
    else:
        down = ship.get("dir") == "down"
        cells = [(at.col, at.row + i) if down else (at.col + i, at.row)
                 for i in range(LINE_LENGTH[ship["type"]])]
    return [f"{COLUMNS[c]} {r + 1}" for c, r in cells]


def own_looks(disposition: dict | None, damage: dict | None) -> dict[str, Look]:
    """A player's own chart: land, ships, aircraft and guns, with hits, sinkings and rings."""
    looks: dict[str, Look] = {}
    if not disposition:
        return looks
    damage = damage or {"hit": [], "destroyed": [], "flown": [], "spent": []}
    hit = set(damage["hit"])
    for top_left in disposition.get("land", []):
        at = parse_square(top_left)
        for r in range(3):
            for c in range(3):
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
            looks[square] = Look(letter=LETTER.get(piece, ""), ship=piece in LINE_LENGTH
                                 or piece == "carrier", hit=True, sunk=entry.get("sunk", False),
                                 cross=piece not in LINE_LENGTH and piece != "carrier")
        elif mark == "seen":
            looks[square] = Look(letter=LETTER.get(piece, "") if piece else "",
                                 land=entry.get("terrain") == "land",
                                 ship=piece in LINE_LENGTH or piece == "carrier",
                                 hit=entry.get("hit", False), sunk=entry.get("sunk", False),
                                 ring=entry.get("spent", False), mark="" if piece else "·")
        else:
            looks[square] = Look(mark={"nothing": "–", "shot-down": "!", "bombed": "/"}[mark])
    return looks


class ChartFlowable(Flowable):
    """A 21 x 21 chart with its labels on all four sides and guides every three squares."""

    def __init__(self, cell: float, looks: dict[str, Look] | None = None, title: str = "",
                 tallies: dict[str, tuple[int, int]] | None = None,
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
            if look.hit and not look.sunk or look.cross:
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
                 tallies: dict[str, tuple[int, int]] | None) -> None:
    """Tally boxes to ring at the foot of a chart: what a player starts with, and has used.

    ``tallies`` maps each kind to (bought, used); None draws them blank, to fill in by hand.
    """
    label_width = 30 * mm
    step = (width - label_width - 14 * mm) / TALLY_CIRCLES
    radius = min(step, TALLY_ROW) * 0.36
    for i, (kind, label) in enumerate(TALLIES):
        y = top - (i + 0.5) * TALLY_ROW
        bought, used = tallies.get(kind, (0, 0)) if tallies else (None, 0)
        c.setFillColor(INK)
        c.setFont(FONT_BOLD, 7.2)
        c.drawString(x, y - 1 * mm, label)
        c.setFont(FONT, 6.5)
        c.drawString(x + label_width - 8 * mm, y - 1 * mm,
                     "____" if bought is None else f"{bought}")
        if bought is None:  # the five blank rows are alike: one form, drawn five times
            c.saveState()
            c.translate(0, y)
            c.doForm(_blank_tally_row(c, x + label_width, step, radius))
            c.restoreState()
            continue
        shown = min(bought, TALLY_CIRCLES)
        c.setStrokeColor(INK)
        for n in range(shown):
            cx = x + label_width + (n + 0.5) * step
            c.setLineWidth(1.2 if n < used else 0.4)
            c.circle(cx, y, radius, stroke=1, fill=0)
            if n < used:
                c.line(cx - radius, y - radius, cx + radius, y + radius)
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
