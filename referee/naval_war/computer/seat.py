"""What a bot reads from its seat's view (API.md): its own forces, its opponents, and what
the opponents have seen of its chart. Nothing here reads anything but the view document.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.naval_war.catalogue import AIRCRAFT_TYPES

from .board import SQUARE_NAMES, index


class NotYourTurn(ValueError):
    """A bot was asked to move when its view says it may not."""


@dataclass
class Seat:
    """One seat's own side of the table, read from its view."""

    you: str
    opponents: list[str]
    aircraft: dict[str, list[int]]  # type -> squares of aircraft that can still fly
    salvoes: int
    spotted: set[int] = field(default_factory=set)  # own squares an enemy R.P. has seen

    @property
    def planes_left(self) -> int:
        return sum(len(v) for v in self.aircraft.values())


def read_seat(view: dict) -> Seat:
    """The seat whose turn it is, as its view shows it; refuses a view not at its turn."""
    you = view.get("you")
    if view.get("phase") != "play" or view.get("turn") != you or not isinstance(you, str):
        raise NotYourTurn(f"It is not {you}'s turn to move")
    seats = view.get("seats") or {}
    allies = set(view.get("allies") or [])
    names = list(seats) or list(view.get("order") or [])
    opponents = [s for s in names if s != you and s not in allies
                 and not (seats.get(s) or {}).get("forfeited")]
    damage = view.get("damage") or {}
    gone = set(damage.get("flown", [])) | set(damage.get("destroyed", []))
    aircraft: dict[str, list[int]] = {kind: [] for kind in AIRCRAFT_TYPES}
    for plane in (view.get("disposition") or {}).get("aircraft", []):
        if plane["at"] not in gone:
            aircraft[plane["type"]].append(index(plane["at"]))
    salvoes = (view.get("forces") or {}).get("salvo", 0)
    spotted: set[int] = set()
    for report in view.get("reports", []):
        if report.get("target") == you and report.get("seen"):
            spotted.update(index(e["square"]) for e in report["seen"] if e.get("piece"))
    if not opponents:
        raise NotYourTurn(f"{you} has no opponent to attack")
    return Seat(you, opponents, aircraft, salvoes, spotted)


def aircraft_move(weapon: str, frm: int, at: int, target: str) -> dict:
    return {"weapon": weapon, "from": SQUARE_NAMES[frm], "at": SQUARE_NAMES[at], "target": target}


def salvo_move(squares: list[int], target: str) -> dict:
    return {"weapon": "salvo", "at": [SQUARE_NAMES[s] for s in squares], "target": target}
