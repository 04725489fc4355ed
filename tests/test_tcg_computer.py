"""The computer of Battleship: The Tactical Combat Game.

Its six levels play from their seat's view alone (T10, T12): every shot is legal (T7) for
hundreds of views made by an umpire written here, independently of the computer's code; its
fleets are legal (T3-T5); the same view gets the same move; its code imports nothing that holds
a game; the admiral's density respects every report; the beginners between the recruit and
the captain follow their hits as each is described.
"""

from __future__ import annotations

import ast
import copy
import functools
import random
import re
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.battleship_tcg import RULE_SET, check_disposition, new_game, view_for
from referee.battleship_tcg.computer import LEVELS, NotYourTurn, admiral, computer
from referee.battleship_tcg.computer.captain import open_hits
from referee.battleship_tcg.computer.sight import colour, every_placement, read_sight
from referee.battleship_tcg.duel import play_game, stalling_order, tcg_duel
from referee.battleship_tcg.holes import (
    DEPTH,
    DIRECTIONS,
    WIDTH,
    Hole,
    hole_name,
    line,
    neighbours,
    on_half,
    parse_hole,
)
from referee.duel import duel_command

COMPUTER = Path(__file__).resolve().parent.parent / "referee" / "battleship_tcg" / "computer"
COMPUTER_FILES = sorted(COMPUTER.glob("*.py"))
SIZES = {"carrier": 5, "battleship": 4, "weapons-platform": 3, "submarine": 3,
         "patrol-boat": 2}  # T3, written out again here: the tests' own model
EVERY = [Hole(c, r) for c in range(WIDTH) for r in range(DEPTH)]

# ---------------------------------------------------------------- the tests' own umpire


def random_islands(rng: random.Random) -> set[Hole]:
    """3-5 islands of 2-5 neighbouring holes (T2's limits), grown at random."""
    islands: set[Hole] = set()
    for _ in range(rng.randint(3, 5)):
        grown = [rng.choice(EVERY)]
        for _ in range(rng.randint(1, 4)):
            grown.append(rng.choice(neighbours(rng.choice(grown))))
        islands |= set(grown)
    return islands


@functools.cache
def lines_of(size: int) -> list[tuple[Hole, str, list[Hole]]]:
    every = [(at, d, line(at, d, size)) for at in EVERY for d in DIRECTIONS]
    return [(at, d, holes) for at, d, holes in every if all(on_half(h) for h in holes)]


def random_fleet(islands: set[Hole], rng: random.Random) -> dict[str, list[Hole]]:
    while True:
        used: set[Hole] = set()
        fleet = {}
        for kind, size in SIZES.items():
            free = [holes for _, _, holes in lines_of(size)
                    if not set(holes) & (used | islands)]
            if not free:
                break
            fleet[kind] = rng.choice(free)
            used |= set(fleet[kind])
        else:
            return fleet


class Umpire:
    """One half under fire: its fleet, its man, and the reports of T8 for the shots at it."""

    def __init__(self, seed: int, islands: dict[str, set[Hole]] | None = None) -> None:
        rng = random.Random(seed)
        self.islands = islands or {"red": random_islands(rng), "blue": random_islands(rng)}
        self.fleet = random_fleet(self.islands["blue"], rng)
        self.man = rng.choice(sorted(self.islands["blue"]))
        self.shot: list[Hole] = []
        self.reports: list[dict] = []
        self.rescued = False

    def afloat(self) -> list[str]:
        shot = set(self.shot)
        return [k for k, holes in self.fleet.items() if not set(holes) <= shot]

    def legal(self) -> set[Hole]:
        """T7: sea holes while a boat floats, island holes after; never twice."""
        wanted = set(EVERY) - self.islands["blue"] if self.afloat() \
            else set(self.islands["blue"])
        return wanted - set(self.shot)

    def fire(self, hole: Hole) -> dict:
        assert hole in self.legal(), f"{hole_name(hole)} is not a legal shot (T7)"
        self.shot.append(hole)
        kind = next((k for k, holes in self.fleet.items() if hole in holes), None)
        result = "hit" if kind else "rescued" if hole == self.man else "miss"
        sunk = kind if kind and set(self.fleet[kind]) <= set(self.shot) else None
        self.rescued = result == "rescued"
        report = {"n": len(self.reports) * 2 + 1, "by": "red", "target": "blue",
                  "at": [hole_name(hole)], "result": result, "sunk": sunk}
        self.reports.append(report)
        return report

    def view(self) -> dict:
        """Red's view as T12 shapes it, blue's shots left out (red's own half is not shot)."""
        return {"rules": "battleship-tcg", "id": "umpire", "phase": "play", "you": "red",
                "turn": "red", "order": ["red", "blue"],
                "islands": {s: sorted(hole_name(h) for h in holes)
                            for s, holes in self.islands.items()},
                "disposition": None, "reports": copy.deepcopy(self.reports), "result": None}


def umpire_after(seed: int, shots: int, aim: float) -> Umpire:
    """A half after ``shots`` random legal shots, ``aim`` of them drawn to the boats."""
    umpire = Umpire(seed)
    rng = random.Random(seed + 1)
    boat_holes = [h for holes in umpire.fleet.values() for h in holes]
    for _ in range(shots):
        legal = umpire.legal()
        on_boats = [h for h in boat_holes if h in legal]
        if not legal:
            break
        hole = rng.choice(on_boats) if on_boats and rng.random() < aim else \
            rng.choice(sorted(legal))
        if umpire.fire(hole)["result"] == "rescued":
            break
    return umpire


views = st.builds(umpire_after, st.integers(0, 10**6), st.integers(0, 160),
                  st.floats(0, 0.6))


def strict(level: str, seed: int = 0):
    bot = computer(level, seed)
    bot.strict = True
    return bot


# ---------------------------------------------------------------- the honeycomb it plays on


def test_computer_colouring_is_proper_and_runs_along_every_line():
    for hole in EVERY:
        for other in neighbours(hole):
            assert colour(hole.column * DEPTH + hole.row) != \
                colour(other.column * DEPTH + other.row)
    for _, _, holes in lines_of(3):
        assert {colour(h.column * DEPTH + h.row) for h in holes} == {0, 1, 2}


@pytest.mark.parametrize("size", sorted(set(SIZES.values())))
def test_computer_knows_every_line_a_boat_can_lie_on(size):
    expected = {frozenset(holes) for _, _, holes in lines_of(size)}
    got = {frozenset(Hole(*divmod(i, DEPTH)) for i in p.holes) for p in every_placement(size)}
    assert got == expected


# ---------------------------------------------------------------- legal, and from the view


@pytest.mark.parametrize("level", list(LEVELS))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(umpire=views)
def test_t7_every_level_shoots_only_where_the_rules_allow(level, umpire):
    if umpire.rescued:
        return
    view = umpire.view()
    before = copy.deepcopy(view)
    move = strict(level, 3).move(view)
    assert set(move) == {"at"}
    assert parse_hole(move["at"]) in umpire.legal()
    assert view == before  # the computer leaves its view as it found it


@pytest.mark.parametrize("level", list(LEVELS))
def test_t9_every_level_plays_a_whole_half_to_the_rescue(level):
    for seed in range(3):
        umpire = Umpire(seed)
        bot = strict(level, seed)
        while not umpire.rescued:
            umpire.fire(parse_hole(bot.move(umpire.view())["at"]))
            assert len(umpire.shot) <= 150
        assert not umpire.afloat()


@pytest.mark.parametrize("level", list(LEVELS))
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_t3_t5_every_level_places_a_legal_fleet_on_its_own_half(level, seed):
    umpire = Umpire(seed)
    view = umpire.view()
    own = umpire.islands["red"]
    document = computer(level, seed).disposition(view)
    assert set(document) == {"boats", "man"}
    assert sorted(b["type"] for b in document["boats"]) == sorted(SIZES)
    used: set[Hole] = set()
    for boat in document["boats"]:
        assert boat["dir"] in DIRECTIONS
        holes = line(parse_hole(boat["at"]), boat["dir"], SIZES[boat["type"]])
        assert all(on_half(h) and h not in own for h in holes)  # T4: sea holes of his half
        assert not set(holes) & used  # T4: no hole shared
        used |= set(holes)
    assert parse_hole(document["man"]) in own  # T5


@pytest.mark.parametrize("level", list(LEVELS))
def test_t12_same_view_same_move_and_same_fleet(level):
    umpire = umpire_after(11, 30, 0.3)
    view = umpire.view()
    assert computer(level, 5).move(view) == computer(level, 5).move(copy.deepcopy(view))
    assert computer(level, 5).disposition(view) == computer(level, 5).disposition(view)
    fleets = {str(computer(level, seed).disposition(view)) for seed in range(6)}
    assert len(fleets) == 6  # the seed, not a fixed rule, chooses the fleet
    if level != "admiral":  # the admiral's likeliest hole is often one hole, whatever the seed
        moves = {computer(level, seed).move(view)["at"] for seed in range(12)}
        assert len(moves) > 1


def test_t12_the_move_depends_on_the_view_not_on_fields_it_may_not_use():
    umpire = umpire_after(4, 40, 0.3)
    view = umpire.view()
    busy = copy.deepcopy(view) | {"version": 99, "clock": {"minutes": 3, "deadline": 1.0},
                                  "seats": {"red": {"name": "Ann"}, "blue": {"name": "Bo"}}}
    for level in LEVELS:
        assert computer(level, 1).move(view) == computer(level, 1).move(busy)


def test_t7_the_computer_will_not_shoot_out_of_turn():
    view = Umpire(1).view()
    for phase, turn in (("play", "blue"), ("disposition", None), ("over", None)):
        with pytest.raises(NotYourTurn):
            computer("admiral", 1).move(view | {"phase": phase, "turn": turn})


def test_a_failing_level_is_told_and_a_recruits_shot_is_played(monkeypatch):
    told = []

    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(admiral, "move", broken)
    umpire = umpire_after(2, 20, 0.2)
    move = computer("admiral", 1, on_failure=lambda level, e: told.append((level, e))).move(
        umpire.view())
    assert parse_hole(move["at"]) in umpire.legal()
    assert [(level, str(e)) for level, e in told] == [("admiral", "boom")]


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="not a level"):
        computer("commodore", 1)


# ---------------------------------------------------------------- the computer sees its view only

ALLOWED_IMPORTS = {"__future__", "random", "dataclasses", "functools", "typing", "collections",
                   "referee.battleship_tcg.holes", "referee.battleship_tcg.catalogue",
                   "referee.common.computer"}  # the computer every rule set shares
FORBIDDEN_NAMES = {"Game", "replay", "new_game", "view_for", "fleets", "fleet_of", "events",
                   "globals", "__globals__", "__builtins__", "getattr", "vars", "modules"}


def imported(path: Path) -> set[str]:
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


def test_there_are_computer_modules_to_scan():
    assert {p.name for p in COMPUTER_FILES} >= {"__init__.py", "sight.py", "recruit.py",
                                                "captain.py", "admiral.py"}


@pytest.mark.parametrize("path", COMPUTER_FILES, ids=lambda p: p.name)
def test_t10_computer_code_imports_nothing_that_holds_a_game(path):
    names = imported(path)
    outside = {n for n in names if not n.startswith(".")} - ALLOWED_IMPORTS
    assert not outside, f"{path.name} imports {sorted(outside)}"
    assert all(n.count(".") == 1 for n in names if n.startswith(".")), names


@pytest.mark.parametrize("path", COMPUTER_FILES, ids=lambda p: p.name)
def test_t10_computer_code_names_no_game_state(path):
    tree = ast.parse(path.read_text())
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not names & FORBIDDEN_NAMES, sorted(names & FORBIDDEN_NAMES)


def test_the_scan_sees_imports():
    assert {"ast", "random", "referee.battleship_tcg.computer"} <= imported(Path(__file__))


# ---------------------------------------------------------------- the admiral's density


def consistent_placements(umpire: Umpire, sunk_known: bool = True) -> dict[str, list[set[Hole]]]:
    """The tests' own reading: each boat afloat's lines of sea holes that cover no miss, are
    not wholly hit (it would have sunk) and, with ``sunk_known``, cover no hole of a boat
    already sunk (where the umpire knows those are)."""
    hits = {parse_hole(r["at"][0]) for r in umpire.reports if r["result"] == "hit"}
    misses = {parse_hole(r["at"][0]) for r in umpire.reports if r["result"] == "miss"}
    sunk_holes = {h for k, holes in umpire.fleet.items() if k not in umpire.afloat()
                  for h in holes} if sunk_known else set()
    return {kind: [set(holes) for _, _, holes in lines_of(SIZES[kind])
                   if not set(holes) & (misses | sunk_holes | umpire.islands["blue"])
                   and not set(holes) <= hits]
            for kind in umpire.afloat()}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(umpire=views)
def test_t8_the_admiral_counts_no_placement_a_report_rules_out(umpire):
    if not umpire.afloat():
        return
    sight = read_sight(umpire.view())
    weights = admiral.density(sight)
    unique = len(admiral.sunk_readings(sight)) == 1  # the sinks say where each sunk boat lay
    possible = {h for placements in consistent_placements(umpire, unique).values()
                for holes in placements for h in holes}
    for hole in EVERY:
        weight = weights[hole.column * DEPTH + hole.row]
        if hole not in possible:  # a miss, an island, a sunk boat, or no line fits
            assert weight == 0, f"{hole_name(hole)} weighs {weight}"
    boats = {h for k in umpire.afloat() for h in umpire.fleet[k]}
    assert all(weights[h.column * DEPTH + h.row] > 0 for h in boats - set(umpire.shot))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), shots=st.integers(20, 150))
def test_t8_with_one_boat_afloat_the_admiral_counts_exactly_its_consistent_lines(seed, shots):
    umpire = Umpire(seed)
    rng = random.Random(seed)
    last = rng.choice(list(SIZES))
    for kind in SIZES:  # sink every boat but one, in a random order of their holes
        if kind != last:
            for hole in rng.sample(umpire.fleet[kind], SIZES[kind]):
                umpire.fire(hole)
    for _ in range(shots):  # then shoot at random, the last boat's holes among the rest
        legal = sorted(umpire.legal() - set(umpire.fleet[last][:1]))
        if not legal:
            break
        umpire.fire(rng.choice(legal))
    sight = read_sight(umpire.view())
    assume(umpire.afloat() and len(admiral.sunk_readings(sight)) == 1)
    hits = {parse_hole(r["at"][0]) for r in umpire.reports if r["result"] == "hit"}
    open_hits = hits - {h for k in SIZES if k != last for h in umpire.fleet[k]}
    placements = [p for p in consistent_placements(umpire)[last] if open_hits <= p]
    weights = admiral.density(sight)
    total = sum(weights)
    for hole in EVERY:
        expected = sum(hole in p for p in placements) / len(placements)
        got = weights[hole.column * DEPTH + hole.row] / total * SIZES[last]
        assert got == pytest.approx(expected, abs=1e-9), (hole_name(hole), seed, shots)


def test_t8_a_sink_is_read_from_the_order_of_the_hits():
    """D 3, D 4 and D 5 are hit down one column and the submarine sinks at D 5; D 6, below
    them, is hit after. A line of three through D 5 made of hits is D 3-D 5 or D 4-D 6, but D 6
    was hit after the sink, so the submarine is D 3-D 5 and D 6 is a hit of a boat afloat."""
    umpire = Umpire(0, {"red": set(), "blue": {Hole(0, 9)}})
    umpire.fleet = {"submarine": [parse_hole(n) for n in ("D 3", "D 4", "D 5")],
                    "patrol-boat": [parse_hole(n) for n in ("D 6", "D 7")],
                    "carrier": [Hole(14, r) for r in range(5)],
                    "battleship": [Hole(12, r) for r in range(4)],
                    "weapons-platform": [Hole(10, r) for r in range(3)]}
    umpire.man = Hole(0, 9)
    for name in ("D 3", "D 4", "D 5", "D 6"):
        umpire.fire(parse_hole(name))
    assert umpire.reports[2]["sunk"] == "submarine"
    sight = read_sight(umpire.view())
    readings = admiral.sunk_readings(sight)
    assert [[(k, sorted(p.holes)) for k, p in r] for r in readings] == \
        [[("submarine", sorted(h.column * DEPTH + h.row for h in umpire.fleet["submarine"]))]]
    assert set(open_hits(sight)) == {3 * DEPTH + 5}  # D 6, for the captain too
    aim = parse_hole(strict("admiral").move(umpire.view())["at"])
    assert aim in neighbours(parse_hole("D 6"))  # the admiral targets the open hit


def test_t8_a_lone_hit_is_followed_up_by_both_hunters():
    umpire = Umpire(0, {"red": set(), "blue": {Hole(0, 9)}})
    umpire.man = Hole(0, 9)
    hole = umpire.fleet["carrier"][2]
    umpire.fire(hole)
    for level in ("captain", "admiral"):
        assert parse_hole(strict(level).move(umpire.view())["at"]) in neighbours(hole)


# ---------------------------------------------------------------- the beginners (followers)


def beginners_half() -> tuple[Umpire, Hole, list[Hole]]:
    """A half whose carrier has a hole with at least two sea neighbours no boat covers:
    (the umpire, that hole, those neighbours)."""
    for seed in range(100):
        umpire = Umpire(seed)
        boats = {h for holes in umpire.fleet.values() for h in holes}
        for hole in umpire.fleet["carrier"][1:4]:
            empty = [h for h in neighbours(hole)
                     if h not in boats and h not in umpire.islands["blue"]]
            if len(empty) >= 2:
                return umpire, hole, empty
    raise AssertionError("no such half")


def shots_of(level: str, umpire: Umpire, seeds: int = 24) -> set[Hole]:
    return {parse_hole(strict(level, seed).move(umpire.view())["at"]) for seed in range(seeds)}


def test_t8_the_cadet_tries_next_to_a_hit_and_gives_it_up_after_two_misses():
    umpire, hole, empty = beginners_half()
    umpire.fire(hole)
    assert shots_of("cadet", umpire) <= set(neighbours(hole))
    umpire.fire(empty[0])
    assert shots_of("cadet", umpire) <= set(neighbours(hole))  # one miss: it tries again
    umpire.fire(empty[1])
    assert not shots_of("cadet", umpire) <= set(neighbours(hole))  # two: back to guessing
    for level in ("midshipman", "lieutenant"):  # the others keep at it
        assert shots_of(level, umpire) <= set(neighbours(hole))


def test_t8_after_a_sink_only_the_lieutenant_goes_back_to_an_older_hit():
    umpire, hole, _ = beginners_half()
    umpire.fire(hole)  # a carrier hole, then the whole patrol boat: a sink (T8)
    for other in umpire.fleet["patrol-boat"]:
        umpire.fire(other)
    assert umpire.reports[-1]["sunk"] == "patrol-boat"
    assert shots_of("lieutenant", umpire) <= set(neighbours(hole))
    for level in ("cadet", "midshipman"):  # the latest hit sank its boat: they guess
        assert not shots_of(level, umpire) <= set(neighbours(hole))


def test_t8_the_midshipman_works_round_his_latest_hit_only():
    umpire, hole, _ = beginners_half()
    umpire.fire(hole)
    latest = umpire.fleet["patrol-boat"][0]
    umpire.fire(latest)
    assert shots_of("midshipman", umpire) <= set(neighbours(latest))
    assert shots_of("lieutenant", umpire, 60) & (set(neighbours(hole)) - set(neighbours(latest)))


# ---------------------------------------------------------------- through the core (T12 views)


@pytest.mark.parametrize(("a", "b"), [("recruit", "captain"), ("captain", "admiral"),
                                      ("admiral", "recruit")])
def test_t9_the_levels_play_whole_games_through_the_core(a, b):
    for seed in range(2):
        game = play_game(a, b, seed, seed % 2 == 0)  # an illegal shot would raise (T7)
        assert game.result_document()["reason"] == "rescued"
        winner = game.result_document()["winner"]
        assert sum(1 for r in game.reports if r["by"] == winner and r["sunk"]) == 5


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("card", ["standard", {"seed": 3}, {"seed": 2**40 + 7}])
def test_t2_t5_the_computers_fleet_passes_the_cores_check_on_any_card(level, card):
    game, _ = new_game(id="c", seed=1, options={"card": card})
    for seat in ("red", "blue"):
        fleet = check_disposition(computer(level, 9).disposition(view_for(game, seat)),
                                  game.card, seat)
        assert fleet.man in game.card.island_holes(seat)


def test_t12_the_computer_reads_the_cores_view_as_the_umpire_would():
    game = play_game("admiral", "captain", 4, True)
    view = view_for(game, "red")
    sight = read_sight(view)
    mine = [r for r in game.reports if r["by"] == "red"]
    assert [hole_name(Hole(*divmod(s.at, DEPTH))) for s in sight.shots] == \
        [r["at"][0] for r in mine]
    assert [(s.result, s.sunk) for s in sight.shots] == [(r["result"], r["sunk"]) for r in mine]
    shots_at_blue = view["shots"]["blue"]
    assert [s["at"] for s in shots_at_blue] == [r["at"][0] for r in mine]
    from_reports = read_sight({k: v for k, v in view.items() if k != "shots"})
    assert from_reports.shots == sight.shots  # the view's shots and reports say the same


def test_the_rule_set_offers_the_computer():
    assert RULE_SET.levels == LEVELS
    assert list(LEVELS) == ["recruit", "cadet", "midshipman", "lieutenant", "captain",
                            "admiral"]  # weakest first
    assert RULE_SET.computer("captain", 1).level == "captain"


def test_a_short_duel_the_admiral_beats_the_recruit():
    result = tcg_duel("admiral", "recruit", 20, 1, solo_games=4)
    assert result.games == 20 and result.wins_a > result.wins_b
    admiral_shots, recruit_shots = result.solo_shots["admiral"], result.solo_shots["recruit"]
    assert len(admiral_shots) == 4
    assert statistics.fmean(admiral_shots) < statistics.fmean(recruit_shots)
    assert all(17 + 1 <= n <= 150 for n in admiral_shots + recruit_shots)


def test_the_duel_command_reports_wins_solo_shots_and_think_times():
    out = CliRunner().invoke(duel_command, ["--rules", "battleship-tcg", "--a", "captain",
                                            "--b", "recruit", "--games", "2", "--seed", "3"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert re.fullmatch(r"captain wins \d of 2 \(draws \d\)", lines[0])
    assert lines[1].startswith("shots to sink all five and rescue the man, 2 solo games")
    assert re.fullmatch(r"  captain: mean [\d.]+, sd [\d.]+, fewest \d+, most \d+", lines[2])
    assert re.fullmatch(r"  recruit: mean [\d.]+, sd [\d.]+, fewest \d+, most \d+", lines[3])
    assert re.fullmatch(r"median think per move: captain [\d.]+ ms, recruit [\d.]+ ms",
                        lines[4])


def test_a_solo_run_shoots_the_stalling_half_in_the_order_t7_allows():
    game, _ = new_game(id="s", seed=1)
    view = view_for(game, "red") | {"disposition": computer("recruit", 2).disposition(
        view_for(game, "red"))}
    order = stalling_order(view)
    assert len(order) == len(set(order)) == WIDTH * DEPTH
    islands = set(view["islands"]["red"])
    assert not set(order[:-len(islands)]) & islands
    assert order[-1] == view["disposition"]["man"]
