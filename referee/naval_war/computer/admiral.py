"""The admiral: the strongest opponent, built on the lessons of the rules' four games.

Budget and placement (``Doctrine``), as the illustrative games suggest and the duel bench
(admiral against admiral variants) confirmed:

- the least allowed at sea, 60 points, all in widely dispersed Submarines and Destroyers
  ("a large number of widely dispersed Submarines"), laid out so that no atom bomber's
  5 x 5 or R.P.'s 3 x 3 holds much (``fleets.dispersed``);
- 100 points of offence in R.P.s and salvoes: Blue's third game charted nearly all of Red
  with R.P.s, and "a few salvoes would have enabled him to sink economically the ships he
  had located". Bombers and atom bombers lost to R.P.s and salvoes head to head, so the
  admiral buys none, though it plays them by the book when a doctrine does;
- A-A guns in the middle of the land units, guarding the aircraft there (Red's first game
  had eight R.P.s shot down over his guns); and more land than the aircraft need, since land
  is free, spreads the aircraft thinner, and every unseen land square is one where the enemy
  may waste a shot or an R.P.

Play: every move is chosen from ``inference.Chart``, the odds over every enemy disposition
consistent with the reports so far:

1. a salvo at once when an enemy aircraft has been seen on the ground (kill it before it
   flies), its other shots at the likeliest ship squares;
2. an aircraft of ours that an enemy R.P. has seen takes off now, before it is bombed;
3. atom bombers go early, each where the most ship points lie wholly inside its 5 x 5;
4. R.P.s fly where they are expected to reveal most, away from suspected A-A guns;
5. bombers wait for a 3 x 3 worth bombing, or until the R.P.s are spent;
6. salvoes last: located ships first, then the likeliest squares.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import CELLS
from .fleets import dispersed
from .inference import EMPTY, LAND, SHIP, Chart
from .seat import Seat, aircraft_move, salvo_move

SPOTTED_FIRST = ("atom-bomber", "bomber", "recon")


@dataclass(frozen=True)
class Doctrine:
    """What the admiral buys, and the thresholds of its play."""

    plan: tuple[tuple[str, int], ...] = (
        ("submarine", 36), ("destroyer", 12),
        ("recon", 50), ("aa-gun", 15), ("salvo", 35))
    bomber_worth: float = 2.5  # expected ship points (or aircraft) a bomber waits for
    extra_land: int = 8  # land units beyond those the aircraft and guns need
    recon_worth: float = 0.05  # what an R.P. must expect to find before its risk counts
    risk_worth: float = 0.2  # what a bomber must expect to sink before its risk counts


DOCTRINE = Doctrine()


def disposition(rng: random.Random, doctrine: Doctrine | None = None) -> dict:
    doctrine = doctrine or DOCTRINE
    return dispersed(dict(doctrine.plan), rng, extra_land=doctrine.extra_land)


def _jitter(values: list[float], rng: random.Random) -> list[float]:
    return [v + rng.random() * 1e-6 for v in values]


def _best(values: list[float]) -> tuple[float, int]:
    best = max(range(CELLS), key=values.__getitem__)
    return values[best], best


def move(seat: Seat, view: dict, rng: random.Random, doctrine: Doctrine | None = None) -> dict:
    doctrine = doctrine or DOCTRINE
    charts = {opp: Chart(view, opp) for opp in seat.opponents}
    planes_left = seat.planes_left

    # 1. enemy aircraft seen on the ground: a salvo before they fly
    if seat.salvoes:
        for chart in charts.values():
            if chart.planes:
                shots = _salvo(chart, planes_left, rng)
                if any(s in chart.planes for s in shots):
                    return salvo_move(shots, chart.opponent)
    # 2. our own aircraft an enemy R.P. has seen take off before they are destroyed
    for kind in SPOTTED_FIRST:
        for frm in seat.aircraft[kind]:
            if frm in seat.spotted:
                return _fly(kind, frm, charts, rng)
    # 3. atom bombers early
    if seat.aircraft["atom-bomber"]:
        return _fly("atom-bomber", seat.aircraft["atom-bomber"][0], charts, rng)
    # 4. R.P.s
    if seat.aircraft["recon"]:
        if seat.aircraft["bomber"]:
            value, opp, centre = _bomb_target(charts, 1, rng)
            if value >= doctrine.bomber_worth:
                return aircraft_move("bomber", seat.aircraft["bomber"][0], centre, opp)
        return _fly("recon", seat.aircraft["recon"][0], charts, rng)
    # 5. bombers
    if seat.aircraft["bomber"]:
        return _fly("bomber", seat.aircraft["bomber"][0], charts, rng)
    # 6. salvoes
    best: tuple[float, list[int], str] | None = None
    for chart in charts.values():
        shots = _salvo(chart, planes_left, rng)
        worth = sum(chart.p[s] for s in shots)
        if best is None or worth > best[0]:
            best = (worth, shots, chart.opponent)
    if best is None:
        raise ValueError("no opponent to fire at")
    return salvo_move(best[1], best[2])


def _fly(kind: str, frm: int, charts: dict[str, Chart], rng: random.Random) -> dict:
    if kind == "recon":
        best: tuple[float, str, int] | None = None
        for opp, chart in charts.items():
            values = chart.recon_values()
            scored = _jitter([values[c] * (1.0 - chart.risk(c))
                              if values[c] > DOCTRINE.recon_worth else 0.0
                              for c in range(CELLS)], rng)
            value, centre = _best(scored)
            if best is None or value > best[0]:
                best = (value, opp, centre)
        if best is None:
            raise ValueError("no opponent to fly at")
        _, opp, centre = best
    else:
        _, opp, centre = _bomb_target(charts, 2 if kind == "atom-bomber" else 1, rng)
    return aircraft_move(kind, frm, centre, opp)


def _bomb_target(charts: dict[str, Chart], radius: int, rng: random.Random
                 ) -> tuple[float, str, int]:
    best: tuple[float, str, int] | None = None
    for opp, chart in charts.items():
        values = chart.bomb_values(radius)
        if radius == 1:
            values = [v * (1.0 - chart.risk(c)) if v > DOCTRINE.risk_worth else v
                      for c, v in enumerate(values)]
        value, centre = _best(_jitter(values, rng))
        if best is None or value > best[0]:
            best = (value, opp, centre)
    if best is None:
        raise ValueError("no opponent to bomb")
    return best


def _salvo(chart: Chart, planes_left: int, rng: random.Random) -> list[int]:
    values = chart.shot_values(planes_left)
    for s in range(CELLS):
        useless = (chart.state[s] in (EMPTY, LAND) and s not in chart.planes
                   and s not in chart.guns) or (chart.state[s] == SHIP and chart.hit[s])
        if useless:
            values[s] = -1.0
    ranked = sorted(range(CELLS), key=_jitter(values, rng).__getitem__, reverse=True)
    return ranked[:3]

