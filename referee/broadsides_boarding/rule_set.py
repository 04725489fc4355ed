"""Broadsides and Boarding Parties as the referee's seam sees it (``RuleSet``)."""

from __future__ import annotations

from ..common.ruleset import RuleSet
from . import views
from .catalogue import RULES, SEATS, TITLE, catalogue
from .club import club_entry
from .computer import LEVELS, STAND_IN_LEVEL, computer
from .game import IGNORED_OPTIONS, OPTIONS, Game, new_game
from .postmortem import postmortem_document
from .schemas import schemas
from .seam import check_draft, with_draft
from .twin import secret_twin

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
    view_parts=views.view_parts,
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
    web="referee.broadsides_boarding.web.parts:BOARDING",
    secrecy_rule="BB25",
    seating=views.seating_for,  # the seats are the ships: no toss (BB20 rolls the boarding's)
    schemas=schemas,
    # two computers can stall for ever (a ship held by three Damaged cards, the enemy beside it
    # with no cannon and only his Captain, keeping away, BB6, BB23): a few games in a hundred,
    # all of them finished well before this when they finish at all
    match_moves=600,
)
