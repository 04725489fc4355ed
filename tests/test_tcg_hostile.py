"""A game file or request is hostile. Any value in any field of any event of a Battleship TCG log,
and any disposition or move document, is refused with a RuleViolation (naming a ruling) or accepted;
never another exception (a 500)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from tcg_support import disposition, play_to_rescue, started

from referee.battleship_tcg.card import standard_card
from referee.battleship_tcg.fleet import check_disposition
from referee.battleship_tcg.game import replay
from referee.battleship_tcg.views import postmortem_view, view_for
from referee.common.problems import RuleViolation

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats()
    | st.text(max_size=12) | st.sampled_from(["D 3", "A 1", "O 10", "carrier", "down", "red",
                                              "blue", "standard", "man", "C 2"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["boats", "man", "type", "at", "dir", "seed", "islands", "name",
                         "red", "blue", "x"]), inner, max_size=4),
    max_leaves=12)


def finished_log() -> list[dict]:
    game = started()
    play_to_rescue(game, "red")
    return json.loads(json.dumps(game.events))


LOG = finished_log()


@settings(max_examples=150, deadline=None)
@given(index=st.integers(0, len(LOG) - 1), key=st.sampled_from(
    ["type", "seat", "name", "disposition", "salt", "fingerprint", "move", "card", "seed",
     "order", "at", "minutes", "bots", "rules", "seats", "stand_in", "by", "id"]), value=JUNK)
def test_t11_any_value_in_any_field_of_a_log_is_refused_or_replayed(index, key, value):
    events = json.loads(json.dumps(LOG))
    events[index][key] = value
    try:
        game = replay(events)
    except RuleViolation as refused:
        assert refused.problems and all(p.rule[0] in "RT" for p in refused.problems)
        return
    for seat in ("red", "blue"):
        json.dumps(view_for(game, seat))
    if game.phase == "over":
        json.dumps(postmortem_view(game, "red"))


@settings(max_examples=200, deadline=None)
@given(doc=JUNK)
def test_t11_any_disposition_document_is_refused_or_accepted(doc):
    try:
        check_disposition(doc, standard_card(), "red")
    except RuleViolation as refused:
        assert refused.problems


@settings(max_examples=150, deadline=None)
@given(boat=st.integers(0, 4), key=st.sampled_from(["type", "at", "dir"]), value=JUNK)
def test_t3_t4_a_boat_with_any_value_is_refused_naming_its_field(boat, key, value):
    doc = disposition("red")
    doc["boats"][boat][key] = value
    try:
        check_disposition(doc, standard_card(), "red")
    except RuleViolation as refused:
        assert any(p.field and p.field.startswith(("boats", "man")) for p in refused.problems)


@settings(max_examples=150, deadline=None)
@given(move=JUNK)
def test_t7_any_move_document_is_refused_or_taken(move):
    game = started()
    version = game.version
    try:
        game.move("red", move)
    except RuleViolation:
        assert game.version == version and game.reports == []


def test_an_event_type_that_is_not_text_is_refused_in_either_game():
    """Found by the fuzz above: ``{"type": []}`` raised TypeError (a 500 on import) in the
    shared ``apply``, for the Naval War Game's logs too."""
    from referee.naval_war.game import replay as naval_replay
    for play in (replay, naval_replay):
        for junk in ([], {}, 3, None):
            try:
                play([{"type": junk}])
            except RuleViolation as refused:
                assert refused.problems[0].field == "type"
            else:
                raise AssertionError("replayed")
