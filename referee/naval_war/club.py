"""The club's records over its finished games: the rules' two summary tables, and players.

"Here are two tables that summarise the results of our games": the survival of each type of
ship across games (the rules' "60 per cent of Battleships survived"), and results by how the
160 points were split between ships and forces, with or without Atom Bombers. Only finished
games are counted, where everything is revealed to everyone in the game (R21), and not those
forfeited before play, where nobody played a move: they are listed, but say nothing of fleets.

A game is summarised once, as it ends (``club_entry``: plain JSON the referee keeps), and the
tables are sums of those summaries (``club_records``): no game is replayed for the club.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..common.documents import Json
from ..common.phrasing import person_key
from .catalogue import BUDGET, MIN_SHIPS, PRICES, SHIP_TYPES
from .game import Game
from .phrasing import join_and, seat_word
from .postmortem import sinks_by_weapon
from .views import result_headline, view_for

WEAPONS = ("atom-bomber", "bomber", "salvo")  # what the club's chart credits with sinkings

SHIP_BANDS = ((MIN_SHIPS, 79), (80, 99), (100, BUDGET))  # R4: 60 to 160 on ships


def _band(ship_points: int) -> str:
    for low, high in SHIP_BANDS:
        if low <= ship_points <= high:
            return f"{low}-{high}" if high < BUDGET else f"{low} or more"
    return f"{ship_points}"


def _outcome(game: Game, seat: str) -> str:
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("a game is summarised for the club once it is over")
    if seat in outcome.winners:
        return "won"
    resigned = game.side(game.resigned) if game.resigned else ()  # with his allies (R14)
    return "drawn" if not outcome.winners and seat not in resigned else "lost"


def players_line(game: Game) -> str:
    """Who played, side by side (R23): "Ann and Cy against Bob", or "Ann, Bob and Cy".

    >>> from .game import new_game
    >>> game, _ = new_game(seats=3, alliances=[["red", "green"], ["blue"]], seed=1)
    >>> game.names.update(red="Ann", blue="Bob", green="Cy")
    >>> players_line(game)
    'Ann and Cy against Bob'
    """
    def names(side: tuple[str, ...]) -> str:
        return join_and(game.names.get(s) or seat_word(s) for s in side)
    if all(len(side) == 1 for side in game.sides):
        return names(game.seats)
    return " against ".join(names(side) for side in game.sides)


def forfeited_before_play(game: Game) -> bool:
    """A game won by forfeit before anyone played a move (R10)."""
    return game.over == "forfeit" and not game.reports


def club_entry(game: Game) -> Json:
    """A finished game's part of the club's records (the ``RuleSet``'s ``club_entry``): who
    played and the result in a sentence, for the list of games; and, unless it was forfeited
    before play, each fleet's ships bought and survived, its points split, its outcome and
    score, and the enemy ship points each weapon sank (R19). Everything in it is revealed to
    every player once the game is over (R21)."""
    fleets: list[Json] = []
    entry = {"players": players_line(game),
             "headline": result_headline(view_for(game, game.seats[0])),
             "forfeited": forfeited_before_play(game), "fleets": fleets, "sunk": {}}
    if entry["forfeited"]:
        return entry
    for seat in game.seats:
        fleet = game.fleets.get(seat)
        if fleet is None:  # forfeited before locking in (R10)
            continue
        bought: Counter[str] = Counter()
        survived: Counter[str] = Counter()
        for ship in fleet.ships:
            bought[ship.type] += 1
            survived[ship.type] += not ship.sunk
        ship_points = sum(PRICES[s.type] for s in fleet.ships)
        atoms = any(a.type == "atom-bomber" for a in fleet.aircraft)
        fleets.append({
            "name": game.names.get(seat) or seat, "outcome": _outcome(game, seat),
            "split": f"{_band(ship_points)} on ships, {'with' if atoms else 'no'} Atom Bombers",
            "score": fleet.score(), "bought": dict(bought), "survived": dict(survived)})
    sunk = sinks_by_weapon([game])
    entry["sunk"] = {kind: sunk[kind] for kind in WEAPONS}
    return entry


def club_records(entries: Iterable[Json]) -> Json:
    """Survival by ship type, results by points split, each player's record and the points
    each weapon sank, summed over the summaries (``club_entry``) of the games that count."""
    bought: Counter[Any] = Counter()
    survived: Counter[Any] = Counter()
    sunk: Counter[Any] = Counter()
    splits: dict[str, Counter[Any]] = {}
    players: dict[str, Counter[Any]] = {}
    names: dict[str, str] = {}  # one row a person, named as he first played
    counted = forfeited = 0
    for entry in entries:
        if entry["forfeited"]:
            forfeited += 1
            continue
        counted += 1
        sunk.update(entry["sunk"])
        for fleet in entry["fleets"]:
            bought.update(fleet["bought"])
            survived.update(fleet["survived"])
            outcome = fleet["outcome"]
            splits.setdefault(fleet["split"], Counter()).update(
                {"players": 1, outcome: 1, "score": fleet["score"]})
            key = names.setdefault(person_key(fleet["name"]), fleet["name"])
            players.setdefault(key, Counter()).update({"games": 1, outcome: 1})
    return {
        "games": counted,
        "forfeited": forfeited,
        "survival": [{"ship": t, "bought": bought[t], "survived": survived[t],
                      "percent": round(100 * survived[t] / bought[t]) if bought[t] else None}
                     for t in SHIP_TYPES],
        "splits": [{"split": key, "players": c["players"], "won": c["won"],
                    "drawn": c["drawn"], "lost": c["lost"],
                    "mean_score": round(c["score"] / c["players"], 1)}
                   for key, c in sorted(splits.items())],
        "players": [{"name": name, "games": c["games"], "won": c["won"], "drawn": c["drawn"],
                     "lost": c["lost"]}
                    for name, c in sorted(players.items(),
                                          key=lambda kv: (-kv[1]["won"], person_key(kv[0])))],
        "sunk": {kind: sunk[kind] for kind in WEAPONS},
    }
