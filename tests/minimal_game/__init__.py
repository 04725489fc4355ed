"""Hidden Number: the smallest hidden-information game, a rule set that lives only in the tests.

It exists to show that the referee's seam is real: it is registered (``rulesets.register``)
and passes the same contract suite as the referee's own games, pages and paper included,
with nothing of it in ``referee/``. Its rules, each a ruling the refusals cite:

- H1 A number is a whole number from 1 to 9: each player hides one (his disposition,
  ``{"number": 7}``) and each guess names one (a move, ``{"guess": 4}``).
- H2 The players guess in turn, in the order drawn as the game is created.
- H3 A player never guesses the same number twice.
- H4 The referee answers each guess "higher" (the hidden number is higher), "lower" or
  "right", to both players; a right guess wins at once (``"reason": "guessed"``).
- H5 Nothing of a player's number reaches the other before the end but the answers.

The pieces are the shape of every rule set: a pure core (``game``, ``views``), its
``rule_set`` filling in a ``RuleSet``, its ``computer`` of two levels, and ``web`` (a
blueprint with its templates, its script and its paper).
"""
