"""The post-mortem's totals, as its page and its booklet show them (docs/broadside.md, B12):
each side's warships lost to broadsides, to the shore batteries and on the rocks; the merchant
ships Red sank; the masts each battery took; the buoys revealed and the rocks that sank ships.
Read from the core's ``postmortem_document`` (``totals`` and ``secrets``): nothing is worked
out here.
"""

from __future__ import annotations

from ..board import BATTERIES
from ..words import ship_name

CAUSES = (("broadside", "To broadsides"), ("batteries", "To the shore batteries"),
          ("rock", "On the rocks"))


def totals(document: dict) -> dict:
    """The totals of a post-mortem document, in rows to show:

    - ``lost``: a row a side, ``{"side", "broadside", "batteries", "rock", "all"}``;
    - ``merchants``: the merchant ships Red sank (of 4);
    - ``batteries``: a row a site, ``{"site", "setting" ("hit" | "miss"), "masts"}``;
    - ``rocks``: a line for each ship a SINK buoy sank, "Move 12: Red's Frigate 2 at J 13";
    - ``buoys``: a line for each buoy revealed, "K 13: PASS", in the order found.
    """
    found = document["totals"]
    lost = []
    for side in ("red", "blue"):
        row = {"side": side, **found[side]["warships_lost"]}
        row["all"] = sum(row[cause] for cause, _ in CAUSES)
        lost.append(row)
    settings = document["secrets"].get("batteries", {})
    return {
        "causes": CAUSES,
        "lost": lost,
        "merchants": found["red"]["merchants_sunk"],
        "batteries": [{"site": site, "setting": settings.get(site, "unknown"),
                       "masts": found["blue"]["battery_masts"].get(site, 0)}
                      for site in BATTERIES],
        "rocks": [f"Move {rock['n']}: {ship_name(rock['side'], rock['type'], rock['number'])} "
                  f"at {rock['at']}" for rock in found["blue"]["rocks"]],
        "buoys": [f"{buoy['at']}: {buoy['kind'].upper()}"
                  for buoy in found["blue"]["buoys_revealed"]],
    }
