"""The Naval War Game's paper: its charts (``charts``) and documents (``documents``), drawn
with the paper kit every game shares (``printables``)."""

from .documents import blank_chart, blank_record, player_charts, player_record, postmortem

__all__ = ["blank_chart", "blank_record", "player_charts", "player_record", "postmortem"]
