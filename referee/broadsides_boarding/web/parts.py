"""Broadsides and Boarding Parties' web part as the shared web layer reaches it
(``referee/webparts.py``): its blueprint, its seat and post-mortem pages, its club section (wins by
sinking, by boarding and by surrender), its paper, and its pages' entry script."""

from __future__ import annotations

from collections import Counter

from ...common.documents import Json
from ...common.phrasing import person_key
from ...webparts import Paper, WebParts, Words, leading_players
from ..catalogue import RULES, TITLE
from . import paper
from .pages import bp, postmortem_page, seat_page

HOW = ("sinking", "boarding", "surrender", "other")


def club_section(entries: list[dict]) -> dict:
    """This game's table on the club page, summed over the summaries (``club.club_entry``)
    of the games that count: each player's games, wins by sinking, by boarding (the enemy
    Captain eliminated) and by surrender, draws and losses."""
    players: dict[str, Counter] = {}
    names: dict[str, str] = {}  # one row a person, named as he first played
    for entry in entries:
        for seat in entry["seats"]:
            key = names.setdefault(person_key(seat["name"]), seat["name"])
            tally = players.setdefault(key, Counter(
                games=0, sinking=0, boarding=0, surrender=0, other=0, drawn=0, lost=0))
            tally["games"] += 1
            if seat["outcome"] == "won":
                tally[entry["how"]] += 1
            else:
                tally[seat["outcome"]] += 1
    rows: list[Json] = sorted(
        ({"name": n, "won": sum(t[h] for h in HOW), **t} for n, t in players.items()),
        key=lambda row: (-row["won"], person_key(row["name"])))
    return {"template": "boarding/_club.html", "title": TITLE, "games": len(entries),
            "forfeited": sum(1 for e in entries if e["forfeited"]),
            "how": {h: sum(1 for e in entries if e["winners"] and e["how"] == h) for h in HOW},
            "boarded": sum(1 for e in entries if e.get("boarded")), **leading_players(rows)}


BOARDING = WebParts(
    rules=RULES,
    blueprint=bp,
    seat_page=seat_page,
    postmortem_page=postmortem_page,
    club_section=club_section,
    paper=Paper(blank_chart=paper.blank_chart, blank_record=paper.blank_record,
                player_charts=paper.player_charts, player_record=paper.player_record,
                postmortem=paper.postmortem),
    entry="boarding.js",
    home="boarding/_home.html",
    style="boarding.css",  # the sea, the decks, the hand and the dice, on every page of it
    words=Words(order="Order of play at a boarding (BB20), by the dice",
                order_unknown="Order of play: both players' orders are sealed and turned up "
                              "together (BB5); at a boarding the dice decide who moves first "
                              "(BB20).",
                agree="Agree to end now (a draw, BB23)", end_rule="BB23",
                agreed_end="It ends when both agree: a draw.",
                resign="Surrender? You lose the game (BB23).", resign_button="Surrender"),
    about="two sailing ships: plot three cards in secret each round, fire broadsides when "
          "within a dot, then board and fight for the enemy Captain; the referee holds the "
          "plots sealed and rolls dice anyone can check",
)
