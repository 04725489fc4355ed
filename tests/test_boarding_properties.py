"""Broadsides and Boarding Parties against a model of its own: random games, drawn by Hypothesis,
played by the referee's core and by a separate, plain implementation written here from the
rulings alone (reading the sea's data file, not ``sea.py`` or ``deck.py``): every card turned up
moves the ships where the model says (BB2, BB3), a volley opens exactly when the model's ships
lie within a dot with a cannon bearing, with the model's cannons (BB8, BB9), each volley does
what the model says its rolls do (BB11-BB14), a collision comes when the model's does (BB17);
and in the boarding, the movements the core offers a seat are the model's (BB16, BB21)."""

from __future__ import annotations

import json
from pathlib import Path

from boarding_support import in_play, place
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from referee.broadsides_boarding.game import Crew

SEA = json.loads((Path(__file__).resolve().parent.parent / "referee" / "broadsides_boarding"
                  / "sea.json").read_text())
LETTERS = "ABCDEFGHIJKLMNO"
ISLANDS = {(LETTERS.index(d[0]), int(d.split()[1]) - 1)
           for island in SEA["islands"] for d in island["dots"]}
HEADINGS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
STEP = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
SEAS = [(c, r) for c in range(15) for r in range(11) if (c, r) not in ISLANDS]
ARCS = {1: ("B", "C"), 2: ("B", "C", "D", "E", "F"), 3: ("E", "F")}


def name(dot: tuple[int, int]) -> str:
    return f"{LETTERS[dot[0]]} {dot[1] + 1}"


def sign(n: int) -> int:
    return (n > 0) - (n < 0)


class ModelShip:
    """A ship as the model keeps it: where, which way, what is left."""

    def __init__(self, at: tuple[int, int], heading: int) -> None:
        self.at, self.heading = at, heading
        self.cannons = {f"{s}{p}" for s in "BCDEF" for p in (3, 5)}
        self.masts = {"A": 1, "C": 2, "G": 1, "H": 1}
        self.hull = dict.fromkeys("ABCDEFGH", 0)
        self.stopped = False

    def play(self, card: str) -> None:
        """BB2, BB3: one card."""
        if self.stopped:
            return
        if card == "starboard":  # a Damaged card is played as Remain in Place (BB6)
            self.heading = (self.heading + 1) % 8
        elif card == "port":
            self.heading = (self.heading - 1) % 8
        elif card == "forward":
            dc, dr = STEP[self.heading]
            there = (self.at[0] + dc, self.at[1] + dr)
            if not (0 <= there[0] < 15 and 0 <= there[1] < 11) or there in ISLANDS:
                self.stopped = True
            else:
                self.at = there

    def bearing_on(self, enemy: tuple[int, int]) -> set[str]:
        """BB9: the cannons left whose line meets the enemy."""
        way = STEP.index((sign(enemy[0] - self.at[0]), sign(enemy[1] - self.at[1])))
        off = (way - self.heading) % 8
        if off in (0, 4):
            return set()
        rail = 5 if off < 4 else 3
        arc = ARCS[off if off < 4 else 8 - off]
        return {f"{s}{rail}" for s in arc} & self.cannons


def near(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def hit(ship: ModelShip, shots: list[tuple[str, int]]) -> set[str]:
    """BB11-BB13: what a volley's shots do to a ship, all at once; the cells struck."""
    struck = set()
    start = dict(ship.masts)
    for section, face in shots:
        if face == 2:
            ship.hull[section] += 1
        elif face == 4 and start.get(section, 0) > 0:
            ship.masts[section] = max(0, ship.masts[section] - 1)
        elif face in (3, 5):
            struck.add(f"{section}{face}")
    ship.cannons -= struck
    return struck


CARD = st.sampled_from(["stay", "forward", "forward", "starboard", "port"])
PLOT = st.lists(CARD, min_size=3, max_size=3)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(red=st.sampled_from(SEAS), off=st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
       headings=st.tuples(st.integers(0, 7), st.integers(0, 7)),
       rounds=st.lists(st.tuples(PLOT, PLOT), min_size=1, max_size=6),
       aim=st.lists(st.sampled_from("ABCDEFGH"), min_size=10, max_size=10))
def test_bb2_to_bb17_random_rounds_move_fire_and_collide_as_the_model_says(
        red, off, headings, rounds, aim):
    blue = (red[0] + off[0], red[1] + off[1])  # near: so that they meet, fire and collide
    if blue not in SEAS or red == blue or near(red, blue):
        return
    game = in_play()
    place(game, red=(name(red), HEADINGS[headings[0]]), blue=(name(blue), HEADINGS[headings[1]]))
    model = {"red": ModelShip(red, headings[0]), "blue": ModelShip(blue, headings[1])}
    for red_cards, blue_cards in rounds:
        if game.phase != "play" or game.laid is not None:
            break
        drawn = {"red": red_cards, "blue": blue_cards}  # the Damaged cards BB6 asks first
        cards = {s: ["damaged"] * game.required[s] + c[game.required[s]:]
                 for s, c in drawn.items()}
        for ship in model.values():
            ship.stopped = False
        assert game.stage_kind == "plot"
        game.move("red", {"cards": cards["red"]})
        game.move("blue", {"cards": cards["blue"]})
        turned = [e for e in game.reports[-1]["happened"] if e["what"] == "card"]
        for n in range(3):
            before = {s: ship.at for s, ship in model.items()}
            for seat, ship in model.items():
                ship.play(cards[seat][n])
            entry = turned.pop(0)
            for seat, ship in model.items():
                assert entry["ships"][seat]["to"] == name(ship.at), (n, seat)
                assert entry["ships"][seat]["heading"] == HEADINGS[ship.heading]
            r, b = model["red"].at, model["blue"].at
            if r == b or (r == before["blue"] and b == before["red"]):
                event("a collision")
                assert game.laid is not None and game.turned == n + 1  # BB17
                return
            bearing = {s: model[s].bearing_on(model[o].at)
                       for s, o in (("red", "blue"), ("blue", "red"))} if near(r, b) else {}
            if any(bearing.values()):
                event("a volley")
                assert game.stage_kind == "volley" and game.turned == n + 1
                assert {s: set(c) for s, c in game.bearing.items()} == bearing
                for seat in ("red", "blue"):
                    if bearing[seat]:
                        game.move(seat, {"targets": {c: aim[i] for i, c in
                                                     enumerate(game.bearing[seat])}})
                volley = next(e for e in reversed(game.reports[-1]["happened"])
                              if e["what"] == "volley")
                for seat in ("red", "blue"):
                    shots = [(s["target"], s["roll"]) for s in volley["shots"]
                             if s["seat"] != seat]
                    hit(model[seat], shots)
                    ship = game.ships[seat]
                    assert ship.cannons == model[seat].cannons, seat
                    assert ship.hull == model[seat].hull, seat
                    assert {m[0]: n for m, n in ship.masts.items()} == model[seat].masts
                sunk = [s for s, ship in model.items()
                        if sum(v >= 2 for v in ship.hull.values()) >= 3]
                if sunk:
                    assert game.over == "sunk"
                    assert game.winner == (None if len(sunk) == 2 else
                                           "blue" if sunk == ["red"] else "red")
                    return
                if game.over:  # everything lost: the model keeps no crews here
                    return
                turned = [e for e in game.reports[-1]["happened"] if e["what"] == "card"]
            elif game.phase == "play" and n < 2:
                assert game.stage_kind == "plot" or game.turned > n + 1


# -- the boarding's movements ----------------------------------------------------------------

SECTIONS = "ABCDEFGH"
LEVEL = {"A": 0, "B": 0, "C": 1, "D": 1, "E": 1, "F": 1, "G": 2, "H": 2}
LADDER = {"B4": "C4", "C4": "B4", "F4": "G4", "G4": "F4"}
CELLS = [f"{s}{p}" for s in SECTIONS for p in (3, 4, 5)]


def model_steps(place: str, orientation: str, touching: dict[str, int]) -> set[str]:
    """BB21 written afresh: neighbours on one level, the ladders, straight across."""
    ship, cell = place.split()
    s, p = SECTIONS.index(cell[0]), int(cell[1])
    found = {f"{ship} {SECTIONS[t]}{q}" for t in range(8) for q in (3, 4, 5)
             if (t, q) != (s, p) and abs(t - s) <= 1 and abs(q - p) <= 1
             and LEVEL[SECTIONS[t]] == LEVEL[cell[0]]}
    if cell in LADDER:
        found.add(f"{ship} {LADDER[cell]}")
    if p == touching[ship]:
        other = "blue" if ship == "red" else "red"
        t = s if orientation == "same" else 7 - s
        found.add(f"{other} {SECTIONS[t]}{touching[other]}")
    return found


PLACES = [f"{ship} {cell}" for ship in ("red", "blue") for cell in CELLS]


@settings(max_examples=120, deadline=None)
@given(orientation=st.sampled_from(["same", "opposite"]),
       sides=st.tuples(st.sampled_from([3, 5]), st.sampled_from([3, 5])),
       mine=st.dictionaries(st.sampled_from(PLACES), st.integers(1, 3), max_size=8),
       theirs=st.dictionaries(st.sampled_from(PLACES), st.integers(1, 3), max_size=8),
       captains=st.tuples(st.sampled_from(PLACES), st.sampled_from(PLACES)))
def test_bb21_the_movements_offered_are_the_models(orientation, sides, mine, theirs, captains):
    game = in_play()
    touching = {"red": sides[0], "blue": sides[1]}
    game.laid = {"orientation": orientation, "at": "E 4",
                 "touching": {s: "port" if p == 3 else "starboard" for s, p in touching.items()}}
    crews = {"red": Crew(dict(mine), captains[0]), "blue": Crew(dict(theirs), captains[1])}
    if crews["red"].at(captains[0]) > 3:
        return
    offered = {(m["from"], m["captain"]): set(m["to"]) for m in game.movements("red", crews)}

    def count(place: str) -> int:
        return mine.get(place, 0) + (captains[0] == place)

    def enemy(place: str) -> int:
        return theirs.get(place, 0) + (captains[1] == place)

    expected = {}
    for where, captain in [*((p, False) for p in mine), (captains[0], True)]:
        if enemy(where):
            continue  # a piece in an enemy's cell stopped there (BB21)
        to = {t for t in model_steps(where, orientation, touching) if count(t) < 3}
        if to:
            expected[(where, captain)] = to
    assert offered == expected
