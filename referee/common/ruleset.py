"""The seam between the referee and a rule set: one ``RuleSet`` each rule set's package fills in.

The store, the service, the API, the pages, the printables, the computers and the club records
reach a game only through its rule set's ``RuleSet``: they build and replay its ``Game``, hand
it commands (``join``, ``submit``, ``lock_in``, ``move``, ``resign`` ... the same names in every
rule set) and read nothing of it but the views listed here (R21, T10). A game's own fields stay
inside its package.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import encoded, views
from .documents import HostView, Json, Seating, StatusView
from .lifecycle import Lifecycle
from .outcome import SHARED_ENDS

Game = Any  # each rule set's own ``Game``: the seam reads it only through the functions below
# a document a rule set gives and the seam passes on without changing it: its own TypedDict
# (``View``, ``MoveRecord`` ... of its documents module), read here as a JSON object
Document = Mapping[str, Any]
View = Callable[[Game, str], Document]


@dataclass(frozen=True)
class Twin:
    """A seat's disposition told apart from another only by what the rules keep from its
    opponents until a move reaches it (R21, T10, B12): two games alike but for it look the
    same to every opponent, move for move, as long as every move stays ``clear`` of where the
    two differ. What a rule set's ``secret_twin`` gives; the contract tests play both."""

    disposition: Document  # the other disposition, as legal as the seat's own
    # (the seat moving, its move, that seat's view) -> whether the move, by the rules, can
    # learn nothing of where the two dispositions differ (and so plays alike in both games)
    clear: Callable[[str, Json, Json], bool]
    # where a seat's secrets are its sealed orders (BB5, BB10) rather than its disposition:
    # (the seat's view as it owes an order, the order it gives) -> another order as legal,
    # that nobody else can tell from it until it is turned up (None: there is none). The
    # contract tests give one in one game and the other in its twin while another seat still
    # owes its own order in the same stage, and compare what that seat is shown
    order: Callable[[Json, Json], Json | None] | None = None


@dataclass(frozen=True)
class RuleSet:
    """What the referee needs of a rule set; every function is pure.

    A rule set writes what is its own (the fields without a default); the rest the seam
    supplies as every game does it (``referee.common.views``), and a rule set names one only
    where its game differs: the public status, the host's view, the join link's seating, the
    seats one may attack, the creator's and the computer's seats. The game file and the
    fingerprint check are every game's (``game_file_view``, ``fingerprints_verify``), and
    ``empty``, ``replay`` and ``game_content`` come from its ``Game`` (``Lifecycle``)."""

    # -- what each rule set writes --------------------------------------------------------
    rules: str  # its name in the API: "naval-war", "battleship-tcg"
    title: str  # as the pages and printables name it
    game_type: type[Lifecycle]  # its ``Game`` class: how the referee knows a game's rule set
    catalogue: Callable[[], Json]  # names, sizes, shapes, limits: GET /api/v1/rules
    # a new game from the API's options (without "rules") and a secret seed: (game, events);
    # bad options raise RuleViolation naming the field and ruling
    new_game: Callable[..., tuple[Game, list[Json]]]
    options: tuple[str, ...]  # the options ``new_game`` reads (besides "rules" and "bots")
    seats: tuple[str, ...]  # every seat a game of these rules may have, in their order
    view_for: View  # everything one seat may know (R21, T10)
    # a move's report (as the log keeps it) as a seat sees it
    report_for: Callable[[Game, Any, str], Document]
    record_for: View  # the move record as a seat may see it
    # a finished game's result in a sentence, from a view
    headline: Callable[[Any], str]
    postmortem_view: View  # everything, once the game is over; refused before
    postmortem_document: Callable[[Game], Document]  # GET .../postmortem, once over
    # a finished game's part of the club's records, made once as it ends and kept: plain JSON
    # with "players" (who played, in a line), "headline" (the result in a sentence) and
    # "forfeited" (listed but not counted), and whatever its web part's club section sums
    club_entry: Callable[[Game], Json]
    # a seat's draft checked as the core checks a disposition, before it is kept: its
    # normal form, its cost (None where nothing is bought) and warnings (Problems)
    check_draft: Callable[[Game, str, object], tuple[Document, Json | None, list[Any]]]
    with_draft: Callable[[Json, Json], Json]  # a seat's view showing its kept draft
    levels: Mapping[str, str]  # the computer's levels and what each is like, weakest first
    # (level, seed, on_failure=None) -> a computer with .disposition(view) and .move(view)
    # (``referee.common.computer``)
    computer: Callable[..., Any]
    stand_in_level: str  # the level that plays for an absent player (R25)
    # (a seat's view holding its disposition, a source) -> a ``Twin`` of that disposition, or
    # None for a seat with nothing to hide (Broadside's Red): how a rule set shows which part
    # of a disposition its opponents may not learn, and which moves reach it
    secret_twin: Callable[[Json, random.Random], Twin | None]

    # -- what the seam supplies unless a rule set names its own ---------------------------
    # its pages and paper (``referee.webparts.WebParts``) as "module:NAME", imported only by
    # the web app (``create_app``), so that the core loads nothing of the web; "": none
    web: str = ""
    # the seat of the player who creates a game on his phone, and hosts it (its first seat
    # unless named), and the seat the computer takes in a game against it (its second)
    creator_seat: str = ""
    computer_seat: str = ""
    # what its game files call their format ("format" in an exported file): "<rules>-game"
    # unless the rule set keeps a name its files had before
    file_format: str = ""
    # the ruling that keeps from a seat what it may not know, cited when something shown only
    # once the game is over (a post-mortem, a game file) is asked for before: R21, T10, B12
    secrecy_rule: str = "R21"
    # how an end by agreement comes out: a draw whatever the scores (False: T9, B10), or won
    # by the side that scored most, a draw only on equal scores (True: the Naval War Game, R22)
    agreed_end_scored: bool = False
    # phase, seats, turn, clocks ...
    status_view: Callable[[Game], StatusView] = views.status_view
    host_view: Callable[[Game], HostView] = views.host_view  # what the host may see (R24)
    # what a join link shows before joining: {"id", "seats", "order", "sides"} (and anything
    # a rule set shows beside them)
    seating: Callable[[Game], Seating] = views.seating_for
    # the seats a seat may attack now (R23)
    targets_for: Callable[[Game, str], list[str]] = views.targets_for
    # ``view_for``'s document with the parts that do not change from version to version
    # already written as JSON (``referee.common.encoded``): what the server writes a seat's
    # view from, byte for byte ``view_for``'s; None: ``view_for``'s own document
    view_parts: Callable[[Game, str], encoded.Parts] | None = None
    # (game, its newest report, the mover's seat) -> the mover's copy of that report
    # (``report_for``'s) and its JSON, taken from the copies its views keep, so that a move's
    # answer and the mover's view share one (None: ``report_for``'s copy, written anew)
    own_report: Callable[[Game, Any, str], tuple[Document, str]] | None = None
    # its documents as OpenAPI schemas, by name ("Disposition", "Move", "Report", "View",
    # "Options", "Catalogue"): the OpenAPI document offers each rule set's beside the
    # Naval War Game's (whose are written in referee/openapi.py)
    schemas: Callable[[], Json] = dict
    # its documents' types by name ("View": the view the server serves, "Report": a seat's
    # copy of a report, "Record": a seat's move record), of which the OpenAPI document makes
    # the default rule set's schemas (``common.schema``); each other rule set's are its
    # ``schemas``
    documents: Mapping[str, Any] = field(default_factory=dict)
    # the bench's own measures of these rules (``referee duel``, ``referee ladder``), or None:
    # an object with any of ``duel_lines(series, seed, progress)`` (the lines ``referee duel``
    # prints after its headline instead of the mean scores), ``clairvoyant(computer)`` (a
    # reference player with that computer's forces, handed its opponents' views as well as its
    # own: never offered as an opponent), ``points_lost(view)`` and ``fleet_points(view)``
    # (what a seat has lost, and had, from its own view: what the clairvoyance compares)
    bench: Any = None
    # the moves after which a game between computers (``referee duel``, ``referee ladder``) is
    # stopped and counted a draw: where the rules let a game stall for ever (BB23: a ship that
    # cannot sail beside an enemy with nothing to fight with), how long the bench waits
    match_moves: int = 5000

    def __post_init__(self) -> None:
        seats = tuple(self.seats)
        if len(seats) < 2:
            raise ValueError(f"{self.rules}: a game has two seats or more, not {seats!r}")
        defaults = {"seats": seats, "creator_seat": self.creator_seat or seats[0],
                    "computer_seat": self.computer_seat or seats[1],
                    "file_format": self.file_format or f"{self.rules}-game"}
        for name, value in defaults.items():
            object.__setattr__(self, name, value)
        for seat in (self.creator_seat, self.computer_seat):
            if seat not in seats:
                raise ValueError(f"{self.rules}: {seat!r} is not one of its seats {seats!r}")
        missing = set(SHARED_ENDS) - set(self.game_type.END_REASONS)
        if missing:
            raise ValueError(f"{self.rules}: its game must end as every game may, by "
                             f"{', '.join(sorted(missing))} too")
        if self.stand_in_level not in self.levels:
            raise ValueError(f"{self.rules}: the stand-in's level {self.stand_in_level!r} is "
                             f"not one of its levels")

    @property
    def rolls_dice(self) -> bool:
        """Whether the referee rolls dice in these rules (BB24): then a game is created with
        the referee's commitment, every command on it runs with the referee's secret seed in
        hand (``Game.hold_dice``), each seat's lock-in brings a seed of its own, and a game
        file's rolls are checked as it is imported."""
        return bool(self.game_type.DICE)

    @property
    def end_reasons(self) -> tuple[str, ...]:
        """Why a game of these rules may end (``result.reason``): the ends every game shares
        and its own, as its ``Game`` declares them (``Lifecycle.END_REASONS``)."""
        return self.game_type.END_REASONS

    def report_json(self, game: Game, report: Any, seat: str) -> tuple[Document, encoded.Encoded]:
        """A move's report as its mover sees it (``report_for``), and that copy written as
        JSON: made once for the move's answer, its Idempotency-Key's record and, where the
        rule set keeps its views' copies (``own_report``), the mover's view."""
        if self.own_report is not None and game.reports and report is game.reports[-1]:
            copy, text = self.own_report(game, report, seat)
            return copy, encoded.Encoded(text)
        copy = self.report_for(game, report, seat)
        return copy, encoded.Encoded.of(copy)

    def view_json(self, game: Game, seat: str, **more: object) -> str:
        """A seat's view as the server sends it: ``view_for``'s document (and ``more`` after
        its own keys) as JSON without spaces, written from ``view_parts`` where the rule set
        gives them (the same bytes, the parts that did not change not written again)."""
        if self.view_parts is None:
            return encoded.dumps({**self.view_for(game, seat), **more})
        return encoded.dumps({**self.view_parts(game, seat), **more})

    def game_file_view(self, game: Game) -> Json:
        """What a game file holds: the whole log, the fingerprints and salts that prove no
        disposition changed, and the result; refused before the end (``secrecy_rule``)."""
        return views.game_file_of(game, self.secrecy_rule)

    def fingerprints_verify(self, game: Game) -> bool:
        """Every seat that locked in has a fingerprint its disposition and salt give, and
        every seat with a disposition locked it in; refused before the end."""
        return views.fingerprints_verify(game, self.secrecy_rule)

    def empty(self) -> Game:
        """A game with no events yet, to apply a stored log to."""
        return self.game_type()

    def replay(self, events: Iterable[Json]) -> Game:
        """A game of these rules from its log (``Lifecycle.replay``)."""
        return self.game_type.replay(events)

    def game_content(self, game: Game) -> Json:
        """What makes two game files one game (``Lifecycle.content``): each seat's disposition
        and the moves, seats by their place in the order of play; no names, ids, times,
        options, salts, nor the order of the events before play."""
        content: Json = game.content()
        return content
