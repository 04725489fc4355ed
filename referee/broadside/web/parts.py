"""Broadside's web part as the shared web layer reaches it (``referee/webparts.py``): its
Blueprint, its seat and post-mortem pages, its club section and its printables."""

from __future__ import annotations

from collections import Counter

from ...webparts import Paper, WebParts
from ..board import BOARD
from ..catalogue import RULES, SEATS, TITLE
from ..views import result_headline, view_for
from . import printables
from .pages import bp, postmortem_page, seat_page
from .steps import states


def blank_chart(*, paper: str = "a4", layout: str = "pair") -> bytes:
    """The board sheet (B1): the harbour to play on."""
    return printables.board_sheet(BOARD, paper=paper, layout=layout)


def player_charts(view: dict, *, paper: str = "a4", opponents=None) -> bytes:
    """A player's board mid-game, from his view alone (B12)."""
    return printables.player_board(view, paper=paper)


def postmortem(shown: dict, record: dict, *, paper: str = "a4",
               analysis: dict | None = None) -> bytes:
    """The booklet from a seat's post-mortem view, the harbour after every move."""
    return printables.postmortem(shown["view"], paper=paper, boards=states(shown))


def _final(game) -> dict:
    """A finished game as both players may now see it (B12): Blue's view at the end."""
    return view_for(game, "blue")


def club_section(games: list, imported: set[str], uncounted: set[str]) -> dict:
    """This game's own table on the club page: wins by Red and by Blue, merchant ships sunk,
    ships the rocks sank and masts the batteries took; each player's wins by side. Unverified
    imports (``uncounted``) are listed but counted nowhere."""
    from .. import views

    counted = [g for g in games if views.status_view(g)["id"] not in uncounted]
    wins = Counter(red=0, blue=0)
    merchants = rocks = battery_masts = 0
    players: dict[str, Counter] = {}
    for game in counted:
        shown = _final(game)
        result = shown["result"] or {}
        winners = result.get("winners") or ([result["winner"]] if result.get("winner") else [])
        for seat in winners:
            wins[seat] += 1
        merchants += sum(1 for m in shown["merchants"] if m["sunk"])
        for report in shown["reports"]:
            rocks += sum(1 for s in report.get("sunk") or [] if s.get("by") == "rock")
            battery_masts += report.get("battery_masts") or 0
        for seat in SEATS:
            name = shown["seats"][seat]["name"] or seat.title()
            tally = players.setdefault(name, Counter(games=0, red=0, blue=0, lost=0))
            tally["games"] += 1
            if seat in winners:
                tally[seat] += 1
            elif winners:
                tally["lost"] += 1
    finished = []
    for game in reversed(games):
        status = views.status_view(game)
        finished.append({"id": status["id"],
                         "players": " v ".join(status["seats"][s]["name"] or s.title()
                                               for s in SEATS),
                         "headline": result_headline(_final(game)),
                         "imported": status["id"] in imported, "counted": game in counted,
                         "forfeited": False})
    return {"template": "broadside/_club.html", "title": TITLE, "games": len(counted),
            "forfeited": 0, "finished": finished, "wins": dict(wins),
            "merchants_sunk": merchants, "rocks": rocks, "battery_masts": battery_masts,
            "players": sorted(({"name": n, **t} for n, t in players.items()),
                              key=lambda row: (-(row["red"] + row["blue"]), row["name"]))}


BROADSIDE = WebParts(
    rules=RULES,
    blueprint=bp,
    seat_page=seat_page,
    postmortem_page=postmortem_page,
    club_section=club_section,
    paper=Paper(blank_chart=blank_chart, blank_record=printables.blank_record,
                player_charts=player_charts, player_record=printables.player_record,
                postmortem=postmortem),
    home="broadside/_home.html",
    about="sailing ships: Red invades a harbour to sink four merchant ships, Blue defends it "
          "with warships, shore batteries and buoys over rocks that only he knows",
)
