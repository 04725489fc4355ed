"""Shared checks for the JSON API tests (tests/test_api*.py), on top of apiclient.py.

The error format of API.md, the security headers every response carries, a table brought to
play with chosen fleets, and reading the squares (R1) out of anything a seat was sent.
"""

from __future__ import annotations

import json
import re

from apiclient import Api, TableGame, open_table

from referee.naval_war.squares import COLUMNS

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


# a ruling of one of the rule sets (the Naval War Game's R1-R25, Battleship TCG's T1-T12,
# Broadside's B1-B14, Broadsides and Boarding Parties' BB1-BB26) or "request" for a request
# no ruling covers
RULING = re.compile(r"R([1-9]|1\d|2[0-5])|T([1-9]|1[0-2])|B([1-9]|1[0-4])"
                    r"|BB([1-9]|1\d|2[0-6])|request")


def assert_errors(status: int, body: object, expected_status: int, *,
                  rule: str | None = None, field: str | None = None) -> list[dict]:
    """A refusal in the format of API.md: the status, then {"errors": [{"rule", "message",
    "squares", ...}]}; with ``rule`` / ``field``, some error must name that ruling / field."""
    assert status == expected_status, (status, body)
    assert isinstance(body, dict) and set(body) == {"errors"}, body
    errors = body["errors"]
    assert isinstance(errors, list) and errors, body
    for error in errors:
        assert isinstance(error, dict), body
        assert isinstance(error.get("rule"), str) and error["rule"], body
        assert isinstance(error.get("message"), str) and error["message"], body
        assert isinstance(error.get("squares"), list), body
        assert RULING.fullmatch(error["rule"]), error
    if rule is not None:
        assert rule in [e["rule"] for e in errors], (rule, body)
    if field is not None:
        assert field in [e.get("field") for e in errors], (field, body)
    return errors


def assert_security_headers(headers: dict) -> None:
    """The headers app.py promises on every response, error responses included."""
    lower = {k.lower(): v for k, v in headers.items()}
    for name, value in SECURITY_HEADERS.items():
        assert lower.get(name.lower()) == value, (name, headers)
    csp = lower.get("content-security-policy")
    assert csp, headers
    directives = {}
    for part in csp.split(";"):
        words = part.split()
        if words:
            directives[words[0].lower()] = words[1:]
    scripts = directives.get("script-src", directives.get("default-src"))
    assert scripts is not None, csp
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, csp
    assert directives.get("frame-ancestors") == ["'none'"], csp


def table_in_play(api: Api, dispositions: dict[str, dict], *, alliances: bool = False
                  ) -> TableGame:
    """A table whose seats have submitted and locked in these fleets: the game is in play."""
    table = open_table(api, len(dispositions), alliances=alliances)
    for seat, document in dispositions.items():
        status, body, _ = table.as_seat(seat, "PUT", "/disposition", document)
        assert status == 200, body
        table.dispositions[seat] = document
    for seat in dispositions:
        status, body, _ = table.as_seat(seat, "POST", "/ready")
        assert status == 200, body
    assert table.view("red")["phase"] == "play"
    return table


# -- squares in text ------------------------------------------------------------------------

_SPAN = re.compile(r"(?<![A-Za-z0-9])([A-U]) (\d{1,2})(?:-(?:([A-U]) )?(\d{1,2}))?(?!\d)")


def _square(col: str, row: str) -> str | None:
    return f"{col} {int(row)}" if 1 <= int(row) <= 21 else None


def squares_in_text(text: str) -> set[str]:
    """Every square a text names as the referee writes them (R1): "K 10", and ships by
    their squares, "S 6-7" or "C 5-F 5", a span counting every square it covers. Rulings
    ("R14") and other words are not squares.

    >>> sorted(squares_in_text("Cruiser at S 6-8 touches the Battleship at C 5-F 5 (R8)"))
    ['C 5', 'D 5', 'E 5', 'F 5', 'S 6', 'S 7', 'S 8']
    >>> sorted(squares_in_text("K 10: nothing; U 21 and V 3, B 22, A 1-2"))
    ['A 1', 'A 2', 'K 10', 'U 21']
    """
    found: set[str] = set()
    for col, row, col2, row2 in _SPAN.findall(text):
        first = _square(col, row)
        if first is None:
            continue
        found.add(first)
        if row2:
            c1, c2 = sorted((COLUMNS.index(col), COLUMNS.index(col2 or col)))
            r1, r2 = sorted((int(row), int(row2)))
            found |= {f"{COLUMNS[c]} {r}" for c in range(c1, c2 + 1)
                      for r in range(r1, min(r2, 21) + 1)}
    return found


def strings_in(document: object) -> list[str]:
    """Every string in a JSON document, its object keys included."""
    if isinstance(document, str):
        return [document]
    if isinstance(document, dict):
        return [s for k, v in document.items() for s in (k, *strings_in(v))]
    if isinstance(document, list):
        return [s for item in document for s in strings_in(item)]
    return []


def squares_in(document: object) -> set[str]:
    """Every square named anywhere in a JSON document (or its JSON text)."""
    if isinstance(document, str):
        try:
            document = json.loads(document)
        except ValueError:
            return squares_in_text(document)
    return {sq for s in strings_in(document) for sq in squares_in_text(s)}
