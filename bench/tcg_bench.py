"""Speed of Battleship: The Tactical Combat Game's core: prints medians; not a test.

- Replaying a whole random game (every shot until the rescue) on a drawn card.
- Building one seat's view at the end of that game.
- The post-mortem of that game (the wasted-shot hindsight before every shot).
- Drawing a card from a seed, and checking a disposition.

Run with `.venv/bin/python bench/tcg_bench.py`.
"""

from __future__ import annotations

import random
import statistics
import time

from referee.battleship_tcg.card import draw_card, lines_of, standard_card
from referee.battleship_tcg.catalogue import BOAT_TYPES, HOLES
from referee.battleship_tcg.fleet import check_disposition
from referee.battleship_tcg.game import new_game, replay
from referee.battleship_tcg.holes import DIRECTIONS, hole_name, line
from referee.battleship_tcg.postmortem import postmortem_document
from referee.battleship_tcg.views import view_for


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def disposition(rng: random.Random, card, seat: str) -> dict:
    sea = set(card.sea_holes(seat))
    while True:
        used, boats = set(), []
        for kind in BOAT_TYPES:
            options = [h for h in lines_of(HOLES[kind]) if sea.issuperset(h)
                       and used.isdisjoint(h)]
            if not options:
                break
            holes = rng.choice(options)
            used |= set(holes)
            dir = next(d for d in DIRECTIONS if line(holes[0], d, len(holes)) == list(holes))
            boats.append({"type": kind, "at": hole_name(holes[0]), "dir": dir})
        if len(boats) == len(BOAT_TYPES):
            man = rng.choice(sorted(card.island_holes(seat)))
            return {"boats": boats, "man": hole_name(man)}


def random_game(seed: int):
    rng = random.Random(seed)
    game, _ = new_game(id="b", seed=seed, options={"card": {"seed": seed}})
    for seat in ("red", "blue"):
        game.join(seat, seat)
        game.submit(seat, disposition(rng, game.card, seat))
        game.lock_in(seat, salt="x")
    while game.phase == "play":
        target = "blue" if game.turn == "red" else "red"
        fleet = game.fleets[target]
        islands = game.card.island_holes(target)
        shot = game.shots[target]
        holes = [h for h in game.card.sea_holes(target) if h not in shot] if fleet.afloat() \
            else [h for h in sorted(islands) if h not in shot]
        game.move(game.turn, {"at": hole_name(rng.choice(holes))})
    return game


def main() -> None:
    game = random_game(1)
    events = game.events
    print(f"game of {len(game.reports)} shots, {len(events)} events")
    print(f"replay whole game:      {median_ms(lambda: replay(events), 9):8.2f} ms")
    print(f"view_for at the end:    {median_ms(lambda: view_for(game, 'red'), 21):8.2f} ms")
    print(f"postmortem_document:    {median_ms(lambda: postmortem_document(game), 5):8.2f} ms")
    print(f"draw_card(seed):        {median_ms(lambda: draw_card(12345), 9):8.2f} ms")
    doc = game.fleets["red"].document
    print(f"check_disposition:      "
          f"{median_ms(lambda: check_disposition(doc, game.card, 'red'), 51):8.2f} ms")
    print(f"standard_card():        {median_ms(standard_card, 51):8.2f} ms")


if __name__ == "__main__":
    main()
