"""The printables: blank charts and record sheets, a player's charts and move record, the
post-mortem; their URLs and command-line commands.

Every PDF is read back with pypdf (page size, text, fonts, where each label and symbol was
drawn) and rendered with pdftoppm to check for ink where the grid should be. A player's PDFs
are scanned for what R20 has not told him (R21): the two fleets of the scripted game lie in
separate halves of their charts (Red rows 1-10, Blue rows 12-21), so any square of the
opponent's half in a player's text must be one he was told, and any piece letter drawn on
his chart of the opponent must stand on a square his reports showed him.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from dataclasses import dataclass

import pypdf
import pytest
from apiclient import open_table
from conftest import REFEREE
from helpers import seed_for
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from printables.style import FONT, FONT_BOLD
from referee.naval_war import new_game, record_for, view_for
from referee.naval_war.knowledge import knowledge_chart
from referee.naval_war.squares import COLUMNS, SIZE, area, parse_square, square_name
from referee.naval_war.web import paper as printables
from referee.naval_war.web.paper import documents
from referee.naval_war.web.paper.charts import (
    LABEL_BAND,
    MIN_PAIR_CELL,
    TALLIES,
    ChartFlowable,
    Tally,
    chart_cell,
    knowledge_looks,
    own_looks,
)
from referee.naval_war.web.paper.documents import RECORD_COLUMNS

PDFTOPPM = shutil.which("pdftoppm") or "/usr/bin/pdftoppm"
PAGE_POINTS = {("a4", "portrait"): (595, 842), ("a4", "landscape"): (842, 595),
               ("letter", "portrait"): (612, 792), ("letter", "landscape"): (792, 612)}
PAPERS, LAYOUTS = ("a4", "letter"), ("pair", "single")
TALLY_LABELS = [label for _, label in TALLIES]
assert TALLY_LABELS == ["Atom bombers", "Bombers", "R.P.s", "A-A guns", "Salvoes"]
LABEL_SIZE, CELL_TEXT, RECORD_TEXT, TALLY_NUMBER = 6.2, 0.58, 7.6, 4.6  # font sizes
SQUARE = re.compile(r"\b([A-U]) (\d{1,2})\b")


# -- reading PDFs back ---------------------------------------------------------------------

def read(data: bytes) -> pypdf.PdfReader:
    assert data[:5] == b"%PDF-", data[:40]
    return pypdf.PdfReader(io.BytesIO(data))


def text_of(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in read(data).pages)


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def squares_in(text: str) -> set[str]:
    """Every square written the referee's way ("K 10") in a text, across line breaks."""
    return {f"{c} {n}" for c, n in SQUARE.findall(flat(text)) if 1 <= int(n) <= SIZE}


def page_points(page) -> tuple[int, int]:
    assert page.get("/Rotate", 0) == 0  # orientation comes from the page box, not a flag
    return round(float(page.mediabox.width)), round(float(page.mediabox.height))


@dataclass
class Placed:
    """One string drawn on a page: where it starts (points from the bottom left) and how."""

    text: str
    x: float
    y: float
    size: float
    bold: bool

    @property
    def centre(self) -> float:
        return self.x + stringWidth(self.text, FONT_BOLD if self.bold else FONT, self.size) / 2


_PLACED: dict[int, tuple[object, list[Placed]]] = {}  # by page: reading a page's text is slow


def placed(page) -> list[Placed]:
    """Every piece of text drawn on a PDF page, where and how; read once a page."""
    kept = _PLACED.get(id(page))
    if kept is not None and kept[0] is page:
        return list(kept[1])
    if len(_PLACED) > 64:
        _PLACED.clear()
    found: list[Placed] = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            bold = "Bold" in str((font or {}).get("/BaseFont", ""))
            found.append(Placed(text.strip(), x, y, round(size, 3), bold))

    page.extract_text(visitor_text=visit)
    _PLACED[id(page)] = (page, found)
    return list(found)


@dataclass
class Grid:
    """A chart found on a page from its labels: the grid's bottom-left corner and square."""

    left: float
    bottom: float
    cell: float

    @property
    def right(self) -> float:
        return self.left + SIZE * self.cell

    @property
    def top(self) -> float:
        return self.bottom + SIZE * self.cell

    def square_at(self, centre: float, baseline: float) -> str | None:
        col = int((centre - self.left) // self.cell)
        row = SIZE - 1 - int((baseline - self.bottom) // self.cell)
        return square_name(parse_square(f"{COLUMNS[col]}{row + 1}")) if (
            0 <= col < SIZE and 0 <= row < SIZE) else None

    def symbols(self, page) -> dict[str, str]:
        """What is written in each square: piece letters and marks, by square."""
        drawn: dict[str, str] = {}
        for p in placed(page):
            if abs(p.size - round(self.cell * CELL_TEXT, 3)) < 0.01:
                square = self.square_at(p.centre, p.y)
                if square:
                    assert square not in drawn, f"two symbols on {square}"
                    drawn[square] = p.text
        return drawn


def grids(page) -> list[Grid]:
    """Every chart on a page, left to right, from its labels; asserts that columns A-U stand
    above and below it and rows 1-21 left and right of it, each centred on its line."""
    labels = [p for p in placed(page) if p.size == LABEL_SIZE and not p.bold]
    xs = sorted({round(p.centre, 1) for p in labels if p.text == "A"})
    found = []
    for k in range(len(xs)):
        centres = []
        for letter in COLUMNS:
            mine = sorted({round(p.centre, 1) for p in labels if p.text == letter})
            assert len(mine) == len(xs), f"column {letter}: {mine}"
            centres.append(mine[k])
            assert sum(1 for p in labels if p.text == letter
                       and abs(p.centre - mine[k]) < 0.2) == 2, f"{letter} top and bottom"
        cell = (centres[-1] - centres[0]) / (SIZE - 1)
        assert all(abs(c - (centres[0] + i * cell)) < 0.2 for i, c in enumerate(centres))
        left = centres[0] - cell / 2
        bottoms = []
        for n in range(1, SIZE + 1):
            sides = [p for p in labels if p.text == str(n)
                     and min(abs(p.centre - (left - LABEL_BAND / 2)),
                             abs(p.centre - (left + SIZE * cell + LABEL_BAND / 2))) < 0.3]
            assert len(sides) == 2 and abs(sides[0].y - sides[1].y) < 0.1, f"row {n}"
            bottoms.append(sides[0].y - (SIZE - n) * cell - 0.32 * cell)
        bottom = sum(bottoms) / SIZE
        assert max(bottoms) - min(bottoms) < 0.1
        columns_y = sorted({round(p.y, 1) for p in labels if p.text == "A"
                            and abs(p.centre - centres[0]) < 0.2})
        assert columns_y == pytest.approx([bottom - 2.6 * mm, bottom + SIZE * cell + 1.1 * mm],
                                          abs=0.2)
        found.append(Grid(left, bottom, cell))
    return found


def fonts_of(reader: pypdf.PdfReader) -> dict[str, dict]:
    """Every font dictionary in the document, in pages and in the forms they draw."""
    fonts: dict[str, dict] = {}

    def walk(resources) -> None:
        resources = resources.get_object() if resources else {}
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            fonts[f"{font.get('/BaseFont')}/{font.get('/Subtype')}"] = font
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                walk(xobject.get("/Resources"))

    for page in reader.pages:
        walk(page.get("/Resources"))
    return fonts


def assert_fonts_embedded(data: bytes) -> None:
    fonts = fonts_of(read(data))
    assert fonts
    for name, font in fonts.items():
        described = [d.get_object() for d in font.get("/DescendantFonts", [])] or [font]
        for part in described:
            descriptor = part.get("/FontDescriptor")
            assert descriptor is not None, f"{name} is not embedded (a base-14 font?)"
            assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor.get_object()), (
                f"{name} has no font file")


# -- rendering with pdftoppm ---------------------------------------------------------------

@dataclass
class Image:
    width: int
    height: int
    pixels: bytes
    dpi: int
    channels: int = 1

    def at(self, x: int, y: int) -> int:
        return self.pixels[(y * self.width + x) * self.channels]

    def px(self, x_pt: float, y_pt: float) -> tuple[int, int]:
        """Pixel of a point given in PDF points from the page's bottom left."""
        scale = self.dpi / 72
        return int(x_pt * scale), int(self.height - y_pt * scale)

    def darkest(self, x: int, y: int, reach: int = 1) -> int:
        return min(self.at(i, j) for i in range(x - reach, x + reach + 1)
                   for j in range(y - reach, y + reach + 1))

    def lightest(self, x: int, y: int, reach: int = 1) -> int:
        return min(255, *(self.at(i, j) for i in range(x - reach, x + reach + 1)
                          for j in range(y - reach, y + reach + 1)))


def render(data: bytes, page: int = 1, dpi: int = 72, colour: bool = False) -> Image:
    """One page as pixels: pdftoppm, no anti-aliasing, thin lines drawn a pixel wide."""
    command = [PDFTOPPM, "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile",
               "-aa", "no", "-aaVector", "no", "-thinlinemode", "solid", "-"]
    if not colour:
        command.insert(1, "-gray")
    out = subprocess.run(command, input=data, capture_output=True, check=True,
                         timeout=30).stdout
    magic, width, height, _maxval, pixels = out.split(maxsplit=4)
    assert magic == (b"P6" if colour else b"P5")
    channels = 3 if colour else 1
    width, height = int(width), int(height)
    return Image(width, height, pixels[-width * height * channels:], dpi, channels)


def assert_grid_inked(image: Image, grid: Grid, empty: set[str] | None = None) -> None:
    """Dark pixels along all 22 lines each way, sampled mid-square; white in the middle of
    every square in ``empty`` (all of them, by default)."""
    for i in range(SIZE + 1):
        for j in range(SIZE):
            mid = j + 0.5
            x, y = image.px(grid.left + i * grid.cell, grid.bottom + mid * grid.cell)
            assert image.darkest(x, y) < 128, f"no vertical line {i} at row {SIZE - j}"
            x, y = image.px(grid.left + mid * grid.cell, grid.bottom + i * grid.cell)
            assert image.darkest(x, y) < 128, f"no horizontal line {i} at column {j}"
    names = {square_name(parse_square(f"{c}{r}")) for c in COLUMNS for r in range(1, SIZE + 1)}
    for square in names if empty is None else empty:
        at = parse_square(square)
        x, y = image.px(grid.left + (at.col + 0.5) * grid.cell,
                        grid.bottom + (SIZE - at.row - 0.5) * grid.cell)
        assert image.lightest(x, y, 2) == 255, f"ink in the middle of empty square {square}"


def assert_margins_white(image: Image) -> None:
    edge = int(4 * mm * image.dpi / 72)  # inside the 6 mm margin, outside any drawing
    for x in list(range(edge)) + list(range(image.width - edge, image.width)):
        for y in range(0, image.height, 3):
            assert image.at(x, y) == 255, f"ink in the side margin at {x},{y}"


def horizontal_rules(image: Image, fraction: float) -> list[int]:
    """Pixel rows holding a dark run across at least this fraction of the page's width."""
    rows = []
    for y in range(image.height):
        row = image.pixels[y * image.width:(y + 1) * image.width]
        if sum(1 for v in row if v < 128) >= fraction * image.width:
            rows.append(y)
    return rows


# -- the scripted game: Red in rows 1-10, Blue in rows 12-21 --------------------------------

def fleet(top: int) -> dict:
    """A legal fleet (R3-R9) in ten rows starting after row ``top``: land, aircraft and guns
    at the left of its first three rows, ships in lanes below and to the right."""
    def sq(col: str, row: int) -> str:
        return f"{col} {top + row}"
    return {
        "land": [sq("A", 1), sq("D", 1), sq("G", 1)],
        "ships": [{"type": "carrier", "at": sq("L", 1)}]
        + [{"type": "submarine", "at": sq(c, 1)} for c in "OQSU"]
        + [{"type": "battleship", "at": sq("P", 3), "dir": "across"}]
        + [{"type": "battleship", "at": sq(c, r), "dir": "across"} for r in (5, 7)
           for c in "AFKP"]
        + [{"type": "cruiser", "at": sq(c, 9), "dir": "across"} for c in "AEIM"]
        + [{"type": "destroyer", "at": sq(c, 9), "dir": "across"} for c in "QT"],
        "aircraft": [{"type": "atom-bomber", "at": sq(c, 1)} for c in "AB"]
        + [{"type": "bomber", "at": sq(c, 1)} for c in "CDEF"]
        + [{"type": "recon", "at": sq(c, 1)} for c in "GHI"]
        + [{"type": "recon", "at": sq("A", 2)}],
        "guns": [sq("I", 2), sq("A", 3), sq("E", 3), sq("I", 3)],
        "salvoes": 20,
    }


FLEETS = {"red": fleet(0), "blue": fleet(11)}
HALF = {"red": range(1, 11), "blue": range(12, 22)}  # the rows each fleet lies in
OPPONENT = {"red": "blue", "blue": "red"}
# Each side's moves; their results do not depend on who moves first.
SCRIPT = {
    "red": [{"weapon": "recon", "from": "G 1", "at": "K 17"},  # sees two Battleships
            {"weapon": "salvo", "at": ["A 20", "P 14", "U 21"]},
            {"weapon": "bomber", "from": "C 1", "at": "H 15"},  # shot down by Blue's I 14
            {"weapon": "atom-bomber", "from": "B 1", "at": "N 19"}],
    "blue": [{"weapon": "bomber", "from": "C 12", "at": "G 4"},
             {"weapon": "bomber", "from": "D 12", "at": "J 4"},  # shot down by Red's I 3
             {"weapon": "salvo", "at": ["P 1", "F 1", "K 9"]},
             {"weapon": "recon", "from": "G 12", "at": "B 8"}],
}
SECRET = {"red": {"G 1", "C 1", "B 1", "I 3"}, "blue": {"C 12", "D 12", "G 12", "I 14"}}
RADIUS = {"recon": 1, "bomber": 1, "atom-bomber": 2}


def scripted_game(pairs: int = 4):
    """The scripted game after this many moves each, Red first."""
    game, _ = new_game(id="g", seats=2, seed=seed_for(["red", "blue"]))
    for seat in game.seats:
        game.join(seat, seat.title())
        game.submit(seat, FLEETS[seat])
    for seat in game.seats:
        game.lock_in(seat)
    for i in range(pairs):
        for seat in ("red", "blue"):
            game.move(seat, SCRIPT[seat][i])
    return game


def told_in_text(game, seat: str) -> set[str]:
    """Squares of the opponent's chart that a seat's own moves named or showed him (R17,
    R20), worked out from the moves, not from what the referee sends."""
    told: set[str] = set()
    for report in game.reports:
        if report["by"] == seat:
            told |= set(report["at"])
            if report["weapon"] == "recon" and not report["shot_down"]:
                told |= {square_name(s) for s in area(parse_square(report["at"][0]), 1)}
    return told


def told_on_chart(game, seat: str) -> tuple[set[str], set[str]]:
    """Squares of the opponent's chart a seat may have anything written on (every square
    his shots, sightings and bombs concerned), and those he was shown a piece on."""
    opponent_pieces = {s for s, look in own_looks(FLEETS[OPPONENT[seat]], None).items()
                       if look.letter}
    marked, pieces = set(), set()
    for report in game.reports:
        if report["by"] != seat:
            continue
        centre = parse_square(report["at"][0])
        if report["shot_down"]:
            marked.add(report["at"][0])
        elif report["weapon"] == "salvo":
            marked |= set(report["at"])
            pieces |= set(report["at"]) & opponent_pieces
        else:
            seen = {square_name(s) for s in area(centre, RADIUS[report["weapon"]])}
            marked |= seen
            if report["weapon"] == "recon":
                pieces |= seen & opponent_pieces
    return marked, pieces


def leaks_in_text(text: str, game, seat: str) -> set[str]:
    """Squares of the opponent's half of his chart that a seat's text names untold."""
    half = HALF[OPPONENT[seat]]
    return {s for s in squares_in(text) if parse_square(s).row + 1 in half} - told_in_text(
        game, seat)


def chart_problems(looks_or_symbols: dict, game, seat: str) -> list[str]:
    """What a seat's chart of his opponent shows that R20 did not tell him."""
    marked, pieces = told_on_chart(game, seat)
    truth = {s: look.letter for s, look in own_looks(FLEETS[OPPONENT[seat]], None).items()}
    problems = []
    for square, shown in looks_or_symbols.items():
        letter = shown if isinstance(shown, str) else shown.letter
        if square not in marked:
            problems.append(f"{square} was never reported to {seat}")
        elif letter and letter.isalpha() and square not in pieces:
            problems.append(f"{square} shows {letter!r}, which {seat} never saw")
        elif letter and letter.isalpha() and truth.get(square) != letter:
            problems.append(f"{square} shows {letter!r}, not {truth.get(square)!r}")
    drawn = {s for s, shown in looks_or_symbols.items()
             if (shown if isinstance(shown, str) else shown.letter).isalpha()}
    problems += [f"{s}: a piece {seat} saw is missing" for s in sorted(pieces - drawn)]
    return problems


def record_rows(data: bytes) -> dict[int, dict[str, str]]:
    """The move record table read back by position: move number to the text in each column."""
    rows: dict[int, dict[str, str]] = {}
    for page in read(data).pages:
        items = [p for p in placed(page) if p.size == RECORD_TEXT]
        heads = [p for p in items if p.bold]
        if not any(p.text == "Move" for p in heads):  # a page of other tables, or none
            continue
        top = max(p.y for p in heads)
        starts = sorted((min(p.x for p in heads if abs(p.y - top) < 0.1
                             and p.text.startswith(name.split()[0])), name)
                        for name in RECORD_COLUMNS)
        body = [p for p in items if not p.bold and p.y < top - 1]

        def column(p: Placed, starts=starts) -> str:
            return [name for x, name in starts if x <= p.x + 0.5][-1]

        firsts = sorted(((p.y, int(p.text)) for p in body if column(p) == "Move"),
                        reverse=True)
        for p in sorted(body, key=lambda p: (-p.y, p.x)):
            n = next(n for y, n in reversed(firsts) if y >= p.y - 0.5)
            cells = rows.setdefault(n, {name: "" for name in RECORD_COLUMNS})
            cells[column(p)] = f"{cells[column(p)]} {p.text}".strip()
    return rows


@pytest.fixture(scope="module")
def mid_game():
    return scripted_game()


@pytest.fixture(scope="module")
def over_game():
    game = scripted_game()
    game.agree_to_end("red")
    game.agree_to_end("blue")
    assert game.phase == "over"
    return game


# -- blank charts and record sheets --------------------------------------------------------

@pytest.fixture(scope="module")
def blanks() -> dict[tuple[str, str], bytes]:
    charts = {(paper, layout): printables.blank_chart(paper=paper, layout=layout)
              for paper in PAPERS for layout in LAYOUTS}
    records = {(paper, "record"): printables.blank_record(paper=paper) for paper in PAPERS}
    return charts | records


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_blank_chart_page_size_and_orientation(blanks, paper, layout):
    reader = read(blanks[paper, layout])
    assert len(reader.pages) == 1  # the pair on one page, or the one chart on one page
    orientation = "landscape" if layout == "pair" else "portrait"
    assert page_points(reader.pages[0]) == PAGE_POINTS[paper, orientation]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_blank_chart_labels_title_line_and_tallies(blanks, paper, layout):
    data = blanks[paper, layout]
    lines = text_of(data).split("\n")
    charts = 2 if layout == "pair" else 1
    for i in range(SIZE):  # labels on all four sides: twice per chart at least
        assert lines.count(COLUMNS[i]) >= 2 * charts, COLUMNS[i]
        assert sum(1 for t in lines if t.strip() == str(i + 1)) >= 2 * charts, i + 1
    text = flat(text_of(data))
    for label in TALLY_LABELS + ["Player", "Colour", "Date"]:
        assert label in text
    for label in TALLY_LABELS:  # one set of tally boxes: the player's own forces
        assert lines.count(label) == 1, label
    page = read(data).pages[0]
    found = grids(page)  # every label in place, all four sides
    assert len(found) == charts
    assert all(g.symbols(page) == {} for g in found)


@pytest.mark.parametrize("paper", PAPERS)
def test_pair_layout_squares_are_at_least_6_mm(blanks, paper):
    page = read(blanks[paper, "pair"]).pages[0]
    left, right = grids(page)
    width = PAGE_POINTS[paper, "landscape"][0]
    for grid in (left, right):
        assert grid.cell >= 6 * mm - 0.01, f"{grid.cell / mm:.2f} mm"
        assert grid.cell == pytest.approx(chart_cell(float(page.mediabox.width), 2), abs=0.05)
        assert grid.left > 6 * mm and grid.right < width - 6 * mm  # within the margins
    assert left.right + LABEL_BAND < right.left - LABEL_BAND + 0.01  # side by side, apart
    assert pytest.approx(6 * mm) == MIN_PAIR_CELL


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_blank_chart_is_inked_where_the_grid_is(blanks, paper, layout):
    data = blanks[paper, layout]
    image = render(data)
    width, height = PAGE_POINTS[paper, "landscape" if layout == "pair" else "portrait"]
    assert (image.width, image.height) == pytest.approx((width, height), abs=1)
    for grid in grids(read(data).pages[0]):
        assert_grid_inked(image, grid)
    assert_margins_white(image)


@pytest.mark.parametrize("paper", PAPERS)
def test_blank_record_sheet(blanks, paper):
    data = blanks[paper, "record"]
    reader = read(data)
    assert len(reader.pages) == 2  # two pages unless asked otherwise
    assert page_points(reader.pages[0]) == PAGE_POINTS[paper, "portrait"]
    text = flat(text_of(data))
    for header in RECORD_COLUMNS:
        assert header in text
    private = [h for h in RECORD_COLUMNS if "private" in h]
    assert private == ["From (private)", "A-A gun used (private)"]
    assert record_rows(data) == {}  # blank: room to write by hand
    image = render(data)
    rules = horizontal_rules(image, 0.8)  # the table's rules run across the page
    assert len(rules) >= 31  # a rule under the header and under each of 30 rows
    assert_margins_white(image)


@pytest.mark.parametrize("kind", ["pair", "single", "record"])
def test_fonts_are_embedded(blanks, kind):
    assert_fonts_embedded(blanks["a4", kind])


def test_black_on_white(blanks, mid_game):
    for data in (blanks["letter", "pair"],
                 printables.player_charts(view_for(mid_game, "red"))):
        image = render(data, dpi=36, colour=True)
        pixels = image.pixels
        assert all(pixels[i] == pixels[i + 1] == pixels[i + 2]
                   for i in range(0, len(pixels), 3)), "a colour other than grey"
        assert image.at(0, 0) == 255  # white paper


def test_unknown_paper_and_layout_are_refused():
    with pytest.raises(ValueError, match="paper"):
        printables.blank_chart(paper="a3")
    with pytest.raises(ValueError, match="layout"):
        printables.blank_chart(layout="triple")
    with pytest.raises(ValueError, match="paper"):
        printables.blank_record(paper="legal")


# -- a player's charts ---------------------------------------------------------------------

@pytest.mark.parametrize("seat", ["red", "blue"])
def test_knowledge_chart_shows_only_what_was_reported(mid_game, seat):
    view = view_for(mid_game, seat)
    looks = knowledge_looks(knowledge_chart(view, OPPONENT[seat]))
    assert looks and chart_problems(looks, mid_game, seat) == []
    # the check catches a chart drawn from the opponent's own disposition
    fleet_doc = mid_game.fleets[OPPONENT[seat]]
    leaky = own_looks(fleet_doc.document, fleet_doc.damage())
    assert len(chart_problems(leaky, mid_game, seat)) > 20


@pytest.mark.parametrize("seat", ["red", "blue"])
def test_player_charts_pdf_draws_own_fleet_and_only_what_was_reported(mid_game, seat):
    view = view_for(mid_game, seat)
    data = printables.player_charts(view)
    reader = read(data)
    assert len(reader.pages) == 1  # one opponent: one page
    assert page_points(reader.pages[0]) == PAGE_POINTS["a4", "landscape"]
    page = reader.pages[0]
    mine, theirs = grids(page)
    assert mine.cell >= 6 * mm - 0.01
    own = own_looks(FLEETS[seat], view["damage"])
    assert mine.symbols(page) == {s: look.letter for s, look in own.items() if look.letter}
    shown = theirs.symbols(page)
    assert chart_problems(shown, mid_game, seat) == []
    text = flat(text_of(data))
    # labels and symbols aside (their letters and numbers make false "L 12"s), no text on
    # the page names a square: titles, tallies and key
    words = [p.text for p in placed(page) if p.size not in (LABEL_SIZE, TALLY_NUMBER)
             and abs(p.size - mine.cell * CELL_TEXT) > 0.01]
    assert words and squares_in(" ".join(words)) == set()
    assert f"My chart ({seat.title()})" in text and f"My chart of {OPPONENT[seat].title()}" in text
    for label in TALLY_LABELS:
        assert label in text
    image = render(data)
    empty_mine = {square_name(parse_square(f"{c}{r}")) for c in COLUMNS
                  for r in range(1, SIZE + 1)} - set(own)
    assert_grid_inked(image, mine, empty_mine)
    assert_grid_inked(image, theirs, empty_mine - set(shown) - told_on_chart(mid_game, seat)[0])
    assert_fonts_embedded(data)


def test_player_charts_check_catches_a_leaky_chart(mid_game, monkeypatch):
    """Drawn from the opponent's real disposition, the chart of him fails the scan."""
    blue = mid_game.fleets["blue"]
    monkeypatch.setattr(documents, "knowledge_looks",
                        lambda _: own_looks(blue.document, blue.damage()))
    page = read(printables.player_charts(view_for(mid_game, "red"))).pages[0]
    shown = grids(page)[1].symbols(page)
    problems = chart_problems(shown, mid_game, "red")
    assert any("never reported" in p for p in problems)
    assert {"C 12", "D 12", "I 14"} <= set(shown)


def test_player_charts_tallies_count_what_was_used(mid_game):
    # Red bought 2 atom bombers, 4 bombers, 4 R.P.s, 4 A-A guns and 20 salvoes; he has
    # flown an R.P., a bomber and an atom bomber, fired a salvo, and his gun at I 3 fired;
    # Blue's salvo destroyed his bomber at F 1 (crossed, not counted as flown).
    view = view_for(mid_game, "red")
    tallies = documents._tallies(view, "red", FLEETS["red"], view["damage"])
    assert tallies == {"atom-bomber": Tally(2, 1), "bomber": Tally(4, 1, crossed=1),
                       "recon": Tally(4, 1), "aa-gun": Tally(4, 1), "salvo": Tally(20, 1)}
    text = flat(text_of(printables.player_charts(view)))
    circles = lambda n: " ".join(str(i) for i in range(1, n + 1))  # noqa: E731
    assert (f"Atom bombers 2 {circles(2)} Bombers 4 {circles(4)} R.P.s 4 {circles(4)} "
            f"A-A guns 4 {circles(4)} Salvoes 20 {circles(20)}") in text


def test_ink_check_catches_a_chart_without_its_grid(monkeypatch):
    monkeypatch.setattr(ChartFlowable, "_lines", lambda self, x0, y0: None)
    data = printables.blank_chart(paper="a4", layout="single")
    (grid,) = grids(read(data).pages[0])
    with pytest.raises(AssertionError, match="no vertical line"):
        assert_grid_inked(render(data), grid)


def test_player_charts_at_any_time_and_one_page_per_opponent():
    game, _ = new_game(id="g3", seats=3, seed=seed_for(["red", "blue", "green"]))
    for seat in game.seats:
        game.join(seat, seat.title())
    before = printables.player_charts(view_for(game, "red"))  # nothing submitted yet
    assert len(read(before).pages) == 2
    game.submit("red", FLEETS["red"])
    draft = printables.player_charts(view_for(game, "red"))
    page = read(draft).pages[0]
    assert len(grids(page)) == 2 and grids(page)[0].symbols(page)
    for seat in game.seats:
        game.submit(seat, FLEETS["red"] if seat == "red" else FLEETS["blue"])
    for seat in game.seats:
        game.lock_in(seat)
    game.move("red", {"weapon": "recon", "from": "G 1", "at": "K 17", "target": "blue"})
    game.move("blue", {"weapon": "salvo", "at": ["B 1", "C 1", "D 1"], "target": "red"})
    data = printables.player_charts(view_for(game, "green"))
    reader = read(data)
    assert len(reader.pages) == 2
    text = text_of(data)
    assert "My chart of Red" in text and "My chart of Blue" in text
    for page in reader.pages:  # Green was told of no square of anyone's chart
        assert grids(page)[1].symbols(page) == {}
    record = printables.player_record(record_for(game, "green"))
    assert squares_in(text_of(record)) == set()
    assert "(not told)" in text_of(record)


# -- a player's move record ----------------------------------------------------------------

@pytest.mark.parametrize("seat", ["red", "blue"])
def test_player_record_holds_nothing_untold(mid_game, seat):
    data = printables.player_record(record_for(mid_game, seat))
    text = text_of(data)
    assert leaks_in_text(text, mid_game, seat) == set()
    assert squares_in(text) & SECRET[OPPONENT[seat]] == set()
    assert squares_in(text) & told_in_text(mid_game, seat)  # his own moves are there
    for page in read(data).pages:
        assert page_points(page) == PAGE_POINTS["a4", "portrait"]
    assert_fonts_embedded(data)


def test_record_leak_check_catches_the_opponents_record(mid_game):
    leaky = text_of(printables.player_record(record_for(mid_game, "blue")))
    assert SECRET["blue"] <= leaks_in_text(leaky, mid_game, "red")


def test_player_record_private_columns_mid_game(mid_game):
    record = record_for(mid_game, "red")
    for move in record["moves"]:
        if move["by"] != "red":
            assert move.get("from") is None
        if move.get("gun"):
            assert move["target"] == "red"  # only his own guns
    rows = record_rows(printables.player_record(record))
    assert sorted(rows) == list(range(1, 9))
    frm, gun = RECORD_COLUMNS[3], RECORD_COLUMNS[5]
    assert {n: row[frm] for n, row in rows.items()} == {
        1: "G 1", 2: "", 3: "", 4: "", 5: "C 1", 6: "", 7: "B 1", 8: ""}
    assert {n: row[gun] for n, row in rows.items()} == {
        1: "", 2: "", 3: "", 4: "I 3", 5: "", 6: "", 7: "", 8: ""}  # not Blue's gun at 5
    assert rows[5]["Result"] == "Bomber at H 15: Shot down by an A-A gun."
    assert rows[4]["Player"] == "Blue" and rows[4]["Weapon"] == "Bomber"
    assert rows[4]["Target"] == "Red"
    image = render(printables.player_record(record))
    assert len(horizontal_rules(image, 0.8)) >= 9  # header and eight moves
    assert_margins_white(image)


def test_player_record_after_the_end_reveals_everything(over_game):
    data = printables.player_record(record_for(over_game, "red"))
    rows = record_rows(data)
    frm, gun = RECORD_COLUMNS[3], RECORD_COLUMNS[5]
    assert [rows[n][frm] for n in (2, 4, 8)] == ["C 12", "D 12", "G 12"]
    assert rows[5][gun] == "I 14"
    assert SECRET["blue"] <= squares_in(text_of(data))
    assert "Result" in text_of(data)


def test_record_of_a_long_game_runs_over_pages_with_every_move():
    game = scripted_game()
    while game.phase == "play" and game.fleets[game.turn].salvoes_left:  # 46 moves in all
        game.move(game.turn, {"weapon": "salvo", "at": ["S 11", "T 11", "U 11"]})
    data = printables.player_record(record_for(game, "red"))
    assert len(read(data).pages) >= 2
    assert sorted(record_rows(data)) == list(range(1, len(game.reports) + 1))
    assert leaks_in_text(text_of(data), game, "red") == set()


# -- the post-mortem -----------------------------------------------------------------------

def test_postmortem_refused_before_the_end(mid_game):
    with pytest.raises(ValueError, match="over"):
        printables.postmortem(view_for(mid_game, "red"), record_for(mid_game, "red"))


@pytest.mark.parametrize("seat", ["red", "blue"])
def test_postmortem_holds_result_every_final_chart_and_every_move(over_game, seat):
    data = printables.postmortem(view_for(over_game, seat), record_for(over_game, seat))
    reader = read(data)
    text = flat(text_of(data))
    assert "wins by" in text or "draw" in text
    scores = over_game.outcome().to_json()["scores"]
    for other in ("red", "blue"):
        assert f"{other.title()} ({other.title()}): {scores[other]} points" in text
    page = reader.pages[0]
    assert page_points(page) == PAGE_POINTS["a4", "landscape"]
    charts = grids(page)
    assert len(charts) == 2  # side by side, in seat order
    for grid, other in zip(charts, ("red", "blue"), strict=True):
        final = own_looks(FLEETS[other], over_game.fleets[other].damage())
        assert grid.symbols(page) == {s: look.letter for s, look in final.items()
                                      if look.letter}
    image = render(data)
    for grid in charts:
        assert_grid_inked(image, grid, set())
    assert_margins_white(image)
    rows = record_rows(data)
    assert sorted(rows) == list(range(1, len(over_game.reports) + 1))
    assert [rows[n][RECORD_COLUMNS[3]] for n in (2, 4, 8)] == ["C 12", "D 12", "G 12"]
    assert_fonts_embedded(data)


# -- the URLs ------------------------------------------------------------------------------

def test_blank_urls(client):
    for paper in PAPERS:
        for layout in LAYOUTS:
            r = client.get(f"/printables/blank-chart.pdf?paper={paper}&layout={layout}")
            assert r.status_code == 200 and r.mimetype == "application/pdf"
            orientation = "landscape" if layout == "pair" else "portrait"
            assert page_points(read(r.data).pages[0]) == PAGE_POINTS[paper, orientation]
        r = client.get(f"/printables/blank-record.pdf?paper={paper}")
        assert r.status_code == 200 and r.mimetype == "application/pdf"
        assert page_points(read(r.data).pages[0]) == PAGE_POINTS[paper, "portrait"]
        assert "Result" in text_of(r.data)
    r = client.get("/printables/blank-chart.pdf")  # the defaults: A4, the pair
    assert page_points(read(r.data).pages[0]) == PAGE_POINTS["a4", "landscape"]


@pytest.mark.parametrize("url, field", [
    ("/printables/blank-chart.pdf?paper=a3", "paper"),
    ("/printables/blank-chart.pdf?paper=a4&layout=triple", "layout"),
    ("/printables/blank-record.pdf?paper=A4", "paper"),
])
def test_blank_urls_refuse_bad_choices(client, url, field):
    r = client.get(url, headers={"Accept": "application/json"})
    assert r.status_code == 400
    (error,) = r.get_json()["errors"]
    assert error["field"] == field and repr(field) in error["message"]
    page = client.get(url)  # a browser gets a page naming the field
    assert page.status_code == 400 and field in page.get_data(as_text=True)


def play_scripted(table, pairs: int = 4) -> None:
    """Lay out the scripted fleets through the API and make the scripted moves in turn."""
    for seat in ("red", "blue"):
        status, data, _ = table.as_seat(seat, "PUT", "/disposition", FLEETS[seat])
        assert status == 200, data
        status, data, _ = table.as_seat(seat, "POST", "/ready")
        assert status == 200, data
    left = {seat: list(SCRIPT[seat][:pairs]) for seat in SCRIPT}
    while left["red"] or left["blue"]:
        turn = table.view("red")["turn"]
        status, data, _ = table.as_seat(turn, "POST", "/moves", left[turn].pop(0))
        assert status == 201, data


def test_player_pdf_urls(api, client):
    table = open_table(api)
    path = f"/api/v1/games/{table.id}"
    r = client.get(f"{path}/charts.pdf", headers={"Authorization": f"Bearer {table.tokens['red']}"})
    assert r.status_code == 200 and r.data.startswith(b"%PDF")  # at any time, setup too
    play_scripted(table)
    game = scripted_game()  # the same moves in the core, for the told squares
    for seat in ("red", "blue"):
        auth = {"Authorization": f"Bearer {table.tokens[seat]}"}
        for pdf, orientation in (("charts", "landscape"), ("record", "portrait")):
            r = client.get(f"{path}/{pdf}.pdf", headers=auth)
            assert r.status_code == 200 and r.mimetype == "application/pdf", r.data[:200]
            assert "no-store" in r.headers["Cache-Control"]
            assert page_points(read(r.data).pages[0]) == PAGE_POINTS["a4", orientation]
            if pdf == "record":
                text = text_of(r.data)
                assert leaks_in_text(text, game, seat) == set()
                assert squares_in(text) & SECRET[OPPONENT[seat]] == set()
            else:
                page = read(r.data).pages[0]
                assert chart_problems(grids(page)[1].symbols(page), game, seat) == []
        r = client.get(f"{path}/record.pdf?paper=letter", headers=auth)
        assert page_points(read(r.data).pages[0]) == PAGE_POINTS["letter", "portrait"]
        r = client.get(f"{path}/charts.pdf?paper=letter", headers=auth)
        assert page_points(read(r.data).pages[0]) == PAGE_POINTS["letter", "landscape"]
        r = client.get(f"{path}/postmortem.pdf", headers=auth)
        assert r.status_code == 409 and r.get_json()["errors"][0]["rule"] == "R21"


def test_player_pdf_urls_by_session_cookie(api, client):
    table = open_table(api)
    play_scripted(table, pairs=1)
    path = f"/api/v1/games/{table.id}"
    assert client.get(f"{path}/record.pdf").status_code == 401
    with client.session_transaction() as session:
        session["seats"] = {table.id: table.tokens["blue"]}
    for pdf in ("charts", "record"):
        r = client.get(f"{path}/{pdf}.pdf")
        assert r.status_code == 200 and r.mimetype == "application/pdf"
    assert "Move record of Blue" in text_of(r.data)
    assert squares_in(text_of(r.data)) & SECRET["red"] == set()


def test_player_pdf_urls_refuse(api, client):
    table, other = open_table(api), open_table(api)
    play_scripted(table, pairs=1)
    path = f"/api/v1/games/{table.id}"
    bearer = lambda token: {"Authorization": f"Bearer {token}"}  # noqa: E731
    for pdf in ("charts", "record", "postmortem"):
        r = client.get(f"{path}/{pdf}.pdf")
        assert r.status_code == 401 and r.get_json()["errors"][0]["field"] == "Authorization"
        r = client.get(f"{path}/{pdf}.pdf", headers=bearer(other.tokens["red"]))
        assert r.status_code == 403  # another game's token
        r = client.get(f"{path}/{pdf}.pdf", headers=bearer(table.host_token))
        assert r.status_code == 403  # the host does not play
        r = client.get(f"{path}/{pdf}.pdf", headers=bearer("not-a-token"))
        assert r.status_code == 401
        r = client.get(f"/api/v1/games/no-such-game/{pdf}.pdf", headers=bearer("x"))
        assert r.status_code == 404
        r = client.get(f"/api/v1/games/no-such-game/{pdf}.pdf",
                       headers=bearer(table.tokens["red"]))
        assert r.status_code == 404
    for pdf in ("charts", "record"):
        r = client.get(f"{path}/{pdf}.pdf?paper=tabloid", headers=bearer(table.tokens["red"]))
        assert r.status_code == 400
        (error,) = r.get_json()["errors"]
        assert error["field"] == "paper" and "'paper'" in error["message"]


def test_postmortem_url_once_over(api, client):
    table = open_table(api)
    play_scripted(table)
    path = f"/api/v1/games/{table.id}"
    auth = {"Authorization": f"Bearer {table.tokens['red']}"}
    assert client.get(f"{path}/postmortem.pdf", headers=auth).status_code == 409
    for seat in ("red", "blue"):
        status, data, _ = table.as_seat(seat, "POST", "/end")
        assert status == 200, data
    r = client.get(f"{path}/postmortem.pdf", headers=auth)
    assert r.status_code == 200 and r.mimetype == "application/pdf"
    text = flat(text_of(r.data))
    assert "wins by" in text or "draw" in text
    assert "Red (Red)" in text and "Blue (Blue)" in text
    assert sorted(record_rows(r.data)) == list(range(1, 9))
    for table_head in ("What each weapon bought", "Hindsight", "Fingerprints"):
        assert table_head in text
    assert SECRET["blue"] <= squares_in(text)  # after the end, everything (R21)
    r = client.get(f"{path}/postmortem.pdf?paper=letter",
                   headers={"Authorization": f"Bearer {table.tokens['blue']}"})
    assert page_points(read(r.data).pages[0]) == PAGE_POINTS["letter", "landscape"]
    assert client.get(f"{path}/postmortem.pdf?paper=b5", headers=auth).status_code == 400


def test_blank_chart_over_real_http(live_server):
    import urllib.request

    url = f"{live_server.url}/printables/blank-chart.pdf?paper=letter&layout=single"
    with urllib.request.urlopen(url, timeout=20) as r:
        assert r.status == 200 and r.headers["Content-Type"] == "application/pdf"
        data = r.read()
    assert page_points(read(data).pages[0]) == PAGE_POINTS["letter", "portrait"]


# -- the command line ----------------------------------------------------------------------

@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_cli_blank_chart(runner, tmp_path, paper, layout):
    out = tmp_path / "chart.pdf"
    result = runner.invoke(args=["blank-chart", "--paper", paper, "--layout", layout,
                                 "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    orientation = "landscape" if layout == "pair" else "portrait"
    assert page_points(read(data).pages[0]) == PAGE_POINTS[paper, orientation]
    assert len(grids(read(data).pages[0])) == (2 if layout == "pair" else 1)


@pytest.mark.parametrize("paper", PAPERS)
def test_cli_blank_record(runner, tmp_path, paper):
    out = tmp_path / "record.pdf"
    result = runner.invoke(args=["blank-record", "--paper", paper, "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert page_points(read(data).pages[0]) == PAGE_POINTS[paper, "portrait"]
    assert "A-A gun used (private)" in flat(text_of(data))


def test_cli_refuses_bad_options(runner, tmp_path):
    out = tmp_path / "x.pdf"
    result = runner.invoke(args=["blank-chart", "--paper", "a3", "-o", str(out)])
    assert result.exit_code == 2 and "--paper" in result.output and not out.exists()
    result = runner.invoke(args=["blank-chart", "--layout", "triple", "-o", str(out)])
    assert result.exit_code == 2 and "--layout" in result.output
    result = runner.invoke(args=["blank-record"])
    assert result.exit_code == 2 and "--output" in result.output


def test_referee_command_writes_a_blank_chart(tmp_path):
    out = tmp_path / "chart.pdf"
    env = {"REFEREE_DATABASE": str(tmp_path / "cli.db"), "REFEREE_SECRET_KEY": "cli-test",
           "PATH": "/usr/bin:/bin"}
    done = subprocess.run([str(REFEREE), "blank-chart", "--paper", "letter", "--layout",
                           "pair", "-o", str(out)], env=env, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = read(out.read_bytes()).pages[0]
    assert page_points(page) == PAGE_POINTS["letter", "landscape"]
    assert all(g.cell >= 6 * mm - 0.01 for g in grids(page))
