"""Against a real `referee serve` on loopback: a stranger's guesses cannot lock a seat's owner
out (R24), and a computer that is due moves although every phone is answered by the cheap
poll and no request reaches the app (R25).

Clients are told apart by their address, so each here connects from its own loopback
address (127.0.0.2, 127.0.0.3 ...). Every loop is bounded in count and in time.
"""

from __future__ import annotations

import http.client
import json
import sqlite3
import time

import pytest
from conftest import LiveServer
from rule_set_tables import table_in_play

from referee import service


@pytest.fixture
def server(tmp_path):
    live = LiveServer(tmp_path / "fair.db").start()
    yield live
    live.stop()


def post_from(server: LiveServer, address: str, path: str, body: dict) -> tuple[int, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10,
                                            source_address=(address, 0))
    try:
        connection.request("POST", path, json.dumps(body),
                           {"Content-Type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def test_r24_a_stranger_s_wrong_guesses_do_not_lock_the_seat_s_owner_out(server):
    api = server.api()
    status, created, _ = api.call("POST", "/api/v1/games", {})
    assert status == 201
    game_id = created["id"]
    status, blue, _ = api.call("POST", f"/api/v1/games/{game_id}/seats/blue",
                               {"join_code": created["seats"]["blue"]["join_code"],
                                "name": "Blue"})
    assert status == 200
    path = f"/api/v1/games/{game_id}/seats/blue/recover"
    answers = [post_from(server, "127.0.0.2", path, {"recovery_code": f"AAAA-AAAA-{n:04d}"})[0]
               for n in range(40)]
    assert answers[:service.RECOVER_FREE_GUESSES] == [403] * service.RECOVER_FREE_GUESSES
    assert set(answers[service.RECOVER_FREE_GUESSES:]) == {429}  # the stranger waits
    status, moved = post_from(server, "127.0.0.3", path, {"recovery_code": blue["recovery_code"]})
    assert status == 200, moved  # the owner's right code works at once
    status, body = post_from(server, "127.0.0.3", path, {"recovery_code": blue["recovery_code"]})
    assert status == 409 and body["errors"][0]["rule"] == "R24", body  # a double tap
    status, body = post_from(server, "127.0.0.3", path, {"recovery_code": "ZZZZ-ZZZZ-ZZZZ"})
    assert status == 403, body  # a typo of his own is his first wrong guess, not a wait
    status, again = post_from(server, "127.0.0.2", path, {"recovery_code": moved["recovery_code"]})
    assert status == 200, again  # the right code works even from the guesser's address


def rewind_clocks(server: LiveServer, game_id: str, seconds: float) -> None:
    """Make every event of the game older, as if its turn had begun that much earlier: the
    move clock (R25) runs from when its turn's first event was appended."""
    with sqlite3.connect(server.database) as db:
        db.execute("update events set at = at - ? where game_id = ?", [seconds, game_id])


class Phone:
    """A seat's phone on one kept-alive connection, polling as the page does."""

    def __init__(self, server: LiveServer, table, seat: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        self.path, self.headers = table.path(), {"Authorization": f"Bearer {table.tokens[seat]}"}
        self.etag, self.version = None, None

    def poll(self) -> int:
        headers = {**self.headers, **({"If-None-Match": self.etag} if self.etag else {})}
        self.connection.request("GET", self.path, headers=headers)
        response = self.connection.getresponse()
        body = response.read()
        if response.status == 200:
            self.etag, self.version = response.getheader("ETag"), json.loads(body)["version"]
        else:
            assert response.status == 304, response.status
        return response.status

    def poll_until_moved(self, seconds: float) -> bool:
        """Poll every half second until the view's version moves on (True) or time is up."""
        first = self.version
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(0.5)
            if self.poll() == 200 and self.version != first:
                return True
        return False


def test_r25_a_due_computer_moves_while_the_phones_are_answered_304(server):
    api = server.api()
    table = table_in_play(api, "naval-war", move_minutes=1)
    absent = table.turn()
    other = next(s for s in table.tokens if s != absent)
    rewind_clocks(server, table.id, 120)  # the absent player's clock has run out
    status, view, _ = table.call(other, "POST", f"/seats/{absent}/stand-in")
    assert status == 200, view
    assert table.turn() == other  # the computer moved for him at once
    status, report = table.move()
    assert status == 201, report
    # his turn again: his phone is open and polls, so the computer waits for him until his
    # clock runs out once more; it runs out while every poll he makes is answered 304
    phone = Phone(server, table, absent)
    assert phone.poll() == 200 and phone.poll() == 304
    rewind_clocks(server, table.id, 120)
    assert phone.poll_until_moved(20), "the due computer did not move while polls got 304"
    assert table.turn() == other
