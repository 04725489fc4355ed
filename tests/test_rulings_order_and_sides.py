"""The toss comes before the dispositions (R11 amended) and sides of any shape (R23 amended), in the
core and through the API."""

from __future__ import annotations

import copy
import random

import pytest
from api_support import assert_errors
from apiclient import choose_move, open_table
from helpers import QUIET, joined_game, seed_for

from referee.naval_war import RuleViolation, new_game, replay, toss_order, view_for
from referee.naval_war.computer import Bot
from referee.naval_war.game import read_sides

GAMES = "/api/v1/games"


def refused(action, *args, **kwargs) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        action(*args, **kwargs)
    return caught.value


# -- R11: the order of play is drawn when the game is created ------------------------------

@pytest.mark.parametrize("seats", [2, 3, 4])
def test_r11_the_order_is_in_every_view_before_any_lock_in_and_unchanged_after(seats):
    game, events = new_game(id="g", seats=seats, seed=77)
    drawn = toss_order(list(game.seats), 77)
    assert [e["type"] for e in events] == ["created", "toss"]
    assert game.phase == "setup" and game.order == drawn
    for seat in game.seats:
        assert view_for(game, seat)["order"] == drawn
        game.join(seat, seat.title())
        game.submit(seat, QUIET)
    for seat in game.seats:
        assert view_for(game, seat)["order"] == drawn and game.turn is None
        locked = game.lock_in(seat, seed=seed_for(list(reversed(drawn))))
        assert [e["type"] for e in locked] == ["ready"]  # locking in never redraws it (R11)
    assert game.phase == "play" and game.order == drawn and game.turn == drawn[0]
    assert [e["type"] for e in game.events].count("toss") == 1
    for seat in game.seats:
        assert view_for(game, seat)["order"] == drawn


def test_r11_through_the_api_the_order_is_shown_from_the_join_and_kept_at_lock_in(api):
    table = open_table(api, 3)
    drawn = table.view("red")["order"]
    assert sorted(drawn) == ["blue", "green", "red"]
    for seat in table.tokens:
        assert table.view(seat)["order"] == drawn and table.view(seat)["phase"] == "setup"
        _, record, _ = table.as_seat(seat, "GET", "/record")
        assert record["toss"]["order"] == drawn
    for seat in table.tokens:
        table.as_seat(seat, "PUT", "/disposition", QUIET)
        status, view, _ = table.as_seat(seat, "POST", "/ready")
        assert status == 200 and view["order"] == drawn
    view = table.view("blue")
    assert view["phase"] == "play" and view["order"] == drawn and view["turn"] == drawn[0]


def test_r11_the_draw_comes_from_the_servers_secret_source(api, monkeypatch):
    """The seed is the server's: two games created alike get independent draws, and the
    create request cannot name a seed."""
    firsts = set()
    for _ in range(24):
        table = open_table(api, 4)
        firsts.add(tuple(table.view("red")["order"]))
    assert len(firsts) > 6
    status, body, _ = api.call("POST", GAMES, {"seats": 2, "seed": 1})
    assert status == 422


def test_r11_a_second_toss_is_refused_at_any_time():
    game = joined_game(seed=3)
    for extra_seed in (3, 4):
        violation = refused(game.apply, {"type": "toss", "seed": extra_seed,
                                         "order": toss_order(["red", "blue"], extra_seed)})
        assert violation.problems[0].rule == "R11"
    for seat in game.seats:
        game.submit(seat, QUIET)
        game.lock_in(seat)
    violation = refused(game.apply, {"type": "toss", "seed": 4,
                                     "order": toss_order(["red", "blue"], 4)})
    assert violation.problems[0].rule == "R11" and game.order == toss_order(["red", "blue"], 3)


def test_r11_a_forfeit_before_play_keeps_the_draw_and_passes_over_the_seat():
    order = ["green", "blue", "red"]
    game = joined_game(seats=3, at=0.0, seed=seed_for(order))
    for seat in ("red", "blue"):
        game.submit(seat, QUIET)
        game.lock_in(seat)
    game.forfeit("green", 20 * 60)
    assert game.phase == "play" and game.order == order and game.turn == "blue"
    game.move("blue", {"weapon": "salvo", "at": ["A 1", "A 2", "A 3"], "target": "red"})
    assert game.turn == "red"
    game.move("red", {"weapon": "salvo", "at": ["A 1", "A 2", "A 3"], "target": "blue"})
    assert game.turn == "blue"  # green, forfeited, is passed over (R10, R14)


def legacy_log(seed: int) -> list[dict]:
    """A log as the referee wrote it before R11 was amended: the toss after the lock-ins."""
    game = joined_game(seats=3, seed=1)
    for seat in game.seats:
        game.submit(seat, QUIET)
        game.lock_in(seat)
    events = [e for e in copy.deepcopy(game.events) if e["type"] != "toss"]
    events.append({"type": "toss", "seed": seed,
                   "order": toss_order(["red", "blue", "green"], seed)})
    return events


def test_r11_old_logs_with_the_toss_after_the_lock_ins_still_replay():
    events = legacy_log(seed=9)
    game = replay(events)
    assert game.phase == "play" and game.order == toss_order(["red", "blue", "green"], 9)
    assert game.turn == game.order[0]
    game.move(game.turn, {"weapon": "salvo", "at": ["A 1", "A 2", "A 3"],
                          "target": game.opponents(game.turn)[0]})
    assert replay(copy.deepcopy(game.events)).reports == game.reports
    events[-1]["order"] = list(reversed(events[-1]["order"]))
    assert refused(replay, events).problems[0].rule == "R11"


def test_r11_an_old_game_stored_without_a_toss_tosses_at_its_last_lock_in():
    """A game created before the amendment and still in setup: the last lock-in tosses, as
    it did then, so the game can start."""
    game = joined_game(seats=2, seed=1)
    events = [e for e in game.events if e["type"] != "toss"]
    old = replay(copy.deepcopy(events))
    assert old.order == [] and old.toss is None
    for seat in old.seats:
        old.submit(seat, QUIET)
    old.lock_in("red", seed=5)
    assert old.toss is None
    old.lock_in("blue", seed=5)
    assert old.phase == "play" and old.order == toss_order(["red", "blue"], 5)


def test_r11_an_imported_old_game_file_replays(api):
    """A finished game whose file has the toss after the lock-ins (the old shape) imports."""
    events = legacy_log(seed=2)
    game = replay(events)
    while game.phase == "play":
        seat = game.turn
        game.move(seat, Bot("recruit", seed=len(game.reports)).move(view_for(game, seat)))
    document = {"format": "naval-war-game", "version": 1, "rules": "naval-war", "id": "g",
                "exported_at": 0, "fingerprints": game.fingerprints, "salts": game.salts,
                "result": game.outcome().to_json(), "events": game.events}
    status, body, _ = api.call("POST", f"{GAMES}/import", document)
    assert status == 201, body
    status, view, _ = api.call("GET", f"{GAMES}/{body['id']}",
                               token=body["seats"]["red"]["token"])
    assert status == 200 and view["phase"] == "over" and view["order"] == game.order


# -- R23: sides of any shape ---------------------------------------------------------------

SHAPES = [
    (3, [["red", "green"], ["blue"]]),
    (3, [["red"], ["blue", "green"]]),
    (4, [["red", "green"], ["blue", "gold"]]),
    (4, [["red", "blue", "green"], ["gold"]]),
    (4, [["red", "green"], ["blue"], ["gold"]]),
    (4, [["gold", "blue"], ["red"], ["green"]]),
]


@pytest.mark.parametrize("seats, sides", SHAPES)
def test_r23_sides_of_any_shape_are_allies_and_cannot_attack_each_other(seats, sides):
    game = joined_game(seats=seats, alliances=sides)
    for members in sides:
        for seat in members:
            assert set(game.side(seat)) == set(members)
            view = view_for(game, seat)
            assert sorted(view["allies"]) == sorted(s for s in members if s != seat)
            assert sorted(map(sorted, view["sides"])) == sorted(map(sorted, sides))
            assert set(game.opponents(seat)) == set(game.seats) - set(members)


def test_r23_true_still_pairs_red_with_green_and_blue_with_gold():
    game = joined_game(seats=4, alliances=True)
    assert view_for(game, "red")["sides"] == [["red", "green"], ["blue", "gold"]]
    free = joined_game(seats=3)
    assert view_for(free, "red")["sides"] == [["red"], ["blue"], ["green"]]


@pytest.mark.parametrize("seats, alliances", [
    (3, True), (2, True), (3, [["red", "green", "blue"]]), (3, [["red", "green"]]),
    (3, [["red", "green"], ["blue", "red"]]), (3, [["red"], ["blue"], ["green"], []]),
    (3, [["red", "green"], ["blue"], ["gold"]]), (3, [["red", "green"], "blue"]),
    (3, [["red", "green"], [1]]), (3, "red+green"), (3, 1), (3, None), (3, {"red": 1}),
    (3, [["red", "green"], ["blue", "blue"]]), (4, []),
])
def test_r23_anything_but_false_true_or_a_split_of_the_seats_is_refused(seats, alliances):
    violation = refused(new_game, seats=seats, alliances=alliances, seed=1)
    assert violation.problems[0].rule == "R23" and violation.problems[0].field == "alliances"


@pytest.mark.parametrize("alliances", [
    [["red", "green"]], [["red", "green", "blue"]], [["red"], ["blue"], ["pink"]],
    [["red", "green"], ["blue", "green"]], "yes", 1, [["red", "green"], ["blue"], []],
])
def test_r23_the_api_refuses_a_bad_split_with_422_naming_r23(api, alliances):
    status, body, _ = api.call("POST", GAMES, {"seats": 3, "alliances": alliances})
    assert_errors(status, body, 422, rule="R23", field="alliances")


def test_r23_read_sides_puts_sides_in_seat_order():
    assert read_sides([["gold", "blue"], ["green"], ["red"]],
                      ["red", "blue", "green", "gold"]) == (("red",), ("blue", "gold"),
                                                             ("green",))


def play_to_the_end(game, bots: dict[str, Bot]) -> None:
    for seat, bot in bots.items():
        game.submit(seat, bot.disposition())
        game.lock_in(seat)
    while game.phase == "play":
        seat = game.turn
        move = bots[seat].move(view_for(game, seat))
        assert move["target"] not in game.side(seat)  # the computer attacks only opponents
        game.move(seat, move)


def test_r23_a_two_against_one_game_is_played_to_the_end_with_its_side_scores():
    game, _ = new_game(id="g", seats=3, alliances=[["red", "green"], ["blue"]], seed=4,
                       bots={"red": "captain", "blue": "admiral", "green": "recruit"})
    play_to_the_end(game, {s: Bot(game.bots[s], seed=f"2v1:{s}", strict=True)
                           for s in game.seats})
    result = game.outcome().to_json()
    scores = {s: game.fleets[s].score() for s in game.seats}
    assert result["scores"] == scores
    pair_score = scores["red"] + scores["green"]
    assert result["sides"] == [{"seats": ["red", "green"], "score": pair_score},
                               {"seats": ["blue"], "score": scores["blue"]}]
    pair, single = result["sides"][0]["score"], result["sides"][1]["score"]
    if pair != single:
        expected = ["red", "green"] if pair > single else ["blue"]
        assert result["winners"] == expected
        assert result["winner"] == (None if len(expected) > 1 else expected[0])
    else:
        assert result["winners"] == [] and result["winner"] is None


@pytest.mark.parametrize("seats, sides", SHAPES)
def test_r23_the_computer_plays_in_any_side_and_attacks_only_opponents(seats, sides):
    levels = ["recruit", "captain", "admiral"]
    rng = random.Random(str(sides))
    bots = {s: rng.choice(levels) for s in ["red", "blue", "green", "gold"][:seats]}
    game, _ = new_game(id="g", seats=seats, alliances=sides, seed=rng.randrange(1000),
                       bots=bots)
    play_to_the_end(game, {s: Bot(level, seed=f"{sides}:{s}", strict=True)
                           for s, level in bots.items()})
    result = game.outcome().to_json()
    assert sum(side["score"] for side in result["sides"]) == sum(result["scores"].values())
    assert len(result["sides"]) == len(sides)


def test_r23_two_against_one_through_the_api_with_computers_on_both_sides(api):
    status, created, _ = api.call("POST", GAMES, {
        "seats": 3, "alliances": [["red", "green"], ["blue"]],
        "bots": {"blue": "captain", "green": "recruit"}})
    assert status == 201, created
    assert set(created["seats"]) == {"red"}
    status, joined, _ = api.call("POST", f"{GAMES}/{created['id']}/seats/red",
                                 {"join_code": created["seats"]["red"]["join_code"],
                                  "name": "Ann"})
    token = joined["token"]
    path = f"{GAMES}/{created['id']}"
    view = api.call("GET", path, token=token)[1]
    assert view["sides"] == [["red", "green"], ["blue"]] and view["allies"] == ["green"]
    assert sorted(view["order"]) == ["blue", "green", "red"]
    api.call("PUT", f"{path}/disposition", QUIET, token=token)
    status, view, _ = api.call("POST", f"{path}/ready", token=token)
    assert status == 200
    rng = random.Random(5)
    for _ in range(200):
        if view["phase"] != "play":
            break
        assert view["turn"] == "red"
        move = choose_move(view, rng)
        assert move["target"] == "blue"
        status, body, _ = api.call("POST", f"{path}/moves", move, token=token)
        assert status == 201, body
        view = api.call("GET", path, token=token)[1]
    assert view["phase"] == "over"
    for report in view["reports"]:
        assert report["target"] not in ({"red", "green"} if report["by"] != "blue"
                                        else {"blue"})
    result = view["result"]
    assert [side["seats"] for side in result["sides"]] == [["red", "green"], ["blue"]]
    assert result["sides"][0]["score"] == result["scores"]["red"] + result["scores"]["green"]


def test_r23_the_openapi_document_describes_sides_of_any_shape(api):
    status, document, _ = api.call("GET", "/api/v1/openapi.json")
    assert status == 200
    schemas = document["components"]["schemas"]
    shapes = schemas["GameOptions"]["properties"]["alliances"]["oneOf"]
    assert {"type": "boolean"} in shapes
    assert any(s.get("type") == "array" and s["items"]["type"] == "array" for s in shapes)
    assert "sides" in schemas["View"]["properties"]
