"""The words every game's pages share, in good English: small numbers in words, lists with
"and", capitals at the start of a sentence, seats as colours and the sides of a game (R23).
Pure: each rule set's own phrasing builds on these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def number_word(n: int) -> str:
    """Small numbers in words, lower case; 10 and more in figures.

    >>> number_word(0), number_word(3), number_word(12)
    ('no', 'three', '12')
    """
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


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


COMPUTER_NAME = "computer ("  # how a computer's seat is named: "Computer (captain)"


def person_key(name: str) -> str:
    """One player, one row of the club's tables whatever the case or spacing of his name:
    the name case-folded, its spaces collapsed.

    >>> person_key("  Ann   Lee "), person_key("ANN LEE") == person_key("ann lee")
    ('ann lee', True)
    """
    return " ".join(name.split()).casefold()


def is_computer(name: str) -> bool:
    """Whether a seat's name is a computer's ("Computer (captain)"): no player may take one
    (R10), however he spaces or capitalises it.

    >>> is_computer("Computer (admiral)"), is_computer("computer  (x)"), is_computer("Compy")
    (True, True, False)
    """
    return person_key(name).startswith(COMPUTER_NAME)

