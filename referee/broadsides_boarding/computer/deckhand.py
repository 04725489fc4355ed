"""The deckhand: the simplest level, playing from its seat's view alone (BB5, BB25).

It reads what its view says it owes (``legal``) and answers with an order of that kind:

- a plot (BB4, BB6): of every three cards it may play (the Damaged ones where it chooses), the
  few that bring its ship nearest the enemy's dot as it stands now (an island or the edge ahead
  stops a ship, BB3), one drawn at random;
- a declaration (BB10): each cannon that bears at a section drawn at random, the cannons' rails
  (B-F) twice as likely as the bow and stern;
- a promotion (BB7): a crewmember drawn at random;
- a boarding turn (BB21): three movements, each of a crewmember toward the enemy Captain by the
  shortest way over both decks (the Captain stays where he is unless nothing else can move),
  drawn at random among the best.

It never sees a ``Game``: the sea and the decks come from ``referee.broadsides_boarding.sea`` and
``deck``, the geometry modules.
"""

from __future__ import annotations

import itertools
import random
from collections import deque

from .. import deck, sea

CENTRELINE = tuple(cell for cell in deck.CELLS if cell.endswith("4"))
MOVING = ("stay", "forward", "starboard", "port")


def captain_cell(rng: random.Random) -> dict:
    """A disposition (BB16): the Captain on the centreline, out of the volleys' way."""
    return {"captain": rng.choice(CENTRELINE)}


def _sail(at: str, heading: str, cards: tuple[str, ...]) -> tuple[str, str]:
    """Where three cards take a ship, the enemy standing still (BB2, BB3)."""
    for card in cards:
        if card in ("starboard", "port"):
            heading = sea.turned(heading, 1 if card == "starboard" else -1)
        elif card == "forward":
            ahead = sea.ahead(at, heading)
            if ahead is None or ahead in sea.ISLANDS:
                break
            at = ahead
    return at, heading


def _apart(one: str, two: str) -> int:
    (c1, r1), (c2, r2) = sea.coordinates(one), sea.coordinates(two)
    return max(abs(c1 - c2), abs(r1 - r2))


CONTACT = frozenset({"volley", "no volley", "collision"})  # the ships within a dot (BB8, BB17)
RESTLESS_AFTER = 3  # rounds in a row that brought the ships no nearer, before a level varies


def stalled_rounds(view: dict) -> int:
    """The rounds in a row, since the ships were last within a dot of each other, that ended
    with them no nearer than they began, read from the cards the view's reports turned up."""
    rounds: list[list[dict]] = []
    for report in view.get("reports") or []:
        for event in report.get("happened") or []:
            if event.get("what") in CONTACT:
                rounds = []
            elif event.get("what") == "card":
                if event.get("card") == 1 or not rounds:
                    rounds.append([])
                rounds[-1].append(event["ships"])
    stalled = 0
    for cards in reversed(rounds):
        began = [ship["from"] for ship in cards[0].values()]
        ended = [ship["to"] for ship in cards[-1].values()]
        if len(began) != 2 or _apart(*ended) < _apart(*began):
            break
        stalled += 1
    return stalled


def restless(view: dict, legal: dict, rng: random.Random, chosen: dict) -> dict:
    """``chosen``, a stronger level's plot; or, once the ships have come no nearer for
    ``RESTLESS_AFTER`` rounds in a row, at odds that grow with each more, the deckhand's
    closing plot instead. Two levels that reckon alike can otherwise circle each other for
    ever, each sailing for where the other was, and a captain who sees his plan come to
    nothing round after round tries something else."""
    stalled = stalled_rounds(view)
    if stalled < RESTLESS_AFTER or rng.random() >= min(0.9, 0.25 * (stalled - 2)):
        return chosen
    return plot(view, legal, rng)


def plot(view: dict, legal: dict, rng: random.Random) -> dict:
    """Three cards that close on the enemy (see the module's text)."""
    you = view["you"]
    mine = view["ships"][you]
    enemy = next(ship for seat, ship in view["ships"].items() if seat != you)
    damaged = legal["damaged"]
    scored = []
    for slots in itertools.combinations(range(3), damaged):
        for free in itertools.product(MOVING, repeat=3 - damaged):
            moving = iter(free)
            cards = tuple("damaged" if n in slots else next(moving) for n in range(3))
            at, _ = _sail(mine["at"], mine["heading"], cards)
            scored.append((_apart(at, enemy["at"]), cards))
    scored.sort(key=lambda item: item[0])
    best = [cards for apart, cards in scored if apart <= scored[0][0] + 1][:12]
    return {"kind": "plot", "stage": legal["stage"], "cards": list(rng.choice(best))}


RAIL_SECTIONS = ("B", "C", "D", "E", "F")


def declare(legal: dict, rng: random.Random) -> dict:
    """A section for each cannon that bears (see the module's text)."""
    weighted = [*deck.SECTIONS, *RAIL_SECTIONS]
    return {"kind": "declaration", "stage": legal["stage"],
            "targets": {cell: rng.choice(weighted) for cell in legal["cannons"]}}


def promote(legal: dict, rng: random.Random) -> dict:
    return {"kind": "promotion", "stage": legal["stage"], "promote": rng.choice(legal["crew"])}


def _distances(goal: str, laid: dict) -> dict[str, int]:
    """Movements from every place to ``goal`` over both decks, nothing in the way."""
    found = {goal: 0}
    queue = deque([goal])
    while queue:
        here = queue.popleft()
        for there in deck.steps(here, laid):
            if there not in found:
                found[there] = found[here] + 1
                queue.append(there)
    return found


def board(view: dict, legal: dict, rng: random.Random) -> dict:
    """Three movements toward the enemy Captain (see the module's text), each checked
    against the pieces as the earlier ones left them (BB16, BB21)."""
    you = view["you"]
    them = next(seat for seat in view["crews"] if seat != you)
    laid = view["boarding"]
    mine = {place: n for place, n in view["crews"][you]["crew"].items()}
    captain = view["crews"][you]["captain"]
    theirs = dict(view["crews"][them]["crew"])
    if view["crews"][them]["captain"]:
        theirs[view["crews"][them]["captain"]] = theirs.get(view["crews"][them]["captain"], 0) + 1
    goal = view["crews"][them]["captain"] or next(iter(theirs), None)
    far = _distances(goal, laid) if goal else {}
    moves: list[dict] = []
    for _ in range(legal["movements"]):
        def count(place: str, captain: str | None = captain) -> int:
            return mine.get(place, 0) + (captain == place)
        options = []
        for place, n in mine.items():
            if n and not theirs.get(place):
                options += [(far.get(to, 99) - far.get(place, 99), place, to, False)
                            for to in deck.steps(place, laid) if count(to) < deck.MOST_IN_CELL]
        if not options and captain is not None and not theirs.get(captain):
            options = [(0, captain, to, True) for to in deck.steps(captain, laid)
                       if count(to) < deck.MOST_IN_CELL]
        if not options:
            break
        options.sort(key=lambda option: option[0])
        best = [option for option in options if option[0] == options[0][0]]
        _, start, end, is_captain = rng.choice(best)
        if is_captain:
            captain = end
            moves.append({"from": start, "to": end, "captain": True})
        else:
            mine[start] -= 1
            mine[end] = mine.get(end, 0) + 1
            moves.append({"from": start, "to": end})
    return {"kind": "boarding", "stage": legal["stage"], "moves": moves}


def order(view: dict, rng: random.Random) -> dict:
    """The order the view says the seat owes."""
    legal = view.get("legal")
    if not legal:
        raise ValueError("this seat owes no order now")
    kind = legal["kind"]
    if kind == "plot":
        return plot(view, legal, rng)
    if kind == "declaration":
        return declare(legal, rng)
    if kind == "promotion":
        return promote(legal, rng)
    return board(view, legal, rng)


__all__ = ["board", "captain_cell", "declare", "order", "plot", "promote"]
