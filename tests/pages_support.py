"""Support for the page tests: a phone over Flask's test client with CSRF on, a small HTML
reader for forms and fields, and fleets laid out in strips of the chart.

A ``Phone`` keeps every body the server sent it (pages, redirects, JSON), so a test can scan
them for squares the seat was not told (R21). Forms are submitted as a browser would: the
page is fetched first and the CSRF token taken from the form itself.
"""

from __future__ import annotations

import gzip
import html as html_lib
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from referee import create_app
from referee.naval_war import check_disposition
from referee.naval_war.squares import SIZE, Square, area, parse_square, square_name

SQUARE = re.compile(r"\b([A-U]) (\d{1,2})\b")  # squares are written "K 10"; rulings "R4"
COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"
SHIP_LENGTH = {"battleship": 4, "cruiser": 3, "destroyer": 2, "submarine": 1}
SHIP_KINDS = ("carrier", "battleship", "cruiser", "destroyer", "submarine")


ROOT = Path(__file__).resolve().parent.parent
NAVAL_WAR_WEB = ROOT / "referee" / "naval_war" / "web"


def page_templates() -> list[Path]:
    """The templates the Naval War Game's pages are made of: the layout every game shares
    (referee/templates/) and the game's own (referee/naval_war/web/templates/naval_war/)."""
    return [*sorted((ROOT / "referee" / "templates").glob("*.html")),
            *sorted((NAVAL_WAR_WEB / "templates").rglob("*.html"))]


def page_static(*suffixes: str) -> list[Path]:
    """The static files (scripts, style sheet) the Naval War Game's pages are made of: those
    every page shares (referee/static/) and the game's own (referee/naval_war/web/static/)."""
    return [p for folder in (ROOT / "referee" / "static", NAVAL_WAR_WEB / "static")
            for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix in suffixes]


VERSIONED = re.compile(r"^/v/[0-9a-f]{16}(?=/)")  # referee/assets.py: /v/<version>/static/...


def unversioned(url: str | None) -> str | None:
    """A static file's plain address from the versioned one a page names (``/v/<version>``
    taken off); any other address as it is."""
    return VERSIONED.sub("", url) if url else url


def make_app(tmp_path, **config):
    """The app with CSRF on (flask-wtf's default, which TESTING does not change)."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "pages.db"),
                       "SECRET_KEY": "pages-test", **config})


# -- reading HTML ------------------------------------------------------------------------------

@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    form: int | None = None  # index of the enclosing <form>
    labels: list[int] = field(default_factory=list)  # enclosing <label>s, by index


class Page(HTMLParser):
    """The elements of a page (flat, in order), with the form and labels each sits in."""

    VOID = {"input", "meta", "link", "img", "br", "hr", "source", "area", "base", "col",
            "embed", "wbr", "track", "param"}

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.forms: list[Element] = []
        self.label_stack: list[int] = []
        self.form_stack: list[int] = []
        self.scripts: list[tuple[dict, str]] = []
        self._script: dict | None = None
        self._script_text: list[str] = []
        self.title: str | None = None
        self._in_title = False
        self.html = html
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs), self.form_stack[-1] if self.form_stack else None,
                          list(self.label_stack))
        self.elements.append(element)
        if tag == "form":
            self.forms.append(element)
            self.form_stack.append(len(self.forms) - 1)
        elif tag == "label":
            self.label_stack.append(len(self.elements) - 1)
        elif tag == "script":
            self._script, self._script_text = dict(attrs), []
        elif tag == "title":
            self._in_title = True

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag == "form" and self.form_stack:
            self.form_stack.pop()
        elif tag == "label" and self.label_stack:
            self.label_stack.pop()
        elif tag == "script" and self._script is not None:
            self.scripts.append((self._script, "".join(self._script_text)))
            self._script = None
        elif tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._script is not None:
            self._script_text.append(data)
        if self._in_title:
            self.title = (self.title or "") + data

    def find(self, tag: str, **attrs) -> list[Element]:
        return [e for e in self.elements if e.tag == tag
                and all(e.attrs.get(k.rstrip("_")) == v for k, v in attrs.items())]

    def form(self, action: str, page: str = "") -> tuple[Element, dict[str, str]]:
        """The form posting to ``action`` (a path), and its fields' initial values; a form
        without an action posts to its own ``page``."""
        for index, form in enumerate(self.forms):
            if urlsplit(form.attrs.get("action") or page).path == urlsplit(action).path:
                fields = {e.attrs["name"]: e.attrs.get("value") or "" for e in self.elements
                          if e.form == index and e.tag in ("input", "select", "textarea")
                          and e.attrs.get("name")
                          and e.attrs.get("type") not in ("radio", "checkbox")}
                return form, fields
        actions = [f.attrs.get("action") for f in self.forms]
        raise AssertionError(f"no form posting to {action}; forms post to {actions}")

    def find_text(self, tag: str, css_class: str) -> list[str]:
        """The text of each ``tag`` element of a class (a regex's job, on our own markup)."""
        return [re.sub(r"<[^>]+>", "", m) for m in re.findall(
            rf'<{tag} class="{css_class}">(.*?)</{tag}>', self.html, re.S)]

    def meta_csrf(self) -> str:
        return self.find("meta", name="csrf-token")[0].attrs["content"]

    def page_data(self) -> dict | None:
        for attrs, text in self.scripts:
            if attrs.get("id") == "page-data":
                return json.loads(text)
        return None


# -- a phone -----------------------------------------------------------------------------------

class Phone:
    """One player's phone: a test client with its own cookies, keeping every body it got."""

    def __init__(self, app, name: str) -> None:
        self.app, self.name = app, name
        self.client = app.test_client()
        self.bodies: list[tuple[str, str]] = []
        self.moment = 0  # a test's clock (say, moves applied so far), stamped on each body
        self.stamps: list[int] = []

    def request(self, method: str, path: str, *, follow: bool = True, **kwargs):
        response = self.client.open(path, method=method, follow_redirects=follow, **kwargs)
        for r in [*response.history, response]:
            raw = r.get_data()
            if r.headers.get("Content-Encoding") == "gzip":
                raw = gzip.decompress(raw)
            text = raw.decode(errors="replace")
            self.bodies.append((f"{method} {path} -> {r.status_code} {r.request.path}", text))
            self.stamps.append(self.moment)
        return response

    def get(self, path: str, **kwargs):
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs):
        return self.request("POST", path, **kwargs)

    def submit(self, page: str, action: str | None = None, data: dict | None = None,
               *, follow: bool = True, token: bool = True, fields: bool = True):
        """Fetch ``page``, fill in its form posting to ``action`` and send it."""
        response = self.get(page)
        assert response.status_code == 200, (page, response.status_code, response.text[:500])
        action = action or page
        _, initial = Page(response.text).form(action, page)
        sent = {**(initial if fields else {}), **(data or {})}
        if token:
            assert sent.get("csrf_token"), f"the form posting to {action} has no CSRF token"
        else:
            sent.pop("csrf_token", None)
        return self.post(action, data=sent, follow=follow)

    def csrf(self, page: str) -> str:
        response = self.get(page)
        return Page(response.text).meta_csrf()

    def post_json(self, path: str, body, *, token: str | None, raw: bytes | None = None):
        headers = {"Accept": "application/json"}
        if token:
            headers["X-CSRFToken"] = token
        data = raw if raw is not None else json.dumps(body)
        return self.post(path, data=data, headers=headers, content_type="application/json",
                         follow=False)

    def flashes(self, response) -> list[str]:
        html = response.get_data(as_text=True)
        block = re.search(r'<ul class="flashes".*?</ul>', html, re.S)
        if not block:
            return []
        return [html_lib.unescape(re.sub(r"<[^>]+>", "", li)).strip()
                for li in re.findall(r"<li[^>]*>(.*?)</li>", block.group(0), re.S)]

    def cookie(self, name: str = "session"):
        return self.client.get_cookie(name)


def own_hosts() -> set[str]:
    """The names the referee goes by: the test client's, and the LAN addresses join links
    use in place of a loopback host (so that a phone can follow them)."""
    from referee.cli import lan_addresses

    return {"localhost", "127.0.0.1", *lan_addresses()}


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


# -- a table of phones -------------------------------------------------------------------------

@dataclass
class Table:
    app: object
    id: str
    phones: dict[str, Phone]
    links: dict[str, str]

    @property
    def url(self) -> str:
        return f"/games/{self.id}"


def create_game(phone: Phone, *, name: str = "Ann", seats: int = 2,
                alliances: bool | str = False,
                minutes: int = 20) -> tuple[str, dict[str, str], object]:
    """Create a game from the home page; returns its id, the join links and the host page.
    ``alliances``: True for red and green against blue and gold, or a shape as the form's
    sides select sends it ("red+green/blue", R23)."""
    data = {"name": name, "seats": str(seats), "minutes": str(minutes)}
    if alliances:
        data["sides"] = "red+green/blue+gold" if alliances is True else alliances
    response = phone.submit("/", "/", data)
    assert response.status_code == 200, response.text[:1000]
    match = re.fullmatch(r"/games/([0-9a-f]+)/host", response.request.path)
    assert match, response.request.path
    page = Page(response.text)
    links = {e.attrs["id"].removeprefix("link-"): e.attrs["value"]
             for e in page.find("input") if (e.attrs.get("id") or "").startswith("link-")}
    return match.group(1), links, response


def join(phone: Phone, link: str, name: str):
    path = path_of(link)
    page = Page(phone.get(path).text)
    if not any(urlsplit(f.attrs.get("action") or path).path == urlsplit(path).path
               for f in page.forms):  # a taken seat's page has no join form: post
        code = parse_qs(urlsplit(link).query).get("code", [""])[0]  # as a page left open would
        return phone.post(path, data={"csrf_token": page.meta_csrf(), "code": code,
                                      "name": name})
    response = phone.submit(path, path, {"name": name})
    return response


def open_table(app, seats: int = 2, alliances: bool = False) -> Table:
    """A game created by Red's phone, every other seat joined from its own phone."""
    red = Phone(app, "red")
    game_id, links, _ = create_game(red, seats=seats, alliances=alliances)
    phones = {"red": red}
    for seat, link in links.items():
        phones[seat] = Phone(app, seat)
        response = join(phones[seat], link, seat.title())
        assert response.status_code == 200 and response.request.path == f"/games/{game_id}", (
            response.status_code, response.text[:500])
    return Table(app, game_id, phones, links)


def purchase_of(document: dict) -> dict[str, int]:
    counts: dict[str, int] = {}
    for piece in document["ships"] + document["aircraft"]:
        counts[piece["type"]] = counts.get(piece["type"], 0) + 1
    if document["guns"]:
        counts["aa-gun"] = len(document["guns"])
    if document["salvoes"]:
        counts["salvo"] = document["salvoes"]
    return counts


def buy(phone: Phone, game_id: str, purchase: dict[str, int], *, page: str | None = None):
    data = {kind.replace("-", "_"): str(n) for kind, n in purchase.items()}
    return phone.submit(page or f"/games/{game_id}", f"/games/{game_id}/budget", data)


def save_draft(phone: Phone, game_id: str, document: dict):
    token = phone.csrf(f"/games/{game_id}")
    return phone.post_json(f"/games/{game_id}/draft", {"disposition": document}, token=token)


def lock(phone: Phone, game_id: str):
    return phone.submit(f"/games/{game_id}", f"/games/{game_id}/lock")


def set_up(table: Table, fleets: dict[str, dict]) -> None:
    """Buy, place (through the draft endpoint) and lock in each seat's fleet."""
    for seat, document in fleets.items():
        phone = table.phones[seat]
        response = buy(phone, table.id, purchase_of(document))
        assert response.status_code == 200 and "Place your fleet" in response.text, (
            phone.flashes(response), response.text[:500])
        response = save_draft(phone, table.id, document)
        assert response.status_code == 200, response.text
        assert response.get_json()["complete"], response.get_json()
        response = lock(phone, table.id)
        assert response.status_code == 200, response.text[:500]


def move(phone: Phone, game_id: str, weapon: str, at, *, base: str = "",
         target: str = "", key: str | None = None):
    """Fill in the move form of the play page as the page's script would, and send it."""
    data = {"weapon": weapon, "base": base, "target": target,
            "at": ", ".join(at) if isinstance(at, list | tuple) else at}
    if key is not None:
        data["key"] = key
    return phone.submit(f"/games/{game_id}", f"/games/{game_id}/move", data)


def view_of(phone: Phone, game_id: str) -> dict:
    """The seat's own view, as its play or over page carries it."""
    response = phone.get(f"/games/{game_id}")
    assert response.status_code == 200, response.text[:500]
    data = Page(response.text).page_data()
    assert data and "view" in data, response.text[:500]
    return data["view"]


# -- fleets in strips --------------------------------------------------------------------------

def _cells(kind: str, col: int, row: int) -> list[Square]:
    if kind == "carrier":
        return [Square(col + dc, row + dr) for dr in (0, 1) for dc in (0, 1)]
    return [Square(col + i, row) for i in range(SHIP_LENGTH[kind])]


def strip_fleet(first_col: int, width: int, purchase: dict[str, int]) -> dict:
    """A legal disposition for ``purchase`` that stays within columns
    ``first_col``..``first_col + width - 1``: land units along the foot, ships in lanes above
    (as ``layout.pack`` does for the whole chart), planes on carriers first, then land."""
    planes_on_land = max(0, purchase.get("bomber", 0) + purchase.get("recon", 0)
                         - 4 * purchase.get("carrier", 0))
    land_squares = purchase.get("atom-bomber", 0) + purchase.get("aa-gun", 0) + planes_on_land
    per_row = width // 3
    units = [Square(first_col + 3 * (i % per_row), SIZE - 3 - 3 * (i // per_row))
             for i in range(-(-land_squares // 9))]
    land_top = min((u.row for u in units), default=SIZE)
    ships, carrier_cells = [], []
    row, col, lane = 0, 0, 1
    for kind in SHIP_KINDS:
        for _ in range(purchase.get(kind, 0)):
            wide = 2 if kind == "carrier" else SHIP_LENGTH[kind]
            high = 2 if kind == "carrier" else 1
            if col + wide > width:
                row, col, lane = row + lane + 1, 0, 1
            if row + high > land_top:
                raise ValueError("the fleet does not fit in its strip")
            cells = _cells(kind, first_col + col, row)
            ships.append({"type": kind, "at": square_name(cells[0])}
                         | ({} if kind in ("carrier", "submarine") else {"dir": "across"}))
            if kind == "carrier":
                carrier_cells += cells
            col += wide + 1
            lane = max(lane, high)
    land = [Square(u.col + c, u.row + r) for u in units for r in range(3) for c in range(3)]
    aircraft = []
    for kind in ("bomber", "recon"):
        for _ in range(purchase.get(kind, 0)):
            spot = carrier_cells.pop(0) if carrier_cells else land.pop(0)
            aircraft.append({"type": kind, "at": square_name(spot)})
    aircraft += [{"type": "atom-bomber", "at": square_name(land.pop(0))}
                 for _ in range(purchase.get("atom-bomber", 0))]
    guns = [square_name(land.pop(0)) for _ in range(purchase.get("aa-gun", 0))]
    document = {"land": [square_name(u) for u in units], "ships": ships,
                "aircraft": aircraft, "guns": guns, "salvoes": purchase.get("salvo", 0)}
    check_disposition(document)
    return document


# Each seat's fleet on its own side of the chart (columns A-J and L-U; column K, which the
# play page's placeholder "e.g. K 10" names, is nobody's), so that a square of one fleet
# named on the other seat's page can only be a leak (R21).
PURCHASE = {"carrier": 2, "battleship": 8, "cruiser": 4, "destroyer": 3, "submarine": 2,
            "atom-bomber": 2, "bomber": 6, "recon": 6, "aa-gun": 6, "salvo": 10}
FLEETS = {"red": strip_fleet(0, 10, PURCHASE), "blue": strip_fleet(11, 10, PURCHASE)}


def turn_of(table: Table) -> str | None:
    return table.phones["red"].get(f"/games/{table.id}/status").get_json()["turn"]


def fleet_squares(document: dict) -> set[str]:
    """Every square of a disposition that holds something: land, ships, aircraft, guns."""
    squares = set()
    for unit in document["land"]:
        top = parse_square(unit)
        squares |= {square_name(Square(top.col + c, top.row + r))
                    for r in range(3) for c in range(3)}
    for ship in document["ships"]:
        top = parse_square(ship["at"])
        if ship["type"] == "carrier":
            squares |= {square_name(Square(top.col + c, top.row + r))
                        for r in (0, 1) for c in (0, 1)}
        else:
            down = ship.get("dir") == "down"
            squares |= {square_name(Square(top.col, top.row + i) if down
                                    else Square(top.col + i, top.row))
                        for i in range(SHIP_LENGTH[ship["type"]])}
    squares |= {a["at"] for a in document["aircraft"]}
    squares |= set(document["guns"])
    return squares


def squares_named(text: str) -> set[str]:
    return {f"{col} {row}" for col, row in SQUARE.findall(text)}


def area_names(centre: str, radius: int) -> set[str]:
    return {square_name(s) for s in area(parse_square(centre), radius)}


