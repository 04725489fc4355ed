"""Against a real `referee serve`: clients that ask for costly work without end (blank
sheets printed afresh, "place the rest for me" with the largest purchase) cannot starve the
other games. Costly work runs in a few slots (``referee.costly``): whoever finds them taken is
told 503 with Retry-After, blank sheets are printed once and kept, and a seat may ask for its
fleet to be placed only so often; the threads left serve every other game's polls and moves.
(bench/starved_game_bench.py measures the same storms' effect.)

Every loop is bounded in count and in time; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import pytest
from conftest import LiveServer
from costly_support import blank_sheet_storm, moves_during, place_the_rest_storm

STORM_S = 8  # how long the costly clients ask


@pytest.fixture
def server(tmp_path):
    live = LiveServer(tmp_path / "costly.db").start()
    yield live
    live.stop()


def test_costly_work_blank_sheets_asked_without_end_do_not_starve_other_games(server):
    answers: list[int] = []
    times = moves_during(server, blank_sheet_storm(server, answers), STORM_S)
    assert len(times) >= 10, f"only {len(times)} moves in {STORM_S} s"
    assert max(times) < 3, times
    assert set(answers) <= {200, 503} and 200 in answers


def test_costly_work_placing_the_rest_without_end_does_not_starve_other_games(server):
    answers: list[int] = []
    times = moves_during(server, place_the_rest_storm(server, answers), STORM_S)
    assert len(times) >= 10, f"only {len(times)} moves in {STORM_S} s"
    assert max(times) < 3, times
    assert 200 in answers and 429 in answers  # each seat may ask only so often
    assert set(answers) <= {200, 429, 503}
