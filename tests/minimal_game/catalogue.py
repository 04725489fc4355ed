"""Hidden Number's names and numbers, which its core, computer and pages share (H1)."""

RULES, TITLE = "hidden-number", "Hidden Number"
SEATS = ("red", "blue")
NUMBERS = range(1, 10)  # H1
