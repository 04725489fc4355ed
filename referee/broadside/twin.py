"""Blue's secret twin (B4, B6, B7, B12): the same ships with the buoys and batteries marked
otherwise.

Red learns a buoy only when a ship, his or Blue's, sails onto its circle (B6), and the
batteries only as the masts a Red ship loses on the red circles they control (B7, B11). So two
games whose secrets differ only in some buoys and batteries tell Red the same until a ship's
run enters a circle whose buoy differs, or a Red ship's run a red circle a differing battery
controls: ``clear`` says whether a move's run stays off them. Red has no secrets: his twin is
None.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..common.documents import Json
from ..common.problems import RuleViolation
from ..common.ruleset import Twin
from .board import BATTERIES, FACINGS, YELLOW_CIRCLES, line, parse_cross
from .fleet import check_disposition

TRIES = 200  # random markings tried before giving up


def secret_twin(view: Json, rng: random.Random) -> Twin | None:
    """A twin of Blue's disposition in his view: its buoys and batteries marked anew (at
    least one of each differing); None for Red's, who hides nothing."""
    document = view.get("disposition")
    if view.get("you") != "blue" or not isinstance(document, dict):
        return None
    buoys, batteries = document["buoys"], document["batteries"]
    for _ in range(TRIES):
        kinds, sites = list(buoys.values()), list(batteries.values())
        rng.shuffle(kinds)
        rng.shuffle(sites)
        other = {**document, "buoys": dict(zip(buoys, kinds, strict=True)),
                 "batteries": dict(zip(batteries, sites, strict=True))}
        if other["buoys"] == buoys or other["batteries"] == batteries:
            continue
        try:
            twin = check_disposition(other, "blue").document
        except RuleViolation:
            continue
        circles = frozenset(at for at in YELLOW_CIRCLES if twin["buoys"][at] != buoys[at])
        guarded = frozenset(circle for site in BATTERIES
                            if twin["batteries"][site] != batteries[site]
                            for circle in BATTERIES[site]["controls"])
        return Twin(twin, _clear_of(circles, guarded))
    return None


def run(move: Json) -> list[str] | None:
    """The crosses a move's ship would enter on its way to where it is named (B5), in order;
    [] for a pass, None for a move the rules refuse whatever the secrets.

    >>> run({"ship": "I 19", "turn": None, "to": "I 16"})
    ['I 18', 'I 17', 'I 16']
    """
    if move.get("pass") is True:
        return []
    try:
        at, to = parse_cross(move.get("ship")), parse_cross(move.get("to"))
    except ValueError:
        return None
    for facing in FACINGS:
        crosses = line(at, facing)
        if to in crosses:
            return crosses[:crosses.index(to) + 1]
    return None


def _clear_of(circles: frozenset[str],
              guarded: frozenset[str]) -> Callable[[str, Json, Json], bool]:
    def clear(seat: str, move: Json, _view: Json) -> bool:
        crosses = run(move) if isinstance(move, dict) else None
        if crosses is None:
            return False
        return not (set(crosses) & circles or seat == "red" and set(crosses) & guarded)
    return clear


__all__ = ["run", "secret_twin"]
