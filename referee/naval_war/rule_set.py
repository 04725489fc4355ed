"""The Naval War Game as the referee's seam sees it (``referee.common.ruleset.RuleSet``).

The computer's levels live beside the core in ``computer/`` (they play from a view alone and
import no ``Game``); this module joins them to the core's views and commands.
"""

from __future__ import annotations

from ..common.documents import Json
from ..common.ruleset import RuleSet
from . import catalogue, documents
from .club import club_entry
from .computer import DESCRIPTIONS, Bot
from .computer.clairvoyant import BENCH
from .documents import Disposition
from .fleet import check_disposition
from .game import SEATS, Game, new_game
from .postmortem import postmortem_summary
from .problems import Problem
from .twin import secret_twin
from .views import (
    own_report,
    postmortem_view,
    record_for,
    report_for,
    result_headline,
    view_for,
    view_parts,
)


def create(*, id: str, seed: int, at: float, options: Json, bots: Json
           ) -> tuple[Game, list[Json]]:
    """A new game from the API's options (R10, R11, R23, R25)."""
    return new_game(id=id, seed=seed, at=at, bots=bots, seats=options.get("seats", 2),
                    alliances=options.get("alliances", False),
                    disposition_minutes=options.get("disposition_minutes",
                                                    catalogue.DEFAULT_MINUTES),
                    move_minutes=options.get("move_minutes"))


def check_draft(game: Game, seat: str, document: object
                ) -> tuple[Disposition, Json, list[Problem]]:
    """A seat's draft disposition checked as ``Game.submit`` checks it (R3-R10), without an
    event: its normal form, its cost (R3) and its warnings."""
    game._check_setup(seat)  # the core's own check: joined, not ready, in setup
    fleet, cost, warnings = check_disposition(document)
    return fleet.document, cost.to_json(), warnings


def with_draft(view: Json, document: Json) -> Json:
    """A seat's view in setup showing its kept draft: the disposition, its damage (none yet)
    and its forces, as after a lock-in."""
    fleet = check_disposition(document)[0]
    return {**view, "disposition": fleet.document, "damage": fleet.damage(),
            "forces": fleet.forces()}


RULE_SET = RuleSet(
    rules=catalogue.RULES,
    title=catalogue.TITLE,
    game_type=Game,
    catalogue=catalogue.to_json,
    new_game=create,
    options=("seats", "alliances", "disposition_minutes", "move_minutes"),
    seats=SEATS,
    view_for=view_for,
    view_parts=view_parts,
    report_for=report_for,
    own_report=own_report,
    record_for=record_for,
    headline=result_headline,
    postmortem_view=postmortem_view,
    postmortem_document=postmortem_summary,
    club_entry=club_entry,
    check_draft=check_draft,
    with_draft=with_draft,
    levels=DESCRIPTIONS,
    computer=Bot,
    stand_in_level="captain",
    secret_twin=secret_twin,
    web="referee.naval_war.web.parts:NAVAL_WAR",
    file_format="naval-war-game",  # what its files were called before the later games came
    agreed_end_scored=True,  # R14, R22: an agreed end is decided by the scores
    documents={"View": documents.ServedView, "Report": documents.SeatReport,
               "Record": documents.MoveRecord},
    bench=BENCH,  # the clairvoyant reference player, for ``referee ladder`` alone
)

__all__ = ["RULE_SET"]
