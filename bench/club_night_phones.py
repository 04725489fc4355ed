"""A club night on phones: every game played to its end on 390 x 844 phones, by taps alone.

Starts a real `referee serve` on loopback over a fresh database and Debian's Chromium through
Playwright (touch, 390 x 844), and for each registered rule set plays

* two phones against each other: Red creates the game from the home page's form, both join
  by the join links, set up and play by the pages to the end, and
* one phone against each computer level: "Play the computer" from the home page's form, set
  up and play to the end, or, past a cap of the phone's own moves, resign (surrender) through
  the page's own button; the table says so.

Every move is a tap or a form on the page (never the API): a piece, square, hole, cross or card
picked at random among what the page offers (Broadside's and the boarding's from the page's
own list of legal orders, the boarding's turn by the browser test's simple tactic); in the
two-phone games each phone aims at the other's fleet (which the script placed) half the time,
so that a game ends in minutes. Each phone records its console's errors and warnings, its page
errors and every response of status 400 or more; none is allowed. Prints a table (game,
opponent, moves, result, wall time, console errors, unexpected 4xx/5xx) and each problem in
full, and exits non-zero if there was any, or if a game stalled. Screenshots of each game's
end go to ``test-output/screenshots/clubnight-*.png``.

Run with `make bench-phones` or
`.venv/bin/python bench/club_night_phones.py [--quick] [--games naval-war,broadside ...]`;
``--quick`` plays, for each game, the two phones and the weakest and strongest levels only.
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from boarding_web_support import CAPTAINS, plan_turn  # noqa: E402
from broadside_web_support import BLUE as BS_BLUE  # noqa: E402
from broadside_web_support import RED as BS_RED  # noqa: E402
from broadside_web_support import charge  # noqa: E402
from browser_support import ARGS, CHROMIUM, PHONE, screenshot_path  # noqa: E402
from conftest import LiveServer  # noqa: E402
from playwright.sync_api import Error as BrowserError  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from tcg_web_support import BLUE as TCG_BLUE  # noqa: E402
from tcg_web_support import RED as TCG_RED  # noqa: E402

from referee import rulesets  # noqa: E402
from referee.battleship_tcg.catalogue import HOLES  # noqa: E402
from referee.battleship_tcg.holes import DIRECTIONS, hole_name, line, parse_hole  # noqa: E402

WAIT = 30_000  # ms: a page waits this long for what the other side did (a loaded machine)
STALL_S = 120  # s without a move anywhere: the game is stuck, said so, and left
COLUMNS = "ABCDEFGHIJKLMNOPQRSTU"
# each game's cap on one phone's own moves against the computer, after which it resigns
CAPS = {"naval-war": 40, "battleship-tcg": 120, "broadside": 80, "broadsides-boarding": 50}


# -- a phone -------------------------------------------------------------------------------------

class Phone:
    """One player's phone: a browser context at 390 x 844 with touch, recording what its
    console said, its page errors and every response of status 400 or more."""

    def __init__(self, browser, label: str) -> None:
        self.label = label
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.console: list[str] = []
        self.refused: list[str] = []
        self.moves = 0
        self.taps = 0  # forms sent by a tap (a move's, a setup's, a resignation's)
        self.seat = ""
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.console.append(
            f"page error on {self._where()}: {e}"))
        self.page.on("response", self._response)
        self.page.on("dialog", lambda d: d.accept())  # "Lock in ...?", "Resign?": yes

    def _where(self) -> str:
        try:
            return re.sub(r"^https?://[^/]+", "", self.page.url)
        except BrowserError:
            return "?"

    def _console(self, message) -> None:
        if message.type in ("error", "warning"):
            self.console.append(f"console {message.type} on {self._where()}: {message.text}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.refused.append(f"{response.status} {response.request.method} "
                                f"{re.sub(r'^https?://[^/]+', '', response.url)} "
                                f"(page {self._where()})")

    def submit(self, selector: str) -> None:
        """Tap a form's button and wait for the page the referee answers with."""
        with self.page.expect_navigation(timeout=WAIT):
            self.page.locator(selector).first.tap()
            self.taps += 1
        self.page.wait_for_load_state()

    def data(self) -> dict:
        return json.loads(self.page.text_content("#page-data"))

    def you(self) -> str:
        """The seat the page's data says this phone holds."""
        data = self.data()
        return data.get("you") or data["view"]["you"]

    def has(self, selector: str) -> bool:
        return self.page.locator(selector).count() > 0

    def over(self) -> bool:
        return "Game over" in self.page.title() and self.has(".headline")

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(screenshot_path(f"clubnight-{name}.png")))

    def close(self) -> None:
        self.context.close()


# -- each game's pages ---------------------------------------------------------------------------

class Game:
    """How a game's pages are set up and played by taps; one subclass a rule set."""

    rules = ""
    setup_page = ""  # a selector that says the setup page is drawn and ready for taps

    def __init__(self, chance: random.Random) -> None:
        self.chance = chance

    def set_up(self, phone: Phone) -> None:
        raise NotImplementedError

    def mine(self, phone: Phone) -> bool:
        """Whether the page waits for this phone's move, its taps live."""
        raise NotImplementedError

    def move(self, phone: Phone, knows: dict | None) -> None:
        """One move by taps. ``knows``: the other phone's fleet, when the script placed it."""
        raise NotImplementedError

    def fleet(self, seat: str) -> dict | None:
        return None


class NavalWar(Game):
    """Budget, "Place the rest for me", lock in; each move a weapon the page offers, its base
    the page's first, and one or three squares of the opponent's chart."""

    rules = "naval-war"
    setup_page = "#budget-form"
    # 15 Battleships (60 points on ships, R4); 4 atom bombers, 2 bombers, 2 R.P.s and
    # 12 salvoes (60 on offence): 20 moves a side before nobody has offensive forces (R14)
    PURCHASE = {"battleship": 15, "atom_bomber": 4, "bomber": 2, "recon": 2, "salvo": 12}

    def set_up(self, phone: Phone) -> None:
        page = phone.page
        page.wait_for_selector("#budget-form", timeout=WAIT)
        for name, count in self.PURCHASE.items():
            page.fill(f"#{name}", str(count))
        phone.submit("#budget-form button[type=submit]")
        page.wait_for_selector("#save-state:has-text('Draft saved')", timeout=WAIT)
        page.locator("#fill-rest").tap()
        page.wait_for_selector("#tally:has-text('legal')", timeout=WAIT)
        phone.submit("#lock-button")

    def mine(self, phone: Phone) -> bool:
        return phone.has(".your-turn") and phone.has("#move-form #fire")

    def move(self, phone: Phone, knows: dict | None) -> None:
        page = phone.page
        weapons = [w.get_attribute("value") for w in
                   page.locator("input[name=weapon]:not([disabled])").all()]
        weapon = self.chance.choice(weapons)
        page.locator(f"input[name=weapon][value={weapon}]").tap()
        wanted = 3 if weapon == "salvo" else 1
        squares = self.chance.sample([f"{c} {r}" for c in COLUMNS for r in range(1, 22)],
                                     wanted)
        for square in squares:
            page.locator(f'#charts figure:first-child [data-sq="{square}"]').tap()
        if not page.is_enabled("#fire"):
            raise RuntimeError(f"Naval War: the move is not ready after {weapon} at {squares}: "
                               f"{page.inner_text('#move-summary')}")
        phone.submit("#fire")


class TacticalCombat(Game):
    """Each boat's chip, its direction and first hole, the man on his island, lock in; each
    shot a hole of the opponent's half not shot yet."""

    rules = "battleship-tcg"
    setup_page = "#tcg-place svg.honeycomb"
    FLEETS = {"red": TCG_RED, "blue": TCG_BLUE}

    def fleet(self, seat: str) -> dict:
        return self.FLEETS[seat]

    def set_up(self, phone: Phone) -> None:
        page = phone.page
        page.wait_for_selector(self.setup_page, timeout=WAIT)
        phone.seat = phone.you()
        fleet = self.FLEETS[phone.seat]
        for boat in fleet["boats"]:
            page.locator(f'#tcg-chips [data-kind="{boat["type"]}"]').tap()
            for _ in DIRECTIONS:
                if page.locator("#tcg-dir").inner_text() == f"Runs {boat['dir']}":
                    break
                page.locator("#tcg-dir").tap()
            page.locator(f'#tcg-place [data-hole="{boat["at"]}"]').tap()
            page.wait_for_selector("#save-state:text-is('Saved')", timeout=WAIT)
        page.locator("#tcg-chips [data-kind=man]").tap()
        page.locator(f'#tcg-place [data-hole="{fleet["man"]}"]').tap()
        page.wait_for_selector("#tcg-lock:not([disabled])", timeout=WAIT)
        phone.submit("#tcg-lock")

    def mine(self, phone: Phone) -> bool:
        return phone.has(".your-turn") and phone.has("#tcg-shot #tcg-fire")

    def move(self, phone: Phone, knows: dict | None) -> None:
        page = phone.page
        holes = page.locator("#tcg-theirs [data-hole]").evaluate_all(
            "els => els.map(el => [el.dataset.hole, el.getAttribute('class') || ''])")
        unshot = [(hole, "island" in kind.split()) for hole, kind in holes
                  if not {"hit", "miss"} & set(kind.split())]
        # sea holes while a boat is afloat, then the islands (T7): the page refuses the rest
        tries: list[str] = []
        sea = [h for h, island in unshot if not island]
        islands = [h for h, island in unshot if island]
        if knows and self.chance.random() < 0.5:
            tries = [h for h in secret_holes(knows) if h in sea or h in islands][:1]
        tries += self.chance.sample(sea, min(len(sea), 4)) + \
            self.chance.sample(islands, min(len(islands), 4))
        for hole in tries:
            page.locator(f'#tcg-theirs [data-hole="{hole}"]').tap()
            if page.locator("#tcg-fire").inner_text() == f"Fire at {hole}":
                phone.submit("#tcg-fire")
                return
        raise RuntimeError("Battleship TCG: no hole of the opponent's half could be chosen")


def secret_holes(fleet: dict) -> list[str]:
    holes = [hole_name(h) for boat in fleet["boats"]
             for h in line(parse_hole(boat["at"]), boat["dir"], HOLES[boat["type"]])]
    return [*holes, fleet["man"]]


class Broadside(Game):
    """Each ship's chip and start cross; Blue marks his buoys and batteries; each move the
    page's ship and cross, from its own list of legal moves (the charge up or down the harbour
    most of the time, else any)."""

    rules = "broadside"
    setup_page = "body[data-ready=setup] #bs-board svg.harbour"
    FLEETS = {"red": BS_RED, "blue": BS_BLUE}

    def _saved(self, phone: Phone, tap) -> None:
        with phone.page.expect_response(lambda r: r.url.endswith("/draft"), timeout=WAIT):
            tap()
        phone.page.wait_for_selector("#save-state:text-is('Saved')", timeout=WAIT)

    def set_up(self, phone: Phone) -> None:
        page = phone.page
        page.wait_for_selector(self.setup_page, timeout=WAIT)
        phone.seat = phone.you()
        fleet = self.FLEETS[phone.seat]
        for ship in fleet["ships"]:
            page.locator(f'#bs-chips [data-kind="{ship["type"]}"]').tap()
            self._saved(phone, lambda s=ship: page.locator(
                f'#bs-board g.tap[data-cross="{s["at"]}"]').tap())
        for cross, kind in fleet.get("buoys", {}).items():
            for _ in range(1 if kind == "sink" else 2):
                self._saved(phone, lambda c=cross: page.locator(
                    f'#bs-board g.tap[data-cross="{c}"]').tap())
        for site, kind in fleet.get("batteries", {}).items():
            for _ in range(1 if kind == "hit" else 2):
                self._saved(phone, lambda s=site: page.locator(
                    f'#bs-board g.battery[data-site="{s}"]').tap())
        page.wait_for_selector("#bs-lock:not([disabled])", timeout=WAIT)
        phone.submit("#bs-lock")

    def mine(self, phone: Phone) -> bool:
        return phone.has("body[data-ready=play] .your-turn") and (
            phone.has("#bs-move #bs-go") or phone.has("#bs-pass-button"))

    def move(self, phone: Phone, knows: dict | None) -> None:
        page = phone.page
        view = phone.data()["view"]
        legal = view["legal"]
        if "pass" in legal[0]:
            phone.submit("#bs-pass-button")
            return
        move = (charge(view, legal) if self.chance.random() < 0.7 else None) \
            or self.chance.choice(legal)
        page.locator(f'#bs-board g.tap[data-cross="{move["ship"]}"]').tap()
        if move.get("turn") is not None and page.locator(
                f"#bs-turns [data-turn='{move['turn']}']").count():
            page.locator(f"#bs-turns [data-turn='{move['turn']}']").tap()
        page.locator(f'#bs-board g.tap[data-cross="{move["to"]}"]').tap()
        if page.locator("#bs-go").inner_text() != f"Sail to {move['to']}":
            raise RuntimeError(f"Broadside: the page did not take {move}: "
                               f"{page.locator('#bs-go').inner_text()!r}")
        phone.submit("#bs-go")


class Boarding(Game):
    """The Captain's cell, lock in; each plot three cards of the hand the page leaves open,
    each volley aimed by a tap at the enemy's section H or by standing orders, a promotion
    as the page proposes, and each boarding turn by the browser test's tactic."""

    rules = "broadsides-boarding"
    setup_page = "body[data-ready='setup']"

    def set_up(self, phone: Phone) -> None:
        page = phone.page
        page.wait_for_selector(self.setup_page, timeout=WAIT)
        phone.seat = phone.you()
        page.locator(f'#bb-own-deck g.tap[data-place="{phone.seat} {CAPTAINS[phone.seat]}"]'
                     ).tap()
        page.wait_for_selector("#bb-save-state:text('Saved')", timeout=WAIT)
        phone.submit("#bb-lock")

    def mine(self, phone: Phone) -> bool:
        return phone.has("body[data-ready=play] #bb-order")

    def move(self, phone: Phone, knows: dict | None) -> None:
        page = phone.page
        kind = page.locator("#bb-order").get_attribute("data-kind")
        if kind == "plot":
            for _ in range(8):
                if page.is_enabled("#bb-seal"):
                    break
                # the cards themselves, not their places in the list: a hand drawn again
                # between looking and tapping fails the tap at once, and the next look
                # finds the cards the page offers now
                cards = page.query_selector_all(
                    "#bb-hand [data-card]:not(.used):not([disabled])")
                try:
                    self.chance.choice(cards).tap(timeout=5000)
                except (BrowserError, IndexError) as e:
                    print(f"    {phone.label}: a card tap missed ({str(e).splitlines()[0]})",
                          file=sys.stderr, flush=True)
            if not page.is_enabled("#bb-seal"):  # say what the page said, not just a timeout
                slots = [page.inner_text(f"#bb-slot-{n}").replace("\n", " ") for n in (1, 2, 3)]
                raise RuntimeError(f"the plot could not be sealed: slots {slots}, the page "
                                   f"says {page.inner_text('#bb-plot-note')!r}")
            phone.submit("#bb-seal")
        elif kind == "declaration":
            if page.locator("#bb-standing").count() and page.is_visible("#bb-standing"):
                phone.submit("#bb-standing")
            else:
                them = "blue" if phone.seat == "red" else "red"
                page.locator(f'#bb-decks g.tap[data-place="{them} H4"]').tap()
                phone.submit("#bb-fire")
        elif kind == "promotion":
            phone.submit("#bb-promote-go")
        elif kind == "boarding":
            for start, end, captain in plan_turn(phone.data()):
                page.locator(f'#bb-decks g.tap[data-place="{start}"]').tap()
                if captain and page.is_visible("#bb-captain") and \
                        "Captain" in page.inner_text("#bb-captain"):
                    page.locator("#bb-captain").tap()
                page.locator(f'#bb-decks g.tap[data-place="{end}"]').tap()
            phone.submit("#bb-board-go")
        else:
            raise RuntimeError(f"Broadsides and Boarding Parties: an order of kind {kind!r}")


GAMES = {g.rules: g for g in (NavalWar, TacticalCombat, Broadside, Boarding)}


# -- a table -------------------------------------------------------------------------------------

@dataclass
class Played:
    rules: str
    opponent: str
    moves: int = 0
    result: str = ""
    seconds: float = 0.0
    console: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # stalls, a page that did not answer


def create_two_phone_game(server: LiveServer, game: Game, red: Phone, blue: Phone) -> None:
    page = red.page
    page.goto(server.url + "/")
    page.fill("#name", "Ann")
    page.select_option("#rules", game.rules)
    red.submit("#create-form button[type=submit]")
    if not page.url.endswith("/host"):
        raise RuntimeError(f"creating a game of {game.rules} gave {page.url}")
    blue_link = page.input_value("#link-blue")
    page.goto(page.url.removesuffix("/host"))
    blue.page.goto(blue_link)
    blue.page.fill("#name", "Bob")
    blue.submit("button[type=submit]")


def create_computer_game(server: LiveServer, game: Game, phone: Phone, level: str) -> None:
    page = phone.page
    page.goto(server.url + "/")
    page.fill("#player", "Ann")
    page.select_option("#computer-rules", game.rules)
    page.select_option(f"#level-{game.rules}", f"{game.rules}:{level}" if page.locator(
        f"#level-{game.rules} option[value='{game.rules}:{level}']").count() else level)
    phone.submit("#computer-form button[type=submit]")
    if not re.search(r"/games/\w+$", page.url):
        raise RuntimeError(f"play the computer ({game.rules}, {level}) gave {page.url}: "
                           f"{page.inner_text('main')[:300]}")


def resign(phone: Phone) -> None:
    phone.page.goto(phone.page.url)  # the page as the referee has it now
    phone.page.wait_for_load_state()
    phone.submit("form[action$='/resign'] button")


def play(game: Game, phones: list[Phone], cap: int | None, row: Played) -> None:
    """Move whichever phone the page says is to move, until every page shows the end."""
    knows = {p.seat: game.fleet(o.seat) if len(phones) == 2 and o.seat else None
             for p in phones for o in phones if o is not p}
    last = time.monotonic()
    resigned = False
    while True:
        acted = False
        ended = 0
        for phone in phones:
            try:
                if phone.over():
                    ended += 1
                    continue
                if not game.mine(phone):
                    continue
                if cap is not None and phone.moves >= cap and not resigned:
                    resigned = True
                    row.result = f"resigned after {phone.moves} moves (cap): "
                    resign(phone)
                else:
                    before = phone.taps
                    try:
                        game.move(phone, knows.get(phone.seat))
                    finally:
                        phone.moves += phone.taps > before  # sent, whatever came after
                    if phone.moves % 25 == 0:
                        print(f"    {phone.label}: {phone.moves} moves", file=sys.stderr,
                              flush=True)
                acted = True
                last = time.monotonic()
            except BrowserError as e:
                if "navigat" in str(e).lower() or "context was destroyed" in str(e):
                    continue  # the page reloaded itself under the tap (the stream's news)
                raise
        if ended == len(phones):
            return
        if not acted:
            if time.monotonic() - last > STALL_S:
                row.problems.append(f"stalled: no move for {STALL_S} s")
                for phone in phones:
                    phone.shot(f"stalled-{game.rules}-{row.opponent}-{phone.label}")
                return
            time.sleep(0.1)


def one_game(browser, server: LiveServer, game_class, opponent: str, chance: random.Random,
             caps: dict[str, int]) -> Played:
    game = game_class(chance)
    row = Played(game.rules, opponent)
    started = time.monotonic()
    phones: list[Phone] = []
    try:
        if opponent == "phone":
            phones = [Phone(browser, "red"), Phone(browser, "blue")]
            create_two_phone_game(server, game, *phones)
            for phone in phones:
                game.set_up(phone)
            play(game, phones, None, row)
        else:
            phones = [Phone(browser, "player")]
            create_computer_game(server, game, phones[0], opponent)
            game.set_up(phones[0])
            play(game, phones, caps[game.rules], row)
        if all(phone.over() for phone in phones):
            row.result += phones[0].page.inner_text(".headline").strip()
        for phone in phones:
            phone.shot(f"{game.rules}-{opponent}-{phone.label}")
    except Exception as e:  # noqa: BLE001 (a failure is this game's: said, and the night goes on)
        row.problems.append(f"{type(e).__name__}: {str(e).splitlines()[0][:300]}")
        for phone in phones:
            with contextlib.suppress(BrowserError):
                phone.shot(f"failed-{game.rules}-{opponent}-{phone.label}")
    finally:
        row.seconds = time.monotonic() - started
        row.moves = sum(phone.moves for phone in phones)
        for phone in phones:
            row.console += [f"{phone.label}: {c}" for c in phone.console]
            row.refused += [f"{phone.label}: {r}" for r in phone.refused]
            phone.close()
    return row


def print_table(rows: list[Played]) -> None:
    head = ("game", "opponent", "moves", "result", "wall s", "console", "4xx/5xx")
    lines = [head, *((r.rules, r.opponent, str(r.moves),
                      (r.result or "; ".join(r.problems) or "?")[:100], f"{r.seconds:.0f}",
                      str(len(r.console)), str(len(r.refused))) for r in rows)]
    widths = [max(len(cells[i]) for cells in lines) for i in range(len(head))]
    for n, cells in enumerate(lines):
        print("  ".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=True)))
        if n == 0:
            print("  ".join("-" * w for w in widths))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="two phones and the weakest and strongest level of each game")
    parser.add_argument("--games", default=",".join(rulesets.RULE_SETS),
                        help="the rule sets to play, comma-separated (default: all)")
    parser.add_argument("--levels", default="",
                        help="only these computer levels (comma-separated), and no two-phone "
                             "game unless 'phone' is named")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=int, default=0,
                        help="a phone's own moves against the computer before it resigns "
                             f"(default: each game's own, {CAPS})")
    args = parser.parse_args()
    chosen = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in chosen if g not in GAMES or g not in rulesets.RULE_SETS]
    if unknown:
        parser.error(f"no such game here: {', '.join(unknown)} (of {', '.join(GAMES)})")
    missing = [r for r in rulesets.RULE_SETS if r not in GAMES]
    if missing:
        print(f"!! no page driver for {', '.join(missing)}: not played", file=sys.stderr)
    if not CHROMIUM.exists():
        print(f"no Chromium at {CHROMIUM} (apt-get install chromium)", file=sys.stderr)
        return 2
    caps = {r: args.cap or c for r, c in CAPS.items()}
    chance = random.Random(args.seed)
    plan = []
    for rules in chosen:
        levels = list(rulesets.named(rules).levels)
        if args.quick:
            levels = list(dict.fromkeys([levels[0], levels[-1]]))
        opponents = ["phone", *levels]
        if args.levels:
            wanted = args.levels.split(",")
            opponents = [o for o in opponents if o in wanted]
        plan += [(rules, o) for o in opponents]
    rows: list[Played] = []
    with tempfile.TemporaryDirectory(prefix="club-night-") as tmp:
        server = LiveServer(Path(tmp) / "referee.db").start()
        # a kill (SIGTERM) stops the server first (Playwright's driver ends its browser
        # when this process goes)
        signal.signal(signal.SIGTERM, lambda *_: (server.stop(), os._exit(143)))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                try:
                    for rules, opponent in plan:
                        print(f"... {rules} against {opponent}", file=sys.stderr, flush=True)
                        rows.append(one_game(browser, server, GAMES[rules], opponent, chance,
                                             caps))
                        r = rows[-1]
                        print(f"    {r.moves} moves, {r.seconds:.0f} s: "
                              f"{r.result or r.problems}", file=sys.stderr, flush=True)
                finally:
                    browser.close()
        finally:
            server.stop()
            logged = [said for said in server.logs().splitlines()
                      if "Traceback" in said or "ERROR" in said]
    print()
    print_table(rows)
    print()
    bad = False
    for r in rows:
        for kind, items in (("problem", r.problems), ("console", r.console),
                            ("refused", r.refused)):
            for item in items:
                bad = True
                print(f"{r.rules} against {r.opponent}: {kind}: {item}")
    for said in logged:
        bad = True
        print(f"server log: {said}")
    capped = [r for r in rows if "(cap)" in r.result]
    if capped:
        print(f"{len(capped)} game(s) against the computer resigned at the cap of the phone's "
              f"own moves ({caps})")
    if not bad:
        print("every game ended on its pages with a clean console and no 4xx/5xx")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
