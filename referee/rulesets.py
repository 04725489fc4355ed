"""The rule sets this referee plays: the registry behind the one seam (``RuleSet``).

A rule set is a package of its own (``referee/naval_war`` ...) that fills in a ``RuleSet``;
adding one is adding its line to ``REGISTRY`` here. Its ``RuleSet`` names its web parts
(``RuleSet.web``), which ``create_app`` registers from the same list, so the rules and the web
app cannot disagree on what is played. Everything else (store, service, API, pages,
printables, computers, club records) asks this module for a game's rule set and goes through
it, reading nothing of a ``Game`` itself. A rule set kept outside this package (one tried out
before it joins, the tests' own) is played here once ``register`` has added it, until
``unregister`` takes it away; a web app created meanwhile serves its pages too.
"""

from __future__ import annotations

import importlib

from .common.documents import Json
from .common.ruleset import RuleSet

# every rule set played here, as "module:NAME" of its RuleSet, in the order the home page and
# GET /api/v1/rules offer them; the first is the one a game plays when it names none
REGISTRY: tuple[str, ...] = (
    "referee.naval_war.rule_set:RULE_SET",
    "referee.battleship_tcg.rule_set:RULE_SET",
    "referee.broadside.rule_set:RULE_SET",
    "referee.broadsides_boarding.rule_set:RULE_SET",
)


def load(name: str) -> object:
    """The object a "module:NAME" names (a rule set's ``RuleSet``, its ``WebParts``),
    importing its module."""
    module, _, attribute = name.partition(":")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as missing:
        raise LookupError(f"{name!r} names nothing here ({missing})") from missing


def _rule_set(name: str) -> RuleSet:
    found = load(name)
    if not isinstance(found, RuleSet):
        raise TypeError(f"{name!r} is a {type(found).__name__}, not a RuleSet")
    return found


RULE_SETS: dict[str, RuleSet] = {rule_set.rules: rule_set
                                  for rule_set in map(_rule_set, REGISTRY)}
DEFAULT = next(iter(RULE_SETS))


def _every_seat() -> tuple[str, ...]:
    return tuple(dict.fromkeys(seat for rule_set in RULE_SETS.values()
                               for seat in rule_set.seats))


# every seat any game here may have, in the order the rule sets name them
SEATS = _every_seat()


def register(name: str) -> RuleSet:
    """Play one more rule set here, after the registry's: ``name`` is "module:NAME" of its
    ``RuleSet``, importable from anywhere on the path. Everything that asks this module
    finds it from now on; a web app created from now on (``create_app``) serves its pages.
    A name already played here is refused."""
    rule_set = _rule_set(name)
    if rule_set.rules in RULE_SETS:
        raise ValueError(f"{rule_set.rules!r} is already a rule set of this referee")
    RULE_SETS[rule_set.rules] = rule_set
    _seats_changed()
    return rule_set


def unregister(rules: str) -> None:
    """Stop playing a rule set that ``register`` added; the registry's own stay."""
    if any(_rule_set(name).rules == rules for name in REGISTRY):
        raise ValueError(f"{rules!r} is one of the registry's rule sets; it stays")
    RULE_SETS.pop(rules, None)
    _seats_changed()


def _seats_changed() -> None:
    global SEATS
    SEATS = _every_seat()


def end_reasons() -> tuple[str, ...]:
    """Every reason a game here may end by (``result.reason``), each rule set's own after the
    shared ends, in the registry's order: what the API's documents list."""
    return tuple(dict.fromkeys(reason for rule_set in RULE_SETS.values()
                               for reason in rule_set.end_reasons))


class UnknownRules(ValueError):
    """A name that is not a rule set of this referee."""


def named(rules: object) -> RuleSet:
    """The rule set called ``rules``; ``UnknownRules`` when there is none."""
    if not isinstance(rules, str) or rules not in RULE_SETS:
        raise UnknownRules(f"{str(rules)[:40]!r} is not a rule set of this referee; it plays "
                           f"{', '.join(RULE_SETS)}")
    return RULE_SETS[rules]


def of(game: object) -> RuleSet:
    """The rule set a game (a ``Game`` of some rule set's core) plays."""
    for rule_set in RULE_SETS.values():
        if isinstance(game, rule_set.game_type):
            return rule_set
    raise TypeError(f"{type(game).__name__} is not a game of any rule set here")


def rule_sets() -> Json:
    """``GET /api/v1/rules``: ``{"rule_sets": [{"rules", "name", "catalogue"}, ...]}``."""
    return {"rule_sets": [{"rules": rs.rules, "name": rs.title, "catalogue": rs.catalogue(),
                           "levels": dict(rs.levels)} for rs in RULE_SETS.values()]}


def page_catalogue(rules: str = DEFAULT) -> Json:
    """What a page embeds for its scripts: one rule set's catalogue."""
    rule_set = named(rules)
    return {"rules": rule_set.rules, "name": rule_set.title, **rule_set.catalogue()}
