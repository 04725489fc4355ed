"""The contract every rule set here keeps, run over each registered one and over Hidden Number
(the tests' own, ``tests/minimal_game``, registered for this module), as OpenSpiel's
``api_test.py`` runs over every game: a new rule set is covered by registering it.

Each test drives a game only through the seam (``RuleSet``), the JSON API and the pages, with
the rule set's own computers choosing every disposition and move from their seats' views:

- the log replays, after every move, to what every seat was shown;
- a refused command (out of turn, against the rules, malformed) changes nothing;
- nothing hidden reaches a seat before the end: two games alike but for a secret of one seat
  (its ``secret_twin``), played with moves that stay clear of it, show the other seat the
  same views, refusals, records, pages and PDFs;
- a finished game's file imports on another referee and replays to the same result;
- every level of every computer moves legally from its own view;
- forfeit, the stand-in, resigning, agreeing to end and the clocks work alike;
- every page and PDF route answers in every phase without a 500.
"""

from __future__ import annotations

import copy
import hashlib
import json

import pytest
from contract_support import (
    RULES,
    Chance,
    Clock,
    Phone,
    api_of,
    core_game,
    differences,
    events_of,
    first_difference,
    join_all,
    level,
    lock_in,
    make_app,
    minimal_game_registered,
    opponent,
    play_out,
    refused_on_a_copy,
    shown_to,
    twin_source,
)

from referee import rulesets, service

pytestmark = pytest.mark.parametrize("rules", RULES)


@pytest.fixture(scope="module", autouse=True)
def hidden_number():
    """Hidden Number is a rule set here while this module runs."""
    with minimal_game_registered():
        yield


@pytest.fixture
def clock(monkeypatch) -> Clock:
    ticking = Clock()
    monkeypatch.setattr(service.clock, "now", ticking)
    return ticking


@pytest.fixture
def app(tmp_path, clock):
    return make_app(tmp_path)


def stored(event: dict) -> dict:
    """An event as a log keeps it: through JSON."""
    return json.loads(json.dumps(event))


# -- the log is the game ---------------------------------------------------------------------

def test_the_log_replayed_after_every_move_gives_every_seat_the_same_view_and_record(rules):
    """Whole games at the core, by the strongest and the weakest levels: after every move a
    game built from nothing but the log so far (each event through JSON) shows every seat
    the same view and record, and the public status, as the game that made the moves."""
    rule_set = rulesets.named(rules)
    for seed, levels in enumerate(((level(rules, -1), level(rules, 0)),
                                   (level(rules, 0), level(rules, -1)))):
        game, computers = core_game(rules, levels, seed)
        shadow = rule_set.empty()
        for event in game.events:
            shadow.apply(stored(event))

        def same(game, shadow=shadow):
            for event in game.events[shadow.version:]:
                shadow.apply(stored(event))
            assert rule_set.status_view(shadow) == rule_set.status_view(game)
            for seat in game.seats:
                assert rule_set.view_for(shadow, seat) == rule_set.view_for(game, seat)
                assert rule_set.record_for(shadow, seat) == rule_set.record_for(game, seat)

        play_out(rules, game, computers, each=same)
        assert rule_set.status_view(game)["phase"] == "over"
        again = rule_set.replay([stored(event) for event in game.events])
        assert again.result_document() == game.result_document()
        assert rule_set.game_content(again) == rule_set.game_content(game)


def test_the_stored_log_replays_after_every_move_to_what_the_api_showed_every_seat(rules, app):
    """A whole game through the API: after every move, each seat's view as the referee
    served it is the view of the game its stored log replays to (the move clock aside, which
    the service adds), and at the end so is each seat's record."""
    rule_set = rulesets.named(rules)
    table = join_all(api_of(app), rules, move_minutes=5)
    table.levels = {seat: level(rules, -1) for seat in table.tokens}
    lock_in(table)
    shadow = rule_set.empty()
    for _ in range(3000):
        for event in events_of(app, table.id)[shadow.version:]:
            shadow.apply(event)
        for seat in table.tokens:
            shown = table.view(seat)
            assert shown.pop("move_clock") is not None or shown["phase"] != "play"
            assert shown == rule_set.view_for(shadow, seat), (rules, seat, shadow.version)
        if rule_set.status_view(shadow)["phase"] != "play":
            break
        status, report = table.move()
        assert status == 201, report
    assert rule_set.status_view(shadow)["phase"] == "over"
    for seat in table.tokens:
        status, record, _ = table.call(seat, "GET", "/record")
        assert status == 200 and record == rule_set.record_for(shadow, seat)


# -- a refusal changes nothing ---------------------------------------------------------------

MALFORMED = ({"<b>": "x" * 50}, [], "A 1", 7, None, {"guess": [1], "at": {}, "ship": None})


def everything_shown(app, table) -> dict:
    """What every seat and the host are shown now, and the stored log."""
    shown = {seat: table.view(seat) for seat in table.tokens}
    for seat in table.tokens:
        shown[f"{seat} record"] = table.call(seat, "GET", "/record")[1]
    host = table.host("GET", "/host")[1]
    shown["host"] = {key: host[key] for key in ("phase", "version", "seats", "turn", "result")}
    shown["events"] = events_of(app, table.id)
    return shown


def test_a_refused_command_changes_nothing(rules, app):
    """In setup and in play, a seat's command the rules refuse (out of turn, against them,
    malformed) is answered 4xx with the ruling it breaks and leaves every seat's view and
    record, the host's view and the log as they were."""
    for _ in range(10):  # a game still in play after two moves (a short game may end)
        if refusals_change_nothing(app, rules):
            return
    raise AssertionError(f"{rules}: ten games ended within two moves")


def refusals_change_nothing(app, rules: str) -> bool:
    table = join_all(api_of(app), rules)
    seat, other = list(table.tokens)

    def refused(who: str, method: str, tail: str, body) -> None:
        before = everything_shown(app, table)
        status, answer, _ = table.call(who, method, tail, body)
        assert 400 <= status < 500, (rules, tail, body, status, answer)
        assert answer["errors"] and all(e["rule"] and e["message"] for e in answer["errors"])
        assert everything_shown(app, table) == before, (rules, tail, body)

    for junk in MALFORMED[:3]:
        refused(seat, "PUT", "/disposition", junk)
    refused(seat, "POST", "/moves", {"<b>": 1})  # no moves in setup
    refused(seat, "POST", "/end", None)  # nothing to end before play
    lock_in(table)
    moves: list[tuple[str, dict]] = []
    while len(moves) < 2:  # two moves made, so that each seat has one to make again
        if table.turn() is None:
            return False
        seat, move = table.next_move()
        refused(opponent(table, seat), "POST", "/moves", move)  # out of turn
        status, report = table.move()
        assert status == 201, report
        moves.append((seat, move))
    mover = table.turn()
    if mover is None:
        return False
    for junk in MALFORMED:
        refused(mover, "POST", "/moves", junk)
    # against the rules: a move made before (by this seat or another) that the rules refuse
    # now, found on a copy of the game
    illegal = [move for _, move in moves if refused_on_a_copy(app, table, mover, move)]
    assert illegal, f"{rules}: no earlier move is refused now"
    for move in illegal:
        refused(mover, "POST", "/moves", move)
    refused(mover, "PUT", "/disposition", table.computer(mover).disposition(table.view(mover)))
    refused(mover, "POST", "/ready", None)
    refused(opponent(table, mover), "POST", "/play-on", None)  # no offer to decline
    return True


# -- nothing hidden reaches a seat before the end --------------------------------------------

LOCKSTEP_MOVES = 12  # moves of each pair of games compared
TRIES = 30  # computers of other seeds asked for a move that stays clear of the secret


def clear_move(table, seat: str, view: dict, clear) -> dict | None:
    """A move of the seat's computer (or, if its move would reach the secret, of the same
    level with another seed) that stays clear of where the twins differ; None if none does."""
    rule_set = rulesets.named(table.rules)
    for n in range(TRIES):
        computer = table.computer(seat) if n == 0 else rule_set.computer(
            level(table.rules, 0), f"clear:{seat}:{n}")
        move = computer.move(copy.deepcopy(view))
        if clear(seat, move, view):
            return move
    return None


def test_nothing_hidden_reaches_a_seat_before_the_end(rules, app, tmp_path, monkeypatch):
    """Two games alike but for one seat's secret (its disposition's twin, ``secret_twin``),
    played move for move with moves that stay clear of where the twins differ, show the
    other seat the very same views, records, status polls, pages and PDFs (the games' ids,
    salts, fingerprints and form tokens masked) and the very same refusals, until the end;
    the seat that hides sees its own secret differ, and at the end both seats see it."""
    # what chance gives each game the same in both: the toss, and the ids and salts (whose
    # letters' widths would lay a PDF's lines out differently)
    monkeypatch.setattr(service.commands.secrets, "randbits", lambda bits: 20250601)
    monkeypatch.setattr(service.commands.secrets, "token_hex", lambda n=32: hashlib.sha256(
        str(n).encode()).hexdigest()[:2 * n])
    other_app = make_app(tmp_path / "twin")
    for _ in range(5):  # a pair of games with two moves or more before one reaches the secret
        if twins_compared(rules, app, other_app) >= 2:
            return
    raise AssertionError(f"{rules}: no pair of games had two moves clear of the secret")


def twins_compared(rules: str, app, other_app) -> int:
    """Play a pair of twin games as long as the moves stay clear, comparing what the other
    seat is shown after each; the number of moves compared."""
    rule_set = rulesets.named(rules)
    tables = [join_all(api_of(app), rules, move_minutes=5),
              join_all(api_of(other_app), rules, move_minutes=5)]
    one, two = tables
    hider = twin = None
    for seat in one.tokens:
        document = one.computer(seat).disposition(one.view(seat))
        for table in tables:
            status, body, _ = table.call(seat, "PUT", "/disposition", document)
            assert status == 200, body
        twin = twin or rule_set.secret_twin(one.view(seat), twin_source(rules))
        hider = hider or (seat if twin else None)
    assert twin is not None, f"{rules}: no seat has a secret twin"
    observer = opponent(one, hider)
    status, body, _ = two.call(hider, "PUT", "/disposition", twin.disposition)
    assert status == 200, body
    for table in tables:
        for seat in table.tokens:
            status, body, _ = table.call(seat, "POST", "/ready")
            assert status == 200, body
    chances = [Chance(), Chance()]
    for table, chance in zip(tables, chances, strict=True):
        chance.learn(table)
    phones = [Phone(a, t.id, t.tokens[observer]) for a, t in ((app, one), (other_app, two))]
    phones[0].get("/games/{g}"), phones[1].get("/games/{g}")  # the recovery code shown once

    def alike(paper: bool = False) -> dict:
        shown = [shown_to(t, p, observer, c, paper=paper)
                 for t, p, c in zip(tables, phones, chances, strict=True)]
        parts = differences(*shown)
        assert not parts, f"{rules}: {observer} is shown {parts}: " + first_difference(
            json.dumps(shown[0][parts[0]]), json.dumps(shown[1][parts[0]]))
        return shown[0]

    def refusals_alike(move) -> None:
        answers = [t.call(observer, "POST", "/moves", move)[:2] for t in tables]
        masked = [json.loads(c.mask(json.dumps(a))) for a, c in zip(answers, chances,
                                                                      strict=True)]
        assert 400 <= answers[0][0] < 500 and masked[0] == masked[1], (rules, move, masked)

    alike(paper=True)
    compared, made = 0, []
    while compared < LOCKSTEP_MOVES:
        seat = one.turn()
        if seat is None:
            break
        assert two.turn() == seat
        view = one.view(seat)
        move = clear_move(one, seat, view, twin.clear)
        if move is None:
            break
        if seat != observer:
            refusals_alike(move)  # out of turn
        else:
            for junk in MALFORMED[:2]:
                refusals_alike(junk)
            for earlier in made:
                if refused_on_a_copy(app, one, observer, earlier):
                    refusals_alike(earlier)
        reports = [t.call(seat, "POST", "/moves", move)[:2] for t in tables]
        assert reports[0][0] == reports[1][0] == 201, (rules, move, reports)
        if seat == observer:
            assert chances[0].mask(json.dumps(reports[0])) == \
                chances[1].mask(json.dumps(reports[1])), (rules, move)
            made.append(move)
        compared += 1
        if one.view(observer)["phase"] != "play":
            break
        alike()
    if one.view(observer)["phase"] == "play":
        alike(paper=True)
        hidden = [c.mask(json.dumps(t.view(hider)["disposition"]))
                  for t, c in zip(tables, chances, strict=True)]
        assert hidden[0] != hidden[1], "the twins' own views show their secrets differ"
        for table in tables:
            status, body, _ = table.call(hider, "POST", "/resign")
            assert status == 200, body
    over = [shown_to(t, p, observer, c, paper=False)
            for t, p, c in zip(tables, phones, chances, strict=True)]
    assert over[0]["view"] != over[1]["view"], "once the game is over, the secrets are shown"
    return compared
