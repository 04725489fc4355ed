"""The limits every game's channels share that no ruling sets: what a host adds to the
disposition clock at once, and how many pages a blank record sheet runs to.

The pages' forms, the PDF routes, the command line and each catalogue served to the pages
(``limits`` in ``GET /api/v1/rules``) take them from here. Pure: nothing is imported.
"""

MAX_CLOCK_EXTENSION = 120  # minutes the host adds to the disposition clock at once
BLANK_RECORD_PAGES, MAX_BLANK_RECORD_PAGES = 2, 20  # a blank move record's pages
