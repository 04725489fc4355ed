"""Games of Broadside for the web half's tests (pages, paper, the browser): two setups and games
played from them by the core alone, with moves chosen from the view's ``legal`` list."""

from __future__ import annotations

import random

from referee.broadside.board import BLUE_START, RED_START
from referee.broadside.game import new_game
from referee.broadside.views import view_for

RED = {"ships": [{"type": t, "at": at} for t, at in zip(
    ["ship-of-the-line", "ship-of-the-line", "frigate", "frigate", "frigate", "brig", "brig",
     "brig", "cutter", "cutter"], RED_START, strict=True)]}
BLUE = {"ships": [{"type": t, "at": at} for t, at in zip(
    ["frigate", "brig", "cutter", "frigate", "cutter", "frigate", "cutter", "brig", "frigate",
     "cutter"], BLUE_START[:10], strict=True)],
    "buoys": {"F 6": "sink", "G 6": "pass", "H 6": "sink", "J 13": "pass", "K 13": "sink",
              "D 13": "pass"},
    "batteries": {"A": "hit", "B": "miss", "C": "hit", "D": "miss"}}
SECRET_BUOYS = {c: k for c, k in BLUE["buoys"].items()}


def started(red: dict = RED, blue: dict = BLUE, *, id: str = "g1"):
    """A game with both setups locked in: Red to move (B5)."""
    game, _ = new_game(id=id, seed=0, at=0.0, options={})
    game.join("red", "Ann & Co")
    game.join("blue", "Bob")
    game.submit("red", red)
    game.submit("blue", blue)
    game.lock_in("red", salt="r" * 32)
    game.lock_in("blue", salt="b" * 32)
    return game


def play(game, moves: int, seed: int = 1, prefer=None) -> None:
    """``moves`` moves (or to the end), each a legal move of the seat to move, chosen at
    random (``prefer(view, legal)`` may choose instead)."""
    chance = random.Random(seed)
    for _ in range(moves):
        if game.phase != "play":
            return
        seat = game.turn
        view = view_for(game, seat)
        legal = view["legal"]
        move = (prefer(view, legal) if prefer else None) or chance.choice(legal)
        game.move(seat, move)


def charge(view: dict, legal: list[dict]) -> dict | None:
    """Sail as far as it can into the harbour, Red; Blue sails out to meet him."""
    if not legal or "pass" in legal[0]:
        return None
    rows = {m["to"]: int(m["to"].split()[1]) for m in legal}
    if view["you"] == "red":
        return min(legal, key=lambda m: (rows[m["to"]], m["ship"]))
    return max(legal, key=lambda m: (rows[m["to"]], m["ship"]))


def played(moves: int = 40, seed: int = 1):
    """A game some way into play: ships moved, broadsides fired, buoys found."""
    game = started()
    play(game, moves, seed, prefer=lambda v, legal: charge(v, legal)
         if random.Random(len(v["reports"]) + seed).random() < 0.6 else None)
    return game


def finished(seed: int = 1):
    """A game played to its end (or resigned by Blue after 400 moves)."""
    game = played(400, seed)
    if game.phase == "play":
        game.resign(game.turn)
    return game
