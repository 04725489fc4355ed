"""The pages every game shares: home, playing the computer, the host's page, joining,
recovering a seat, a seat's game page and post-mortem (each drawn by its game's rule set,
``webparts``), the status poll, agreeing to end, playing on, a stand-in and resigning, the
club's records and games as files.

A phone holds its seats in its session cookie (``session``); every page about a player is
rendered from his view (R21), exactly as the JSON API's responses are. Each rule set's own
forms (its setup and moves) are routes of its own blueprint (``playroutes`` has those every
game has alike).

The blueprint is one (``pages``), its routes a module a job: ``home`` (creating a game,
playing the computer), ``host`` (the host's page), ``seats`` (joining, recovering a seat),
``play`` (a seat's pages and what every seat may do), ``club`` (the records), ``files``
(importing and exporting a game) and ``evening`` (the organiser's view of the games in play).
"""

from . import club, evening, files, home, host, play, seats
from .blueprint import bp

__all__ = ["bp", "club", "evening", "files", "home", "host", "play", "seats"]
