"""The club's records page at scale: every finished game is summarised once, as it ends, by its
rule set (``RuleSet.club_entry``), and /club sums and lists those summaries, newest first and
a page at a time, without replaying a game; the replayed states a process keeps are bounded
in bytes, not only in number, so a flood of large imports cannot swell a server."""

from __future__ import annotations

import dataclasses
import gc
import json
import random
import re
import sqlite3
import sys
import time
import tracemalloc

import pytest
from apiclient import Api, FlaskTransport, lock_in_random_fleets, open_table, play_random_game
from club_support import finished_game, game_file

from referee import rulesets, service, states
from referee import store as store_module
from referee.store import Store


def store_of(app) -> Store:
    return app.extensions["referee.store"]()


def imported(app, games) -> list[str]:
    """Import each game's file, signed by the app's own referee (so it counts, as a file this
    referee exported does), into the app's referee; their new ids."""
    return [import_signed(app, game_file(game))["id"] for game in games]


def import_signed(app, document: dict) -> dict:
    key = app.extensions["referee.signing_key"]
    return service.import_game(store_of(app), key.sign(document), key.public)


def a_fresh_process(monkeypatch) -> None:
    """Forget every state and product this process keeps, as a restarted server would."""
    monkeypatch.setattr(store_module, "PER_FILE", store_module.PerFile())


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


# -- each game summarised once, as it ends -------------------------------------------------------

def test_the_club_page_sums_every_rule_sets_summaries_and_replays_no_game(app, monkeypatch):
    """One game played here to its end through the service, and one finished game of each
    rule set imported: after a restart, /club counts and lists them all and replays none."""
    api = Api(FlaskTransport(app.test_client()))
    rng = random.Random(3)
    table = open_table(api)
    lock_in_random_fleets(table, rng)
    play_random_game(table, rng)
    ids = imported(app, [finished_game(rules, 1, moves=30) for rules in rulesets.RULE_SETS])
    a_fresh_process(monkeypatch)
    for _ in range(2):
        page = app.test_client().get("/club").get_data(as_text=True)
        assert kept_states(app) == [], "the club page replayed a game"
        assert set(listed(page)) == {table.id, *ids}
    assert f"{1 + len(rulesets.RULE_SETS)} finished games on this referee" in page
    for rule_set in rulesets.RULE_SETS.values():
        counted = 2 if rule_set.rules == rulesets.DEFAULT else 1
        section = page.split(f"<h2>{rule_set.title}</h2>")[1]
        assert f"{counted} finished game{'s' if counted > 1 else ''} counted" in section


def test_games_finished_before_summaries_were_kept_are_each_replayed_once(app, tmp_path):
    """A database from before the summaries' migration: its finished games get theirs when
    /club is first asked for, each replayed once, and never again."""
    games = [finished_game(rules, 2, moves=20) for rules in rulesets.RULE_SETS]
    ids = imported(app, games)
    with sqlite3.connect(app.config["DATABASE"]) as db:  # as the database was before
        db.execute("drop table if exists club_entries")
        db.execute("delete from migrations where name in ('0016_club_entries', "
                   "'0018_club_entries_played')")
    assert Store(app.config["DATABASE"]).migrate() == ["0016_club_entries",
                                                       "0018_club_entries_played"]
    replays = []
    real = states.replayed

    def counted(store, game_id):
        replays.append(game_id)
        return real(store, game_id)

    states_replayed = pytest.MonkeyPatch()
    states_replayed.setattr(service.files, "replayed", counted)
    try:
        first = app.test_client().get("/club").get_data(as_text=True)
        again = app.test_client().get("/club").get_data(as_text=True)
    finally:
        states_replayed.undo()
    assert sorted(replays) == sorted(ids)
    assert set(listed(first)) == set(listed(again)) == set(ids)
    assert f"{len(rulesets.RULE_SETS)} finished games on this referee" in again


def test_a_summary_that_fails_loses_no_game_and_is_tried_once_a_process(app, monkeypatch):
    """A rule set whose summary raises: the import still stands; /club tries the game again
    once in this process, not on every visit; a process with a working summary lists it."""
    tries = []

    def failing(game):
        tries.append(1)
        raise RuntimeError("a summary's bug")

    rules = rulesets.DEFAULT
    monkeypatch.setitem(rulesets.RULE_SETS, rules,
                        dataclasses.replace(rulesets.RULE_SETS[rules], club_entry=failing))
    [game_id] = imported(app, [finished_game(rules, 6, moves=10)])
    assert store_of(app).rules_of(game_id) == rules and len(tries) == 1
    for _ in range(3):
        assert app.test_client().get("/club").status_code == 200
    assert len(tries) == 2
    monkeypatch.undo()
    a_fresh_process(monkeypatch)
    assert listed(app.test_client().get("/club").get_data(as_text=True)) == [game_id]


def test_the_one_rule_of_what_counts_decides_the_records(app, monkeypatch):
    """``service.counts_in_records`` alone says whether a game counts: a game it refuses is
    listed, marked, and left out of every total."""
    monkeypatch.setattr(service.files, "counts_in_records", lambda imported, signer, trusted: False)
    [game_id] = imported(app, [finished_game(rulesets.DEFAULT, 3, moves=10)])
    page = app.test_client().get("/club").get_data(as_text=True)
    line = next(li for li in page.split("<li>") if f"Game {game_id}" in li)
    assert "(unverified: not counted)" in line
    assert "0 finished games on this referee" in page


# -- the page: small, and a page of games at a time ---------------------------------------------

def test_the_club_lists_fifty_games_a_page_newest_first_and_stays_small(app):
    """With 60 and then 120 finished games (every player named apart) page 1 lists the 50
    newest and weighs the same; the older ones are on pages 2 and 3; the totals above count
    every game on every page; the players' tables show 20 rows and say how many more; one
    section of each rule set is kept, not one for every set of games there has been."""
    client = app.test_client()
    first = imported(app, [finished_game(rulesets.DEFAULT, n) for n in range(60)])
    before = client.get("/club").get_data()
    second = imported(app, [finished_game(rulesets.DEFAULT, n) for n in range(60, 120)])
    start = time.perf_counter()
    response = client.get("/club")
    assert time.perf_counter() - start < 5
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert abs(len(response.get_data()) - len(before)) < 1000, "the page grew with the games"
    newest = list(reversed(first + second))
    assert listed(page) == newest[:50]
    assert "120 finished games on this referee" in page
    assert "page 1 of 3" in page and 'href="/club?page=2#finished"' in page
    assert page.count('<th scope="row">Player ') == 20
    assert "240 more have played here" not in page and "220 more have played here" in page
    older = client.get("/club?page=3").get_data(as_text=True)
    assert listed(older) == newest[100:]
    assert "120 finished games on this referee" in older and "page 3 of 3" in older
    assert listed(client.get("/club?page=2").get_data(as_text=True)) == newest[50:100]
    sections = [key for key in states.states_of(store_of(app))._derived
                if key[:2] == ("", 0) and key[2][0][0] == "club"]
    assert len(sections) == len(rulesets.RULE_SETS), "a section kept for each set of games"


@pytest.mark.parametrize("page", ["0", "-1", "2", "abc", "1.5", "1e3", " 1", "\u0661",
                                  "9" * 5000, ""])
def test_a_club_page_that_is_not_one_of_its_pages_is_a_400_naming_the_field(app, page):
    imported(app, [finished_game(rulesets.DEFAULT, 4)])
    response = app.test_client().get("/club", query_string={"page": page},
                                     headers={"Accept": "application/json"})
    assert response.status_code == 400, response.status_code
    error = response.get_json()["errors"][0]
    assert error["field"] == "page" and "from 1 to 1" in error["message"]


# -- the states kept: bounded in bytes ------------------------------------------------------------

def test_the_states_kept_stay_within_their_bytes_and_a_heavy_game_pushes_none_out(
        app, monkeypatch):
    """Thirty finished games, each viewed by a player and the club page viewed after each,
    then two games played to their end, each heavier than an eighth of the bound (about 300 KB
    against 256 KB): the states kept never hold more than their bound
    in bytes (measured, not estimated), the ordinary ones stay kept, and a game heavier than
    an eighth of the bound is used but not kept. (A file padded with fields no rule reads
    cannot make a heavy game: its events are kept in their normal form.)"""
    bound = 2 * 1024 * 1024
    monkeypatch.setattr(states, "MAX_STATE_BYTES", bound, raising=False)
    client = app.test_client()
    played = [finished_game(rulesets.DEFAULT, 100 + n, moves=10) for n in range(30)]
    heavy = [finished_game(rulesets.DEFAULT, 200 + n, moves=2000) for n in range(2)]
    heavy_ids = []
    for game in played + heavy:
        made = import_signed(app, game_file(game))
        if game in heavy:
            heavy_ids.append(made["id"])
        token = made["seats"]["red"]["token"]
        assert client.get(f"/api/v1/games/{made['id']}",
                          headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert client.get("/club").status_code == 200
        assert deep_size(kept_states(app)) <= bound
    weights = states.states_of(store_of(app))
    kept = {rulesets.of(game).status_view(game)["id"] for game in kept_states(app)}
    assert len(kept) >= 4, "the bound left room for a few ordinary games"
    assert not kept & set(heavy_ids), "a game heavier than an eighth of the bound was kept"
    assert weights.state_bytes <= bound


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
