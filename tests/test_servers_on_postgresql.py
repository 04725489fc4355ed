"""Two referee servers on one PostgreSQL, as on two hosts: separate processes (`referee serve`,
as `make run` starts it), separate ports, one database. A game's two players talk to different
servers; each server's caches follow what the other writes; the same move sent to both at once
is applied once; wrong recovery codes are counted across both; a due computer moves once,
whichever server's clock notices it first.
"""

from __future__ import annotations

import random
import re
import threading
import time

import pytest
from apiclient import Api, TableGame, choose_move, lock_in_random_fleets
from conftest import LiveServer

from referee import create_app, rulesets, service
from referee.store import Store


@pytest.fixture(scope="module")
def servers(tmp_path_factory, postgres_server):
    """Two servers on one new PostgreSQL database (the same secret and signing keys, as two
    hosts of one installation have), for every test of the module (each its own games)."""
    url = postgres_server.fresh_database("two")
    folder = tmp_path_factory.mktemp("two-servers")
    pair = [LiveServer(folder / "club.db", env={"REFEREE_DATABASE": url}) for _ in range(2)]
    try:
        for server in pair:
            server.start()
        yield url, pair
    finally:
        for server in pair:
            server.stop()


def split_table(one: Api, two: Api) -> TableGame:
    """A game made on the first server: red joins there, blue on the second."""
    status, created, _ = one.call("POST", "/api/v1/games", {})
    assert status == 201, created
    tokens = {}
    for seat, api in (("red", one), ("blue", two)):
        status, body, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                   {"join_code": created["seats"][seat]["join_code"],
                                    "name": seat.title()})
        assert status == 200, body
        tokens[seat] = body["token"]
    return TableGame(one, created["id"], created["host_token"], tokens)


def on(api: Api, table: TableGame) -> TableGame:
    return TableGame(api, table.id, table.host_token, table.tokens, table.dispositions)


def test_players_on_two_servers_play_one_game_and_each_sees_the_other_at_once(servers):
    _, (one, two) = servers
    rng = random.Random(25)
    table = split_table(one.api(), two.api())
    lock_in_random_fleets(table, rng)
    phone = {"red": table, "blue": on(two.api(), table)}  # each player's own server
    etags = {}
    for _ in range(12):
        turn = phone["red"].view("red")["turn"]
        other = "blue" if turn == "red" else "red"
        status, _, headers = phone[other].as_seat(other, "GET")
        etags[other] = headers["ETag"]  # his view is kept on his server
        status, report, _ = phone[turn].as_seat(turn, "POST", "/moves",
                                                choose_move(phone[turn].view(turn), rng))
        assert status == 201, report
        status, view, headers = phone[other].as_seat(other, "GET",
                                                     headers={"If-None-Match": etags[other]})
        assert status == 200, "his server answered 304 after the other server took a move"
        assert view["reports"][-1]["n"] == report["n"] and headers["ETag"] != etags[other]
        for seat in ("red", "blue"):  # both servers give each seat the same view
            assert phone["red"].view(seat) == phone["blue"].view(seat)


def test_the_same_move_sent_to_both_servers_at_once_is_applied_once(servers):
    url, (one, two) = servers
    rng = random.Random(7)
    table = split_table(one.api(), two.api())
    lock_in_random_fleets(table, rng)
    apis = (one.api(), two.api())
    for n in range(6):  # with the same Idempotency-Key, and without one
        turn = table.view("red")["turn"]
        move = choose_move(table.view(turn), rng)
        keyed = n % 2 == 0
        headers = {"Idempotency-Key": f"tap-{n}"} if keyed else {}
        before = Store(url).version(table.id)
        answers: list = [None, None]
        start = threading.Barrier(2)

        def send(i: int, move=move, headers=headers, turn=turn, start=start,
                 answers=answers) -> None:
            start.wait()
            answers[i] = on(apis[i], table).as_seat(turn, "POST", "/moves", move,
                                                    headers=headers)

        threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        statuses = sorted(answer[0] for answer in answers)
        store = Store(url)
        moved = [e for e in store.events(table.id)[before:] if e["type"] == "move"]
        store.close()
        assert len(moved) == 1, f"the move was applied {len(moved)} times"
        if keyed:  # the second is told what the first got
            assert statuses == [201, 201] and answers[0][1] == answers[1][1]
        else:  # the second came after the turn had passed
            assert statuses == [201, 409], answers


def test_wrong_recovery_codes_are_counted_across_servers(servers):
    _, (one, two) = servers
    table = split_table(one.api(), two.api())
    answers = []
    for n in range(service.RECOVER_FREE_GUESSES + 1):  # one client, each guess elsewhere
        api = (one, two)[n % 2].api()
        status, body, _ = api.call("POST", table.path("/seats/blue/recover"),
                                   {"recovery_code": f"AAAA-BBBB-{n:04d}"})
        answers.append(status)
    assert answers[:service.RECOVER_FREE_GUESSES] == [403] * service.RECOVER_FREE_GUESSES
    for api in (one.api(), two.api()):  # now both make this client wait
        status, body, _ = api.call("POST", table.path("/seats/blue/recover"),
                                   {"recovery_code": "AAAA-BBBB-9999"})
        assert status == 429 and "R24" in str(body), body


def test_a_due_computer_moves_once_whichever_server_notices(servers, tmp_path):
    """A player's move is stored without the computer's answer (as when the server that took
    it stopped at once): both servers' clocks find the computer due; it moves once."""
    url, (one, two) = servers
    rule_set = rulesets.named(rulesets.DEFAULT)
    level = next(iter(rule_set.levels))
    status, created, _ = one.api().call("POST", "/api/v1/games", {"bots": {"blue": level}})
    assert status == 201, created
    status, body, _ = two.api().call("POST", f"/api/v1/games/{created['id']}/seats/red",
                                     {"join_code": created["seats"]["red"]["join_code"],
                                      "name": "Red"})
    table = TableGame(two.api(), created["id"], created["host_token"], {"red": body["token"]})
    rng = random.Random(3)
    lock_in_random_fleets(table, rng)
    here = create_app({"TESTING": True, "DATABASE": url, "SECRET_KEY": "live-test",
                       "SIGNING_KEY_FILE": str(tmp_path / "here.key")})
    store = here.extensions["referee.store"]()
    for _ in range(3):
        view = table.view("red")
        assert view["turn"] == "red", view["turn"]
        move = choose_move(view, rng)
        before = store.version(table.id)
        service.act(store, table.id, lambda game, move=move: game.move("red", move),
                    computers=False)  # stored; the computer's answer left to the clocks
        deadline = time.monotonic() + 20
        while table.view("red")["turn"] != "red" and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(1.5)  # both clocks have looked again since
        moves = [e for e in store.events(table.id)[before:] if e["type"] == "move"]
        assert [e["seat"] for e in moves] == ["red", "blue"], moves
    made = [e for e in store.events(table.id) if e["type"] == "move" and e["seat"] == "blue"]
    logged = sum(len(re.findall(rf"game {table.id}: move \(blue, computer\)", server.logs()))
                 for server in (one, two))
    assert logged == len(made), f"{len(made)} computer's moves logged {logged} times"


def test_a_move_through_one_server_is_pushed_to_a_stream_held_on_the_other(servers):
    """Streams across servers: PostgreSQL NOTIFYs every server's stream hub when a write
    commits, so a phone streaming from one server hears the move made through the other."""
    from stream_support import EventStream

    _, (one, two) = servers
    rng = random.Random(11)
    table = split_table(one.api(), two.api())
    lock_in_random_fleets(table, rng)
    mover = table.view("red")["turn"]
    listener = "blue" if mover == "red" else "red"
    stream = EventStream(two.port, table.path("/stream"),
                         {"Authorization": f"Bearer {table.tokens[listener]}"})
    try:
        assert stream.head() == 200, stream.raw[:300]
        opening = stream.wait_for("view", 10)
        assert opening is not None
        status, report, _ = table.as_seat(mover, "POST", "/moves",  # through the first
                                          choose_move(table.view(mover), rng))
        assert status == 201, report
        pushed = stream.wait_for("view", 10, after=stream.events.index(opening) + 1)
        assert pushed is not None, "the other server's stream never heard the move"
        assert pushed.document()["reports"][-1]["n"] == report["n"]
        assert pushed.document() == on(two.api(), table).view(listener)
    finally:
        stream.sock.close()
