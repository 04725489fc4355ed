"""Placement on the server: a new budget takes off what it no longer buys, "Place the rest for me"
(random from the server's secret randomness, R6-R9), a fleet from the book, the icons and manifest,
a taken join link, the home page's games and the waiting page."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from pages_support import (
    FLEETS,
    PURCHASE,
    Page,
    Phone,
    buy,
    fleet_squares,
    lock,
    make_app,
    open_table,
    path_of,
    purchase_of,
    save_draft,
    set_up,
    squares_named,
)
from test_illustrative_games import ILLUSTRATIVE

from referee.naval_war import check_disposition
from referee.naval_war.book import BOOK_FLEETS
from referee.naval_war.web import pages


@pytest.fixture
def app(tmp_path):
    return make_app(tmp_path)


@pytest.fixture
def table(app):
    return open_table(app)


def place_page(phone: Phone, game_id: str) -> dict:
    response = phone.get(f"/games/{game_id}")
    assert response.status_code == 200 and "Place your fleet" in response.text, response.text[:400]
    return Page(response.text).page_data()


def fill(phone: Phone, game_id: str, document: dict):
    token = phone.csrf(f"/games/{game_id}")
    return phone.post_json(f"/games/{game_id}/draft/fill", {"disposition": document},
                           token=token)


# -- a new budget reconciles the placement ------------------------------------------------------

def test_fewer_guns_bought_takes_the_placed_ones_off_and_the_seat_locks_in(table):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    assert save_draft(red, table.id, FLEETS["red"]).get_json()["complete"]
    fewer = {**PURCHASE, "aa-gun": 2, "salvo": PURCHASE["salvo"] + 4}  # still 60 on forces
    response = buy(red, table.id, fewer, page=f"/games/{table.id}?budget=1")
    guns = FLEETS["red"]["guns"]
    flashed = " ".join(red.flashes(response))
    assert "Taken off the chart" in flashed and "R5" in flashed, flashed
    assert all(f"A-A gun at {g}" in flashed for g in guns[2:]), flashed
    data = Page(response.text).page_data()
    assert data["disposition"]["guns"] == guns[:2]  # the first placed stay
    assert data["disposition"]["ships"] == FLEETS["red"]["ships"]
    response = lock(red, table.id)
    assert response.status_code == 200 and "Locked in" in response.text, response.text[:500]


def test_no_guns_bought_leaves_no_gun_behind(table):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    document = {**FLEETS["red"], "guns": FLEETS["red"]["guns"] + FLEETS["red"]["guns"][:1]}
    save_draft(red, table.id, document)  # a stacked gun from an old page is taken off at once
    none = {**PURCHASE, "aa-gun": 0, "salvo": PURCHASE["salvo"] + PURCHASE["aa-gun"]}
    buy(red, table.id, none, page=f"/games/{table.id}?budget=1")
    assert place_page(red, table.id)["disposition"]["guns"] == []


def test_a_new_budget_keeps_everything_still_bought_silently(table):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    save_draft(red, table.id, FLEETS["red"])
    more = {**PURCHASE, "salvo": PURCHASE["salvo"] + 5}
    response = buy(red, table.id, more, page=f"/games/{table.id}?budget=1")
    assert not any("Taken off" in f for f in red.flashes(response))
    data = Page(response.text).page_data()
    assert {k: data["disposition"][k] for k in ("land", "ships", "aircraft", "guns")} == {
        k: FLEETS["red"][k] for k in ("land", "ships", "aircraft", "guns")}


def test_draft_of_garbage_is_kept_as_text_and_never_a_500(table):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    for junk in ({"guns": [1, None, {"a": 1}], "ships": ["x", {"type": ["carrier"]}]},
                 {"aircraft": [{"type": "bomber", "at": 7}], "land": "A 1"}, {"guns": "A 1"}):
        response = save_draft(red, table.id, junk)
        assert response.status_code == 200, response.text
        assert fill(red, table.id, junk).status_code in (200, 422)


# -- place the rest for me; a fleet from the book -----------------------------------------------

def test_place_the_rest_keeps_what_was_placed_and_is_legal(table):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    partial = {"land": FLEETS["red"]["land"][:1], "ships": FLEETS["red"]["ships"][:5],
               "aircraft": [], "guns": FLEETS["red"]["guns"][:2]}
    result = fill(red, table.id, partial).get_json()
    assert result["complete"], result
    filled = result["disposition"]
    for key, items in partial.items():
        assert filled[key][:len(items)] == items, key
    fleet, cost, _ = check_disposition({**filled, "salvoes": PURCHASE["salvo"]})
    assert purchase_of({**filled, "salvoes": PURCHASE["salvo"]}) == PURCHASE
    assert result["placed"] and all(isinstance(t, str) for t in result["placed"])
    assert place_page(red, table.id)["disposition"] == filled  # kept as the draft
    assert lock(red, table.id).status_code == 200


def test_place_the_rest_comes_from_the_servers_secret_randomness(table, monkeypatch):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    made = []

    class Spy(random.SystemRandom):
        def __init__(self):
            made.append(self)
            super().__init__()

    monkeypatch.setattr(pages.secrets, "SystemRandom", Spy)
    layouts = {repr(fill(red, table.id, {}).get_json()["disposition"]) for _ in range(3)}
    assert len(made) == 3 and len(layouts) == 3  # three fresh, different layouts


def test_place_the_rest_says_so_when_there_is_no_room(table):
    red = table.phones["red"]
    buy(red, table.id, PURCHASE)
    crowded = {"land": [f"{c} {r}" for c in "ADGJMPS" for r in (1, 4, 7, 10, 13, 16, 19)],
               "ships": [], "aircraft": [], "guns": []}  # land everywhere: no sea for ships
    response = fill(red, table.id, crowded)
    assert response.status_code == 422, response.text
    assert "no room" in response.get_json()["errors"][0]["message"]


def test_place_the_rest_refuses_without_budget_token_or_object(table):
    red = table.phones["red"]
    assert fill(red, table.id, {}).status_code == 409  # no budget yet (R3)
    buy(red, table.id, PURCHASE)
    response = red.post_json(f"/games/{table.id}/draft/fill", {"disposition": {}}, token=None)
    assert response.status_code == 400
    token = red.csrf(f"/games/{table.id}")
    for body in ([], {"disposition": []}, {"disposition": "x"}):
        response = red.post_json(f"/games/{table.id}/draft/fill", body, token=token)
        assert response.status_code == 400, body
    stranger = Phone(table.app, "stranger")
    assert fill(stranger, table.id, {}).status_code == 403


def test_the_books_fleets_are_the_rulebooks(table):
    text = {(game, side): purchase for (game, side), (purchase, _) in ILLUSTRATIVE.items()}
    assert {key: purchase for key, (_, purchase) in BOOK_FLEETS.items()} == {
        f"{game.replace(' ', '-')}-{side}": p for (game, side), p in text.items()}


def test_a_fleet_from_the_book_is_bought_in_one_tap(table):
    red = table.phones["red"]
    page = f"/games/{table.id}"
    response = red.submit(page, f"{page}/budget/book", {"fleet": "game-3-blue"})
    assert response.status_code == 200 and "Place your fleet" in response.text
    assert "Game 3, Blue" in " ".join(red.flashes(response))
    assert place_page(red, table.id)["purchase"] == BOOK_FLEETS["game-3-blue"][1]
    result = fill(red, table.id, {}).get_json()
    assert result["complete"]
    response = red.submit(f"{page}?budget=1", f"{page}/budget/book", {"fleet": "game-9"})
    assert "Choose one of the book's fleets" in " ".join(red.flashes(response))
    assert place_page(red, table.id)["purchase"] == BOOK_FLEETS["game-3-blue"][1]


# -- icons, a taken link, the home page, the waiting page ---------------------------------------

def test_favicon_touch_icon_and_manifest_are_served(client):
    ico = client.get("/favicon.ico")
    assert ico.status_code == 200 and ico.data[:4] == b"\x00\x00\x01\x00"
    for path in ("/apple-touch-icon.png", "/apple-touch-icon-precomposed.png"):
        png = client.get(path)
        assert png.status_code == 200 and png.data[:8] == b"\x89PNG\r\n\x1a\n", path
        assert png.data[16:24] == (180).to_bytes(4, "big") * 2  # 180 x 180
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.mimetype == "application/manifest+json"
    document = manifest.get_json()
    assert document["short_name"] == "Referee" and document["display"] == "standalone"
    for icon in document["icons"]:
        assert client.get(icon["src"]).status_code == 200, icon


def test_an_old_join_link_says_the_seat_is_taken_at_once(table):
    link = path_of(table.links["blue"])
    late = Phone(table.app, "late")
    response = late.get(link)
    assert response.status_code == 200 and "This seat is taken" in response.text
    forms = [f.attrs.get("action") for f in Page(response.text).forms]
    # no join form to fill in for nothing; only the recovery code's form (R24)
    assert forms == [f"/games/{table.id}/recover"], forms
    blue = table.phones["blue"]  # the phone that holds it goes straight to its game
    response = blue.get(link, follow=False)
    assert response.status_code == 302 and response.headers["Location"].endswith(
        f"/games/{table.id}")


def test_an_unclaimed_seat_still_offers_the_form(app):
    red = Phone(app, "red")
    from pages_support import create_game

    _, links, _ = create_game(red)
    response = Phone(app, "bob").get(path_of(links["blue"]))
    assert "This seat is taken" not in response.text and Page(response.text).forms


def test_r21_home_lists_each_game_with_names_phase_and_turn(table):
    red, blue = table.phones["red"], table.phones["blue"]
    home = red.get("/").text
    assert "Blue (Blue)" in home and "fleet is still to place" in home
    assert f"Game {table.id}" not in home  # names, not bare ids
    set_up(table, FLEETS)
    turn = red.get(f"/games/{table.id}/status").get_json()["turn"]
    for seat, phone in (("red", red), ("blue", blue)):
        home = phone.get("/").text
        assert "In play" in home
        assert ("your turn" in home) == (turn == seat), (seat, turn)
        other = "blue" if seat == "red" else "red"
        assert not squares_named(home) & fleet_squares(FLEETS[other])  # R21


def test_the_waiting_page_carries_your_own_chart_only(table):
    red = table.phones["red"]
    buy(red, table.id, purchase_of(FLEETS["red"]))
    save_draft(red, table.id, FLEETS["red"])
    response = lock(red, table.id)
    assert "Locked in" in response.text
    data = Page(response.text).page_data()
    assert data["view"]["disposition"]["ships"] == FLEETS["red"]["ships"]
    assert data["view"]["you"] == "red"
    assert "Blue" not in repr(Counter(data["view"].get("revealed") or {}))
