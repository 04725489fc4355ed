"""The referee as another club installs it: a wheel built from this repository and installed
into a fresh venv serves every page, script, style, icon and PDF of every rule set, with
nothing of the repository on its path and its working folder elsewhere. And as a clone sets
itself up: `make run` installs what running needs and no test tool, `make test` those too.

Nothing comes from the network. The wheel is built without isolation (``build`` and
``setuptools`` are test extras, installed by ``make test``); the fresh venv gets it with
``pip install --no-index --no-deps``, and then links to the distributions its
``Requires-Dist`` names (and theirs) as this venv has them installed: nothing else, so a
dependency the wheel forgets to declare is missing there too.
"""

from __future__ import annotations

import email
import html
import http.cookiejar
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

import pytest
from conftest import LiveServer
from flask import url_for
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from referee import rulesets

ROOT = Path(__file__).resolve().parent.parent
NOT_BUILT_FROM = shutil.ignore_patterns(  # what a clone holds that is no part of the source
    ".git", ".venv", "node_modules", "instance", "test-output", "build", "dist", "*.egg-info",
    "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache")
# the environment of everything run in or for the fresh venv: nothing of this checkout's path
ALONE = {name: value for name, value in os.environ.items()
         if name != "PYTHONPATH" and not name.startswith("REFEREE_")}
RECORD_PAGES = "/printables/blank-record.pdf?paper=a4&pages=3"
LINK = re.compile(r'(?:href|src)="(/[^"]*)"')  # what a page links to or loads


def build_wheel(into: Path) -> Path:
    """The wheel of the repository as it is now (a copy of it, so that the build's own files
    land outside it), built as ``python -m build --wheel`` builds it, without isolation."""
    source = into / "source"
    shutil.copytree(ROOT, source, ignore=NOT_BUILT_FROM)
    built = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                            "--outdir", str(into / "dist"), str(source)], capture_output=True,
                           text=True, timeout=120)
    assert built.returncode == 0, ("the build and its backend are test extras: `make test` "
                                   f"installs them\n{built.stdout[-2000:]}{built.stderr[-2000:]}")
    [wheel] = (into / "dist").glob("referee-*.whl")
    return wheel


def required(wheel: Path) -> list[importlib.metadata.Distribution]:
    """The distributions installed here that the wheel's ``Requires-Dist`` names, and those
    they need in turn (with the extras asked for, markers evaluated for this Python)."""
    with zipfile.ZipFile(wheel) as archive:
        [metadata] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        declared = email.message_from_bytes(archive.read(metadata)).get_all("Requires-Dist")
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = [(each, ("",)) for each in declared]
    while todo:
        text, extras = todo.pop()
        requirement = Requirement(text)
        if requirement.marker and not any(requirement.marker.evaluate({"extra": e})
                                          for e in extras):
            continue
        name = canonicalize_name(requirement.name)
        if name in found:
            continue
        found[name] = importlib.metadata.distribution(requirement.name)
        todo += [(each, ("", *requirement.extras)) for each in found[name].requires or []]
    return list(found.values())


def fresh_venv(at: Path, wheel: Path) -> Path:
    """A venv with the wheel installed, and its runtime dependencies linked in from here."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(at)], check=True,
                   env=ALONE, timeout=60)
    python = at / "bin" / "python"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                    "--no-index", "--no-deps", "--quiet", str(wheel)], check=True,
                   env=ALONE, capture_output=True, timeout=120)
    [site] = (at / "lib").glob("python3*/site-packages")
    for distribution in required(wheel):
        assert distribution.files, f"{distribution.metadata['Name']} lists no files"
        for top in {f.parts[0] for f in distribution.files} - {"..", "__pycache__"}:
            if not (site / top).exists():
                (site / top).symlink_to(distribution.locate_file(top))
    return python


class Browser:
    """A phone's browser over urllib: keeps its cookie (the seat), follows redirects."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def open(self, path: str, form: dict | None = None) -> tuple[int, str, str, bytes]:
        """(status, the path answered after redirects, its content type, its body)."""
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            with self.opener.open(self.base + path, data=data, timeout=60) as r:
                return (r.status, urllib.parse.urlsplit(r.url).path,
                        r.headers.get_content_type(), r.read())
        except urllib.error.HTTPError as err:
            return err.code, path, err.headers.get_content_type(), err.read()

    def page(self, path: str, form: dict | None = None) -> tuple[str, str]:
        status, at, kind, body = self.open(path, form)
        assert (status, kind) == (200, "text/html"), (path, status, body[:300])
        return at, body.decode()


def links(page: str) -> set[str]:
    return {html.unescape(link) for link in LINK.findall(page)}


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def static_files(app) -> dict[str, Path]:
    """Every file the repository's own app serves from a static folder (its own and each
    rule set's), by URL."""
    found = {}
    with app.test_request_context("/"):
        for rule in app.url_map.iter_rules():
            if rule.endpoint.rpartition(".")[2] != "static":
                continue
            name = rule.endpoint.rpartition(".")[0]
            folder = Path((app.blueprints[name] if name else app).static_folder)
            for path in sorted(p for p in folder.rglob("*") if p.is_file()):
                found[url_for(rule.endpoint, filename=path.relative_to(folder).as_posix())] \
                    = path
    return found


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The ``python`` of a fresh venv holding the referee from a wheel just built."""
    there = tmp_path_factory.mktemp("wheel")
    return fresh_venv(there / "venv", build_wheel(there))


def test_the_wheel_holds_the_pages_scripts_harbour_and_ladders(installed):
    [site] = (installed.parent.parent / "lib").glob("python3*/site-packages")
    shipped = {p.relative_to(site).as_posix() for p in (site / "referee").rglob("*")
               if p.is_file() and p.suffix != ".py"}
    in_repository = {p.relative_to(ROOT).as_posix() for p in (ROOT / "referee").rglob("*")
                     if p.is_file() and p.suffix not in (".py", ".pyc")}
    assert in_repository - shipped == set()
    assert {"referee/templates/base.html", "referee/static/js/dom.js",
            "referee/naval_war/web/static/main.js",
            "referee/naval_war/web/templates/naval_war/play.html",
            "referee/broadside/board.json", "referee/ladders/naval-war.json"} <= shipped


def test_an_installed_referee_serves_every_page_script_and_pdf(installed, app, tmp_path):
    """Home, club, each rule set's game and host pages (a game against the computer), every
    file of every static folder (as in the repository, byte for byte), every PDF the home
    page offers (a blank one of each rule set, the board among them) and whatever each page
    links to or loads: all 200, from a server whose code, templates and data are the wheel's."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run([str(installed), "-c", "import referee, printables; "
                            "print(referee.__file__); print(printables.__file__)"],
                           cwd=elsewhere, env=ALONE, capture_output=True, text=True,
                           check=True).stdout.split()
    assert all(Path(path).is_relative_to(installed.parent.parent) for path in where), where
    server = LiveServer(tmp_path / "installed.db", referee=installed.parent / "referee",
                        cwd=elsewhere, inherit=ALONE).start()
    try:
        phone = Browser(server.url)
        _, home = phone.page("/")
        for rule_set in rulesets.RULE_SETS.values():
            assert rule_set.title in home
        # the ladders' ratings as the repository's referee shows them
        ratings = re.findall(r"rating \d+", app.test_client().get("/").text)
        assert ratings and re.findall(r"rating \d+", home) == ratings
        pages = {"/": home}
        for rules, rule_set in rulesets.RULE_SETS.items():
            level = f"{rules}:{next(iter(rule_set.levels))}"
            at, page = phone.page("/play-computer", {"csrf_token": csrf(home), "player": "Ann",
                                                     "rules": rules, "level": level})
            assert re.fullmatch(r"/games/\w+", at), at
            pages[at] = page
            pages[f"{at}/host"] = phone.page(f"{at}/host")[1]
        pages["/club"] = phone.page("/club")[1]
        # the PDFs the home page links to, and the blank move record its form asks for
        assert f'action="{RECORD_PAGES.partition("?")[0]}"' in home
        pdfs = {link for link in links(home) if ".pdf" in link} | {RECORD_PAGES}
        assert {urllib.parse.parse_qs(urllib.parse.urlsplit(link).query).get(
            "rules", [rulesets.DEFAULT])[0] for link in pdfs} == set(rulesets.RULE_SETS)
        linked = set().union(*map(links, pages.values())) | pdfs
        for link in sorted(linked - set(pages)):
            if link.startswith("/games/") and not link.endswith(".svg"):
                continue  # another page of a game (a post-mortem is refused before the end)
            status, _, kind, body = phone.open(link)
            assert status == 200, (link, status, body[:300])
            if ".pdf" in link:
                assert kind == "application/pdf" and body.startswith(b"%PDF-"), link
        for url, path in static_files(app).items():
            status, _, _, body = phone.open(url)
            assert (status, body) == (200, path.read_bytes()), url
    finally:
        server.stop()


def dry_run(target: str, at: Path) -> str:
    """What ``make <target>`` would run on a fresh clone (no venv yet), without running it."""
    for name in ("Makefile", "pyproject.toml", "package.json"):
        shutil.copy(ROOT / name, at / name)
    return subprocess.run(["make", "-n", target], cwd=at, capture_output=True, text=True,
                          check=True, timeout=60).stdout


def test_make_run_installs_what_running_needs_and_no_test_tool(tmp_path):
    run = dry_run("run", tmp_path)
    assert re.search(r"pip install --quiet -e \.$", run, re.M), run
    assert "[test]" not in run and "referee serve" in run


def test_make_test_installs_the_test_tools_too(tmp_path):
    test = dry_run("test", tmp_path)
    assert re.search(r"pip install --quiet -e \.$", test, re.M), test
    assert "pip install --quiet -e '.[test]'" in test and "pytest" in test
