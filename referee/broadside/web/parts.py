"""Broadside's web part as the shared web layer reaches it (``referee/webparts.py``): its
Blueprint, its seat and post-mortem pages, its club section, its printables, its seats for the
creator and the computer, and its pages' entry script."""

from __future__ import annotations

from collections import Counter

from ...common.documents import Json
from ...common.phrasing import person_key
from ...webparts import Paper, WebParts, Words, leading_players
from ..board import BOARD
from ..catalogue import RULES, TITLE
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
    return printables.postmortem(shown["view"], paper=paper, boards=states(shown),
                                 analysis=analysis)


def club_section(entries: list[dict]) -> dict:
    """This game's own table on the club page, summed over the summaries (``club.club_entry``)
    of the games that count: wins by Red and by Blue, merchant ships sunk, ships the rocks
    sank and masts the batteries took; each player's wins by side."""
    wins = Counter(red=0, blue=0)
    players: dict[str, Counter] = {}
    names: dict[str, str] = {}  # one row a person, named as he first played
    for entry in entries:
        winners = entry["winners"]
        wins.update(winners)
        for seat in entry["seats"]:
            key = names.setdefault(person_key(seat["name"]), seat["name"])
            tally = players.setdefault(key, Counter(games=0, red=0, blue=0, lost=0))
            tally["games"] += 1
            if seat["seat"] in winners:
                tally[seat["seat"]] += 1
            elif winners:
                tally["lost"] += 1
    rows: list[Json] = sorted(
        ({"name": n, **t} for n, t in players.items()),
        key=lambda row: (-(row["red"] + row["blue"]), person_key(row["name"])))
    return {"template": "broadside/_club.html", "title": TITLE, "games": len(entries),
            "forfeited": 0, "wins": dict(wins),
            "merchants_sunk": sum(e["merchants_sunk"] for e in entries),
            "rocks": sum(e["rocks"] for e in entries),
            "battery_masts": sum(e["battery_masts"] for e in entries), **leading_players(rows)}


BROADSIDE = WebParts(
    rules=RULES,
    blueprint=bp,
    seat_page=seat_page,
    postmortem_page=postmortem_page,
    club_section=club_section,
    paper=Paper(blank_chart=blank_chart, blank_record=printables.blank_record,
                player_charts=player_charts, player_record=printables.player_record,
                postmortem=postmortem),
    entry="broadside.js",
    style="broadside.css",
    home="broadside/_home.html",
    words=Words(order="Order of play (B5): Red always moves first",
                order_unknown="Order of play (B5): Red moves first, then turn about.",
                agree="Agree to end now (a draw, B10)",
                end_rule="B10", agreed_end="It ends when both agree: a draw.",
                resign="Resign? You lose the game (B10)."),
    about="sailing ships: Red invades a harbour to sink four merchant ships, Blue defends it "
          "with warships, shore batteries and buoys over rocks that only he knows",
)
