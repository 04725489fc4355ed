"""The Naval War Game's pages and paper as the shared web layer reaches them (``WebParts``).

Its pages were the referee's first and still live in ``referee/pages.py`` (budget, placement,
play, the end, the post-mortem and the club's tables) and its printables in ``printables/``;
this module joins them to the seam. A rule set added since keeps its web part in its own
package (``referee/battleship_tcg/web``).
"""

from __future__ import annotations

from .naval_war.catalogue import RULES, SIZE
from .naval_war.web import paper as drawn
from .pages import naval_war_club, naval_war_page, naval_war_postmortem
from .webparts import Paper, WebParts


def postmortem(shown: dict, record: dict, *, paper: str, analysis: dict) -> bytes:
    """The post-mortem booklet from the seat's post-mortem view (its own view inside)."""
    return drawn.postmortem(shown["view"], record, paper=paper, analysis=analysis)


NAVAL_WAR = WebParts(
    rules=RULES,
    blueprint=None,  # its forms are routes of the shared ``pages`` blueprint
    seat_page=naval_war_page,
    postmortem_page=naval_war_postmortem,
    club_section=naval_war_club,
    paper=Paper(blank_chart=drawn.blank_chart, blank_record=drawn.blank_record,
                player_charts=drawn.player_charts,
                player_record=drawn.player_record, postmortem=postmortem),
    home="_naval_war_home.html",
    about=f"fleets, bombers, R.P.s, A-A guns and salvoes on a hidden {SIZE} × {SIZE} chart; "
          "two to four players",
)
