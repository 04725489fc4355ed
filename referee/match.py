"""One whole game between computers of any rule set, played through the seam alone.

>>> from referee.rulesets import named
>>> match = play(named("naval-war"), {"red": "recruit", "blue": "recruit"}, seed=3, first="blue")
>>> match.finished, match.first, match.winner in ("red", "blue", None)
(True, 'blue', True)

``play`` builds a game with the rule set's ``new_game`` (every seat a computer's, so every seat
is taken when the game is made), hands each computer (``RuleSet.computer(level, seed)``) the
view of its own seat for its disposition and for every move (R21, T10), submits and locks in,
then lets whoever's turn it is move until the status says the game is over, or until a cap on
the moves. It reads the game only through ``RuleSet``: the toss from ``seating``, the turn and
the result from ``status_view``. Every seed a computer or the toss gets is drawn from the
match's seed, so a match is the same every time it is played with that seed.

The bench's reference player (``RuleSet.bench.clairvoyant``, never offered as an opponent) is
the one exception to "only its own view": the bench hands it, besides its view, the views of
the seats it plays against, as their own players see them, to measure the computers against
a player who knows everything. That is done here and nowhere else.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .common.documents import ResultDocument
from .common.ruleset import RuleSet

FIXED_ORDER_AFTER = 31  # tosses all won by one seat: 1 in 2**31 where a toss is fair
MAX_TOSSES = 10_000  # seeds tried for a toss that gives the first move to the seat asked


@dataclass
class Match:
    """What one game between computers came to."""

    levels: dict[str, str]  # seat -> level ("clairvoyant" for the bench's reference player)
    first: str  # the seat the toss gave the first move
    seed: int
    game: Any  # the rule set's finished ``Game`` (the bench's own, to read only through views)
    moves: int = 0
    finished: bool = False  # False: the cap stopped it
    result: ResultDocument | None = None  # the rule set's result (scores, winner, winners)
    think_ms: dict[str, list[float]] = field(default_factory=dict)  # seat -> each move's time
    failures: list[str] = field(default_factory=list)  # levels that fell back on a random move

    @property
    def winner(self) -> str | None:
        """The winning seat, or None for a draw (or a game the cap stopped)."""
        return self.result["winner"] if self.result else None

    @property
    def winners(self) -> list[str]:
        """The seats of the winning side (R23); empty for a draw."""
        return list(self.result["winners"]) if self.result else []

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.result["scores"]) if self.result else {}

    def median_think_ms(self, seat: str) -> float:
        times = self.think_ms.get(seat) or []
        return statistics.median(times) if times else 0.0


def toss_seed(rule_set: RuleSet, first: str | None, rng: random.Random,
              make: Callable[[int], Any]) -> tuple[int, Any]:
    """A seed drawn from ``rng`` whose toss (R11, T6) gives ``first`` the first move, and the
    game ``make(seed)`` builds with it (any toss when ``first`` is None). Where the rules
    themselves say who moves first (Broadside's B5: Red), every seed gives the same order,
    and the game is played in that order."""
    leaders = set()
    for tried in range(MAX_TOSSES):
        seed = rng.randrange(2**31)
        game = make(seed)
        leader = rule_set.seating(game)["order"][0]
        if first is None or leader == first:
            return seed, game
        leaders.add(leader)
        if tried >= FIXED_ORDER_AFTER and len(leaders) == 1:
            return seed, game  # no toss: the rules fix the order
    raise ValueError(f"no toss gives {first!r} the first move")


def play(rule_set: RuleSet, levels: Mapping[str, str], seed: int, *, first: str | None = None,
         options: Mapping[str, object] | None = None, max_moves: int | None = None,
         reference: str | None = None,
         after_move: Callable[[Any, str], bool | None] | None = None) -> Match:
    """Play one game of ``rule_set`` between its computers, ``levels`` naming the level of
    every seat; ``first`` the seat that moves first (the toss is drawn to make it so);
    ``options`` the API's options of a new game (seats, sides ...). ``reference``: a seat the
    bench's clairvoyant plays instead of its level's computer, with that computer's
    disposition (the same forces). ``after_move(game, seat)``: told after every move (the
    bench's own measures); when it answers True the match stops there, unfinished.
    ``max_moves``: the moves after which it stops unfinished (the rule set's ``match_moves``
    unless given)."""
    levels = dict(levels)
    for level in levels.values():
        if level not in rule_set.levels:
            raise ValueError(f"{level!r} is not a level of {rule_set.title}; the levels are "
                             f"{', '.join(rule_set.levels)}")
    rng = random.Random(seed)
    failures: list[str] = []
    computers = {seat: rule_set.computer(levels[seat], rng.randrange(2**31),
                                         on_failure=lambda level, _e: failures.append(level))
                 for seat in levels}
    if reference is not None:
        bench = rule_set.bench
        if bench is None or not hasattr(bench, "clairvoyant"):
            raise ValueError(f"{rule_set.title} has no clairvoyant reference player")
        computers[reference] = bench.clairvoyant(computers[reference])
    game_id = f"match-{seed}"
    _, game = toss_seed(rule_set, first, rng, lambda toss: rule_set.new_game(
        id=game_id, seed=toss, at=0.0, bots=levels, options=dict(options or {}))[0])
    game.commit_dice(f"match:{seed}")  # where the referee rolls dice: the match's own secret
    seats = list(rule_set.status_view(game)["seats"])
    if set(seats) != set(levels):
        raise ValueError(f"a game of {rule_set.title} with these options has the seats "
                         f"{', '.join(seats)}: name a level for each")
    for seat in seats:
        game.submit(seat, computers[seat].disposition(rule_set.view_for(game, seat)))
    for seat in seats:
        game.lock_in(seat)
    shown = {seat: ("clairvoyant" if seat == reference else levels[seat]) for seat in seats}
    match = Match(levels=shown, first=rule_set.seating(game)["order"][0], seed=seed, game=game,
                  think_ms={seat: [] for seat in seats}, failures=failures)
    for _ in range(max_moves or rule_set.match_moves):
        status = rule_set.status_view(game)
        if status["phase"] != "play":
            break
        if not status["owes"]:
            break
        seat = status["owes"][0]  # where several owe sealed orders, each in turn
        view = rule_set.view_for(game, seat)
        start = time.perf_counter()
        if seat == reference:
            others = {other: rule_set.view_for(game, other) for other in seats if other != seat}
            move = computers[seat].move(view, others)
        else:
            move = computers[seat].move(view)
        match.think_ms[seat].append((time.perf_counter() - start) * 1000)
        game.move(seat, move)
        match.moves += 1
        if after_move is not None and after_move(game, seat):
            break
    status = rule_set.status_view(game)
    match.finished = status["phase"] == "over"
    match.result = status["result"]
    return match


def schedule(n: int, seats: tuple[str, str]) -> tuple[bool, str]:
    """Game ``n`` of a series between a and b: whether a and b change seats (a plays the
    first seat in games 0, 2, 4 ...) and the seat that moves first (the first seat in games 0,
    1, 4, 5 ...), so that every four games each level has played each seat and moved first
    from each."""
    swapped = n % 2 == 1
    first = seats[(n // 2) % 2]
    return swapped, first


@dataclass
class Series:
    """Games of level a against level b: wins, draws, scores and think times by level."""

    level_a: str
    level_b: str
    games: int = 0
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0
    unfinished: int = 0  # stopped by the cap (counted as draws too)
    scores_a: list[int] = field(default_factory=list)
    scores_b: list[int] = field(default_factory=list)
    think_ms: dict[str, list[float]] = field(default_factory=lambda: {"a": [], "b": []})
    failures: int = 0  # moves where a level failed and played a random move instead

    @property
    def mean_a(self) -> float:
        return statistics.fmean(self.scores_a) if self.scores_a else 0.0

    @property
    def mean_b(self) -> float:
        return statistics.fmean(self.scores_b) if self.scores_b else 0.0

    def median_think_ms(self, side: str) -> float:
        times = self.think_ms[side]
        return statistics.median(times) if times else 0.0

    def headline(self) -> str:
        return f"{self.level_a} wins {self.wins_a} of {self.games} (draws {self.draws})"

    def scores_line(self) -> str:
        return (f"mean scores: {self.level_a} {self.mean_a:.1f}, "
                f"{self.level_b} {self.mean_b:.1f}")

    def times_line(self) -> str:
        return (f"median think per move: {self.level_a} {self.median_think_ms('a'):.1f} ms, "
                f"{self.level_b} {self.median_think_ms('b'):.1f} ms")

    def add(self, match: Match, seat_a: str, seat_b: str) -> None:
        self.games += 1
        scores = match.scores
        self.scores_a.append(scores.get(seat_a, 0))
        self.scores_b.append(scores.get(seat_b, 0))
        if not match.finished:
            self.unfinished += 1
        if seat_a in match.winners and seat_b not in match.winners:
            self.wins_a += 1
        elif seat_b in match.winners and seat_a not in match.winners:
            self.wins_b += 1
        else:
            self.draws += 1
        self.think_ms["a"].extend(match.think_ms[seat_a])
        self.think_ms["b"].extend(match.think_ms[seat_b])
        self.failures += len(match.failures)


def two_seats(rule_set: RuleSet) -> tuple[str, str]:
    """The two seats of a two-player game of ``rule_set``: the seat its creator takes and the
    one it gives a computer against him (its first two unless it names others)."""
    return rule_set.creator_seat, rule_set.computer_seat


def series(rule_set: RuleSet, level_a: str, level_b: str, games: int, seed: int,
           progress: Callable[[int], None] | None = None) -> Series:
    """``games`` two-player games of ``level_a`` against ``level_b``, seats and first move
    alternated (``schedule``); deterministic for a seed."""
    for level in (level_a, level_b):
        if level not in rule_set.levels:
            raise ValueError(f"{level!r} is not a level of {rule_set.title}; the levels are "
                             f"{', '.join(rule_set.levels)}")
    seats = two_seats(rule_set)
    rng = random.Random(seed)
    result = Series(level_a, level_b)
    for n in range(games):
        swapped, first = schedule(n, seats)
        seat_a, seat_b = (seats[1], seats[0]) if swapped else seats
        match = play(rule_set, {seat_a: level_a, seat_b: level_b}, rng.randrange(2**63),
                     first=first)
        result.add(match, seat_a, seat_b)
        if progress:
            progress(1)
    return result


@dataclass
class Clairvoyance:
    """Ship points a level sank against the points the clairvoyant sank, fleet for fleet; and
    (``tempo``) what the level had sunk after as many of its own moves as the clairvoyant needed
    to sink all it sank."""

    level: str
    opponent: str
    games: int = 0
    sunk_by_level: list[int] = field(default_factory=list)
    sunk_by_clairvoyant: list[int] = field(default_factory=list)
    sunk_in_time: list[int] = field(default_factory=list)  # the level's, after as many moves
    moves_needed: list[int] = field(default_factory=list)  # the clairvoyant's

    @property
    def fraction(self) -> float:
        best = sum(self.sunk_by_clairvoyant)
        return sum(self.sunk_by_level) / best if best else 0.0

    @property
    def tempo(self) -> float:
        best = sum(self.sunk_by_clairvoyant)
        return sum(self.sunk_in_time) / best if best else 0.0

    def line(self) -> str:
        return (f"{self.level} sank {sum(self.sunk_by_level)} ship points, the clairvoyant "
                f"{sum(self.sunk_by_clairvoyant)}, against the same {self.games} "
                f"fleet{'' if self.games == 1 else 's'} of the {self.opponent}")

    def tempo_line(self) -> str:
        needed = statistics.median(self.moves_needed) if self.moves_needed else 0
        return (f"in as many moves as the clairvoyant needed (median {needed:g}), "
                f"{self.level} sank {sum(self.sunk_in_time)}: tempo {self.tempo:.2f}")


def clairvoyance(rule_set: RuleSet, level: str, opponent: str, games: int, seed: int,
                 progress: Callable[[int], None] | None = None) -> Clairvoyance:
    """``games`` pairs of games: ``level`` against ``opponent``, then the clairvoyant with the
    same forces (``level``'s disposition) against the same opponent with the same fleet, the
    same toss and the same seeds; what each sank is the bench's ``points_lost`` of the
    opponent's own view, after each of its own moves (a game stops when the opponent has
    nothing left to sink: the rest cannot change it). Seats and first move alternate as in a
    series."""
    bench = rule_set.bench
    if bench is None or not hasattr(bench, "clairvoyant"):
        raise ValueError(f"{rule_set.title} has no clairvoyant reference player")
    seats = two_seats(rule_set)
    rng = random.Random(seed)
    result = Clairvoyance(level, opponent)
    for n in range(games):
        swapped, first = schedule(n, seats)
        seat, other = (seats[1], seats[0]) if swapped else seats
        game_seed = rng.randrange(2**63)
        sunk: dict[str | None, list[int]] = {None: [0], seat: [0]}
        for reference in (None, seat):
            def after_move(game, mover, trace=sunk[reference], seat=seat, other=other) -> bool:
                if mover != seat:
                    return False
                view = rule_set.view_for(game, other)
                trace.append(bench.points_lost(view))
                return trace[-1] >= bench.fleet_points(view)  # nothing left to sink: stop
            play(rule_set, {seat: level, other: opponent}, game_seed, first=first,
                 reference=reference, after_move=after_move)
        mine, best = sunk[None], sunk[seat]
        needed = best.index(best[-1])
        result.sunk_by_level.append(mine[-1])
        result.sunk_by_clairvoyant.append(best[-1])
        result.sunk_in_time.append(mine[min(needed, len(mine) - 1)])
        result.moves_needed.append(needed)
        result.games += 1
        if progress:
            progress(1)
    return result
