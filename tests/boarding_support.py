"""What the Broadsides and Boarding Parties tests share: a game at the core in play, with the
referee's dice in hand; orders given as a seat gives them, or as a logged move bringing the rolls
it drew (how a test chooses the dice: a log's rolls are what a replay takes); the ships placed
where a test needs them."""

from __future__ import annotations

from referee.broadsides_boarding.game import Game, new_game
from referee.broadsides_boarding.views import view_for

SECRET = "ab" * 32  # the referee's secret dice seed in these tests


def in_play(red: str = "D4", blue: str = "D4", *, move_minutes: int | None = None) -> Game:
    """A game in play, both Captains where named, the first round's plots owed."""
    game, _ = new_game(id="bb", options={"move_minutes": move_minutes})
    game.commit_dice(SECRET)
    for seat, captain in (("red", red), ("blue", blue)):
        game.join(seat, seat.title())
        game.submit(seat, {"captain": captain})
    for seat in ("red", "blue"):
        game.lock_in(seat, salt=f"salt-{seat}", dice_seed=f"{seat}-seed")
    return game


def place(game: Game, **ships: tuple[str, str]) -> None:
    """Put ships where a test needs them: ``red=("F 6", "E")``."""
    for seat, (at, heading) in ships.items():
        game.ships[seat].at, game.ships[seat].heading = at, heading


def order(game: Game, seat: str, document: dict, rolls: list[int] | None = None) -> None:
    """A seat's order; with ``rolls``, as a logged move that drew exactly these (the dice a
    test chooses). Dice chosen so are not the seed's: a game that then ends by a command
    (which reveals the seed) is refused at its reveal, as ``test_bb24_...`` shows, unless the
    test puts the seed down first (``game.dice_secret = None``)."""
    if rolls is None:
        game.move(seat, document)
        return
    kind = game.owed[seat]
    game.apply({"type": "move", "seat": seat,
                "move": {"kind": kind, "stage": game.stage, **document}, "rolls": rolls})


def plots(game: Game, red: list[str], blue: list[str], rolls: list[int] | None = None) -> None:
    """Both plots in: Red's, then Blue's (which turns the cards up, drawing ``rolls``)."""
    order(game, "red", {"cards": red})
    order(game, "blue", {"cards": blue}, rolls)


def view(game: Game, seat: str) -> dict:
    return view_for(game, seat)


def last_happened(game: Game, what: str) -> dict:
    """The last thing of a kind that happened (a "card", a "volley" ...)."""
    entries = [entry for report in game.reports for entry in report["happened"]]
    return next(entry for entry in reversed(game.opening + entries) if entry["what"] == what)
