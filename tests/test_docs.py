"""A project a plain clone explains: the docs/ files stand on their own.

- every ruling cited in the code, the templates, the printables, the tests and the docs is
  stated in docs/rulings.md, R1-R25 each once and in order, each linked to the section of
  docs/rules.md that shows it at work;
- every route the Flask app registers under /api/v1 is in docs/api.md, method and path;
- README.md and docs/*.md link only to files inside the repository, to headings that exist,
  and never send a reader outside the repository (`../shared/...`) without naming the docs/
  file that says the same.
"""

from __future__ import annotations

import functools
import re
import tempfile
from pathlib import Path

import pytest

from referee import create_app

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULINGS = DOCS / "rulings.md"
API = DOCS / "api.md"
CITING = ("referee", "printables", "tests")
TEXT_SUFFIXES = {".py", ".html", ".js", ".mjs", ".css", ".json", ".txt", ".md"}
RULING_COUNT = 25

# "R12", "R24:", '"R8"', "(R1-R25)", and test names such as test_r8_ships_may_not_touch
CITED = re.compile(r"(?<![A-Za-z0-9_])R(\d{1,3})(?![0-9])")
TEST_NAME = re.compile(r"\btest_r(\d{1,3})_")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.MULTILINE)
RULING_HEADING = re.compile(r"^### R(\d+)\b(.*)$", re.MULTILINE)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def citing_files() -> list[Path]:
    found = [path for top in CITING for path in sorted((ROOT / top).rglob("*"))
             if path.is_file() and path.suffix in TEXT_SUFFIXES
             and "__pycache__" not in path.parts]
    return found + markdown_files()


def cited_rulings(text: str) -> set[int]:
    """The ruling numbers a text cites.

    >>> sorted(cited_rulings('refuse("R24", ...) # R1-R25; test_r8_corner; R.P.; HR2; R2x'))
    [1, 2, 8, 24, 25]
    >>> sorted(cited_rulings("R" + "40 and test_r" + "41_x"))
    [40, 41]
    """
    return {int(n) for n in CITED.findall(text)} | {int(n) for n in TEST_NAME.findall(text)}


def stated_rulings(text: str) -> list[int]:
    """The rulings docs/rulings.md states, one heading each (`### R12 What a move is`)."""
    return [int(n) for n, _ in RULING_HEADING.findall(text)]


def slug(heading: str) -> str:
    """A heading's anchor, as GitHub and most renderers make it.

    >>> slug("Worked example: an R.P. report"), slug("The chart (R1, R2)")
    ('worked-example-an-rp-report', 'the-chart-r1-r2')
    """
    text = re.sub(r"[`*_]", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, heading in HEADING.findall(path.read_text(encoding="utf-8")):
        base = slug(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def ruling_sections(text: str) -> dict[int, str]:
    """Each ruling's text in docs/rulings.md: from its heading to the next heading."""
    parts = re.split(r"^(?=#{2,3} )", text, flags=re.MULTILINE)
    return {int(m.group(1)): part for part in parts
            if (m := re.match(r"### R(\d+)\b", part))}


def test_every_ruling_cited_in_the_code_is_stated_in_docs_rulings():
    stated = set(stated_rulings(RULINGS.read_text(encoding="utf-8")))
    missing = {}
    for path in citing_files():
        for number in cited_rulings(path.read_text(encoding="utf-8", errors="replace")):
            if number not in stated:
                missing.setdefault(f"R{number}", []).append(str(path.relative_to(ROOT)))
    assert not missing, f"rulings cited but not stated in docs/rulings.md: {missing}"


def test_the_code_cites_every_ruling_from_r1_to_r25():
    """A check on the check: the scan finds the citations it is meant to find."""
    cited = set().union(*(cited_rulings(p.read_text(encoding="utf-8", errors="replace"))
                          for p in citing_files() if not p.is_relative_to(DOCS)
                          and p.name not in ("README.md", "test_docs.py")))
    assert cited >= set(range(1, RULING_COUNT + 1))


def test_docs_rulings_states_r1_to_r25_once_each_in_order():
    stated = stated_rulings(RULINGS.read_text(encoding="utf-8"))
    assert stated == list(range(1, RULING_COUNT + 1))


@pytest.mark.parametrize("number", range(1, RULING_COUNT + 1), ids=lambda n: f"R{n}")
def test_each_ruling_is_a_paragraph_linked_to_its_worked_examples(number):
    section = ruling_sections(RULINGS.read_text(encoding="utf-8"))[number]
    body = section.split("\n", 1)[1].strip()
    assert len(body.split()) >= 12, f"R{number} has no statement of its own"
    targets = [t for t in LINK.findall(section) if t.startswith("rules.md#")]
    assert targets, f"R{number} links to no section of docs/rules.md"
    known = anchors(DOCS / "rules.md")
    for target in targets:
        assert target.split("#", 1)[1] in known, f"R{number}: {target} is no heading"


@functools.cache
def api_routes() -> list[tuple[str, str]]:
    """Every (method, path) the app serves under /api/v1, paths written as docs/api.md
    writes them (`/api/v1/games/{id}/seats/{seat}`)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "DATABASE": str(Path(folder) / "referee.db"),
                          "SECRET_KEY": "test"})
    routes = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        path = re.sub(r"<(?:[^:>]+:)?game_id>", "{id}", rule.rule)
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", path)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            routes.append((method, path))
    return sorted(routes)


def test_every_api_route_is_in_docs_api():
    text = API.read_text(encoding="utf-8")
    routes = api_routes()
    assert len(routes) >= 20  # the app's routes were found
    missing = [f"{method} {path}" for method, path in routes
               if not re.search(re.escape(f"{method} {path}") + r"(?![\w/.{}-])", text)]
    assert not missing, f"routes not described in docs/api.md: {missing}"


def test_docs_api_names_no_route_the_app_does_not_have_without_saying_so():
    """Every `METHOD /api/v1/...` that docs/api.md names is a route, or is named in its
    closing section on where the referee differs from the club's API.md."""
    text = API.read_text(encoding="utf-8")
    head, _, differs = text.partition("## Where the referee differs from API.md")
    assert differs, "docs/api.md has no section on where the referee differs from API.md"
    routes = {f"{m} {p}" for m, p in api_routes()}
    named = set(re.findall(r"\b(GET|POST|PUT|PATCH|DELETE) (/api/v1/[\w/.{}-]*[\w}])", head))
    unknown = sorted(f"{m} {p}" for m, p in named if f"{m} {p}" not in routes)
    assert not unknown, f"docs/api.md describes routes the app lacks: {unknown}"


def paragraphs(text: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", text) if p.strip()]


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.name)
def test_links_resolve_inside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        assert linked.is_relative_to(ROOT), f"{path.name}: {target} leads out of the repo"
        assert linked.exists(), f"{path.name}: {target} does not exist in the repo"
        if anchor and linked.suffix == ".md":
            assert anchor in anchors(linked), f"{path.name}: {target}: no such heading"


OUTSIDE = re.compile(r"(?<![.\w/])\.\./(?:\.\./)*[\w.-]+")
NAMES_DOCS = re.compile(r"docs/[\w-]+\.md|\((?:\./)?[\w-]+\.md[)#]|\b(?:rulings|rules|api)\.md\b")


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: p.name)
def test_no_pointer_outside_the_repository_stands_alone(path):
    """A path that leaves the repository (the club's ../shared/RULINGS.md, say) may be
    mentioned only beside the docs/ file that says the same, which a clone has."""
    for paragraph in paragraphs(path.read_text(encoding="utf-8")):
        for found in OUTSIDE.findall(paragraph):
            if (path.parent / found).resolve().is_relative_to(ROOT) \
                    and (path.parent / found).resolve().exists():
                continue
            assert NAMES_DOCS.search(paragraph), (
                f"{path.name} points outside the repository ({found}) without naming the "
                f"docs/ file a clone has:\n{paragraph}")


def test_the_checks_catch_a_missing_ruling_and_a_lone_outside_pointer():
    """The checks above fail when they should: a ruling taken out of docs/rulings.md, or a
    paragraph that sends the reader to ../shared alone."""
    text = RULINGS.read_text(encoding="utf-8")
    section = ruling_sections(text)[17]
    assert 17 not in stated_rulings(text.replace(section, ""))
    lone = "The rulings live in `../shared/RULINGS.md`."
    assert OUTSIDE.search(lone) and not NAMES_DOCS.search(lone)
    assert NAMES_DOCS.search(lone + " The docs/rulings.md file restates them.")


def test_the_helpers_read_citations_and_headings_as_their_examples_say():
    """The examples in this module's docstrings (pytest collects no doctests from tests/)."""
    import doctest
    import sys

    failed, tried = doctest.testmod(sys.modules[__name__])
    assert tried >= 3 and failed == 0


# "issue N", "issues N and M", "issue #N", "item N of issue", "Issue N:" (N a number): what
# the repository says must read well to someone who never saw the issues
ISSUE_NUMBER = re.compile(r"\bissues?\s*#?\s*\d|\bitems?\s+\d+(\s*(,|and)\s*\d+)*\s+of\s+"
                          r"(the\s+)?issue", re.IGNORECASE)
SCANNED = ("referee", "printables", "tests", "bench", "docs")
TEXT = {".py", ".md", ".js", ".html", ".css", ".txt", ".toml", ".json", ".svg"}


def test_nothing_in_the_repository_is_named_by_an_issue_number():
    """Code, tests, benches, docs and the README name a rule, a ruling or a behaviour, never
    the issue that asked for it."""
    files = [ROOT / "README.md", *(path for folder in SCANNED
                                   for path in sorted((ROOT / folder).rglob("*"))
                                   if path.suffix in TEXT
                                   and not {"__pycache__", "node_modules"} & set(path.parts))]
    assert len(files) > 200
    found = [(path.relative_to(ROOT).as_posix(), n, line.strip()[:80])
             for path in files
             for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
             if ISSUE_NUMBER.search(line)]
    assert not found, found
    number = 16  # the pattern at work, on phrases this file cannot hold as they are
    assert ISSUE_NUMBER.search(f"as item {number} of the issue asks")
    assert ISSUE_NUMBER.search(f"(Issue {number}: levels)")
    assert ISSUE_NUMBER.search(f"issues {number} and {number + 1}")
    assert not ISSUE_NUMBER.search("a known issue: the clock")
