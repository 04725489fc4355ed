"""What one process keeps for each database it opens (``PerFile``): its writers' queue, the
lock file beside a SQLite file, whether a thread checkpoints its WAL, the games' replayed
states (``referee.states``), when each seat was last written as seen and the games whose club
summary failed here. The package keeps this process's own (``referee.store.PER_FILE``),
which every store reads at the time of use, so that a test can start a "new process" by
replacing it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

try:
    import fcntl
except ImportError:  # not a POSIX system: SQLite's own lock alone
    fcntl = None  # type: ignore[assignment]

T = TypeVar("T")


@dataclass
class FileKept:
    """What this process keeps for one database file (``PerFile``)."""

    writers: threading.RLock = field(default_factory=threading.RLock)
    lock_file: int | None = None  # opened once: ``PerFile.lock_file``
    lock_file_opened: bool = False
    checkpointing: bool = False  # a thread of this process checkpoints its WAL
    states: Any = None  # the games' replayed states (``states.States``), made on first use
    # when each (game, seat) was last written as seen (``service.clocks.mark_seen``)
    seen_written: dict[tuple[str, str], float] = field(default_factory=dict)
    # the finished games whose club summary failed in this process, not tried again here
    # (``service.files.fill_club_entries``), and the lock its one filling thread holds
    unsummarised: set[str] = field(default_factory=set)
    filling: threading.Lock = field(default_factory=threading.Lock)


class PerFile:
    """Everything this process keeps for each database file it opens, in one place: the lock
    its threads' writers queue on, the lock file every process's writers queue on, whether a
    thread checkpoints its WAL, the games' replayed states (``referee.states``), when each
    seat was last written as seen, and the games whose club summary failed here (``FileKept``).
    A new ``PerFile`` is a process that has kept nothing yet (``PER_FILE``)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._files: dict[str, FileKept] = {}

    def of(self, path: str) -> FileKept:
        found = self._files.get(path)
        if found is None:
            with self._guard:
                found = self._files.setdefault(path, FileKept())
        return found

    def writer_lock(self, path: str) -> threading.RLock:
        """The lock this process's writers to one database file queue on. Re-entrant, so
        that a write begun inside another on the same thread fails at once, as SQLite refuses
        a transaction within a transaction, rather than waiting on itself for ever."""
        return self.of(path).writers

    def lock_file(self, path: str) -> int | None:
        """The open lock file beside a database file (``<file>.writer``) on which the writers
        of every process on that file queue (``flock``), once this process's own turn has
        come: the kernel wakes the next writer the moment the one before it unlocks, where
        SQLite's busy handler would have it sleep and try again, up to 100 ms a sleep. None
        for a database in memory, or where the lock file cannot be made."""
        kept = self.of(path)
        with self._guard:
            if not kept.lock_file_opened:
                try:
                    kept.lock_file = None if path.startswith(":memory:") or fcntl is None \
                        else os.open(f"{path}.writer", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC,
                                     0o600)
                except OSError:
                    kept.lock_file = None
                kept.lock_file_opened = True
            return kept.lock_file

    def start_checkpointing(self, path: str) -> bool:
        """Whether the caller is the first to checkpoint this file's WAL in this process
        (then it does); False for a database in memory."""
        kept = self.of(path)
        with self._guard:
            if kept.checkpointing or path.startswith(":memory:"):
                return False
            kept.checkpointing = True
            return True

    def stop_checkpointing(self, path: str) -> None:
        """The thread that checkpointed this file's WAL has ended (the file is gone)."""
        with self._guard:
            self.of(path).checkpointing = False

    def states(self, path: str, make: Callable[[], T]) -> T:
        """The games' replayed states kept for this file, made once by ``make``."""
        kept = self.of(path)
        if kept.states is None:
            with self._guard:
                if kept.states is None:
                    kept.states = make()
        return kept.states


