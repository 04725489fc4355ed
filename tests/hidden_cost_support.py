"""Two Naval War games alike in everything but Blue's hidden fleet, for asking whether any
request's cost shows its size (R21): shared by tests/test_hidden_cost.py (the app alone),
tests/test_server_hidden_cost.py (a real server) and bench/hidden_cost_bench.py.

Blue has 22 pieces in one game and 172 in the other (a piece: a ship, an aircraft, a gun or
a square of land). Red's fleet and every move are the same in both: Red fires salvoes into
squares empty in either Blue fleet, Blue into squares empty in Red's, and Red moves first in
both. So everything Red, the host or a stranger is told is the same, and so must be the work
of telling him.
"""

from __future__ import annotations

from apiclient import Api
from helpers import IDLE_SQUARES, padded

from referee.naval_war import check_disposition
from referee.naval_war.layout import pack
from referee.naval_war.squares import Square, square_name

FLEETS = {
    # 13 Battleships and 2 Carriers with 7 R.P.s aboard; 93 salvoes
    "22 pieces": pack({"battleship": 13, "carrier": 2, "recon": 7, "salvo": 93}),
    # 64 Submarines, 20 R.P.s and 34 A-A guns on 6 units of land (54 squares); 42 salvoes
    "172 pieces": pack({"submarine": 64, "recon": 20, "aa-gun": 34, "salvo": 42}),
}
RED = padded(salvoes=100)  # Battleships along the foot, and salvoes for 100 moves
MOST_MOVES = 42  # each seat's moves in a game: Blue's salvoes in the larger fleet


def pieces(document: dict) -> int:
    """A disposition's pieces: its ships, aircraft and guns, and each square of its land."""
    return (len(document["ships"]) + len(document["aircraft"]) + len(document["guns"])
            + 9 * len(document["land"]))


def occupied(document: dict) -> set:
    fleet = check_disposition(document)[0]
    return set(fleet.land) | set(fleet.ship_at) | set(fleet.aircraft_at) | set(fleet.gun_at)


EMPTY_IN_BLUE = [square_name(s) for s in (Square(c, r) for r in range(21) for c in range(21))
                 if not any(s in occupied(d) for d in FLEETS.values())][-3:]


def start_game(api: Api, blue: dict, **options) -> dict:
    """A game in play with Red's fleet and this one for Blue, in which Red moves first (the
    toss is drawn again until it says so, R11): its id, each seat's token and the host's."""
    for _ in range(60):
        status, created, _ = api.call("POST", "/api/v1/games", options)
        assert status == 201, created
        tokens = {}
        for seat, info in created["seats"].items():
            status, body, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                       {"join_code": info["join_code"],
                                        "name": seat.title()})
            assert status == 200, body
            tokens[seat] = body["token"]
        status, view, _ = api.call("GET", f"/api/v1/games/{created['id']}",
                                   token=tokens["red"])
        if view["order"] == ["red", "blue"]:
            break
    else:
        raise AssertionError("the toss never gave Red the first move")
    for seat, document in (("red", RED), ("blue", blue)):
        assert api.call("PUT", f"/api/v1/games/{created['id']}/disposition", document,
                        token=tokens[seat])[0] == 200
        assert api.call("POST", f"/api/v1/games/{created['id']}/ready",
                        token=tokens[seat])[0] == 200
    return {"id": created["id"], "tokens": tokens, "host": created["host_token"]}


def idle(api: Api, game: dict, seat: str) -> None:
    """A salvo that hits nothing: Red's into squares empty in either Blue fleet."""
    squares = EMPTY_IN_BLUE if seat == "red" else IDLE_SQUARES
    status, body, _ = api.call("POST", f"/api/v1/games/{game['id']}/moves",
                               {"weapon": "salvo", "at": squares}, token=game["tokens"][seat])
    assert status == 201, body


def turn_of(api: Api, game: dict) -> str:
    return api.call("GET", f"/api/v1/games/{game['id']}", token=game["tokens"]["red"])[1]["turn"]


def play_both(api: Api, games: dict, pairs: int) -> None:
    """Red's move and Blue's, ``pairs`` times, in every game: Red to move again."""
    for game in games.values():
        for _ in range(pairs):
            idle(api, game, "red")
            idle(api, game, "blue")
    assert [turn_of(api, game) for game in games.values()] == ["red"] * len(games)


def requests_of(game: dict) -> dict[str, tuple[str, dict]]:
    """What a caller who may not see Blue's fleet asks, by kind: its path and headers."""
    gid = game["id"]
    return {
        "record (Red)": (f"/api/v1/games/{gid}/record",
                         {"Authorization": f"Bearer {game['tokens']['red']}"}),
        "join page": (f"/games/{gid}/join/blue", {}),
        "recover page": (f"/games/{gid}/recover", {}),
        "host status": (f"/api/v1/games/{gid}/host",
                        {"Authorization": f"Bearer {game['host']}"}),
    }
