"""Clients that ask a real `referee serve` for costly work without end, and another game's
moves timed meanwhile: shared by tests/test_server_costly_work.py and
bench/starved_game_bench.py.

Every loop is bounded in count and in time; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import multiprocessing
import re
import threading
import time
from pathlib import Path

import requests
from api_support import table_in_play
from conftest import LiveServer
from helpers import IDLE_SQUARES, QUIET

CLIENTS = 16
LARGEST = {"submarine": 60, "recon": 20, "aa-gun": 20, "salvo": 60}  # the most pieces


def moves_during(server: LiveServer, storm: str | None, seconds: float,
                 answers: list[int] | None = None, clients: int = CLIENTS,
                 most: int = 100) -> list[float]:
    """Another game's moves, each timed in seconds, while ``clients`` threads of the storm
    named ``storm`` (a key of STORMS; None: the moves alone) run in a process of their own,
    so that the time taken is the server's, not the storm's threads' contending with the
    mover for this process's interpreter lock. What the storm was answered is added to
    ``answers``."""
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    storming = None
    if storm:
        context = multiprocessing.get_context("spawn")  # nothing of this process's threads
        ready, stop, results = context.Event(), context.Event(), context.Queue()
        storming = context.Process(target=_storm_process, daemon=True,
                                   args=(server.url, storm, clients, ready, stop, results))
        storming.start()
        assert ready.wait(120), "the storm's clients did not start"
        time.sleep(1)  # the storm is on
    try:
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
    finally:
        if storming:
            stop.set()
            heard = results.get(timeout=60)
            storming.join(30)
            if answers is not None:
                answers.extend(heard)
    return times


def _storm_process(url: str, storm: str, clients: int, ready, stop, results) -> None:
    """The storm's clients, in a process started for them: ``ready`` once each is set up,
    until ``stop``; what they were answered put on ``results``."""
    answers: list[int] = []
    asking = STORMS[storm](LiveServer(Path("unused.db"), port=int(url.rsplit(":", 1)[1])),
                           answers, clients)
    local = threading.Event()
    threads = [threading.Thread(target=asking, args=(local, n), daemon=True)
               for n in range(clients)]
    for thread in threads:
        thread.start()
    ready.set()
    stop.wait()
    local.set()
    for thread in threads:
        thread.join(30)
    results.put(list(answers))


def blank_sheet_storm(server: LiveServer, answers: list[int], clients: int = CLIENTS):
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
            pages += clients
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


def poll_storm(server: LiveServer, answers: list[int], clients: int = CLIENTS):
    """For comparison, no costly work at all: phones polling a game of their own as fast as
    they are answered, each with the ETag it was last sent (the cheapest request there is)."""
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})

    def storm(stop: threading.Event, n: int) -> None:
        session = requests.Session()
        headers = {"Authorization": f"Bearer {table.tokens['red']}"}
        while not stop.is_set():
            response = session.get(f"{server.url}/api/v1/games/{table.id}", headers=headers,
                                   timeout=30)
            answers.append(response.status_code)
            headers["If-None-Match"] = response.headers.get("ETag", "")
    return storm


STORMS = {"blank sheets": blank_sheet_storm, "placing the rest": place_the_rest_storm,
          "polls": poll_storm}
