"""The budgets of the rulebook's illustrative games (R3, R4) are all accepted, laid out (R5-R9).

Game 2, Game 3 and Game 4 of the seed text give complete purchases; each costs exactly 160
points and splits between ships and forces as the text says.
"""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import joined_game, seed_for

from referee.naval_war import check_disposition, square_name
from referee.naval_war.fleet import SHIP_TYPES
from referee.naval_war.layout import pack
from referee.naval_war.squares import SIZE, Square, neighbours, parse_square

# (game, side): (purchase, points on ships as the text gives them)
ILLUSTRATIVE = {
    ("game 2", "red"): ({"battleship": 15, "cruiser": 10, "submarine": 10, "recon": 16,
                         "bomber": 10, "aa-gun": 6, "salvo": 8}, 100),
    ("game 2", "blue"): ({"atom-bomber": 6, "aa-gun": 13, "recon": 6, "bomber": 7,
                          "destroyer": 20, "submarine": 20}, 60),
    ("game 3", "blue"): ({"atom-bomber": 6, "recon": 24, "salvo": 16, "destroyer": 30}, 60),
    ("game 3", "red"): ({"battleship": 25, "aa-gun": 20, "recon": 10, "bomber": 6,
                         "salvo": 12}, 100),
    ("game 4", "blue"): ({"atom-bomber": 4, "recon": 30, "salvo": 18, "destroyer": 18,
                          "submarine": 36}, 72),
    ("game 4", "red"): ({"battleship": 14, "cruiser": 6, "submarine": 10, "aa-gun": 24,
                         "recon": 30, "salvo": 22}, 84),
}


def bought(document: dict) -> Counter:
    """What a disposition document buys, counted by type (R5)."""
    counts = Counter(s["type"] for s in document["ships"])
    counts.update(a["type"] for a in document["aircraft"])
    counts["aa-gun"] += len(document["guns"])
    counts["salvo"] += document["salvoes"]
    return +counts


@pytest.mark.parametrize("game, side", list(ILLUSTRATIVE))
def test_illustrative_budget_is_accepted_and_laid_out(game, side):
    purchase, ship_points = ILLUSTRATIVE[(game, side)]
    document = pack(purchase)
    fleet, cost, warnings = check_disposition(document)
    assert cost.total == 160 and cost.unspent == 0 and warnings == []
    assert cost.ships == ship_points and cost.forces == 160 - ship_points
    assert bought(fleet.document) == Counter(purchase)
    assert len(fleet.aircraft) == sum(purchase.get(k, 0)
                                      for k in ("atom-bomber", "bomber", "recon"))
    assert len(fleet.guns) == purchase.get("aa-gun", 0)
    assert fleet.salvoes == purchase.get("salvo", 0)


@pytest.mark.parametrize("game", ["game 2", "game 3", "game 4"])
def test_illustrative_games_can_be_started(game):
    # Blue "again lost the toss" in game 2, and won it in games 3 and 4 (R11: at creation)
    order = ["red", "blue"] if game == "game 2" else ["blue", "red"]
    table = joined_game(seed=seed_for(order))
    for seat in ("red", "blue"):
        _, cost, warnings = table.submit(seat, pack(ILLUSTRATIVE[(game, seat)][0]))
        assert cost["total"] == 160 and warnings == []
    for seat in ("red", "blue"):
        table.lock_in(seat)
    assert table.phase == "play" and table.order == order and table.turn == order[0]
    assert table.fleets["red"].forces()["salvo"] == ILLUSTRATIVE[(game, "red")][0]["salvo"]


def test_game_3_counts_add_up_as_the_text_says():
    blue, _ = ILLUSTRATIVE[("game 3", "blue")]
    assert 9 * blue["recon"] == 216  # 24 R.P.s cover 216 squares
    assert 3 * blue["salvo"] == 48  # 16 salvoes give 48 shots
    red, _ = ILLUSTRATIVE[("game 3", "red")]
    assert 3 * red["salvo"] == 36


def _lay_ships(purchase: dict, land: set[Square]) -> list[dict]:
    """Ships across, in reading order, wherever they fit on sea without touching (R7, R8)."""
    taken = set(land)
    ships = []
    for kind in SHIP_TYPES:
        length = {"battleship": 4, "cruiser": 3, "destroyer": 2, "submarine": 1}.get(kind)
        left = purchase.get(kind, 0)
        for row in range(SIZE):
            for col in range(SIZE - (length or 0) + 1):
                if not left:
                    break
                cells = [Square(col + i, row) for i in range(length)]
                if any(c in taken for c in cells):
                    continue
                doc = {"type": kind, "at": square_name(cells[0])}
                if kind != "submarine":
                    doc["dir"] = "across"
                ships.append(doc)
                left -= 1
                for cell in cells:
                    taken |= {cell, *neighbours(cell)}
        assert left == 0, kind
    return ships


def test_game_2_red_with_bait_guns_at_m5_o5_m7():
    purchase, _ = ILLUSTRATIVE[("game 2", "red")]
    units = ["L 4", "O 4", "L 7", "O 7"]  # the bait guns stand in the centre of the chart
    land = {Square(parse_square(u).col + c, parse_square(u).row + r)
            for u in units for r in range(3) for c in range(3)}
    guns = ["M 5", "O 5", "M 7", "L 4", "Q 4", "Q 9"]
    free = sorted((sq for sq in land if square_name(sq) not in guns),
                  key=lambda s: (s.row, s.col))
    aircraft = ([{"type": "recon", "at": square_name(sq)} for sq in free[:16]]
                + [{"type": "bomber", "at": square_name(sq)} for sq in free[16:26]])
    document = {"land": units, "ships": _lay_ships(purchase, land), "aircraft": aircraft,
                "guns": guns, "salvoes": purchase["salvo"]}
    fleet, cost, _ = check_disposition(document)
    assert cost.total == 160
    assert bought(fleet.document) == Counter(purchase)
    assert {"M 5", "O 5", "M 7"} <= {square_name(g.square) for g in fleet.guns}


# -- R22: the final scores the text gives, as worked checks -----------------------------------
#
# The text gives each game's final score and, for Game 3, which ships were lost ("just 3 of
# Red's ships survive"; Red "contrives to bring his 'kill' up to 9 Destroyers"), but not the
# moves that sank them. So these checks start each game from the text's purchases, sink the
# ships lost shot by shot with the referee's own effect of a shot (R15, R19), end the game by
# agreement (R14) and read the score R22 gives. Game 2 names only the totals: the ships sunk
# here (Red: 5 Battleships, 5 Cruisers and 5 Submarines, 40 points; Blue: 5 Destroyers and 5
# Submarines, 15 points) are one choice consistent with them, not the text's.

SUNK = {  # (game, side): ships of that side sunk by the end
    ("game 2", "red"): {"battleship": 5, "cruiser": 5, "submarine": 5},
    ("game 2", "blue"): {"destroyer": 5, "submarine": 5},
    ("game 3", "red"): {"battleship": 22},
    ("game 3", "blue"): {"destroyer": 9},
}
HEADLINES = {"game 2": "Red wins by 60 points to 45.",
             "game 3": "Blue wins by 42 points to 12."}


@pytest.mark.parametrize("game", ["game 2", "game 3"])
def test_r22_the_final_scores_of_the_illustrative_games(game):
    from referee.naval_war.combat import strike
    from referee.naval_war.views import result_headline, view_for

    order = ["red", "blue"] if game == "game 2" else ["blue", "red"]
    table = joined_game(seed=seed_for(order))
    for seat in ("red", "blue"):
        table.submit(seat, pack(ILLUSTRATIVE[(game, seat)][0]))
        table.lock_in(seat)
    for seat in ("red", "blue"):
        fleet = table.fleets[seat]
        for kind, n in SUNK[(game, seat)].items():
            for ship in [s for s in fleet.ships if s.type == kind][:n]:
                for square in ship.squares:
                    strike(fleet, "salvo", [square])
        assert sum(s.sunk for s in fleet.ships) == sum(SUNK[(game, seat)].values())
    for seat in ("red", "blue"):
        table.agree_to_end(seat)
    result = table.outcome().to_json()
    if game == "game 2":
        assert result["scores"] == {"red": 60, "blue": 45} and result["winners"] == ["red"]
    else:
        assert result["scores"] == {"red": 12, "blue": 42} and result["winners"] == ["blue"]
    assert result_headline(view_for(table, "red")) == "Ended by agreement. " + HEADLINES[game]
