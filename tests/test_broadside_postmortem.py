"""Broadside's post-mortem: every move with Blue's secrets revealed, only after the end (B12)."""

from __future__ import annotations

import random
import re

import pytest
from broadside_support import BATTERIES, BUOYS, move, play_random, started

from referee.broadside import board
from referee.broadside.postmortem import postmortem_document
from referee.broadside.views import postmortem_view, view_for
from referee.common.problems import RuleViolation


def test_b12_the_post_mortem_is_refused_before_the_end():
    game = started()
    for action in (lambda: postmortem_document(game), lambda: postmortem_view(game, "red")):
        with pytest.raises(RuleViolation) as refused:
            action()
        assert refused.value.kind == "turn" and refused.value.problems[0].rule == "B12"


def test_b12_the_post_mortem_steps_through_every_move_with_the_secrets():
    game = play_random(started(), random.Random(5))
    doc = postmortem_document(game)
    assert doc["secrets"] == {"buoys": BUOYS, "batteries": BATTERIES}
    assert len(doc["start"]["ships"]) == 20 and doc["start"]["batteries"] == BATTERIES
    assert {c: b["kind"] for c, b in doc["start"]["buoys"].items()} == BUOYS
    assert [s["n"] for s in doc["steps"]] == list(range(1, len(game.reports) + 1))
    for step, report in zip(doc["steps"], game.reports, strict=True):
        assert step["text"] == report["text"] == step["report"]["text"]
        for fired in step["batteries"]:
            assert fired["at"] in board.RED_CIRCLES
            assert set(fired["sites"]) <= {s for s, kind in BATTERIES.items() if kind == "hit"}
    last = doc["steps"][-1]
    assert last["ships"] == view_for(game, "blue")["ships"]
    assert sum(doc["totals"]["blue"]["battery_masts"].values()) == sum(
        r["battery_masts"] for r in game.reports)
    assert doc["totals"]["blue"]["rocks"] == [
        {"n": r["n"], "at": s["at"], "side": s["side"], "type": s["type"],
         "number": s["number"]}
        for r in game.reports for s in r["sunk"] if s["by"] == "rock"]
    assert doc["result"] == game.result_document()
    seen = postmortem_view(game, "red")
    assert seen["seats"]["blue"]["disposition"]["buoys"] == BUOYS
    assert all(check["matches"] for check in seen["checks"])


def test_b7_the_post_mortem_names_the_batteries_that_fired_at_the_double_circle():
    game = started(buoys={"F 6": "sink", "G 6": "pass", "H 6": "sink", "J 13": "pass",
                          "K 13": "sink", "D 13": "pass"},
                   batteries={"A": "miss", "B": "miss", "C": "hit", "D": "hit"})
    assert move(game, "red", "J 19", "J 9")["battery_masts"] == 2
    game.resign("red")
    doc = postmortem_document(game)
    assert doc["steps"][0]["batteries"] == [{"at": "J 10", "sites": ["C", "D"]}]
    assert doc["totals"]["blue"]["battery_masts"] == {"A": 0, "B": 0, "C": 1, "D": 1}


def test_b12_the_post_mortem_totals_as_its_page_and_booklet_show_them():
    from broadside_web_support import finished

    from referee.broadside.web.totals import totals

    game = finished()
    shown = totals(postmortem_document(game))
    sunk = [s for r in game.reports for s in r["sunk"]]
    for row in shown["lost"]:
        mine = [s for s in sunk if s["side"] == row["side"]]
        assert row["all"] == len(mine) == sum(row[cause] for cause, _ in shown["causes"])
        assert row["rock"] == sum(1 for s in mine if s["by"] == "rock")
    assert shown["merchants"] == len(game.merchants_sunk)
    assert sum(b["masts"] for b in shown["batteries"]) == sum(r["battery_masts"]
                                                             for r in game.reports)
    assert all(b["masts"] == 0 for b in shown["batteries"] if b["setting"] == "miss")
    assert len(shown["rocks"]) == sum(1 for s in sunk if s["by"] == "rock")
    assert all(re.fullmatch(r"Move \d+: (Red|Blue)'s [A-Za-z-]+ \d at [A-M] \d{1,2}", line)
               for line in shown["rocks"]), shown["rocks"]
    assert shown["buoys"] == [f"{at}: {kind.upper()}" for at, kind in game.revealed.items()]
