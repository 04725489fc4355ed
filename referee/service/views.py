"""The views kept per version: what a seat, the host and the pages that hold no seat are shown,
each made once per version of a game (and revision of a seat's draft) and served as the same
bytes, so that its cost follows what the asker may know, never what is hidden from him (R21).
"""

from __future__ import annotations

import functools
import gzip
import json
from dataclasses import dataclass

from .. import rulesets
from ..common import encoded
from ..common.documents import Seating, StatusView
from ..common.ruleset import Document, Game
from ..common.views import detached
from ..states import states_of
from ..store import Store
from . import clock, clocks, engine


def status(game: Game) -> StatusView:
    """A game's public state (phase, seats, turn, clocks, result), from its rule set."""
    return rulesets.of(game).status_view(game)


def view(game: Game, seat: str) -> Document:
    """Everything one seat may know of a game (R21), from its rule set."""
    return rulesets.of(game).view_for(game, seat)


def view_text(game: Game, seat: str, move_clock: object) -> str:
    """``view``'s document with its move clock (R25), written as JSON from the rule set's
    parts (each report written once), byte for byte what ``view`` would give: what a seat's
    kept view (``seat_view``) is built by."""
    return rulesets.of(game).view_json(game, seat, move_clock=move_clock)


def postmortem_document(game: Game) -> Document:
    """What each weapon bought and what hindsight says (``GET .../postmortem``), from the
    game's rule set; refused before the end."""
    return rulesets.of(game).postmortem_document(game)


def public_status(store: Store, game_id: str) -> StatusView:
    """The game's public state (``status``) at its current version, made once per version:
    what the pages that hold no seat show (joining, recovery) and the host's powers check,
    at a cost that nothing hidden changes (R21). The caller must not change it."""
    return engine.derived(store, game_id, "status",
                          lambda game: detached(status(game)), lambda _: 2048)


def seating(store: Store, game_id: str) -> Seating:
    """What a join link's holder sees before he joins (seats, order, sides), once per
    version, from the rule set's ``seating`` view (R11, R23)."""
    return engine.derived(store, game_id, "seating", lambda game: rulesets.of(game).seating(game),
                   lambda _: 1024)


def record_body(store: Store, game_id: str, seat: str) -> bytes:
    """A seat's move record as JSON bytes, made once per version and seat as its view is:
    its cost follows what the seat is told, never what is hidden from it (R21)."""
    def build(game: Game) -> bytes:
        document = rulesets.of(game).record_for(game, seat)
        return (encoded.compact(document) + "\n").encode()
    engine.settle(store, game_id)
    return engine.derived(store, game_id, ("record", seat), build, len)


def host_status(store: Store, game_id: str, *, settle: bool = True) -> dict:
    """What the host may see (R24): who has joined and locked in, the clocks, whose turn, the
    stand-in's level and the result, made once per version from the rule set's host view;
    then who has not been seen for a while, the seat hosting was handed to and the time.
    Never anything of any seat's fleet, at a cost nothing hidden changes. ``settle=False``:
    as the game stands, without first letting a computer that is due move (the streams)."""
    if settle:
        engine.settle(store, game_id)

    def build(game: Game) -> bytes:
        shown = rulesets.of(game).host_view(game)
        return json.dumps({**shown, "move_clock": clocks.move_clock(store, game_id, game),
                           "stand_in_level": clocks.stand_in_level(game)}).encode()

    kept = json.loads(engine.derived(store, game_id, "host", build, len))
    seen = store.seats_seen(game_id)
    status = {
        "id": kept["id"], "phase": kept["phase"], "version": kept["version"],
        "clock": kept["clock"], "move_clock": kept["move_clock"],
        "seats": {s: {**info, "last_seen": seen.get(s)} for s, info in kept["seats"].items()},
        "turn": kept["turn"], "result": kept["result"], "host_seat": store.host_seat(game_id),
        "now": clock.now(), "stand_in_level": kept["stand_in_level"],
    }
    if "owes" in kept:  # where orders are sealed: every seat that owes one now (never what)
        status["owes"] = kept["owes"]
    return status


EVENING_H = 12  # a game quiet for longer is not one of the evening's tables
EVENING_TABLES = 200  # tables listed on the evening's page at most


def _owing(store: Store, game_id: str, shown: StatusView, now: float) -> list[dict]:
    """Who owes a move now, from a game's public status: the seat whose turn it is, or each
    seat that owes its sealed order (several at once), each with when its move clock runs
    out (R25; None without one)."""
    if shown["phase"] != "play":
        return []
    sealed = shown.get("simultaneous")
    seats = list(shown.get("owes") or ()) if sealed else [shown["turn"]] if shown["turn"] else []
    minutes = shown["move_minutes"]
    owing = []
    for seat in seats:
        seq = (shown.get("owed_since") or {}).get(seat, shown["version"]) if sealed \
            else shown["turn_began"]
        began = store.event_time(game_id, seq) or now
        owing.append({"seat": seat, "deadline": began + 60 * minutes if minutes else None})
    return owing


def evening(store: Store) -> dict:
    """The evening's tables for the organiser: each game not yet over that has moved in the
    last EVENING_H hours, the longest quiet first, from its public status only (R21): its
    rule set, the players (name, computer, locked in, forfeited, when each page was last
    open), the phase, who owes a move (whose turn, or each seat owing a sealed order) with
    its move clock, when the last event was, and the setup clock; and how many older games
    not yet over are left out."""
    now = clock.now()
    rows, older = store.unfinished_games(now - 3600 * EVENING_H, EVENING_TABLES)
    tables = []
    for row in rows:
        shown = public_status(store, row["id"])
        seen = store.seats_seen(row["id"])
        minutes = shown["move_minutes"]
        tables.append({
            "id": row["id"], "rules": row["rules"], "phase": shown["phase"],
            "last_at": row["last_at"],
            "owing": _owing(store, row["id"], shown, now),
            "seats": {seat: {**{key: info[key] for key in
                                ("name", "ready", "forfeited", "bot", "stand_in")},
                             "last_seen": seen.get(seat)}
                      for seat, info in shown["seats"].items()},
            "setup_deadline": shown["clock"]["deadline"] if shown["phase"] == "setup" else None,
            "move_minutes": minutes})
    return {"tables": tables, "older": older, "now": now, "hours": EVENING_H}


@dataclass(frozen=True)
class SeatView:
    """A seat's view at one version of the game (and one revision of its draft): its JSON
    bytes (and their gzip, made on first asking) and its ETag's parts, built once and kept.
    ``settled``: at this version no computer is to move, now or later (no stand-in waits on
    a clock), so the kept view can be served without looking again. Only bytes are kept,
    not the document: thousands of kept documents' dicts, replaced at every move, made
    Python's cycle collector pause a server for 50-250 ms at a time."""

    version: int
    draft: int
    body: bytes
    settled: bool = False

    def fresh(self) -> dict:
        """The view as a document of its own, which the caller may change."""
        return json.loads(self.body)

    document = property(fresh)  # read by pages that only read it

    @functools.cached_property
    def gzipped(self) -> bytes:
        """The body compressed once, not on every request (a long game's view is 100 KB)."""
        return gzip.compress(self.body, compresslevel=6, mtime=0)


def seat_view(store: Store, game_id: str, seat: str, *, settle: bool = True,
              stamp: tuple[int, int] | None = None) -> SeatView:
    """A seat's view (after any computer has moved), from the cached state. Its cost does not
    depend on anything hidden from the seat (R21): it is built once per version and seat,
    then served as the same bytes. A view kept for the store's current version (one indexed
    query, the cheap poll's) is served without the game's lock or state, unless a computer
    might still have to move at that version. ``settle=False``: the view as the game stands,
    a computer that is due not moved first (the streams push again when it has moved).
    ``stamp``: the view's stamp (``store.view_stamp``), read already with the seat's token
    (``store.seat_stamp``) by a caller that found no view kept for it."""
    states = states_of(store)
    if stamp is None:
        stamp = store.view_stamp(game_id, seat)
        kept = kept_view(store, game_id, seat, *stamp)
        if kept is not None:
            return kept
    if settle:
        engine.settle(store, game_id)
    with states.lock(game_id):
        game = states.current(store, game_id, stamp[0])  # the version the stamp read
        # a draft's revision is 1 or more while it is kept: at 0 there is none to read
        found = store.draft(game_id, seat) if stamp[1] else None
        revision = found[1] if found else 0  # in the ETag, as the cheap poll reads it
        rule_set = rulesets.of(game)
        shown = rule_set.status_view(game)
        if shown["phase"] != "setup" or shown["seats"][seat]["ready"]:
            found = None  # a draft shows only until the seat locks in

        def build() -> SeatView:
            # the same for every seat: written from the rule set's parts (the reports written
            # once each), byte for byte ``view_for``'s document with its move clock (R25)
            text = view_text(game, seat, clocks.move_clock(store, game_id, game))
            if found:  # in setup, the seat's own kept draft shown in its view
                text = encoded.dumps(rule_set.with_draft(json.loads(text), found[0]))
            body = (text + "\n").encode()
            settled = shown["phase"] != "play" or not any(
                shown["seats"][seat]["bot"] or shown["seats"][seat]["stand_in"]
                for seat in shown["owes"]) and not clocks.computers_to_answer(shown)
            return SeatView(game.version, revision, body, settled)

        return states.derived(game_id, game.version, ("view", seat, revision), build,
                              lambda view: 3 * len(view.body))


def kept_view(store: Store, game_id: str, seat: str, version: int, draft: int
              ) -> SeatView | None:
    """The seat's view kept for this version and draft revision (``store.view_stamp``'s),
    if it is kept and no computer may still move at it: what ``seat_view`` would serve, found
    without the game's lock or state (the cheap poll serves it before Flask is entered)."""
    kept = states_of(store).peek(game_id, version, ("view", seat, draft))
    return kept if isinstance(kept, SeatView) and kept.settled else None
