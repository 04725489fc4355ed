"""Seats on phones (R24, R25), in Debian's Chromium at 390 x 844 with touch: a lost phone's seat
recovered on another with its recovery code, and a stand-in computer taking the seat of a
player whose move clock ran out, until he comes back and moves himself.

The referee is served from this process (``browser_support.RefereeHere``) so that the test can
move its clock (``service.clock.now``) past a move clock instead of sleeping through it.
Screenshots go to ``test-output/screenshots/seats-*.png``.
"""

from __future__ import annotations

import json

import pytest
from browser_support import referee_here, require_browser

sync_api = require_browser()

from test_browser import (  # noqa: E402
    LAYOUT,
    PURCHASE,
    Phone,
    fire_salvo,
    wait_for_turn,
)


@pytest.fixture
def referee(tmp_path):
    yield from referee_here(tmp_path, "seats")


def fleet(seat: str) -> dict:
    """test_browser's fleet for this seat: 15 Battleships, a land unit, a Bomber and an R.P."""
    layout = LAYOUT[seat]
    ships = [{"type": "battleship", "at": f"{'AFKP'[i % 4]} {layout['rows'][i // 4]}",
              "dir": "across"} for i in range(15)]
    return {"land": [layout["land"]], "ships": ships, "guns": [],
            "aircraft": [{"type": "bomber", "at": layout["planes"][0]},
                         {"type": "recon", "at": layout["planes"][1]}]}


def buy_place_and_lock(phone: Phone, game_url: str) -> None:
    """Buy on the budget page, then lay the fleet down through the page's own draft endpoint
    (placement by tapping is test_browser's subject), and lock in."""
    page = phone.page
    page.goto(game_url)
    for field, count in PURCHASE.items():
        page.fill(f"#{field}", count)
    page.locator("#budget-form").evaluate("form => form.requestSubmit()")
    page.wait_for_selector("#save-state:has-text('Draft saved')")  # the page's own first save
    token = page.get_attribute("meta[name=csrf-token]", "content")
    response = phone.context.request.post(
        game_url + "/draft", data=json.dumps({"disposition": fleet(phone.name)}),
        headers={"Content-Type": "application/json", "Accept": "application/json",
                 "X-CSRFToken": token})
    assert response.ok and response.json()["complete"], response.text()
    page.reload()
    page.click("#lock-button")


def create(phone: Phone, url: str, name: str, move_minutes: str = "") -> str:
    page = phone.page
    page.goto(url + "/")
    page.fill("#name", name)
    if move_minutes:
        page.fill("#move_minutes", move_minutes)
    page.click("form:has(#seats) button[type=submit]")
    page.wait_for_url("**/host")
    return page.url.removesuffix("/host")


def test_r24_a_lost_phone_recovers_its_seat_with_the_recovery_code(browser, referee):
    red, blue, new_blue = (Phone(browser, n) for n in ("red", "blue", "blue-new"))
    game_url = create(red, referee.url, "Ann")
    red.page.wait_for_selector("#recovery")
    assert "Print / write this down" in red.page.inner_text("#recovery")
    red.shot("seats-01-host-recovery-code")
    join_link = red.page.input_value("#link-blue")

    blue.page.goto(join_link)
    blue.page.fill("#name", "Bob")
    blue.page.click("form:has(#name) button[type=submit]")
    blue.page.wait_for_selector("#budget-form")
    code = blue.page.inner_text(".recovery-code code")
    blue.shot("seats-02-joined-recovery-code")
    blue.page.reload()
    assert blue.page.query_selector("#recovery") is None  # shown once

    # Bob's phone dies; on a borrowed phone he opens the join link and types his code
    new_blue.page.goto(join_link)
    assert new_blue.page.is_visible("text=I had this seat: enter your recovery code")
    new_blue.page.fill("#recovery_code", code.lower().replace("-", " "))
    new_blue.shot("seats-03-recover-form")
    new_blue.page.click("#recover button[type=submit]")
    new_blue.page.wait_for_selector("#budget-form")
    fresh = new_blue.page.inner_text(".recovery-code code")
    assert fresh != code
    assert "old phone is logged out" in new_blue.page.inner_text(".flashes")
    new_blue.shot("seats-04-recovered")

    blue.page.goto(game_url)
    assert "handed to another device" in blue.page.content()
    blue.shot("seats-05-old-phone-logged-out")
    for phone in (red, blue, new_blue):
        phone.context.close()


def test_r25_a_stand_in_computer_plays_for_an_absent_player_until_he_moves(browser, referee):
    red, blue = Phone(browser, "red"), Phone(browser, "blue")
    game_url = create(red, referee.url, "Ann", move_minutes="5")
    join_link = red.page.input_value("#link-blue")
    blue.page.goto(join_link)
    blue.page.fill("#name", "Bob")
    blue.page.click("form:has(#name) button[type=submit]")
    blue.page.wait_for_selector("#recovery")
    buy_place_and_lock(red, game_url)
    red.page.wait_for_selector("text=Locked in")
    buy_place_and_lock(blue, game_url)
    blue.page.wait_for_selector("h1.turn")
    red.page.wait_for_selector("h1.turn", timeout=15000)

    walker = red if red.page.query_selector(".your-turn") else blue
    other = blue if walker is red else red
    name = walker.name.title()
    assert "move clock (R25, 5 min a move)" in other.page.inner_text(".move-clock")
    walker.page.goto("about:blank")  # he walks away from the table
    referee.advance(6)
    other.page.reload()
    offer = other.page.locator(".stand-in-offer")
    offer.wait_for(state="visible")
    assert f"{name} has not moved for 5 minutes" in offer.inner_text()
    other.shot("seats-06-stand-in-offer")
    other.page.click(f"text=Let the computer play for {name}")
    wait_for_turn(other)
    assert "the computer played for" in other.page.inner_text("#last")
    other.shot("seats-07-computer-played")

    # a minute on he is still away. (A request his page sent as it closed may have been
    # answered after the clock was moved, and counted him seen at the new time: present for
    # 30 s, R25. In play no clock jumps, so that is the test's own race.)
    referee.advance(1)
    fire_salvo(other, ["A 10", "B 10", "C 10"])  # he is still away: the computer answers
    wait_for_turn(other)
    assert "played by the computer" in other.page.inner_text(".log")

    walker.page.goto(game_url)  # he is back
    walker.page.wait_for_selector(".stand-in-you")
    walker.shot("seats-08-back-computer-playing")
    fire_salvo(other, ["A 11", "B 11", "C 11"])
    wait_for_turn(walker)  # his page is open: the computer waits for him
    fire_salvo(walker, ["A 12", "B 12", "C 12"])
    wait_for_turn(other)
    walker.page.reload()
    assert walker.page.query_selector(".stand-in-you") is None
    walker.shot("seats-09-took-seat-back")

    red.page.goto(game_url + "/host")
    text = red.page.inner_text("main")
    assert "to move" in text and "move clock (R25" in text and "Dispositions" not in text
    red.shot("seats-10-host-in-play")

    # an offer to end shows at the top of the other player's page
    other.page.goto(game_url)
    other.page.click("form[action$='/end'] button")
    walker.page.goto(game_url)
    banner = walker.page.wait_for_selector(".end-offer")
    assert banner.bounding_box()["y"] < 400
    walker.shot("seats-11-end-offer-banner")
    walker.page.click(".end-offer >> text=Play on")
    walker.page.wait_for_selector("text=the offer to end the game has lapsed")
    for phone in (red, blue):
        phone.context.close()
