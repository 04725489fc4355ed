"""The referee's work on stored games: create, seat, authorise, and act inside one transaction.

Every change follows one path: open a write transaction, replay the game's events, let the
core check and apply the command, append the new events, commit. A refused command raises
before anything is written, so nothing is ever half-applied.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import TypeVar

from .bots import LEVELS, Bot
from .errors import ApiError
from .naval_war import SEATS, Game, RuleViolation, new_game, replay, view_for
from .store import Store, digest

log = logging.getLogger("referee")

RULES = "naval-war"  # the rule set every game here plays; others may sit beside it later
TOKEN_BYTES = 24  # 192 bits
JOIN_CODE_BYTES = 16  # 128 bits
T = TypeVar("T")


def new_secret(n_bytes: int) -> str:
    return secrets.token_urlsafe(n_bytes)


def now() -> float:
    return time.time()


def create_game(store: Store, options: dict, join_url: Callable[[str, str, str], str]
                ) -> dict:
    """A new game with a host token and a join code for every player's seat (shown once
    only). A computer's seat (``bots``) buys and places its fleet at once."""
    bots = options.get("bots") or {}
    if "bots" in options and not isinstance(options["bots"], dict):
        raise ApiError(422, "'bots' is an object naming seats, each with a level",
                       field="bots", rule="R23")
    for seat, level in bots.items():
        if not isinstance(level, str) or level not in LEVELS:
            raise ApiError(422, f"{level!r} is not a computer's level; the levels are "
                                f"{', '.join(LEVELS)}", field=f"bots.{seat}", rule="R23")
    game_id = secrets.token_hex(5)
    host_token = new_secret(TOKEN_BYTES)
    created_at = now()
    game, events = new_game(id=game_id, seats=options.get("seats", 2),
                            alliances=options.get("alliances", False),
                            disposition_minutes=options.get("disposition_minutes", 20),
                            bots=bots, at=created_at, seed=secrets.randbits(63))
    if len(bots) == len(game.seats):
        raise ApiError(422, "At least one seat is for a player", field="bots", rule="R23")
    for seat, level in bots.items():  # a computer budgets and places at once (R10)
        game.submit(seat, Bot(level, seed=f"{game_id}:{seat}").disposition())
        lock_in(game, seat)
    codes = {seat: new_secret(JOIN_CODE_BYTES) for seat in game.seats}
    with store.write():
        store.add_game(game_id, host_token, codes, RULES, created_at)
        store.append(game_id, 1, game.events, created_at)
        for seat in bots:
            store.claim(game_id, seat, new_secret(TOKEN_BYTES))  # a token nobody holds
    log.info("game %s created with %d seats (%d computers)", game_id, len(game.seats),
             len(bots))
    return {
        "id": game_id,
        "host_token": host_token,
        "seats": {seat: {"join_code": code, "join_url": join_url(game_id, seat, code)}
                  for seat, code in codes.items() if seat not in bots},
    }


MAX_BOT_MOVES = 1000  # more than any game can have: a guard, not a limit of play


def play_bots(store: Store, game_id: str) -> None:
    """Let every computer whose turn it is move, one transaction per move, until a player's
    turn or the end. Each computer sees only its seat's view (R21)."""
    for _ in range(MAX_BOT_MOVES):
        with store.write():
            game = replay(store.events(game_id))
            seat = game.turn
            if game.phase != "play" or seat not in game.bots:
                return
            before = game.version
            view = view_for(game, seat)
            try:
                game.move(seat, Bot(game.bots[seat], seed=f"{game_id}:{seat}").move(view))
            except RuleViolation as refused:  # a computer's mistake must not stop the game
                # the rulings only: the problems' messages name squares of its chart (R21)
                log.warning("game %s: the %s computer's move was refused (%s); it plays a "
                            "recruit's move", game_id, seat,
                            ", ".join(p.rule for p in refused.problems))
                game.move(seat, Bot("recruit", seed=f"{game_id}:{seat}").move(view))
            store.append(game_id, before + 1, game.events[before:], now())
            if game.phase == "over":
                store.mark_finished(game_id, now())
        log.info("game %s: move (%s, computer)", game_id, seat)


def claim_seat(store: Store, game_id: str, seat: str, join_code: str, name: str) -> str:
    """Swap a seat's join code for its token; the code works once."""
    token = new_secret(TOKEN_BYTES)
    with store.write():
        row = _seat_row(store, game_id, seat)
        if not secrets.compare_digest(row["join_hash"], digest(join_code)):
            raise ApiError(403, f"That is not the join code of the {seat} seat",
                           field="join_code")
        if row["claimed"]:
            raise ApiError(409, f"The {seat} seat is already taken", field="seat")
        game = replay(store.events(game_id))
        before = game.version
        if seat not in game.names:
            game.join(seat, name)
        store.append(game_id, before + 1, game.events[before:], now())
        store.claim(game_id, seat, token)
    log.info("game %s: seat %s claimed", game_id, seat)
    return token


def reissue_join_code(store: Store, game_id: str, seat: str) -> str:
    """A fresh join code for a seat; whoever held the seat's token is signed out."""
    code = new_secret(JOIN_CODE_BYTES)
    with store.write():
        _seat_row(store, game_id, seat)
        store.reissue(game_id, seat, code)
    log.info("game %s: join code of seat %s reissued", game_id, seat)
    return code


def _seat_row(store: Store, game_id: str, seat: str) -> dict:
    if seat not in SEATS:
        raise ApiError(404, f"{seat!r} is not a seat; seats are {', '.join(SEATS)}",
                       field="seat")
    row = store.seat_row(game_id, seat)
    if row is None:
        raise ApiError(404, f"This game has no {seat} seat", field="seat")
    return row


def require_game(store: Store, game_id: str) -> None:
    if not store.game_exists(game_id):
        raise ApiError(404, f"There is no game {game_id!r}")


def authorise(store: Store, game_id: str, token: str | None, *, host: bool = False) -> str:
    """The seat a bearer token plays in this game (or "host"); 401, 403 or 404 otherwise."""
    holder = store.holder_of(token) if token else None
    if holder is None or holder[0] != game_id:
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
    if host and seat is not None:
        raise ApiError(403, "Only the host's token may do this", field="Authorization")
    if not host and seat is None:
        raise ApiError(403, "The host's token does not play; join a seat to play",
                       field="Authorization")
    return seat or "host"


def lock_in(game: Game, seat: str) -> list[dict]:
    """Lock in a seat with the server's secret salt for the disposition's fingerprint. The
    order of play was drawn at creation (R11); the seed here serves only a game stored before
    that amendment, which still tosses when its last seat locks in."""
    return game.lock_in(seat, seed=secrets.randbits(63), salt=secrets.token_hex(16))


def forfeit(game: Game, seat: str) -> list[dict]:
    """The host forfeits a seat once the clock has run out (R10); may start play."""
    return game.forfeit(seat, now(), seed=secrets.randbits(63))


def load(store: Store, game_id: str) -> Game:
    return replay(store.events(game_id))


def load_settled(store: Store, game_id: str) -> Game:
    """The game, after any computer whose turn it is has moved (say a server stopped between
    a player's move and the computer's answer)."""
    game = load(store, game_id)
    if game.phase == "play" and game.turn in game.bots:
        play_bots(store, game_id)
        game = load(store, game_id)
    return game


def act(store: Store, game_id: str, command: Callable[[Game], T]) -> tuple[T, Game]:
    """Apply a command to a stored game in one transaction: replay, check, append, commit."""
    with store.write():
        game = replay(store.events(game_id))
        before = game.version
        result = command(game)
        new = game.events[before:]
        store.append(game_id, before + 1, new, now())
        if new and game.phase == "over":
            store.mark_finished(game_id, now())
    if new:
        log.info("game %s: %s", game_id, ", ".join(_describe_event(e) for e in new))
    if game.phase == "play" and game.turn in game.bots:
        game = load_settled(store, game_id)
    return result, game


def _describe_event(event: dict) -> str:
    """An event for the log: its type and seat, never a square (R21)."""
    seat = event.get("seat")
    return f"{event['type']} ({seat})" if seat else event["type"]


# -- games as files ---------------------------------------------------------------------------

EXPORT_FORMAT = "naval-war-game"
EXPORT_VERSION = 1
MAX_IMPORT_EVENTS = 5000


def export_game(store: Store, game_id: str) -> dict:
    """A finished game as one file, like a chess PGN: its whole event log, with every
    disposition, and the fingerprints and salts that prove no fleet moved."""
    game = load(store, game_id)
    if game.phase != "over":
        raise ApiError(409, "Only a finished game can be exported (R21)", rule="R21")
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "rules": RULES,
            "id": game_id, "exported_at": now(), "fingerprints": dict(game.fingerprints),
            "salts": dict(game.salts), "result": game.result(), "events": game.events}


def _refuse_file(message: str, field: str = "file") -> ApiError:
    return ApiError(422, f"This game file cannot be imported: {message}. Nothing was stored.",
                    field=field)


def check_export(document: object) -> Game:
    """Replay an exported game and check every claim it makes; the replayed game or a refusal."""
    if not isinstance(document, dict):
        raise _refuse_file("it is not a game file (a JSON object)")
    if (document.get("format"), document.get("version")) != (EXPORT_FORMAT, EXPORT_VERSION):
        raise _refuse_file(f"it is not a {EXPORT_FORMAT} file of version {EXPORT_VERSION}",
                           "format")
    if document.get("rules") != RULES:
        raise _refuse_file(f"it is for the rules {document.get('rules')!r}, not {RULES!r}",
                           "rules")
    events = document.get("events")
    if not isinstance(events, list) or not events or len(events) > MAX_IMPORT_EVENTS:
        raise _refuse_file("its events are missing or too many", "events")
    game = Game()
    for n, event in enumerate(events, start=1):
        try:
            game.apply(event)
        except RuleViolation as err:
            raise _refuse_file(f"event {n} breaks the rules: {err}", "events") from None
        except (TypeError, KeyError, ValueError, AttributeError) as err:
            raise _refuse_file(f"event {n} is malformed ({err.__class__.__name__})",
                               "events") from None
    if game.phase != "over":
        raise _refuse_file("the game in it is not finished", "events")
    if document.get("fingerprints") != game.fingerprints:
        raise _refuse_file("its fingerprints do not match its dispositions", "fingerprints")
    if document.get("salts") != game.salts:
        raise _refuse_file("its salts do not match its lock-ins", "salts")
    if document.get("result") != game.result():
        raise _refuse_file("the result it states is not the one its moves give", "result")
    return game


def import_game(store: Store, document: object) -> dict:
    """Store a checked game file under a new id; every seat gets a token to read it."""
    check_export(document)
    game_id = secrets.token_hex(5)
    events = [dict(e) for e in document["events"]]
    events[0]["id"] = game_id
    seats = events[0]["seats"]
    tokens = {seat: new_secret(TOKEN_BYTES) for seat in seats}
    created = now()
    with store.write():
        store.add_game(game_id, new_secret(TOKEN_BYTES),
                       {seat: new_secret(JOIN_CODE_BYTES) for seat in seats}, RULES, created)
        store.append(game_id, 1, events, created)
        for seat, token in tokens.items():
            store.claim(game_id, seat, token)
        store.mark_finished(game_id, created)
    log.info("game %s imported with %d events", game_id, len(events))
    return {"id": game_id, "seats": {seat: {"token": t} for seat, t in tokens.items()}}
