"""Seats and who holds them: join codes derived from the installation's key, tokens, recovery
codes (R24), the host's powers and handing them on, and which seat a bearer token plays.

A seat's join code is derived from the installation's secret key (``join_code``) and stored
nowhere; a token and a recovery code are stored only as their hashes. The right recovery code
always works, and wrong guesses are counted per client, so nobody's guesses can lock a seat's
owner out.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from typing import NamedTuple

from .. import rulesets
from ..errors import ApiError
from ..states import states_of
from ..store import Store, digest
from . import clock, clocks, engine, views

log = logging.getLogger("referee")

TOKEN_BYTES = 24  # 192 bits
JOIN_CODE_BYTES = 16  # 128 bits of an HMAC-SHA256


def new_secret(n_bytes: int) -> str:
    return secrets.token_urlsafe(n_bytes)


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
    with states.lock(game_id), store.write(game_id):  # a join is short and rare: applied inside
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
            if views.status(game)["seats"][seat]["name"] is None:
                game.join(seat, name)
            engine.check_room(game, before, game.events[before:])
            engine.append_events(store, game_id, before, game.events[before:])
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
    with store.write(game_id):
        row = _seat_row(store, game_id, seat)
        right = bool(row["recovery_hash"] and row["claimed"]
                     and secrets.compare_digest(row["recovery_hash"], offered))
        if right:
            store.recover(game_id, seat, token, recovery_hash(game_id, seat, fresh), offered,
                          clock.now())
        elif row["spent_recovery_hash"] \
                and clock.now() - (row["recovered_at"] or 0) < DOUBLE_TAP_S \
                and secrets.compare_digest(row["spent_recovery_hash"], offered):
            raise ApiError(409, f"That code has just moved the {seat.title()} seat to a device, "
                                "which holds it now with a new code (R24); on that device, "
                                "open the game", field="recovery_code", rule="R24")
        else:
            failures, after, last = store.recovery_guesses(client)
            if clock.now() < after:
                raise ApiError(429, "Too many wrong recovery codes from this device; try again "
                                    f"in {seconds(int(after - clock.now()) + 1)} (R24)",
                               field="recovery_code", rule="R24")
            failures = 1 if clock.now() - last > RECOVER_FORGIVEN_S else failures + 1
            delay = 0 if failures < RECOVER_FREE_GUESSES else min(
                RECOVER_MAX_WAIT_S, 2 ** (failures - RECOVER_FREE_GUESSES))
            store.guessed_wrong(client, failures, clock.now() + delay, clock.now())
    if not right:  # the failure is counted (committed above) before the refusal
        log.warning("game %s: a wrong recovery code for seat %s", game_id, seat)
        raise ApiError(403, f"That is not the recovery code of the {seat.title()} seat (R24)",
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

    engine.act(store, game_id, lambda game: game.reissue(seat), then=sign_out)
    log.info("game %s: join code of seat %s reissued", game_id, seat)
    return join_code(key, game_id, seat, generation[-1])


def hand_over_hosting(store: Store, game_id: str, seat: str) -> None:
    """The host's powers pass to a player's seat, and follow that seat (even to a new phone
    by its recovery code); the host token stops working. Hosting shows nothing of any seat
    (R24)."""
    row = _seat_row(store, game_id, seat)
    held = views.public_status(store, game_id)["seats"][seat]
    if held["bot"] or held["forfeited"] or not row["claimed"] or held["name"] is None:
        raise ApiError(409, f"Hosting goes to a player who holds his seat; {seat} is "
                            "the computer's, forfeited or not yet taken", field="seat",
                       rule="R24")
    with store.write(game_id):
        store.hand_over(game_id, seat, new_secret(TOKEN_BYTES))
    log.info("game %s: hosting handed to seat %s", game_id, seat)


def is_host(store: Store, game_id: str, token: str | None) -> bool:
    """Whether a token holds the host's powers in this game: the host token, or the token of
    the seat hosting was handed to."""
    holder = store.holder_of(token) if token else None
    if holder is None or holder.game_id != game_id:
        return False
    return holder.seat is None or holder.seat == store.host_seat(game_id)


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


def authorise(store: Store, game_id: str, token: str | None, *, host: bool = False,
              seen: bool = True) -> str:
    """The seat a bearer token plays in this game (or "host"); 401, 403 or 404 otherwise.
    ``seen=False``: the seat is not noted as seen (R25) by this call (its stream's hub notes
    every seat it holds a stream of, together, ``streams.Hub._mark_present``)."""
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
    if seen:
        clocks.mark_seen(store, game_id, seat)
    return seat
