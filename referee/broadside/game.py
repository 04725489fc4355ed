"""A game of Broadside as an event log (B3-B10).

As with the other rule sets, the log is the only state: ``replay(events)`` builds a ``Game`` by
applying each event in turn, every command checks itself fully and then appends its events
through the same ``apply``, and a refused command raises ``RuleViolation`` and changes
nothing. The life every game shares (seats and names, the disposition and move clocks, the
lock-in fingerprint and salt, forfeit, new join codes, the computer standing in, agreeing to
end, playing on, resigning) is ``referee.common.lifecycle``; this module adds the fleets on
the board (B3, B4), the moves (B5), buoys (B6), batteries (B7), broadsides (B8, B9) and the end
(B10).

Events are plain JSON objects with a ``type``: ``created`` (rules, id, seats, disposition_minutes,
move_minutes, bots, at), ``joined``, ``disposition``, ``ready`` (seat, salt, fingerprint),
``clock``, ``forfeit``, ``reissued``, ``move`` (seat, move ``{"ship", "turn", "to"}`` or
``{"pass": true}``, and ``stand_in: true`` for the computer's move for an absent player),
``stand_in``, ``end``, ``play_on``, ``resign``. There is no toss: the seats are fixed sides and
Red moves first (B5), so the order is written into the game as it is created.

A game ends (``over``) when Red sinks the fourth merchant ship (``"merchants"``, Red wins, B10),
when Blue has sunk all ten Red warships (``"fleet"``, Blue wins, B10), when a player resigns
(``"resigned"``), both agree (``"agreed"``, a draw) or a seat is forfeited before play
(``"forfeit"``, R10).

``outcome()`` is the shared ``Outcome`` (scores, winners, sides, reason), as in the other
games. Red's score is the merchant ships he sank (0-4), Blue's the Red warships he sank
(0-10): they say how close a game was; the winner is decided by B10 alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import get_args

from ..common.documents import Json
from ..common.lifecycle import (
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
from .board import (
    BOARD,
    CROSSES,
    FACINGS,
    MERCHANTS,
    RED_CIRCLES,
    START_FACING,
    TURNS,
    broadside_sides,
    controlling,
    coordinates,
    direction,
    line,
    merchant_opposite,
    parse_cross,
    step,
    turn,
)
from .catalogue import MASTS, MOVE_KEYS, ORDER, RULES, SEATS
from .documents import EndReason
from .fleet import check_disposition, numbered
from .words import describe, other, ship_label, ship_name

OPTIONS = ("disposition_minutes", "move_minutes")  # what new_game reads
IGNORED_OPTIONS = TWO_SEATS  # the only values these may have here
CROSS_ORDER = {name: i for i, name in enumerate(BOARD["crosses"])}  # row by row, from the top
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


@dataclass
class Ship:
    """A warship on the board: its side, type, cross, facing and masts left (B3, B8), and
    its number among its side's ships of its type (``fleet.numbered``: Frigate 2)."""

    side: str
    type: str
    at: str
    facing: str
    masts: int
    number: int = 0

    def to_json(self) -> Json:
        return {"side": self.side, "type": self.type, "number": self.number,
                "name": ship_label(self.type, self.number), "at": self.at,
                "facing": self.facing, "masts": self.masts, "sunk": False}

    def named(self) -> str:
        """\"Red's Frigate 2\"."""
        return ship_name(self.side, self.type, self.number)


@dataclass
class Game(Lifecycle):
    """Everything that follows from a game's events; build it with ``replay``. Beside the
    state every game has (``Lifecycle``): the warships on the board, Blue's buoys still in the
    water and those revealed, his batteries and the merchant ships sunk.

    A pass (B5) never leaves both sides stuck: the crosses are all connected, so the ships on
    the board (twenty at most) can never all be hemmed in at once, and some side can always
    move; a side with no move passes and the other plays on."""

    END_RULE = "B10"
    END_REASONS = get_args(EndReason)
    TOSS_RULE = "B5"

    ships: dict[str, Ship] = field(default_factory=dict)  # cross -> warship
    buoys: dict[str, str] = field(default_factory=dict)  # unrevealed: cross -> sink | pass
    revealed: dict[str, str] = field(default_factory=dict)  # B6: revealed and removed
    batteries: dict[str, str] = field(default_factory=dict)  # site -> hit | miss (B4)
    merchants_sunk: list[str] = field(default_factory=list)  # dock circles, in order (B9)
    winner: str | None = None

    # -- facts derived from the state -------------------------------------------------

    def afloat(self, side: str) -> list[Ship]:
        """A side's warships on the board, row by row from the top."""
        return sorted((s for s in self.ships.values() if s.side == side),
                      key=lambda s: CROSS_ORDER[s.at])

    def red_sunk(self) -> int:
        """The Red warships sunk so far (B10)."""
        return sum(1 for r in self.reports for s in r["sunk"] if s["side"] == "red")

    def outcome(self) -> Outcome | None:
        """Scores (merchant ships sunk by Red, Red warships sunk by Blue) and the winner once
        the game is over (B10)."""
        if not self.over:
            return None
        return self.one_a_side_outcome(
            {"red": len(self.merchants_sunk), "blue": self.red_sunk()},
            self.winner if self.over in ("merchants", "fleet") else None)

    def legal_moves(self, seat: str) -> list[Json]:
        """Every move B5 allows the seat now: each of its ships (row by row), each turn
        (none, left, right, about), each open cross along the straight line, nearest first."""
        found = []
        for ship in self.afloat(seat):
            for how in TURNS:
                for cross in line(ship.at, turn(ship.facing, how)):
                    if cross in self.ships:
                        break
                    found.append({"ship": ship.at, "turn": how, "to": cross})
        return found

    def has_legal_move(self, seat: str) -> bool:
        return any(cross not in self.ships for ship in self.afloat(seat) for how in TURNS
                   for cross in line(ship.at, turn(ship.facing, how))[:1])

    # -- commands -----------------------------------------------------------------------

    def submit(self, seat: str, disposition: object) -> Submitted:
        """Store a seat's draft disposition (B3, B4, B13); nothing is bought, so no cost."""
        self._check_setup(seat)
        fleet = check_disposition(disposition, seat)
        events = self._emit({"type": "disposition", "seat": seat,
                             "disposition": fleet.document})
        return Submitted(events, None, [])

    # -- applying events -------------------------------------------------------------------

    def _apply_created(self, event: Json) -> None:
        if self.seats:
            raise refuse("R10", "This game has already been created")
        if event.get("rules") != RULES:
            raise refuse("B13", f"This log is not a game of {RULES}", field="rules")
        seats = event.get("seats")
        if seats != list(SEATS):
            raise refuse("B3", "Broadside has two seats, red (invading) and blue (defending)",
                         field="seats")
        self._read_created(event, seats)
        self.sides = tuple((s,) for s in seats)
        # B5: no toss; Red moves first, always
        self.toss = {"seed": None, "order": list(ORDER)}
        self.order = list(ORDER)
        return None

    def _apply_disposition(self, event: Json) -> Json:
        seat = self._check_setup(event.get("seat"))
        fleet = check_disposition(event.get("disposition"), seat)
        self.fleets[seat] = fleet
        return {**event, "disposition": fleet.document}

    def _start_if_all_ready(self) -> None:
        """Play starts once both have locked in (R10): the ships are set out on their start
        crosses facing as B3 says, Blue's secrets go into the water and the forts, and Red
        moves first (B5)."""
        started = self.started
        super()._start_if_all_ready()
        if self.started and not started:
            for seat in self.seats:
                for ship in numbered(self.fleets[seat].ships):
                    self.ships[ship["at"]] = Ship(seat, ship["type"], ship["at"],
                                                  START_FACING[seat], MASTS[ship["type"]],
                                                  ship["number"])
            self.buoys = dict(self.fleets["blue"].buoys)
            self.batteries = dict(self.fleets["blue"].batteries)

    def _next_turn(self, after: str | None) -> str | None:
        """Red moves first and turns alternate (B5)."""
        return ORDER[0] if after is None else other(after)

    def _apply_move(self, event: Json) -> Json:
        seat = self._check_seat(event.get("seat"))
        if self.phase == "over":
            raise refuse("B10", "The game is over: no more moves", kind="turn")
        if self.phase != "play":
            raise refuse("B5", "Moves are made only while the game is in play; it starts when "
                               "both players have locked in", kind="turn")
        if seat != self.turn:
            raise refuse("B5", f"It is {(self.turn or '').title()}'s turn, not {seat.title()}'s",
                         kind="turn")
        move = event.get("move")
        checked = self._check_move(seat, move)
        stand_in = self._check_stand_in_flag(seat, event)
        n = len(self.reports) + 1
        normal: Json
        if checked is None:
            report = self._pass(seat, n)
            normal = {"pass": True}
        else:
            at, how, to = checked
            report = self._sail(seat, n, at, how, to)
            normal = {"ship": at, "turn": how, "to": to}
        if stand_in:
            report["stand_in"] = True
        report["text"] = describe(report)
        self.reports.append(report)
        if not stand_in:  # the player moved himself: his seat is his again (R25)
            self.stand_ins.discard(seat)
        self.agreed.clear()
        if len(self.merchants_sunk) == len(MERCHANTS):
            self.over, self.winner, self.turn = "merchants", "red", None
        elif not self.afloat("red"):
            self.over, self.winner, self.turn = "fleet", "blue", None
        else:
            self.turn = self._next_turn(after=seat)
        return {**event, "move": normal}

    def _check_move(self, seat: str, move: object) -> tuple[str, str | None, str] | None:
        """A move's ship, turn and destination, or None for a pass; every problem with it
        (B1, B5, B13) refused at once where they can be told apart."""
        if not isinstance(move, dict):
            raise refuse("B13", "A move is an object: {\"ship\": \"I 19\", \"turn\": null, "
                                "\"to\": \"I 12\"}, or {\"pass\": true}")
        if "pass" in move:
            found = [Problem("B13", f"{_shown(key)} is not part of a pass; a pass is "
                                    "{\"pass\": true}", (), str(key)[:40])
                     for key in move if key != "pass"]
            if move["pass"] is not True:
                found.append(Problem("B13", "A pass is {\"pass\": true}", (), "pass"))
            if found:
                raise RuleViolation(found)
            if self.has_legal_move(seat):
                example = self.legal_moves(seat)[0]
                raise refuse("B5", f"{seat.title()} has a legal move (the ship at "
                                   f"{example['ship']} can sail to {example['to']}, for one); "
                                   "a player passes only when he has none", field="pass")
            return None
        found = [Problem("B13", f"{_shown(key)} is not part of a move; a move has ship, turn "
                                "and to", (), str(key)[:40])
                 for key in move if key not in MOVE_KEYS]
        how = move.get("turn")
        if not (how is None or (isinstance(how, str) and how in TURNS)):
            found.append(Problem("B5", f"'turn' is null (no turn), \"left\", \"right\" or "
                                       f"\"about\", not {_shown(how)}", (), "turn"))
        at = to = None
        for key in ("ship", "to"):
            if key not in move:
                found.append(Problem("B13", f"A move names '{key}'", (), key))
                continue
            try:
                point = parse_cross(move[key])
            except ValueError as bad:
                found.append(Problem("B1", str(bad), (), key))
                continue
            if key == "ship":
                at = point
            else:
                to = point
        if at is not None:
            ship = self.ships.get(at)
            if ship is None:
                found.append(Problem("B5", f"There is no ship at {at}", (at,), "ship"))
            elif ship.side != seat:
                found.append(Problem("B5", f"The ship at {at} is {ship.named()}; "
                                           f"{seat.title()} moves only his own ships",
                                     (at,), "ship"))
        if found or at is None or to is None:
            raise RuleViolation(found)
        ship = self.ships[at]
        facing = turn(ship.facing, how)
        name = f"{ship.named()} at {at}"
        if to == at:
            raise _refuse("B5", f"{name} cannot turn in place: a ship must move off its cross, "
                               "at least one cross", [at], field="to")
        (ac, ar), (tc, tr) = coordinates(at), coordinates(to)
        if ac != tc and ar != tr:
            raise _refuse("B5", f"{to} is not in a straight line from {at}: ships move up, down, "
                               "left or right, never diagonally", [at, to], field="to")
        way = ("down" if tr > ar else "up") if ac == tc else ("right" if tc > ac else "left")
        if way != facing:
            needed = next(t for t in TURNS if turn(ship.facing, t) == way)
            turned = f"turning {how}" if how else "without a turn"
            must = "sail without turning" if needed is None else f"turn {needed} first"
            raise _refuse("B5", f"{name} faces {ship.facing}; {turned} it sails {facing}, not "
                               f"{way} toward {to}. A ship turns only at the start of its move "
                               f"and never turns a corner: to reach {to} it must {must}",
                         [at, to], field="turn")
        here: str = at
        while here != to:
            following = step(here, way)
            if following is None:  # off the board: the straight line to ``to`` never is
                raise _refuse("B5", f"The way from {at} to {to} leaves the board", [at, to],
                              field="to")
            here = following
            if here not in CROSSES:
                what = "is land" if here != to else "is land: a ship stops on a cross"
                raise _refuse("B5", f"{here} {what}; the way from {at} to {to} is not open "
                                   "water along the crosses", [here], field="to")
            if here in self.ships:
                other_ship = self.ships[here]
                raise _refuse("B5", f"{other_ship.named()} is at "
                                   f"{here}: a ship cannot pass through or onto another ship",
                             [here], field="to")
        return at, how, to

    def _pass(self, seat: str, n: int) -> Json:
        return {"n": n, "seat": seat, "move": {"pass": True}, "passed": True, "ship": None,
                "from": None, "turn": None, "facing": None, "to": None, "path": [],
                "stopped_by": None, "buoys": [], "battery_masts": 0, "broadsides": [],
                "masts_lost": [], "sunk": [], "merchants_sunk": []}

    def _sail(self, seat: str, n: int, at: str, how: str | None, to: str) -> Json:
        """The move made (B5-B9): the ship turns, sails cross by cross (the batteries charging
        a Red ship at each red circle it enters, B7; a buoy stopping it and being revealed,
        B6), then every broadside of B8, B9 is fired at once."""
        ship = self.ships.pop(at)
        ship.facing = turn(ship.facing, how)
        lost: dict[int, Json] = {}
        sunk: list[Json] = []
        path: list[str] = []
        buoys: list[Json] = []
        stopped_by = None
        battery = 0
        end = None  # why the ship went down on its way
        for cross in line(at, ship.facing):
            path.append(cross)
            ship.at = cross
            if seat == "red" and cross in RED_CIRCLES:
                hits = sum(1 for site in controlling(cross) if self.batteries[site] == "hit")
                taken = min(hits, ship.masts)
                if taken:
                    ship.masts -= taken
                    battery += taken
                    _lose(lost, ship, taken)
                if not ship.masts:
                    end = "batteries"
                    break
            if cross in self.buoys:
                kind = self.buoys.pop(cross)
                self.revealed[cross] = kind
                buoys.append({"at": cross, "kind": kind})
                if kind == "sink":
                    stopped_by, end = cross, "rock"
                    if ship.masts:
                        masts, ship.masts = ship.masts, 0
                        _lose(lost, ship, masts)
                    break
            if cross == to:
                break
        if id(ship) in lost:  # where the move ended, never which circle cost it (B11)
            lost[id(ship)]["at"] = ship.at
        broadsides: list[Json] = []
        merchants: list[str] = []
        if end is not None:
            sunk.append({"side": seat, "type": ship.type, "number": ship.number, "at": ship.at,
                         "by": end})
        else:
            self.ships[ship.at] = ship
            broadsides, merchants = self._broadsides(ship)
            hit: dict[int, Ship] = {}
            for shot in broadsides:
                if shot["target"] == "merchant":
                    continue
                target = self.ships[shot["at"]]
                hit[id(target)] = target
                if target.masts:
                    target.masts -= 1
                    _lose(lost, target, 1)
            for target in sorted(hit.values(), key=lambda s: (s is not ship,
                                                             CROSS_ORDER[s.at])):
                if not target.masts:
                    del self.ships[target.at]
                    sunk.append({"side": target.side, "type": target.type,
                                 "number": target.number, "at": target.at, "by": "broadside"})
            self.merchants_sunk.extend(merchants)
        return {"n": n, "seat": seat, "move": {"ship": at, "turn": how, "to": to},
                "passed": False,
                "ship": {"side": seat, "type": ship.type, "number": ship.number},
                "from": at, "turn": how, "facing": ship.facing, "to": ship.at, "path": path,
                "stopped_by": stopped_by, "buoys": buoys, "battery_masts": battery,
                "broadsides": broadsides, "masts_lost": list(lost.values()), "sunk": sunk,
                "merchants_sunk": merchants}

    def _broadsides(self, ship: Ship) -> tuple[list[Json], list[str]]:
        """Every broadside fired at the end of a move (B8, B9): between the ship that moved
        and each enemy warship next to it, and from a Red ship at a merchant ship opposite."""
        fired: list[Json] = []
        sides = broadside_sides(ship.facing)
        for way in FACINGS:
            there = step(ship.at, way)
            enemy = self.ships.get(there) if there else None
            if enemy is None or enemy.side == ship.side:
                continue
            mine = way in sides
            theirs = OPPOSITE[way] in broadside_sides(enemy.facing)
            kind = "exchange" if mine and theirs else "crossed-t"
            if mine:
                fired.append({"from": ship.at, "at": enemy.at, "side": ship.side,
                              "type": ship.type, "number": ship.number, "target": enemy.type,
                              "target_number": enemy.number, "kind": kind})
            if theirs:
                fired.append({"from": enemy.at, "at": ship.at, "side": enemy.side,
                              "type": enemy.type, "number": enemy.number, "target": ship.type,
                              "target_number": ship.number, "kind": kind})
        merchants: list[str] = []
        merchant = merchant_opposite(ship.at) if ship.side == "red" else None
        if merchant is not None and merchant["at"] not in self.merchants_sunk \
                and direction(ship.at, merchant["at"]) in sides:
            fired.append({"from": ship.at, "at": merchant["at"], "side": ship.side,
                          "type": ship.type, "number": ship.number, "target": "merchant",
                          "target_number": None, "kind": "merchant"})
            merchants.append(merchant["at"])
        return fired, merchants


def _lose(lost: dict[int, Json], ship: Ship, masts: int) -> None:
    """Note masts a ship has just lost (its ``masts`` already taken down) in the report's
    ``masts_lost``, one entry a ship."""
    entry = lost.setdefault(id(ship), {"side": ship.side, "type": ship.type,
                                       "number": ship.number, "at": ship.at,
                                       "lost": 0, "masts": ship.masts})
    entry["lost"] += masts
    entry["at"], entry["masts"] = ship.at, ship.masts


def _refuse(rule: str, message: str, crosses: list[str], *, field: str | None = None
            ) -> RuleViolation:
    """A refused move with one problem naming the crosses involved."""
    return RuleViolation([Problem(rule, message, tuple(crosses), field)])


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


Game.APPLY = Game.apply_table(created=Game._apply_created,
                              disposition=Game._apply_disposition,
                              move=Game._apply_move)
# each event's fields (the module's text): the log keeps those and nothing else
Game.EVENT_FIELDS = {**SHARED_EVENT_FIELDS, "created": (
    "rules", "id", "seats", "disposition_minutes", "move_minutes", "bots", "at")}


def new_game(*, id: str = "", seed: int = 0, at: float = 0.0, options: Json | None = None,
             bots: Json | None = None) -> tuple[Game, list[Json]]:
    """Create a game; returns the game and its first event. There is no toss (B5: Red moves
    first), so ``seed`` is not used; ``options`` are the API's (``disposition_minutes``,
    ``move_minutes``; ``seats`` 2 and ``alliances`` false are read as what they can only
    be)."""
    options = two_seat_options(options, OPTIONS, rule="B13", seats_rule="B3",
                               shape="two players, Red invading and Blue defending")
    game = Game()
    events = game._emit(created_event(RULES, id, list(SEATS), options, bots, at))
    return game, events


replay = Game.replay  # the state of a game is its events applied in order (``Lifecycle``)


__all__ = ["Game", "Ship", "new_game", "other", "replay", "ship_name"]
