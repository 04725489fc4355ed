"""Costly work in a bounded pool: printing a PDF, placing the rest of a fleet, a post-mortem,
importing a game file.

Each takes a tenth of a second to a second of one core, where a poll or a move takes a few
milliseconds. A server process has a few threads; if every one of them were printing, no
phone's poll or move would find a thread. So at most ``AT_ONCE`` pieces of costly work run
at once in a process; a request that finds them all taken is answered at once with 503 and
``Retry-After`` (the phone's page tries again), and the other threads stay free for polls and
moves. What is already made (a kept PDF, a blank sheet printed before) is served without a
slot.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

from .errors import ApiError

AT_ONCE = 2  # costly requests running at once in a process (a server has 8 threads)
WAIT_S = 0.2  # how long a costly request waits for a slot before it is told to come back
RETRY_AFTER_S = 2

_slots = threading.BoundedSemaphore(AT_ONCE)


@contextlib.contextmanager
def slot(what: str) -> Iterator[None]:
    """Hold one of the process's slots for costly work while the block runs; 503 with
    ``Retry-After`` when none comes free within ``WAIT_S``. ``what``: the work, as a phrase
    the message reads ("printing", "placing the rest")."""
    if not _slots.acquire(timeout=WAIT_S):
        raise ApiError(503, f"The referee is busy {what} for other players; try again in a "
                            f"few seconds", headers={"Retry-After": str(RETRY_AFTER_S)})
    try:
        yield
    finally:
        _slots.release()
