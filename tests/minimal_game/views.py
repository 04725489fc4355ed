"""What each seat of Hidden Number may know (H4, H5), the one road out of the core: its own
number, every guess with its answer (both players hear them), and the other's number once the
game is over. Also what the seam asks beside the views: the draft check, the club's entry and
the secret twin (another number, told apart only by guesses between the two)."""

from __future__ import annotations

import random

from referee.common.ruleset import Twin
from referee.common.views import detached, postmortem_of

from .catalogue import NUMBERS, RULES, SEATS
from .game import Game, answer, other, read_number

SAID = {"higher": "higher", "lower": "lower", "right": "right!"}


def catalogue() -> dict:
    return {"numbers": list(NUMBERS), "answers": list(SAID)}


def describe(report: dict) -> str:
    """A guess and its answer in a sentence (H4).

    >>> describe({"by": "red", "guess": 4, "answer": "higher"})
    'Red guessed 4: higher'
    """
    return f"{report['by'].title()} guessed {report['guess']}: {SAID[report['answer']]}"


def report_for(game: Game, report: dict, seat: str) -> dict:
    """A guess and its answer, the same for both seats (H4)."""
    return {**report, "text": describe(report)}


def _view(game: Game, seat: str) -> dict:
    hidden = game.fleets.get(seat)
    view = {
        "rules": RULES, "id": game.id, "phase": game.phase, "you": seat,
        "version": game.version, "allies": [], "turn": game.turn, "order": list(game.order),
        "sides": [list(side) for side in game.sides],
        "seats": {s: {"name": game.names.get(s), "ready": s in game.ready,
                      "bot": game.bots.get(s), "forfeited": s in game.forfeited,
                      "agreed_to_end": s in game.agreed, "stand_in": s in game.stand_ins,
                      "fingerprint": game.fingerprints.get(s),
                      "salt": game.salts.get(s) if game.phase == "over" or s == seat
                      else None} for s in game.seats},
        "clock": {"minutes": game.minutes, "deadline": game.deadline},
        "move_minutes": game.move_minutes,
        "disposition": hidden.document if hidden else None,
        "guessed": {s: list(game.guessed.get(s, [])) for s in game.seats},
        "reports": [report_for(game, r, seat) for r in game.reports],
        "result": game.result_document(),
    }
    if game.phase == "over":  # H5: the numbers are shown once the game is over
        view["revealed"] = {s: {"disposition": game.fleets[s].document}
                            for s in game.seats if s != seat and s in game.fleets}
    return view


def view_for(game: Game, seat: str) -> dict:
    return detached(_view(game, seat))


def record_for(game: Game, seat: str) -> dict:
    return detached({"rules": RULES, "id": game.id, "phase": game.phase, "you": seat,
                     "toss": dict(game.toss) if game.toss else None,
                     "moves": [report_for(game, r, seat) for r in game.reports],
                     "result": game.result_document()})


def headline(view: dict) -> str:
    """A finished game's result in a sentence.

    >>> headline({"result": {"reason": "guessed", "winner": "blue"}})
    "Blue guessed Red's number and wins."
    """
    result = view["result"]
    winner = result["winner"]
    if result["reason"] == "guessed":
        return f"{winner.title()} guessed {other(winner).title()}'s number and wins."
    if result["reason"] == "resigned":
        return f"{other(winner).title()} resigned; {winner.title()} wins."
    if result["reason"] == "forfeit":
        return f"{winner.title()} wins by forfeit." if winner else "Both seats were forfeited."
    return "Ended by agreement: a draw."


def postmortem_view(game: Game, seat: str) -> dict:
    return postmortem_of(game, lambda: _view(game, seat), "H5")


def fewest(hidden: int) -> int:
    """The guesses halving the range 1-9 needs to find ``hidden``.

    >>> [fewest(n) for n in range(1, 10)]
    [3, 2, 3, 4, 1, 3, 2, 3, 4]
    """
    low, high, guesses = 1, 9, 0
    while True:
        guesses += 1
        middle = (low + high) // 2
        said = answer(middle, hidden)
        if said == "right":
            return guesses
        low, high = (middle + 1, high) if said == "higher" else (low, middle - 1)


def postmortem_document(game: Game) -> dict:
    """Each seat's guesses beside the fewest halving needed (after the end, H5)."""
    postmortem_view(game, SEATS[0])  # refused before the end
    return {"seats": {s: {"sought": game.fleets[other(s)].number if other(s) in game.fleets
                          else None, "guesses": len(game.guessed[s]),
                          "fewest": fewest(game.fleets[other(s)].number)
                          if other(s) in game.fleets else None} for s in game.seats}}


def club_entry(game: Game) -> dict:
    shown = view_for(game, SEATS[0])
    result = shown["result"]
    return {"players": " v ".join(shown["seats"][s]["name"] or s.title() for s in SEATS),
            "headline": headline(shown), "forfeited": result["reason"] == "forfeit",
            "seats": [{"name": shown["seats"][s]["name"] or s.title(),
                       "outcome": "won" if s in result["winners"] else
                       "drawn" if not result["winners"] else "lost"} for s in SEATS]}


def check_draft(game: Game, seat: str, document: object) -> tuple[dict, None, list]:
    game._check_setup(seat)
    return {"number": read_number(document, "number")}, None, []


def with_draft(view: dict, document: dict) -> dict:
    return {**view, "disposition": document}


def secret_twin(view: dict, rng: random.Random) -> Twin | None:
    """Another number next to the seat's: a guess tells them apart only if it falls between
    the two or on either (H4)."""
    number = (view.get("disposition") or {}).get("number")
    if number not in NUMBERS:
        return None
    twin = rng.choice([n for n in (number - 1, number + 1) if n in NUMBERS])
    low, high = min(number, twin), max(number, twin)
    owner = view["you"]

    def clear(seat: str, move: dict, _view: dict) -> bool:
        guess = move.get("guess") if isinstance(move, dict) else None
        return seat == owner or isinstance(guess, int) and not low <= guess <= high

    return Twin({"number": twin}, clear)
