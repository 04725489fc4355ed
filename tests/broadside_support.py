"""Shared set-ups for the Broadside tests: dispositions, a started game, and a harbour arranged for
one ruling's test."""

from __future__ import annotations

import copy

from referee.broadside.game import Game, Ship, new_game

RED_TYPES = ["ship-of-the-line"] * 2 + ["frigate"] * 3 + ["brig"] * 3 + ["cutter"] * 2
BLUE_TYPES = ["frigate"] * 4 + ["brig"] * 2 + ["cutter"] * 4
RED_AT = ["I 19", "J 19", "K 19", "L 19", "M 19", "I 20", "J 20", "K 20", "L 20", "M 20"]
BLUE_AT = ["A 2", "B 2", "C 2", "D 2", "E 2", "F 2", "H 2", "I 2", "J 2", "K 2"]
BUOYS = {"F 6": "sink", "G 6": "pass", "H 6": "sink", "J 13": "sink", "K 13": "pass",
         "D 13": "pass"}
BATTERIES = {"A": "hit", "B": "miss", "C": "hit", "D": "miss"}


def red_disposition() -> dict:
    return {"ships": [{"type": t, "at": a} for t, a in zip(RED_TYPES, RED_AT, strict=True)]}


def blue_disposition(buoys: dict | None = None, batteries: dict | None = None) -> dict:
    return {"ships": [{"type": t, "at": a} for t, a in zip(BLUE_TYPES, BLUE_AT, strict=True)],
            "buoys": copy.deepcopy(buoys or BUOYS),
            "batteries": copy.deepcopy(batteries or BATTERIES)}


def created(**options) -> Game:
    game, _ = new_game(id="g", options=options)
    return game


def started(buoys: dict | None = None, batteries: dict | None = None, **options) -> Game:
    """A game with both fleets on their start crosses, locked in: Red to move (B5)."""
    game = created(**options)
    game.join("red", "Ann")
    game.join("blue", "Bob")
    game.submit("red", red_disposition())
    game.submit("blue", blue_disposition(buoys, batteries))
    for seat in ("red", "blue"):
        game.lock_in(seat, salt=f"salt-{seat}")
    return game


def arrange(game: Game, *ships: tuple[str, str, str, str] | tuple[str, str, str, str, int],
            turn: str = "red") -> Game:
    """The harbour cleared and set with these warships, ``(side, type, at, facing[, masts])``,
    each numbered among its side's ships of its type in the order given (Frigate 1, Frigate
    2), for a test of one ruling; ``turn``: whose move it is. The game must be in play."""
    from collections import Counter

    from referee.broadside.catalogue import MASTS
    assert game.phase == "play"
    game.ships.clear()
    numbers: Counter = Counter()
    for side, kind, at, facing, *masts in ships:
        numbers[side, kind] += 1
        game.ships[at] = Ship(side, kind, at, facing, masts[0] if masts else MASTS[kind],
                              numbers[side, kind])
    game.turn = turn
    return game


def move(game: Game, seat: str, ship: str, to: str, turn: str | None = None) -> dict:
    return game.move(seat, {"ship": ship, "turn": turn, "to": to})[1]


def play_random(game: Game, rng, max_moves: int = 3000, each=None) -> Game:
    """Both sides play random legal moves from their views until the end."""
    from referee.broadside.views import view_for
    for _ in range(max_moves):
        if game.phase != "play":
            break
        seat = game.turn
        chosen = rng.choice(view_for(game, seat)["legal"])
        _, report = game.move(seat, chosen)
        if each is not None:
            each(game, report)
    return game
