"""The referee: it umpires the club's naval games, each a rule set of its own behind one seam.

Each rule set is a package (``referee.naval_war``, ``referee.battleship_tcg``,
``referee.broadside``): a pure rules core, its computer and its web part; ``create_app``
builds the web app on them. The app is imported lazily so that importing a core never pulls
in Flask.
"""


def create_app(test_config: dict | None = None):
    """The Flask application (the Flask tutorial's factory)."""
    from .app import create_app as _create_app

    return _create_app(test_config)
