"""The pages' scripts: a pencil mark that the server did not save is reported on the phone, not lost
in silence. At 390 x 844 with touch."""

from __future__ import annotations

from api_support import table_in_play
from browser_support import PHONE, require_browser, screenshot_path
from helpers import QUIET
from playwright.sync_api import expect

sync_api = require_browser()


def signed_session(table, seat: str) -> str:
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface

    signer = Flask("sign")
    signer.secret_key = "live-test"  # the live server's (conftest)
    return SecureCookieSessionInterface().get_signing_serializer(signer).dumps(
        {"seats": {table.id: table.tokens[seat]}, "_permanent": True})


def test_a_pencil_mark_not_saved_is_reported(browser, live_server):
    table = table_in_play(live_server.api(), {"red": QUIET, "blue": QUIET})
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": "session", "value": signed_session(table, "red"),
                          "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/games/{table.id}")
        page.wait_for_selector("#charts .cell[data-sq='K 10']")
        page.check("#pencil")
        page.route("**/marks", lambda route: route.fulfill(status=500, body="{}"))
        page.locator("#charts .cell[data-sq='K 10']").first.tap()
        page.wait_for_selector("#marks-state:has-text('not saved')")
        page.unroute("**/marks")
        page.locator("#charts .cell[data-sq='K 11']").first.tap()  # saved: the warning goes
        # a locator, not wait_for_function: the page's CSP forbids the eval that would need
        expect(page.locator("#marks-state")).to_have_text("", timeout=10000)
        page.screenshot(path=str(screenshot_path("marks-saved-red.png")))
    finally:
        context.close()
