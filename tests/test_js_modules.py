"""The scripts are a few ES modules, those every game's pages share under
``referee/static/js`` and each rule set's own in its package (``referee/<rule set>/web/static``),
loaded by every page as one module entry (its rule set's on a game's own pages, the shared
one elsewhere) under the Content-Security-Policy (``script-src 'self'``: no inline script but
the JSON data blocks, no CDN), served with a JavaScript type (a browser refuses a module
script served as anything else), short lines, no module-level ``let``/``var``, and no rule of
their own (the catalogue scan in test_one_catalogue.py covers the Naval War Game's)."""

from __future__ import annotations

import json
import mimetypes
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pages_support import (
    FLEETS,
    PURCHASE,
    Page,
    Phone,
    buy,
    create_game,
    join,
    lock,
    make_app,
    path_of,
    save_draft,
    unversioned,
)

from referee import create_app, webparts

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "referee" / "static"
SHARED = sorted((STATIC / "js").glob("*.js"))
OWN = sorted((ROOT / "referee").glob("*/web/static/*.js"))  # each rule set's own scripts
MODULES = SHARED + OWN
PARTS = webparts.every_rule_sets()  # every registered rule set with pages


def served_at(part: webparts.WebParts) -> str:
    """Where a rule set's blueprint serves its static folder."""
    bp = part.blueprint
    return f"{bp.url_prefix or ''}{bp.static_url_path}/"


# where each folder of scripts is served: the shared one, each registered rule set's own
# (its blueprint's static folder), as the registry names them: a new rule set is covered
SERVED = {STATIC / "js": "/static/js/",
          **{Path(part.blueprint.static_folder): served_at(part) for part in PARTS}}
SHARED_ENTRY, ENTRY = "/static/js/shared.js", "/naval-war/static/main.js"
ENTRIES = [STATIC / "js" / "shared.js",
           *(Path(part.blueprint.static_folder) / part.entry for part in PARTS)]
GAME_PAGES = ("budget", "place", "waiting", "play", "over", "post-mortem")
JAVASCRIPT = ("text/javascript", "application/javascript")  # what browsers take for a module
DATA_BLOCKS = {"rules-catalogue", "page-data"}
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']""", re.M | re.S)


def imports_of(path: Path) -> list[str]:
    return IMPORT.findall(path.read_text(encoding="utf-8"))


def url_of(path: Path) -> str:
    return SERVED[path.parent] + path.name


def name_of(path: Path) -> str:
    return path.relative_to(ROOT / "referee").as_posix()


def name_of_any(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, str]:
    """Each kind of page of a two-player game, start to post-mortem, as HTML."""
    app = make_app(tmp_path_factory.mktemp("modules"))
    red, blue = Phone(app, "red"), Phone(app, "blue")
    got = {"home": red.get("/").text}
    game_id, links, _ = create_game(red, seats=2)
    base = f"/games/{game_id}"
    got["host"] = red.get(f"{base}/host").text
    got["join"] = blue.get(path_of(links["blue"])).text
    join(blue, links["blue"], "Bob")
    got["budget"] = red.get(base).text
    for phone, seat in ((red, "red"), (blue, "blue")):
        buy(phone, game_id, PURCHASE)
        if seat == "red":
            got["place"] = red.get(base).text
        save_draft(phone, game_id, FLEETS[seat])
        lock(phone, game_id)
        if seat == "red":
            got["waiting"] = red.get(base).text
    got["play"] = red.get(base).text
    got["play, another's turn"] = blue.get(base).text
    for phone in (red, blue):
        phone.submit(base, f"{base}/end")
    got["over"] = red.get(base).text
    got["post-mortem"] = red.get(f"{base}/postmortem").text
    got["error 404"] = red.get("/games/0000000000").text
    got["club"] = red.get("/club").text
    assert "Game over" in got["over"], "the game did not end"
    assert 'data-page="postmortem"' in got["post-mortem"]
    return got


def test_there_are_modules_and_an_entry():
    names = {p.name for p in MODULES}
    assert {"main.js", "catalogue.js", "chart.js", "place.js", "play.js", "poll.js",
            "shared.js", "dom.js", "tcg.js", "broadside.js"} <= names
    assert not list(STATIC.glob("*.js")), "a classic script is left in referee/static"
    assert {p.parent for p in MODULES} <= set(SERVED)


def test_every_page_loads_scripts_only_as_modules_from_static(pages):
    for name, html in pages.items():
        page = Page(html)
        for attrs, text in page.scripts:
            if attrs.get("type") == "application/json":  # data, never run
                assert attrs.get("id") in DATA_BLOCKS and "src" not in attrs, (name, attrs)
                assert "</" not in text, name  # the JSON cannot close its own block
                continue
            entry = ENTRY if name.startswith(GAME_PAGES) else SHARED_ENTRY
            assert attrs.get("type") == "module", (name, attrs)
            assert unversioned(attrs.get("src")) == entry and not text.strip(), \
                (name, attrs, text[:80])
            assert "defer" not in attrs and "async" not in attrs, (name, attrs)  # in order
        assert [unversioned(a.get("src")) for a, _ in page.scripts if a.get("src")] == [entry], \
            name


def test_the_policy_allows_only_this_site_s_scripts(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


@pytest.mark.parametrize("path", MODULES, ids=name_of)
def test_each_module_is_served_as_javascript(client, path):
    response = client.get(url_of(path))
    assert response.status_code == 200
    assert response.mimetype in JAVASCRIPT, response.headers["Content-Type"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"  # no guessing either


def test_modules_are_javascript_even_where_the_system_says_otherwise(tmp_path):
    # Some machines' type registries (Windows, some mime.types) call .js text/plain; the
    # browser then refuses every module and the pages are dead. The app says it itself.
    try:
        mimetypes.add_type("text/plain", ".js")
        assert mimetypes.guess_type("x.js")[0] == "text/plain"
        app = make_app(tmp_path)
        response = app.test_client().get(ENTRY)
        assert response.mimetype in JAVASCRIPT, response.headers["Content-Type"]
    finally:
        mimetypes.add_type("text/javascript", ".js")


def test_modules_import_only_modules_here_and_main_reaches_them_all():
    # a module imports its own folder's modules (./x.js) and, from a rule set's folder,
    # served at /<game>/static/, the shared ones (../../static/js/x.js): nothing else
    reached, todo = set(), list(ENTRIES)
    while todo:
        path = todo.pop()
        if path in reached:
            continue
        reached.add(path)
        for spec in imports_of(path):
            assert spec.endswith(".js"), (name_of(path), spec)
            if spec.startswith("./"):
                target = path.parent / spec.removeprefix("./")
            else:
                assert path.parent != STATIC / "js" and spec.startswith("../../static/js/"), \
                    (name_of(path), spec)
                target = STATIC / "js" / spec.removeprefix("../../static/js/")
            assert target.is_file() and "/" not in spec.removeprefix("./").removeprefix(
                "../../static/js/"), (name_of(path), spec)
            todo.append(target)
    assert reached == set(MODULES), "a module no page's entry loads"


@pytest.mark.parametrize("path", MODULES, ids=name_of)
def test_no_script_line_is_over_100_characters(path):
    long = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if len(line) > 100]
    assert not long, f"{path.name}: lines {long} are over 100 characters"


@pytest.mark.parametrize("path", MODULES, ids=name_of)
def test_no_module_level_mutable_variable(path):
    text = path.read_text(encoding="utf-8")
    assert not re.findall(r"^(?:export\s+)?(?:let|var)\b.*", text, re.M), path.name
    assert "window.Referee" not in text and "window.referee" not in text, path.name
    assert not re.search(r"\bvar\s", text), path.name
    assert '"use strict"' not in text, path.name  # a module is strict already



@pytest.mark.skipif(not (ROOT / "node_modules" / ".bin" / "biome").exists()
                    or shutil.which("node") is None, reason="make lint installs Biome")
def test_the_modules_are_as_biome_formats_them():
    # make lint checks the formatter too (two-space indent, 100 columns), so the modules read
    # alike whoever edits them
    assert "\t$(BIOME) format\n" in (ROOT / "Makefile").read_text()
    done = subprocess.run([str(ROOT / "node_modules" / ".bin" / "biome"), "format"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_biome_keeps_its_recommended_rules_on():
    config = json.loads((ROOT / "biome.json").read_text())
    rules = config["linter"]["rules"]
    assert config["linter"]["enabled"] and rules.get("preset", "recommended") == "recommended"
    # every package's scripts, the tests' own rule set's too
    assert config["files"]["includes"] == ["referee/**/*.js", "tests/**/*.js"]
    turned_off = [f"{group}.{name}" for group, settings in rules.items()
                  if isinstance(settings, dict)
                  for name, level in settings.items() if level == "off"]
    assert not turned_off, turned_off
    assert config["formatter"]["lineWidth"] == 100


# -- the one front-end kit every game's pages take ------------------------------------------

TEST_GAME = ROOT / "tests" / "minimal_game" / "web"  # the tests' own rule set's pages
KIT = {"dom.js", "clock.js", "poll.js"}  # finding, refusals, clocks, following the game


def reached_from(entry: Path) -> set[Path]:
    """The modules a page loading this entry loads."""
    reached, todo = set(), [entry]
    while todo:
        path = todo.pop()
        if path not in reached:
            reached.add(path)
            for spec in imports_of(path):
                todo.append((path.parent / spec).resolve() if spec.startswith("./")
                            else STATIC / "js" / spec.removeprefix("../../static/js/"))
    return reached


@pytest.mark.parametrize("entry", [*ENTRIES[1:], TEST_GAME / "static" / "hidden.js"],
                         ids=lambda p: p.name)
def test_every_games_entry_takes_the_shared_kit(entry):
    # every game's pages count their clocks down and follow their game with the same code
    assert {p.name for p in reached_from(entry) if p.parent == STATIC / "js"} >= KIT


@pytest.mark.parametrize("path", [*OWN, TEST_GAME / "static" / "hidden.js"], ids=name_of_any)
def test_no_games_script_writes_its_own_copy_of_the_kit(path):
    text = path.read_text(encoding="utf-8")
    copies = re.findall(r"(?:const|function)\s+(\$\$?|refusal|problemLine|pageData|postJson)\b",
                        text)
    assert not copies, copies  # import them from ../../static/js/dom.js
    assert "setInterval" not in text and "location.reload" not in text  # clock.js, poll.js


def page_templates_of_games() -> list[Path]:
    found = [*(ROOT / "referee").glob("*/web/templates/*/*.html"),
             *TEST_GAME.glob("templates/*/*.html")]
    return sorted(p for p in found if not p.name.startswith("_"))


@pytest.mark.parametrize("path", page_templates_of_games(), ids=name_of_any)
def test_every_games_page_template_extends_the_one_game_page(path):
    assert path.read_text(encoding="utf-8").startswith('{% extends "game.html" %}'), path


def test_every_page_says_how_often_to_ask_after_its_game(pages):
    for name, html in pages.items():
        assert Page(html).find("body")[0].attrs["data-poll-ms"] == "2000", name  # the default


@pytest.mark.parametrize("wanted", [0, 49, 60001, "often", True, 2.5])
def test_a_poll_interval_not_a_whole_number_of_ms_stops_the_referee(tmp_path, wanted):
    with pytest.raises(ValueError, match="REFEREE_POLL_MS"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "referee.db"),
                    "SECRET_KEY": "test", "POLL_MS": wanted})
