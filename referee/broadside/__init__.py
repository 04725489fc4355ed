"""Broadside (Milton Bradley, 1962) as a pure rule set (rulings B1-B14): no web, storage or
PDF code. The harbour is ``board.json`` read by ``board``.
"""
