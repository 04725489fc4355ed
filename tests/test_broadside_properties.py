"""Property tests over random games of Broadside, checked after every move against an independent
model written here (B1-B14).

The model reads the harbour from the data file ``board.json`` (the board is data, B1) but none
of the core's code: its own reading of cross names, its own steps, turns and broadside arcs, its
own bookkeeping of positions, facings, masts, buoys (B6), batteries (B7), broadsides (B8, B9),
merchant ships and the end (B10). Random games (moves drawn at random, or greedily toward a
broadside, a merchant or the channels, and now and then a move the rules refuse) are played
through the core's ``Game``; after every move both seats' views and the move's report are
compared with what the model says happened and what each seat may know (B11, B12, B14).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from soak import examples

from referee.broadside import board as core_board
from referee.broadside.game import new_game, replay
from referee.broadside.views import record_for, report_for, view_for
from referee.common.problems import RuleViolation

BOARD = json.loads((Path(__file__).resolve().parent.parent / "referee" / "broadside"
                    / "board.json").read_text(encoding="utf-8"))

# -- the model's own geometry (B1, B2) -------------------------------------------------------

LETTERS: list[str] = BOARD["columns"]
ROWS: int = BOARD["rows"]
CROSSES: set[str] = set(BOARD["crosses"])
STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
CLOCKWISE = ["up", "right", "down", "left"]
TURN_BY = {None: 0, "right": 1, "about": 2, "left": 3}
MASTS = {"ship-of-the-line": 4, "frigate": 3, "brig": 2, "cutter": 1}  # B3
FLEETS = {"red": ["ship-of-the-line"] * 2 + ["frigate"] * 3 + ["brig"] * 3 + ["cutter"] * 2,
          "blue": ["frigate"] * 4 + ["brig"] * 2 + ["cutter"] * 4}
START_FACING = {"red": "up", "blue": "down"}  # B3: toward the enemy; "up" is the docks
SITES_OF = {}  # red circle -> the battery sites controlling it (B1, B7)
for _battery in BOARD["batteries"]:
    for _circle in _battery["controls"]:
        SITES_OF.setdefault(_circle, []).append(_battery["site"])
DOCK_OPPOSITE = {m["opposite"]: m["at"] for m in BOARD["merchants"]}
YELLOW = [at for group in ("row", "pair", "single") for at in BOARD["buoys"][group]]


def xy(name: str) -> tuple[int, int]:
    letter, row = name.split(" ")
    return LETTERS.index(letter), int(row)


def named(x: int, y: int) -> str | None:
    if 0 <= x < len(LETTERS) and 1 <= y <= ROWS:
        return f"{LETTERS[x]} {y}"
    return None


def normal(text: str) -> str:
    """A cross as the model writes it, from "F 7", "F7" or "f 7"."""
    squeezed = text.replace(" ", "").upper()
    return f"{squeezed[0]} {int(squeezed[1:])}"


def ahead(at: str, facing: str) -> str | None:
    """The point next to ``at`` toward ``facing``, if on the grid (it may be land)."""
    x, y = xy(at)
    dx, dy = STEPS[facing]
    return named(x + dx, y + dy)


def turned(facing: str, how: str | None) -> str:
    return CLOCKWISE[(CLOCKWISE.index(facing) + TURN_BY[how]) % 4]


def beams(facing: str) -> set[str]:
    """The two directions a ship's cannon point: its left and right, never ahead or astern."""
    i = CLOCKWISE.index(facing)
    return {CLOCKWISE[(i + 1) % 4], CLOCKWISE[(i + 3) % 4]}


def way_to(a: str, b: str) -> str | None:
    (ax, ay), (bx, by) = xy(a), xy(b)
    for facing, (dx, dy) in STEPS.items():
        if (ax + dx, ay + dy) == (bx, by):
            return facing
    return None


def test_b1_b2_the_models_geometry_agrees_with_the_cores():
    board = core_board
    assert set(board.CROSSES) == CROSSES
    for at in CROSSES:
        for facing in CLOCKWISE:
            assert ahead(at, facing) == board.step(at, facing)
            assert board.neighbours(at).get(facing) == (ahead(at, facing) if ahead(at, facing)
                                                        in CROSSES else None)
            for how in TURN_BY:
                assert turned(facing, how) == board.turn(facing, how)
            assert beams(facing) == set(board.broadside_sides(facing))
    for circle, sites in SITES_OF.items():
        assert sorted(board.controlling(circle)) == sorted(sites)


# -- the model of a game ----------------------------------------------------------------------

class Model:
    """A game as the model keeps it."""

    def __init__(self, red: dict, blue: dict) -> None:
        self.ships: dict[str, dict] = {}  # cross -> {"side", "type", "facing", "masts"}
        for side, doc in (("red", red), ("blue", blue)):
            for ship in doc["ships"]:
                self.ships[normal(ship["at"])] = {"side": side, "type": ship["type"],
                                  "facing": START_FACING[side], "masts": MASTS[ship["type"]]}
        self.buoys = dict(blue["buoys"])  # in the water, not yet met
        self.revealed: dict[str, str] = {}
        self.batteries = {site: kind == "hit" for site, kind in blue["batteries"].items()}
        self.merchants = {m["at"]: False for m in BOARD["merchants"]}  # dock -> sunk
        self.turn: str | None = "red"  # B5
        self.winner: str | None = None
        self.over: str | None = None
        self.passes = 0

    def legal(self, side: str) -> set[tuple[str, str | None, str]]:
        found = set()
        for at, ship in self.ships.items():
            if ship["side"] != side:
                continue
            for how in TURN_BY:
                facing = turned(ship["facing"], how)
                here = ahead(at, facing)
                while here in CROSSES and here not in self.ships:
                    found.add((at, how, here))
                    here = ahead(here, facing)
        return found

    def play(self, side: str, move: tuple[str, str | None, str] | None) -> dict:
        """The move made; what the report should say."""
        assert side == self.turn
        told = {"path": [], "buoys": [], "battery_masts": 0, "stopped_by": None,
                "sunk": [], "merchants_sunk": [], "fired": set(), "lost": {}}
        if move is None:
            self.passes += 1
            if self.passes >= 2:
                self.over, self.turn = "blocked", None
            else:
                self.turn = "blue" if side == "red" else "red"
            return told
        self.passes = 0
        origin, how, to = move
        ship = self.ships.pop(origin)
        ship["facing"] = turned(ship["facing"], how)
        here, end = origin, None
        while here != to:
            here = ahead(here, ship["facing"])
            told["path"].append(here)
            if side == "red" and here in SITES_OF:  # B7
                hits = sum(self.batteries[s] for s in SITES_OF[here])
                taken = min(hits, ship["masts"])
                ship["masts"] -= taken
                told["battery_masts"] += taken
                if taken:
                    told["lost"][(side, ship["type"])] = \
                        told["lost"].get((side, ship["type"]), 0) + taken
                if ship["masts"] == 0:
                    end = "batteries"
                    break
            if here in self.buoys:  # B6
                kind = self.buoys.pop(here)
                self.revealed[here] = kind
                told["buoys"].append({"at": here, "kind": kind})
                if kind == "sink":
                    told["stopped_by"], end = here, "rock"
                    told["lost"][(side, ship["type"])] = \
                        told["lost"].get((side, ship["type"]), 0) + ship["masts"]
                    ship["masts"] = 0
                    break
        if end:
            told["sunk"].append((side, ship["type"], here, end))
        else:
            self.ships[here] = ship
            self._broadsides(here, ship, told)
        if all(self.merchants.values()):
            self.over, self.winner, self.turn = "merchants", "red", None
        elif not any(s["side"] == "red" for s in self.ships.values()):
            self.over, self.winner, self.turn = "fleet", "blue", None
        else:
            self.turn = "blue" if side == "red" else "red"
        return told

    def _broadsides(self, at: str, ship: dict, told: dict) -> None:
        """B8, B9: all at once, at the end of the move."""
        hits: list[str] = []
        for facing in CLOCKWISE:
            there = ahead(at, facing)
            enemy = self.ships.get(there) if there else None
            if enemy is None or enemy["side"] == ship["side"]:
                continue
            mine = facing in beams(ship["facing"])
            theirs = way_to(there, at) in beams(enemy["facing"])
            kind = "exchange" if mine and theirs else "crossed-t"
            if mine:
                hits.append(there)
                told["fired"].add((at, there, ship["side"], kind))
            if theirs:
                hits.append(at)
                told["fired"].add((there, at, enemy["side"], kind))
        dock = DOCK_OPPOSITE.get(at)
        if ship["side"] == "red" and dock and not self.merchants[dock] \
                and way_to(at, dock) in beams(ship["facing"]):
            self.merchants[dock] = True
            told["merchants_sunk"].append(dock)
            told["fired"].add((at, dock, "red", "merchant"))
        for target in hits:
            hit = self.ships[target]
            if hit["masts"]:
                hit["masts"] -= 1
                key = (hit["side"], hit["type"])
                told["lost"][key] = told["lost"].get(key, 0) + 1
        for target in dict.fromkeys(hits):
            if self.ships[target]["masts"] == 0:
                gone = self.ships.pop(target)
                told["sunk"].append((gone["side"], gone["type"], target, "broadside"))

    # -- what the model expects each seat to see (B12, B14) --------------------------------
    def ships_seen(self) -> set[tuple]:
        return {(s["side"], s["type"], at, s["facing"], s["masts"])
                for at, s in self.ships.items()}

    def buoys_seen(self, seat: str) -> dict[str, dict]:
        seen = {}
        for at in YELLOW:
            if at in self.revealed:
                seen[at] = {"kind": self.revealed[at], "revealed": True}
            elif seat == "blue" or self.over:
                seen[at] = {"kind": self.buoys[at], "revealed": False}
            else:
                seen[at] = {"kind": "unknown", "revealed": False}
        return seen

    def view(self, seat: str, reports: list[dict]) -> dict:
        """The view of B14 as the model would give it, for the computer's tests."""
        legal = [{"ship": a, "turn": h, "to": t} for a, h, t in sorted(
            self.legal(seat), key=str)] if self.turn == seat else []
        if self.turn == seat and not legal:
            legal = [{"pass": True}]
        return {"rules": "broadside", "id": "model", "you": seat,
                "phase": "over" if self.over else "play", "turn": self.turn,
                "board": BOARD, "legal": legal, "reports": reports,
                "ships": [{"side": s["side"], "type": s["type"], "at": at,
                           "facing": s["facing"], "masts": s["masts"], "sunk": False}
                          for at, s in self.ships.items()],
                "merchants": [{"at": m["at"], "opposite": m["opposite"],
                               "sunk": self.merchants[m["at"]]} for m in BOARD["merchants"]],
                "buoys": self.buoys_seen(seat), "batteries": self.batteries_seen(seat)}

    def report(self, side: str, move, told: dict) -> dict:
        """The parts of a report (B11) the computer reads."""
        return {"seat": side, "move": {"pass": True} if move is None else
                {"ship": move[0], "turn": move[1], "to": move[2]},
                "path": told["path"], "buoys": told["buoys"],
                "battery_masts": told["battery_masts"],
                "broadsides": [{"from": f, "at": a, "side": s, "kind": k}
                               for f, a, s, k in sorted(told["fired"])],
                "merchants_sunk": told["merchants_sunk"],
                "sunk": [{"side": s, "type": t, "at": a, "by": b}
                         for s, t, a, b in told["sunk"]]}

    def batteries_seen(self, seat: str) -> dict[str, str]:
        return {site: ("hit" if hit else "miss") if seat == "blue" or self.over else "unknown"
                for site, hit in self.batteries.items()}


# -- dispositions drawn by the model (B3, B4) ---------------------------------------------

def spell(at: str, rng: random.Random) -> str:
    return rng.choice([at, at.replace(" ", ""), at.lower()])


def random_dispositions(rng: random.Random) -> tuple[dict, dict]:
    red_types = FLEETS["red"][:]
    rng.shuffle(red_types)
    red = {"ships": [{"type": k, "at": spell(at, rng)}
                     for k, at in zip(red_types, BOARD["red_start"], strict=True)]}
    blue_types = FLEETS["blue"][:]
    rng.shuffle(blue_types)
    places = rng.sample(BOARD["blue_start"], 10)
    while True:
        sink = set(rng.sample(YELLOW, 3))
        if not set(BOARD["buoys"]["row"]) <= sink and not set(BOARD["buoys"]["pair"]) <= sink:
            break
    hit = set(rng.sample(["A", "B", "C", "D"], 2))
    blue = {"ships": [{"type": k, "at": spell(at, rng)}
                      for k, at in zip(blue_types, places, strict=True)],
            "buoys": {at: "sink" if at in sink else "pass" for at in YELLOW},
            "batteries": {s: "hit" if s in hit else "miss" for s in "ABCD"}}
    return red, blue


def greedy(model: Model, side: str, legal: list, rng: random.Random):
    """A move that fires, sinks a merchant or heads for the docks (Red) or the enemy (Blue),
    so random games reach broadsides, batteries, buoys and the end."""
    def score(move):
        origin, how, to = move
        facing = turned(model.ships[origin]["facing"], how)
        fired = 0
        for f in beams(facing):
            there = ahead(to, f)
            enemy = model.ships.get(there) if there else None
            if enemy and enemy["side"] != side and there != origin:
                fired += 2
            if side == "red" and DOCK_OPPOSITE.get(to) and there == DOCK_OPPOSITE[to]:
                fired += 5
        toward = xy(origin)[1] - xy(to)[1] if side == "red" else 0
        if side == "blue":
            reds = [xy(a) for a, s in model.ships.items() if s["side"] == "red"]
            if reds:
                def near(at):
                    x, y = xy(at)
                    return min(abs(x - rx) + abs(y - ry) for rx, ry in reds)
                toward = near(origin) - near(to)
        return fired * 3 + toward + rng.random()
    return max(legal, key=score)


# -- playing the core against the model -------------------------------------------------------

def check_views(game, model: Model) -> None:
    for seat in ("red", "blue"):
        view = view_for(game, seat)
        assert view["you"] == seat
        assert {(s["side"], s["type"], s["at"], s["facing"], s["masts"])
                for s in view["ships"]} == model.ships_seen()
        assert not any(s["sunk"] for s in view["ships"])
        assert {m["at"]: m["sunk"] for m in view["merchants"]} == model.merchants
        assert {m["at"]: m["opposite"] for m in view["merchants"]} == \
            {d: o for o, d in DOCK_OPPOSITE.items()}
        assert view["buoys"] == model.buoys_seen(seat)
        assert view["batteries"] == model.batteries_seen(seat)
        assert view["turn"] == model.turn
        if model.turn == seat:
            legal = model.legal(seat)
            if legal:
                assert {(m["ship"], m["turn"], m["to"]) for m in view["legal"]} == legal
            else:
                assert view["legal"] == [{"pass": True}]
        else:
            assert view["legal"] == []
        if seat == "red" and not model.over:  # B12: the secrets not yet revealed stay hidden
            text = json.dumps({k: v for k, v in view.items() if k != "board"})
            assert '"hit"' not in text and '"miss"' not in text
            for at, kind in model.buoys.items():
                assert {"kind": kind, "revealed": False} != view["buoys"][at] or \
                    kind == "unknown"


def check_report(report: dict, told: dict, side: str, move) -> None:
    assert report["seat"] == side
    if move is None:
        assert report["passed"] is True and report["move"] == {"pass": True}
        assert report["path"] == [] and report["broadsides"] == [] and report["sunk"] == []
        return
    assert report["passed"] is False
    assert report["from"] == move[0] and report["turn"] == move[1]
    assert report["path"] == told["path"]
    assert report["to"] == told["path"][-1]
    assert report["buoys"] == told["buoys"]
    assert report["stopped_by"] == told["stopped_by"]
    assert report["battery_masts"] == told["battery_masts"]
    assert {(b["from"], b["at"], b["side"], b["kind"]) for b in report["broadsides"]} == \
        told["fired"]
    assert len(report["broadsides"]) == len(told["fired"])
    assert sorted((s["side"], s["type"], s["at"], s["by"]) for s in report["sunk"]) == \
        sorted(told["sunk"])
    assert report["merchants_sunk"] == told["merchants_sunk"]
    lost: dict = {}
    for entry in report["masts_lost"]:
        key = (entry["side"], entry["type"])
        lost[key] = lost.get(key, 0) + entry["lost"]
    assert lost == told["lost"]


def refused_move(model: Model, side: str, rng: random.Random):
    """A move the rules refuse (B5), as the model sees it, and the seat that tries it."""
    legal = model.legal(side)
    own = [at for at, s in model.ships.items() if s["side"] == side]
    choice = rng.randrange(5)
    if choice == 0 and legal:  # the other seat, out of turn
        origin, how, to = rng.choice(sorted(legal, key=str))
        return ("blue" if side == "red" else "red"), {"ship": origin, "turn": how, "to": to}
    if choice == 1 and legal:  # a pass with a legal move to make
        return side, {"pass": True}
    if choice == 2 or not own:  # an enemy ship, or an empty cross
        enemy = [at for at, s in model.ships.items() if s["side"] != side]
        empty = sorted(CROSSES - set(model.ships))
        at = rng.choice(enemy or empty)
        return side, {"ship": at, "turn": None, "to": rng.choice(sorted(CROSSES))}
    origin = rng.choice(own)
    how = rng.choice(list(TURN_BY))
    to = rng.choice(sorted(CROSSES | {"G 9", "A 1"}))  # land too
    if (origin, how, to) in legal:
        to = origin  # turning in place (B5)
    return side, {"ship": origin, "turn": how, "to": to}


def play_random_game(seed: int, moves: int, wild: float):
    rng = random.Random(seed)
    red, blue = random_dispositions(rng)
    game, _ = new_game(id="p", seed=seed, options={})
    game.join("red", "Red")
    game.join("blue", "Blue")
    game.submit("red", red)
    game.submit("blue", blue)
    game.lock_in("red", salt="r")
    game.lock_in("blue", salt="b")
    model = Model(red, blue)
    check_views(game, model)
    for _ in range(moves):
        if model.over:
            break
        side = model.turn
        if rng.random() < wild:
            seat, document = refused_move(model, side, rng)
            version = game.version
            with pytest.raises(RuleViolation) as refused:
                game.move(seat, document)
            assert refused.value.problems[0].rule.startswith("B")
            assert game.version == version
            continue
        legal = sorted(model.legal(side), key=str)
        if not legal:
            move = None
            _, report = game.move(side, {"pass": True})
        else:
            move = greedy(model, side, legal, rng) if rng.random() < 0.6 else rng.choice(legal)
            origin, how, to = move
            _, report = game.move(side, {"ship": spell(origin, rng), "turn": how,
                                         "to": spell(to, rng)})
        told = model.play(side, move)
        check_report(report, told, side, move)
        told_red, told_blue = (report_for(game, report, s) for s in ("red", "blue"))
        assert told_red == told_blue  # B11: both players are told the same
        check_report(told_red, told, side, move)
        assert isinstance(told_red["text"], str) and told_red["text"]
        check_views(game, model)
        assert view_for(game, "red")["reports"][-1] == told_red
        if len(game.reports) % 25 == 0:  # the record is every report, as each seat sees it
            for seat in ("red", "blue"):
                assert record_for(game, seat)["moves"] == view_for(game, seat)["reports"]
    if model.over:
        assert game.phase == "over"
        result = game.result_document()
        assert result["reason"] == model.over and result["winner"] == model.winner
        assert result["scores"] == {"red": sum(model.merchants.values()),
                                    "blue": 10 - sum(s["side"] == "red"
                                                     for s in model.ships.values())}
    again = replay(json.loads(json.dumps(game.events)))
    for seat in ("red", "blue"):
        assert view_for(again, seat) == view_for(game, seat)
    return game, model


@settings(max_examples=examples(8, 40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), wild=st.floats(0.0, 0.3))
def test_b5_to_b11_random_games_agree_with_the_model(seed, wild):
    play_random_game(seed, 400, wild)


@pytest.mark.parametrize("seed", range(6))
def test_b10_greedy_games_reach_an_end_that_agrees_with_the_model(seed):
    """Long games, mostly greedy: they reach the end (merchants sunk, or Red's fleet gone),
    and the model agrees with the core on every move of the way."""
    game, model = play_random_game(1000 + seed, 3000, 0.0)
    assert model.over, "a greedy game of 3000 moves ended"
