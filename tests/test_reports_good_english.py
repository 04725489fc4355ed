"""Every sentence a player reads is good English. Many random games are played (two to four seats,
sides of every shape) and every seat's copy of every report, every headline and every move heading
is scanned for the faults English readers found in them once (``FAULTS``)."""

from __future__ import annotations

import random
import re

import pytest

from referee.forms import side_shapes
from referee.naval_war import new_game, report_for, view_for
from referee.naval_war.computer import Bot
from referee.naval_war.layout import random_purchase, scatter
from referee.naval_war.phrasing import move_heading, order_words
from referee.naval_war.views import result_headline

NUMBER = r"(?:No|One|Two|Three|Four|Five|Six|Seven|Eight|Nine)"
FAULTS = {
    "'a' before a vowel sound": re.compile(r"\ba (?:A|E|I|O|U|R\.P\.)"),
    "'an' before a consonant": re.compile(r"\ban (?:[BCDGJKPQTVWYZ][a-z]|Bomber)"),
    "a capitalised number word mid-sentence": re.compile(rf"(?<![.:;] )(?<!^){NUMBER}\b"),
    "'and' twice in one clause": re.compile(r"\band\b(?:(?!\. [A-Z]|[:;()]).)*\band\b"),
    "lower-case weapon at a sentence's start": re.compile(r"(?:^|[.:] )(?:salvo|bomber|recon)\b"),
    "seat colour in lower case": re.compile(r"\b(?:red|blue|green|gold) at\b"),
    "an arrow glyph": re.compile("[→□]"),
}


def faults(text: str) -> list[str]:
    return [name for name, pattern in FAULTS.items() if pattern.search(text)]


@pytest.mark.parametrize("text, found", [
    ("Four hits on a Aircraft Carrier.", ["'a' before a vowel sound"]),
    ("One Atom Bomber and One R.P. and Three A-A guns destroyed.",
     ["a capitalised number word mid-sentence", "'and' twice in one clause"]),
    ("Move 3: red at blue", ["seat colour in lower case"]),
    ("order of play Red → Blue", ["an arrow glyph"]),
    ("An Atom Bomber, an R.P. and three A-A guns destroyed.", []),
])
def test_the_scan_finds_each_fault_it_looks_for(text, found):
    assert faults(text) == found


def random_game(seed: int):
    rng = random.Random(seed)
    seats = rng.choice([2, 3, 3, 4, 4])
    shapes = [False] + (side_shapes(seats) if seats > 2 else [])
    game, _ = new_game(id=f"en{seed}", seats=seats, alliances=rng.choice(shapes),
                       seed=rng.randrange(2**31))
    bots = {s: Bot(rng.choice(["recruit", "recruit", "captain"]), seed=f"{seed}:{s}")
            for s in game.seats}
    for seat in game.seats:
        game.join(seat, f"Player {seat}")
        game.submit(seat, scatter(random_purchase(rng), rng))
        game.lock_in(seat)
    while game.phase == "play":
        game.move(game.turn, bots[game.turn].move(view_for(game, game.turn)))
    return game


def test_every_report_of_many_random_games_is_good_english():
    texts: set[str] = set()
    for seed in range(24):
        game = random_game(seed)
        for report in game.reports:
            for seat in game.seats:
                texts.add(report_for(game, report, seat)["text"])
            texts.add(move_heading(report, game.names))
        view = view_for(game, game.seats[0])
        texts.add(result_headline(view))
        texts.add(order_words(view["order"], game.names))
    bad = {text: faults(text) for text in texts if faults(text)}
    assert not bad, list(bad.items())[:5]
    joined = " ".join(texts)
    for needed in ("hit", "destroyed", "Saw", "Shot down"):
        assert needed in joined  # the games exercised every kind of report
