"""Hidden Number's computer, from its seat's view alone (H5): two levels.

>>> bot = computer("halver", seed=1)
>>> bot.move({"id": "g", "you": "red", "reports": [
...     {"by": "red", "guess": 5, "answer": "lower"}, {"by": "blue", "guess": 2,
...      "answer": "higher"}]})
{'guess': 2}
"""

from __future__ import annotations

from referee.common.computer import Computer, Level, Roster

from .catalogue import NUMBERS


def candidates(view: dict) -> list[int]:
    """The numbers the seat's own guesses and answers still allow, none guessed yet."""
    left = list(NUMBERS)
    for report in view.get("reports") or []:
        if report.get("by") != view.get("you"):
            continue
        guess, said = report["guess"], report["answer"]
        left = [n for n in left if n != guess and (said != "higher" or n > guess)
                and (said != "lower" or n < guess)]
    return left or [n for n in NUMBERS if n not in view.get("guessed", {}).get(
        view.get("you"), [])]


ROSTER = Roster({
    "guesser": Level("Guesses any number its answers still allow.",
                     move=lambda left, rng: {"guess": rng.choice(left)},
                     disposition=lambda _seen, rng: {"number": rng.choice(list(NUMBERS))}),
    "halver": Level("Halves what its answers still allow.",
                    move=lambda left, _rng: {"guess": left[(len(left) - 1) // 2]}),
}, read_setup=lambda view, seeded: (None, seeded(view.get("id"), view.get("you"), "number")),
   read_turn=lambda view, seeded: (candidates(view), seeded(
       view.get("id"), view.get("you"), len(view.get("reports") or []))))


class HiddenNumberComputer(Computer):
    ROSTER = ROSTER


def computer(level: str, seed: int | str = 0, on_failure=None) -> HiddenNumberComputer:
    return HiddenNumberComputer(level, seed, on_failure)
