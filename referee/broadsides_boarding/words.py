"""What happened, in the game's words (BB25): one sentence for each card turned up, each volley
(every cannon's target, roll and what it did), each roll and each fight, and for each order as a
seat may know it. Only the views call these, with what the seat may know.

>>> describe({"what": "card", "card": 1, "cards": {"red": "forward", "blue": "port"},
...           "ships": {"red": {"from": "B 6", "to": "C 6", "heading": "E", "blocked": False,
...                             "idle": False},
...                     "blue": {"from": "N 6", "to": "N 6", "heading": "SW", "blocked": False,
...                              "idle": False}}})
'Card 1: Red Move Forward (B 6 to C 6); Blue Turn Port (now facing SW at N 6).'
"""

from __future__ import annotations

from ..common.documents import Json
from .catalogue import CARD_NAMES
from .deck import MAST_NAMES, SHIPS


def seat_name(seat: str) -> str:
    return seat.title()


def ship_name(seat: str) -> str:
    return f"the {SHIPS.get(seat, seat.title())}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _card(seat: str, card: str, ship: Json) -> str:
    name = f"{seat_name(seat)} {CARD_NAMES[card]}"
    if ship.get("idle"):
        return f"{name} (not played: its moves are lost this round, BB3)"
    if ship.get("blocked"):
        return (f"{name}, not made: an island or the edge lies ahead of {ship['from']}; its "
                "other cards this round are lost (BB3)")
    if card == "forward":
        return f"{name} ({ship['from']} to {ship['to']})"
    if card in ("starboard", "port"):
        return f"{name} (now facing {ship['heading']} at {ship['to']})"
    if card == "damaged":
        return f"{name} (played as Remain in Place)"
    return name


def _shot(shot: Json) -> str:
    what = {"miss": "a miss", "hull": "a hull marker on section {t}",
            "rail 3": "every piece at {t}3 removed", "rail 5": "every piece at {t}5 removed",
            "mast": "a hit on the {mast}"}[shot["effect"]]
    mast = MAST_NAMES.get(f"{shot['target']}4", "mast")
    return (f"{seat_name(shot['seat'])}'s {shot['cannon']} at {shot['target']}: rolled "
            f"{shot['roll']}, {what.format(t=shot['target'], mast=mast)}")


def _removed(seat: str, gone: Json) -> str | None:
    parts = []
    if gone["cannons"]:
        parts.append(_plural(len(gone["cannons"]), "cannon"))
    if gone["crew"]:
        parts.append(_plural(gone["crew"], "crewmember"))
    if gone["captain"]:
        parts.append("the Captain")
    return f"{seat_name(seat)} loses {' and '.join(parts)}" if parts else None


def describe(entry: Json) -> str:
    """One thing that happened, in a sentence or two."""
    what = entry["what"]
    if what == "round":
        parts = [f"Round {entry['round']} begins"]
        for seat, n in entry["required"].items():
            if n:
                parts.append(f"{seat_name(seat)} must play {_plural(n, 'Damaged card')}")
        for seat in entry["cannot_plot"]:
            parts.append(f"{seat_name(seat)} cannot plot: its Captain was lost (BB7)")
        return "; ".join(parts) + "."
    if what == "card":
        return f"Card {entry['card']}: " + "; ".join(
            _card(seat, card, entry["ships"][seat]) for seat, card in entry["cards"].items()) \
            + "."
    if what == "collision":
        how = "pass each other, trading dots" if entry.get("traded") else "meet"
        return f"The ships {how} at {entry['at']}: a collision! The boarding begins (BB17)."
    if what == "no volley":
        return "The ships lie within 1 dot, but no cannon bears (BB9)."
    if what == "volley":
        shots = "; ".join(_shot(s) for s in entry["shots"]) or "every cannon held its fire"
        lost = [text for seat, gone in entry["removed"].items()
                if (text := _removed(seat, gone))]
        title = "The final volley" if entry["final"] else "A volley"
        return f"{title}: {shots}." + (f" {'; '.join(lost)}." if lost else "")
    if what == "laid":
        way = ("facing the same way (A opposite A)" if entry["orientation"] == "same"
               else "facing opposite ways (A opposite H)")
        sides = " and ".join(f"{seat_name(s)}'s {side}" for s, side in entry["touching"].items())
        dice = "".join(f" (a die for the {r['for']}: {r['roll']})" for r in entry["rolls"])
        return f"The ships are laid side by side {way}, {sides} sides touching{dice} (BB18)."
    if what == "first":
        tries = "; then ".join(", ".join(f"{seat_name(s)} {face}" for s, face in r.items())
                               for r in entry["rolls"])
        return f"Dice for the first boarder: {tries}. {seat_name(entry['first'])} boards first."
    if what == "movements":
        moves = ", ".join(f"{m['from']} to {m['to']}" + (" (the Captain)" if m.get("captain")
                                                        else "") for m in entry["moves"])
        return f"{seat_name(entry['seat'])} moves {moves or 'nothing: no movement is possible'}."
    if what == "fight":
        rounds = "; ".join(", ".join(f"{seat_name(s)} {r['rolls'][s]} (total {r['totals'][s]})"
                                     for s in r["rolls"])
                           + (f": {seat_name(r['eliminated']['seat'])} loses "
                              + ("its Captain" if r["eliminated"]["piece"] == "captain"
                                 else "a crewmember") if r["eliminated"] else ": a tie")
                           for r in entry["rounds"])
        won = f" {seat_name(entry['won_by'])} holds {entry['at']}." if entry["won_by"] else ""
        return f"Fight at {entry['at']}: {rounds}.{won}"
    if what == "promotion":
        return f"{seat_name(entry['seat'])} promotes the crewmember at {entry['at']} to Captain."
    if what == "end":
        if entry["reason"] == "captain":
            loser = "Red" if entry["winner"] == "blue" else "Blue"
            return f"{loser}'s Captain is eliminated: {seat_name(entry['winner'])} wins (BB23)."
        fell = [f"{ship_name(s)} sinks" for s in entry["sunk"]] + [
            f"{seat_name(s)} has lost every cannon, crewmember and Captain"
            for s in entry["all_lost"]]
        result = (f"{seat_name(entry['winner'])} wins" if entry["winner"]
                  else "both at once: a draw")
        return f"{'; '.join(fell)}: {result} (BB23)."
    return str(what)


def describe_order(report: Json, shown: Json, sealed: bool) -> str:
    """A seat's order as another seat may know it (``shown``: what it is told of it)."""
    who = seat_name(report["seat"])
    kind = report["kind"]
    by = " (the computer for an absent player)" if report.get("stand_in") else ""
    if kind == "plot":
        cards = shown.get("cards") or []
        if all(card is None for card in cards):
            return f"{who}'s plot for round {report['round']} is in{by}."
        told = ", ".join(CARD_NAMES[c] if c else "(face down)" for c in cards)
        return f"{who} plotted for round {report['round']}: {told}{by}."
    if sealed:
        return f"{who}'s {kind} is in{by}; it is turned up when every order is in."
    if kind == "declaration":
        targets = shown.get("targets") or {}
        named = ", ".join(f"{cell} at {t}" if t else f"{cell} holds its fire"
                          for cell, t in targets.items())
        standing = " (standing orders)" if shown.get("standing") else ""
        return f"{who} declared{standing}: {named}{by}."
    if kind == "promotion":
        return f"{who} promoted the crewmember at {shown['promote']}{by}."
    return f"{who}'s boarding turn{by}."


__all__ = ["describe", "describe_order", "seat_name", "ship_name"]
