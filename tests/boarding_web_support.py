"""What the tests of Broadsides and Boarding Parties' pages and paper share: a sailing that
brings the ships alongside and then together with no die for how they lie, a boarding tactic
that ends a game within a few turns whatever the dice, and games at the core played so (to
the boarding, or to the end) for the pages' and the paper's tests."""

from __future__ import annotations

from collections import deque

from referee.broadsides_boarding.game import Game, new_game
from referee.broadsides_boarding.views import view_for
from referee.broadsides_boarding.web.story import boarding_steps

# three rounds of plots: alongside on round 3's first two cards (two volleys), together on
# its last (BB17), the headings 45 degrees apart and neither ship ahead of the other (BB18)
SAILING = [(["forward"] * 3, ["forward"] * 3),
           (["forward", "port", "forward"], ["starboard", "forward", "forward"]),
           (["forward", "stay", "forward"], ["starboard", "stay", "forward"])]
CAPTAINS = {"red": "E4", "blue": "D4"}  # the centreline: out of the guns' reach (BB11)


def plan_turn(data: dict) -> list[tuple[str, str, bool]]:
    """A boarding turn for the page's data: Red's crew go for Blue's Captain, Blue's Captain
    charges the nearest cell holding Red's crew, and any movement left is a step of some
    piece to a cell free of the enemy. Each movement (from, to, the Captain?)."""
    you, them = data["you"], data["them"]
    steps, most = data["steps"], data["most_in_cell"]
    mine = {p: [n, False] for p, n in data["crews"][you]["crew"].items()}
    if data["crews"][you]["captain"]:
        mine.setdefault(data["crews"][you]["captain"], [0, False])[1] = True
    theirs = dict(data["crews"][them]["crew"])
    if data["crews"][them]["captain"]:
        place = data["crews"][them]["captain"]
        theirs[place] = theirs.get(place, 0) + 1
    moves: list[tuple[str, str, bool]] = []

    def size(p: str) -> int:
        n, captain = mine.get(p, (0, False))
        return n + captain

    def move(p: str, q: str, captain: bool) -> None:
        mine[p][1 if captain else 0] -= 1 if not captain else mine[p][1]
        mine.setdefault(q, [0, False])
        if captain:
            mine[q][1] = True
        else:
            mine[q][0] += 1
        moves.append((p, q, captain))

    def path(start: str, goal) -> list[str] | None:
        seen, todo = {start: start}, deque([start])
        while todo:
            p = todo.popleft()
            if p != start and goal(p):
                way = []
                while p != start:
                    way.append(p)
                    p = seen[p]
                return way[::-1]
            if p != start and theirs.get(p):
                continue  # a piece that enters an enemy's cell stops there (BB21)
            for q in steps[p]:
                if q not in seen and size(q) < most:
                    seen[q] = p
                    todo.append(q)
        return None

    target = data["crews"][them]["captain"]
    while you == "red" and target and len(moves) < 3:
        ways = [(len(w), p, w) for p, (n, _) in sorted(mine.items())
                if n and not theirs.get(p) and (w := path(p, lambda q: q == target))]
        if not ways:
            break
        _, p, way = min(ways)
        move(p, way[0], False)
    captain = data["crews"][you]["captain"]
    if you == "blue" and captain and not theirs.get(captain):
        for q in (path(captain, lambda q: bool(theirs.get(q))) or [])[:3]:
            move(moves[-1][1] if moves else captain, q, True)
    while len(moves) < 3:
        options = [(p, q, not n) for p, (n, c) in sorted(mine.items())
                   if (n or c) and not theirs.get(p)
                   for q in steps[p] if size(q) < most and not theirs.get(q)]
        if not options:
            break
        move(*options[0])
    return moves


def game_at_the_core(secret: str = "5" * 64, names=("Ann", "Bob")) -> Game:
    """A game in play at the core, both Captains on the centreline, the referee's dice in
    hand."""
    game, _ = new_game(id="bbweb0001")
    game.commit_dice(secret)
    for seat, name in zip(("red", "blue"), names, strict=True):
        game.join(seat, name)
        game.submit(seat, {"captain": CAPTAINS[seat]})
    for seat in ("red", "blue"):
        game.lock_in(seat, salt=f"salt-{seat}", dice_seed=f"{seat}-phone")
    return game


def play(game: Game, *, until: str = "over", rounds: int | None = None) -> Game:
    """Play on: the sailing's plots, every volley at section H then by standing orders, a
    promotion of the first crewmember, and the tactic's boarding turns; stop at the first
    boarding turn (``until="boarding"``), after ``rounds`` rounds' plots, or at the end."""
    for _ in range(400):
        if game.phase != "play":
            break
        seat = next(iter(game.owed))
        kind = game.owed[seat]
        view = view_for(game, seat)
        if kind == "plot":
            if rounds is not None and game.round > rounds:
                break
            cards = SAILING[min(game.round, len(SAILING)) - 1][seat == "blue"]
            game.move(seat, {"cards": cards})
        elif kind == "declaration":
            standing = view["legal"]["standing"]
            game.move(seat, {"standing": True} if standing else
                      {"targets": dict.fromkeys(view["legal"]["cannons"], "H")})
        elif kind == "promotion":
            game.move(seat, {"promote": view["legal"]["crew"][0]})
        else:
            if until == "boarding":
                break
            data = {"you": seat, "them": "blue" if seat == "red" else "red",
                    "crews": view["crews"], "steps": boarding_steps(view),
                    "most_in_cell": view["legal"]["most_in_cell"]}
            game.move(seat, {"moves": [{"from": a, "to": b, **({"captain": True} if c else {})}
                                       for a, b, c in plan_turn(data)]})
    return game
