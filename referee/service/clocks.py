"""The clocks (R25): who has been seen and is present, the move clock of the seat whose turn it
is, the computer that stands in for an absent player (its level, the host's choice), and when
each game's computers are next due to move, which the server's own clock wakes
(``wake_computers``).
"""

from __future__ import annotations

import logging

from .. import rulesets
from ..common.ruleset import Game
from ..errors import ApiError
from ..states import states_of
from ..store import Store
from . import clock, engine, seats, views

log = logging.getLogger("referee")

# -- who has been seen, and the move clock (R25) ---------------------------------------------
SEEN_EVERY_S = 10  # a seat's last-seen time is written at most this often
PRESENT_S = 30  # a phone seen this recently has its page open (it polls every 2 s)
_last_written: dict[tuple[str, str], float] = {}


def mark_seen(store: Store, game_id: str, seat: str) -> None:
    """Note that a seat's device asked about its game; cheap: one write per seat every
    ``SEEN_EVERY_S`` seconds at most."""
    when = clock.now()
    if when - _last_written.get((game_id, seat), float("-inf")) < SEEN_EVERY_S:
        return
    _last_written[(game_id, seat)] = when
    if not store.in_transaction:
        store.seen(game_id, seat, when)


def move_clock(store: Store, game_id: str, game: Game) -> dict | None:
    """The move clock (R25) of the seat whose turn it is: its minutes, when that turn began
    and when the clock runs out, and the level of the computer that stands in when it has
    run out; None when the game has no move clock."""
    shown = views.status(game)
    minutes = shown["move_minutes"]
    if minutes is None:
        return None
    running = {"minutes": minutes, "seat": None, "began": None, "deadline": None,
               "stand_in_level": stand_in_level(game)}
    if shown["phase"] == "play" and shown["turn"]:
        began = store.event_time(game_id, shown["turn_began"]) or clock.now()
        running.update(seat=shown["turn"], began=began, deadline=began + 60 * minutes)
    return running


def computer_to_move(store: Store, game_id: str, game: Game) -> str | None:
    """The level of the computer that moves now, if any: a computer's seat at once; a seat
    handed to the computer (R25) unless its player is back with his page open (then it waits
    for him until his move clock runs out again)."""
    rule_set = rulesets.of(game)
    shown = rule_set.status_view(game)
    seat = shown["turn"]
    if shown["phase"] != "play" or seat is None:
        return None
    if shown["seats"][seat]["bot"]:
        return shown["seats"][seat]["bot"]
    if not shown["seats"][seat]["stand_in"]:
        return None
    seen = store.seats_seen(game_id).get(seat)
    running = move_clock(store, game_id, game)
    away = seen is None or clock.now() - seen > PRESENT_S
    return stand_in_level(game) if away or (running and clock.now() >= running["deadline"]) \
        else None


RECHECK_S = 5  # how soon a computer waiting for a present player looks again


def computer_due_at(store: Store, game_id: str, game: Game) -> float | None:
    """When a computer of this game may next have to move (R25): now on a computer's turn
    or for a seat handed to the computer whose player is away; for one whose player has his
    page open, when his move clock runs out, looked at again every few seconds (he may
    leave); None when no computer moves at this version."""
    shown = views.status(game)
    seat = shown["turn"]
    if shown["phase"] != "play" or seat is None:
        return None
    if shown["seats"][seat]["bot"] or computer_to_move(store, game_id, game) is not None:
        return clock.now()
    if not shown["seats"][seat]["stand_in"]:
        return None
    running = move_clock(store, game_id, game)
    return min(running["deadline"], clock.now() + RECHECK_S) if running \
        else clock.now() + RECHECK_S


def reschedule(store: Store, game_id: str) -> None:
    """Keep when a computer of this game may next have to move, from its current state."""
    states = states_of(store)
    with states.lock(game_id):
        game = states.current(store, game_id)
        due = computer_due_at(store, game_id, game)
    with store.write():
        store.keep_due(game_id, due)


def wake_computers(store: Store, limit: int = 100) -> int:
    """Let every computer that is due move, in games nobody may be asking about: a player's
    phone that polls is answered from what is kept, without the app (``poll``), so the
    server's own clock calls this every second (``referee serve``). Several processes or
    servers may run it at once: a move is appended once, whoever makes it (``act``).
    Returns how many games were looked at."""
    due = store.games_due(clock.now(), limit)
    for game_id in due:
        try:
            engine.settle(store, game_id)
            reschedule(store, game_id)
        except Exception:  # one game's trouble must not stop the others' computers
            log.exception("game %s: a due computer could not move", game_id)
    return len(due)


def stand_in_level(game: Game) -> str:
    """The level of the computer that stands in for an absent player (R25): the host's
    choice, an event of the game every seat sees, or the rule set's own until he makes one."""
    rule_set = rulesets.of(game)
    chosen = rule_set.status_view(game)["stand_in_level"]
    return chosen if chosen in rule_set.levels else rule_set.stand_in_level


def choose_stand_in_level(store: Store, game_id: str, level: object) -> str:
    """The host chooses the level of the computer that stands in for an absent player (R25),
    any of the rule set's levels, until the game is over: an event in the log, so every
    seat sees the choice and the game file keeps it; the same level again adds nothing."""
    seats.require_game(store, game_id)
    rule_set = rulesets.named(store.rules_of(game_id))
    if not isinstance(level, str) or level not in rule_set.levels:
        raise ApiError(422, f"{str(level)[:40]!r} is not a computer's level; the levels are "
                            f"{', '.join(rule_set.levels)}", field="level", rule="R25")
    if engine.act(store, game_id, lambda game: game.choose_stand_in_level(level)):
        log.info("game %s: the stand-in plays as %s", game_id, level)
    return level


def stand_in(store: Store, game_id: str, seat: str, by: str) -> None:
    """An opponent hands a seat whose move clock ran out to the computer (R25); it moves at
    once for an absent player."""
    def command(game: Game) -> list[dict]:
        running = move_clock(store, game_id, game)
        if running and running["seat"] == seat and clock.now() < running["deadline"]:
            left = int(running["deadline"] - clock.now()) + 1
            raise ApiError(409, f"{seat.title()}'s move clock has {left} seconds left; the "
                                "computer can play for him only when it runs out (R25)",
                           field="seat", rule="R25")
        return game.stand_in(seat, by)
    engine.act(store, game_id, command)
