"""A purchase (R3, R4) and the placement of what it bought (R5-R9), as the pages build a
disposition piece by piece: what a purchase costs and whether R4 allows it, what is still
to place, and what a smaller purchase takes off the chart."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..common.documents import Json
from .catalogue import BUYABLE, NAMES, PLURALS, SHIP_TYPES
from .fleet import Cost, budget_problems, check_disposition, cost_of
from .problems import RuleViolation


def purchase_cost(purchase: dict[str, int]) -> Cost:
    """What a purchase ({kind: how many}, salvoes under "salvo") costs (R3); refused with
    every way it breaks R4."""
    bought = [kind for kind, n in purchase.items() for _ in range(n) if kind != "salvo"]
    cost = cost_of([k for k in bought if k in SHIP_TYPES],
                   [k for k in bought if k not in SHIP_TYPES], purchase.get("salvo", 0))
    problems = budget_problems(cost, purchase.get("atom-bomber", 0))
    if problems:
        raise RuleViolation(problems)
    return cost


def trim_to_purchase(document: Json, purchase: Json) -> tuple[Json, list[str]]:
    """The placement without the pieces a purchase does not buy (the last placed of each
    kind go first), and what was taken off, as "A-A gun at H 10"."""
    kept = {key: list(items) if isinstance(items := document.get(key), list) else []
            for key in ("land", "ships", "aircraft", "guns")}
    removed = []

    def kind_of(key: str, item: object) -> str | None:
        if key == "guns":
            return "aa-gun"
        return item.get("type") if isinstance(item, dict) and isinstance(
            item.get("type"), str) else None

    for key in ("ships", "aircraft", "guns"):
        counts = Counter(kind_of(key, item) for item in kept[key])
        excess = {k: n - purchase.get(k, 0) for k, n in counts.items()
                  if k in NAMES and n > purchase.get(k, 0)}
        out = []
        for item in reversed(kept[key]):
            kind = kind_of(key, item)
            if kind is not None and excess.get(kind, 0) > 0:
                excess[kind] -= 1
                at = item if key == "guns" else item.get("at")
                removed.append(f"{NAMES[kind]} at {at}" if isinstance(at, str)
                               else NAMES[kind])
            else:
                out.append(item)
        kept[key] = out[::-1]
    return kept, removed[::-1]



def placement_check(purchase: Json, document: Json) -> Json:
    """Problems of a placement in progress (R6-R9), and what is left to place (R5)."""
    def listed(key: str) -> list[Any]:  # a draft is the page's own, but may be anything at all
        value = document.get(key)
        return value if isinstance(value, list) else []

    placed = Counter(p.get("type") for p in listed("ships") + listed("aircraft")
                     if isinstance(p, dict) and isinstance(p.get("type"), str))
    placed["aa-gun"] = len(listed("guns"))
    left = {k: purchase.get(k, 0) - placed.get(k, 0) for k in BUYABLE if k != "salvo"}
    problems = []
    try:
        check_disposition({**document, "salvoes": purchase.get("salvo", 0)})
    except RuleViolation as violation:
        problems = [p.to_json() for p in violation.problems if p.rule != "R4"]
    for kind, n in left.items():
        if n < 0:
            problems.append({"rule": "R5", "message": f"{-n} more {PLURALS[kind]} placed than "
                                                      "bought", "squares": []})
    return {"problems": problems, "left": left,
            "complete": all(n == 0 for n in left.values()) and not problems}
