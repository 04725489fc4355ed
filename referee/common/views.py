"""The views every rule set gives alike (R21, T10): the game's public status, the host's
view, what a join link shows, and the fingerprint checks once the game is over. Each rule
set's own ``views`` module re-exports these beside its player's view.

Pure like the cores that use it: no web, storage or PDF library is imported here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

from .documents import Dice, HostView, Json, SealedHostView, Seating, StatusView
from .lifecycle import Lifecycle, fingerprint, refuse

D = TypeVar("D")


def detached(document: D) -> D:
    """A copy sharing nothing with the game's state, so no caller can alter the log: the
    same document, made again from its JSON."""
    return cast(D, json.loads(json.dumps(document)))


def seat_entry(game: Lifecycle, s: str, seat: str) -> Json:
    """Seat ``s`` as ``seat``'s view shows it: name, ready, computer, forfeit, agreement to
    end, stand-in and fingerprint; the salt only to its own seat until the game is over (the
    fingerprint's secret, R21)."""
    return {"name": game.names.get(s), "ready": s in game.ready, "bot": game.bots.get(s),
            "forfeited": s in game.forfeited, "agreed_to_end": s in game.agreed,
            "stand_in": s in game.stand_ins, "fingerprint": game.fingerprints.get(s),
            "salt": game.salts.get(s) if game.phase == "over" or s == seat else None}


def view_head(game: Lifecycle, seat: str, rules: str, order: Sequence[str]) -> Json:
    """What every two-seat game's view begins with, the same for all: the rule set, the game,
    its phase and version, the seat it is for, every seat (``seat_entry``), whose turn, the
    order of play, the sides, the dispositions' clock and the move clock. A game's view adds
    its own after this."""
    return {
        "rules": rules,
        "id": game.id,
        "phase": game.phase,
        "you": seat,
        "version": game.version,
        "seats": {s: seat_entry(game, s, seat) for s in game.seats},
        "allies": [],
        "turn": game.turn,
        "order": list(order),
        "sides": [list(members) for members in game.sides],
        "clock": {"minutes": game.minutes, "deadline": game.deadline},
        "move_minutes": game.move_minutes,
    }


def status_view(game: Lifecycle) -> StatusView:
    """The game's public state, as the server runs it: the phase, the seats (joined, ready,
    forfeited, a computer's level, handed to the computer, agreed to end the game: R14),
    whose turn and since which event (R25), the seats that owe a move now and since which
    event each has (its move clock: several at once where orders are sealed,
    ``SIMULTANEOUS``), the clocks and the result; nothing of any seat's forces (R21).
    Made once a version (a move asks for it some ten times: its write, its computers, each
    seat's view) and kept in the game's memo, so shared: the caller must not change it."""
    kept = game.memo.get(("status",))
    if kept is not None and kept[0] == game.version:
        return cast(StatusView, kept[1])
    shown: StatusView = {
        "id": game.id,
        "phase": game.phase,
        "version": game.version,
        "seats": {s: {"name": game.names.get(s), "ready": s in game.ready,
                      "forfeited": s in game.forfeited, "bot": game.bots.get(s),
                      "stand_in": s in game.stand_ins, "agreed_to_end": s in game.agreed}
                  for s in game.seats},
        "turn": game.turn,
        "turn_began": game.turn_began,
        "owes": list(game.owes),
        "owed_since": dict(game.owed_since),
        "simultaneous": game.SIMULTANEOUS,
        "clock": {"minutes": game.minutes, "deadline": game.deadline},
        "move_minutes": game.move_minutes,
        "stand_in_level": game.stand_in_level,  # the host's choice (R25); None: the rule set's
        "result": game.result_document(),
    }
    game.memo[("status",)] = (game.version, shown)
    return shown


def owes_in(view: Json) -> list[str]:
    """The seats a seat's view says owe a move now: its ``owes`` (seat -> what it owes)
    where orders are sealed, else the seat whose turn it is (none outside play).

    >>> owes_in({"phase": "play", "turn": "red"}), owes_in({"phase": "over", "turn": None})
    (['red'], [])
    >>> owes_in({"phase": "play", "turn": "red", "owes": {"red": "plot", "blue": "plot"}})
    ['red', 'blue']
    """
    if "owes" in view:
        return list(view["owes"] or ())
    return [view["turn"]] if view.get("phase") == "play" and view.get("turn") else []


def host_view(game: Lifecycle) -> HostView:  # a SealedHostView where orders are sealed
    """What the host may see (R24): who has joined and locked in, the clock, whose turn (and,
    where orders are sealed, every seat that owes one: never what) and the result; never
    anything of any seat's fleet."""
    status = status_view(game)
    view = HostView(id=status["id"], phase=status["phase"], version=status["version"],
                    clock=status["clock"], seats=status["seats"], turn=status["turn"],
                    result=status["result"])
    if status["simultaneous"]:
        return detached(SealedHostView(**view, owes=status["owes"]))
    return detached(view)


def seating_for(game: Lifecycle) -> Seating:
    """What the holder of a join link sees before he joins: the seats, the order of play drawn
    when the game was created (R11) and the sides (R23); nothing of anyone's forces."""
    return detached(Seating(id=game.id, seats=list(game.seats), order=list(game.order),
                            sides=[list(members) for members in game.sides]))


def targets_for(game: Lifecycle, seat: str) -> list[str]:
    """The seats whose charts a seat may attack now (R23): those still in the game and not
    on its side."""
    return game.opponents(seat)


def require_over(game: Lifecycle, what: str, rule: str = "R21") -> None:
    if game.phase != "over":
        raise refuse(rule, f"{what} once the game is over", kind="turn")


def fingerprint_checks(game: Lifecycle, rule: str = "R21") -> list[Json]:
    """Each locked-in seat's fingerprint, its salt and whether its disposition and salt give
    it (R21): only once the game is over, when the salts are revealed."""
    require_over(game, "The fingerprints are checked", rule)
    return [{"seat": s, "fingerprint": game.fingerprints[s], "salt": game.salts.get(s),
             "matches": s in game.fleets and s in game.salts
             and fingerprint(game.fleets[s].document, game.salts[s]) == game.fingerprints[s]}
            for s in game.seats if s in game.fingerprints]


def fingerprints_verify(game: Lifecycle, rule: str = "R21") -> bool:
    """Every seat that locked in has a fingerprint that its disposition and salt give, and
    every seat with a fleet locked it in (an imported game's proof that no disposition changed)."""
    return all(check["matches"] for check in fingerprint_checks(game, rule)) \
        and all(s in game.fingerprints for s in game.fleets)


def postmortem_of(game: Lifecycle, seat_view: Callable[[], Json], rule: str = "R21") -> Json:
    """Everything the post-mortem shows a seat, in every rule set: its view (``seat_view``,
    the rule set's, built once the end is checked), every seat's name and disposition and
    the fingerprint checks; refused before the end."""
    require_over(game, "The post-mortem is given", rule)
    return detached({
        "view": seat_view(),
        "seats": {s: {"name": game.names.get(s) or s, "disposition": game.fleets[s].document}
                  for s in game.seats if s in game.fleets},
        "names": dict(game.names),
        "checks": fingerprint_checks(game, rule),
    })


def dice_of(game: Lifecycle) -> Dice:
    """The dice as every seat may see them (BB24): the commitment, each seat's seed once it
    has locked in, every roll so far with what it was for, and the referee's secret seed
    only once it is revealed at the end (never the one it holds)."""
    return detached(Dice(commitment=game.dice_commitment,
                         seeds={s: game.dice_seeds.get(s) for s in game.seats},
                         rolls=game.dice_rolls, secret=game.dice_revealed))


def game_file_of(game: Lifecycle, rule: str = "R21", **head: object) -> Json:
    """What a game file holds, in every rule set: ``head`` (its rules' name, say), then the
    whole log with every disposition, the fingerprints and salts that prove none changed,
    the dice's commitment, seeds and revealed seed where the referee rolls them (BB24), and
    the result; refused before the end."""
    require_over(game, "A game is given as a file", rule)
    dice = {"dice": {key: value for key, value in dice_of(game).items() if key != "rolls"}
            | {"rolls": len(game.dice_rolls)}} if game.DICE else {}
    return detached({**head, "fingerprints": dict(game.fingerprints),
                     "salts": dict(game.salts), **dice, "result": game.result_document(),
                     "events": game.events})
