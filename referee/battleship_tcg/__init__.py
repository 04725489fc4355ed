"""Battleship: The Tactical Combat Game as a pure rule set (rulings T1-T12): no web, storage or
PDF code. The honeycomb is in ``holes``."""
