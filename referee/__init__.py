"""The referee for The Naval War Game.

``referee.naval_war`` is the pure rules core; ``create_app`` builds the web app on it. The
app is imported lazily so that importing the core never pulls in Flask.
"""


def create_app(test_config: dict | None = None):
    """The Flask application (the Flask tutorial's factory)."""
    from .app import create_app as _create_app

    return _create_app(test_config)
