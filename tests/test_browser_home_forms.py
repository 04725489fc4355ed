"""The home page's two forms on a phone (390 x 844), with and without its script: each offers
the chosen game's own options and computer levels only, so that what a newcomer picks always
starts a game, and a refusal comes back on the form in plain words with what was typed kept.

The referee runs in this process (``browser_support.RefereeHere``). Screenshots go to
``test-output/screenshots/home-*.png``.
"""

from __future__ import annotations

import re

import pytest
from browser_support import PHONE, referee_here, require_browser, screenshot_path

from referee import rulesets

sync_api = require_browser()



@pytest.fixture(scope="module")
def referee(tmp_path_factory):
    yield from referee_here(tmp_path_factory.mktemp("home"), "home")


def phone(browser, *, script: bool = True):
    """A phone's page, its console's errors and the statuses of the pages it was sent."""
    context = browser.new_context(**PHONE, java_script_enabled=script)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def shot(page, name: str) -> None:
    page.screenshot(path=str(screenshot_path(f"home-{name}.png")), full_page=True)


def visible_levels(page) -> list[str]:
    return [s.get_attribute("id") for s in page.locator("select[name=level]").all()
            if s.is_visible()]


def test_play_the_computer_starts_the_chosen_game_at_its_own_level(browser, referee):
    """Choosing the game shows its levels only (the middle one chosen), each named once, and
    the tap starts that game: no "has no such level" for any game."""
    context, page, errors = phone(browser)
    for rules, rule_set in rulesets.RULE_SETS.items():
        page.goto(referee.url + "/")
        page.fill("#player", "Ann")
        page.select_option("#computer-rules", rules)
        assert visible_levels(page) == [f"level-{rules}"]
        labels = page.locator(f"#level-{rules} option").all_inner_texts()
        assert len(labels) == len(rule_set.levels)
        for label, level in zip(labels, rule_set.levels, strict=True):
            name = label.split(":")[0].strip().lower()
            assert name == level and label.lower().count(f"{level}:") == 1, label
        assert [s.is_visible() for s in page.locator("section.ladder").all()].count(True) == 1
        assert page.is_visible(f"#ladder-{rules}")
        if rules != rulesets.DEFAULT:
            shot(page, f"computer-{rules}")
        with page.expect_navigation():
            page.click("#computer-form button[type=submit]")
        assert re.search(r"/games/\w+$", page.url), (page.url, page.inner_text("main")[:300])
        assert rule_set.title in page.title(), page.title()
    assert errors == []
    context.close()


def test_the_create_form_offers_only_the_chosen_games_options(browser, referee):
    context, page, errors = phone(browser)
    page.goto(referee.url + "/")
    assert page.is_visible("#seats") and page.is_visible("#sides")
    page.select_option("#seats", "3")
    shown = [o.inner_text() for o in page.locator("#sides option").all()
             if not o.get_attribute("hidden") and o.evaluate("o => !o.hidden")]
    assert "Red and Green against Blue" in shown
    assert not any(" and Gold" in s or "against Gold" in s for s in shown), shown
    for rules in rulesets.RULE_SETS:
        if len(rulesets.named(rules).seats) == 2:
            page.select_option("#rules", rules)
            assert not page.is_visible("#seats") and not page.is_visible("#sides")
            assert page.is_visible("#minutes")
            assert not page.locator(".only-for").first.is_visible()
    shot(page, "create-two-player-game")
    page.fill("#name", "Ann")
    with page.expect_navigation():
        page.click("#create-form button[type=submit]")
    assert page.url.endswith("/host"), (page.url, page.inner_text("main")[:300])
    assert errors == []
    context.close()


def test_without_its_script_the_home_page_reads_the_chosen_games_fields_only(browser,
                                                                              referee):
    """Without the script every game's fields show, each named with its game; the server reads
    the chosen game's: players left at three for a two-player game start it all the same, a
    Broadside level is read for Broadside, and sides that do not fit the players are refused
    on the form, in plain words, with what was typed kept."""
    context, page, _ = phone(browser, script=False)
    two_player = next(r for r, rs in rulesets.RULE_SETS.items() if len(rs.seats) == 2)
    page.goto(referee.url + "/")
    assert page.is_visible(f"#level-{two_player}") and page.is_visible("#seats")
    assert "only)" in page.inner_text("label[for=seats]")
    shot(page, "no-script")
    page.fill("#name", "Ann")
    page.select_option("#rules", two_player)
    page.select_option("#seats", "3")
    with page.expect_navigation():
        page.click("#create-form button[type=submit]")
    assert page.url.endswith("/host"), (page.url, page.inner_text("main")[:300])

    page.goto(referee.url + "/")
    page.fill("#player", "Bob")
    page.select_option("#computer-rules", two_player)
    with page.expect_navigation():
        page.click("#computer-form button[type=submit]")
    assert re.search(r"/games/\w+$", page.url), (page.url, page.inner_text("main")[:300])
    assert rulesets.named(two_player).title in page.title()

    page.goto(referee.url + "/")
    page.fill("#name", "Cy Young")
    page.fill("#minutes", "17")
    page.select_option("#seats", "4")
    page.select_option("#sides", "red+green/blue")
    with page.expect_navigation():
        page.click("#create-form button[type=submit]")
    assert urlpath(page.url) == "/"
    problem = page.inner_text("#create-form .error")
    assert "Red and Green against Blue is a game of three players, and you chose four" \
        in problem and "is not an option" not in problem
    assert page.input_value("#name") == "Cy Young" and page.input_value("#minutes") == "17"
    assert page.input_value("#sides") == "red+green/blue"
    shot(page, "refused-on-the-form")
    context.close()


def urlpath(url: str) -> str:
    return "/" + url.split("://", 1)[1].partition("/")[2].partition("?")[0]
