"""Costly work, bounded and off the server's requests: printing a PDF, placing the rest of a
fleet, a post-mortem, replaying a game file to import it.

Each takes a tenth of a second to a second of one core, where a poll or a move takes a few
milliseconds. Two things keep it from starving every other game:

* At most ``AT_ONCE`` pieces of costly work are under way at once in a server process; a
  request that finds them all taken is answered at once with 503 and ``Retry-After`` (a
  phone's page tries again), so the other threads stay free for polls and moves. At once,
  not after a wait for a turn: sixteen clients asking without end would otherwise keep every
  thread waiting, and a move would queue behind them (it took 270 ms when each waited 0.2 s).
* ``referee serve`` runs the work itself in worker processes of its own (``use_processes``):
  a thread that prints in the server's own process holds Python's interpreter lock, and every
  poll and move then waits for it at each of their many small reads and writes (a move took
  400 ms behind two printing threads). The work is a pure function of what it is handed (a
  view, a record, a game's state, a file), so it is sent to the worker and its answer sent
  back; its exceptions (a ruling's refusal, ``ApiError``) come back as they were raised.
  The workers run at a lower priority (``WORKER_NICE``): on a machine of two cores, the
  costly processes of two server processes would otherwise take both cores from the
  processes that answer polls and moves.
  Without worker processes (the app alone, as the tests make it) the work runs in the
  request's thread, under the same bound.

What is already made (a kept PDF, a blank sheet printed before) is served without either.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TypeVar

from .errors import ApiError
from .serving import follow_parent  # a worker ends when its server is gone, even killed

AT_ONCE = 2  # costly requests under way at once in a server process (a server has 8 threads)
RETRY_AFTER_S = 2
WORKER_NICE = 10  # added to a costly-work process's niceness: a server's own go first
JOB_S = 120  # the longest a piece of costly work may take before it is given up
T = TypeVar("T")

log = logging.getLogger("referee")
_slots = threading.BoundedSemaphore(AT_ONCE)
@dataclass
class _Workers:
    """The worker processes of costly work, once ``use_processes`` starts them."""
    pool: ProcessPoolExecutor | None = None
    processes: int = 0


_workers = _Workers()
_workers_guard = threading.Lock()


def busy(what: str) -> ApiError:
    return ApiError(503, f"The referee is busy {what} for other players; try again in a few "
                         "seconds", headers={"Retry-After": str(RETRY_AFTER_S)})


@contextlib.contextmanager
def slot(what: str) -> Iterator[None]:
    """Hold one of the process's ``AT_ONCE`` turns for costly work while the block runs; 503
    with ``Retry-After`` at once when none is free. ``what``: the work, as a
    phrase the message reads ("printing", "placing the rest")."""
    if not _slots.acquire(blocking=False):
        raise busy(what)
    try:
        yield
    finally:
        _slots.release()


def use_processes(processes: int) -> None:
    """Run costly work in ``processes`` worker processes of its own from now on (``referee
    serve``), started now so that the first PDF does not wait for them, but not waited for:
    each imports the referee (a second of a core), giving way to the server, while the server
    begins to answer. Spawned, not forked: a fork of a server with threads may copy a lock
    some thread holds."""
    with _workers_guard:
        _workers.processes = processes
        _workers.pool = pool = _new_pool(processes)
    starting = threading.Thread(target=_start_giving_way, args=(pool,), name="costly-start")
    starting.start()
    starting.join()  # the workers' processes exist; their imports go on in them


def _start_giving_way(pool: ProcessPoolExecutor) -> None:
    """Start the pool's workers from a thread that already gives way as they will: Linux
    keeps a niceness per thread, and a process starts with that of the thread that started
    it, so each worker gives way from its first instruction, its import included."""
    os.setpriority(os.PRIO_PROCESS, 0, _worker_nice(os.getpid()))
    pool.submit(int)


def _worker_nice(server: int) -> int:
    return min(19, os.getpriority(os.PRIO_PROCESS, server) + WORKER_NICE)


def _new_pool(processes: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker, initargs=(os.getpid(),))


def _start_worker(parent: int) -> None:
    """In each worker process as it starts: end with the server (``follow_parent``), and
    give way to it for the cores (a worker started again after one died was not started
    giving way)."""
    follow_parent(parent)
    os.setpriority(os.PRIO_PROCESS, 0, _worker_nice(parent))


def run(what: str, work: Callable[..., T], /, *args, **kwargs) -> T:
    """``work(*args, **kwargs)`` in a turn of the costly pool (``slot``), in a worker process
    when the server has them. ``work`` and its arguments must be picklable (a module-level
    function, or a ``functools.partial`` of one, and plain data or a game's state)."""
    with slot(what):
        pool = _workers.pool
        if pool is None:
            return work(*args, **kwargs)
        try:
            return pool.submit(work, *args, **kwargs).result(timeout=JOB_S)
        except TimeoutError:
            log.error("costly work took over %d s while %s; given up", JOB_S, what)
            raise busy(what) from None
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            log.error("a costly-work process died while %s; starting new ones", what)
            with _workers_guard:
                if _workers.pool is pool:
                    _workers.pool = _new_pool(_workers.processes)
            raise busy(what) from None
