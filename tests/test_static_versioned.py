"""The pages name their style sheets and scripts at versioned addresses a phone keeps
(``referee/assets.py``): ``/v/<version>/static/...``, kept a year, a new address whenever a
file changes; the modules a versioned script imports are versioned through their relative
imports; an address of another version is served but never kept, and nothing outside the
static folders is served at all."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from urllib.parse import urljoin

import pytest
from pages_support import Page, make_app, unversioned

from referee import assets

IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"', re.M | re.S)
YEAR = "public, max-age=31536000, immutable"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return make_app(tmp_path_factory.mktemp("assets")).test_client()


def addresses(html: str) -> list[str]:
    page = Page(html)
    return [e.attrs["href"] for e in page.find("link") if "/v/" in (e.attrs["href"] or "")] \
        + [a["src"] for a, _ in page.scripts if a.get("src")]


def test_a_pages_style_sheet_icon_and_script_are_named_at_this_versions_address(client):
    named = addresses(client.get("/").get_data(as_text=True))
    assert [unversioned(a) for a in named] == ["/static/app.css", "/static/icon.svg",
                                               "/static/js/shared.js"]
    versions = {a.split("/")[2] for a in named}
    assert len(versions) == 1 and re.fullmatch(r"[0-9a-f]{16}", versions.pop())
    for address in named:
        answer = client.get(address)
        assert answer.status_code == 200, address
        assert answer.headers["Cache-Control"] == YEAR, address
        assert answer.get_data() == client.get(unversioned(address)).get_data()


def test_every_module_a_versioned_script_imports_is_at_the_same_version(client):
    """Follow every import from the shared entry and from each game's entry: each resolves,
    relative to the versioned address, to a versioned address that is served and kept."""
    version = addresses(client.get("/").get_data(as_text=True))[0].split("/")[2]
    entries = [f"/v/{version}/static/js/shared.js", f"/v/{version}/naval-war/static/main.js",
               f"/v/{version}/tcg/static/tcg.js", f"/v/{version}/broadside/static/broadside.js",
               f"/v/{version}/broadsides-boarding/static/boarding.js"]
    seen: set[str] = set()
    todo = list(entries)
    while todo:
        address = todo.pop()
        if address in seen:
            continue
        seen.add(address)
        answer = client.get(address)
        assert answer.status_code == 200, address
        assert answer.headers["Cache-Control"] == YEAR, address
        for spec in IMPORT.findall(answer.get_data(as_text=True)):
            target = urljoin(f"http://referee{address}", spec).removeprefix("http://referee")
            assert target.startswith(f"/v/{version}/"), (address, spec)
            todo.append(target)
    assert len(seen) > len(entries) + 5  # the shared kit was reached from every game


def test_the_plain_address_and_another_versions_are_served_but_asked_for_again(client):
    for address in ("/static/js/dom.js", "/v/0000000000000000/static/js/dom.js",
                    "/v/old/tcg/static/tcg.js"):
        answer = client.get(address)
        assert answer.status_code == 200, address
        assert "no-cache" in answer.headers["Cache-Control"], address
        assert "immutable" not in answer.headers["Cache-Control"], address


@pytest.mark.parametrize("address", [
    "/v/x/static/../app.py", "/v/x/static/%2e%2e/app.py", "/v/x/nowhere/app.css",
    "/v/x/static/js/none.js", "/v/x/static", "/v/x/naval-war/templates/base.html",
    "/v/x/static/..%2f..%2fapp.py"])
def test_nothing_outside_the_static_folders_is_served(client, address):
    assert client.get(address).status_code == 404


def test_a_changed_file_is_a_new_version_when_the_referee_starts_again(tmp_path):
    (tmp_path / "a.js").write_text("export const a = 1;\n")
    first = assets.Assets({"/static": tmp_path})
    assert assets.Assets({"/static": tmp_path}).version == first.version
    (tmp_path / "a.js").write_text("export const a = 22;\n")
    later = time.time() + 5
    os.utime(tmp_path / "a.js", (later, later))
    assert assets.Assets({"/static": tmp_path}).version != first.version
    assert first.folder_of("/static/a.js") == (tmp_path, "a.js")
    assert first.folder_of("/elsewhere/a.js") is None


def test_the_version_digests_every_static_folder_of_the_app(client):
    folders = client.application.extensions["referee.assets"].folders
    root = Path(__file__).resolve().parent.parent / "referee"
    assert folders == {
        "/static": root / "static",
        "/naval-war/static": root / "naval_war" / "web" / "static",
        "/tcg/static": root / "battleship_tcg" / "web" / "static",
        "/broadside/static": root / "broadside" / "web" / "static",
        "/broadsides-boarding/static": root / "broadsides_boarding" / "web" / "static"}
