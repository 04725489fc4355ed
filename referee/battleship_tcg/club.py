"""Battleship: The Tactical Combat Game's part of the club's records: each finished game
summarised once, as it ends (the ``RuleSet``'s ``club_entry``), from what its view shows
everyone after the end (T9, T10). The web part sums the summaries into its tables."""

from __future__ import annotations

from ..common.documents import Json
from . import views
from .catalogue import SEATS
from .game import Game


def club_entry(game: Game) -> Json:
    """Who played and the result, each player's outcome, and the winner's shots when the game
    was played out to the rescue (T9)."""
    shown = views.view_for(game, SEATS[0])  # after the end: everything revealed (T9)
    status = views.status_view(game)
    result = shown["result"]
    return {
        "players": " v ".join(status["seats"][s]["name"] or s.title() for s in SEATS),
        "headline": views.result_headline(shown), "forfeited": False,
        "seats": [{"name": shown["seats"][seat]["name"] or seat.title(),
                   "outcome": "won" if seat in result["winners"] else
                              "drawn" if not result["winners"] else "lost"}
                  for seat in SEATS],
        "rescue_shots": sum(1 for r in shown["reports"] if r["by"] == result["winner"])
        if result["reason"] == "rescued" else None,
    }
