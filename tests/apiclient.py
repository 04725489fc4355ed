"""A small client of the JSON API for tests and benches, over Flask's test client or real HTTP.

``play_random_game`` plays a whole game as the players' phones would: each seat knows only
what its own view tells it, and every response each seat receives is kept for leak scans.
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from dataclasses import dataclass, field

from werkzeug.datastructures import Headers

from referee.naval_war.layout import random_purchase, scatter

Response = tuple[int, object, Headers]  # headers are case-insensitive, as in HTTP


class FlaskTransport:
    def __init__(self, client) -> None:
        self.client = client

    def __call__(self, method: str, path: str, body=None, headers=None) -> Response:
        kwargs = {"headers": headers or {}}
        if body is not None:
            kwargs["data"] = body if isinstance(body, bytes | str) else json.dumps(body)
            kwargs["content_type"] = "application/json"
        r = self.client.open(path, method=method, **kwargs)
        data = r.get_json(silent=True) if r.data else None
        return r.status_code, data, Headers(r.headers)


class HttpTransport:
    def __init__(self, base_url: str, timeout: float = 20) -> None:
        self.base_url, self.timeout = base_url.rstrip("/"), timeout

    def __call__(self, method: str, path: str, body=None, headers=None) -> Response:
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else (
                body.encode() if isinstance(body, str) else json.dumps(body).encode())
        req = urllib.request.Request(self.base_url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json",
                                              **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                raw, status, hdrs = r.read(), r.status, Headers(list(r.headers.items()))
        except urllib.error.HTTPError as err:
            raw, status, hdrs = err.read(), err.code, Headers(list(err.headers.items()))
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return status, parsed, hdrs


@dataclass
class Api:
    send: object
    received: dict[str, list[str]] = field(default_factory=dict)

    def call(self, method: str, path: str, body=None, token: str | None = None,
             seat: str | None = None, headers: dict | None = None) -> Response:
        hdrs = dict(headers or {})
        if token:
            hdrs["Authorization"] = f"Bearer {token}"
        status, data, response_headers = self.send(method, path, body, hdrs)
        if seat is not None:  # everything a seat receives, for leak scans (R21)
            self.received.setdefault(seat, []).append(json.dumps(data))
        return status, data, response_headers


@dataclass
class TableGame:
    """A game created through the API with every seat joined."""

    api: Api
    id: str
    host_token: str
    tokens: dict[str, str]
    dispositions: dict[str, dict] = field(default_factory=dict)
    recovery_codes: dict[str, str] = field(default_factory=dict)  # each seat's (R24)

    def path(self, tail: str = "") -> str:
        return f"/api/v1/games/{self.id}{tail}"

    def as_seat(self, seat: str, method: str, tail: str = "", body=None, **kw) -> Response:
        return self.api.call(method, self.path(tail), body, token=self.tokens[seat],
                             seat=seat, **kw)

    def view(self, seat: str) -> dict:
        status, data, _ = self.as_seat(seat, "GET")
        assert status == 200, data
        return data


def open_table(api: Api, seats: int = 2, alliances: bool = False) -> TableGame:
    status, created, _ = api.call("POST", "/api/v1/games",
                                  {"seats": seats, "alliances": alliances})
    assert status == 201, created
    tokens, codes = {}, {}
    for seat, info in created["seats"].items():
        status, data, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                   {"join_code": info["join_code"], "name": seat.title()})
        assert status == 200, data
        tokens[seat], codes[seat] = data["token"], data["recovery_code"]
    return TableGame(api, created["id"], created["host_token"], tokens,
                     recovery_codes=codes)


def against_computers(api: Api, bots: dict[str, str], rules: str | None = None) -> TableGame:
    """A game whose ``bots`` seats are computers (seat: level), Red claimed by "Ann"."""
    status, created, _ = api.call("POST", "/api/v1/games",
                                  {"bots": bots, **({"rules": rules} if rules else {})})
    assert status == 201, created
    status, joined, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/red",
                                 {"join_code": created["seats"]["red"]["join_code"],
                                  "name": "Ann"})
    assert status == 200, joined
    return TableGame(api, created["id"], created["host_token"], {"red": joined["token"]})


def lock_in_random_fleets(table: TableGame, rng: random.Random) -> None:
    for seat in table.tokens:
        document = scatter(random_purchase(rng), rng)
        status, data, _ = table.as_seat(seat, "PUT", "/disposition", document)
        assert status == 200, data
        table.dispositions[seat] = document
        status, data, _ = table.as_seat(seat, "POST", "/ready")
        assert status == 200, data


def choose_move(view: dict, rng: random.Random) -> dict:
    """A legal move from what a seat's own view tells it, and nothing else."""
    gone = set(view["damage"]["flown"]) | set(view["damage"]["destroyed"])
    planes = [a for a in view["disposition"]["aircraft"] if a["at"] not in gone]
    opponents = [s for s, info in view["seats"].items()
                 if s != view["you"] and s not in view["allies"] and not info["forfeited"]]
    target = rng.choice(opponents)
    square = lambda: f"{'ABCDEFGHIJKLMNOPQRSTU'[rng.randrange(21)]} {rng.randrange(1, 22)}"  # noqa: E731
    if planes and (view["forces"]["salvo"] == 0 or rng.random() < 0.5):
        plane = rng.choice(planes)
        return {"weapon": plane["type"], "from": plane["at"], "at": square(),
                "target": target}
    shots: list[str] = []
    while len(shots) < 3:
        s = square()
        if s not in shots:
            shots.append(s)
    return {"weapon": "salvo", "at": shots, "target": target}


def play_random_game(table: TableGame, rng: random.Random, max_moves: int = 2000) -> dict:
    """Play until the game is over; returns the final view of the first seat."""
    seats = list(table.tokens)
    for _ in range(max_moves):
        views = {seat: table.view(seat) for seat in seats}
        first = views[seats[0]]
        if first["phase"] == "over":
            return first
        turn = first["turn"]
        move = choose_move(views[turn], rng)
        status, report, _ = table.as_seat(turn, "POST", "/moves", move)
        assert status == 201, (move, report)
    raise AssertionError("the game did not end")
