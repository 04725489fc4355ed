"""The fleets the rulebook's illustrative games buy (Games 2-4), for a beginner's first
budget: each spends exactly 160 points (R3, R4). The same counts are checked against the
text in tests/test_illustrative_games.py."""

from __future__ import annotations

from .catalogue import NAMES, PLURALS

BOOK_FLEETS: dict[str, tuple[str, dict[str, int]]] = {
    "game-2-red": ("Game 2, Red", {"battleship": 15, "cruiser": 10, "submarine": 10,
                                   "recon": 16, "bomber": 10, "aa-gun": 6, "salvo": 8}),
    "game-2-blue": ("Game 2, Blue", {"atom-bomber": 6, "aa-gun": 13, "recon": 6, "bomber": 7,
                                     "destroyer": 20, "submarine": 20}),
    "game-3-red": ("Game 3, Red", {"battleship": 25, "aa-gun": 20, "recon": 10, "bomber": 6,
                                   "salvo": 12}),
    "game-3-blue": ("Game 3, Blue", {"atom-bomber": 6, "recon": 24, "salvo": 16,
                                     "destroyer": 30}),
    "game-4-red": ("Game 4, Red", {"battleship": 14, "cruiser": 6, "submarine": 10,
                                   "aa-gun": 24, "recon": 30, "salvo": 22}),
    "game-4-blue": ("Game 4, Blue", {"atom-bomber": 4, "recon": 30, "salvo": 18,
                                     "destroyer": 18, "submarine": 36}),
}


def describe_fleet(purchase: dict[str, int]) -> str:
    """"15 Battleships, 10 Cruisers, ..., 8 salvoes" in the budget page's order."""
    order = ("carrier", "battleship", "cruiser", "destroyer", "submarine", "atom-bomber",
             "bomber", "recon", "aa-gun", "salvo")
    return ", ".join(f"{purchase[k]} {PLURALS[k] if purchase[k] != 1 else NAMES[k]}"
                     for k in order if purchase.get(k))
