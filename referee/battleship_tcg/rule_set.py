"""Battleship: The Tactical Combat Game as the referee's seam sees it (``RuleSet``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..common.ruleset import RuleSet
from . import views
from .catalogue import RULES, SEATS, TITLE, catalogue
from .club import club_entry
from .computer import LEVELS, computer
from .game import IGNORED_OPTIONS, OPTIONS, Game, new_game
from .postmortem import postmortem_document
from .schemas import schemas
from .seam import STAND_IN_LEVEL, check_draft, with_draft
from .twin import secret_twin


class Bench:
    """What ``referee duel`` adds for these rules: each level's solo runs (``.duel``, loaded
    only when the bench asks, so that the core loads nothing of the command line)."""

    @staticmethod
    def duel_lines(series: DuelSeries, seed: int,
                   progress: Callable[[int], None] | None = None) -> list[str]:
        from .duel import duel_lines

        return duel_lines(series, seed, progress)


if TYPE_CHECKING:  # the bench's module is loaded only when the bench asks
    from .duel import DuelSeries

RULE_SET = RuleSet(
    rules=RULES,
    title=TITLE,
    game_type=Game,
    catalogue=catalogue,
    new_game=new_game,
    # "seats": 2 and "alliances": false are read as what they can only be here
    options=(*OPTIONS, *IGNORED_OPTIONS),
    seats=SEATS,
    view_for=views.view_for,
    report_for=views.report_for,
    record_for=views.record_for,
    headline=views.result_headline,
    postmortem_view=views.postmortem_view,
    postmortem_document=postmortem_document,
    club_entry=club_entry,
    check_draft=check_draft,
    with_draft=with_draft,
    levels=LEVELS,
    computer=computer,
    stand_in_level=STAND_IN_LEVEL,
    secret_twin=secret_twin,
    web="referee.battleship_tcg.web.parts:TCG",
    secrecy_rule="T10",
    seating=views.seating_for,  # the card's islands beside the seats (T2)
    schemas=schemas,
    bench=Bench(),
)
