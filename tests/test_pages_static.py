"""What every page is made of: light enough for a phone on club Wi-Fi (under 60 KB transferred
with the stylesheet and script), nothing from outside (no CDN, no outside fonts), no inline
script or event handler (the Content-Security-Policy forbids them), and the accessibility
basics: a language, a title, and a label for every field."""

from __future__ import annotations

import gzip
import random
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from pages_support import (
    FLEETS,
    PURCHASE,
    Page,
    Phone,
    Table,
    buy,
    create_game,
    join,
    lock,
    make_app,
    move,
    open_table,
    own_hosts,
    page_static,
    page_templates,
    path_of,
    save_draft,
    set_up,
    strip_fleet,
    turn_of,
    unversioned,
)

from referee import service
from referee.states import replayed

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = page_templates()
STATIC = page_static(".js", ".css")  # not the icons (scripts/)
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']""", re.M | re.S)
# where each static folder is served: the shared one, the Naval War Game's own
SERVED = {"/static/": ROOT / "referee" / "static",
          "/naval-war/static/": ROOT / "referee" / "naval_war" / "web" / "static"}
SHARED_ENTRY, NAVAL_WAR_ENTRY = "/static/js/shared.js", "/naval-war/static/main.js"


def _file_of(url: str) -> Path:
    prefix = next(p for p in SERVED if url.startswith(p))
    return SERVED[prefix] / url.removeprefix(prefix)


def _loaded_by(entry: str) -> list[str]:
    """An entry script and every module it imports, itself or through another, as the URLs
    a browser fetches: what a page loading that entry loads."""
    found, todo = set(), [entry]
    while todo:
        url = todo.pop()
        if url not in found:
            found.add(url)
            base = url.rpartition("/")[0]
            for spec in IMPORT.findall(_file_of(url).read_text(encoding="utf-8")):
                parts = f"{base}/{spec}".split("/")
                resolved: list[str] = []
                for part in parts:
                    if part == "..":
                        resolved.pop()
                    elif part != ".":
                        resolved.append(part)
                todo.append("/".join(resolved))
    return sorted(found)


SCRIPTS = {entry: _loaded_by(entry) for entry in (SHARED_ENTRY, NAVAL_WAR_ENTRY)}
# the pages of a Naval War Game seat, which load the game's own entry; every other page
# (home, joining, the host's, the club, an error) loads the shared one
GAME_PAGES = ("budget", "place", "waiting", "play", "over", "post-mortem")
# the pages about no game, or that tell a phone holding no seat nothing of it, are titled
# after the referee; every other after the game they are about
ABOUT_NO_GAME = {"home", "home with a game", "home, bad form", "error 404", "error 403",
                 "error 400", "error 405", "club"}


def entry_of(name: str) -> str:
    return NAVAL_WAR_ENTRY if name.startswith(GAME_PAGES) else SHARED_ENTRY
BUDGET = 60 * 1024
STATIC_BUDGET = 26 * 1024
GZIP = {"Accept-Encoding": "gzip, deflate, br",
        "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
URL = re.compile(r"""(?:https?:)?//[^\s"'<>)]+""", re.I)


def longest_game(app) -> tuple:
    """Four players with 100 salvoes each, every one fired: the longest record a game can
    have (R4 leaves at most 100 points for attacks), so the heaviest play and over pages.
    All but the last move are made at once in the store; the last goes through the page."""
    table = open_table(app, seats=4)
    purchase = {"battleship": 15, "salvo": 100}
    set_up(table, {seat: strip_fleet(0, 21, purchase) for seat in table.phones})
    rng = random.Random(4)
    squares = [f"{c} {r}" for c in "ABCDEFGHIJKLMNOPQRSTU" for r in range(1, 22)]

    def salvo(game) -> dict:
        return {"weapon": "salvo", "at": rng.sample(squares, 3),
                "target": rng.choice([s for s in game.seats if s != game.turn])}

    def all_but_one(game) -> None:
        for _ in range(399):
            game.move(game.turn, salvo(game))

    service.act(app.extensions["referee.store"](), table.id, all_but_one)
    game = replayed(app.extensions["referee.store"](), table.id)
    last, seat = salvo(game), game.turn
    play_page = table.phones[seat].get(f"/games/{table.id}", headers=GZIP)
    response = move(table.phones[seat], table.id, "salvo", last["at"], target=last["target"])
    assert "Game over" in response.text
    over_page = table.phones["red"].get(f"/games/{table.id}", headers=GZIP)
    reports = Page(html_of(over_page)).page_data()["view"]["reports"]
    postmortem = table.phones["red"].get(f"/games/{table.id}/postmortem", headers=GZIP)
    return len(reports), play_page, over_page, postmortem


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, object]:
    """Every kind of page a phone is sent, by name, fetched as a phone's browser would."""
    app = make_app(tmp_path_factory.mktemp("static"))
    got: dict[str, object] = {}
    red, blue, green = Phone(app, "red"), Phone(app, "blue"), Phone(app, "green")
    got["home"] = red.get("/", headers=GZIP)
    game_id, links, _ = create_game(red, seats=3)
    base = f"/games/{game_id}"
    got["home with a game"] = red.get("/", headers=GZIP)
    got["home, bad form"] = red.submit("/", "/", {"name": "", "minutes": "0"})
    got["host"] = red.get(f"{base}/host", headers=GZIP)
    got["join"] = blue.get(path_of(links["blue"]), headers=GZIP)
    join(blue, links["blue"], "Bob")
    join(green, links["green"], "Gil")
    got["budget"] = red.get(base, headers=GZIP)
    got["budget, flashed"] = buy(red, game_id, {"battleship": "-1"})
    buy(red, game_id, PURCHASE)
    got["place"] = red.get(base, headers=GZIP)
    save_draft(red, game_id, FLEETS["red"])
    got["place, drafted"] = red.get(base, headers=GZIP)
    lock(red, game_id)
    got["waiting"] = red.get(base, headers=GZIP)
    for phone, fleet in ((blue, FLEETS["blue"]), (green, strip_fleet(0, 10, PURCHASE))):
        buy(phone, game_id, PURCHASE)
        save_draft(phone, game_id, fleet)
        lock(phone, game_id)
    phones = {"red": red, "blue": blue, "green": green}
    first = turn_of(Table(app, game_id, phones, links))
    got["play, your turn (three players)"] = phones[first].get(base, headers=GZIP)
    got["play, another's turn"] = phones["red" if first != "red" else "blue"].get(
        base, headers=GZIP)
    got["play, flashed"] = move(phones[first], game_id, "salvo", "A 1")
    got["error 404"] = red.get("/games/0000000000", headers=GZIP)
    got["error 403"] = Phone(app, "stranger").get(base, headers=GZIP)
    got["error 409"] = join(Phone(app, "late"), links["blue"], "Eve")
    got["error 400"] = red.post("/", data={"name": "x"}, headers=GZIP)
    got["error 405"] = red.get(f"{base}/move", headers=GZIP)
    for phone in phones.values():
        phone.submit(base, f"{base}/end")
    got["over (three players)"] = red.get(base, headers=GZIP)
    got["post-mortem (three players)"] = red.get(f"{base}/postmortem", headers=GZIP)
    if "club" in {r.endpoint.split(".")[-1] for r in app.url_map.iter_rules()}:
        got["club"] = red.get("/club", headers=GZIP)
    played, got["play, longest game"], got["over, longest game"], got[
        "post-mortem, longest game"] = longest_game(app)
    assert played == 400
    assert got["play, longest game"].status_code == 200
    return got


def html_of(response) -> str:
    raw = response.get_data()
    if response.headers.get("Content-Encoding") == "gzip":
        raw = gzip.decompress(raw)
    return raw.decode()


@pytest.fixture(scope="module")
def static_bytes(tmp_path_factory) -> dict[str, int]:
    """For each entry, the style sheet and every module a page loading it fetches."""
    phone = Phone(make_app(tmp_path_factory.mktemp("assets")), "assets")
    totals = {}
    for entry, scripts in SCRIPTS.items():
        totals[entry] = 0
        for url in ("/static/app.css", *scripts):
            response = phone.get(url, headers=GZIP)
            assert response.status_code == 200, url
            totals[entry] += len(response.get_data())
    return totals


def test_every_page_is_under_60_kb_transferred_with_its_stylesheet_and_script(pages,
                                                                              static_bytes):
    # the style sheet and every module an entry loads, compressed (20 KB before the pages
    # followed their stream; then the piece bar, its scroll hints, the home page's forms
    # that follow the chosen game, and every game's pages taking the shared clock and
    # follower), leave the page itself at least 34 KB of the 60
    assert len(static_bytes) == 2 and max(static_bytes.values()) < STATIC_BUDGET
    for name, response in pages.items():
        assert response.status_code < 500, name
        weight = len(response.get_data()) + static_bytes[entry_of(name)]
        assert weight < BUDGET, (name, weight)
    # the heaviest pages are compressed on the way, and would not fit otherwise
    for name in ("play, longest game", "over, longest game"):
        assert pages[name].headers.get("Content-Encoding") == "gzip", name
        assert len(html_of(pages[name])) > BUDGET  # 400 moves of record


def test_every_page_references_only_its_own_stylesheet_and_script(pages):
    for name, response in pages.items():
        page = Page(html_of(response))
        assert [unversioned(e.attrs["href"]) for e in page.find("link")] == [
            "/static/app.css", "/favicon.ico", "/static/icon.svg", "/apple-touch-icon.png",
            "/manifest.webmanifest"], name  # the icons, all served here
        scripts = [unversioned(a.get("src")) for a, _ in page.scripts if a.get("src")]
        assert scripts == [entry_of(name)], name


def test_no_template_or_static_file_names_an_outside_address():
    for path in TEMPLATES + STATIC:
        found = URL.findall(path.read_text())
        assert found == [], (path.name, found)


def test_no_page_names_an_outside_address(pages):
    for name, response in pages.items():
        text = re.sub(r"""\sxmlns(?::\w+)?=["'][^"']*["']""", "", html_of(response))
        for url in URL.findall(text):  # (an inline SVG's namespace is a name, not a fetch)
            assert urlsplit(url).hostname in own_hosts(), (name, url)
        assert not re.search(r"@import|@font-face|fonts\.g", html_of(response)), name


def test_the_stylesheet_loads_no_outside_fonts_or_images():
    css = (ROOT / "referee" / "static" / "app.css").read_text()
    assert "@import" not in css and "@font-face" not in css
    assert all(u.startswith(("data:", "#")) or not re.match(r"[a-z]+:", u)
               for u in re.findall(r"url\(\s*['\"]?([^'\")]+)", css))


INLINE_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)


def test_templates_have_no_inline_script_handler_or_style():
    for path in TEMPLATES:
        text = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text, re.I):
            assert "src=" in tag or 'type="application/json"' in tag, (path.name, tag)
        assert not INLINE_HANDLER.search(text), path.name
        assert "javascript:" not in text.lower(), path.name
        assert not re.search(r"<style\b|\sstyle\s*=", text, re.I), path.name


def test_pages_have_no_inline_script_handler_or_style(pages):
    """The CSP (script-src 'self'; style-src 'self') would block them on a phone."""
    for name, response in pages.items():
        page = Page(html_of(response))
        for attrs, body in page.scripts:
            if attrs.get("src"):
                assert body.strip() == "", name
            else:
                assert attrs.get("type") == "application/json", (name, attrs)
        for element in page.elements:
            handlers = [a for a in element.attrs if a.lower().startswith("on")]
            assert not handlers, (name, element.tag, handlers)
            assert "style" not in element.attrs, (name, element.tag)
            assert not (element.attrs.get("href") or "").lower().startswith("javascript:")
        assert not page.find("style"), name
    csp = pages["home"].headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp


def test_every_page_has_a_language_and_a_title(pages):
    for name, response in pages.items():
        text = html_of(response)
        page = Page(text)
        assert page.find("html") and page.find("html")[0].attrs.get("lang") == "en", name
        titles = re.findall(r"<title>(.*?)</title>", text, re.S)
        assert len(titles) == 1 and titles[0].strip(), name
        after = "The referee" if name in ABOUT_NO_GAME else "The Naval War Game"
        assert "<" not in titles[0] and titles[0].endswith(f" · {after}"), (name, titles)


def test_every_field_has_a_label(pages):
    """Each input and select is named by a <label for=...>, a label around it, or
    aria-label; hidden fields and buttons need none."""
    for name, response in pages.items():
        page = Page(html_of(response))
        targets = [e.attrs.get("for") for e in page.find("label") if e.attrs.get("for")]
        ids = [e.attrs.get("id") for e in page.elements if e.attrs.get("id")]
        for target in targets:
            assert ids.count(target) == 1, (name, "label for a missing or repeated id", target)
        for field in page.elements:
            if field.tag not in ("input", "select", "textarea"):
                continue
            if field.attrs.get("type") in ("hidden", "submit", "button", "image", "reset"):
                continue
            labelled = (field.attrs.get("id") in targets or field.labels
                        or field.attrs.get("aria-label") or field.attrs.get("aria-labelledby"))
            assert labelled, (name, field.tag, field.attrs)
