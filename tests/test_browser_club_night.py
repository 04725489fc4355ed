"""A club night on phones (390 x 844): a seat recovered on another phone leaves the old one a
way on, not a loop (R24), and once the game is over the old phone, and anyone at the club,
sees all of it: the club's list links every finished game's post-mortem, booklet and file
(R21 ends with the game), each refused before the end.

The referee runs in this process (``table_support``); games are set up through the API.
Screenshots go to ``test-output/screenshots/night-*.png``.
"""

from __future__ import annotations

import re

import pytest
from browser_support import referee_here, require_browser, screenshot_path
from table_support import Table, phone

from referee import rulesets

sync_api = require_browser()


@pytest.fixture(scope="module")
def referee(tmp_path_factory):
    yield from referee_here(tmp_path_factory.mktemp("night"), "night")


def shot(page, name: str) -> None:
    page.screenshot(path=str(screenshot_path(f"night-{name}.png")), full_page=True)


def test_r24_the_old_phone_is_told_where_to_go_and_sees_the_result_after_the_end(browser,
                                                                                 referee):
    table = Table(referee, "broadside")
    old_ctx, old, _ = phone(browser)
    old.goto(table.link("red"))
    old.fill("#name", "Ann")
    old.click("form:has(#name) button[type=submit]")
    code = old.inner_text(".recovery-code code")
    assert old.locator("#recovery a").get_attribute("href").endswith(f"/games/{table.id}/recover")

    new_ctx, new, _ = phone(browser)
    new.goto(f"{referee.url}/games/{table.id}/recover")
    assert new.locator("#seat option").all_inner_texts() == ["Red", "Blue"]
    new.select_option("#seat", "red")
    new.fill("#recovery_code", "AAAA-BBBB-CCCC")
    new.click("form button[type=submit]")
    assert "not the recovery code of the Red seat" in new.inner_text(".error")
    assert new.input_value("#seat") == "red"  # the form, as it was
    shot(new, "recover-wrong-code")
    new.fill("#recovery_code", code)
    new.click("form button[type=submit]")
    new.wait_for_url(f"**/games/{table.id}")

    response = old.goto(f"{referee.url}/games/{table.id}")
    assert response.status == 403
    text = old.inner_text("main")
    assert "handed to another device" in text and "recovery code" in text
    assert old.locator("text=Back to the game").count() == 0  # it would only loop
    shot(old, "old-phone-after-recovery")
    old.click("#take-seat-back")
    old.wait_for_url(f"**/games/{table.id}/recover")

    table.join("blue", "Bob")  # Red never sets up: his disposition clock runs out
    table.set_up("blue")
    referee.advance(60)
    table.api("host", "POST", "/seats/red/forfeit", {})
    response = old.goto(f"{referee.url}/games/{table.id}")
    assert response.status == 200 and old.url.endswith(f"/games/{table.id}/postmortem")
    assert "moved to another phone" in old.inner_text(".flashes")
    assert "Post-mortem" in old.inner_text("h1") and "Blue" in old.inner_text(".headline")
    shot(old, "old-phone-after-the-end")
    old_ctx.close()
    new_ctx.close()


def test_r21_the_club_links_every_finished_games_post_mortem_and_booklet(browser, referee):
    """Before the end a stranger is refused a game's post-mortem, booklet and file; once it
    is over the club's list links all three, for every rule set, and they open for anyone."""
    stranger_ctx, stranger, errors = phone(browser)
    tables = {}
    for rules in rulesets.RULE_SETS:
        table = tables[rules] = Table(referee, rules)
        for seat, name in (("red", "Ann"), ("blue", "Bob")):
            table.join(seat, name)
            table.set_up(seat)
        base = f"{referee.url}/games/{table.id}"
        assert stranger.goto(base + "/postmortem").status == 403
        assert stranger.request.get(f"{referee.url}/api/v1/games/{table.id}/postmortem.pdf"
                                    ).status in (401, 403)
        assert stranger.request.get(base + "/export.json").status == 403
        table.api("blue", "POST", "/resign", {})

    stranger.goto(f"{referee.url}/club")
    shot(stranger, "club")
    for rules, table in tables.items():
        item = stranger.locator(f"#links-{table.id}")
        links = {a.inner_text(): a.get_attribute("href") for a in item.locator("a").all()}
        assert set(links) >= {"Post-mortem", "Booklet (PDF)", "Game file"}, links
        booklet = stranger.request.get(referee.url + links["Booklet (PDF)"])
        assert booklet.status == 200 and booklet.body().startswith(b"%PDF")
        game_file = stranger.request.get(referee.url + links["Game file"])
        assert game_file.status == 200 and game_file.json()["rules"] == rules
        item.locator("a", has_text="Post-mortem").click()
        stranger.wait_for_url(f"**/games/{table.id}/postmortem")
        assert rulesets.named(rules).title in stranger.title()
        assert "Blue" in stranger.inner_text(".headline")
        shot(stranger, f"postmortem-{rules}")
        stranger.goto(f"{referee.url}/club")
    assert errors == []
    stranger_ctx.close()


SQUARE = re.compile(r"\b[A-Z] \d{1,2}\b")  # a square or hole of any game's board: "K 10"


def test_the_evening_page_lists_every_table_in_play_and_nothing_hidden(browser, referee):
    """From the laptop: each game in play with its game, players, whose turn, the time since
    its last move and its clocks; a finished game is not listed. Scanned: no square of any
    fleet, no token, join code or recovery code reaches the page."""
    playing = Table(referee, "naval-war", move_minutes=5)
    setting_up = Table(referee, "battleship-tcg")
    finished = Table(referee, "broadside")
    for table in (playing, finished):
        for seat, name in (("red", "Ann"), ("blue", "Bob")):
            table.join(seat, name)
            table.set_up(seat)
    setting_up.join("red", "Cy")
    setting_up.set_up("red")
    finished.api("blue", "POST", "/resign", {})
    referee.advance(12)  # the tables go quiet
    secrets = [playing.made["host_token"], setting_up.made["host_token"],
               *(seat["join_code"] for table in (playing, setting_up)
                 for seat in table.made["seats"].values()),
               *(token for table in (playing, setting_up) for token in table.tokens.values()),
               *(code for table in (playing, setting_up) for code in table.recovery.values())]

    context, page, errors = phone(browser)
    response = page.goto(f"{referee.url}/evening")
    assert response.status == 200
    html = page.content()
    for table, title in ((playing, "The Naval War Game"),
                         (setting_up, "Battleship: The Tactical Combat Game")):
        card = page.inner_text(f"#table-{table.id}")
        assert title in card and "last move 12 min ago" in card and "quiet" in card, card
    card = page.inner_text(f"#table-{playing.id}")
    turn = playing.api("red", "GET", "")["turn"]
    assert f"{turn.title()} {'Ann' if turn == 'red' else 'Bob'} to move" in card, card
    assert f"{turn.title()}'s move clock (R25, 5 min a move): time is up" in card, card
    card = page.inner_text(f"#table-{setting_up.id}")
    assert "Cy" in card and "not joined yet" in card and "Waiting for" in card, card
    assert "Dispositions (R10)" in card
    assert page.locator(f"#table-{finished.id}").count() == 0
    assert not SQUARE.search(page.inner_text("main")), SQUARE.findall(page.inner_text("main"))
    leaked = [secret for secret in secrets if secret in html]
    assert leaked == [] and "salt" not in html and "fingerprint" not in html
    shot(page, "evening")
    assert errors == []
    context.close()
