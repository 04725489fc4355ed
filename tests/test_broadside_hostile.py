"""Hostile documents and files for Broadside: every one refused with a problem naming its ruling and
field, nothing half-applied, never a crash (B1, B5, B13; R21 for files)."""

from __future__ import annotations

import json

import pytest
from broadside_support import blue_disposition, started
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.broadside.fleet import check_disposition
from referee.broadside.game import new_game, replay
from referee.common.problems import RuleViolation

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12)
FIELDS = st.sampled_from(["ship", "turn", "to", "pass", "at", "speed"])


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(FIELDS, JSON | st.sampled_from(["I 19", "I 15", "left", "I19", True]),
                       max_size=4) | JSON)
def test_b5_any_move_document_is_refused_by_ruling_or_made_never_a_crash(document):
    game = started()
    before = json.dumps(game.events)
    try:
        game.move("red", document)
    except RuleViolation as refused:
        assert refused.problems and all(p.rule in {"B1", "B5", "B13"} for p in refused.problems)
        assert json.dumps(game.events) == before and game.turn == "red"
    else:
        assert game.turn == "blue" and len(game.reports) == 1


@settings(max_examples=200, deadline=None)
@given(JSON, st.sampled_from(["red", "blue"]))
def test_b13_any_disposition_document_is_refused_by_ruling_never_a_crash(document, seat):
    with pytest.raises(RuleViolation) as refused:
        check_disposition(document, seat)
    assert all(p.rule in {"B1", "B3", "B4", "B13"} for p in refused.value.problems)


@pytest.mark.parametrize("text, read", [
    ("I １９", None), ("I 19\u200b", None), ("\u00a0I 19", None), ("I 019", None),
    ("I 19 ", "I 19"), ("i19", "I 19"), ("I 09", "I 9")])
def test_b1_only_ascii_letters_and_digits_name_a_cross(text, read):
    doc = {"ships": [{"type": "cutter", "at": text}]}
    with pytest.raises(RuleViolation) as refused:
        check_disposition(doc, "red")
    problems = [p for p in refused.value.problems if p.field == "ships[0].at"]
    if read is None:  # names no point
        assert [p.rule for p in problems] == ["B1"]
    else:  # a point, just not one of Red's start crosses (or the fleet is short)
        assert all(read in p.squares for p in problems)


def test_b13_a_disposition_too_long_to_check_is_refused_whole():
    doc = blue_disposition()
    doc["ships"] = doc["ships"] * 100
    doc["buoys"] = {f"{chr(65 + i % 13)} {i % 20 + 1}": "sink" for i in range(5000)}
    with pytest.raises(RuleViolation) as refused:
        check_disposition(doc, "blue")
    assert len(refused.value.problems) < 40


def test_b5_a_log_that_reorders_the_turns_or_moves_blue_first_is_refused():
    game = started()
    events = json.loads(json.dumps(game.events))
    toss = {"type": "toss", "seed": 1, "order": ["blue", "red"]}
    with pytest.raises(RuleViolation):
        replay([*events, toss])
    forged = {"type": "move", "seat": "blue", "move": {"ship": "A 2", "turn": None, "to": "A 5"}}
    with pytest.raises(RuleViolation) as refused:
        replay([*events, forged])
    assert refused.value.kind == "turn"
    stand_in = {"type": "move", "seat": "red", "stand_in": True,
                "move": {"ship": "I 19", "turn": None, "to": "I 15"}}
    with pytest.raises(RuleViolation):
        replay([*events, stand_in])


def test_b3_options_a_broadside_game_cannot_have_are_refused():
    for options in ({"seats": 4}, {"alliances": True}, {"card": "standard"}, {"seats": 2.0},
                    {"disposition_minutes": 0}, {"move_minutes": -1}):
        with pytest.raises(RuleViolation):
            new_game(id="x", options=options)
    game, events = new_game(id="x", options={"seats": 2, "alliances": False, "move_minutes": 3})
    assert events[0]["move_minutes"] == 3 and game.order == ["red", "blue"]
