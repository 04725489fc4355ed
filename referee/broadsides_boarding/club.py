"""Broadsides and Boarding Parties' part of the club's records: each finished game summarised
once, as it ends (the ``RuleSet``'s ``club_entry``), from a seat's view at the end, which both
players may now see. The web part sums the summaries into its table: wins by sinking, by
boarding (a Captain eliminated), by surrender and otherwise."""

from __future__ import annotations

from ..common.documents import Json
from .catalogue import SEATS
from .game import Game
from .views import result_headline, status_view, view_for

HOW = {"sunk": "sinking", "all-lost": "sinking", "captain": "boarding", "resigned": "surrender"}


def club_entry(game: Game) -> Json:
    """Who played and the result, how it was won, and each seat's name and outcome."""
    shown = view_for(game, SEATS[0])
    status = status_view(game)
    result = shown["result"] or {}
    winners = result.get("winners") or []
    return {
        "players": " v ".join(status["seats"][s]["name"] or s.title() for s in SEATS),
        "headline": result_headline(shown), "forfeited": result.get("reason") == "forfeit",
        "winners": winners, "how": HOW.get(result.get("reason") or "", "other"),
        "rounds": shown["stage"]["round"],
        "boarded": shown["boarding"] is not None,
        "rolls": len(shown["dice"]["rolls"]),
        "seats": [{"seat": s, "name": shown["seats"][s]["name"] or s.title(),
                   "outcome": "won" if s in winners else "drawn" if not winners else "lost"}
                  for s in SEATS],
    }
