"""The clocks (R25): who has been seen and is present, the move clock of the seat whose turn it
is, the computer that stands in for an absent player (its level, the host's choice), and when
each game's computers are next due to move, which the server's own clock wakes
(``wake_computers``).
"""

from __future__ import annotations

import logging

from .. import rulesets
from .. import store as store_module
from ..common.documents import Json, StatusView
from ..common.ruleset import Game
from ..errors import ApiError
from ..states import states_of
from ..store import Store
from . import clock, engine, seats, views

log = logging.getLogger("referee")

# -- who has been seen, and the move clock (R25) ---------------------------------------------
SEEN_EVERY_S = 10  # a seat's last-seen time is written at most this often
PRESENT_S = 30  # a phone seen this recently has its page open (it polls every 2 s)


def mark_seen(store: Store, game_id: str, seat: str) -> None:
    """Note that a seat's device asked about its game; cheap: one write per seat every
    ``SEEN_EVERY_S`` seconds at most."""
    when = clock.now()
    written = store_module.PER_FILE.of(store.path).seen_written
    if when - written.get((game_id, seat), float("-inf")) < SEEN_EVERY_S:
        return
    written[(game_id, seat)] = when
    if not store.in_transaction:
        store.seen(game_id, seat, when)


def _began(store: Store, game_id: str, shown: StatusView, seat: str) -> float:
    """When a seat that owes a move came to owe it (R25): the time of the event its clock
    runs from, or now for one not yet stored."""
    return store.event_time(game_id, shown["owed_since"].get(seat, shown["version"])) \
        or clock.now()


def mark_present(store: Store, seats: set[tuple[str, str]]) -> None:
    """Note that these seats' devices hold their game's stream open (a page open, as a
    phone that polls is): ``mark_seen`` for each, the writes due made in one transaction."""
    when = clock.now()
    written = store_module.PER_FILE.of(store.path).seen_written
    due = sorted(pair for pair in seats
                 if when - written.get(pair, float("-inf")) >= SEEN_EVERY_S)
    if not due or store.in_transaction:
        return
    for pair in due:
        written[pair] = when
    store.seen_many(due, when)


def move_clock(store: Store, game_id: str, game: Game) -> dict | None:
    """The move clock (R25) of the seat whose turn it is: its minutes, when that turn began
    and when the clock runs out, and the level of the computer that stands in when it has
    run out; None when the game has no move clock. Where orders are sealed (several seats
    may owe one at once), ``owing`` gives each owing seat's clock; the seat named is the
    first of them."""
    shown = views.status(game)
    minutes = shown["move_minutes"]
    if minutes is None:
        return None
    running: Json = {"minutes": minutes, "seat": None, "began": None, "deadline": None,
                     "stand_in_level": stand_in_level(game)}
    if shown["phase"] == "play" and shown["turn"]:
        began = store.event_time(game_id, shown["turn_began"]) or clock.now()
        running.update(seat=shown["turn"], began=began, deadline=began + 60 * minutes)
    if shown["simultaneous"]:
        owing = {}
        for seat in shown["owes"] if shown["phase"] == "play" else ():
            began = _began(store, game_id, shown, seat)
            owing[seat] = {"began": began, "deadline": began + 60 * minutes}
        running["owing"] = owing
        if shown["turn"] in owing:
            running.update(owing[shown["turn"]])
    return running


def deadline_of(store: Store, game_id: str, game: Game, seat: str) -> float | None:
    """When the move clock of a seat that owes a move runs out (R25); None when the game has
    no move clock or the seat owes nothing."""
    shown = views.status(game)
    if shown["move_minutes"] is None or shown["phase"] != "play" or seat not in shown["owes"]:
        return None
    return _began(store, game_id, shown, seat) + 60 * shown["move_minutes"]


def computers_to_move(store: Store, game_id: str, game: Game) -> dict[str, str]:
    """Each seat that owes a move now and whose computer moves now, with its level: a
    computer's seat at once; a seat handed to the computer (R25) unless its player is back
    with his page open (then it waits for him until his move clock runs out again). Where
    orders are sealed, several seats may owe one at once, each its own."""
    rule_set = rulesets.of(game)
    shown = rule_set.status_view(game)
    if shown["phase"] != "play":
        return {}
    moving: dict[str, str] = {}
    seen = None
    for seat in shown["owes"]:
        bot = shown["seats"][seat]["bot"]
        if bot:
            moving[seat] = bot
            continue
        if not shown["seats"][seat]["stand_in"]:
            continue
        seen = store.seats_seen(game_id) if seen is None else seen
        last = seen.get(seat)
        away = last is None or clock.now() - last > PRESENT_S
        deadline = deadline_of(store, game_id, game, seat)
        if away or (deadline is not None and clock.now() >= deadline):
            moving[seat] = stand_in_level(game)
    return moving


def computers_to_answer(shown: StatusView) -> list[str]:
    """Each computer's own seat that has not agreed to end the game while another seat has:
    the computer answers an offer to end at once, by playing on (R14, T9, B10, BB23), so a
    player never waits on an answer that does not come. It never agrees: whether it is ahead
    is not a question its view answers alike in every rule set, and a computer that agreed
    when behind would let a losing player end every game he is losing. A seat handed to the
    computer (R25) is its player's to answer: he answers when he is back. ``shown``: the
    game's status (``views.status``)."""
    if shown["phase"] != "play":
        return []
    seats = shown["seats"]
    if not any(info["agreed_to_end"] for info in seats.values()):
        return []
    return [seat for seat, info in seats.items()
            if info["bot"] and not info["agreed_to_end"] and not info["forfeited"]]


def computer_to_move(store: Store, game_id: str, game: Game) -> str | None:
    """The level of the computer that moves now, if any (``computers_to_move``'s first)."""
    return next(iter(computers_to_move(store, game_id, game).values()), None)


RECHECK_S = 5  # how soon a computer waiting for a present player looks again
DUE_LEASE_S = 30  # how long a server that took a due game has to move it before another may


def computer_due_at(store: Store, game_id: str, game: Game) -> float | None:
    """When a computer of this game may next have to move (R25): now on a computer's turn
    or for a seat handed to the computer whose player is away; for one whose player has his
    page open, when his move clock runs out, looked at again every few seconds (he may
    leave); None when no computer moves at this version. Every seat that owes a move is
    looked at (several, where orders are sealed)."""
    shown = views.status(game)
    if engine.log_full(game):
        return None
    if computers_to_answer(shown):
        return clock.now()
    if shown["phase"] != "play" or not shown["owes"]:
        return None
    if computers_to_move(store, game_id, game):
        return clock.now()
    waiting = [seat for seat in shown["owes"] if shown["seats"][seat]["stand_in"]]
    if not waiting:
        return None
    deadlines = [deadline_of(store, game_id, game, seat) for seat in waiting]
    return min([clock.now() + RECHECK_S, *(d for d in deadlines if d is not None)])


def reschedule(store: Store, game_id: str) -> None:
    """Keep when a computer of this game may next have to move, from its current state."""
    states = states_of(store)
    with states.lock(game_id):
        game = states.current(store, game_id)
        due = computer_due_at(store, game_id, game)
    with store.write(game_id):
        store.keep_due(game_id, due)


def wake_computers(store: Store, limit: int = 100) -> int:
    """Let every computer that is due move, in games nobody may be asking about: a player's
    phone that polls is answered from what is kept, without the app (``poll``), so the
    server's own clock calls this every second (``referee serve``). Several processes or
    servers may run it at once: each due game is taken by one of them (``Store.take_due``,
    until it keeps the game's next due time, or for ``DUE_LEASE_S`` if it dies first), and
    a move is appended once in any case, whoever makes it (``act``). Returns how many games
    were looked at."""
    due = store.take_due(clock.now(), limit, DUE_LEASE_S)
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
    return chosen if chosen is not None and chosen in rule_set.levels \
        else rule_set.stand_in_level


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
        deadline = deadline_of(store, game_id, game, seat)
        if deadline is not None and clock.now() < deadline:
            left = int(deadline - clock.now()) + 1
            raise ApiError(409, f"{seat.title()}'s move clock has {left} seconds left; the "
                                "computer can play for him only when it runs out (R25)",
                           field="seat", rule="R25")
        return game.stand_in(seat, by)
    engine.act(store, game_id, command)
