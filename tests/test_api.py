"""The JSON API (API.md v1) endpoint by endpoint, in-process through Flask's test client.

Games are created, seated, set up, played and ended through the API alone; fleets are the
hand-made ones of helpers.py (ATTACKER: aircraft on land at A 1-F 3 and a cruiser at H 1;
QUIET: Battleships along the foot of the chart and 60 salvoes) or random ones.
"""

from __future__ import annotations

import base64
import random
import re
import time

import pytest
from api_support import assert_errors, table_in_play
from apiclient import (
    Api,
    TableGame,
    choose_move,
    lock_in_random_fleets,
    open_table,
    play_random_game,
)
from helpers import ATTACKER, IDLE_SQUARES, QUIET

from referee import service
from referee.naval_war import check_disposition, toss_order
from referee.store import digest

GAMES = "/api/v1/games"
VIEW_FIELDS = {"id", "phase", "you", "version", "seats", "turn", "order", "disposition",
               "damage", "forces", "reports", "result"}


def create(api: Api, body=None) -> tuple[int, dict]:
    status, data, _ = api.call("POST", GAMES, body)
    return status, data


def claim(api: Api, game_id: str, seat: str, code, name="Ann"):
    status, data, _ = api.call("POST", f"{GAMES}/{game_id}/seats/{seat}",
                               {"join_code": code, "name": name})
    return status, data


def host(api: Api, table, method: str, tail: str, body=None):
    status, data, _ = api.call(method, table.path(tail), body, token=table.host_token)
    return status, data


def normal(document: dict) -> dict:
    """A disposition as the referee writes it back (R1 notation)."""
    return check_disposition(document)[0].document


def turn_of(table) -> str:
    return table.view("red")["turn"]


def idle_move(table, seat: str) -> dict:
    """A salvo into squares no fleet of helpers.py uses, to pass the turn on."""
    status, report, _ = table.as_seat(seat, "POST", "/moves",
                                      {"weapon": "salvo", "at": IDLE_SQUARES})
    assert status == 201, report
    return report


def red_to_move(table) -> None:
    if turn_of(table) == "blue":
        idle_move(table, "blue")
    assert turn_of(table) == "red"


def url_token_bits(token: str) -> int:
    """The bits a secrets.token_urlsafe token carries: its base64url text decoded."""
    assert re.fullmatch(r"[A-Za-z0-9_-]+", token), token
    return 8 * len(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))


# -- POST /games ---------------------------------------------------------------------------

@pytest.mark.parametrize("body", [None, {}])
def test_create_with_defaults_two_seats_twenty_minutes_no_alliances(api, body):
    status, created = create(api, body)
    assert status == 201
    assert set(created) == {"id", "host_token", "seats"}
    assert list(created["seats"]) == ["red", "blue"]
    for seat, info in created["seats"].items():
        assert set(info) == {"join_code", "join_url"}
        assert created["id"] in info["join_url"] and seat in info["join_url"]
        assert info["join_code"] in info["join_url"]
    status, hosted, _ = api.call("GET", f"{GAMES}/{created['id']}/host",
                                 token=created["host_token"])
    assert status == 200
    assert hosted["clock"]["minutes"] == 20 and hosted["phase"] == "setup"
    assert list(hosted["seats"]) == ["red", "blue"]
    status, _ = claim(api, created["id"], "red", created["seats"]["red"]["join_code"])
    assert status == 200


def test_create_three_and_four_seats_and_alliances(api):
    status, created = create(api, {"seats": 3, "disposition_minutes": 5})
    assert status == 201 and list(created["seats"]) == ["red", "blue", "green"]
    _, hosted, _ = api.call("GET", f"{GAMES}/{created['id']}/host",
                            token=created["host_token"])
    assert hosted["clock"]["minutes"] == 5
    table = open_table(api, 4, alliances=True)
    allies = {seat: table.view(seat)["allies"] for seat in table.tokens}
    assert allies == {"red": ["green"], "blue": ["gold"], "green": ["red"], "gold": ["blue"]}
    free = open_table(api, 4)
    assert all(free.view(seat)["allies"] == [] for seat in free.tokens)


@pytest.mark.parametrize("seats", [2, 3])
def test_alliances_need_four_seats(api, seats):
    status, body = create(api, {"seats": seats, "alliances": True})
    assert_errors(status, body, 422, rule="R23", field="alliances")


@pytest.mark.parametrize("body, field", [
    ({"seats": 1}, "seats"), ({"seats": 5}, "seats"), ({"seats": "2"}, "seats"),
    ({"seats": True}, "seats"), ({"seats": 2.5}, "seats"),
    ({"alliances": "yes"}, "alliances"), ({"seats": 4, "alliances": 1}, "alliances"),
    ({"disposition_minutes": 0}, "disposition_minutes"),
    ({"disposition_minutes": 24 * 60 + 1}, "disposition_minutes"),
    ({"disposition_minutes": "20"}, "disposition_minutes"),
    ({"colour": "red"}, "colour"),
])
def test_create_refuses_bad_options_naming_the_field(api, body, field):
    status, data = create(api, body)
    assert_errors(status, data, 422, field=field)


# -- POST /games/{id}/seats/{seat} -----------------------------------------------------------

def test_claim_seat_gives_a_token_once(api):
    _, created = create(api)
    game_id, codes = created["id"], {s: i["join_code"] for s, i in created["seats"].items()}
    status, body = claim(api, game_id, "red", codes["blue"])
    assert_errors(status, body, 403, field="join_code")
    status, body = claim(api, game_id, "red", "not-the-code")
    assert_errors(status, body, 403, field="join_code")
    status, body = claim(api, game_id, "red", codes["red"], "Ann")
    assert status == 200 and set(body) == {"token", "recovery_code"}
    token = body["token"]
    # the join code works once: the seat is taken now, and its holder keeps it
    status, again = claim(api, game_id, "red", codes["red"], "Mallory")
    assert_errors(status, again, 409, field="seat")
    status, view, _ = api.call("GET", f"{GAMES}/{game_id}", token=token)
    assert status == 200 and view["you"] == "red" and view["seats"]["red"]["name"] == "Ann"
    status, body = claim(api, game_id, "red", "wrong")
    assert_errors(status, body, 403)


@pytest.mark.parametrize("seat", ["green", "purple", "RED"])
def test_claim_of_a_seat_the_game_does_not_have_is_404(api, seat):
    _, created = create(api)
    status, body = claim(api, created["id"], seat, created["seats"]["red"]["join_code"])
    assert_errors(status, body, 404, field="seat")


def test_claim_needs_a_name_of_one_to_forty_characters(api):
    _, created = create(api)
    code = created["seats"]["red"]["join_code"]
    for name in ("", "   ", "x" * 41):
        status, body = claim(api, created["id"], "red", code, name)
        assert_errors(status, body, 422, rule="R10", field="name")
    status, body = claim(api, created["id"], "red", code, "  Ann  ")
    assert status == 200, body
    status, view, _ = api.call("GET", f"{GAMES}/{created['id']}", token=body["token"])
    assert view["seats"]["red"]["name"] == "Ann"


# -- tokens and what the database keeps ------------------------------------------------------

def test_tokens_and_join_codes_carry_at_least_128_random_bits(api):
    secrets_seen = []
    for _ in range(3):
        _, created = create(api, {"seats": 4})
        secrets_seen += [created["host_token"]]
        for seat, info in created["seats"].items():
            secrets_seen.append(info["join_code"])
            status, body = claim(api, created["id"], seat, info["join_code"])
            secrets_seen.append(body["token"])
    for secret in secrets_seen:
        assert len(secret) >= 22 and url_token_bits(secret) >= 128, secret
    assert len(set(secrets_seen)) == len(secrets_seen)
    # no position of the text is fixed: each of its first 21 characters (126 bits) varies
    for i in range(21):
        assert len({s[i] for s in secrets_seen}) > 4, i


def test_the_database_holds_only_hashes_of_tokens_and_join_codes(api, app):
    rng = random.Random(11)
    _, created = create(api)
    secrets_given = [created["host_token"]] + [i["join_code"] for i in created["seats"].values()]
    tokens = {}
    for seat, info in created["seats"].items():
        _, body = claim(api, created["id"], seat, info["join_code"])
        tokens[seat] = body["token"]
    table = TableGame(api, created["id"], created["host_token"], tokens)
    _, reissued = host(api, table, "POST", "/seats/blue/reissue")
    _, body = claim(api, table.id, "blue", reissued["join_code"])
    table.tokens["blue"] = body["token"]
    secrets_given += list(tokens.values()) + [reissued["join_code"], body["token"]]
    lock_in_random_fleets(table, rng)
    turn = turn_of(table)
    status, _, _ = table.as_seat(turn, "POST", "/moves", choose_move(table.view(turn), rng),
                                 headers={"Idempotency-Key": "k-1"})
    assert status == 201
    store = app.extensions["referee.store"]()
    tables = store.tables()  # every table a club moves is read (the others hold no secret)
    cells = [str(value) for _, _, rows in store.dump() for row in rows for value in row]
    assert {"games", "seats", "events"} <= set(tables)
    everything = "\n".join(cells)
    for secret in secrets_given:
        assert secret not in everything
    # ... while their hashes are there: the scan reads the right database
    assert digest(created["host_token"]) in cells
    assert digest(table.tokens["red"]) in cells and digest(table.tokens["blue"]) in cells


# -- GET /games/{id}: the view, its version and ETag ----------------------------------------

def test_view_has_the_fields_of_api_md_in_every_phase(api):
    table = open_table(api)
    view = table.view("red")
    assert set(view) >= VIEW_FIELDS
    assert view["id"] == table.id and view["you"] == "red" and view["phase"] == "setup"
    assert set(view["seats"]) == {"red", "blue"}
    assert view["seats"]["blue"] == {**view["seats"]["blue"], "name": "Blue", "ready": False,
                                     "bot": None}
    # R11 amended: the order of play is drawn when the game is created
    assert view["turn"] is None and sorted(view["order"]) == ["blue", "red"]
    assert view["reports"] == []
    assert view["disposition"] is None and view["result"] is None
    assert "revealed" not in view
    table_play = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    view = table_play.view("blue")
    assert view["phase"] == "play" and view["you"] == "blue"
    assert view["disposition"] == normal(QUIET)
    assert view["damage"] == {"hit": [], "destroyed": [], "flown": [], "spent": []}
    assert view["forces"] == {"atom-bomber": 0, "bomber": 0, "recon": 0, "salvo": 60}
    assert view["turn"] in ("red", "blue") and sorted(view["order"]) == ["blue", "red"]
    assert "revealed" not in view


def test_version_grows_by_one_with_every_change(api):
    _, created = create(api)
    game_id = created["id"]
    _, first = claim(api, game_id, "red", created["seats"]["red"]["join_code"])
    red = first["token"]

    def version() -> int:
        status, view, _ = api.call("GET", f"{GAMES}/{game_id}", token=red)
        assert status == 200
        return view["version"]

    v = version()
    assert v == 3  # created, tossed (R11 amended: at creation), red joined
    _, body = claim(api, game_id, "blue", created["seats"]["blue"]["join_code"])
    blue = body["token"]
    assert version() == v + 1
    # a draft disposition is the seat's private note, not a change to the game: it
    # replaces the one before and no other seat's version moves
    for token, document in ((red, QUIET), (red, ATTACKER), (blue, QUIET)):
        v = version()
        status, _, _ = api.call("PUT", f"{GAMES}/{game_id}/disposition", document, token=token)
        assert status == 200 and version() == v
    # refusals change nothing
    v = version()
    api.call("PUT", f"{GAMES}/{game_id}/disposition", {"salvoes": 1}, token=red)
    api.call("POST", f"{GAMES}/{game_id}/moves", {"weapon": "salvo"}, token=red)
    api.call("POST", f"{GAMES}/{game_id}/end", token=red)
    claim(api, game_id, "red", created["seats"]["red"]["join_code"])
    assert version() == v
    # locking in puts the disposition in the log and locks it in: two changes
    api.call("POST", f"{GAMES}/{game_id}/ready", token=red)
    assert version() == v + 2
    # the last one in locks in (two changes); the order was drawn at creation (R11 amended)
    status, view, _ = api.call("POST", f"{GAMES}/{game_id}/ready", token=blue)
    assert view["phase"] == "play" and version() == v + 4
    _, hosted, _ = api.call("GET", f"{GAMES}/{game_id}/host", token=created["host_token"])
    assert hosted["version"] == version()
    for _ in range(4):
        v = version()
        turn = api.call("GET", f"{GAMES}/{game_id}", token=red)[1]["turn"]
        status, _, _ = api.call("POST", f"{GAMES}/{game_id}/moves",
                                {"weapon": "salvo", "at": IDLE_SQUARES},
                                token=red if turn == "red" else blue)
        assert status == 201 and version() == v + 1


def test_etag_and_if_none_match(api):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    status, view, headers = table.as_seat("red", "GET")
    etag = headers["ETag"]
    assert status == 200 and etag
    status, body, headers = table.as_seat("red", "GET", headers={"If-None-Match": etag})
    assert status == 304 and body is None and headers["ETag"] == etag
    status, body, _ = table.as_seat("red", "GET",
                                    headers={"If-None-Match": f'"other", {etag}'})
    assert status == 304
    # the tag is the seat's own: another seat's tag does not match
    _, _, blue_headers = table.as_seat("blue", "GET")
    assert blue_headers["ETag"] != etag
    status, _, _ = table.as_seat("blue", "GET", headers={"If-None-Match": etag})
    assert status == 200
    idle_move(table, view["turn"])
    status, after, headers = table.as_seat("red", "GET", headers={"If-None-Match": etag})
    assert status == 200 and after["version"] == view["version"] + 1
    assert headers["ETag"] != etag
    status, _, _ = table.as_seat("red", "GET", headers={"If-None-Match": headers["ETag"]})
    assert status == 304


# -- PUT /games/{id}/disposition ---------------------------------------------------------

def test_disposition_gives_cost_and_warnings(api):
    table = open_table(api)
    status, body, _ = table.as_seat("red", "PUT", "/disposition", ATTACKER)
    assert status == 200
    # a Cruiser and 15 Battleships; 3 Atom Bombers, 6 Bombers, 6 R.P.s and 20 salvoes (R3)
    assert body["cost"] == {"ships": 63, "forces": 74, "total": 137, "unspent": 23}
    assert [w["rule"] for w in body["warnings"]] == ["R4"]
    assert "23" in body["warnings"][0]["message"]
    assert table.view("red")["disposition"] == normal(ATTACKER)
    assert table.view("blue")["disposition"] is None
    full = {**QUIET, "salvoes": 100}
    status, body, _ = table.as_seat("red", "PUT", "/disposition", full)
    assert status == 200 and body["cost"]["unspent"] == 0 and body["warnings"] == []
    assert table.view("red")["disposition"]["salvoes"] == 100


def test_a_refused_disposition_lists_every_problem_with_its_ruling(api):
    table = open_table(api)
    table.as_seat("red", "PUT", "/disposition", QUIET)
    document = {"land": [], "ships": [{"type": "battleship", "at": "C 5", "dir": "across"},
                                      {"type": "cruiser", "at": "G 2", "dir": "down"}],
                "aircraft": [{"type": "bomber", "at": "K 10"}], "guns": [], "salvoes": 8}
    status, body, _ = table.as_seat("red", "PUT", "/disposition", document)
    errors = assert_errors(status, body, 422)
    rules = sorted(e["rule"] for e in errors)
    assert rules == ["R4", "R4", "R8", "R9"], errors
    touching = next(e for e in errors if e["rule"] == "R8")
    assert touching["squares"] == ["G 4", "F 5"]
    assert "corner" in touching["message"]
    # nothing was stored: the earlier draft stands
    assert table.view("red")["disposition"] == normal(QUIET)


def test_no_disposition_after_locking_in(api):
    table = open_table(api)
    table.as_seat("red", "PUT", "/disposition", QUIET)
    table.as_seat("red", "POST", "/ready")
    status, body, _ = table.as_seat("red", "PUT", "/disposition", ATTACKER)
    assert_errors(status, body, 409, rule="R10")
    assert table.view("red")["disposition"] == normal(QUIET)


# -- POST /games/{id}/ready ---------------------------------------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_toss_is_recorded_from_the_start_and_play_starts_when_all_are_ready(api, seats):
    table = open_table(api, seats)
    status, body, _ = table.as_seat("red", "POST", "/ready")
    assert_errors(status, body, 409, rule="R10")
    for seat in table.tokens:
        table.as_seat(seat, "PUT", "/disposition", QUIET)
    drawn = table.view("red")["order"]  # R11 amended: drawn when the game was created
    for i, seat in enumerate(table.tokens):
        _, record, _ = table.as_seat(seat, "GET", "/record")
        assert record["toss"]["order"] == drawn and record["moves"] == []
        status, view, _ = table.as_seat(seat, "POST", "/ready")
        assert status == 200 and view["seats"][seat]["ready"] is True
        last = i == seats - 1
        assert view["phase"] == ("play" if last else "setup")
    status, body, _ = table.as_seat("red", "POST", "/ready")
    assert_errors(status, body, 409, rule="R10")
    view = table.view("blue")
    assert view["order"] == drawn and view["turn"] == view["order"][0]
    _, record, _ = table.as_seat("blue", "GET", "/record")
    toss = record["toss"]
    assert toss["order"] == view["order"]
    assert toss["order"] == toss_order(list(table.tokens), toss["seed"])


# -- POST /games/{id}/moves ------------------------------------------------------------------

def test_a_move_returns_the_attackers_copy_of_the_report(api):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    red_to_move(table)
    n = len(table.view("red")["reports"])
    # a bomber over the first Battleship of QUIET (A 15-D 15): the 3 x 3 at B 15 hits 3 squares
    status, report, _ = table.as_seat("red", "POST", "/moves",
                                      {"weapon": "bomber", "from": "A 2", "at": "B 15"})
    assert status == 201
    assert report["n"] == n + 1 and report["by"] == "red" and report["target"] == "blue"
    assert report["weapon"] == "bomber" and report["at"] == ["B 15"]
    assert report["from"] == "A 2" and report["shot_down"] is False
    assert report["hits"] == [{"ship": "battleship", "new_hits": 3, "sunk": False}]
    assert report["destroyed"] == {"atom-bomber": 0, "bomber": 0, "recon": 0, "aa-gun": 0}
    assert report["shots"] is None and report["seen"] is None
    assert "squares_hit" not in report and "gun" not in report
    assert table.view("red")["reports"][-1] == report
    theirs = table.view("blue")["reports"][-1]
    assert "from" not in theirs and theirs["squares_hit"] == ["A 15", "B 15", "C 15"]
    assert theirs["gun"] is None
    assert table.view("blue")["damage"]["hit"] == ["A 15", "B 15", "C 15"]
    assert table.view("red")["damage"]["flown"] == ["A 2"]
    assert table.view("red")["forces"]["bomber"] == 5


def test_a_salvo_reports_each_shot(api):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    red_to_move(table)
    status, report, _ = table.as_seat("red", "POST", "/moves",
                                      {"weapon": "salvo", "at": ["a15", "B15", "k 10"],
                                       "target": "blue"})
    assert status == 201 and report["at"] == ["A 15", "B 15", "K 10"]
    assert report["shots"] == [
        {**report["shots"][0], "at": "A 15", "result": "battleship", "new": True,
         "sunk": False},
        {**report["shots"][1], "at": "B 15", "result": "battleship", "new": True,
         "sunk": False},
        {**report["shots"][2], "at": "K 10", "result": None, "new": False, "sunk": False},
    ]
    assert report["hits"] == [{"ship": "battleship", "new_hits": 2, "sunk": False}]


def test_a_move_out_of_turn_is_409(api):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    waiting = "blue" if turn_of(table) == "red" else "red"
    status, body, _ = table.as_seat(waiting, "POST", "/moves",
                                    {"weapon": "salvo", "at": IDLE_SQUARES})
    assert_errors(status, body, 409, rule="R14")
    setup = open_table(api)
    status, body, _ = setup.as_seat("red", "POST", "/moves",
                                    {"weapon": "salvo", "at": IDLE_SQUARES})
    assert_errors(status, body, 409, rule="R14")


@pytest.mark.parametrize("move, rule, field", [
    ({"weapon": "bomber", "from": "K 10", "at": "B 15"}, "R13", "from"),
    ({"weapon": "recon", "from": "A 2", "at": "B 15"}, "R13", "from"),
    ({"weapon": "bomber", "from": "A 2", "at": "V 15"}, "R1", "at[0]"),
    ({"weapon": "bomber", "from": "A 2", "at": "B 15", "target": "red"}, "R23", "target"),
    ({"weapon": "bomber", "from": "A 2", "at": "B 15", "target": "green"}, "R23", "target"),
    ({"weapon": "salvo", "at": ["A 1", "A 1", "B 1"]}, "R12", "at"),
    ({"weapon": "salvo", "at": ["A 1", "B 1"]}, "R12", "at"),
    ({"weapon": "salvo", "at": ["A 1", "B 1", "C 1"], "from": "A 2"}, "R5", "from"),
    ({"weapon": "torpedo", "at": "A 1"}, "R12", "weapon"),
    ({"weapon": "salvo", "at": ["A 1", "B 1", "C 1"], "speed": 3}, "R12", "speed"),
])
def test_an_illegal_move_is_422_naming_the_ruling(api, move, rule, field):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    red_to_move(table)
    before = table.view("red")
    status, body, _ = table.as_seat("red", "POST", "/moves", move)
    assert_errors(status, body, 422, rule=rule, field=field)
    after = table.view("red")
    assert after["version"] == before["version"] and after["turn"] == "red"


def test_an_aircraft_flies_once(api):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    red_to_move(table)
    move = {"weapon": "recon", "from": "A 3", "at": "K 10"}
    status, report, _ = table.as_seat("red", "POST", "/moves", move)
    assert status == 201 and len(report["seen"]) == 9
    idle_move(table, "blue")
    status, body, _ = table.as_seat("red", "POST", "/moves", move)
    assert_errors(status, body, 422, rule="R13", field="from")


# -- GET /games/{id}/record ----------------------------------------------------------------

def test_the_record_holds_the_toss_and_each_seats_copies(api):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    red_to_move(table)
    table.as_seat("red", "POST", "/moves", {"weapon": "bomber", "from": "B 2", "at": "B 17"})
    for seat in ("red", "blue"):
        status, record, _ = table.as_seat(seat, "GET", "/record")
        assert status == 200 and record["you"] == seat and record["phase"] == "play"
        assert record["toss"]["order"] == table.view(seat)["order"]
        assert record["moves"] == table.view(seat)["reports"]
        assert record["result"] is None
    _, red_record, _ = table.as_seat("red", "GET", "/record")
    _, blue_record, _ = table.as_seat("blue", "GET", "/record")
    assert "squares_hit" not in red_record["moves"][-1] and "from" in red_record["moves"][-1]
    assert "from" not in blue_record["moves"][-1] and "squares_hit" in blue_record["moves"][-1]
    table.as_seat("red", "POST", "/resign")
    _, record, _ = table.as_seat("blue", "GET", "/record")
    assert record["phase"] == "over" and record["result"]["winners"] == ["blue"]
    assert record["moves"][-1]["from"] == "B 2" and "squares_hit" in record["moves"][-1]


# -- POST /games/{id}/end and /resign -------------------------------------------------------

def test_end_by_agreement_needs_every_player(api):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    status, view, _ = table.as_seat("red", "POST", "/end")
    assert status == 200 and view["phase"] == "play"
    assert view["seats"]["red"]["agreed_to_end"] is True
    # a move in between and the agreement must be given again (R14: every player agrees)
    idle_move(table, turn_of(table))
    status, view, _ = table.as_seat("blue", "POST", "/end")
    assert status == 200 and view["phase"] == "play"
    status, view, _ = table.as_seat("red", "POST", "/end")
    assert status == 200 and view["phase"] == "over" and view["turn"] is None
    result = view["result"]
    assert result["reason"] == "agreed"
    assert result["scores"] == {"red": 63, "blue": 60}
    assert result["winner"] == "red" and result["winners"] == ["red"]
    assert set(view["revealed"]) == {"blue"}
    assert view["revealed"]["blue"]["disposition"] == normal(QUIET)
    status, body, _ = table.as_seat("blue", "POST", "/end")
    assert_errors(status, body, 409, rule="R14")
    status, body, _ = table.as_seat(turn_of(table) or "red", "POST", "/moves",
                                    {"weapon": "salvo", "at": IDLE_SQUARES})
    assert_errors(status, body, 409, rule="R14")


def test_end_and_resign_only_in_play(api):
    table = open_table(api)
    for tail in ("/end", "/resign"):
        status, body, _ = table.as_seat("red", "POST", tail)
        assert_errors(status, body, 409, rule="R14")


def test_the_resigning_side_loses_whatever_the_scores(api):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    status, view, _ = table.as_seat("red", "POST", "/resign")
    assert status == 200 and view["phase"] == "over"
    result = view["result"]
    assert result["reason"] == "resigned" and result["scores"] == {"red": 63, "blue": 60}
    assert result["winner"] == "blue" and result["winners"] == ["blue"]
    assert table.view("blue")["result"] == result
    status, body, _ = table.as_seat("blue", "POST", "/resign")
    assert_errors(status, body, 409, rule="R14")


def test_resigning_in_alliances_loses_for_both_allies(api):
    table = table_in_play(api, {s: QUIET for s in ("red", "blue", "green", "gold")},
                          alliances=True)
    status, view, _ = table.as_seat("green", "POST", "/resign")
    assert status == 200
    assert view["result"]["winners"] == ["blue", "gold"] and view["result"]["winner"] is None


# -- the host (R10) -------------------------------------------------------------------------

def test_host_status_shows_seats_and_clock_but_no_disposition(api):
    table = open_table(api, 3)
    table.as_seat("red", "PUT", "/disposition", ATTACKER)
    table.as_seat("red", "POST", "/ready")
    status, hosted = host(api, table, "GET", "/host")
    assert status == 200
    assert hosted["id"] == table.id and hosted["phase"] == "setup"
    assert {k: hosted["seats"]["red"][k] for k in ("name", "ready", "forfeited")} == {
        "name": "Red", "ready": True, "forfeited": False}
    assert hosted["seats"]["blue"]["ready"] is False
    assert hosted["clock"]["minutes"] == 20 and hosted["turn"] is None
    assert hosted["result"] is None and hosted["version"] == table.view("red")["version"]
    text = repr(hosted)
    assert "disposition" not in text and "A 2" not in text and "H 1" not in text


def test_host_gives_more_time(api):
    table = open_table(api)
    _, before = host(api, table, "GET", "/host")
    status, hosted = host(api, table, "POST", "/clock", {"minutes": 5})
    assert status == 200 and hosted["clock"]["minutes"] == 25
    assert hosted["clock"]["deadline"] == pytest.approx(before["clock"]["deadline"] + 300)
    assert table.view("blue")["clock"]["minutes"] == 25
    for body in ({"minutes": 0}, {"minutes": "5"}, {"minutes": 2.5}, {},
                 {"minutes": 24 * 60}):
        status, data = host(api, table, "POST", "/clock", body)
        assert_errors(status, data, 422, rule="R10", field="minutes")
    started = table_in_play(api, {"red": QUIET, "blue": QUIET})
    status, data = host(api, started, "POST", "/clock", {"minutes": 5})
    assert_errors(status, data, 409, rule="R10")


def test_reissue_revokes_the_old_token(api):
    table = open_table(api)
    table.as_seat("blue", "PUT", "/disposition", QUIET)
    old_token = table.tokens["blue"]
    status, body = host(api, table, "POST", "/seats/blue/reissue")
    assert status == 200 and body["seat"] == "blue"
    assert body["join_code"] and body["join_code"] in body["join_url"]
    status, data, _ = api.call("GET", table.path(), token=old_token)
    assert_errors(status, data, 401, field="Authorization")
    status, data = claim(api, table.id, "blue", "an old code")
    assert_errors(status, data, 403)
    status, data = claim(api, table.id, "blue", body["join_code"], "Bea")
    assert status == 200 and data["token"] != old_token
    status, view, _ = api.call("GET", table.path(), token=data["token"])
    assert status == 200 and view["you"] == "blue"
    assert view["disposition"] is None  # R24: the draft is not handed to the seat's next holder
    status, data = claim(api, table.id, "blue", body["join_code"], "Eve")
    assert_errors(status, data, 409)
    status, data = host(api, table, "POST", "/seats/gold/reissue")
    assert_errors(status, data, 404, field="seat")


def test_forfeit_is_refused_before_the_deadline_and_allowed_after(api, monkeypatch):
    status, created = create(api, {"seats": 3, "disposition_minutes": 1})
    tokens = {}
    for seat, info in created["seats"].items():
        tokens[seat] = claim(api, created["id"], seat, info["join_code"])[1]["token"]
    table = TableGame(api, created["id"], created["host_token"], tokens)
    for seat in ("red", "blue"):
        table.as_seat(seat, "PUT", "/disposition", QUIET)
        table.as_seat(seat, "POST", "/ready")
    status, body = host(api, table, "POST", "/seats/green/forfeit")
    assert_errors(status, body, 409, rule="R10")
    later = time.time() + 61
    monkeypatch.setattr(service.clock, "now", lambda: later)
    status, body = host(api, table, "POST", "/seats/red/forfeit")  # red has locked in
    assert_errors(status, body, 409, rule="R10")
    status, hosted = host(api, table, "POST", "/seats/green/forfeit")
    assert status == 200 and hosted["seats"]["green"]["forfeited"] is True
    # the others were all ready: play starts at once; R11 amended: the order keeps its draw
    # and the forfeited seat is passed over
    assert hosted["phase"] == "play"
    view = table.view("red")
    assert sorted(view["order"]) == ["blue", "green", "red"]
    assert view["seats"]["green"]["forfeited"] and view["turn"] != "green"
    status, body, _ = table.as_seat("green", "PUT", "/disposition", QUIET)
    assert_errors(status, body, 409)
    status, body = host(api, table, "POST", "/seats/blue/forfeit")
    assert_errors(status, body, 409, rule="R10")


def test_forfeiting_one_of_two_ends_the_game(api, monkeypatch):
    status, created = create(api, {"disposition_minutes": 1})
    red = claim(api, created["id"], "red", created["seats"]["red"]["join_code"])[1]["token"]
    api.call("PUT", f"{GAMES}/{created['id']}/disposition", QUIET, token=red)
    later = time.time() + 120
    monkeypatch.setattr(service.clock, "now", lambda: later)
    status, hosted, _ = api.call("POST", f"{GAMES}/{created['id']}/seats/blue/forfeit",
                                 token=created["host_token"])
    assert status == 200 and hosted["phase"] == "over"
    assert hosted["result"]["winners"] == ["red"] and hosted["result"]["reason"] == "forfeit"


# -- whole games ----------------------------------------------------------------------------

@pytest.mark.parametrize("seats, alliances, seed", [(2, False, 1), (3, False, 2),
                                                    (4, True, 3)])
def test_complete_games(api, seats, alliances, seed):
    rng = random.Random(seed)
    table = open_table(api, seats, alliances=alliances)
    lock_in_random_fleets(table, rng)
    final = play_random_game(table, rng)
    assert final["phase"] == "over" and final["turn"] is None
    result = final["result"]
    assert result["reason"] == "exhausted"
    for seat in table.tokens:
        view = table.view(seat)
        assert view["result"] == result
        assert view["forces"] == {"atom-bomber": 0, "bomber": 0, "recon": 0, "salvo": 0}
        assert set(view["revealed"]) == set(table.tokens) - {seat}
        for other, shown in view["revealed"].items():
            assert shown["disposition"] == normal(table.dispositions[other])
            assert shown["damage"] == table.view(other)["damage"]
        assert all("squares_hit" in r and "gun" in r and not r.get("withheld")
                   for r in view["reports"])
        assert all(r["from"] is not None for r in view["reports"] if r["weapon"] != "salvo")
        _, record, _ = table.as_seat(seat, "GET", "/record")
        assert record["moves"] == view["reports"] and record["result"] == result
    # the scores (R22) follow from the revealed fleets: lengths of ships not sunk
    sides = [tuple(s["seats"]) for s in result["sides"]]
    assert sorted(s for side in sides for s in side) == sorted(table.tokens)
    if alliances:
        assert sides == [("red", "green"), ("blue", "gold")]
    totals = {side: sum(result["scores"][s] for s in side) for side in sides}
    best = max(totals.values())
    top = [side for side in sides if totals[side] == best]
    assert result["winners"] == (list(top[0]) if len(top) == 1 else [])
    assert result["winner"] == (result["winners"][0] if len(result["winners"]) == 1 else None)


# -- Idempotency-Key -------------------------------------------------------------------------

def test_the_same_idempotency_key_applies_a_move_once(api):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    red_to_move(table)
    before = table.view("red")
    key = {"Idempotency-Key": "move-7f3a"}
    move = {"weapon": "bomber", "from": "C 2", "at": "B 17"}
    status, first, _ = table.as_seat("red", "POST", "/moves", move, headers=key)
    assert status == 201
    middle = table.view("red")
    assert middle["version"] == before["version"] + 1 and middle["turn"] == "blue"
    status, again, _ = table.as_seat("red", "POST", "/moves", move, headers=key)
    assert status == 201 and again == first  # not 409 although it is blue's turn now
    after = table.view("red")
    assert after["version"] == middle["version"]
    assert len(after["reports"]) == len(before["reports"]) + 1
    assert after["forces"]["bomber"] == before["forces"]["bomber"] - 1
    assert table.view("blue")["damage"]["hit"] == ["A 17", "B 17", "C 17"]


def test_an_idempotency_key_reused_for_a_different_move_is_refused(api):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    red_to_move(table)
    key = {"Idempotency-Key": "once"}
    status, _, _ = table.as_seat("red", "POST", "/moves",
                                 {"weapon": "bomber", "from": "C 2", "at": "B 17"}, headers=key)
    assert status == 201
    version = table.view("red")["version"]
    status, body, _ = table.as_seat("red", "POST", "/moves",
                                    {"weapon": "bomber", "from": "D 2", "at": "B 17"},
                                    headers=key)
    assert_errors(status, body, 422)
    assert body["errors"][0]["field"] == "Idempotency-Key"
    assert table.view("red")["version"] == version


def test_an_idempotency_key_is_remembered_only_for_an_applied_move(api):
    table = table_in_play(api, {"red": ATTACKER, "blue": QUIET})
    red_to_move(table)
    key = {"Idempotency-Key": "k"}
    status, body, _ = table.as_seat("red", "POST", "/moves",
                                    {"weapon": "bomber", "from": "K 10", "at": "B 17"},
                                    headers=key)
    assert_errors(status, body, 422, rule="R13")
    status, report, _ = table.as_seat("red", "POST", "/moves",
                                      {"weapon": "bomber", "from": "C 2", "at": "B 17"},
                                      headers=key)
    assert status == 201 and report["from"] == "C 2"
    # keys are each seat's own: blue's "k" is a new move
    status, theirs, _ = table.as_seat("blue", "POST", "/moves",
                                      {"weapon": "salvo", "at": IDLE_SQUARES}, headers=key)
    assert status == 201 and theirs["by"] == "blue" and theirs["n"] == report["n"] + 1


@pytest.fixture
def database(engine_database):
    """Every test of the API runs on both stores: the SQLite file and PostgreSQL."""
    return engine_database
