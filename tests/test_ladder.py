"""The computer's ladder, played by a match runner over the seam (referee/match.py),
rated by Bradley-Terry (referee/ladder.py), measured against a clairvoyant reference player
(referee/naval_war/computer/clairvoyant.py), shown on the home page; and the computer
standing in for an absent player at the level the host chooses, in games with sides (R25, R23).

Game counts are tiny: these check what the bench does, not how strong the levels are (the
figures are the bench's and the report's).
"""

from __future__ import annotations

import ast
import dataclasses
import html as html_lib
import json
import math
import re
import time
from pathlib import Path

import pytest
from api_support import assert_errors
from apiclient import TableGame
from click.testing import CliRunner
from helpers import ATTACKER, QUIET
from pages_support import Page, Phone, make_app

from referee import ladder, match, rulesets, service
from referee.duel import duel_command
from referee.ladder import bradley_terry, elo, ladder_command
from referee.naval_war import new_game, view_for
from referee.naval_war.computer import LEVELS
from referee.naval_war.computer.board import AREA, SQUARE_NAMES, index
from referee.naval_war.computer.clairvoyant import Chart, Clairvoyant, choose, points_lost
from referee.naval_war.computer.seat import read_seat
from referee.states import replayed

ROOT = Path(__file__).resolve().parent.parent
NAVAL_WAR = rulesets.named("naval-war")


# -- one match runner for every rule set, through the seam only ------------------------

@pytest.mark.parametrize("rules", list(rulesets.RULE_SETS))
def test_the_runner_plays_a_whole_game_of_every_rule_set(rules):
    rule_set = rulesets.named(rules)
    seats = list(rule_set.seats)[:2]
    levels = list(rule_set.levels)
    played = match.play(rule_set, {seats[0]: levels[0], seats[1]: levels[-1]}, seed=5,
                        first=seats[1])
    tossed = len({rule_set.seating(rule_set.new_game(id="t", seed=s, at=0.0, bots={},
                                                     options={})[0])["order"][0]
                  for s in range(40)}) > 1  # Broadside has no toss: Red moves first (B5)
    assert played.finished and played.first == (seats[1] if tossed else seats[0])
    assert rule_set.status_view(played.game)["phase"] == "over"
    assert set(played.scores) >= set(seats)
    assert played.winner in (*seats, None)
    assert all(played.think_ms[seat] for seat in seats) and played.moves > 0
    again = match.play(rule_set, {seats[0]: levels[0], seats[1]: levels[-1]}, seed=5,
                       first=seats[1])
    assert (again.result, again.moves) == (played.result, played.moves)  # the seed decides


@pytest.mark.parametrize("rules", list(rulesets.RULE_SETS))
def test_r21_each_computer_is_handed_its_own_seats_view_and_nothing_else(rules):
    """The runner asks the rule set for computers and views alone: a spy in the seam's place
    sees every view it hands over, each its own seat's, equal to ``view_for`` at that moment."""
    rule_set = rulesets.named(rules)
    handed: list[tuple[str, dict, dict]] = []
    live = {}

    class Spy:
        def __init__(self, inner):
            self.inner = inner

        def disposition(self, view):
            return self.inner.disposition(view)

        def move(self, view):
            handed.append((self.inner.level, view, rule_set.view_for(live["game"],
                                                                    view["you"])))
            return self.inner.move(view)

    def view_for_spy(game, seat):
        live["game"] = game
        return rule_set.view_for(game, seat)

    spied = dataclasses.replace(rule_set, view_for=view_for_spy,
                                computer=lambda *a, **k: Spy(rule_set.computer(*a, **k)))
    seats = list(rule_set.seats)[:2]
    strong, weak = list(rule_set.levels)[-1], list(rule_set.levels)[0]
    played = match.play(spied, {seats[0]: strong, seats[1]: weak}, seed=2)
    assert played.finished and len(handed) == played.moves
    for level, view, expected in handed:
        assert view == expected and "revealed" not in view
        assert (view["you"] == seats[0]) == (level == strong)


def test_the_runner_alternates_seats_and_first_move():
    assert [match.schedule(n, ("red", "blue")) for n in range(4)] == [
        (False, "red"), (True, "red"), (False, "blue"), (True, "blue")]
    result = match.series(NAVAL_WAR, "recruit", "captain", 4, seed=1)
    assert result.games == 4 and result.wins_a + result.wins_b + result.draws == 4
    assert len(result.scores_a) == 4 and result.think_ms["a"] and result.think_ms["b"]


def test_the_runner_refuses_a_level_the_rules_do_not_have():
    with pytest.raises(ValueError, match="not a level"):
        match.play(NAVAL_WAR, {"red": "grandmaster", "blue": "recruit"}, seed=1)
    with pytest.raises(ValueError, match="not a level"):
        match.play(NAVAL_WAR, {"red": "clairvoyant", "blue": "recruit"}, seed=1)


def test_the_runner_stops_at_the_cap():
    played = match.play(NAVAL_WAR, {"red": "recruit", "blue": "recruit"}, seed=1, max_moves=3)
    assert played.moves == 3 and not played.finished and played.winner is None


def test_a_game_the_rules_let_stall_is_stopped_at_the_rule_sets_own_cap():
    """Where two computers can keep a game going for ever (BB23), the rule set says after how
    many moves the bench stops it and counts it a draw."""
    stalling = dataclasses.replace(NAVAL_WAR, match_moves=4)
    played = match.play(stalling, {"red": "recruit", "blue": "recruit"}, seed=1)
    assert played.moves == 4 and not played.finished and played.winner is None
    assert rulesets.named("broadsides-boarding").match_moves < NAVAL_WAR.match_moves


@pytest.mark.parametrize("rules", list(rulesets.RULE_SETS))
def test_every_game_ships_a_ladder_that_rates_each_of_its_levels_and_no_other(rules):
    """The home page shows each level's rating from the ladder kept in the repository."""
    kept = ladder.ratings(rules)
    assert kept is not None, f"no referee/ladders/{rules}.json: run referee ladder --write"
    assert kept["rules"] == rules
    assert set(kept["ratings"]) == set(rulesets.named(rules).levels)
    assert isinstance(kept["games"], int) and isinstance(kept["seed"], int)
    shown = next(entry for entry in ladder.shown() if entry["rules"] == rules)
    assert all(level["rating"] is not None for level in shown["levels"])


RULE_SET_WORDS = re.compile(r"naval|battleship|tcg|broadside", re.IGNORECASE)


@pytest.mark.parametrize("name", ["duel.py", "match.py", "ladder.py"])
def test_the_bench_names_no_rule_set(name):
    """``referee duel``, the runner and the ladder take everything from ``RuleSet``: no
    import, string or name in their code names a rule set (their docstrings may)."""
    tree = ast.parse((ROOT / "referee" / name).read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
                  and node.body and isinstance(node.body[0], ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in docstrings:
            assert not RULE_SET_WORDS.search(node.value), (name, node.value)
        if isinstance(node, ast.ImportFrom):
            assert not RULE_SET_WORDS.search(node.module or ""), (name, node.module)
        if isinstance(node, ast.Name | ast.alias):
            assert not RULE_SET_WORDS.search(getattr(node, "id", None)
                                             or getattr(node, "name", "")), name


def test_duel_plays_every_rule_set_and_keeps_the_tcg_solo_runs():
    runner = CliRunner()
    for rules, rule_set in rulesets.RULE_SETS.items():
        weak, strong = list(rule_set.levels)[0], list(rule_set.levels)[-1]
        out = runner.invoke(duel_command, ["--rules", rules, "--a", strong, "--b", weak,
                                           "--games", "2", "--seed", "4"])
        assert out.exit_code == 0, out.output
        assert re.fullmatch(rf"{strong} wins [0-2] of 2 \(draws [0-2]\)",
                            out.stdout.splitlines()[0])
        default = runner.invoke(duel_command, ["--rules", rules, "--games", "1"])
        assert default.exit_code == 0 and default.stdout.startswith(f"{strong} wins")
    tcg = runner.invoke(duel_command, ["--rules", "battleship-tcg", "--games", "1"]).stdout
    assert "solo games each" in tcg
    refused = runner.invoke(duel_command, ["--rules", "naval-war", "--a", "clairvoyant"])
    assert refused.exit_code != 0


# -- Bradley-Terry by the MM algorithm, and the ladder command ---------------------

def test_bradley_terry_two_players_three_wins_to_one():
    p = bradley_terry(["a", "b"], [("a", "b", 3, 1)], prior=0)
    assert p["a"] / p["b"] == pytest.approx(3.0)  # p_a / (p_a + p_b) = 3/4
    assert p["a"] * p["b"] == pytest.approx(1.0)  # geometric mean 1
    ratings = elo(p)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3), abs=1)  # 190.8


def test_bradley_terry_matches_a_hand_worked_three_player_example():
    """Strengths 4 : 2 : 1 expect a to beat b 2 games in 3, b to beat c 2 in 3 and a to beat
    c 4 in 5; results exactly so are fitted exactly so (each player's wins equal the sum of
    its expected wins: 2 + 4 = 6 for a, 1 + 2 = 3 for b, 1 + 1 = 2 for c)."""
    results = [("a", "b", 2, 1), ("b", "c", 2, 1), ("a", "c", 4, 1)]
    p = bradley_terry(["a", "b", "c"], results, prior=0)
    assert p["a"] / p["b"] == pytest.approx(2.0, rel=1e-6)
    assert p["b"] / p["c"] == pytest.approx(2.0, rel=1e-6)
    ratings = elo(p)
    assert ratings["a"] - ratings["b"] == pytest.approx(120, abs=1)  # 400 log10 2 = 120.4
    assert sum(ratings.values()) / 3 == pytest.approx(1500, abs=1)
    cyclic = bradley_terry("abc", [("a", "b", 2, 1), ("b", "c", 2, 1), ("c", "a", 2, 1)],
                           prior=0)
    assert all(x == pytest.approx(1.0) for x in cyclic.values())


def test_a_clean_sweep_has_a_finite_rating_with_the_prior():
    with pytest.raises(ValueError, match="prior"):
        bradley_terry("ab", [("a", "b", 200, 0)], prior=0)
    p = bradley_terry("ab", [("a", "b", 200, 0)])  # a virtual draw: 200.5 to 0.5
    assert p["a"] / p["b"] == pytest.approx(401.0)


@pytest.fixture
def three_levels(monkeypatch) -> list[str]:
    """The Naval War Game with its weakest, a middle and its strongest level only: the
    ladder's tests play every pair, and the levels are data (however many there are)."""
    levels = list(NAVAL_WAR.levels)
    kept = list(dict.fromkeys([levels[0], levels[len(levels) // 2], levels[-1]]))
    fewer = dataclasses.replace(NAVAL_WAR, levels={k: NAVAL_WAR.levels[k] for k in kept})
    monkeypatch.setitem(rulesets.RULE_SETS, NAVAL_WAR.rules, fewer)
    return kept


def test_the_ladder_prints_pairs_ratings_and_last_the_clairvoyance(three_levels):
    out = CliRunner().invoke(ladder_command, ["--games", "1", "--fleets", "1", "--seed", "3"])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    levels = three_levels
    pairs = len(levels) * (len(levels) - 1) // 2
    for line in lines[:pairs]:
        assert re.fullmatch(r"(\w+) v (\w+): \1 [01], \2 [01], draws [01] of 1", line), line
    assert lines[pairs].startswith("ratings (Bradley-Terry, Elo scale")
    rated = dict(line.split()[:2] for line in lines[pairs + 1:pairs + 1 + len(levels)])
    for line in lines[pairs + 1:pairs + 1 + len(levels)]:
        assert re.fullmatch(r"  [\w-]+ +\d+  \(median think \d+\.\d ms a move\)", line), line
    assert set(rated) == set(levels)
    assert re.fullmatch(r"clairvoyance [01]\.\d\d", lines[-1])
    assert out.stderr == ""  # no progress bar when standard error is not a terminal


def test_the_ladder_gives_the_same_results_in_parallel():
    rule_set = rulesets.named("battleship-tcg")
    alone = ladder.run(rule_set, 1, seed=4)
    together = ladder.run(rule_set, 1, seed=4, jobs=2)
    def results(run):  # every line but the think times, which the clock decides
        return [line.split("(median")[0] for line in run.lines()]

    assert results(together) == results(alone) and together.ratings == alone.ratings


def test_the_tcg_ladder_rates_every_level(tmp_path, monkeypatch):
    monkeypatch.setattr(ladder, "LADDERS", tmp_path)
    out = CliRunner().invoke(ladder_command, ["--rules", "battleship-tcg", "--games", "1",
                                              "--seed", "1", "--write"])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    levels = list(rulesets.named("battleship-tcg").levels)
    pairs = len(levels) * (len(levels) - 1) // 2
    assert lines[0].startswith(f"{levels[0]} v {levels[1]}: ")
    assert len(levels) >= 4 and len(lines) == pairs + 1 + len(levels)
    kept = json.loads((tmp_path / "battleship-tcg.json").read_text())
    assert kept["games"] == 1 and kept["seed"] == 1 and set(kept["ratings"]) == set(levels)
    assert "clairvoyance" not in kept  # the TCG bench has no clairvoyant


# -- the clairvoyant reference player ----------------------------------------------

def test_the_clairvoyant_is_never_offered_as_an_opponent(client):
    assert "clairvoyant" not in LEVELS
    for rule_set in rulesets.RULE_SETS.values():
        assert "clairvoyant" not in rule_set.levels
    assert "clairvoyant" not in json.dumps(client.get("/api/v1/rules").get_json()).lower()
    assert "clairvoyant" not in client.get("/").get_data(as_text=True).lower()
    status = client.post("/api/v1/games", json={"bots": {"blue": "clairvoyant"}}).status_code
    assert status == 422


def _chart_view(ships, aircraft=(), guns=(), hit=(), spent=()) -> dict:
    return {"disposition": {"ships": ships, "aircraft": list(aircraft), "guns": list(guns)},
            "damage": {"hit": list(hit), "destroyed": [], "flown": [], "spent": list(spent)}}


def _own_view(aircraft, salvoes=0) -> dict:
    return {"you": "red", "phase": "play", "turn": "red", "seats": {"red": {}, "blue": {}},
            "allies": [], "disposition": {"aircraft": aircraft},
            "damage": {"flown": [], "destroyed": []}, "forces": {"salvo": salvoes},
            "reports": []}


def within(centre: str, radius: int) -> set[str]:
    """The squares of the (2r+1) x (2r+1) area round ``centre`` (R16)."""
    i = index(centre)
    return {SQUARE_NAMES[j] for j in AREA[radius][i]}


def test_the_clairvoyant_sends_an_atom_bomber_at_the_best_5x5():
    enemy = _chart_view([{"type": "battleship", "at": "C 3", "dir": "across"},
                         {"type": "submarine", "at": "P 16"}])
    seat = read_seat(_own_view([{"type": "atom-bomber", "at": "A 1"}], salvoes=1))
    move = choose(seat, {"blue": Chart(enemy)})
    assert move["weapon"] == "atom-bomber" and move["target"] == "blue"
    assert within(move["at"], 2) >= {"C 3", "D 3", "E 3", "F 3"}  # all four battleship squares


def test_the_clairvoyant_keeps_its_bombers_out_of_reach_of_unspent_guns():
    ships = [{"type": "battleship", "at": "C 3", "dir": "across"},
             {"type": "destroyer", "at": "P 16", "dir": "across"}]
    own = _own_view([{"type": "bomber", "at": "A 1"}])
    guarded = Chart(_chart_view(ships, guns=["D 2"]))
    move = choose(read_seat(own), {"blue": guarded})
    assert move["weapon"] == "bomber"
    assert "D 2" not in within(move["at"], 1)  # out of the gun's reach (R18)
    assert len(within(move["at"], 1) & {"C 3", "D 3", "E 3", "F 3"}) == 3
    spent = Chart(_chart_view(ships, guns=["D 2"], spent=["D 2"]))  # a spent gun no longer
    move = choose(read_seat(own), {"blue": spent})
    assert len(within(move["at"], 1) & {"C 3", "D 3", "E 3", "F 3"}) == 3


def test_the_clairvoyant_fires_salvoes_at_unhit_ship_squares():
    enemy = _chart_view([{"type": "cruiser", "at": "K 10", "dir": "down"}], hit=["K 10"])
    move = choose(read_seat(_own_view([], salvoes=3)), {"blue": Chart(enemy)})
    assert move["weapon"] == "salvo" and move["target"] == "blue"
    assert {"K 11", "K 12"} <= set(move["at"]) and len(set(move["at"])) == 3  # not K 10 again


def test_points_lost_are_the_lengths_of_sunk_ships():
    view = _chart_view([{"type": "cruiser", "at": "K 10", "dir": "down"},
                        {"type": "submarine", "at": "A 1"},
                        {"type": "battleship", "at": "C 3", "dir": "across"}],
                       hit=["K 10", "K 11", "K 12", "C 3"])
    assert points_lost(view) == 3


def test_the_clairvoyant_plays_the_same_forces_and_sinks_more():
    game, _ = new_game(id="c", seed=1)
    computer = NAVAL_WAR.computer("admiral", 9)
    assert Clairvoyant(computer).disposition(view_for(game, "red")) == computer.disposition(
        view_for(game, "red"))
    result = match.clairvoyance(NAVAL_WAR, "recruit", "recruit", 2, seed=2)
    assert result.games == 2 and len(result.sunk_by_clairvoyant) == 2
    assert all(best >= mine for best, mine in zip(result.sunk_by_clairvoyant,
                                                  result.sunk_by_level, strict=True))
    assert 0 < result.fraction < 1  # a recruit falls short of a player who sees everything
    assert 0 < result.tempo <= result.fraction


# -- the ratings on the home page ---------------------------------------------------

def test_the_home_page_shows_each_level_with_its_rating(client, tmp_path, monkeypatch):
    monkeypatch.setattr(ladder, "LADDERS", tmp_path)
    page = client.get("/").get_data(as_text=True)
    assert "Not rated yet" in page
    ratings = {level: 1400 + 17 * n for n, level in enumerate(NAVAL_WAR.levels)}
    (tmp_path / "naval-war.json").write_text(json.dumps({
        "rules": "naval-war", "games": 200, "seed": 7, "ratings": ratings,
        "clairvoyance": {"fraction": 0.81}}))
    html = client.get("/").get_data(as_text=True)
    section = re.search(r'<section class="ladder" id="ladder-naval-war"[^>]*>(.*?)</section>',
                        html, re.S).group(1)
    text = html_lib.unescape(" ".join(re.sub(r"<[^>]+>", " ", section).split()))
    for level, description in NAVAL_WAR.levels.items():
        assert f"{ladder.named_as(level, description)} · rating {ratings[level]}" in text
        assert ladder.capitalised(ladder.about(level, description)) in text
    assert "--games 200 --seed 7" in text and "81%" in text


def test_a_level_is_named_as_its_description_names_it():
    assert ladder.named_as("vice-admiral", "Vice-admiral: errs") == "Vice-admiral"
    assert ladder.about("vice-admiral", "Vice-admiral: errs") == "errs"
    assert ladder.named_as("admiral", "Shoots where ...") == "Admiral"
    assert ladder.about("admiral", "Shoots where ...") == "Shoots where ..."


def test_a_damaged_ladder_file_shows_no_ratings(client, tmp_path, monkeypatch):
    monkeypatch.setattr(ladder, "LADDERS", tmp_path)
    (tmp_path / "naval-war.json").write_text("{not json")
    assert client.get("/").status_code == 200
    assert ladder.ratings("naval-war") is None
    for hostile in ({"ratings": {"admiral": "<b>"}},
                    {"ratings": {"admiral": True}, "games": "<i>", "seed": [1],
                     "clairvoyance": {"fraction": "0.9"}},
                    {"ratings": {}, "games": 2, "clairvoyance": "high"},
                    {"ratings": {}, "games": 2, "clairvoyance": {"fraction": 1e308}}):
        (tmp_path / "naval-war.json").write_text(json.dumps(hostile))
        response = client.get("/")
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        assert "&lt;b&gt;" not in page and "&lt;i&gt;" not in page and "rating True" not in page


def test_ladder_write_keeps_the_games_and_seed(tmp_path, monkeypatch, three_levels):
    monkeypatch.setattr(ladder, "LADDERS", tmp_path)
    out = CliRunner().invoke(ladder_command, ["--games", "1", "--fleets", "0", "--seed", "5",
                                              "--write"])
    assert out.exit_code == 0, out.output
    kept = json.loads((tmp_path / "naval-war.json").read_text())
    assert (kept["games"], kept["seed"]) == (1, 5)
    assert set(kept["ratings"]) == set(three_levels)
    assert len(kept["pairs"]) == 3


# -- the stand-in at the level the host chooses, in games with sides ---------------

class Clock:
    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@pytest.fixture
def clock(monkeypatch) -> Clock:
    ticking = Clock()
    monkeypatch.setattr(service.clock, "now", ticking)
    return ticking


def table_with_sides(api, seats: int, alliances, minutes: int = 5) -> TableGame:
    status, created, _ = api.call("POST", "/api/v1/games", {
        "seats": seats, "alliances": alliances, "move_minutes": minutes})
    assert status == 201, created
    tokens = {}
    for seat, info in created["seats"].items():
        status, data, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                   {"join_code": info["join_code"], "name": seat.title()})
        assert status == 200, data
        tokens[seat] = data["token"]
    table = TableGame(api, created["id"], created["host_token"], tokens)
    for n, seat in enumerate(tokens):
        assert table.as_seat(seat, "PUT", "/disposition", ATTACKER if n else QUIET)[0] == 200
    for seat in tokens:
        assert table.as_seat(seat, "POST", "/ready")[0] == 200
    return table


def salvo_at_an_opponent(view: dict) -> dict:
    target = next(s for s in view["order"] if s != view["you"] and s not in view["allies"])
    fired = {sq for r in view["reports"] if r["by"] == view["you"] for sq in r.get("at") or []}
    free = [f"{c} {r}" for r in range(1, 22) for c in "ABCDEFGHIJKLMNOPQRSTU"
            if f"{c} {r}" not in fired]
    return {"weapon": "salvo", "at": free[:3], "target": target}


def test_r25_the_host_chooses_the_stand_ins_level(api, clock, monkeypatch):
    table = table_with_sides(api, 2, False)
    status, shown, _ = api.call("GET", table.path("/host"), token=table.host_token)
    assert status == 200 and shown["stand_in_level"] == NAVAL_WAR.stand_in_level
    status, body, _ = api.call("POST", table.path("/stand-in-level"), {"level": "admiral"},
                               token=table.host_token)
    assert status == 200 and body["stand_in_level"] == "admiral"
    for refused in ("grandmaster", "clairvoyant", 3, None):
        status, body, _ = api.call("POST", table.path("/stand-in-level"), {"level": refused},
                                   token=table.host_token)
        assert_errors(status, body, 422, rule="R25")
    seat = next(iter(table.tokens))
    status, body, _ = table.as_seat(seat, "POST", "/stand-in-level", {"level": "recruit"})
    assert status == 403  # a player is not the host
    played = []
    real = service.computer

    def spy(store, game_id, seat, level):
        played.append((seat, level))
        return real(store, game_id, seat, level)

    monkeypatch.setattr(service.computers, "computer", spy)
    walker = table.view("red")["turn"]
    other = "red" if walker == "blue" else "blue"
    clock.offset += 6 * 60
    status, view, _ = table.as_seat(other, "POST", f"/seats/{walker}/stand-in")
    assert status == 200, view
    assert played == [(walker, "admiral")] and view["reports"][-1]["stand_in"]
    status, body, _ = api.call("POST", table.path("/stand-in-level"), [1, 2],
                               token=table.host_token)
    assert status in (400, 422)  # not an object
    assert table.as_seat(other, "POST", "/resign")[0] == 200
    status, body, _ = api.call("POST", table.path("/stand-in-level"), {"level": "recruit"},
                               token=table.host_token)
    assert_errors(status, body, 409, rule="R25")  # the game is over


@pytest.mark.parametrize("seats, alliances", [
    (3, [["red", "blue"], ["green"]]),  # two against one
    (4, [["red", "blue", "green"], ["gold"]]),  # three against one
])
def test_r23_the_stand_in_plays_in_a_game_with_sides(api, clock, seats, alliances):
    table = table_with_sides(api, seats, alliances)
    api.call("POST", table.path("/stand-in-level"), {"level": "recruit"},
             token=table.host_token)
    order = table.view("red")["order"]
    walker = order[0]
    side = next(s for s in alliances if walker in s)
    other = next(s for s in order if s not in side)
    clock.offset += 6 * 60
    status, view, _ = table.as_seat(other, "POST", f"/seats/{walker}/stand-in")
    assert status == 200, view
    by_computer = [r for r in view["reports"] if r.get("stand_in")]
    assert by_computer and by_computer[0]["by"] == walker
    # everyone else moves in turn; the computer answers for the walker each time round
    for _ in range(2 * seats):
        turn = table.view(other)["turn"]
        if turn is None:
            break
        assert turn != walker  # the computer never leaves the walker's turn waiting
        status, report, _ = table.as_seat(turn, "POST", "/moves",
                                          salvo_at_an_opponent(table.view(turn)))
        assert status == 201, report
    record = table.as_seat(other, "GET", "/record")[1]
    mine = [m for m in record["moves"] if m["by"] == walker]
    assert len(mine) >= 2 and all(m.get("stand_in") for m in mine)
    assert all(m["target"] not in side for m in mine)  # never at an ally (R23)


@pytest.mark.parametrize("seats, alliances, levels", [
    (3, [["red", "blue"], ["green"]], ("captain", "recruit", "admiral")),
    (4, [["red", "blue", "green"], ["gold"]], ("recruit", "recruit", "recruit", "captain")),
])
def test_computers_play_whole_games_with_sides(seats, alliances, levels):
    names = list(NAVAL_WAR.seats)[:seats]
    played = match.play(NAVAL_WAR, dict(zip(names, levels, strict=True)), seed=3,
                        options={"seats": seats, "alliances": alliances})
    assert played.finished
    sides = [sorted(s) for s in alliances]
    assert sorted(played.winners) in [*sides, []]


def test_the_host_page_offers_the_stand_in_levels(tmp_path):
    app = make_app(tmp_path)
    red = Phone(app, "red")
    response = red.submit("/", "/", {"name": "Ann", "seats": "2", "minutes": "20",
                                     "move_minutes": "5"})
    host_path = response.request.path
    game_id = re.fullmatch(r"/games/([0-9a-f]+)/host", host_path).group(1)
    select = re.search(r'<select id="stand-in-level" name="level">(.*?)</select>',
                       response.text, re.S).group(1)
    assert re.findall(r'<option value="([^"]+)"', select) == list(NAVAL_WAR.levels)
    assert f'<option value="{NAVAL_WAR.stand_in_level}" selected>' in select
    assert Page(response.text).form(f"/games/{game_id}/host/stand-in-level")
    response = red.submit(host_path, f"/games/{game_id}/host/stand-in-level",
                          {"level": "recruit"})
    assert "plays as recruit (R25)" in response.text
    assert re.search(r'<option value="recruit" selected>', response.text)
    response = red.submit("/", "/", {"name": "Bo", "seats": "2", "minutes": "20"})
    assert 'id="stand-in-level"' not in response.text  # no move clock: no stand-in (R25)
    with app.app_context():
        store = app.extensions["referee.store"]()
        assert service.stand_in_level(replayed(store, game_id)) == "recruit"


def test_only_the_host_chooses_the_stand_in_level_and_nonsense_is_refused(tmp_path):
    from pages_support import join

    app = make_app(tmp_path)
    red = Phone(app, "red")
    response = red.submit("/", "/", {"name": "Ann", "seats": "2", "minutes": "20",
                                     "move_minutes": "5"})
    host_path = response.request.path
    game_id = re.fullmatch(r"/games/([0-9a-f]+)/host", host_path).group(1)
    action = f"/games/{game_id}/host/stand-in-level"
    link = next(e.attrs["value"] for e in Page(response.text).find("input")
                if e.attrs.get("id") == "link-blue")
    blue = Phone(app, "blue")
    join(blue, link, "Bob")
    csrf = blue.csrf(f"/games/{game_id}")
    refused = blue.post(action, data={"csrf_token": csrf, "level": "recruit"}, follow=False)
    assert refused.status_code == 403  # a player who is not the host
    red.submit(host_path, action, {"level": "recruit"}, token=False)  # no CSRF token
    with app.app_context():
        store = app.extensions["referee.store"]()
        assert service.stand_in_level(replayed(store, game_id)) == NAVAL_WAR.stand_in_level
    for nonsense in ("grandmaster", "clairvoyant", "x" * 5000, ""):
        response = red.submit(host_path, action, {"level": nonsense})
        assert response.status_code == 200
        assert any("R25" in text and "not a computer's level" in text
                   for text in red.flashes(response)), red.flashes(response)
    with app.app_context():
        store = app.extensions["referee.store"]()
        assert service.stand_in_level(replayed(store, game_id)) == NAVAL_WAR.stand_in_level
