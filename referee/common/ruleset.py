"""The seam between the referee and a rule set: one ``RuleSet`` each rule set's package fills in.

The store, the service, the API, the pages, the printables, the computers and the club records
reach a game only through its rule set's ``RuleSet``: they build and replay its ``Game``, hand
it commands (``join``, ``submit``, ``lock_in``, ``move``, ``resign`` ... the same names in every
rule set) and read nothing of it but the views listed here (R21, T10). A game's own fields stay
inside its package.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Game = Any  # each rule set's own ``Game``: the seam reads it only through the functions below
View = Callable[[Game, str], dict]


@dataclass(frozen=True)
class RuleSet:
    """What the referee needs of a rule set; every function is pure."""

    rules: str  # its name in the API: "naval-war", "battleship-tcg"
    title: str  # as the pages and printables name it
    game_type: type  # its ``Game`` class: how the referee knows which rule set a game plays
    catalogue: Callable[[], dict]  # names, sizes, shapes, limits: GET /api/v1/rules
    # a new game from the API's options (without "rules") and a secret seed: (game, events);
    # bad options raise RuleViolation naming the field and ruling
    new_game: Callable[..., tuple[Game, list[dict]]]
    options: tuple[str, ...]  # the options ``new_game`` reads (besides "rules" and "bots")
    empty: Callable[[], Game]  # a game with no events yet, to apply a stored log to
    view_for: View  # everything one seat may know (R21, T10)
    report_for: Callable[[Game, dict, str], dict]  # a move's report as a seat sees it
    record_for: View  # the move record as a seat may see it
    status_view: Callable[[Game], dict]  # the public state: phase, seats, turn, clocks, result
    host_view: Callable[[Game], dict]  # what the host may see (R24)
    # what a join link shows before joining: {"id", "seats", "order", "sides"}
    seating: Callable[[Game], dict]
    headline: Callable[[dict], str]  # a finished game's result in a sentence, from a view
    targets_for: View  # the seats a seat may attack now
    postmortem_view: View  # everything, once the game is over; refused before
    postmortem_document: Callable[[Game], dict]  # GET .../postmortem, once over
    game_file_view: Callable[[Game], dict]  # events, fingerprints, salts, result; once over
    fingerprints_verify: Callable[[Game], bool]
    # a finished game's part of the club's records, made once as it ends and kept: plain JSON
    # with "players" (who played, in a line), "headline" (the result in a sentence) and
    # "forfeited" (listed but not counted), and whatever its web part's club section sums
    club_entry: Callable[[Game], dict]
    # a seat's draft checked as the core checks a disposition, before it is kept: its
    # normal form, its cost (None where nothing is bought) and warnings (Problems)
    check_draft: Callable[[Game, str, object], tuple[dict, dict | None, list]]
    with_draft: Callable[[dict, dict], dict]  # a seat's view showing its kept draft
    # what makes two game files one game (``Lifecycle.content``): each seat's disposition and
    # the moves, seats by their place in the order of play; no names, ids, times, options,
    # salts, nor the order of the events before play
    game_content: Callable[[Game], dict]
    levels: Mapping[str, str]  # the computer's levels and what each is like
    # (level, seed, on_failure=None) -> a computer with .disposition(view) and .move(view)
    computer: Callable[..., Any]
    stand_in_level: str  # the level that plays for an absent player (R25)
    seats: Iterable[str] = ("red", "blue")  # every seat a game of these rules may have
    # its documents as OpenAPI schemas, by name ("Disposition", "Move", "Report", "View",
    # "Options", "Catalogue"): the OpenAPI document offers each rule set's beside the
    # Naval War Game's (whose are written in referee/openapi.py)
    schemas: Callable[[], dict] = dict
    # the bench's own measures of these rules (``referee duel``, ``referee ladder``), or None:
    # an object with any of ``duel_lines(series, seed, progress)`` (the lines ``referee duel``
    # prints after its headline instead of the mean scores), ``clairvoyant(computer)`` (a
    # reference player with that computer's forces, handed its opponents' views as well as its
    # own: never offered as an opponent), ``points_lost(view)`` and ``fleet_points(view)``
    # (what a seat has lost, and had, from its own view: what the clairvoyance compares)
    bench: Any = None
