"""The seam: a game needs nothing outside its own package but registering it, the first game as
much as the later ones. The shared code imports no rule set's package (``test_layering.py``
checks it, from the registry); no shared template, shared script or piece of the paper kit
names a game; no template global comes from a game's package: each game's part of the home
page, its forms, pages, templates, scripts and paper come from its own package and its
``WebParts``; and the seam supplies what every game does alike."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import typing
from pathlib import Path

import pytest

from referee import rulesets, service
from referee.common import views
from referee.web import store

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


def test_the_pages_seat_the_creator_and_the_computer_where_the_rule_set_says(tmp_path,
                                                                            monkeypatch):
    """The creator's and the computer's seats are declared once, by the rule set: a rule set
    that gives its creator its second seat has him seated there by the home page, and the
    computer a player plays from the home page takes the rule set's computer seat."""
    from pages_support import Phone, create_game, make_app

    naval_war = rulesets.named(rulesets.DEFAULT)
    first, second = naval_war.seats[:2]
    swapped = dataclasses.replace(naval_war, creator_seat=second, computer_seat=first)
    monkeypatch.setitem(rulesets.RULE_SETS, naval_war.rules, swapped)
    app = make_app(tmp_path)
    _, links, _ = create_game(Phone(app, "creator"))
    assert first in links and second not in links  # he took the second: the first is left
    phone = Phone(app, "player")
    response = phone.submit("/", "/play-computer", {"player": "Ann", "level": "recruit",
                                                    "rules": naval_war.rules})
    assert response.status_code == 200, response.text[:500]
    game_id = response.request.path.rsplit("/", 1)[-1]
    with app.app_context():
        status = service.host_status(store(), game_id)
    assert status["seats"][first]["bot"] and not status["seats"][second].get("bot"), status


def test_each_rule_set_declares_its_own_ends_and_the_api_lists_every_registered_one(app):
    """Why a game ends is each rule set's to say (its documents' ``EndReason``, its ``Game``'s
    ``END_REASONS``): shared code knows only the ends every game has, and the OpenAPI
    document's result lists the ends, and its seats the seats, of whatever is registered, a
    rule set registered later (Hidden Number, which ends when a number is guessed) included."""
    from contract_support import minimal_game_registered

    from referee.common.documents import SharedEndReason
    from referee.common.outcome import SHARED_ENDS

    assert SHARED_ENDS == typing.get_args(SharedEndReason) == ("agreed", "resigned", "forfeit")
    for rule_set in rulesets.RULE_SETS.values():
        assert rule_set.end_reasons[:3] == SHARED_ENDS and len(rule_set.end_reasons) > 3

    def listed() -> tuple[list, list]:
        schemas = app.test_client().get("/api/v1/openapi.json").get_json()["components"][
            "schemas"]
        result = schemas["Result"]["properties"]
        return result["reason"]["enum"], result["winners"]["items"]["enum"]

    reasons, seats = listed()
    assert reasons == list(rulesets.end_reasons()) and "guessed" not in reasons
    assert seats == list(rulesets.SEATS)
    with minimal_game_registered():
        hidden = rulesets.named("hidden-number")
        assert "guessed" in hidden.end_reasons and "guessed" in rulesets.end_reasons()
        reasons, seats = listed()
        assert "guessed" in reasons and set(hidden.seats) <= set(seats)
    assert "guessed" not in listed()[0]
    with pytest.raises(ValueError, match="by forfeit too"):
        narrow = type("Narrow", (rulesets.named(rulesets.DEFAULT).game_type,),
                      {"END_REASONS": ("agreed", "resigned")})
        dataclasses.replace(rulesets.named(rulesets.DEFAULT), game_type=narrow)


def shared_modules() -> list[Path]:
    """Every Python module outside the rule sets' packages: the shared layers and paper kit."""
    return [path for path in sorted((ROOT / "referee").rglob("*.py"))
            if path.relative_to(ROOT / "referee").parts[0] not in PACKAGES] \
        + sorted((ROOT / "printables").rglob("*.py"))


def literal_strings(tree: ast.AST) -> list[ast.Constant]:
    """The string literals of a module's code: not its docstrings (whose examples may name a
    game's seats), nor where the registry names a rule set's module ("module:NAME")."""
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs and not re.fullmatch(r"referee(\.\w+)+:\w+", node.value)]


def test_no_shared_module_names_a_game_or_its_seats():
    """The shared layers ask the registry: no string in their code names a rule set, its
    title or one of its seats (the seats of the API's documents, the pairing of sides, a game
    file's format, the default level all come from the rule sets)."""
    words = {word for rule_set in rulesets.RULE_SETS.values()
             for word in (*names_of(rule_set), *rule_set.seats)}
    found = []
    for path in shared_modules():
        for node in literal_strings(ast.parse(path.read_text())):
            for word in words:
                flags = 0 if word.islower() else re.IGNORECASE
                if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", node.value, flags):
                    found.append((path.relative_to(ROOT).as_posix(), node.lineno, word))
    assert len(shared_modules()) > 40
    assert not found, found
