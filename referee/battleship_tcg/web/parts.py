"""Battleship: The Tactical Combat Game's web part as the shared web layer reaches it
(``referee/webparts.py``): its Blueprint, its seat and post-mortem pages, its club section,
its printables, its seats for the creator and the computer, and its pages' entry script."""

from __future__ import annotations

from collections import Counter

from ...common.documents import Json
from ...common.phrasing import person_key
from ...webparts import Paper, WebParts, Words, leading_players
from ..card import standard_card
from ..catalogue import RULES, SEATS, TITLE
from . import printables
from .pages import bp, postmortem_page, seat_page


def blank_chart(*, paper: str = "a4", layout: str = "pair") -> bytes:
    """Blank charts of both halves of the standard card (T2)."""
    card = standard_card()
    return printables.blank_charts({s: card.island_names(s) for s in SEATS}, paper=paper,
                                   layout=layout)


def postmortem(shown: dict, record: dict, *, paper: str = "a4",
               analysis: dict | None = None) -> bytes:
    """The booklet from a seat's post-mortem view (its own view inside, both halves revealed)."""
    return printables.postmortem(shown["view"], paper=paper, analysis=analysis)


def club_section(entries: list[dict]) -> dict:
    """This game's tables on the club page, summed over the summaries (``club.club_entry``)
    of the games that count: each player's games won, drawn and lost, and how many shots the
    winners of games played out to the rescue took (T9)."""
    players: dict[str, Counter] = {}
    names: dict[str, str] = {}  # one row a person, named as he first played
    rescues = [e["rescue_shots"] for e in entries if e["rescue_shots"] is not None]
    for entry in entries:
        for seat in entry["seats"]:
            key = names.setdefault(person_key(seat["name"]), seat["name"])
            tally = players.setdefault(key, Counter(games=0, won=0, drawn=0, lost=0))
            tally["games"] += 1
            tally[seat["outcome"]] += 1
    rows: list[Json] = sorted(({"name": n, **t} for n, t in players.items()),
                              key=lambda row: (-row["won"], person_key(row["name"])))
    return {"template": "tcg/_club.html", "title": TITLE, "games": len(entries),
            "forfeited": 0, **leading_players(rows),
            "rescues": {"games": len(rescues),
                        "fewest": min(rescues, default=None),
                        "mean": round(sum(rescues) / len(rescues), 1) if rescues else None}}


TCG = WebParts(
    rules=RULES,
    blueprint=bp,
    seat_page=seat_page,
    postmortem_page=postmortem_page,
    club_section=club_section,
    paper=Paper(blank_chart=blank_chart, blank_record=printables.blank_record,
                player_charts=printables.player_charts, player_record=printables.player_record,
                postmortem=postmortem),
    entry="tcg.js",
    style="tcg.css",
    home="tcg/_home.html",
    words=Words(order="Order of play (T6), tossed for when the game was created",
                order_unknown="Order of play (T6): tossed for when both players have locked in.",
                agree="Agree to end now (a draw, T9)",
                end_rule="T9", agreed_end="It ends when both agree: a draw.",
                resign="Resign? You lose the game (T9)."),
    about="five boats and a captured man on a honeycomb with islands; two players, one shot a "
          "turn, then the rescue",
)
