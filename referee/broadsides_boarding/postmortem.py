"""The post-mortem (BB24, BB25): once the game is over, every plot as it was plotted, round by
round, every roll with what it was for, and the dice audit: the commitment, the players' seeds,
the referee's secret seed revealed, every roll recomputed from them, and how to recompute one
by hand."""

from __future__ import annotations

from ..common import dice
from ..common.documents import Json
from ..common.views import require_over
from .catalogue import SEATS
from .game import Game

HOW = ("Roll n is the first byte b below 252 of HMAC-SHA256(key = the secret seed's UTF-8 "
       "bytes, message = \"referee dice v1\\n\" + Red's seed + \"\\n\" + Blue's seed + \"\\n\" "
       "+ n + \"\\n\" + \"0\\n\"), read as b mod 6 + 1; the commitment is the SHA-256 of the "
       "secret seed. docs/broadsides-boarding.md, \"The dice\", has the lines of Python.")


def verdict(checked: int, good: bool, problems: list[str]) -> str:
    """The audit's outcome in a sentence, as the post-mortem page and booklet print it (BB24).

    >>> verdict(1, True, [])
    '1 roll recomputed: it is the roll the seeds give.'
    >>> verdict(12, False, ["roll 3: logged 5, the seeds give 2"])
    '12 rolls recomputed: roll 3: logged 5, the seeds give 2.'
    """
    if not good:
        return f"{checked} roll{'' if checked == 1 else 's'} recomputed: {'; '.join(problems)}."
    if checked == 0:
        return "No die was rolled: there is nothing to recompute."
    if checked == 1:
        return "1 roll recomputed: it is the roll the seeds give."
    return f"{checked} rolls recomputed: every one is the roll the seeds give."


def postmortem_document(game: Game) -> Json:
    """After the end (BB25): the plots of every round, each seat's pieces removed, and the dice
    audit (BB24); refused before."""
    require_over(game, "The post-mortem is given", "BB25")
    plots: dict[int, dict[str, list[str]]] = {}
    for report in game.reports:
        if report["kind"] == "plot":
            plots.setdefault(report["round"], {})[report["seat"]] = report["order"]["cards"]
    checked = dice.audit(game.events)
    problems = checked.problems + [f"roll {n}: logged {logged}, the seeds give {drawn}"
                                   for n, logged, drawn in checked.mismatches]
    return {
        "rounds": game.round,
        "plots": [{"round": n, "cards": cards} for n, cards in sorted(plots.items())],
        "removed": {s: game.removed.get(s, 0) for s in SEATS},
        "dice": {"commitment": game.dice_commitment, "secret": game.dice_revealed,
                 "seeds": {s: game.dice_seeds.get(s) for s in SEATS},
                 "rolls": [dict(entry) for entry in game.dice_rolls],
                 "checked": len(checked.rolls), "good": checked.good, "problems": problems,
                 "verdict": verdict(len(checked.rolls), checked.good, problems),
                 "how": HOW},
    }
