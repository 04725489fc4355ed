"""What the rule set's pages embed as ``rules-catalogue``: the core's catalogue (with the
honeycomb's steps, worked out from ``holes``, the one geometry) under the name the pages read."""

from __future__ import annotations

from ..catalogue import catalogue


def page_catalogue() -> dict:
    """The catalogue as ``GET /api/v1/rules`` serves it, and its title as ``name``."""
    served = catalogue()
    return {**served, "name": served["title"]}
