"""Finished games of any rule set, made by its core alone, and their game files: for the club's
tests and bench/club_bench.py, which fill a referee with hundreds of them through
``service.import_game`` as another club's games arrive."""

from __future__ import annotations

import random
import time

from referee import rulesets, service


def finished_game(rules: str, n: int, moves: int = 1, names: tuple[str, ...] = (),
                  options: dict | None = None):
    """A finished game of these rules: every seat named (``names``, else "Player <n> <seat>"),
    set up by the rule set's simplest computer and locked in with a random salt (so no two
    games are one), ``moves`` moves played by that computer (at least one, by default: a game
    decided before any move counts in no record), then the seat to move resigns (if the game
    has not ended by itself). ``options``: the rule set's, as the API takes them."""
    rule_set = rulesets.named(rules)
    rng = random.Random(f"{rules}-{n}")
    game, _ = rule_set.new_game(id=f"g{n}", seed=rng.randrange(2 ** 63), at=time.time(),
                                bots={}, options=options or {})
    game.commit_dice(f"club:{rules}:{n}")  # where the referee rolls dice (BB24)
    seats = list(rule_set.status_view(game)["seats"])
    for i, seat in enumerate(seats):
        game.join(seat, names[i] if i < len(names) else f"Player {n} {seat}")
    level = next(iter(rule_set.levels))  # the simplest
    computers = {seat: rule_set.computer(level, f"{rules}-{n}-{seat}") for seat in seats}
    for seat in seats:
        game.submit(seat, computers[seat].disposition(rule_set.view_for(game, seat)))
        service.lock_in(game, seat)
    for _ in range(moves):
        status = rule_set.status_view(game)
        if status["phase"] != "play":
            break
        seat = status["turn"]
        game.move(seat, computers[seat].move(rule_set.view_for(game, seat)))
    status = rule_set.status_view(game)
    if status["phase"] == "play":
        game.resign(status["turn"])
    return game


def game_file(game) -> dict:
    """A finished game's file, as ``GET /api/v1/games/{id}/export`` gives it."""
    rule_set = rulesets.of(game)
    shown = rule_set.game_file_view(game)
    return {"format": service.export_format(rule_set.rules), "version": service.EXPORT_VERSION,
            "rules": rule_set.rules, "id": rule_set.status_view(game)["id"],
            "exported_at": time.time(), "fingerprints": shown["fingerprints"],
            "salts": shown["salts"], **({"dice": shown["dice"]} if "dice" in shown else {}),
            "result": shown["result"], "events": shown["events"]}


def padded_file(game, padding: int) -> dict:
    """A real game's file whose every event carries a field no rule reads, ``padding``
    characters in all: its moves, fingerprints and result still check (a "junk" import)."""
    document = game_file(game)
    pad = "x" * (padding // len(document["events"]))
    document["events"] = [{**event, "padding": pad} for event in document["events"]]
    return document
