"""Every sentence a player reads, in good English: articles, number words, lists and seats.

One small set of phrasing functions used by the reports (the API's ``text``), the pages, the
printables and the post-mortem, so that nobody writes "a Aircraft Carrier", "One R.P. and
Three A-A guns" or "red at blue". Pieces keep the rules' capitals (Battleship, R.P., A-A gun);
number words are lower case except at the start of a sentence; figures from 10 up. The words
every game's pages share (number words, lists, seats and sides) are ``referee.common.phrasing``'s,
and are this module's too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..common.phrasing import (
    capitalise,
    join_and,
    number_word,
    seat_word,
    side_words,
    sides_words,
)

__all__ = ["article", "capitalise", "count", "join_and", "move_heading", "number_word",
           "order_words", "player", "seat_word", "side_words", "sides_words", "with_article"]

# Letters whose spoken names begin with a vowel sound: "an R.P.", "an A-A gun", "an F".
VOWEL_LETTERS = set("AEFHILMNORSX")


def article(noun: str) -> str:
    """"a" or "an", by how the noun is spoken; an initialism by its first letter's name.

    >>> [article(n) for n in ("Aircraft Carrier", "A-A gun", "R.P.", "Battleship", "salvo")]
    ['an', 'an', 'an', 'a', 'a']
    >>> article("Atom Bomber"), article("Submarine"), article("inch")
    ('an', 'a', 'an')
    """
    initialism = len(noun) > 1 and noun[0].isupper() and noun[1] in ".-"
    if initialism:
        return "an" if noun[0] in VOWEL_LETTERS else "a"
    return "an" if noun[:1].lower() in "aeiou" else "a"


def with_article(noun: str) -> str:
    """The noun with its article: "an Aircraft Carrier", "a Bomber", "an R.P.".

    >>> with_article("Aircraft Carrier"), with_article("Bomber"), with_article("R.P.")
    ('an Aircraft Carrier', 'a Bomber', 'an R.P.')
    """
    return f"{article(noun)} {noun}"


def count(n: int, singular: str, plural: str) -> str:
    """A number of things: "an R.P.", "three A-A guns", "12 Bombers", "no salvoes".

    >>> count(1, "R.P.", "R.P.s"), count(3, "A-A gun", "A-A guns"), count(12, "Bomber", "Bombers")
    ('an R.P.', 'three A-A guns', '12 Bombers')
    """
    return with_article(singular) if n == 1 else f"{number_word(n)} {plural}"


def player(seat: str, names: Mapping[str, str | None] | None = None) -> str:
    """A player as the pages name him: "Ann (Red)", or the seat's colour while unnamed.

    >>> player("red", {"red": "Ann"}), player("blue", {"blue": None}), player("gold")
    ('Ann (Red)', 'Blue', 'Gold')
    """
    name = (names or {}).get(seat)
    return f"{name} ({seat_word(seat)})" if name else seat_word(seat)


def order_words(order: Sequence[str], names: Mapping[str, str | None] | None = None,
                passed_over: Iterable[str] = ()) -> str:
    """The order of play (R11) in words, with no arrow a font might lack.

    >>> order_words(["blue", "red"])
    'Blue, then Red'
    >>> order_words(["green", "red", "blue"], {"red": "Ann"}, passed_over=["green"])
    'Green (forfeited, passed over), then Ann (Red), then Blue'
    """
    skipped = set(passed_over)
    return ", then ".join(player(s, names) + (" (forfeited, passed over)" if s in skipped
                                              else "") for s in order)


def move_heading(report: Mapping[str, Any], names: Mapping[str, str | None] | None = None) -> str:
    """A move's heading in the record: "Move 3: Ann (Red) at Bob (Blue)".

    >>> move_heading({"n": 3, "by": "red", "target": "blue"}, {"red": "Ann", "blue": "Bob"})
    'Move 3: Ann (Red) at Bob (Blue)'
    """
    return f"Move {report['n']}: {player(report['by'], names)} at " \
           f"{player(report['target'], names)}"
