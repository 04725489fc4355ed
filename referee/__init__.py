"""The referee for The Naval War Game.

``referee.naval_war`` is the pure rules core; the web app, storage and printables build on it.
"""
