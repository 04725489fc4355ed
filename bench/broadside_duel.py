"""The balance of Broadside between its sides, and its computer's speed: prints figures; not a
test.

Whole games played through the rules core (``new_game``, ``submit``, ``lock_in``, ``move``),
each computer handed only ``view_for(game, its_seat)`` (B12, B14), for pairings of a Red level
and a Blue level: Red invades (moves first, B5), Blue defends. By default each level plays
itself (the balance of the game between equal levels), and the strongest Red found plays the
strongest Blue both ways round (careful and cunning). For each
pairing it prints who wins how often (Red by sinking the four merchant ships, Blue by sinking
all ten Red warships, B10; a draw when both must pass, or when the game reaches the cap of
moves), the mean length of a game, the merchant ships and Red warships sunk, and each level's
think time per move (median, 90th percentile, slowest).

Run with `nice .venv/bin/python bench/broadside_duel.py [games] [seed] [red:blue ...]` (200
games a pairing by default; the pairings below unless named, as in `cunning:careful`). The
steps of the ladder (each level against the one below, seats alternated) are
`bench/ladder_steps.py broadside`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import dataclass, field

from referee.broadside.computer import Computer
from referee.broadside.game import new_game
from referee.broadside.views import status_view, view_for

SEATS = ("red", "blue")
CAP = 1000  # moves (both sides'); games of the levels end well before this
PAIRINGS = [("random", "random"), ("drifter", "drifter"), ("novice", "novice"),
            ("bold", "bold"), ("careful", "careful"), ("cunning", "cunning"),
            ("careful", "cunning"), ("cunning", "careful")]


@dataclass
class Tally:
    red: str
    blue: str
    wins: dict[str, int] = field(default_factory=lambda: {"red": 0, "blue": 0, "draw": 0})
    reasons: dict[str, int] = field(default_factory=dict)
    moves: list[int] = field(default_factory=list)
    merchants: list[int] = field(default_factory=list)
    red_sunk: list[int] = field(default_factory=list)
    think: dict[str, list[float]] = field(default_factory=lambda: {"red": [], "blue": []})
    capped: list[int] = field(default_factory=list)  # the seeds of games the cap stopped


def play(red: str, blue: str, seed: int, tally: Tally) -> None:
    rng = random.Random(seed)
    bots = {"red": Computer(red, rng.randrange(2**63), strict=True),
            "blue": Computer(blue, rng.randrange(2**63), strict=True)}
    game, _ = new_game(id=f"duel-{seed}", seed=seed, bots={"red": red, "blue": blue})
    for seat in SEATS:
        game.submit(seat, bots[seat].disposition(view_for(game, seat)))
    for seat in SEATS:
        game.lock_in(seat, salt=f"{seed}-{seat}")
    moves = 0
    while moves < CAP:
        status = status_view(game)
        if status["phase"] != "play":
            break
        seat = status["turn"]
        view = view_for(game, seat)
        start = time.perf_counter()
        move = bots[seat].move(view)
        tally.think[seat].append((time.perf_counter() - start) * 1000)
        game.move(seat, move)
        moves += 1
    result = status_view(game)["result"]
    reason = result["reason"] if result else "cap"
    if not result:
        tally.capped.append(seed)
    winner = result["winner"] if result else None
    tally.wins[winner or "draw"] += 1
    tally.reasons[reason] = tally.reasons.get(reason, 0) + 1
    tally.moves.append(moves)
    scores = game.result_document()["scores"] if result else {"red": None, "blue": None}
    tally.merchants.append(scores["red"] if scores["red"] is not None
                           else len(game.merchants_sunk))
    tally.red_sunk.append(scores["blue"] if scores["blue"] is not None else game.red_sunk())


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    pairings = [tuple(p.split(":")) for p in sys.argv[3:]] or PAIRINGS
    for red, blue in pairings:
        rng = random.Random(f"{seed}:{red}:{blue}")
        tally = Tally(red, blue)
        began = time.perf_counter()
        for _ in range(games):
            play(red, blue, rng.randrange(2**63), tally)
        wall = time.perf_counter() - began
        w = tally.wins
        print(f"{red} (Red) v {blue} (Blue), {games} games, seed {seed}: "
              f"Red wins {w['red']} ({100 * w['red'] / games:.0f}%), "
              f"Blue wins {w['blue']} ({100 * w['blue'] / games:.0f}%), draws {w['draw']}"
              f" (ends: {', '.join(f'{k} {v}' for k, v in sorted(tally.reasons.items()))})")
        print(f"  moves a game: median {statistics.median(tally.moves):.0f}, "
              f"mean {statistics.fmean(tally.moves):.0f}, most {max(tally.moves)}; "
              f"merchant ships sunk: mean {statistics.fmean(tally.merchants):.2f}; "
              f"Red warships sunk: mean {statistics.fmean(tally.red_sunk):.2f}")
        for seat, level in (("red", red), ("blue", blue)):
            times = tally.think[seat]
            print(f"  think per move, {level} as {seat.title()}: median "
                  f"{statistics.median(times):.2f} ms, p90 {percentile(times, 0.9):.1f} ms, "
                  f"slowest {max(times):.0f} ms ({len(times)} moves)")
        if tally.capped:
            print(f"  stopped by the cap of {CAP} moves: the games of seed "
                  f"{', '.join(map(str, tally.capped))}")
        print(f"  ({wall:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
