"""What the contract suite (``test_contract.py``) drives every rule set with, through the seam
alone: the rule sets it covers (every registered one, and Hidden Number, the tests' own, which
it registers), a game of any of them played by its own computers at the core or through the
JSON API and the pages, what a seat is shown (views, records, pages, PDFs' text) with what
differs from game to game by chance masked (ids, salts, fingerprints, form tokens), and the
two games a secrecy test compares: alike but for a seat's secret twin (``RuleSet.secret_twin``).
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from apiclient import Api, FlaskTransport
from minimal_game.catalogue import RULES as MINIMAL_RULES
from pdf_support import pdftotext
from rule_set_tables import Table, open_table

from referee import create_app, rulesets
from referee.common.problems import RuleViolation

MINIMAL = "minimal_game.rule_set:RULE_SET"
RULES = (*dict.fromkeys((*rulesets.RULE_SETS, MINIMAL_RULES)),)
START = 1_900_000_000.0  # the referee's clock in these tests: the same for every game


@contextlib.contextmanager
def minimal_game_registered() -> Iterator[None]:
    """Hidden Number played here (``rulesets.register``) while the block runs."""
    rulesets.register(MINIMAL)
    try:
        yield
    finally:
        rulesets.unregister(MINIMAL_RULES)


class Clock:
    """The referee's clock (``service.clock.now``), standing still until moved."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += 60 * minutes


def make_app(folder):
    return create_app({"TESTING": True, "DATABASE": str(folder / "referee.db"),
                       "SIGNING_KEY_FILE": str(folder / "signing_key"),
                       "SECRET_KEY": "contract", "PUBLIC_URL": "http://localhost"})


def api_of(app) -> Api:
    return Api(FlaskTransport(app.test_client()))


def level(rules: str, n: int = 0) -> str:
    """A rule set's ``n``-th level, weakest first (-1: its strongest)."""
    return list(rulesets.named(rules).levels)[n]


# -- a game at the core, played by its computers ---------------------------------------------

def core_game(rules: str, levels: tuple[str, str], seed: int, **options):
    """A game of ``rules`` in play, each seat's disposition made by its computer (at
    ``levels``) from its own view, and those computers."""
    rule_set = rulesets.named(rules)
    game, _ = rule_set.new_game(id=f"g{seed}", seed=seed, at=START, bots={}, options=options)
    game.commit_dice(f"contract:{seed}")  # where the referee rolls dice (BB24)
    seats = list(rule_set.status_view(game)["seats"])
    computers = {seat: rule_set.computer(lvl, f"{seed}:{seat}", on_failure=_failed)
                 for seat, lvl in zip(seats, levels * len(seats), strict=False)}
    for seat in seats:
        game.join(seat, seat.title())
    for seat in seats:
        game.submit(seat, computers[seat].disposition(rule_set.view_for(game, seat)))
        game.lock_in(seat, seed=seed, salt=f"salt-{seat}")
    return game, computers


def _failed(level: str, failure: Exception) -> None:
    """A computer's level failed and fell back on its simplest: that is a bug of the level."""
    raise AssertionError(f"the {level} computer failed: {failure!r}") from failure


MAX_MOVES = 3000  # more than any game here takes


def play_out(rules: str, game, computers, each=None) -> None:
    """Every seat's computer moves from its own view until the game is over; ``each(game)``
    after every move."""
    rule_set = rulesets.named(rules)
    for _ in range(MAX_MOVES):
        shown = rule_set.status_view(game)
        if shown["phase"] != "play":
            return
        seat = shown["owes"][0]  # where several owe sealed orders, each in turn
        game.move(seat, computers[seat].move(rule_set.view_for(game, seat)))
        if each is not None:
            each(game)
    raise AssertionError(f"a game of {rules} did not end in {MAX_MOVES} moves")


# -- a game through the API and the pages ---------------------------------------------------

def join_all(api: Api, rules: str, **options) -> Table:
    return open_table(api, rules, **options)


def lock_in(table: Table, dispositions: dict[str, dict] | None = None) -> None:
    """Every seat submits (its computer's disposition unless given) and locks in."""
    for seat in table.tokens:
        document = (dispositions or {}).get(seat) or table.computer(seat).disposition(
            table.view(seat))
        status, body, _ = table.call(seat, "PUT", "/disposition", document)
        assert status == 200, body
    for seat in table.tokens:
        status, body, _ = table.call(seat, "POST", "/ready")
        assert status == 200, body


def opponent(table: Table, seat: str) -> str:
    return next(s for s in table.tokens if s != seat)


def events_of(app, game_id: str) -> list[dict]:
    return app.extensions["referee.store"]().events(game_id)


def replayed(app, table: Table):
    """The game as its stored log replays, a state of the test's own."""
    return rulesets.named(table.rules).replay(copy.deepcopy(events_of(app, table.id)))


def refused_on_a_copy(app, table: Table, seat: str, move: object) -> bool:
    """Whether the rules refuse ``move`` by ``seat`` now (tried on a replayed copy)."""
    try:
        replayed(app, table).move(seat, copy.deepcopy(move))
    except RuleViolation:
        return True
    return False


class Phone:
    """A seat's phone: a client of the app whose session cookie holds the seat's token."""

    def __init__(self, app, game_id: str, token: str) -> None:
        self.client, self.game_id = app.test_client(), game_id
        with self.client.session_transaction() as held:
            held["seats"] = {game_id: token}

    def get(self, path: str):
        return self.client.get(path.replace("{g}", self.game_id))


# -- what a seat is shown, with chance masked -------------------------------------------------

# a form's CSRF token and a move form's key: drawn afresh for each page
FORM_TOKEN = re.compile(r'<(?:input|meta)[^>]*name="(?:csrf_token|csrf-token|key)"[^>]*>')
TOKEN_VALUE = re.compile(r'((?:value|content)=")[^"]*')


@dataclass
class Chance:
    """What two games alike differ in by chance: their ids, salts and fingerprints."""

    words: dict[str, str] = field(default_factory=dict)

    def learn(self, table: Table) -> None:
        self.words[table.id] = "<game>"
        for seat in table.tokens:
            for info in table.view(seat)["seats"].values():
                for key in ("fingerprint", "salt"):
                    if info.get(key):  # whole, and as a page shortens it
                        self.words[info[key]] = f"<{key}>"
                        self.words[info[key][:16]] = f"<{key}>"

    def mask(self, text: str) -> str:
        for word in sorted(self.words, key=len, reverse=True):
            text = text.replace(word, self.words[word])
        return FORM_TOKEN.sub(lambda tag: TOKEN_VALUE.sub(r"\1<token>", tag.group()), text)


def pdf_text(body: bytes) -> list[str]:
    """The text of each page of a PDF (poppler's pdftotext: pypdf's is many times slower)."""
    pages = pdftotext(body, layout=False).split("\f")
    return pages[:-1] if pages and not pages[-1].strip() else pages


def shown_to(table: Table, phone: Phone, seat: str, chance: Chance, *, paper: bool) -> dict:
    """Everything the seat is shown now, masked: its view, record and status poll (JSON),
    its page (HTML) and, with ``paper``, its charts' and record's PDFs (their text)."""
    shown = {"view": table.view(seat)}
    status, shown["record"], _ = table.call(seat, "GET", "/record")
    assert status == 200, shown["record"]
    page = phone.get("/games/{g}")
    assert page.status_code == 200, page.status_code
    shown["page"] = chance.mask(page.get_data(as_text=True))
    shown["poll"] = phone.get("/games/{g}/status").get_json()
    if paper:
        for kind in ("charts", "record"):
            response = phone.get(f"/api/v1/games/{{g}}/{kind}.pdf")
            assert response.status_code == 200, (kind, response.status_code)
            shown[f"{kind}.pdf"] = pdf_text(response.get_data())
    return json.loads(chance.mask(json.dumps(shown)))


def differences(one: dict, two: dict) -> list[str]:
    """Which parts of two things shown differ, for a message."""
    return [key for key in one if one[key] != two.get(key)]


def twin_source(rules: str) -> random.Random:
    return random.Random(f"twin:{rules}")


def first_difference(one: str, two: str, around: int = 160) -> str:
    """Where two texts part, with some text either side."""
    at = next((i for i, (a, b) in enumerate(zip(one, two, strict=False)) if a != b),
              min(len(one), len(two)))
    start, end = max(0, at - around), at + around
    return f"...{one[start:end]!r}\n  vs\n...{two[start:end]!r}"
