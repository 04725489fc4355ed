"""What Broadside's computer reads from its seat's view (B12, B14), and what it infers from it.

``read_sight(view)`` keeps only what the view tells the seat: every warship on the board (side,
type, cross, facing, masts), the merchant ships, the buoys and batteries as the seat sees them,
the reports of every move so far (B11) and the legal moves of the seat whose turn it is (B5).
The harbour itself is ``referee.broadside.board`` (the one geometry module, pure data).

For Red, whose view hides Blue's secrets (B4, B12), two inferences from the reports alone:

- ``sink_odds``: for each yellow circle whose buoy Red has not seen revealed, the share of
  the buoy settings B4 allows (3 SINK, 3 PASS, never all three of the row nor both of the
  pair SINK) that agree with every buoy revealed so far, in which it is SINK.
- ``hit_odds``: for each battery site, the share of the settings B4 allows (two HIT, two MISS)
  that agree with the masts every Red move lost to the batteries (B7, B11: only the count is
  told, never which battery) in which it is HIT.

Blue knows his own: his view names every buoy and battery, and the odds are 0 or 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from referee.broadside import board

SIDES = ("red", "blue")
MASTS = {"ship-of-the-line": 4, "frigate": 3, "brig": 2, "cutter": 1}  # B3


class NotYourTurn(ValueError):
    """The computer was asked to move when its view says it may not (B5)."""


@dataclass(frozen=True)
class Ship:
    side: str
    type: str
    at: str
    facing: str
    masts: int


@dataclass
class Sight:
    """One seat's knowledge of the game, read from its view."""

    you: str
    ships: dict[str, Ship]  # every warship afloat, by the cross it stands on
    merchants: list[dict]  # {"at", "opposite", "sunk"}
    sink: dict[str, float]  # unrevealed (for this seat) buoys still in place: P(SINK)
    hit: dict[str, float]  # battery site: P(HIT)
    legal: list[dict] = field(default_factory=list)
    reports: list[dict] = field(default_factory=list)

    @property
    def enemy(self) -> str:
        return other(self.you)

    def fleet(self, side: str) -> list[Ship]:
        return [s for s in self.ships.values() if s.side == side]

    def afloat_merchants(self) -> list[dict]:
        return [m for m in self.merchants if not m.get("sunk")]


def other(side: str) -> str:
    return "blue" if side == "red" else "red"


def seat_of(view: dict) -> str:
    seat = view.get("you") or view.get("seat")
    if seat not in SIDES:
        raise ValueError("the view names no seat of Broadside (B14)")
    return seat


def _buoy_kind(value: object) -> tuple[bool, str | None, bool]:
    """(still in place, kind if the seat knows it, revealed to both) of one buoy of the
    view, whether it is written as a word or as {"kind"/"state", "revealed"}."""
    revealed = False
    if isinstance(value, dict):
        revealed = bool(value.get("revealed"))
        value = value.get("kind", value.get("state"))
    if value in (None, "gone"):
        return False, None, True
    if value in ("sink", "pass"):
        return not revealed, value, revealed
    return True, None, False  # "buoy", "unknown": in place, kind hidden from this seat


def revealed_buoys(view: dict) -> dict[str, str]:
    """The buoys revealed so far (B6), with their kind: from the reports, and from the view's
    buoys where it marks them revealed."""
    found: dict[str, str] = {}
    for report in view.get("reports") or []:
        for buoy in report.get("buoys") or []:
            if isinstance(buoy, dict) and buoy.get("kind") in ("sink", "pass"):
                found[buoy["at"]] = buoy["kind"]
    for at, value in (view.get("buoys") or {}).items():
        _, kind, revealed = _buoy_kind(value)
        if revealed and kind:
            found.setdefault(at, kind)
    return found


@lru_cache(maxsize=1)
def buoy_settings() -> tuple[frozenset[str], ...]:
    """Every setting of B4: the set of yellow circles marked SINK."""
    row, pair = set(board.BUOY_GROUPS["row"]), set(board.BUOY_GROUPS["pair"])
    return tuple(frozenset(sink) for sink in combinations(board.YELLOW_CIRCLES, 3)
                 if not row <= set(sink) and not pair <= set(sink))


@lru_cache(maxsize=1)
def battery_settings() -> tuple[frozenset[str], ...]:
    """Every setting of B4: the set of battery sites marked HIT."""
    return tuple(frozenset(hit) for hit in combinations(sorted(board.BATTERIES), 2))


def circle_hits(path: list[str], hit: frozenset[str]) -> int:
    """Masts a Red ship loses along ``path`` (the crosses it moves through or stops on) when
    the sites in ``hit`` are HIT (B7)."""
    return sum(1 for at in path if at in board.RED_CIRCLES
               for site in board.controlling(at) if site in hit)


def _sink_odds(view: dict, you: str) -> dict[str, float]:
    buoys = view.get("buoys") or {}
    known = revealed_buoys(view)
    odds: dict[str, float] = {}
    if you == "blue":
        for at, value in buoys.items():
            present, kind, _ = _buoy_kind(value)
            if present and at not in known:
                odds[at] = 1.0 if kind == "sink" else 0.0
        return odds
    settings = [s for s in buoy_settings()
                if all((at in s) == (kind == "sink") for at, kind in known.items())]
    for at, value in buoys.items():
        present, kind, _ = _buoy_kind(value)
        if not present or at in known:
            continue
        if kind in ("sink", "pass"):
            odds[at] = 1.0 if kind == "sink" else 0.0
        else:
            odds[at] = (sum(at in s for s in settings) / len(settings)) if settings else 0.5
    return odds


def red_paths(reports: list[dict]) -> list[tuple[list[str], int, bool]]:
    """(path, masts lost to the batteries, whether they sank the ship) of every Red move
    reported (B11). A ship the batteries sink loses only the masts it had left, so then the
    batteries that fired may have had more to give."""
    seen = []
    for report in reports:
        if report.get("seat") != "red" or not report.get("path"):
            continue
        sunk = any(s.get("by") == "batteries" for s in report.get("sunk") or [])
        seen.append((list(report["path"]), int(report.get("battery_masts") or 0), sunk))
    return seen


def agrees(hit: frozenset[str], paths: list[tuple[list[str], int, bool]]) -> bool:
    """Whether the batteries ``hit`` would have taken the masts every Red move lost (B7)."""
    return all(circle_hits(path, hit) >= lost if sunk else circle_hits(path, hit) == lost
               for path, lost, sunk in paths)


def _hit_odds(view: dict) -> dict[str, float]:
    shown = view.get("batteries") or {}
    if all(shown.get(site) in ("hit", "miss") for site in board.BATTERIES):
        return {site: 1.0 if shown[site] == "hit" else 0.0 for site in board.BATTERIES}
    paths = red_paths(view.get("reports") or [])
    settings = [s for s in battery_settings()
                if agrees(s, paths)
                and all(shown.get(site) not in ("hit", "miss")
                        or (site in s) == (shown[site] == "hit") for site in board.BATTERIES)]
    if not settings:  # the reports say something no setting gives: fall back to ignorance
        settings = list(battery_settings())
    return {site: sum(site in s for s in settings) / len(settings) for site in board.BATTERIES}


def read_sight(view: dict) -> Sight:
    you = seat_of(view)
    ships: dict[str, Ship] = {}
    for ship in view.get("ships") or []:
        if ship.get("sunk") or not ship.get("masts"):
            continue
        at = board.parse_cross(ship["at"])
        ships[at] = Ship(ship["side"], ship["type"], at, ship["facing"], int(ship["masts"]))
    merchants = [{"at": m["at"], "opposite": board.parse_cross(m["opposite"]),
                  "sunk": bool(m.get("sunk"))} for m in view.get("merchants") or []]
    return Sight(you=you, ships=ships, merchants=merchants, sink=_sink_odds(view, you),
                 hit=_hit_odds(view),
                 legal=[m for m in view.get("legal") or [] if not m.get("pass")],
                 reports=list(view.get("reports") or []))


def read_turn(view: dict) -> Sight:
    """The sight of a seat whose turn it is; ``NotYourTurn`` otherwise."""
    you = seat_of(view)
    if view.get("phase") != "play" or view.get("turn") != you:
        raise NotYourTurn(f"it is not {you}'s turn to move (B5)")
    return read_sight(view)


def path_of(at: str, facing: str, to: str) -> list[str]:
    """The crosses a ship at ``at`` moving toward ``facing`` enters to reach ``to``, ``to``
    included (B5: a straight line)."""
    path = []
    here = at
    while here != to:
        following = board.step(here, facing)
        if following is None:
            raise ValueError(f"{to} is not on the line from {at} toward {facing} (B5)")
        here = following
        path.append(here)
    return path
