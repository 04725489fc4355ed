"""Broadsides and Boarding Parties on two phones: Debian's Chromium at 390 x 844 against a live
referee, a whole game played by taps alone. Both players join by their links, tap a cell of their
deck for the Captain and lock in (each phone adding a dice seed of its own, BB24); plot three
rounds from the hand of cards (BB4) while the other phone sees only that a plot is in (BB5); fire
two volleys, the first aimed by a tap on the enemy's deck, the second and the final volley by
standing orders in one tap (BB10, BB19); then board, a piece and a cell a movement, until a
Captain falls in hand-to-hand (BB21-BB23); and read the post-mortem's dice audit and recompute
every roll from the exported file. Neither phone's console holds an error, and no request but
those expected is refused.

The sailing is fixed (it brings the ships alongside in round 3 and together on its last card,
with no die for how they lie); the dice are the referee's, so the boarding is played by a simple
tactic (``plan_turn``) that ends a game within a few turns whatever they roll. Screenshots of
every screen go to ``test-output/screenshots/`` (boarding-*.png)."""

from __future__ import annotations

import json
import re

from boarding_web_support import CAPTAINS, SAILING, plan_turn
from browser_support import PHONE, require_browser, screenshot_path
from rule_set_tables import Table

from referee.common import dice

sync_api = require_browser()  # the one gate (tests/browser_support.py)

WAIT = 15_000  # ms: the other phone hears of a move on the game's stream at once
STEP_MS = 950  # ms: each card turned up on the sea stays this long (boarding.js)


class Phone:
    """One player's phone: its page, what its console said and what the referee refused it."""

    def __init__(self, browser, seat: str) -> None:
        self.seat = seat
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.refused: list[str] = []
        self.page.on("console", lambda m: m.type in ("error", "warning") and
                     self.errors.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("response", lambda r: r.status >= 400 and
                     self.refused.append(f"{r.status} {r.request.method} {r.url}"))
        self.asked: list[str] = []  # what the page asked before a step not taken back
        self.page.on("dialog", lambda d: (self.asked.append(d.message), d.accept()))
        self.page.clock.install()  # the page's timers, in real time until held

    def hold_time(self) -> None:
        """Stop the page's timers: the cards it turns up next wait for ``turn_up``, so that a
        card shown for under a second is not missed on a loaded machine."""
        self.page.clock.pause_at(self.page.evaluate("Date.now()") + 10)

    def turn_up(self, card: int) -> str:
        """Let the page's time run on to its next card turned up (the first comes half a
        step after the page is drawn), and say what it shows then."""
        self.page.clock.run_for(STEP_MS // 2 if card == 1 else STEP_MS)
        return self.page.inner_text("#bb-step-text")

    def shot(self, label: str) -> None:
        self.page.screenshot(path=str(screenshot_path(f"boarding-{self.seat}-{label}.png")))

    def data(self) -> dict:
        return json.loads(self.page.text_content("#page-data"))

    def wait_for(self, selector: str) -> None:
        self.page.wait_for_selector(selector, timeout=WAIT)

    def tap_cell(self, place: str, svg: str = "#bb-decks") -> None:
        self.page.click(f'{svg} g.tap[data-place="{place}"]')

    def submit(self, button: str) -> None:
        with self.page.expect_navigation():
            self.page.click(button)


def plot(phone: Phone, cards: list[str]) -> None:
    """Tap three cards from the hand into the slots, then seal the plot."""
    phone.wait_for('#bb-order[data-kind="plot"] #bb-slot-1')
    copies: dict[str, int] = {}
    for card in cards:
        copy = copies.get(card, 0)
        copies[card] = copy + 1
        phone.page.click(f'#bb-hand [data-card="{card}"][data-copy="{copy}"]')
    assert phone.page.inner_text("#bb-seal").startswith("Seal my plot: ")
    phone.submit("#bb-seal")


def declare(phone: Phone, volley: int) -> None:
    """The first volley aimed by a tap on the enemy's section H; later ones standing orders."""
    phone.wait_for('#bb-order[data-kind="declaration"]')
    if volley == 0:
        them = "blue" if phone.seat == "red" else "red"
        phone.tap_cell(f"{them} H4")
        assert phone.page.locator('input[type=radio][value="H"]:checked').count() == \
            len(phone.data()["legal"]["cannons"])
        phone.shot("06-volley-aimed")
        phone.submit("#bb-fire")
    else:
        assert "H" in phone.page.inner_text("#bb-standing")
        phone.submit("#bb-standing")


def board(phone: Phone, turn: int) -> None:
    """One boarding turn by taps: a piece, then the cell it steps to, three times."""
    phone.wait_for('#bb-order[data-kind="boarding"]')
    data = phone.data()
    for n, (start, end, captain) in enumerate(plan_turn(data)):
        phone.tap_cell(start)
        if captain and phone.page.is_visible("#bb-captain") and \
                "Captain" in phone.page.inner_text("#bb-captain"):
            phone.page.click("#bb-captain")
        phone.tap_cell(end)
        assert phone.page.locator("#bb-moves li").count() == n + 1
        if turn == 0 and n == 0:
            phone.shot("09-boarding-a-movement")
    phone.submit("#bb-board-go")


def shown(phone: Phone) -> tuple[int, bool]:
    """The game's version the page was drawn at, and whether its taps are live yet: read
    from the body's attributes (no evaluated predicate: the page's CSP, ``script-src 'self'``,
    forbids the eval ``wait_for_function`` needs)."""
    body = phone.page.locator("body")
    return int(body.get_attribute("data-version") or 0), \
        body.get_attribute("data-ready") is not None


def version(phone: Phone) -> int:
    return shown(phone)[0]


def follows(phone: Phone, other: Phone | int) -> None:
    """The phone's page catches up by itself (the game's stream) with the version the other
    phone's last order made (or the version given)."""
    wanted = other if isinstance(other, int) else version(other)
    for _ in range(WAIT // 50):
        try:
            at, ready = shown(phone)
            if at >= wanted and ready:
                return
        except (sync_api.Error, TypeError, ValueError):
            pass  # between a page and the next
        phone.page.wait_for_timeout(50)
    raise AssertionError(f"{phone.seat}'s page still shows version {shown(phone)[0]}, "
                         f"not {wanted}")


def owes(phone: Phone) -> str | None:
    """The order the phone's page asks for now."""
    form = phone.page.query_selector("#bb-order")
    return form.get_attribute("data-kind") if form else None


def test_two_phones_play_broadsides_through_a_boarding_to_the_end(browser, live_server):
    api = live_server.api()
    status, created, _ = api.call("POST", "/api/v1/games",
                                  {"rules": "broadsides-boarding", "move_minutes": 10})
    assert status == 201, created
    phones = {seat: Phone(browser, seat) for seat in ("red", "blue")}
    red, blue = phones["red"], phones["blue"]
    for phone, name in ((red, "Ann"), (blue, "Bob &amp; \"Co\"")):
        phone.page.goto(created["seats"][phone.seat]["join_url"])
        phone.page.fill("#name", name)
        phone.page.click("button[type=submit]")
        phone.wait_for("body[data-ready='setup']")
        seed = phone.page.input_value("input[name=dice_seed]")
        assert re.fullmatch(r"[0-9a-f]{32}", seed), seed  # the phone's own (BB24)
        phone.tap_cell(f"{phone.seat} {CAPTAINS[phone.seat]}", "#bb-own-deck")
        phone.page.wait_for_selector("#bb-save-state:text-is('Saved')")
        assert phone.page.input_value("#captain") == CAPTAINS[phone.seat]
        phone.shot("01-setup")
        phone.submit("#bb-lock")
        assert "cannot be changed (BB16)" in phone.asked[-1]  # asked before locking in
        if phone is red:
            red.shot("02-locked-in")
    red.page.wait_for_selector('#bb-order[data-kind="plot"] #bb-slot-1', timeout=WAIT)
    for n, (red_cards, blue_cards) in enumerate(SAILING):
        plot(red, red_cards)
        follows(blue, red)
        if n == 0:  # Blue sees that Red's plot is in, never what it is (BB5)
            red.shot("03-plot-sealed")
            orders = blue.page.inner_text("#bb-orders-in")
            assert "Red: plot in, sealed" in orders and "Blue (you): owes a plot" in orders, \
                orders
            assert red.page.inner_text("#bb-sealed").count("Move Forward") == 3
            for card in ("forward", "forward", "port"):  # part way: its path on the sea
                blue.page.click(f'#bb-hand [data-card="{card}"]:not(.used)')
            blue.shot("04-plot-part-way")
            for slot in (3, 2, 1):
                blue.page.click(f"#bb-slot-{slot}")
        if n == 0:
            red.hold_time()
        plot(blue, blue_cards)
        follows(red, blue)
        if n == 0:  # round 1's cards turned up on Red's phone one at a time, the ships sailing
            for card in (1, 2, 3):
                assert f"Card {card}:" in red.turn_up(card)
                if card == 2:
                    red.shot("05-cards-turning-up")
            red.page.clock.resume()
    volleys = 0
    while "declaration" in (owes(red), owes(blue)):
        if volleys == 0:
            red.shot("05-volley")
        for phone, other in ((red, blue), (blue, red)):
            if owes(phone) == "declaration":
                declare(phone, volleys)
                follows(other, phone)
        follows(red, blue)
        volleys += 1
        assert volleys <= 3, "more volleys than the sailing brings"
    assert volleys == 3  # two in round 3, then the final volley (BB19)
    for phone in phones.values():
        assert "Boarding Parties" in phone.page.inner_text("#bb-stage")
    red.shot("07-volley-rolls")
    blue.shot("08-laid-side-by-side")
    for turn in range(41):
        assert turn < 40, "the boarding did not end"
        for phone, other in ((red, blue), (blue, red)):
            if owes(phone) == "promotion":  # a Captain lost to the final volley (BB19)
                phone.submit("#bb-promote-go")
                follows(other, phone)
        boarder = next((p for p in (red, blue) if owes(p) == "boarding"), None)
        if boarder is None:
            break
        board(boarder, turn)
        other = blue if boarder is red else red
        follows(other, boarder)
    for phone in phones.values():
        phone.wait_for("#bb-headline")
    headline = red.page.inner_text("#bb-headline")
    assert "Captain in hand-to-hand" in headline, headline
    assert 'Bob &amp; "Co"' in red.page.text_content("main")  # as typed, never as markup
    red.shot("10-over")
    blue.shot("10-over")
    assert "Fight at" in red.page.inner_text("#bb-latest")
    red.submit("#bb-postmortem")
    audit = red.page.inner_text("#bb-audit")
    assert "every one is the roll the seeds give" in audit
    red.shot("11-postmortem")
    exported = red.page.request.get(red.page.url.replace("/postmortem", "/export.json"))
    assert exported.ok
    found = dice.audit(exported.json()["events"])
    assert found.good and len(found.rolls) >= 3, (found.problems, found.mismatches)
    for phone in phones.values():
        assert not phone.errors, phone.errors
        assert not phone.refused, phone.refused
        phone.context.close()


def both_locked_in(api) -> tuple[Table, dict[str, str]]:
    """A game through the API, both seats joined and locked in with their Captains: round 1's
    plots are owed. The table, and each seat's recovery code (R24)."""
    status, created, _ = api.call("POST", "/api/v1/games",
                                  {"rules": "broadsides-boarding", "move_minutes": 10})
    assert status == 201, created
    tokens, codes = {}, {}
    for seat, info in created["seats"].items():
        status, keys, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                   {"join_code": info["join_code"], "name": seat.title()})
        assert status == 200, keys
        tokens[seat], codes[seat] = keys["token"], keys["recovery_code"]
    table = Table(api, "broadsides-boarding", created["id"], created["host_token"], tokens)
    for seat, captain in CAPTAINS.items():
        assert table.call(seat, "PUT", "/disposition", {"captain": captain})[0] == 200
        assert table.call(seat, "POST", "/ready")[0] == 200
    return table, codes


def recovered(browser, live_server, table: Table, codes: dict[str, str], seat: str) -> Phone:
    """The seat's phone, on the game's page through the recover form (R24)."""
    phone = Phone(browser, seat)
    phone.page.goto(f"{live_server.url}/games/{table.id}/recover")
    phone.page.select_option("#seat", seat)
    phone.page.fill("#recovery_code", codes[seat])
    phone.submit("button[type=submit]")
    return phone


def alongside_until_damaged(api) -> tuple[Table, dict[str, str], str, int]:
    """A game through the API: the sailing brings the ships alongside in round 3 and then
    both stay where they are, every cannon that bears firing at section H, round after round,
    until a seat owes a plot with a Damaged card required (H's mast lost or its hull beyond
    repair, BB6). Only H is ever aimed at, where no cannon or crew stands and no ship can
    sink, so the game goes on whatever the dice. The seat, the cards required, and each
    seat's recovery code (R24)."""
    table, codes = both_locked_in(api)
    sailing = [*SAILING[:2], (["forward", "stay", "stay"], ["starboard", "stay", "stay"])]
    for _ in range(60):
        views = {seat: table.view(seat) for seat in table.tokens}
        assert views["red"]["phase"] == "play", views["red"].get("result")
        legal = {seat: view["legal"] for seat, view in views.items() if view["legal"]}
        plotting = {seat: owed for seat, owed in legal.items() if owed["kind"] == "plot"}
        damaged = [seat for seat, owed in plotting.items() if owed["damaged"]]
        if damaged and len(plotting) == 2:
            return table, codes, damaged[0], plotting[damaged[0]]["damaged"]
        for seat, owed in legal.items():
            if owed["kind"] == "plot":
                round_no = views[seat]["stage"]["round"]
                cards = sailing[round_no - 1][seat == "blue"] if round_no <= len(sailing) \
                    else ["stay"] * 3
                order = {"cards": cards}
            else:
                assert owed["kind"] == "declaration", owed
                order = {"standing": True} if owed["standing"] else \
                    {"targets": dict.fromkeys(owed["cannons"], "H")}
            status, body, _ = table.call(seat, "POST", "/moves", order)
            assert status == 201, body
    raise AssertionError("no Damaged card was required after 60 orders aimed at H")


def test_bb6_a_damaged_ship_plots_on_a_phone_with_its_damaged_cards_placed(browser,
                                                                          live_server):
    """The Damaged cards required are shown and placed for the player (BB6): the slots hold
    them as the page opens, no more can be tapped in, a slot taken back leaves the plot
    unsealable until a Damaged card is placed again, and the plot sealed is the one the
    referee turns up."""
    table, codes, seat, required = alongside_until_damaged(live_server.api())
    other = "blue" if seat == "red" else "red"
    phone = recovered(browser, live_server, table, codes, seat)
    page = phone.page
    phone.wait_for('body[data-ready="play"] #bb-order[data-kind="plot"] #bb-slot-1')
    note = page.inner_text("#bb-damaged")
    assert f"{required} Damaged card" in note and "required this round (BB6)" in note, note
    for n in (1, 2, 3):  # placed for him, in the first slots
        slot = page.locator(f"#bb-slot-{n}")
        assert ("Damaged" in slot.inner_text()) == (n <= required), (n, slot.inner_text())
    damaged = '#bb-hand [data-card="damaged"][data-copy="{}"]'
    assert page.is_disabled(damaged.format(required)), "a Damaged card beyond those required"
    page.locator("#bb-damaged").scroll_into_view_if_needed()
    phone.shot("12-damaged-placed")
    page.click("#bb-slot-1")  # taken back: the seal waits for it
    assert "Damaged" not in page.inner_text("#bb-slot-1") and page.is_disabled("#bb-seal")
    for copy in range(3 - required):  # the slots left: Remain in Place
        page.click(f'#bb-hand [data-card="stay"][data-copy="{copy}"]')
    assert page.is_disabled(f'#bb-hand [data-card="stay"][data-copy="{3 - required}"]'), \
        "a card in the slot the Damaged card is owed"
    assert "Place the Damaged card" in page.inner_text("#bb-plot-note")
    assert page.is_disabled("#bb-seal")
    page.click("#bb-slot-1")  # and card 1 is to be the Damaged one again
    page.click(damaged.format(0))
    assert "Damaged" in page.inner_text("#bb-slot-1") and page.is_disabled("#bb-seal")
    page.click('#bb-hand [data-card="stay"]:not(.used)')  # the slot left empty
    assert page.is_enabled("#bb-seal")
    phone.submit("#bb-seal")
    assert "Damaged" in page.inner_text("#bb-sealed")
    owed = table.view(other)["legal"]["damaged"]
    phone.hold_time()
    status, body, _ = table.call(other, "POST", "/moves",
                                 {"cards": ["damaged"] * owed + ["stay"] * (3 - owed)})
    assert status == 201, body
    follows(phone, table.view(other)["version"])
    turned = phone.turn_up(1)  # turned up on the phone
    phone.page.clock.resume()
    assert f"{seat.title()} Damaged Mast and/or Hull (played as Remain in Place)" in turned, \
        turned
    page.locator("#bb-step-text").scroll_into_view_if_needed()
    phone.shot("13-damaged-turned-up")
    record = table.call(other, "GET", "/record")[1]
    sealed = next(m for m in reversed(record["moves"]) if m["seat"] == seat)
    assert sealed["order"]["cards"] == ["damaged", None, None]  # the rest still sealed (BB5)
    assert not phone.errors and not phone.refused, (phone.errors, phone.refused)
    phone.context.close()


def test_bb5_a_card_tapped_while_the_other_plot_comes_in_is_kept(browser, live_server):
    """Red's plot comes in while Blue's page is untouched, so the page fetches itself afresh
    to show it; Blue taps a card while that fetch is on its way. The page must not then swap
    in the fetched page, which would throw his card away: it keeps his plot and offers the
    news, and shows it when he asks."""
    table, codes = both_locked_in(live_server.api())
    blue = recovered(browser, live_server, table, codes, "blue")
    page = blue.page
    blue.wait_for('body[data-ready="play"] #bb-order[data-kind="plot"] #bb-slot-1')
    before = version(blue)
    held = []  # the page's own fetch of itself, answered only after the tap

    def hold(route) -> None:
        if route.request.resource_type != "fetch":
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(page.url, hold)
    status, body, _ = table.call("red", "POST", "/moves",
                                 {"cards": ["forward", "forward", "forward"]})
    assert status == 201, body
    for _ in range(WAIT // 50):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page did not fetch itself on the news of Red's plot"
    page.click('#bb-hand [data-card="port"][data-copy="0"]')
    route, answer = held[0]
    route.fulfill(response=answer)
    blue.wait_for("#news button")
    assert version(blue) == before  # not swapped: his card is still there
    assert "Port" in page.inner_text("#bb-slot-1"), page.inner_text("#bb-slot-1")
    assert page.locator('#bb-hand [data-card="port"][data-copy="0"].used').count() == 1
    page.locator("#news").scroll_into_view_if_needed()
    blue.shot("14-news-while-plotting")
    page.unroute(page.url)
    page.click("#news button")  # he asks: the page as it is now
    follows(blue, table.view("red")["version"])
    assert "Red: plot in, sealed" in page.inner_text("#bb-orders-in")
    assert not blue.errors and not blue.refused, (blue.errors, blue.refused)
    blue.context.close()


def test_a_page_that_cannot_fetch_itself_offers_the_news_to_try_again(browser, live_server):
    """The page's fetch of itself on the news of Red's plot fails (a phone on a club's
    flaky Wi-Fi): no page error, and the news is offered, which shows it once the network
    is back."""
    table, codes = both_locked_in(live_server.api())
    blue = recovered(browser, live_server, table, codes, "blue")
    page = blue.page
    blue.wait_for('body[data-ready="play"] #bb-order[data-kind="plot"] #bb-slot-1')
    dropped = []

    def drop(route) -> None:
        if route.request.resource_type != "fetch":
            route.continue_()
        else:
            dropped.append(route.request.url)
            route.abort()

    page.route(page.url, drop)
    status, body, _ = table.call("red", "POST", "/moves",
                                 {"cards": ["forward", "forward", "forward"]})
    assert status == 201, body
    blue.wait_for("#news button")
    assert dropped, "the page did not try to fetch itself"
    page.unroute(page.url)
    page.click("#news button")
    follows(blue, table.view("red")["version"])
    assert "Red: plot in, sealed" in page.inner_text("#bb-orders-in")
    # the browser's own line for the failed request, and nothing of the page's
    assert all("Failed to load resource" in e for e in blue.errors), blue.errors
    assert not blue.refused, blue.refused
    blue.context.close()


def test_an_older_answer_to_the_pages_fetch_is_not_swapped_in_over_a_newer_one(browser,
                                                                             live_server):
    """The game moves twice while Blue's page fetches itself: Red's plot, then Red's offer
    to end. The fetch for the plot is answered last; the page must keep the newer one it
    already shows, never go back to the older."""
    table, codes = both_locked_in(live_server.api())
    blue = recovered(browser, live_server, table, codes, "blue")
    page = blue.page
    blue.wait_for('body[data-ready="play"] #bb-order[data-kind="plot"] #bb-slot-1')
    held = []  # the first fetch, answered only after the second

    def hold_the_first(route) -> None:
        if route.request.resource_type != "fetch" or held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route(page.url, hold_the_first)
    status, body, _ = table.call("red", "POST", "/moves",
                                 {"cards": ["forward", "forward", "forward"]})
    assert status == 201, body
    for _ in range(WAIT // 50):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page did not fetch itself on the news of Red's plot"
    status, body, _ = table.call("red", "POST", "/end")
    assert status == 200, body
    newer = table.view("red")["version"]
    follows(blue, newer)  # the second fetch, answered at once
    assert "Red agreed to end." in page.inner_text("#endgame")
    route, answer = held[0]
    route.fulfill(response=answer)
    page.wait_for_timeout(1000)  # the older answer has come, and is left aside
    assert version(blue) == newer
    assert "Red agreed to end." in page.inner_text("#endgame")
    assert not blue.errors and not blue.refused, (blue.errors, blue.refused)
    blue.context.close()
