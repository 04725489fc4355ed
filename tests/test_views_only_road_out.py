"""Views are the only road out of a rule set: no module outside the core reads a ``Game``'s fields;
they go through the core's views (R21). The scan is by name: the modules outside the core call a
game ``game`` or ``state`` (a game in a loop too), so any attribute of such a name that is one of
``Game``'s fields or properties is a read of a game's state."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from helpers import started_game

from referee import rulesets
from referee.naval_war import Game
from referee.naval_war.problems import RuleViolation
from referee.naval_war.views import host_view, postmortem_view, status_view, targets_for

ROOT = Path(__file__).resolve().parent.parent
# the registered rule sets' pure cores and what they share; a package inside one (its web part, its
# computer: naval_war/web, battleship_tcg/computer) is outside the core and scanned
CORES = {"common"} | {rule_set.game_type.__module__.split(".")[1]
                      for rule_set in rulesets.RULE_SETS.values()}  # every registered one
OUTSIDE = sorted(p for p in (ROOT / "referee").rglob("*.py")
                 if not (p.parent.name in CORES and p.parent.parent == ROOT / "referee")) \
    + sorted((ROOT / "printables").rglob("*.py"))
GAME_NAMES = {"game", "state"}
FIELDS = {f.name for f in dataclasses.fields(Game)} | {
    name for cls in Game.__mro__ for name, value in vars(cls).items()
    if isinstance(value, property)}

# The service runs commands on a Game it holds (it is the one layer allowed to): it keeps the
# log in step with the store, so it reads how long the log is and the events a command added
# (``version``, ``events``); that is the log, not a seat's state. Nothing else is allowed.
ALLOWED = {
    # the log's length: the optimistic check before appending; the events a command appended,
    # written to the store
    ("referee/service/engine.py", "version"), ("referee/service/engine.py", "events"),
    # a game's first events, stored as it is created; a draft kept at the version it was
    # checked at
    ("referee/service/commands.py", "version"), ("referee/service/commands.py", "events"),
    ("referee/service/seats.py", "version"),  # a join, applied inside its write
    ("referee/service/seats.py", "events"),
    ("referee/service/views.py", "version"),  # a view is kept per version
    ("referee/states.py", "version"),  # the cache replays events after the version it holds
    # whether a game whose rules roll dice holds the referee's secret dice seed yet (BB24): the
    # service's own secret, handed to the game before a command, never a seat's state
    ("referee/service/computers.py", "dice_secret"),
}


def field_reads(path: Path) -> set[tuple[str, str, int]]:
    reads = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in GAME_NAMES and node.attr in FIELDS:
            reads.add((path.name, node.attr, node.lineno))
    return reads


def test_the_scan_knows_the_games_fields():
    assert {"fleets", "salts", "fingerprints", "ready", "names", "phase", "turn"} <= FIELDS
    assert len(OUTSIDE) > 10 and any(p.name == "pages.py" for p in OUTSIDE)


def test_the_scan_sees_a_field_read(tmp_path):
    sample = tmp_path / "leak.py"
    sample.write_text("def f(game):\n    return game.fleets['red'].document, game.move(1)\n")
    assert field_reads(sample) == {("leak.py", "fleets", 2)}


@pytest.mark.parametrize("path", OUTSIDE, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_outside_the_core_reads_a_games_fields(path):
    where = path.relative_to(ROOT).as_posix()
    leaks = sorted((name, attr, line) for name, attr, line in field_reads(path)
                   if (where, attr) not in ALLOWED)
    assert not leaks, f"reads of a Game's fields outside the core (use a view): {leaks}"


def test_the_host_view_holds_no_fleet():
    game = started_game()
    shown = host_view(game)
    text = repr(shown)
    assert "disposition" not in text and "salt" not in text and "damage" not in text
    assert set(shown) == {"id", "phase", "version", "clock", "seats", "turn", "result"}
    assert status_view(game)["phase"] == "play"


def test_r21_the_postmortem_view_refuses_before_the_end():
    game = started_game()
    with pytest.raises(RuleViolation) as refused:
        postmortem_view(game, "red")
    assert refused.value.problems[0].rule == "R21"
    done = started_game()
    done.resign("blue")
    shown = postmortem_view(done, "red")
    assert set(shown["seats"]) == {"red", "blue"} and all(c["matches"] for c in shown["checks"])


def test_r23_targets_are_the_seats_not_on_my_side():
    game = started_game()
    assert targets_for(game, "red") == ["blue"] and targets_for(game, "blue") == ["red"]
