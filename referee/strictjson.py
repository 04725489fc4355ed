"""JSON from a client or a file, parsed strictly: no NaN, Infinity or numbers too large for a
float (``1e400``), which Python's json accepts and which would make the referee's own JSON
invalid (``"deadline": NaN``) or overflow later."""

from __future__ import annotations

import json
import math


class NotFinite(ValueError):
    """A number JSON cannot carry: NaN, Infinity, or too large for a float."""


def _refuse_constant(name: str) -> float:
    raise NotFinite(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotFinite(f"{text[:20]} is too large a number")
    return value


# one decoder for every call: ``json.loads`` with hooks makes a decoder and its scanner each time
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)


def loads(raw: str | bytes) -> object:
    """``json.loads`` that refuses NaN, Infinity and non-finite numbers with ``NotFinite``
    (a ValueError), besides everything json.loads refuses; nesting too deep for Python is a
    ValueError too, never a RecursionError. Text is read as ``json.loads`` reads it (bytes in
    any of JSON's encodings, a byte-order mark refused in a string)."""
    if isinstance(raw, str):
        if raw.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", raw, 0)
        text = raw
    else:
        text = raw.decode(json.detect_encoding(raw), "surrogatepass")
    try:
        return _DECODER.decode(text)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None
