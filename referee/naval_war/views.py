"""What each seat may know (R20, R21): the only way anything about a game leaves the core.

``view_for(game, seat)`` is the view document of API.md; ``report_for`` is one seat's copy of
one report; ``record_for`` is the move record as that seat may see it. Until the game is over,
an opponent's chart reaches a seat only through the reports R20 gives it; after the end,
everything is revealed to everyone in the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from ..common.documents import Json, Toss
from ..common.encoded import Encoded, Parts
from ..common.views import (  # noqa: F401  (re-exported: every rule set's views)
    detached,
    fingerprint_checks,
    fingerprints_verify,
    game_file_of,
    host_view,
    postmortem_of,
    require_over,
    seating_for,
    status_view,
    targets_for,
)
from .catalogue import NAMES, PLURALS, SHIP_TYPES
from .documents import (
    Damage,
    Disposition,
    GameFile,
    MoveRecord,
    PostmortemView,
    Report,
    Revealed,
    SeatReport,
    View,
)
from .fleet import Fleet
from .game import Game, result_document
from .phrasing import capitalise, count, join_and, number_word, side_words, with_article

ATTACKER_ONLY = ("from",)  # R20: the base square is never shown to an opponent
TARGET_ONLY = ("squares_hit", "gun")  # R20: the target sees his own squares and guns
WITHHELD: Json = {"weapon": None, "at": [], "shot_down": None, "hits": [], "destroyed": None,
            "shots": None, "seen": None}


def report_for(game: Game, report: Report | Json, seat: str) -> SeatReport:
    """One seat's copy of a report (R20): the attacker's, the target's, an ally's or a third
    player's; everyone's copy is the full report once the game is over (R21)."""
    copy: Json
    if game.phase == "over":
        copy = dict(report)
    elif game.allied(seat, report["by"]):
        copy = {k: v for k, v in report.items() if k not in TARGET_ONLY}
    elif game.allied(seat, report["target"]):
        copy = {k: v for k, v in report.items() if k not in ATTACKER_ONLY}
    else:  # a third player learns only that a move was made, by whom and at whom
        copy = {"n": report["n"], "by": report["by"], "target": report["target"], **WITHHELD,
                "withheld": True, **({"stand_in": True} if report.get("stand_in") else {})}
    copy["text"] = describe(copy)
    # the report less what R20 keeps from this seat, or what a third player is told: the
    # shape ``SeatReport`` declares (tests/test_documents_typed.py checks every copy)
    return cast(SeatReport, copy)


def seat_reports(game: Game, seat: str) -> list[SeatReport]:
    """Every report as ``seat`` sees it, each copy made once: a report never
    changes once made, and a seat's copy of it changes only when the game ends (R21), so a
    view's cost does not grow with the reports already copied. Callers copy the list's
    reports before they leave the core (``detached``)."""
    key = (seat, game.phase == "over")
    copies: list[SeatReport] = game.memo.get(key, [])
    if len(copies) < len(game.reports):  # a new list, so a reader never sees half of one
        copies = [*copies, *(report_for(game, r, seat) for r in game.reports[len(copies):])]
        game.memo[key] = copies
    return copies


def seat_report_texts(game: Game, seat: str) -> list[str]:
    """Every report as ``seat`` sees it (``seat_reports``), each written as JSON once, as the
    copies are made once: a seat's view after a move writes only the new report's."""
    key = (seat, game.phase == "over", "json")
    texts: list[str] = game.memo.get(key, [])
    copies = seat_reports(game, seat)
    if len(texts) < len(copies):  # a new list, so a reader never sees half of one
        texts = [*texts, *(Encoded.of(copy).text for copy in copies[len(texts):])]
        game.memo[key] = texts
    return texts


def own_report(game: Game, report: Report | Json, seat: str) -> tuple[SeatReport, str]:
    """The game's newest report (``report``) as its mover, ``seat``, sees it, and its JSON:
    the copy and the text his views keep (``seat_reports``, ``seat_report_texts``), so that
    his move's answer and his view make them once. The copy is a dict of its own, whose
    values are shared: written as JSON, never changed."""
    assert game.reports and report is game.reports[-1], "only the newest report"
    texts = seat_report_texts(game, seat)
    return cast(SeatReport, dict(seat_reports(game, seat)[-1])), texts[-1]


def _fleet_view(game: Game, seat: str) -> tuple[Disposition | None, Damage | None]:
    fleet = game.fleets.get(seat)
    return (fleet.document, fleet.damage()) if fleet else (None, None)


def view_for(game: Game, seat: str) -> View:
    """The view document of API.md for one seat."""
    return detached(_view(game, seat))


def view_parts(game: Game, seat: str) -> Parts:
    """``view_for``'s document with its reports already written (``seat_report_texts``),
    sharing the game's objects: for ``encoded.dumps`` at once, never to be changed or kept."""
    view: Parts = dict(_view(game, seat, parts=False))
    fleet = game.fleets.get(seat)
    if fleet is not None:
        # each written again only once it has changed: a disposition never does once
        # submitted; the damage with what befell the chart (``revision``); the forces with
        # that and each salvo fired (a salvo's move leaves its mover's damage as it was)
        view["disposition"] = _written(game, ("disposition", seat), fleet, 0,
                                       lambda: fleet.document)
        view["damage"] = _written(game, ("damage", seat), fleet, fleet.revision, fleet.damage)
        view["forces"] = _written(game, ("forces", seat), fleet,
                                  (fleet.revision, fleet.salvoes_fired), fleet.forces)
    view["reports"] = Encoded.array(seat_report_texts(game, seat))  # each in its place
    return view


def _written(game: Game, key: tuple[str, str], fleet: Fleet, stamp: object,
             value: Callable[[], object]) -> Encoded:
    """A part of a seat's view as JSON, kept in the game's memo under ``key`` and written
    again only for another fleet (a state replayed) or another ``stamp``."""
    kept = game.memo.get(key)
    if kept is None or kept[0] is not fleet or kept[1] != stamp:
        kept = game.memo[key] = (fleet, stamp, Encoded.of(value()))
    return kept[2]


def _view(game: Game, seat: str, parts: bool = True) -> View:
    """``parts``: False leaves the seat's disposition, damage, forces and reports for
    ``view_parts`` to put in place."""
    fleet = game.fleets.get(seat) if parts else None
    disposition, damage = _fleet_view(game, seat) if parts else (None, None)
    view: View = {
        "id": game.id,
        "phase": game.phase,
        "you": seat,
        "version": game.version,
        "seats": {
            s: {"name": game.names.get(s), "ready": s in game.ready, "bot": game.bots.get(s),
                "forfeited": s in game.forfeited, "agreed_to_end": s in game.agreed,
                "stand_in": s in game.stand_ins,
                "fingerprint": game.fingerprints.get(s),
                "salt": game.salts.get(s) if game.phase == "over" or s == seat else None}
            for s in game.seats
        },
        "allies": [s for s in game.side(seat) if s != seat],
        "turn": game.turn,
        "order": list(game.order),
        "sides": [list(members) for members in game.sides],
        "clock": {"minutes": game.minutes, "deadline": game.deadline},
        "disposition": disposition,
        "damage": damage,
        "forces": fleet.forces() if fleet else None,
        "reports": seat_reports(game, seat) if parts else [],
        "result": result_document(game),
    }
    if game.phase == "over":
        revealed: dict[str, Revealed] = {}
        for other in game.seats:
            if other != seat:
                other_disposition, other_damage = _fleet_view(game, other)
                revealed[other] = {"disposition": other_disposition, "damage": other_damage}
        view["revealed"] = revealed
    return view


def record_for(game: Game, seat: str) -> MoveRecord:
    """The move record as one seat may see it: the toss (R11), then every move (R20, R21)."""
    toss = game.toss
    return detached(MoveRecord({
        "id": game.id,
        "phase": game.phase,
        "you": seat,
        "toss": Toss(seed=toss["seed"], order=list(toss["order"])) if toss else None,
        "moves": seat_reports(game, seat),
        "result": result_document(game),
    }))


def count_words(n: int, kind: str) -> str:
    """A number of pieces of one kind: "two Battleships", "an R.P.", "12 A-A guns".

    >>> count_words(2, "battleship"), count_words(1, "recon"), count_words(12, "aa-gun")
    ('two Battleships', 'an R.P.', '12 A-A guns')
    """
    return count(n, NAMES[kind], PLURALS[kind])


def _hit_text(hit: Json) -> str:
    """R20's "Two hits on a Battleship", as a sentence of its own."""
    n = hit["new_hits"]
    sunk = ", which is sunk" if hit["sunk"] else ""
    return capitalise(f"{number_word(n)} hit{'s' if n != 1 else ''} on "
                      f"{with_article(NAMES[hit['ship']])}{sunk}")


def _shot_text(shot: Json) -> str:
    if shot["result"] is None:
        return f"{shot['at']}: nothing"
    what = NAMES[shot["result"]]
    if shot.get("aircraft") and shot["aircraft"] != shot["result"]:
        what += f" (and the {NAMES[shot['aircraft']]} on it destroyed)"
    if shot["result"] in SHIP_TYPES:
        state = "hit" if shot["new"] else "already hit"
        return f"{shot['at']}: {what}, {state}" + (", sunk" if shot["sunk"] else "")
    return f"{shot['at']}: {what} destroyed"


def _seen_text(entry: Json) -> str:
    piece = entry["piece"]
    if piece is None:
        return f"{entry['square']} {entry['terrain']}"
    notes = []
    if entry.get("hit"):
        notes.append("hit")
    if entry.get("spent"):
        notes.append("spent")
    if entry.get("aircraft") and entry["aircraft"] != piece:
        notes.append(f"{NAMES[entry['aircraft']]} on it")
    note = f" ({', '.join(notes)})" if notes else ""
    return f"{entry['square']} {NAMES[piece]}{note}"


def describe(report: Json) -> str:
    """A report in the game's words, as a player would say it across the table.

    >>> describe({"by": "red", "target": "blue", "weapon": "bomber", "at": ["M 12"],
    ...           "shot_down": False, "hits": [{"ship": "battleship", "new_hits": 2,
    ...           "sunk": False}], "destroyed": {"bomber": 1, "aa-gun": 0}})
    'Bomber at M 12: Two hits on a Battleship. A Bomber destroyed.'
    >>> describe({"by": "red", "target": "blue", "weapon": "salvo", "at": ["A 1", "B 1", "C 1"],
    ...           "shot_down": False, "hits": [], "destroyed": {}, "shots": [
    ...           {"at": "A 1", "result": None}, {"at": "B 1", "result": None},
    ...           {"at": "C 1", "result": None}]})
    'Salvo at A 1, B 1, C 1: A 1: nothing; B 1: nothing; C 1: nothing.'
    """
    if report.get("withheld"):
        return f"{report['by'].title()} made a move against {report['target'].title()}."
    weapon, at = report["weapon"], ", ".join(report["at"])
    head = f"{capitalise(NAMES[weapon])} at {at}: "
    if report["shot_down"]:
        gun = report.get("gun")
        return head + (f"Shot down by the A-A gun at {gun}." if gun else
                       "Shot down by an A-A gun.")
    parts = []
    if report.get("shots"):
        parts.append("; ".join(_shot_text(s) for s in report["shots"]))
    if report.get("seen") is not None:
        parts.append("Saw " + "; ".join(_seen_text(e) for e in report["seen"]))
    if report.get("shots") is None and report.get("seen") is None:
        parts.extend(_hit_text(h) for h in report["hits"])
        lost = [count_words(n, kind) for kind, n in report["destroyed"].items() if n]
        if lost:
            parts.append(capitalise(join_and(lost)) + " destroyed")
        if not parts:
            parts.append("No damage")
    return head + ". ".join(parts) + "."


def result_headline(view: Mapping[str, Any]) -> str:
    """"Red wins by 60 points to 45", in the rules' words (R22), from a finished view; sides
    of two or more seats (R23) score together.

    >>> result_headline({"result": {"reason": "exhausted", "winners": ["red", "green"],
    ...     "sides": [{"seats": ["red", "green"], "score": 60}, {"seats": ["blue"], "score": 45}],
    ...     "scores": {"red": 40, "green": 20, "blue": 45}}})
    'Red and Green win by 60 points to 45.'
    >>> result_headline({"result": {"reason": "exhausted", "winners": ["blue"],
    ...     "sides": [{"seats": ["red", "green"], "score": 20}, {"seats": ["blue"], "score": 30},
    ...               {"seats": ["gold"], "score": 12}], "scores": {}}})
    'Blue wins with 30 points; Red and Green 20; Gold 12.'
    """
    result = view["result"]
    sides = sorted(result["sides"], key=lambda side: -side["score"])
    if result["reason"] == "resigned":
        losers = [s for s in sides if set(s["seats"]) & set(r for r in result["scores"]
                                                            if r not in result["winners"])]
        prefix = (f"{side_words(losers[0]['seats'])} resigned. "
                  if losers and result["winners"] else "")
    else:
        prefix = {"agreed": "Ended by agreement. ", "forfeit": "Won by forfeit. "}.get(
            result["reason"], "")
    if not result["winners"]:
        return f"{prefix}A draw at {sides[0]['score']} points each."
    winners = next(s for s in sides if s["seats"] == result["winners"])
    others = [s for s in sides if s is not winners]
    verb = "win" if len(winners["seats"]) > 1 else "wins"
    if len(others) == 1:
        return (f"{prefix}{side_words(winners['seats'])} {verb} by {winners['score']} points "
                f"to {others[0]['score']}.")
    rest = "; ".join(f"{side_words(s['seats'])} {s['score']}" for s in others)
    return f"{prefix}{side_words(winners['seats'])} {verb} with {winners['score']} points; " \
           f"{rest}."



def scores(game: Game) -> dict[str, int]:
    """Each seat's points so far (R22): a duel stopped before the end is scored like this."""
    return {s: game.fleets[s].score() for s in game.seats if s in game.fleets}


def postmortem_view(game: Game, seat: str) -> PostmortemView:
    """Everything the post-mortem shows a seat: its view, every seat's name and disposition
    and the fingerprint checks; refused before the end (R21)."""
    # every game's post-mortem is made alike (``common.views``): with this game's view, it is
    # the shape this game's ``PostmortemView`` declares
    return cast(PostmortemView, postmortem_of(game, lambda: dict(_view(game, seat))))


def game_file_view(game: Game) -> GameFile:
    """What a game file holds: the whole log with every disposition, the
    fingerprints and salts that prove no fleet moved, and the result; refused before the end
    (R21)."""
    return cast(GameFile, game_file_of(game))  # every game's file alike, with its events
