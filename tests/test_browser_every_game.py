"""What every game's pages do alike, on a phone (Debian's Chromium at 390 x 844 with touch)
against the referee on loopback: the shared front-end kit (``referee/static/js``: its clocks,
following the game at the page's own interval) and the move clock's stand-in offer (R25) on
the pages of every game, not only the Naval War Game's.

The referee runs in this process with a clock the test can move (``service.clock.now``), so a
move clock runs out without the test sleeping through it. Screenshots go to
``test-output/screenshots/`` (every-game-*.png).
"""

from __future__ import annotations

import json
import time

import pytest
from broadside_web_support import BLUE as BS_BLUE
from broadside_web_support import RED as BS_RED
from browser_support import (
    POLL_MS,
    RecordingPhone,
    RefereeHere,
    lock_in_by_page,
    referee_here,
    require_browser,
    screenshot_path,
)
from tcg_web_support import BLUE as TCG_BLUE
from tcg_web_support import RED as TCG_RED

sync_api = require_browser()

GAMES = ("naval-war", "battleship-tcg", "broadside", "broadsides-boarding")
FLEETS = {"battleship-tcg": {"red": TCG_RED, "blue": TCG_BLUE},
          "broadside": {"red": BS_RED, "blue": BS_BLUE}}


@pytest.fixture
def referee(tmp_path):
    yield from referee_here(tmp_path, "every")


class Phone(RecordingPhone):
    """Red's phone, every script error and console error it met kept."""

    def __init__(self, browser, name: str) -> None:
        super().__init__(browser, name, sync_api)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" else None)

    def shot(self, label: str) -> None:
        self.page.screenshot(path=str(screenshot_path(f"every-game-{label}.png")),
                             full_page=True)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def phone(browser):
    opened = []

    def open_phone(name: str) -> Phone:
        opened.append(Phone(browser, name))
        return opened[-1]

    yield open_phone
    for each in opened:
        each.close()


def new_game(referee: RefereeHere, phone: Phone, rules: str, **options) -> tuple[str, str]:
    """A game of these rules: Red joins on the phone, Blue through the API. (The game's
    page, Blue's token.)"""
    status, created, _ = referee.api.call("POST", "/api/v1/games", {"rules": rules, **options})
    assert status == 201, created
    seats = created["seats"]
    status, joined, _ = referee.api.call("POST", f"/api/v1/games/{created['id']}/seats/blue",
                                         {"join_code": seats["blue"]["join_code"],
                                          "name": "Bob"})
    assert status == 200, joined
    phone.page.goto(seats["red"]["join_url"])
    phone.page.fill("#name", "Ann")
    phone.page.click("form:has(#name) button[type=submit]")
    phone.page.wait_for_url(f"**/games/{created['id']}")
    return phone.page.url, joined["token"]


def clock_text(phone: Phone, selector: str) -> str:
    return phone.page.inner_text(f"{selector} .clock-left")


@pytest.mark.parametrize("rules", GAMES)
def test_r10_the_dispositions_clock_counts_down_on_every_games_setup_page(browser, referee,
                                                                           phone, rules):
    red = phone(f"clock-{rules}")
    new_game(referee, red, rules)
    clock = red.page.locator(".clock[data-deadline]").first
    clock.wait_for()
    first = clock.locator(".clock-left").inner_text()
    assert first.endswith(" left"), first
    red.page.wait_for_function(
        "([el, was]) => el.querySelector('.clock-left').textContent !== was",
        arg=[clock.element_handle(), first], timeout=4000)  # it ticks each second
    red.shot(f"{rules}-setup-clock")


@pytest.mark.parametrize("rules", GAMES)
def test_every_games_page_asks_after_its_game_as_often_as_the_referee_says(browser, referee,
                                                                            phone, rules):
    # Where its stream fails (a proxy that buffers it, an old phone: refused here), a page
    # polls, as often as the referee's config says (POLL_MS: 200 ms here, 2 s by default),
    # read from <body data-poll-ms>: a browser test need not wait through 2 s polls
    red = phone(f"poll-{rules}")
    refused: list[str] = []

    def refuse(route) -> None:
        refused.append(route.request.url)
        route.abort()

    red.page.route("**/stream", refuse)
    game_url, _ = new_game(referee, red, rules)
    assert red.page.get_attribute("body", "data-poll-ms") == str(POLL_MS)
    asked: list[float] = []
    red.page.on("request", lambda r: asked.append(time.monotonic())
                if r.url.endswith("/status") else None)
    red.page.wait_for_timeout(1500)
    assert len(asked) >= 4, (game_url, len(asked))
    assert refused
    for _ in refused:  # the console's word for each stream refused here, and nothing else
        red.errors.remove("Failed to load resource: net::ERR_FAILED")


def lock_in_blue(referee: RefereeHere, game_url: str, token: str, disposition: dict) -> int:
    """Blue locks in through the API; the game's version then."""
    game = f"/api/v1/games/{game_url.rsplit('/', 1)[1]}"
    status, body, _ = referee.api.call("PUT", f"{game}/disposition", disposition, token=token)
    assert status == 200, body
    status, body, _ = referee.api.call("POST", f"{game}/ready", token=token)
    assert status == 200, body
    return referee.api.call("GET", game, token=token)[1]["version"]


def move_on_the_page(phone: Phone, rules: str) -> None:
    """Red's move by tapping: a shot at the first sea hole of Blue's half (T7), or the
    first of the view's legal moves (B5)."""
    page = phone.page
    page.wait_for_selector(".your-turn")
    view = json.loads(page.locator("#page-data").text_content())["view"]
    if rules == "battleship-tcg":
        islands = set(view["islands"]["blue"])
        hole = next(h for h in (f"{c} {r}" for r in range(1, 11) for c in "ABCDEFGHIJKLMNO")
                    if h not in islands)
        page.locator(f'#tcg-theirs [data-hole="{hole}"]').tap()
        with page.expect_navigation():
            page.locator("#tcg-fire").tap()
    else:
        move = view["legal"][0]
        page.wait_for_selector("body[data-ready=play]")
        page.locator(f'#bs-board g.tap[data-cross="{move["ship"]}"]').tap()
        page.locator(f'#bs-board g.tap[data-cross="{move["to"]}"]').tap()
        with page.expect_navigation():
            page.locator("#bs-go").tap()


@pytest.mark.parametrize("rules", ["battleship-tcg", "broadside"])
def test_r25_the_move_clock_counts_down_and_offers_the_stand_in_on_every_game(
        browser, referee, phone, rules):
    red = phone(f"stand-in-{rules}")
    game_url, blue = new_game(referee, red, rules, move_minutes=1)
    lock_in_by_page(red, FLEETS[rules]["red"], "#tcg-lock, #bs-lock")
    version = lock_in_blue(referee, game_url, blue, FLEETS[rules]["blue"])
    # the waiting page follows the game into play: wait until it shows the game as it is,
    # so that no redraw of its own comes in the middle of a tap
    red.page.wait_for_selector(f'body[data-version="{version}"] h1.turn', timeout=15000)
    if red.page.locator(".your-turn").count():
        move_on_the_page(red, rules)  # now Blue is to move, and his clock runs
    red.page.wait_for_selector("h1.turn:not(:has(.your-turn))")
    clock = red.page.locator("#move-clock")
    assert "Blue's move clock (R25, 1 min a move)" in clock.inner_text()
    first = clock_text(red, "#move-clock")
    red.page.wait_for_function(
        "was => document.querySelector('#move-clock .clock-left').textContent !== was",
        arg=first, timeout=4000)
    assert not red.page.locator(".stand-in-offer").is_visible()  # not before it runs out
    red.shot(f"{rules}-move-clock")

    # Blue walked away from the table: a few seconds of his minute left
    referee.advance(seconds=float(clock.get_attribute("data-deadline")) - referee.now() - 4)
    red.page.reload()
    assert clock_text(red, "#move-clock").startswith("0:0")
    assert not red.page.locator(".stand-in-offer").is_visible()
    offer = red.page.locator(".stand-in-offer")
    offer.wait_for(state="visible", timeout=8000)  # the page's own clock ran out
    assert red.page.locator("#move-clock.late").count() == 1
    assert clock_text(red, "#move-clock") == "time is up"
    assert "Blue has not moved for 1 minute" in offer.inner_text()
    red.shot(f"{rules}-stand-in-offer")
    # the tap's page, and perhaps its reload as the computer's move follows: wait for the
    # page that has it, whichever navigation brings it
    red.page.locator(".stand-in-offer button").tap()
    red.page.wait_for_selector(".your-turn")  # the computer moved for Blue
    red.page.wait_for_selector(".log >> text=(played by the computer)")
    red.page.wait_for_load_state()
    red.shot(f"{rules}-computer-played")


@pytest.mark.parametrize("rules", ["battleship-tcg", "broadside"])
def test_a_form_sent_from_a_page_is_not_cut_off_by_news_of_what_it_did(browser, referee, phone,
                                                                        rules):
    """"Agree to end" commits, and the game's stream tells the page so before the answer
    to its form has come back: the page must not reload itself then, for a reload cancels
    the form's navigation and its answer (the flash saying what was done) is lost. The
    answer is held here until the news has surely reached the page."""
    red = phone(f"form-and-news-{rules}")
    game_url, blue = new_game(referee, red, rules)
    lock_in_by_page(red, FLEETS[rules]["red"], "#tcg-lock, #bs-lock")
    version = lock_in_blue(referee, game_url, blue, FLEETS[rules]["blue"])
    red.page.wait_for_selector(f'body[data-version="{version}"] #agree-to-end', timeout=15000)
    heard: list[tuple[str, str | None]] = []  # each page asked for, and what sent there
    red.page.on("request", lambda r: heard.append(
        (r.url, r.redirected_from and r.redirected_from.url))
        if r.resource_type == "document" else None)

    def answer_late(route) -> None:
        answer = route.fetch(max_redirects=0)  # the agreement is committed and pushed ...
        try:
            red.page.wait_for_timeout(1500)  # ... and the news reaches the page first
            route.fulfill(response=answer)
        except sync_api.Error:
            pass  # the page went elsewhere meanwhile: the assertions below say where

    red.page.route("**/end", answer_late)
    with red.page.expect_navigation(url=game_url):
        red.page.locator("#agree-to-end").tap()
    red.page.wait_for_load_state()
    assert "You agreed to end the game" in red.page.inner_text(".flashes")
    # the form, then the page its answer sends to; no reload of the page in between
    assert heard == [(f"{game_url}/end", None), (game_url, f"{game_url}/end")], heard
    assert red.page.locator("#agree-to-end").is_disabled()
