"""Moving a club from one database to another (a SQLite file to PostgreSQL and back, or to a
new laptop): every game, seat, event, draft, record and trusted key, in one file that this
referee signs (``referee export-all``), read back whole or not at all (``referee import-all``).

The file is JSON Lines: a header (``format``, ``version``, the migrations its database had),
then for each table a line naming its columns followed by one line a row (a JSON array), and
last a trailer with the count of rows and the SHA-256 of every line before it, signed with
this referee's key like a game file (``signing``). A file changed, cut short or signed by
nobody is refused before anything is written. The games keep their ids, tokens (as hashes),
join generations, recovery codes and content hashes, so every phone and paper record carries
on; imported games keep the key that signed their files. If the referee that reads the file
has another signing key (a new laptop), it trusts the key that signed the club's file, so that
the game files the old referee signed count here as they counted there.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO

from .. import signing
from ..signing import SigningKey
from ..store import Store
from . import clock, files

log = logging.getLogger("referee")

FORMAT = "referee-club"
TRAILER = "referee-club-end"
VERSION = 1
BATCH = 500  # rows inserted at a time
MAX_LINE = 8 * 1024 * 1024  # a row is at most a game file's event, far under this


class ClubFileRefused(ValueError):
    """A club file this referee will not read, and why (nothing was written)."""


@dataclass
class Moved:
    """What an import moved in: rows by table, and the key it trusted (if any)."""

    rows: dict[str, int]
    games: int
    source_key: str
    trusted: bool


def export_club(store: Store, key: SigningKey) -> Iterator[str]:
    """The club's file, line by line (each ends with a newline)."""
    running = hashlib.sha256()
    count = 0

    def line(value: object) -> str:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=True) + "\n"
        running.update(text.encode())
        return text

    yield line({"format": FORMAT, "version": VERSION, "referee_key": key.public,
                "exported_at": clock.now(), "migrations": store.applied_migrations()})
    for table, columns, rows in store.dump():
        yield line({"table": table, "columns": columns})
        for row in rows:
            count += 1
            yield line(list(row))
    trailer = key.sign({"format": TRAILER, "rows": count, "sha256": running.hexdigest()})
    yield json.dumps(trailer, separators=(",", ":"), ensure_ascii=True) + "\n"


def _cell(value: object, where: str) -> object:
    if value is None or isinstance(value, str | int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    raise ClubFileRefused(f"{where}: a cell is text, a number or null, not {type(value).__name__}")


def read_club(lines: Iterable[bytes | str]) -> tuple[dict, list[tuple[str, list[str], list]]]:
    """The header and every table of a club file, checked whole against its signed trailer
    (read into memory: a club's file is its database's size)."""
    running = hashlib.sha256()
    header: dict | None = None
    trailer: dict | None = None
    tables: list[tuple[str, list[str], list]] = []
    count = 0
    for number, raw in enumerate(lines, 1):
        text = raw.decode("utf-8", errors="strict") if isinstance(raw, bytes) else raw
        if len(text) > MAX_LINE:
            raise ClubFileRefused(f"line {number} is longer than any a club file has")
        if trailer is not None:
            if text.strip():
                raise ClubFileRefused(f"line {number}: more after the file's signed end")
            continue
        try:
            value = json.loads(text)
        except ValueError:
            raise ClubFileRefused(f"line {number} is not JSON: not a club file, or a "
                                  "damaged one") from None
        if header is None:
            if not isinstance(value, dict) or value.get("format") != FORMAT:
                raise ClubFileRefused(f"not a club file (`referee export-all` makes one): its "
                                      f"first line has no \"format\": \"{FORMAT}\"")
            if value.get("version") != VERSION:
                raise ClubFileRefused(f"a club file of version {str(value.get('version'))[:10]}"
                                      f"; this referee reads version {VERSION}")
            header = value
        elif isinstance(value, dict) and value.get("format") == TRAILER:
            trailer = value
            continue
        elif isinstance(value, dict):
            if set(value) != {"table", "columns"} or not isinstance(value["table"], str) \
                    or not isinstance(value["columns"], list) \
                    or not all(isinstance(c, str) for c in value["columns"]):
                raise ClubFileRefused(f"line {number}: a table's line names its table and "
                                      "its columns")
            tables.append((value["table"], value["columns"], []))
        elif isinstance(value, list):
            if not tables or len(value) != len(tables[-1][1]):
                raise ClubFileRefused(f"line {number}: a row of {len(value)} cells where its "
                                      "table has another number of columns")
            tables[-1][2].append([_cell(v, f"line {number}") for v in value])
            count += 1
        else:
            raise ClubFileRefused(f"line {number} is neither a table nor a row")
        running.update(text.encode() if text.endswith("\n") else (text + "\n").encode())
    if header is None:
        raise ClubFileRefused("the file is empty")
    if trailer is None:
        raise ClubFileRefused("the file has no signed end: it was cut short, or it is not "
                              "a whole club file")
    try:
        signer = signing.signer(trailer)
    except signing.SignatureRefused as refused:
        raise ClubFileRefused(f"its signature: {refused.message}") from None
    if signer is None:
        raise ClubFileRefused("its end carries no signature: a club file is read only as "
                              "the referee that exported it signed it")
    if trailer.get("rows") != count or trailer.get("sha256") != running.hexdigest():
        raise ClubFileRefused("it was changed after it was exported (its rows do not match "
                              "what its signature covers)")
    if signer != header.get("referee_key"):
        raise ClubFileRefused("it is signed by another referee than the one it names")
    return header, tables


def lines_of(file: IO[bytes]) -> Iterator[bytes]:
    """A club file's lines, none read whole past ``MAX_LINE`` (a file of one endless line
    is refused, never held in memory)."""
    while True:
        line = file.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) > MAX_LINE:
            raise ClubFileRefused("a line is longer than any a club file has")
        yield line


def import_club(store: Store, lines: Iterable[bytes | str], own: str) -> Moved:
    """Read a club file into this database, which has no games yet, in one write: all of it
    or nothing. ``own``: this referee's public key."""
    header, tables = read_club(lines)
    missing = [m for m in header.get("migrations") or [] if m not in
               store.applied_migrations()]
    if missing:
        raise ClubFileRefused(f"the file comes from a newer referee (its database has "
                              f"{', '.join(missing[:3])}); update this one first")
    source = header["referee_key"]
    rows: dict[str, int] = {}
    with store.write():
        if store.game_count():
            raise ClubFileRefused(f"this database has {store.game_count()} games already; a "
                                  "club moves into an empty one (a new REFEREE_DATABASE)")
        for table, columns, table_rows in tables:
            try:
                for start in range(0, len(table_rows), BATCH):
                    store.load(table, columns, table_rows[start:start + BATCH])
            except ValueError as unknown:
                raise ClubFileRefused(str(unknown)) from None
            rows[table] = rows.get(table, 0) + len(table_rows)
        trusted = source != own and source not in store.trusted_keys()
        if trusted:
            store.trust(source, "The referee this club moved from", clock.now())
        store.after_load()
    files.recount_imports(store, own)
    games = rows.get("games", 0)
    log.info("a club moved in: %d games (%s)", games,
             ", ".join(f"{n} {t}" for t, n in rows.items()))
    return Moved(rows, games, source, trusted)
