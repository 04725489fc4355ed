"""The post-mortem of a finished game: what each weapon bought, and what hindsight says.

"Two players, who are taking the game seriously, may ... keep a record of each move ... This
will facilitate a post-mortem, which can be extremely interesting." Everything here is worked
out from the event log and the full reports, so it tells what R21 keeps hidden until the
game ends: serve it only once the game is over (``postmortem_document`` refuses before).

``spending(game)``: for each seat with a fleet, one row per weapon, keyed as in API.md
(``atom-bomber``, ``bomber``, ``recon``, ``aa-gun``, ``salvo``)::

    {"points": 60,     # price of all of that weapon bought (R3)
     "sank": 20,       # points of enemy ships sunk by it: a ship's points go to the move
                       # that hit its last square (R19)
     "hit": 27,        # new hits on enemy ship squares (R19: a square hit again is not new)
     "destroyed": 3,   # enemy aircraft and A-A guns destroyed by it (R15)
     "shot_down": 0,   # aircraft rows: how many of this weapon were shot down (R18);
                       # aa-gun row: how many enemy planes these guns shot down
     "revealed": 0,    # recon row: distinct squares its R.P.s reported (R17), per chart
                       # looked at, added up; 0 for the other rows
     "bought": 6,      # how many were bought
     "used": 6,        # flown, fired, or (aa-gun) fired at a plane
     "lost": 0}        # destroyed by the enemy before use (aircraft on the ground, guns)

"Enemy" is every seat the player attacked; the rows add up over all of them.

``hindsight(game)``: for each seat, for its atom bombers and its bombers, the targets that
would have sunk the most ship points with as many aircraft of that type as he flew (shot down
or not; not those destroyed on the ground)::

    {"count": 6, "targets": ["E 3", ...], "would_sink": 39, "did_sink": 20,
     "target": "blue", "flown": ["K 9", ...], "as_flown": 17,
     "exact": true, "upper_bound": 39, "method": "exact: ..."}

- The hypothetical is played on the target's final disposition (where his ships lay; they
  never move) with every ship intact: what those aircraft alone would have sunk had they been
  the only attack, none of them shot down. ``did_sink`` is what they actually sank (the
  ``sank`` of the spending row), which may include ships that other weapons had started, so
  it can exceed the hypothetical. ``as_flown`` is what the targets actually flown at that
  chart would sink under the same hypothetical; the search starts from them, so
  ``would_sink >= as_flown``.
- ``targets`` lists the chosen centres in reading order; at most ``count``, fewer when more
  would sink nothing more.
- ``exact`` and ``upper_bound``: see ``targeting``. The search is exact (branch and bound)
  within a node budget shared by all of a game's plans; otherwise the best found by local
  search and the truncated search, with ``upper_bound`` a proven bound on the optimum.
- With three or four players the targets are on the chart of the opponent he flew most of
  that type at (ties: the one where they sank most, then seat order), and ``count`` and
  ``did_sink`` still cover every aircraft of that type he flew, at anyone: what if they had
  all gone, well aimed, to his main victim.

``states_by_move(events)``: the game after each move, for a step-through of the record.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..common.documents import Json
from .catalogue import PRICES, RADIUS, SHIP_LENGTH
from .fleet import Fleet
from .game import Game, result_document
from .phrasing import move_heading
from .problems import refuse
from .squares import parse_square
from .targeting import best_targets, sunk_points
from .views import describe

ROWS = ("atom-bomber", "bomber", "recon", "aa-gun", "salvo")
BOMBS = ("atom-bomber", "bomber")
GAME_NODE_BUDGET = 40_000  # search nodes for all of a game's hindsight plans together


def _bought(fleet: Fleet) -> Counter[Any]:
    counts = Counter(plane.type for plane in fleet.aircraft)
    counts["aa-gun"] = len(fleet.guns)
    counts["salvo"] = fleet.salvoes
    return counts


def _lost(fleet: Fleet) -> Counter[Any]:
    counts = Counter(plane.type for plane in fleet.aircraft if plane.destroyed)
    counts["aa-gun"] = sum(1 for gun in fleet.guns if gun.destroyed)
    return counts


def sunk_in(report: Json) -> int:
    """The points of the ships this move sank: those whose last square it hit (R19)."""
    return sum(SHIP_LENGTH[hit["ship"]] for hit in report["hits"] if hit["sunk"])


def spending(game: Game) -> dict[str, dict[str, dict[str, int]]]:
    """What each weapon bought, per seat and weapon row (see the module for the fields)."""
    table: dict[str, dict[str, dict[str, int]]] = {}
    for seat in game.seats:
        fleet = game.fleets.get(seat)
        if fleet is None:  # forfeited before play (R10): nothing bought
            continue
        bought, lost = _bought(fleet), _lost(fleet)
        table[seat] = {
            row: {"points": bought[row] * PRICES[row], "sank": 0, "hit": 0, "destroyed": 0,
                  "shot_down": 0, "revealed": 0, "bought": bought[row], "used": 0,
                  "lost": lost[row]}
            for row in ROWS
        }
    revealed: dict[tuple[str, str], set[str]] = {}
    for report in game.reports:
        row = table[report["by"]][report["weapon"]]
        row["used"] += 1
        if report["shot_down"]:
            row["shot_down"] += 1
            guns = table[report["target"]]["aa-gun"]
            guns["shot_down"] += 1
            guns["used"] += 1
            continue
        row["hit"] += sum(hit["new_hits"] for hit in report["hits"])
        row["sank"] += sunk_in(report)
        row["destroyed"] += sum(report["destroyed"].values())
        if report["seen"]:
            seen = revealed.setdefault((report["by"], report["target"]), set())
            seen.update(entry["square"] for entry in report["seen"])
    for (seat, _), squares in revealed.items():
        table[seat]["recon"]["revealed"] += len(squares)
    return table


def _main_target(flown: list[Json], seats: tuple[str, ...]) -> str | None:
    """The opponent a seat flew most of these aircraft at; ties to where they sank most,
    then to the first in seat order."""
    if not flown:
        return None
    times: Counter[str] = Counter(report["target"] for report in flown)
    points: Counter[str] = Counter()
    for report in flown:
        points[report["target"]] += sunk_in(report)
    return min(times, key=lambda s: (-times[s], -points[s], seats.index(s)))


def hindsight(game: Game, *, budget: int = GAME_NODE_BUDGET) -> dict[str, dict[str, Json]]:
    """The best targets for the atom bombers and bombers each seat flew (see the module).

    ``budget`` is the number of search nodes for the whole game; each plan in turn gets an
    equal share of what is left, so what an easy plan does not use goes to the later ones.
    """
    plans = [(seat, weapon) for seat in game.seats if seat in game.fleets for weapon in BOMBS]
    flown = {(seat, weapon): [r for r in game.reports
                              if r["by"] == seat and r["weapon"] == weapon]
             for seat, weapon in plans}
    searched = [plan for plan in plans if flown[plan]]
    out: dict[str, dict[str, Json]] = {seat: {} for seat, _ in plans}
    left = budget
    for seat, weapon in plans:
        reports = flown[(seat, weapon)]
        entry = {"count": len(reports), "targets": [], "would_sink": 0,
                 "did_sink": sum(sunk_in(r) for r in reports), "target": None,
                 "flown": [], "as_flown": 0, "exact": True, "upper_bound": 0,
                 "method": "none flown"}
        target = _main_target(reports, game.seats)
        if target is not None:
            ships = [(ship.squares, SHIP_LENGTH[ship.type])
                     for ship in game.fleets[target].ships]
            at = [r["at"][0] for r in reports if r["target"] == target]
            squares = [parse_square(s) for s in at]
            share = left // (len(searched) - searched.index((seat, weapon)))
            plan = best_targets(ships, len(reports), RADIUS[weapon], flown=squares,
                                budget=share)
            left -= plan.nodes
            entry.update(target=target, targets=plan.targets, would_sink=plan.points,
                         flown=at, as_flown=sunk_points(ships, squares, RADIUS[weapon]),
                         exact=plan.exact, upper_bound=plan.upper_bound, method=plan.method)
        out[seat][weapon] = entry
    return out


def postmortem_summary(game: Game) -> Json:
    """What ``GET .../postmortem`` serves: the result, the spending and hindsight."""
    document = postmortem_document(game)
    return {key: document[key] for key in ("id", "result", "spending", "hindsight")}


def postmortem_document(game: Game) -> Json:
    """The post-mortem of a finished game: its result, spending and hindsight (R21: only
    once the game is over)."""
    if game.phase != "over":
        raise refuse("R21", "The post-mortem is given once the game is over", kind="turn")
    return {"id": game.id, "result": result_document(game), "spending": spending(game),
            "hindsight": hindsight(game)}


# -- the game move by move ---------------------------------------------------------------

def _chart(fleet: Fleet) -> Json:
    return {"damage": fleet.damage(), "forces": fleet.forces(), "score": fleet.score()}


def states_by_move(events: Iterable[Json]) -> list[Json]:
    """The game after each move: entry ``i`` is the state after ``i`` moves (entry 0 before
    the first), for stepping through the record once the game is over.

    Each entry is ``{"move": i, "report": the full report of move i (None for entry 0),
    "charts": {seat: {"disposition", "damage", "forces", "score"}}}``, ``damage`` as in a
    view (API.md). The events are applied once; after each move only the two charts it
    touched (the mover's and the target's) are read again, and the others are the previous
    entry's very objects, as is each seat's disposition throughout: treat them as read-only.
    Like the post-mortem, this holds everything R21 hides until the end.
    """
    game = Game()
    steps: list[Json] = []

    def first_step() -> None:
        charts = {seat: {"disposition": json.loads(json.dumps(fleet.document)),
                         **_chart(fleet)} for seat, fleet in game.fleets.items()}
        steps.append({"move": 0, "report": None, "charts": charts})

    for event in events:
        if event.get("type") == "move" and not steps:
            first_step()
        game.apply(event)
        if event.get("type") == "move":
            report = game.reports[-1]
            charts = dict(steps[-1]["charts"])
            for seat in {report["by"], report["target"]}:
                charts[seat] = {"disposition": charts[seat]["disposition"],
                                **_chart(game.fleets[seat])}
            steps.append({"move": report["n"], "report": report, "charts": charts})
    if not steps:
        first_step()
    return steps


def steps(game: Game) -> list[Json]:
    """``states_by_move`` of a game's own events."""
    return states_by_move(game.events)


def step_deltas(game: Game) -> list[Json]:
    """For the step-through: each move's full report and what it changed on each chart, so
    the page rebuilds any step by adding changes up (no rules in the script)."""
    out, before = [], None
    for step in states_by_move(game.events):
        damage = {seat: chart["damage"] for seat, chart in step["charts"].items()}
        if before is not None:
            out.append({"report": {**step["report"], "text": describe(step["report"]),
                                   "heading": move_heading(step["report"], game.names)},
                        "delta": {seat: {k: sorted(set(v) - set(before[seat][k]))
                                         for k, v in dmg.items() if set(v) - set(before[seat][k])}
                                  for seat, dmg in damage.items()
                                  if dmg != before[seat]}})
        before = damage
    return out


def sinks_by_weapon(games: Iterable[Game]) -> Counter[Any]:
    """The enemy ship points each weapon sank over some finished games (R19), for the club."""
    sunk: Counter[Any] = Counter()
    for game in games:
        for rows in spending(game).values():
            sunk.update({kind: row["sank"] for kind, row in rows.items()})
    return sunk
