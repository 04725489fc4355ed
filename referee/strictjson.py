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


def loads(raw: str | bytes) -> object:
    """``json.loads`` that refuses NaN, Infinity and non-finite numbers with ``NotFinite``
    (a ValueError), besides everything json.loads refuses; nesting too deep for Python is a
    ValueError too, never a RecursionError."""
    try:
        return json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite_float)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None
