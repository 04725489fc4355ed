"""Dice nobody can doubt (BB24): every roll drawn from a secret the referee committed to when the
game was created and the seeds the players added when they locked in, recorded in the log, and
checkable by anyone once the secret is revealed at the end.

The scheme, for any rule set whose referee rolls dice (a ``Lifecycle`` with ``DICE``):

1. As the game is created the referee draws a secret seed (from the game's server secret, never
   from anything a player sees) and publishes its **commitment**: the SHA-256 of the seed's
   UTF-8 bytes, in hex (the ``dice_committed`` event).
2. Each player's phone sends a **seed of its own** when he locks in (a computer's is drawn from
   the server's secret); it is public from then on (the ``ready`` event's ``dice_seed``).
3. Roll ``n`` (numbered from 1 in the order the rules draw them) is the first byte ``b`` below
   252 of ``HMAC-SHA256(key = the secret seed, message = "referee dice v1\\n" + the players'
   seeds in the order of the seats, each followed by "\\n", + n + "\\n" + k)`` with ``k = 0``,
   mapped to ``b mod 6 + 1``; 252 is the largest multiple of 6 a byte holds, so each face has
   exactly 42 of the 252 bytes taken (no face is favoured). Should all 32 bytes be 252 or more
   (once in 2**192 rolls), ``k = 1``, 2 ... are tried in turn.
4. Each roll is recorded in the log with the move that drew it (the ``move`` event's
   ``rolls``), so a replay needs no secret. At the end the referee reveals the secret seed
   (the ``dice_revealed`` event): its SHA-256 must be the commitment, and every roll in the log
   must be the one the seed and the players' seeds give (``audit``).

The referee's secret never leaves the server before the end: no view, refusal, record, page,
log line or file holds it, and drawing a roll costs one HMAC whatever it shows.

>>> secret = "0" * 64
>>> commitment(secret)[:16]
'60e05bd1b195af2f'
>>> [roll(secret, ["red-seed", "blue-seed"], n) for n in range(1, 9)]
[6, 1, 6, 3, 3, 4, 4, 1]

Pure like the cores that use it: only the standard library.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

DOMAIN = "referee dice v1"  # the first line of every roll's message
FACES = 6
TAKEN = 252  # the largest multiple of FACES below 256: bytes from it up are passed over
SEED = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a player's seed: what a phone can send plainly
COMMITMENT = re.compile(r"[0-9a-f]{64}")
MAX_SECRET = 128  # characters of a revealed secret seed (the referee's are 64)


def commitment(secret: str) -> str:
    """The SHA-256 of the secret seed's UTF-8 bytes, in hex: published as the game is created."""
    return hashlib.sha256(secret.encode()).hexdigest()


def message(seeds: Sequence[str], n: int, k: int = 0) -> bytes:
    """What roll ``n`` hashes (its ``k``-th try): the domain, each player's seed in the order
    of the seats, the roll's number and the try, each on a line of its own."""
    return "".join(f"{line}\n" for line in (DOMAIN, *seeds, n, k)).encode()


def roll(secret: str, seeds: Sequence[str], n: int) -> int:
    """Roll ``n``, 1 to 6, from the referee's secret seed and the players' seeds."""
    for k in itertools.count():
        digest = hmac.new(secret.encode(), message(seeds, n, k), hashlib.sha256).digest()
        face = 0
        for byte in digest:  # every byte read, whichever is taken: the same work each roll
            if not face and byte < TAKEN:
                face = byte % FACES + 1
        if face:
            return face
    raise AssertionError("unreachable")  # pragma: no cover - itertools.count never ends


def seat_seed(secret: str, seat: str) -> str:
    """A computer's seed (or a seat's whose phone sent none, in the cores' own games): drawn
    from the referee's secret and the seat."""
    return hmac.new(secret.encode(), f"seat seed\n{seat}\n".encode(),
                    hashlib.sha256).hexdigest()[:32]


def is_seed(value: object) -> bool:
    """A player's seed as a phone may send it: 1 to 64 letters, digits, '-' or '_'."""
    return isinstance(value, str) and SEED.fullmatch(value) is not None


@dataclass
class Audit:
    """What a game file's dice come to (``audit``): the rolls checked and any that do not
    match, and why the file could not be checked at all (``problems``)."""

    commitment: str | None = None
    seeds: list[str] = field(default_factory=list)
    secret: str | None = None
    rolls: list[int] = field(default_factory=list)
    mismatches: list[tuple[int, int, int]] = field(default_factory=list)  # (n, logged, drawn)
    problems: list[str] = field(default_factory=list)

    @property
    def good(self) -> bool:
        return not self.problems and not self.mismatches


def audit(events: Iterable[object], seats: Sequence[str] | None = None) -> Audit:
    """Recompute every roll of a game's log from its own events alone: the commitment, each
    seat's seed (in the order of the ``created`` event's seats), the rolls of every move in
    order and the revealed secret. Knows nothing of the rules that drew them."""
    found = Audit()
    order: list[str] = list(seats or [])
    seeds: dict[str, str] = {}
    for event in events:
        if not isinstance(event, dict):
            continue
        kind = event.get("type")
        if kind == "created" and not order and isinstance(event.get("seats"), list):
            order = [str(seat) for seat in event["seats"]]
        elif kind == "dice_committed":
            found.commitment = str(event.get("commitment"))
        elif kind == "ready" and is_seed(event.get("dice_seed")):
            seeds[str(event.get("seat"))] = event["dice_seed"]
        elif kind == "move" and isinstance(event.get("rolls"), list):
            found.rolls.extend(r if isinstance(r, int) else 0 for r in event["rolls"])
        elif kind == "dice_revealed" and isinstance(event.get("secret"), str):
            found.secret = event["secret"]
    found.seeds = [seeds[seat] for seat in order if seat in seeds]
    if found.commitment is None:
        found.problems.append("the log holds no commitment (a dice_committed event)")
    if found.secret is None:
        found.problems.append("the referee's secret seed is not revealed (no dice_revealed "
                              "event): the game is not over, or the file was cut")
    elif found.commitment is not None and commitment(found.secret) != found.commitment:
        found.problems.append("the revealed secret seed's SHA-256 is not the commitment")
    if len(found.seeds) != len(order) and found.rolls:
        found.problems.append("a seat rolled dice without a seed of its own")
    if found.secret is not None and not found.problems:
        for n, logged in enumerate(found.rolls, start=1):
            drawn = roll(found.secret, found.seeds, n)
            if drawn != logged:
                found.mismatches.append((n, logged, drawn))
    return found
