"""Broadside on phones (setting up, moving, the board): Debian's Chromium at 390 x 844 with touch,
through Playwright.

The pages are the rule set's own templates rendered from the core's views and served to the
browser by a route (no server needed), so the harbour's drawing, its taps and what each page
shows are checked on their own; a whole game on two phones against a live server is at the
end, with the scan of everything Red's phone received for Blue's secrets (B12). Screenshots go
to ``test-output/screenshots/`` (broadside-*.png).
"""

from __future__ import annotations

import json
import mimetypes
import random
import re
from pathlib import Path

import pytest
from broadside_web_support import BLUE, RED, charge, finished, played, started
from browser_support import (
    PHONE,
    SHOTS,
    RecordingPhone,
    lock_in_by_page,
    require_browser,
)
from pages_support import unversioned

from referee import create_app
from referee.broadside.board import BOARD, YELLOW_CIRCLES
from referee.broadside.game import new_game
from referee.broadside.views import view_for
from referee.broadside.web import pages as bs_pages

STATIC = Path(__file__).resolve().parent.parent / "referee" / "static"
BS_STATIC = STATIC.parent / "broadside" / "web" / "static"  # the rule set's own
ORIGIN = "http://referee.test"

sync_api = require_browser()  # the one gate (tests/browser_support.py)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    """Red's and Blue's setup, play and game-over pages, from the core's views of games."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "DATABASE": str(tmp_path_factory.mktemp("bs") / "referee.db")})
    pages = {}
    with app.test_request_context("/"):
        for seat in ("red", "blue"):
            game, _ = new_game(id="g1", seed=0, at=0.0, options={})
            game.join("red", "Ann")
            game.join("blue", "Bob")
            pages[f"setup-{seat}"] = bs_pages.seat_page("g1", seat, view_for(game, seat))
        game = played(40)
        assert game.turn == "red"
        pages["play-red"] = bs_pages.seat_page("g1", "red", view_for(game, "red"))
        pages["play-blue"] = bs_pages.seat_page("g1", "blue", view_for(game, "blue"))
        game = finished()
        pages["over-red"] = bs_pages.seat_page("g1", "red", view_for(game, "red"))
    return pages


class Phone:
    """A phone showing one rendered page; the drafts it posts are answered as the server
    would (``save_draft``'s answer: the problems and the harbour drawn)."""

    def __init__(self, browser, pages: dict[str, str], name: str, app) -> None:
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.drafts: list[dict] = []
        self.seat = name.split("-")[-1]
        self.app = app
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.route(f"{ORIGIN}/**", self._serve)
        self.pages = pages
        self.page.goto(f"{ORIGIN}/page/{name}")
        self.page.wait_for_selector("body[data-ready] #bs-board svg.harbour")

    def _serve(self, route) -> None:
        path = unversioned(route.request.url[len(ORIGIN):].split("?")[0]) or ""
        for prefix, folder in (("/broadside/static/", BS_STATIC), ("/static/", STATIC)):
            if path.startswith(prefix) and (folder / path[len(prefix):]).is_file():
                body = (folder / path[len(prefix):]).read_bytes()
                return route.fulfill(body=body, content_type=mimetypes.guess_type(path)[0])
        if path.startswith("/page/"):
            return route.fulfill(body=self.pages[path[6:]], content_type="text/html")
        if path.endswith("/draft"):
            draft = json.loads(route.request.post_data)["disposition"]
            self.drafts.append(draft)
            with self.app.test_request_context("/"):
                game, _ = new_game(id="g1", seed=0, at=0.0, options={})
                view = view_for(game, self.seat)
                problems = bs_pages.draft_problems(self.seat, draft)
                board = bs_pages.draft_board(view, draft, problems)
            return route.fulfill(body=json.dumps({"problems": problems, "board": board}),
                                 content_type="application/json")
        return route.fulfill(status=404, body="")

    def tap(self, cross: str) -> dict:
        """Tap a cross of the harbour and wait for the draft the page saves after it."""
        before = len(self.drafts)
        self.page.locator(f'#bs-board g.tap[data-cross="{cross}"]').tap()
        return self.saved(before)

    def saved(self, before: int) -> dict:
        for _ in range(250):
            if len(self.drafts) > before:
                self.page.wait_for_selector("#save-state:text-is('Saved')")
                return self.drafts[-1]
            self.page.wait_for_timeout(20)
        raise AssertionError("no draft saved")

    def shot(self, label: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"broadside-{label}.png"), full_page=True)

    def box(self, cross: str) -> dict:
        return self.page.locator(f'#bs-board g.tap[data-cross="{cross}"] rect').bounding_box()

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


@pytest.fixture
def phone(browser, rendered, tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test",
                      "DATABASE": str(tmp_path / "referee.db")})
    opened = []

    def open_page(name: str) -> Phone:
        opened.append(Phone(browser, rendered, name, app))
        return opened[-1]

    yield open_page
    for each in opened:
        each.close()


def test_b1_phones_the_harbour_fills_a_390_px_phone_docks_at_top_entrance_at_bottom(phone):
    p = phone("play-red")
    svg = p.page.locator("#bs-board svg").bounding_box()
    assert svg["x"] >= 0 and svg["x"] + svg["width"] <= 390 and svg["width"] >= 340
    cell = p.box("A 2")
    assert cell["width"] >= 25 and cell["height"] >= 25  # a cross big enough to tap
    dock = p.page.locator("#bs-board g.merchant").first.bounding_box()
    circle = p.box(BOARD["red_circles"][0]["at"])
    entrance = p.box(BOARD["entrance"][0])
    assert dock["y"] < circle["y"] < entrance["y"]
    assert p.page.locator("#bs-board g.ship").count() == len(view_for(played(40), "red")["ships"])
    p.shot("play-red")


def test_b3_b4_phones_blue_sets_up_by_tapping_and_hears_of_b4_at_once(phone):
    p = phone("setup-blue")
    assert p.page.locator("#bs-chips .chip[aria-pressed=true]").inner_text().startswith(
        "Frigate")
    draft = p.tap("A 2")
    assert draft["ships"] == [{"type": "frigate", "at": "A 2"}]
    assert p.page.locator('#bs-board g.ship[data-ship="A 2"]').count() == 1  # drawn back
    p.tap("B 2")
    draft = p.tap("A 2")  # tap a placed ship: taken off
    assert draft["ships"] == [{"type": "frigate", "at": "B 2"}]
    p.page.locator(f"#bs-board g.tap[data-cross='{BOARD['red_start'][0]}']").tap()  # Red's
    assert "B3" in p.page.locator("#bs-message").inner_text()
    for cross in BOARD["blue_start"][2:11]:
        p.tap(cross)
    assert len(p.drafts[-1]["ships"]) == 10
    row = BOARD["buoys"]["row"]
    for cross in row:
        draft = p.tap(cross)  # SINK on each of the row: refused at once (B4)
    assert all(draft["buoys"][c] == "sink" for c in row)
    problems = p.page.locator("#bs-problems").inner_text()
    assert "B4" in problems and "row" in problems
    assert p.page.locator("#bs-lock").is_disabled()
    p.shot("setup-blue-b4")
    p.tap(row[1])  # sink -> pass: the row is legal again
    assert "row" not in p.page.locator("#bs-problems").inner_text()
    for cross, kind in BLUE["buoys"].items():
        while p.drafts[-1]["buoys"].get(cross) != kind:
            p.tap(cross)
    for site, kind in BLUE["batteries"].items():
        while p.drafts[-1].get("batteries", {}).get(site) != kind:
            before = len(p.drafts)
            p.page.locator(f'#bs-board g.battery[data-site="{site}"]').tap()
            p.saved(before)
    assert not p.page.locator("#bs-lock").is_disabled()
    assert p.page.locator("#bs-problems li").count() == 0
    p.shot("setup-blue-done")


def test_b3_phones_red_sets_up_on_his_start_crosses_only(phone):
    p = phone("setup-red")
    assert p.page.locator("#bs-board g.battery").count() == 4
    for cross in BOARD["red_start"]:
        p.tap(cross)
    ships = p.drafts[-1]["ships"]
    assert sorted(s["type"] for s in ships) == sorted(s["type"] for s in RED["ships"])
    assert not p.page.locator("#bs-lock").is_disabled()
    yellow = YELLOW_CIRCLES[0]
    p.page.locator(f"#bs-board g.tap[data-cross='{yellow}']").tap()  # Red marks no buoy
    assert "B3" in p.page.locator("#bs-message").inner_text()
    p.shot("setup-red")


def test_b5_phones_tap_a_ship_then_a_cross_it_can_reach_from_the_legal_list(phone):
    p = phone("play-red")
    view = view_for(played(40), "red")
    legal = view["legal"]
    ship = legal[0]["ship"]
    p.page.locator(f'#bs-board g.tap[data-cross="{ship}"]').tap()
    marked = {el.get_attribute("data-cross")
              for el in p.page.locator("#bs-board g.tap.dest").all()}
    assert marked == {m["to"] for m in legal if m["ship"] == ship}
    move = next(m for m in legal if m["ship"] == ship and m["turn"] is not None)
    p.page.locator(f"#bs-turns [data-turn='{move['turn']}']").tap()  # turn first
    marked = {el.get_attribute("data-cross")
              for el in p.page.locator("#bs-board g.tap.dest").all()}
    assert marked == {m["to"] for m in legal if m["ship"] == ship and m["turn"] == move["turn"]}
    p.page.locator(f'#bs-board g.tap[data-cross="{move["to"]}"]').tap()  # then the run
    assert p.page.locator("#bs-ship").input_value() == ship
    assert p.page.locator("#bs-turn").input_value() == move["turn"]
    assert p.page.locator("#bs-to").input_value() == move["to"]
    assert p.page.locator("#bs-go").inner_text() == f"Sail to {move['to']}"
    p.shot("play-red-chosen")


def test_b5_phones_while_the_other_side_moves_the_harbour_takes_no_taps(phone):
    p = phone("play-blue")
    assert p.page.locator("#bs-move").count() == 0
    assert p.page.locator("#bs-board g.tap").count() == 0
    p.shot("play-blue-waiting")


def test_b12_phones_the_end_reveals_every_buoy_and_battery(phone):
    p = phone("over-red")
    assert p.page.locator("#bs-board g.yellow.unknown").count() == 0
    assert p.page.locator("#bs-board g.battery.unknown").count() == 0
    assert "Blue's buoys:" in p.page.inner_text("main")
    p.shot("over-red")


# -- a whole game on two phones against a live server -----------------------------------------

class LivePhone(RecordingPhone):
    """One player's phone on the live server: every HTML and JSON body it was sent is kept."""

    def __init__(self, browser, name: str) -> None:
        super().__init__(browser, name, sync_api)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def shot(self, label: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"broadside-live-{label}-{self.name}.png"),
                             full_page=True)

    def tap(self, selector: str) -> None:
        before = self.page.locator("#save-state").inner_text()
        self.page.locator(selector).tap()
        self.page.wait_for_function(
            "b => document.getElementById('save-state').textContent === 'Saved' && "
            "window.__saves !== b", arg=before)

    def set_up(self, fleet: dict) -> None:
        """Tap each ship's chip and its start cross; Blue marks his buoys and batteries."""
        page = self.page
        for ship in fleet["ships"]:
            page.locator(f'#bs-chips [data-kind="{ship["type"]}"]').tap()
            self._saved(lambda s=ship: page.locator(
                f'#bs-board g.tap[data-cross="{s["at"]}"]').tap())
        for cross, kind in fleet.get("buoys", {}).items():
            for _ in range(1 if kind == "sink" else 2):
                self._saved(lambda c=cross: page.locator(
                    f'#bs-board g.tap[data-cross="{c}"]').tap())
        for site, kind in fleet.get("batteries", {}).items():
            for _ in range(1 if kind == "hit" else 2):
                self._saved(lambda s=site: page.locator(
                    f'#bs-board g.battery[data-site="{s}"]').tap())
        page.wait_for_selector("#bs-lock:not([disabled])")

    def _saved(self, action) -> None:
        with self.page.expect_response(lambda r: r.url.endswith("/draft")):
            action()
        self.page.wait_for_selector("#save-state:text-is('Saved')")

    def move(self, move: dict, last: bool = False) -> None:
        page = self.page
        page.wait_for_selector("body[data-ready=play] .your-turn", timeout=20000)
        if "pass" in move:
            with page.expect_navigation():
                page.locator("#bs-pass-button").tap()
        else:
            page.locator(f'#bs-board g.tap[data-cross="{move["ship"]}"]').tap()
            page.locator(f'#bs-board g.tap[data-cross="{move["to"]}"]').tap()
            assert page.locator("#bs-go").inner_text() == f"Sail to {move['to']}"
            with page.expect_navigation():
                page.locator("#bs-go").tap()
        page.wait_for_load_state()

    def view(self) -> dict:
        text = self.page.locator("#page-data").text_content()
        return json.loads(text)["view"]


def planned(seed: int = 9, charging: dict[str, float] | None = None
            ) -> tuple[list[dict], dict]:
    """A whole game from RED and BLUE, played by the core alone: each move the charge up (or
    down) the harbour, as often as ``charging`` says for the side, or else any legal move at
    random (B5). Seed 9, Red charging four moves in five and Blue sailing at random, ends in
    45 moves: Red sinks the four merchant ships, two ships strike rocks, batteries take three
    masts, and four buoys are never found (so Red's phone must never learn them)."""
    charging = charging or {"red": 0.8, "blue": 0.0}
    game = started()
    chance = random.Random(seed)
    moves = []
    while game.phase == "play":
        view = view_for(game, game.turn)
        move = (charge(view, view["legal"]) if chance.random() < charging[game.turn] else None) \
            or chance.choice(view["legal"])
        game.move(game.turn, move)
        moves.append(move)
    return moves, game.result_document()


def result_reports(plan: list[dict]) -> list[dict]:
    """The reports of the planned game, played by the core alone."""
    game = started()
    for move in plan:
        game.move(game.turn, move)
    return game.reports


def test_b12_two_phones_play_a_whole_game_of_broadside(browser, live_server):
    api = live_server.api()
    status, created, _ = api.call("POST", "/api/v1/games", {"rules": "broadside"})
    assert status == 201, created
    red, blue = LivePhone(browser, "red"), LivePhone(browser, "blue")
    for phone, name in ((red, "Ann"), (blue, "Bob")):
        phone.page.goto(created["seats"][phone.name]["join_url"])
        phone.page.fill("#name", name)
        phone.page.click("button[type=submit]")
        phone.page.wait_for_selector("body[data-ready=setup] #bs-board svg.harbour")
    red.set_up(RED)
    blue.set_up(BLUE)
    for phone in (red, blue):
        phone.shot("01-set-up")
        phone.page.locator("#bs-lock").tap()
        phone.page.wait_for_load_state()
    red.page.wait_for_selector(".your-turn", timeout=20000)
    red.shot("02-play")
    plan, result = planned()
    revealed: set[str] = set()
    for n, move in enumerate(plan):
        phone = red if n % 2 == 0 else blue  # B5: Red first, then turn about
        try:
            phone.page.wait_for_selector("body[data-ready=play] .your-turn", timeout=30000)
        except sync_api.Error:
            red.shot("failed")
            blue.shot("failed")
            raise
        view = phone.view()
        assert move in view["legal"], (n, move)
        revealed |= {b["at"] for r in view["reports"] for b in r["buoys"]}
        phone.move(move)
        if n == 5:
            red.shot("03-moved")
            blue.shot("03-moved")
    for phone in (red, blue):
        phone.page.wait_for_selector(".headline", timeout=30000)  # the poll brings the end
        phone.page.wait_for_load_state()
        assert "Game over" in phone.page.content()
        phone.shot("04-over")
    assert result["reason"] == "merchants" and len(plan) == 45
    assert "Red sank all four merchant ships" in red.page.inner_text(".headline")
    unfound = set(BLUE["buoys"]) - revealed
    assert unfound, "some buoys were never found: the scan below has secrets to look for"
    red.page.locator("a[href$='/postmortem']").first.tap()
    red.page.wait_for_selector("#bs-board svg.harbour")
    red.page.locator("#bs-first").tap()
    red.page.wait_for_selector("text=The fleets as set up")
    red.page.locator("#bs-next").tap()
    red.page.wait_for_selector("#bs-step-text")
    assert red.page.inner_text("#bs-step-text").startswith("1. Red's")
    red.shot("05-postmortem")
    # the totals the rules document promises (B12): warships lost by cause, merchant ships
    # sunk, the masts each battery took, the rocks that sank ships
    totals = red.page.locator("#totals")
    lost = {row.locator("th").inner_text(): [int(t) for t in row.locator("td").all_inner_texts()]
            for row in totals.locator("#warships-lost tbody tr").all()}
    rocks = sum(1 for r in result_reports(plan) for s in r["sunk"] if s["by"] == "rock")
    assert sum(row[2] for row in lost.values()) == rocks == 2
    assert all(row[3] == sum(row[:3]) for row in lost.values())
    assert "Merchant ships Red sank: 4 of 4." in totals.inner_text()
    taken = [int(t) for t in totals.locator("#battery-masts td:nth-child(3)").all_inner_texts()]
    assert sum(taken) == 3
    assert totals.locator("li:has-text('Sunk on a rock')").count() == 2
    totals.scroll_into_view_if_needed()
    red.page.screenshot(path=str(SHOTS / "broadside-live-06-totals-red.png"))
    # B12: nothing of Blue's secrets reached Red's phone before the end but the buoys his
    # ships found: every page, draft answer and poll it was sent, scanned for the kind of
    # each buoy never found and for any battery's HIT or MISS
    scanned = 0
    for url, body in red.bodies:
        if "Game over" in body or "/postmortem" in url:
            continue  # after the end all is revealed (B12)
        scanned += 1
        for cross in unfound:
            assert not re.search(rf'"{cross}":{{"kind":"(sink|pass)"', body), (url, cross)
            assert not re.search(rf'class="yellow (sink|pass)[^"]*" data-buoy="{cross}"',
                                 body), (url, cross)
            assert f"{cross}, yellow circle: a SINK" not in body
            assert f"{cross}, yellow circle: a PASS" not in body
        assert not re.search(r'"[ABCD]":"(hit|miss)"', body), url
        assert not re.search(r'class="battery[- ](site |word )?(hit|miss)', body), url
        assert ": HIT" not in body and ": MISS" not in body, url
    assert scanned > 45
    seen_unknown = {cross for cross in unfound for _, body in red.bodies
                    if f'"{cross}":{{"kind":"unknown","revealed":false}}' in body}
    assert seen_unknown == unfound  # the scan read the views that hold those buoys
    assert not red.errors and not blue.errors, (red.errors, blue.errors)


def test_b11_phones_every_ship_is_told_apart_on_the_board_and_in_the_record(phone):
    # Red's three Frigates were all "Red's Frigate" in the reports, the same hull on the
    # board: now each has its number along its start line, beside its hull and in every report
    p = phone("play-red")
    view = p.page.evaluate("JSON.parse(document.getElementById('page-data').textContent)")[
        "view"]
    afloat = [s for s in view["ships"] if not s["sunk"]]
    names = [(s["side"], s["name"]) for s in afloat]
    assert len(set(names)) == len(names)  # no two alike
    numbers = p.page.locator("#bs-board g.ship text.ship-number")
    assert numbers.count() == len(afloat)
    for ship in afloat:  # each hull carries its number, and says its name to a screen reader
        hull = p.page.locator(f'#bs-board g.ship[data-ship="{ship["at"]}"]')
        assert hull.locator("text.ship-number").text_content() == str(ship["number"])
        assert f"{ship['side'].title()}'s {ship['name']} at {ship['at']}" in \
            hull.locator("title").first.text_content()
    record = p.page.locator("section:has(h2:text('Moves')) ol.log").inner_text()
    assert re.search(r"(Red|Blue)'s (Ship-of-the-Line|Frigate|Brig|Cutter) \d ", record)
    table = p.page.locator("table.bs-fleets tbody th").all_text_contents()  # folded away
    assert len(set(table)) == len(table) == len(afloat)
    p.shot("ships-numbered")


def test_b6_phones_a_buoy_found_is_drawn_gone_from_its_circle(phone):
    p = phone("play-red")  # by move 40 the buoys at J 13, D 13 (PASS) and K 13 (SINK) were found
    for cross in ("J 13", "D 13", "K 13"):
        circle = p.page.locator(f'#bs-board g.yellow[data-buoy="{cross}"]')
        assert "gone" in circle.get_attribute("class")  # removed (B6): an ordinary cross now
        assert circle.locator("text").count() == 0  # no S or P left standing there
        assert "removed" in circle.locator("title").first.text_content()
    unfound = p.page.locator('#bs-board g.yellow[data-buoy="F 6"]')
    assert unfound.locator("circle.buoy-top").count() == 1  # still in the water, unknown
    p.shot("buoys-found-gone")


def test_b10_b5_phones_the_players_may_agree_to_end_and_red_moves_first_as_said(browser,
                                                                                 live_server):
    api = live_server.api()
    status, created, _ = api.call("POST", "/api/v1/games", {"rules": "broadside"})
    assert status == 201, created
    red, blue = LivePhone(browser, "red-agree"), LivePhone(browser, "blue-agree")
    for phone, name in ((red, "Ann"), (blue, "Bob")):
        phone.page.goto(created["seats"][phone.name.split("-")[0]]["join_url"])
        said = phone.page.inner_text("#order-of-play")
        assert said.startswith("Order of play (B5): Red always moves first")  # no draw here
        assert "drawn" not in said and "R11" not in said
        phone.shot("00-join")
        phone.page.fill("#name", name)
        phone.page.click("button[type=submit]")
        phone.page.wait_for_selector("body[data-ready=setup] #bs-board svg.harbour")
    lock_in_by_page(red, RED, "#bs-lock")
    lock_in_by_page(blue, BLUE, "#bs-lock")
    red.page.wait_for_selector(".your-turn")  # the waiting page follows into play
    moves = red.page.locator("section:has(h2:text('Moves'))")
    assert moves.locator(".log-empty").inner_text() == "No moves yet: Red moves first (B5)."
    assert moves.locator("ol li").count() == 0  # not "1. No moves yet"
    agree = red.page.locator("#agree-to-end")
    assert agree.inner_text() == "Agree to end now (a draw, B10)"
    with red.page.expect_navigation():
        agree.tap()
    assert "You agreed to end the game (B10)" in red.page.inner_text(".flashes")
    offer = blue.page.locator("#end-offer")
    offer.wait_for(timeout=15000)  # Blue's page follows the game and shows the offer
    assert "Red asks to end the game now (B10). It ends when both agree: a draw." in \
        offer.inner_text()
    blue.shot("02-end-offered")
    with blue.page.expect_navigation():
        offer.locator("button:text('Agree')").tap()
    for phone in (red, blue):
        phone.page.wait_for_selector(".headline", timeout=15000)
        assert "draw" in phone.page.inner_text(".headline").lower()
    blue.shot("03-ended-by-agreement")
    assert not red.errors and not blue.errors, (red.errors, blue.errors)
    for phone in (red, blue):
        phone.context.close()
