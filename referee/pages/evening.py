"""The evening's page for the organiser: every game in play at a glance (its game, players,
whose turn, how long since the last move, the clocks), so that a stuck table is spotted from
the laptop that runs the referee, or from a phone with the key ``referee serve`` prints.

It shows public information only (R21): what the join and host pages show of a game, never a
fleet, a code or a token.
"""

from __future__ import annotations

import hmac

from flask import render_template, request

from .. import rulesets, service
from ..errors import ApiError
from ..web import evening_key, from_the_laptop, store
from .blueprint import bp

STUCK_MIN = 10  # minutes without a move after which a table is marked as quiet
REFRESH_S = 30  # the page reloads itself this often


@bp.get("/evening")
def evening():
    """Every game in play, the longest quiet first; for the laptop, or with the key."""
    key = request.args.get("key", "")
    if not from_the_laptop() and not hmac.compare_digest(key.encode()[:64],
                                                         evening_key().encode()):
        raise ApiError(403, "The evening's page is for the organiser: open it on the laptop "
                            "that runs the referee, or with the key `make run` printed "
                            "(…/evening?key=…)", field="key")
    night = service.evening(store())
    for table in night["tables"]:
        table["stuck"] = night["now"] - table["last_at"] >= 60 * STUCK_MIN
        for info in table["seats"].values():
            info["page_open"] = bool(info["last_seen"]) and \
                night["now"] - info["last_seen"] <= service.PRESENT_S
    titles = {rules: rule_set.title for rules, rule_set in rulesets.RULE_SETS.items()}
    page = render_template("evening.html", **night, titles=titles)
    return page, 200, {"Refresh": str(REFRESH_S), "Cache-Control": "private, no-store",
                       "Referrer-Policy": "no-referrer"}  # the key stays in this address
