"""Security of the JSON API: every request authorised with the exact status of API.md,
security headers on every response, and hidden information kept hidden (R20, R21) in
everything each seat receives and in the server's log.
"""

from __future__ import annotations

import json
import logging
import random
import time

import pytest
from api_support import (
    assert_errors,
    assert_security_headers,
    squares_in,
    squares_in_text,
    table_in_play,
)
from apiclient import (
    Api,
    TableGame,
    choose_move,
    lock_in_random_fleets,
    open_table,
    play_random_game,
)
from helpers import QUIET

from referee import service
from referee.naval_war import check_disposition, square_name, views

PLAYER_ENDPOINTS = [
    ("GET", ""), ("PUT", "/disposition"), ("POST", "/ready"), ("POST", "/moves"),
    ("GET", "/record"), ("POST", "/end"), ("POST", "/resign"), ("GET", "/export"),
    ("GET", "/charts.pdf"), ("GET", "/record.pdf"), ("GET", "/postmortem.pdf"),
    ("GET", "/postmortem"), ("POST", "/play-on"), ("POST", "/seats/blue/stand-in"),
    ("GET", "/socket"),  # its handshake: authorised before anything else is looked at
]
HOST_ENDPOINTS = [
    ("GET", "/host"), ("POST", "/clock"), ("POST", "/seats/red/reissue"),
    ("POST", "/seats/blue/forfeit"), ("POST", "/host/handover"),
    ("POST", "/stand-in-level"),  # R25
    ("GET", "/host/stream"),
]
BODIES = {"/disposition": QUIET, "/moves": {"weapon": "salvo", "at": ["A 1", "B 1", "C 1"]},
          "/clock": {"minutes": 5}, "/host/handover": {"seat": "blue"},
          "/stand-in-level": {"level": "admiral"}}
ALL_ENDPOINTS = PLAYER_ENDPOINTS + HOST_ENDPOINTS


@pytest.fixture
def two_games(api) -> tuple[TableGame, TableGame]:
    return open_table(api), open_table(api)


def call(table: TableGame, method: str, tail: str, token: str | None,
         headers: dict | None = None, game_id: str | None = None):
    path = f"/api/v1/games/{game_id or table.id}{tail}"
    status, body, response_headers = table.api.call(method, path, BODIES.get(tail),
                                                    token=token, headers=headers)
    assert_security_headers(response_headers)
    return status, body


def unchanged(table: TableGame, version: int) -> None:
    assert table.view("red")["version"] == version


# -- authorisation: 401, 403, 404 -------------------------------------------------------

def test_these_lists_name_every_route_of_a_game(app):
    """A new endpoint of a game must be put in one of the lists above, so it is tested here."""
    prefix = "/api/v1/games/<game_id>"
    routes = {(method, rule.rule[len(prefix):].replace("<seat>", "red"))
              for rule in app.url_map.iter_rules() if rule.rule.startswith(prefix)
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    listed = {(m, t.replace("/blue/", "/red/")) for m, t in ALL_ENDPOINTS}
    assert routes == listed | {("POST", "/seats/red"), ("POST", "/seats/red/recover"),
                               ("GET", "/stream")}


def test_a_game_stream_is_public_without_a_token_and_authorised_like_the_view_with_one(
        two_games):
    """The stream with no token is the game's public status (as the join page's); with a
    token it is that seat's view and refused exactly as the view is (R21)."""
    table, other = two_games
    status, _ = call_stream(table, None)
    assert status == 200
    for token, expected in (("x" * 32, 401), (table.tokens["red"][:-1], 401),
                            (table.host_token, 403), (other.tokens["red"], 403),
                            (other.host_token, 403), (table.tokens["blue"], 200)):
        status, body = call_stream(table, token)
        assert status == expected, (token, status, body)
        if expected != 200:
            assert_errors(status, body, expected, field="Authorization")


def call_stream(table: TableGame, token: str | None):
    status, body, response_headers = table.api.call("GET", table.path("/stream"), token=token)
    assert_security_headers(response_headers)
    return status, body



@pytest.mark.parametrize("method, tail", ALL_ENDPOINTS)
def test_a_missing_or_malformed_token_is_401(two_games, method, tail):
    table, _ = two_games
    version = table.view("red")["version"]
    status, body = call(table, method, tail, None)
    assert_errors(status, body, 401, field="Authorization")
    for header in ("Bearer", "Bearer   ", f"Basic {table.tokens['red']}", table.tokens["red"],
                   f"Token {table.host_token}"):
        status, body = call(table, method, tail, None, headers={"Authorization": header})
        assert_errors(status, body, 401, field="Authorization")
    unchanged(table, version)


@pytest.mark.parametrize("method, tail", ALL_ENDPOINTS)
def test_an_unknown_or_revoked_token_is_401(api, two_games, method, tail):
    table, _ = two_games
    for token in ("x" * 32, table.tokens["red"][:-1], table.tokens["red"] + "A",
                  table.tokens["red"].upper(), table.host_token[::-1]):
        status, body = call(table, method, tail, token)
        assert_errors(status, body, 401, field="Authorization")
    revoked = table.tokens["blue"]
    status, _, _ = api.call("POST", table.path("/seats/blue/reissue"), token=table.host_token)
    assert status == 200
    status, body = call(table, method, tail, revoked)
    assert_errors(status, body, 401, field="Authorization")


@pytest.mark.parametrize("method, tail", ALL_ENDPOINTS)
def test_a_token_of_another_game_is_403(two_games, method, tail):
    table, other = two_games
    version = table.view("red")["version"]
    for token in (*other.tokens.values(), other.host_token):
        status, body = call(table, method, tail, token)
        assert_errors(status, body, 403, field="Authorization")
    unchanged(table, version)


@pytest.mark.parametrize("method, tail", PLAYER_ENDPOINTS)
def test_the_host_token_does_not_play(two_games, method, tail):
    table, _ = two_games
    version = table.view("red")["version"]
    status, body = call(table, method, tail, table.host_token)
    assert_errors(status, body, 403, field="Authorization")
    unchanged(table, version)


@pytest.mark.parametrize("method, tail", HOST_ENDPOINTS)
def test_a_player_token_has_no_host_powers(two_games, method, tail):
    table, _ = two_games
    version = table.view("red")["version"]
    for token in table.tokens.values():
        status, body = call(table, method, tail, token)
        assert_errors(status, body, 403, field="Authorization")
    unchanged(table, version)
    status, _ = call(table, "GET", "", table.tokens["red"])
    assert status == 200  # the red token still works: the refusals revoked nothing


@pytest.mark.parametrize("method, tail", ALL_ENDPOINTS + [("POST", "/seats/red")])
@pytest.mark.parametrize("game_id", ["0000000000", "nosuchgame", "x" * 300, "%20"])
def test_an_unknown_game_is_404(two_games, method, tail, game_id):
    table, _ = two_games
    for token in (None, table.tokens["red"], table.host_token):
        status, body = call(table, method, tail, token, game_id=game_id)
        assert_errors(status, body, 404)


def test_a_seat_plays_only_itself(api):
    """A token plays its own seat whatever the request says (403 for another's powers)."""
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    view = table.view("red")
    waiting = "blue" if view["turn"] == "red" else "red"
    status, body, _ = table.as_seat(waiting, "POST", "/moves",
                                    {"weapon": "salvo", "at": ["A 1", "B 1", "C 1"],
                                     "target": waiting})
    assert status == 409, body
    status, body, _ = table.as_seat(view["turn"], "POST", "/moves",
                                    {"weapon": "salvo", "at": ["A 1", "B 1", "C 1"],
                                     "target": view["turn"]})
    assert_errors(status, body, 422, rule="R23", field="target")


def test_a_not_modified_answer_is_authorised_like_the_view(api, two_games):
    """304 is an answer too: only the seat whose ETag it is gets it, never a stranger."""
    table, other = two_games
    _, _, headers = table.as_seat("red", "GET")
    etag = {"If-None-Match": headers["ETag"]}
    status, _, _ = table.as_seat("red", "GET", headers=etag)
    assert status == 304
    for token, expected in ((None, 401), ("x" * 32, 401), (table.host_token, 403),
                            (table.tokens["blue"], 200), (other.tokens["red"], 403),
                            (other.host_token, 403)):
        status, body, response_headers = api.call("GET", table.path(), token=token,
                                                  headers=etag)
        assert status == expected, (token, status, body)
        assert_security_headers(response_headers)
    status, body, _ = api.call("GET", f"/api/v1/games/{other.id}", token=table.tokens["red"],
                               headers=etag)
    assert_errors(status, body, 403)
    old = table.tokens["red"]
    status, _, _ = api.call("POST", table.path("/seats/red/reissue"), token=table.host_token)
    assert status == 200
    status, body, _ = api.call("GET", table.path(), token=old, headers=etag)
    assert_errors(status, body, 401)


# -- security headers on every response ---------------------------------------------------

def test_security_headers_on_every_kind_of_response(api, client):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    red = {"Authorization": f"Bearer {table.tokens['red']}"}
    _, _, headers = table.as_seat("red", "GET")
    seen = {}

    def check(response):
        assert_security_headers(dict(response.headers))
        seen[response.status_code] = response
        return response

    check(client.post("/api/v1/games", json={}))
    check(client.get(table.path(), headers=red))
    check(client.get(table.path(), headers={**red, "If-None-Match": headers["ETag"]}))
    check(client.get("/api/v1/openapi.json"))
    check(client.post(table.path("/moves"), data="{", headers=red,
                      content_type="application/json"))
    check(client.get(table.path()))
    check(client.get(table.path(), headers={"Authorization": f"Bearer {table.host_token}"}))
    check(client.get("/api/v1/games/nosuchgame", headers=red))
    check(client.get("/api/v1/no/such/thing"))
    check(client.get("/no/such/page", headers={"Accept": "application/json"}))
    check(client.delete(table.path(), headers=red))
    check(client.put(table.path("/disposition"), json=QUIET, headers=red))
    check(client.post("/api/v1/games", json={"seats": 9}))
    check(client.put(table.path("/disposition"), data=b"x" * (65 * 1024), headers=red,
                     content_type="application/json"))
    assert {200, 201, 304, 400, 401, 403, 404, 405, 409, 413, 422} <= set(seen)
    for status, response in seen.items():
        if status not in (200, 201, 304) and response.is_json:
            assert_errors(status, response.get_json(), status)


def test_security_headers_and_json_on_an_unexpected_error(api, client, monkeypatch):
    """Even a bug in the referee answers in JSON, with the headers, and no traceback."""
    table = open_table(api)

    def broken(*_args, **_kwargs):
        raise RuntimeError("a bug at K 10 in the referee")

    monkeypatch.setattr("referee.service.views.view_text", broken)  # views are built there
    response = client.get(table.path(), headers={"Authorization": f"Bearer {table.tokens['red']}"})
    assert response.status_code == 500
    assert_security_headers(dict(response.headers))
    assert_errors(500, response.get_json(), 500)
    assert "K 10" not in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)


# -- hidden information (R20, R21) ------------------------------------------------------------

def chart_squares(document: dict) -> set[str]:
    """Every square of a chart that holds something: land, ships, aircraft and guns."""
    fleet = check_disposition(document)[0]
    squares = set(fleet.land) | set(fleet.ship_at) | set(fleet.aircraft_at) | set(fleet.gun_at)
    return {square_name(s) for s in squares}


def told_squares(reports: list[dict], side: set[str]) -> set[str]:
    """The squares R20 names to a side, worked out from the full reports: the target squares
    of every move by or at the side, what its R.P.s saw and what R.P.s saw on its charts, its
    own aircraft's bases, and its own squares hit and guns that fired. The squares of a
    bomber's area that held hits are not among them: the attacker is not told which (R20)."""
    told: set[str] = set()
    for report in reports:
        by, at = report["by"] in side, report["target"] in side
        if not (by or at):
            continue
        told |= set(report["at"])
        told |= {entry["square"] for entry in report["seen"] or []}
        if by and report.get("from"):
            told.add(report["from"])
        if at:
            told |= set(report["squares_hit"]) | ({report["gun"]} - {None})
    return told


def before_the_end(bodies: list[str], last_move: int) -> list[object]:
    """What a seat received while the game was not over: everything before the first view or
    record of a game over, and before the report of the move that ended it."""
    kept = []
    for text in bodies:
        body = json.loads(text)
        if isinstance(body, dict) and (body.get("phase") == "over" or (
                "by" in body and "phase" not in body and body.get("n") == last_move)):
            break
        kept.append(body)
    return kept


def leaked_squares(table: TableGame, received: dict[str, list[str]],
                   extra_told: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """For each seat: the opponents' squares (land, ships, aircraft, guns) that appear in what
    it received before the end although R20 did not tell it them. A seat's own squares may
    name the same squares of its own chart, so they are not counted."""
    final = table.view("red")
    assert final["phase"] == "over"
    reports = final["reports"]
    leaks = {}
    for seat in table.tokens:
        side = {seat, *table.view(seat)["allies"]}
        opponents = [s for s in table.tokens if s not in side]
        secret = set().union(*(chart_squares(table.dispositions[o]) for o in opponents))
        secret -= chart_squares(table.dispositions[seat])
        secret -= told_squares(reports, side)
        secret -= (extra_told or {}).get(seat, set())
        assert secret, "nothing left to leak: the check could not fail"
        found = set()
        for body in before_the_end(received.get(seat, []), len(reports)):
            found |= squares_in(body) & secret
        leaks[seat] = found
    return leaks


def probe(table: TableGame, rng: random.Random) -> dict[str, set[str]]:
    """A turn of a curious table: every seat reads its view and record, the seats waiting try
    to move, the seat to move first tries a move that breaks R13 and then makes a legal one.
    Returns the squares each seat named itself (its own, so they may come back)."""
    named: dict[str, set[str]] = {}
    views_now = {seat: table.view(seat) for seat in table.tokens}
    turn = views_now["red"]["turn"]
    for seat, view in views_now.items():
        table.as_seat(seat, "GET", "/record")
        for tail in ("/export", "/postmortem"):
            status, _, _ = table.as_seat(seat, "GET", tail)
            assert status == 409  # given only once the game is over (R21)
        table.as_seat(seat, "PUT", "/disposition", table.dispositions[seat])
        if seat != turn:
            status, _, _ = table.as_seat(seat, "POST", "/moves", choose_move(view, rng))
            assert status == 409
    view = views_now[turn]
    land_only = sorted(chart_squares(table.dispositions[turn])
                       - {a["at"] for a in view["disposition"]["aircraft"]})
    bad = {**choose_move(view, rng), "weapon": "bomber", "from": land_only[0]}
    status, _, _ = table.as_seat(turn, "POST", "/moves", bad)
    assert status == 422
    named.setdefault(turn, set()).update(squares_in(bad))
    status, _, _ = table.as_seat(turn, "POST", "/moves", choose_move(view, rng))
    assert status == 201
    return named


def play_curious_game(api: Api, seats: int, alliances: bool, seed: int
                      ) -> tuple[TableGame, dict[str, set[str]]]:
    rng = random.Random(seed)
    table = open_table(api, seats, alliances=alliances)
    lock_in_random_fleets(table, rng)
    named: dict[str, set[str]] = {}
    for _ in range(8):
        for seat, squares in probe(table, rng).items():
            named.setdefault(seat, set()).update(squares)
    play_random_game(table, rng)
    return table, named


@pytest.mark.parametrize("seats, alliances, seed", [(2, False, 21), (3, False, 22),
                                                    (4, False, 23), (4, True, 24)])
def test_r21_no_seat_receives_an_opponents_square_it_was_not_told(api, seats, alliances,
                                                                   seed):
    table, named = play_curious_game(api, seats, alliances, seed)
    received = api.received
    assert all(len(received[seat]) > 50 for seat in table.tokens)
    assert leaked_squares(table, received, named) == {seat: set() for seat in table.tokens}
    # the withheld copies of R20 really withhold: third players see no square of a move
    if seats > 2 and not alliances:
        final = table.view("red")["reports"]
        for seat in table.tokens:
            for body in before_the_end(received[seat], len(final)):
                if isinstance(body, dict) and ("reports" in body or "moves" in body):
                    for report in body.get("reports", body.get("moves")) or []:
                        if seat not in (report["by"], report["target"]):
                            assert report["withheld"] is True and report["at"] == []


@pytest.mark.parametrize("leak", ["from reaches the target", "squares_hit reaches the attacker"])
def test_the_leak_check_finds_an_injected_leak(api, monkeypatch, leak):
    """The check above can fail: with the views made to leak, it finds the leak."""
    if leak == "from reaches the target":
        monkeypatch.setattr(views, "ATTACKER_ONLY", ())
    else:
        monkeypatch.setattr(views, "TARGET_ONLY", ())
    rng = random.Random(5)
    table = open_table(api, 2)
    lock_in_random_fleets(table, rng)
    play_random_game(table, rng)
    leaks = leaked_squares(table, api.received)
    assert any(leaks.values()), leaks


def test_the_leak_check_reads_only_what_came_before_the_end(api):
    rng = random.Random(6)
    table = open_table(api, 2)
    lock_in_random_fleets(table, rng)
    play_random_game(table, rng)
    clean = leaked_squares(table, api.received)
    assert clean == {"red": set(), "blue": set()}
    blue_only = sorted(chart_squares(table.dispositions["blue"])
                       - chart_squares(table.dispositions["red"]))
    received = {seat: list(bodies) for seat, bodies in api.received.items()}
    over = next(i for i, text in enumerate(received["red"]) if '"phase": "over"' in text)
    # a square of blue's in red's hands after the end is no leak; before it, it is
    received["red"].insert(over + 1, json.dumps({"text": f"Blue's gun at {blue_only[0]}"}))
    assert leaked_squares(table, received)["red"] == set()
    received["red"].insert(over - 1, json.dumps({"text": f"Blue's gun at {blue_only[0]}"}))
    assert leaked_squares(table, received)["red"] == {blue_only[0]}


def test_move_lines_kept_by_a_thread_are_written_later_in_order_each_with_its_moves_time(
        api, caplog):
    """A thread that keeps its move lines (the hub's loop, ``service.keep_move_lines``)
    writes none at its moves; ``write_kept_lines`` writes each as it would have been written,
    in order, with its move's time, and the thread writes at once again after."""
    caplog.set_level(logging.INFO, logger="referee")
    table = open_table(api, 2)
    lock_in_random_fleets(table, random.Random(5))

    def move_lines() -> list[logging.LogRecord]:
        return [r for r in caplog.records if r.getMessage().startswith(f"game {table.id}: move")]

    expected, times = [], []
    service.keep_move_lines()
    try:
        for n in range(3):
            expected.append(f"game {table.id}: move ({table.view('red')['turn']})")
            before = time.time()
            probe(table, random.Random(n))
            times.append((before, time.time()))
        assert move_lines() == []
        service.write_kept_lines()
        assert [r.getMessage() for r in move_lines()] == expected
        for record, (before, after) in zip(move_lines(), times, strict=True):
            assert before <= record.created <= after
            assert record.levelno == logging.INFO and record.name == "referee"
    finally:
        service.keep_move_lines(False)
    probe(table, random.Random(9))
    assert len(move_lines()) == 4  # the fourth written at once


def test_r21_the_log_holds_no_square(api, caplog):
    caplog.set_level(logging.INFO, logger="referee")
    rng = random.Random(31)
    table = open_table(api, 3)
    lock_in_random_fleets(table, rng)
    for _ in range(3):
        probe(table, rng)
    play_random_game(table, rng)
    messages = [record.getMessage() for record in caplog.records
                if record.name.startswith("referee")]
    assert len(messages) > 50 and any("move" in m for m in messages)
    disposition_squares = set().union(*(chart_squares(d) for d in table.dispositions.values()))
    logged = set().union(*(squares_in_text(m) for m in messages))
    assert not logged & disposition_squares
    assert not logged  # not even the target squares of moves, which third players may not know
