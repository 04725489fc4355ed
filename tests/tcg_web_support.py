"""A scripted game of Battleship: The Tactical Combat Game for the web and paper tests."""

from __future__ import annotations

import copy

from referee.battleship_tcg.game import Game, new_game

RED = {"boats": [{"type": "carrier", "at": "O 1", "dir": "down"},
                 {"type": "battleship", "at": "A 6", "dir": "up-right"},
                 {"type": "weapons-platform", "at": "F 1", "dir": "down"},
                 {"type": "submarine", "at": "H 1", "dir": "down"},
                 {"type": "patrol-boat", "at": "L 1", "dir": "down"}], "man": "H 5"}
BLUE = {"boats": [{"type": "carrier", "at": "A 1", "dir": "down-right"},  # A1 B1 C2 D2 E3
                  {"type": "battleship", "at": "G 3", "dir": "down"},  # G3-G6
                  {"type": "weapons-platform", "at": "J 5", "dir": "up-right"},  # J5 K5 L4
                  {"type": "submarine", "at": "N 1", "dir": "down"},  # N1-N3
                  {"type": "patrol-boat", "at": "D 8", "dir": "down-right"}],  # D8 E9
        "man": "M 6"}
# Blue's fleet elsewhere where Red has not shot: Red's view must not change (T10)
BLUE_ELSEWHERE = copy.deepcopy(BLUE)
BLUE_ELSEWHERE["boats"][0] = {"type": "carrier", "at": "K 6", "dir": "down"}
BLUE_ELSEWHERE["man"] = "J 3"
# Blue's boats side by side down columns C-G: a player who shoots across the rows hits
# several boats before any sinks, so some sinkings leave more than one way for the boat to
# lie and his view knows only the hole that sank it ("holes": null in the known boats)
BLUE_SIDE_BY_SIDE = {"boats": [{"type": "carrier", "at": "C 1", "dir": "down"},
                               {"type": "battleship", "at": "D 1", "dir": "down"},
                               {"type": "weapons-platform", "at": "E 1", "dir": "down"},
                               {"type": "submarine", "at": "F 1", "dir": "down"},
                               {"type": "patrol-boat", "at": "G 1", "dir": "down"}],
                     "man": "M 6"}
NAMES = {"red": "Ann &amp; Co", "blue": "Bob"}  # markup to reportlab: printed as typed
# Red shoots first (RED_FIRST is a toss seed that puts him first)
SHOTS = [("red", "D 8"), ("blue", "O 1"), ("red", "E 9"), ("blue", "C 1"),
         ("red", "N 1"), ("blue", "O 2"), ("red", "N 2"), ("blue", "G 7"),
         ("red", "N 3"), ("blue", "O 3"), ("red", "H 8")]


RED_FIRST = next(seed for seed in range(100)
                 if new_game(id="g1", seed=seed, options={})[0].order[0] == "red")


def started(blue: dict = BLUE, seed: int = RED_FIRST) -> Game:
    game, _ = new_game(id="g1", seed=seed, options={})
    for seat, fleet in (("red", RED), ("blue", blue)):
        game.join(seat, NAMES[seat])
        game.submit(seat, copy.deepcopy(fleet))
        game.lock_in(seat, salt=f"salt-{seat}")
    return game


def played(blue: dict = BLUE, shots=SHOTS) -> Game:
    game = started(blue)
    for seat, hole in shots:
        game.move(seat, {"at": hole})
    return game
