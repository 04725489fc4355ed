"""What the pages and the paper tell from a seat's view (BB25), worked out once for both: the
ships' positions after every card the view tells of (the frames the phone steps through), their
wakes, what happened lately, where a plot would take the seat's own ship, and where a piece can
step in the boarding. Pure: a view in, plain data out; nothing here knows more than the view
it is given."""

from __future__ import annotations

import hashlib
import hmac
import itertools

from ...common import dice
from ..catalogue import CARDS, PLOTTED
from ..deck import CELLS, steps
from ..sea import sail

SEATS = ("red", "blue")
LATEST = 40  # entries of "what happened lately" a page shows at most


def entries(view: dict) -> list[tuple[int | None, dict]]:
    """Everything that happened, in order, with the number of the report it belongs to (None
    for the opening)."""
    found: list[tuple[int | None, dict]] = [(None, e) for e in view.get("opening") or []]
    for report in view.get("reports") or []:
        found += [(report["n"], e) for e in report.get("happened") or []]
    return found


def newly_beyond_repair(entry: dict) -> dict[str, list[str]]:
    """The hull sections a volley put beyond repair (BB14): hit in it, and two markers or more
    after it that were fewer before."""
    hits: dict[tuple[str, str], int] = {}
    for shot in entry.get("shots") or []:
        if shot["effect"] == "hull":
            key = (next(s for s in SEATS if s != shot["seat"]), shot["target"])
            hits[key] = hits.get(key, 0) + 1
    return {seat: [section for section, n in sorted(entry.get("hull", {}).get(seat, {}).items())
                   if n >= 2 and n - hits.get((seat, section), 0) < 2] for seat in SEATS}


def told(entry: dict) -> dict:
    """An entry as the pages show it: a volley with the sections it put beyond repair."""
    if entry["what"] == "volley":
        return {**entry, "newly_beyond": newly_beyond_repair(entry)}
    return entry


def sea_frames(view: dict) -> list[dict]:
    """Both ships' dots and headings as the game went (BB2, BB5): on their starting circles,
    then after each card turned up, each volley and the collision, each frame with what
    happened in the game's words. Only what the view tells: a card still face down is in no
    frame."""
    ships = {s: {"at": start["at"], "heading": start["heading"]}
             for s, start in view["sea"]["starts"].items()}
    frames = [{"n": 0, "round": 1, "card": 0, "what": "start", "ships": _copy(ships),
               "text": "The ships on their starting circles (BB1)."}]
    round_no = 1
    for _, entry in entries(view):
        what = entry["what"]
        if what == "round":
            round_no = entry["round"]
            continue
        if what == "card":
            for seat, moved in entry["ships"].items():
                ships[seat] = {"at": moved["to"], "heading": moved["heading"]}
            frame = {"what": "card", "card": entry["card"], "cards": dict(entry["cards"])}
        elif what in ("volley", "no volley", "collision", "laid"):
            frame = {"what": what, "card": frames[-1]["card"]}
            if what == "volley":
                frame["shots"] = [dict(shot) for shot in entry["shots"]]
                frame["final"] = bool(entry.get("final"))
        else:
            continue
        frames.append({"n": len(frames), "round": round_no, **frame, "ships": _copy(ships),
                       "text": entry["text"]})
    return frames


def _copy(ships: dict) -> dict:
    return {seat: dict(ship) for seat, ship in ships.items()}


def wakes(frames: list[dict], since: int = 0) -> dict[str, list[str]]:
    """The dots each ship sailed through from frame ``since`` on, oldest first."""
    found: dict[str, list[str]] = {}
    for frame in frames[since:]:
        for seat, ship in frame["ships"].items():
            dots = found.setdefault(seat, [])
            if not dots or dots[-1] != ship["at"]:
                dots.append(ship["at"])
    return found


def collision_marks(frames: list[dict]) -> dict[str, str]:
    """The dot where the ships collided (BB17), to ring on the sea; none before."""
    hit = next((f for f in reversed(frames) if f["what"] == "collision"), None)
    return {next(iter(hit["ships"].values()))["at"]: "collision"} if hit else {}


def round_start(frames: list[dict], round_no: int) -> int:
    """The frame the round ``round_no`` starts from (the last of the round before)."""
    index = 0
    for i, frame in enumerate(frames):
        if frame["round"] < round_no:
            index = i
    return index


def latest(view: dict) -> list[dict]:
    """What happened since the seat's own last order (or, before any, since the start), each
    entry with the report it belongs to: what the page shows first."""
    you = view.get("you")
    reports = view.get("reports") or []
    mine = [r["n"] for r in reports if r["seat"] == you]
    since = mine[-1] if mine else None
    shown = [{**told(entry), "report": n} for n, entry in entries(view)
             if since is None or (n is not None and n >= since)]
    return shown[-LATEST:]


def plot_paths(view: dict) -> dict[str, list[str]]:
    """Where each plot the seat may make would take its own ship, card by card (BB2, BB3,
    BB6), for the plot's preview on the sea: {"forward,port,stay": ["C 6 E", "C 6 NE!", ...]}
    for every plot of three cards, each step the dot and heading after that card, "!" after a
    Move Forward not made (BB3) and "~" after a card not played since; a plot part made is the
    start of any plot that goes on from it. The other ship's plot is sealed, so only the seat's
    own ship is sailed."""
    ship = view["ships"][view["you"]]
    paths: dict[str, list[str]] = {}
    for cards in itertools.product(CARDS, repeat=PLOTTED):
        at, heading, stopped, path = ship["at"], ship["heading"], False, []
        for card in cards:
            if stopped:
                path.append(f"{at} {heading}~")
                continue
            at, heading, stopped = sail(at, heading, card)
            path.append(f"{at} {heading}{'!' if stopped else ''}")
        paths[",".join(cards)] = path
    return paths


def boarding_steps(view: dict) -> dict[str, list[str]]:
    """Every place a piece may step to from each place in one movement, nothing in its way
    (BB21: ``deck.steps``), for the boarding page to mark where a tapped piece can go; what
    stands in the way (three of one's own, a piece stopped by the enemy) the page reads from
    the crews, and the referee checks the whole turn."""
    laid = view.get("boarding")
    if not laid:
        return {}
    return {f"{seat} {cell}": steps(f"{seat} {cell}", laid) for seat in SEATS for cell in CELLS}


def cannot_plot(view: dict) -> bool:
    """Whether the seat's Captain was lost last round, so that this round it cannot plot (its
    three cards are all Remain in Place, BB7)."""
    stage = view.get("stage") or {}
    for _, entry in reversed(entries(view)):
        if entry["what"] == "round":
            return entry["round"] == stage.get("round") and view["you"] in entry["cannot_plot"]
    return False



def worked_roll(secret: str, seeds: list[str], n: int = 1) -> dict:
    """Roll ``n`` recomputed step by step, as the post-mortem shows how (BB24): the message,
    its HMAC-SHA256 in hex, the byte taken and the face it gives."""
    for k in range(4):
        message = dice.message(seeds, n, k)
        digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
        for i, byte in enumerate(digest):
            if byte < dice.TAKEN:
                return {"n": n, "k": k, "lines": message.decode().splitlines(),
                        "hex": digest.hex(), "index": i, "byte": byte,
                        "pair": f"{byte:02x}", "value": byte % dice.FACES + 1}
    raise AssertionError("no byte below 252 in four tries")  # pragma: no cover


__all__ = ["boarding_steps", "cannot_plot", "collision_marks", "entries", "latest",
           "newly_beyond_repair", "plot_paths", "round_start", "sea_frames", "told", "wakes",
           "worked_roll"]
