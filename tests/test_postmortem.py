"""The post-mortem (referee/naval_war/postmortem.py, targeting.py): what each weapon bought,
hindsight, and the game move by move. The answers are worked out by hand in the comments."""

from __future__ import annotations

import random

import pytest
from helpers import (
    ATTACKER,
    QUIET,
    bomber,
    idle,
    padded,
    plane,
    random_move,
    salvo,
    ship,
    started_game,
)

from referee.naval_war import RuleViolation, check_disposition, replay
from referee.naval_war.combat import strike
from referee.naval_war.fleet import SHIP_LENGTH
from referee.naval_war.layout import random_purchase, scatter
from referee.naval_war.postmortem import (
    hindsight,
    postmortem_document,
    spending,
    states_by_move,
    steps,
)
from referee.naval_war.squares import Square, parse_square
from referee.naval_war.targeting import best_targets, sunk_points

# Blue's chart for the spending game: a Submarine, a Destroyer, a Cruiser and a Battleship
# around F 6; a Cruiser at K 5-M 5; land at A 1-C 3 with an A-A gun at B 2, a Bomber at C 1
# and an R.P. at A 3; padded with 12 Battleships on rows 15, 17 and 19 (columns A, F, K, P).
BLUE = padded(land=["A 1"], guns=["B 2"],
              aircraft=[plane("bomber", "C 1"), plane("recon", "A 3")],
              ships=[ship("submarine", "E 5"), ship("destroyer", "G 5"),
                     ship("cruiser", "D 8"), ship("battleship", "H 7", "down"),
                     ship("cruiser", "K 5")])
ROW = {"points": 0, "sank": 0, "hit": 0, "destroyed": 0, "shot_down": 0, "revealed": 0,
       "bought": 0, "used": 0, "lost": 0}


def atom(frm: str, at: str, target: str | None = None) -> dict:
    return bomber(frm, at, target, weapon="atom-bomber")


def recon(frm: str, at: str) -> dict:
    return bomber(frm, at, weapon="recon")


def ended(game):
    for seat in game.active:
        game.agree_to_end(seat)
    assert game.phase == "over"
    return game


def spending_game():
    """Red (ATTACKER: 3 Atom Bombers, 6 Bombers, 6 R.P.s, 20 salvoes) against BLUE."""
    game = started_game(dispositions={"red": ATTACKER, "blue": BLUE})
    for move in (
        atom("A 1", "F 6"),  # D 4-H 8: sinks E 5, G 5-H 5, D 8-F 8; hits H 7, H 8
        bomber("A 2", "C 2"),  # shot down by the gun at B 2
        bomber("B 2", "J 5"),  # I 4-K 6: one hit on the Cruiser at K 5-M 5
        salvo("L 5", "M 5", "C 1"),  # sinks that Cruiser; destroys the Bomber at C 1
        recon("A 3", "K 12"),  # sees J 11-L 13: 9 squares
        recon("B 3", "L 12"),  # sees K 11-M 13: 3 more
    ):
        game.move("red", move)
        idle(game, "blue")
    return ended(game)


# -- spending ------------------------------------------------------------------------------

def test_spending_an_atom_bomber_at_f6_sinks_exactly_the_ships_in_its_5_by_5():
    table = spending(spending_game())
    # Submarine 1 + Destroyer 2 + Cruiser 3 sunk; hits 1 + 2 + 3 + 2 on the Battleship
    assert table["red"]["atom-bomber"] == {**ROW, "points": 30, "sank": 6, "hit": 8,
                                           "bought": 3, "used": 1}


def test_spending_a_bomber_shot_down_counts_for_the_bomber_row_and_the_defenders_guns():
    table = spending(spending_game())
    assert table["red"]["bomber"] == {**ROW, "points": 18, "hit": 1, "shot_down": 1,
                                      "bought": 6, "used": 2}
    assert table["blue"]["aa-gun"] == {**ROW, "points": 1, "shot_down": 1, "bought": 1,
                                       "used": 1}
    assert table["red"]["aa-gun"] == ROW


def test_spending_a_salvo_that_completes_a_ship_started_by_a_bomber_gets_its_points():
    table = spending(spending_game())
    assert table["red"]["salvo"] == {**ROW, "points": 20, "sank": 3, "hit": 2,
                                     "destroyed": 1, "bought": 20, "used": 1}
    assert table["blue"]["bomber"] == {**ROW, "points": 3, "bought": 1, "lost": 1}


def test_spending_rps_count_the_distinct_squares_they_revealed():
    table = spending(spending_game())
    assert table["red"]["recon"] == {**ROW, "points": 6, "revealed": 12, "bought": 6,
                                     "used": 2}
    assert table["blue"]["recon"] == {**ROW, "points": 1, "bought": 1}
    assert table["blue"]["salvo"] == {**ROW, "points": 55, "bought": 55, "used": 6}


def test_spending_rows_are_the_weapon_keys_of_api_md_and_points_add_up_to_the_forces():
    table = spending(spending_game())
    for seat in ("red", "blue"):
        assert list(table[seat]) == ["atom-bomber", "bomber", "recon", "aa-gun", "salvo"]
        _, cost, _ = check_disposition(ATTACKER if seat == "red" else BLUE)
        assert sum(row["points"] for row in table[seat].values()) == cost.forces


# -- hindsight -----------------------------------------------------------------------------

LANE_CENTRES = {"B 17", "G 17", "L 17", "Q 17", "B 19", "G 19", "L 19"}  # 3 lanes, 1 block


def test_hindsight_one_atom_bomber_would_have_sunk_three_battleships_of_the_padding():
    # Best 5 x 5 on BLUE: three Battleships of one column of the padding (rows 15, 17, 19),
    # 12 points; near F 6 no 5 x 5 sinks more than 7 (D 8-F 8 and H 7-H 10 from F 9).
    entry = hindsight(spending_game())["red"]["atom-bomber"]
    assert entry["count"] == 1 and entry["target"] == "blue"
    assert entry["flown"] == ["F 6"] and entry["as_flown"] == 6 and entry["did_sink"] == 6
    assert entry["would_sink"] == 12 and entry["exact"] and entry["upper_bound"] == 12
    assert entry["targets"][0] in {"B 17", "G 17", "L 17", "Q 17"}


def test_hindsight_counts_bombers_shot_down_and_assumes_none_would_be():
    # Two Bombers flown (one shot down). Side by side on row 16 (or 18) of one column of the
    # padding, they sink the Battleships above and below: 8 points; two Cruisers only 6.
    entry = hindsight(spending_game())["red"]["bomber"]
    assert entry["count"] == 2 and entry["did_sink"] == 0 and entry["as_flown"] == 0
    assert entry["flown"] == ["C 2", "J 5"]
    assert entry["would_sink"] == 8 and entry["exact"]
    rows = {parse_square(t).row + 1 for t in entry["targets"]}
    assert len(entry["targets"]) == 2 and rows in ({16}, {18})


def test_hindsight_of_weapons_never_flown_is_empty():
    entry = hindsight(spending_game())["blue"]["atom-bomber"]
    assert entry == {"count": 0, "targets": [], "would_sink": 0, "did_sink": 0,
                     "target": None, "flown": [], "as_flown": 0, "exact": True,
                     "upper_bound": 0, "method": "none flown"}


def test_hindsight_the_greedy_first_pick_is_not_in_the_optimum():
    # Two Battleships at C 5-F 5 and C 7-F 7, a Cruiser at L 5-N 5. One Bomber: the Cruiser
    # (3) is best, so greedy picks it first and then sinks nothing more. Two Bombers on row 6
    # side by side cover C-F of both rows: 8.
    squares = {"bb1": ["C 5", "D 5", "E 5", "F 5"], "bb2": ["C 7", "D 7", "E 7", "F 7"],
               "cruiser": ["L 5", "M 5", "N 5"]}
    ships = [([parse_square(s) for s in sq], len(sq)) for sq in squares.values()]
    one = best_targets(ships, 1, 1)
    assert one.targets == ["M 4"] and one.points == 3 and one.exact
    two = best_targets(ships, 2, 1)
    assert two.points == 8 and two.exact and two.upper_bound == 8
    assert "M 4" not in two.targets and all(t.endswith(" 6") for t in two.targets)
    assert sunk_points(ships, [parse_square(t) for t in two.targets], 1) == 8
    # starting the local search from the greedy pick alone still gets there
    assert best_targets(ships, 2, 1, flown=[parse_square("M 4")], budget=1).points == 8


def test_hindsight_atom_bombers_on_the_padding_columns_by_hand():
    # QUIET: 15 Battleships, four columns (A, F, K, P) on rows 15, 17, 19 and three on 21.
    # A 5 x 5 covers at most three rows of one column: 12 points each, then 4 for a fourth.
    ships = [(chart_ships, points) for chart_ships, points in fleet_ships(QUIET)]
    assert [best_targets(ships, k, 2).points for k in (1, 2, 4, 5, 6, 7, 8)] == [
        12, 24, 48, 52, 56, 60, 60]
    assert len(best_targets(ships, 8, 2).targets) == 7  # the eighth would add nothing
    assert set(best_targets(ships, 2, 2).targets) <= LANE_CENTRES


def fleet_ships(document: dict) -> list[tuple[tuple[Square, ...], int]]:
    fleet, _, _ = check_disposition(document)
    return [(s.squares, SHIP_LENGTH[s.type]) for s in fleet.ships]


def test_hindsight_with_three_players_aims_at_the_opponent_attacked_most():
    game = started_game(seats=3, dispositions={"red": ATTACKER})
    for move in (atom("A 1", "K 3", "blue"), atom("B 1", "C 15", "green"),
                 atom("C 1", "K 3", "green")):
        game.move("red", move)
        idle(game, "blue", "red")
        idle(game, "green", "red")
    entry = hindsight(ended(game))["red"]["atom-bomber"]
    # C 15 sinks A 15-D 15 and A 17-D 17 on Green's chart; three atom bombers there: 36
    assert entry["target"] == "green" and entry["count"] == 3
    assert entry["flown"] == ["C 15", "K 3"] and entry["did_sink"] == 8
    assert entry["as_flown"] == 8 and entry["would_sink"] == 36 and entry["exact"]


# -- the document --------------------------------------------------------------------------

def test_postmortem_document_has_result_spending_and_hindsight():
    game = spending_game()
    doc = postmortem_document(game)
    assert doc["result"] == game.outcome().to_json() and doc["result"]["reason"] == "agreed"
    assert set(doc) >= {"result", "spending", "hindsight"}
    assert set(doc["hindsight"]["red"]) == {"atom-bomber", "bomber"}


def test_r21_no_postmortem_before_the_game_is_over():
    game = started_game(dispositions={"red": ATTACKER, "blue": BLUE})
    with pytest.raises(RuleViolation) as err:
        postmortem_document(game)
    assert err.value.problems[0].rule == "R21"


# -- the game move by move -----------------------------------------------------------------

def test_states_by_move_step_one_shows_the_atom_bombers_damage():
    game = spending_game()
    states = steps(game)
    assert len(states) == len(game.reports) + 1 == 13
    assert states[0]["report"] is None and states[0]["charts"]["blue"]["damage"]["hit"] == []
    one = states[1]
    assert one["move"] == 1 and one["report"]["at"] == ["F 6"]
    assert one["charts"]["blue"]["damage"]["hit"] == [
        "E 5", "G 5", "H 5", "H 7", "D 8", "E 8", "F 8", "H 8"]
    assert one["charts"]["red"]["damage"]["flown"] == ["A 1"]
    assert one["charts"]["red"]["forces"]["atom-bomber"] == 2
    assert one["charts"]["blue"]["score"] == states[0]["charts"]["blue"]["score"] - 6


def test_states_by_move_match_a_replay_of_each_prefix():
    game = spending_game()
    events = game.events
    states = states_by_move(events)
    moves = [i for i, e in enumerate(events) if e["type"] == "move"]
    for n, state in enumerate(states):
        prefix = replay(events[:moves[n - 1] + 1] if n else events[:moves[0]])
        for seat, chart in state["charts"].items():
            fleet = prefix.fleets[seat]
            assert chart["damage"] == fleet.damage()
            assert chart["forces"] == fleet.forces() and chart["score"] == fleet.score()
            assert chart["disposition"] == fleet.document


def test_states_by_move_of_a_game_without_moves_is_the_start():
    game = started_game()
    states = states_by_move(game.events)
    assert len(states) == 1 and states[0]["move"] == 0
    assert set(states[0]["charts"]) == {"red", "blue"}


# -- random games: the invariants ----------------------------------------------------------

def random_game(seed: int, seats: int):
    rng = random.Random(seed)
    game = started_game(seats=seats, dispositions={
        s: scatter(random_purchase(rng), rng) for s in ("red", "blue", "green", "gold")[:seats]})
    while game.phase == "play":
        game.move(game.turn, random_move(game, rng))
    return game


@pytest.mark.parametrize("seed, seats", [(1, 2), (2, 2), (3, 3), (4, 4)])
def test_random_games_spending_adds_up_to_what_befell_the_charts(seed, seats):
    game = random_game(seed, seats)
    table = spending(game)
    lost = sum(SHIP_LENGTH[s.type] for f in game.fleets.values() for s in f.ships if s.sunk)
    assert sum(row["sank"] for rows in table.values() for row in rows.values()) == lost
    hits = sum(len(s.hits) for f in game.fleets.values() for s in f.ships)
    assert sum(row["hit"] for rows in table.values() for row in rows.values()) == hits
    destroyed = sum(len(f.damage()["destroyed"]) for f in game.fleets.values())
    assert sum(row["destroyed"] for rows in table.values() for row in rows.values()) \
        == destroyed
    shot_down = sum(rows[w]["shot_down"] for rows in table.values()
                    for w in ("bomber", "recon"))
    assert sum(rows["aa-gun"]["shot_down"] for rows in table.values()) == shot_down


@pytest.mark.parametrize("seed, seats", [(1, 2), (2, 2), (3, 3), (4, 4)])
def test_random_games_hindsight_targets_sink_what_they_claim(seed, seats):
    game = random_game(seed, seats)
    for seat, plans in hindsight(game).items():
        for weapon, entry in plans.items():
            flown = [r for r in game.reports if r["by"] == seat and r["weapon"] == weapon]
            assert entry["count"] == len(flown) >= len(entry["targets"])
            assert entry["as_flown"] <= entry["would_sink"] <= entry["upper_bound"]
            if not flown:
                continue
            # bomb a fresh copy of the target's chart with the chosen targets
            fresh, _, _ = check_disposition(game.fleets[entry["target"]].document)
            for target in entry["targets"]:
                strike(fresh, "atom-bomber" if weapon == "atom-bomber" else "salvo",
                       [parse_square(target)] if weapon == "atom-bomber"
                       else _three_by_three(target))
            sunk = sum(SHIP_LENGTH[s.type] for s in fresh.ships if s.sunk)
            assert sunk == entry["would_sink"]


def _three_by_three(centre: str) -> list[Square]:
    """A Bomber's 3 x 3, as salvo shots, so that no A-A gun can shoot it down."""
    c = parse_square(centre)
    return [Square(c.col + dc, c.row + dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if 0 <= c.col + dc < 21 and 0 <= c.row + dr < 21]
