"""Game files made offline with the referee's own core, as a forger would make them: a whole
game of any rule set ("Alice resigns to Mallory"), written as an export is, with every
fingerprint and salt right. Knobs vary what a duplicate must see through: the salts, the order
of the joins, a clock extension in setup, the disposition clock (an option), the seats."""

from __future__ import annotations

import copy

from broadside_support import blue_disposition, red_disposition
from helpers import ATTACKER, QUIET, seed_for
from tcg_support import disposition as tcg_disposition

from referee import rulesets, service
from referee.naval_war import new_game

RULES = ("naval-war", "battleship-tcg", "broadside")


def dispositions(rules: str) -> dict[str, dict]:
    """A legal disposition of each seat of a two-seat game of these rules."""
    if rules == "naval-war":
        return {"red": copy.deepcopy(ATTACKER), "blue": copy.deepcopy(QUIET)}
    if rules == "battleship-tcg":
        return {seat: tcg_disposition(seat) for seat in ("red", "blue")}
    return {"red": red_disposition(), "blue": blue_disposition()}


def fabricated(rules: str = "naval-war", *, names: dict[str, str] | None = None,
               salts: dict[str, str] | None = None, joins: tuple[str, ...] = ("red", "blue"),
               clock: int | None = None, minutes: int = 20, order: tuple[str, ...] | None = None,
               fleets: dict[str, dict] | None = None, resigns: str = "red",
               game_id: str = "forged", moves: int = 0) -> dict:
    """A finished game's file made with the core alone: ``names`` by seat (Alice plays red
    and resigns to Mallory unless told otherwise), ``salts`` of the lock-ins, the order of the
    ``joins``, a ``clock`` extension before the joins, the disposition clock's ``minutes``,
    the order of play (the Naval War Game's toss), the ``fleets`` by seat; ``resigns``: the
    seat that resigns after ``moves`` moves, each chosen by the rule set's weakest computer
    from the seat's own view (a game decided before any move counts in no record anyway)."""
    rule_set = rulesets.named(rules)
    names = names or {"red": "Alice", "blue": "Mallory"}
    salts = salts or {"red": "a1" * 16, "blue": "b2" * 16}
    fleets = fleets or dispositions(rules)
    seed = seed_for(list(order)) if order else 7
    game, _ = rule_set.new_game(id=game_id, seed=seed, at=1_700_000_000.0, bots={},
                                options={"disposition_minutes": minutes})
    if clock:
        game.extend_clock(clock)
    for seat in joins:
        game.join(seat, names[seat])
    for seat in joins:
        game.submit(seat, fleets[seat])
    for seat in joins:
        game.lock_in(seat, salt=salts[seat])
    for _ in range(moves):
        seat = rule_set.status_view(game)["turn"]
        computer = rule_set.computer(next(iter(rule_set.levels)), f"forger:{seat}")
        game.move(seat, computer.move(rule_set.view_for(game, seat)))
    game.resign(resigns)
    return {"format": service.export_format(rules), "version": service.EXPORT_VERSION,
            "rules": rules, "id": game_id, "exported_at": 1_700_000_100.0,
            **rule_set.game_file_view(game)}


def swollen_file(events_wanted: int) -> dict:
    """A finished game's file swollen with one seat's agreement to end, repeated (as a log
    written before a repeated offer stopped adding events)."""
    game, _ = new_game(id="swollen", seats=2, seed=7)
    for seat in game.seats:
        game.join(seat, seat.title())
        game.submit(seat, QUIET)
        game.lock_in(seat, seed=3, salt=f"salt-{seat}")
    while game.version < events_wanted - 1:
        game.apply({"type": "end", "seat": "red"})
    game.resign("blue")
    return {"format": "naval-war-game", "version": 1, "rules": "naval-war", "id": game.id,
            "exported_at": 0, "fingerprints": dict(game.fingerprints),
            "salts": dict(game.salts), "result": game.outcome().to_json(), "events": game.events}
