"""Placing a fleet by thumb, and a whole game's pages, on phones: Debian's Chromium, Playwright, 390
x 844 with touch.

Every kind of piece is placed and removed by tapping (a gun on land and a plane on a carrier
included), pieces are moved, a smaller budget takes placed guns off and the seat still locks
in; the piece bar stays in reach; a message stays until the next tap; then a whole game
checks the icons, that no request of any page fails and the console stays clean, the waiting
page's chart, a move kept over a reload, the home page's games and the post-mortem's steps.
Screenshots go to ``test-output/screenshots/``.
"""

from __future__ import annotations

import json

import pytest
from browser_support import PHONE, require_browser, screenshot_path

sync_api = require_browser()

# one of every kind of piece but battleships (R4 needs 60 points of ships), 122 points
PURCHASE = {"carrier": 1, "battleship": 13, "cruiser": 1, "destroyer": 1, "submarine": 1,
            "atom-bomber": 1, "bomber": 1, "recon": 1, "aa-gun": 2, "salvo": 44}


class Phone:
    """A phone that notes every failed request and every console error of its pages."""

    def __init__(self, browser, name: str) -> None:
        self.name = name
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.failures: list[str] = []
        self.page.on("console", lambda m: m.type in ("error", "warning") and self.failures
                     .append(f"console {m.type}: {m.text} ({self.page.url})"))
        self.page.on("pageerror", lambda e: self.failures.append(f"script error: {e}"))
        self.page.on("dialog", lambda dialog: dialog.accept())  # "Lock in this fleet?": yes
        self.page.on("requestfailed", lambda r: "ERR_ABORTED" not in (r.failure or "")
                     and self.failures.append(f"request failed: {r.url} {r.failure}"))
        # (a poll in flight when the phone moves to another page is aborted: not a failure)
        self.page.on("response", lambda r: r.status >= 400 and self.failures.append(
            f"{r.status} {r.request.method} {r.url}"))

    def shot(self, label: str, full: bool = False) -> None:
        self.page.screenshot(path=str(screenshot_path(f"placement-{label}-{self.name}.png")),
                             full_page=full)

    def cell(self, square: str):
        return self.page.locator(f'#place-chart [data-sq="{square}"]')

    def tap(self, square: str) -> None:
        self.cell(square).tap()

    def chip(self, kind: str) -> None:
        self.page.locator(f'#piece-bar [data-kind="{kind}"]').tap()

    def look(self, square: str) -> str:
        return self.cell(square).get_attribute("class") or ""

    def saved(self) -> None:
        self.page.wait_for_selector("#save-state:has-text('Draft saved')")


def new_game(phone: Phone, url: str, name: str = "Ann") -> str:
    phone.page.goto(url + "/")
    phone.page.fill("#name", name)
    phone.page.click("form.stack:not([action]) button[type=submit]")
    phone.page.wait_for_url("**/host")
    return phone.page.url.removesuffix("/host")


def buy(phone: Phone, purchase: dict) -> None:
    for kind, n in purchase.items():
        phone.page.fill(f"#{kind.replace('-', '_')}", str(n))
    phone.page.click("#budget-form button[type=submit]")
    phone.page.wait_for_selector("#place-chart .cell")


def test_every_piece_is_placed_picked_up_and_removed_by_tapping(browser, live_server):
    phone = Phone(browser, "red")
    game_url = new_game(phone, live_server.url)
    phone.page.goto(game_url)
    buy(phone, PURCHASE)
    page = phone.page
    bar = page.locator("#piece-bar")
    box = bar.bounding_box()  # the picker sits at the foot of the screen, in reach
    assert box["y"] + box["height"] == pytest.approx(844, abs=1) and box["height"] < 200
    labels = [c.get_attribute("data-kind") for c in page.locator("#piece-bar .chip").all()]
    assert labels == ["carrier", "battleship", "cruiser", "destroyer", "submarine",
                      "atom-bomber", "bomber", "recon", "aa-gun", "land"]  # ships, air, ground
    assert page.get_attribute("#piece-bar", "data-kind") == "carrier"
    phone.saved()  # (the chart is redrawn when the first save comes back)
    assert phone.cell("K 10").bounding_box()["width"] >= 28  # a thumb's square

    phone.chip("land")
    phone.tap("B 10")  # land B-D 10-12
    assert "land" in phone.look("C 11")
    phone.chip("carrier")
    phone.tap("H 2")  # carrier H-I 2-3
    assert "ship" in phone.look("I 3")
    phone.chip("bomber")
    phone.tap("H 2")  # a plane on the carrier (R9)
    assert "plane" in phone.look("H 2") and "on-ship" in phone.look("H 2")
    phone.chip("aa-gun")
    phone.tap("C 11")  # a gun on land
    assert "gun" in phone.look("C 11")
    phone.shot("01-placing")

    # the gun, tapped again with "A-A gun" chosen, is picked up, never stacked
    phone.tap("C 11")
    assert "A-A gun at C 11" in page.inner_text("#piece-now")
    assert "chosen" in phone.look("C 11")
    phone.shot("02-gun-picked-up")
    page.tap("#piece-remove")
    assert "Removed the A-A gun at C 11" in page.inner_text("#place-message")
    assert "land" in phone.look("C 11") and "gun" not in phone.look("C 11")
    # ... and with "Land" chosen, a tap on a gun picks up the gun, not the land under it
    phone.tap("C 11")
    phone.chip("land")
    phone.tap("C 11")
    assert "A-A gun at C 11" in page.inner_text("#piece-now")
    page.tap("#piece-remove")
    assert "land" in phone.look("C 11") and "gun" not in phone.look("C 11")
    phone.saved()
    assert page.evaluate("document.querySelectorAll('#place-chart .cell.gun').length") == 0

    # the plane on the carrier: picked up and removed, the carrier stays
    phone.tap("H 2")
    assert "Bomber at H 2" in page.inner_text("#piece-now")
    page.tap("#piece-remove")
    assert "ship" in phone.look("H 2") and "plane" not in phone.look("H 2")

    # every other kind: placed, picked up, removed
    for kind, square, where in (("atom-bomber", "B 10", "plane"), ("recon", "D 12", "plane"),
                                ("battleship", "M 5", "ship"), ("cruiser", "M 9", "ship"),
                                ("destroyer", "Q 9", "ship"), ("submarine", "M 13", "ship")):
        phone.chip(kind)
        phone.tap(square)
        assert where in phone.look(square), kind
        phone.tap(square)  # pick it up
        assert "chosen" in phone.look(square), kind
        if kind == "battleship":  # a second tap on a picked-up ship turns it
            phone.tap(square)
            assert "ship" in phone.look("M 8") and "ship" not in phone.look("N 5")
        page.tap("#piece-remove")
        assert where not in phone.look(square), kind

    # move: the carrier to L 16, then the land unit with a gun on it (the gun goes along)
    phone.tap("H 2")
    phone.tap("L 16")
    assert "ship" in phone.look("M 17") and "ship" not in phone.look("H 2")
    phone.chip("aa-gun")
    phone.tap("D 12")
    phone.chip("land")
    phone.tap("B 10")
    assert "Land unit at B 10" in page.inner_text("#piece-now")
    phone.tap("B 15")
    assert "gun" in phone.look("D 17") and "land" in phone.look("B 15")
    assert "land" not in phone.look("B 10")
    phone.chip("carrier")  # the carrier's last one is placed: a tap on sea says so and it stays
    phone.tap("S 2")
    message = "No Aircraft Carrier left to place"
    assert message in page.inner_text("#place-message")
    phone.saved()
    page.wait_for_timeout(400)
    assert message in page.inner_text("#place-message")  # not overwritten by the save
    phone.shot("03-message-stays")
    phone.chip("aa-gun")  # the next tap clears it
    assert message not in page.inner_text("#place-message")

    # place one more gun, then buy fewer guns: the placed ones beyond are taken off
    phone.tap("C 17")
    phone.saved()
    assert page.evaluate("document.querySelectorAll('#place-chart .cell.gun').length") == 2
    page.click("text=Change the budget")
    page.fill("#aa_gun", "1")
    page.fill("#salvo", "45")
    page.click("#budget-form button[type=submit]")
    page.wait_for_selector("#place-chart .cell")
    flashed = page.inner_text(".flashes")
    assert "Taken off the chart" in flashed and "A-A gun at C 17" in flashed, flashed
    assert page.evaluate("document.querySelectorAll('#place-chart .cell.gun').length") == 1
    phone.shot("04-fewer-guns")
    page.tap("#fill-rest")  # the rest at random, then the seat locks in
    page.wait_for_selector("#tally:has-text('legal')")
    assert "Placed the rest at random" in page.inner_text("#place-message")
    assert "gun" in phone.look("D 17") and "ship" in phone.look("M 17")  # kept as placed
    phone.shot("05-rest-placed")
    page.click("#lock-button")
    page.wait_for_selector("text=Locked in")
    page.wait_for_selector("#charts .cell.ship")  # the waiting page shows your chart
    assert "gun" in (page.get_attribute('#charts [data-sq="D 17"]', "class") or "")
    phone.shot("06-waiting", full=True)
    assert phone.failures == [], phone.failures


def test_a_fleet_from_the_book_placed_for_a_beginner(browser, live_server):
    phone = Phone(browser, "beginner")
    phone.page.goto(new_game(phone, live_server.url, "Newcomer"))
    page = phone.page
    assert page.locator("details.book[open]").count() == 1
    phone.shot("07-budget-book", full=True)
    page.select_option("#fleet", "game-2-red")
    page.click("details.book button[type=submit]")
    page.wait_for_selector("#place-chart .cell")
    assert "Game 2, Red" in page.inner_text(".flashes")
    page.tap("#fill-rest")
    page.wait_for_selector("#tally:has-text('legal')")
    assert page.evaluate("document.querySelectorAll('#place-chart .cell.ship').length") == 100
    phone.shot("08-book-placed")
    assert phone.failures == [], phone.failures


def test_a_whole_game_has_icons_no_failed_request_and_keeps_a_move(browser, live_server):
    red, blue, late = (Phone(browser, n) for n in ("red", "blue", "late"))
    game_url = new_game(red, live_server.url)
    icons = red.page.evaluate("""[...document.querySelectorAll(
        'link[rel*=icon], link[rel=manifest]')].map((l) => l.href)""")
    assert len(icons) == 4
    for href in icons + [live_server.url + "/favicon.ico"]:
        assert red.context.request.get(href).ok, href
    join_link = red.page.input_value("#link-blue")
    blue.page.goto(join_link)
    blue.page.fill("#name", "Bob")
    blue.page.click("button[type=submit]")
    blue.page.wait_for_selector("#budget-form")
    late.page.goto(join_link)  # an old link: taken, said at once
    assert "This seat is taken" in late.page.inner_text("main")
    late.shot("09-join-taken")
    for phone in (red, blue):
        phone.page.goto(game_url)
        phone.page.select_option("#fleet", "game-3-red" if phone is red else "game-3-blue")
        phone.page.click("details.book button[type=submit]")
        phone.page.wait_for_selector("#place-chart .cell")
        phone.page.tap("#fill-rest")
        phone.page.wait_for_selector("#tally:has-text('legal')")
    red.page.click("#lock-button")
    red.page.wait_for_selector("text=Locked in")
    blue.page.click("#lock-button")
    for phone in (red, blue):
        phone.page.goto(game_url)
        phone.page.wait_for_selector("h1.turn")
    first = red if red.page.query_selector(".your-turn") else blue
    second = blue if first is red else red

    # a reload mid-move keeps the weapon and the targets (session storage)
    page = first.page
    page.check("input[name=weapon][value=salvo]")
    for square in ("A 1", "B 1"):
        page.click(f'#charts figure:first-child [data-sq="{square}"]')
    page.reload()
    page.wait_for_selector("#move-form")
    assert page.is_checked("input[name=weapon][value=salvo]")
    assert page.input_value("#at") == "A 1, B 1"
    page.click('#charts figure:first-child [data-sq="C 1"]')
    page.click("#fire")
    page.wait_for_selector("#last")
    page.goto(game_url)
    assert not page.is_checked("input[name=weapon][value=salvo]") if page.query_selector(
        "#move-form") else True  # the sent move is forgotten

    # the home page lists the game by names, phase and turn
    second.page.goto(live_server.url + "/")
    games = second.page.inner_text(".my-games")
    opponent = "Ann" if second is blue else "Bob"
    assert opponent in games and "In play" in games and "your turn" in games, games
    second.shot("10-home-games")
    first.page.goto(live_server.url + "/")
    assert "to move" in first.page.inner_text(".my-games")

    for phone in (second, first):
        phone.page.goto(game_url)
        phone.page.click("form[action$='/end'] button")
    first.page.wait_for_selector("text=Game over", timeout=15000)
    first.page.goto(game_url + "/postmortem")
    first.page.wait_for_selector("#charts figure")
    # the step buttons stay at the foot of the screen over the charts they move
    first.page.locator('#charts [data-sq="K 11"]').first.scroll_into_view_if_needed()
    bar = first.page.locator(".step-bar").bounding_box()
    assert bar["y"] + bar["height"] == pytest.approx(844, abs=2), bar
    first.page.tap("[data-step=first]")
    assert first.page.inner_text("#step-number") == "0"
    first.shot("11-postmortem-steps")
    for path in ("/club", "/", "/games/" + game_url.rsplit("/", 1)[1]):
        first.page.goto(live_server.url + path)  # the club, home and game-over pages too
        first.page.wait_for_load_state("networkidle")
    for phone in (red, blue, late):
        assert phone.failures == [], phone.failures


def test_placing_by_hand_a_compact_bar_a_piece_placed_again_and_again_and_a_chart_that_fits(
        browser, live_server):
    """The bar takes under 15% of the screen however long its words; the piece chosen stays
    chosen, and once its kind is all placed the bar moves on (after the last ship to land, for
    what stands on it, and after enough land to the next piece); "Next: R.P." ends with one
    full stop; the line of pieces shows it scrolls; the whole chart fits the phone's width
    with no sideways scroll, and the phone remembers that choice."""
    phone = Phone(browser, "by-hand")
    game_url = new_game(phone, live_server.url)
    phone.page.goto(game_url)
    buy(phone, PURCHASE)
    page = phone.page
    phone.saved()
    rows = (4, 6, 8, 10)
    draft = {"land": [], "aircraft": [], "guns": [], "ships": [
        {"type": "carrier", "at": "A 1"}, {"type": "cruiser", "at": "A 12", "dir": "across"},
        {"type": "destroyer", "at": "E 12", "dir": "across"},
        *[{"type": "battleship", "at": f"{'AFKP'[i % 4]} {rows[i // 4]}", "dir": "across"}
          for i in range(13)]]}
    token = page.get_attribute("meta[name=csrf-token]", "content")
    response = phone.context.request.post(
        game_url + "/draft", data=json.dumps({"disposition": draft}),
        headers={"Content-Type": "application/json", "Accept": "application/json",
                 "X-CSRFToken": token})
    assert response.ok, response.text()
    page.reload()
    phone.saved()
    heights = []

    def bar_share() -> float:
        box = page.locator("#piece-bar").bounding_box()
        heights.append(box["height"] / 844)
        return heights[-1]

    bar_share()
    assert page.get_attribute(".chips-hint", "data-more") in ("right", "both")  # more that way
    assert page.get_attribute("#piece-bar", "data-kind") == "submarine"  # the one left
    phone.tap("J 14")
    message = page.inner_text("#place-message")
    assert "All 1 Submarine placed. Next: land" in message, message
    assert page.get_attribute("#piece-bar", "data-kind") == "land"
    bar_share()
    phone.tap("P 16")  # one land unit is room for the atom bomber, the guns and a plane
    assert page.get_attribute("#piece-bar", "data-kind") == "atom-bomber"
    bar_share()
    phone.tap("P 16")
    assert page.get_attribute("#piece-bar", "data-kind") == "bomber"
    phone.tap("A 1")  # on the carrier
    message = page.inner_text("#place-message")
    assert message.endswith("Next: R.P.") and ".." not in message, message
    phone.tap("B 1")
    assert page.get_attribute("#piece-bar", "data-kind") == "aa-gun"
    for square in ("Q 16", "R 16"):
        phone.tap(square)  # the same piece again, without choosing it again
    phone.saved()
    page.wait_for_selector("#tally:has-text('legal')")
    phone.tap("Q 16")  # picked up: the bar's buttons for it
    phone.saved()  # (the chart is drawn again when the save comes back)
    bar_share()
    assert max(heights) < 0.15, heights
    phone.shot("12-compact-bar")

    page.tap("#piece-cancel")  # put it down
    page.tap("#zoom")
    cell = phone.cell("K 10").bounding_box()
    assert cell["width"] >= 17, cell
    scroller = page.locator("#place-chart").evaluate(
        "e => { const w = e.closest('.chart-wrap'); return [w.scrollWidth, w.clientWidth]; }")
    assert scroller[0] <= scroller[1], scroller  # the whole chart fits: no sideways scroll
    phone.shot("13-whole-chart")
    page.reload()
    phone.saved()  # (the page saves as it opens, and draws the chart again when that is saved)
    assert phone.cell("K 10").bounding_box()["width"] < 28  # remembered on this phone
    assert phone.failures == [], phone.failures
