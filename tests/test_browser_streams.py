"""A phone's game page follows its game's stream, in Debian's Chromium at 390 x 844 against a
real `referee serve` (two worker processes): the opponent's move shows on the page with every
poll blocked, in every rule set's pages; a woken phone asks at once; and with the stream's
route blocked (a proxy that will not carry it) the page polls and still shows the move.
Screenshots go to ``test-output/screenshots/stream-*.png``."""

from __future__ import annotations

import pytest
from browser_support import PHONE, require_browser, screenshot_path
from conftest import LiveServer
from rule_set_tables import RULES, Table

sync_api = require_browser()

SHOWN_WITHIN_MS = 8000  # a push shows in milliseconds; a poll within two seconds


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    live = LiveServer(tmp_path_factory.mktemp("browser-streams") / "s.db", workers=2).start()
    yield live
    live.stop()


def blues_turn_with_reds_seat_to_recover(server, rules: str) -> tuple[Table, str]:
    """A game in play, both seats set up by their computers through the API, played on
    until it is Blue's turn; and Red's recovery code, to move his seat to the phone."""
    api = server.api()
    status, created, _ = api.call("POST", "/api/v1/games", {"rules": rules})
    assert status == 201, created
    tokens, codes = {}, {}
    for seat, info in created["seats"].items():
        status, keys, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                   {"join_code": info["join_code"], "name": seat.title()})
        assert status == 200, keys
        tokens[seat], codes[seat] = keys["token"], keys["recovery_code"]
    table = Table(api, rules, created["id"], created["host_token"], tokens)
    for seat in tokens:
        document = table.computer(seat).disposition(table.view(seat))
        assert table.call(seat, "PUT", "/disposition", document)[0] == 200
        assert table.call(seat, "POST", "/ready")[0] == 200
    while table.turn() != "blue":
        assert table.move()[0] == 201
    return table, codes["red"]


def reds_phone(browser, server, table: Table, code: str, block: str):
    """Red's phone, his seat moved to it with his recovery code (R24), on his game's page;
    requests to ``block`` are refused (and counted)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    asked: list[str] = []

    def refuse(route) -> None:
        asked.append(route.request.url)
        route.abort()

    page.route(block, refuse)
    page.goto(f"{server.url}/games/{table.id}/recover")
    page.select_option("#seat", "red")
    page.fill("#recovery_code", code)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server.url}/games/{table.id}")
    del table.tokens["red"]  # signed out: the phone holds Red's seat now
    return context, page, asked


def version_of(page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


def wait_for_version_past(page, before: int) -> None:
    """Until the page shows a version after ``before`` (the page's own CSP forbids the
    evaluated predicates of ``wait_for_function``)."""
    for _ in range(SHOWN_WITHIN_MS // 100):
        try:
            if version_of(page) > before:
                return
        except (sync_api.Error, TypeError):
            pass  # between a page and the next
        page.wait_for_timeout(100)
    raise AssertionError(f"the page still shows version {before}")


@pytest.mark.parametrize("rules", RULES)
def test_the_opponents_move_shows_on_the_page_from_the_stream_with_polls_blocked(
        browser, server, rules):
    table, code = blues_turn_with_reds_seat_to_recover(server, rules)
    context, page, polls = reds_phone(browser, server, table, code, "**/games/*/status")
    try:
        before = version_of(page)
        page.wait_for_timeout(500)  # the stream opened and heard from
        assert table.move()[0] == 201  # Blue moves, through the API
        wait_for_version_past(page, before)
        page.wait_for_load_state()
        assert version_of(page) == table.version()
        assert polls == [], "the page polled though its stream was heard"
        page.screenshot(path=str(screenshot_path(f"stream-{rules}-pushed.png")),
                        full_page=True)
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # woken
        page.wait_for_timeout(500)
        assert len(polls) == 1, "a woken phone asks at once"
    finally:
        context.close()


def test_a_page_whose_stream_is_blocked_polls_and_shows_the_move(browser, server):
    table, code = blues_turn_with_reds_seat_to_recover(server, "naval-war")
    context, page, refused = reds_phone(browser, server, table, code, "**/games/*/stream")
    try:
        before = version_of(page)
        assert table.move()[0] == 201
        wait_for_version_past(page, before)
        assert refused, "the page never tried its stream"
        page.screenshot(path=str(screenshot_path("stream-blocked-polled.png")), full_page=True)
    finally:
        context.close()
