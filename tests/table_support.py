"""What the browser tests of a club night share beside the referee served from their process
(``browser_support.referee_here``): games made and set up through the API (``Table``), and a
phone at 390 x 844 that notes its page's script errors."""

from __future__ import annotations

from apiclient import HttpTransport
from broadside_web_support import BLUE as BROADSIDE_BLUE
from broadside_web_support import RED as BROADSIDE_RED
from browser_support import PHONE
from pages_support import FLEETS
from tcg_web_support import BLUE as TCG_BLUE
from tcg_web_support import RED as TCG_RED

FLEETS_OF = {"naval-war": FLEETS, "battleship-tcg": {"red": TCG_RED, "blue": TCG_BLUE},
             "broadside": {"red": BROADSIDE_RED, "blue": BROADSIDE_BLUE},
             "broadsides-boarding": {"red": {"captain": "D4"}, "blue": {"captain": "E4"}}}
# what locking in sends besides: the phone's own dice seed where dice are rolled (BB24)
READY_OF = {"broadsides-boarding": {"dice_seed": "5" * 32}}


class Table:
    """A game made through the API: its id, join links, and each API seat's token and
    recovery code."""

    def __init__(self, referee, rules: str, **options) -> None:
        self.call = HttpTransport(referee.url)
        status, made, _ = self.call("POST", "/api/v1/games", {"rules": rules, **options})
        assert status == 201, made
        self.id, self.rules, self.made = made["id"], rules, made
        self.tokens: dict[str, str] = {}
        self.recovery: dict[str, str] = {}

    def link(self, seat: str) -> str:
        return self.made["seats"][seat]["join_url"]

    def join(self, seat: str, name: str) -> None:
        status, joined, _ = self.call("POST", f"/api/v1/games/{self.id}/seats/{seat}", {
            "join_code": self.made["seats"][seat]["join_code"], "name": name})
        assert status == 200, joined
        self.tokens[seat] = joined["token"]
        self.recovery[seat] = joined["recovery_code"]

    def api(self, seat: str, method: str, path: str, body=None):
        token = self.made["host_token"] if seat == "host" else self.tokens[seat]
        auth = {"Authorization": f"Bearer {token}"}
        status, data, _ = self.call(method, f"/api/v1/games/{self.id}{path}", body, auth)
        assert status in (200, 201), (path, data)
        return data

    def set_up(self, seat: str) -> None:
        self.api(seat, "PUT", "/disposition", FLEETS_OF[self.rules][seat])
        self.api(seat, "POST", "/ready", READY_OF.get(self.rules, {}))


def phone(browser, **options):
    """A phone's context and page, and the script errors and console lines its pages give."""
    context = browser.new_context(**PHONE, **options)
    page = context.new_page()
    errors: list[str] = []
    console: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.console = console  # type: ignore[attr-defined]
    return context, page, errors
