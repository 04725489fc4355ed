"""End to end on phones: Debian's Chromium, driven by Playwright, at 390 x 844 with touch.

Two phones create, join, budget, place, lock in and play a short game to its end; a third
phone can neither see nor act in a seat it does not hold; every page each player loads is
scanned for the opponent's squares he was not told (R21). Screenshots go to
``test-output/screenshots/``. Without Chromium these tests skip loudly, and fail under CI=true.
"""

from __future__ import annotations

import json
import re

from browser_support import RecordingPhone, require_browser, screenshot_path

sync_api = require_browser()

PURCHASE = {"battleship": "15", "salvo": "57", "bomber": "1", "recon": "1"}
SQUARE = re.compile(r"\b([A-U]) (\d{1,2})\b")  # squares; rulings are written R4


class Phone(RecordingPhone):
    """One player's phone: a browser context that records every page the server sent it."""

    def __init__(self, browser, name: str) -> None:
        super().__init__(browser, name, sync_api)

    def shot(self, label: str) -> None:
        self.page.screenshot(path=str(screenshot_path(f"{label}-{self.name}.png")),
                             full_page=True)


# Each phone's fleet, on different squares so that a leak of one into the other's pages shows:
# 15 Battleships across in four columns, a land unit with a Bomber and an R.P. on it.
LAYOUT = {"red": {"rows": (1, 3, 5, 7), "land": "A 19", "planes": ("A 19", "B 19")},
          "blue": {"rows": (2, 4, 6, 8), "land": "S 19", "planes": ("S 19", "T 19")}}
COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"


def fleet_squares(seat: str) -> set[str]:
    layout = LAYOUT[seat]
    squares = {f"{COLUMNS[start + k]} {layout['rows'][i // 4]}" for i in range(15)
               for start in [COLUMNS.index("AFKP"[i % 4])] for k in range(4)}
    land = layout["land"].split()
    col, row = COLUMNS.index(land[0]), int(land[1])
    return squares | {f"{COLUMNS[col + c]} {row + r}" for c in range(3) for r in range(3)}


def budget_and_place(phone: Phone) -> None:
    page, layout = phone.page, LAYOUT[phone.name]
    for field, count in PURCHASE.items():
        page.fill(f"#{field}", count)
    assert "Total: 121" in page.inner_text(".totals").replace("\n", " ")
    page.click("#budget-form button[type=submit]")
    page.wait_for_selector("#save-state:has-text('Draft saved')")  # the chart is redrawn then
    cell = page.locator('#place-chart [data-sq="K 10"]').bounding_box()
    assert cell["width"] >= 28 and cell["height"] >= 28, cell  # a thumb hits the right square
    page.click('#piece-bar [data-kind="battleship"]')
    for i in range(15):
        page.click(f'#place-chart [data-sq="{"AFKP"[i % 4]} {layout["rows"][i // 4]}"]')
    page.click('#piece-bar [data-kind="land"]')
    page.click(f'#place-chart [data-sq="{layout["land"]}"]')
    page.click('#piece-bar [data-kind="bomber"]')
    page.click(f'#place-chart [data-sq="{layout["planes"][0]}"]')
    page.click('#piece-bar [data-kind="recon"]')
    page.click(f'#place-chart [data-sq="{layout["planes"][1]}"]')
    page.wait_for_selector("#tally:has-text('legal')")


def fire_salvo(phone: Phone, squares: list[str]) -> None:
    page = phone.page
    page.check("input[name=weapon][value=salvo]")
    for square in squares:
        page.click(f'#charts figure:first-child [data-sq="{square}"]')
    assert page.input_value("#at") == ", ".join(squares)
    page.click("#fire")
    page.wait_for_selector("#last")


def wait_for_turn(phone: Phone) -> None:
    phone.page.wait_for_selector(".your-turn", timeout=15000)


def told_squares(bodies: list[tuple[str, str]]) -> set[str]:
    """Squares of the opponent's chart this phone was told about by its reports (R20)."""
    told: set[str] = set()
    for _, body in bodies:
        match = re.search(r'<script type="application/json" id="page-data">(.*?)</script>',
                          body, re.S)
        view = json.loads(match.group(1)).get("view") if match else None
        if view:
            for report in view["reports"]:
                told.update(report.get("at") or [])
                told.update(s["square"] for s in report.get("seen") or [])
    return told


def test_two_phones_play_a_game_and_a_third_sees_nothing(browser, live_server):
    red, blue, stranger = (Phone(browser, n) for n in ("red", "blue", "stranger"))
    red.page.goto(live_server.url + "/")
    red.shot("01-home")
    red.page.fill("#name", "Ann")
    red.page.click("button[type=submit]")
    red.page.wait_for_url("**/host")
    qr = red.context.request.get(live_server.url + red.page.get_attribute("img.qr", "src"))
    assert qr.ok and qr.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in qr.body() and b"xmlns" in qr.body()
    red.shot("02-host")
    join_link = red.page.input_value("#link-blue")
    game_url = red.page.url.removesuffix("/host")

    blue.page.goto(join_link)
    blue.shot("03-join")
    blue.page.fill("#name", "Bob")
    blue.page.click("button[type=submit]")
    blue.page.wait_for_selector("#budget-form")
    blue.shot("04-budget")

    # the stranger scanned nothing: he holds no seat and cannot take a taken one
    stranger.page.goto(game_url)
    assert "holds no seat" in stranger.page.content()
    stranger.page.goto(join_link)  # the old link says so before any form
    assert "This seat is taken" in stranger.page.content()
    assert stranger.page.locator("#name").count() == 0
    stranger.shot("05-stranger")

    red.page.goto(game_url)
    budget_and_place(red)
    budget_and_place(blue)
    blue.shot("06-placed")
    red.page.click("#lock-button")
    red.page.wait_for_selector("text=Locked in")
    blue.page.click("#lock-button")
    blue.page.wait_for_selector("h1.turn")
    red.page.wait_for_selector("h1.turn", timeout=15000)  # the waiting page reloads itself

    first = red if red.page.query_selector(".your-turn") else blue
    second = blue if first is red else red
    row = LAYOUT[second.name]["rows"][0]
    first.shot("07-play-first")
    fire_salvo(first, [f"A {row}", f"B {row}", f"C {row}"])
    wait_for_turn(second)
    second.shot("08-play-second")
    assert "Battleship" in second.page.inner_text("#last")
    fire_salvo(second, ["K 12", "L 12", "M 12"])
    wait_for_turn(first)
    fire_salvo(first, [f"D {row}", f"F {row + 1}", f"G {row + 1}"])  # D sinks A-D
    wait_for_turn(second)
    assert "sunk" in first.page.inner_text("#last")
    first.shot("08-play-sunk")

    # a stranger cannot act in the game either
    stranger.page.goto(game_url)
    assert "holds no seat" in stranger.page.content()
    assert "page-data" not in stranger.page.content()

    for phone in (second, first):
        phone.page.goto(game_url)
        phone.page.click("form[action$='/end'] button")
    first.page.wait_for_selector("text=Game over", timeout=15000)
    second.page.goto(game_url)
    second.page.wait_for_selector("text=Game over")
    headline = first.page.inner_text(".headline")
    assert re.search(r"wins by \d+ points to \d+|draw", headline), headline
    for phone in (first, second):
        phone.page.wait_for_selector("#charts > div:nth-child(2) figure")
        phone.shot("09-over")

    # R21: before the end, no page a player loaded held an opponent square he was not told
    for phone in (red, blue):
        before_end = [(url, body) for url, body in phone.bodies if "Game over" not in body]
        assert before_end
        told = told_squares(before_end)
        hidden = fleet_squares("blue" if phone.name == "red" else "red") - told
        for url, body in before_end:
            named = {f"{m[0]} {m[1]}" for m in SQUARE.findall(body)}
            assert not named & hidden, (phone.name, url, sorted(named & hidden))
