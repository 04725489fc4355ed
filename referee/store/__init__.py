"""The referee's storage: games, seats, every game's event log and the club's records, behind
one interface (``Store``) on either engine, chosen by the database setting
(``REFEREE_DATABASE``):

- a SQLite file (``sqlite.SqliteStore``), the default: what ``make run`` needs, nothing else;
- PostgreSQL (``postgresql.PostgresStore``) for a URL ``postgresql://...``: several referee
  servers, on one host or many, share one database (``pip install 'referee[postgres]'``).

``Store(database)`` opens the one the setting names. Every accepted change is one transaction
(``Store.write``); nothing above this package writes SQL. What one process keeps for each
database (its writers' queue, the games' replayed states) is ``PER_FILE``.
"""

from __future__ import annotations

from .base import (
    CLUB_TABLES,
    GAME_TABLES,
    NOTES,
    RATE_WINDOWS_KEPT_S,
    ChangeWatcher,
    Holder,
    Remembered,
    SeqTaken,
    Store,
    Unavailable,
    digest,
    is_postgresql,
    shown,
)
from .perfile import FileKept, PerFile
from .sqlite import (
    BUSY_TIMEOUT_S,
    CHECKPOINT_EVERY_S,
    MIGRATIONS,
    SqliteStore,
    checkpoint_in_background,
)

PER_FILE = PerFile()  # this process's: every store reads it at the time of use

__all__ = [
    "BUSY_TIMEOUT_S", "CHECKPOINT_EVERY_S", "CLUB_TABLES", "GAME_TABLES", "MIGRATIONS", "NOTES",
    "PER_FILE", "RATE_WINDOWS_KEPT_S", "ChangeWatcher", "FileKept", "Holder", "PerFile",
    "Remembered", "SeqTaken", "SqliteStore", "Store", "Unavailable", "checkpoint_in_background",
    "digest", "is_postgresql", "shown",
]
