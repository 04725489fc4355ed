"""Nothing hidden from a caller changes the work his request costs (R21), so no stopwatch can
tell how large the opponent's fleet is: Red's move record, the join and recover pages (no
token at all), the host's status and every answer to a seat's command are made from what
that caller may know, once per version, never from a copy of the whole game.

Two games differ only in Blue's fleet (15 pieces or 145); Red's fleet and every move are the
same, so each caller is told the same. The work is counted, not timed: the number of Python
function calls a request makes (cProfile) is the same in both games, for the first request
after a move as for any after it. (bench/hidden_cost_bench.py times the same requests on a
real server.)
"""

from __future__ import annotations

import cProfile
import gc
import re

import pytest
from apiclient import Api, FlaskTransport
from helpers import IDLE_SQUARES, QUIET

from referee import create_app
from referee.naval_war import check_disposition
from referee.naval_war.layout import pack
from referee.naval_war.squares import Square, square_name

FLEETS = {
    "small": pack({"battleship": 15, "salvo": 100}),
    "large": pack({"submarine": 60, "recon": 20, "aa-gun": 20, "salvo": 60}),
}


def occupied(document: dict) -> set:
    fleet = check_disposition(document)[0]
    return set(fleet.land) | set(fleet.ship_at) | set(fleet.aircraft_at) | set(fleet.gun_at)


EMPTY_IN_BLUE = [square_name(s) for s in (Square(c, r) for r in range(21) for c in range(21))
                 if not any(s in occupied(d) for d in FLEETS.values())][-3:]


@pytest.fixture
def tables(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "cost.db"),
                      "SECRET_KEY": "test", "PUBLIC_URL": "http://localhost"})
    client = app.test_client()
    api = Api(FlaskTransport(client))
    games = {}
    for label, blue in FLEETS.items():
        for _ in range(60):  # the toss (R11): both games with Red first, so alike for Red
            status, created, _ = api.call("POST", "/api/v1/games", {"move_minutes": 5})
            assert status == 201
            if created_order(api, created) == ["red", "blue"]:
                break
        tokens = {}
        for seat, info in created["seats"].items():
            if "token" not in info:
                status, body, _ = api.call("POST",
                                           f"/api/v1/games/{created['id']}/seats/{seat}",
                                           {"join_code": info["join_code"],
                                            "name": seat.title()})
                info["token"] = body["token"]
            tokens[seat] = info["token"]
        for seat, document in (("red", QUIET), ("blue", blue)):
            assert api.call("PUT", f"/api/v1/games/{created['id']}/disposition", document,
                            token=tokens[seat])[0] == 200
            assert api.call("POST", f"/api/v1/games/{created['id']}/ready",
                            token=tokens[seat])[0] == 200
        games[label] = {"id": created["id"], "tokens": tokens, "host": created["host_token"]}
    return client, api, games


def created_order(api: Api, created: dict) -> list[str]:
    status, seating, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/red",
                                  {"join_code": created["seats"]["red"]["join_code"],
                                   "name": "Red"})
    created["seats"]["red"]["token"] = seating["token"]
    return api.call("GET", f"/api/v1/games/{created['id']}",
                    token=seating["token"])[1]["order"]


def idle(api: Api, game: dict, seat: str) -> None:
    squares = EMPTY_IN_BLUE if seat == "red" else IDLE_SQUARES
    status, body, _ = api.call("POST", f"/api/v1/games/{game['id']}/moves",
                               {"weapon": "salvo", "at": squares}, token=game["tokens"][seat])
    assert status == 201, body


def turn_of(api: Api, game: dict) -> str:
    return api.call("GET", f"/api/v1/games/{game['id']}", token=game["tokens"]["red"])[1]["turn"]


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
