"""One catalogue of the rules: one geometry function, one set of numbers.

Every layer (the core's disposition check, the layouts, the bots' placements, the printed
charts) takes a ship's squares from ``catalogue.ship_squares``; no module outside the
catalogue writes a price, length, letter or radius again; the forms' limits are the core's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pages_support import page_static, page_templates
from wtforms.validators import NumberRange

from referee.naval_war import catalogue, layout
from referee.naval_war.catalogue import DIRECTIONS, SHIP_TYPES, ship_squares
from referee.naval_war.computer import board
from referee.naval_war.fleet import check_disposition
from referee.naval_war.squares import SIZE, Square, square_name
from referee.naval_war.web.paper import charts

ROOT = Path(__file__).resolve().parent.parent
CORNERS = [Square(0, 0), Square(7, 3), Square(SIZE - 2, SIZE - 2), Square(SIZE - 1, 0),
           Square(0, SIZE - 1)]


def core(kind: str, at: Square, direction: str) -> list[Square]:
    return ship_squares(kind, at, direction)


def test_catalogue_shapes_are_the_rulebook_s():
    # R7: the carrier a 2 x 2 block, the others lines of 4, 3, 2 and 1 squares
    assert [square_name(s) for s in core("carrier", Square(2, 2), "down")] == \
        ["C 3", "D 3", "C 4", "D 4"]
    assert {k: len(core(k, Square(0, 0), "across")) for k in SHIP_TYPES} == \
        {"carrier": 4, "battleship": 4, "cruiser": 3, "destroyer": 2, "submarine": 1}
    assert [square_name(s) for s in core("battleship", Square(0, 0), "down")] == \
        ["A 1", "A 2", "A 3", "A 4"]
    assert catalogue.PRICES["atom-bomber"] == 10 and catalogue.BUDGET == 160
    assert (catalogue.MIN_SHIPS, catalogue.MIN_FORCES, catalogue.MAX_ATOM_BOMBERS) == (60, 60, 6)
    assert catalogue.RADIUS == {"atom-bomber": 2, "bomber": 1, "recon": 1, "salvo": 0}
    assert catalogue.GUN_RADIUS == 1


@pytest.mark.parametrize("kind", SHIP_TYPES)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_printed_chart_squares_are_the_core_s(kind, direction):
    for at in CORNERS:
        if not catalogue.on_chart(core(kind, at, direction)):
            continue  # a printed chart shows only dispositions R7 accepted
        ship = {"type": kind, "at": square_name(at), "dir": direction}
        assert charts.ship_squares(ship) == [square_name(s) for s in core(kind, at, direction)]


@pytest.mark.parametrize("kind", SHIP_TYPES)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_layout_squares_are_the_core_s(kind, direction):
    for at in CORNERS:
        assert layout._ship_cells(kind, at.col, at.row, direction == "across") == \
            core(kind, at, direction)


@pytest.mark.parametrize("kind", SHIP_TYPES)
def test_bot_placements_are_the_core_s(kind):
    expected = set()
    for direction in DIRECTIONS:
        for r in range(SIZE):
            for c in range(SIZE):
                squares = core(kind, Square(c, r), direction)
                if catalogue.on_chart(squares):
                    expected.add(tuple(s.row * SIZE + s.col for s in squares))
    assert set(board.PLACEMENTS[kind]) == expected
    assert len(board.PLACEMENTS[kind]) == len(expected)  # no placement twice


@pytest.mark.parametrize("kind", SHIP_TYPES)
@pytest.mark.parametrize("direction", DIRECTIONS)
def test_disposition_check_squares_are_the_core_s(kind, direction):
    at = Square(5, 5)
    doc = {"ships": [{"type": kind, "at": square_name(at), "dir": direction}]}
    try:
        check_disposition(doc)
    except Exception as refused:  # R4 refuses one ship; the ship itself is read first
        assert "R7" not in str(refused) and "R8" not in str(refused)
    from referee.naval_war import fleet as fleet_module
    reader = fleet_module._Reader()
    _, ships, problems = fleet_module._read_ships(reader, doc, frozenset())
    assert not problems and list(ships[0].squares) == core(kind, at, direction)


# Rule literals written again outside the catalogue: a length table, a price, a letter table,
# a blast radius table, the budget's 160 in code.
RULE_LITERALS = [
    re.compile(r'"battleship"\s*:\s*4\s*,\s*"cruiser"\s*:\s*3'),
    re.compile(r'"atom-bomber"\s*:\s*10\b'),
    re.compile(r'"carrier"\s*:\s*"K"'),
    re.compile(r'"atom-bomber"\s*:\s*2\s*,\s*"bomber"\s*:\s*1'),
    re.compile(r'for (dr|dc) in \(0, 1\) for (dc|dr) in \(0, 1\)'),  # the carrier's block
]


def python_sources() -> list[Path]:
    files = [*sorted((ROOT / "referee").rglob("*.py")), *sorted((ROOT / "printables").glob("*.py"))]
    return [p for p in files if p.name != "catalogue.py"]


def test_there_are_sources_to_scan():
    names = {p.name for p in python_sources()}
    assert {"fleet.py", "layout.py", "board.py", "inference.py", "charts.py", "forms.py"} <= names


@pytest.mark.parametrize("path", python_sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_rule_literal_outside_the_catalogue_in_python(path):
    text = path.read_text(encoding="utf-8")
    found = [pattern.pattern for pattern in RULE_LITERALS if pattern.search(text)]
    assert not found, f"{path.name} restates the catalogue: {found}"


def test_forms_take_their_limits_from_the_catalogue(app):
    from referee import forms
    from referee.naval_war.web import forms as naval_war_forms
    with app.test_request_context():
        create = forms.CreateGameForm(meta={"csrf": False})
        clock = forms.ClockForm(meta={"csrf": False})
        budget = naval_war_forms.BudgetForm(meta={"csrf": False})

    def bounds(field) -> tuple:
        rng = next(v for v in field.validators if isinstance(v, NumberRange))
        return rng.min, rng.max
    # R10: one value for the disposition clock on every channel (the form said 240)
    assert bounds(create.minutes) == (1, catalogue.MAX_MINUTES) == (1, 1440)
    assert bounds(create.move_minutes) == (1, catalogue.MAX_MINUTES)
    assert create.minutes.default == catalogue.DEFAULT_MINUTES
    assert bounds(clock.minutes) == (1, catalogue.MAX_CLOCK_EXTENSION)
    assert bounds(budget.battleship) == (0, catalogue.BUDGET)
    assert budget.atom_bomber.render_kw["max"] == catalogue.MAX_ATOM_BOMBERS
    assert [f.render_kw["data-price"] for f in naval_war_forms.budget_fields(budget)] == \
        [catalogue.PRICES[k] for k in catalogue.BUYABLE]


# The scripts and templates hold no rule of their own; they read the
# catalogue the page embeds (scripts) or the ``rules`` Jinja global (templates).
PAGE_RULE_LITERALS = [
    re.compile(r"\b160\b"),  # R3's budget
    re.compile(r"at least 60\b|\b60 are needed|[<>]=? ?60\b"),  # R4's minimums
    re.compile(r"at most 6\b|> ?6\)"),  # R4's Atom Bombers
    re.compile(r'\bcarrier:\s*"K"|"aa-gun":\s*"G"'),  # a letter table
    re.compile(r"\bbattleship:\s*4|\bcruiser:\s*3|\bdestroyer:\s*2"),  # a length table
    re.compile(r"\[\[0, 0\], \[1, 0\], \[0, 1\], \[1, 1\]\]"),  # the carrier's block
    re.compile(r"[<>]=? ?(18|19|20|21)\b"),  # the chart's edge written as a number
    re.compile(r"\b21 [x×] 21\b|\b3 [x×] 3\b"),  # the chart's and a land unit's size
    re.compile(r'max=(240|1440|120|"20")|maxlength=40'),  # the channels' limits
    re.compile(r"fields\[:?5:?\]"),  # the number of kinds of ship
    re.compile(r'=== "salvo" \? 3'),  # a salvo's shots
]


def page_sources() -> list[Path]:
    """The Naval War Game's pages' scripts and templates, its own and those every game
    shares."""
    return [*page_static(".js"), *page_templates()]


def test_there_are_scripts_and_templates_to_scan():
    names = {p.name for p in page_sources()}
    assert {"catalogue.js", "chart.js", "place.js", "play.js", "budget.js", "budget.html",
            "home.html", "base.html"} <= names


@pytest.mark.parametrize("path", page_sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_rule_literal_in_scripts_or_templates(path):
    text = path.read_text(encoding="utf-8")
    found = sorted({m.group(0) for pattern in PAGE_RULE_LITERALS
                    for m in pattern.finditer(text)})
    assert not found, f"{path.name} holds rule constants of its own: {found}"


def test_budget_page_states_the_catalogue_s_limits(client):
    # the budget page's words are the catalogue's numbers (rendered through the Jinja global)
    from referee.naval_war.catalogue import BUDGET, MAX_ATOM_BOMBERS, MIN_FORCES, MIN_SHIPS
    home = client.get("/").get_data(as_text=True)
    assert f'max="{catalogue.MAX_MINUTES}"' in home and f'maxlength="{catalogue.MAX_NAME}"' in home
    assert (BUDGET, MIN_SHIPS, MIN_FORCES, MAX_ATOM_BOMBERS) == (160, 60, 60, 6)


# A web layer with one home for each thing: the templates hold no arithmetic and no
# rule of their own. Their Jinja expressions ({{ ... }} and {% ... %}, string literals taken
# out) do no sums (Jinja filters registered by the pages do: time_left, minutes_since,
# short_fingerprint, capitalise), slice nothing by a number, write no table of pieces or
# weapons (the ``rules`` global is the catalogue), and assume no seat (the host's seat comes
# from the store, the creator's from the pages).
JINJA = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}", re.DOTALL)
JINJA_STRING = re.compile(r"'[^']*'|\"[^\"]*\"")
JINJA_ARITHMETIC = [
    re.compile(r"(?<=[\w\)\]])\s*(//|\*\*?|%|\+|-)\s*(?=[\w\(])"),  # a sum of any kind
    re.compile(r"\[\s*-?\d*\s*:\s*-?\d*\s*\]"),  # a slice by a number: fields[:5], name[1:]
]
KINDS = "|".join(re.escape(kind) for kind in catalogue.BUYABLE)
TEMPLATE_RULE_LITERALS = [
    re.compile(rf"['\"]({KINDS})['\"]\s*:"),  # a table keyed by piece or weapon: {'recon': ..
    re.compile(rf"['\"]({KINDS})['\"]\s*,\s*['\"]({KINDS})['\"]"),  # pieces listed
    re.compile(r"class=\"cell-demo (ship|plane|gun)\">[A-Za-z]<"),  # a letter table (legend)
    re.compile(r"['\"](red|blue|green|gold)['\"]"),  # a seat assumed: the host is 'red'
    re.compile(r"you play (Red|Blue|Green|Gold)"),
]


def template_findings(text: str) -> list[str]:
    found = {m.group(0) for pattern in TEMPLATE_RULE_LITERALS for m in pattern.finditer(text)}
    for match in JINJA.finditer(text):
        code = (match.group(1) or match.group(2) or "").strip("-+ \n")
        bare = JINJA_STRING.sub("''", code)
        if any(pattern.search(bare) for pattern in JINJA_ARITHMETIC):
            found.add(match.group(0))
    return sorted(found)


def test_template_scan_finds_what_it_looks_for():
    # the literals the templates held before their arithmetic moved out, each one found
    for old in ["{% set left = (deadline - now)|int %}", "{{ left // 60 }}",
                "{{ '%02d'|format(left % 60) }}", "{{ info.fingerprint[:16] }}",
                "{{ names[weapon][1:] }}", "{% for f in fields[:5] %}",
                "{{ ((status.now - info.last_seen) // 60)|int }}",
                "{{ {'atom-bomber': 'Atom Bomber', 'salvo': 'Salvo'}[w] }}",
                "{% for w in ('atom-bomber', 'bomber', 'recon', 'salvo') %}",
                '<span class="cell-demo ship">B</span> Battleship',
                "{% if seat == 'red' %}", "Create the game — you play Red"]:
        assert template_findings(old), old
    for fine in ["{{ view.clock.deadline|time_left(now) }}", "{{ view.reports[-1] }}",
                 "{% for s in order %}{% if not loop.last %}, then {% endif %}{% endfor %}",
                 "{{ seat[0]|upper }}", "{{ 'asks' if asking|length == 1 else 'ask' }}",
                 "{{ url_for('pages.game', game_id=view.id) }}", "{%- endmacro %}",
                 "{{ rules.NAMES['aa-gun'] }}", "{{ 'A-A gun' }}", "{{ seat|title }}"]:
        assert not template_findings(fine), fine


@pytest.mark.parametrize("path", page_templates(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_arithmetic_or_rule_table_in_templates(path):
    found = template_findings(path.read_text(encoding="utf-8"))
    assert not found, f"{path.name} does arithmetic or holds rules of its own: {found}"
