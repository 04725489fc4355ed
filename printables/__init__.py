"""Charts, move records and the post-mortem on paper: pure render functions returning PDF bytes.

Data in (a seat's view or move record from the core), bytes out; no Flask, no files.
"""

from .documents import blank_chart, blank_record, player_charts, player_record, postmortem

__all__ = ["blank_chart", "blank_record", "player_charts", "player_record", "postmortem"]
