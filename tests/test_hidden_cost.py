"""Nothing hidden from a caller changes the work his request costs (R21), so no stopwatch can
tell how large the opponent's fleet is: Red's move record, the join and recover pages (no
token at all), the host's status and every answer to a seat's command are made from what
that caller may know, once per version, never from a copy of the whole game.

Two games differ only in Blue's fleet (22 pieces or 172, tests/hidden_cost_support.py); Red's
fleet and every move are the same, so each caller is told the same. The work is counted, not
timed: the number of Python function calls a request makes (cProfile) is the same in both
games, for the first request after a move as for any after it. (bench/hidden_cost_bench.py
times the same requests on a real server; tests/test_server_hidden_cost.py compares what a
real server sends and the processor time it takes.)
"""

from __future__ import annotations

import cProfile
import gc
import re

import pytest
from apiclient import Api, FlaskTransport
from hidden_cost_support import FLEETS, idle, start_game, turn_of

from referee import create_app


@pytest.fixture
def tables(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "cost.db"),
                      "SECRET_KEY": "test", "PUBLIC_URL": "http://localhost"})
    client = app.test_client()
    api = Api(FlaskTransport(client))
    games = {label: start_game(api, blue, move_minutes=5)
             for label, blue in zip(("small", "large"), FLEETS.values(), strict=True)}
    return client, api, games


def calls(request) -> int:
    """Python function calls made while serving ``request()``; the cycle collector is held
    off meanwhile, since what it finalises depends on what ran before, not on the request."""
    gc.collect()
    gc.disable()
    profiler = cProfile.Profile()
    try:
        profiler.enable()
        request()
        profiler.disable()
    finally:
        gc.enable()
    return sum(entry.callcount for entry in profiler.getstats())


def play_both(api: Api, games: dict, moves: int) -> None:
    for game in games.values():
        for _ in range(moves):
            idle(api, game, turn_of(api, game))
    assert [turn_of(api, game) for game in games.values()] == ["red", "red"]


REQUESTS = {
    "record": lambda client, game: client.get(
        f"/api/v1/games/{game['id']}/record",
        headers={"Authorization": f"Bearer {game['tokens']['red']}"}),
    "join page": lambda client, game: client.get(f"/games/{game['id']}/join/blue"),
    "recover page": lambda client, game: client.get(f"/games/{game['id']}/recover"),
    "host status": lambda client, game: client.get(
        f"/api/v1/games/{game['id']}/host", headers={"Authorization": f"Bearer {game['host']}"}),
}


def counted(client, games: dict, kind: str) -> dict[str, int]:
    counts = {}
    for label, game in games.items():
        response = None

        def request(game=game):
            nonlocal response
            response = REQUESTS[kind](client, game)
        counts[label] = calls(request)
        assert response.status_code == 200, response.data[:300]
    return counts


@pytest.mark.parametrize("kind", REQUESTS)
def test_r21_a_request_costs_the_same_whatever_the_opponent_hides(tables, kind):
    client, api, games = tables
    play_both(api, games, 6)
    for _ in range(3):  # warm: the first request of a process imports and compiles
        for game in games.values():
            REQUESTS[kind](client, game)
    idle_pair = 2
    for game in games.values():
        for _ in range(idle_pair):
            idle(api, game, turn_of(api, game))
    first = counted(client, games, kind)  # the first after a move: made for this version
    again = counted(client, games, kind)
    assert first["small"] == first["large"], first
    assert again["small"] == again["large"], again


def test_r21_a_seat_s_command_answers_from_its_kept_view_not_a_copy_of_the_game(tables):
    client, api, games = tables
    play_both(api, games, 6)
    counts = {}
    for label, game in games.items():
        headers = {"Authorization": f"Bearer {game['tokens']['red']}"}
        client.post(f"/api/v1/games/{game['id']}/end", headers=headers)  # warm, and offered
        client.post(f"/api/v1/games/{game['id']}/play-on",
                    headers={"Authorization": f"Bearer {game['tokens']['blue']}"})
        response = None

        def request(game=game, headers=headers):
            nonlocal response
            response = client.post(f"/api/v1/games/{game['id']}/end", headers=headers)
        counts[label] = calls(request)
        assert response.status_code == 200
        assert re.search(rb'"agreed_to_end":true', response.data)
    assert counts["small"] == counts["large"], counts


def test_r21_what_a_seat_s_pdf_hands_the_costly_pool_is_its_view_not_the_game(tables,
                                                                              monkeypatch):
    """The costly pool's process is handed only what the seat may see (its view, its
    record) for its charts and record, never the game's state, whose copy would cost more
    the more the opponent hides."""
    from referee import costly, rulesets

    client, api, games = tables
    play_both(api, games, 2)
    handed = []
    run = costly.run

    def recorded(what, work, /, *args, **kwargs):
        handed.append((work, args, kwargs))
        return run(what, work, *args, **kwargs)

    monkeypatch.setattr(costly, "run", recorded)
    monkeypatch.setattr("referee.printouts.run_costly", recorded)
    game = games["large"]
    for tail in ("charts.pdf", "record.pdf"):
        response = client.get(f"/api/v1/games/{game['id']}/{tail}",
                              headers={"Authorization": f"Bearer {game['tokens']['red']}"})
        assert response.status_code == 200
    assert len(handed) == 2
    game_types = tuple(rule_set.game_type for rule_set in rulesets.RULE_SETS.values())
    for _work, args, kwargs in handed:
        assert not any(isinstance(value, game_types) for value in (*args, *kwargs.values()))
        assert args[0]["you"] == "red"  # the seat's own view or record
