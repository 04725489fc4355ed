"""The printables match the game: a blank move record of as many pages as asked, "Page 1 of 2" on
every page of every printable, tallies that ring what flew or fired and cross what was destroyed, a
key with one symbol per meaning, and a sunk ship's squares black even where a plane stood on them.

The game here is test_printables' scripted game with Red's bomber from F 1 on his carrier's
L 1; Blue then sinks the carrier (the bomber with it), destroys two R.P.s and three A-A guns
(one of which, at I 3, had fired) and hits a Battleship. Symbols drawn as lines (rings,
crosses, blackened corners) are found in pixels rendered by pdftoppm; letters and words with
pypdf.
"""

from __future__ import annotations

import copy
import math
import re
from pathlib import Path

import pytest
import reportlab
from reportlab.lib.units import mm
from reportlab.pdfbase.ttfonts import TTFontFile
from test_printables import (
    FLEETS,
    PAGE_POINTS,
    PAPERS,
    SCRIPT,
    Grid,
    flat,
    grids,
    horizontal_rules,
    placed,
    read,
    record_rows,
    render,
    seed_for,
    text_of,
)

from printables.style import FONT_DIR
from referee.naval_war import new_game, record_for, view_for
from referee.naval_war.fleet import SHIP_TYPES
from referee.naval_war.postmortem import postmortem_document
from referee.naval_war.squares import SIZE, parse_square
from referee.naval_war.web import paper as printables
from referee.naval_war.web.paper.charts import KEY

TALLY_NUMBER = 4.6  # the size of the numbers in the tally circles
PAGE_OF = re.compile(r"Page (\d+) of (\d+)")
DPI = 600


# -- the game -----------------------------------------------------------------------------

def red_on_carrier() -> dict:
    """Red's scripted fleet with the bomber from F 1 on his carrier's L 1."""
    red = copy.deepcopy(FLEETS["red"])
    for plane in red["aircraft"]:
        if plane["at"] == "F 1":
            plane["at"] = "L 1"
    return red


# Each side's moves, in pairs, Red first.
MOVES = {"red": SCRIPT["red"] + [{"weapon": "salvo", "at": [f"A {13 + i}", f"K {12 + i}",
                                                              "U 20"]} for i in range(3)],
         "blue": SCRIPT["blue"] + [{"weapon": "salvo", "at": ["L 1", "M 1", "L 2"]},
                                   {"weapon": "salvo", "at": ["M 2", "H 1", "A 3"]},
                                   {"weapon": "atom-bomber", "from": "A 12", "at": "H 2"}]}


def carrier_game():
    """Red's bomber stands on his carrier; Blue sinks it, destroys R.P.s and guns."""
    game, _ = new_game(id="g12", seats=2, seed=seed_for(["red", "blue"]))
    for seat, fleet in (("red", red_on_carrier()), ("blue", FLEETS["blue"])):
        game.join(seat, seat.title())
        game.submit(seat, fleet)
    for seat in game.seats:
        game.lock_in(seat, seed_for(["red", "blue"]))
    for mine, theirs in zip(MOVES["red"], MOVES["blue"], strict=True):
        game.move("red", mine)
        game.move("blue", theirs)
    damage = game.fleets["red"].damage()
    assert damage["destroyed"] == ["H 1", "I 1", "L 1", "I 2", "A 3", "I 3"]
    assert damage["flown"] == ["B 1", "C 1", "G 1"] and damage["spent"] == []
    assert {"L 1", "M 1", "L 2", "M 2", "F 5"} <= set(damage["hit"])
    return game


@pytest.fixture(scope="module")
def game():
    return carrier_game()


@pytest.fixture(scope="module")
def red_charts(game) -> bytes:
    return printables.player_charts(view_for(game, "red"))


# -- pixels -------------------------------------------------------------------------------

class Page:
    """One page rendered at DPI, read in PDF points."""

    def __init__(self, data: bytes, page: int = 1) -> None:
        self.image = render(data, page=page, dpi=DPI)

    def dark(self, x: float, y: float) -> bool:
        px, py = self.image.px(x, y)
        return self.image.darkest(px, py, 1) < 128

    def white(self, x: float, y: float) -> bool:
        px, py = self.image.px(x, y)
        return self.image.lightest(px, py, 1) == 255


def in_square(grid: Grid, square: str, fx: float, fy: float) -> tuple[float, float]:
    """A point of a square, as fractions of it from its bottom-left corner."""
    at = parse_square(square)
    return (grid.left + (at.col + fx) * grid.cell,
            grid.bottom + (SIZE - 1 - at.row + fy) * grid.cell)


def crossed_square(page: Page, grid: Grid, square: str) -> bool:
    """Both diagonals drawn through the square's lower half, clear of its letter."""
    return all(page.dark(*in_square(grid, square, fx, 0.26)) for fx in (0.26, 0.74))


def corner_blackened(page: Page, grid: Grid, square: str) -> bool:
    """The lower right corner filled in: a ship square hit but not sunk."""
    return all(page.dark(*in_square(grid, square, fx, fy))
               for fx, fy in ((0.9, 0.25), (0.75, 0.1), (0.92, 0.08)))


def tally_marks(data: bytes, label: str) -> list[list[str]]:
    """Each circle of each tally row so labelled (one per chart, left to right) read back
    from the pixels: "ring", "cross", "ring+cross" or "" for a circle left plain. A ring is
    drawn round the circle, a cross through it and beyond the ring: found on its four arms
    outside the ring, clear of the numbers."""
    page = Page(data)
    items = placed(read(data).pages[0])
    rows = sorted((p for p in items if p.text == label and p.bold), key=lambda p: p.x)
    found = []
    for row in rows:
        numbers = sorted((p for p in items if p.size == TALLY_NUMBER and abs(p.y - row.y) < 3
                          and row.x < p.x < row.x + 130 * mm), key=lambda p: p.x)
        assert [int(p.text) for p in numbers] == list(range(1, len(numbers) + 1))
        step = numbers[1].centre - numbers[0].centre
        radius = min(step, 5.2 * mm) * 0.36
        marks = []
        for p in numbers:
            cx, cy = p.centre, p.y + 0.55 * mm
            ring = [page.dark(cx, cy + 1.25 * radius * sy) for sy in (-1, 1)]
            cross = [page.dark(cx + sx * d * radius / math.sqrt(2),
                               cy + sy * d * radius / math.sqrt(2))
                     for sx in (-1, 1) for sy in (-1, 1) for d in (1.5, 1.56)]
            assert all(ring) or not any(ring), (label, cx, ring)
            assert all(cross) or not any(cross), (label, cx, cross)
            marks.append("+".join(m for m, ok in (("ring", all(ring)), ("cross", all(cross)))
                                  if ok))
        found.append(marks)
    return found


# -- the blank move record ----------------------------------------------------------------

def page_numbers(data: bytes) -> list[tuple[int, int]]:
    found = []
    for page in read(data).pages:
        (number,) = PAGE_OF.findall(page.extract_text())
        found.append((int(number[0]), int(number[1])))
    return found


@pytest.mark.parametrize("paper", PAPERS)
def test_blank_record_defaults_to_two_pages_of_about_sixty_rows(paper):
    data = printables.blank_record(paper=paper)
    reader = read(data)
    assert len(reader.pages) == 2  # a game of 34 moves overflowed the one page of before
    assert page_numbers(data) == [(1, 2), (2, 2)]
    rows = 0
    for n, page in enumerate(reader.pages, 1):
        assert tuple(round(float(v)) for v in page.mediabox[2:]) == PAGE_POINTS[
            paper, "portrait"]
        text = flat(page.extract_text())
        assert "A-A gun used (private)" in text and "Player" in text  # every page stands alone
        rules = horizontal_rules(render(data, page=n), 0.8)
        assert len(rules) >= 31, f"page {n}: {len(rules)} rules"
        rows += len(rules) - 2  # the rules under the header and under each row
    assert 58 <= rows <= 72
    assert record_rows(data) == {}  # blank: room to write by hand


@pytest.mark.parametrize("pages", [1, 3, 5, 20])
def test_blank_record_runs_to_the_pages_asked(pages):
    data = printables.blank_record(paper="a4", pages=pages)
    assert page_numbers(data) == [(n, pages) for n in range(1, pages + 1)]
    rendered = render(data, page=pages)  # the last page is full too, not a stub
    assert len(horizontal_rules(rendered, 0.8)) >= 31


@pytest.mark.parametrize("pages", [0, -1, 21, 1000, 2.0, "2", True, None])
def test_blank_record_refuses_absurd_page_counts(pages):
    with pytest.raises(ValueError, match=r"pages is a whole number from 1 to 20"):
        printables.blank_record(pages=pages)


def test_blank_record_url_takes_pages(client):
    r = client.get("/printables/blank-record.pdf")
    assert r.status_code == 200 and len(read(r.data).pages) == 2
    r = client.get("/printables/blank-record.pdf?paper=letter&pages=4")
    assert r.status_code == 200 and page_numbers(r.data)[-1] == (4, 4)
    assert "pages-4" in r.headers["Content-Disposition"]
    assert PAGE_POINTS["letter", "portrait"] == tuple(
        round(float(v)) for v in read(r.data).pages[0].mediabox[2:])


@pytest.mark.parametrize("value", ["0", "21", "-2", "abc", "2.5", "", "1e3", " 2", "\u0663",
                                   "99999999999999999999999", "2&pages=3"])
def test_blank_record_url_refuses_bad_pages(client, value):
    from urllib.parse import quote

    url = f"/printables/blank-record.pdf?pages={quote(value, safe='&=')}"
    r = client.get(url, headers={"Accept": "application/json"})
    assert r.status_code == 400, r.data[:200]
    (error,) = r.get_json()["errors"]
    assert error["field"] == "pages" and "1 to 20" in error["message"]
    page = client.get(url)  # a browser gets a page naming the field
    assert page.status_code == 400 and "pages" in page.get_data(as_text=True)


def test_cli_blank_record_pages(runner, tmp_path):
    out = tmp_path / "record.pdf"
    result = runner.invoke(args=["blank-record", "--pages", "3", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert page_numbers(out.read_bytes())[-1] == (3, 3)
    out.unlink()
    result = runner.invoke(args=["blank-record", "-o", str(out)])
    assert result.exit_code == 0 and len(read(out.read_bytes()).pages) == 2
    out.unlink()
    for bad in ("21", "0", "two"):
        result = runner.invoke(args=["blank-record", "-o", str(out), "--pages", bad])
        assert result.exit_code == 2 and "--pages" in result.output, result.output
        assert not out.exists()  # nothing half written


def test_home_page_asks_how_many_record_pages(client):
    html = client.get("/").get_data(as_text=True)
    form = re.search(r'<form[^>]*action="/printables/blank-record.pdf"[^>]*>(.*?)</form>',
                     html, re.S)
    assert form and 'method="get"' in form.group(0)
    (pages,) = re.findall(r"<input[^>]*name=\"pages\"[^>]*>", form.group(1))
    for attribute in ('type="number"', 'min="1"', 'max="20"', 'value="2"'):
        assert attribute in pages
    assert re.search(r'<label for="record-pages"', form.group(1))
    buttons = re.findall(r"<button[^>]*>[^<]*</button>", form.group(1))
    assert [re.search(r'name="paper" value="(\w+)"', b).group(1) for b in buttons] == [
        "a4", "letter"]


# -- page numbers on every printable ------------------------------------------------------

def test_every_printable_numbers_its_pages(game):
    over = carrier_game()
    over.agree_to_end("red")
    over.agree_to_end("blue")
    three = new_game(id="g3", seats=3, seed=3)[0]
    for seat in three.seats:
        three.join(seat, seat.title())
    for data in (printables.blank_chart(layout="pair"), printables.blank_chart(layout="single"),
                 printables.player_charts(view_for(game, "red")),
                 printables.player_charts(view_for(three, "red")),  # two pages
                 printables.player_record(record_for(game, "blue")),
                 printables.postmortem(view_for(over, "red"), record_for(over, "red"),
                                       analysis=postmortem_document(over))):
        pages = len(read(data).pages)
        assert page_numbers(data) == [(n, pages) for n in range(1, pages + 1)]


# -- tallies ------------------------------------------------------------------------------

def test_tallies_ring_what_flew_or_fired_and_cross_what_was_destroyed(red_charts):
    # Red flew an atom bomber, a bomber and an R.P. and fired four salvoes; his gun at I 3
    # fired and was then destroyed, with those at I 2 and A 3; his R.P.s at H 1 and I 1 and
    # the bomber on his carrier were destroyed on the ground.
    assert tally_marks(red_charts, "Atom bombers") == [["ring", ""]]
    assert tally_marks(red_charts, "Bombers") == [["ring", "cross", "", ""]]
    assert tally_marks(red_charts, "R.P.s") == [["ring", "cross", "cross", ""]]
    assert tally_marks(red_charts, "A-A guns") == [["ring+cross", "cross", "cross", ""]]
    assert tally_marks(red_charts, "Salvoes") == [["ring"] * 4 + [""] * 16]


def test_postmortem_tallies_of_both_players():
    over = carrier_game()
    over.agree_to_end("red")
    over.agree_to_end("blue")
    data = printables.postmortem(view_for(over, "blue"), record_for(over, "blue"))
    # Red's as above; Blue flew two bombers, an R.P. and an atom bomber and fired three
    # salvoes; his gun at I 14 fired, Red's salvo destroyed his gun at A 14 and R.P. at A 13
    assert tally_marks(data, "A-A guns") == [["ring+cross", "cross", "cross", ""],
                                             ["ring", "cross", "", ""]]
    assert tally_marks(data, "R.P.s") == [["ring", "cross", "cross", ""],
                                          ["ring", "cross", "", ""]]
    assert tally_marks(data, "Bombers") == [["ring", "cross", "", ""], ["ring", "ring", "", ""]]


# -- the key and the symbols on the charts ------------------------------------------------

def test_key_gives_hit_and_destroyed_each_its_own_symbol():
    entries = [e.strip() for e in re.split(r"\s{2,}|;", KEY) if e.strip()]
    hit = [e for e in entries if re.search(r"\bhit\b", e)]
    destroyed = [e for e in entries if "destroyed" in e]
    assert len(hit) == 1 and len(destroyed) == 1 and hit != destroyed
    assert "cross" in destroyed[0] and "cross" not in hit[0]
    assert "black" in hit[0]  # a hit ship square is partly blackened, as the rules have it


def test_every_character_printed_is_in_the_embedded_font(red_charts):
    cmap = TTFontFile(str(Path(FONT_DIR) / "Vera.ttf")).charToGlyph
    for data in (red_charts, printables.blank_chart(), printables.blank_record()):
        missing = {ch for ch in text_of(data) if not ch.isspace() and ord(ch) not in cmap}
        assert missing == set()
    assert Path(reportlab.__file__).parent / "fonts" == Path(FONT_DIR)


def test_sunk_carrier_is_black_where_its_bomber_stood(game, red_charts):
    page_pdf = read(red_charts).pages[0]
    mine, _ = grids(page_pdf)
    carrier = ("L 1", "M 1", "L 2", "M 2")
    assert {s: mine.symbols(page_pdf).get(s) for s in carrier} == dict.fromkeys(carrier, "K")
    page = Page(red_charts)
    for square in carrier:
        for fx, fy in ((0.12, 0.12), (0.88, 0.88), (0.12, 0.88), (0.5, 0.1)):
            assert page.dark(*in_square(mine, square, fx, fy)), (square, fx, fy)
    blue = printables.player_charts(view_for(game, "blue"))
    blue_pdf = read(blue).pages[0]
    _, of_red = grids(blue_pdf)
    assert of_red.symbols(blue_pdf).get("L 1") == "K"
    assert Page(blue).dark(*in_square(of_red, "L 1", 0.12, 0.12))


def test_hit_ship_and_destroyed_plane_look_different(game, red_charts):
    page_pdf = read(red_charts).pages[0]
    mine, _ = grids(page_pdf)
    page = Page(red_charts)
    for square in ("F 5", "G 5", "H 5"):  # a Battleship hit, not sunk
        assert corner_blackened(page, mine, square) and not crossed_square(page, mine, square)
    for square in ("H 1", "I 1", "I 2", "A 3", "I 3"):  # R.P.s and guns destroyed
        assert crossed_square(page, mine, square) and not corner_blackened(page, mine, square)
    for square in ("B 1", "C 1", "G 1", "D 1"):  # flown, or still there
        assert not crossed_square(page, mine, square)
        assert not corner_blackened(page, mine, square)
    # Blue's chart of Red: the R.P. at H 1 and the gun at A 3 his salvo destroyed
    blue = printables.player_charts(view_for(game, "blue"))
    blue_pdf = read(blue).pages[0]
    _, of_red = grids(blue_pdf)
    blue_page = Page(blue)
    assert of_red.symbols(blue_pdf)["H 1"] == "r" and of_red.symbols(blue_pdf)["A 3"] == "G"
    for square in ("H 1", "A 3"):
        assert crossed_square(blue_page, of_red, square)
        assert not corner_blackened(blue_page, of_red, square)
    red_view = view_for(game, "red")  # Red's salvoes: hits on Blue's ships are blackened
    hit = {s for r in red_view["reports"] if r["by"] == "red" and r.get("shots")
           for shot in r["shots"] if shot["result"] in SHIP_TYPES and not shot["sunk"]
           for s in [shot["at"]]}
    assert hit
    _, of_blue = grids(page_pdf)
    for square in hit:
        assert corner_blackened(page, of_blue, square) and not crossed_square(page, of_blue,
                                                                            square)
