"""A soak of Battleship TCG's play page: long games on a phone against the recruit.

Drives Debian's Chromium (Playwright, touch, 390 x 844) through a real `referee serve` on
loopback (pages polling every 200 ms): each game, Red joins on the phone against the
computer's recruit, locks in a fixed fleet and shoots the way a hurried player does: after a
hit, often (``--hunting``, a chance) a neighbour of a hit on a boat not yet sunk, otherwise
a random sea hole, so hits on several boats pile up before they sink; once all five boats
are sunk, the islands until the man is rescued (T7). Every shot is tapped on the page
and fired with its button; after each, the page is checked: both halves drawn (150 holes
each) and no script or console error. The recruit's random shots end long games (often
more than 200 shots in all), where sinkings the shots cannot place were frequent: the case
the page once broke on (`TypeError: Cannot read properties of null (reading 'map')`).

Run with `.venv/bin/python bench/tcg_long_games.py [--games 3] [--seed 1]`; prints, for
each game, the shots, the most sinkings Red's view could not place at once, the pages with a half
missing, the errors and the time, and their medians. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from browser_support import ARGS, CHROMIUM, PHONE, RecordingPhone, lock_in_by_page  # noqa: E402
from conftest import LiveServer  # noqa: E402
from tcg_web_support import RED  # noqa: E402

from referee.battleship_tcg.holes import every_hole, hole_name, neighbours, parse_hole  # noqa: E402


def hunt(view: dict, rng: random.Random, hunting: float) -> str:
    """Red's next shot from his own view: by this chance a neighbour of a hit on a boat not
    yet sunk, else a random sea hole not shot; once every boat is sunk, a random island hole
    not shot."""
    shots = [r for r in view["reports"] if r["target"] == "blue"]
    shot = {r["at"][0] for r in shots}
    islands = set(view["islands"]["blue"])
    if len(view["sunk"]["blue"]) == 5:
        return rng.choice(sorted(islands - shot))
    sunk_at = {r["at"][0] for r in shots if r.get("sunk")}
    hits = [r["at"][0] for r in shots if r["result"] == "hit" and r["at"][0] not in sunk_at]
    for hit in reversed(hits if rng.random() < hunting else []):
        near = [hole_name(h) for h in neighbours(parse_hole(hit))
                if hole_name(h) not in shot and hole_name(h) not in islands]
        if near:
            return rng.choice(near)
    return rng.choice(sorted({hole_name(h) for h in every_hole()} - shot - islands))


def one_game(browser, server: LiveServer, rng: random.Random, hunting: float) -> dict:
    status, created, _ = server.api().call("POST", "/api/v1/games", {
        "rules": "battleship-tcg", "bots": {"blue": "recruit"}})
    assert status == 201, created
    phone = RecordingPhone(browser, "red", sync_api)
    problems: list[str] = []
    phone.page.on("pageerror", lambda e: problems.append(str(e)))
    phone.page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page = phone.page
    page.goto(created["seats"]["red"]["join_url"])
    page.fill("#name", "Ann")
    page.click("form:has(#name) button[type=submit]")
    page.wait_for_selector("#tcg-place svg.honeycomb")
    lock_in_by_page(phone, RED, "#tcg-lock")
    started, shots, missing, unplaced = time.perf_counter(), 0, 0, 0
    while True:
        page.wait_for_selector("h1.turn .your-turn, .headline", timeout=30000)
        data = json.loads(page.locator("#page-data").text_content())
        view = data["view"]
        if view["phase"] == "over":
            break
        unplaced = max(unplaced, sum(1 for b in data["known"]["blue"] if b["holes"] is None))
        missing += sum(1 for half in ("#tcg-theirs", "#tcg-mine")
                       if page.locator(f"{half} svg.honeycomb g.hole").count() != 150)
        hole = hunt(view, rng, hunting)
        page.locator(f'#tcg-theirs [data-hole="{hole}"]').tap()
        with page.expect_navigation():
            page.locator("#tcg-fire").tap()
        shots += 1
    seconds = time.perf_counter() - started
    result = {"shots": len(view["reports"]), "red's shots": shots, "unplaced": unplaced,
              "pages missing a half": missing, "errors": len(problems),
              "seconds": round(seconds, 1), "headline": page.inner_text(".headline")}
    phone.context.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hunting", type=float, default=0.5)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results = []
    with tempfile.TemporaryDirectory() as folder, sync_api.sync_playwright() as p:
        server = LiveServer(Path(folder) / "soak.db").start()
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            for n in range(args.games):
                results.append(one_game(browser, server, rng, args.hunting))
                print(f"game {n + 1}: {results[-1]}", flush=True)
        finally:
            browser.close()
            server.stop()
    for key in ("shots", "red's shots", "unplaced", "pages missing a half", "errors",
                "seconds"):
        print(f"median {key}: {statistics.median(r[key] for r in results)}")
    if any(r["errors"] or r["pages missing a half"] for r in results):
        sys.exit(1)


if __name__ == "__main__":
    from playwright import sync_api

    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}"
    assert PHONE["viewport"] == {"width": 390, "height": 844}
    main()
