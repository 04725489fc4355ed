"""The computer opponent (referee/naval_war/computer) and the duel bench (referee/duel.py).

A bot plays from its seat's view alone (R21): its dispositions are legal (R3-R9), every move
it makes is legal (R12, R13, R23) in two-, three- and four-player games, it plays the same
move whatever else a view holds, and its code cannot reach a game's state.
"""

from __future__ import annotations

import ast
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.duel import duel, duel_command, play_game
from referee.naval_war import (
    Square,
    check_disposition,
    new_game,
    parse_square,
    square_name,
    view_for,
)
from referee.naval_war.computer import LEVELS, Bot, NotYourTurn
from referee.naval_war.computer.board import index
from referee.naval_war.computer.inference import Chart
from referee.naval_war.layout import pack

BOTS = Path(__file__).resolve().parent.parent / "referee" / "naval_war" / "computer"
BOT_FILES = sorted(BOTS.glob("*.py"))
LEVEL_NAMES = list(LEVELS)


def imported_modules(path: Path) -> set[str]:
    """Every module a source file imports, relative imports written as ``.name``."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if called in ("__import__", "import_module", "eval", "exec"):
                names.add(f"<{called}>")
    return names


def play(levels: dict[str, str], seats: int = 2, alliances: bool = False, seed: int = 0,
         check_views=None):
    """A whole game between bots, each handed only its seat's view; every move must be legal."""
    rng = random.Random(seed)
    bots = {seat: Bot(level, rng.randrange(10**9), strict=True)
            for seat, level in levels.items()}
    game, _ = new_game(id="t", seats=seats, alliances=alliances,
                       bots={s: b.level for s, b in bots.items()}, seed=seed)
    for seat, bot in bots.items():
        game.submit(seat, bot.disposition(rng=random.Random(rng.randrange(10**9))))
    for seat in bots:
        game.lock_in(seat)
    moves = 0
    while game.phase == "play":
        seat = game.turn
        view = view_for(game, seat)
        move = bots[seat].move(view)
        if check_views:
            check_views(game, seat, bots[seat], view, move)
        game.move(seat, move)  # raises RuleViolation if the bot broke a ruling
        moves += 1
    return game, moves


# -- dispositions (R3-R9) ----------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_r3_to_r9_every_level_lays_out_legal_dispositions(level):
    for seed in range(25):
        fleet, cost, _ = check_disposition(Bot(level, seed).disposition())
        assert cost.total <= 160 and cost.ships >= 60 and cost.forces >= 60
        fleet2, _, _ = check_disposition(Bot(level, 0).disposition(rng=random.Random(seed)))
        assert fleet2.ships


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_disposition_depends_only_on_the_seed(level):
    assert Bot(level, 5).disposition() == Bot(level, 5).disposition()
    assert Bot(level, 5).disposition(rng=random.Random(9)) == Bot(level, 6).disposition(
        rng=random.Random(9))


def test_the_admiral_disperses_its_ships_and_guards_its_land():
    doc = Bot("admiral", 3).disposition()
    fleet, _, _ = check_disposition(doc)
    ship_squares = {sq for ship in fleet.ships for sq in ship.squares}
    # no atom bomber's 5 x 5 anywhere holds much of the fleet
    worst = max(sum(1 for sq in ship_squares if abs(sq.col - c) <= 2 and abs(sq.row - r) <= 2)
                for c in range(21) for r in range(21))
    assert worst <= 8, worst
    assert sum(1 for s in fleet.ships if s.type == "submarine") >= 30
    middles = {Square(u.col + 1, u.row + 1) for u in map(parse_square, doc["land"])}
    guarded = middles & {gun.square for gun in fleet.guns}
    assert len(guarded) == min(len(middles), len(fleet.guns))  # R18: guns guard the land
    assert fleet.salvoes >= 30


# -- moves (R12-R14, R23) ------------------------------------------------------------------------


@pytest.mark.parametrize("red, blue", [("recruit", "captain"), ("captain", "admiral"),
                                       ("admiral", "recruit"), ("admiral", "admiral")])
def test_r12_r13_every_move_of_a_two_player_game_is_legal(red, blue):
    game, moves = play({"red": red, "blue": blue}, seed=len(red) + len(blue))
    assert game.phase == "over" and game.over == "exhausted"
    assert moves == len(game.reports) > 40


def test_r23_every_move_of_a_three_player_game_is_legal():
    game, _ = play({"red": "recruit", "blue": "captain", "green": "admiral"}, seats=3, seed=4)
    assert game.phase == "over"
    assert {r["by"] for r in game.reports} == {"red", "blue", "green"}


def test_r23_allies_never_attack_each_other_in_a_four_player_game():
    game, _ = play({"red": "admiral", "blue": "captain", "green": "recruit", "gold": "admiral"},
                   seats=4, alliances=True, seed=5)
    assert game.phase == "over"
    for report in game.reports:
        assert not game.allied(report["by"], report["target"])


def test_a_bot_refuses_to_move_out_of_turn():
    game, _ = play({"red": "recruit", "blue": "recruit"}, seed=1)
    view = view_for(game, "red")  # the game is over
    with pytest.raises(NotYourTurn):
        Bot("admiral", 1).move(view)


# -- R21: the view and nothing else --------------------------------------------------------------


def _stripped(view: dict) -> dict:
    """The view with everything a bot has no use for removed."""
    keep = ("phase", "you", "turn", "seats", "allies", "order", "disposition", "damage",
            "forces", "reports")
    copy = {k: json.loads(json.dumps(view[k])) for k in keep}
    for seat in copy["seats"].values():
        seat.pop("name", None)
    for report in copy["reports"]:
        report.pop("text", None)
    return copy


def _with_secrets(game, seat: str, view: dict) -> dict:
    """The view with every opponent's true chart added: a bot that read it would cheat."""
    copy = json.loads(json.dumps(view))
    copy["revealed"] = {other: {"disposition": game.fleets[other].document,
                                "damage": game.fleets[other].damage()}
                        for other in game.seats if other != seat}
    copy["id"], copy["version"] = "elsewhere", 10**6
    return copy


def test_r21_a_bot_plays_identically_from_a_copy_a_stripped_view_or_one_with_secrets():
    checked = []

    def check(game, seat, bot, view, move):
        if len(game.reports) % 7:
            return
        again = Bot(bot.level, bot.seed, strict=True)
        assert again.move(json.loads(json.dumps(view))) == move
        assert again.move(_stripped(view)) == move
        assert again.move(_with_secrets(game, seat, view)) == move
        checked.append(bot.level)

    play({"red": "admiral", "blue": "captain"}, seed=8, check_views=check)
    play({"red": "recruit", "blue": "admiral"}, seed=9, check_views=check)
    # the levels between and beyond those three, weakest first
    play({"red": "cadet", "blue": "midshipman"}, seed=9, check_views=check)
    play({"red": "lieutenant", "blue": "commodore"}, seed=9, check_views=check)
    play({"red": "vice-admiral", "blue": "captain"}, seed=9, check_views=check)
    assert set(checked) == set(LEVEL_NAMES)


def test_r21_a_bot_does_not_change_the_view_it_is_given():
    def check(game, seat, bot, view, move):
        before = json.dumps(view, sort_keys=True)
        bot.move(view)
        assert json.dumps(view, sort_keys=True) == before

    play({"red": "admiral", "blue": "captain"}, seed=10, check_views=check)


ALLOWED_IMPORTS = {
    "__future__", "random", "math", "itertools", "collections", "dataclasses", "typing",
    "functools", "heapq", "statistics",
    "referee.naval_war.squares", "referee.naval_war.fleet", "referee.naval_war.knowledge",
    "referee.naval_war.layout", "referee.naval_war.catalogue",  # constants only
    "referee.common.computer",  # the computer every rule set shares (it holds no game)
}
FORBIDDEN_NAMES = {"Game", "replay", "new_game", "view_for", "fleets", "events", "globals",
                   "__globals__", "__builtins__", "getattr", "vars", "modules"}


def test_there_are_bot_modules_to_scan():
    assert {p.name for p in BOT_FILES} >= {"__init__.py", "recruit.py", "captain.py",
                                           "admiral.py", "inference.py"}


@pytest.mark.parametrize("path", BOT_FILES, ids=lambda p: p.name)
def test_r21_bot_code_imports_nothing_that_holds_a_game(path):
    imports = imported_modules(path)
    outside = {name for name in imports if not name.startswith(".")} - ALLOWED_IMPORTS
    assert not outside, f"{path.name} imports {sorted(outside)}"
    relative = {name for name in imports if name.startswith(".")}
    assert all(name.count(".") == 1 and not name.startswith("..") for name in relative), \
        relative  # only modules of referee/naval_war/computer itself


@pytest.mark.parametrize("path", BOT_FILES, ids=lambda p: p.name)
def test_r21_bot_code_names_no_game_state(path):
    tree = ast.parse(path.read_text())
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not names & FORBIDDEN_NAMES, sorted(names & FORBIDDEN_NAMES)


@pytest.mark.parametrize("path", BOT_FILES, ids=lambda p: p.name)
def test_bot_code_is_pure(path):
    tops = {name.split(".")[0] for name in imported_modules(path) if not name.startswith(".")}
    assert not tops & {"flask", "sqlite3", "sqlite_utils", "reportlab", "werkzeug", "waitress"}
    assert tops <= set(sys.stdlib_module_names) | {"referee"}


SHARED_COMPUTER = BOTS.parent.parent / "common" / "computer.py"


def test_r21_the_shared_computer_imports_only_randomness_and_types_and_names_no_game():
    """The wrapper every rule set's computer is built on (``referee.common.computer``)
    holds no game either: it imports nothing but the standard library's randomness and
    types, and names no game state."""
    assert imported_modules(SHARED_COMPUTER) <= {
        "__future__", "random", "collections.abc", "dataclasses", "typing"}
    tree = ast.parse(SHARED_COMPUTER.read_text())
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not names & FORBIDDEN_NAMES, sorted(names & FORBIDDEN_NAMES)


def test_importing_the_bots_loads_no_web_storage_or_pdf_code():
    script = ("import json, sys\n"
              "import referee.naval_war.computer, referee.naval_war.computer.captain\n"
              "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=BOTS.parents[2], check=True, timeout=60)
    loaded = {name.split(".")[0] for name in json.loads(done.stdout)}
    assert not loaded & {"flask", "sqlite3", "sqlite_utils", "reportlab", "werkzeug", "click"}


def test_the_scan_sees_imports():
    assert {"ast", "json", "referee.naval_war.computer", "referee.duel"} <= imported_modules(
        Path(__file__))


# -- what the admiral makes of its reports -------------------------------------------------------


def _report(n, weapon, at, **fields):
    base = {"n": n, "by": "red", "target": "blue", "weapon": weapon, "at": at,
            "shot_down": False, "hits": [], "destroyed": {}, "shots": None, "seen": None}
    return {**base, **fields}


def _seen(centre_squares: dict[str, str | None], terrain: str = "sea") -> list[dict]:
    return [{"square": sq, "terrain": terrain, "piece": piece, "hit": False, "spent": False}
            for sq, piece in centre_squares.items()]


def test_r8_a_submarine_seen_is_certain_and_its_neighbours_are_empty():
    seen = _seen({"J 9": None, "K 9": None, "L 9": None, "J 10": None, "K 10": "submarine",
                  "L 10": None, "J 11": None, "K 11": None, "L 11": None})
    chart = Chart({"reports": [_report(1, "recon", ["K 10"], seen=seen)]}, "blue")
    assert chart.p[index("K 10")] == 1.0
    assert chart.p[index("K 9")] == 0.0
    assert 0 < chart.p[index("A 1")] < 0.5


def test_r8_a_hit_destroyer_is_finished_next_to_its_hit_and_nowhere_diagonal():
    shots = [{"at": "K 10", "result": "destroyer", "new": True, "sunk": False},
             {"at": "A 1", "result": None, "new": False, "sunk": False},
             {"at": "U 21", "result": None, "new": False, "sunk": False}]
    chart = Chart({"reports": [_report(1, "salvo", ["K 10", "A 1", "U 21"], shots=shots)]},
                  "blue")
    around = {name: chart.p[index(name)] for name in ("K 9", "K 11", "J 10", "L 10")}
    assert all(abs(p - 0.25) < 1e-9 for p in around.values()), around
    assert chart.p[index("L 11")] == 0.0  # R8: no other ship touches it at a corner


def test_r18_r20_a_shot_down_recon_marks_a_gun_and_a_bomber_hit_a_ship_to_finish():
    reports = [_report(1, "recon", ["C 3"], shot_down=True),
               _report(2, "bomber", ["K 10"],
                       hits=[{"ship": "battleship", "new_hits": 1, "sunk": False}])]
    chart = Chart({"reports": reports}, "blue")
    assert chart.risk(index("C 3")) > chart.risk(index("Q 17")) + 0.2
    ghosts = [s for s in chart.ships if s.kind == "battleship"]
    assert len(ghosts) == 1 and ghosts[0].options
    # the rest of the battleship lies just outside the bombed 3 x 3, three squares long
    assert all(len(option) == 3 for option in ghosts[0].options)
    assert chart.p[index("K 12")] > chart.p[index("A 20")]


# -- how the admiral chooses -----------------------------------------------------------------------


def _hand_view(disposition: dict, reports: list[dict], flown: tuple[str, ...] = ()) -> dict:
    """Red's view at its turn in a two-player game, with these reports."""
    fleet, _, _ = check_disposition(disposition)
    forces = {"atom-bomber": 0, "bomber": 0, "recon": 0, "salvo": fleet.salvoes}
    for plane in fleet.aircraft:
        if square_name(plane.square) not in flown:
            forces[plane.type] += 1
    return {"phase": "play", "you": "red", "turn": "red", "allies": [], "order": ["red", "blue"],
            "seats": {"red": {"forfeited": False}, "blue": {"forfeited": False}},
            "disposition": fleet.document, "forces": forces, "reports": reports,
            "damage": {"hit": [], "destroyed": [], "flown": list(flown), "spent": []}}


ARMED = pack({"submarine": 60, "atom-bomber": 1, "bomber": 4, "recon": 10, "salvo": 28})
FOUR_SUBMARINES = _seen({"J 9": "submarine", "K 9": None, "L 9": "submarine",
                         "J 10": None, "K 10": None, "L 10": None,
                         "J 11": "submarine", "K 11": None, "L 11": "submarine"})


def test_the_admiral_sends_its_atom_bombers_first_and_holds_its_bombers():
    move = Bot("admiral", 1).move(_hand_view(ARMED, []))
    assert move["weapon"] == "atom-bomber" and move["target"] == "blue"
    atom = next(a["at"] for a in ARMED["aircraft"] if a["type"] == "atom-bomber")
    move = Bot("admiral", 1).move(_hand_view(ARMED, [], flown=(atom,)))
    assert move["weapon"] == "recon"  # nothing worth a bomber yet


def test_the_admiral_bombs_a_3x3_where_ships_were_seen():
    atom = next(a["at"] for a in ARMED["aircraft"] if a["type"] == "atom-bomber")
    view = _hand_view(ARMED, [_report(1, "recon", ["K 10"], seen=FOUR_SUBMARINES)],
                      flown=(atom,))
    move = Bot("admiral", 1).move(view)
    assert (move["weapon"], move["at"]) == ("bomber", "K 10")


def test_the_admiral_shoots_an_enemy_bomber_seen_on_the_ground():
    seen = _seen({"B 1": None, "B 2": "bomber", "C 1": None, "C 2": "recon"}, terrain="land")
    view = _hand_view(Bot("admiral", 2).disposition(),
                      [_report(1, "recon", ["B 2"], seen=seen)])
    move = Bot("admiral", 2).move(view)
    assert move["weapon"] == "salvo" and {"B 2", "C 2"} <= set(move["at"])


def test_the_admiral_flies_an_aircraft_the_enemy_has_seen():
    doc = Bot("admiral", 3).disposition()
    plane = doc["aircraft"][-1]["at"]
    seen = [{"square": plane, "terrain": "land", "piece": "recon", "hit": False,
             "spent": False}]
    spotted = {**_report(1, "recon", [plane], seen=seen), "by": "blue", "target": "red"}
    move = Bot("admiral", 3).move(_hand_view(doc, [spotted]))
    assert move["from"] == plane


def test_the_admiral_finishes_located_ships_with_its_salvoes():
    doc = pack({"submarine": 60, "recon": 1, "salvo": 59})
    recon = doc["aircraft"][0]["at"]
    view = _hand_view(doc, [_report(1, "recon", ["K 10"], seen=FOUR_SUBMARINES)],
                      flown=(recon,))
    move = Bot("admiral", 4).move(view)
    assert move["weapon"] == "salvo"
    assert set(move["at"]) < {"J 9", "L 9", "J 11", "L 11"}


def test_the_admiral_plays_bombers_and_atom_bombers_legally(monkeypatch):
    from referee.naval_war.computer import admiral

    armed = admiral.Doctrine(plan=(("submarine", 40), ("destroyer", 10), ("atom-bomber", 3),
                                   ("bomber", 6), ("recon", 20), ("aa-gun", 6),
                                   ("salvo", 16)))
    monkeypatch.setattr(admiral, "DOCTRINE", armed)
    game, _ = play({"red": "admiral", "blue": "captain"}, seed=12)
    weapons = {r["weapon"] for r in game.reports if r["by"] == "red"}
    assert {"atom-bomber", "bomber", "recon", "salvo"} <= weapons


# -- the duel ------------------------------------------------------------------------------------


def test_a_short_duel_is_deterministic_for_a_seed():
    first = duel("admiral", "recruit", 6, seed=3)
    second = duel("admiral", "recruit", 6, seed=3)
    assert first.games == 6 and first.wins_a + first.wins_b + first.draws == 6
    assert (first.scores_a, first.scores_b) == (second.scores_a, second.scores_b)
    assert first.wins_a >= 5
    assert duel("admiral", "recruit", 6, seed=4).scores_a != first.scores_a


def test_r11_the_duel_alternates_who_moves_first():
    for seed, a_first in ((1, True), (1, False), (2, True), (3, False)):
        game = play_game("recruit", "captain", seed, a_first)
        assert game.phase == "over"
        assert game.order[0] == ("red" if a_first else "blue")  # a plays red
        assert game.bots == {"red": "recruit", "blue": "captain"}


def test_the_duel_command_prints_the_result_on_standard_output():
    runner = CliRunner()
    args = ["--a", "admiral", "--b", "recruit", "--games", "4", "--seed", "2"]
    first = runner.invoke(duel_command, args)
    second = runner.invoke(duel_command, args)
    assert first.exit_code == 0, first.output
    lines = first.stdout.splitlines()
    assert re.fullmatch(r"admiral wins [0-4] of 4 \(draws [0-4]\)", lines[0])
    assert re.fullmatch(r"mean scores: admiral \d+\.\d, recruit \d+\.\d", lines[1])
    assert len(lines) == 2
    assert first.stdout == second.stdout


def test_the_duel_command_refuses_an_unknown_level():
    result = CliRunner().invoke(duel_command, ["--a", "grandmaster"])
    assert result.exit_code != 0
