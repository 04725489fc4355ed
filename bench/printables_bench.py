"""Speed of the printables: prints medians and a ratio; not a test.

1. A blank chart, ``printables.blank_chart(paper="a4", layout="single")``, against reportlab
   drawing the same bare 21 x 21 grid (lines every square, guides every three, the frame, and
   the labels on all four sides) with its canvas directly into a BytesIO, in the same font
   (the embedded TrueType font of the printables), both measured in this run.
   The two are timed turn about. Target: at most 3 times the bare canvas (ratio of
   medians). For information, also the fastest runs' ratio, the machine's load, and the bare
   canvas in Helvetica (a base-14 font, not embedded: cheaper, but not what we may ship).
2. The move record of a 150-move two-player game as one player may see it,
   ``printables.player_record(record_for(game, seat))``. Target: under 300 ms.
3. For information: the blank move record at its default of two pages, and at 20 pages.

Run with `.venv/bin/python bench/printables_bench.py`.
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import time
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

sys.path.insert(0, str(Path(__file__).resolve().parent))

from core_bench import long_game_events, median_ms  # noqa: E402

from printables.style import FONT  # noqa: E402
from referee.naval_war import record_for, replay  # noqa: E402
from referee.naval_war.squares import COLUMNS, SIZE  # noqa: E402
from referee.naval_war.web import paper as printables  # noqa: E402
from referee.naval_war.web.paper.charts import chart_cell  # noqa: E402

RECORD_MOVES = 150


def bare_grid(font: str = FONT) -> bytes:
    """The same 21 x 21 grid drawn with reportlab's canvas directly: lines and labels."""
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=A4, initialFontName=font)
    width, height = A4
    cell = chart_cell(width, 1)
    grid = SIZE * cell
    x0, y0 = 6 * mm + 3.2 * mm, height - 30 * mm - grid
    for i in range(SIZE + 1):
        c.setLineWidth(0.9 if i % 3 == 0 else 0.3)
        c.line(x0 + i * cell, y0, x0 + i * cell, y0 + grid)
        c.line(x0, y0 + i * cell, x0 + grid, y0 + i * cell)
    c.setLineWidth(1.1)
    c.rect(x0, y0, grid, grid, stroke=1, fill=0)
    c.setFont(font, 6.2)
    for i in range(SIZE):
        cx = x0 + (i + 0.5) * cell
        c.drawCentredString(cx, y0 + grid + 1.1 * mm, COLUMNS[i])
        c.drawCentredString(cx, y0 - 2.6 * mm, COLUMNS[i])
        cy = y0 + (SIZE - 1 - i) * cell + cell * 0.32
        c.drawCentredString(x0 - 1.6 * mm, cy, str(i + 1))
        c.drawCentredString(x0 + grid + 1.6 * mm, cy, str(i + 1))
    c.showPage()
    c.save()
    return buffer.getvalue()


def interleaved_ms(first, second, repeat: int) -> tuple[list[float], list[float]]:
    """Time two functions turn about, so that a busy machine slows both alike."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for fn, into in ((first, times[0]), (second, times[1])):
            start = time.perf_counter()
            fn()
            into.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    for _ in range(3):  # warm up: imports, font subsetting caches
        printables.blank_chart(paper="a4", layout="single")
        bare_grid()
        bare_grid("Helvetica")
    chart, bare = interleaved_ms(lambda: printables.blank_chart(paper="a4", layout="single"),
                                 bare_grid, 101)
    chart_ms, bare_ms = statistics.median(chart), statistics.median(bare)
    helvetica_ms = median_ms(lambda: bare_grid("Helvetica"), 61)
    ratio = chart_ms / bare_ms
    print(f"blank chart (A4, single): median {chart_ms:.2f} ms")
    print(f"bare reportlab canvas, same grid and font: median {bare_ms:.2f} ms")
    print(f"ratio of medians {ratio:.2f}x (target <= 3x): {'ok' if ratio <= 3 else 'TOO SLOW'}")
    print(f"  (fastest runs: {min(chart):.2f} ms against {min(bare):.2f} ms, "
          f"{min(chart) / min(bare):.2f}x; on a busy machine a task longer than the "
          "scheduler's slice suffers more, so the ratio of medians rises with the load)")
    print(f"  (for information: bare canvas in Helvetica, not embedded: median "
          f"{helvetica_ms:.2f} ms, ratio {chart_ms / helvetica_ms:.2f}x)")

    game = replay(long_game_events(RECORD_MOVES))
    record = record_for(game, "red")
    moves = len(record["moves"])
    record_ms = median_ms(lambda: printables.player_record(record), 15)
    print(f"move record of a {moves}-move game (Red's copy): median {record_ms:.1f} ms "
          f"(target < 300 ms): {'ok' if record_ms < 300 else 'TOO SLOW'}")
    for pages in (2, 20):
        blank_ms = median_ms(lambda pages=pages: printables.blank_record(pages=pages), 15)
        print(f"blank move record, {pages} pages: median {blank_ms:.1f} ms")

if __name__ == "__main__":
    main()
