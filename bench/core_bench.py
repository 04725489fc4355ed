"""Speed of the rules core: prints medians; not a test.

- Replaying a 200-move two-player game and building both views (target: under 20 ms).
- Validating a full disposition (target: under 2 ms).

Run with `make bench` or `.venv/bin/python bench/core_bench.py`.
"""

from __future__ import annotations

import random
import statistics
import time

from referee.naval_war import check_disposition, new_game, replay, square_name, view_for
from referee.naval_war.layout import pack, scatter
from referee.naval_war.squares import Square

# Game 2's Red from the rules: 15 battleships, 10 cruisers, 10 submarines, 16 R.P.s,
# 10 bombers, 6 A-A guns, 8 salvoes: 35 ships and 32 pieces on land.
FULL_FLEET = {"battleship": 15, "cruiser": 10, "submarine": 10, "recon": 16, "bomber": 10,
              "aa-gun": 6, "salvo": 8}
# A long game: 60 points of ships and 100 salvoes each: exactly 200 moves, since salvoes
# cannot be destroyed (R5). Salvo reports, three shots each, are the largest.
LONG_GAME = {"destroyer": 14, "submarine": 20, "cruiser": 4, "salvo": 100}


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def long_game_events(moves: int = 200, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    game, _ = new_game(id="bench", seats=2, seed=seed)
    for seat in game.seats:
        game.join(seat, seat.title())
        game.submit(seat, scatter(LONG_GAME, rng))
        game.lock_in(seat)
    while game.phase == "play" and len(game.reports) < moves:
        fleet = game.fleets[game.turn]
        planes = [a for a in fleet.aircraft if a.can_fly]
        if planes and rng.random() < 0.5 or not fleet.salvoes_left:
            plane = rng.choice(planes)
            move = {"weapon": plane.type, "from": square_name(plane.square),
                    "at": square_name(Square(rng.randrange(21), rng.randrange(21)))}
        else:
            squares = rng.sample(range(441), 3)
            move = {"weapon": "salvo", "at": [square_name(Square(s % 21, s // 21))
                                              for s in squares]}
        game.move(game.turn, move)
    return game.events


def main() -> None:
    events = long_game_events()
    moves = sum(1 for e in events if e["type"] == "move")

    def replay_and_views() -> None:
        game = replay(events)
        for seat in game.seats:
            view_for(game, seat)

    document = pack(FULL_FLEET)
    replay_ms = median_ms(replay_and_views, 101)
    validate_ms = median_ms(lambda: check_disposition(document), 501)
    print(f"replay of a {moves}-move two-player game + both views: median {replay_ms:.2f} ms "
          "(target < 20 ms)")
    print(f"validating a full disposition ({len(document['ships'])} ships, "
          f"{len(document['aircraft']) + len(document['guns'])} aircraft and guns): "
          f"median {validate_ms:.3f} ms (target < 2 ms)")


if __name__ == "__main__":
    main()
