"""A seat's chart of an opponent, filled in from the reports that seat has been given.

This is the referee doing what a careful player does with his second chart: every salvo
shot, R.P. sighting, bomber area and shoot-down is written on the square it concerns. It
reads only a seat's own view (R21): what it cannot know, it cannot write.
"""

from __future__ import annotations

from ..common.documents import Json
from .catalogue import AIRCRAFT_TYPES
from .catalogue import RADIUS as CATALOGUE_RADIUS
from .squares import area, parse_square, square_name

# Marks, from weakest to strongest evidence: a later, stronger mark replaces a weaker one.
BOMBED, SHOT_DOWN, NOTHING, SEEN, HIT = "bombed", "shot-down", "nothing", "seen", "hit"
RADIUS = {kind: CATALOGUE_RADIUS[kind] for kind in ("atom-bomber", "bomber")}  # R16


def knowledge_chart(view: Json, opponent: str) -> dict[str, Json]:
    """What ``view``'s seat knows of ``opponent``'s chart, square by square.

    Each entry has ``mark`` (bombed, shot-down, nothing, seen, hit), ``move`` (the report's
    number) and, where known, ``terrain``, ``piece``, ``hit``, ``sunk`` and ``spent``.
    """
    chart: dict[str, Json] = {}
    for report in view.get("reports", []):
        if report.get("target") != opponent or report.get("weapon") is None:
            continue
        n = report["n"]
        if report.get("shot_down"):
            _note(chart, report["at"][0], {"mark": SHOT_DOWN, "move": n})
        elif report.get("seen"):
            for entry in report["seen"]:
                _note(chart, entry["square"], {
                    "mark": SEEN, "move": n, "terrain": entry["terrain"],
                    "piece": entry["piece"], "hit": entry["hit"], "spent": entry["spent"],
                    "aircraft": entry.get("aircraft")})
        elif report.get("shots"):
            for shot in report["shots"]:
                if shot["result"] is None:
                    _note(chart, shot["at"], {"mark": NOTHING, "move": n})
                else:
                    _note(chart, shot["at"], {"mark": HIT, "move": n, "piece": shot["result"],
                                              "sunk": shot["sunk"], "hit": True})
        elif report["weapon"] in RADIUS:
            centre = parse_square(report["at"][0])
            found = bool(report["hits"]) or any(report["destroyed"].values())
            for square in area(centre, RADIUS[report["weapon"]]):
                _note(chart, square_name(square), {"mark": BOMBED, "move": n,
                                                   "found": found})
    _mark_sunk_ships(chart)
    return chart


_STRENGTH = {BOMBED: 0, SHOT_DOWN: 1, NOTHING: 2, SEEN: 3, HIT: 4}


def _note(chart: dict[str, Json], square: str, entry: Json) -> None:
    old = chart.get(square)
    if old is None or _STRENGTH[entry["mark"]] >= _STRENGTH[old["mark"]]:
        if old and old["mark"] == HIT and entry["mark"] == SEEN:
            entry = {**entry, "sunk": old.get("sunk", False)}
        chart[square] = entry
    elif old["mark"] == SEEN and entry["mark"] in (NOTHING, BOMBED):
        # a later shot or bomb tells what became of what the R.P. saw: an aircraft found
        # gone has flown (or was destroyed); a bomb destroys aircraft and guns and hits ships
        ship = old.get("piece") not in (None, "aa-gun", *AIRCRAFT_TYPES)
        if entry["mark"] == NOTHING and ship:
            return
        chart[square] = {**old, "move": entry["move"], "aircraft": None,
                         "piece": old["piece"] if ship else None,
                         "hit": ship, "spent": False}


def _mark_sunk_ships(chart: dict[str, Json]) -> None:
    """A hit square of a ship type next to a square known sunk of that type is sunk too."""
    changed = True
    while changed:
        changed = False
        for name, entry in chart.items():
            if not entry.get("sunk"):
                continue
            for near in area(parse_square(name), 1):
                other = chart.get(square_name(near))
                if (other and other.get("piece") == entry.get("piece") and other.get("hit")
                        and not other.get("sunk")
                        and (near.col == parse_square(name).col
                             or near.row == parse_square(name).row)):
                    other["sunk"] = True
                    changed = True
