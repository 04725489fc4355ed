"""Speed of the post-mortem (issue: post-mortem analytics): prints timings; not a test.

- The whole post-mortem document (spending and hindsight) of finished games, target under
  2 s per game: the rules' Game 2 fleets; full fleets of 50 to 90 ships against 6 Atom
  Bombers and 13 Bombers, or 33 Bombers (the most R4 allows); a four-player game.
- ``states_by_move`` of a 200-move game (the step-through), target well under a second.

Run with `.venv/bin/python bench/postmortem_bench.py`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from core_bench import long_game_events  # noqa: E402
from helpers import random_move  # noqa: E402

from referee.naval_war import new_game
from referee.naval_war.layout import scatter
from referee.naval_war.postmortem import hindsight, postmortem_document, states_by_move

GAME_2_RED = {"battleship": 15, "cruiser": 10, "submarine": 10, "recon": 16, "bomber": 10,
              "aa-gun": 6, "salvo": 8}
GAME_2_BLUE = {"atom-bomber": 6, "aa-gun": 13, "recon": 6, "bomber": 7, "destroyer": 20,
               "submarine": 20}
# 60 points of ships in 51 pieces; 6 Atom Bombers and 13 Bombers (99 points).
SIXTY_SHIPS = {"destroyer": 5, "submarine": 44, "cruiser": 2, "atom-bomber": 6, "bomber": 13,
               "aa-gun": 1}
SUBMARINES = {"submarine": 60, "atom-bomber": 6, "bomber": 13, "aa-gun": 1}
# 60 points of ships and 33 Bombers: the most aircraft one plan can have.
BOMBERS = {"battleship": 5, "cruiser": 6, "destroyer": 6, "submarine": 10, "bomber": 33,
           "aa-gun": 1}
MANY_SHIPS_BOMBERS = {"destroyer": 5, "submarine": 44, "cruiser": 2, "bomber": 33, "aa-gun": 1}

SCENARIOS = {
    "Game 2 fleets (red 10 Bombers, blue 6 Atom Bombers + 7 Bombers)": (GAME_2_RED, GAME_2_BLUE),
    "51 ships each, 6 Atom Bombers + 13 Bombers each": (SIXTY_SHIPS, SIXTY_SHIPS),
    "60 Submarines each, 6 Atom Bombers + 13 Bombers each": (SUBMARINES, SUBMARINES),
    "27 ships each, 33 Bombers each": (BOMBERS, BOMBERS),
    "51 ships each, 33 Bombers each": (MANY_SHIPS_BOMBERS, MANY_SHIPS_BOMBERS),
    "four players, 51 ships and 33 Bombers each": (MANY_SHIPS_BOMBERS,) * 4,
    "four players, 51 ships and 6 Atom Bombers + 13 Bombers each": (SIXTY_SHIPS,) * 4,
}


def finished_game(purchases: tuple[dict, ...], seed: int):
    """Every aircraft and salvo spent at random, each seat at a random opponent."""
    rng = random.Random(seed)
    game, _ = new_game(id="bench", seats=len(purchases), seed=seed)
    for seat, purchase in zip(game.seats, purchases, strict=True):
        game.join(seat, seat.title())
        game.submit(seat, scatter(purchase, rng))
    for seat in game.seats:
        game.lock_in(seat)
    while game.phase == "play":
        game.move(game.turn, random_move(game, rng, fly=0.7))
    return game


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return (time.perf_counter() - start) * 1000, out


def main() -> None:
    for name, purchases in SCENARIOS.items():
        times, plans, inexact = [], 0, 0
        for seed in range(5):
            game = finished_game(purchases, seed)
            ms, doc = timed(lambda game=game: postmortem_document(game))
            times.append(ms)
            for entries in doc["hindsight"].values():
                for entry in entries.values():
                    if entry["count"]:
                        plans += 1
                        inexact += not entry["exact"]
        print(f"{name}: post-mortem median {statistics.median(times):.0f} ms, "
              f"worst {max(times):.0f} ms over 5 games; {plans - inexact}/{plans} plans exact")
    game = finished_game((SIXTY_SHIPS, SIXTY_SHIPS), 0)
    for entry in hindsight(game)["red"].values():
        print(f"  e.g. red {entry['count']} x: would sink {entry['would_sink']} "
              f"(bound {entry['upper_bound']}), did sink {entry['did_sink']}, "
              f"as flown {entry['as_flown']}")
    events = long_game_events()
    moves = sum(1 for e in events if e["type"] == "move")
    times = [timed(lambda: states_by_move(events))[0] for _ in range(21)]
    print(f"states_by_move of a {moves}-move game: median {statistics.median(times):.1f} ms")


if __name__ == "__main__":
    main()
