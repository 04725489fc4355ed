"""Any registered rule set's game, played through the JSON API by its own computers.

A test that must hold for every game here (a contract) takes ``RULES`` as its parameter and
drives the game only through the API and the rule set's seam: each seat's disposition and
moves come from that rule set's weakest computer, playing from the seat's own view, so a
new rule set is covered by registering it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from apiclient import Api

from referee import rulesets
from referee.common.views import owes_in

RULES = tuple(rulesets.RULE_SETS)
GAMES = "/api/v1/games"


@dataclass
class Table:
    """A game of some rule set with every seat joined through the API."""

    api: Api
    rules: str
    id: str
    host_token: str
    tokens: dict[str, str]
    computers: dict[str, object] = field(default_factory=dict)
    levels: dict[str, str] = field(default_factory=dict)  # a seat's computer; the weakest else

    def path(self, tail: str = "") -> str:
        return f"{GAMES}/{self.id}{tail}"

    def call(self, seat: str, method: str, tail: str = "", body=None):
        return self.api.call(method, self.path(tail), body, token=self.tokens[seat], seat=seat)

    def host(self, method: str, tail: str, body=None):
        return self.api.call(method, self.path(tail), body, token=self.host_token)

    def view(self, seat: str) -> dict:
        status, view, _ = self.call(seat, "GET")
        assert status == 200, view
        return view

    def version(self) -> int:
        return self.view(next(iter(self.tokens)))["version"]

    def turn(self) -> str | None:
        """The seat to move: the seat whose turn it is, or where orders are sealed the first
        seat that owes one."""
        return self.view(next(iter(self.tokens)))["turn"]

    def owing(self) -> list[str]:
        """Every seat that owes a move now (several where orders are sealed)."""
        return owes_in(self.view(next(iter(self.tokens))))

    def computer(self, seat: str):
        if seat not in self.computers:
            rule_set = rulesets.named(self.rules)
            self.computers[seat] = rule_set.computer(
                self.levels.get(seat, next(iter(rule_set.levels))), f"t:{seat}")
        return self.computers[seat]

    def next_move(self) -> tuple[str, dict]:
        """The seat to move and the move its computer chooses from its own view."""
        seat = self.turn()
        return seat, self.computer(seat).move(self.view(seat))

    def move(self) -> tuple[int, dict]:
        seat, move = self.next_move()
        status, report, _ = self.call(seat, "POST", "/moves", move)
        return status, report


def open_table(api: Api, rules: str, **options) -> Table:
    status, created, _ = api.call("POST", GAMES, {"rules": rules, **options})
    assert status == 201, created
    tokens = {}
    for seat, info in created["seats"].items():
        status, data, _ = api.call("POST", f"{GAMES}/{created['id']}/seats/{seat}",
                                   {"join_code": info["join_code"], "name": seat.title()})
        assert status == 200, data
        tokens[seat] = data["token"]
    return Table(api, rules, created["id"], created["host_token"], tokens)


def table_in_play(api: Api, rules: str, **options) -> Table:
    """A game of ``rules`` whose seats have locked in their computers' dispositions."""
    table = open_table(api, rules, **options)
    for seat in table.tokens:
        document = table.computer(seat).disposition(table.view(seat))
        status, body, _ = table.call(seat, "PUT", "/disposition", document)
        assert status == 200, body
        status, body, _ = table.call(seat, "POST", "/ready")
        assert status == 200, body
    assert table.view(next(iter(table.tokens)))["phase"] == "play"
    return table
