"""The computers: each seeded from its game's server secret and its seat, never from anything
a player sees, and moving whenever it is a computer's turn (``play_bots``), one transaction a
move, from its seat's view alone (R21, R25).

The secret is never in a view, page, log or export. A move the rules refuse is replaced by the
rule set's simplest level's (``Computer.simplest``), logged with its rulings alone.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets

from .. import rulesets
from ..common.problems import RuleViolation
from ..common.ruleset import Game, RuleSet
from ..store import Store
from . import clocks, engine

log = logging.getLogger("referee")

GAME_SECRET_BYTES = 32  # 256 bits: the seed of the game's computers


def _computer(secret: str, seat: str, level: str, rule_set: RuleSet | None = None):
    """The computer of a seat at a level (of ``rule_set``, the first registered when it names
    none), its seed HMAC(the game's secret, the seat): the same for every level, so a level
    that stands in for another draws from the same source."""
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
    moves) predicts its fleet or its moves (R21). The secret is never in a view,
    page, log or export."""
    # a game stored before secrets were kept is given one now, once
    secret = store.secret_made_once(game_id, lambda: secrets.token_hex(GAME_SECRET_BYTES))
    if secret is None:
        raise LookupError(f"game {game_id} is not in this store")
    return _computer(secret, seat, level, rulesets.named(store.rules_of(game_id)))


def dice_secret(secret: str) -> str:
    """The referee's secret dice seed of a game (BB24): HMAC(the game's server secret, "dice"),
    never from anything a player sees; its SHA-256 is published as the game is created, the
    seed itself only once the game is over (``referee.common.dice``)."""
    return hmac.new(bytes.fromhex(secret), b"dice", hashlib.sha256).hexdigest()


def hold_dice(store: Store, game_id: str, game: Game) -> None:
    """Put the referee's secret dice seed in a game's hand before a command on it, where its
    rules roll dice and it does not hold it yet (a state replayed from the log holds none)."""
    if rulesets.of(game).rolls_dice and game.dice_secret is None:
        secret = store.secret_made_once(game_id, lambda: secrets.token_hex(GAME_SECRET_BYTES))
        if secret is None:
            raise LookupError(f"game {game_id} is not in this store")
        game.hold_dice(dice_secret(secret))


MAX_BOT_MOVES = 1000  # more than any game can have: a guard, not a limit of play


def play_bots(store: Store, game_id: str) -> None:
    """Let every computer that owes a move make it (or an answer to an offer to end the
    game: it plays on), one transaction per move, until no computer owes one or the game
    ends: a computer's seat, or a player's seat an opponent handed to the computer (R25).
    Where orders are sealed, each seat that owes one orders in
    turn, and each computer sees only its seat's view, never the other's sealed order (R21,
    R25)."""

    def computer_move(game: Game) -> tuple[str, str] | None:
        if engine.log_full(game):
            return None
        rule_set = rulesets.of(game)
        shown = rule_set.status_view(game)
        answering = clocks.computers_to_answer(shown)
        if answering:  # an offer to end the game: the computer plays on at once (R14)
            game.play_on(answering[0])
            return answering[0], "plays on"
        moving = clocks.computers_to_move(store, game_id, game)
        if not moving:
            return None
        seat, level = next(iter(moving.items()))
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
        return seat, "move"

    for _ in range(MAX_BOT_MOVES):
        try:
            made = engine.act(store, game_id, computer_move, computers=False)
        except engine.LogFull:  # only what ends the game fits the log now (R14): a computer
            return  # neither moves nor plays on; its players may agree to end, or resign
        if made is None:
            return
        log.info("game %s: %s (%s, computer)", game_id, made[1], made[0])
