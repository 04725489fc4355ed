"""The views every rule set gives alike (R21, T10): the game's public status, the host's
view, what a join link shows, and the fingerprint checks once the game is over. Each rule
set's own ``views`` module re-exports these beside its player's view.

Pure like the cores that use it: no web, storage or PDF library is imported here.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from .documents import HostView, Seating, StatusView
from .lifecycle import fingerprint, refuse


def detached(document: dict) -> dict:
    """A copy sharing nothing with the game's state, so no caller can alter the log."""
    return json.loads(json.dumps(document))


def status_view(game) -> StatusView:
    """The game's public state, as the server runs it: the phase, the seats (joined, ready,
    forfeited, a computer's level, handed to the computer), whose turn and since which event
    (R25), the clocks and the result; nothing of any seat's forces (R21)."""
    return {
        "id": game.id,
        "phase": game.phase,
        "version": game.version,
        "seats": {s: {"name": game.names.get(s), "ready": s in game.ready,
                      "forfeited": s in game.forfeited, "bot": game.bots.get(s),
                      "stand_in": s in game.stand_ins}
                  for s in game.seats},
        "turn": game.turn,
        "turn_began": game.turn_began,
        "clock": {"minutes": game.minutes, "deadline": game.deadline},
        "move_minutes": game.move_minutes,
        "stand_in_level": game.stand_in_level,  # the host's choice (R25); None: the rule set's
        "result": game.result_document(),
    }


def host_view(game) -> HostView:
    """What the host may see (R24): who has joined and locked in, the clock, whose turn and
    the result; never anything of any seat's fleet."""
    status = status_view(game)
    return detached({key: status[key] for key in
                     ("id", "phase", "version", "clock", "seats", "turn", "result")})


def seating_for(game) -> Seating:
    """What the holder of a join link sees before he joins: the seats, the order of play drawn
    when the game was created (R11) and the sides (R23); nothing of anyone's forces."""
    return detached({"id": game.id, "seats": list(game.seats), "order": list(game.order),
                     "sides": [list(members) for members in game.sides]})


def targets_for(game, seat: str) -> list[str]:
    """The seats whose charts a seat may attack now (R23): those still in the game and not
    on its side."""
    return game.opponents(seat)


def require_over(game, what: str, rule: str = "R21") -> None:
    if game.phase != "over":
        raise refuse(rule, f"{what} once the game is over", kind="turn")


def fingerprint_checks(game, rule: str = "R21") -> list[dict]:
    """Each locked-in seat's fingerprint, its salt and whether its disposition and salt give
    it (R21): only once the game is over, when the salts are revealed."""
    require_over(game, "The fingerprints are checked", rule)
    return [{"seat": s, "fingerprint": game.fingerprints[s], "salt": game.salts.get(s),
             "matches": s in game.fleets and s in game.salts
             and fingerprint(game.fleets[s].document, game.salts[s]) == game.fingerprints[s]}
            for s in game.seats if s in game.fingerprints]


def fingerprints_verify(game, rule: str = "R21") -> bool:
    """Every seat that locked in has a fingerprint that its disposition and salt give, and
    every seat with a fleet locked it in (an imported game's proof, issue 10 item 5)."""
    return all(check["matches"] for check in fingerprint_checks(game, rule)) \
        and all(s in game.fingerprints for s in game.fleets)


def postmortem_of(game, seat_view: Callable[[], dict], rule: str = "R21") -> dict:
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


def game_file_of(game, rule: str = "R21", **head) -> dict:
    """What a game file holds, in every rule set: ``head`` (its rules' name, say), then the
    whole log with every disposition, the fingerprints and salts that prove none changed,
    and the result; refused before the end."""
    require_over(game, "A game is given as a file", rule)
    return detached({**head, "fingerprints": dict(game.fingerprints),
                     "salts": dict(game.salts), "result": game.result_document(),
                     "events": game.events})
