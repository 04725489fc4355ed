"""The details a player meets on a phone (390 x 844): targets typed on the play page are
written as the chart names squares and checked before Confirm (R1, R12); the chart's key
gives land and an R.P.'s "seen, empty" each their own mark; no buzz is asked for before the
phone was tapped; a PDF that cannot be made is a page in plain words; every game asks before
locking in; wide tables show that they scroll; and the club counts a person once however he
types his name, the computer apart.

The referee runs in this process (``table_support``); games are set up through the API.
Screenshots go to ``test-output/screenshots/details-*.png``.
"""

from __future__ import annotations

import json
import random

import pytest
from apiclient import choose_move
from browser_support import referee_here, require_browser, screenshot_path
from table_support import FLEETS_OF, Table, phone

from referee import printouts

sync_api = require_browser()


@pytest.fixture(scope="module")
def referee(tmp_path_factory):
    yield from referee_here(tmp_path_factory.mktemp("details"), "details")


def shot(page, name: str) -> None:
    page.screenshot(path=str(screenshot_path(f"details-{name}.png")), full_page=True)


def move(table: Table, seat: str, rng: random.Random) -> None:
    table.api(seat, "POST", "/moves", choose_move(table.api(seat, "GET", ""), rng))


def seated(browser, table: Table, seat: str):
    """A phone that takes a seat joined through the API, with its recovery code (R24)."""
    context, page, errors = phone(browser)
    page.goto(f"{table.call.base_url}/games/{table.id}/recover")
    page.select_option("#seat", seat)
    page.fill("#recovery_code", table.recovery[seat])
    page.click("form button[type=submit]")
    page.wait_for_url(f"**/games/{table.id}")
    return context, page, errors


def test_r1_typed_targets_are_written_as_squares_and_checked_before_confirm(browser, referee):
    rng = random.Random(5)
    table = Table(referee, "naval-war")
    for seat, name in (("red", "Ann"), ("blue", "Bob")):
        table.join(seat, name)
        table.set_up(seat)
    if table.api("red", "GET", "")["turn"] == "red":
        move(table, "red", rng)  # Blue to move while Red's phone waits, untouched
    context, recovered, _ = seated(browser, table, "red")
    # every buzz a page asks for, and whether the phone had been tapped by then
    context.add_init_script("""window.buzzes = [];
      navigator.vibrate = (p) => { buzzes.push(navigator.userActivation.hasBeenActive); };""")
    page = context.new_page()  # the game's page opened afresh: nobody has tapped it
    page.goto(recovered.url)
    recovered.close()
    move(table, "blue", rng)
    page.wait_for_selector("#move-form", timeout=15000)  # Red's turn: the page follows
    # a buzz only once the browser counts the page as used (before, it refuses with an error;
    # Playwright's own steps count as use, so a buzz may come: never before)
    assert all(page.evaluate("buzzes")), page.evaluate("buzzes")

    page.locator("details.legend").evaluate("d => { d.open = true; }")
    key = page.inner_text("details.legend")
    assert "land (shaded)" in key and "an R.P. saw empty" in key, key
    land = page.locator("#own-chart .cell.land, #charts .cell.land").first
    assert land.inner_text().strip() == ""  # land is shaded; "·" is "seen, empty"

    page.check("input[name=weapon][value=salvo]")
    page.fill("#at", "V 22, A 0, zz")
    problem = page.inner_text("#at-problem")
    assert problem.startswith("R1:") and '"V 22", "A 0", "zz"' in problem, problem
    assert page.is_disabled("#fire")
    shot(page, "typed-targets-refused")
    page.fill("#at", "K 10, k10, L 3")
    assert page.inner_text("#at-problem").startswith("R12: K 10 is named twice")
    assert page.is_disabled("#fire")
    page.fill("#at", "k10, l 3 , M3")
    page.locator("#at").blur()
    assert page.input_value("#at") == "K 10, L 3, M 3"
    assert not page.is_visible("#at-problem") and not page.is_disabled("#fire")
    assert "Salvo at K 10, L 3, M 3" in page.inner_text("#move-summary")
    context.close()


def test_a_pdf_that_cannot_be_made_is_a_page_in_plain_words(browser, referee, monkeypatch):
    table = Table(referee, "battleship-tcg")
    for seat, name in (("red", "Ann"), ("blue", "Bob")):
        table.join(seat, name)
        table.set_up(seat)
    context, page, _ = seated(browser, table, "red")
    api = f"{referee.url}/api/v1/games/{table.id}"
    response = page.goto(api + "/postmortem.pdf")  # before the end (T10)
    assert response.status == 409 and "html" in response.headers["content-type"]
    assert page.inner_text("h1") == "The PDF could not be made"
    assert "once the game is over" in page.inner_text(".problems")
    assert page.locator("text=Back to the game").count() == 1

    def broken(*_args, **_kwargs):
        raise RuntimeError("the printer caught fire")

    monkeypatch.setitem(printouts.PRINTED, "charts", broken)
    response = page.goto(api + "/charts.pdf")
    assert response.status == 500
    text = page.inner_text("main")
    assert "nothing was changed" in text and "move" not in text and "{" not in text, text
    shot(page, "pdf-failed")
    context.close()


LOCK = {"naval-war": "#lock-button", "battleship-tcg": "#tcg-lock", "broadside": "#bs-lock",
        "broadsides-boarding": "#bb-setup button[type=submit]"}
DRAFT = {"battleship-tcg": "/tcg/games/{}/draft", "broadside": "/broadside/games/{}/draft"}


@pytest.mark.parametrize("rules", sorted(LOCK))
def test_every_game_asks_before_locking_in(browser, referee, rules):
    table = Table(referee, rules)
    table.join("red", "Ann")
    context, page, _ = seated(browser, table, "red")
    token = page.get_attribute("meta[name=csrf-token]", "content")
    if rules == "naval-war":  # a fleet from the book, placed for him
        page.locator("details.book").evaluate("d => d.open = true")
        page.select_option("#fleet", "game-3-red")
        page.click("details.book button[type=submit]")
        page.wait_for_selector("#place-chart .cell")
        page.tap("#fill-rest")
        page.wait_for_selector("#tally:has-text('legal')")
    elif rules in DRAFT:
        response = context.request.post(
            referee.url + DRAFT[rules].format(table.id),
            data=json.dumps({"disposition": FLEETS_OF[rules]["red"]}),
            headers={"Content-Type": "application/json", "Accept": "application/json",
                     "X-CSRFToken": token})
        assert response.ok, response.text()
        page.reload()
        page.wait_for_selector(f"{LOCK[rules]}:not([disabled])")
    else:  # the Captain's cell chosen (BB16): until then there is nothing to lock in
        page.select_option("#captain", "D4")
        page.wait_for_selector(f"{LOCK[rules]}:not([disabled])")
    asked: list[str] = []

    def answer(dialog, yes: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if yes else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    page.tap(LOCK[rules])
    page.wait_for_timeout(300)
    assert asked and asked[0].startswith("Lock in") and "cannot be changed" in asked[0]
    assert page.locator(LOCK[rules]).count() == 1  # not locked in: still the setup
    assert table.api("host", "GET", "/host")["seats"]["red"]["ready"] is False
    page.once("dialog", lambda d: answer(d, True))
    with page.expect_navigation():
        page.tap(LOCK[rules])
    assert len(asked) == 2
    assert table.api("host", "GET", "/host")["seats"]["red"]["ready"] is True
    context.close()


def test_wide_tables_show_they_scroll_and_the_club_counts_a_person_once(browser, referee):
    """Ann Lee plays twice, typed two ways: one row; the computer stands apart."""
    rng = random.Random(8)
    for name, opponent in (("Ann Lee", "Bob"), ("  ann   LEE ", None)):
        table = Table(referee, "naval-war",
                      **({"bots": {"blue": "recruit"}} if opponent is None else {}))
        table.join("red", name)
        table.set_up("red")
        if opponent:
            table.join("blue", opponent)
            table.set_up("blue")
        for _ in range(2):  # a move each (a game decided before any is not counted)
            turn = table.api("red", "GET", "")["turn"]
            if turn in table.tokens:
                move(table, turn, rng)
        table.api("red", "POST", "/resign", {})
        finished = table
    context, page, errors = phone(browser)
    page.goto(f"{referee.url}/club")
    section = page.locator("section.rule-set").first
    people = section.locator("section:has(h3:text-is('Players')) tbody th").all_inner_texts()
    computers = section.locator("section:has(h3:text-is('The computer')) tbody th")
    assert [p for p in people if p.casefold().split() == ["ann", "lee"]] == ["Ann Lee"]
    assert "Bob" in people and not [p for p in people if p.startswith("Computer")]
    assert computers.all_inner_texts() == ["Computer (recruit)"]
    row = section.locator("section:has(h3:text-is('Players')) tr:has(th:text-is('Ann Lee'))")
    assert row.locator("td").first.inner_text() == "2"  # both games, one person
    split = page.locator(".scroll-hint:has(th:text-is('Split'))")
    assert split.get_attribute("data-more") == "right"  # cut at 390 px: it says it scrolls
    shot(page, "club")
    page.goto(f"{referee.url}/games/{finished.id}/postmortem")
    weapons = page.locator(".scroll-hint:has(th:text-is('Weapon'))").first
    assert weapons.get_attribute("data-more") == "right"
    weapons.locator(".table-wrap").evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    page.wait_for_timeout(100)
    assert weapons.get_attribute("data-more") == "left"
    shot(page, "postmortem-tables")
    assert errors == []
    context.close()
