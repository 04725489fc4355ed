"""On the pages: the home page's sides (R23), the order of play on the join page (R11), and the
post-mortem's steps naming players and colours."""

from __future__ import annotations

import random
import re

import pytest
from pages_support import Page, Phone, create_game, path_of

from referee.naval_war import new_game, view_for
from referee.naval_war.computer import Bot
from referee.naval_war.postmortem import step_deltas
from referee.states import replayed


def stored_game(app, game_id):
    return replayed(app.extensions["referee.store"](), game_id)


@pytest.mark.parametrize("seats, shape, sides", [
    (3, "red+green/blue", (("red", "green"), ("blue",))),
    (3, "red/blue+green", (("red",), ("blue", "green"))),
    (4, "red+blue+green/gold", (("red", "blue", "green"), ("gold",))),
    (4, "red+green/blue/gold", (("red", "green"), ("blue",), ("gold",))),
])
def test_r23_the_home_page_creates_games_in_sides_of_any_shape(app, seats, shape, sides):
    game_id, links, _ = create_game(Phone(app, "red"), seats=seats, alliances=shape)
    assert len(links) == seats - 1
    assert stored_game(app, game_id).sides == sides


def test_r23_the_home_page_names_the_shapes_in_plain_words(app):
    html = Phone(app, "red").get("/").text
    labels = [label.strip() for label in re.findall(r"<option[^>]*>([^<]*)</option>", html)]
    assert "Every player for himself" in labels
    assert "Red and Green against Blue" in labels
    assert "Red and Green against Blue and Gold" in labels
    assert "Red, Blue and Green against Gold" in labels
    assert "Red and Green against Blue against Gold" in labels


def test_r23_a_shape_for_another_number_of_players_is_refused_by_name_on_the_form(app):
    phone = Phone(app, "red")
    response = phone.submit("/", "/", {"name": "Ann", "seats": "4", "minutes": "17",
                                       "sides": "red+green/blue"})
    assert response.status_code == 200 and response.request.path == "/"
    [problem] = re.findall(r'<p class="error">([^<]*)</p>', response.text)
    assert "Red and Green against Blue is a game of three players, and you chose four" \
        in problem.replace("&#39;", "'") and "(R23)" in problem
    form = Page(response.text)
    assert form.find("input", id="name")[0].attrs["value"] == "Ann"  # as it was typed
    assert form.find("input", id="minutes")[0].attrs["value"] == "17"
    assert "Your games on this phone" not in phone.get("/").text  # nothing was created


def test_r23_a_shape_the_form_does_not_offer_is_refused(app):
    phone = Phone(app, "red")
    response = phone.submit("/", "/", {"name": "Ann", "seats": "3", "minutes": "20",
                                       "sides": "red+pink/blue"})
    assert response.status_code == 200 and response.request.path == "/"
    assert Page(response.text).find("p", **{"class": "error"})
    assert "Your games on this phone" not in phone.get("/").text


def test_r11_the_join_page_shows_the_order_drawn_at_creation(app):
    phone = Phone(app, "red")
    game_id, links, _ = create_game(phone, seats=3, alliances="red+green/blue")
    order = stored_game(app, game_id).order
    text = Phone(app, "blue").get(path_of(links["blue"])).text
    [line] = re.findall(r'<p class="order-of-play" id="order-of-play">(.*?)</p>', text, re.S)
    words = " ".join(re.sub(r"<[^>]+>", " ", line).split()).replace(" ,", ",")
    assert words.startswith("Order of play (R11), drawn when the game was created")
    seen = [w.rstrip(",.") for w in words.split(":", 1)[1].split()
            if w.rstrip(",.") in ("Red", "Blue", "Green")]
    assert seen == [s.title() for s in order]
    assert "Red and Green against Blue" in text


def test_post_mortem_steps_name_players_and_colours():
    game, _ = new_game(id="g", seats=2, seed=3)
    names = {"red": "Ann", "blue": "Bob"}
    bots = {s: Bot("recruit", seed=s) for s in game.seats}
    for seat in game.seats:
        game.join(seat, names[seat])
        game.submit(seat, bots[seat].disposition(rng=random.Random(seat)))
        game.lock_in(seat)
    while game.phase == "play":
        game.move(game.turn, bots[game.turn].move(view_for(game, game.turn)))
    steps = step_deltas(game)
    assert steps
    for step in steps:
        report = step["report"]
        by, target = (f"{names[s]} ({s.title()})" for s in (report["by"], report["target"]))
        assert step["report"]["heading"] == f"Move {report['n']}: {by} at {target}"


def test_r22_r23_the_over_page_gives_each_sides_score(app):
    from helpers import QUIET
    from pages_support import open_table, set_up

    table = open_table(app, seats=3, alliances="red+green/blue")
    set_up(table, {seat: QUIET for seat in ("red", "blue", "green")})
    for phone in table.phones.values():
        response = phone.submit(f"/games/{table.id}", f"/games/{table.id}/end")
        assert response.status_code == 200
    text = table.phones["blue"].get(f"/games/{table.id}").text
    assert "Game over" in text
    [sides] = re.findall(r'<ul class="scores sides" id="side-scores">(.*?)</ul>', text, re.S)
    items = [re.sub(r"<[^>]+>", "", li) for li in re.findall(r"<li>(.*?)</li>", sides)]
    assert items == ["Red and Green: 120 points together (R22)",
                     "Blue: 60 points (R22)"]
    assert "Red and Green win by 120 points to 60." in text
