"""Clients that ask a real `referee serve` for costly work without end, and another game's
moves timed meanwhile: shared by tests/test_server_costly_work.py and
bench/starved_game_bench.py.

Every loop is bounded in count and in time; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import re
import threading
import time

import requests
from api_support import table_in_play
from conftest import LiveServer
from helpers import IDLE_SQUARES, QUIET

CLIENTS = 16
LARGEST = {"submarine": 60, "recon": 20, "aa-gun": 20, "salvo": 60}  # the most pieces


def moves_during(server: LiveServer, storm, seconds: float, clients: int = CLIENTS,
                 most: int = 100) -> list[float]:
    """Another game's moves, each timed in seconds, while ``storm(stop, n)`` runs in
    ``clients`` threads (none: the moves alone)."""
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    stop = threading.Event()
    threads = [threading.Thread(target=storm, args=(stop, n), daemon=True)
               for n in range(clients)]
    for thread in threads:
        thread.start()
    if threads:
        time.sleep(1)  # the storm is on
    times = []
    end = time.monotonic() + seconds
    while time.monotonic() < end and len(times) < most:
        view = table.view("red")
        if view["phase"] == "over":  # every salvo fired: another game, as alike
            table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
            view = table.view("red")
        seat = view["turn"]
        start = time.monotonic()
        status, body, _ = table.as_seat(seat, "POST", "/moves",
                                        {"weapon": "salvo", "at": IDLE_SQUARES})
        times.append(time.monotonic() - start)
        assert status == 201, body
    stop.set()
    for thread in threads:
        thread.join(30)
    return times


def blank_sheet_storm(server: LiveServer, answers: list[int]):
    """Clients each asking for blank move records of its own page counts, papers and rule
    sets in turn (nothing kept helps at first), as fast as they are answered."""
    def storm(stop: threading.Event, n: int) -> None:
        session = requests.Session()
        pages = 1 + n
        while not stop.is_set():
            paper = ("a4", "letter")[pages % 2]
            rules = ("naval-war", "battleship-tcg", "broadside")[pages % 3]
            response = session.get(f"{server.url}/printables/blank-record.pdf",
                                   params={"pages": 1 + pages % 20, "paper": paper,
                                           "rules": rules}, timeout=30)
            answers.append(response.status_code)
            pages += CLIENTS
    return storm


def seat_with_a_budget(server: LiveServer, game_id: str, seat: str, code: str
                       ) -> tuple[requests.Session, str]:
    """A phone's session holding a seat, with the largest purchase as its budget; and the
    CSRF token its page's scripts send."""
    session = requests.Session()
    join = f"{server.url}/games/{game_id}/join/{seat}"
    page = session.get(join, params={"code": code}, timeout=10).text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    response = session.post(join, data={"csrf_token": token, "code": code, "name": "Storm"},
                            timeout=10)
    assert response.status_code == 200, response.text[:500]
    budget = {kind.replace("-", "_"): n for kind, n in LARGEST.items()}
    response = session.post(f"{server.url}/games/{game_id}/budget",
                            data={"csrf_token": token, **budget}, timeout=10)
    assert response.status_code == 200 and "Place the rest for me" in response.text
    return session, token


def place_the_rest_storm(server: LiveServer, answers: list[int], clients: int = CLIENTS):
    """Phones, each holding a seat with the largest purchase, asking "place the rest for me"
    as fast as they are answered."""
    api = server.api()
    sessions = []
    for _ in range(clients // 2):
        status, created, _ = api.call("POST", "/api/v1/games", {})
        assert status == 201
        for seat, info in created["seats"].items():
            sessions.append(seat_with_a_budget(server, created["id"], seat, info["join_code"])
                            + (created["id"],))

    def storm(stop: threading.Event, n: int) -> None:
        session, token, game_id = sessions[n]
        while not stop.is_set():
            response = session.post(f"{server.url}/games/{game_id}/draft/fill",
                                    json={"disposition": {}}, headers={"X-CSRFToken": token},
                                    timeout=30)
            answers.append(response.status_code)
    return storm
