"""A move through the API is made before Flask is entered (``referee/move_shortcut.py``), and
answers exactly as the route does: a made move, a move sent again with its Idempotency-Key, and
every refusal, with the same status, headers (but the date) and body, and nothing applied twice
or half; what the shortcut does not expect goes on to the route untouched.
"""

from __future__ import annotations

import json

import pytest
from helpers import IDLE_SQUARES
from test_caches_across_processes import in_play

from referee import service
from referee.move_shortcut import MoveShortcut

IDLE = {"weapon": "salvo", "at": IDLE_SQUARES}


class Layers:
    """The app's client, with the move shortcut counted or taken out."""

    def __init__(self, api) -> None:
        self.client = api.send.client
        layer = self.client.application.wsgi_app
        while not isinstance(layer, MoveShortcut):
            layer = layer.app
        self.shortcut, self.route = layer, layer.app
        self.entered: list[str] = []
        layer.app = self._counting

    def _counting(self, environ, start_response):
        self.entered.append(environ["PATH_INFO"])
        return self.route(environ, start_response)

    def post(self, path: str, body: bytes, headers: dict, *, flask_only: bool = False):
        """A POST through the whole app, or with the shortcut passing it on (the route
        alone); ``entered_flask`` says whether the route was entered."""
        entered = len(self.entered)
        taken = self.shortcut._taken
        if flask_only:
            self.shortcut._taken = lambda environ: None  # type: ignore[method-assign]
        try:
            response = self.client.post(path, data=body, headers=headers)
        finally:
            self.shortcut._taken = taken  # type: ignore[method-assign]
        response.entered_flask = len(self.entered) > entered
        return response


def same_answer(one, other) -> None:
    assert one.status == other.status
    assert one.data == other.data
    assert sorted((k, v) for k, v in one.headers.items() if k != "Date") == \
        sorted((k, v) for k, v in other.headers.items() if k != "Date")


def headers_for(table, seat: str, **more: str) -> dict:
    return {"Authorization": f"Bearer {table.tokens[seat]}",
            "Content-Type": "application/json", **more}


@pytest.mark.parametrize("first_through", ["shortcut", "route"])
def test_a_move_made_before_flask_answers_as_the_route_does(api, first_through):
    """The same move with the same Idempotency-Key, once through each: one move made, and
    the report, status and headers the same whichever made it."""
    table = in_play(api)
    layers = Layers(api)
    turn = table.view("red")["turn"]
    before = table.view("red")["version"]
    body = json.dumps(IDLE).encode()
    headers = headers_for(table, turn, **{"Idempotency-Key": "same-move"})
    first = layers.post(table.path("/moves"), body, headers,
                        flask_only=first_through == "route")
    again = layers.post(table.path("/moves"), body, headers,
                        flask_only=first_through == "shortcut")
    assert first.status_code == 201, first.data
    assert first.entered_flask == (first_through == "route")
    assert again.entered_flask == (first_through == "shortcut")
    same_answer(first, again)
    assert table.view("red")["version"] == before + 1  # made once


def refusals(table) -> list[tuple[str, str, bytes, dict]]:
    """Refused moves: (what, path, body, headers), each of a different kind."""
    red, blue = table.tokens["red"], table.tokens["blue"]
    turn = table.view("red")["turn"]
    other = "blue" if turn == "red" else "red"
    move = json.dumps(IDLE).encode()
    json_type = {"Content-Type": "application/json"}
    path = table.path("/moves")
    return [
        ("not his turn (409)", path, move, headers_for(table, other)),
        ("an illegal move (422)", path, json.dumps({"weapon": "salvo", "at": ["A 1"]}).encode(),
         headers_for(table, turn)),
        ("not JSON (400)", path, b"{salvo", headers_for(table, turn)),
        ("not an object (400)", path, b"[1, 2]", headers_for(table, turn)),
        ("a number JSON cannot hold (422)", path, b'{"at": 1e999}', headers_for(table, turn)),
        ("a key too long (400)", path, move,
         headers_for(table, turn, **{"Idempotency-Key": "k" * 201})),
        ("an unknown token (401)", path, move,
         {"Authorization": "Bearer nobody", **json_type}),
        ("the host's token (403)", path, move,
         {"Authorization": f"Bearer {table.host_token}", **json_type}),
        ("no such game (404)", "/api/v1/games/0123456789/moves", move,
         {"Authorization": f"Bearer {red}", **json_type}),
        ("a page asking for HTML (409 as JSON)", path, move,
         {"Authorization": f"Bearer {blue if turn == 'red' else red}",
          "Accept": "text/html", **json_type}),
    ]


def test_every_refused_move_answers_before_flask_as_the_route_does(api):
    table = in_play(api)
    layers = Layers(api)
    before = table.view("red")["version"]
    for what, path, body, headers in refusals(table):
        shortcut = layers.post(path, body, headers)
        route = layers.post(path, body, headers, flask_only=True)
        assert 400 <= shortcut.status_code < 500, (what, shortcut.data)
        assert not shortcut.entered_flask, what  # answered by the app's handler, not route
        same_answer(shortcut, route)
        assert shortcut.get_json()["errors"][0]["message"], what
    assert table.view("red")["version"] == before  # nothing applied


def test_r14_a_move_refused_for_a_full_log_answers_before_flask_as_the_route_does(
        api, monkeypatch):
    table = in_play(api)
    layers = Layers(api)
    monkeypatch.setattr(service.engine, "MAX_EVENTS", table.view("red")["version"])
    turn = table.view("red")["turn"]
    body = json.dumps(IDLE).encode()
    shortcut = layers.post(table.path("/moves"), body, headers_for(table, turn))
    route = layers.post(table.path("/moves"), body, headers_for(table, turn), flask_only=True)
    assert shortcut.status_code == 409 and "R14" in shortcut.get_json()["errors"][0]["rule"]
    same_answer(shortcut, route)


@pytest.mark.parametrize(("what", "change"), [
    ("a form's body", {"Content-Type": "application/x-www-form-urlencoded"}),
    ("plain text", {"Content-Type": "text/plain"}),
    ("no token", {"Authorization": ""}),
    ("another scheme", {"Authorization": "Basic cmVkOnJlZA=="}),
])
def test_a_move_the_shortcut_does_not_expect_goes_on_to_the_route(api, what, change):
    table = in_play(api)
    layers = Layers(api)
    turn = table.view("red")["turn"]
    headers = {**headers_for(table, turn), **change}
    response = layers.post(table.path("/moves"), json.dumps(IDLE).encode(), headers)
    assert response.entered_flask, what
    assert response.status_code in (401, 415), (what, response.data)


def test_a_body_over_the_limit_goes_on_to_the_route_which_refuses_it(api):
    table = in_play(api)
    layers = Layers(api)
    turn = table.view("red")["turn"]
    padded = json.dumps({**IDLE, "pad": "x" * (64 * 1024)}).encode()
    response = layers.post(table.path("/moves"), padded, headers_for(table, turn))
    assert response.entered_flask and response.status_code == 413
