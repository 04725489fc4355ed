"""Broadside's part of the club's records: each finished game summarised once, as it ends (the
``RuleSet``'s ``club_entry``), from Blue's view at the end, which both players may now see
(B12). The web part sums the summaries into its table."""

from __future__ import annotations

from ..common.documents import Json
from .catalogue import SEATS
from .game import Game
from .views import result_headline, status_view, view_for


def club_entry(game: Game) -> Json:
    """Who played and the result, the winning seats, merchant ships sunk, ships the rocks sank,
    masts the shore batteries took, and each player's seat and whether he won."""
    shown = view_for(game, "blue")
    status = status_view(game)
    result = shown["result"] or {}
    winners = result.get("winners") or ([result["winner"]] if result.get("winner") else [])
    return {
        "players": " v ".join(status["seats"][s]["name"] or s.title() for s in SEATS),
        "headline": result_headline(shown), "forfeited": False, "winners": winners,
        "merchants_sunk": sum(1 for m in shown["merchants"] if m["sunk"]),
        "rocks": sum(1 for report in shown["reports"] for s in report.get("sunk") or []
                     if s.get("by") == "rock"),
        "battery_masts": sum(report.get("battery_masts") or 0 for report in shown["reports"]),
        "seats": [{"seat": seat, "name": shown["seats"][seat]["name"] or seat.title()}
                  for seat in SEATS],
    }
