"""JSON written once: the parts of a seat's view that do not change from one version of a
game to the next (a report as a seat is told it, a rule set's board), kept as their JSON
text, and the view around them written with that text in place.

A rule set's ``view_parts(game, seat)`` is its ``view_for(game, seat)`` with some values
given as ``Encoded`` text, made once per state and kept in the state's memo, or once per
process for a constant; ``dumps`` writes the whole document, byte for byte what
``json.dumps(view_for(game, seat), separators=SEPARATORS)`` gives (the tests compare the two
over random games of every rule set, version by version, seat by seat). So a seat's view
after a move costs the JSON of what changed, not of every report since the first move, and
never the round trip through JSON that ``detached`` makes.

A parts document shares the game's own objects (it is not ``detached``): it is written by
``dumps`` at once, under the game's lock, and neither changed nor kept. Pure: no web,
storage or PDF library is imported here.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

SEPARATORS = (",", ":")  # the referee's JSON: no spaces (``service.seat_view``)


def _compact_writer() -> Callable[[object], str]:
    """``json.dumps(value, separators=SEPARATORS)``, byte for byte, by one encoder made once
    for every call. ``json.dumps`` with separators makes a new encoder each time (a quarter
    of the cost of writing a report), and the encoder's ``encode`` makes a new C scanner of
    the value each time too (half the cost of writing a seat's damage; a move writes some
    twenty values): this keeps that scanner, as ``JSONEncoder.iterencode`` makes it, where
    the interpreter has one. Without the circular-reference check: the referee writes
    documents, never a value that holds itself (it would fail, as too deep, not loop)."""
    plain = json.JSONEncoder(separators=SEPARATORS)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return plain.encode
    chunks = make(None, plain.default, json.encoder.encode_basestring_ascii, None,
                  plain.key_separator, plain.item_separator, False, False, True)
    join = "".join

    def written(value: object) -> str:
        return join(chunks(value, 0))

    return written


# A value as the referee writes JSON, exactly ``json.dumps(value, separators=SEPARATORS)``
compact: Callable[[object], str] = _compact_writer()

Parts = dict[str, Any]  # a view document some of whose values are ``Encoded``


class Encoded:
    """A JSON value already written (``of``, ``array``): ``dumps`` puts its text in place."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    @classmethod
    def of(cls, value: object) -> Encoded:
        """A value written as ``json.dumps`` writes it within a document."""
        return cls(compact(value))

    @classmethod
    def array(cls, items: Iterable[str]) -> Encoded:
        """A list whose items are given already written (each an ``Encoded``'s text)."""
        return cls("[" + ",".join(items) + "]")

    def __repr__(self) -> str:
        return f"Encoded({self.text[:40]!r}{'...' if len(self.text) > 40 else ''})"


@functools.lru_cache(maxsize=256)
def _written_key(key: str) -> str:
    """A key as ``dumps`` writes it before an ``Encoded`` value: the few a view names, each
    written once."""
    return compact(key) + ":"


def dumps(document: Mapping[str, object]) -> str:
    """The document as JSON, each ``Encoded`` value written as its text: exactly what
    ``json.dumps`` gives the document whose ``Encoded`` values are the values they were
    made from. Only the document's own values may be ``Encoded`` (one nested deeper is not
    JSON, and ``json.dumps`` refuses it: a TypeError, never a wrong byte). Runs of plain
    values are written together, each run as one dict less its braces."""
    parts: list[str] = []
    run: dict[str, object] = {}
    for key, value in document.items():
        if isinstance(value, Encoded):
            if not isinstance(key, str):
                raise TypeError(f"an Encoded value's key is text, not {type(key).__name__}")
            if run:
                parts.append(compact(run)[1:-1])
                run = {}
            parts.append(_written_key(key) + value.text)
        else:
            run[key] = value
    if run:
        parts.append(compact(run)[1:-1])
    return "{" + ",".join(parts) + "}"


def resolved(document: Mapping[str, object]) -> dict[str, Any]:
    """The document as plain JSON values, sharing nothing with the game (``detached``)."""
    value: dict[str, Any] = json.loads(dumps(document))
    return value
