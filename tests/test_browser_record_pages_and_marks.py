"""The printables and the marks on a phone, at 390 x 844 with touch: the home page asks how many
pages of blank move record to print, and the PDF that comes back has them; the charts on screen and
their key give a hit and a destroyed plane each its own symbol, and a sunk carrier shows ■ where a
plane stood on it. Screenshots go to ``test-output/screenshots/``."""

from __future__ import annotations

import io
import urllib.request

import pypdf
from apiclient import open_table
from browser_support import PHONE, require_browser, screenshot_path
from test_printables import FLEETS
from test_printables_record_pages_and_marks import MOVES, red_on_carrier

sync_api = require_browser()


def test_phone_prints_three_pages_of_move_record(browser, live_server):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(live_server.url + "/")
        form = page.locator("form.record-pages")
        form.scroll_into_view_if_needed()
        field = page.get_by_label("pages")
        assert field.input_value() == "2"
        field.tap()
        field.fill("3")
        box = form.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390  # no sideways scroll
        page.screenshot(path=str(screenshot_path("record-pages-home.png")),
                        full_page=False)
        with page.expect_response(lambda r: "/printables/blank-record.pdf" in r.url) as got:
            form.get_by_role("button", name="US Letter").tap()
        response = got.value
        page.wait_for_url("**/blank-record.pdf?*")  # the PDF's navigation has committed
        assert "pages=3" in response.url and "paper=letter" in response.url
        assert response.status == 200
        assert response.headers["content-type"] == "application/pdf"
        with urllib.request.urlopen(response.url, timeout=20) as again:  # Chromium's PDF
            reader = pypdf.PdfReader(io.BytesIO(again.read()))  # viewer keeps the body
        assert len(reader.pages) == 3 and "Page 3 of 3" in reader.pages[2].extract_text()
        page.goto(live_server.url + "/")  # the field refuses what the server would refuse
        field = page.get_by_label("pages")
        field.fill("25")
        assert not field.evaluate("e => e.checkValidity()")
    finally:
        context.close()


def test_screen_marks_destroyed_and_sunk_each_its_own_way(browser, live_server):
    """The screen's key gave ✕ to a hit while Red's own chart drew ✕ for a destroyed plane,
    and a sunk carrier showed the bomber's letter where it stood: one symbol per meaning."""
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface

    table = open_table(live_server.api())
    for seat, fleet in (("red", red_on_carrier()), ("blue", FLEETS["blue"])):
        status, data, _ = table.as_seat(seat, "PUT", "/disposition", fleet)
        assert status == 200, data
        status, data, _ = table.as_seat(seat, "POST", "/ready")
        assert status == 200, data
    left = {seat: list(moves) for seat, moves in MOVES.items()}
    while left["red"] or left["blue"]:
        turn = table.view("red")["turn"]
        status, data, _ = table.as_seat(turn, "POST", "/moves", left[turn].pop(0))
        assert status == 201, data
    signer = Flask("sign")
    signer.secret_key = "live-test"  # the live server's (conftest)
    cookie = SecureCookieSessionInterface().get_signing_serializer(signer).dumps(
        {"seats": {table.id: table.tokens["red"]}, "_permanent": True})
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": "session", "value": cookie, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/games/{table.id}")
        page.wait_for_selector("#own-chart .cell[data-sq='L 1']")
        read = "els => els.map(e => [e.dataset.sq, e.textContent, e.className])"
        own = {sq: (text, cls.split()) for sq, text, cls in
               page.eval_on_selector_all("#own-chart .cell", read)}
        for square in ("L 1", "M 1", "L 2", "M 2"):  # the bomber at L 1 went down with it
            assert own[square][0] == "■" and "sunk" in own[square][1], (square, own[square])
        label = page.get_attribute("#own-chart .cell[data-sq='L 1']", "aria-label")
        assert "sunk" in label and "Bomber lost with it" in label
        for square in ("H 1", "I 1", "I 2", "A 3", "I 3"):
            assert own[square][0] == "✕" and "destroyed" in own[square][1], own[square]
            assert "gone" not in own[square][1]  # the ring is for what flew or fired
        for square, letter in (("B 1", "A"), ("C 1", "b"), ("G 1", "r")):
            assert own[square] == (letter, ["cell", "plane", "gone"]), own[square]
        for square in ("F 5", "G 5", "H 5"):
            assert own[square] == ("B", ["cell", "ship", "hit"])
        theirs = {sq: (text, cls.split()) for sq, text, cls in
                  page.eval_on_selector_all("#charts .cell", read)}
        for square in ("A 13", "A 14"):  # Red's salvo destroyed Blue's R.P. and gun there
            assert theirs[square][0] == "✕" and "destroyed" in theirs[square][1]
        assert theirs["P 14"][0] == "B" and "hit" in theirs["P 14"][1]
        page.locator("details.legend summary").tap()
        legend = page.inner_text("details.legend")
        assert "✕ aircraft or gun destroyed" in legend and "B ship hit" in legend
        assert "✕ hit" not in legend
        page.locator("#own-chart").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_path("marks-own-chart.png")))
        page.locator("details.legend").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_path("marks-legend.png")))
    finally:
        context.close()
