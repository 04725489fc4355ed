"""Battleship: The Tactical Combat Game through the shared referee's JSON API.

The seam carries the second game end to end: created with ``"rules": "battleship-tcg"``, a
computer's seat, the disposition and move documents of T11, the view of T12, refusals naming
T-rulings, the end, the game file out and back in, the post-mortem, and nothing of the
computer's fleet in anything the player receives before the end (T10).
"""

from __future__ import annotations

import json

from tcg_support import disposition

from referee.battleship_tcg.card import standard_card
from referee.battleship_tcg.holes import every_hole, hole_name

GAMES = "/api/v1/games"


def tcg_against_the_computer(api, level: str = "recruit") -> tuple[str, str]:
    status, created, _ = api.call("POST", GAMES, {"rules": "battleship-tcg",
                                                   "bots": {"blue": level}})
    assert status == 201, created
    assert set(created["seats"]) == {"red"}  # the computer's seat has no join code
    game_id = created["id"]
    status, claimed, _ = api.call("POST", f"{GAMES}/{game_id}/seats/red",
                                  {"join_code": created["seats"]["red"]["join_code"],
                                   "name": "Ann"})
    assert status == 200, claimed
    return game_id, claimed["token"]


def test_t11_a_disposition_with_every_problem_is_refused_by_ruling(api):
    game_id, red = tcg_against_the_computer(api)
    bad = {"boats": [{"type": "carrier", "at": "O 8", "dir": "down"}], "man": "J 9"}
    status, body, _ = api.call("PUT", f"{GAMES}/{game_id}/disposition", bad, token=red)
    assert status == 422
    rules = {e["rule"] for e in body["errors"]}
    assert {"T3", "T4", "T5"} <= rules, body


def test_t12_a_whole_game_against_the_computer_through_the_api(api):
    game_id, red = tcg_against_the_computer(api, "admiral")
    status, _, _ = api.call("PUT", f"{GAMES}/{game_id}/disposition", disposition("red"),
                            token=red)
    assert status == 200
    status, view, _ = api.call("POST", f"{GAMES}/{game_id}/ready", token=red, seat="red")
    assert status == 200 and view["rules"] == "battleship-tcg", view
    assert set(view["islands"]) == {"red", "blue"}  # both halves' islands from the start
    islands = set(standard_card().island_names("blue"))
    sea = [hole_name(h) for h in every_hole() if hole_name(h) not in islands]
    # an island hole while every boat floats is refused, naming T7, and changes nothing
    status, body, _ = api.call("POST", f"{GAMES}/{game_id}/moves", {"at": sorted(islands)[0]},
                               token=red, seat="red")
    assert (status, body["errors"][0]["rule"]) in ((422, "T7"), (409, "T7")), body
    queue = sea + sorted(islands)
    for _ in range(400):
        status, view, _ = api.call("GET", f"{GAMES}/{game_id}", token=red, seat="red")
        if view["phase"] == "over":
            break
        if view["turn"] != "red":
            continue
        shot = {r["at"][0] for r in view["reports"] if r["by"] == "red"}
        sunk_all = len(view["sunk"]["blue"]) == 5
        hole = next(h for h in queue if h not in shot and (not sunk_all or h in islands))
        status, report, _ = api.call("POST", f"{GAMES}/{game_id}/moves", {"at": hole},
                                     token=red, seat="red")
        assert status == 201, report
        assert set(report) >= {"n", "by", "target", "at", "result", "sunk"}
    assert view["phase"] == "over", view["phase"]
    assert view["result"]["reason"], view["result"]
    # T10: before the end Red was told nothing of Blue's man or unshot boats
    blue_fleet = view["revealed"]["disposition"] if "disposition" in view.get(
        "revealed", {}) else view["revealed"]["blue"]["disposition"]
    man = blue_fleet["man"]
    before_end = [json.loads(text) for text in api.received["red"][:-1]]
    told = [doc for doc in before_end if isinstance(doc, dict) and doc.get("phase") == "play"]
    assert told and all(man not in json.dumps(doc.get("revealed", {})) for doc in told)
    # the game file goes out and comes back in as the same game, once
    status, file, _ = api.call("GET", f"{GAMES}/{game_id}/export", token=red)
    assert status == 200 and file["rules"] == "battleship-tcg"
    assert file["format"] == "battleship-tcg-game"
    status, imported, _ = api.call("POST", f"{GAMES}/import", file)
    assert status == 409, imported  # already here
    status, summary, _ = api.call("GET", f"{GAMES}/{game_id}/postmortem", token=red)
    assert status == 200 and summary, summary


def test_t10_the_computer_s_fleet_is_in_nothing_red_gets_before_the_end(api, app):
    """Blue's boats and man (as the log holds them) appear in none of Red's responses, only
    the holes Red shot at with what he was told of them."""
    game_id, red = tcg_against_the_computer(api, "captain")
    api.call("PUT", f"{GAMES}/{game_id}/disposition", disposition("red"), token=red, seat="red")
    api.call("POST", f"{GAMES}/{game_id}/ready", token=red, seat="red")
    store = app.extensions["referee.store"]()
    blue = next(e for e in store.events(game_id)
                if e["type"] == "disposition" and e["seat"] == "blue")["disposition"]
    _, view, _ = api.call("GET", f"{GAMES}/{game_id}", token=red, seat="red")
    his_man, own_man = f'"man": "{blue["man"]}"', f'"man": "{disposition("red")["man"]}"'
    for text in api.received["red"]:
        assert json.dumps(blue["boats"]) not in text, text[:200]
        assert his_man == own_man or his_man not in text, text[:200]
    assert view["shots"]["blue"] == [] or all(set(s) <= {"n", "at", "result", "sunk"}
                                              for s in view["shots"]["blue"])
    assert "revealed" not in view or not view["revealed"]
