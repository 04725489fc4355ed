"""Broadsides and Boarding Parties, ruling by ruling (BB1-BB26), at the core: each test sets up
the moment a ruling speaks to (the ships placed, the dice chosen by logging a move's rolls) and
checks what the referee does, refuses and tells."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from boarding_support import SECRET, in_play, last_happened, order, place, plots, view

from referee.broadsides_boarding import deck, sea
from referee.broadsides_boarding.game import Game
from referee.broadsides_boarding.rule_set import RULE_SET
from referee.common import dice
from referee.common.problems import RuleViolation

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "broadsides-boarding.md").read_text()
STAY = ["stay", "stay", "stay"]


def refused(action, rule: str, field: str | None = None) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        action()
    assert rule in [p.rule for p in caught.value.problems], caught.value
    if field is not None:
        assert field in [p.field for p in caught.value.problems], caught.value
    return caught.value


def volley_ready(**ships) -> Game:
    """Red at F 6 and Blue at G 6, both facing north: Red's starboard side bears (B5-F5),
    Blue's port (B3-F3); both plot three Remain in Place, so card 1 opens a volley."""
    game = in_play()
    place(game, red=ships.get("red", ("F 6", "N")), blue=ships.get("blue", ("G 6", "N")))
    plots(game, STAY, STAY)
    return game


# -- the sea --------------------------------------------------------------------------------

def test_bb1_the_sea_is_a_rectangle_with_islands_and_starts_the_same_after_a_half_turn():
    assert len(sea.COLUMNS) >= 15 and sea.ROWS >= 11
    assert 3 <= len(sea.SEA["islands"]) <= 5
    assert {sea.half_turn(d) for d in sea.ISLANDS} == set(sea.ISLANDS)
    assert all(sea.half_turn(sea.half_turn(d)) == d for d in sea.DOTS)
    red, blue = sea.STARTS["red"], sea.STARTS["blue"]
    assert sea.half_turn(red["at"]) == blue["at"]
    assert sea.turned(red["heading"], 4) == blue["heading"]
    assert sea.coordinates(red["at"])[0] < 3 and sea.coordinates(blue["at"])[0] > 11
    assert red["at"] not in sea.ISLANDS and blue["at"] not in sea.ISLANDS


def test_bb1_the_docs_list_every_point_of_the_sea_and_the_view_serves_it():
    section = DOC.split("#### Every point", 1)[1].split("### BB2", 1)[0]
    for island in sea.SEA["islands"]:
        line = next(ln for ln in section.splitlines() if island["name"] in ln)
        assert re.findall(r"[A-O] \d{1,2}", line) == island["dots"], island
    drawing = DOC.split("```", 2)[1].splitlines()[2:]
    for row, line in enumerate(drawing[:sea.ROWS], start=1):
        marks = line.split()[1:1 + len(sea.COLUMNS)]
        for column, mark in zip(sea.COLUMNS, marks, strict=True):
            dot = f"{column} {row}"
            expected = "#" if dot in sea.ISLANDS else "R" if dot == sea.STARTS["red"]["at"] \
                else "B" if dot == sea.STARTS["blue"]["at"] else "."
            assert mark == expected, (dot, mark)
    game = in_play()
    assert view(game, "red")["sea"] == json.loads((ROOT / "referee" / "broadsides_boarding"
                                                   / "sea.json").read_text())
    assert RULE_SET.catalogue()["sea"] == view(game, "blue")["sea"]


def test_bb2_ships_start_facing_each_other_and_sail_and_turn_by_the_cards():
    game = in_play()
    assert (game.ships["red"].at, game.ships["red"].heading) == ("B 6", "E")
    assert (game.ships["blue"].at, game.ships["blue"].heading) == ("N 6", "W")
    place(game, red=("C 8", "NE"), blue=("M 2", "W"))
    plots(game, ["forward", "starboard", "forward"], ["port", "port", "stay"])
    assert (game.ships["red"].at, game.ships["red"].heading) == ("E 7", "E")
    assert (game.ships["blue"].at, game.ships["blue"].heading) == ("M 2", "S")
    assert sea.ahead("B 6", "NW") == "A 5" and sea.turned("NW", 1) == "N"


def test_bb3_a_move_onto_an_island_or_off_the_sea_is_not_made_and_the_rest_is_lost():
    game = in_play()
    place(game, red=("G 6", "E"), blue=("A 1", "N"))
    plots(game, ["forward", "starboard", "forward"], ["forward", "starboard", "forward"])
    assert (game.ships["red"].at, game.ships["red"].heading) == ("G 6", "E")  # H 6 is reef
    assert (game.ships["blue"].at, game.ships["blue"].heading) == ("A 1", "N")  # the edge
    cards = [e for r in game.reports for e in r["happened"] if e["what"] == "card"]
    assert cards[0]["ships"]["red"]["blocked"] and cards[1]["ships"]["red"]["idle"]
    assert game.ships["red"].hull == dict.fromkeys(deck.SECTIONS, 0)  # no damage


def test_bb3_two_diagonal_island_dots_do_not_block_a_diagonal_move_between_them():
    game = in_play()
    place(game, red=("D 3", "NE"), blue=("N 10", "W"))  # between D 2 and E 3, onto E 2? no:
    place(game, red=("D 3", "SE"))  # D 3 to E 4: between E 3 (island) and D 4 (sea)
    plots(game, ["forward", "stay", "stay"], STAY)
    assert game.ships["red"].at == "E 4"
    game = in_play()
    place(game, red=("J 4", "NE"), blue=("N 10", "W"))  # J 4 to K 3: an island dot itself
    plots(game, ["forward", "stay", "stay"], STAY)
    assert game.ships["red"].at == "J 4"


# -- plotting --------------------------------------------------------------------------------

def test_bb4_a_plot_is_exactly_three_cards_of_the_hand_and_any_three_may_be_plotted():
    game = in_play()
    refused(lambda: game.move("red", {"cards": ["forward", "forward"]}), "BB4", "cards")
    refused(lambda: game.move("red", {"cards": ["forward"] * 4}), "BB4", "cards")
    refused(lambda: game.move("red", {"cards": ["forward", "fly", "stay"]}), "BB4", "cards")
    game.move("red", {"cards": ["forward"] * 3})
    assert game.owes == ("blue",)


def test_bb5_a_plot_is_sealed_then_turned_up_one_card_at_a_time_and_cannot_change():
    game = in_play()
    place(game, red=("E 6", "E"), blue=("G 8", "N"))
    order(game, "red", {"cards": ["forward", "port", "starboard"]})
    seen = view(game, "blue")
    assert seen["stage"]["orders_in"] == {"red": True, "blue": False}
    assert seen["plots"]["red"] == [None, None, None]
    assert seen["reports"][0]["order"]["cards"] == [None, None, None]
    assert "port" not in json.dumps(seen["reports"]) + json.dumps(seen["plots"])
    refused(lambda: game.move("red", {"cards": STAY}), "BB5")
    order(game, "blue", {"cards": ["forward", "stay", "stay"]})  # card 1: F 6 and G 7, a volley
    assert game.stage_kind == "volley" and game.turned == 1
    seen = view(game, "blue")
    assert seen["plots"]["red"] == ["forward", None, None]
    assert seen["reports"][0]["order"]["cards"] == ["forward", None, None]
    assert view(game, "red")["plots"]["blue"] == ["forward", None, None]
    assert view(game, "red")["plots"]["red"] == ["forward", "port", "starboard"]


def test_bb5_an_order_for_another_stage_is_refused_never_taken_for_this_one():
    game = in_play()
    refused(lambda: game.move("red", {"stage": game.stage + 1, "cards": STAY}), "BB5", "stage")
    refused(lambda: game.move("red", {"stage": True, "cards": STAY}), "BB5", "stage")
    game.move("red", {"stage": game.stage, "cards": STAY})


def test_bb6_damaged_cards_exactly_as_many_as_required_and_played_as_remain_in_place():
    game = in_play()
    game.ships["red"].masts["A4"] = 0
    game.ships["red"].hull["D"] = 2
    place(game, red=("C 10", "E"), blue=("N 2", "W"))
    plots(game, STAY, STAY)
    assert game.required == {"red": 2, "blue": 0}
    refused(lambda: game.move("red", {"cards": ["damaged", "forward", "stay"]}), "BB6", "cards")
    refused(lambda: game.move("red", {"cards": ["damaged"] * 3}), "BB6", "cards")
    refused(lambda: game.move("blue", {"cards": ["damaged", "stay", "stay"]}), "BB6")
    plots(game, ["damaged", "forward", "damaged"], STAY)
    assert game.ships["red"].at == "D 10"
    game.ships["red"].masts.update({"G4": 0, "H4": 0})
    plots(game, ["damaged", "damaged", "forward"], STAY)  # round 3 counts from round 2's damage
    plots(game, ["damaged"] * 3, STAY)
    assert game.required["red"] == 3 and game.ships["red"].at == "E 10"  # cannot move


def test_bb7_a_captain_lost_the_round_finishes_the_next_round_cannot_plot_then_promotion():
    game = in_play(blue="D3")  # Blue's Captain on a cannon's cell of his port rail
    place(game, red=("F 6", "N"), blue=("G 6", "N"))
    plots(game, STAY, STAY)
    order(game, "red", {"targets": {c: "D" for c in ("B5", "C5", "D5", "E5", "F5")}})
    order(game, "blue", {"targets": dict.fromkeys(("B3", "C3", "D3", "E3", "F3"))},
          rolls=[3, 1, 1, 1, 1])  # Red's B5 rolls 3 at D: D3 (cannon, 2 crew, Captain) gone
    assert game.crews["blue"].captain is None and game.captain_lost == {"blue": 1}
    assert game.stage_kind == "volley"  # the round goes on: card 2 opened another
    for _ in range(2):
        order(game, "red", {"targets": dict.fromkeys(("B5", "C5", "D5", "E5", "F5"))})
        order(game, "blue", {"targets": dict.fromkeys(("B3", "C3", "E3", "F3"))})
    assert game.round == 2 and game.owes == ("red",)  # Blue cannot plot
    assert game.plots["blue"] == STAY and "cannot plot" in view(game, "red")["reports"][-1][
        "happened"][-1]["text"]
    place(game, red=("A 1", "N"))  # out of the way: no volley this round
    order(game, "red", {"cards": STAY})
    assert game.owes == ("blue",) and game.owed["blue"] == "promotion"
    refused(lambda: game.move("blue", {"promote": "D3"}), "BB7", "promote")
    game.move("blue", {"promote": "C5"})
    assert game.crews["blue"].captain == "blue C5" and game.crews["blue"].crew["blue C5"] == 1
    assert game.round == 3 and game.owes == ("red", "blue")


# -- cannon fire -------------------------------------------------------------------------------

def test_bb8_a_volley_after_every_card_that_leaves_the_ships_within_one_dot():
    game = volley_ready()
    volleys = 0
    while game.round == 1:
        assert game.stage_kind == "volley" and game.owes == ("red", "blue")
        order(game, "red", {"targets": dict.fromkeys(game.bearing["red"])})
        order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])})
        volleys += 1
    assert volleys == 3  # up to three a round
    game = in_play()
    place(game, red=("F 6", "N"), blue=("F 8", "N"))  # two dots apart: none
    plots(game, STAY, STAY)
    assert game.round == 2 and game.stage_kind == "plot"


@pytest.mark.parametrize("blue_at, red_bears", [
    ("F 5", ()), ("F 7", ()), ("G 5", ("B5", "C5")), ("G 6", ("B5", "C5", "D5", "E5", "F5")),
    ("G 7", ("E5", "F5")), ("E 5", ("B3", "C3")), ("E 6", ("B3", "C3", "D3", "E3", "F3")),
    ("E 7", ("E3", "F3"))])
def test_bb9_which_cannons_bear_by_the_line_to_the_enemy(blue_at, red_bears):
    game = in_play()
    place(game, red=("F 6", "N"), blue=(blue_at, "N"))
    assert game._bears("red") == red_bears


def test_bb10_every_cannon_that_bears_is_named_or_holds_fire_and_declarations_are_sealed():
    game = volley_ready()
    refused(lambda: game.move("red", {"targets": {"B5": "C"}}), "BB10", "targets")
    refused(lambda: game.move("red", {"targets": {"B3": "C", **dict.fromkeys(
        game.bearing["red"], "C")}}), "BB9", "targets.B3")
    refused(lambda: game.move("red", {"targets": dict.fromkeys(game.bearing["red"], "Z")}),
            "BB10")
    refused(lambda: game.move("red", {"standing": True}), "BB10", "standing")  # none yet
    game.move("red", {"targets": {**dict.fromkeys(game.bearing["red"], "c"), "F5": None}})
    seen = view(game, "blue")
    assert seen["reports"][-1]["sealed"] and "targets" not in seen["reports"][-1]["order"]
    assert '"C"' not in json.dumps(seen["reports"][-1])
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])})
    shots = last_happened(game, "volley")["shots"]
    assert [s["cannon"] for s in shots] == ["B5", "C5", "D5", "E5"]
    assert view(game, "blue")["reports"][-2]["order"]["targets"]["B5"] == "C"
    assert view(game, "red")["legal"]["standing"] == {
        "B5": "C", "C5": "C", "D5": "C", "E5": "C", "F5": "C"}
    game.move("red", {"standing": True})
    assert game.sealed["red"] == {"kind": "declaration", "stage": game.stage, "standing": True,
                                  "targets": dict.fromkeys(game.bearing["red"], "C")}


@pytest.mark.parametrize("face, effect", [(1, "miss"), (2, "hull"), (3, "rail 3"),
                                          (4, "mast"), (5, "rail 5"), (6, "miss")])
def test_bb11_each_face_of_a_cannons_die(face, effect):
    game = volley_ready()
    order(game, "red", {"targets": {"B5": "C", **dict.fromkeys(("C5", "D5", "E5", "F5"))}})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[face])
    shot = last_happened(game, "volley")["shots"][0]
    assert (shot["roll"], shot["effect"]) == (face, effect)
    blue = game.ships["blue"]
    assert blue.hull["C"] == (face == 2)
    assert ("C3" in blue.cannons) == (face != 3) and ("C5" in blue.cannons) == (face != 5)
    assert blue.masts["C4"] == (1 if face == 4 else 2)
    assert game.crews["blue"].crew.get("blue C3", 0) == (0 if face == 3 else 2)


def test_bb11_a_mast_hit_on_a_section_without_a_standing_mast_is_a_miss():
    game = volley_ready()
    game.ships["blue"].masts["A4"] = 0
    order(game, "red", {"targets": {"B5": "A", "C5": "D", **dict.fromkeys(("D5", "E5", "F5"))}})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[4, 4])
    assert [s["effect"] for s in last_happened(game, "volley")["shots"]] == ["miss", "miss"]


def test_bb12_a_volley_is_simultaneous_a_cannon_hit_still_fires_and_all_goes_after():
    game = volley_ready()
    order(game, "red", {"targets": {"B5": "D", **dict.fromkeys(("C5", "D5", "E5", "F5"))}})
    order(game, "blue", {"targets": {"D3": "B", **dict.fromkeys(("B3", "C3", "E3", "F3"))}},
          rolls=[3, 5])  # Red's B5 takes Blue's D3; Blue's D3, hit, still takes Red's B5
    assert "D3" not in game.ships["blue"].cannons and "B5" not in game.ships["red"].cannons
    removed = last_happened(game, "volley")["removed"]
    assert removed["blue"]["cannons"] == ["D3"] and removed["red"]["cannons"] == ["B5"]
    assert "D3" not in game.bearing["blue"]  # the next volley: it takes no part


def test_bb13_the_mainmast_needs_two_hits_and_counts_as_lost_only_when_gone():
    game = volley_ready()
    order(game, "red", {"targets": {"B5": "C", **dict.fromkeys(("C5", "D5", "E5", "F5"))}})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[4])
    assert game.ships["blue"].masts["C4"] == 1 and game.ships["blue"].masts_lost() == []
    assert view(game, "red")["ships"]["blue"]["masts"]["C4"]["state"] == "top lost"
    order(game, "red", {"targets": {"B5": "C", "C5": "C", **dict.fromkeys(("D5", "E5", "F5"))}})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[4, 4])
    assert game.ships["blue"].masts_lost() == ["C4"]
    assert game.ships["blue"].damaged_required() == 1


def test_bb14_two_markers_put_a_section_beyond_repair_and_a_third_such_section_sinks():
    game = volley_ready()
    game.ships["blue"].hull.update({"A": 2, "B": 3})
    assert game.ships["blue"].beyond_repair() == ["A", "B"] and not game.ships["blue"].sunk
    order(game, "red", {"targets": {"B5": "H", "C5": "H", **dict.fromkeys(("D5", "E5", "F5"))}})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[2, 2])
    assert game.ships["blue"].sunk and game.over == "sunk" and game.winner == "red"


# -- the decks ------------------------------------------------------------------------------

def test_bb15_the_deck_plan_cells_levels_ladders_and_masts_as_data():
    assert len(deck.CELLS) == 24 and deck.CELLS[0] == "A3" and deck.CELLS[-1] == "H5"
    assert set(deck.CANNONS) == {f"{s}{p}" for s in "BCDEF" for p in (3, 5)}
    assert deck.MASTS == {"A4": 1, "C4": 2, "G4": 1, "H4": 1}
    assert deck.LADDERS == {"B4": "C4", "C4": "B4", "F4": "G4", "G4": "F4"}
    assert "red C3" not in deck.steps("red B3") and "red C4" in deck.steps("red B4")
    assert "red G5" not in deck.steps("red F5") and "red E4" in deck.steps("red F5")
    assert view(in_play(), "red")["deck_plan"] == RULE_SET.catalogue()["deck"]


def test_bb16_two_crew_by_each_cannon_the_captain_where_placed_and_decks_public_in_play():
    game, _ = RULE_SET.new_game(id="x", seed=1, at=0.0, bots={}, options={})
    game.commit_dice(SECRET)
    for seat in ("red", "blue"):
        game.join(seat, seat)
    game.submit("red", {"captain": "h4"})
    assert view(game, "red")["crews"]["red"]["captain"] == "red H4"
    assert view(game, "blue")["crews"]["red"]["captain"] is None  # not before play
    refused(lambda: game.submit("blue", {"captain": "Z9"}), "BB16", "captain")
    refused(lambda: game.submit("blue", {"captain": "A4", "ship": "x"}), "BB26")
    game.submit("blue", {"captain": "D3"})
    for seat in ("red", "blue"):
        game.lock_in(seat, dice_seed=f"{seat}1")
    crews = view(game, "red")["crews"]
    assert crews["blue"]["captain"] == "blue D3" and crews["blue"]["pieces"] == 21
    assert all(n == 2 for n in crews["red"]["crew"].values()) and len(crews["red"]["crew"]) == 10


# -- collision and boarding ---------------------------------------------------------------------

def collided(red=("F 6", "E"), blue=("H 4", "W"), red_cards=None, blue_cards=None,
             rolls=None) -> Game:
    game = in_play(red="H4", blue="H4")
    place(game, red=red, blue=blue)
    plots(game, red_cards or ["forward", "stay", "stay"], blue_cards or ["forward", "stay",
                                                                         "stay"], rolls)
    return game


def test_bb17_a_collision_on_one_dot_or_by_trading_dots_ends_the_rounds_cards():
    game = collided(red=("E 4", "E"), blue=("G 4", "W"))  # both to F 4
    assert last_happened(game, "collision") == {"what": "collision", "at": "F 4",
                                                "traded": False}
    assert game.turned == 1 and game.laid is not None
    game = collided(red=("E 4", "E"), blue=("F 4", "W"), rolls=[1, 6])  # they trade dots
    assert last_happened(game, "collision")["traded"] and game.turned == 1
    assert game.laid["touching"] == {"red": "port", "blue": "starboard"}  # the dice


def test_bb18_the_ships_laid_side_by_side_by_their_headings_and_sides():
    # headings 45 degrees apart: the same way; Blue lay to Red's starboard, Red to Blue's port
    game = collided(red=("E 5", "N"), blue=("F 5", "NW"))
    assert game.ships["red"].at == game.ships["blue"].at == "E 4"
    assert game.laid["orientation"] == "same" and last_happened(game, "laid")["rolls"] == []
    assert game.laid["touching"] == {"red": "starboard", "blue": "port"}
    assert deck.across("red B5", game.laid) == "blue B3" and deck.across("red B4", game.laid) \
        is None
    game = collided(red=("E 4", "E"), blue=("G 4", "W"), rolls=[2, 5])  # bow to bow
    entry = last_happened(game, "laid")
    assert entry["orientation"] == "opposite" and entry["rolls"] == [
        {"for": "red side", "roll": 2}, {"for": "blue side", "roll": 5}]
    assert game.laid["touching"] == {"red": "port", "blue": "starboard"}
    assert deck.across("red B3", game.laid) == "blue G5"
    game = collided(red=("E 5", "N"), blue=("F 4", "W"), rolls=[4])  # N against W: 90 degrees
    assert last_happened(game, "laid")["rolls"] == [{"for": "orientation", "roll": 4}]
    assert game.laid == {"orientation": "opposite", "at": "E 4",
                         "touching": {"red": "starboard", "blue": "port"}}


def test_bb19_the_final_volley_counts_2_and_4_as_misses_and_a_captain_lost_is_replaced():
    game = collided(red=("E 4", "E"), blue=("G 4", "W"), rolls=[5, 5])  # both starboard
    assert game.stage_kind == "volley" and game.final
    assert game.bearing == {"red": ["B5", "C5", "D5", "E5", "F5"],
                            "blue": ["B5", "C5", "D5", "E5", "F5"]}
    game.crews["blue"].captain = "blue D5"
    order(game, "red", {"targets": {"B5": "A", "C5": "C", "D5": "D",
                                    **dict.fromkeys(("E5", "F5"))}})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[2, 4, 5])
    shots = last_happened(game, "volley")["shots"]
    assert [s["effect"] for s in shots] == ["miss", "miss", "rail 5"]
    assert game.ships["blue"].hull["A"] == 0 and game.ships["blue"].masts["C4"] == 2
    assert game.owes == ("blue",) and game.owed["blue"] == "promotion"
    game.move("blue", {"promote": "B5"})
    assert game.stage_kind == "boarding"


def test_bb20_the_higher_die_boards_first_and_ties_roll_again():
    game = collided(red=("E 4", "E"), blue=("G 4", "W"), rolls=[5, 5])
    order(game, "red", {"targets": dict.fromkeys(game.bearing["red"])})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[3, 3, 2, 6])
    assert last_happened(game, "first")["rolls"] == [{"red": 3, "blue": 3},
                                                     {"red": 2, "blue": 6}]
    assert game.boarder == "blue" and game.owes == ("blue",) and game.owed["blue"] == "boarding"


def boarding(first: str = "red") -> Game:
    """Ships side by side facing opposite ways, both starboard sides touching, no cannon
    fired, ``first`` to board."""
    game = collided(red=("E 4", "E"), blue=("G 4", "W"), rolls=[5, 5])
    order(game, "red", {"targets": dict.fromkeys(game.bearing["red"])})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])},
          rolls=[6, 1] if first == "red" else [1, 6])
    assert game.boarder == first
    return game


def test_bb21_a_turn_is_three_movements_fewer_only_when_no_more_are_possible():
    game = boarding()
    refused(lambda: game.move("red", {"moves": [{"from": "B5", "to": "their G5"}]}), "BB21",
            "moves")
    refused(lambda: game.move("red", {"moves": [{"from": "B5", "to": "B3"}] * 3}), "BB21")
    refused(lambda: game.move("red", {"moves": [{"from": "A4", "to": "A5"}] * 3}), "BB21")
    refused(lambda: game.move("red", {"moves": [{"from": "B5", "to": "C5"}] * 3}), "BB21")
    refused(lambda: game.move("red", {"moves": [{"from": "B3", "to": "B4"},
                                                {"from": "B4", "to": "C4"},
                                                {"from": "D4", "to": "D3"}]}), "BB21")
    game.move("red", {"moves": [{"from": "B5", "to": "their G5"},
                                {"from": "C5", "to": "their F5"},
                                {"from": "my C5", "to": "blue F5"}]})
    assert game.stage_kind in ("boarding",) or game.over


def test_bb21_a_piece_entering_an_enemy_cell_stops_and_a_cell_takes_three_of_a_side():
    game = boarding()
    refused(lambda: game.move("red", {"moves": [{"from": "B5", "to": "their G5"},
                                                {"from": "blue G5", "to": "blue G4"},
                                                {"from": "C5", "to": "B5"}]}), "BB21")
    game.crews["red"].crew["red B4"] = 3
    refused(lambda: game.move("red", {"moves": [{"from": "B5", "to": "B4"},
                                                {"from": "C5", "to": "D5"},
                                                {"from": "D5", "to": "E5"}]}), "BB16")


def test_bb21_the_captain_moves_only_when_named():
    game = boarding()
    refused(lambda: game.move("red", {"moves": [{"from": "H4", "to": "H3"}] * 3}), "BB21")
    game.move("red", {"moves": [{"from": "H4", "to": "H3", "captain": True},
                                {"from": "H3", "to": "G3", "captain": True},
                                {"from": "G3", "to": "G4", "captain": True}]})
    assert game.crews["red"].captain == "red G4"


def test_bb22_fights_in_the_order_entered_with_numbers_and_the_captain():
    game = boarding()
    game.crews["blue"].crew.update({"blue G5": 1, "blue F5": 1})
    game.crews["blue"].crew.pop("blue C5")
    order(game, "red", {"moves": [{"from": "red B5", "to": "blue G5"},
                                  {"from": "red C5", "to": "blue F5"},
                                  {"from": "red B5", "to": "blue G5"}]},
          rolls=[3, 3, 2, 4])
    fights = [e for e in game.reports[-1]["happened"] if e["what"] == "fight"]
    assert [f["at"] for f in fights] == ["blue G5", "blue F5"]
    first = fights[0]["rounds"]
    assert first[0]["totals"] == {"red": 4, "blue": 3}  # two against one: +1
    assert first[0]["eliminated"] == {"seat": "blue", "piece": "crew"}
    assert fights[0]["won_by"] == "red" and game.crews["red"].crew["blue G5"] == 2
    second = fights[1]["rounds"]
    assert second[0]["totals"] == {"red": 2, "blue": 4} and fights[1]["won_by"] == "blue"
    assert second[0]["eliminated"] == {"seat": "red", "piece": "crew"}


def test_bb22_the_captain_falls_only_when_alone_and_his_fall_ends_the_game():
    game = boarding()
    game.crews["blue"].captain = "blue G5"
    game.crews["blue"].crew["blue G5"] = 1
    order(game, "red", {"moves": [{"from": "red B5", "to": "blue G5"},
                                  {"from": "red B5", "to": "red B4"},
                                  {"from": "red C5", "to": "red D5"}]},
          rolls=[6, 1, 6, 1])
    rounds = last_happened(game, "fight")["rounds"]
    assert rounds[0]["totals"] == {"red": 6, "blue": 3}  # outnumbered one to two, Captain +1
    assert [r["eliminated"]["piece"] for r in rounds] == ["crew", "captain"]
    assert game.over == "captain" and game.winner == "red" and game.phase == "over"


# -- the end, the dice, the reports ---------------------------------------------------------------

def test_bb23_a_player_with_nothing_left_loses_and_both_at_once_is_a_draw():
    game = volley_ready()
    for seat in ("red", "blue"):
        game.ships[seat].hull.update({"A": 2, "B": 2, "H": 1})
    order(game, "red", {"targets": {"B5": "H", **dict.fromkeys(("C5", "D5", "E5", "F5"))}})
    order(game, "blue", {"targets": {"B3": "H", **dict.fromkeys(("C3", "D3", "E3", "F3"))}},
          rolls=[2, 2])
    assert game.over == "sunk" and game.winner is None
    assert game.result_document()["winners"] == [] and "draw" in RULE_SET.headline(
        view(game, "red"))
    game = volley_ready()
    game.ships["blue"].cannons, game.bearing["blue"] = {"D3"}, ["D3"]
    game.crews["blue"] = type(game.crews["blue"])({"blue D3": 2}, None)
    order(game, "red", {"targets": {"B5": "D", **dict.fromkeys(("C5", "D5", "E5", "F5"))}})
    order(game, "blue", {"targets": {"D3": None}}, rolls=[3])
    assert game.over == "all-lost" and game.winner == "red"


def test_bb23_surrender_and_agreement_end_the_game_in_either_phase():
    game = boarding()
    game.dice_secret = None  # its dice were chosen: nothing to reveal
    game.resign("blue")
    assert game.over == "resigned" and game.result_document()["winners"] == ["red"]
    game = in_play()
    game.agree_to_end("red")
    game.agree_to_end("blue")
    assert game.over == "agreed" and game.result_document()["winner"] is None


def test_bb24_the_commitment_the_seeds_and_every_roll_are_the_published_schemes():
    game = volley_ready()
    assert game.dice_commitment == dice.commitment(SECRET)
    assert game.dice_seeds == {"red": "red-seed", "blue": "blue-seed"}
    order(game, "red", {"targets": dict.fromkeys(game.bearing["red"], "C")})
    game.move("blue", {"targets": dict.fromkeys(game.bearing["blue"], "D")})
    assert [r["value"] for r in game.dice_rolls] == [
        dice.roll(SECRET, ["red-seed", "blue-seed"], n) for n in range(1, 11)]
    assert game.dice_rolls[0]["for"] == "red's cannon B5 at blue's section C"
    assert game.dice_rolls[5]["for"] == "blue's cannon B3 at red's section D"
    assert SECRET not in json.dumps(view(game, "red")) + json.dumps(view(game, "blue"))
    events = game.resign("red")
    assert [e["type"] for e in events] == ["resign", "dice_revealed"]
    assert view(game, "blue")["dice"]["secret"] == SECRET
    assert dice.audit(game.events).good


def sailed_to_a_volley() -> Game:
    """A game played from the start by its orders alone (so its log replays): three rounds
    bring the ships within a dot, Red at G 4 facing east, Blue at H 3 facing north-west."""
    game = in_play()
    plots(game, ["forward"] * 3, ["forward"] * 3)
    plots(game, ["port", "forward", "forward"], ["starboard", "forward", "forward"])
    plots(game, ["starboard", "stay", "stay"], ["forward", "stay", "stay"])
    assert (game.ships["red"].at, game.ships["blue"].at) == ("G 4", "H 3")
    assert game.bearing == {"red": ["B3", "C3"], "blue": ["B3", "C3", "D3", "E3", "F3"]}
    return game


def test_bb24_a_log_whose_rolls_the_seed_does_not_give_is_refused_at_the_reveal():
    game = sailed_to_a_volley()
    order(game, "red", {"targets": dict.fromkeys(game.bearing["red"], "C")})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[1] * 2)
    with pytest.raises(RuleViolation, match="BB24"):  # the referee's own reveal refuses them
        game.resign("red")  # (the server then forgets this state: nothing is written)
    events = [dict(e) for e in game.events if e["type"] != "dice_revealed"]
    honest = [dice.roll(SECRET, ["red-seed", "blue-seed"], n) for n in range(1, 3)]
    assert honest != [1] * 2
    replayed = Game.replay(events)
    refused(lambda: replayed.apply({"type": "dice_revealed", "secret": SECRET}), "BB24",
            "rolls")
    refused(lambda: replayed.apply({"type": "dice_revealed", "secret": "cd" * 32}), "BB24",
            "secret")


def test_bb24_the_docs_python_recomputes_the_rolls_as_the_referee_draws_them():
    code = DOC.split("```python", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code.replace("print(", "(lambda *a: None)("), "docs", "exec"), namespace)
    assert [namespace["roll"]("0" * 64, ["red-seed", "blue-seed"], n) for n in range(1, 9)] == \
        [dice.roll("0" * 64, ["red-seed", "blue-seed"], n) for n in range(1, 9)] == \
        [6, 1, 6, 3, 3, 4, 4, 1]
    assert "`60e05bd1b195af2f`" in DOC and dice.commitment("0" * 64).startswith("60e05bd1b195af2f")


def test_bb24_every_face_is_equally_likely_from_the_hash():
    faces = [dice.roll("seed", ["a", "b"], n) for n in range(1, 6001)]
    assert all(850 <= faces.count(face) <= 1150 for face in range(1, 7))
    assert dice.TAKEN % dice.FACES == 0 and dice.TAKEN + dice.FACES > 256


def test_bb25_both_players_are_told_what_happened_in_words_and_nothing_before_the_end():
    game = volley_ready()
    texts = [e["text"] for e in view(game, "blue")["reports"][-1]["happened"]]
    assert texts[0].startswith("Card 1: Red Remain in Place")
    order(game, "red", {"targets": {"B5": "C", **dict.fromkeys(("C5", "D5", "E5", "F5"))}})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[3])
    told = view(game, "blue")["reports"][-1]["happened"][0]["text"]
    assert "Red's B5 at C: rolled 3, every piece at C3 removed" in told
    assert "Blue loses 1 cannon and 2 crewmembers" in told
    refused(lambda: RULE_SET.postmortem_view(game, "red"), "BB25")
    refused(lambda: RULE_SET.game_file_view(game), "BB25")


def test_bb26_an_order_names_its_kind_and_is_kept_in_its_normal_form():
    game = in_play()
    refused(lambda: game.move("red", {"kind": "boarding", "cards": STAY}), "BB26", "kind")
    refused(lambda: game.move("red", {"cards": STAY, "extra": 1}), "BB26", "extra")
    refused(lambda: game.move("red", "forward"), "BB26")
    flood = {f"k{n}": n for n in range(10_000)}  # one refusal, not ten thousand problems
    assert len(refused(lambda: game.move("red", {"cards": STAY, **flood}), "BB26").problems) == 1
    game.move("red", {"cards": STAY})
    assert game.events[-1]["move"] == {"kind": "plot", "stage": 1, "cards": STAY}
    shown = view(game, "red")
    assert shown["owes"] == {"blue": "plot"} and shown["legal"] is None
    assert view(game, "blue")["legal"] == {"kind": "plot", "stage": 1, "cards": 3,
                                           "damaged": 0, "choices": ["stay", "forward",
                                                                     "starboard", "port"],
                                           "hand": dict.fromkeys(
                                               ("stay", "forward", "starboard", "port",
                                                "damaged"), 3)}
    assert shown["stage"]["kind"] == "plot" and shown["dice"]["commitment"]
