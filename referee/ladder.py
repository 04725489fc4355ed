"""The computer's ladder: ``referee ladder --rules naval-war --games N --seed S [--write]``.

Every pair of a rule set's levels plays ``N`` games (``referee.match.series``: seats and first
move alternated), then the levels are rated on one scale by Bradley-Terry, fitted by the MM
algorithm (``bradley_terry``) and put on an Elo-like scale (``elo``). Where the rule set's bench
has a clairvoyant reference player (the Naval War Game's), the ladder then plays it against the
same fleets as its strongest level and prints, as its last line, ``clairvoyance 0.NN``: the
strongest level's ship points sunk as a fraction of the clairvoyant's.

``--write`` keeps the figures, with the games and seed they came from, in
``referee/ladders/<rules>.json``; the home page shows each level's rating from that file
(``ratings``). Nothing here names a rule set.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import click

from . import rulesets
from .common.ruleset import RuleSet
from .duel import with_progress
from .match import Clairvoyance, Series, clairvoyance, series

LADDERS = Path(__file__).resolve().parent / "ladders"
SCALE = 400 / math.log(10)  # Elo's: a rating 400 points higher is 10 to 1 odds
CENTRE = 1500  # the mean rating
PRIOR = 0.5  # a virtual drawn game in every pair, so that a 200-0 result has a finite rating
FLEETS = 200  # fleets the clairvoyance is measured over


def bradley_terry(players: Sequence[str], results: Sequence[tuple[str, str, float, float]],
                  prior: float = PRIOR, iterations: int = 10_000, tolerance: float = 1e-12
                  ) -> dict[str, float]:
    """Each player's Bradley-Terry strength ``p`` (P(i beats j) = p_i / (p_i + p_j)), fitted
    by Hunter's MM algorithm to ``results``: (a, b, a's wins, b's wins), a draw counted as half
    a win to each. ``prior``: wins added to each side of every pair played (half a virtual
    draw), so that a player who never won still has a strength above 0. Strengths are scaled
    to a geometric mean of 1.

    >>> p = bradley_terry("ab", [("a", "b", 3, 1)], prior=0)
    >>> round(p["a"] / p["b"], 6)
    3.0
    """
    index = {name: i for i, name in enumerate(players)}
    wins = [0.0] * len(players)
    games: dict[tuple[int, int], float] = {}
    for a, b, wins_a, wins_b in results:
        i, j = index[a], index[b]
        if i == j:
            raise ValueError(f"{a} cannot play itself")
        wins[i] += wins_a + prior
        wins[j] += wins_b + prior
        key = (min(i, j), max(i, j))
        games[key] = games.get(key, 0.0) + wins_a + wins_b + 2 * prior
    p = [1.0] * len(players)
    for _ in range(iterations):
        new = []
        for i in range(len(players)):
            denominator = sum(n / (p[i] + p[j if i == k else k])
                              for (k, j), n in games.items() if i in (k, j))
            new.append(wins[i] / denominator if denominator else p[i])
        if any(x <= 0 for x in new):
            raise ValueError("a player who never won has no finite strength; use a prior")
        mean = math.exp(sum(math.log(x) for x in new) / len(new))
        new = [x / mean for x in new]
        change = max(abs(math.log(x / y)) for x, y in zip(new, p, strict=True))
        p = new
        if change < tolerance:
            break
    return dict(zip(players, p, strict=True))


def elo(strengths: dict[str, float]) -> dict[str, int]:
    """Strengths on an Elo-like scale: 400 points a factor of 10, the mean at 1500."""
    return {name: round(CENTRE + SCALE * math.log(p)) for name, p in strengths.items()}


@dataclass
class Ladder:
    rules: str
    games: int
    seed: int
    pairs: list[Series] = field(default_factory=list)
    ratings: dict[str, int] = field(default_factory=dict)
    clairvoyance: Clairvoyance | None = None
    think_ms: dict[str, list[float]] = field(default_factory=dict)  # level -> every move's

    def median_think_ms(self, level: str) -> float:
        times = self.think_ms.get(level) or []
        return statistics.median(times) if times else 0.0

    def lines(self) -> list[str]:
        out = [f"{s.level_a} v {s.level_b}: {s.level_a} {s.wins_a}, {s.level_b} {s.wins_b}, "
               f"draws {s.draws} of {s.games}"
               + (f" ({s.unfinished} stopped by the cap)" if s.unfinished else "")
               for s in self.pairs]
        games = f"{self.games} game{'' if self.games == 1 else 's'}"
        out.append(f"ratings (Bradley-Terry, Elo scale, mean {CENTRE}; {games} a pair, "
                   f"seed {self.seed}):")
        width = max(len(level) for level in self.ratings)
        out += [f"  {level:<{width}} {rating:>5}  (median think {self.median_think_ms(level):.1f} "
                f"ms a move)"
                for level, rating in sorted(self.ratings.items(), key=lambda kv: -kv[1])]
        if self.clairvoyance is not None:
            out.append(self.clairvoyance.line())
            out.append(self.clairvoyance.tempo_line())
            out.append(f"clairvoyance {self.clairvoyance.fraction:.2f}")
        return out

    def document(self) -> dict:
        """What ``--write`` keeps and the home page reads."""
        doc = {
            "rules": self.rules, "games": self.games, "seed": self.seed,
            "ratings": self.ratings,
            "pairs": [{"a": s.level_a, "b": s.level_b, "wins_a": s.wins_a, "wins_b": s.wins_b,
                       "draws": s.draws, "games": s.games} for s in self.pairs],
        }
        if self.clairvoyance is not None:
            c = self.clairvoyance
            doc["clairvoyance"] = {"level": c.level, "opponent": c.opponent, "fleets": c.games,
                                   "sunk_by_level": sum(c.sunk_by_level),
                                   "sunk_by_clairvoyant": sum(c.sunk_by_clairvoyant),
                                   "fraction": round(c.fraction, 4),
                                   "tempo": round(c.tempo, 4)}
        return doc


def _pair(rules: str, a: str, b: str, games: int, seed: int) -> Series:
    return series(rulesets.named(rules), a, b, games, seed)


def run(rule_set: RuleSet, games: int, seed: int, fleets: int = FLEETS,
        progress: Callable[[int], None] | None = None, opponent: str | None = None,
        jobs: int = 1) -> Ladder:
    """The round robin of every pair of ``rule_set``'s levels, ``games`` games each, the
    ratings, and (where the bench has a clairvoyant) the clairvoyance of the strongest level
    (the last the rule set lists) over ``fleets`` fleets of ``opponent`` (the weakest level
    unless named: its moves cost next to nothing, and it is the same for both). ``jobs``:
    processes to play the pairs in (the results are the same however many)."""
    levels = list(rule_set.levels)
    ladder = Ladder(rule_set.rules, games, seed)
    pairs = list(combinations(levels, 2))
    if jobs > 1:  # each pair in a process of its own: the same pairs, seeds and results
        with ProcessPoolExecutor(jobs) as pool:
            done = [pool.submit(_pair, rule_set.rules, a, b, games, seed + n)
                    for n, (a, b) in enumerate(pairs)]
            for future in as_completed(done):
                future.result()
                if progress:
                    progress(games)
            ladder.pairs = [future.result() for future in done]
    else:
        for n, (a, b) in enumerate(pairs):
            ladder.pairs.append(series(rule_set, a, b, games, seed + n, progress))
    for s in ladder.pairs:
        for level, side in ((s.level_a, "a"), (s.level_b, "b")):
            ladder.think_ms.setdefault(level, []).extend(s.think_ms[side])
    strengths = bradley_terry(levels, [(s.level_a, s.level_b, s.wins_a + s.draws / 2,
                                        s.wins_b + s.draws / 2) for s in ladder.pairs])
    ladder.ratings = elo(strengths)
    if fleets and hasattr(rule_set.bench, "clairvoyant"):
        ladder.clairvoyance = clairvoyance(rule_set, levels[-1], opponent or levels[0],
                                           fleets, seed, progress)
    return ladder


def path_of(rules: str) -> Path:
    return LADDERS / f"{rules}.json"


def ratings(rules: str) -> dict | None:
    """The ladder ``--write`` last kept for a rule set (for the home page), or None."""
    try:
        document = json.loads(path_of(rules).read_text())
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) and isinstance(
        document.get("ratings"), dict) else None


def about(level: str, description: str) -> str:
    """A level's description without its name, where it begins with it ("Recruit: ...")."""
    head = f"{level}:"
    return description[len(head):].strip() if description.lower().startswith(head) \
        else description


def named_as(level: str, description: str) -> str:
    """A level's name as its description writes it ("Vice-admiral: ..."), else its own."""
    head = f"{level}:"
    return description[:len(level)] if description.lower().startswith(head) \
        else level.capitalize()


def whole(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def percent(value: object) -> int | None:
    """A fraction from 0 to 1 as a whole per cent; None for anything else."""
    return round(100 * value) if isinstance(value, int | float) \
        and not isinstance(value, bool) and 0 <= value <= 1 else None


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def shown() -> list[dict]:
    """Each rule set's levels as the home page lists them: name, description and rating (from
    the ladder ``--write`` kept, None before one was), with the games and seed it came from."""
    found = []
    for rule_set in rulesets.RULE_SETS.values():
        kept = ratings(rule_set.rules) or {}
        rated = kept.get("ratings") or {}
        found.append({
            "rules": rule_set.rules, "title": rule_set.title,
            "levels": [{"level": level, "description": description,
                        "about": capitalised(about(level, description)),
                        "name": named_as(level, description),
                        "rating": whole(rated.get(level))}
                       for level, description in rule_set.levels.items()],
            "games": whole(kept.get("games")), "seed": whole(kept.get("seed")),
            "clairvoyance": percent((kept.get("clairvoyance") or {}).get("fraction")
                                    if isinstance(kept.get("clairvoyance"), dict) else None),
        })
    return found


@click.command("ladder")
@click.option("--rules", type=click.Choice(list(rulesets.RULE_SETS)), default=rulesets.DEFAULT,
              show_default=True, help="The game whose levels play.")
@click.option("--games", default=200, show_default=True, type=click.IntRange(1, 100_000),
              help="Games each pair of levels plays.")
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--fleets", default=FLEETS, show_default=True, type=click.IntRange(0, 100_000),
              help="Fleets the clairvoyance is measured over (0: none).")
@click.option("--opponent", default=None,
              help="The level the strongest and the clairvoyant play the same fleets of "
                   "[default: the weakest].")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Processes to play the pairs in (the same results however many).")
@click.option("--write", is_flag=True,
              help="Keep the ratings for the home page (referee/ladders/<rules>.json).")
def ladder_command(rules: str, games: int, seed: int, fleets: int, opponent: str | None,
                   jobs: int, write: bool) -> None:
    """Play every pair of levels, rate them and measure the strongest against the
    clairvoyant; the last line is ``clairvoyance 0.NN``."""
    rule_set = rulesets.named(rules)
    if opponent is not None and opponent not in rule_set.levels:
        raise click.BadParameter(f"{opponent!r} is not a level of {rule_set.title}; its "
                                 f"levels are {', '.join(rule_set.levels)}",
                                 param_hint="--opponent")
    pairs = len(rule_set.levels) * (len(rule_set.levels) - 1) // 2
    clairvoyant = fleets if hasattr(rule_set.bench, "clairvoyant") else 0
    result = with_progress(pairs * games + clairvoyant, f"{rule_set.title} ladder",
                           lambda progress: run(rule_set, games, seed, fleets, progress,
                                                opponent, jobs))
    if write:
        LADDERS.mkdir(exist_ok=True)
        path_of(rules).write_text(json.dumps(result.document(), indent=1) + "\n")
        click.echo(f"written to {path_of(rules)}", err=True)
    for line in result.lines():
        click.echo(line)
