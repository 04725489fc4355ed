"""Playing the computer through the web app: the API's `bots` option, the home page's "Play the
computer", and a computer that answers at once from its seat's view."""

from __future__ import annotations

import random
import re

import pytest
from apiclient import TableGame, choose_move
from pages_support import Phone, buy, join, lock, purchase_of, save_draft, view_of

from referee.naval_war.layout import random_purchase, scatter


def computer_table(api, level: str) -> TableGame:
    status, created, _ = api.call("POST", "/api/v1/games", {"bots": {"blue": level}})
    assert status == 201, created
    assert set(created["seats"]) == {"red"}  # no join code for the computer's seat
    status, data, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/red",
                               {"join_code": created["seats"]["red"]["join_code"],
                                "name": "Ann"})
    assert status == 200, data
    return TableGame(api, created["id"], created["host_token"], {"red": data["token"]})


@pytest.mark.parametrize("level", ["recruit", "captain", "admiral"])
def test_r10_a_computer_locks_in_at_once_and_answers_every_move(api, level):
    rng = random.Random(level)
    table = computer_table(api, level)
    view = table.view("red")
    assert view["seats"]["blue"]["bot"] == level and view["seats"]["blue"]["ready"]
    assert view["seats"]["blue"]["fingerprint"]
    status, data, _ = table.as_seat("red", "PUT", "/disposition",
                                    scatter(random_purchase(rng), rng))
    assert status == 200, data
    status, view, _ = table.as_seat("red", "POST", "/ready")
    assert status == 200 and view["phase"] == "play"
    while view["phase"] == "play":
        assert view["turn"] == "red"  # the computer has always answered already
        status, report, _ = table.as_seat("red", "POST", "/moves", choose_move(view, rng))
        assert status == 201, report
        view = table.view("red")
    assert view["result"]["reason"] == "exhausted"
    assert any(r["by"] == "blue" for r in view["reports"])


def test_r23_bots_name_a_known_level_and_leave_a_seat_for_a_player(api):
    for bots, field in (({"blue": "god"}, "bots.blue"), ({"blue": ["admiral"]}, "bots.blue"),
                        ({"red": "recruit", "blue": "recruit"}, "bots")):
        status, data, _ = api.call("POST", "/api/v1/games", {"bots": bots})
        assert status == 422, data
        assert data["errors"][0]["rule"] == "R23" and data["errors"][0]["field"] == field


def test_r21_nobody_can_take_the_computers_seat(api):
    table = computer_table(api, "recruit")
    status, data, _ = api.call("POST", f"/api/v1/games/{table.id}/seats/blue",
                               {"join_code": "guess", "name": "Eve"})
    assert status in (403, 409), data


def test_the_home_page_plays_the_computer(app):
    phone = app.test_client()
    home = phone.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', home).group(1)
    response = phone.post("/play-computer", data={"csrf_token": token, "player": "Ann",
                                                  "level": "admiral"})
    assert response.status_code == 302
    page = phone.get(response.location)
    assert page.status_code == 200 and "budget" in page.get_data(as_text=True).lower()
    bad = phone.post("/play-computer", data={"csrf_token": token, "player": "Ann",
                                             "level": "god"})
    assert bad.status_code == 400  # the home page again, the form as it was typed
    text = bad.get_data(as_text=True)
    assert "The Naval War Game has no such level; its computer plays as recruit" in text
    assert 'id="player" maxlength="40" name="player" required type="text" value="Ann"' in text \
        or 'value="Ann"' in text


def test_the_home_page_offers_each_games_own_computer_levels(app):
    """Each rule set's levels in a list of its own, each level named once; a level of another
    game sent alone is refused naming the chosen game's levels; a Broadside level starts a
    Broadside game."""
    from referee import rulesets

    phone = app.test_client()
    home = phone.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', home).group(1)
    for rules, rule_set in rulesets.RULE_SETS.items():
        [levels] = re.findall(rf'<select id="level-{rules}" name="level">(.*?)</select>', home,
                              re.S)
        labels = re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', levels)
        assert [value for value, _ in labels] == [f"{rules}:{level}" for level in rule_set.levels]
        for (_, label), level in zip(labels, rule_set.levels, strict=True):
            name = label.split(":")[0]
            assert name.lower() == level and not label.lower().startswith(f"{level}: {level}")
    other = [r for r in rulesets.RULE_SETS if r != rulesets.DEFAULT][-1]
    level = next(iter(rulesets.RULE_SETS[other].levels))
    wrong = phone.post("/play-computer", data={"csrf_token": token, "player": "Ann",
                                               "rules": rulesets.DEFAULT,
                                               "level": f"{other}:{level}"})
    assert wrong.status_code == 400 and "has no such level" in wrong.get_data(as_text=True)
    right = phone.post("/play-computer", data={"csrf_token": token, "player": "Ann",
                                               "rules": other, "level": f"{other}:{level}"})
    assert right.status_code == 302, right.get_data(as_text=True)[-400:]
    assert phone.get(right.location).status_code == 200


def test_r13_a_computer_whose_move_is_refused_falls_back_to_a_legal_one(api, monkeypatch,
                                                                         caplog):
    from referee.naval_war import computer as bots

    rng = random.Random(1)
    table = computer_table(api, "admiral")
    table.as_seat("red", "PUT", "/disposition", scatter(random_purchase(rng), rng))
    original = bots.Bot.move

    def blunder(self, view):
        if self.level == "admiral":
            return {"weapon": "salvo", "at": ["A 1", "A 1", "A 1"]}  # R12: not three squares
        return original(self, view)

    monkeypatch.setattr(bots.Bot, "move", blunder)
    status, view, _ = table.as_seat("red", "POST", "/ready")
    assert status == 200 and view["phase"] == "play"
    while view["phase"] == "play" and len(view["reports"]) < 6:
        assert view["turn"] == "red"
        status, report, _ = table.as_seat("red", "POST", "/moves", choose_move(view, rng))
        assert status == 201, report
        view = table.view("red")
    assert any(r["by"] == "blue" for r in view["reports"])
    refusals = [r for r in caplog.records if "refused" in r.getMessage()]
    assert refusals and all("R12" in r.getMessage() for r in refusals)
    # R21: the log names the ruling, never a square of anyone's chart
    leaks = [r.getMessage() for r in caplog.records if r.name == "referee"
             and (re.search(r"\b[A-U] \d{1,2}\b", r.getMessage()) or r.exc_info)]
    assert not leaks, leaks


def test_r14_the_page_says_the_computer_plays_on_when_offered_to_end(app, api):
    """Red taps "Agree to end" against the computer: the page he lands on says the computer
    played on and the offer lapsed, offers no answer to wait for, and the game goes on."""
    status, created, _ = api.call("POST", "/api/v1/games", {"bots": {"blue": "captain"}})
    assert status == 201, created
    game_id = created["id"]
    red = Phone(app, "red")
    join(red, created["seats"]["red"]["join_url"], "Ann")
    rng = random.Random(14)
    fleet = scatter(random_purchase(rng), rng)
    assert buy(red, game_id, purchase_of(fleet)).status_code == 200
    assert save_draft(red, game_id, fleet).status_code == 200
    assert "Game over" not in lock(red, game_id).text
    response = red.submit(f"/games/{game_id}", f"/games/{game_id}/end")
    assert red.flashes(response) == [
        "You offered to end the game; the computer plays on, so the offer has lapsed. "
        "Play on, or resign."]
    assert "agreed to end." not in response.text and "asks to end" not in response.text
    assert view_of(red, game_id)["phase"] == "play"
