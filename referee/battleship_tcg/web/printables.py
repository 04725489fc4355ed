"""Battleship: The Tactical Combat Game on paper: pure render functions, data in, PDF bytes out.

Blank honeycomb charts of both halves of a mission card and a blank shot record for players
without phones; a player's charts and shots mid-game, drawn from his view only (T10); the
post-mortem booklet once the game is over (T9). The house style (font, margins, "Page N of M",
``plain`` for names), the name line and the record table are the paper kit's
(``printables``); the holes and their lines come from the one geometry,
``referee.battleship_tcg.holes``.

Each half is drawn as a honeycomb of flat-topped hexagons, one a peg hole: columns A-O across
the top with the spoken word small beneath the letter, the hole's number in each hexagon, the
low columns (B, D ... N) half a hole down, as on the card (T1). Islands are shaded (T2).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table

from printables import blank_pages, build, grid_table, name_line, plain, record_table
from printables.style import (
    FONT,
    FONT_BOLD,
    GRID,
    INK,
    LAYOUTS,
    LINE_FRAME,
    LINE_THIN,
    MARGIN,
    PAPER,
    STYLES,
    frame_width,
    page_size,
)

from ..catalogue import BOAT_TYPES, HOLES, LETTERS, MAN, NAMES
from ..holes import COLUMNS, DEPTH, SPOKEN, WIDTH, Hole, hole_named, line, parse_hole, sits_low
from ..views import result_headline
from .known import sunk_boats

SUBJECT = "Battleship: The Tactical Combat Game"
SEATS = ("red", "blue")
HEAD = 9.0 * mm  # the column letters and their spoken words above a half
TITLE = 6.0 * mm  # the half's title above that
FOOT = 4.0 * mm
GAP = 8 * mm  # between two halves side by side
SQRT3 = math.sqrt(3)
SHOT_COLUMNS = ("Shot", "By", "Hole", "Result", "Boat sunk")
SHOT_WIDTHS_MM = (13, 14, 16, 20)  # the boat sunk takes the rest
BLANK_SHOT_ROW = 7.0 * mm
BLANK_SHOT_PAGES = 2  # two blocks of rows a page, about 70 shots a page
ISLAND = Color(0.66, 0.66, 0.66)  # darker than the sea, as on the card ("the darker spaces")
BOAT = Color(0.88, 0.88, 0.88)  # a boat's holes, lighter than an island's
SUNK_LINE = 1.6  # the outline round a sunk boat
RESULTS = {"miss": "Miss", "hit": "Hit", "rescued": "Rescued"}
KEY = ("Shaded: island. Letters: the boats (A Aircraft Carrier, B Battleship, W Weapons "
       "Platform, S Submarine, P Patrol Boat) and M the Captured Man. Black disc: hit (a red "
       "peg); ring: miss (a white peg); a heavy outline: a boat sunk.")


@dataclass(frozen=True)
class Boat:
    type: str
    name: str
    size: int
    letter: str


def fleet() -> list[Boat]:
    """The boats of T3, from the rule set's catalogue."""
    return [Boat(kind, NAMES[kind], HOLES[kind], LETTERS[kind]) for kind in BOAT_TYPES]


@dataclass
class Mark:
    """What is drawn in one hole."""

    letter: str = ""
    boat: bool = False
    hit: bool = False
    miss: bool = False
    number: str = ""  # the shot's number, small, on the post-mortem's halves


@dataclass
class Half:
    """One half of the card as someone sees it: its islands, what he knows stands on it and
    the shots at it, and the boats known sunk (each a list of its holes) to outline."""

    title: str
    islands: frozenset[Hole] = frozenset()
    marks: dict[Hole, Mark] = field(default_factory=dict)
    outlines: list[list[Hole]] = field(default_factory=list)


def hexagon_side(width: float, height: float) -> float:
    """The largest hexagon side with which a half fits ``width`` x ``height`` (labels in)."""
    across = width / (1.5 * (WIDTH - 1) + 2)
    down = (height - HEAD - TITLE - FOOT) / (SQRT3 * (DEPTH + 0.5))
    return min(across, down)


class HalfFlowable(Flowable):
    """A half of the mission card as a honeycomb, ``side`` the hexagon's side in points."""

    def __init__(self, half: Half, side: float) -> None:
        super().__init__()
        self.half, self.side = half, side
        self.width = side * (1.5 * (WIDTH - 1) + 2)
        self.height = TITLE + HEAD + side * SQRT3 * (DEPTH + 0.5) + FOOT

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def centre(self, hole: Hole) -> tuple[float, float]:
        s, h = self.side, self.side * SQRT3
        x = s + 1.5 * s * hole.column
        top = self.height - TITLE - HEAD
        y = top - h / 2 - h * hole.row - (h / 2 if sits_low(hole.column) else 0)
        return x, y

    def _hexagon(self, x: float, y: float, scale: float = 1.0):
        s = self.side * scale
        path = self.canv.beginPath()
        for k in range(6):
            angle = math.pi / 3 * k
            point = (x + s * math.cos(angle), y + s * math.sin(angle))
            path.moveTo(*point) if k == 0 else path.lineTo(*point)
        path.close()
        return path

    def draw(self) -> None:
        c, s = self.canv, self.side
        c.saveState()
        c.setFillColor(INK)
        c.setFont(FONT_BOLD, 9)
        c.drawString(0, self.height - TITLE + 1.5 * mm, self.half.title)
        letter_size = min(8.5, s * 1.1)
        word_size = min(4.6, s * 1.5 / stringWidth("November", FONT, 1) * 0.95)
        for column, letter in enumerate(COLUMNS):
            x = s + 1.5 * s * column
            c.setFont(FONT_BOLD, letter_size)
            c.drawCentredString(x, self.height - TITLE - letter_size, letter)
            c.setFont(FONT, word_size)
            c.drawCentredString(x, self.height - TITLE - letter_size - word_size - 1,
                                SPOKEN[column])
        for column in range(WIDTH):
            for row in range(DEPTH):
                self._hole(Hole(column, row))
        c.setStrokeColor(INK)
        c.setLineWidth(SUNK_LINE)
        c.setLineJoin(1)
        c.setLineCap(1)
        for holes in self.half.outlines:
            self._outline(holes)
        c.restoreState()

    def _hole(self, hole: Hole) -> None:
        c, s = self.canv, self.side
        x, y = self.centre(hole)
        mark = self.half.marks.get(hole, Mark())
        island = hole in self.half.islands
        c.setLineWidth(LINE_FRAME if island else LINE_THIN)
        c.setStrokeColor(INK if island else GRID)
        c.setFillColor(ISLAND if island else BOAT if mark.boat else PAPER)
        c.drawPath(self._hexagon(x, y), stroke=1, fill=1)
        number_size = min(5.5, s * 0.55)
        c.setFillColor(INK)
        c.setFont(FONT, number_size)
        c.drawCentredString(x, y + s * SQRT3 / 2 - number_size - 0.6, str(hole.row + 1))
        if mark.number:
            c.setFont(FONT, number_size * 0.9)
            c.drawCentredString(x, y - s * SQRT3 / 2 + 1.2, mark.number)
        radius = s * 0.32
        if mark.hit:
            c.circle(x, y - s * 0.05, radius, stroke=0, fill=1)
        elif mark.miss:
            c.setStrokeColor(INK)
            c.setLineWidth(0.9)
            c.circle(x, y - s * 0.05, radius, stroke=1, fill=0)
        if mark.letter:
            c.setFillColor(PAPER if mark.hit else INK)
            size = min(8.0, s * 0.75)
            c.setFont(FONT_BOLD, size)
            c.drawCentredString(x, y - s * 0.05 - size * 0.35, mark.letter)

    def _outline(self, holes: list[Hole]) -> None:
        """A boat known sunk: a heavy rounded band round its holes' centres."""
        points = [self.centre(h) for h in holes]
        c = self.canv
        pad = self.side * 0.62
        (x0, y0), (x1, y1) = points[0], points[-1]
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        nx, ny = -uy * pad, ux * pad
        path = c.beginPath()
        path.moveTo(x0 - ux * pad + nx, y0 - uy * pad + ny)
        path.lineTo(x1 + ux * pad + nx, y1 + uy * pad + ny)
        path.lineTo(x1 + ux * pad - nx, y1 + uy * pad - ny)
        path.lineTo(x0 - ux * pad - nx, y0 - uy * pad - ny)
        path.close()
        c.drawPath(path, stroke=1, fill=0)


# -- what each half shows ---------------------------------------------------------------------

def _holes(names: list[str]) -> frozenset[Hole]:
    return frozenset(h for h in (parse_hole(n) for n in names) if h is not None)


def boat_holes(boat: dict, boats: list[Boat]) -> list[Hole]:
    """The holes a placed boat covers, from the one geometry (T4, T11)."""
    size = {b.type: b.size for b in boats}[boat["type"]]
    return line(hole_named(boat["at"]), boat["dir"], size)


def shots_at(view: dict, seat: str) -> list[dict]:
    """Every shot at ``seat``'s half the view tells of, in order (T8)."""
    return [r for r in view["reports"] if r["target"] == seat]


def _shot_marks(shots: list[dict], marks: dict[Hole, Mark], numbered: bool) -> None:
    for shot in shots:
        hole = hole_named(shot["at"][0])
        mark = marks.setdefault(hole, Mark())
        mark.hit = shot["result"] in ("hit", "rescued")
        mark.miss = not mark.hit
        if numbered:
            mark.number = str(shot["n"])


def own_half(title: str, islands: list[str], disposition: dict | None, shots: list[dict],
             boats: list[Boat], *, numbered: bool = False) -> Half:
    """A half its owner sees, or everyone sees after the end: his boats and man, the shots at
    it, and his boats sunk outlined."""
    letters = {b.type: b.letter for b in boats}
    marks: dict[Hole, Mark] = {}
    fleets: list[list[Hole]] = []
    if disposition:
        for boat in disposition.get("boats", []):
            holes = boat_holes(boat, boats)
            fleets.append(holes)
            for hole in holes:
                marks[hole] = Mark(letter=letters[boat["type"]], boat=True)
        if disposition.get("man"):
            marks[hole_named(disposition["man"])] = Mark(letter=LETTERS[MAN])
    _shot_marks(shots, marks, numbered)
    hit = {parse_hole(s["at"][0]) for s in shots if s["result"] == "hit"}
    outlines = [holes for holes in fleets if set(holes) <= hit]
    return Half(title, _holes(islands), marks, outlines)


def known_half(title: str, islands: list[str], shots: list[dict], sunk: list[list[str]],
               boats: list[Boat]) -> Half:
    """The opponent's half as a player knows it: his shots there and their results, and the
    boats he has been told he sank, outlined where the view says which holes they cover."""
    marks: dict[Hole, Mark] = {}
    _shot_marks(shots, marks, numbered=False)
    letters = {b.type: b.letter for b in boats}
    for shot in shots:
        if shot.get("sunk"):
            marks[hole_named(shot["at"][0])].letter = letters[shot["sunk"]]
    return Half(title, _holes(islands), marks, [[hole_named(n) for n in holes]
                                                for holes in sunk])


def _opponent(seat: str) -> str:
    return "blue" if seat == "red" else "red"


def _name(view: dict, seat: str) -> str:
    """"Blue (Bob)", or "Blue" before he has joined; drawn as typed (no markup)."""
    name = (view.get("seats", {}).get(seat) or {}).get("name")
    return f"{seat.title()} ({name})" if name else seat.title()


# -- pages ------------------------------------------------------------------------------------

def _pair(left: HalfFlowable, right: HalfFlowable) -> Table:
    table = Table([[left, "", right]], colWidths=[left.width, GAP, right.width])
    table.setStyle([("FONTNAME", (0, 0), (-1, -1), FONT),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                    ("VALIGN", (0, 0), (-1, -1), "TOP")])
    return table


def _pair_side(size: tuple[float, float], reserved: float) -> float:
    """The hexagon side for two halves side by side on a landscape page, ``reserved`` points
    of text above and below them."""
    width = (size[0] - 2 * MARGIN - GAP) / 2
    return hexagon_side(width, size[1] - 2 * MARGIN - reserved)


def _fleet_line(boats: list[Boat], sunk: set[str] | None = None) -> Paragraph:
    """The fleet of T3 with a box to tick as each is sunk."""
    sunk = sunk or set()
    items = [f"{'[x]' if b.type in sunk else '[ &nbsp; ]'} {b.name} ({b.letter}, {b.size} "
             f"holes)" for b in boats]
    return Paragraph("Sunk: " + " &nbsp; ".join(items) + " &nbsp; [ &nbsp; ] Captured Man "
                     "rescued (M, 1 island hole)", STYLES["small"])


def blank_charts(islands: dict[str, list[str]], *, paper: str = "a4", layout: str = "pair",
                 card: str = "the standard card") -> bytes:
    """Blank charts of both halves of a mission card. ``pair``: a page for each player, his
    own half to place his fleet on (T4, T5) beside his opponent's to mark his shots on (T7,
    T8). ``single``: each half alone on a page, its holes as large as the page allows."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout is one of {', '.join(LAYOUTS)}, not {layout!r}")
    size = page_size(paper, "landscape")
    boats = fleet()
    note = Paragraph(f"Islands as on {plain(card)}, shaded. Boats lie down a column or along a "
                     f"diagonal (down-right or up-right), on sea holes only (T4); the Captured "
                     f"Man hides on an island hole (T5). {KEY}", STYLES["small"])
    story: list = []
    for i, seat in enumerate(SEATS):
        other = _opponent(seat)
        story += [PageBreak()] if i else []
        if layout == "single":
            side = hexagon_side(size[0] - 2 * MARGIN, size[1] - 2 * MARGIN - 24 * mm)
            half = HalfFlowable(Half(f"{seat.title()}'s half of the card", _holes(islands[seat])),
                                side)
            story += [name_line(), Spacer(1, 2 * mm), half, Spacer(1, 1 * mm), note]
            continue
        side = _pair_side(size, 30 * mm)
        own = HalfFlowable(Half(f"{seat.title()}'s half: place your fleet here",
                                _holes(islands[seat])), side)
        theirs = HalfFlowable(Half(f"{other.title()}'s half: mark your shots here",
                                   _holes(islands[other])), side)
        story += [name_line(colour=seat.title()), Spacer(1, 2 * mm), _pair(own, theirs),
                  Spacer(1, 1 * mm), _fleet_line(boats), note]
    return build(size, f"{SUBJECT}: blank charts ({card})", story, subject=SUBJECT)


def _shot_table(rows: list[list[str]], width: float, row_height: float | None = None) -> Table:
    return record_table(SHOT_COLUMNS, SHOT_WIDTHS_MM, rows, width, row_height)


def blank_record(*, paper: str = "a4", pages: int = BLANK_SHOT_PAGES) -> bytes:
    """A blank record of shots (T8): two blocks of rows a page, as many pages as asked."""
    size = page_size(paper, "portrait")
    width, height = frame_width(size), size[1] - 2 * MARGIN
    block = (width - GAP) / 2
    names = ", ".join(f"{b.name} ({b.letter})" for b in fleet())

    def head() -> list:
        return [Paragraph(f"{SUBJECT}: record of shots", STYLES["title"]), name_line(),
                Paragraph(f"Write each shot as it is called: its number, who shot, the hole "
                          f"(column then number, D 3), Miss, Hit or Rescued, and the boat if "
                          f"the hit sank it: {names}.", STYLES["small"]), Spacer(1, 2 * mm)]

    def rows(n: int) -> Table:
        return _pair_blocks([_shot_table([[""] * len(SHOT_COLUMNS)] * n, block, BLANK_SHOT_ROW)
                             for _ in range(2)], block)

    story = blank_pages(pages, head, rows, width=width, height=height,
                        row_height=BLANK_SHOT_ROW)
    return build(size, f"{SUBJECT}: blank record of shots", story, subject=SUBJECT)


def _pair_blocks(blocks: list[Table], width: float) -> Table:
    table = Table([[blocks[0], "", blocks[1]]], colWidths=[width, GAP, width])
    table.setStyle([("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONTNAME", (0, 0), (-1, -1), FONT)])
    return table


def _shot_rows(reports: list[dict], boats: list[Boat]) -> list[list[str]]:
    names = {b.type: b.name for b in boats}
    return [[str(r["n"]), r["by"].title(), r["at"][0], RESULTS[r["result"]],
             names[r["sunk"]] if r.get("sunk") else ""] for r in reports]


def player_record(record: dict, *, paper: str = "a4") -> bytes:
    """Every shot as a player was told it (``record_for``: T8 tells both players the same),
    with the toss (T6) and, once over, the result (T9)."""
    size = page_size(paper, "portrait")
    toss = record.get("toss")
    order = " then ".join(s.title() for s in toss["order"]) if toss else "not drawn yet"
    story = [Paragraph(f"Shots of game {plain(record['id'])}, as {record['you'].title()} was "
                       f"told them", STYLES["title"]),
             Paragraph(f"The toss (T6): order of play {order}. Printed "
                       f"{dt.date.today().isoformat()}.", STYLES["body"]),
             Spacer(1, 3 * mm), _shot_table(_shot_rows(record["moves"], fleet()),
                                            min(size[0] - 2 * MARGIN, 150 * mm))]
    if record.get("result"):
        story += [Spacer(1, 3 * mm), Paragraph(plain(result_headline(record)), STYLES["body"])]
    return build(size, f"{SUBJECT} {record['id']}: shots as {record['you'].title()} was told",
                 story, subject=SUBJECT)


def sunk_outlines(view: dict, seat: str) -> list[list[str]]:
    """The holes of each boat of ``seat`` sunk, where the view's shots tell them (``known``)."""
    return [b["holes"] for b in sunk_boats(shots_at(view, seat)) if b["holes"]]


def player_charts(view: dict, *, paper: str = "a4", opponents: list[str] | None = None) -> bytes:
    """A player's charts at any point of the game, from his view only (T10): his own half with
    his fleet, his man and the opponent's shots, beside the opponent's half as he knows it;
    then every shot so far as he was told it. ``opponents`` (the core's ``targets_for``, as the
    shared route passes every rule set's) changes nothing: of two seats, the other is always
    the opponent, before the first shot and after the last alike."""
    size = page_size(paper, "landscape")
    boats = fleet()
    you, other = view["you"], _opponent(view["you"])
    side = _pair_side(size, 30 * mm)
    own = HalfFlowable(own_half(f"My half: {_name(view, you)}", view["islands"][you],
                                view.get("disposition"), shots_at(view, you), boats), side)
    known = HalfFlowable(known_half(f"{_name(view, other)}'s half as I know it",
                                    view["islands"][other], shots_at(view, other),
                                    sunk_outlines(view, other), boats), side)
    sunk = {r["sunk"] for r in shots_at(view, other) if r.get("sunk")}
    story = [name_line(view["seats"][you]["name"] or "", you.title(),
                       dt.date.today().isoformat()),
             Spacer(1, 2 * mm), _pair(own, known), Spacer(1, 1 * mm), _fleet_line(boats, sunk),
             Paragraph(f"Game {plain(view['id'])}, after shot {len(view['reports'])}. {KEY}",
                       STYLES["small"])]
    if view["reports"]:
        width = size[0] - 2 * MARGIN
        story += [PageBreak(), Paragraph("The shots so far", STYLES["heading"]),
                  _shot_table(_shot_rows(view["reports"], boats), min(width, 150 * mm))]
    return build(size, f"{SUBJECT} {view['id']}: charts of {you.title()}", story,
                 subject=SUBJECT)


def postmortem(view: dict, *, paper: str = "a4",
               analysis: dict | None = None) -> bytes:
    """After the end (T9): both halves revealed side by side, each with every shot at it
    numbered; the shots each boat took to sink and the wasted shots (``analysis``, the core's
    ``postmortem_document``); then every shot of the game."""
    if view["phase"] != "over":
        raise ValueError("the post-mortem is printed once the game is over (T9, T10)")
    size = page_size(paper, "landscape")
    boats = fleet()
    dispositions = {view["you"]: view.get("disposition")}
    dispositions.update({seat: info.get("disposition")
                         for seat, info in (view.get("revealed") or {}).items()})
    side = _pair_side(size, 36 * mm)
    halves = [HalfFlowable(own_half(f"{_name(view, seat)}'s half, revealed",
                                    view["islands"][seat], dispositions.get(seat),
                                    shots_at(view, seat), boats, numbered=True), side)
              for seat in SEATS]
    story: list = [Paragraph(f"Post-mortem of game {plain(view['id'])}", STYLES["title"]),
                   Paragraph(plain(result_headline(view)), STYLES["heading"]),
                   KeepTogether(_pair(*halves)), Spacer(1, 1 * mm),
                   Paragraph(f"Each shot's number is written small under its hole. {KEY}",
                             STYLES["small"])]
    if analysis:
        story += _analysis_story(analysis, boats, view)
    width = size[0] - 2 * MARGIN
    story += [PageBreak(), Paragraph("Every shot", STYLES["heading"]),
              _shot_table(_shot_rows(view["reports"], boats), min(width, 150 * mm))]
    return build(size, f"{SUBJECT} {view['id']}: post-mortem", story, subject=SUBJECT)


def _analysis_story(analysis: dict, boats: list[Boat], view: dict) -> list:
    """The core's post-mortem document (``postmortem_document``) as tables: the shots each
    boat took to sink, and the shots wasted on holes already ruled out."""
    story: list = [PageBreak(), Paragraph("Shots to sink each boat", STYLES["heading"]),
                   Paragraph("For each of the opponent's boats: how many of the shooter's shots "
                             "he had fired when it sank, which of them first hit it, and the "
                             "shots from that first hit to the sinking, both counted.",
                             STYLES["body"]), Spacer(1, 2 * mm)]
    rows = [["Shooter", "Boat", "Sunk with his shot", "First hit with his shot",
             "First hit to sinking"]]
    for seat, table in analysis["sinking"].items():
        for boat in boats:
            row = table[boat.type]
            rows.append([_name(view, seat), boat.name] + [
                "not sunk" if row["shots"] is None and key == "shots" else
                "-" if row[key] is None else str(row[key])
                for key in ("shots", "first_hit", "to_finish")])
    story.append(grid_table(rows, [40, 40, 34, 40, 36]))
    story += [Spacer(1, 4 * mm), Paragraph("Wasted shots", STYLES["heading"]),
              Paragraph(plain(analysis.get("method", "")), STYLES["body"]), Spacer(1, 2 * mm)]
    rows = [["Shooter", "Wasted", "Of his shots", "The wasted shots (number: hole)"]]
    for seat, wasted in analysis["wasted"].items():
        rows.append([_name(view, seat), str(wasted["count"]), str(wasted["of"]),
                     ", ".join(f"{n}: {hole}" for n, hole in zip(wasted["shots"],
                                                                  wasted["holes"],
                                                                  strict=True)) or "none"])
    story.append(grid_table(rows, [40, 18, 24, 170]))
    return story
