"""The computer levels of Broadsides and Boarding Parties (BB5, BB25; R21, R25).

Weakest first, each named with one line for the home page; every level plays whole games
legally from its own seat's view (seeded, the same game for the same seed); each orders alike
whatever the other seat sealed (it is handed nothing else); and the stronger levels reckon as
their lines say: a broadside that bears is worth more than one that is borne on, a boarding is
sought when stronger in crew and shunned when weaker, and the cannons aim where a die hurts
most. How strong each level is against the next is measured by
``bench/boarding_duel_bench.py`` and ``referee ladder`` (docs/broadsides-boarding.md), never
asserted here.
"""

from __future__ import annotations

import copy
import html
import json
import re

import pytest
from boarding_support import in_play, order, place, plots, view

from referee.broadsides_boarding.computer import ROSTER, bosun, commodore, computer, deckhand
from referee.broadsides_boarding.computer.sailing import Ship
from referee.broadsides_boarding.rule_set import RULE_SET
from referee.match import play

LEVELS = ["deckhand", "gunner", "bosun", "commodore"]  # weakest first
STAY = ["stay", "stay", "stay"]


def test_at_least_three_levels_weakest_first_each_with_one_line():
    assert list(RULE_SET.levels) == LEVELS == list(ROSTER.descriptions)
    assert RULE_SET.stand_in_level == "deckhand"
    for level, line in RULE_SET.levels.items():
        assert line and "\n" not in line and len(line) < 120, level
        assert computer(level, 1).level == level


@pytest.mark.parametrize(("red", "blue"), [("deckhand", "commodore"), ("gunner", "bosun"),
                                           ("commodore", "bosun"), ("bosun", "gunner")])
def test_bb26_every_level_plays_whole_games_legally_from_its_own_view(red, blue):
    """Every order a level gives is taken by the core (a refusal would raise) and none falls
    back on the simplest level; the game ends; the same seed plays the same game."""
    for seed in (3, 4):
        match = play(RULE_SET, {"red": red, "blue": blue}, seed)
        assert match.finished and match.failures == [], (seed, match.failures)
        assert match.result["reason"] in ("sunk", "captain", "crew"), match.result
    again = play(RULE_SET, {"red": red, "blue": blue}, 4)
    assert [r["order"] for r in again.game.reports] == [r["order"] for r in match.game.reports]


def sealed_then_blue(red_order: dict, stage: str) -> dict:
    """Blue's view once Red has sealed ``red_order``: at the first plot, or at a volley's
    declarations (the ships abeam, both to declare)."""
    game = in_play()
    if stage == "declaration":
        place(game, red=("F 6", "N"), blue=("G 6", "N"))
        plots(game, STAY, STAY)
        assert game.owed == {"red": "declaration", "blue": "declaration"}
    order(game, "red", red_order)
    return view(game, "blue")


@pytest.mark.parametrize("level", LEVELS)
def test_r25_each_level_orders_alike_whatever_the_other_sealed(level):
    """Blue's view, and so each level's order from it, is the same bytes whatever Red
    plotted or declared: nothing of a sealed order reaches the computer (BB5, BB10)."""
    for stage, orders in (("plot", [{"cards": c} for c in (STAY, ["forward"] * 3,
                                                            ["port", "forward", "starboard"])]),
                          ("declaration", [{"targets": dict.fromkeys(
                              ["B5", "C5", "D5", "E5", "F5"], section)} for section in "ACH"])):
        views = [sealed_then_blue(o, stage) for o in orders]
        assert len({json.dumps(v, sort_keys=True) for v in views}) == 1, stage
        answers = {json.dumps(computer(level, 7).move(v), sort_keys=True) for v in views}
        assert len(answers) == 1, (stage, answers)


def abeam_view() -> dict:
    """Red's view with Red at F 6 and Blue at H 4, both heading north, nobody damaged."""
    game = in_play()
    place(game, red=("F 6", "N"), blue=("H 4", "N"))
    return view(game, "red")


def test_the_stronger_levels_value_their_broadside_bearing_and_shun_his():
    """A card that leaves Blue abeam of Red (Red's five starboard cannons bear, none of his)
    is worth a volley to Red; Blue with Red abeam of him is worth as much against Red; bow to
    bow (one cannon each at most) is worth nearly nothing either way."""
    v = abeam_view()
    plotter = bosun.Plotter(v, v["legal"])
    me = Ship.of({"at": "F 6", "heading": "N"})
    beside = Ship.of({"at": "G 6", "heading": "N"})  # Red's starboard beam: both broadsides
    assert plotter.volley(me, Ship.of({"at": "G 6", "heading": "W"})) > 1.0  # he is bow-on
    assert plotter.volley(Ship.of({"at": "F 6", "heading": "E"}), beside) < -1.0  # we are
    assert abs(plotter.volley(me, beside)) < 0.01  # broadside for broadside, crews alike


def weaker_in_crew(v: dict, seat: str, by: int) -> dict:
    v = copy.deepcopy(v)
    crew = v["crews"][seat]
    for place_ in sorted(crew["crew"])[:by]:
        crew["crew"][place_] -= 1
    crew["crew"] = {p: n for p, n in crew["crew"].items() if n}
    crew["pieces"] -= by
    return v


@pytest.mark.parametrize("plotter", [bosun.Plotter, commodore.Plotter])
def test_bb17_a_boarding_is_sought_when_stronger_in_crew_and_shunned_when_weaker(plotter):
    v = abeam_view()
    before = (Ship.of({"at": "F 6", "heading": "N"}), Ship.of({"at": "G 6", "heading": "W"}))
    stronger = plotter(weaker_in_crew(v, "blue", 8), v["legal"]).collision(*before)
    weaker = plotter(weaker_in_crew(v, "red", 8), v["legal"]).collision(*before)
    assert stronger > 10 and weaker < -10


def test_bb11_the_cannons_aim_where_a_die_hurts_most():
    """With Blue's Captain alone at his C5 rail and a section one marker from beyond repair,
    the bosun's and the commodore's cannons go there, not where a die does nothing."""
    game = in_play(blue="C5")
    place(game, red=("F 6", "N"), blue=("G 6", "N"))
    game.ships["blue"].hull["E"] = 1
    plots(game, STAY, STAY)
    v = view(game, "red")
    for level in ("bosun", "commodore"):
        aimed = computer(level, 1).move(v)["targets"]
        assert set(aimed) == set(v["legal"]["cannons"])
        assert set(aimed.values()) <= {"C", "E"} and "C" in aimed.values(), aimed


def test_a_boarding_that_neither_side_presses_ends():
    """Two lone Captains (or a side that only guards) would circle for ever: after a while
    the stronger levels go for the other Captain, so a boarding ends."""
    for seed in range(2):
        match = play(RULE_SET, {"red": "commodore", "blue": "bosun"}, 100 + seed,
                     max_moves=400)
        assert match.finished, seed


def test_two_levels_that_sail_for_where_the_other_was_do_not_circle_for_ever():
    """The commodore and the gunner, each plotting toward where the other stood, once swapped
    dots two apart round after round with the same three cards and never met (BB2, BB8):
    after rounds that bring the ships no nearer, a level varies its plot, and the game ends."""
    match = play(RULE_SET, {"red": "commodore", "blue": "gunner"}, 956523682424107605,
                 first="blue", max_moves=300)
    assert match.finished and match.moves < 300


def test_a_round_that_brought_the_ships_no_nearer_is_counted_until_they_meet():
    def turned(red: tuple[str, str], blue: tuple[str, str]) -> dict:
        return {"happened": [
            {"what": "card", "card": 1, "ships": {"red": {"from": red[0], "to": red[0]},
                                                  "blue": {"from": blue[0], "to": blue[0]}}},
            {"what": "card", "card": 3, "ships": {"red": {"from": red[0], "to": red[1]},
                                                  "blue": {"from": blue[0], "to": blue[1]}}},
            {"what": "round"}]}

    circling = turned(("I 9", "J 8"), ("I 7", "H 8"))  # two apart before and after
    closing = turned(("A 1", "B 2"), ("E 5", "D 4"))
    met = {"happened": [{"what": "no volley"}]}
    assert deckhand.stalled_rounds({"reports": [closing, circling, circling]}) == 2
    assert deckhand.stalled_rounds({"reports": [circling, circling, closing]}) == 0
    assert deckhand.stalled_rounds({"reports": [circling, met, circling]}) == 1
    assert deckhand.stalled_rounds({"reports": []}) == 0


def test_the_home_form_names_every_level(app):
    """The home page's "Play the computer" offers Broadsides and Boarding Parties' four
    levels, each named with its line."""
    home = html.unescape(app.test_client().get("/").get_data(as_text=True))
    [offered] = re.findall(r'<select id="level-broadsides-boarding" name="level">(.*?)</select>',
                           home, re.S)
    for level, line in RULE_SET.levels.items():
        assert f'value="broadsides-boarding:{level}"' in offered
        assert f"{level.capitalize()}: {line[0].lower()}{line[1:]}" in offered, level


def test_each_choice_is_drawn_from_the_computers_seed_and_its_view():
    v = abeam_view()
    for level in LEVELS:
        assert computer(level, 5).move(v) == computer(level, 5).move(copy.deepcopy(v))
