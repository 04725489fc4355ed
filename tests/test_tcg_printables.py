"""Battleship: The Tactical Combat Game on paper: blank honeycomb charts of both halves, the blank
record of shots, a player's charts mid-game and the post-mortem booklet.

Each PDF is read back (page size and count, the text pdftotext and pypdf find, where the hole
numbers stand) and rendered with pdftoppm to check the islands' shading. A player's charts are
drawn from his view only (T10): scanned for the opponent's unshot holes.
"""

from __future__ import annotations

import re

import pytest
from pdf_support import pdftotext
from tcg_web_support import BLUE, BLUE_ELSEWHERE, SHOTS, played
from test_printables import assert_fonts_embedded, page_points, placed, read, render

from referee.battleship_tcg import view_for
from referee.battleship_tcg.card import standard_card
from referee.battleship_tcg.holes import COLUMNS, DEPTH, SPOKEN, Hole, hole_name, parse_hole
from referee.battleship_tcg.postmortem import postmortem_document
from referee.battleship_tcg.web import printables as tcg

ISLANDS = {seat: standard_card().island_names(seat) for seat in ("red", "blue")}


def view(you: str = "red", phase: str = "play", blue: dict = BLUE) -> dict:
    """A seat's view (T12) of the scripted game: mid-game, or after Blue resigns."""
    game = played(blue)
    if phase == "over":
        game.resign("blue")
    return view_for(game, you)


def flat(text: str) -> str:
    """One line, and a hole's column and number together: "D 3" and "D3" read the same."""
    return re.sub(r"\b([A-O]) (\d{1,2})\b", r"\1\2", re.sub(r"\s+", " ", text))


def shot_row(n: int, by: str, at: str, result: str) -> str:
    return f"{n} {by.title()} {at.replace(' ', '')} {result.title()}"


def column_letters(drawn: list) -> list:
    """The column letters over the halves of a page, left to right: the highest bold letters."""
    bold = [p for p in drawn if p.text in COLUMNS and p.bold]
    top = max(p.y for p in bold)
    return sorted((p for p in bold if abs(p.y - top) < 1), key=lambda p: p.x)


PAGE = {"a4": (842, 595), "letter": (792, 612)}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_paper_blank_charts_of_both_halves_on_each_paper(paper):
    data = tcg.blank_charts(ISLANDS, paper=paper)
    pages = read(data).pages
    assert len(pages) == 2  # a page for each player: his half beside his opponent's
    assert all(page_points(p) == PAGE[paper] for p in pages)
    text = flat(pdftotext(data))
    assert "Red's half: place your fleet here" in text
    assert "Blue's half: mark your shots here" in text
    assert "Blue's half: place your fleet here" in text
    assert "Page 1 of 2" in text and "Page 2 of 2" in text
    for word in SPOKEN:  # T1: the spoken word of every column, small under its letter
        assert text.count(word) >= 4, word
    assert "Aircraft Carrier (A, 5 holes)" in text and "Captured Man" in text
    assert_fonts_embedded(data)


def test_t1_blank_chart_letters_and_numbers_every_hole_with_low_columns_half_a_hole_down():
    page = read(tcg.blank_charts(ISLANDS)).pages[0]
    drawn = placed(page)
    letters = column_letters(drawn)
    assert [p.text for p in letters] == list(COLUMNS) * 2  # over each of the two halves
    left = letters[:15]
    step = left[1].centre - left[0].centre
    numbers = [p for p in drawn if re.fullmatch(r"\d{1,2}", p.text) and not p.bold
               and p.x < left[-1].centre + step]
    assert len(numbers) == 15 * DEPTH  # every hole of the left half numbered
    by_column: dict[int, dict[int, float]] = {}
    for p in numbers:
        column = round((p.centre - left[0].centre) / step)
        by_column.setdefault(column, {})[int(p.text)] = p.y
    pitch = by_column[0][1] - by_column[0][2]
    for column in range(15):
        assert sorted(by_column[column]) == list(range(1, DEPTH + 1))
        drop = by_column[0][1] - by_column[column][1]
        assert drop == pytest.approx(pitch / 2 if column % 2 else 0, abs=0.05), COLUMNS[column]
        assert all(by_column[column][n] - by_column[column][n + 1] == pytest.approx(pitch, abs=0.05)
                   for n in range(1, DEPTH))


def hole_centre(page, hole: Hole, half: int = 0) -> tuple[float, float]:
    """Where a hole's centre is on the page, from its drawn number (points, bottom left)."""
    drawn = placed(page)
    letters = column_letters(drawn)[15 * half:15 * half + 15]
    step = letters[1].centre - letters[0].centre
    side = step / 1.5
    x = letters[hole.column].centre
    number = [p for p in drawn if p.text == str(hole.row + 1) and abs(p.centre - x) < 1
              and not p.bold]
    size = min(5.5, side * 0.55)
    (mark,) = [p for p in number if p.size == pytest.approx(size, abs=0.01)]
    return x, mark.y - side * 3 ** 0.5 / 2 + size + 0.6


@pytest.mark.parametrize("seat, half", [("red", 0), ("blue", 1)])
def test_t2_blank_chart_shades_each_halfs_own_islands(seat, half):
    data = tcg.blank_charts(ISLANDS)
    page = read(data).pages[0]  # Red's page: Red's half, then Blue's
    image = render(data, 1, dpi=100)
    for hole in (parse_hole(h) for h in ISLANDS[seat]):
        x, y = hole_centre(page, hole, half)
        assert 100 < image.at(*image.px(x + 4, y)) < 230, hole_name(hole)
    sea = [h for h in (parse_hole(f"{c} {r}") for c in COLUMNS for r in range(1, 11))
           if hole_name(h) not in ISLANDS[seat]]
    for hole in sea[::7]:
        x, y = hole_centre(page, hole, half)
        assert image.at(*image.px(x + 4, y)) == 255, hole_name(hole)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_paper_blank_record_of_shots(paper):
    data = tcg.blank_record(paper=paper, pages=3)
    pages = read(data).pages
    assert len(pages) == 3
    assert all(page_points(p) == PAGE[paper][::-1] for p in pages)
    text = flat(pdftotext(data))
    for head in ("Shot", "By", "Hole", "Result", "Boat sunk"):
        assert text.count(head) >= 6, head  # two blocks a page
    assert "Page 3 of 3" in text


@pytest.mark.parametrize("pages", [0, 21, True, "2"])
def test_paper_blank_record_refuses_absurd_page_counts(pages):
    with pytest.raises(ValueError, match="pages is a whole number from 1 to 20"):
        tcg.blank_record(pages=pages)


def test_paper_player_charts_show_his_half_and_the_opponents_as_he_knows_it():
    shown = view("red")
    data = tcg.player_charts(shown, paper="letter")
    pages = read(data).pages
    assert len(pages) == 2 and page_points(pages[0]) == PAGE["letter"]
    text = flat(pdftotext(data))
    assert "My half: Red (Ann &amp; Co)" in text  # the name as typed, not as markup (R10)
    assert "Blue (Bob)'s half as I know it" in text
    assert "Player Ann &amp; Co" in text
    assert "[x] Patrol Boat" in text and "[x] Submarine" in text and "[ ] Battleship" in text
    assert "after shot 11" in text
    for report in shown["reports"]:
        assert shot_row(report["n"], report["by"], report["at"][0], report["result"]) in text


def test_t10_player_charts_draw_nothing_of_the_opponent_but_his_shots():
    """Letters and pegs on the opponent's half stand only where the player shot (T8, T10)."""
    data = tcg.player_charts(view("red"))
    page = read(data).pages[0]
    drawn = placed(page)
    right = column_letters(drawn)[15].x - 2
    heads = column_letters(drawn)
    letters = [p.text for p in drawn if p.bold and p.x > right and p not in heads
               and p.text in "ABWSPM"]
    assert sorted(letters) == ["P", "S"]  # on the holes where the two sank (T8)
    image = render(data, 1, dpi=100)
    shot = {parse_hole(at) for by, at in SHOTS if by == "red"}
    for hole in (parse_hole(f"{c} {r}") for c in COLUMNS for r in range(1, 11)):
        if hole in shot or hole_name(hole) in ISLANDS["blue"]:
            continue
        x, y = hole_centre(page, hole, 1)
        assert image.lightest(*image.px(x, y - 1), 2) == 255, hole_name(hole)


def test_t10_leak_scan_player_charts_are_the_same_wherever_the_opponents_unshot_boats_lie():
    """Blue's carrier and man moved to holes Red never shot: Red's PDF, text and every
    pixel, is the same, so it holds nothing of them; the holes it names are shot holes."""
    here, elsewhere = (tcg.player_charts(view("red", blue=b)) for b in (BLUE, BLUE_ELSEWHERE))
    assert pdftotext(here) == pdftotext(elsewhere)
    for page in (1, 2):
        assert render(here, page, dpi=60).pixels == render(elsewhere, page, dpi=60).pixels
    named = set(re.findall(r"\b([A-O]) ?(\d{1,2})\b", pdftotext(here)))
    assert {f"{c} {n}" for c, n in named} <= {at for _, at in SHOTS}
    # and the scan can fail: Blue's own charts differ where his fleet differs
    assert render(tcg.player_charts(view("blue", blue=BLUE)), 1, dpi=60).pixels != render(
        tcg.player_charts(view("blue", blue=BLUE_ELSEWHERE)), 1, dpi=60).pixels


def test_paper_sunk_boats_are_outlined_where_the_shots_tell_their_holes():
    shown = view("red")
    assert tcg.sunk_outlines(shown, "blue") == [["D 8", "E 9"], ["N 1", "N 2", "N 3"]]
    assert tcg.sunk_outlines(shown, "red") == []


def test_t9_postmortem_refused_before_the_end():
    with pytest.raises(ValueError, match="once the game is over"):
        tcg.postmortem(view("red"))


def test_paper_postmortem_booklet_reveals_both_halves_and_lists_every_shot():
    game = played()
    game.resign("blue")
    shown = view_for(game, "blue")
    data = tcg.postmortem(shown, paper="a4", analysis=postmortem_document(game))
    pages = read(data).pages
    assert len(pages) == 3 and all(page_points(p) == PAGE["a4"] for p in pages)
    text = flat(pdftotext(data))
    assert "Red (Ann &amp; Co)'s half, revealed" in text and "Blue (Bob)'s half, revealed" in text
    assert "Blue resigned; Red wins." in text
    assert "Shots to sink each boat" in text
    assert "Red (Ann &amp; Co) Patrol Boat 2 1 2" in text  # his 2nd shot, first hit with the 1st
    assert "Red (Ann &amp; Co) Submarine 5 3 3" in text
    assert "Blue (Bob) Aircraft Carrier not sunk 1 -" in text  # hit with his 1st shot
    assert "Wasted shots" in text and "Red (Ann &amp; Co) 0 6 none" in text
    for report in shown["reports"]:
        assert shot_row(report["n"], report["by"], report["at"][0], report["result"]) in text
    heads = column_letters(placed(pages[0]))
    drawn = [p.text for p in placed(pages[0]) if p.bold and p not in heads]
    assert drawn.count("M") == 2  # both men, revealed (T9)
    assert drawn.count("A") == 10  # both carriers
