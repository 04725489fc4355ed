"""Against a real `referee serve`: clients that ask for costly work without end (blank
sheets printed afresh, "place the rest for me" with the largest purchase) cannot starve the
other games. Costly work runs in a few slots (``referee.costly``): whoever finds them taken is
told 503 with Retry-After, blank sheets are printed once and kept, and a seat may ask for its
fleet to be placed only so often; the threads left serve every other game's polls and moves.

Every loop is bounded in count and in time; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import re
import statistics
import threading
import time

import pytest
import requests
from api_support import table_in_play
from conftest import LiveServer
from helpers import IDLE_SQUARES, QUIET

from referee import costly

STORM_S = 8  # how long the costly clients ask
CLIENTS = 16
LARGEST = {"submarine": 60, "recon": 20, "aa-gun": 20, "salvo": 60}  # the most pieces


@pytest.fixture
def server(tmp_path):
    live = LiveServer(tmp_path / "costly.db").start()
    yield live
    live.stop()


def moves_during(server: LiveServer, storm) -> list[float]:
    """Another game's moves, timed, while ``storm(stop)`` runs in CLIENTS threads."""
    table = table_in_play(server.api(), {"red": QUIET, "blue": QUIET})
    stop = threading.Event()
    threads = [threading.Thread(target=storm, args=(stop, n), daemon=True)
               for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    time.sleep(1)  # the storm is on
    times = []
    end = time.monotonic() + STORM_S
    while time.monotonic() < end and len(times) < 100:
        seat = table.view("red")["turn"]
        start = time.monotonic()
        status, body, _ = table.as_seat(seat, "POST", "/moves",
                                        {"weapon": "salvo", "at": IDLE_SQUARES})
        times.append(time.monotonic() - start)
        assert status == 201, body
    stop.set()
    for thread in threads:
        thread.join(30)
    return times


def test_costly_work_blank_sheets_asked_without_end_do_not_starve_other_games(server):
    answers: list[int] = []

    def storm(stop: threading.Event, n: int) -> None:
        session = requests.Session()
        pages = 1 + n
        while not stop.is_set():  # every client its own sheets: nothing kept helps at first
            paper = ("a4", "letter")[pages % 2]
            rules = ("naval-war", "battleship-tcg", "broadside")[pages % 3]
            response = session.get(f"{server.url}/printables/blank-record.pdf",
                                   params={"pages": 1 + pages % 20, "paper": paper,
                                           "rules": rules}, timeout=30)
            answers.append(response.status_code)
            if response.status_code == 503:
                assert response.headers["Retry-After"] == str(costly.RETRY_AFTER_S)
            pages += CLIENTS

    times = moves_during(server, storm)
    assert len(times) >= 10, f"only {len(times)} moves in {STORM_S} s"
    assert max(times) < 3, times
    assert set(answers) <= {200, 503} and 200 in answers


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


def test_costly_work_placing_the_rest_without_end_does_not_starve_other_games(server):
    api = server.api()
    sessions = []
    for _ in range(CLIENTS // 2):
        status, created, _ = api.call("POST", "/api/v1/games", {})
        assert status == 201
        for seat, info in created["seats"].items():
            sessions.append(seat_with_a_budget(server, created["id"], seat, info["join_code"])
                            + (created["id"],))
    answers: list[int] = []

    def storm(stop: threading.Event, n: int) -> None:
        session, token, game_id = sessions[n]
        while not stop.is_set():
            response = session.post(f"{server.url}/games/{game_id}/draft/fill",
                                    json={"disposition": {}}, headers={"X-CSRFToken": token},
                                    timeout=30)
            answers.append(response.status_code)

    times = moves_during(server, storm)
    assert len(times) >= 10, f"only {len(times)} moves in {STORM_S} s"
    assert max(times) < 3, times
    assert 200 in answers and 429 in answers  # each seat may ask only so often
    assert set(answers) <= {200, 429, 503}
    print(f"median move {statistics.median(times) * 1000:.1f} ms over {len(times)} moves")
