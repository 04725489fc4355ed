"""What each seat may know (T10, T12): the only way anything about a game leaves the core.

``view_for(game, seat)`` is the view document of T12; ``report_for`` is one seat's copy of a
report (T8, T11); ``record_for`` is the shots as that seat may see them. Until the game is
over, the opponent's disposition reaches a seat only as T8's reports give it: the hole shot,
its result and, when a boat sinks, its type. After the end both halves are revealed (T9).

A report holds nothing either player may not know (T8: the referee tells both players the
hole and its result), so both players' copies are the same; what differs is the view: each
seat sees its own disposition, and on its own half which boat (or the man) each shot found.
"""

from __future__ import annotations

from ..common.documents import Json
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
from .catalogue import NAMES, RULES, SAID
from .documents import TcgSeating
from .game import Game, other
from .holes import Hole, hole_name, parse_hole

REPORT_KEYS = ("n", "by", "target", "at", "result", "sunk", "stand_in")


def describe(report: Json) -> str:
    """A report in the game's words, as a player would say it across the table (T8).

    >>> describe({"by": "red", "target": "blue", "at": ["D 3"], "result": "hit",
    ...           "sunk": "submarine"})
    'Red shot at D 3: Hit: you sank my Submarine'
    >>> describe({"by": "blue", "target": "red", "at": ["K 7"], "result": "miss", "sunk": None})
    'Blue shot at K 7: Miss'
    """
    said = SAID[report["result"]]
    if report.get("sunk"):
        said += f": you sank my {NAMES[report['sunk']]}"
    return f"{report['by'].title()} shot at {report['at'][0]}: {said}"


def report_for(game: Game, report: Json, seat: str) -> Json:
    """One seat's copy of a report (T8, T11), with its sentence."""
    copy = {k: report[k] for k in REPORT_KEYS if k in report}
    copy["at"] = list(report["at"])
    copy["text"] = describe(copy)
    return copy


def _shots_at(game: Game, half: str, seat: str) -> list[Json]:
    """The shots at one half as ``seat`` may see them: the hole, its result and a sunk boat's
    type (T8); on his own half, or once the game is over, also what the shot found there
    (``found``: a boat type, ``"man"`` or null)."""
    fleet = game.fleets.get(half)
    owner_sees = half == seat or game.phase == "over"
    shots = []
    for report in game.reports:
        if report["target"] != half:
            continue
        entry = {"n": report["n"], "at": report["at"][0], "result": report["result"],
                 "sunk": report["sunk"]}
        if owner_sees and fleet is not None:
            hole = _hole(report["at"][0])
            entry["found"] = fleet.piece_at(hole)
        shots.append(entry)
    return shots


def _hole(name: str) -> Hole:
    hole = parse_hole(name)
    assert hole is not None  # a report's hole is always written by the referee
    return hole


def _view(game: Game, seat: str) -> Json:
    fleet = game.fleets.get(seat)
    view = {
        **view_head(game, seat, RULES, game.order),
        "card": {"name": game.the_card.name, "seed": game.the_card.seed},
        "islands": {s: game.the_card.island_names(s) for s in game.seats},  # T2, T12
        "disposition": fleet.document if fleet else None,
        "damage": fleet.damage() if fleet else None,
        "shots": {s: _shots_at(game, s, seat) for s in game.seats},
        "sunk": {s: game.sunk_by(other(s)) for s in game.seats},  # boats sunk on each half
        "reports": [report_for(game, r, seat) for r in game.reports],
        "result": game.result_document(),
    }
    if game.phase == "over":  # T9: the mission card slides out
        view["revealed"] = {s: {"disposition": game.fleets[s].document,
                                "damage": game.fleets[s].damage()}
                            for s in game.seats if s != seat and s in game.fleets}
    return view


def view_for(game: Game, seat: str) -> Json:
    """The view document of T12 for one seat."""
    return detached(_view(game, seat))


def seating_for(game: Game) -> TcgSeating:
    """What the holder of a join link sees before he joins: the seats, the order drawn at
    creation (T6) and the card's islands (T2, public); nothing of anyone's fleet."""
    card = game.the_card
    return detached(TcgSeating(id=game.id, seats=list(game.seats), order=list(game.order),
                               sides=[list(m) for m in game.sides],
                               islands={s: card.island_names(s) for s in game.seats}))


def record_for(game: Game, seat: str) -> Json:
    """The record as one seat may see it: the toss (T6), then every shot (T8)."""
    return detached({
        "rules": RULES,
        "id": game.id,
        "phase": game.phase,
        "you": seat,
        "toss": dict(game.toss) if game.toss else None,
        "moves": [report_for(game, r, seat) for r in game.reports],
        "result": game.result_document(),
    })


def scores(game: Game) -> dict[str, int]:
    """Each seat's boats sunk so far: a duel stopped before the end is scored like this."""
    return {s: len(game.sunk_by(s)) for s in game.seats}


def result_headline(view: Json) -> str:
    """The end in a sentence, from a finished view (T9).

    >>> result_headline({"result": {"reason": "rescued", "winner": "red", "winners": ["red"],
    ...     "scores": {"red": 5, "blue": 3}}})
    'Red sank all five boats and rescued his man; Blue sank 3.'
    >>> result_headline({"result": {"reason": "agreed", "winner": None, "winners": [],
    ...     "scores": {"red": 2, "blue": 2}}})
    'Ended by agreement: a draw, 2 boats sunk each.'
    """
    result = view["result"]
    scores = result["scores"]
    winner = result["winner"]
    if result["reason"] == "rescued":
        loser = other(winner)
        return (f"{winner.title()} sank all five boats and rescued his man; "
                f"{loser.title()} sank {scores[loser]}.")
    if result["reason"] == "resigned":
        return f"{other(winner).title()} resigned; {winner.title()} wins."
    if result["reason"] == "forfeit":
        return f"{winner.title()} wins by forfeit." if winner else "Both seats were forfeited."
    red, blue = scores["red"], scores["blue"]
    if red == blue:
        return f"Ended by agreement: a draw, {red} boat{'s' if red != 1 else ''} sunk each."
    return f"Ended by agreement: a draw; Red sank {red}, Blue {blue}."


def postmortem_view(game: Game, seat: str) -> Json:
    """Everything the post-mortem shows a seat: its view, both seats' names and dispositions
    and the fingerprint checks; refused before the end (T10)."""
    return postmortem_of(game, lambda: _view(game, seat), "T10")


__all__ = ["describe", "host_view", "hole_name", "postmortem_view",
           "record_for", "report_for", "status_view", "targets_for", "view_for"]
