"""Taps and scrolls to place a fleet by thumb on a 390 x 844 phone, and the screen the piece bar
takes.

Drives Debian's Chromium (Playwright, touch, 390 x 844) through a real `referee serve` on
loopback: creates a game, buys the fleet (``--fleet``: 64 pieces, the custom fleet of many small
pieces a club player buys, or a lighter 46-piece one) and places it square by square the way a
careful player would, on the chart as the page opens or on the whole chart (``--whole``),
then counts

* taps: every touch on the page (a piece chosen, a square, a turn, a direction), and
* scrolls: every time the next thing to touch is out of sight (off the screen, under the
  fixed piece bar, or outside the chart's own horizontal scroller) and must be scrolled into
  view; one scroll per scroller moved (the page, the chart, the piece bar);
* the bar: the largest share of the screen's height the fixed piece bar covered at any tap,
  and the size of a square of the chart.

The goal (a fleet placed by hand is not a chore): taps at most one a piece plus ten, fewer
than 8 scrolls, the bar under 15% of the screen, with the 64-piece fleet.

The player places kind by kind; within a kind he first places what he can see (ships lying
the way the page's direction switch says first, if it has one), and only then scrolls for
the rest, as a thumb would. The fleet is a fixed random layout (seed 7,
``layout.scatter``) that R6-R9 accept; the bench checks the page reports it legal at the end.
It works on the older placement page too (a radio list above the chart; a tap on a ship turns
it) and after it (a piece bar fixed to the foot of the screen, an across/down switch).

Run with `.venv/bin/python bench/placement_taps.py [--runs 3]`; prints medians.
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import conftest  # noqa: E402
from conftest import LiveServer  # noqa: E402

from referee.naval_war import check_disposition  # noqa: E402
from referee.naval_war.layout import scatter  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 1}

FLEETS = {
    # 64 pieces: 36 ships (62 points), 28 aircraft and guns, 40 salvoes: 160 points (R3, R4)
    64: {"carrier": 2, "battleship": 2, "cruiser": 4, "destroyer": 6, "submarine": 22,
         "atom-bomber": 2, "bomber": 6, "recon": 10, "aa-gun": 10, "salvo": 40},
    # 46 pieces: 26 ships (74 points), 20 aircraft and guns, 36 salvoes
    46: {"carrier": 2, "battleship": 8, "cruiser": 6, "destroyer": 6, "submarine": 4,
         "atom-bomber": 2, "bomber": 6, "recon": 6, "aa-gun": 6, "salvo": 36},
}
VERBOSE = "--verbose" in sys.argv
SCREEN_H = PHONE["viewport"]["height"]

# The share of the screen's height the fixed piece bar covers now.
BAR_SHARE = """() => {
  const bar = document.getElementById("piece-bar");
  if (!bar) return 0;
  const r = bar.getBoundingClientRect();
  return Math.max(0, Math.min(innerHeight, r.bottom) - Math.max(0, r.top)) / innerHeight;
}"""

# Is this element in sight: inside the viewport above the fixed piece bar, and inside every
# scrolling ancestor? Returns the scrollers that would have to move.
IN_SIGHT = """(el) => {
  const r = el.getBoundingClientRect(), out = [];
  const bar = document.getElementById("piece-bar");
  const inBar = bar && bar.contains(el);
  const bottom = inBar || !bar ? innerHeight
    : Math.min(innerHeight, bar.getBoundingClientRect().top);
  if (r.top < 0 || r.bottom > bottom + 0.5) out.push("page");
  for (let p = el.parentElement; p; p = p.parentElement) {
    const st = getComputedStyle(p);
    if (p.scrollWidth > p.clientWidth + 1 && /auto|scroll/.test(st.overflowX)) {
      const q = p.getBoundingClientRect();
      if (r.left < q.left - 0.5 || r.right > q.right + 0.5) out.push(p.id || p.className);
    }
  }
  return out;
}"""

# Bring it into sight the way a thumb would: the page so that the whole chart shows if it
# can (else the square in the middle), a scroller sideways with a flick to its far end.
SCROLL_TO = """(el) => {
  const bar = document.getElementById("piece-bar");
  const inBar = bar && bar.contains(el);
  const bottom = inBar || !bar ? innerHeight
    : Math.min(innerHeight, bar.getBoundingClientRect().top);
  for (let p = el.parentElement; p; p = p.parentElement) {
    const st = getComputedStyle(p);
    if (p.scrollWidth > p.clientWidth + 1 && /auto|scroll/.test(st.overflowX)) {
      const r = el.getBoundingClientRect(), q = p.getBoundingClientRect();
      if (r.left < q.left) p.scrollLeft = 0;  // a flick: all the way, as a thumb does
      else if (r.right > q.right) p.scrollLeft = p.scrollWidth;
    }
  }
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > bottom) {
    const grid = el.closest(".grid");
    const g = grid ? grid.getBoundingClientRect() : null;
    if (g && g.height <= bottom) window.scrollBy(0, g.top - Math.max(0, (bottom - g.height) / 2));
    else window.scrollBy(0, (r.top + r.bottom) / 2 - bottom / 2);
  }
}"""


class SourceServer(LiveServer):
    """`referee serve` from another copy of the source (``git archive <commit> | tar -x``),
    to measure the page as it was: a wrapper sets the editable install's finder aside so
    that the copy is the one imported."""

    def __init__(self, database: Path, source: Path) -> None:
        super().__init__(database)
        wrapper = database.parent / "referee-from-source"
        wrapper.write_text(
            f"#!{sys.executable}\nimport sys\n"
            "sys.meta_path = [f for f in sys.meta_path if 'editable' not in repr(f)]\n"
            f"sys.path.insert(0, {str(source.resolve())!r})\n"
            "from referee.cli import main\nsys.exit(main())\n")
        wrapper.chmod(0o755)
        self.wrapper = wrapper

    def start(self) -> SourceServer:
        real, conftest.REFEREE = conftest.REFEREE, self.wrapper
        try:
            return super().start()
        finally:
            conftest.REFEREE = real


class Thumb:
    """Counts taps and scrolls on one page, and the largest share of the screen the piece
    bar covered at a tap."""

    def __init__(self, page) -> None:
        self.page, self.taps, self.scrolls, self.bar = page, 0, 0, 0.0

    def tap(self, selector: str) -> None:
        element = self.page.locator(selector).first
        element.wait_for(state="attached")
        handle = element.element_handle()
        moved = handle.evaluate(IN_SIGHT)
        if moved:
            handle.evaluate(SCROLL_TO)
            self.scrolls += len(moved)
            if VERBOSE:
                print("scroll", moved, "for", selector)
            still = handle.evaluate(IN_SIGHT)
            assert not still, (selector, still)
        self.bar = max(self.bar, self.page.evaluate(BAR_SHARE))
        element.tap()
        self.taps += 1


def column(square: str) -> int:
    return "ABCDEFGHIJKLMNOPQRSTU".index(square.split()[0])


def place_fleet(thumb: Thumb, document: dict) -> None:
    page = thumb.page
    new_ui = page.locator("#piece-bar").count() > 0
    cell = '#place-chart [data-sq="{}"]'.format
    kinds = (["carrier", "battleship", "cruiser", "destroyer", "submarine", "land",
              "atom-bomber", "bomber", "recon", "aa-gun"])
    pieces: dict[str, list[tuple[str, str]]] = {k: [] for k in kinds}
    for unit in document["land"]:
        pieces["land"].append((unit, "across"))
    for ship in document["ships"]:
        pieces[ship["type"]].append((ship["at"], ship.get("dir", "across")))
    for plane in document["aircraft"]:
        pieces[plane["type"]].append((plane["at"], ""))
    for gun in document["guns"]:
        pieces["aa-gun"].append((gun, ""))

    def current() -> str:
        if new_ui:
            return page.get_attribute("#piece-bar", "data-kind") or ""
        return page.eval_on_selector("#palette input:checked", "e => e.value")

    def choose(kind: str) -> None:
        if current() != kind:
            thumb.tap(f'#piece-bar [data-kind="{kind}"]' if new_ui
                      else f'#palette input[value="{kind}"]')

    def direction(want: str) -> None:
        if new_ui and page.get_attribute("#dir-toggle", "data-dir") != want:
            thumb.tap("#dir-toggle")

    def in_sight(square: str) -> bool:
        return not page.locator(cell(square)).element_handle().evaluate(IN_SIGHT)

    def way_now() -> str:
        return page.get_attribute("#dir-toggle", "data-dir") if new_ui else "across"

    for kind in kinds:
        todo = list(pieces[kind])
        while todo:
            # what is in sight first (the way ships now lie first), then scroll for the rest
            seen = [p for p in todo if in_sight(p[0])]
            pool = seen or todo
            square, way = min(pool, key=lambda p: (p[1] not in ("", way_now()), column(p[0])))
            todo.remove((square, way))
            choose(kind)
            if kind in ("battleship", "cruiser", "destroyer"):
                direction(way)
            thumb.tap(cell(square))
            if not new_ui and way == "down":
                thumb.tap(cell(square))  # the old page: a second tap turns the ship
    page.wait_for_selector("#tally:has-text('legal')", timeout=15000)


def one_run(browser, server: LiveServer, document: dict, purchase: dict, whole: bool
            ) -> tuple[int, int, float, float]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.url + "/")
    page.fill("#name", "Bench")
    page.click("form.stack:not([action]) button[type=submit]")
    page.wait_for_url("**/host")
    page.goto(page.url.removesuffix("/host"))
    for kind, n in purchase.items():
        page.fill(f"#{kind.replace('-', '_')}", str(n))
    page.click("#budget-form button[type=submit]")
    page.wait_for_selector("#place-chart .cell")
    page.evaluate("window.scrollTo(0, 0)")
    thumb = Thumb(page)
    if whole and page.locator("body.zoom-in").count():
        thumb.tap("#zoom")  # to the whole chart: a tap like any other
    page.wait_for_selector("#save-state:has-text('Draft saved')")  # the chart redrawn then
    cell = page.evaluate("""document.querySelector('#place-chart [data-sq="K 10"]')
                            .getBoundingClientRect().width""")
    place_fleet(thumb, document)
    context.close()
    return thumb.taps, thumb.scrolls, thumb.bar, cell


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--fleet", type=int, choices=sorted(FLEETS), default=64,
                        help="the fleet's pieces (not counting salvoes)")
    parser.add_argument("--whole", action="store_true",
                        help="place on the whole chart (the page's 'Whole chart')")
    parser.add_argument("--verbose", action="store_true", help="say what each scroll was for")
    parser.add_argument("--source", type=Path, help="serve this copy of the source instead "
                        "(e.g. an older commit's, from git archive)")
    args = parser.parse_args()
    purchase = FLEETS[args.fleet]
    document = scatter(purchase, random.Random(7))
    check_disposition(document)
    from playwright.sync_api import sync_playwright

    taps, scrolls, bars, cells = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server = (SourceServer(Path(tmp) / "bench.db", args.source) if args.source
                  else LiveServer(Path(tmp) / "bench.db")).start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for _ in range(args.runs):
                t, s, b, c = one_run(browser, server, document, purchase, args.whole)
                taps.append(t)
                scrolls.append(s)
                bars.append(b)
                cells.append(c)
        finally:
            browser.close()
            server.stop()
    down = sum(1 for s in document["ships"] if s.get("dir") == "down")
    pieces = sum(n for k, n in purchase.items() if k != "salvo")
    print(f"fleet: {pieces} pieces, {len(document['land'])} land units, {down} ships down; "
          f"{'whole chart' if args.whole else 'the chart as the page opens'}, "
          f"squares of {statistics.median(cells):.1f} px")
    print(f"taps:    median {statistics.median(taps)}  (runs: {taps}; goal: at most "
          f"{pieces + 10}, a tap a piece plus ten)")
    print(f"scrolls: median {statistics.median(scrolls)}  (runs: {scrolls}; goal: under 8)")
    print(f"bar:     at most {100 * max(bars):.1f}% of the screen's height "
          f"({round(max(bars) * SCREEN_H)} of {SCREEN_H} px; goal: under 15%)")


if __name__ == "__main__":
    main()
