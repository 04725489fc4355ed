"""A side's disposition (B3, B4, B13): the check, and the disposition in its normal form.

``check_disposition(document, seat)`` returns a ``Disposition`` or raises ``RuleViolation``
with every problem at once, each naming its ruling, the field and the crosses involved:

- B13: the document's shape (an object with ``ships``, and for Blue ``buoys`` and
  ``batteries``; each ship an object with ``type`` and ``at``; nothing else);
- B1: a cross, circle or site that names no point of the board;
- B3: a type that is not a warship, the wrong number of a type, a ship off its side's start
  crosses, two ships on one cross;
- B4: a yellow circle without a buoy or a buoy off the yellow circles, a kind that is not
  sink or pass, not three of each, SINK on all three of the row or both of the pair; a
  battery site missing or unknown, not two HIT and two MISS.

The disposition's ``document`` is its normal form: the ships in the order of the side's start
crosses, crosses written ``F 7``, the buoys in the board's order, the batteries A to D. It is
what the log keeps and the fingerprint is taken of.

>>> d = check_disposition({"ships": [{"type": t, "at": a} for t, a in zip(
...     ["ship-of-the-line"] * 2 + ["frigate"] * 3 + ["brig"] * 3 + ["cutter"] * 2,
...     ["i19", "J 19", "K 19", "L 19", "M 19", "I 20", "J 20", "K 20", "L 20", "M20"])]}, "red")
>>> d.document["ships"][0], d.document["ships"][-1]
({'type': 'ship-of-the-line', 'at': 'I 19'}, {'type': 'cutter', 'at': 'M 20'})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..common.documents import Json
from ..common.problems import Problem, RuleViolation
from .board import BATTERIES, BLUE_START, BUOY_GROUPS, RED_START, YELLOW_CIRCLES, parse_cross
from .catalogue import (
    BATTERY_KINDS,
    BATTERY_LIMITS,
    BUOY_KINDS,
    BUOY_LIMITS,
    DISPOSITION_KEYS,
    FLEET_SIZE,
    FLEETS,
    NAMES,
    PLURALS,
    SHIP_KEYS,
    SHIP_TYPES,
)

MAX_SHIPS_LISTED = 30  # a longer list is refused whole, not checked ship by ship
START = {"red": RED_START, "blue": BLUE_START}
SITES = tuple(BATTERIES)


@dataclass
class Disposition:
    """A side's ships as placed and, for Blue, his buoys and batteries (the secrets, B4)."""

    ships: list[Json]  # [{"type", "at"}] in normal form
    document: Json
    buoys: dict[str, str] = field(default_factory=dict)  # yellow circle -> sink | pass
    batteries: dict[str, str] = field(default_factory=dict)  # site -> hit | miss


def numbered(ships: list[Json]) -> list[Json]:
    """The ships, each with its ``number`` among its side's ships of its type in the order
    given (a disposition's normal form: along its start crosses, row by row), so that
    players and the record tell them apart: the second Frigate is Frigate 2.

    >>> numbered([{"type": "frigate", "at": "A 2"}, {"type": "brig", "at": "B 2"},
    ...           {"type": "frigate", "at": "C 2"}])[2]
    {'type': 'frigate', 'at': 'C 2', 'number': 2}
    """
    seen: Counter[str] = Counter()
    out = []
    for ship in ships:
        seen[ship["type"]] += 1
        out.append({**ship, "number": seen[ship["type"]]})
    return out


def problem(rule: str, message: str, crosses: Iterable[str] = (),
            field: str | None = None) -> Problem:
    return Problem(rule, message, tuple(crosses), field)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _point(value: object) -> str | None:
    try:
        return parse_cross(value)
    except ValueError:
        return None


def _check_ships(ships: object, seat: str, found: list[Problem]) -> list[Json]:
    if not isinstance(ships, list):
        found.append(problem("B13", "'ships' is a list of ten ships, each {\"type\", \"at\"}",
                             field="ships"))
        return []
    if len(ships) > MAX_SHIPS_LISTED:
        found.append(problem("B3", f"{seat.title()} has {FLEET_SIZE} warships; this list has "
                                   f"{len(ships)}", field="ships"))
        return []
    start = START[seat]
    placed: list[Json] = []
    for i, ship in enumerate(ships):
        where = f"ships[{i}]"
        if not isinstance(ship, dict):
            found.append(problem("B13", "A ship is an object with type and at", field=where))
            continue
        found.extend(problem("B13", f"{_shown(key)[:40]} is not part of a ship; a ship has "
                                    f"{', '.join(SHIP_KEYS)}", field=f"{where}.{str(key)[:40]}")
                     for key in ship if key not in SHIP_KEYS)
        kind, at = ship.get("type"), ship.get("at")
        ok = True
        if not isinstance(kind, str) or kind not in SHIP_TYPES or not FLEETS[seat][kind]:
            kinds = [k for k in SHIP_TYPES if FLEETS[seat][k]]
            found.append(problem("B3", f"{_shown(kind)} is not one of {seat.title()}'s "
                                       f"warships; they are {', '.join(kinds)}",
                                 field=f"{where}.type"))
            ok = False
        cross = _point(at)
        if cross is None:
            found.append(problem("B1", f"'at' names a cross like \"I 19\"; {_shown(at)} does "
                                       "not", field=f"{where}.at"))
            ok = False
        elif cross not in start:
            found.append(problem("B3", f"{cross} is not one of {seat.title()}'s start crosses "
                                       f"({start[0]} ... {start[-1]})", [cross],
                                 field=f"{where}.at"))
            ok = False
        if ok:
            placed.append({"type": kind, "at": cross})
    if all(isinstance(s, dict) and isinstance(s.get("type"), str) for s in ships):
        given = Counter(s["type"] for s in ships)
        for kind in SHIP_TYPES:
            want = FLEETS[seat][kind]
            if want and given[kind] != want:
                found.append(problem("B3", f"{seat.title()} has {want} "
                                           f"{PLURALS[kind] if want > 1 else NAMES[kind]}; "
                                           f"this disposition has {given[kind]}",
                                     field="ships"))
    elif len(ships) != FLEET_SIZE:
        found.append(problem("B3", f"{seat.title()} has {FLEET_SIZE} warships; this list has "
                                   f"{len(ships)}", field="ships"))
    crosses = Counter(ship["at"] for ship in placed)
    for cross, n in crosses.items():
        if n > 1:
            found.append(problem("B3", f"{n} ships are placed on {cross}; one ship to a cross",
                                 [cross], field="ships"))
    order = {cross: i for i, cross in enumerate(start)}
    return sorted(placed, key=lambda ship: order[ship["at"]])


def _check_secrets(document: Json, found: list[Problem]) -> tuple[Json, Json]:
    buoys: dict[str, str] = {}
    raw = document.get("buoys")
    if not isinstance(raw, dict):
        found.append(problem("B13", "'buoys' is an object naming each yellow circle with "
                                    "\"sink\" or \"pass\"", field="buoys"))
    else:
        for key, kind in list(raw.items())[:MAX_SHIPS_LISTED]:
            cross = _point(key)
            where = f"buoys.{str(key)[:40]}"
            if cross is None or cross not in YELLOW_CIRCLES:
                found.append(problem("B4", f"{_shown(key)} is not a yellow circle; the buoys go "
                                           f"on {', '.join(YELLOW_CIRCLES)}", field=where))
            elif cross in buoys:
                found.append(problem("B4", f"{cross} is given two buoys; one to each yellow "
                                           "circle", [cross], field=where))
            elif not isinstance(kind, str) or kind not in BUOY_KINDS:
                found.append(problem("B13", f"The buoy at {cross} is \"sink\" or \"pass\", not "
                                            f"{_shown(kind)}", [cross], field=where))
            else:
                buoys[cross] = kind
        if len(raw) > MAX_SHIPS_LISTED:
            found.append(problem("B4", "There are six buoys", field="buoys"))
        missing = [c for c in YELLOW_CIRCLES if c not in buoys and not any(
            _point(k) == c for k in raw)]
        if missing:
            found.append(problem("B4", f"Every yellow circle has a buoy; {', '.join(missing)} "
                                       "has none" if len(missing) == 1 else
                                       f"Every yellow circle has a buoy; {', '.join(missing)} "
                                       "have none", missing, field="buoys"))
        if len(buoys) == len(YELLOW_CIRCLES):
            sinks = sum(1 for kind in buoys.values() if kind == "sink")
            if sinks != BUOY_LIMITS["sink"]:
                found.append(problem("B4", f"Three buoys are SINK and three PASS; these have "
                                           f"{sinks} SINK", field="buoys"))
        for group, name in (("row", "all three of the row"), ("pair", "both of the pair")):
            circles = BUOY_GROUPS[group]
            if all(buoys.get(c) == "sink" for c in circles):
                found.append(problem("B4", f"SINK may not go on {name} ({', '.join(circles)})",
                                     circles, field="buoys"))
    batteries: dict[str, str] = {}
    raw = document.get("batteries")
    if not isinstance(raw, dict):
        found.append(problem("B13", "'batteries' is an object naming each site "
                                    f"({', '.join(SITES)}) with \"hit\" or \"miss\"",
                             field="batteries"))
    else:
        for key, kind in list(raw.items())[:MAX_SHIPS_LISTED]:
            site = key.strip().upper() if isinstance(key, str) else key
            where = f"batteries.{str(key)[:40]}"
            if site not in SITES:
                found.append(problem("B4", f"{_shown(key)} is not a battery site; the sites are "
                                           f"{', '.join(SITES)}", field=where))
            elif site in batteries:
                found.append(problem("B4", f"Site {site} is given twice", field=where))
            elif not isinstance(kind, str) or kind not in BATTERY_KINDS:
                found.append(problem("B13", f"The battery at site {site} is \"hit\" or "
                                            f"\"miss\", not {_shown(kind)}", field=where))
            else:
                batteries[site] = kind
        missing = [s for s in SITES if s not in batteries and not any(
            isinstance(k, str) and k.strip().upper() == s for k in raw)]
        if missing:
            found.append(problem("B4", f"Every battery site has a battery; {', '.join(missing)} "
                                       f"{'has' if len(missing) == 1 else 'have'} none",
                                 field="batteries"))
        if len(batteries) == len(SITES):
            hits = sum(1 for kind in batteries.values() if kind == "hit")
            if hits != BATTERY_LIMITS["hit"]:
                found.append(problem("B4", f"Two batteries HIT and two MISS; these have {hits} "
                                           "HIT", field="batteries"))
    return ({c: buoys[c] for c in YELLOW_CIRCLES if c in buoys},
            {s: batteries[s] for s in SITES if s in batteries})


def check_disposition(document: object, seat: str) -> Disposition:
    """The disposition of ``seat`` ("red" or "blue"), or every problem with it at once."""
    if not isinstance(document, dict):
        raise RuleViolation([problem("B13", "A disposition is an object: {\"ships\": [...]}"
                                     + (", \"buoys\": {...}, \"batteries\": {...}"
                                        if seat == "blue" else ""))])
    keys = DISPOSITION_KEYS[seat]
    found: list[Problem] = []
    for key in document:
        if key in keys:
            continue
        if key in ("buoys", "batteries"):
            found.append(problem("B4", f"Only Blue marks {key}; Red's disposition holds only "
                                       "its ships", field=key))
        else:
            found.append(problem("B13", f"{_shown(key)} is not part of {seat.title()}'s "
                                        f"disposition; it has {', '.join(keys)}",
                                 field=str(key)[:40]))
    ships = _check_ships(document.get("ships"), seat, found)
    buoys, batteries = _check_secrets(document, found) if seat == "blue" else ({}, {})
    if found:
        raise RuleViolation(found)
    normal: Json = {"ships": ships}
    if seat == "blue":
        normal["buoys"], normal["batteries"] = buoys, batteries
    return Disposition(ships=ships, document=normal, buoys=buoys, batteries=batteries)
