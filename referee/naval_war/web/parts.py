"""The Naval War Game's web part as the shared web layer reaches it (``referee/webparts.py``):
its Blueprint, its seat and post-mortem pages, its club section, its printables, its seats
for the creator and the computer, and its pages' entry script."""

from __future__ import annotations

from ...svgchart import bar_chart
from ...webparts import Paper, WebParts, Words, leading_players
from ..catalogue import BUDGET, NAMES, PLURALS, RULES, TITLE
from ..club import club_records
from ..squares import SIZE
from . import paper as drawn
from .pages import bp, postmortem_page, seat_page


def postmortem(shown: dict, record: dict, *, paper: str, analysis: dict) -> bytes:
    """The post-mortem booklet from the seat's post-mortem view (its own view inside)."""
    return drawn.postmortem(shown["view"], record, paper=paper, analysis=analysis)


def club_section(entries: list[dict]) -> dict:
    """This game's section of the club page, summed over the summaries of its finished
    games that count (``naval_war.club``): the ships that survived, what sank them, the
    results by how the budget was split, and the players."""
    records = club_records(entries)
    survival = [(PLURALS[row["ship"]], row["percent"] or 0,
                 f"{row['percent']}% ({row['survived']} of {row['bought']})"
                 if row["bought"] else "none bought") for row in records["survival"]]
    sunk = records["sunk"]
    weapons = [(NAMES[k][0].upper() + NAMES[k][1:], sunk[k], f"{sunk[k]} points")
               for k in ("atom-bomber", "bomber", "salvo")]
    return {"template": "naval_war/_club.html", "title": TITLE, "budget": BUDGET,
            "games": records["games"], "forfeited": records["forfeited"],
            **leading_players(records.pop("players")),  # kept: the leading rows
            "records": records,
            "survival_chart": bar_chart("Ships that survived", survival, 100),
            "weapon_chart": bar_chart("Enemy ship points sunk, by weapon", weapons,
                                      max([1] + [n for _, n, _ in weapons]))}


NAVAL_WAR = WebParts(
    rules=RULES,
    blueprint=bp,
    seat_page=seat_page,
    postmortem_page=postmortem_page,
    club_section=club_section,
    paper=Paper(blank_chart=drawn.blank_chart, blank_record=drawn.blank_record,
                player_charts=drawn.player_charts, player_record=drawn.player_record,
                postmortem=postmortem),
    entry="main.js",
    home="naval_war/_home.html",
    words=Words(order="Order of play (R11), drawn when the game was created",
                order_unknown="Order of play (R11): drawn when every player has locked in.",
                agree="Agree to end now (R14)",
                end_rule="R14", agreed_end="It ends when every player agrees; the scores "
                                           "decide (R22).",
                resign="Resign? Your side loses whatever the scores (R14)."),
    about=f"fleets, bombers, R.P.s, A-A guns and salvoes on a hidden {SIZE} × {SIZE} chart; "
          "two to four players",
)
