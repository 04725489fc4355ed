"""Issue 12 item 5 on a phone: the home page asks how many pages of blank move record to
print, at 390 x 844 with touch, and the PDF that comes back has them. The screenshot goes to
``test-output/screenshots/``."""

from __future__ import annotations

import io
import urllib.request

import pypdf
import pytest
from test_browser import PHONE, SHOTS, browser  # noqa: F401 (the fixture)

sync_api = pytest.importorskip("playwright.sync_api")


def test_i12_item5_phone_prints_three_pages_of_move_record(browser, live_server):  # noqa: F811
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
        form.locator("select[name=paper]").select_option("letter")
        box = form.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390  # no sideways scroll
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "i12-record-pages-home.png"), full_page=False)
        with page.expect_response(lambda r: "/printables/blank-record.pdf" in r.url) as got:
            form.get_by_role("button", name="Print").tap()
        response = got.value
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
