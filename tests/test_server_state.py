"""A referee nobody can cheat, in its state: a computer nobody can predict, event logs with bounds
and nothing expensive under the write lock, imports that cannot forge the club's records, and views
whose cost says nothing hidden (R21).

Everything here goes through the Flask test client (one process); the hostile client against
a real server process is in ``test_server_expensive_calls.py``.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import sqlite3

import pytest
from api_support import table_in_play
from apiclient import Api, FlaskTransport, lock_in_random_fleets, open_table, play_random_game
from forgery_support import swollen_file
from helpers import IDLE_SQUARES, QUIET

from referee import create_app, service
from referee.naval_war import check_disposition, replay, view_for
from referee.naval_war.computer import LEVELS, Bot
from referee.store import Store

GAMES = "/api/v1/games"


@pytest.fixture
def other_club(tmp_path):
    """Another club's referee, where this club's game files are imported."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "other-club.db"),
                       "SECRET_KEY": "test", "PUBLIC_URL": "http://localhost"})


def events_in_store(app, game_id: str) -> list[dict]:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return [json.loads(body) for (body,) in db.execute(
            "select body from events where game_id = ? order by seq", [game_id])]


def normal(document: dict) -> dict:
    return check_disposition(document)[0].document


def game_against_computer(api: Api, level: str = "admiral") -> tuple[str, str, dict]:
    """A game of red (a player) against a computer at blue: its id, red's token, created."""
    status, created, _ = api.call("POST", GAMES, {"bots": {"blue": level}})
    assert status == 201, created
    status, joined, _ = api.call("POST", f"{GAMES}/{created['id']}/seats/red",
                                 {"join_code": created["seats"]["red"]["join_code"],
                                  "name": "Ann"})
    assert status == 200, joined
    return created["id"], joined["token"], created


# -- a computer's fleet and moves come from a server secret -----------------------------------

def test_a_computers_fleet_is_not_predictable_from_the_game_id(app, api):
    game_id, red, _ = game_against_computer(api)
    stored = next(e["disposition"] for e in events_in_store(app, game_id)
                  if e["type"] == "disposition" and e["seat"] == "blue")
    view = api.call("GET", f"{GAMES}/{game_id}", token=red)[1]
    # every seed a player could make of what he sees: the id (in every URL), the seat, the
    # level, the time of creation, the view's version
    seen = [game_id, "blue", "admiral", str(view["clock"]["deadline"]), str(view["version"])]
    guesses = {f"{a}:{b}" for a in seen for b in seen} | set(seen) | {0, 1, 7}
    for guess in guesses:
        assert normal(Bot("admiral", seed=guess).disposition()) != stored, guess


def test_each_game_has_its_own_secret_never_shown(app, api):
    fleets, secrets_seen = [], []
    for _ in range(2):
        game_id, red, _ = game_against_computer(api, "recruit")
        fleets.append(next(e["disposition"] for e in events_in_store(app, game_id)
                           if e["type"] == "disposition"))
        with sqlite3.connect(app.config["DATABASE"]) as db:
            (secret,) = db.execute("select secret from games where id = ?", [game_id]).fetchone()
        assert secret and len(bytes.fromhex(secret)) >= 32
        secrets_seen.append(secret)
        shown = json.dumps([api.call("GET", f"{GAMES}/{game_id}", token=red)[1],
                            events_in_store(app, game_id)])
        page = app.test_client().get(f"/games/{game_id}").get_data(as_text=True)
        assert secret not in shown and secret not in page
        # the seed the computer plays with is not in anything a player gets either
        seed = service.computers._computer(secret, "blue", "recruit").seed
        assert seed not in shown and seed not in page
    assert secrets_seen[0] != secrets_seen[1] and fleets[0] != fleets[1]


def test_one_function_makes_every_computer_from_the_secret(app, api):
    """The computer of a seat (its own or a stand-in) comes from ``service.computer``: its
    fleet is the one the game's computer locked in, and its seed is the secret's."""
    game_id, _, _ = game_against_computer(api)
    db = app.extensions["referee.store"]()
    made = service.computer(db, game_id, "blue", "admiral")
    stored = next(e["disposition"] for e in events_in_store(app, game_id)
                  if e["type"] == "disposition" and e["seat"] == "blue")
    assert normal(made.disposition()) == stored
    assert game_id not in str(made.seed)
    assert service.computer(db, game_id, "red", "admiral").seed != made.seed


# -- drafts, a cap on events, nothing expensive in the write lock, the cache --------------------

def test_a_draft_replaces_the_one_before_and_adds_no_event(app, api):
    table = open_table(api)
    before = events_in_store(app, table.id)
    blue_view = table.view("blue")
    _, _, headers = table.as_seat("red", "GET")
    etag = headers["ETag"]
    rng = random.Random(4)
    from referee.naval_war.layout import random_purchase, scatter
    for _ in range(30):
        status, body, _ = table.as_seat("red", "PUT", "/disposition",
                                        scatter(random_purchase(rng), rng))
        assert status == 200, body
    status, body, _ = table.as_seat("red", "PUT", "/disposition", QUIET)
    assert status == 200 and body["cost"]["total"] > 0
    assert events_in_store(app, table.id) == before  # no event per draft
    assert table.view("blue") == blue_view  # the opponent's view did not move at all
    # his own view shows his latest draft, under a new ETag; the poll agrees with it
    status, mine, headers = table.as_seat("red", "GET", headers={"If-None-Match": etag})
    assert status == 200 and mine["disposition"] == normal(QUIET)
    status, _, _ = table.as_seat("red", "GET", headers={"If-None-Match": headers["ETag"]})
    assert status == 304
    # locking in puts that draft, and only it, in the log
    status, _, _ = table.as_seat("red", "POST", "/ready")
    assert status == 200
    added = events_in_store(app, table.id)[len(before):]
    assert [e["type"] for e in added] == ["disposition", "ready"]
    assert added[0]["disposition"] == normal(QUIET)


def test_r14_a_game_at_the_event_limit_takes_no_more_moves_but_can_still_end(api, monkeypatch):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    version = table.view("red")["version"]
    monkeypatch.setattr(service.engine, "MAX_EVENTS", version + 3)
    for _ in range(3):
        turn = table.view("red")["turn"]
        status, body, _ = table.as_seat(turn, "POST", "/moves",
                                        {"weapon": "salvo", "at": IDLE_SQUARES})
        assert status == 201, body
    turn = table.view("red")["turn"]
    status, body, _ = table.as_seat(turn, "POST", "/moves",
                                    {"weapon": "salvo", "at": IDLE_SQUARES})
    assert status == 409 and f"{version + 3:,} events" in body["errors"][0]["message"]
    assert "agree to end it or resign (R14)" in body["errors"][0]["message"]
    assert table.view("red")["version"] == version + 3
    status, body, _ = table.as_seat("red", "POST", "/end")  # what ends a game is still taken
    assert status == 200, body
    status, body, _ = table.as_seat("blue", "POST", "/end")
    assert status == 200 and body["phase"] == "over", body
    assert table.view("red")["version"] == version + 5


def test_an_import_is_held_to_the_same_cap_as_a_game_played_here(api):
    document = swollen_file(service.MAX_LOG + 1)
    assert len(document["events"]) == service.MAX_LOG + 1
    status, body, _ = api.call("POST", f"{GAMES}/import", document)
    assert status == 422 and f"{service.MAX_LOG:,}" in body["errors"][0]["message"], body
    status, body, _ = api.call("POST", f"{GAMES}/import", swollen_file(service.MAX_LOG))
    assert status == 201, body


@contextlib.contextmanager
def applies_under_the_write_lock(monkeypatch):
    """Counts the events the core applies while the store's write lock is held."""
    from referee.naval_war.game import Game
    from referee.store import SqliteStore as StoreClass

    held, count = [False], [0]
    write, apply = StoreClass.write, Game.apply

    @contextlib.contextmanager
    def watched_write(self, scope=None):
        with write(self, scope) as db:
            held[0] = True
            try:
                yield db
            finally:
                held[0] = False

    def watched_apply(self, event):
        count[0] += held[0]
        return apply(self, event)

    monkeypatch.setattr(StoreClass, "write", watched_write)
    monkeypatch.setattr(Game, "apply", watched_apply)
    yield count


def test_nothing_is_replayed_inside_the_write_lock(api, monkeypatch):
    status, imported, _ = api.call("POST", f"{GAMES}/import", swollen_file(1500))
    assert status == 201
    path, token = f"{GAMES}/{imported['id']}", imported["seats"]["red"]["token"]
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    with applies_under_the_write_lock(monkeypatch) as count:
        for _ in range(3):
            status, _, _ = api.call("POST", f"{path}/end", token=token)
            assert status == 409
            api.call("GET", path, token=token)
        turn = table.view("red")["turn"]
        status, _, _ = table.as_seat(turn, "POST", "/moves",
                                     {"weapon": "salvo", "at": IDLE_SQUARES})
        assert status == 201
    assert count[0] == 0, f"{count[0]} events applied while the write lock was held"


def without_clock(view: dict) -> dict:
    """The API's view is the core's view and the move clock the server adds (R25)."""
    return {k: v for k, v in view.items() if k != "move_clock"}


def test_the_cache_follows_writes_from_another_process(app, api):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    view = table.view("red")  # now cached in this process
    # another process (a plain connection to the same file) appends the next move
    events = events_in_store(app, table.id)
    game = replay(events)
    game.move(game.turn, {"weapon": "salvo", "at": IDLE_SQUARES})
    with sqlite3.connect(app.config["DATABASE"]) as db:
        db.execute("insert into events (game_id, seq, type, body, at) values (?, ?, ?, ?, 0)",
                   [table.id, game.version, "move", json.dumps(game.events[-1])])
    after = table.view("red")
    assert after["version"] == view["version"] + 1 and after["turn"] != view["turn"]
    assert without_clock(after) == view_for(replay(events_in_store(app, table.id)), "red")
    # a move through this process now builds on the other's: versions stay one apart
    status, _, _ = table.as_seat(after["turn"], "POST", "/moves",
                                 {"weapon": "salvo", "at": IDLE_SQUARES})
    assert status == 201 and table.view("blue")["version"] == after["version"] + 1


def test_a_refused_command_leaves_the_cached_state_as_the_log(app, api):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    turn = table.view("red")["turn"]
    other = "blue" if turn == "red" else "red"
    for seat, body in ((other, {"weapon": "salvo", "at": IDLE_SQUARES}),
                       (turn, {"weapon": "salvo", "at": ["A 1", "A 1", "A 2"]}),
                       (turn, {"weapon": "bomber", "from": "A 1", "at": "B 2"})):
        status, _, _ = table.as_seat(seat, "POST", "/moves", body)
        assert status in (409, 422)
    # the pages' lock-in submits then locks in: a failure after the submit changes nothing
    for seat in ("red", "blue"):
        assert without_clock(table.view(seat)) == view_for(replay(events_in_store(app, table.id)),
                                                        seat)
    idle = table.as_seat(turn, "POST", "/moves", {"weapon": "salvo", "at": IDLE_SQUARES})
    assert idle[0] == 201
    assert without_clock(table.view(other)) == view_for(replay(events_in_store(app, table.id)),
                                                        other)


def test_a_finished_games_products_are_made_once(app, api, monkeypatch):
    from referee.naval_war import club
    from referee.naval_war.web import paper as printables

    rng = random.Random(10)
    table = open_table(api)
    lock_in_random_fleets(table, rng)
    play_random_game(table, rng)
    made = {"pdf": 0, "club": 0}
    postmortem, records = printables.postmortem, club.club_records

    def counted_pdf(*args, **kwargs):
        made["pdf"] += 1
        return postmortem(*args, **kwargs)

    def counted_club(*args, **kwargs):
        made["club"] += 1
        return records(*args, **kwargs)

    monkeypatch.setattr(printables, "postmortem", counted_pdf)
    monkeypatch.setattr("referee.naval_war.web.parts.club_records", counted_club)
    first = None
    for _ in range(3):
        status, _, _ = table.as_seat("red", "GET", "/postmortem")
        assert status == 200
        response = app.test_client().get(table.path("/postmortem.pdf"),
                                         headers={"Authorization":
                                                  f"Bearer {table.tokens['red']}"})
        assert response.status_code == 200
        first = first or response.data
        assert response.data == first
        assert app.test_client().get("/club").status_code == 200
    assert made == {"pdf": 1, "club": 1}


# -- imports cannot forge the club's records ------------------------------------------------

def finished_file(api: Api, seed: int = 5) -> dict:
    rng = random.Random(seed)
    table = open_table(api)
    lock_in_random_fleets(table, rng)
    play_random_game(table, rng)
    status, document, _ = table.as_seat("red", "GET", "/export")
    assert status == 200
    return document


def renamed(document: dict, names: dict[str, str]) -> dict:
    """The file with its players renamed: its signature no longer matches, so it goes, as
    an editor's would (the file is then an unverified one)."""
    edited = copy.deepcopy(document)
    edited.pop("signature")
    for event in edited["events"]:
        if event["type"] == "joined":
            event["name"] = names[event["seat"]]
    return edited


def test_the_same_game_twice_is_refused_even_with_names_edited(api, other_club):
    document = finished_file(api)
    there = Api(FlaskTransport(other_club.test_client()))
    status, first, _ = there.call("POST", f"{GAMES}/import", renamed(document,
                                                                   {"red": "Zed", "blue": "Al"}))
    assert status == 201, first
    for names in ({"red": "Zed", "blue": "Al"}, {"red": "Zed", "blue": "Bo"},
                  {"red": "Red", "blue": "Blue"}):
        edited = renamed(document, names)
        edited["id"], edited["events"][0]["id"], edited["exported_at"] = "x", "y", 1.0
        status, body, _ = there.call("POST", f"{GAMES}/import", edited)
        assert status == 409 and first["id"] in body["errors"][0]["message"], body
    page = other_club.test_client().get("/club").get_data(as_text=True)
    assert page.count(f"Game {first['id']}") == 1  # listed once, unverified: counted nowhere
    assert "0 finished games on this referee" in page and "<th scope=\"row\">Zed" not in page


def test_a_game_played_here_is_not_imported_here_again(api):
    document = finished_file(api, seed=8)
    status, body, _ = api.call("POST", f"{GAMES}/import", renamed(document,
                                                                {"red": "Zed", "blue": "Al"}))
    assert status == 409 and "already on this referee" in body["errors"][0]["message"]


def test_imported_games_are_marked_and_their_names_explained(api, other_club):
    document = finished_file(api, seed=9)
    phone = other_club.test_client()
    assert "(imported)" not in phone.get("/club").get_data(as_text=True)
    there = Api(FlaskTransport(other_club.test_client()))
    status, imported, _ = there.call("POST", f"{GAMES}/import", document)
    assert status == 201
    page = phone.get("/club").get_data(as_text=True)
    line = next(li for li in page.split("<li>") if f"Game {imported['id']}" in li)
    assert "(imported)" in line
    assert "names are as the file gave them" in page


def test_an_imported_computer_plays_a_known_level(app, api, other_club):
    game_id, red, _ = game_against_computer(api, "recruit")
    status, body, _ = api.call("PUT", f"{GAMES}/{game_id}/disposition", QUIET, token=red)
    assert status == 200
    assert api.call("POST", f"{GAMES}/{game_id}/ready", token=red)[0] == 200
    assert api.call("POST", f"{GAMES}/{game_id}/resign", token=red)[0] == 200
    status, document, _ = api.call("GET", f"{GAMES}/{game_id}/export", token=red)
    assert status == 200
    there = Api(FlaskTransport(other_club.test_client()))
    for level in ("grandmaster", "<b>x", "recruit\u200b", ""):
        forged = copy.deepcopy(document)
        forged["events"][0]["bots"] = {"blue": level}
        status, body, _ = there.call("POST", f"{GAMES}/import", forged)
        assert status == 422, (level, body)
        assert ", ".join(LEVELS) in body["errors"][0]["message"], body
    status, body, _ = there.call("POST", f"{GAMES}/import", document)
    assert status == 201, body


# -- a view's cost does not depend on what it hides -------------------------------------------

def test_a_view_is_built_once_per_version_and_seat(api, monkeypatch):
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    built = []
    real = service.views.view_text

    def counted(game, seat, move_clock):
        built.append(seat)
        return real(game, seat, move_clock)

    monkeypatch.setattr(service.views, "view_text", counted)
    first = table.view("red")
    for _ in range(5):
        assert table.view("red") == first
    assert built.count("red") <= 1  # the same bytes again, whatever the opponent's fleet
    turn = first["turn"]
    before = built.count("red")
    table.as_seat(turn, "POST", "/moves", {"weapon": "salvo", "at": IDLE_SQUARES})
    for _ in range(3):
        table.view("red")
    assert built.count("red") == before + 1


def test_two_stores_on_one_file_share_no_stale_state(tmp_path):
    """The cache is per database file: two referees on two files never mix their games."""
    one, two = Store(tmp_path / "one.db"), Store(tmp_path / "two.db")
    for db in (one, two):
        db.migrate()
    from referee.states import states_of
    assert states_of(one) is not states_of(two)
    assert states_of(one) is states_of(Store(tmp_path / "one.db"))
