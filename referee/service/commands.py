"""A seat's and the host's commands, each one transaction through the engine (``engine.act``):
create a game, keep and lock in a draft disposition, make a move (once per Idempotency-Key),
agree to end, play on, resign, give the disposition clock more minutes, forfeit a seat.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from typing import NamedTuple

from .. import rulesets
from ..common import dice
from ..common.encoded import Encoded
from ..common.ruleset import Document, Game, RuleSet
from ..errors import ApiError
from ..states import states_of
from ..store import Store, digest
from . import clock, computers, engine, seats, views

log = logging.getLogger("referee")

def _rule_set_named(rules: object) -> RuleSet:
    try:
        return rulesets.named(rules)
    except rulesets.UnknownRules as unknown:
        raise ApiError(422, str(unknown), field="rules") from None


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
    host_token = seats.new_secret(seats.TOKEN_BYTES)
    secret = secrets.token_hex(computers.GAME_SECRET_BYTES)
    created_at = clock.now()
    game, events = rule_set.new_game(
        id=game_id, seed=secrets.randbits(63), at=created_at, bots=bots,
        options={key: value for key, value in options.items() if key not in ("rules", "bots")})
    game.commit_dice(computers.dice_secret(secret))  # BB24: where the referee rolls dice
    game_seats = list(rule_set.status_view(game)["seats"])
    if len(bots) == len(game_seats):
        raise ApiError(422, "At least one seat is for a player", field="bots", rule="R23")
    for seat, level in bots.items():  # a computer makes its disposition at once (R10)
        made = computers._computer(secret, seat, level, rule_set)
        game.submit(seat, made.disposition(rule_set.view_for(game, seat)))
        lock_in(game, seat)
    codes = {seat: seats.join_code(key, game_id, seat, 0) for seat in game_seats}
    with store.write(game_id):
        store.add_game(game_id, host_token, game_seats, rule_set.rules, created_at)
        store.keep_secret(game_id, secret)
        store.append(game_id, 1, game.events, created_at)
        for seat in bots:
            store.claim(game_id, seat, seats.new_secret(seats.TOKEN_BYTES))  # a token nobody holds
    log.info("game %s created with %d seats (%d computers)", game_id, len(game_seats),
             len(bots))
    return {
        "id": game_id,
        "host_token": host_token,
        "seats": {seat: {"join_code": code, "join_url": join_url(game_id, seat, code)}
                  for seat, code in codes.items() if seat not in bots},
    }


def lock_in(game: Game, seat: str, dice_seed: str | None = None) -> list[dict]:
    """Lock in a seat with the server's secret salt for the disposition's fingerprint. The
    order of play was drawn at creation (R11); the seed here serves only a game stored before
    that amendment, which still tosses when its last seat locks in. Where the referee rolls
    dice (BB24), ``dice_seed`` is the seat's own (its phone's); a computer's, given none, is
    drawn from the game's secret (``Game.lock_in``)."""
    return game.lock_in(seat, seed=secrets.randbits(63), salt=secrets.token_hex(16),
                        dice_seed=dice_seed)


def player_seed(sent: object) -> str:
    """A player's dice seed as his phone sent it (BB24), checked; a fresh random one when
    it sent none, so that a seat always adds a seed of its own."""
    if sent is None or sent == "":
        return secrets.token_hex(16)
    if not dice.is_seed(sent):
        raise ApiError(422, "'dice_seed' is 1 to 64 letters, digits, '-' or '_' (BB24)",
                       field="dice_seed", rule="BB24")
    return str(sent)


def forfeit(game: Game, seat: str) -> list[dict]:
    """The host forfeits a seat once the clock has run out (R10); may start play."""
    return game.forfeit(seat, clock.now(), seed=secrets.randbits(63))


def submit_and_lock_in(game: Game, seat: str, document: dict,
                       dice_seed: str | None = None) -> list[dict]:
    """Submit a seat's disposition and lock it in, as the placement page does; nothing to do
    for a seat already locked in (a double tap). ``dice_seed``: the seed the page sent
    (BB24), a fresh one when it sent none."""
    if views.status(game)["seats"][seat]["ready"]:
        return []
    game.submit(seat, document)
    return lock_in(game, seat, player_seed(dice_seed))


class _DraftChanged(Exception):
    """The seat's draft changed between reading it and locking it in: try again."""


def submit_draft(store: Store, game_id: str, seat: str, document: object
                 ) -> tuple[dict | None, list]:
    """Check a seat's draft disposition and keep it as the seat's private note, replacing
    the one before: no event, so no draft grows the log or changes another seat's view
    (a draft is not an event). The disposition enters the log when the seat locks in."""
    states = states_of(store)
    for _ in range(engine.ACT_ATTEMPTS):
        with states.lock(game_id):
            game = states.current(store, game_id)
            before = game.version
            normal, cost, warnings = rulesets.of(game).check_draft(game, seat, document)
            try:
                with store.write(game_id):
                    if store.version(game_id) != before:
                        raise engine.Stale
                    store.keep_draft(game_id, seat, normal)
            except engine.Stale:
                continue
        return cost, warnings
    raise ApiError(503, "The game is changing too fast to apply this now; try again")


def lock_in_draft(store: Store, game_id: str, seat: str, dice_seed: object = None) -> None:
    """Lock in the seat's draft disposition: its ``disposition`` and ``ready`` events, with
    the seat's dice seed where the referee rolls dice (BB24: the phone's, ``dice_seed``, or
    a fresh one when it sent none)."""
    found = store.draft(game_id, seat)
    seed = player_seed(dice_seed)

    def submit_and_lock(game: Game) -> list[dict]:
        if found and not views.status(game)["seats"][seat]["ready"]:
            game.submit(seat, found[0])
        return lock_in(game, seat, seed)

    def unchanged(_events: list[dict]) -> None:
        if store.draft_revision(game_id, seat) != (found[1] if found else 0):
            raise _DraftChanged  # a newer draft came in meanwhile: lock in that one
        store.drop_draft(game_id, seat)  # it is in the log now

    for _ in range(engine.ACT_ATTEMPTS):
        try:
            engine.act(store, game_id, submit_and_lock, then=unchanged)
            return
        except _DraftChanged:
            found = store.draft(game_id, seat)
    raise ApiError(503, "The game is changing too fast to apply this now; try again")


class MoveMade(NamedTuple):
    """A move's report as its seat sees it (R20), and the status it was first given: 201,
    or what an Idempotency-Key's first request got; ``version``: the game's version the
    move made (0 for a key seen before, which made none); ``text``: the report written as
    JSON once, for its key's record and the answer's body, on a socket or over HTTP (None
    for a key seen before: ``written`` writes it then)."""
    report: Document
    status: int
    version: int = 0
    text: Encoded | None = None

    @property
    def written(self) -> Encoded:
        """The report as JSON: ``text``, or written now."""
        return self.text if self.text is not None else Encoded.of(self.report)


# what a move's Idempotency-Key's record keeps of its request: the move's document as
# ``json.dumps(document, sort_keys=True)`` writes it (kept digests compare with it), by one
# encoder for every move
_ASKED = json.JSONEncoder(sort_keys=True).encode


def make_move(store: Store, game_id: str, seat: str, document: object,
              key: str | None = None, *, computers: bool = True,
              version: int | None = None, kept: bool = False,
              inside: Callable[[], None] | None = None) -> MoveMade:
    """Make a seat's move, for the API and the pages alike. With a key (an Idempotency-Key,
    or the move form's own), a request seen before gets its first report again and changes
    nothing; the same key with a different move is refused. ``computers``: let a computer
    that owes a move then make it (``engine.settle``), else the caller does. ``version``
    and ``kept``: the state to start from (``engine.act``); on the state kept, the key is
    looked up inside the move's write, and one seen before sends the move back to be made
    from the log, where it is found (and the game's keys are looked up first from then on,
    ``States.keys_first``). ``inside``: called inside the write transaction, after
    the move's events, whatever the move; what it raises undoes the move (``sockets``: the
    token checked as the move commits)."""
    asked = digest(_ASKED(document)) if key else None
    again = False  # the key was seen before: its first report, and no move
    on_kept = kept and not states_of(store).keys_first(game_id)  # no read before the write
    unlooked = False  # this attempt's key is looked up in its write, not before

    def command(game: Game) -> MoveMade:
        """Inside the move's transaction: a key seen before returns its report again."""
        nonlocal again, on_kept, unlooked
        unlooked, on_kept = on_kept and key is not None, False
        seen = store.remembered(game_id, seat, key) if key and not unlooked else None
        again = seen is not None
        if seen:
            if seen.request not in (None, asked):
                raise ApiError(422, "This Idempotency-Key was already used for a different "
                                    "move; send a new key for a new move",
                               field="Idempotency-Key")
            return MoveMade(seen.body, seen.status)
        _, report = game.move(seat, document)
        copy, text = rulesets.of(game).report_json(game, report, seat)
        return MoveMade(copy, 201, game.version, text)

    def remember(made: MoveMade) -> None:
        """Inside the write transaction, with the move's events. Not read again: had
        another request stored the key since ``command`` looked, it would have made a move
        with it, and the version check (``engine.append_events``) would have sent this one
        back to ``command``. A key seen before, which made no events, is kept as it was."""
        if key and not again:
            if unlooked and store.remembered(game_id, seat, key) is not None:
                states_of(store).keys_first(game_id, found=True)
                raise engine.Stale  # seen before: the next attempt looks it up first
            store.remember(game_id, seat, key, made.status, made.written, asked)
        if inside is not None:
            inside()

    return engine.act(store, game_id, command, then=remember, computers=computers,
                      version=version, kept=kept)


def agree_to_end(store: Store, game_id: str, seat: str) -> None:
    """A seat agrees to end the game now; it ends when every seat still in has (R14)."""
    engine.act(store, game_id, lambda game: game.agree_to_end(seat))


def play_on(store: Store, game_id: str, seat: str) -> None:
    """A seat declines another's offer to end the game: the offer lapses (R14)."""
    engine.act(store, game_id, lambda game: game.play_on(seat))


def resign(store: Store, game_id: str, seat: str) -> None:
    """A seat resigns: its side loses whatever the scores (R14, R22, R23)."""
    engine.act(store, game_id, lambda game: game.resign(seat))


def extend_clock(store: Store, game_id: str, minutes: object) -> None:
    """The host gives the disposition clock more minutes (R10)."""
    engine.act(store, game_id, lambda game: game.extend_clock(minutes))


def forfeit_seat(store: Store, game_id: str, seat: str) -> None:
    """The host forfeits a seat that has not locked in once the clock has run out (R10)."""
    engine.act(store, game_id, lambda game: forfeit(game, seat))
