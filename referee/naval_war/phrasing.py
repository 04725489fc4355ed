"""Every sentence a player reads, in good English: articles, number words, lists and seats.

One small set of phrasing functions used by the reports (the API's ``text``), the pages, the
printables and the post-mortem, so that nobody writes "a Aircraft Carrier", "One R.P. and
Three A-A guns" or "red at blue". Pieces keep the rules' capitals (Battleship, R.P., A-A gun);
number words are lower case except at the start of a sentence; figures from 10 up.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
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


def number_word(n: int) -> str:
    """Small numbers in words, lower case; 10 and more in figures.

    >>> number_word(0), number_word(3), number_word(12)
    ('no', 'three', '12')
    """
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def count(n: int, singular: str, plural: str) -> str:
    """A number of things: "an R.P.", "three A-A guns", "12 Bombers", "no salvoes".

    >>> count(1, "R.P.", "R.P.s"), count(3, "A-A gun", "A-A guns"), count(12, "Bomber", "Bombers")
    ('an R.P.', 'three A-A guns', '12 Bombers')
    """
    return with_article(singular) if n == 1 else f"{number_word(n)} {plural}"


def join_and(items: Iterable[str], conjunction: str = "and") -> str:
    """A list as a sentence writes it: commas, and "and" before the last only.

    >>> join_and(["an Atom Bomber", "an R.P.", "three A-A guns"])
    'an Atom Bomber, an R.P. and three A-A guns'
    >>> join_and(["Red", "Green"]), join_and(["Blue"]), join_and([])
    ('Red and Green', 'Blue', '')
    """
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def capitalise(text: str) -> str:
    """The first letter in capitals, the rest as it is (for the start of a sentence).

    >>> capitalise("an R.P. and three A-A guns destroyed"), capitalise("salvo at A 1")
    ('An R.P. and three A-A guns destroyed', 'Salvo at A 1')
    """
    return text[:1].upper() + text[1:]


def seat_word(seat: str) -> str:
    """A seat's colour as a name: "Red".

    >>> seat_word("gold")
    'Gold'
    """
    return seat.title()


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


def side_words(side: Sequence[str]) -> str:
    """One side's seats: "Red and Green".

    >>> side_words(["red", "green", "blue"])
    'Red, Green and Blue'
    """
    return join_and(seat_word(s) for s in side)


def sides_words(sides: Sequence[Sequence[str]]) -> str:
    """The sides of a game (R23) in plain words.

    >>> sides_words([["red", "green"], ["blue"]])
    'Red and Green against Blue'
    >>> sides_words([["red", "green"], ["blue"], ["gold"]])
    'Red and Green against Blue against Gold'
    >>> sides_words([["red"], ["blue"], ["green"]])
    'every player for himself'
    """
    if all(len(side) == 1 for side in sides):
        return "every player for himself"
    return " against ".join(side_words(side) for side in sides)


def move_heading(report: Mapping, names: Mapping[str, str | None] | None = None) -> str:
    """A move's heading in the record: "Move 3: Ann (Red) at Bob (Blue)".

    >>> move_heading({"n": 3, "by": "red", "target": "blue"}, {"red": "Ann", "blue": "Bob"})
    'Move 3: Ann (Red) at Bob (Blue)'
    """
    return f"Move {report['n']}: {player(report['by'], names)} at " \
           f"{player(report['target'], names)}"
