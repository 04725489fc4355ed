"""What each seat may know (BB5, BB10, BB24-BB26): the only way anything about a game leaves the
core.

``view_for(game, seat)`` is the view of BB26: the sea and the deck plan (both as data), both ships'
dots, headings and damage, both crews, the stage and what each seat owes in it, the seat's own
sealed order, the cards turned up so far, the boarding's lie of the ships, the legal orders the
seat may give now (a description, not every combination), the dice (the commitment, the seeds
and every roll so far) and every report. The secrets are each seat's sealed orders: a plot's
cards until each is turned up (BB5), a declaration or promotion until every order of its stage
is in; the other seat sees only that an order is in. The referee's secret seed is never shown
before the end (BB24). The decks are public (BB16), but a seat's Captain only once play starts.
After the end all is revealed.
"""

from __future__ import annotations

from ..common.documents import Json, Seating
from ..common.encoded import Encoded, Parts
from ..common.views import (  # noqa: F401  (re-exported: every rule set's views)
    detached,
    dice_of,
    fingerprint_checks,
    fingerprints_verify,
    game_file_of,
    host_view,
    postmortem_of,
    require_over,
    status_view,
    targets_for,
    view_head,
)
from . import deck, sea
from .catalogue import CARDS, HAND, MOVEMENTS, ORDER, PLOTTED, RULES, SEATS
from .deck import DECK, SHIPS
from .game import Game, other
from .sea import SEA
from .words import describe, describe_order, seat_name


def _masts(masts: dict[str, int], boarding: bool) -> Json:
    shown = {}
    for at, hits in deck.MASTS.items():
        left = masts.get(at, hits)
        state = "lost" if left == 0 else "standing" if left == hits else "top lost"
        shown[at] = {"name": deck.MAST_NAMES[at], "hits_left": left,
                     "state": "removed" if boarding and left else state}
    return shown


def _ships(game: Game) -> Json:
    """Both ships on the sea and their damage (BB2, BB11-BB14), public as on a table."""
    shown = {}
    for seat in SEATS:
        ship = game.ships.get(seat)
        if ship is None:  # before play: on its starting circle, whole
            start = sea.STARTS[seat]
            shown[seat] = {"name": SHIPS[seat], "at": start["at"], "heading": start["heading"],
                           "cannons": list(deck.CANNONS), "masts": _masts({}, False),
                           "hull": dict.fromkeys(deck.SECTIONS, 0), "beyond_repair": [],
                           "masts_lost": [], "damaged_required": 0, "sunk": False}
            continue
        shown[seat] = {"name": SHIPS[seat], "at": ship.at, "heading": ship.heading,
                       "cannons": [c for c in deck.CANNONS if c in ship.cannons],
                       "masts": _masts(ship.masts, game.laid is not None),
                       "hull": dict(ship.hull), "beyond_repair": ship.beyond_repair(),
                       "masts_lost": ship.masts_lost(),
                       "damaged_required": ship.damaged_required(), "sunk": ship.sunk}
    return shown


def _crews(game: Game, seat: str) -> Json:
    """Both crews (BB16), public once play starts; before, the seat's own Captain as it placed
    him and nobody else's."""
    shown = {}
    for s in SEATS:
        crew = game.crews.get(s)
        if crew is None:
            setup = game.fleets.get(s) if s == seat else None
            places = {f"{s} {cell}": deck.CREW_PER_CANNON for cell in deck.CANNONS}
            captain = f"{s} {setup.captain}" if setup else None
            shown[s] = {"crew": places, "captain": captain,
                        "pieces": sum(places.values()) + (captain is not None)}
            continue
        places = {place: n for place, n in sorted(crew.crew.items()) if n}
        shown[s] = {"crew": places, "captain": crew.captain, "pieces": crew.count()}
    return shown


def shown_order(game: Game, report: Json, seat: str) -> tuple[Json, bool]:
    """A report's order as ``seat`` may know it, and whether it is still sealed (BB5, BB10):
    its own always; another's plot card by card as the cards are turned up; any other order
    once every order of its stage is in; everything once the game is over."""
    order = report["order"]
    if report["seat"] == seat or game.phase == "over":
        return dict(order), False
    if report["kind"] == "plot":
        up = game.turned_in.get(report["round"], 0)
        cards = [card if n < up else None for n, card in enumerate(order["cards"])]
        return {"kind": "plot", "stage": order["stage"], "cards": cards}, up < PLOTTED
    if report["stage"] == game.stage and game.owed:
        return {"kind": order["kind"], "stage": order["stage"]}, True
    return dict(order), False


def _told(game: Game, report: Json, seat: str) -> Json:
    """A report as ``seat`` is told it (BB25)."""
    order, sealed = shown_order(game, report, seat)
    happened = [{**entry, "text": describe(entry)} for entry in report["happened"]]
    return {"n": report["n"], "seat": report["seat"], "kind": report["kind"],
            "stage": report["stage"], "round": report["round"], "order": order,
            "sealed": sealed, "stand_in": bool(report.get("stand_in")),
            "happened": happened, "text": describe_order(report, order, sealed)}


def report_for(game: Game, report: Json, seat: str) -> Json:
    """One seat's copy of a report (BB25): the order as it may know it, and what followed."""
    return detached(_told(game, report, seat))


def _stage(game: Game) -> Json:
    """The stage of the round (BB5-BB22): its number and kind, the phase of the game
    (broadsides or boarding), the round and the cards turned up in it, the cannons that bear
    in a volley, whose boarding turn it is, and which of the seats asked has given its
    order (never what)."""
    playing = game.phase == "play"
    return {"n": game.stage, "kind": game.stage_kind if playing else None,
            "phase": "boarding" if game.laid is not None else "broadsides",
            "round": game.round, "card": game.turned,
            "final": game.final if playing and game.stage_kind == "volley" else False,
            "bearing": {s: list(game.bearing.get(s, [])) for s in SEATS}
            if playing and game.stage_kind == "volley" else None,
            "boarder": game.boarder if playing and game.stage_kind == "boarding" else None,
            "orders_in": {s: s in game.sealed for s in game.asked} if playing else {}}


def _plots(game: Game, seat: str) -> Json:
    """This round's cards as ``seat`` may know them (BB5, BB7): its own plot whole, the
    other's as its cards are turned up."""
    shown: dict[str, list[str | None] | None] = {}
    for s in SEATS:
        cards = game.plots.get(s) or (game.sealed.get(s) or {}).get("cards")
        if cards is None:
            shown[s] = None
        elif s == seat or game.phase == "over" or s in game.cannot_plot:
            shown[s] = list(cards)
        else:
            shown[s] = [card if n < game.turned else None for n, card in enumerate(cards)]
    return shown


def legal_for(game: Game, seat: str) -> Json | None:
    """What the seat may order now, described (not every combination): None when it owes
    nothing. A plot: three cards, exactly ``damaged`` of them Damaged (BB4, BB6). A
    declaration: a section or null for each cannon that bears, or standing orders (BB9,
    BB10). A promotion: the places holding its crew (BB7). A boarding turn: three movements,
    each piece's first movement listed; the deck plan and ``deck.steps`` give the rest (BB21)."""
    kind = game.owed.get(seat) if game.phase == "play" else None
    if kind is None:
        return None
    legal: Json = {"kind": kind, "stage": game.stage}
    if kind == "plot":
        legal.update(cards=PLOTTED, damaged=game.required.get(seat, 0),
                     choices=[c for c in CARDS if c != "damaged"], hand=dict(HAND))
    elif kind == "declaration":
        legal.update(final=game.final, cannons=list(game.bearing[seat]),
                     sections=list(deck.SECTIONS), standing=game.standing_orders(seat))
    elif kind == "promotion":
        legal.update(crew=sorted(game.crews[seat].crew))
    else:
        legal.update(movements=MOVEMENTS, pieces=game.movements(seat),
                     most_in_cell=deck.MOST_IN_CELL)
    return legal


def _boarding(game: Game) -> Json | None:
    """How the ships lie side by side once they have collided (BB18), and every cell a piece
    can cross from, with the cell across."""
    if game.laid is None:
        return None
    across = {}
    for seat in SEATS:
        rail = deck.RAILS[game.laid["touching"][seat]]
        for section in deck.SECTIONS:
            place = f"{seat} {section}{rail}"
            across[place] = deck.across(place, game.laid)
    return {"orientation": game.laid["orientation"], "touching": dict(game.laid["touching"]),
            "at": game.laid["at"], "across": across, "boarder": game.boarder}


def _view(game: Game, seat: str) -> Json:
    setup = game.fleets.get(seat)
    own = game.sealed.get(seat)
    view = {
        **view_head(game, seat, RULES, ORDER),
        "disposition": setup.document if setup else None,
        "sea": SEA,
        "deck_plan": DECK,
        "ships": _ships(game),
        "crews": _crews(game, seat),
        "stage": _stage(game),
        "owes": {s: game.owed[s] for s in game.owes},
        "your_order": dict(own) if own and game.phase == "play" else None,
        "plots": _plots(game, seat),
        "boarding": _boarding(game),
        "legal": legal_for(game, seat),
        "dice": dice_of(game),
        "opening": [{**entry, "text": describe(entry)} for entry in game.opening],
        "reports": [_told(game, r, seat) for r in game.reports],
        "result": game.result_document(),
    }
    if game.phase == "over":  # after the end all is revealed
        view["revealed"] = {s: {"disposition": game.fleets[s].document,
                                "sealed": game.sealed.get(s)}
                            for s in game.seats if s != seat and s in game.fleets}
    return view


def view_for(game: Game, seat: str) -> Json:
    """The view of BB26 for one seat."""
    return detached(_view(game, seat))


SEA_JSON, DECK_JSON = Encoded.of(SEA), Encoded.of(DECK)  # the same in every view


def view_parts(game: Game, seat: str) -> Parts:
    """``view_for``'s document with the sea and the deck plan already written, sharing the
    game's objects: for ``encoded.dumps`` at once, never to be changed or kept."""
    view: Parts = dict(_view(game, seat))
    view["sea"], view["deck_plan"] = SEA_JSON, DECK_JSON  # each in its place
    return view


def with_draft(view: Json, document: Json) -> Json:
    """A seat's view in setup showing its kept draft (already in normal form): its Captain
    where the draft puts him."""
    seat = view["you"]
    crews = dict(view["crews"])
    mine = dict(crews[seat])
    mine["captain"] = f"{seat} {document['captain']}" if document.get("captain") else None
    mine["pieces"] = sum(mine["crew"].values()) + (mine["captain"] is not None)
    crews[seat] = mine
    return {**view, "disposition": document, "crews": crews}


def seating_for(game: Game) -> Seating:
    """What the holder of a join link sees before he joins: the seats and their fixed order;
    nothing of anyone's disposition."""
    return detached(Seating(id=game.id, seats=list(game.seats), order=list(ORDER),
                            sides=[list(m) for m in game.sides]))


def record_for(game: Game, seat: str) -> Json:
    """The record as one seat may see it: what happened before any order, every order as it
    may know it with what followed (BB25), and the dice (BB24)."""
    return detached({
        "rules": RULES,
        "id": game.id,
        "phase": game.phase,
        "you": seat,
        "order": list(ORDER),
        "opening": [{**entry, "text": describe(entry)} for entry in game.opening],
        "moves": [_told(game, r, seat) for r in game.reports],
        "dice": dice_of(game),
        "result": game.result_document(),
    })


def result_headline(view: Json) -> str:
    """The end in a sentence, from a finished view (BB23).

    >>> result_headline({"result": {"reason": "captain", "winner": "red", "winners": ["red"],
    ...                             "scores": {"red": 12, "blue": 9}}})
    "Red eliminated Blue's Captain in hand-to-hand and wins; pieces removed: Red 12, Blue 9."
    """
    result = view["result"]
    winner = result["winner"]
    scores = result["scores"]
    tally = f"pieces removed: Red {scores.get('red', 0)}, Blue {scores.get('blue', 0)}."
    reason = result["reason"]
    if reason == "captain":
        return (f"{seat_name(winner)} eliminated {seat_name(other(winner))}'s Captain in "
                f"hand-to-hand and wins; {tally}")
    if reason == "sunk":
        if winner is None:
            return f"Both ships went down at once: a draw; {tally}"
        return f"{SHIPS[other(winner)]} sank: {seat_name(winner)} wins; {tally}"
    if reason == "all-lost":
        if winner is None:
            return f"Both ships lost everything at once: a draw; {tally}"
        return (f"{seat_name(other(winner))} lost every cannon, crewmember and Captain: "
                f"{seat_name(winner)} wins; {tally}")
    if reason == "resigned":
        return f"{seat_name(other(winner))} surrendered; {seat_name(winner)} wins; {tally}"
    if reason == "forfeit":
        return f"{seat_name(winner)} wins by forfeit." if winner else "Both seats were forfeited."
    return f"Ended by agreement: a draw; {tally}"


def postmortem_view(game: Game, seat: str) -> Json:
    """Everything the post-mortem shows a seat: its view, both seats' names and dispositions,
    the fingerprint checks and the dice revealed; refused before the end (BB24, BB25)."""
    return postmortem_of(game, lambda: _view(game, seat), "BB25")


__all__ = ["describe", "host_view", "legal_for", "postmortem_view", "record_for",
           "report_for", "result_headline", "seating_for", "shown_order", "status_view",
           "targets_for", "view_for", "with_draft"]
