"""Broadsides and Boarding Parties on paper (A4 and US Letter): the blank sea and decks drawn as
boards, the plot-and-fire log, a player's position from his view alone and the post-mortem
booklet with every plot, roll and the dice audit; read back with pypdf, and rendered with
pdftoppm to find the ink where the board is."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pypdf
import pytest
from boarding_web_support import SAILING, game_at_the_core, play

from printables.style import MARGIN
from referee.broadsides_boarding.game import Game
from referee.broadsides_boarding.postmortem import postmortem_document
from referee.broadsides_boarding.sea import COLUMNS, SEA
from referee.broadsides_boarding.views import postmortem_view, record_for, view_for
from referee.broadsides_boarding.web import paper
from referee.common import dice

PAGE = {"a4": (595, 842), "letter": (612, 792)}


def pages_of(data: bytes) -> list:
    return pypdf.PdfReader(io.BytesIO(data)).pages


def text_of(data: bytes) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pages_of(data)))


def assert_named_and_numbered(data: bytes, title: str) -> None:
    """Every page says what it is and where it belongs: the title and "Page n of N"."""
    pages = pages_of(data)
    for n, page in enumerate(pages, 1):
        text = re.sub(r"\s+", " ", page.extract_text())
        assert title in text and f"Page {n} of {len(pages)}" in text, (n, text[-200:])


@pytest.fixture(scope="module")
def finished():
    return play(game_at_the_core(names=('Ann & "Co"', "Bob &lt;i&gt;")))


def booklet(game, paper_size: str = "a4") -> bytes:
    return paper.postmortem(postmortem_view(game, "red"), record_for(game, "red"),
                            paper=paper_size, analysis=postmortem_document(game))


@pytest.mark.parametrize("size", ["a4", "letter"])
def test_bb1_the_blank_sheet_is_the_sea_then_both_decks_on_the_paper_asked(size):
    data = paper.blank_chart(paper=size)
    pages = pages_of(data)
    assert len(pages) == 2
    for page in pages:
        assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == \
            PAGE[size]
    sea, decks = (re.sub(r"\s+", " ", p.extract_text()) for p in pages)
    assert all(re.search(rf"\b{c}\b", sea) for c in COLUMNS)
    assert all(island["name"] in sea for island in SEA["islands"])
    assert "Royal Isabella" in decks and "Seahawk" in decks and "port" in decks
    assert_named_and_numbered(data, "blank sea and decks")
    single = pages_of(paper.blank_chart(paper=size, layout="single"))
    assert "Your ship" in single[1].extract_text() and "Seahawk" not in \
        single[1].extract_text()


def render(data: bytes, tmp_path, page: int | None = 1) -> list:
    """A page of the PDF (every page: ``page=None``) at 60 dpi in greys, as pdftoppm draws
    it; a list of them for every page."""
    from PIL import Image

    for old in tmp_path.glob("sheet*"):
        old.unlink()
    (tmp_path / "sheet.pdf").write_bytes(data)
    chosen = ["-f", str(page), "-l", str(page)] if page else []
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-gray", *chosen,
                    str(tmp_path / "sheet.pdf"), str(tmp_path / "sheet")], check=True)
    images = [Image.open(p).convert("L") for p in sorted(tmp_path.glob("sheet*.png"))]
    return images if page is None else images[0]


def dark_around(image, frame, dot: str, reach: float = 0.4) -> int:
    """How many pixels are dark within ``reach`` of a dot's spacing round it (an open dot has
    a dozen or so, a ship drawn there many more)."""
    left, top, unit = frame
    column, row = dot.split(" ")
    x = left + (COLUMNS.index(column) + 0.5) * unit
    y = top + (int(row) - 0.5) * unit
    span = range(-int(reach * unit), int(reach * unit) + 1)
    return sum(image.getpixel((round(x + dx), round(y + dy))) < 120 for dx in span
               for dy in span)


def sea_frame(image) -> tuple[int, int, float]:
    """The water's rectangle on the page: its left and top edges and one dot's spacing, found
    as the long dark lines of its border."""
    width, height = image.size
    pixels = image.load()
    columns = [x for x in range(width)
               if sum(pixels[x, y] < 110 for y in range(height)) > height * 0.3]
    left, right = min(columns), max(columns)
    # a border's row is dark from side to side (a title's letters are not)
    rows = [y for y in range(height)
            if sum(pixels[x, y] < 110 for x in range(left, right + 1)) > (right - left) * 0.9]
    top = min(rows)
    return left, top, (right - left) / len(COLUMNS)


def at(image, frame, dot: str, dx: float = 0.0, dy: float = 0.0) -> int:
    left, top, unit = frame
    column, row = dot.split(" ")
    x = left + (COLUMNS.index(column) + 0.5 + dx) * unit
    y = top + (int(row) - 0.5 + dy) * unit
    return image.getpixel((round(x), round(y)))


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler's pdftoppm")
@pytest.mark.parametrize("size", ["a4", "letter"])
def test_bb1_the_sea_is_inked_where_the_board_is(tmp_path, size):
    """At 60 dpi: each island's dots are grey land, the sea between dots white, each dot of
    open sea a black point, the starting circles black rings."""
    image = render(paper.blank_chart(paper=size), tmp_path)
    frame = sea_frame(image)
    for island in SEA["islands"]:
        for dot in island["dots"]:
            assert 150 < at(image, frame, dot, 0.2, 0.2) < 240, dot
    for dot in ("A 1", "F 6", "J 8", "O 11"):
        assert at(image, frame, dot, 0.3, 0.3) > 240, dot
        assert min(at(image, frame, dot, dx / 10, dy / 10)
                   for dx in (-1, 0, 1) for dy in (-1, 0, 1)) < 90, dot
    for start in SEA["starts"].values():
        ring = [at(image, frame, start["at"], 0.43 * dx, 0.43 * dy)
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        assert max(ring) < 120, ring


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler's pdftoppm")
@pytest.mark.parametrize("size", ["a4", "letter"])
def test_bb15_the_decks_are_drawn_not_tabled(tmp_path, size):
    """The decks' page is mostly ink: hulls, raised decks and planks filled in, not the thin
    lines of a table."""
    image = render(paper.blank_chart(paper=size), tmp_path, page=2)
    width, height = image.size
    middle = image.crop((0, height // 8, width, height * 3 // 4))
    inked = sum(middle.histogram()[:245]) / (middle.size[0] * middle.size[1])
    assert inked > 0.35, inked


@pytest.mark.parametrize("size", ["a4", "letter"])
def test_bb25_the_plot_and_fire_log_is_the_pages_asked_each_full_of_rows(size):
    data = paper.blank_record(paper=size, pages=3)
    assert len(pages_of(data)) == 3
    text = text_of(data)
    assert text.count("Within 1 dot") == 3 and text.count("Masts lost") == 3
    assert_named_and_numbered(data, "blank plot-and-fire log")


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler's pdftoppm")
@pytest.mark.parametrize("size", ["a4", "letter"])
def test_bb25_the_plot_and_fire_log_is_ruled_to_write_in(tmp_path, size):
    """Rendered, a page of the log is ruled across its width, a line a row, with room between
    to write by hand: 30 rows or more, none closer than a row's height at 60 dpi."""
    image = render(paper.blank_record(paper=size, pages=1), tmp_path)
    width, height = image.size
    pixels = image.load()
    ruled = [y for y in range(height)
             if sum(pixels[x, y] < 200 for x in range(width)) > width * 0.7]
    lines = [y for n, y in enumerate(ruled) if n == 0 or y - ruled[n - 1] > 1]
    assert len(lines) >= 30, len(lines)
    gaps = [b - a for a, b in zip(lines[5:], lines[6:], strict=False)]  # the log's rows
    assert min(gaps) >= 18 * 60 / 72 - 2, gaps


@pytest.mark.parametrize("pages", [0, 21, True, "2"])
def test_the_log_refuses_absurd_page_counts(pages):
    with pytest.raises(ValueError, match="pages is a whole number from 1 to 20"):
        paper.blank_record(pages=pages)


def test_bb25_a_players_position_holds_his_sealed_plot_and_nothing_of_the_others():
    one, two = (play(game_at_the_core(), rounds=1) for _ in range(2))
    for game, cards in ((one, ["port", "port", "port"]), (two, ["stay", "forward", "stay"])):
        game.move("blue", {"cards": cards})
    red = [text_of(paper.player_charts(view_for(g, "red"))) for g in (one, two)]
    assert red[0] == red[1]  # whatever Blue plotted, Red's paper is the same
    assert "Blue owes" not in red[0] and "Red owes a plot" in red[0]
    blue = text_of(paper.player_charts(view_for(one, "blue"), paper="letter"))
    assert "Your plot, sealed: Port, Port, Port" in blue
    assert "Royal Isabella" in blue and "Seahawk" in blue


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler's pdftoppm")
@pytest.mark.parametrize("size", ["a4", "letter"])
def test_bb2_a_players_position_draws_both_ships_where_his_view_has_them(tmp_path, size):
    """Mid-game (round 3, after two rounds' sailing): rendered, each ship is a hull of ink on
    its dot of the view, the dots it has left are plain dots again, and the decks' page is
    drawn."""
    game = play(game_at_the_core(), rounds=2)
    view = view_for(game, "red")
    first, decks = render(paper.player_charts(view, paper=size), tmp_path, page=None)
    frame = sea_frame(first)
    plain = max(dark_around(first, frame, dot) for dot in ("A 1", "O 11", "D 6", "L 6"))
    assert plain < 30, plain
    for seat, ship in view["ships"].items():
        assert ship["at"] not in ("D 6", "L 6")  # dots they sailed through in round 1
        assert dark_around(first, frame, ship["at"]) > 3 * plain, (seat, ship["at"])
    assert sum(decks.histogram()[:245]) / (decks.size[0] * decks.size[1]) > 0.3


def sealed_alike_but_for_blues_targets(targets: dict) -> Game:
    """A game alongside in round 3 (a volley owed by both), Blue's targets declared as given,
    Red's still owed; the referee's secret seed one that stands out."""
    game = game_at_the_core(secret=SECRET)
    for red, blue in (*SAILING[:2], (["forward", "stay", "stay"], ["starboard", "stay", "stay"])):
        game.move("red", {"cards": red})
        game.move("blue", {"cards": blue})
    assert set(game.owed) == {"red", "blue"} and game.owed["blue"] == "declaration"
    bearing = view_for(game, "blue")["legal"]["cannons"]
    game.move("blue", {"targets": {c: targets.get(c, targets.get("*")) for c in bearing}})
    return game


SECRET = "7e57ab1e" * 8  # the referee's dice seed in these games, never printed before the end


def test_bb10_a_players_paper_is_the_same_whatever_the_other_declared_and_holds_no_seed():
    """Red's position and record, printed while Blue's targets are sealed, are the same
    whatever Blue aimed at; Blue's own shows his; no sheet of either holds the referee's
    secret dice seed, in its text or its bytes (BB10, BB24, BB25)."""
    games = [sealed_alike_but_for_blues_targets({"*": "H"}),
             sealed_alike_but_for_blues_targets({"*": None, "C3": "A", "C5": "A"})]
    printed = {(n, seat): (paper.player_charts(view_for(game, seat), paper=size),
                           paper.player_record(record_for(game, seat)))
               for n, game in enumerate(games) for seat, size in (("red", "a4"),
                                                                  ("blue", "letter"))}
    red = [tuple(text_of(data) for data in printed[n, "red"]) for n in (0, 1)]
    assert red[0] == red[1]
    assert "Red owes a declaration" in red[0][0] and "Blue owes" not in red[0][0]
    blue = text_of(printed[0, "blue"][0])
    assert "Your targets, sealed:" in blue and " at H" in blue
    for sheets in printed.values():
        for data in sheets:
            for seen in (re.sub(r"\s", "", text_of(data)), data.decode("latin-1")):
                assert SECRET[:16] not in seen and SECRET[-16:] not in seen


def test_bb24_the_booklet_holds_every_plot_every_roll_and_the_dice_audit(finished):
    data = booklet(finished)
    text = text_of(data)
    doc = postmortem_document(finished)
    assert doc["dice"]["good"]
    squeezed = re.sub(r"\s", "", text)
    for part in (doc["dice"]["secret"], doc["dice"]["commitment"], "red-phone", "blue-phone"):
        assert part in squeezed, part
    assert doc["dice"]["verdict"] in text
    for plot in doc["plots"]:
        for seat, cards in plot["cards"].items():
            shown = ", ".join(paper.SHORT[c] for c in cards)
            assert shown in text, (plot["round"], seat, shown)
    assert "Roll 1 by hand" in text and "def roll(secret, seeds, n)" in text
    first = dice.roll(doc["dice"]["secret"], ["red-phone", "blue-phone"], 1)
    assert f"mod 6 + 1 = {first}, and roll 1 was {first}" in text
    assert len(doc["dice"]["rolls"]) == doc["dice"]["checked"] >= 3
    for roll in doc["dice"]["rolls"]:  # every roll, its face and what it was for
        assert f"{roll['n']} {roll['value']} {roll['for']}" in text, roll
    assert "Every fight's rolls" in text and "loses the Captain" in text
    assert_named_and_numbered(data, "post-mortem")


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler's pdftoppm")
def test_bb24_the_booklet_renders_every_page_inside_its_margins(finished, tmp_path):
    """Rendered at 60 dpi, every page of the booklet is A4, has ink, and none strays into the
    side margins (no table, code or drawing wider than the page); the sailing's pages hold a
    small sea for every round."""
    data = booklet(finished)
    images = render(data, tmp_path, page=None)
    assert len(images) == len(pages_of(data)) >= 5
    margin = round(MARGIN * 60 / 72) - 3
    for n, image in enumerate(images, 1):
        width, height = image.size
        assert abs(width - 595 * 60 / 72) < 1.5 and abs(height - 842 * 60 / 72) < 1.5, n
        body = image.crop((margin, margin, width - margin, height - margin))
        assert sum(body.histogram()[:200]) > 2000, f"page {n} is blank"
        for strip in (image.crop((0, 0, margin, height)),
                      image.crop((width - margin, 0, width, height))):
            assert strip.getextrema()[0] > 240, f"page {n} runs into its margin"
    sailing = next(n for n, page in enumerate(pages_of(data))
                   if "The sailing, round by round" in page.extract_text())
    text = pages_of(data)[sailing].extract_text()
    rounds = max(plot["round"] for plot in postmortem_document(finished)["plots"])
    assert all(f"Round {n}:" in text for n in range(1, rounds + 1)), text


def test_bb24_the_booklet_is_refused_before_the_end():
    game = play(game_at_the_core(), rounds=1)
    with pytest.raises(Exception, match="BB25"):
        booklet(game)


def test_names_print_as_typed_on_every_sheet(finished):
    """A name that looks like markup ('&', '"', '&lt;') prints as typed, never as markup."""
    for data in (booklet(finished, "letter"), paper.player_charts(view_for(finished, "blue"))):
        text = text_of(data)
        assert 'Ann & "Co"' in text and "Bob &lt;i&gt;" in text
