"""Random legal games, checked after every move (OpenSpiel's random_sim_test, with hypothesis).

Each example draws a seed, lays out a random fleet for every seat (``layout.scatter`` of a
``random_purchase``) and plays a random legal game to its end with 2, 3 or 4 players, free for
all or in two alliances. Targets lean toward ship squares, aircraft and the squares around A-A
guns, so ships sink and aircraft are shot down. After every move the test checks:

- the engine's charts against the test's own account of the game (``Chart``), kept from the
  moves alone by R15-R19, and every report against the one that account predicts (R20);
- what never goes back: scores and side totals never rise, hit squares stay hit, flown or
  destroyed aircraft stay so and never fly again, spent or destroyed A-A guns stay so and never
  fire again, forces never grow (R13, R15, R18, R19, R22);
- whose turn it is (R11, R14) and that refused commands change nothing;
- that ``replay`` of the JSON event log gives the same game, views included;
- that no seat's view or move record names a square of another seat's chart that R20 has not
  named to it (R21), checked by ``leaks``; ``test_r21_leak_checker_catches_*`` show it fails
  on leaky views.

Once the game is over: the result follows R14 and R22, everything is revealed (R21).
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from soak import examples

from referee.naval_war import RuleViolation, new_game, record_for, replay, view_for
from referee.naval_war.layout import pack, random_purchase, scatter
from referee.naval_war.squares import NotationError, Square, parse_square, square_name

# -- the test's own account of the rules ----------------------------------------------------

SIZE = 21
LENGTH = {"carrier": 4, "battleship": 4, "cruiser": 3, "destroyer": 2, "submarine": 1}  # R22
AIRCRAFT = ("atom-bomber", "bomber", "recon")
SHIP_ORDER = ("carrier", "battleship", "cruiser", "destroyer", "submarine")
RADIUS = {"atom-bomber": 2, "bomber": 1, "recon": 1}  # R16, R17
PAIRS = (("red", "green"), ("blue", "gold"))  # R23 option, as API.md pairs them
ATTACKER_ONLY, TARGET_ONLY = ("from",), ("squares_hit", "gun")  # R20, API.md


def block(centre: Square, radius: int) -> list[Square]:
    """The (2r+1) x (2r+1) squares around ``centre`` that lie on the chart, row by row (R16)."""
    return [Square(c, r)
            for r in range(centre.row - radius, centre.row + radius + 1)
            for c in range(centre.col - radius, centre.col + radius + 1)
            if 0 <= c < SIZE and 0 <= r < SIZE]


def apart(a: Square, b: Square) -> int:
    """The larger of the column and row distances (R18)."""
    return max(abs(a.col - b.col), abs(a.row - b.row))


def reading(squares) -> list[str]:
    return [square_name(s) for s in sorted(squares, key=lambda s: (s.row, s.col))]


def side_of(game, seat: str) -> tuple[str, ...]:
    if game.alliances:
        return next(pair for pair in PAIRS if seat in pair)
    return (seat,)


def ship_cells(ship: dict) -> tuple[Square, ...]:
    at = parse_square(ship["at"])
    if ship["type"] == "carrier":
        return tuple(Square(at.col + c, at.row + r) for r in (0, 1) for c in (0, 1))
    step = (1, 0) if ship.get("dir", "across") == "across" else (0, 1)
    return tuple(Square(at.col + i * step[0], at.row + i * step[1])
                 for i in range(LENGTH[ship["type"]]))


@dataclass
class Chart:
    """One seat's chart as the test keeps it: built from the disposition document, changed
    only by the moves, by R13 and R15-R19 as written."""

    land: set[Square]
    ships: list[tuple[str, tuple[Square, ...]]]
    planes: dict[Square, list[str]]  # square -> [type, "ready" | "flown" | "destroyed"]
    guns: dict[Square, str]  # square -> "ready" | "spent" | "destroyed"
    salvoes: int
    fired: int = 0
    hits: set[Square] = field(default_factory=set)
    ship_at: dict[Square, int] = field(default_factory=dict)

    @classmethod
    def from_document(cls, doc: dict) -> Chart:
        land = {Square(u.col + c, u.row + r) for u in map(parse_square, doc["land"])
                for r in range(3) for c in range(3)}
        ships = [(s["type"], ship_cells(s)) for s in doc["ships"]]
        chart = cls(land, ships, {parse_square(a["at"]): [a["type"], "ready"]
                                  for a in doc["aircraft"]},
                    {parse_square(g): "ready" for g in doc["guns"]}, doc["salvoes"])
        chart.ship_at = {sq: i for i, (_, cells) in enumerate(ships) for sq in cells}
        return chart

    def pieces(self) -> set[Square]:
        """The squares of this chart that R21 hides: its land, ships, aircraft and guns."""
        return self.land | set(self.ship_at) | set(self.planes) | set(self.guns)

    def sunk(self, i: int) -> bool:
        return all(sq in self.hits for sq in self.ships[i][1])

    def score(self) -> int:
        return sum(LENGTH[kind] for i, (kind, _) in enumerate(self.ships) if not self.sunk(i))

    def forces(self) -> dict[str, int]:
        counts = dict.fromkeys(AIRCRAFT, 0)
        for kind, state in self.planes.values():
            counts[kind] += state == "ready"
        return {**counts, "salvo": self.salvoes - self.fired}

    def can_attack(self) -> bool:
        return any(self.forces().values())

    def damage(self) -> dict[str, list[str]]:
        return {
            "hit": reading(self.hits),
            "destroyed": reading([sq for sq, (_, s) in self.planes.items() if s == "destroyed"]
                                 + [sq for sq, s in self.guns.items() if s == "destroyed"]),
            "flown": reading(sq for sq, (_, s) in self.planes.items() if s == "flown"),
            "spent": reading(sq for sq, s in self.guns.items() if s == "spent"),
        }

    def shoot(self, square: Square, tally: dict) -> dict:
        """One shot (R15, R19); returns the salvo's per-shot entry of API.md."""
        entry = {"at": square_name(square), "result": None, "new": False, "sunk": False}
        i = self.ship_at.get(square)
        if i is not None:
            entry["result"] = self.ships[i][0]
            if square not in self.hits:
                self.hits.add(square)
                tally["new_hits"][i] += 1
                tally["squares_hit"].add(square)
                entry["new"] = True
            entry["sunk"] = self.sunk(i)
        plane = self.planes.get(square)
        if plane and plane[1] == "ready":
            plane[1] = "destroyed"
            tally["destroyed"][plane[0]] += 1
            tally["squares_hit"].add(square)
            if entry["result"] is None:
                entry["result"], entry["new"] = plane[0], True
        if self.guns.get(square, "destroyed") != "destroyed":
            self.guns[square] = "destroyed"
            tally["destroyed"]["aa-gun"] += 1
            tally["squares_hit"].add(square)
            entry["result"], entry["new"] = "aa-gun", True
        return entry

    def look(self, square: Square) -> dict:
        """What an R.P. sees on one square (R17)."""
        entry = {"square": square_name(square),
                 "terrain": "land" if square in self.land else "sea",
                 "piece": None, "hit": False, "spent": False}
        plane = self.planes.get(square)
        if plane and plane[1] == "ready":
            entry["piece"] = plane[0]
        if square in self.ship_at:
            entry["piece"] = self.ships[self.ship_at[square]][0]
            entry["hit"] = square in self.hits
        if self.guns.get(square, "destroyed") != "destroyed":
            entry["piece"], entry["spent"] = "aa-gun", self.guns[square] == "spent"
        return entry

    def attacked(self, weapon: str, at: list[Square]) -> dict:
        """Apply a move to this chart; returns the report fields it must produce (R15-R20)."""
        gun = None
        if weapon in ("bomber", "recon"):  # R18: the nearest covering gun, then reading order
            covering = [(apart(g, at[0]), g.row, g.col) for g, s in self.guns.items()
                        if s == "ready" and apart(g, at[0]) <= 1]
            if covering:
                _, row, col = min(covering)
                gun = Square(col, row)
                self.guns[gun] = "spent"
        tally = {"new_hits": Counter(), "squares_hit": set(),
                 "destroyed": Counter(dict.fromkeys((*AIRCRAFT, "aa-gun"), 0))}
        report = {"shot_down": gun is not None, "gun": square_name(gun) if gun else None,
                  "shots": None, "seen": None}
        if gun is None and weapon == "salvo":
            report["shots"] = [self.shoot(sq, tally) for sq in at]
        elif gun is None and weapon == "recon":
            report["seen"] = [self.look(sq) for sq in block(at[0], 1)]
        elif gun is None:
            for sq in block(at[0], RADIUS[weapon]):
                self.shoot(sq, tally)
        report["hits"] = sorted((self.ships[i][0], n, self.sunk(i))
                                for i, n in tally["new_hits"].items())
        report["destroyed"] = dict(tally["destroyed"])
        report["squares_hit"] = reading(tally["squares_hit"])
        return report


# -- R21: what a seat's view may name --------------------------------------------------------

TELLING_WORDS = re.compile(r"bomber|r\.p\.|recon|salvo|a-a|gun|carrier|battleship|cruiser|"
                           r"destroyer|submarine|hit|sunk|shot|saw|nothing|damage", re.I)
SQUARE_TOKEN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z] ?\d{1,2}(?!\d)")


@functools.cache
def read_token(token: str) -> str | None:
    try:
        return square_name(parse_square(token))
    except NotationError:
        return None


def square_names_in(doc: object) -> set[str]:
    """Every square named anywhere in a JSON document, in any spelling R1 reads."""
    found = {read_token(token) for token in SQUARE_TOKEN.findall(json.dumps(doc))}
    found.discard(None)
    return found


def told_in(report: dict, seat_side: tuple[str, ...]) -> set[str]:
    """The squares R20 names to a seat in its copy of one full report: the move's squares
    and what its R.P. saw; the base square to the attacker's side; the squares hit and the
    gun that fired to the target's side. Nothing to a third player."""
    if report["by"] not in seat_side and report["target"] not in seat_side:
        return set()
    names = set(report["at"])
    names.update(e["square"] for e in report.get("seen") or ())
    if report["by"] in seat_side:
        names.add(report["from"])
    else:
        names.update(report["squares_hit"])
        names.add(report["gun"])
    return {n for n in names if n}


def hidden_squares(game) -> dict[str, set[str]]:
    """For every seat, the squares R21 hides of every other seat's chart (its land, ships,
    aircraft and guns); ally or not, a chart reaches a seat only through the reports."""
    pieces = {s: {square_name(sq) for sq in Chart.from_document(f.document).pieces()}
              for s, f in game.fleets.items()}
    return {seat: set().union(*(p for s, p in pieces.items() if s != seat))
            for seat in game.seats}


def leaks(game, seat: str, view: dict, record: dict,
          hidden: dict[str, set[str]] | None = None) -> list[str]:
    """Everything in a seat's view and move record that R20 has not told it (R21).

    Sound: a square may be named in a copy of a report only where R20 names it to this
    seat (``told_in``), and nowhere else, so an honest view never trips it. The area of a
    bomber is not in that set: the attacker knows it, but the referee never names it, so a
    ``squares_hit`` shown to the attacker is caught. The seat's own chart is checked by
    equality with its own fleet rather than by name, so its own squares cannot mask a leak.
    """
    if game.phase == "over":
        return []
    hidden = hidden_squares(game) if hidden is None else hidden
    forbidden = hidden[seat]
    seat_side = side_of(game, seat)
    fleet = game.fleets.get(seat)
    found = []
    own = {"disposition": fleet.document if fleet else None,
           "damage": fleet.damage() if fleet else None,
           "forces": fleet.forces() if fleet else None}
    for key, expected in own.items():
        if view.get(key) != expected:
            found.append(f"view[{key!r}] is not {seat}'s own chart")
    rest = {k: v for k, v in view.items() if k not in (*own, "reports")}
    for seat_name, info in view.get("seats", {}).items():
        # the fingerprint is a hash and the salt random hex: neither names a square, though
        # hex such as "e6" reads like one; they are checked for what they are instead
        stamp = game.fingerprints.get(seat_name)
        if info.get("fingerprint") != stamp:
            found.append(f"seat {seat_name}'s fingerprint is not its lock-in's")
        if info.get("salt") not in (None, game.salts.get(seat)) or (
                info.get("salt") is not None and seat_name != seat):
            found.append(f"seat {seat_name}'s salt shown before the end")
        rest["seats"] = {**rest["seats"], seat_name: {k: v for k, v in info.items()
                                                      if k not in ("fingerprint", "salt")}}
    rest["record"] = {k: v for k, v in record.items() if k != "moves"}
    for name in sorted(square_names_in(rest) & forbidden):
        found.append(f"{name} outside the reports")
    if "revealed" in view:
        found.append("'revealed' before the game is over")
    for part, copies in (("view", view.get("reports")), ("record", record.get("moves"))):
        if not isinstance(copies, list) or len(copies) != len(game.reports):
            found.append(f"{part} holds {copies!r:.60} for {len(game.reports)} reports")
            continue
        if part == "record" and copies == view.get("reports"):
            continue  # the same copies as the view's, already checked
        for report, mine in zip(game.reports, copies, strict=True):
            found.extend(f"{part} report {report['n']}: {problem}"
                         for problem in copy_leaks(report, mine, seat_side, forbidden))
    return found


def copy_leaks(report: dict, mine: dict, seat_side: tuple[str, ...],
               forbidden: set[str]) -> list[str]:
    found = [f"names {name}, which R20 does not tell"
             for name in sorted((square_names_in(mine) & forbidden) - told_in(report, seat_side))]
    if report["by"] in seat_side:
        found.extend(f"holds the target's {k!r}" for k in TARGET_ONLY if k in mine)
    elif report["target"] in seat_side:
        found.extend(f"holds the attacker's {k!r}" for k in ATTACKER_ONLY if k in mine)
    else:  # a third player learns only that a move was made, by whom and at whom
        said = {k for k, v in mine.items() if v not in (None, [], False)}
        extra = said - {"n", "by", "target", "withheld", "text"}
        if extra:
            found.append(f"tells a third player {sorted(extra)}")
        if TELLING_WORDS.search(str(mine.get("text"))):
            found.append(f"tells a third player {mine.get('text')!r}")
    return found


# -- playing random legal games --------------------------------------------------------------

@dataclass
class Stats:
    games: int = 0
    moves: int = 0
    sunk: int = 0
    shot_down: int = 0
    destroyed: int = 0
    seen: int = 0
    refused: int = 0
    forfeits: int = 0
    endings: Counter = field(default_factory=Counter)


def random_square(rng: random.Random) -> Square:
    return Square(rng.randrange(SIZE), rng.randrange(SIZE))


def aim(rng: random.Random, chart: Chart) -> Square:
    """A target square, leaning toward what is there to hit and toward the A-A guns."""
    roll = rng.random()
    afloat = [sq for sq in chart.ship_at if sq not in chart.hits]
    guns = [g for g, s in chart.guns.items() if s != "destroyed"]
    planes = [sq for sq, (_, s) in chart.planes.items() if s == "ready"]
    if roll < 0.35 and afloat:
        return rng.choice(afloat)
    if roll < 0.5 and guns:
        return rng.choice(block(rng.choice(guns), 1))
    if roll < 0.6 and planes:
        return rng.choice(planes)
    return random_square(rng)


def spelling(rng: random.Random, square: Square) -> str:
    """A square as a player may write it (R1): "K 10", "K10", "k10" or "k 10"."""
    name = square_name(square)
    if rng.random() < 0.8:
        return name
    name = name.replace(" ", rng.choice(("", " ")))
    return name.lower() if rng.random() < 0.5 else name


def random_move(rng: random.Random, game, charts: dict[str, Chart], seat: str) -> dict:
    """A legal move, written as a player might write it (API.md)."""
    chart = charts[seat]
    opponents = [s for s in game.active if s not in side_of(game, seat)]
    target = rng.choice(opponents)
    ready = [(sq, kind) for sq, (kind, s) in chart.planes.items() if s == "ready"]
    if ready and (chart.fired == chart.salvoes or rng.random() < 0.4):
        square, kind = rng.choice(ready)
        at = spelling(rng, aim(rng, charts[target]))
        move = {"weapon": kind, "from": spelling(rng, square),
                "at": at if rng.random() < 0.7 else [at], "target": target}
    else:
        shots: list[Square] = []
        while len(shots) < 3:
            square = aim(rng, charts[target])
            if square not in shots:
                shots.append(square)
        move = {"weapon": "salvo", "at": [spelling(rng, s) for s in shots], "target": target}
    if len(opponents) == 1 and rng.random() < 0.3:
        del move["target"]  # it may be left out when there is only one opponent
    return move


def setup(rng: random.Random, seats: int, alliances: bool, forfeit: bool):
    """A game in play: every seat joins and lays out a random fleet; with ``forfeit`` one
    seat does not lock in and is forfeited when the clock runs out (R10)."""
    game, _ = new_game(id="prop", seats=seats, alliances=alliances, seed=rng.randrange(2**31))
    dropped = rng.choice(game.seats) if forfeit else None
    for seat in game.seats:
        game.join(seat, f"Player {seat}")
        document = scatter(random_purchase(rng), rng)
        game.submit(seat, document)
        assert game.fleets[seat].document == document
    check_views(game, {}, hidden_squares(game))  # R21 holds before play, too
    for seat in game.seats:
        if seat != dropped:
            game.lock_in(seat)
    if dropped:
        assert game.phase == "setup"
        game.forfeit(dropped, game.deadline)
    assert game.phase == "play"
    assert sorted(game.order) == sorted(game.seats)  # drawn at creation (R11), kept
    assert game.order == game.toss["order"]
    return game


def status(game) -> dict:
    """The engine's state of every chart, as the monotonicity checks compare it."""
    return {
        seat: {
            "score": fleet.score(),
            "forces": fleet.forces(),
            "hits": {sq for ship in fleet.ships for sq in ship.hits},
            "planes": {a.square: (a.flown, a.destroyed) for a in fleet.aircraft},
            "guns": {g.square: (g.spent, g.destroyed) for g in fleet.guns},
        }
        for seat, fleet in game.fleets.items()
    }


def side_totals(game, scores: dict[str, int]) -> dict[tuple[str, ...], int]:
    return {side_of(game, s): sum(scores.get(m, 0) for m in side_of(game, s))
            for s in game.seats}


def check_never_reverts(game, before: dict, after: dict, report: dict | None) -> None:
    """Scores, hits, aircraft, guns and forces only ever go one way (R13, R15, R18, R19, R22)."""
    for seat, old in before.items():
        new = after[seat]
        assert new["score"] <= old["score"], seat
        assert old["hits"] <= new["hits"], f"R19: a hit square of {seat} is no longer hit"
        for kind, n in new["forces"].items():
            assert n <= old["forces"][kind], f"{seat}'s {kind} forces grew"
        for square, (flown, destroyed) in new["planes"].items():
            was_flown, was_destroyed = old["planes"][square]
            assert flown >= was_flown and destroyed >= was_destroyed, square_name(square)
            assert not (flown and destroyed), f"R15: a flown aircraft was destroyed at {square}"
        for square, (spent, destroyed) in new["guns"].items():
            was_spent, was_destroyed = old["guns"][square]
            assert spent >= was_spent and destroyed >= was_destroyed, square_name(square)
    old_totals = side_totals(game, {s: v["score"] for s, v in before.items()})
    new_totals = side_totals(game, {s: v["score"] for s, v in after.items()})
    assert all(new_totals[side] <= total for side, total in old_totals.items())
    if report is None:
        return
    if report["from"] is not None:  # R13: it was able to fly, and now has flown
        plane = parse_square(report["from"])
        assert before[report["by"]]["planes"][plane] == (False, False)
        assert after[report["by"]]["planes"][plane] == (True, False)
    if report["gun"] is not None:  # R18: an intact, unspent gun fired, and is now spent
        gun = parse_square(report["gun"])
        assert before[report["target"]]["guns"][gun] == (False, False)
        assert after[report["target"]]["guns"][gun][0]


def check_against_model(game, charts: dict[str, Chart], report: dict, predicted: dict) -> None:
    """The engine's report and charts are those the test's own account predicts."""
    assert report["shot_down"] == predicted["shot_down"]
    assert report["gun"] == predicted["gun"]
    assert sorted((h["ship"], h["new_hits"], h["sunk"]) for h in report["hits"]) \
        == predicted["hits"]
    assert [h["ship"] for h in report["hits"]] == sorted(
        (h["ship"] for h in report["hits"]), key=SHIP_ORDER.index)
    assert report["destroyed"] == predicted["destroyed"]
    assert report["squares_hit"] == predicted["squares_hit"]
    shots = report["shots"] and [{k: s[k] for k in ("at", "result", "new", "sunk")}
                                 for s in report["shots"]]
    assert shots == predicted["shots"]
    seen = report["seen"] and [{k: e[k] for k in ("square", "terrain", "piece", "hit", "spent")}
                               for e in report["seen"]]
    assert seen == predicted["seen"]
    for seat, chart in charts.items():
        fleet = game.fleets[seat]
        assert {sq for ship in fleet.ships for sq in ship.hits} == chart.hits
        assert fleet.damage() == chart.damage()
        assert fleet.forces() == chart.forces()
        assert fleet.score() == chart.score()


def expected_turn(game, charts: dict[str, Chart], after: str) -> str | None:
    """The next seat in the order that can still attack; the others are passed over (R14)."""
    start = game.order.index(after) + 1
    for k in range(len(game.order)):
        seat = game.order[(start + k) % len(game.order)]
        if seat in charts and charts[seat].can_attack():  # a forfeited seat keeps its place
            return seat
    return None


def check_views(game, views: dict[str, dict], hidden: dict[str, set[str]]) -> None:
    """Every seat's view and record: well formed, and hiding what R21 hides."""
    for seat in game.seats:
        view = view_for(game, seat)
        record = record_for(game, seat)
        json.dumps(view)
        assert view["version"] == game.version and view["phase"] == game.phase
        assert record["moves"] == view["reports"]
        assert record["result"] == view["result"]
        problems = leaks(game, seat, view, record, hidden)
        assert not problems, (seat, problems)
        views[seat] = view


def check_replay(game, views: dict[str, dict]) -> None:
    """The state is the event log and nothing else: replaying its JSON gives the same game."""
    again = replay(json.loads(json.dumps(game.events)))
    assert again.events == game.events
    assert (again.version, again.phase, again.turn, again.order, again.over) \
        == (game.version, game.phase, game.turn, game.order, game.over)
    assert again.reports == game.reports
    assert again.outcome() == game.outcome()
    assert {s: f.snapshot() for s, f in again.fleets.items()} \
        == {s: f.snapshot() for s, f in game.fleets.items()}
    for seat in game.seats:
        assert view_for(again, seat) == views[seat]


def check_refusals(rng: random.Random, game, charts: dict[str, Chart], seat: str,
                   stats: Stats) -> None:
    """Illegal commands are refused and change nothing (R13, R14, R23)."""
    attempts = []
    gone = [(sq, kind) for sq, (kind, s) in charts[seat].planes.items() if s != "ready"]
    others = [s for s in game.active if s not in side_of(game, seat)]
    if gone:  # R13: an aircraft that has flown or been destroyed never flies again
        square, kind = rng.choice(gone)
        attempts.append((seat, {"weapon": kind, "from": square_name(square),
                                "at": "K 10", "target": others[0]}, "R13"))
    waiting = [s for s in game.active if s != seat]
    attempts.append((rng.choice(waiting),  # R14: players move in turn
                     {"weapon": "salvo", "at": ["A 1", "A 2", "A 3"], "target": seat}, "R14"))
    if game.alliances and len(side_of(game, seat)) > 1:  # R23: allies cannot attack each other
        ally = next(s for s in side_of(game, seat) if s != seat)
        if ally in game.active:
            attempts.append((seat, {"weapon": "salvo", "at": ["A 1", "A 2", "A 3"],
                                    "target": ally}, "R23"))
    before = (game.version, status(game), game.turn, len(game.reports))
    for who, move, rule in attempts:
        with pytest.raises(RuleViolation) as refused:
            game.move(who, move)
        assert rule in {p.rule for p in refused.value.problems}, (rule, refused.value)
        stats.refused += 1
    assert (game.version, status(game), game.turn, len(game.reports)) == before


def agree(rng: random.Random, game, everyone: bool) -> None:
    """Some or all seats agree to end the game; it ends only when all have (R14)."""
    seats = list(game.active)
    rng.shuffle(seats)
    if not everyone:
        seats = seats[:rng.randrange(1, len(seats))]
    version = game.version
    for seat in seats:
        game.agree_to_end(seat)
    assert game.version == version + len(seats)
    assert (game.phase == "over") == everyone
    if everyone:
        assert game.over == "agreed"


def play(seed: int, seats: int, alliances: bool, stats: Stats) -> None:
    """One random legal game, checked after every move."""
    rng = random.Random(seed)
    forfeit = seats > 2 and rng.random() < 0.15
    game = setup(rng, seats, alliances, forfeit)
    stats.forfeits += forfeit
    charts = {s: Chart.from_document(f.document) for s, f in game.fleets.items()}
    hidden = hidden_squares(game)
    bound = sum(len(c.planes) + c.salvoes for c in charts.values())
    ending = rng.choices(["play out", "agree", "resign"], [0.86, 0.07, 0.07])[0]
    stop_at = rng.randrange(bound // 3 + 1) if ending != "play out" else None
    views: dict[str, dict] = {}
    check_views(game, views, hidden)
    assert game.turn == expected_turn(game, charts, game.order[-1])
    moves, over, resigned = 0, "exhausted", None
    while game.phase == "play":
        assert moves < bound, "the game did not end although every force is spent (R14)"
        seat = game.turn
        if moves == stop_at and ending == "agree":
            agree(rng, game, everyone=True)
            over = "agreed"
            break
        if moves == stop_at and ending == "resign":
            resigned, over = rng.choice(game.active), "resigned"
            game.resign(resigned)
            break
        if rng.random() < 0.04:
            agree(rng, game, everyone=False)
        if rng.random() < 0.06:
            check_refusals(rng, game, charts, seat, stats)
        move = random_move(rng, game, charts, seat)
        before = status(game)
        version = game.version
        events, report = game.move(seat, move)
        assert len(events) == 1 and game.version == version + 1
        if move["weapon"] == "salvo":
            charts[seat].fired += 1
        else:
            charts[seat].planes[parse_square(move["from"])][1] = "flown"
        at = [parse_square(s) for s in ([move["at"]] if isinstance(move["at"], str)
                                        else move["at"])]
        target = move.get("target") or next(s for s in game.active
                                            if s not in side_of(game, seat))
        predicted = charts[target].attacked(move["weapon"], at)
        assert (report["by"], report["target"], report["weapon"], report["n"]) \
            == (seat, target, move["weapon"], moves + 1)
        assert report["at"] == [square_name(s) for s in at]  # written the referee's way (R1)
        assert report["from"] == (square_name(parse_square(move["from"]))
                                  if "from" in move else None)
        check_against_model(game, charts, report, predicted)
        check_never_reverts(game, before, status(game), report)
        assert game.turn == expected_turn(game, charts, seat)
        assert (game.phase == "over") == (game.turn is None)
        check_views(game, views, hidden)
        check_replay(game, views)
        moves += 1
        stats.sunk += sum(h["sunk"] for h in report["hits"])
        stats.shot_down += report["shot_down"]
        stats.destroyed += sum(report["destroyed"].values())
        stats.seen += report["seen"] is not None
    check_over(game, charts, views, hidden, over, resigned)
    stats.games += 1
    stats.moves += moves
    stats.endings[game.over] += 1


def check_over(game, charts: dict[str, Chart], views: dict[str, dict],
               hidden: dict[str, set[str]], over: str, resigned: str | None) -> None:
    """After the end: the result follows R14 and R22, and everything is revealed (R21)."""
    assert game.phase == "over" and game.turn is None
    assert game.over == over
    if over == "exhausted":
        assert not any(chart.can_attack() for chart in charts.values())
    scores = {s: charts[s].score() if s in charts else 0 for s in game.seats}
    result = game.outcome().to_json()
    assert result["scores"] == scores
    sides = list(dict.fromkeys(side_of(game, s) for s in game.seats))
    totals = {side: sum(scores[s] for s in side) for side in sides}
    contenders = [side for side in sides if resigned not in side
                  and any(s in charts for s in side)]
    best = max(totals[side] for side in contenders)
    top = [side for side in contenders if totals[side] == best]
    winners = list(top[0]) if len(top) == 1 else []
    assert result["winners"] == winners
    assert result["winner"] == (winners[0] if len(winners) == 1 else None)
    check_views(game, views, hidden)
    check_replay(game, views)
    for seat in game.seats:
        view = views[seat]
        assert view["result"] == result
        assert set(view["revealed"]) == set(game.seats) - {seat}
        for other, shown in view["revealed"].items():
            if other in charts:
                assert shown == {"disposition": game.fleets[other].document,
                                 "damage": charts[other].damage()}
            else:
                assert shown == {"disposition": None, "damage": None}
        for report, mine in zip(game.reports, view["reports"], strict=True):
            assert {k: v for k, v in mine.items() if k != "text"} == report
    with pytest.raises(RuleViolation) as refused:
        game.move(game.order[0], {"weapon": "salvo", "at": ["A 1", "A 2", "A 3"]})
    assert refused.value.kind == "turn"


# -- the properties --------------------------------------------------------------------------

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def run_games(seats: int, alliances: bool, examples: int) -> Stats:
    stats = Stats()

    @settings(max_examples=examples, deadline=None)
    @given(seed=SEEDS)
    def games(seed: int) -> None:
        play(seed, seats, alliances, stats)

    games()
    return stats


def assert_not_vacuous(stats: Stats) -> None:
    """Over the run, ships were sunk, aircraft shot down and pieces destroyed."""
    assert stats.games and stats.moves >= stats.games * 5, stats
    assert stats.sunk > 0 and stats.shot_down > 0 and stats.destroyed > 0, stats
    assert stats.seen > 0 and stats.refused > 0, stats


def test_r14_to_r22_random_two_player_games_keep_every_invariant():
    assert_not_vacuous(run_games(2, False, examples(16, 60)))


def test_r14_to_r23_random_three_player_games_keep_every_invariant():
    assert_not_vacuous(run_games(3, False, examples(10, 50)))


def test_r14_to_r23_random_four_player_free_for_all_games_keep_every_invariant():
    assert_not_vacuous(run_games(4, False, examples(8, 50)))


def test_r23_random_four_player_alliance_games_keep_every_invariant():
    assert_not_vacuous(run_games(4, True, examples(6, 50)))


# -- the leak checker can fail -----------------------------------------------------------------

def leak_scenario(seats: int = 2):
    """A fixed game: red's first move is a bomber on a ship square of blue's, where no gun
    covers it, so the move hits squares other than the one it names."""
    rng = random.Random(20240601)
    game, _ = new_game(id="leaky", seats=seats, seed=1)
    for seat in game.seats:
        game.join(seat, f"Player {seat}")
        purchase = {"battleship": 15, "cruiser": 2, "bomber": 12, "recon": 6, "aa-gun": 6,
                    "salvo": 18}
        game.submit(seat, pack(purchase) if seat == "red" else scatter(purchase, rng))
    for seat in game.seats:
        game.lock_in(seat)
    while game.turn != "red":  # everyone fires a harmless salvo until it is red's turn
        game.move(game.turn, {"weapon": "salvo", "at": ["U 19", "U 20", "U 21"],
                              "target": "red"})
    blue = Chart.from_document(game.fleets["blue"].document)
    aim_at = next(sq for sq in blue.ship_at
                  if all(apart(g, sq) > 1 for g in blue.guns)
                  and sum(1 for near in block(sq, 1) if near in blue.ship_at) >= 2)
    bomber = next(a for a in game.fleets["red"].aircraft if a.type == "bomber")
    _, report = game.move("red", {"weapon": "bomber", "from": square_name(bomber.square),
                                  "at": square_name(aim_at), "target": "blue"})
    assert len(report["squares_hit"]) >= 2 and not report["shot_down"]
    return game, report


def test_r21_leak_checker_passes_honest_views():
    game, _ = leak_scenario(3)
    for seat in game.seats:
        assert leaks(game, seat, view_for(game, seat), record_for(game, seat)) == []


def test_r21_leak_checker_catches_squares_hit_shown_to_the_attacker():
    game, report = leak_scenario()
    view, record = view_for(game, "red"), record_for(game, "red")
    view["reports"][-1] = {**report, "text": "Bomber."}  # the full report, unfiltered
    found = leaks(game, "red", view, record)
    unnamed = set(report["squares_hit"]) - set(report["at"])
    assert unnamed and any(name in problem for name in unnamed for problem in found), found
    assert any("'squares_hit'" in problem for problem in found)


def test_r21_leak_checker_catches_the_base_square_shown_to_the_target():
    game, report = leak_scenario()
    view, record = view_for(game, "blue"), record_for(game, "blue")
    record["moves"][-1] = {**record["moves"][-1], "from": report["from"]}
    found = leaks(game, "blue", view, record)
    assert any(report["from"] in problem for problem in found), found


def test_r21_leak_checker_catches_a_base_square_hidden_in_the_text():
    game, report = leak_scenario()
    view, record = view_for(game, "blue"), record_for(game, "blue")
    view["reports"][-1] = {**view["reports"][-1],
                           "text": view["reports"][-1]["text"] + f" Flown from {report['from']}."}
    assert any(report["from"] in problem for problem in leaks(game, "blue", view, record))


def test_r21_leak_checker_catches_another_seats_disposition():
    game, _ = leak_scenario()
    blue = game.fleets["blue"].document
    view, record = view_for(game, "red"), record_for(game, "red")
    assert leaks(game, "red", {**view, "disposition": blue}, record)
    found = leaks(game, "red", {**view, "blue": blue}, record)
    blue_names = {square_name(s) for s in Chart.from_document(blue).pieces()}
    assert any(name in problem for name in blue_names for problem in found), found


def test_r21_leak_checker_catches_a_full_report_shown_to_a_third_player():
    game, report = leak_scenario(3)
    view, record = view_for(game, "green"), record_for(game, "green")
    view["reports"][-1] = {**report, "text": "Bomber."}
    found = leaks(game, "green", view, record)
    assert any("third player" in problem for problem in found), found
    assert any(name in problem for name in report["squares_hit"] for problem in found), found
