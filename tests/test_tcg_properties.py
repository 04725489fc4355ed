"""Property tests over random games of Battleship: The Tactical Combat Game, checked after every
shot against an independent model written here (its own honeycomb in axial co-ordinates, its own
reading of hole names, its own bookkeeping of shots), and the leak scan of T10: nothing of the
opponent's disposition reaches a seat's view before the end.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from soak import examples

from referee.battleship_tcg import holes as core_holes
from referee.battleship_tcg.game import new_game, replay
from referee.battleship_tcg.postmortem import postmortem_document
from referee.battleship_tcg.views import host_view, record_for, status_view, view_for
from referee.common.problems import RuleViolation

# -- the model's own geometry ---------------------------------------------------------------

LETTERS = "ABCDEFGHIJKLMNO"
SIZES = {"carrier": 5, "battleship": 4, "weapons-platform": 3, "submarine": 3,
         "patrol-boat": 2}
# axial steps (dx, dz): columns B, D ... (odd from 0) sit low, so the axial z of a hole is its
# row less half its column rounded down to the even column below
STEPS = {"down": (0, 1), "down-right": (1, 0), "up-right": (1, -1)}
AROUND = [(0, 1), (0, -1), (1, 0), (1, -1), (-1, 0), (-1, 1)]


def to_axial(col: int, row: int) -> tuple[int, int]:
    return col, row - (col - (col & 1)) // 2


def from_axial(x: int, z: int) -> tuple[int, int]:
    return x, z + (x - (x & 1)) // 2


def model_name(col: int, row: int) -> str:
    return f"{LETTERS[col]} {row + 1}"


def model_read(name: str) -> tuple[int, int]:
    letter, number = name.split(" ")
    return LETTERS.index(letter), int(number) - 1


def inside(col: int, row: int) -> bool:
    return 0 <= col < 15 and 0 <= row < 10


def model_line(at: str, dir: str, n: int) -> list[tuple[int, int]]:
    x, z = to_axial(*model_read(at))
    dx, dz = STEPS[dir]
    return [from_axial(x + k * dx, z + k * dz) for k in range(n)]


def model_neighbours(col: int, row: int) -> set[tuple[int, int]]:
    x, z = to_axial(col, row)
    return {from_axial(x + dx, z + dz) for dx, dz in AROUND} & ALL


ALL = {(c, r) for c in range(15) for r in range(10)}
ALL_NAMES = sorted(model_name(c, r) for c, r in ALL)


def test_t1_the_models_honeycomb_agrees_with_the_cores():
    for col, row in ALL:
        core = {(h.column, h.row) for h in core_holes.neighbours(core_holes.Hole(col, row))}
        assert core == model_neighbours(col, row)
        for dir in STEPS:
            for n in (2, 5):
                core_line = core_holes.line(core_holes.Hole(col, row), dir, n)
                assert [(h.column, h.row) for h in core_line] == \
                    model_line(model_name(col, row), dir, n)


# -- the model of a game -------------------------------------------------------------------

def random_disposition(rng: random.Random, islands: set[str]) -> tuple[dict, dict]:
    """A legal disposition on a half with these islands, and each boat's holes."""
    while True:
        used: set[str] = set()
        boats, holes = [], {}
        for kind in rng.sample(list(SIZES), len(SIZES)):
            options = []
            for name in ALL_NAMES:
                for dir in STEPS:
                    cells = model_line(name, dir, SIZES[kind])
                    if all(inside(*c) for c in cells):
                        named = {model_name(*c) for c in cells}
                        if not named & islands and not named & used:
                            options.append((name, dir, named))
            if not options:
                break
            name, dir, named = rng.choice(options)
            used |= named
            holes[kind] = named
            spelled = rng.choice([name, name.replace(" ", ""), name.lower()])
            boats.append({"type": kind, "at": spelled, "dir": dir})
        if len(holes) == len(SIZES):
            return {"boats": boats, "man": rng.choice(sorted(islands))}, holes


class Half:
    """One half as the model keeps it: boats, man, islands and the shots at it."""

    def __init__(self, boats: dict[str, set[str]], man: str, islands: set[str]):
        self.boats, self.man, self.islands = boats, man, islands
        self.shot: list[tuple[str, str, str | None]] = []
        self.shot_holes: set[str] = set()
        self.hits: set[str] = set()

    def afloat(self) -> list[str]:
        return [k for k, cells in self.boats.items() if not cells <= self.hits]

    def legal(self, hole: str) -> bool:
        if hole in self.shot_holes:
            return False
        return (hole in self.islands) == (not self.afloat())

    def fire(self, hole: str) -> tuple[str, str | None]:
        kind = next((k for k, cells in self.boats.items() if hole in cells), None)
        if kind:
            self.hits.add(hole)
            outcome = ("hit", kind if self.boats[kind] <= self.hits else None)
        else:
            outcome = ("rescued" if hole == self.man else "miss", None)
        self.shot.append((hole, *outcome))
        self.shot_holes.add(hole)
        return outcome


HOLE_TEXT = re.compile(r"(?<![A-Za-z0-9])([A-O]) (\d{1,2})(?!\d)")


def leak_scan(view: dict, seat: str, opponent: Half) -> None:
    """T10: no hole of the opponent's boats or man that has not been shot appears in the
    seat's view, once what is rightly there is set aside: the card's islands (public), the
    seat's own disposition and damage, and shots at the seat's own half (holes of his half,
    which share names with the other's)."""
    other = "blue" if seat == "red" else "red"
    kept = {k: v for k, v in view.items() if k not in ("islands", "disposition", "damage",
                                                         "shots", "reports")}
    kept["shots"] = view["shots"][other]
    kept["reports"] = [r for r in view["reports"] if r["target"] == other]
    text = json.dumps(kept)
    named = {f"{m.group(1)} {m.group(2)}" for m in HOLE_TEXT.finditer(text)}
    shot = {h for h, _, _ in opponent.shot}
    hidden = {h for cells in opponent.boats.values() for h in cells} | {opponent.man}
    assert not (named & hidden) - shot, f"{seat} sees {(named & hidden) - shot}"
    assert named <= shot, f"{seat}'s view names holes of {other}'s half never shot: " \
                          f"{named - shot}"
    assert "revealed" not in view and "found" not in json.dumps(kept["shots"])


def check_views(game, halves: dict[str, Half], over: bool) -> None:
    for seat in ("red", "blue"):
        view = view_for(game, seat)
        for half, model in halves.items():
            shots = [(s["at"], s["result"], s["sunk"]) for s in view["shots"][half]]
            assert shots == model.shot
            if half == seat or over:
                for s in view["shots"][half]:
                    expect = next((k for k, cells in model.boats.items() if s["at"] in cells),
                                  "man" if s["at"] == model.man else None)
                    assert s["found"] == expect
        me = halves[seat]
        assert {k: set(v) for k, v in view["damage"].items()} == \
            {k: cells & me.hits for k, cells in me.boats.items()}
        if not over:
            leak_scan(view, seat, halves["blue" if seat == "red" else "red"])
            if len(view["reports"]) % 16 == 0:  # the record is the reports, as the view's
                assert record_for(game, seat)["moves"] == view["reports"]
    public = json.dumps(status_view(game)) + json.dumps(host_view(game))
    assert not HOLE_TEXT.search(public)  # the status and the host's view name no hole


@settings(max_examples=examples(7, 40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), card_seed=st.one_of(st.none(), st.integers(0, 2**20)),
       wild=st.floats(0.0, 0.4))
def test_t7_t8_t9_t10_random_games_agree_with_the_model(seed, card_seed, wild):
    rng = random.Random(seed)
    options = {} if card_seed is None else {"card": {"seed": card_seed}}
    game, _ = new_game(id="p", seed=seed, options=options)
    islands = {s: set(view_for(game, s)["islands"][s]) for s in ("red", "blue")}
    halves = {}
    for seat in ("red", "blue"):
        game.join(seat, seat.title())
        doc, boats = random_disposition(rng, islands[seat])
        game.submit(seat, doc)
        game.lock_in(seat, salt=str(rng.random()))
        halves[seat] = Half(boats, doc["man"], islands[seat])
    turn = game.order[0]
    assert game.turn == turn
    winner = None
    while winner is None:
        target = "blue" if turn == "red" else "red"
        model = halves[target]
        shooter = turn if rng.random() > wild / 4 else target
        if rng.random() < wild:
            hole = rng.choice(ALL_NAMES)
        else:
            hole = rng.choice([h for h in ALL_NAMES if model.legal(h)])
        version = game.version
        if shooter != turn or not model.legal(hole):
            with pytest.raises(RuleViolation) as refused:
                game.move(shooter, {"at": rng.choice([hole, hole.replace(" ", "")])})
            assert refused.value.problems[0].rule == "T7"
            assert refused.value.kind == ("turn" if shooter != turn else "illegal")
            assert game.version == version
            continue
        _, report = game.move(shooter, {"at": hole})
        result, sunk = model.fire(hole)
        assert (report["at"], report["result"], report["sunk"]) == ([hole], result, sunk)
        if result == "rescued":
            winner = turn
        else:
            turn = target
            assert game.turn == turn
        check_views(game, halves, over=winner is not None)
    assert game.phase == "over" and game.result_document()["winner"] == winner
    assert game.result_document()["scores"][winner] == 5
    assert game.result_document()["scores"][turn if winner != turn else
                                   ("blue" if winner == "red" else "red")] == \
        5 - len(halves[winner].afloat())
    again = replay(json.loads(json.dumps(game.events)))
    assert view_for(again, "red") == view_for(game, "red")
    post = postmortem_document(game)
    for step in post["steps"]:
        if step["wasted"]:
            assert step["result"] == "miss", step  # the truth is never ruled out
    for seat, rows in post["sinking"].items():
        mine = [r for r in game.reports if r["by"] == seat]
        for kind, row in rows.items():
            sunk_at = next((k for k, r in enumerate(mine, 1) if r["sunk"] == kind), None)
            assert row["shots"] == sunk_at


def test_t10_a_views_before_any_shot_do_not_depend_on_the_opponents_disposition():
    rng = random.Random(4)
    views = []
    for _ in range(2):
        game, _ = new_game(id="d", seed=5, options={})
        islands = {s: set(view_for(game, s)["islands"][s]) for s in ("red", "blue")}
        game.join("red", "A")
        game.join("blue", "B")
        game.submit("red", {"boats": [{"type": k, "at": a, "dir": d} for k, a, d in [
            ("carrier", "O 1", "down"), ("battleship", "A 1", "down"),
            ("weapons-platform", "F 1", "down"), ("submarine", "H 1", "down"),
            ("patrol-boat", "L 1", "down")]], "man": "C 2"})
        doc, _ = random_disposition(rng, islands["blue"])
        game.submit("blue", doc)
        game.lock_in("red", salt="r")
        game.lock_in("blue", salt="b")
        view = view_for(game, "red")
        view["seats"]["blue"]["fingerprint"] = None
        views.append(view)
    assert views[0] == views[1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_t10_red_sees_the_same_game_whatever_blue_hid_where_red_has_not_found_it(seed):
    """Two games alike but for Blue's disposition, Red shooting only holes empty in both:
    Red's view is the same in both, but for Blue's fingerprint, after every shot."""
    rng = random.Random(seed)
    card_islands = None
    games, blue_boats = [], []
    red_doc = None
    for _ in range(2):
        game, _ = new_game(id="d", seed=5, options={"card": {"seed": seed}})
        card_islands = {s: set(view_for(game, s)["islands"][s]) for s in ("red", "blue")}
        game.join("red", "A")
        game.join("blue", "B")
        if red_doc is None:
            red_doc, _ = random_disposition(rng, card_islands["red"])
        doc, boats = random_disposition(rng, card_islands["blue"])
        game.submit("red", red_doc)
        game.submit("blue", doc)
        game.lock_in("red", salt="r")
        game.lock_in("blue", salt="b")
        games.append(game)
        blue_boats.append({h for cells in boats.values() for h in cells})
    empty = [h for h in ALL_NAMES if h not in card_islands["blue"]
             and h not in blue_boats[0] | blue_boats[1]]
    red_targets = rng.sample(empty, 40)
    blue_targets = rng.sample([h for h in ALL_NAMES if h not in card_islands["red"]], 40)
    for red_hole, blue_hole in zip(red_targets, blue_targets, strict=True):
        for game in games:
            game.move("red", {"at": red_hole})
            game.move("blue", {"at": blue_hole})
        seen = []
        for game in games:
            view = view_for(game, "red")
            view["seats"]["blue"]["fingerprint"] = None
            seen.append(view)
        assert seen[0] == seen[1]
