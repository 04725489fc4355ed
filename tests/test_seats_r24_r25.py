"""Seats and absent players: R24 (a seat belongs to its player; the host can neither take it
nor learn anything of it; his seat survives a lost phone) and R25 (the move clock and the
computer standing in for a player who walked away).

Times are moved with the ``clock`` fixture, which sets the referee's clock (``service.clock.now``),
so no test sleeps through a move clock.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from api_support import assert_errors, squares_in, table_in_play
from apiclient import Api, FlaskTransport, TableGame, open_table
from helpers import ATTACKER, QUIET
from pages_support import FLEETS as PAGE_FLEETS
from pages_support import Page, Phone, join, make_app, move, set_up, view_of
from pages_support import create_game as create_on_page
from pages_support import fleet_squares as page_fleet_squares
from pages_support import open_table as open_page_table

from referee import service
from referee.naval_war import replay, view_for
from referee.naval_war.club import club_entry, club_records
from referee.states import replayed

GAMES = "/api/v1/games"
RECOVERY = re.compile(r"[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}")


class Clock:
    """The referee's clock, moved by the test."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, minutes: float) -> None:
        self.offset += 60 * minutes


@pytest.fixture
def clock(monkeypatch) -> Clock:
    ticking = Clock()
    monkeypatch.setattr(service.clock, "now", ticking)
    return ticking


def host(table: TableGame, method: str, tail: str, body=None, token: str | None = None):
    status, data, _ = table.api.call(method, table.path(tail), body,
                                     token=token or table.host_token)
    return status, data


def create(api: Api, body: dict) -> tuple[int, dict]:
    status, data, _ = api.call("POST", GAMES, body)
    return status, data


def join_api(api: Api, game_id: str, seat: str, code: str, name: str | None = None):
    status, data, _ = api.call("POST", f"{GAMES}/{game_id}/seats/{seat}",
                               {"join_code": code, "name": name or seat.title()})
    return status, data


def clocked_table(api: Api, minutes: int = 5, fleets: dict | None = None) -> TableGame:
    """Two players in play with a move clock of ``minutes`` (R25)."""
    status, created = create(api, {"move_minutes": minutes})
    assert status == 201, created
    tokens = {}
    for seat, info in created["seats"].items():
        status, data = join_api(api, created["id"], seat, info["join_code"])
        assert status == 200, data
        tokens[seat] = data["token"]
    table = TableGame(api, created["id"], created["host_token"], tokens)
    for seat, document in (fleets or {"red": ATTACKER, "blue": QUIET}).items():
        assert table.as_seat(seat, "PUT", "/disposition", document)[0] == 200
        table.dispositions[seat] = document
    for seat in table.tokens:
        assert table.as_seat(seat, "POST", "/ready")[0] == 200
    return table


def salvo_move(view: dict) -> dict:
    """A salvo at three squares this seat has not fired at yet."""
    fired = {sq for r in view["reports"] if r["by"] == view["you"] for sq in r["at"]}
    free = [f"{c} {r}" for r in range(1, 22) for c in "ABCDEFGHIJKLMNOPQRSTU"
            if f"{c} {r}" not in fired]
    return {"weapon": "salvo", "at": free[:3]}


def play_turn(table: TableGame, seat: str) -> dict:
    status, report, _ = table.as_seat(seat, "POST", "/moves", salvo_move(table.view(seat)))
    assert status == 201, report
    return report


def disposition_squares(document: dict) -> set[str]:
    """Every square a disposition names, as written in its document (R1)."""
    return squares_in(document)


# -- the host cannot take over a seat (R24) -----------------------------------------------

def test_reissue_is_refused_once_the_seat_has_locked_in(api):
    table = open_table(api)
    table.as_seat("blue", "PUT", "/disposition", QUIET)
    table.as_seat("blue", "POST", "/ready")
    status, body = host(table, "POST", "/seats/blue/reissue")
    assert_errors(status, body, 409, rule="R24", field="seat")
    assert table.view("blue")["you"] == "blue"  # the seat's token still works


def test_reissue_is_refused_in_play_and_after_the_end(api):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    for seat in ("red", "blue"):
        status, body = host(table, "POST", f"/seats/{seat}/reissue")
        assert_errors(status, body, 409, rule="R24")
    assert table.as_seat("red", "POST", "/resign")[0] == 200
    status, body = host(table, "POST", "/seats/blue/reissue")
    assert_errors(status, body, 409, rule="R24")
    assert table.view("blue")["phase"] == "over"


def test_reissue_is_refused_for_a_computers_seat(api):
    status, created = create(api, {"bots": {"blue": "captain"}})
    assert status == 201
    status, data = join_api(api, created["id"], "red", created["seats"]["red"]["join_code"])
    assert status == 200
    table = TableGame(api, created["id"], created["host_token"], {"red": data["token"]})
    status, body = host(table, "POST", "/seats/blue/reissue")
    assert_errors(status, body, 409, rule="R24")
    # the computer's seat holds no claimable code: no join, no recovery code takes it
    status, body = join_api(api, table.id, "blue", "anything")
    assert status in (403, 409)
    status, body, _ = api.call("POST", table.path("/seats/blue/recover"),
                               {"recovery_code": "0000-0000-0000"})
    assert_errors(status, body, 403, rule="R24")


def test_the_host_page_cannot_reissue_a_seat_in_play(tmp_path):
    app = make_app(tmp_path)
    table = open_page_table(app)
    set_up(table, PAGE_FLEETS)
    red, blue = table.phones["red"], table.phones["blue"]
    base = f"/games/{table.id}"
    page = red.get(base + "/host")
    assert page.status_code == 200 and "New join link" not in page.text
    token = Page(page.text).meta_csrf()
    response = red.post(base + "/host/reissue/blue", data={"csrf_token": token})
    assert "R24" in " ".join(red.flashes(response))
    assert blue.get(base).status_code == 200  # Blue still holds his seat


def test_r24_a_reissued_seat_hands_no_draft_or_name_to_its_next_holder(api):
    table = open_table(api)
    table.as_seat("blue", "PUT", "/disposition", QUIET)
    status, body = host(table, "POST", "/seats/blue/reissue")
    assert status == 200
    status, data = join_api(api, table.id, "blue", body["join_code"], "Mallory")
    assert status == 200
    view = table.api.call("GET", table.path(), token=data["token"])[1]
    assert view["disposition"] is None and view["seats"]["blue"]["name"] == "Mallory"


def held_secrets(document: object) -> list:
    """Every disposition, draft or salt a JSON document holds (not null)."""
    if isinstance(document, dict):
        return [v for k, v in document.items() if k in ("disposition", "salt") and v] + [
            s for v in document.values() for s in held_secrets(v)]
    if isinstance(document, list):
        return [s for v in document for s in held_secrets(v)]
    return []


def host_responses(table: TableGame) -> list[object]:
    """Every answer the host token gets in this phase: its status and every power tried."""
    got = []
    for method, tail, body in (("GET", "/host", None), ("POST", "/clock", {"minutes": 1}),
                               ("POST", "/seats/blue/reissue", None),
                               ("POST", "/seats/red/reissue", None),
                               ("POST", "/seats/blue/forfeit", None),
                               ("GET", "", None), ("GET", "/record", None),
                               ("GET", "/export", None), ("GET", "/postmortem", None),
                               ("GET", "/charts.pdf", None)):
        status, data, _ = table.api.call(method, table.path(tail), body,
                                         token=table.host_token)
        got.append(data)
        if tail.endswith("/reissue") and status == 200:  # the host takes the seat himself
            seat = tail.split("/")[2]
            status, joined = join_api(table.api, table.id, seat, data["join_code"])
            table.tokens[seat] = joined["token"]
            got.append(table.api.call("GET", table.path(), token=joined["token"])[1])
    return got


def test_the_host_token_and_host_pages_never_reveal_a_disposition(api, tmp_path):
    table = open_table(api)
    for seat, document in (("red", ATTACKER), ("blue", QUIET)):
        table.as_seat(seat, "PUT", "/disposition", document)
    hidden = disposition_squares(ATTACKER) | disposition_squares(QUIET)
    seen = host_responses(table)  # setup, drafts submitted
    for seat in ("red", "blue"):
        table.as_seat(seat, "PUT", "/disposition", ATTACKER if seat == "red" else QUIET)
        assert table.as_seat(seat, "POST", "/ready")[0] == 200
    seen += host_responses(table)  # in play
    for got in seen:
        assert not squares_in(got) & hidden, got
        assert not held_secrets(got), got
    # the pages: the host page at every phase, and its QR codes, name no square of a fleet
    app = make_app(tmp_path)
    page_table = open_page_table(app)
    red = page_table.phones["red"]
    base = f"/games/{page_table.id}"
    hidden = page_fleet_squares(PAGE_FLEETS["red"]) | page_fleet_squares(PAGE_FLEETS["blue"])
    texts = [red.get(base + "/host").text]
    set_up(page_table, PAGE_FLEETS)
    texts.append(red.get(base + "/host").text)
    for text in texts:
        assert not set(re.findall(r"\b[A-U] \d{1,2}\b", text)) & hidden
        assert "page-data" not in text


def test_a_player_token_is_not_the_host_and_the_host_token_plays_no_seat(api):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    for tail in ("", "/record", "/moves", "/end", "/resign", "/play-on",
                 "/seats/blue/stand-in", "/charts.pdf", "/export"):
        method = "GET" if tail in ("", "/record", "/charts.pdf", "/export") else "POST"
        status, body, _ = api.call(method, table.path(tail), {"weapon": "salvo"},
                                   token=table.host_token)
        assert_errors(status, body, 403, field="Authorization")
    for tail, body in (("/host/handover", {"seat": "red"}), ("/seats/blue/reissue", None)):
        status, data, _ = api.call("POST", table.path(tail), body, token=table.tokens["red"])
        assert_errors(status, data, 403, field="Authorization")


# -- a seat survives a lost phone (R24) ----------------------------------------------------

def test_r24_joining_gives_a_recovery_code_read_aloud_stored_only_as_a_hash(api, app):
    status, created = create(api, {})
    codes = []
    for seat, info in created["seats"].items():
        status, data = join_api(api, created["id"], seat, info["join_code"])
        assert status == 200 and set(data) == {"token", "recovery_code"}
        assert RECOVERY.fullmatch(data["recovery_code"]), data["recovery_code"]
        codes.append(data["recovery_code"])
    assert len(service.RECOVERY_ALPHABET) ** 12 >= 2 ** 60  # 60 bits
    assert len(set(codes)) == 2
    files = [Path(app.config["DATABASE"] + suffix) for suffix in ("", "-wal")]
    database = b"".join(f.read_bytes() for f in files if f.exists())
    for code in codes:
        for form in (code, code.replace("-", "")):
            assert form.encode() not in database


def test_r24_the_recovery_code_moves_the_seat_and_logs_the_old_device_out(api):
    status, created = create(api, {})
    game_id = created["id"]
    _, red = join_api(api, game_id, "red", created["seats"]["red"]["join_code"])
    _, blue = join_api(api, game_id, "blue", created["seats"]["blue"]["join_code"])
    written = blue["recovery_code"].lower().replace("-", " ").replace("0", "o")  # as read aloud
    status, moved, _ = api.call("POST", f"{GAMES}/{game_id}/seats/blue/recover",
                                {"recovery_code": written})
    assert status == 200 and set(moved) == {"token", "recovery_code"}
    assert moved["recovery_code"] != blue["recovery_code"]
    status, view, _ = api.call("GET", f"{GAMES}/{game_id}", token=moved["token"])
    assert status == 200 and view["you"] == "blue"
    status, body, _ = api.call("GET", f"{GAMES}/{game_id}", token=blue["token"])
    assert_errors(status, body, 401)  # the old phone is logged out
    status, body, _ = api.call("POST", f"{GAMES}/{game_id}/seats/blue/recover",
                               {"recovery_code": blue["recovery_code"]})
    assert_errors(status, body, 409, rule="R24")  # the old code is spent (a double tap)
    assert "has just moved the Blue seat" in body["errors"][0]["message"]
    # a seat's code moves only that seat
    status, body, _ = api.call("POST", f"{GAMES}/{game_id}/seats/red/recover",
                               {"recovery_code": moved["recovery_code"]})
    assert_errors(status, body, 403, rule="R24")
    for bad in ({}, {"recovery_code": 7}, {"recovery_code": "x" * 65}):
        status, body, _ = api.call("POST", f"{GAMES}/{game_id}/seats/red/recover", bad)
        assert_errors(status, body, 400, field="recovery_code")
    status, body, _ = api.call("POST", f"{GAMES}/{game_id}/seats/gold/recover",
                               {"recovery_code": "x"})
    assert_errors(status, body, 404)


def test_r24_wrong_recovery_codes_are_slowed_down_per_client_and_the_right_code_works(
        client, clock):
    api = Api(FlaskTransport(client))
    status, created = create(api, {})
    game_id = created["id"]
    _, blue = join_api(api, game_id, "blue", created["seats"]["blue"]["join_code"])
    path = f"{GAMES}/{game_id}/seats/blue/recover"

    def guess(code: str, address: str) -> tuple[int, dict]:
        response = client.post(path, json={"recovery_code": code},
                               environ_base={"REMOTE_ADDR": address})
        return response.status_code, response.get_json()

    for _ in range(service.RECOVER_FREE_GUESSES):
        status, body = guess("AAAA-AAAA-AAAA", "10.0.0.66")
        assert_errors(status, body, 403, rule="R24")
    # now every wrong guess of that client must wait, and the waits grow
    status, body = guess("AAAA-AAAA-AAAA", "10.0.0.66")
    assert_errors(status, body, 429, field="recovery_code", rule="R24")
    clock.advance(1)
    assert guess("AAAA-AAAA-AAAA", "10.0.0.66")[0] == 403
    assert guess("AAAA-AAAA-AAAA", "10.0.0.66")[0] == 429
    # another client's wrong guess is its own first; the right code works at once, from
    # anywhere, the guesser's address included (60 bits need no wait to stay out of reach)
    assert guess("BBBB-BBBB-BBBB", "10.0.0.7")[0] == 403
    status, moved = guess(blue["recovery_code"], "10.0.0.66")
    assert status == 200, moved
    # the same right code tapped twice: the second is answered, not counted as a guess
    for _ in range(service.RECOVER_FREE_GUESSES + 2):
        status, body = guess(blue["recovery_code"], "10.0.0.9")
        assert_errors(status, body, 409, rule="R24")
    assert guess("CCCC-CCCC-CCCC", "10.0.0.9")[0] == 403
    clock.advance(service.DOUBLE_TAP_S)
    assert guess(blue["recovery_code"], "10.0.0.9")[0] == 403  # spent long ago: a guess now


def test_r24_the_join_page_shows_the_code_once_and_recovers_a_lost_phone(tmp_path):
    app = make_app(tmp_path)
    red = Phone(app, "red")
    game_id, links, host_page = create_on_page(red)
    assert "Print / write this down" in host_page.text
    red_code = RECOVERY.search(host_page.text).group(0)
    assert not RECOVERY.search(red.get(f"/games/{game_id}/host").text)  # shown once
    blue = Phone(app, "blue")
    joined = join(blue, links["blue"], "Bob")
    assert joined.request.path == f"/games/{game_id}"
    code = RECOVERY.search(joined.text).group(0)
    assert "Print / write this down" in joined.text
    assert not RECOVERY.search(blue.get(f"/games/{game_id}").text)
    # Blue's phone dies; on a new phone the join page offers the recovery code
    new = Phone(app, "blue's new phone")
    page = new.get(path_of_link(links["blue"]))
    assert "I had this seat: enter your recovery code" in page.text
    wrong = new.submit(path_of_link(links["blue"]), f"/games/{game_id}/recover",
                       {"recovery_code": "AAAA-AAAA-AAAA"})
    assert wrong.status_code == 403 and "R24" in wrong.text
    moved = new.submit(path_of_link(links["blue"]), f"/games/{game_id}/recover",
                       {"recovery_code": code})
    assert moved.request.path == f"/games/{game_id}"
    fresh = RECOVERY.search(moved.text).group(0)
    assert fresh != code and "Your budget" in moved.text
    old = blue.get(f"/games/{game_id}", headers={"Accept": "text/html"})
    assert old.status_code == 403 and "recovery code" in old.text
    # the host recovers too, and hosting follows his seat (R24)
    red_new = Phone(app, "red's new phone")
    moved = red_new.submit(f"/games/{game_id}/recover", f"/games/{game_id}/recover",
                           {"seat": "red", "recovery_code": red_code})
    assert moved.request.path == f"/games/{game_id}"
    assert red_new.get(f"/games/{game_id}/host").status_code == 200
    assert red.get(f"/games/{game_id}/host").status_code == 403


def path_of_link(link: str) -> str:
    return link.split("://", 1)[1].split("/", 1)[1].join(["/", ""])


def test_r24_hosting_can_be_handed_to_another_player(api):
    table = open_table(api, 3)
    status, body = host(table, "POST", "/host/handover", {"seat": "blue"})
    assert status == 200 and body["host_seat"] == "blue"
    status, body = host(table, "GET", "/host")  # the old host token is spent
    assert_errors(status, body, 401)
    status, hosted = host(table, "GET", "/host", token=table.tokens["blue"])
    assert status == 200 and "disposition" not in repr(hosted)
    assert table.view("blue")["you"] == "blue"  # Blue still plays
    status, body = host(table, "POST", "/seats/blue/reissue", token=table.tokens["blue"])
    assert_errors(status, body, 409, rule="R24")  # the host's own seat
    status, body = host(table, "POST", "/seats/green/reissue", token=table.tokens["blue"])
    assert status == 200
    status, body = host(table, "POST", "/host/handover", {"seat": "green"},
                        token=table.tokens["blue"])
    assert_errors(status, body, 409, rule="R24")  # Green's seat is not held now
    for bad in ({}, {"seat": 3}):
        status, body = host(table, "POST", "/host/handover", bad, token=table.tokens["blue"])
        assert_errors(status, body, 400, field="seat")
    status, body = host(table, "POST", "/host/handover", {"seat": "red"},
                        token=table.tokens["blue"])
    assert status == 200 and body["host_seat"] == "red"
    status, body = host(table, "GET", "/host", token=table.tokens["blue"])
    assert_errors(status, body, 403)


def test_r24_make_blue_the_host_on_the_host_page(tmp_path):
    app = make_app(tmp_path)
    table = open_page_table(app)
    red, blue = table.phones["red"], table.phones["blue"]
    base = f"/games/{table.id}"
    assert blue.get(base + "/host").status_code == 403
    response = red.submit(base + "/host", base + "/host/handover/blue")
    assert "Blue is now the host" in " ".join(red.flashes(response))
    assert red.get(base + "/host").status_code == 403
    page = blue.get(base + "/host")
    assert page.status_code == 200 and "Go to your own chart (Blue)" in page.text


def test_r25_the_host_page_in_play_shows_turn_move_clock_and_who_is_away(tmp_path, clock):
    app = make_app(tmp_path)
    red = Phone(app, "red")
    response = red.submit("/", "/", {"name": "Ann", "seats": "2", "minutes": "20",
                                     "move_minutes": "5"})
    game_id = re.fullmatch(r"/games/([0-9a-f]+)/host", response.request.path).group(1)
    links = {e.attrs["id"][5:]: e.attrs["value"] for e in Page(response.text).find("input")
             if (e.attrs.get("id") or "").startswith("link-")}
    blue = Phone(app, "blue")
    join(blue, links["blue"], "Bob")
    from pages_support import Table
    set_up(Table(app, game_id, {"red": red, "blue": blue}, links), PAGE_FLEETS)
    clock.advance(3)
    red.get(f"/games/{game_id}")  # Red's phone is here; Blue's has not been seen for 3 min
    text = red.get(f"/games/{game_id}/host").text
    assert "Dispositions (R10)" not in text
    assert "to move" in text and "move clock (R25, 5 min a move)" in text
    assert "Here: page open." in text and "Not seen for 3 min." in text
    assert "time is up" not in text


# -- a player who walks away (R25) ---------------------------------------------------------

@pytest.mark.parametrize("minutes", [0, 1441, "5", 2.5, True, -1])
def test_r25_move_minutes_is_null_or_1_to_1440(api, minutes):
    status, body = create(api, {"move_minutes": minutes})
    assert_errors(status, body, 422, rule="R25", field="move_minutes")


def test_r25_the_move_clock_is_in_the_created_event_and_every_view(api, clock):
    for minutes in (None, 1, 1440):
        status, created = create(api, {"move_minutes": minutes})
        assert status == 201
    table = clocked_table(api, 5)
    view = table.view("red")
    mover = view["turn"]
    assert view["move_clock"]["minutes"] == 5 and view["move_clock"]["seat"] == mover
    assert view["move_clock"]["deadline"] == pytest.approx(service.now() + 300, abs=5)
    events = replayed(table.api.send.client.application.extensions["referee.store"](),
                          table.id).events
    assert events[0]["move_minutes"] == 5
    clock.advance(2)
    play_turn(table, mover)
    after = table.view("red")["move_clock"]
    assert after["seat"] != mover and after["deadline"] == pytest.approx(service.now() + 300,
                                                                         abs=5)


def test_r25_a_stand_in_waits_for_the_clock_and_only_an_opponent_asks(api, clock):
    plain = table_in_play(api, {"red": QUIET, "blue": QUIET})
    turn = plain.view("red")["turn"]
    other = "red" if turn == "blue" else "blue"
    status, body = plain.as_seat(other, "POST", f"/seats/{turn}/stand-in")[:2]
    assert_errors(status, body, 409, rule="R25")  # no move clock in this game
    table = clocked_table(api, 5, {"red": QUIET, "blue": QUIET})
    turn = table.view("red")["turn"]
    other = "red" if turn == "blue" else "blue"
    status, body = table.as_seat(other, "POST", f"/seats/{turn}/stand-in")[:2]
    assert_errors(status, body, 409, rule="R25")  # the clock has not run out
    clock.advance(6)
    status, body = table.as_seat(turn, "POST", f"/seats/{turn}/stand-in")[:2]
    assert_errors(status, body, 403, rule="R25")  # not by himself
    status, body = table.as_seat(other, "POST", f"/seats/{other}/stand-in")[:2]
    assert_errors(status, body, 409, rule="R25")  # not a seat that is not to move
    status, body, _ = api.call("POST", table.path(f"/seats/{turn}/stand-in"),
                               token=table.host_token)
    assert_errors(status, body, 403)  # the host has no say in it


def test_r25_the_computer_plays_for_an_absent_player_until_he_moves_himself(api, clock):
    table = clocked_table(api, 5, {"red": QUIET, "blue": QUIET})
    walker = table.view("red")["turn"]
    other = "red" if walker == "blue" else "blue"
    clock.advance(6)  # the walker's phone is silent for six minutes
    status, view, _ = table.as_seat(other, "POST", f"/seats/{walker}/stand-in")
    assert status == 200, view
    assert view["seats"][walker]["stand_in"] is True
    assert view["turn"] == other and view["reports"][-1]["by"] == walker
    assert view["reports"][-1]["stand_in"] is True  # the record marks it
    play_turn(table, other)  # the walker is still away: the computer answers at once
    view = table.view(other)
    assert view["turn"] == other and view["reports"][-1]["by"] == walker
    # the walker comes back: his page open, the computer waits for him
    back = table.view(walker)
    assert back["seats"][walker]["stand_in"] is True
    play_turn(table, other)
    assert table.view(walker)["turn"] == walker
    report = play_turn(table, walker)
    assert "stand_in" not in report
    view = table.view(other)
    assert view["seats"][walker]["stand_in"] is False and view["turn"] == other
    status, record, _ = table.as_seat(other, "GET", "/record")
    marked = [m["n"] for m in record["moves"] if m.get("stand_in")]
    assert marked == [1, 3]
    assert all(m["by"] == walker for m in record["moves"] if m.get("stand_in"))
    # his seat keeps its score and can still win (R25): it is his as before
    assert table.as_seat(other, "POST", "/resign")[0] == 200
    assert table.view(walker)["result"]["winners"] == [walker]


def test_r25_the_stand_in_sees_only_its_seats_view(api, clock, monkeypatch):
    from referee.naval_war import computer as bots

    table = clocked_table(api, 5)
    walker = table.view("red")["turn"]
    other = "red" if walker == "blue" else "blue"
    seen_views = []
    real = bots.Bot.move

    def spy(self, view):
        seen_views.append(view)
        return real(self, view)

    monkeypatch.setattr(bots.Bot, "move", spy)
    clock.advance(6)
    status, _, _ = table.as_seat(other, "POST", f"/seats/{walker}/stand-in")
    assert status == 200 and seen_views
    store = table.api.send.client.application.extensions["referee.store"]()
    game = replay(store.events(table.id)[:-1])  # as it stood when the computer moved
    expected = view_for(game, walker)
    assert seen_views[0]["you"] == walker and "revealed" not in seen_views[0]
    assert seen_views[0]["disposition"] == expected["disposition"]
    hidden = squares_in(table.dispositions[other]) - squares_in(expected)
    assert not squares_in(seen_views[0]) & hidden


def test_r25_pages_offer_the_stand_in_when_the_clock_runs_out(tmp_path, clock):
    app = make_app(tmp_path)
    red = Phone(app, "red")
    response = red.submit("/", "/", {"name": "Ann", "seats": "2", "minutes": "20",
                                     "move_minutes": "5"})
    game_id = re.fullmatch(r"/games/([0-9a-f]+)/host", response.request.path).group(1)
    links = {e.attrs["id"][5:]: e.attrs["value"] for e in Page(response.text).find("input")
             if (e.attrs.get("id") or "").startswith("link-")}
    blue = Phone(app, "blue")
    join(blue, links["blue"], "Bob")
    from pages_support import Table
    table = Table(app, game_id, {"red": red, "blue": blue}, links)
    set_up(table, PAGE_FLEETS)
    phones = {"red": red, "blue": blue}
    walker = view_of(red, game_id)["turn"]
    other = "red" if walker == "blue" else "blue"
    page = phones[other].get(f"/games/{game_id}").text
    assert "move clock (R25, 5 min a move)" in page and "move-clock late" not in page
    clock.advance(6)
    page = phones[other].get(f"/games/{game_id}").text
    name = walker.title()
    assert "move-clock late" in page
    assert f"{name} has not moved for 5 minutes:" in page
    assert f"Let the computer play for {name}" in page
    response = phones[other].submit(f"/games/{game_id}", f"/games/{game_id}/stand-in/{walker}")
    assert "played by the computer" in response.text
    view = view_of(phones[other], game_id)
    assert view["seats"][walker]["stand_in"] and view["turn"] == other
    # the walker's page says so, and his own move takes his seat back
    own = phones[walker].get(f"/games/{game_id}").text
    assert "The computer is playing for you (R25)" in own
    at = ["A 1", "B 1", "C 1"]
    move(phones[other], game_id, "salvo", at)
    assert view_of(phones[walker], game_id)["turn"] == walker  # he is back: it waits
    move(phones[walker], game_id, "salvo", ["A 21", "B 21", "C 21"])
    assert not view_of(phones[other], game_id)["seats"][walker]["stand_in"]


# -- R14: an offer to end the game, at the top of every other page --------------------------

def test_r25_an_offer_to_end_shows_as_a_banner_with_agree_and_play_on(tmp_path):
    app = make_app(tmp_path)
    table = open_page_table(app)
    set_up(table, PAGE_FLEETS)
    red, blue = table.phones["red"], table.phones["blue"]
    base = f"/games/{table.id}"
    red.submit(base, base + "/end")
    page = blue.get(base).text
    banner = page.index('class="banner end-offer"')
    assert banner < page.index('id="charts"')  # at the top, not the foot of the page
    assert "Red asks to end the game now (R14)" in page
    assert ">Agree</button>" in page and ">Play on</button>" in page
    assert 'class="banner end-offer"' not in red.get(base).text  # not to the one asking
    response = blue.submit(base, base + "/play-on")
    assert "the offer to end the game has lapsed" in " ".join(blue.flashes(response))
    assert not view_of(red, table.id)["seats"]["red"]["agreed_to_end"]
    assert 'class="banner end-offer"' not in blue.get(base).text
    red.submit(base, base + "/end")
    response = blue.submit(base, base + "/end")
    assert "Game over" in response.text


def test_r25_play_on_needs_an_offer(api):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    status, body, _ = table.as_seat("red", "POST", "/play-on")
    assert_errors(status, body, 409, rule="R14")
    assert table.as_seat("red", "POST", "/end")[0] == 200
    status, body, _ = table.as_seat("red", "POST", "/play-on")
    assert_errors(status, body, 409, rule="R14")  # one cannot decline one's own offer
    status, view, _ = table.as_seat("blue", "POST", "/play-on")
    assert status == 200 and not view["seats"]["red"]["agreed_to_end"]


# -- the club's tables -------------------------------------------------------------------------

def test_r25_games_forfeited_before_play_are_listed_but_not_counted(tmp_path, clock):
    app = make_app(tmp_path)
    red = Phone(app, "red")
    game_id, links, _ = create_on_page(red, minutes=1)
    blue = Phone(app, "blue")
    join(blue, links["blue"], "Bob")
    from pages_support import Table
    set_up(Table(app, game_id, {"red": red}, links), {"red": PAGE_FLEETS["red"]})
    clock.advance(2)
    red.submit(f"/games/{game_id}/host", f"/games/{game_id}/host/forfeit/blue")
    store = app.extensions["referee.store"]()
    game = replayed(store, game_id)
    assert game.phase == "over" and game.over == "forfeit"
    records = club_records([club_entry(game)])
    assert records["games"] == 0 and records["players"] == [] and records["forfeited"] == 1
    page = red.get("/club").text
    assert f"Game {game_id}" in page and "forfeited before play: not counted" in page


def test_r25_a_stand_in_before_play_names_the_phase_not_a_turn():
    """Found in review: before play the refusal said "it is None's turn"."""
    from referee.naval_war import RuleViolation, new_game

    game, _ = new_game(id="g", seats=2, seed=1, move_minutes=5)
    game.join("red", "Ann")
    game.join("blue", "Bob")
    with pytest.raises(RuleViolation) as refused:
        game.stand_in("red", "blue")
    message = refused.value.problems[0].message
    assert "in play" in message and "None" not in message, message
