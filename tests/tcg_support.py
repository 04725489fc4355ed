"""Shared set-ups for the Battleship: The Tactical Combat Game tests."""

from __future__ import annotations

import copy

from referee.battleship_tcg.game import Game, new_game

# valid on both halves of the standard card (the man's island differs)
FLEET = [
    {"type": "carrier", "at": "O 1", "dir": "down"},  # O 1-O 5
    {"type": "battleship", "at": "A 6", "dir": "up-right"},  # A 6, B 5, C 5, D 4
    {"type": "weapons-platform", "at": "F 1", "dir": "down"},  # F 1-F 3
    {"type": "submarine", "at": "H 1", "dir": "down"},  # H 1-H 3
    {"type": "patrol-boat", "at": "L 1", "dir": "down"},  # L 1, L 2
]
BOAT_HOLES = {
    "carrier": ["O 1", "O 2", "O 3", "O 4", "O 5"],
    "battleship": ["A 6", "B 5", "C 5", "D 4"],
    "weapons-platform": ["F 1", "F 2", "F 3"],
    "submarine": ["H 1", "H 2", "H 3"],
    "patrol-boat": ["L 1", "L 2"],
}
MAN = {"red": "C 2", "blue": "B 3"}


def disposition(seat: str) -> dict:
    return {"boats": copy.deepcopy(FLEET), "man": MAN[seat]}


def created(seed: int = 5, **options) -> Game:
    game, _ = new_game(id="g", seed=seed, options=options)
    return game


def started(seed: int = 5, **options) -> Game:
    """A game on the standard card with both fleets locked in; ``seed`` 5 puts red first
    (1 puts blue first)."""
    game = created(seed, **options)
    game.join("red", "Ann")
    game.join("blue", "Bob")
    for seat in ("red", "blue"):
        game.submit(seat, disposition(seat))
        game.lock_in(seat, salt=f"salt-{seat}")
    return game


def shoot(game: Game, seat: str, hole: str) -> dict:
    return game.move(seat, {"at": hole})[1]


def miss_holes(seat_shot_at: str) -> list[str]:
    """Sea holes of a half the standard fleet leaves empty, for shots that miss."""
    from referee.battleship_tcg.card import standard_card
    from referee.battleship_tcg.holes import every_hole, hole_name
    taken = {h for holes in BOAT_HOLES.values() for h in holes}
    islands = set(standard_card().island_names(seat_shot_at))
    return [hole_name(h) for h in every_hole()
            if hole_name(h) not in taken and hole_name(h) not in islands]


def play_to_rescue(game: Game, winner: str) -> None:
    """``winner`` sinks every boat and rescues his man; the other only misses."""
    loser = "blue" if winner == "red" else "red"
    targets = [h for holes in BOAT_HOLES.values() for h in holes] + [MAN[loser]]
    misses = iter(miss_holes(winner))
    for hole in targets:
        if game.turn == loser:
            shoot(game, loser, next(misses))
        shoot(game, winner, hole)
