"""The paper kit every game's printables are made with: the house style (paper, margins, the
embedded font, inks and text styles: ``style``), the document (the title at the foot of every
page, "Page N of M": ``build``) and the tables (the name line, the record of moves, blank or
filled, and the grid of figures: ``tables``).

Each game draws its own paper with it (``referee/<rule set>/web/``): pure render functions,
a seat's view or record in, PDF bytes out; no Flask, no files. The kit names no game.
"""

from .pages import build
from .tables import (
    BLANK_RECORD_PAGES,
    MAX_BLANK_RECORD_PAGES,
    blank_pages,
    check_pages,
    grid_table,
    name_line,
    plain,
    record_table,
)

__all__ = ["BLANK_RECORD_PAGES", "MAX_BLANK_RECORD_PAGES", "blank_pages", "build",
           "check_pages", "grid_table", "name_line", "plain", "record_table"]
