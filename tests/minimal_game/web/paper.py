"""Hidden Number's paper, drawn with the referee's kit (``printables``): pure functions, a view
or record in, a PDF's bytes out. The chart is the row of numbers 1 to 9, those the answers
rule out crossed; the record is every guess with its answer."""

from __future__ import annotations

from reportlab.platypus import Paragraph, Spacer

from printables import blank_pages, build, grid_table, name_line, plain, record_table
from printables.style import MARGIN, STYLES, frame_width, page_size

from ..catalogue import NUMBERS, TITLE
from ..computer import candidates

COLUMNS, WIDTHS_MM = ("No.", "By", "Guess", "Answer"), (14, 24, 18)
ROW = 18  # points: a blank record's row, room to write by hand
NUMBER_WIDTHS_MM = (44, *(12,) * len(NUMBERS))


def _numbers(title: str, marks: dict[int, str]) -> list:
    return [grid_table([[title, *map(str, NUMBERS)], ["", *(marks.get(n, "") for n in NUMBERS)]],
                       NUMBER_WIDTHS_MM), Spacer(1, 10)]


def _heading(text: str) -> Paragraph:
    return Paragraph(plain(text), STYLES["title"])


def blank_chart(*, paper: str = "a4", layout: str = "pair") -> bytes:
    """A row of numbers to cross out as the answers come (and one for your own)."""
    story = [_heading(f"{TITLE}: chart"), name_line(), Spacer(1, 8),
             *_numbers("Their number", {})]
    if layout == "pair":
        story += _numbers("Your number (ring it)", {})
    return build(page_size(paper, "portrait"), f"{TITLE}: blank chart", story, subject=TITLE)


def _rows(record: dict) -> list[list[str]]:
    return [[str(m["n"]), m["by"].title(), str(m["guess"]), m["answer"]]
            for m in record["moves"]]


def blank_record(*, paper: str = "a4", pages: int = 2) -> bytes:
    size = page_size(paper, "portrait")
    width, height = frame_width(size), size[1] - 2 * MARGIN
    story = blank_pages(pages, lambda: [_heading(f"{TITLE}: record of guesses"), name_line()],
                        lambda n: record_table(COLUMNS, WIDTHS_MM, [[""] * 4] * n, width, ROW),
                        width=width, height=height, row_height=ROW)
    return build(size, f"{TITLE}: blank record", story, subject=TITLE)


def player_charts(view: dict, *, paper: str = "a4", opponents=()) -> bytes:
    """A seat's chart from its view alone (H5): its own number, and the numbers its answers
    leave for the other's."""
    you, own = view["you"], (view.get("disposition") or {}).get("number")
    left = set(candidates(view))
    story = [_heading(f"{TITLE} {view['id']}: {you.title()}'s chart"),
             *_numbers("Their number", {n: "" if n in left else "X" for n in NUMBERS}),
             *_numbers("Your number", {own: "O"} if own else {})]
    return build(page_size(paper, "portrait"), f"{TITLE} {view['id']}: chart of {you.title()}",
                 story, subject=TITLE)


def player_record(record: dict, *, paper: str = "a4") -> bytes:
    size = page_size(paper, "portrait")
    story = [_heading(f"{TITLE} {record['id']}: guesses as {record['you'].title()} heard them"),
             record_table(COLUMNS, WIDTHS_MM, _rows(record), frame_width(size))]
    return build(size, f"{TITLE} {record['id']}: record", story, subject=TITLE)


def postmortem(shown: dict, record: dict, *, paper: str = "a4", analysis: dict | None = None
               ) -> bytes:
    """After the end: both numbers, every guess, and each seat's guesses beside the fewest
    halving needed."""
    size = page_size(paper, "portrait")
    view = shown["view"]
    numbers = ", ".join(f"{s.title()} hid {seat['disposition']['number']}"
                        for s, seat in shown["seats"].items())
    figures = [["Seat", "Guesses", "Halving needs"]] + [
        [s.title(), str(row["guesses"]), str(row["fewest"] or "-")]
        for s, row in (analysis or {}).get("seats", {}).items()]
    story = [_heading(f"{TITLE} {view['id']}: post-mortem"),
             Paragraph(plain(numbers or "Nobody hid a number."), STYLES["body"]), Spacer(1, 8),
             grid_table(figures, (40, 30, 40)), Spacer(1, 8),
             record_table(COLUMNS, WIDTHS_MM, _rows(record), frame_width(size))]
    return build(size, f"{TITLE} {view['id']}: post-mortem", story, subject=TITLE)
