"""The seam: a new game needs nothing outside its own package but registering it. The shared code
(``referee/*.py``) imports no rule set's package except where rule sets are registered
(``rulesets.py``, ``app.py``), and no shared template names a game: each game's part of the home
page, its forms and pages come from its own ``WebParts``."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from referee import rulesets
from referee.common import views

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = {"rulesets.py", "app.py"}
PACKAGES = {"battleship_tcg", "broadside"}  # the rule sets besides the first (whose pages came
# first and are still the shared pages' own: referee/naval_war_web.py says which)


def test_shared_code_imports_no_rule_sets_package_but_to_register_it():
    shared = [*(ROOT / "referee").glob("*.py"), *(ROOT / "referee" / "service").glob("*.py")]
    for path in sorted(shared):
        if path.name in REGISTRY:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                assert not set(name.split(".")) & PACKAGES, (path.name, name)


def test_no_shared_template_names_a_game_but_the_first():
    later = [rs for rs in rulesets.RULE_SETS.values() if rs.rules != rulesets.DEFAULT]
    assert len(later) >= 2
    for path in sorted((ROOT / "referee" / "templates").glob("*.html")):
        text = path.read_text()
        for rule_set in later:
            assert rule_set.rules not in text and rule_set.title not in text, \
                (path.name, rule_set.rules)


def test_the_home_page_lists_every_game_from_its_own_parts(app):
    page = app.test_client().get("/").get_data(as_text=True).replace("&#39;", "'")
    for rule_set in rulesets.RULE_SETS.values():
        assert f"<strong>{rule_set.title}</strong>" in page
    assert 'id="battleship-tcg-home"' in page and 'id="broadside-home"' in page


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
