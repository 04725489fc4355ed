"""The post-mortem of a finished game of Broadside: every move with Blue's secrets revealed.

Everything here is worked out from the whole log, Blue's buoys and batteries included, so it
tells what B12 keeps hidden until the end: ``postmortem_document`` refuses before the game is
over.

- ``start``: the board as play began: every warship, each buoy with its kind, each battery.
- ``steps``: every move in order: its report and sentence (as both players were told it),
  ``batteries``: each red circle the ship entered with the sites that fired on it (HIT
  batteries controlling it; the masts actually lost are the report's ``battery_masts``, fewer
  when the ship had fewer masts left), and the board after the move (``ships``, ``merchants``,
  ``buoys``).
- ``totals``: for each side the warships it lost by cause (``broadside``, ``batteries``,
  ``rock``); Red's merchant ships sunk; for Blue the masts each battery site took (at a double
  circle that took a ship's last mast, the site first in A-D order is credited), the buoys
  revealed and the rocks that sank ships (``{"n", "at", "side", "type"}``).
"""

from __future__ import annotations

from ..common.documents import Json
from ..common.views import detached, require_over
from .board import BATTERIES, MERCHANTS, RED_CIRCLES, YELLOW_CIRCLES, controlling
from .catalogue import RULES
from .game import CROSS_ORDER, Game
from .views import describe, report_for


def _board(game: Game, buoys: dict[str, str]) -> Json:
    return {
        "ships": sorted((s.to_json() for s in game.ships.values()),
                        key=lambda s: CROSS_ORDER[s["at"]]),
        "merchants": [{"at": m["at"], "opposite": m["opposite"],
                       "sunk": m["at"] in game.merchants_sunk} for m in MERCHANTS],
        "buoys": {cross: {"kind": buoys[cross], "revealed": cross in game.revealed}
                  for cross in YELLOW_CIRCLES if cross in buoys},
    }


def postmortem_document(game: Game) -> Json:
    """The post-mortem of a finished game (refused before the end, B12)."""
    require_over(game, "The post-mortem is given", "B12")
    blue = game.fleets.get("blue")
    buoys = dict(blue.buoys) if blue else {}
    batteries = dict(blue.batteries) if blue else {}
    walk = Game()
    start = None
    steps = []
    site_masts = {site: 0 for site in BATTERIES}
    for event in game.events:
        before = None  # the masts of the ship about to move
        if event["type"] == "move" and isinstance(event.get("move"), dict):
            moving = walk.ships.get(event["move"].get("ship"))
            before = moving.masts if moving else None
        walk.apply(event)
        if walk.started and start is None:
            start = {**_board(walk, buoys), "batteries": batteries}
        if event["type"] != "move":
            continue
        report = walk.reports[-1]
        fired = []
        if report["seat"] == "red":
            for cross in report["path"]:
                if cross in RED_CIRCLES:
                    sites = [s for s in controlling(cross) if batteries.get(s) == "hit"]
                    fired.append({"at": cross, "sites": sites})
            left = before or 0
            for entry in fired:
                for site in entry["sites"]:
                    if left > 0:  # a battery takes a mast while the ship has one (B7)
                        site_masts[site] += 1
                        left -= 1
        steps.append({"n": report["n"], "report": report_for(walk, report, "blue"),
                      "text": describe(report), "batteries": fired, **_board(walk, buoys)})
    totals: dict[str, Json] = {}
    for side in game.seats:
        lost = {"broadside": 0, "batteries": 0, "rock": 0}
        for report in game.reports:
            for ship in report["sunk"]:
                if ship["side"] == side:
                    lost[ship["by"]] += 1
        totals[side] = {"warships_lost": lost}
    totals["red"]["merchants_sunk"] = len(game.merchants_sunk)
    totals["blue"]["battery_masts"] = site_masts
    totals["blue"]["buoys_revealed"] = [{"at": cross, "kind": kind}
                                        for cross, kind in game.revealed.items()]
    totals["blue"]["rocks"] = [{"n": report["n"], "at": ship["at"], "side": ship["side"],
                                "type": ship["type"], "number": ship["number"]}
                               for report in game.reports for ship in report["sunk"]
                               if ship["by"] == "rock"]
    return detached({
        "rules": RULES,
        "secrets": {"buoys": buoys, "batteries": batteries},
        "start": start,
        "steps": steps,
        "totals": totals,
        "result": game.result_document(),
    })
