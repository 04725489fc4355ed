"""No seat can freeze a game: a command that would change nothing adds nothing to the log, and
what ends a game (an agreement, a resignation, a forfeit, a move that ends it) is taken
whatever the log holds (R14), in every rule set. The host's choice of the stand-in's level
is an event every seat sees (R25); his new join codes and clock extensions are bounded
(R24, R10).

Each test runs over every registered rule set, played through the API by its own computers
(``rule_set_tables``); one runs against a real ``referee serve``.
"""

from __future__ import annotations

import http.client
import json

import pytest
from apiclient import Api, FlaskTransport
from conftest import LiveServer
from rule_set_tables import GAMES, RULES, open_table, table_in_play

from referee import create_app, rulesets, service
from referee.common.lifecycle import MAX_CLOCK_EXTENSIONS, MAX_LEVEL_CHANGES, MAX_REISSUES
from referee.states import replayed
from referee.store import Store


def store_of(app) -> Store:
    return app.extensions["referee.store"]()


def first_message(body: dict) -> str:
    return body["errors"][0]["message"]


@pytest.mark.parametrize("rules", RULES)
def test_r14_agreeing_to_end_again_changes_nothing(api, rules):
    table = table_in_play(api, rules)
    before = table.version()
    for _ in range(25):
        status, view, _ = table.call("blue", "POST", "/end")
        assert status == 200 and view["seats"]["blue"]["agreed_to_end"], view
    assert table.version() == before + 1  # the first offer, and nothing for its repeats
    status, report = table.move()  # the game goes on
    assert status == 201, report


@pytest.mark.parametrize("rules", RULES)
def test_r14_playing_on_without_an_offer_is_refused_and_changes_nothing(api, rules):
    table = table_in_play(api, rules)
    before = table.version()
    for _ in range(5):
        status, body, _ = table.call("red", "POST", "/play-on")
        end_rule = rulesets.named(rules).game_type.END_RULE  # R14, T9, B10, BB23 ...
        assert status == 409 and body["errors"][0]["rule"] == end_rule, body
    assert table.version() == before


@pytest.mark.parametrize("rules", RULES)
def test_r14_a_computer_answers_an_offer_to_end_at_once_by_playing_on(app, api, rules):
    """A player who offers to end a game against the computer is answered in the same
    request: the computer plays on (it never agrees), the offer lapses, and the game goes on;
    a second offer is answered the same way."""
    rule_set = rulesets.named(rules)
    level = next(iter(rule_set.levels))
    table = table_in_play(api, rules, bots={"blue": level})
    assert set(table.tokens) == {"red"}
    for _ in range(2):
        before = table.version()
        status, view, _ = table.call("red", "POST", "/end")
        assert status == 200, view
        assert view["phase"] == "play" and view["version"] == before + 2, view  # offer, answer
        assert not any(info["agreed_to_end"] for info in view["seats"].values()), view
    events = [json.loads(body) for body in store_of(app).event_bodies_after(table.id, 0)]
    answers = [(e["type"], e["seat"]) for e in events if e["type"] in ("end", "play_on")]
    assert answers == [("end", "red"), ("play_on", "blue")] * 2, answers
    # the game goes on: the computer has always answered already, so Red owes the next move
    assert table.view("red")["phase"] == "play" and "red" in table.owing()
    status, report = table.move()
    assert status == 201, report


def at_the_limit(table, monkeypatch) -> None:
    """The game's log is full: no more moves, only what ends the game."""
    monkeypatch.setattr(service.engine, "MAX_EVENTS", table.version())
    status, body = table.move()
    assert status == 409 and "limit" in first_message(body), body
    assert "agree to end it or resign (R14)" in first_message(body)


@pytest.mark.parametrize("rules", RULES)
def test_r14_at_the_event_limit_a_player_can_still_resign_and_the_file_be_exported(
        api, rules, monkeypatch):
    table = table_in_play(api, rules)
    at_the_limit(table, monkeypatch)
    status, view, _ = table.call("blue", "POST", "/resign")
    assert status == 200 and view["phase"] == "over", view
    assert view["result"]["winners"] == ["red"]
    status, file, _ = table.call("red", "GET", "/export")
    assert status == 200 and file["result"] == view["result"], file


@pytest.mark.parametrize("rules", RULES)
def test_r14_at_the_event_limit_an_offer_to_the_computer_stands_and_its_player_can_resign(
        api, rules, monkeypatch):
    """A full log takes only what ends the game: the computer cannot play on, so the offer
    stands, every page and view still answers, and the player can resign."""
    table = table_in_play(api, rules, bots={"blue": next(iter(rulesets.named(rules).levels))})
    monkeypatch.setattr(service.engine, "MAX_EVENTS", table.version())
    status, view, _ = table.call("red", "POST", "/end")
    assert status == 200 and view["seats"]["red"]["agreed_to_end"], view
    assert table.view("red")["phase"] == "play"
    status, view, _ = table.call("red", "POST", "/resign")
    assert status == 200 and view["phase"] == "over", view


def test_r14_at_the_event_limit_a_computer_whose_turn_it_is_waits_and_views_still_answer(
        api, monkeypatch):
    """Red's move fills the log on the computer's turn: the computer does not move (nothing
    but the end fits), Red's view still answers, and he can still resign."""
    table = table_in_play(api, "naval-war", bots={"blue": "admiral"})
    assert table.turn() == "red"  # the computer has always answered already
    monkeypatch.setattr(service.engine, "MAX_EVENTS", table.version() + 1)
    status, report = table.move()
    assert status == 201, report
    view = table.view("red")
    assert view["turn"] == "blue" and view["version"] == service.engine.MAX_EVENTS, view
    status, view, _ = table.call("red", "POST", "/resign")
    assert status == 200 and view["phase"] == "over", view


@pytest.mark.parametrize("rules", RULES)
def test_r14_at_the_event_limit_the_players_can_still_agree_to_end(api, rules, monkeypatch):
    table = table_in_play(api, rules)
    at_the_limit(table, monkeypatch)
    status, view, _ = table.call("red", "POST", "/end")
    assert status == 200 and view["phase"] == "play", view
    status, view, _ = table.call("blue", "POST", "/end")
    assert status == 200 and view["phase"] == "over" and view["result"]["reason"] == "agreed"


def replica(app, table):
    """The game replayed from its log, privately, with its dice (BB24) in hand."""
    with app.app_context():
        game = replayed(store_of(app), table.id)
        service.computers.hold_dice(store_of(app), table.id, game)
    return game


STALLED_GAMES = 5  # games left for another because their computers stalled, at most


def played_to_its_last_move(app, api, rules: str):
    """A game of ``rules`` played by its computers up to the move that would end it: the
    table, that move and its seat. Each move is first tried on a private replica of the game
    (replayed again should the game have moved otherwise). Two computers can hold each other
    off for ever (a few Broadsides and Boarding Parties games in a hundred,
    ``RuleSet.match_moves``), so a game that has not ended within that many moves is left for
    another."""
    bound = min(rulesets.named(rules).match_moves, 1000)
    for _ in range(STALLED_GAMES):
        table = table_in_play(api, rules)
        game = replica(app, table)
        for _ in range(bound):
            seat, move = table.next_move()
            game.move(seat, move)
            shown = rulesets.of(game).status_view(game)
            if shown["phase"] == "over":
                return table, seat, move
            status, report, _ = table.call(seat, "POST", "/moves", move)
            assert status == 201, report
            if table.version() != shown["version"]:
                game = replica(app, table)
    raise AssertionError(f"the computers finished none of {STALLED_GAMES} games in {bound} "
                         "moves")


@pytest.mark.parametrize("rules", RULES)
def test_r14_at_the_event_limit_a_move_that_ends_the_game_is_taken(app, api, rules,
                                                                     monkeypatch):
    table, seat, move = played_to_its_last_move(app, api, rules)
    monkeypatch.setattr(service.engine, "MAX_EVENTS", table.version())  # the log is full
    status, report, _ = table.call(seat, "POST", "/moves", move)
    assert status == 201, report
    assert table.view("red")["phase"] == "over"


@pytest.mark.parametrize("rules", RULES)
def test_r24_a_new_join_code_for_a_seat_nobody_joined_adds_no_event_and_they_are_bounded(
        api, rules):
    status, created, _ = api.call("POST", GAMES, {"rules": rules})
    assert status == 201, created
    game_id, host = created["id"], created["host_token"]
    reissue = f"{GAMES}/{game_id}/seats/blue/reissue"
    version = lambda: api.call("GET", f"{GAMES}/{game_id}/host", token=host)[1]["version"]  # noqa: E731
    before = version()
    for _ in range(10):
        status, body, _ = api.call("POST", reissue, token=host)
        assert status == 200, body
    assert version() == before  # nobody held the seat: nothing in the log to drop
    code = body["join_code"]
    for _ in range(MAX_REISSUES):  # a join, then a new code: two events a round
        status, body, _ = api.call("POST", f"{GAMES}/{game_id}/seats/blue",
                                   {"join_code": code, "name": "Blue"})
        assert status == 200, body
        status, body, _ = api.call("POST", reissue, token=host)
        assert status == 200, body
        code = body["join_code"]
    status, body, _ = api.call("POST", f"{GAMES}/{game_id}/seats/blue",
                               {"join_code": code, "name": "Blue"})
    assert status == 200, body
    status, body, _ = api.call("POST", reissue, token=host)
    assert status == 409 and body["errors"][0]["rule"] == "R24", body
    assert f"{MAX_REISSUES} times" in first_message(body)


@pytest.mark.parametrize("rules", RULES)
def test_r10_the_disposition_clock_takes_a_bounded_number_of_extensions(api, rules):
    table = open_table(api, rules)
    for _ in range(MAX_CLOCK_EXTENSIONS):
        status, body, _ = table.host("POST", "/clock", {"minutes": 1})
        assert status == 200, body
    before = table.version()
    status, body, _ = table.host("POST", "/clock", {"minutes": 1})
    assert status == 409 and body["errors"][0]["rule"] == "R10", body
    assert table.version() == before


@pytest.mark.parametrize("rules", RULES)
def test_r25_the_stand_in_level_is_an_event_every_seat_sees_and_the_file_keeps(
        api, rules, tmp_path):
    table = table_in_play(api, rules, move_minutes=5)
    rule_set = rulesets.named(rules)
    level = next(name for name in rule_set.levels if name != rule_set.stand_in_level)
    before = table.version()
    assert all(table.view(s)["move_clock"]["stand_in_level"] == rule_set.stand_in_level
               for s in table.tokens)
    status, body, _ = table.host("POST", "/stand-in-level", {"level": level})
    assert status == 200 and body["stand_in_level"] == level, body
    assert table.version() == before + 1
    for seat in table.tokens:  # every seat sees the change, as a new version of its view
        assert table.view(seat)["move_clock"]["stand_in_level"] == level
    status, body, _ = table.host("POST", "/stand-in-level", {"level": level})
    assert status == 200 and table.version() == before + 1  # the same again: nothing
    status, view, _ = table.call("blue", "POST", "/resign")
    assert status == 200 and view["phase"] == "over", view
    status, body, _ = table.host("POST", "/stand-in-level", {"level": level})
    assert status == 409 and body["errors"][0]["rule"] == "R25", body
    status, file, _ = table.call("red", "GET", "/export")
    assert status == 200
    assert {"type": "stand_in_level", "level": level} in file["events"]
    elsewhere = Api(FlaskTransport(create_app({
        "TESTING": True, "DATABASE": str(tmp_path / "elsewhere.db"), "SECRET_KEY": "other",
        "PUBLIC_URL": "http://localhost"}).test_client()))
    forged = json.loads(json.dumps(file))
    chosen = next(e for e in forged["events"] if e["type"] == "stand_in_level")
    chosen["level"] = "grandmaster"
    status, body, _ = elsewhere.call("POST", f"{GAMES}/import", forged)
    assert status == 422 and "stand-in level" in first_message(body), body
    status, body, _ = elsewhere.call("POST", f"{GAMES}/import", file)
    assert status == 201, body


@pytest.mark.parametrize("rules", RULES)
def test_r25_the_host_chooses_the_stand_in_level_a_bounded_number_of_times(api, rules):
    """Choosing one level and another in turn cannot fill the log (each choice is an
    event): past MAX_LEVEL_CHANGES the level stays as it is, and the game goes on."""
    table = table_in_play(api, rules, move_minutes=5)
    levels = list(rulesets.named(rules).levels)[:2]
    for n in range(MAX_LEVEL_CHANGES):
        status, body, _ = table.host("POST", "/stand-in-level", {"level": levels[n % 2]})
        assert status == 200, body
    before = table.version()
    status, body, _ = table.host("POST", "/stand-in-level",
                                 {"level": levels[MAX_LEVEL_CHANGES % 2]})
    assert status == 409 and body["errors"][0]["rule"] == "R25", body
    assert table.version() == before
    status, report = table.move()
    assert status == 201, report


def test_r25_a_stand_in_level_kept_beside_the_log_becomes_an_event_of_it(app, api):
    """A database from before the choice was an event: the migration appends it to its
    game's log and drops the table it was kept in."""
    table = table_in_play(api, "naval-war", move_minutes=5)
    before = table.version()
    with app.app_context():
        store = store_of(app)
        with store.write():
            store.db["stand_in_levels"].create({"game_id": str, "seat": str, "body": str},
                                               pk=("game_id", "seat"))
            store.db["stand_in_levels"].insert({"game_id": table.id, "seat": "",
                                                "body": json.dumps({"level": "admiral"})})
            store.db.execute("delete from migrations where name = "
                             "'0013_stand_in_levels_as_events'")
        assert store.migrate() == ["0013_stand_in_levels_as_events"]
        assert "stand_in_levels" not in store.db.table_names()
        assert store.events(table.id)[-1] == {"type": "stand_in_level", "level": "admiral"}
    assert table.version() == before + 1
    assert table.view("red")["move_clock"]["stand_in_level"] == "admiral"


def test_r14_a_seat_repeating_its_offer_cannot_freeze_a_game_on_a_real_server(tmp_path):
    server = LiveServer(tmp_path / "frozen.db").start()
    try:
        api = server.api()
        table = table_in_play(api, "naval-war")
        before = table.version()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        for _ in range(300):  # Blue offers again and again, on one kept-alive connection
            connection.request("POST", table.path("/end"),
                               headers={"Authorization": f"Bearer {table.tokens['blue']}"})
            response = connection.getresponse()
            response.read()
            assert response.status == 200
        connection.close()
        assert table.version() == before + 1
        status, report = table.move()  # the game goes on, and Blue's loss is recorded
        assert status == 201, report
        status, view, _ = table.call("blue", "POST", "/resign")
        assert status == 200 and view["result"]["winners"] == ["red"], view
        status, file, _ = table.call("red", "GET", "/export")
        assert status == 200 and file["result"]["winners"] == ["red"]
    finally:
        server.stop()
