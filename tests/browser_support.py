"""What every browser test shares: the one gate on Debian's Chromium, the launch arguments, the
phone's screen and where screenshots go. The ``browser`` fixture itself is in conftest.py.

A browser test module starts with ``sync_api = require_browser()``: without
/usr/bin/chromium the module is skipped, loudly (``make test`` says so in its header and its
summary), or fails under CI=true, where the browser tests must run; never a browser download.
Nothing else in the suite is skipped for want of a browser.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from urllib.parse import urljoin

import pytest
from apiclient import Api, HttpTransport
from waitress import wasyncore

from referee import create_app, service, serving, streams

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
         "device_scale_factor": 1}
SHOTS = Path(__file__).resolve().parent.parent / "test-output" / "screenshots"
# how often the pages of a referee a browser test serves from its own process
# (``RefereeHere``) ask whether their game moved on when their stream fails (the config's
# POLL_MS, REFEREE_POLL_MS): within a fifth of a second, so that a test of that fallback
# need not wait through polls of two seconds
POLL_MS = 200
MISSING = "no Chromium at /usr/bin/chromium (apt-get install chromium)"


def require_browser() -> ModuleType:
    """Playwright's sync API once Chromium is there; otherwise skip the calling module (at
    module level), or fail it under CI=true."""
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"Chromium is not installed: {MISSING}. CI must run the browser "
                        "tests", pytrace=False)
        pytest.skip(f"BROWSER TESTS SKIPPED: {MISSING}", allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def report_header() -> list[str]:
    """The lines ``pytest`` (and so ``make test``) opens with: which browser, or none."""
    if not CHROMIUM.exists():
        return ["!" * 78, f"NO CHROMIUM: {MISSING}: the browser tests will be SKIPPED "
                "(under CI=true they fail instead)", "!" * 78]
    return [f"browser tests: {CHROMIUM}"]


def screenshot_path(name: str) -> Path:
    """Where a screenshot goes; every name is the test's own (``placement-...``, ``seats-...``), so
    tests running side by side (pytest -n) never write the same file."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / name


class RecordingPhone:
    """One player's phone at 390 x 844: a browser context that keeps every HTML and JSON body
    the server sent it (``bodies``, as (url, text)), for the scans of what a player received
    (R21, T10). ``sync_api`` is the module ``require_browser`` gave."""

    def __init__(self, browser, name: str, sync_api: ModuleType) -> None:
        self.name = name
        self.context = browser.new_context(**PHONE)
        self.page = self.context.new_page()
        self.bodies: list[tuple[str, str]] = []
        self._unreadable = sync_api.Error
        self.page.on("response", self._keep)
        self.page.on("dialog", lambda dialog: dialog.accept())  # "Lock in ...?": yes

    def _keep(self, response) -> None:
        kind = response.headers.get("content-type", "")
        if response.request.resource_type in ("document", "fetch", "xhr") and (
                "html" in kind or "json" in kind):
            with contextlib.suppress(self._unreadable):  # a redirect has no body to read
                self.bodies.append((response.url, response.text()))


def lock_in_by_page(phone: RecordingPhone, disposition: dict, lock: str) -> None:
    """A seat's setup sent through its page's own draft endpoint (the page data's
    ``urls.draft``: placing by tapping is each game's own browser tests' subject), then the
    page reloaded and its lock-in button (``lock``, a selector) tapped."""
    page = phone.page
    data = json.loads(page.locator("#page-data").text_content())
    token = page.get_attribute("meta[name=csrf-token]", "content")
    response = phone.context.request.post(
        urljoin(page.url, data["urls"]["draft"]), data=json.dumps({"disposition": disposition}),
        headers={"Content-Type": "application/json", "Accept": "application/json",
                 "X-CSRFToken": token})
    assert response.ok and not response.json()["problems"], response.text()
    page.reload()
    button = page.locator(lock)
    button.wait_for()
    assert button.is_enabled()
    with page.expect_navigation():
        button.tap()


class RefereeHere:
    """The referee served on loopback from threads of this process by its own server
    (waitress with the referee's settings, and its streams' hub, as ``referee serve`` serves
    it from its own), with a clock the test moves (``advance``): for a browser test that moves
    the referee's clock (``service.clock``), which a server in another process would not see.
    Every move reaches the other phone on its stream, as under ``referee serve``. Use
    ``referee_here``, which starts it, sets the clock and stops it."""

    def __init__(self, folder: Path, name: str) -> None:
        from conftest import free_port  # conftest imports this module

        self.offset = 0.0
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app({"DATABASE": str(folder / f"{name}.db"), "SECRET_KEY": name,
                               "PUBLIC_URL": self.url, "POLL_MS": POLL_MS})
        self.database = self.app.config["DATABASE"]
        self.api = Api(HttpTransport(self.url))

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, minutes: float = 0.0, *, seconds: float = 0.0) -> None:
        self.offset += 60 * minutes + seconds

    def start(self) -> None:
        streams.start_hub(self.database)
        self.server = serving.make_server(self.app, host="127.0.0.1", port=self.port,
                                          threads=8, ident="referee",
                                          clear_untrusted_proxy_headers=True)
        self.thread = threading.Thread(target=self.server.run, name="referee-here",
                                       daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Its connections closed and its threads ended, by its own loop's thread."""
        server = self.server
        server.task_dispatcher.shutdown()
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        self.thread.join(10)
        streams.stop_hub(self.database)


def referee_here(folder: Path, name: str) -> Iterator[RefereeHere]:
    """A fixture's body: the referee served from this process (``RefereeHere``), the
    referee's clock its own while the fixture lasts, stopped afterwards."""
    referee = RefereeHere(folder, name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(service.clock, "now", referee.now)
        referee.start()
        yield referee
        referee.stop()
