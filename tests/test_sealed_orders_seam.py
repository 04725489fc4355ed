"""The seam's sealed orders (R25 in a game whose stages ask several seats at once): every game
names the seats that owe a move and since when each has owed it; in a game of turns that is the
seat whose turn it is since its turn began, so the three games of turns run as they did, while
a game of sealed orders runs each owing seat's clock, computer and stand-in on its own."""

from __future__ import annotations

import pytest
from apiclient import Api, FlaskTransport
from contract_support import Clock, core_game, level, make_app, play_out
from rule_set_tables import open_table

from referee import rulesets, service

TURNS = [rules for rules, rule_set in rulesets.RULE_SETS.items()
         if not rule_set.game_type.SIMULTANEOUS]
SEALED = [rules for rules, rule_set in rulesets.RULE_SETS.items()
          if rule_set.game_type.SIMULTANEOUS]


@pytest.mark.parametrize("rules", TURNS)
def test_r25_in_a_game_of_turns_the_seat_that_owes_is_the_turns_since_its_turn_began(rules):
    rule_set = rulesets.named(rules)
    game, computers = core_game(rules, (level(rules, 0), level(rules, -1)), 4)

    def same(game) -> None:
        shown = rule_set.status_view(game)
        if shown["phase"] == "play":
            assert shown["owes"] == [shown["turn"]]
            assert shown["owed_since"] == {shown["turn"]: shown["turn_began"]}
        else:
            assert shown["owes"] == [] and shown["owed_since"] == {}
        assert "owes" not in rule_set.host_view(game)

    same(game)
    play_out(rules, game, computers, each=same)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    ticking = Clock()
    monkeypatch.setattr(service.clock, "now", ticking)
    return ticking


@pytest.mark.parametrize("rules", SEALED)
def test_r25_each_seat_that_owes_a_sealed_order_has_its_own_clock(rules, tmp_path, clock):
    app = make_app(tmp_path)
    table = open_table(Api(FlaskTransport(app.test_client())), rules, move_minutes=3)
    for seat in table.tokens:
        document = table.computer(seat).disposition(table.view(seat))
        assert table.call(seat, "PUT", "/disposition", document)[0] == 200
        assert table.call(seat, "POST", "/ready")[0] == 200
    started = clock.now
    running = table.view("red")["move_clock"]
    assert set(running["owing"]) == set(table.owing()) == {"red", "blue"}
    assert all(r["began"] == started for r in running["owing"].values())
    clock.advance(2)
    seat, move = table.next_move()
    assert table.call(seat, "POST", "/moves", move)[0] == 201
    running = table.view("blue")["move_clock"]
    other = next(s for s in table.tokens if s != seat)
    assert list(running["owing"]) == [other] == table.owing()
    assert running["owing"][other]["began"] == started  # its clock runs on
    assert running["seat"] == other and running["deadline"] == started + 180
    host = table.host("GET", "/host")[1]
    assert host["owes"] == [other] and host["turn"] == other
    poll = app.test_client()
    with poll.session_transaction() as held:
        held["seats"] = {table.id: table.tokens[seat]}
    assert poll.get(f"/games/{table.id}/status").get_json()["owes"] == [other]
    status, body, _ = table.call(seat, "POST", f"/seats/{other}/stand-in")
    assert status == 409 and body["errors"][0]["rule"] == "R25"  # a minute left
    clock.advance(1.5)
    status, body, _ = table.call(seat, "POST", f"/seats/{other}/stand-in")
    assert status == 200, body
    assert other not in table.owing() or table.view(seat)["stage"]["n"] > 1


@pytest.mark.parametrize("rules", SEALED)
def test_r25_a_computers_seat_orders_at_once_while_the_player_still_owes_his(rules, tmp_path):
    app = make_app(tmp_path)
    api = Api(FlaskTransport(app.test_client()))
    status, created, _ = api.call("POST", "/api/v1/games",
                                  {"rules": rules, "bots": {"blue": level(rules, -1)}})
    assert status == 201, created
    status, joined, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/red",
                                 {"join_code": created["seats"]["red"]["join_code"],
                                  "name": "Ann"})
    token = joined["token"]
    computer = rulesets.named(rules).computer(level(rules, 0), "ann")
    view = api.call("GET", f"/api/v1/games/{created['id']}", token=token)[1]
    api.call("PUT", f"/api/v1/games/{created['id']}/disposition", computer.disposition(view),
             token=token)
    status, view, _ = api.call("POST", f"/api/v1/games/{created['id']}/ready", token=token)
    assert status == 200 and view["phase"] == "play"
    assert view["owes"] == {"red": "plot"}, view["owes"]  # the computer's plot is in
    assert view["stage"]["orders_in"] == {"red": False, "blue": True}
    assert view["plots"]["blue"] == [None, None, None]  # and sealed from Ann
