"""The referee's work on stored games: create, seat, authorise, and act inside one transaction.

Every change follows one path (``act``): take the game's replayed state from this process's
cache (``states``: one indexed query brings it up to date), let the core check and apply the
command, then open SQLite's write transaction only to check that the game's version is
unchanged and append the new events (and try again if another process got in first). Nothing
expensive (a replay, a PDF, a post-mortem) runs while the write lock is held. A refused command
raises before anything is written, so nothing is ever half-applied.

Every computer is seeded from its game's server secret (``computer``), never from anything a
player sees. A game's log takes at most ``MAX_EVENTS`` events; past that, only what ends the
game (an agreement, a resignation, a forfeit, a move that wins), up to ``MAX_LOG``, so that no
seat can keep a result off the record by filling the log. A seat's join code is derived from
the installation's secret key (``join_code``) and stored nowhere.
"""

from __future__ import annotations

import base64
import copy
import functools
import gzip
import hashlib
import hmac
import json
import logging
import math
import secrets
import threading
import time
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from . import rulesets, signing
from .common.problems import RuleViolation
from .common.ruleset import Game, RuleSet
from .costly import run as run_costly
from .errors import ApiError
from .signing import SigningKey
from .states import replayed, states_of
from .store import Store, digest

log = logging.getLogger("referee")

TOKEN_BYTES = 24  # 192 bits
JOIN_CODE_BYTES = 16  # 128 bits of an HMAC-SHA256
GAME_SECRET_BYTES = 32  # 256 bits: the seed of the game's computers
MAX_EVENTS = 2000  # a game has at most a few hundred moves: a guard against swollen logs
ENDING_ROOM = 64  # events past MAX_EVENTS kept for what ends a game (R14): more than any needs
MAX_LOG = MAX_EVENTS + ENDING_ROOM
ACT_ATTEMPTS = 50  # tries of a command while other processes change the same game
T = TypeVar("T")


def new_secret(n_bytes: int) -> str:
    return secrets.token_urlsafe(n_bytes)


def now() -> float:
    return time.time()


def join_code(key: str | bytes, game_id: str, seat: str, generation: int) -> str:
    """A seat's join code: HMAC-SHA256 of the installation's secret key over the game, the
    seat and the seat's join generation (which the host's reissue moves on, so an old link
    stops working), 128 bits in URL-safe base64. Nothing a player sees gives it: not the
    game's id, the seat or the generation without the key; the store keeps no code or hash.

    >>> code = join_code("k", "3f9a1c20be", "blue", 0)
    >>> len(code), code == join_code("k", "3f9a1c20be", "blue", 1), code == join_code(
    ...     b"k", "3f9a1c20be", "blue", 0)
    (22, False, True)
    """
    secret = key.encode() if isinstance(key, str) else key
    mac = hmac.new(secret, f"join:{game_id}:{seat}:{generation}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:JOIN_CODE_BYTES]).rstrip(b"=").decode()


def join_codes(store: Store, game_id: str, *, key: str | bytes) -> dict[str, str]:
    """The join code of every seat of a game not yet taken (for its host alone)."""
    return {seat: join_code(key, game_id, seat, generation)
            for seat, generation in store.open_seats(game_id).items()}


def create_game(store: Store, options: dict, join_url: Callable[[str, str, str], str], *,
                key: str | bytes) -> dict:
    """A new game of the rule set ``options["rules"]`` names (the Naval War Game when it
    names none) with a host token and a join code for every player's seat, derived from the
    installation's secret ``key`` (returned this once; the host page derives them again).
    A computer's seat (``bots``) makes its disposition at once."""
    rule_set = _rule_set_named(options.get("rules", rulesets.DEFAULT))
    known = (*rule_set.options, "bots", "rules")
    unknown = [key for key in options if key not in known]
    if unknown:
        raise ApiError(422, f"{str(unknown[0])[:40]!r} is not an option of "
                            f"{rule_set.title}; its options are {', '.join(known)}",
                       field=str(unknown[0])[:40])
    bots = options.get("bots") or {}
    if "bots" in options and not isinstance(options["bots"], dict):
        raise ApiError(422, "'bots' is an object naming seats, each with a level",
                       field="bots", rule="R23")
    for seat, level in bots.items():
        if not isinstance(level, str) or level not in rule_set.levels:
            raise ApiError(422, f"{level!r} is not a computer's level; the levels are "
                                f"{', '.join(rule_set.levels)}", field=f"bots.{seat}",
                           rule="R23")
    game_id = secrets.token_hex(5)
    host_token = new_secret(TOKEN_BYTES)
    secret = secrets.token_hex(GAME_SECRET_BYTES)
    created_at = now()
    game, events = rule_set.new_game(
        id=game_id, seed=secrets.randbits(63), at=created_at, bots=bots,
        options={key: value for key, value in options.items() if key not in ("rules", "bots")})
    seats = list(rule_set.status_view(game)["seats"])
    if len(bots) == len(seats):
        raise ApiError(422, "At least one seat is for a player", field="bots", rule="R23")
    for seat, level in bots.items():  # a computer makes its disposition at once (R10)
        made = _computer(secret, seat, level, rule_set)
        game.submit(seat, made.disposition(rule_set.view_for(game, seat)))
        lock_in(game, seat)
    codes = {seat: join_code(key, game_id, seat, 0) for seat in seats}
    with store.write():
        store.add_game(game_id, host_token, seats, rule_set.rules, created_at)
        store.keep_secret(game_id, secret)
        store.append(game_id, 1, game.events, created_at)
        for seat in bots:
            store.claim(game_id, seat, new_secret(TOKEN_BYTES))  # a token nobody holds
    log.info("game %s created with %d seats (%d computers)", game_id, len(seats),
             len(bots))
    return {
        "id": game_id,
        "host_token": host_token,
        "seats": {seat: {"join_code": code, "join_url": join_url(game_id, seat, code)}
                  for seat, code in codes.items() if seat not in bots},
    }


def postmortem_document(game: Game) -> dict:
    """What each weapon bought and what hindsight says (``GET .../postmortem``), from the
    game's rule set; refused before the end."""
    return rulesets.of(game).postmortem_document(game)


def status(game: Game) -> dict:
    """A game's public state (phase, seats, turn, clocks, result), from its rule set."""
    return rulesets.of(game).status_view(game)


def view(game: Game, seat: str) -> dict:
    """Everything one seat may know of a game (R21), from its rule set."""
    return rulesets.of(game).view_for(game, seat)


def _rule_set_named(rules: object) -> RuleSet:
    try:
        return rulesets.named(rules)
    except rulesets.UnknownRules as unknown:
        raise ApiError(422, str(unknown), field="rules") from None


def _computer(secret: str, seat: str, level: str, rule_set: RuleSet | None = None):
    bound = hmac.new(bytes.fromhex(secret), f"computer:{seat}".encode(), hashlib.sha256)
    return (rule_set or rulesets.named(rulesets.DEFAULT)).computer(
        level, bound.hexdigest(), on_failure=_computer_failed)


def _computer_failed(level: str, failure: Exception) -> None:
    """A level could not choose a move and played its rule set's simplest level's instead: the
    kind of failure and its rulings only, since a message may name squares of its chart
    (R21)."""
    rulings = [p.rule for p in failure.problems] if isinstance(failure, RuleViolation) else []
    log.warning("the %s computer failed to choose a move (%s%s); it plays a simpler move",
                level, type(failure).__name__, f": {', '.join(rulings)}" if rulings else "")


def computer(store: Store, game_id: str, seat: str, level: str):
    """The computer that plays a seat (its own, or a stand-in for an absent player): every
    choice it makes is drawn from HMAC(the game's server secret, the seat), and each move from
    that and the move's number, so nothing a player sees (the game's id, its seats, its
    moves) predicts its fleet or its moves (issue 10 item 1). The secret is never in a view,
    page, log or export."""
    # a game stored before secrets were kept is given one now, once
    secret = store.secret_made_once(game_id, lambda: secrets.token_hex(GAME_SECRET_BYTES))
    return _computer(secret, seat, level, rulesets.named(store.rules_of(game_id)))


MAX_BOT_MOVES = 1000  # more than any game can have: a guard, not a limit of play


def play_bots(store: Store, game_id: str) -> None:
    """Let every computer whose turn it is move, one transaction per move, until a player's
    turn or the end: a computer's seat, or a player's seat an opponent handed to the computer
    (R25). Each computer sees only its seat's view (R21)."""

    def computer_move(game: Game) -> str | None:
        rule_set = rulesets.of(game)
        shown = rule_set.status_view(game)
        seat = shown["turn"]
        level = computer_to_move(store, game_id, game)
        if level is None:
            return None
        stand_in = shown["seats"][seat]["bot"] is None
        view = rule_set.view_for(game, seat)
        made = computer(store, game_id, seat, level)
        try:
            game.move(seat, made.move(view), stand_in=stand_in)
        except RuleViolation as refused:  # a computer's mistake must not stop the game
            simple = made.simplest()  # its rule set's weakest level, with the same seed
            # the rulings only: the problems' messages name squares of its chart (R21)
            log.warning("game %s: the %s computer's move was refused (%s); it plays a "
                        "%s's move", game_id, seat, ", ".join(p.rule for p in refused.problems),
                        simple.level)
            game.move(seat, simple.move(view), stand_in=stand_in)
        return seat

    for _ in range(MAX_BOT_MOVES):
        seat = act(store, game_id, computer_move, computers=False)
        if seat is None:
            return
        log.info("game %s: move (%s, computer)", game_id, seat)


class SeatKeys(NamedTuple):
    """What a player holds for his seat: the token his device sends, and the recovery code
    he writes on his paper (R24). Only their hashes are stored."""

    token: str
    recovery_code: str


# -- recovery codes (R24): 3 groups of 4 characters read aloud, 60 bits --------------------
RECOVERY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's: no I, L, O or U
RECOVERY_GROUPS, RECOVERY_GROUP = 3, 4
RECOVER_FREE_GUESSES = 5  # a client's wrong codes before each further guess must wait
RECOVER_MAX_WAIT_S = 3600
RECOVER_FORGIVEN_S = 3600  # a client's count starts again after an hour without a wrong code
DOUBLE_TAP_S = 120  # the code a recovery just spent, sent again meanwhile, is no guess


def new_recovery_code() -> str:
    """A seat's recovery code, e.g. ``7KQ2-M9XD-3HTR``: 12 characters of 5 bits each.

    >>> len(new_recovery_code()), new_recovery_code().count("-")
    (14, 2)
    """
    return "-".join("".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_GROUP))
                    for _ in range(RECOVERY_GROUPS))


def recovery_hash(game_id: str, seat: str, code: str) -> str:
    """The only form in which a recovery code is kept: its hash, bound to game and seat.
    The code is read as written down: any case, spaces or dashes, O for 0 and I or L for 1.

    >>> recovery_hash("g", "red", "7kq2 m9xd 3htr") == recovery_hash("g", "red", "7KQ2-M9XD-3HTR")
    True
    """
    normal = code.upper().translate(str.maketrans("OIL", "011"))
    normal = "".join(c for c in normal if c not in " -\t")
    return digest(f"recovery:{game_id}:{seat}:{normal}")


def claim_seat(store: Store, game_id: str, seat: str, code: str, name: str, *,
               key: str | bytes) -> SeatKeys:
    """Swap a seat's join code (derived with the installation's secret ``key``) for its
    token and recovery code; the join code works once."""
    token, recovery = new_secret(TOKEN_BYTES), new_recovery_code()
    states = states_of(store)
    with states.lock(game_id), store.write():  # a join is short and rare: applied inside
        row = _seat_row(store, game_id, seat)
        expected = join_code(key, game_id, seat, row["join_generation"])
        if not secrets.compare_digest(code.encode(), expected.encode()):
            raise ApiError(403, f"That is not the join code of the {seat} seat: ask the host "
                                "for the seat's link as his page shows it now (a link stops "
                                "working once the host gives the seat a new one)",
                           field="join_code")
        if row["claimed"]:
            raise ApiError(409, f"The {seat} seat is already taken", field="seat")
        game = states.current(store, game_id)
        before = game.version
        try:
            if status(game)["seats"][seat]["name"] is None:
                game.join(seat, name)
            _check_room(game, before, game.events[before:])
            _append(store, game_id, before, game.events[before:])
            store.claim(game_id, seat, token, recovery_hash(game_id, seat, recovery))
        except BaseException:
            if game.version != before:
                states.forget(game_id)
            raise
    log.info("game %s: seat %s claimed", game_id, seat)
    return SeatKeys(token, recovery)


def seconds(n: int) -> str:
    """A count of seconds in words a player reads.

    >>> seconds(1), seconds(2)
    ('1 second', '2 seconds')
    """
    return f"{n} second{'' if n == 1 else 's'}"


def recover_seat(store: Store, game_id: str, seat: str, code: object,
                 client: str = "") -> SeatKeys:
    """Move a seat to a new device with its recovery code (R24): a new token and a new code;
    the old token and the old code stop working. The right code always works: 60 bits are
    out of any guesser's reach, so nobody's wrong guesses can lock a seat's owner out.
    Wrong codes are counted per client (``client``, its address): after a few, each further
    guess of that client must wait, twice as long each time. The code a recovery has just
    spent, sent again (a double tap), is answered as such and not counted."""
    if not isinstance(code, str) or not 0 < len(code) <= 64:
        raise ApiError(400, "'recovery_code' is the code you wrote down when you joined",
                       field="recovery_code")
    token, fresh = new_secret(TOKEN_BYTES), new_recovery_code()
    offered = recovery_hash(game_id, seat, code)
    with store.write():
        row = _seat_row(store, game_id, seat)
        right = bool(row["recovery_hash"] and row["claimed"]
                     and secrets.compare_digest(row["recovery_hash"], offered))
        if right:
            store.recover(game_id, seat, token, recovery_hash(game_id, seat, fresh), offered,
                          now())
        elif row["spent_recovery_hash"] and now() - (row["recovered_at"] or 0) < DOUBLE_TAP_S \
                and secrets.compare_digest(row["spent_recovery_hash"], offered):
            raise ApiError(409, f"That code has just moved the {seat} seat to a device, which "
                                "holds it now with a new code (R24); on that device, open the "
                                "game", field="recovery_code", rule="R24")
        else:
            failures, after, last = store.recovery_guesses(client)
            if now() < after:
                raise ApiError(429, "Too many wrong recovery codes from this device; try again "
                                    f"in {seconds(int(after - now()) + 1)} (R24)",
                               field="recovery_code", rule="R24")
            failures = 1 if now() - last > RECOVER_FORGIVEN_S else failures + 1
            delay = 0 if failures < RECOVER_FREE_GUESSES else min(
                RECOVER_MAX_WAIT_S, 2 ** (failures - RECOVER_FREE_GUESSES))
            store.guessed_wrong(client, failures, now() + delay, now())
    if not right:  # the failure is counted (committed above) before the refusal
        log.warning("game %s: a wrong recovery code for seat %s", game_id, seat)
        raise ApiError(403, f"That is not the recovery code of the {seat} seat (R24)",
                       field="recovery_code", rule="R24")
    log.info("game %s: seat %s moved to another device with its recovery code", game_id, seat)
    return SeatKeys(token, fresh)


def reissue_join_code(store: Store, game_id: str, seat: str, *, key: str | bytes) -> str:
    """A fresh join code for a seat that has not locked in, never a computer's (R24): the
    seat's next join generation, so the old code stops working; whoever held the seat's token
    is signed out, and its drafts are not handed on."""
    _seat_row(store, game_id, seat)
    generation = []

    def sign_out(_events: list[dict]) -> None:
        if store.host_seat(game_id) == seat:
            raise ApiError(409, f"{seat.title()} holds the host's powers; hand them to another "
                                "seat before giving this seat a new join code (R24)",
                           field="seat", rule="R24")
        generation.append(store.reissue(game_id, seat))
        store.forget_drafts(game_id, seat)

    act(store, game_id, lambda game: game.reissue(seat), then=sign_out)
    log.info("game %s: join code of seat %s reissued", game_id, seat)
    return join_code(key, game_id, seat, generation[-1])


def hand_over_hosting(store: Store, game_id: str, seat: str) -> None:
    """The host's powers pass to a player's seat, and follow that seat (even to a new phone
    by its recovery code); the host token stops working. Hosting shows nothing of any seat
    (R24)."""
    row = _seat_row(store, game_id, seat)
    held = public_status(store, game_id)["seats"][seat]
    if held["bot"] or held["forfeited"] or not row["claimed"] or held["name"] is None:
        raise ApiError(409, f"Hosting goes to a player who holds his seat; {seat} is "
                            "the computer's, forfeited or not yet taken", field="seat",
                       rule="R24")
    with store.write():
        store.hand_over(game_id, seat, new_secret(TOKEN_BYTES))
    log.info("game %s: hosting handed to seat %s", game_id, seat)


def is_host(store: Store, game_id: str, token: str | None) -> bool:
    """Whether a token holds the host's powers in this game: the host token, or the token of
    the seat hosting was handed to."""
    holder = store.holder_of(token) if token else None
    if holder is None or holder.game_id != game_id:
        return False
    return holder.seat is None or holder.seat == store.host_seat(game_id)


# -- who has been seen, and the move clock (R25) ---------------------------------------------
SEEN_EVERY_S = 10  # a seat's last-seen time is written at most this often
PRESENT_S = 30  # a phone seen this recently has its page open (it polls every 2 s)
_last_written: dict[tuple[str, str], float] = {}


def mark_seen(store: Store, game_id: str, seat: str) -> None:
    """Note that a seat's device asked about its game; cheap: one write per seat every
    ``SEEN_EVERY_S`` seconds at most."""
    when = now()
    if when - _last_written.get((game_id, seat), float("-inf")) < SEEN_EVERY_S:
        return
    _last_written[(game_id, seat)] = when
    if not store.in_transaction:
        store.seen(game_id, seat, when)


def move_clock(store: Store, game_id: str, game: Game) -> dict | None:
    """The move clock (R25) of the seat whose turn it is: its minutes, when that turn began
    and when the clock runs out, and the level of the computer that stands in when it has
    run out; None when the game has no move clock."""
    shown = status(game)
    minutes = shown["move_minutes"]
    if minutes is None:
        return None
    clock = {"minutes": minutes, "seat": None, "began": None, "deadline": None,
             "stand_in_level": stand_in_level(game)}
    if shown["phase"] == "play" and shown["turn"]:
        began = store.event_time(game_id, shown["turn_began"]) or now()
        clock.update(seat=shown["turn"], began=began, deadline=began + 60 * minutes)
    return clock


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
    clock = move_clock(store, game_id, game)
    away = seen is None or now() - seen > PRESENT_S
    return stand_in_level(game) if away or (clock and now() >= clock["deadline"]) else None


RECHECK_S = 5  # how soon a computer waiting for a present player looks again


def computer_due_at(store: Store, game_id: str, game: Game) -> float | None:
    """When a computer of this game may next have to move (R25): now on a computer's turn
    or for a seat handed to the computer whose player is away; for one whose player has his
    page open, when his move clock runs out, looked at again every few seconds (he may
    leave); None when no computer moves at this version."""
    shown = status(game)
    seat = shown["turn"]
    if shown["phase"] != "play" or seat is None:
        return None
    if shown["seats"][seat]["bot"] or computer_to_move(store, game_id, game) is not None:
        return now()
    if not shown["seats"][seat]["stand_in"]:
        return None
    clock = move_clock(store, game_id, game)
    return min(clock["deadline"], now() + RECHECK_S) if clock else now() + RECHECK_S


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
    due = store.games_due(now(), limit)
    for game_id in due:
        try:
            settle(store, game_id)
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
    require_game(store, game_id)
    rule_set = rulesets.named(store.rules_of(game_id))
    if not isinstance(level, str) or level not in rule_set.levels:
        raise ApiError(422, f"{str(level)[:40]!r} is not a computer's level; the levels are "
                            f"{', '.join(rule_set.levels)}", field="level", rule="R25")
    act(store, game_id, lambda game: game.choose_stand_in_level(level))
    log.info("game %s: the stand-in plays as %s", game_id, level)
    return level


def stand_in(store: Store, game_id: str, seat: str, by: str) -> None:
    """An opponent hands a seat whose move clock ran out to the computer (R25); it moves at
    once for an absent player."""
    def command(game: Game) -> list[dict]:
        clock = move_clock(store, game_id, game)
        if clock and clock["seat"] == seat and now() < clock["deadline"]:
            left = int(clock["deadline"] - now()) + 1
            raise ApiError(409, f"{seat.title()}'s move clock has {left} seconds left; the "
                                "computer can play for him only when it runs out (R25)",
                           field="seat", rule="R25")
        return game.stand_in(seat, by)
    act(store, game_id, command)


def _seat_row(store: Store, game_id: str, seat: str) -> dict:
    if seat not in rulesets.SEATS:
        raise ApiError(404, f"{seat[:20]!r} is not a seat; seats are "
                            f"{', '.join(rulesets.SEATS)}", field="seat")
    row = store.seat_row(game_id, seat)
    if row is None:
        raise ApiError(404, f"This game has no {seat} seat", field="seat")
    return row


def require_game(store: Store, game_id: str) -> None:
    if not store.game_exists(game_id):
        raise ApiError(404, f"There is no game {game_id!r}")


def require_seat(store: Store, game_id: str, seat: str) -> dict:
    """A seat of this game (its stored row); 404 for a game or a seat it does not have."""
    require_game(store, game_id)
    return _seat_row(store, game_id, seat)


def authorise(store: Store, game_id: str, token: str | None, *, host: bool = False) -> str:
    """The seat a bearer token plays in this game (or "host"); 401, 403 or 404 otherwise."""
    holder = store.holder_of(token) if token else None
    if holder is None or holder.game_id != game_id:
        require_game(store, game_id)
    if not token:
        raise ApiError(401, "Send your token as 'Authorization: Bearer <token>'",
                       field="Authorization")
    if holder is None:
        raise ApiError(401, "That token is unknown or has been revoked",
                       field="Authorization")
    token_game, seat = holder
    if token_game != game_id:
        raise ApiError(403, "That token belongs to another game", field="Authorization")
    if host and seat is not None and seat != store.host_seat(game_id):
        raise ApiError(403, "Only the host's token may do this", field="Authorization")
    if host:
        return "host"
    if not host and seat is None:
        raise ApiError(403, "The host's token does not play; join a seat to play",
                       field="Authorization")
    mark_seen(store, game_id, seat)
    return seat


def lock_in(game: Game, seat: str) -> list[dict]:
    """Lock in a seat with the server's secret salt for the disposition's fingerprint. The
    order of play was drawn at creation (R11); the seed here serves only a game stored before
    that amendment, which still tosses when its last seat locks in."""
    return game.lock_in(seat, seed=secrets.randbits(63), salt=secrets.token_hex(16))


def forfeit(game: Game, seat: str) -> list[dict]:
    """The host forfeits a seat once the clock has run out (R10); may start play."""
    return game.forfeit(seat, now(), seed=secrets.randbits(63))


def _fork(game: Game) -> Game:
    """A private copy of a state: events and reports are shared (never changed once made)."""
    memo = {id(game.events): list(game.events), id(game.reports): list(game.reports)}
    return copy.deepcopy(game, memo)


def load(store: Store, game_id: str) -> Game:
    """A private copy of the game's current state, which the caller may keep or change."""
    states = states_of(store)
    with states.lock(game_id):
        return _fork(states.current(store, game_id))


def derived(store: Store, game_id: str, key: Hashable, build: Callable[[Game], T],
            size: Callable[[T], int] = lambda value: 4096, *, costly: str | None = None) -> T:
    """What ``build`` makes of the game's current version, made once per version and kept
    (a finished game's post-mortem and PDFs never change). ``build`` runs under the game's
    lock in this process, never inside SQLite's write lock; it must not change the game.
    ``costly`` (what it does, "printing"): ``build`` is costly work, made in a turn of the
    costly pool (``costly.run``: then ``build`` must be picklable, a module-level function or
    a partial of one); what is already kept needs none."""
    states = states_of(store)

    def make(game: Game) -> T:
        return build(game) if costly is None else run_costly(costly, build, game)

    with states.lock(game_id):
        game = states.current(store, game_id)
        return states.derived(game_id, game.version, key, lambda: make(game), size)


def public_status(store: Store, game_id: str) -> dict:
    """The game's public state (``status``) at its current version, made once per version:
    what the pages that hold no seat show (joining, recovery) and the host's powers check,
    at a cost that nothing hidden changes (R21). The caller must not change it."""
    return derived(store, game_id, "status", lambda game: json.loads(json.dumps(status(game))),
                   lambda _: 2048)


def seating(store: Store, game_id: str) -> dict:
    """What a join link's holder sees before he joins (seats, order, sides), once per
    version, from the rule set's ``seating`` view (R11, R23)."""
    return derived(store, game_id, "seating", lambda game: rulesets.of(game).seating(game),
                   lambda _: 1024)


def record_body(store: Store, game_id: str, seat: str) -> bytes:
    """A seat's move record as JSON bytes, made once per version and seat as its view is:
    its cost follows what the seat is told, never what is hidden from it (R21)."""
    def build(game: Game) -> bytes:
        document = rulesets.of(game).record_for(game, seat)
        return (json.dumps(document, separators=(",", ":")) + "\n").encode()
    settle(store, game_id)
    return derived(store, game_id, ("record", seat), build, len)


def host_status(store: Store, game_id: str) -> dict:
    """What the host may see (R24): who has joined and locked in, the clocks, whose turn, the
    stand-in's level and the result, made once per version from the rule set's host view;
    then who has not been seen for a while, the seat hosting was handed to and the time.
    Never anything of any seat's fleet, at a cost nothing hidden changes."""
    settle(store, game_id)

    def build(game: Game) -> bytes:
        shown = rulesets.of(game).host_view(game)
        return json.dumps({**shown, "move_clock": move_clock(store, game_id, game),
                           "stand_in_level": stand_in_level(game)}).encode()

    kept = json.loads(derived(store, game_id, "host", build, len))
    seen = store.seats_seen(game_id)
    return {
        "id": kept["id"], "phase": kept["phase"], "version": kept["version"],
        "clock": kept["clock"], "move_clock": kept["move_clock"],
        "seats": {s: {**info, "last_seen": seen.get(s)} for s, info in kept["seats"].items()},
        "turn": kept["turn"], "result": kept["result"], "host_seat": store.host_seat(game_id),
        "now": now(), "stand_in_level": kept["stand_in_level"],
    }


# -- the club's records: each finished game summarised once ----------------------------------


def _club_entry(game: Game) -> dict | None:
    """A finished game's summary for the club, from its rule set; None (and a log line) if
    the rule set fails to make one: the game is summarised again when the club's page is next
    asked for, and the move that ended it stands."""
    try:
        return rulesets.of(game).club_entry(game)
    except Exception:
        log.exception("the club's summary of a finished %s game failed", rulesets.of(game).rules)
        return None


def _keep_club_entry(store: Store, game_id: str, game: Game, entry: dict | None,
                     trusted: Collection[str] = ()) -> None:
    """Inside the write that finishes (or imports) the game: keep its summary and whether it
    counts (``counts_in_records``; ``trusted``: the keys whose signed files count, which a
    game played here does not need)."""
    if entry is not None:
        imported, signer = store.import_signer(game_id)
        store.keep_club_entry(game_id, rulesets.of(game).rules,
                              counts_in_records(imported, signer, trusted), entry)


def recount_imports(store: Store, own: str) -> None:
    """Whether each imported game counts, again, once the trusted referees change (``referee
    trust``): trusting a key counts the games its files brought from then on, distrusting it
    counts them no more. The club's sections are made again as the set they sum changes."""
    trusted = trusted_keys(store, own)
    with store.write():
        for game_id, signer in store.import_signers().items():
            store.count_club_entry(game_id, counts_in_records(True, signer, trusted))


_FILLING = threading.Lock()
_UNSUMMARISED: set[tuple[str, str]] = set()  # (database, game) whose summary failed here


def fill_club_entries(store: Store, own: str) -> None:
    """Summarise every finished game the club has no summary of (finished before summaries
    were kept, or whose summary failed), each replayed once, privately: nothing kept in the
    states' cache is pushed out for it. One thread of a process at a time; a game whose
    summary fails is tried again only by another process (after a restart, say)."""
    waiting = [g for g in store.finished_without_entry() if (store.path, g) not in _UNSUMMARISED]
    if not waiting:
        return
    with _FILLING:
        for game_id in store.finished_without_entry():
            if (store.path, game_id) in _UNSUMMARISED:
                continue
            game = replayed(store, game_id)
            entry = _club_entry(game)
            if entry is None:
                _UNSUMMARISED.add((store.path, game_id))
                continue
            with store.write():
                _keep_club_entry(store, game_id, game, entry, trusted_keys(store, own))


def club_section(store: Store, rules: str, build: Callable[[list[dict]], T]) -> T:
    """What ``build`` (a rule set's club section) makes of the summaries of its games that
    count in the records, oldest first: made again only when another game is counted (and the
    section before it dropped)."""
    return states_of(store).latest(("club", rules), store.club_stamp(rules),
                                   lambda: build(store.counted_club_entries(rules)),
                                   lambda section: 4 * len(repr(section)))


def settle(store: Store, game_id: str) -> None:
    """Let any computer whose turn it is move (say a server stopped between a player's move
    and the computer's answer)."""
    states = states_of(store)
    with states.lock(game_id):
        game = states.current(store, game_id)
        waiting = computer_to_move(store, game_id, game) is not None
    if waiting:
        play_bots(store, game_id)




class _Stale(Exception):
    """Another process changed the game between the command and the write: try again."""


class _DraftChanged(Exception):
    """The seat's draft changed between reading it and locking it in: try again."""


def _check_room(game: Game, before: int, new: list[dict]) -> None:
    """A command's events fit the log: within MAX_EVENTS, or within MAX_LOG for events that
    end the game or lead only towards its end (R14), which are always taken."""
    if before + len(new) <= MAX_EVENTS:
        return
    if before + len(new) <= MAX_LOG and game.ends_the_game(new):
        return
    raise ApiError(409, f"This game has reached the referee's limit of {MAX_EVENTS:,} "
                        "events; it can still end: agree to end it or resign (R14)",
                   field="events", rule="R14")


def _append(store: Store, game_id: str, before: int, new: list[dict]) -> None:
    """Append a command's events (perhaps none) inside the write transaction, if the game is
    still at the version the command saw (their room in the log is checked by
    ``_check_room``)."""
    if store.version(game_id) != before:
        raise _Stale
    if new:
        store.append(game_id, before + 1, new, now())


def act(store: Store, game_id: str, command: Callable[[Game], T], *,
        then: Callable[[T], None] | None = None, computers: bool = True) -> T:
    """Apply a command to a stored game: the command runs on the cached state, outside
    SQLite's write lock; the lock is taken only to check the version and append (and to run
    ``then``, the command's own writes, e.g. an Idempotency-Key's report). If another process
    appended first, the command runs again on the new state. ``then`` runs even when the
    command adds no event (a new join code for a seat nobody holds), at the version the
    command saw. What a caller shows afterwards comes from the views kept per version
    (``seat_view``, ``host_status``), never from a copy of the state, whose cost would
    grow with what is hidden (R21)."""
    states = states_of(store)
    for _ in range(ACT_ATTEMPTS):
        with states.lock(game_id):
            game = states.current(store, game_id)
            before = game.version
            try:
                result = command(game)
                _check_room(game, before, game.events[before:])
            except (RuleViolation, ApiError):
                if game.version != before:  # refused after a change: the state is not the log
                    states.forget(game_id)
                raise
            except BaseException:
                states.forget(game_id)
                raise
            new = game.events[before:]
            if not new and then is None:  # nothing to write: no write lock
                break
            stamp = content_hash(game) if new and status(game)["phase"] == "over" else None
            entry = _club_entry(game) if stamp else None
            try:
                with store.write():
                    _append(store, game_id, before, new)
                    if then is not None:
                        then(result)
                    if new:
                        store.keep_due(game_id, computer_due_at(store, game_id, game))
                    if stamp:
                        store.mark_finished(game_id, now())
                        # its file cannot be imported here again; an imported copy that
                        # came first keeps the hash (the live game is counted on its own)
                        store.claim_content_hash(game_id, stamp)
                        _keep_club_entry(store, game_id, game, entry)
            except _Stale:
                states.forget(game_id)
                continue
            except BaseException:
                if game.version != before:
                    states.forget(game_id)
                raise
        break
    else:
        raise ApiError(503, "The game is changing too fast to apply this now; try again")
    if new:
        log.info("game %s: %s", game_id, ", ".join(_describe_event(e) for e in new))
    if computers and new:
        settle(store, game_id)
    return result


# -- a seat's view and its draft disposition ---------------------------------------------------

@dataclass(frozen=True)
class SeatView:
    """A seat's view at one version of the game (and one revision of its draft): its JSON
    bytes (and their gzip, made on first asking) and its ETag's parts, built once and kept.
    ``settled``: at this version no computer is to move, now or later (no stand-in waits on
    a clock), so the kept view can be served without looking again. Only bytes are kept,
    not the document: thousands of kept documents' dicts, replaced at every move, made
    Python's cycle collector pause a server for 50-250 ms at a time (issue 15)."""

    version: int
    draft: int
    body: bytes
    settled: bool = False

    def fresh(self) -> dict:
        """The view as a document of its own, which the caller may change."""
        return json.loads(self.body)

    document = property(fresh)  # read by pages that only read it

    @functools.cached_property
    def gzipped(self) -> bytes:
        """The body compressed once, not on every request (a long game's view is 100 KB)."""
        return gzip.compress(self.body, compresslevel=6, mtime=0)


def seat_view(store: Store, game_id: str, seat: str) -> SeatView:
    """A seat's view (after any computer has moved), from the cached state. Its cost does not
    depend on anything hidden from the seat (R21): it is built once per version and seat,
    then served as the same bytes. A view kept for the store's current version (one indexed
    query, the cheap poll's) is served without the game's lock or state, unless a computer
    might still have to move at that version."""
    states = states_of(store)
    kept = kept_view(store, game_id, seat, *store.view_stamp(game_id, seat))
    if kept is not None:
        return kept
    settle(store, game_id)
    with states.lock(game_id):
        game = states.current(store, game_id)
        found = store.draft(game_id, seat)
        revision = found[1] if found else 0  # in the ETag, as the cheap poll reads it
        rule_set = rulesets.of(game)
        shown = rule_set.status_view(game)
        if shown["phase"] != "setup" or shown["seats"][seat]["ready"]:
            found = None  # a draft shows only until the seat locks in

        def build() -> SeatView:
            document = view(game, seat)
            document["move_clock"] = move_clock(store, game_id, game)  # R25, fixed per version
            if found:
                document = rule_set.with_draft(document, found[0])
            body = (json.dumps(document, separators=(",", ":")) + "\n").encode()
            turn = shown["turn"]
            settled = (shown["phase"] != "play" or turn is None
                       or not (shown["seats"][turn]["bot"] or shown["seats"][turn]["stand_in"]))
            return SeatView(game.version, revision, body, settled)

        return states.derived(game_id, game.version, ("view", seat, revision), build,
                              lambda view: 3 * len(view.body))


def kept_view(store: Store, game_id: str, seat: str, version: int, draft: int
              ) -> SeatView | None:
    """The seat's view kept for this version and draft revision (``store.view_stamp``'s),
    if it is kept and no computer may still move at it: what ``seat_view`` would serve, found
    without the game's lock or state (the cheap poll serves it before Flask is entered)."""
    kept = states_of(store).peek(game_id, version, ("view", seat, draft))
    return kept if isinstance(kept, SeatView) and kept.settled else None


def submit_draft(store: Store, game_id: str, seat: str, document: object
                 ) -> tuple[dict, list]:
    """Check a seat's draft disposition and keep it as the seat's private note, replacing
    the one before: no event, so no draft grows the log or changes another seat's view
    (issue 10 item 4). The disposition enters the log when the seat locks in."""
    states = states_of(store)
    for _ in range(ACT_ATTEMPTS):
        with states.lock(game_id):
            game = states.current(store, game_id)
            before = game.version
            normal, cost, warnings = rulesets.of(game).check_draft(game, seat, document)
            try:
                with store.write():
                    if store.version(game_id) != before:
                        raise _Stale
                    store.keep_draft(game_id, seat, normal)
            except _Stale:
                continue
        return cost, warnings
    raise ApiError(503, "The game is changing too fast to apply this now; try again")


def lock_in_draft(store: Store, game_id: str, seat: str) -> None:
    """Lock in the seat's draft disposition: its ``disposition`` and ``ready`` events."""
    found = store.draft(game_id, seat)

    def submit_and_lock(game: Game) -> list[dict]:
        if found and not status(game)["seats"][seat]["ready"]:
            game.submit(seat, found[0])
        return lock_in(game, seat)

    def unchanged(_events: list[dict]) -> None:
        if store.draft_revision(game_id, seat) != (found[1] if found else 0):
            raise _DraftChanged  # a newer draft came in meanwhile: lock in that one
        store.drop_draft(game_id, seat)  # it is in the log now

    for _ in range(ACT_ATTEMPTS):
        try:
            act(store, game_id, submit_and_lock, then=unchanged)
            return
        except _DraftChanged:
            found = store.draft(game_id, seat)
    raise ApiError(503, "The game is changing too fast to apply this now; try again")


def _describe_event(event: dict) -> str:
    """An event for the log: its type and seat, never a square (R21)."""
    seat = event.get("seat")
    return f"{event['type']} ({seat})" if seat else event["type"]


# -- games as files ---------------------------------------------------------------------------

EXPORT_FORMATS = {"naval-war": "naval-war-game"}  # a rule set's files keep their own name
EXPORT_VERSION = 1


def export_format(rules: str) -> str:
    """What a game file of these rules calls its format: ``naval-war-game`` as it always
    has, ``<rules>-game`` for every rule set since."""
    return EXPORT_FORMATS.get(rules, f"{rules}-game")


class MoveMade(NamedTuple):
    """A move's report as its seat sees it (R20), and the status it was first given: 201,
    or what an Idempotency-Key's first request got."""
    report: dict
    status: int


def make_move(store: Store, game_id: str, seat: str, document: object,
              key: str | None = None) -> MoveMade:
    """Make a seat's move, for the API and the pages alike. With a key (an Idempotency-Key,
    or the move form's own), a request seen before gets its first report again and changes
    nothing; the same key with a different move is refused."""
    asked = digest(json.dumps(document, sort_keys=True)) if key else None

    def command(game: Game) -> MoveMade:
        """Inside the move's transaction: a key seen before returns its report again."""
        seen = store.remembered(game_id, seat, key) if key else None
        if seen:
            if seen.request not in (None, asked):
                raise ApiError(422, "This Idempotency-Key was already used for a different "
                                    "move; send a new key for a new move",
                               field="Idempotency-Key")
            return MoveMade(seen.body, seen.status)
        _, report = game.move(seat, document)
        return MoveMade(rulesets.of(game).report_for(game, report, seat), 201)

    def remember(made: MoveMade) -> None:
        """Inside the write transaction, with the move's events (a key seen before, which
        made none, is kept as it was)."""
        if key and store.remembered(game_id, seat, key) is None:
            store.remember(game_id, seat, key, made.status, made.report, asked)

    return act(store, game_id, command, then=remember)


# -- a seat's and the host's other actions: one function each, for the API and the pages ----

def agree_to_end(store: Store, game_id: str, seat: str) -> None:
    """A seat agrees to end the game now; it ends when every seat still in has (R14)."""
    act(store, game_id, lambda game: game.agree_to_end(seat))


def play_on(store: Store, game_id: str, seat: str) -> None:
    """A seat declines another's offer to end the game: the offer lapses (R14)."""
    act(store, game_id, lambda game: game.play_on(seat))


def resign(store: Store, game_id: str, seat: str) -> None:
    """A seat resigns: its side loses whatever the scores (R14, R22, R23)."""
    act(store, game_id, lambda game: game.resign(seat))


def extend_clock(store: Store, game_id: str, minutes: object) -> None:
    """The host gives the disposition clock more minutes (R10)."""
    act(store, game_id, lambda game: game.extend_clock(minutes))


def forfeit_seat(store: Store, game_id: str, seat: str) -> None:
    """The host forfeits a seat that has not locked in once the clock has run out (R10)."""
    act(store, game_id, lambda game: forfeit(game, seat))


def submit_and_lock_in(game: Game, seat: str, document: dict) -> list[dict]:
    """Submit a seat's disposition and lock it in, as the placement page does; nothing to do
    for a seat already locked in (a double tap)."""
    if status(game)["seats"][seat]["ready"]:
        return []
    game.submit(seat, document)
    return lock_in(game, seat)


def content_hash(game: Game) -> str:
    """The hash of what makes a game the game it is (its rule set's ``game_content``: each
    seat's disposition and the moves, seats by their place in the order of play), without
    names, ids, times, options, salts or fingerprints, nor the order of the events before
    play: the same game, however its file was edited, re-salted or re-ordered, has the same
    hash."""
    rule_set = rulesets.of(game)
    canonical = {"rules": rule_set.rules, **rule_set.game_content(game)}
    return hashlib.sha256(json.dumps(canonical, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=True).encode()).hexdigest()


def fill_content_hashes(store: Store) -> None:
    """Give every finished game without a content hash its own (a game stored before the
    hash was of the game's content; see migration 0009), so that a file of it is found as
    the game already here. Each is replayed outside the write lock, once."""
    states = states_of(store)
    for game_id in store.finished_without_content_hash():
        with states.lock(game_id):
            stamp = content_hash(states.current(store, game_id))
        with store.write():
            store.claim_content_hash(game_id, stamp)


def counts_in_records(imported: bool, signer: str | None, trusted: Collection[str]) -> bool:
    """Whether a finished game counts in the club's records (its tables, players and
    totals): every game played here; an imported one only if its file carried a valid
    signature of this referee or of a referee the organiser trusts (``trusted``: their
    public keys, ``trusted_keys``). Any other import is listed as unverified and counted
    nowhere: anyone can make a file whose fingerprints verify."""
    return not imported or (signer is not None and signer in trusted)


def trusted_keys(store: Store, own: str) -> frozenset[str]:
    """The public keys whose signed files count here: this referee's own (``own``) and
    those the organiser trusts (``referee trust add``)."""
    return frozenset({own, *store.trusted_keys()})


def export_game(store: Store, game_id: str, key: SigningKey) -> dict:
    """A finished game as one file, like a chess PGN: its whole event log, with every
    disposition, and the fingerprints and salts that prove no fleet moved. A game that
    counts in this referee's records (played here, or imported from a trusted referee's
    signed file) is signed with this referee's key; an unverified import is not, so no file
    is ever vouched for here that was not."""
    game = load(store, game_id)
    rule_set = rulesets.of(game)
    if rule_set.status_view(game)["phase"] != "over":
        raise ApiError(409, "Only a finished game can be exported (R21)", rule="R21")
    shown = rule_set.game_file_view(game)
    document = {"format": export_format(rule_set.rules), "version": EXPORT_VERSION,
                "rules": rule_set.rules,
                "id": game_id, "exported_at": now(), "fingerprints": shown["fingerprints"],
                "salts": shown["salts"], "result": shown["result"], "events": shown["events"]}
    imported, signer = store.import_signer(game_id)
    if counts_in_records(imported, signer, trusted_keys(store, key.public)):
        return key.sign(document)
    return document


def _refuse_file(message: str, field: str = "file") -> ApiError:
    return ApiError(422, f"This game file cannot be imported: {message}. Nothing was stored.",
                    field=field)


def check_export(document: object) -> Game:
    """Replay an exported game and check every claim it makes; the replayed game or a refusal."""
    if not isinstance(document, dict):
        raise _refuse_file("it is not a game file (a JSON object)")
    rules = document.get("rules")
    if not isinstance(rules, str) or rules not in rulesets.RULE_SETS:
        raise _refuse_file(f"it is for the rules {str(rules)[:40]!r}, which this referee "
                           f"does not play ({', '.join(rulesets.RULE_SETS)})", "rules")
    rule_set = rulesets.RULE_SETS[rules]
    expected = export_format(rules)
    if (document.get("format"), document.get("version")) != (expected, EXPORT_VERSION):
        raise _refuse_file(f"it is not a {expected} file of version {EXPORT_VERSION}",
                           "format")
    events = document.get("events")
    if not isinstance(events, list) or not events:
        raise _refuse_file("its events are missing", "events")
    if len(events) > MAX_LOG:
        raise _refuse_file(f"it has {len(events):,} events; a game here has at most "
                           f"{MAX_LOG:,}", "events")
    _check_levels(events, rule_set)
    game = rule_set.empty()
    for n, event in enumerate(events, start=1):
        try:
            game.apply(event)
        except RuleViolation as err:
            raise _refuse_file(f"event {n} breaks the rules: {err}", "events") from None
        except (TypeError, KeyError, ValueError, AttributeError) as err:
            raise _refuse_file(f"event {n} is malformed ({err.__class__.__name__})",
                               "events") from None
    if rule_set.status_view(game)["phase"] != "over":
        raise _refuse_file("the game in it is not finished", "events")
    shown = rule_set.game_file_view(game)
    if document.get("fingerprints") != shown["fingerprints"]:
        raise _refuse_file("its fingerprints do not match its dispositions", "fingerprints")
    if document.get("salts") != shown["salts"]:
        raise _refuse_file("its salts do not match its lock-ins", "salts")
    if document.get("result") != shown["result"]:
        raise _refuse_file("the result it states is not the one its moves give", "result")
    return game


def _check_levels(events: list, rule_set: RuleSet) -> None:
    """A file's computers play known levels, as when a game is created here (R23), and so
    does the stand-in the host chose (R25)."""
    created = events[0]
    bots = created.get("bots") if isinstance(created, dict) else None
    for seat, level in (bots.items() if isinstance(bots, dict) else ()):
        if not isinstance(level, str) or level not in rule_set.levels:
            raise _refuse_file(f"the {str(seat)[:10]!r} computer's level is not one of "
                               f"{', '.join(rule_set.levels)}",
                               f"events[0].bots.{str(seat)[:10]}")
    for n, event in enumerate(events):
        if isinstance(event, dict) and event.get("type") == "stand_in_level" \
                and event.get("level") not in rule_set.levels:
            raise _refuse_file(f"event {n + 1} chooses a stand-in level that is not one of "
                               f"{', '.join(rule_set.levels)} (R25)", f"events[{n}].level")


def _duplicate(found: str) -> ApiError:
    return ApiError(409, f"This game is already on this referee (game {found}), perhaps with "
                         "other names; a game is imported once", field="file")


IMPORTS_PER_MINUTE = 10  # game files one client may send a minute (REFEREE_IMPORTS_PER_MINUTE)
IMPORT_WINDOW_S = 60


def admit_import(store: Store, client: str, limit: int = IMPORTS_PER_MINUTE) -> None:
    """Count a game file from this client (its remote address, as the server sees it behind
    any trusted proxy) before it is read or replayed: past ``limit`` a minute, 429 with
    Retry-After. Every worker process counts in the one database."""
    wait = store.take_turn(f"import:{client}", limit, IMPORT_WINDOW_S, now())
    if wait:
        retry = max(1, math.ceil(wait))
        log.warning("imports from one client refused for %d s: over %d a minute", retry, limit)
        raise ApiError(429, f"This referee takes at most {limit} game file"
                            f"{'' if limit == 1 else 's'} a minute from one address; try again "
                            f"in {seconds(retry)}", field="file",
                       headers={"Retry-After": str(retry)})


def file_signer(document: object) -> str | None:
    """The public key whose valid signature a game file carries (None: it has none); a
    signature that cannot be read or does not match the file is refused, naming its field."""
    if not isinstance(document, dict):
        return None  # check_export refuses it
    try:
        return signing.signer(document)
    except signing.SignatureRefused as refused:
        raise _refuse_file(refused.message, refused.field) from None


def import_game(store: Store, document: object, own: str) -> dict:
    """Store a checked game file under a new id; every seat gets a token to read it. The same
    game twice, even re-salted or re-ordered, is refused (409), except that a file that counts
    replaces an unverified copy of its game (else whoever imported a stripped copy first would
    keep the signed file out). The key that signed the file is kept: the game counts in the
    club's records only if it is this referee's (``own``) or a trusted one's
    (``counts_in_records``); otherwise it is listed as unverified. Replaying a file is costly
    work, done in a slot of the pool for it (``costly``)."""
    game = run_costly("importing game files", check_export, document)  # its faults first
    signer = file_signer(document)
    stamp = content_hash(game)
    fill_content_hashes(store)
    game_id = secrets.token_hex(5)
    # the log as the core's replay gives it: each event in its normal form, nothing more
    events = rulesets.of(game).game_file_view(game)["events"]
    events[0]["id"] = game_id
    seats = events[0]["seats"]
    tokens = {seat: new_secret(TOKEN_BYTES) for seat in seats}
    created = now()
    entry = _club_entry(game)
    with store.write():
        trusted = trusted_keys(store, own)
        counted = counts_in_records(True, signer, trusted)
        found = store.game_with_content(stamp)
        if found and counted and not counts_in_records(*store.import_signer(found), trusted):
            store.remove_game(found)  # an unverified copy gives way to the signed file
        elif found:
            raise _duplicate(found)
        store.add_game(game_id, new_secret(TOKEN_BYTES), seats, rulesets.of(game).rules,
                       created)
        store.append(game_id, 1, events, created)
        for seat, token in tokens.items():
            store.claim(game_id, seat, token)
        store.mark_finished(game_id, created)
        store.mark_imported(game_id, stamp, signer)
        _keep_club_entry(store, game_id, game, entry, trusted)
    if found:
        states_of(store).forget(found)
        log.warning("game %s, an unverified copy of the signed game file imported as %s, "
                    "is removed", found, game_id)
    log.info("game %s imported with %d events (%s)", game_id, len(events),
             "counted" if counted else "unverified")
    return {"id": game_id, "seats": {seat: {"token": t} for seat, t in tokens.items()},
            "signer": signer, "counted": counted}
