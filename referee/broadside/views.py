"""What each seat may know (B11, B12, B14): the only way anything about a game leaves the core.

``view_for(game, seat)`` is the view document of B14; ``report_for`` is one seat's copy of a
report (B11); ``record_for`` is every move as that seat may see it. Blue's buoys and batteries
are the game's only secrets (B4): until the end Red learns of them only what B6 (a buoy a ship
stops at is revealed) and B11 (the masts a ship lost to the shore batteries, never which
battery) give him. After the end all is revealed (B12).

A report holds nothing either player may not know, so both players' copies are the same.
"""

from __future__ import annotations

from ..common.documents import Json, Seating
from ..common.encoded import Encoded, Parts
from ..common.views import (  # noqa: F401  (re-exported: every rule set's views)
    detached,
    fingerprint_checks,
    fingerprints_verify,
    game_file_of,
    host_view,
    postmortem_of,
    require_over,
    status_view,
    targets_for,
    view_head,
)
from .board import BATTERIES, BOARD, MERCHANTS, START_FACING, YELLOW_CIRCLES
from .catalogue import MASTS, NAMES, ORDER, RULES
from .fleet import numbered
from .game import CROSS_ORDER, Game, other
from .words import describe, ship_label

REPORT_KEYS = ("n", "seat", "move", "passed", "ship", "from", "turn", "facing", "to", "path",
               "stopped_by", "buoys", "battery_masts", "broadsides", "masts_lost", "sunk",
               "merchants_sunk", "stand_in")
def _told(report: Json) -> Json:
    """A report as both seats are told it, sharing parts with the game's (detach it)."""
    copy = {k: report[k] for k in REPORT_KEYS if k in report}
    copy.setdefault("stand_in", False)
    copy["text"] = report.get("text") or describe(copy)
    return copy


def report_for(game: Game, report: Json, seat: str) -> Json:
    """One seat's copy of a report (B11), with its sentence: the same for both seats."""
    return detached(_told(report))


def _ships(game: Game, seat: str) -> list[Json]:
    """Every warship on the board (B14); before play, only the seat's own as placed."""
    if game.started:
        ships = [ship.to_json() for ship in game.ships.values()]
    else:
        document = game.fleets[seat].document if seat in game.fleets else {"ships": []}
        ships = set_out(seat, document["ships"])
    return sorted(ships, key=lambda s: CROSS_ORDER[s["at"]])


def set_out(seat: str, placed: list[Json]) -> list[Json]:
    """A side's ships as they stand before play, from its disposition's ``ships`` (normal
    form), each numbered among its type (Frigate 2) as it will be in play."""
    return [{"side": seat, "type": s["type"], "number": s["number"],
             "name": ship_label(s["type"], s["number"]), "at": s["at"],
             "facing": START_FACING[seat], "masts": MASTS[s["type"]], "sunk": False}
            for s in numbered(placed)]


def _buoys(game: Game, seat: str) -> Json:
    """Each yellow circle's buoy as the seat may know it (B4, B6, B12)."""
    if game.started:
        secret = game.buoys
    else:
        secret = game.fleets["blue"].buoys if "blue" in game.fleets else {}
    knows = seat == "blue" or game.phase == "over"
    shown = {}
    for cross in YELLOW_CIRCLES:
        if cross in game.revealed:
            shown[cross] = {"kind": game.revealed[cross], "revealed": True}
        else:
            shown[cross] = {"kind": secret.get(cross, "unknown") if knows else "unknown",
                            "revealed": False}
    return shown


def _batteries(game: Game, seat: str) -> Json:
    """Each battery site as the seat may know it (B4, B12): Red never before the end."""
    if game.started:
        secret = game.batteries
    else:
        secret = game.fleets["blue"].batteries if "blue" in game.fleets else {}
    knows = seat == "blue" or game.phase == "over"
    return {site: secret.get(site, "unknown") if knows else "unknown" for site in BATTERIES}


def legal_for(game: Game, seat: str) -> list[Json]:
    """Every legal move of the seat whose turn it is (B5), ``[{"pass": true}]`` when it has
    none; nothing for the other seat or outside play."""
    if game.phase != "play" or game.turn != seat:
        return []
    return game.legal_moves(seat) or [{"pass": True}]


def _view(game: Game, seat: str) -> Json:
    fleet = game.fleets.get(seat)
    view = {
        **view_head(game, seat, RULES, ORDER),
        "disposition": fleet.document if fleet else None,
        "board": BOARD,
        "ships": _ships(game, seat),
        "merchants": [{"at": m["at"], "opposite": m["opposite"],
                       "sunk": m["at"] in game.merchants_sunk} for m in MERCHANTS],
        "buoys": _buoys(game, seat),
        "batteries": _batteries(game, seat),
        "legal": legal_for(game, seat),
        "reports": [_told(r) for r in game.reports],
        "result": game.result_document(),
    }
    if game.phase == "over":  # B12: after the end all is revealed
        view["revealed"] = {s: game.fleets[s].document for s in game.seats
                            if s != seat and s in game.fleets}
    return view


def view_for(game: Game, seat: str) -> Json:
    """The view document of B14 for one seat."""
    return detached(_view(game, seat))


BOARD_JSON = Encoded.of(BOARD)  # the same in every view: written once


def view_parts(game: Game, seat: str) -> Parts:
    """``view_for``'s document with the board already written, sharing the game's objects:
    for ``encoded.dumps`` at once, never to be changed or kept."""
    view: Parts = dict(_view(game, seat))
    view["board"] = BOARD_JSON  # in its place
    return view


def with_draft(view: Json, document: Json) -> Json:
    """A seat's view in setup showing its kept draft (already in normal form): its ships set
    out, and for Blue his buoys and batteries, as after a lock-in."""
    seat = view["you"]
    ships = set_out(seat, document.get("ships", []))
    shown = {**view, "disposition": document,
             "ships": sorted(ships, key=lambda s: CROSS_ORDER[s["at"]])}
    if seat == "blue":
        shown["buoys"] = {cross: {"kind": document.get("buoys", {}).get(cross, "unknown"),
                                  "revealed": False} for cross in YELLOW_CIRCLES}
        shown["batteries"] = {site: document.get("batteries", {}).get(site, "unknown")
                              for site in BATTERIES}
    return shown


def seating_for(game: Game) -> Seating:
    """What the holder of a join link sees before he joins: the seats and the fixed order
    (B5: Red invades and moves first); nothing of anyone's disposition."""
    return detached(Seating(id=game.id, seats=list(game.seats), order=list(ORDER),
                            sides=[list(m) for m in game.sides]))


def record_for(game: Game, seat: str) -> Json:
    """The record as one seat may see it: every move's report (B11)."""
    return detached({
        "rules": RULES,
        "id": game.id,
        "phase": game.phase,
        "you": seat,
        "order": list(ORDER),
        "moves": [_told(r) for r in game.reports],
        "result": game.result_document(),
    })


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def result_headline(view: Json) -> str:
    """The end in a sentence, from a finished view (B10).

    >>> result_headline({"result": {"reason": "merchants", "winner": "red",
    ...     "winners": ["red"], "scores": {"red": 4, "blue": 3}}})
    "Red sank all four merchant ships; Blue sank 3 of Red's warships."
    >>> result_headline({"result": {"reason": "fleet", "winner": "blue",
    ...     "winners": ["blue"], "scores": {"red": 1, "blue": 10}}})
    "Blue sank all ten of Red's warships; Red sank 1 merchant ship."
    """
    result = view["result"]
    scores = result["scores"]
    winner = result["winner"]
    merchants = _plural(scores["red"], "merchant ship")
    if result["reason"] == "merchants":
        return (f"Red sank all four merchant ships; Blue sank {scores['blue']} of Red's "
                "warships.")
    if result["reason"] == "fleet":
        return f"Blue sank all ten of Red's warships; Red sank {merchants}."
    if result["reason"] == "resigned":
        return f"{other(winner).title()} resigned; {winner.title()} wins."
    if result["reason"] == "forfeit":
        return f"{winner.title()} wins by forfeit." if winner else "Both seats were forfeited."
    return (f"Ended by agreement: a draw; Red sank {merchants}, Blue {scores['blue']} of Red's "
            "warships.")


def postmortem_view(game: Game, seat: str) -> Json:
    """Everything the post-mortem shows a seat: its view, both seats' names and dispositions
    and the fingerprint checks; refused before the end (B12)."""
    return postmortem_of(game, lambda: _view(game, seat), "B12")


__all__ = ["NAMES", "describe", "host_view", "legal_for", "postmortem_view",
           "record_for", "report_for", "result_headline", "seating_for", "status_view",
           "targets_for", "view_for", "with_draft"]
