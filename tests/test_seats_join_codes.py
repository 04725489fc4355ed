"""A seat's join code (R24): derived from the installation's secret key and the seat's join
generation, stored nowhere, shown only on the host page and its QR codes; a reissue moves the
generation on, so the old link stops working. The schema is the migrations' alone."""

from __future__ import annotations

import json
import re
import sqlite3
from urllib.parse import parse_qs, urlsplit

import pytest
from pages_support import Page, Phone, create_game, join, make_app, path_of

from referee import create_app, rulesets
from referee.store import MIGRATIONS, Store, digest


def _tables(database: str) -> dict[str, list[str]]:
    connection = sqlite3.connect(database)
    try:
        names = [r[0] for r in connection.execute(
            "select name from sqlite_master where type = 'table'")]
        return {name: [c[1] for c in connection.execute(f'pragma table_info("{name}")')]
                for name in names}
    finally:
        connection.close()


def _cells(database: str) -> str:
    connection = sqlite3.connect(database)
    try:
        return "\n".join(str(value) for (name,) in connection.execute(
            "select name from sqlite_master where type = 'table'")
            for row in connection.execute(f'select * from "{name}"') for value in row)
    finally:
        connection.close()


def _code(link: str) -> str:
    return parse_qs(urlsplit(link).query)["code"][0]


def test_r24_a_join_code_is_stored_nowhere_and_works_only_under_the_installations_key(
        tmp_path):
    """The host page's link for Blue holds a code the database does not (not sealed, not
    hashed: no table beyond the migrations' own), and which the same database under another
    secret key does not accept: the code is the key's, not the database's."""
    app = make_app(tmp_path)
    red = Phone(app, "red")
    game_id, links, _ = create_game(red, seats=3)
    database = app.config["DATABASE"]
    blue_code, green_code = _code(links["blue"]), _code(links["green"])
    assert len(blue_code) >= 22 and blue_code != green_code
    tables = _tables(database)
    assert not {"join_urls", "join_links"} & set(tables), sorted(tables)
    assert "join_hash" not in tables["seats"] and "join_generation" in tables["seats"]
    everything = _cells(database)
    for code in (blue_code, green_code):
        assert code not in everything and digest(code) not in everything
    qr = red.get(f"/games/{game_id}/qr/blue.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert red.get(f"/games/{game_id}/qr/red.svg").status_code == 404  # taken: no link

    elsewhere = create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "another key",
                            "PUBLIC_URL": "http://localhost"}).test_client()
    refused = elsewhere.post(f"/api/v1/games/{game_id}/seats/blue",
                             json={"join_code": blue_code, "name": "Bob"})
    assert refused.status_code == 403, refused.data[:300]
    green = Phone(app, "green")
    assert join(green, links["green"], "Gil").request.path == f"/games/{game_id}"


def test_r24_a_reissue_gives_a_new_code_and_the_old_link_and_qr_code_stop_working(tmp_path):
    app = make_app(tmp_path)
    red = Phone(app, "red")
    game_id, links, _ = create_game(red)
    qr_before = red.get(f"/games/{game_id}/qr/blue.svg").data
    red.submit(f"/games/{game_id}/host", f"/games/{game_id}/host/reissue/blue")
    page = Page(red.get(f"/games/{game_id}/host").text)
    new_link = page.find("input", id="link-blue")[0].attrs["value"]
    assert _code(new_link) != _code(links["blue"])
    assert red.get(f"/games/{game_id}/qr/blue.svg").data != qr_before
    old = Phone(app, "old")
    assert join(old, links["blue"], "Mallory").status_code == 403
    blue = Phone(app, "blue")
    assert join(blue, new_link, "Bob").request.path == f"/games/{game_id}"
    assert join(Phone(app, "late"), new_link, "Eve").status_code == 409  # it works once


def _old_database(path) -> tuple[str, str, str, str]:
    """A database as the referee left it before join codes were derived (migrations up to
    0008): a game whose Red is seated, whose Blue's random code is kept as a hash, with the
    host page's sealed copy in ``join_urls``, made by an upsert on first write."""
    store = Store(path)
    store.db["migrations"].create({"name": str, "applied_at": float}, pk="name")
    for name, step in MIGRATIONS[:8]:
        step(store.db)
        store.db["migrations"].insert({"name": name, "applied_at": 0.0})
    game_id, host_token, red_token, old_code = "0a1b2c3d4e", "host-token", "red-token", "x" * 22
    store.db["games"].insert({"id": game_id, "created_at": 0.0, "host_hash": digest(host_token),
                              "rules": "naval-war"})
    store.db["seats"].insert_all([
        {"game_id": game_id, "seat": "red", "join_hash": digest("y" * 22), "claimed": 1,
         "token_hash": digest(red_token)},
        {"game_id": game_id, "seat": "blue", "join_hash": digest(old_code), "claimed": 0,
         "token_hash": None}])
    game, _ = rulesets.named("naval-war").new_game(id=game_id, seed=1, at=0.0, bots={},
                                                    options={})
    game.join("red", "Ann")
    store.db["events"].insert_all(  # as that referee appended them: no streams' notes yet
        {"game_id": game_id, "seq": n, "type": event["type"], "body": json.dumps(event),
         "at": 0.0} for n, event in enumerate(game.events, 1))
    store.db["join_urls"].upsert({"game_id": game_id, "seat": "blue", "body": json.dumps(
        {"nonce": "00", "sealed": "ff"})}, pk=("game_id", "seat"))
    store.close()
    return game_id, host_token, red_token, old_code


def test_the_migration_drops_the_kept_join_codes_and_an_older_games_open_seat_joins_by_the_host_pages_link(  # noqa: E501
        tmp_path):
    """The choice for a game made before: its seated players keep their seats, and a seat
    not yet taken has the derived code, which the host page shows at once (no reissue
    needed); the random code handed out before no longer works."""
    database = str(tmp_path / "old.db")
    game_id, host_token, red_token, old_code = _old_database(database)
    events = sqlite3.connect(database).execute("select body from events").fetchall()
    app = make_app(tmp_path, DATABASE=database)
    tables = _tables(database)
    assert not {"join_urls", "join_links"} & set(tables), sorted(tables)
    assert "join_hash" not in tables["seats"]
    assert sqlite3.connect(database).execute("select body from events").fetchall() == events

    api = app.test_client()
    view = api.get(f"/api/v1/games/{game_id}", headers={"Authorization": f"Bearer {red_token}"})
    assert view.status_code == 200, view.data[:300]
    assert api.post(f"/api/v1/games/{game_id}/seats/blue",
                    json={"join_code": old_code, "name": "Bob"}).status_code == 403
    host = Phone(app, "host")
    with host.client.session_transaction() as held:
        held["host"] = {game_id: host_token}
    page = Page(host.get(f"/games/{game_id}/host").text)
    link = page.find("input", id="link-blue")[0].attrs["value"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", _code(link))
    blue = Phone(app, "blue")
    assert join(blue, link, "Bob").request.path == f"/games/{game_id}", path_of(link)


def test_a_seats_note_is_kept_only_in_a_table_the_migrations_made(tmp_path):
    store = Store(tmp_path / "notes.db")
    store.migrate()
    before = set(store.db.table_names())
    with pytest.raises(ValueError, match="not a table of notes"):
        store.keep_note("join_urls", "g", "blue", {"code": "x"})
    store.keep_note("marks", "g", "blue", {"red": {"A 1": "x"}})
    store.keep_note("marks", "g", "blue", {"red": {"B 2": "o"}})  # replaced in place
    assert set(store.db.table_names()) == before
    assert store.note("marks", "g", "blue") == {"red": {"B 2": "o"}}


def test_a_seats_drafts_are_one_row_of_one_table_and_the_migration_keeps_both(tmp_path):
    """The pages' working draft (a note) and the checked draft disposition with its revision
    live in one ``drafts`` table, one row a seat; a database that kept them in two tables
    (migrations to 0016) keeps both, and the second table goes."""
    store = Store(tmp_path / "drafts.db")
    store.db["migrations"].create({"name": str, "applied_at": float}, pk="name")
    for name, step in MIGRATIONS[:16]:
        step(store.db)
        store.db["migrations"].insert({"name": name, "applied_at": 0.0})
    note, red, blue = {"purchase": {"battleship": 1}}, {"salvoes": 3}, {"salvoes": 4}
    store.db["drafts"].insert({"game_id": "g", "seat": "red", "body": json.dumps(note)})
    store.db["disposition_drafts"].insert_all([
        {"game_id": "g", "seat": "red", "body": json.dumps(red), "rev": 3},
        {"game_id": "g", "seat": "blue", "body": json.dumps(blue), "rev": 1}])
    assert store.migrate()[0] == "0017_one_drafts_table"
    assert "disposition_drafts" not in store.db.table_names()
    assert store.note("drafts", "g", "red") == note and store.draft("g", "red") == (red, 3)
    assert store.note("drafts", "g", "blue") is None and store.draft("g", "blue") == (blue, 1)
    assert store.view_stamp("g", "red")[1] == 3
    store.keep_draft("g", "red", blue)
    assert store.draft("g", "red") == (blue, 4) and store.note("drafts", "g", "red") == note
    store.drop_draft("g", "red")  # locked in: the draft goes, the pages' note stays
    assert store.draft("g", "red") is None and store.draft_revision("g", "red") == 0
    assert store.note("drafts", "g", "red") == note
    store.drop_draft("g", "blue")
    assert store.db["drafts"].count == 1  # a seat with neither keeps no row
    store.forget_drafts("g", "red")  # a reissued seat: nothing is handed on (R24)
    assert store.note("drafts", "g", "red") is None and store.db["drafts"].count == 0
