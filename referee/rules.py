"""The rule sets the referee plays, each with its catalogue, as ``GET /api/v1/rules`` and the
pages' scripts read them (issue 13). The catalogue itself lives in each rule set's core."""

from __future__ import annotations

from .naval_war import catalogue


def rule_sets() -> dict:
    """``{"rule_sets": [{"rules": ..., "name": ..., "catalogue": {...}}]}``."""
    return {"rule_sets": [{"rules": catalogue.RULES, "name": catalogue.TITLE,
                           "catalogue": catalogue.to_json()}]}


def page_catalogue() -> dict:
    """What the pages embed for their scripts: the Naval War Game's catalogue."""
    return {"rules": catalogue.RULES, "name": catalogue.TITLE, **catalogue.to_json()}
