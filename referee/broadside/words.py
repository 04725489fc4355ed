"""A report in the game's words, in one line (B11): what the referee says after each move."""

from __future__ import annotations

from ..common.documents import Json
from .catalogue import NAMES


def other(seat: str) -> str:
    return "blue" if seat == "red" else "red"


def ship_label(kind: str, number: int | None = None) -> str:
    """A warship told apart from its side's others of its type: \"Frigate 2\", its number
    along its side's start line (``fleet.numbered``); its type alone without a number."""
    return f"{NAMES[kind]} {number}" if number else NAMES[kind]


def ship_name(side: str, kind: str, number: int | None = None) -> str:
    """\"Red's Frigate 2\" (\"Red's Frigate\" without a number)."""
    return f"{side.title()}'s {ship_label(kind, number)}"


WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _masts(n: int) -> str:
    return f"{WORDS.get(n, n)} mast{'s' if n != 1 else ''}"


def describe(report: Json) -> str:
    """A report in the game's words, in one line (B11).

    >>> describe({"seat": "red", "passed": False,
    ...           "ship": {"side": "red", "type": "frigate", "number": 2},
    ...           "from": "I 19", "turn": "left", "to": "H 19", "move": {"to": "H 19"},
    ...           "buoys": [], "battery_masts": 0, "broadsides": [], "sunk": [],
    ...           "merchants_sunk": []})
    "Red's Frigate 2 turned left and sailed from I 19 to H 19"
    >>> describe({"seat": "red", "passed": False, "ship": {"side": "red", "type": "brig"},
    ...           "from": "I 12", "turn": None, "to": "I 8", "move": {"to": "I 8"},
    ...           "buoys": [], "battery_masts": 1, "broadsides": [], "sunk": [],
    ...           "merchants_sunk": []})
    "Red's Brig sailed from I 12 to I 8; lost one mast to the shore batteries"
    """
    side = report["seat"]
    if report.get("passed"):
        return f"{side.title()} had no legal move and passed"
    ship = report["ship"]
    mover = ship_name(ship["side"], ship["type"], ship.get("number"))
    turned = f"turned {report['turn']} and " if report.get("turn") else ""
    arrived = report["to"] == report["move"]["to"]
    parts = [f"{mover} {turned}sailed from {report['from']} "
             f"{'to' if arrived else 'toward'} {report['move']['to']}"]
    own_end = next((s for s in report["sunk"] if s["by"] in ("rock", "batteries")), None)
    for buoy in report["buoys"]:
        if buoy["kind"] == "pass":
            parts.append(f"stopped at the buoy at {buoy['at']}: PASS"
                         + (", and sailed on" if buoy["at"] != report["to"] else ""))
    if report["battery_masts"]:
        lost = f"lost {_masts(report['battery_masts'])} to the shore batteries"
        parts.append(lost + (" and sank at " + own_end["at"]
                             if own_end and own_end["by"] == "batteries" else ""))
    if own_end and own_end["by"] == "rock":
        parts.append(f"struck the rock at {own_end['at']} (a SINK buoy) and sank")
    enemies: dict[str, Json] = {}
    for shot in report["broadsides"]:
        if shot["kind"] == "merchant":
            continue
        enemy_at = shot["at"] if shot["side"] == side else shot["from"]
        entry = enemies.setdefault(enemy_at, {"mine": False, "theirs": False, "shot": shot})
        entry["mine" if shot["side"] == side else "theirs"] = True
    for enemy_at, entry in enemies.items():
        shot = entry["shot"]
        kind, number = ((shot["target"], shot.get("target_number")) if shot["side"] == side
                        else (shot["type"], shot.get("number")))
        enemy = f"{ship_name(other(side), kind, number)} at {enemy_at}"
        if entry["mine"] and entry["theirs"]:
            parts.append(f"exchanged broadsides with {enemy}")
        elif entry["mine"]:
            parts.append(f"crossed the T of {enemy}")
        else:
            parts.append(f"had its T crossed by {enemy}")
    for at in report["merchants_sunk"]:
        parts.append(f"sank the merchant ship at {at}")
    hits: dict[str, int] = {}
    for shot in report["broadsides"]:
        if shot["kind"] != "merchant":
            hits[shot["at"]] = hits.get(shot["at"], 0) + 1
    for at, n in hits.items():
        target = next(s for s in report["broadsides"] if s["at"] == at)
        owner = other(target["side"])
        name = f"{ship_name(owner, target['target'], target.get('target_number'))} at {at}"
        if any(s["at"] == at and s["by"] == "broadside" for s in report["sunk"]):
            parts.append(f"{name} was sunk")
        else:
            parts.append(f"{name} lost {_masts(n)}")
    return "; ".join(parts)


