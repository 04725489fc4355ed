"""The seam: a game needs nothing outside its own package but registering it, the first game as
much as the later ones. The shared code imports no rule set's package (``test_layering.py``
checks it, from the registry); no shared template, shared script or piece of the paper kit
names a game; no template global comes from a game's package: each game's part of the home
page, its forms, pages, templates, scripts and paper come from its own package and its
``WebParts``; and the seam supplies what every game does alike."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path

import pytest

from referee import rulesets
from referee.common import views

ROOT = Path(__file__).resolve().parent.parent
# every registered rule set's package: referee/naval_war, referee/battleship_tcg ...
PACKAGES = {rs.game_type.__module__.split(".")[1] for rs in rulesets.RULE_SETS.values()}
SHARED_PAGES = [*sorted((ROOT / "referee" / "templates").glob("*.html")),
                *sorted((ROOT / "referee" / "static" / "js").glob("*.js"))]


def names_of(rule_set) -> set[str]:
    """What naming a game looks like: its name, its title, its title without "The"."""
    return {rule_set.rules, rule_set.title, rule_set.title.removeprefix("The ")}


def test_every_rule_set_is_a_package_of_its_own():
    assert len(PACKAGES) == len(rulesets.RULE_SETS) >= 3  # the imports: tests/test_layering.py
    for package in PACKAGES:
        assert (ROOT / "referee" / package / "web" / "parts.py").is_file(), package


def test_no_shared_template_script_or_paper_names_a_game():
    assert len(rulesets.RULE_SETS) >= 3
    for path in SHARED_PAGES + sorted((ROOT / "printables").glob("*.py")):
        text = path.read_text()
        for rule_set in rulesets.RULE_SETS.values():
            named = [name for name in names_of(rule_set) if name in text]
            assert not named, (path.relative_to(ROOT).as_posix(), named)


def test_no_template_global_comes_from_a_rule_sets_package(app):
    globals_ = {**app.jinja_env.globals, **app.jinja_env.filters}
    assert "rules" not in globals_  # a game's catalogue is its own templates' (``rules``)
    for name, value in globals_.items():
        module = getattr(inspect.getmodule(value), "__name__", "") or ""
        assert not set(module.split(".")) & PACKAGES, (name, module)
        for rule_set in rulesets.RULE_SETS.values():
            assert value is not rule_set.catalogue, name


def test_the_home_page_lists_every_game_from_its_own_parts(app):
    page = app.test_client().get("/").get_data(as_text=True).replace("&#39;", "'")
    for rule_set in rulesets.RULE_SETS.values():
        assert f"<strong>{rule_set.title}</strong>" in page
    assert 'id="battleship-tcg-home"' in page and 'id="broadside-home"' in page
    assert "<title>Home · The referee</title>" in page  # a page about no game names none


def test_the_seam_supplies_what_every_game_does_alike():
    """A rule set writes what is its own; the status, host view, seats one may attack, game
    file and fingerprint check are every game's unless it names its own, and the seats its
    creator and a computer take are its first two unless it names others."""
    for rule_set in rulesets.RULE_SETS.values():
        assert rule_set.status_view is views.status_view
        assert rule_set.host_view is views.host_view
        assert rule_set.targets_for is views.targets_for
        seats = tuple(rule_set.seats)
        assert (rule_set.creator_seat, rule_set.computer_seat) == seats[:2]
    naval_war = rulesets.named(rulesets.DEFAULT)
    assert naval_war.seating is views.seating_for


def test_a_rule_sets_creator_and_computer_seats_are_its_own():
    naval_war = rulesets.named(rulesets.DEFAULT)
    with pytest.raises(ValueError, match="'purple' is not one of its seats"):
        dataclasses.replace(naval_war, computer_seat="purple")
    assert dataclasses.replace(naval_war, computer_seat="gold").computer_seat == "gold"


def test_the_web_app_registers_the_web_parts_each_registered_rule_set_names(app):
    registered = app.extensions["referee.web_parts"]
    assert list(registered) == [rs.rules for rs in rulesets.RULE_SETS.values() if rs.web]
    for rules, parts in registered.items():
        assert parts is rulesets.load(rulesets.named(rules).web) and parts.rules == rules
