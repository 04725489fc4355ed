"""On a phone (390 x 844): the order of play drawn at creation (R11) and the sides (R23) on every
page from the join on. Screenshots go to ``test-output/screenshots/order-*``."""

from __future__ import annotations

import pytest
from browser_support import require_browser

require_browser()

from test_browser import Phone, budget_and_place  # noqa: E402


def order_line(phone: Phone) -> str:
    return " ".join(phone.page.inner_text("#order-of-play").split())


@pytest.mark.parametrize("alliances", [[["red", "green"], ["blue"]]])
def test_r11_r23_pages_show_the_order_and_sides_from_the_join_on(browser, live_server,
                                                                 alliances):
    api = live_server.api()
    status, created, _ = api.call("POST", "/api/v1/games", {
        "seats": 3, "alliances": alliances, "bots": {"green": "recruit"}})
    assert status == 201, created
    red, blue = Phone(browser, "red"), Phone(browser, "blue")

    red.page.goto(created["seats"]["red"]["join_url"])
    red.shot("order-01-join")
    drawn = order_line(red)
    assert drawn.startswith("Order of play (R11), drawn when the game was created:")
    assert "Sides (R23): Red and Green against Blue." in red.page.inner_text("#sides")
    red.page.fill("#name", "Ann")
    red.page.click("button[type=submit]")
    red.page.wait_for_selector("#budget-form")
    red.shot("order-02-budget")
    seats_in_order = [w.rstrip(",.") for w in drawn.split(":", 1)[1].split()
                      if w.rstrip(",.") in ("Red", "Blue", "Green")]
    assert sorted(seats_in_order) == ["Blue", "Green", "Red"]

    def same_order(phone: Phone) -> None:
        line = order_line(phone)
        assert [w.rstrip(",.") for w in line.split(":", 1)[1].split()
                if w.rstrip(",.") in ("Red", "Blue", "Green")] == seats_in_order, line

    same_order(red)
    budget_and_place(red)
    same_order(red)
    red.shot("order-03-placement")
    red.page.click("#lock-button")
    red.page.wait_for_selector("text=Locked in")
    same_order(red)
    red.shot("order-04-waiting")

    blue.page.goto(created["seats"]["blue"]["join_url"])
    same_order(blue)
    blue.page.fill("#name", "Bob")
    blue.page.click("button[type=submit]")
    blue.page.wait_for_selector("#budget-form")
    budget_and_place(blue)
    blue.page.click("#lock-button")
    blue.page.wait_for_selector("h1.turn", timeout=15000)
    red.page.wait_for_selector("h1.turn", timeout=15000)  # the waiting page reloads itself
    same_order(red)
    same_order(blue)
    assert "Sides (R23): Red and Green against Blue." in red.page.inner_text("#sides")
    assert "Ann" in order_line(red) and "Bob" in order_line(red)
    red.shot("order-05-play")
    blue.shot("order-05-play")
