"""Battleship: The Tactical Combat Game as the referee's seam sees it (``RuleSet``)."""

from __future__ import annotations

from ..common.ruleset import RuleSet
from . import views
from .catalogue import RULES, TITLE, catalogue
from .club import club_entry
from .computer import LEVELS, computer
from .game import IGNORED_OPTIONS, OPTIONS, Game, new_game
from .postmortem import postmortem_document
from .schemas import schemas
from .seam import STAND_IN_LEVEL, check_draft, with_draft


class Bench:
    """What ``referee duel`` adds for these rules: each level's solo runs (``.duel``, loaded
    only when the bench asks, so that the core loads nothing of the command line)."""

    @staticmethod
    def duel_lines(series, seed: int, progress=None) -> list[str]:
        from .duel import duel_lines

        return duel_lines(series, seed, progress)


RULE_SET = RuleSet(
    rules=RULES,
    title=TITLE,
    game_type=Game,
    catalogue=catalogue,
    new_game=new_game,
    # "seats": 2 and "alliances": false are read as what they can only be here
    options=(*OPTIONS, *IGNORED_OPTIONS),
    empty=Game,
    view_for=views.view_for,
    report_for=views.report_for,
    record_for=views.record_for,
    status_view=views.status_view,
    host_view=views.host_view,
    seating=views.seating_for,
    headline=views.result_headline,
    targets_for=views.targets_for,
    postmortem_view=views.postmortem_view,
    postmortem_document=postmortem_document,
    game_file_view=views.game_file_view,
    fingerprints_verify=views.fingerprints_verify,
    club_entry=club_entry,
    check_draft=check_draft,
    with_draft=with_draft,
    game_content=Game.content,
    levels=LEVELS,
    computer=computer,
    stand_in_level=STAND_IN_LEVEL,
    seats=("red", "blue"),
    schemas=schemas,
    bench=Bench(),
)
