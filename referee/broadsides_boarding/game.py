"""A game of Broadsides and Boarding Parties as an event log (BB1-BB26).

As with the other rule sets, the log is the only state: ``replay(events)`` builds a ``Game`` by
applying each event in turn, every command checks itself fully and then appends its events
through the same ``apply``, and a refused command raises ``RuleViolation`` and changes nothing.
The life every game shares (seats, clocks, lock-in fingerprints, forfeit, new join codes, the
computer standing in, agreeing to end, playing on, resigning) is ``referee.common.lifecycle``;
so are the dice (BB24, ``referee.common.dice``): the commitment as the game is created, each
seat's seed as it locks in, every roll drawn by ``roll`` and logged with its move, the secret
seed revealed at the end.

The game moves in **stages**, each numbered (``stage``); in each, one seat or both owe an order
(``owes``), and the orders of a stage are sealed until every seat that owes one has given it
(BB5, BB10). A stage is one of:

- ``plot`` (BB4-BB7): both seats plot three cards (a seat that lost its Captain last round
  plots none: its cards are all Remain in Place). When both are in, the cards are turned up
  one at a time, both ships moving together (BB2, BB3); a card that leaves the ships on
  neighbouring dots opens a ``volley``, a card that brings them together ends the round in a
  collision (BB17); after the third card, a seat whose Captain was lost the round before owes
  a ``promotion``, and a new round begins.
- ``volley`` (BB8-BB14): each seat with a cannon that bears declares its targets; when both are
  in, one die is rolled for each cannon that fires, everything is removed at once, and the cards
  go on being turned up.
- ``promotion`` (BB7, BB19): a crewmember is made Captain where he stands.
- after a collision, the ships are laid side by side (BB18), the touching sides fire a final
  ``volley`` (BB19, with the ``final`` flag), Captains lost are replaced at once, the dice
  decide who boards first (BB20), and the seats take ``boarding`` turns of three movements,
  each followed by the fights it started (BB21, BB22).

Events are plain JSON objects with a ``type``: ``created`` (rules, id, seats,
disposition_minutes, move_minutes, bots, at), ``dice_committed`` (commitment), ``joined``,
``disposition`` (seat, ``{"captain": "D4"}``), ``ready`` (seat, salt, fingerprint, dice_seed),
``clock``, ``forfeit``, ``reissued``, ``move`` (seat, move: an order in its normal form with
its ``kind`` and ``stage``, ``stand_in: true`` for the computer's order for an absent player,
and the ``rolls`` it drew), ``stand_in``, ``stand_in_level``, ``end``, ``play_on``,
``resign``, ``dice_revealed`` (secret). There is no toss: the seats are the two ships, and the
boarding's first mover is rolled for (BB20).

A game ends (``over``) when a ship sinks (``"sunk"``, BB14), when a player has lost every
cannon, crewmember and Captain (``"all-lost"``), when a Captain is eliminated in hand-to-hand
(``"captain"``), when both of the first two come at once (a draw), by a resignation
(``"resigned"``, BB23's surrender), by agreement (``"agreed"``, a draw) or by a forfeit before
play (``"forfeit"``). Each seat's score is the enemy pieces it removed (cannons, crew and a
Captain); the winner is decided by BB23 alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, get_args

from ..common.documents import Json
from ..common.lifecycle import (
    DICE_EVENT_FIELDS,
    SHARED_EVENT_FIELDS,
    TWO_SEATS,
    Lifecycle,
    Submitted,
    created_event,
    refuse,
    two_seat_options,
)
from ..common.outcome import Outcome
from ..common.problems import Problem, RuleViolation
from . import deck, sea
from .catalogue import (
    BEYOND_REPAIR,
    CARDS,
    DISPOSITION_KEYS,
    EFFECTS,
    FINAL_MISSES,
    KIND_KEYS,
    KINDS,
    MOST_DAMAGED,
    MOVEMENTS,
    ORDER,
    PLOTTED,
    RULES,
    SEATS,
    SUNK_SECTIONS,
)
from .documents import EndReason, Removed

OPTIONS = ("disposition_minutes", "move_minutes")  # what new_game reads
IGNORED_OPTIONS = TWO_SEATS  # the only values these may have here
END_REASONS = get_args(EndReason)  # the ends every game shares and its own (BB23)
MAX_FIGHT_ROLLS = 500  # a fight's rolls: far more than any fight needs (ties roll again)
MAX_ORDER_KEYS = 4  # kind, stage, its own field and standing orders' flag: more is refused whole


def other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def check_setup(document: object) -> Json:
    """A seat's disposition (BB16): where its Captain stands, ``{"captain": "D4"}``, any
    cell of its deck (every cell has room: a cannon's cell holds two of its crew). Its normal
    form, or a refusal naming the field."""
    if not isinstance(document, dict):
        raise refuse("BB26", "A disposition is an object: {\"captain\": \"D4\"}",
                     field="disposition")
    found = [Problem("BB26", f"{_shown(key)} is not part of a disposition; it names only "
                             "where the Captain stands, {\"captain\": \"D4\"}", (),
                     str(key)[:40]) for key in document if key not in DISPOSITION_KEYS]
    try:
        cell = deck.parse_cell(document.get("captain"))
    except ValueError as bad:
        found.append(Problem("BB16", f"The Captain stands in a cell of your deck: {bad}", (),
                             "captain"))
    if found:
        raise RuleViolation(found)
    return {"captain": cell}


@dataclass
class Setup:
    """A seat's disposition, as the log keeps it (BB16)."""

    captain: str

    @property
    def document(self) -> Json:
        return {"captain": self.captain}


@dataclass
class Ship:
    """A ship on the sea and its damage (BB2, BB11, BB13, BB14): its dot and heading, the
    cannon cells still armed, each mast's hits still to take, each section's hull markers."""

    seat: str
    at: str
    heading: str
    cannons: set[str] = field(default_factory=lambda: set(deck.CANNONS))
    masts: dict[str, int] = field(default_factory=lambda: dict(deck.MASTS))
    hull: dict[str, int] = field(default_factory=lambda: dict.fromkeys(deck.SECTIONS, 0))

    def beyond_repair(self) -> list[str]:
        """The hull sections with two markers or more (BB14), bow to stern."""
        return [s for s in deck.SECTIONS if self.hull[s] >= BEYOND_REPAIR]

    def masts_lost(self) -> list[str]:
        """The masts wholly gone (BB13): the mainmast only after its second hit."""
        return [at for at, left in self.masts.items() if left == 0]

    def damaged_required(self) -> int:
        """Damaged cards the ship must play from the next round (BB6), at most three."""
        return min(MOST_DAMAGED, len(self.masts_lost()) + len(self.beyond_repair()))

    @property
    def sunk(self) -> bool:
        """A third section beyond repair sinks the ship (BB14)."""
        return len(self.beyond_repair()) >= SUNK_SECTIONS


@dataclass
class Crew:
    """A seat's pieces (BB16): its crewmembers by place (``"red B5"``) and its Captain's place
    (None when lost)."""

    crew: dict[str, int] = field(default_factory=dict)
    captain: str | None = None

    def count(self) -> int:
        return sum(self.crew.values()) + (self.captain is not None)

    def at(self, place: str) -> int:
        """This seat's pieces at a place, crew and Captain."""
        return self.crew.get(place, 0) + (self.captain == place)

    def copy(self) -> Crew:
        return Crew(dict(self.crew), self.captain)

    def remove_crew(self, place: str, n: int = 1) -> None:
        left = self.crew.get(place, 0) - n
        if left > 0:
            self.crew[place] = left
        else:
            self.crew.pop(place, None)


@dataclass
class Game(Lifecycle):
    """Everything that follows from a game's events; build it with ``replay``. Beside the
    state every game has (``Lifecycle``): the two ships and their crews, the stage and what
    each seat owes in it, the orders sealed in it, the round's plots and the cards turned up,
    the boarding's lie of the ships and whose turn it is, and what every move set in train."""

    END_RULE = "BB23"
    TOSS_RULE = "BB20"
    END_REASONS = END_REASONS
    SIMULTANEOUS = True
    DICE = True
    DICE_RULE = "BB24"

    ships: dict[str, Ship] = field(default_factory=dict)
    crews: dict[str, Crew] = field(default_factory=dict)
    stage: int = 0  # the stages opened so far; the current one's number
    stage_kind: str | None = None  # plot, volley, promotion, boarding
    asked: list[str] = field(default_factory=list)  # the seats the current stage asked
    owed: dict[str, str] = field(default_factory=dict)  # seat -> the kind it still owes
    sealed: dict[str, Json] = field(default_factory=dict)  # orders given, not yet turned up
    round: int = 0
    plots: dict[str, list[str]] = field(default_factory=dict)  # this round's cards
    cannot_plot: list[str] = field(default_factory=list)  # BB7: this round all stay
    turned: int = 0  # cards of this round turned up
    turned_in: dict[int, int] = field(default_factory=dict)  # round -> cards turned up
    stopped: set[str] = field(default_factory=set)  # BB3: lost the round's other cards
    required: dict[str, int] = field(default_factory=dict)  # BB6: this round's damaged cards
    captain_lost: dict[str, int] = field(default_factory=dict)  # BB7: seat -> round lost
    bearing: dict[str, list[str]] = field(default_factory=dict)  # this volley's cannons
    final: bool = False  # this volley is the final one (BB19)
    standing: dict[str, dict[str, str]] = field(default_factory=dict)  # BB10: last targets
    laid: Json | None = None  # BB18: how the ships lie side by side once they collided
    boarder: str | None = None  # BB20, BB21: whose boarding turn it is
    removed: dict[str, int] = field(default_factory=dict)  # enemy pieces each seat removed
    winner: str | None = None
    opening: list[Json] = field(default_factory=list)  # what happened before any move
    happened: list[Json] = field(default_factory=list)  # where the flow tells what it does

    # -- facts derived from the state -------------------------------------------------

    @property
    def owes(self) -> tuple[str, ...]:
        """The seats that owe an order now, in the order of the seats (BB5)."""
        if self.phase != "play":
            return ()
        return tuple(s for s in self.seats if s in self.owed)

    def outcome(self) -> Outcome | None:
        """Each seat's score (the enemy pieces it removed) and the winner once the game is over
        (BB23)."""
        if not self.over:
            return None
        own = self.over in ("sunk", "all-lost", "captain")
        return self.one_a_side_outcome({s: self.removed.get(s, 0) for s in self.seats},
                                       self.winner if own else None)

    def all_lost(self, seat: str) -> bool:
        """The seat has lost every cannon, crewmember and Captain (BB23)."""
        return not self.ships[seat].cannons and not self.crews[seat].count()

    def _next_turn(self, after: str | None) -> str | None:
        """The first seat that owes an order (the stage's, not a rotation)."""
        return next(iter(self.owes), None)

    # -- commands -----------------------------------------------------------------------

    def submit(self, seat: str, disposition: object) -> Submitted:
        """Store a seat's draft disposition (BB16); nothing is bought, so no cost."""
        self._check_setup(seat)
        document = check_setup(disposition)
        return Submitted(self._emit({"type": "disposition", "seat": seat,
                                     "disposition": document}), None, [])

    # -- applying events -------------------------------------------------------------------

    def _apply_created(self, event: Json) -> None:
        if self.seats:
            raise refuse("R10", "This game has already been created")
        if event.get("rules") != RULES:
            raise refuse("BB26", f"This log is not a game of {RULES}", field="rules")
        seats = event.get("seats")
        if seats != list(SEATS):
            raise refuse("BB1", "Broadsides and Boarding Parties has two seats, red (the Royal "
                                "Isabella) and blue (the Seahawk)", field="seats")
        self._read_created(event, seats)
        self.sides = tuple((s,) for s in seats)
        self.toss = {"seed": None, "order": list(ORDER)}  # no toss: the seats are the ships
        self.order = list(ORDER)
        self.removed = dict.fromkeys(SEATS, 0)

    def _apply_disposition(self, event: Json) -> Json:
        seat = self._check_setup(event.get("seat"))
        document = check_setup(event.get("disposition"))
        self.fleets[seat] = Setup(document["captain"])
        return {**event, "disposition": document}

    def _start_if_all_ready(self) -> None:
        """Play starts once both have locked in (R10): each ship on its starting circle facing
        the other's end (BB1, BB2), two crew by each cannon and the Captain where his player
        put him (BB16); the first round's plot is owed."""
        started = self.started
        super()._start_if_all_ready()
        if self.started and not started:
            for seat in self.seats:
                start = sea.STARTS[seat]
                self.ships[seat] = Ship(seat, start["at"], start["heading"])
                self.crews[seat] = Crew({f"{seat} {cell}": deck.CREW_PER_CANNON
                                         for cell in deck.CANNONS},
                                        f"{seat} {self.fleets[seat].captain}")
            self.happened = self.opening
            self._begin_round()

    def _apply_move(self, event: Json) -> Json:
        seat = self._check_seat(event.get("seat"))
        if self.phase == "over":
            raise refuse("BB23", "The game is over: no more orders", kind="turn")
        if self.phase != "play":
            raise refuse("BB5", "Orders are given only while the game is in play; it starts "
                                "when both players have locked in", kind="turn")
        kind = self.owed.get(seat)
        if kind is None:
            raise refuse("BB5", self._not_owed(seat), kind="turn")
        order = self._check_order(seat, kind, event.get("move"))
        stand_in = self._check_stand_in_flag(seat, event)
        report: dict[str, Any] = {"n": len(self.reports) + 1, "seat": seat, "kind": kind,
                                  "stage": self.stage, "round": self.round, "order": order,
                                  "happened": []}
        if stand_in:
            report["stand_in"] = True
        self.reports.append(report)
        self.happened = report["happened"]
        if not stand_in:  # the player ordered himself: his seat is his again (R25)
            self.stand_ins.discard(seat)
        self.agreed.clear()
        if kind == "boarding":
            del self.owed[seat]
            self._board(seat, order)
        else:
            self.sealed[seat] = order
            del self.owed[seat]
            if not self.owed:
                self._close_stage()
        self.turn = self._next_turn(after=seat)
        return {**event, "move": order}

    def _not_owed(self, seat: str) -> str:
        """Why a seat that owes nothing now cannot order (BB5, BB21)."""
        if seat in self.sealed:
            return (f"{seat.title()}'s {self.stage_kind} order is in; an order cannot be "
                    "changed once it is in (BB5)")
        owing = " and ".join(f"{s.title()} ({self.owed[s]})" for s in self.owes)
        verb = "owe" if len(self.owed) > 1 else "owes"
        return f"{seat.title()} owes no order now; {owing} {verb} one"

    # -- the orders, checked ---------------------------------------------------------------

    def _check_order(self, seat: str, kind: str, move: object) -> Json:
        """An order in its normal form, ``{"kind", "stage", ...}``, or every problem with it
        at once (BB26: the document; the ruling of its kind for its content)."""
        key = KIND_KEYS[kind]
        if not isinstance(move, dict) or len(move) > MAX_ORDER_KEYS:
            raise refuse("BB26", f"{seat.title()} owes a {kind}: an order is an object of a "
                                 f"few fields, like {_example(kind)}")
        found = []
        named = move.get("kind", kind)
        if named != kind:
            found.append(Problem("BB26", f"{seat.title()} owes a {kind}, not "
                                         f"{_shown(named)} (the kinds are "
                                         f"{', '.join(KINDS)})", (), "kind"))
        stage = move.get("stage", self.stage)
        if stage != self.stage or isinstance(stage, bool):
            found.append(Problem("BB5", f"This order is for stage {_shown(stage)}; the game "
                                        f"is at stage {self.stage} (an order sent twice or "
                                        "late is not taken for another)", (), "stage"))
        allowed = {"kind", "stage", key} | ({"standing"} if kind == "declaration" else set())
        found += [Problem("BB26", f"{_shown(k)} is not part of a {kind}; it is like "
                                  f"{_example(kind)}", (), str(k)[:40])
                  for k in move if k not in allowed]
        if found:
            raise RuleViolation(found)
        check = {"plot": self._check_plot, "declaration": self._check_declaration,
                 "promotion": self._check_promotion, "boarding": self._check_boarding}[kind]
        return {"kind": kind, "stage": self.stage, **check(seat, move)}

    def _check_plot(self, seat: str, move: Json) -> Json:
        """Three cards in order (BB4), exactly the Damaged cards required (BB6)."""
        cards = move.get("cards")
        if not isinstance(cards, list) or len(cards) != PLOTTED:
            raise refuse("BB4", f"A plot is exactly {PLOTTED} cards in order, like "
                                "[\"forward\", \"starboard\", \"forward\"]", field="cards")
        bad = [c for c in cards if not isinstance(c, str) or c not in CARDS]
        if bad:
            raise refuse("BB4", f"{_shown(bad[0])} is not a card; the cards are "
                                f"{', '.join(CARDS)}", field="cards")
        required = self.required.get(seat, 0)
        damaged = cards.count("damaged")
        if damaged != required:
            why = self._damage_words(seat)
            raise refuse("BB6", f"{seat.title()} must play exactly {required} Damaged "
                                f"card{'' if required == 1 else 's'} this round ({why}), not "
                                f"{damaged}", field="cards")
        return {"cards": list(cards)}

    def _damage_words(self, seat: str) -> str:
        ship = self.ships[seat]
        masts, hull = len(ship.masts_lost()), len(ship.beyond_repair())
        return (f"{masts} mast{'' if masts == 1 else 's'} lost and {hull} hull "
                f"section{'' if hull == 1 else 's'} beyond repair as the round began")

    def standing_orders(self, seat: str) -> dict[str, str | None] | None:
        """What standing orders give each cannon that bears now (BB10): its own last target,
        or the section the seat's last volley named most (the first in deck order on a tie);
        None before the seat's first declaration."""
        last = self.standing.get(seat)
        if not last:
            return None
        counts = {s: list(last.values()).count(s) for s in deck.SECTIONS}
        most = max(deck.SECTIONS, key=lambda s: (counts[s], -deck.SECTIONS.index(s)))
        return {cell: last.get(cell, most) for cell in self.bearing.get(seat, [])}

    def _check_declaration(self, seat: str, move: Json) -> Json:
        """A target section or null for each cannon that bears (BB9, BB10), or standing
        orders (``{"standing": true}``)."""
        bearing = self.bearing[seat]
        if move.get("standing") is not None:
            if move["standing"] is not True or "targets" in move:
                raise refuse("BB10", "Standing orders are {\"standing\": true} alone",
                             field="standing")
            targets = self.standing_orders(seat)
            if targets is None:
                raise refuse("BB10", "Standing orders repeat your last volley's targets; you "
                                     "have declared none yet", field="standing")
            return {"targets": targets, "standing": True}
        targets = move.get("targets")
        if not isinstance(targets, dict) or len(targets) > len(deck.CANNONS):
            raise refuse("BB10", "A declaration names a target section A-H (or null, holding "
                                 "fire) for each cannon that bears: {\"targets\": {\"B5\": "
                                 "\"C\"}}", field="targets")
        found, normal = [], {}
        for key, target in targets.items():
            try:
                cell = deck.parse_cell(key)
            except ValueError as bad:
                found.append(Problem("BB15", str(bad), (), f"targets.{str(key)[:10]}"))
                continue
            if cell not in bearing:
                found.append(Problem("BB9", f"The cannon at {cell} does not bear now; those "
                                            f"that do are {', '.join(bearing)}", (cell,),
                                     f"targets.{cell}"))
                continue
            if target is not None and (not isinstance(target, str)
                                       or target.upper() not in deck.SECTIONS):
                found.append(Problem("BB10", f"{cell}'s target is a section A-H or null "
                                             f"(holding fire), not {_shown(target)}", (cell,),
                                     f"targets.{cell}"))
                continue
            normal[cell] = target.upper() if isinstance(target, str) else None
        missing = [cell for cell in bearing if cell not in normal and cell not in
                   {p.squares[0] for p in found if p.squares}]
        if missing:
            found.append(Problem("BB10", "Name a target (or null, holding fire) for every "
                                         f"cannon that bears: {', '.join(missing)}",
                                 tuple(missing), "targets"))
        if found:
            raise RuleViolation(found)
        return {"targets": {cell: normal[cell] for cell in bearing}}

    def _check_promotion(self, seat: str, move: Json) -> Json:
        """A surviving crewmember made Captain where he stands (BB7)."""
        try:
            place = deck.parse_place(move.get("promote"), seat, other(seat))
        except ValueError as bad:
            raise refuse("BB7", str(bad), field="promote") from None
        if not self.crews[seat].crew.get(place):
            held = ", ".join(sorted(self.crews[seat].crew)) or "nowhere"
            raise RuleViolation([Problem("BB7", f"No crewmember of {seat.title()}'s stands at "
                                                f"{place}; they stand at {held}", (place,),
                                         "promote")])
        return {"promote": place}

    def _check_boarding(self, seat: str, move: Json) -> Json:
        """Exactly three movements, fewer only when no more are possible (BB21)."""
        moves = move.get("moves")
        if not isinstance(moves, list) or len(moves) > MOVEMENTS:
            raise refuse("BB21", f"A boarding turn is a list of up to {MOVEMENTS} movements, "
                                 "each {\"from\": \"B5\", \"to\": \"their C3\"}", field="moves")
        crews = {s: self.crews[s].copy() for s in self.seats}
        normal = []
        for n, step in enumerate(moves):
            normal.append(self._movement(seat, crews, step, n))
        if len(normal) < MOVEMENTS:
            possible = self.movements(seat, crews)
            if possible:
                first = possible[0]
                raise refuse("BB21", f"A turn is exactly {MOVEMENTS} movements while more are "
                                     f"possible; {len(normal)} given, and a piece at "
                                     f"{first['from']} can still move to {first['to'][0]}",
                             field="moves")
        return {"moves": normal}

    def _movement(self, seat: str, crews: dict[str, Crew], step: object, n: int) -> Json:
        """One movement of a boarding turn checked against the pieces as the turn's earlier
        movements left them (``crews``, changed): its normal form."""
        where = f"moves[{n}]"
        if not isinstance(step, dict) or set(step) - {"from", "to", "captain"}:
            raise refuse("BB26", "A movement is {\"from\": \"B5\", \"to\": \"their C3\"}, with "
                                 "\"captain\": true to move the Captain", field=where)
        captain = step.get("captain", False)
        if not isinstance(captain, bool):
            raise refuse("BB26", "'captain' is true or false", field=f"{where}.captain")
        try:
            start = deck.parse_place(step.get("from"), seat, other(seat))
            end = deck.parse_place(step.get("to"), seat, other(seat))
        except ValueError as bad:
            raise refuse("BB26", str(bad), field=where) from None
        mine, theirs = crews[seat], crews[other(seat)]
        piece = "Captain" if captain else "crewmember"
        if (mine.captain != start) if captain else not mine.crew.get(start):
            raise RuleViolation([Problem("BB21", f"{seat.title()} has no {piece} at {start} to "
                                                 "move", (start,), where)])
        if theirs.at(start):
            raise RuleViolation([Problem("BB21", f"The pieces at {start} entered a cell of the "
                                                 "enemy's this turn: they stop there and fight",
                                         (start,), where)])
        if end not in deck.steps(start, self.laid):
            raise RuleViolation([Problem("BB21", f"{end} is not one movement from {start}: a "
                                                 "piece moves to a neighbouring cell on the same "
                                                 "level, along a ladder, or straight across from "
                                                 "a touching rail", (start, end), where)])
        if mine.at(end) >= deck.MOST_IN_CELL:
            raise RuleViolation([Problem("BB16", f"{end} holds {deck.MOST_IN_CELL} of "
                                                 f"{seat.title()}'s pieces already", (end,),
                                         where)])
        if captain:
            mine.captain = end
        else:
            mine.remove_crew(start)
            mine.crew[end] = mine.crew.get(end, 0) + 1
        return {"from": start, "to": end, **({"captain": True} if captain else {})}

    def movements(self, seat: str, crews: dict[str, Crew] | None = None) -> list[Json]:
        """Every piece of the seat that can move now and where one movement takes it (BB21):
        ``[{"from", "captain", "to": [...]}]``, crew first, by place; none in a cell it
        shares with the enemy (it stopped there)."""
        crews = crews or self.crews
        mine, theirs = crews[seat], crews[other(seat)]
        found = []
        pieces = [(place, False) for place in sorted(mine.crew)]
        if mine.captain is not None:
            pieces.append((mine.captain, True))
        for place, captain in pieces:
            if theirs.at(place):
                continue
            to = [p for p in deck.steps(place, self.laid) if mine.at(p) < deck.MOST_IN_CELL]
            if to:
                found.append({"from": place, "captain": captain, "to": to})
        return found

    # -- the stages ------------------------------------------------------------------------

    def _open(self, owing: dict[str, str], kind: str) -> None:
        """A new stage in which each of ``owing`` owes an order of its kind."""
        self.stage += 1
        self.stage_kind = kind
        self.owed = {s: owing[s] for s in self.seats if s in owing}
        self.asked = list(self.owed)
        self.sealed = {}
        self.turn = self._next_turn(after=None)

    def _close_stage(self) -> None:
        """Every order of the stage is in: turn them up and play on (BB5, BB12)."""
        kind = self.stage_kind
        if kind == "plot":
            for seat, order in self.sealed.items():
                self.plots[seat] = list(order["cards"])
            self._turn_up()
        elif kind == "volley":
            self._volley()
            if self.over:
                return
            if self.final:
                self._after_final_volley()
            else:
                self._turn_up()
        elif kind == "promotion":
            for seat, order in sorted(self.sealed.items()):
                self._promote(seat, order["promote"])
            if self.laid is not None:
                self._first_boarder()
            else:
                self._begin_round()

    def _close(self) -> None:
        """No order is owed: the game is over."""
        self.owed, self.sealed, self.turn = {}, {}, None
        self.stage_kind = None

    def _begin_round(self) -> None:
        """A new round (BB4-BB7): each seat's Damaged cards required from the damage so far;
        a seat that lost its Captain last round cannot plot (its cards all stay)."""
        self.round += 1
        self.plots, self.turned, self.stopped = {}, 0, set()
        self.turned_in[self.round] = 0
        self.required = {s: self.ships[s].damaged_required() for s in self.seats}
        self.cannot_plot = [s for s in self.seats if self.captain_lost.get(s) == self.round - 1]
        for seat in self.cannot_plot:
            self.plots[seat] = ["stay"] * PLOTTED
        self.happened.append({"what": "round", "round": self.round,
                              "required": dict(self.required),
                              "cannot_plot": list(self.cannot_plot)})
        owing = {s: "plot" for s in self.seats if s not in self.cannot_plot}
        if owing:
            self._open(owing, "plot")
        else:
            self._turn_up()

    def _turn_up(self) -> None:
        """Turn up the next cards of both plots, one at a time, moving both ships (BB2, BB3,
        BB5); stop at a volley (BB8) or a collision (BB17); after the third, the round ends."""
        while self.turned < PLOTTED:
            self.turned += 1
            self.turned_in[self.round] = self.turned
            before = {s: (ship.at, ship.heading) for s, ship in self.ships.items()}
            moved = {}
            for seat in self.seats:
                moved[seat] = self._play_card(seat, self.plots[seat][self.turned - 1])
            self.happened.append({"what": "card", "card": self.turned,
                                  "cards": {s: self.plots[s][self.turned - 1]
                                            for s in self.seats}, "ships": moved})
            red, blue = (self.ships[s] for s in self.seats)
            traded = red.at == before[blue.seat][0] and blue.at == before[red.seat][0]
            if red.at == blue.at or traded:
                self.happened.append({"what": "collision", "at": blue.at,
                                      "traded": traded and red.at != blue.at})
                self._lay_side_by_side(before)
                return
            if sea.neighbours(red.at, blue.at):
                self.bearing = {s: [c for c in self._bears(s) if c in self.ships[s].cannons]
                                for s in self.seats}
                owing = {s: "declaration" for s in self.seats if self.bearing[s]}
                if owing:
                    self.final = False
                    self._open(owing, "volley")
                    return
                self.happened.append({"what": "no volley", "card": self.turned})
        self._end_round()

    def _play_card(self, seat: str, card: str) -> Json:
        """One card turned up and played for a seat's ship (BB2, BB3, BB6)."""
        ship = self.ships[seat]
        start = ship.at
        blocked = idle = False
        if seat in self.stopped:
            idle = True
        else:
            ship.at, ship.heading, blocked = sea.sail(ship.at, ship.heading, card)
            if blocked:
                self.stopped.add(seat)
        return {"from": start, "to": ship.at, "heading": ship.heading, "blocked": blocked,
                "idle": idle}

    def _bears(self, seat: str) -> tuple[str, ...]:
        """The cannon cells whose line meets the enemy now (BB9)."""
        ship, enemy = self.ships[seat], self.ships[other(seat)]
        return deck.bearing(sea.relative(ship.heading, ship.at, enemy.at))

    def _end_round(self) -> None:
        """After the third card: a seat whose Captain was lost the round before promotes
        a crewmember (BB7); then the next round."""
        due = {s: "promotion" for s in self.seats
               if self.captain_lost.get(s) == self.round - 1 and self.crews[s].crew}
        for seat in [s for s in self.seats if self.captain_lost.get(s) == self.round - 1
                     and not self.crews[s].crew]:
            self.captain_lost[seat] = self.round  # nobody to promote: it stays without one
        if due:
            self._open(due, "promotion")
        else:
            self._begin_round()

    def _promote(self, seat: str, place: str) -> None:
        crew = self.crews[seat]
        crew.remove_crew(place)
        crew.captain = place
        self.captain_lost.pop(seat, None)
        self.happened.append({"what": "promotion", "seat": seat, "at": place})

    # -- volleys (BB8-BB14, BB19) ---------------------------------------------------------

    def _volley(self) -> None:
        """Both declarations are in: one die for each cannon that fires, in the seats' order
        and each ship's cannons in deck order (BB24); everything it destroys is removed after
        the whole volley (BB12)."""
        shots = []
        for seat in self.seats:
            targets = self.sealed.get(seat, {}).get("targets", {})
            named = {cell: t for cell, t in targets.items() if t is not None}
            if named:
                self.standing[seat] = {**self.standing.get(seat, {}), **named}
            for cell in deck.CANNONS:
                section = targets.get(cell)
                if section is None:
                    continue
                face = self.roll(f"{seat}'s cannon {cell} at {other(seat)}'s section "
                                 f"{section}")
                shots.append({"seat": seat, "cannon": cell, "target": section, "roll": face,
                              "effect": self._effect(other(seat), section, face)})
        hull: dict[str, list[str]] = {s: [] for s in self.seats}
        mast_hits: dict[str, list[str]] = {s: [] for s in self.seats}
        struck: dict[str, set[str]] = {s: set() for s in self.seats}
        for shot in shots:
            enemy = other(shot["seat"])
            if shot["effect"] == "hull":
                hull[enemy].append(shot["target"])
            elif shot["effect"] == "mast":
                mast_hits[enemy].append(f"{shot['target']}4")
            elif shot["effect"] in ("rail 3", "rail 5"):
                struck[enemy].add(f"{shot['target']}{shot['effect'][-1]}")
        removed: dict[str, Removed] = {}
        lost_captains = []
        for seat in self.seats:
            ship, crew = self.ships[seat], self.crews[seat]
            for section in hull[seat]:
                ship.hull[section] += 1
            for mast in mast_hits[seat]:
                ship.masts[mast] = max(0, ship.masts[mast] - 1)
            gone = Removed(cannons=[], crew=0, captain=False)
            for cell in sorted(struck[seat]):
                place = f"{seat} {cell}"
                if cell in ship.cannons:
                    ship.cannons.discard(cell)
                    gone["cannons"].append(cell)
                gone["crew"] += crew.crew.pop(place, 0)
                if crew.captain == place:
                    crew.captain = None
                    gone["captain"] = True
                    lost_captains.append(seat)
            self.removed[other(seat)] += len(gone["cannons"]) + gone["crew"] + gone["captain"]
            removed[seat] = gone
        for seat in lost_captains:
            self.captain_lost[seat] = self.round
        self.happened.append({
            "what": "volley", "final": self.final, "shots": shots, "removed": removed,
            "hull": {s: {sec: self.ships[s].hull[sec] for sec in set(hull[s])}
                     for s in self.seats},
            "masts": {s: {m: self.ships[s].masts[m] for m in set(mast_hits[s])}
                      for s in self.seats},
            "beyond_repair": {s: self.ships[s].beyond_repair() for s in self.seats},
            "captains_lost": lost_captains})
        self._check_end()

    def _effect(self, enemy: str, section: str, face: int) -> str:
        """What a face does to a section (BB11; BB19 in the final volley)."""
        effect = EFFECTS[face]
        if self.final and face in FINAL_MISSES:
            return "miss"
        if effect == "mast":
            mast = f"{section}4"
            stands = self.ships[enemy].masts.get(mast, 0) > 0
            return "mast" if stands else "miss"
        return effect

    def _check_end(self) -> None:
        """A ship sunk or a player with nothing left ends the game (BB23); both at once is a
        draw."""
        sunk = [s for s in self.seats if self.ships[s].sunk]
        lost = [s for s in self.seats if s not in sunk and self.all_lost(s)]
        losers = sunk + lost
        if not losers:
            return
        self.over = "sunk" if sunk else "all-lost"
        self.winner = other(losers[0]) if len(losers) == 1 else None
        self.happened.append({"what": "end", "reason": self.over, "winner": self.winner,
                              "sunk": sunk, "all_lost": lost})
        self._close()

    # -- the boarding (BB17-BB22) ----------------------------------------------------------

    def _lay_side_by_side(self, before: dict[str, tuple[str, str]]) -> None:
        """The ships laid side by side, masts removed (BB18): facing the same way when their
        headings differed by less than 90 degrees, opposite ways by more, a die deciding at
        exactly 90 (1-3 the same way); each ship's touching side the side the other lay on
        before the collision, a die deciding for a ship the other lay dead ahead or astern
        of (1-3 port)."""
        red, blue = (self.ships[s] for s in self.seats)
        apart = sea.angle_between(red.heading, blue.heading)
        rolls = []
        if apart == 2:
            face = self.roll("the ships' lie: 1-3 the same way, 4-6 opposite ways")
            rolls.append({"for": "orientation", "roll": face})
            orientation = "same" if face <= 3 else "opposite"
        else:
            orientation = "same" if apart < 2 else "opposite"
        touching = {}
        for seat in self.seats:
            (at, heading), (there, _) = before[seat], before[other(seat)]
            lies = sea.relative(heading, at, there)
            if lies in (1, 2, 3):
                touching[seat] = "starboard"
            elif lies in (5, 6, 7):
                touching[seat] = "port"
            else:
                face = self.roll(f"{seat}'s touching side: 1-3 port, 4-6 starboard")
                rolls.append({"for": f"{seat} side", "roll": face})
                touching[seat] = "port" if face <= 3 else "starboard"
        self.laid = {"orientation": orientation, "touching": touching, "at": blue.at}
        self.happened.append({"what": "laid", "orientation": orientation,
                              "touching": dict(touching), "rolls": rolls})
        self.bearing = {s: [c for c in deck.rail_cannons(touching[s])
                            if c in self.ships[s].cannons] for s in self.seats}
        owing = {s: "declaration" for s in self.seats if self.bearing[s]}
        self.final = True
        if owing:
            self._open(owing, "volley")
        else:
            self._after_final_volley()

    def _after_final_volley(self) -> None:
        """A Captain lost so far is replaced at once (BB19); then the dice for the first
        boarder (BB20)."""
        due = {s: "promotion" for s in self.seats
               if self.crews[s].captain is None and self.crews[s].crew}
        if due:
            self._open(due, "promotion")
        else:
            self._first_boarder()

    def _first_boarder(self) -> None:
        """Each player rolls a die; the higher boards first, ties roll again (BB20)."""
        rolls = []
        while True:
            faces = {s: self.roll(f"{s}'s die for the first boarder") for s in self.seats}
            rolls.append(faces)
            if len(set(faces.values())) > 1:
                break
        first = max(self.seats, key=lambda s: rolls[-1][s])
        self.happened.append({"what": "first", "rolls": rolls, "first": first})
        self._boarding_turn(first)

    def _boarding_turn(self, seat: str) -> None:
        self.boarder = seat
        self._open({seat: "boarding"}, "boarding")

    def _board(self, seat: str, order: Json) -> None:
        """A boarding turn: its movements (checked), then each cell holding both sides'
        pieces fights, in the order they were entered (BB21, BB22)."""
        crew, enemy = self.crews[seat], self.crews[other(seat)]
        entered: list[str] = []
        for step in order["moves"]:
            if step.get("captain"):
                crew.captain = step["to"]
            else:
                crew.remove_crew(step["from"])
                crew.crew[step["to"]] = crew.crew.get(step["to"], 0) + 1
            if enemy.at(step["to"]) and step["to"] not in entered:
                entered.append(step["to"])
        self.happened.append({"what": "movements", "seat": seat, "moves": order["moves"]})
        for place in entered:
            self._fight(place)
            if self.over:
                return
        self._boarding_turn(other(seat))

    def _fight(self, place: str) -> None:
        """Hand-to-hand at a place (BB22): both roll, adding 1 for each piece more than the
        enemy there and 1 if their Captain is there; ties roll again; the higher eliminates
        one opposing piece (a crewmember while one is there, the Captain only alone), until
        one side has none there. A Captain eliminated ends the game at once (BB23)."""
        rounds = []
        for _ in range(MAX_FIGHT_ROLLS):
            counts = {s: self.crews[s].at(place) for s in self.seats}
            if not all(counts.values()):
                break
            faces = {s: self.roll(f"{s}'s die in the fight at {place}") for s in self.seats}
            totals = {}
            for s in self.seats:
                totals[s] = faces[s] + max(0, counts[s] - counts[other(s)]) \
                    + (self.crews[s].captain == place)
            entry: dict[str, Any] = {"rolls": faces, "totals": totals, "eliminated": None}
            rounds.append(entry)
            if totals[SEATS[0]] == totals[SEATS[1]]:
                continue
            loser = min(self.seats, key=lambda s: totals[s])
            crew = self.crews[loser]
            self.removed[other(loser)] += 1
            if crew.crew.get(place):
                crew.remove_crew(place)
                entry["eliminated"] = {"seat": loser, "piece": "crew"}
            else:
                crew.captain = None
                entry["eliminated"] = {"seat": loser, "piece": "captain"}
                self.happened.append({"what": "fight", "at": place, "rounds": rounds,
                                      "won_by": other(loser)})
                self.over, self.winner = "captain", other(loser)
                self.happened.append({"what": "end", "reason": "captain",
                                      "winner": self.winner, "sunk": [], "all_lost": []})
                self._close()
                return
        won = next((s for s in self.seats if self.crews[s].at(place)), None)
        self.happened.append({"what": "fight", "at": place, "rounds": rounds, "won_by": won})


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _example(kind: str) -> str:
    return {"plot": '{"cards": ["forward", "starboard", "forward"]}',
            "declaration": '{"targets": {"B5": "C", "C5": null}}',
            "promotion": '{"promote": "D4"}',
            "boarding": '{"moves": [{"from": "B5", "to": "their C3"}]}'}[kind]


Game.APPLY = Game.apply_table(dice=True, created=Game._apply_created,
                              disposition=Game._apply_disposition, move=Game._apply_move)
# each event's fields (the module's text): the log keeps those and nothing else
Game.EVENT_FIELDS = {**SHARED_EVENT_FIELDS, **DICE_EVENT_FIELDS, "created": (
    "rules", "id", "seats", "disposition_minutes", "move_minutes", "bots", "at")}


def new_game(*, id: str = "", seed: int = 0, at: float = 0.0, options: Json | None = None,
             bots: Json | None = None) -> tuple[Game, list[Json]]:
    """Create a game; returns the game and its first event. There is no toss (the seats are
    the ships; the boarding's first mover is rolled for, BB20), so ``seed`` is not used; the
    referee commits to its dice as it creates the game (``Game.commit_dice``). ``options`` are
    the API's (``disposition_minutes``, ``move_minutes``; ``seats`` 2 and ``alliances`` false
    are read as what they can only be)."""
    options = two_seat_options(options, OPTIONS, rule="BB26", seats_rule="BB1",
                               shape="two players, one ship each")
    game = Game()
    events = game._emit(created_event(RULES, id, list(SEATS), options, bots, at))
    return game, events


replay = Game.replay  # the state of a game is its events applied in order (``Lifecycle``)


__all__ = ["Crew", "Game", "Setup", "Ship", "check_setup", "new_game", "other", "replay"]
