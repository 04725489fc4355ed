"""The club's records page at scale: the replayed states a process keeps are bounded in bytes,
not only in number, so a flood of large imports cannot swell a server."""

from __future__ import annotations

import gc
import json
import re
import sys
import tracemalloc

import pytest
from club_support import finished_game, game_file, padded_file

from referee import rulesets, service, states
from referee.store import Store


def store_of(app) -> Store:
    return app.extensions["referee.store"]()


def imported(app, games) -> list[str]:
    """Import each game's file into the app's referee; their new ids."""
    return [service.import_game(store_of(app), game_file(game))["id"] for game in games]


def a_fresh_process(monkeypatch) -> None:
    """Forget every state and product this process keeps, as a restarted server would."""
    monkeypatch.setattr(states, "_BY_DATABASE", {})


def kept_states(app) -> list:
    return list(states.states_of(store_of(app))._games.values())


def listed(page: str) -> list[str]:
    """The game ids a club page lists, in its order."""
    return re.findall(r"<li>(?:<a [^>]*>)?Game ([0-9a-f]{10})", page)


def deep_size(objects) -> int:
    """The bytes of everything reachable from ``objects`` (each object once), not counting
    classes, functions and modules: what the kept states hold."""
    seen: set[int] = set()
    todo, total = list(objects), 0
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type | type(deep_size) | type(sys)):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            todo.extend(obj)
        elif not isinstance(obj, str | bytes | int | float | bool) and obj is not None:
            if hasattr(obj, "__dict__"):
                todo.append(obj.__dict__)
            todo.extend(getattr(obj, s) for s in getattr(type(obj), "__slots__", ())
                        if hasattr(obj, s))
    return total


# -- the states kept: bounded in bytes ------------------------------------------------------------

def test_the_states_kept_stay_within_their_bytes_and_a_swollen_game_pushes_none_out(
        app, monkeypatch):
    """Thirty finished games, each viewed by a player and the club page viewed after each,
    then two files padded with a field no rule reads: the states kept never hold more than
    their bound in bytes (measured, not estimated), the ordinary ones stay kept, and a padded
    one is not kept at all."""
    bound = 2 * 1024 * 1024
    monkeypatch.setattr(states, "MAX_STATE_BYTES", bound, raising=False)
    client = app.test_client()
    played = [finished_game(rulesets.DEFAULT, 100 + n, moves=40) for n in range(30)]
    swollen = [padded_file(finished_game(rulesets.DEFAULT, 200 + n, moves=4), 400_000)
               for n in range(2)]
    for document in [game_file(game) for game in played] + swollen:
        made = service.import_game(store_of(app), document)
        token = made["seats"]["red"]["token"]
        assert client.get(f"/api/v1/games/{made['id']}",
                          headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert client.get("/club").status_code == 200
        assert deep_size(kept_states(app)) <= bound
    kept = {rulesets.of(game).status_view(game)["id"] for game in kept_states(app)}
    assert len(kept) >= 4, "the bound left room for a few ordinary games"
    assert not kept & {document["events"][0]["id"] for document in swollen}
    assert states.states_of(store_of(app)).state_bytes <= bound


@pytest.mark.parametrize(("rules", "options"), [
    *((rules, {}) for rules in rulesets.RULE_SETS), ("naval-war", {"seats": 4})])
def test_a_replayed_state_weighs_no_more_than_the_cache_reckons(rules, options):
    """``STATE_BYTES_PER_EVENT_BYTE`` is measured: a long game of each rule set, replayed
    from its events' JSON, holds no more than that many bytes for each byte of it."""
    game = finished_game(rules, 5, moves=400, options=options)
    bodies = [json.dumps(event, separators=(",", ":")) for event in game.events]
    rule_set = rulesets.of(game)
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        again = rule_set.empty()
        for body in bodies:
            again.apply(json.loads(body))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert rule_set.status_view(again)["phase"] == "over"
    assert held <= states.STATE_BYTES_PER_EVENT_BYTE * sum(map(len, bodies)), held
