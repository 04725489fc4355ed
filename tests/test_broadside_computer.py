"""The computer of Broadside, playing either side at seven levels, weakest first.

Every level plays either side from their seat's view alone (B12, B14): every move they make is
legal (B5) in games umpired by the property tests' own model (``Model``, written independently
of the core and of the computer) and through the core itself; their dispositions are legal (B3,
B4) and Blue's secrets come from the computer's seed, every setting B4 allows among them; the
same view gets the same move; the computer's code imports nothing that holds a game. The
levels that reckon hazards avoid unrevealed buoys and the red circles they suspect, read the
batteries from the masts Red lost to them, and take a crossed T or a merchant ship when they
can; the drifter notices a chance one turn in five, the dabbler one in two, the novice every
turn; the cunning Blue holds the inner harbour; the careful level beats the random level from
either side.
"""

from __future__ import annotations

import ast
import copy
import random
from collections import Counter
from pathlib import Path

import pytest
from apiclient import against_computers
from test_broadside_properties import BOARD, YELLOW, Model, ahead, turned

from referee.broadside.computer import LEVELS, STAND_IN_LEVEL, Computer, NotYourTurn, computer
from referee.broadside.computer.sight import buoy_settings, read_sight

COMPUTER = Path(__file__).resolve().parent.parent / "referee" / "broadside" / "computer"
COMPUTER_FILES = sorted(COMPUTER.glob("*.py"))
FLEETS = {"red": Counter({"ship-of-the-line": 2, "frigate": 3, "brig": 3, "cutter": 2}),
          "blue": Counter({"frigate": 4, "brig": 2, "cutter": 4})}  # B3, written out again


def strict(level: str, seed: int = 1) -> Computer:
    return Computer(level, seed, strict=True)


def setup_view(seat: str, game: str = "g") -> dict:
    return {"rules": "broadside", "id": game, "you": seat, "phase": "setup", "turn": None,
            "board": BOARD, "legal": [], "reports": [], "ships": []}


def model_game(red_level: str, blue_level: str, seed: int, cap: int = 400):
    """A whole game umpired by the model; every move the computers make is checked legal by
    the model (B5). Returns the model and the reports."""
    rng = random.Random(seed)
    bots = {"red": strict(red_level, rng.randrange(2**31)),
            "blue": strict(blue_level, rng.randrange(2**31))}
    red = bots["red"].disposition(setup_view("red", f"m{seed}"))
    blue = bots["blue"].disposition(setup_view("blue", f"m{seed}"))
    model = Model(red, blue)
    reports: list[dict] = []
    for _ in range(cap):
        if model.over:
            break
        side = model.turn
        chosen = bots[side].move(model.view(side, copy.deepcopy(reports)))
        if chosen.get("pass"):
            assert not model.legal(side), "a pass only without a legal move (B5)"
            move = None
        else:
            assert set(chosen) == {"ship", "turn", "to"}
            move = (chosen["ship"], chosen["turn"], chosen["to"])
            assert move in model.legal(side), f"{side} {level_of(bots[side])}: {chosen} (B5)"
        told = model.play(side, move)
        reports.append(model.report(side, move, told))
    return model, reports


def level_of(bot: Computer) -> str:
    return bot.level


# ---------------------------------------------------------------- legality and the view alone


LEVEL_PAIRS = [("random", "random"), *((level, "random") for level in list(LEVELS)[1:]),
               *(("random", level) for level in list(LEVELS)[1:]), ("careful", "careful"),
               ("cunning", "careful"), ("careful", "cunning"), ("cunning", "cunning")]


@pytest.mark.parametrize(("red", "blue"), LEVEL_PAIRS)
def test_b5_every_move_every_level_makes_is_legal_from_either_side_over_a_whole_game(red, blue):
    model, reports = model_game(red, blue, len(red) + 7 * len(blue), cap=1000)
    assert reports and model.over, f"{red} v {blue}: no end in {len(reports)} moves"


@pytest.mark.parametrize("level", list(LEVELS))
def test_b3_b4_dispositions_are_legal_for_both_sides(level):
    for seed in range(40):
        for seat in ("red", "blue"):
            doc = Computer(level, seed).disposition(setup_view(seat, f"d{seed}"))
            assert Counter(s["type"] for s in doc["ships"]) == FLEETS[seat]
            crosses = [s["at"] for s in doc["ships"]]
            assert len(set(crosses)) == 10
            assert set(crosses) <= set(BOARD["red_start" if seat == "red" else "blue_start"])
            if seat == "red":
                assert set(doc) == {"ships"}
                continue
            sink = {at for at, kind in doc["buoys"].items() if kind == "sink"}
            assert sorted(doc["buoys"]) == sorted(YELLOW) and len(sink) == 3
            assert set(doc["buoys"].values()) == {"sink", "pass"}
            assert not set(BOARD["buoys"]["row"]) <= sink  # B4: never all three of the row
            assert not set(BOARD["buoys"]["pair"]) <= sink  # B4: never both of the pair
            assert sorted(doc["batteries"]) == ["A", "B", "C", "D"]
            assert sorted(doc["batteries"].values()) == ["hit", "hit", "miss", "miss"]


def secrets_drawn(level: str, seeds: int = 400) -> tuple[Counter, Counter]:
    """How often each setting of the buoys (the SINK ones) and the batteries (the HIT ones)
    came in ``seeds`` of the level's Blue dispositions."""
    buoys, batteries = Counter(), Counter()
    for seed in range(seeds):
        doc = Computer(level, f"secret-{seed}").disposition(setup_view("blue"))
        buoys[frozenset(at for at, k in doc["buoys"].items() if k == "sink")] += 1
        batteries[frozenset(s for s, k in doc["batteries"].items() if k == "hit")] += 1
    return buoys, batteries


@pytest.mark.parametrize("level", list(LEVELS))
def test_b4_blues_secrets_come_from_the_seed_and_cover_every_legal_setting(level):
    buoys, batteries = secrets_drawn(level)
    assert set(buoys) == set(buoy_settings()) and len(buoys) == 15
    assert len(batteries) == 6


@pytest.mark.parametrize("level", [level for level in LEVELS
                                   if level not in ("careful", "cunning")])
def test_b4_up_to_the_bold_level_no_setting_of_blues_secrets_is_favoured(level):
    buoys, batteries = secrets_drawn(level)
    assert max(buoys.values()) < 3 * min(buoys.values())
    assert max(batteries.values()) < 2 * min(batteries.values())


@pytest.mark.parametrize(("level", "armed"), [("careful", 0.5), ("cunning", 0.75)])
def test_b4_the_careful_and_cunning_blues_arm_the_channel_red_comes_through(level, armed):
    # Red starts at the foot of the east channel: its batteries are C and D, and of the
    # pair of buoys K 13 lies nearer Red's start than J 13. Armed that share of the time,
    # else any setting (C and D then one time in six): never always
    buoys, batteries = secrets_drawn(level)
    east = batteries[frozenset({"C", "D"})] / 400
    assert abs(east - (armed + (1 - armed) / 6)) < 0.07, batteries
    on = Counter(at for setting, n in buoys.items() for at in setting for _ in range(n))
    assert on["K 13"] > 1.3 * on["J 13"], on


def test_b12_the_same_view_gets_the_same_move_and_a_seed_its_own():
    model, reports = model_game("careful", "random", 3, cap=30)
    view = model.view(model.turn, reports)
    for level in LEVELS:
        assert strict(level, 5).move(copy.deepcopy(view)) == strict(level, 5).move(view)
    dispositions = {json_of(Computer("careful", s).disposition(setup_view("blue")))
                    for s in range(10)}
    assert len(dispositions) > 5


def json_of(document: dict) -> str:
    import json
    return json.dumps(document, sort_keys=True)


def test_b5_the_computer_refuses_to_move_out_of_turn_and_passes_with_no_move():
    model, reports = model_game("random", "random", 1, cap=5)
    side = model.turn
    waiting = model.view("blue" if side == "red" else "red", reports)
    for level in LEVELS:
        with pytest.raises(NotYourTurn):
            strict(level).move(waiting)
        stuck = model.view(side, reports) | {"legal": [{"pass": True}]}
        assert strict(level).move(stuck) == {"pass": True}


def test_b14_a_failing_level_tells_on_failure_and_plays_a_legal_move():
    model, reports = model_game("random", "random", 2, cap=6)
    view = model.view(model.turn, reports)
    broken = copy.deepcopy(view)
    broken["ships"] = [s for s in broken["ships"] if s["side"] != model.turn]  # no own ships
    told = []
    bot = computer("careful", 4, on_failure=lambda level, failure: told.append(level))
    chosen = bot.move(broken)
    assert told == ["careful"]
    assert (chosen["ship"], chosen["turn"], chosen["to"]) in model.legal(model.turn)
    with pytest.raises(KeyError):
        strict("careful", 4).move(broken)


ALLOWED_IMPORTS = {"__future__", "random", "typing", "dataclasses", "functools", "itertools",
                   "collections", "referee.broadside.board",
                   # the computer every rule set shares (it holds no game)
                   "referee.common.computer.Computer", "referee.common.computer.Level",
                   "referee.common.computer.Roster"}


def imports_of(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if node.module.startswith("referee"):  # the module named, not its package
                found |= {f"{node.module}.{alias.name}" for alias in node.names}
            else:
                found.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "__import__", "eval", "exec"):
            found.add(node.func.id)
    return found


@pytest.mark.parametrize("path", COMPUTER_FILES, ids=lambda p: p.name)
def test_b12_computer_code_imports_nothing_that_holds_a_game(path):
    """The computer reads its view and the harbour's geometry (board.py, pure data); nothing
    of the core that holds a game (game, views, fleet), nor anything that could reach one."""
    outside = imports_of(path) - ALLOWED_IMPORTS
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_b12_the_scan_sees_imports(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import os\nfrom referee.broadside.game import Game\n__import__('x')\n"
                     "from referee.broadside import views, board\n")
    assert imports_of(probe) - ALLOWED_IMPORTS == {"os", "referee.broadside.game.Game",
                                                   "__import__", "referee.broadside.views"}


# ---------------------------------------------------------------- what it infers (B6, B7, B11)


def test_b4_b6_red_reckons_the_buoys_from_the_settings_b4_allows():
    view = setup_view("red") | {"buoys": {at: {"kind": "unknown", "revealed": False}
                                          for at in YELLOW}}
    sight = read_sight(view)
    assert sight.sink["D 13"] == pytest.approx(9 / 15)  # the single: 9 of the 15 settings
    assert sight.sink["J 13"] == pytest.approx(6 / 15)  # a pair buoy: never both
    assert sight.sink["F 6"] == pytest.approx(8 / 15)  # a row buoy: never all three
    j13 = {"at": "J 13", "kind": "sink"}
    view["buoys"]["J 13"] = {"kind": "sink", "revealed": True}
    view["reports"] = [{"seat": "red", "path": ["J 14", "J 13"], "buoys": [j13],
                        "battery_masts": 0, "sunk": [{"side": "red", "by": "rock"}]}]
    sight = read_sight(view)
    assert "J 13" not in sight.sink and sight.sink["K 13"] == 0.0  # B4: not both of the pair


def test_b7_b11_red_reads_the_batteries_from_the_masts_it_lost():
    view = setup_view("red") | {"batteries": dict.fromkeys("ABCD", "unknown")}
    assert read_sight(view).hit == dict.fromkeys("ABCD", 0.5)
    view["reports"] = [{"seat": "red", "path": ["C 12", "C 11", "C 10", "C 9"],
                        "battery_masts": 1, "sunk": []}]
    hit = read_sight(view).hit
    assert hit["A"] == 1.0 and hit["B"] == pytest.approx(1 / 3)
    view["reports"].append({"seat": "red", "path": ["I 11", "I 10"], "battery_masts": 0,
                            "sunk": []})
    hit = read_sight(view).hit
    assert hit == {"A": 1.0, "B": 0.5, "C": 0.0, "D": 0.5}
    # a ship the batteries sank lost only what it had: the double circle may have held two
    view["reports"].append({"seat": "red", "path": ["D 11", "D 10"], "battery_masts": 1,
                            "sunk": [{"side": "red", "by": "batteries"}]})
    assert read_sight(view).hit == {"A": 1.0, "B": 0.5, "C": 0.0, "D": 0.5}
    blue = setup_view("blue") | {"batteries": {"A": "hit", "B": "miss", "C": "hit",
                                               "D": "miss"}}
    assert read_sight(blue).hit == {"A": 1.0, "B": 0.0, "C": 1.0, "D": 0.0}


# ---------------------------------------------------------------- the careful level's choices


def position(ships: list[tuple[str, str, str, str, int]], seat: str, *,
             sunk_merchants: tuple[str, ...] = (), buoys: dict | None = None,
             batteries: dict | None = None, reports: list | None = None) -> dict:
    """A view (B14) of a made-up position, the legal moves worked out by the model."""
    model = Model({"ships": []}, {"ships": [], "buoys": dict.fromkeys(YELLOW, "pass"),
                                  "batteries": dict.fromkeys("ABCD", "miss")})
    for side, kind, at, facing, masts in ships:
        model.ships[at] = {"side": side, "type": kind, "facing": facing, "masts": masts}
    for dock in sunk_merchants:
        model.merchants[dock] = True
    model.turn = seat
    view = model.view(seat, reports or [])
    if buoys is not None:
        view["buoys"] = buoys
    if batteries is not None:
        view["batteries"] = batteries
    return view


def landing_of(view: dict, move: dict) -> tuple[str, str]:
    ship = next(s for s in view["ships"] if s["at"] == move["ship"])
    return move["to"], turned(ship["facing"], move["turn"])


@pytest.mark.parametrize("level", ["novice", "bold", "careful", "cunning"])
def test_b9_red_sinks_a_merchant_when_it_can(level):
    # Red's frigate at H 2 (beside the pier) turns right and stops on I 2 (or L 2), opposite
    # the merchant at I 1 (L 1), its broadside toward it
    view = position([("red", "frigate", "H 2", "up", 3), ("red", "brig", "M 20", "up", 2),
                     ("blue", "cutter", "A 16", "down", 1)], "red")
    for seed in range(5):
        move = strict(level, seed).move(view)
        assert landing_of(view, move) in (("I 2", "right"), ("L 2", "right")), move


@pytest.mark.parametrize("level", ["bold", "careful", "cunning"])
def test_b8_red_crosses_the_t_rather_than_exchange(level):
    # Blue's brig at D 5 faces down: from D 6 (ahead of it) a ship facing across fires into it
    # unanswered; Red's brig at C 8 could sail up to C 5 and exchange broadsides instead (the
    # western merchants are sunk already, so no merchant beckons)
    ships = [("red", "frigate", "A 6", "up", 3), ("red", "brig", "C 8", "up", 2),
             ("blue", "brig", "D 5", "down", 2)]
    view = position(ships, "red", sunk_merchants=("B 1", "E 1"))
    for seed in range(5):
        move = strict(level, seed).move(view)
        to, facing = landing_of(view, move)
        assert (to, facing) == ("D 6", "right"), move


@pytest.mark.parametrize("level", ["novice", "bold", "careful", "cunning"])
def test_b8_blue_crosses_the_t_of_a_red_ship(level):
    ships = [("red", "frigate", "J 7", "up", 3), ("red", "brig", "M 20", "up", 2),
             ("blue", "frigate", "M 6", "down", 3)]
    view = position(ships, "blue")
    for seed in range(5):
        to, facing = landing_of(view, strict(level, seed).move(view))
        assert to == "J 6" and facing == "left"  # ahead of Red's bow, broadside down at it


@pytest.mark.parametrize("level", ["careful", "cunning"])
def test_b6_red_keeps_off_unrevealed_buoys(level):
    """Red's frigate below the pair of buoys: every run up its column or the next meets a
    buoy; it goes round. Once the buoy at J 13 is revealed (PASS) it may sail over it."""
    ships = [("red", "frigate", "J 14", "up", 3), ("blue", "cutter", "A 3", "down", 1)]
    view = position(ships, "red")
    unknown = {at for at, b in view["buoys"].items() if b["kind"] == "unknown"}
    for seed in range(5):
        move = strict(level, seed).move(view)
        facing = landing_of(view, move)[1]
        path = path_between(move["ship"], move["to"], facing)
        assert not set(path) & unknown, move
    random_paths = [path_between(m["ship"], m["to"], landing_of(view, m)[1])
                    for m in view["legal"]]
    assert any(set(p) & unknown for p in random_paths)  # the buoys were in reach


@pytest.mark.parametrize("level", ["bold", "careful", "cunning"])
def test_b6_blue_never_sails_onto_his_own_sink_buoy(level):
    ships = [("blue", "frigate", "J 14", "up", 3), ("red", "cutter", "J 3", "down", 1)]
    buoys = {at: {"kind": "sink" if at in ("J 13", "F 6", "D 13") else "pass",
                  "revealed": False} for at in YELLOW}
    view = position(ships, "blue", buoys=buoys)
    for seed in range(5):
        move = strict(level, seed).move(view)
        path = path_between(move["ship"], move["to"], landing_of(view, move)[1])
        assert not {"J 13", "F 6", "D 13"} & set(path), move


@pytest.mark.parametrize("level", ["bold", "careful", "cunning"])
def test_b7_red_keeps_off_a_circle_it_knows_is_hit(level):
    """Red lost a mast at C 10 (site A is HIT): its one-masted brig at D 12 does not sail up
    through D 10, where A would sink it."""
    reports = [{"seat": "red", "path": ["C 11", "C 10"], "battery_masts": 1, "sunk": []},
               {"seat": "red", "path": ["I 11", "I 10", "I 9"], "battery_masts": 0,
                "sunk": []}]
    ships = [("red", "brig", "D 12", "up", 1), ("blue", "cutter", "A 3", "down", 1)]
    view = position(ships, "red", reports=reports)
    for seed in range(5):
        move = strict(level, seed).move(view)
        path = path_between(move["ship"], move["to"], landing_of(view, move)[1])
        assert "D 10" not in path and "C 10" not in path, move


@pytest.mark.parametrize("level", ["careful", "cunning"])
def test_b8_b10_blue_breaks_a_jam_round_the_last_red_ship(level):
    """Red's last frigate in the corner at M 20 cannot move (B5: it passes); Blue's own ships
    hold both crosses beside it, and a ship fires only when a move brings it there (B8). Blue
    must clear a cross and sail into it again; the careful level, after a lull of moves
    without a shot, does so, and sinks the frigate (B10)."""
    ships = [("red", "frigate", "M 20", "right", 2),
             ("blue", "cutter", "L 16", "up", 1), ("blue", "frigate", "L 18", "right", 2),
             ("blue", "cutter", "M 18", "down", 1), ("blue", "cutter", "K 19", "down", 1),
             ("blue", "frigate", "L 19", "right", 3), ("blue", "frigate", "M 19", "down", 2),
             ("blue", "frigate", "J 20", "right", 1), ("blue", "brig", "K 20", "down", 2),
             ("blue", "brig", "L 20", "down", 2)]
    view = position(ships, "blue")
    model = Model({"ships": []}, {"ships": [], "buoys": dict.fromkeys(YELLOW, "pass"),
                                  "batteries": dict.fromkeys("ABCD", "miss")})
    for side, kind, at, facing, masts in ships:
        model.ships[at] = {"side": side, "type": kind, "facing": facing, "masts": masts}
    model.turn = "blue"
    assert view["turn"] == "blue"
    blue, red = strict(level, 3), strict("random", 3)
    reports: list[dict] = []
    for _ in range(300):
        if model.over:
            break
        side = model.turn
        chosen = (blue if side == "blue" else red).move(model.view(side, reports))
        move = None if chosen.get("pass") else (chosen["ship"], chosen["turn"], chosen["to"])
        told = model.play(side, move)
        reports.append(model.report(side, move, told))
    assert model.winner == "blue", "the jam was never broken"


def test_b9_the_drifter_notices_a_chance_one_turn_in_five_the_dabbler_in_two_the_novice_always():
    view = position([("red", "frigate", "H 2", "up", 3), ("red", "brig", "M 20", "up", 2),
                     ("blue", "cutter", "A 16", "down", 1)], "red")
    merchants = (("I 2", "right"), ("L 2", "right"))
    taken = {level: sum(landing_of(view, strict(level, seed).move(view)) in merchants
                        for seed in range(40))
             for level in ("random", "drifter", "dabbler", "novice")}
    assert taken["novice"] == 40, taken
    assert 2 <= taken["drifter"] <= 16 and 10 <= taken["dabbler"] <= 30, taken
    assert taken["random"] < taken["drifter"] < taken["dabbler"], taken


def test_the_cunning_blue_holds_the_inner_harbour_while_red_is_far():
    """Red's fleet still at its start, Blue's on his line: the cunning Blue keeps every
    ship it moves in the inner harbour (rows 2-7, above the channels), where Red must come;
    the bold Blue sails out to meet Red."""
    ships = [("red", "frigate", at, "up", 3) for at in ("I 19", "J 19", "K 19", "L 19")] + \
        [("blue", "frigate", at, "down", 3) for at in ("B 2", "E 2", "I 2", "L 2")]
    view = position(ships, "blue")
    rows = {level: [int(strict(level, seed).move(view)["to"].split()[1]) for seed in range(6)]
            for level in ("cunning", "bold")}
    assert max(rows["cunning"]) <= 7, rows
    assert max(rows["bold"]) > 7, rows


def path_between(at: str, to: str, facing: str) -> list[str]:
    path = []
    while at != to:
        at = ahead(at, facing)
        path.append(at)
    return path


# ---------------------------------------------------------------- strength


def test_careful_beats_random_from_either_side_in_model_games():
    wins = Counter()
    for seed in range(3):
        model, _ = model_game("careful", "random", 100 + seed, cap=600)
        wins["careful red"] += model.winner == "red"
        model, _ = model_game("random", "careful", 200 + seed, cap=600)
        wins["careful blue"] += model.winner == "blue"
    assert wins == {"careful red": 3, "careful blue": 3}


def test_the_levels_are_offered():
    assert list(LEVELS) == ["random", "drifter", "dabbler", "novice", "bold", "careful",
                            "cunning"]
    assert STAND_IN_LEVEL == "careful"  # the stand-in plays as it did (R25)
    with pytest.raises(ValueError, match="not a level"):
        computer("admiral")


# ---------------------------------------------------------------- through the core and the API


def core_game(red_level: str, blue_level: str, seed: int, cap: int = 600):
    """A whole game through the core, each computer handed only its seat's view (B12)."""
    from referee.broadside.game import new_game
    from referee.broadside.views import status_view, view_for
    rng = random.Random(seed)
    bots = {"red": strict(red_level, rng.randrange(2**31)),
            "blue": strict(blue_level, rng.randrange(2**31))}
    game, _ = new_game(id=f"c{seed}", seed=seed, bots={"red": red_level, "blue": blue_level})
    for seat in ("red", "blue"):
        game.submit(seat, bots[seat].disposition(view_for(game, seat)))
    for seat in ("red", "blue"):
        game.lock_in(seat, salt=seat)
    for _ in range(cap):
        status = status_view(game)
        if status["phase"] != "play":
            break
        seat = status["turn"]
        game.move(seat, bots[seat].move(view_for(game, seat)))  # a refusal raises (B5)
    return game


@pytest.mark.parametrize(("red", "blue", "winner"), [("careful", "random", "red"),
                                                     ("random", "careful", "blue")])
def test_b10_careful_beats_random_through_the_core(red, blue, winner):
    for seed in range(2):
        game = core_game(red, blue, seed)
        result = game.result_document()
        assert result["winner"] == winner, result
        assert result["reason"] == ("merchants" if winner == "red" else "fleet")


def test_b3_b4_the_cores_check_accepts_every_disposition_of_the_computer():
    from referee.broadside.fleet import check_disposition
    for level in LEVELS:
        for seed in range(25):
            for seat in ("red", "blue"):
                doc = Computer(level, seed).disposition(setup_view(seat, f"k{seed}"))
                check_disposition(doc, seat)  # raises RuleViolation on any problem


def test_b14_the_rule_set_offers_the_computer_through_the_seam():
    from referee.broadside import rule_set
    from referee.broadside.game import new_game
    from referee.broadside.views import view_for
    seam = rule_set.RULE_SET
    assert seam.levels == LEVELS and seam.stand_in_level in LEVELS
    told = []
    bot = seam.computer("careful", "a1b2", on_failure=lambda level, e: told.append(level))
    game, _ = new_game(id="s", seed=1, bots={"red": "careful", "blue": "careful"})
    for seat in ("red", "blue"):
        game.submit(seat, bot.disposition(view_for(game, seat)))
        game.lock_in(seat, salt=seat)
    for _ in range(6):
        seat = game.turn
        game.move(seat, bot.move(view_for(game, seat)))
    assert told == [] and len(game.reports) == 6


def test_a_computer_seat_answers_a_players_move_through_the_api(api):
    from referee.broadside.board import RED_START
    table = against_computers(api, {"blue": "careful"}, "broadside")
    game, token = table.id, table.tokens["red"]
    kinds = ["ship-of-the-line"] * 2 + ["frigate"] * 3 + ["brig"] * 3 + ["cutter"] * 2
    ships = [{"type": k, "at": at} for k, at in zip(kinds, RED_START, strict=True)]
    status, data, _ = api.call("PUT", f"/api/v1/games/{game}/disposition", {"ships": ships},
                               token=token)
    assert status == 200, data
    status, data, _ = api.call("POST", f"/api/v1/games/{game}/ready", {}, token=token)
    assert status == 200, data
    for _ in range(3):
        status, view, _ = api.call("GET", f"/api/v1/games/{game}", token=token)
        assert status == 200 and view["turn"] == "red", view
        move = random.Random(len(view["reports"])).choice(view["legal"])
        status, data, _ = api.call("POST", f"/api/v1/games/{game}/moves", move, token=token)
        assert status == 201, data
    status, view, _ = api.call("GET", f"/api/v1/games/{game}", token=token)
    assert [r["seat"] for r in view["reports"]] == ["red", "blue"] * 3
