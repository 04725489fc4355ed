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
import re
from dataclasses import dataclass

import pytest
from contract_support import (
    MAX_MOVES,
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
from pages_support import Page

from referee import rulesets, service
from referee.common.ruleset import Twin

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


def test_a_seats_view_written_from_its_parts_is_view_for_byte_for_byte(rules):
    """The server writes a seat's view from the rule set's parts (``RuleSet.view_json``:
    the reports, a disposition, a board written as JSON once each and kept). In setup and
    after every move of whole games, over included, for every seat, those bytes are
    ``json.dumps`` of ``view_for`` exactly, the move clock after it: on the state that made
    the moves (its memo filled as they came, and read by the computers' ``view_for`` between),
    and on a state replayed from the log so far (its memo empty)."""
    rule_set = rulesets.named(rules)
    checked = 0

    def written_alike(game) -> None:
        nonlocal checked
        fresh = rule_set.replay([stored(event) for event in game.events])
        for seat in game.seats:
            for state in (game, fresh):
                clock = {"minutes": 5, "deadline": 1.5e9 + checked}
                expected = json.dumps({**rule_set.view_for(state, seat), "move_clock": clock},
                                      separators=(",", ":"))
                assert rule_set.view_json(state, seat, move_clock=clock) == expected, \
                    (rules, seat, state.version)
                checked += 1

    options = {"seats": 3, "alliances": [["red"], ["blue", "green"]]} \
        if rules == "naval-war" else {}  # a third seat: an ally's and an enemy's copies
    for seed, levels in enumerate(((level(rules, -1), level(rules, 0)),
                                   (level(rules, 0), level(rules, -1)))):
        setup, _ = rule_set.new_game(id=f"s{seed}", seed=seed, at=1.5e9, bots={},
                                     options=options if seed else {})
        written_alike(setup)
        game, computers = core_game(rules, levels, seed, **(options if seed else {}))
        written_alike(game)
        play_out(rules, game, computers, each=written_alike)
        assert rule_set.status_view(game)["phase"] == "over"
    assert checked > 20


def test_a_moves_report_written_once_is_report_for_its_mover_and_his_views_copy(rules):
    """A move's answer, its Idempotency-Key's record and the mover's view share one copy of
    its report written once (``RuleSet.report_json``): after every move of whole games, the
    copy is ``report_for``'s for the mover and its text ``json.dumps`` of it, on the state that
    made the moves and on one replayed from the log (its memo empty); and the mover's view,
    written afterwards from its parts, is still ``view_for``'s byte for byte."""
    rule_set = rulesets.named(rules)
    game, computers = core_game(rules, (level(rules, -1), level(rules, 0)), 3)
    moves = 0
    for _ in range(MAX_MOVES):
        shown = rule_set.status_view(game)
        if shown["phase"] != "play":
            break
        seat = shown["owes"][0]
        game.move(seat, computers[seat].move(rule_set.view_for(game, seat)))
        fresh = rule_set.replay([stored(event) for event in game.events])
        for state in (game, fresh):
            copy, text = rule_set.report_json(state, state.reports[-1], seat)
            assert copy == rule_set.report_for(state, state.reports[-1], seat)
            assert text.text == json.dumps(copy, separators=(",", ":")), (rules, state.version)
            assert rule_set.view_json(state, seat) == json.dumps(
                rule_set.view_for(state, seat), separators=(",", ":"))
        moves += 1
    assert rule_set.status_view(game)["phase"] == "over" and moves > 2


# Two of the strongest computers may hold each other off for ever (Broadside's cunning Blue
# guards the channel, and Red need not come through it): past this many moves they agree to
# end, as players would, and the log is checked to that end. Each move re-reads the log and
# builds both views, so the test's time grows with the square of its moves: at 600 a held-off
# game took 72 s of the suite; 250 moves still go far past most games' ends
AGREED_AFTER = 250


def test_the_stored_log_replays_after_every_move_to_what_the_api_showed_every_seat(rules, app):
    """A whole game through the API: after every move, each seat's view as the referee
    served it is the view of the game its stored log replays to (the move clock aside, which
    the service adds), and at the end so is each seat's record."""
    rule_set = rulesets.named(rules)
    table = join_all(api_of(app), rules, move_minutes=5)
    table.levels = {seat: level(rules, -1) for seat in table.tokens}
    lock_in(table)
    shadow = rule_set.empty()
    for moves in range(3000):
        for event in events_of(app, table.id)[shadow.version:]:
            shadow.apply(event)
        for seat in table.tokens:
            shown = table.view(seat)
            assert shown.pop("move_clock") is not None or shown["phase"] != "play"
            assert shown == rule_set.view_for(shadow, seat), (rules, seat, shadow.version)
        if rule_set.status_view(shadow)["phase"] != "play":
            break
        if moves == AGREED_AFTER:  # two that cannot force an end agree to one (R14)
            for seat in table.tokens:
                assert table.call(seat, "POST", "/end")[0] == 200
            continue
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
        idle = [s for s in table.tokens if s not in table.owing()]
        seat, move = table.next_move()
        for other in idle:  # out of turn: it owes no move now (where orders are sealed,
            refused(other, "POST", "/moves", move)  # several seats may owe one at once)
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
    more = iter(range(100))  # a game's id is the same in every game here: a pair of referees

    def fresh() -> tuple:
        n = next(more)
        return make_app(tmp_path / f"more-{n}"), make_app(tmp_path / f"more-twin-{n}")

    for _ in range(5):  # a pair of games with two moves or more before one reaches the secret
        if twins_compared(rules, app, other_app, fresh) >= 2:
            return
    raise AssertionError(f"{rules}: no pair of games had two moves clear of the secret")


@dataclass
class Twins:
    """Two games alike but for one seat's secret, locked in: the seat that hides, the seat
    that is shown, the twin, the masks of chance and the observer's phones."""

    apps: list
    tables: list
    hider: str
    observer: str
    twin: Twin
    chances: list[Chance]
    phones: list[Phone]

    def alike(self, paper: bool = False) -> dict:
        """What the observer is shown in both games, which must be the very same."""
        shown = [shown_to(t, p, self.observer, c, paper=paper)
                 for t, p, c in zip(self.tables, self.phones, self.chances, strict=True)]
        parts = differences(*shown)
        assert not parts, f"{self.tables[0].rules}: {self.observer} is shown {parts}: " + \
            first_difference(json.dumps(shown[0][parts[0]]), json.dumps(shown[1][parts[0]]))
        return shown[0]

    def refusals_alike(self, move) -> None:
        answers = [t.call(self.observer, "POST", "/moves", move)[:2] for t in self.tables]
        masked = [json.loads(c.mask(json.dumps(a))) for a, c in zip(answers, self.chances,
                                                                      strict=True)]
        assert 400 <= answers[0][0] < 500 and masked[0] == masked[1], (move, masked)

    def over_differ(self) -> None:
        """Once the game is over, the secrets are shown: the observer's views differ."""
        over = [shown_to(t, p, self.observer, c, paper=False)
                for t, p, c in zip(self.tables, self.phones, self.chances, strict=True)]
        assert over[0]["view"] != over[1]["view"], "once the game is over, the secrets are shown"


def twin_games(rules: str, app, other_app) -> Twins:
    """A pair of games of ``rules``, every seat's disposition its computer's, but for the
    first seat with a secret twin, whose disposition in the second game is its twin's."""
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
    return Twins([app, other_app], tables, hider, observer, twin, chances, phones)


SEALED_STAGES = (0, 2)  # a sealed order compared at the first stage it can be, and later
MAX_STAGES = 200  # orders played looking for such a stage


def twins_compared(rules: str, app, other_app, fresh) -> int:
    """Play a pair of twin games as long as the moves stay clear, comparing what the other
    seat is shown after each; the number of moves compared. Where the secret is a sealed
    order (``Twin.order``), each of ``SEALED_STAGES`` is compared in a pair of its own (on a
    ``fresh()`` pair of referees)."""
    pair = twin_games(rules, app, other_app)
    if pair.twin.order is not None:
        compared = sealed_compared(pair, SEALED_STAGES[0])
        for skip in SEALED_STAGES[1:]:
            compared += sealed_compared(twin_games(rules, *fresh()), skip)
        return compared
    tables, hider, observer, twin = pair.tables, pair.hider, pair.observer, pair.twin
    one, two = tables
    chances = pair.chances
    alike, refusals_alike = pair.alike, pair.refusals_alike

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
    pair.over_differ()
    return compared


def sealed_compared(pair: Twins, skip: int) -> int:
    """Play both games alike, order for order, until the ``skip``-th stage after which the
    hiding seat owes an order while the observer still owes his own; there the hiding seat
    gives its computer's order in one game and that order's twin (``Twin.order``) in the
    other. The observer, whose own order is still to come, is shown the very same views,
    records, status polls, pages, PDFs and refusals; the hiding seat sees its own orders
    differ; once it resigns, both see them. The comparisons made: 1, or 0 if no such stage
    came before the end."""
    one, two = pair.tables
    hider, observer = pair.hider, pair.observer
    made: list[dict] = []
    seen = 0
    for _ in range(MAX_STAGES):
        owing = one.owing()
        if not owing:
            return 0
        assert two.owing() == owing
        seat = owing[0]
        view = one.view(seat)
        move = one.computer(seat).move(copy.deepcopy(view))
        if seat == hider and observer in owing:
            other = pair.twin.order(copy.deepcopy(view), copy.deepcopy(move))
            if other is not None and other != move and seen == skip:
                break
            seen += 1
        for table in pair.tables:
            status, report, _ = table.call(seat, "POST", "/moves", move)
            assert status == 201, (one.rules, move, report)
        if seat == observer:
            made.append(move)
    else:
        return 0
    for table, order in ((one, move), (two, other)):
        status, report, _ = table.call(hider, "POST", "/moves", order)
        assert status == 201, (one.rules, order, report)
    assert observer in one.owing() and observer in two.owing(), "the observer still owes"
    pair.alike(paper=True)
    for junk in MALFORMED[:2]:
        pair.refusals_alike(junk)
    for earlier in made:  # an order of his the rules refuse now (an earlier stage's)
        if refused_on_a_copy(pair.apps[0], one, observer, earlier):
            pair.refusals_alike(earlier)
    hidden = [c.mask(json.dumps(t.view(hider))) for t, c in zip(pair.tables, pair.chances,
                                                                  strict=True)]
    assert hidden[0] != hidden[1], "the hiding seat's own views show its orders differ"
    for table in pair.tables:
        status, body, _ = table.call(hider, "POST", "/resign")
        assert status == 200, body
    pair.over_differ()
    return 1


# -- game files -----------------------------------------------------------------------------

def finished(app, rules: str, moves: int = 4):
    """A game played a few moves by the computers, then resigned by the seat to move."""
    table = join_all(api_of(app), rules)
    lock_in(table)
    for _ in range(moves):
        if table.turn() is None:
            break
        status, report = table.move()
        assert status == 201, report
    if table.turn() is not None:
        status, body, _ = table.call(table.turn(), "POST", "/resign")
        assert status == 200, body
    return table


def test_a_finished_games_file_imports_on_another_referee_and_replays_to_the_same_result(
        rules, app, tmp_path):
    """A game file is refused before the end; once it is over, its file imports on another
    referee, which replays it to the same result, log and views (its own id aside), and a
    second import of it there is refused as the same game."""
    table = join_all(api_of(app), rules)
    lock_in(table)
    seat = next(iter(table.tokens))
    status, body, _ = table.call(seat, "GET", "/export")
    assert status == 409 and body["errors"][0]["rule"] == rulesets.named(rules).secrecy_rule
    table = finished(app, rules)
    status, document, _ = table.call(seat, "GET", "/export")
    assert status == 200 and document["rules"] == rules, document
    elsewhere = api_of(make_app(tmp_path / "elsewhere"))
    status, imported, _ = elsewhere.call("POST", "/api/v1/games/import", document)
    assert status == 201, imported
    for who, held in imported["seats"].items():
        status, view, _ = elsewhere.call("GET", f"/api/v1/games/{imported['id']}",
                                         token=held["token"])
        assert status == 200
        original = table.view(who)
        assert json.dumps(view).replace(imported["id"], table.id) == json.dumps(original)
    status, again, _ = elsewhere.call("GET", f"/api/v1/games/{imported['id']}/export",
                                      token=imported["seats"][seat]["token"])
    assert status == 200 and again["result"] == document["result"]
    assert again["events"][1:] == document["events"][1:]
    assert {**again["events"][0], "id": table.id} == document["events"][0]
    status, twice, _ = elsewhere.call("POST", "/api/v1/games/import", document)
    assert status == 409, twice


# -- the computers -----------------------------------------------------------------------------

def test_every_computer_level_moves_legally_from_its_own_view(rules):
    """Every level plays whole games at the core against the weakest (and, from the other
    seat, against itself) from its own seat's view alone: every disposition and move it makes
    is one the rules take, and it never falls back on the weakest level's."""
    rule_set = rulesets.named(rules)
    weakest = level(rules, 0)
    for n, chosen in enumerate(rule_set.levels):
        for seed, levels in ((n, (chosen, weakest)), (100 + n, (weakest, chosen))):
            game, computers = core_game(rules, levels, seed)
            play_out(rules, game, computers)
            assert rule_set.status_view(game)["phase"] == "over"


# -- the life every game shares ------------------------------------------------------------------

def in_play(app, rules: str, **options):
    table = join_all(api_of(app), rules, **options)
    lock_in(table)
    return table


def test_a_seat_that_never_locks_in_is_forfeited_once_the_disposition_clock_runs_out(
        rules, app, clock):
    table = join_all(api_of(app), rules, disposition_minutes=2)
    ready, late = list(table.tokens)
    document = table.computer(ready).disposition(table.view(ready))
    assert table.call(ready, "PUT", "/disposition", document)[0] == 200
    assert table.call(ready, "POST", "/ready")[0] == 200
    status, body, _ = table.host("POST", f"/seats/{late}/forfeit")
    assert status == 409 and body["errors"][0]["rule"] == "R10", body  # the clock runs
    clock.advance(3)
    status, body, _ = table.call(late, "POST", "/ready")
    assert status == 409, body  # nothing to lock in
    status, body, _ = table.host("POST", f"/seats/{late}/forfeit")
    assert status == 200, body
    view = table.view(ready)
    assert view["phase"] == "over" and view["seats"][late]["forfeited"]
    assert view["result"]["reason"] == "forfeit" and view["result"]["winners"] == [ready]


def test_the_computer_stands_in_for_a_seat_whose_move_clock_ran_out_until_it_moves_itself(
        rules, app, clock):
    for _ in range(10):  # a game not ended by the moves on the way (a short game may end)
        if stand_in_and_back(app, rules, clock):
            return
    raise AssertionError(f"{rules}: ten games ended before the stand-in's seat moved again")


def stand_in_and_back(app, rules: str, clock) -> bool:
    table = in_play(app, rules, move_minutes=2)
    absent = table.turn()
    other = opponent(table, absent)
    status, body, _ = table.call(other, "POST", f"/seats/{absent}/stand-in")
    assert status == 409 and body["errors"][0]["rule"] == "R25", body  # his clock runs
    clock.advance(3)  # his move clock ran out, and his phone has not asked since
    status, body, _ = table.call(other, "POST", f"/seats/{absent}/stand-in")
    assert status == 200, body
    view = table.view(other)  # the computer moved for him at once: he is away
    assert len(view["reports"]) == 1 and view["reports"][-1].get("stand_in") is True
    assert view["seats"][absent]["stand_in"], view["seats"]
    if view["phase"] != "play":
        return False
    assert view["turn"] == other
    # he is back: his phone asks before his next turn comes (were it only the table's own
    # look at whose turn it is, his presence would hang on which seat's token looks)
    table.view(absent)
    status, report = table.move()
    assert status == 201, report
    if table.turn() != absent:
        return False  # a move that keeps the turn (a hit in the TCG)
    assert table.view(absent)["turn"] == absent  # the computer waits for him
    status, report = table.move()
    assert status == 201 and not report.get("stand_in"), report
    assert not table.view(other)["seats"][absent]["stand_in"]
    return True


def test_resigning_ends_the_game_and_the_other_side_wins(rules, app):
    table = in_play(app, rules)
    quitter = table.turn()
    other = opponent(table, quitter)
    status, view, _ = table.call(quitter, "POST", "/resign")
    assert status == 200 and view["phase"] == "over", view
    assert view["result"]["reason"] == "resigned" and view["result"]["winners"] == [other]
    seat, move = table.next_move() if table.turn() else (other, {})
    status, body, _ = table.call(other, "POST", "/moves", move)
    assert status == 409, body


def test_agreeing_to_end_takes_every_seat_and_playing_on_lets_the_offer_lapse(rules, app):
    """An offer to end lapses when another plays on; the game ends when every seat agrees,
    a draw unless the rule set declares an agreed end decided by the scores."""
    table = in_play(app, rules)
    for _ in range(2):  # a move or two, so that the scores may differ
        if table.turn() is not None:
            assert table.move()[0] == 201
    if table.turn() is None:
        return
    first, second = list(table.tokens)
    status, view, _ = table.call(first, "POST", "/end")
    assert status == 200 and view["phase"] == "play", view
    status, view, _ = table.call(second, "POST", "/play-on")
    assert status == 200 and view["phase"] == "play", view
    status, body, _ = table.call(first, "POST", "/play-on")
    assert status == 409, body  # his own offer lapsed: nothing to decline
    for seat in (first, second):
        status, view, _ = table.call(seat, "POST", "/end")
        assert status == 200, view
    result = view["result"]
    assert view["phase"] == "over" and result["reason"] == "agreed"
    top = max(side["score"] for side in result["sides"])
    leaders = [side["seats"] for side in result["sides"] if side["score"] == top]
    if rulesets.named(rules).agreed_end_scored and len(leaders) == 1:  # won on the scores
        assert result["winners"] == leaders[0], result
    else:  # a draw
        assert result["winners"] == [] and result["winner"] is None, result


def test_the_disposition_clock_and_the_move_clock_run_and_the_host_gives_more_minutes(
        rules, app, clock):
    table = join_all(api_of(app), rules, disposition_minutes=7, move_minutes=3)
    seat = next(iter(table.tokens))
    assert table.view(seat)["clock"]["deadline"] == clock.now + 7 * 60
    status, host, _ = table.host("POST", "/clock", {"minutes": 5})
    assert status == 200 and host["clock"]["deadline"] == clock.now + 12 * 60, host
    assert table.view(seat)["clock"]["deadline"] == clock.now + 12 * 60
    clock.advance(1)
    lock_in(table)
    running = table.view(seat)["move_clock"]
    assert running["minutes"] == 3 and running["seat"] == table.turn()
    assert running["deadline"] == running["began"] + 180 == clock.now + 180
    status, body, _ = table.host("POST", "/clock", {"minutes": 5})
    assert status == 409 and body["errors"][0]["rule"] == "R10", body  # only before play
    clock.advance(2)
    mover = table.turn()
    before = table.view(seat)["move_clock"]
    owed = before.get("owing") or {mover: before}  # each owing seat's clock (sealed orders)
    status, report = table.move()
    assert status == 201, report
    if table.turn() is not None:
        running = table.view(seat)["move_clock"]
        owing = table.turn()
        assert running["seat"] == owing
        if "owing" not in running:  # a game of turns: the turn passes, its clock starts
            assert owing != mover and running["began"] == clock.now
        elif owing == mover or owing not in owed:  # it owes anew: its clock starts now
            assert running["began"] == clock.now
        else:  # it still owes the order it owed: its clock runs on
            assert running["began"] == owed[owing]["began"] < clock.now


# -- every page and PDF ----------------------------------------------------------------------------

KNOWN_ARGUMENTS = {"game_id", "seat", "target"}


def pages_of(app) -> list[str]:
    """Every GET route of the app but the static files', its arguments filled in as
    templates ("{g}" the game, "{s}" a seat, "{o}" the other seat)."""
    paths = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint.endswith("static"):
            continue
        unknown = set(rule.arguments) - KNOWN_ARGUMENTS
        assert not unknown, f"{rule.rule}: a route argument this test cannot fill: {unknown}"
        paths.append(rule.rule.replace("<game_id>", "{g}").replace("<seat>", "{s}")
                     .replace("<target>", "{o}"))
    return sorted(paths)


def test_every_page_and_pdf_route_answers_in_every_phase_without_a_500(rules, app):
    """Every GET route, asked in setup, in play and at the end by a seat's phone (its
    cookie) and with its bearer token, answers below 500; the seat's own page is there in
    every phase, its charts and record PDFs from play on, its post-mortem and its PDF once
    the game is over and refused before. The home page creates a game of these rules and
    plays its computer."""
    table = join_all(api_of(app), rules)
    seat, other = list(table.tokens)
    phone = Phone(app, table.id, table.tokens[seat])
    paths = pages_of(app)
    secrecy = rulesets.named(rules).secrecy_rule
    assert "/games/{g}" in paths and "/api/v1/games/{g}/charts.pdf" in paths

    def sweep(phase: str) -> None:
        for path in paths:
            url = path.format(g=table.id, s=seat, o=other) + f"?rules={rules}"
            for answer in (phone.get(url), phone.client.get(url, headers={
                    "Authorization": f"Bearer {table.tokens[seat]}"})):
                assert answer.status_code < 500, (rules, phase, url, answer.status_code)
        expected = {"/games/{g}": 200, "/games/{g}/postmortem": 200 if phase == "over" else 409,
                    "/api/v1/games/{g}/postmortem.pdf": 200 if phase == "over" else 409}
        if phase != "setup":
            expected.update({"/api/v1/games/{g}/charts.pdf": 200,
                             "/api/v1/games/{g}/record.pdf": 200})
        for path, status in expected.items():
            answer = phone.get(path)
            assert answer.status_code == status, (rules, phase, path)
            if path.endswith(".pdf") and status == 409:  # the ruling that keeps it secret
                assert answer.get_json()["errors"][0]["rule"] == secrecy, (rules, path)

    sweep("setup")
    lock_in(table)
    assert table.move()[0] == 201
    # a first move may end a game (Hidden Number's lucky first guess): sweep as it stands
    sweep("play" if table.turn() is not None else "over")
    if table.turn() is not None:
        assert table.call(table.turn(), "POST", "/resign")[0] == 200
    sweep("over")
    assert phone.get("/club").status_code == 200
    home = Phone(app, table.id, table.tokens[seat])
    csrf = Page(home.get("/").get_data(as_text=True)).meta_csrf()
    made = home.client.post("/", data={"csrf_token": csrf, "name": "Ann", "rules": rules,
                                       "seats": "2", "minutes": "20", "move_minutes": ""})
    assert made.status_code == 302, made.get_data(as_text=True)[:300]
    assert home.client.get(made.headers["Location"]).status_code == 200  # the host page
    played = home.client.post("/play-computer", data={
        "csrf_token": csrf, "player": "Ann", "rules": rules,
        "level": f"{rules}:{level(rules, 0)}"})
    assert played.status_code == 302, played.get_data(as_text=True)[:300]
    page = home.client.get(played.headers["Location"])
    assert page.status_code == 200 and rulesets.named(rules).title in page.get_data(as_text=True)


# -- what every game's pages say alike, each in its own words ---------------------------------

def test_the_join_page_says_the_order_of_play_in_its_games_own_words(rules, app):
    """The shared join page names no game: the order of play comes in the words of the game
    the link is for (Broadside's Red always moves first, B5; the others toss or draw)."""
    status, created, _ = api_of(app).call("POST", "/api/v1/games", {"rules": rules})
    assert status == 201, created
    seat = list(created["seats"])[1]
    link = created["seats"][seat]["join_url"].removeprefix("http://localhost")
    page = app.test_client().get(link).text
    said = re.sub(r"<[^>]+>", "", re.search(r'<p class="order-of-play"[^>]*>(.*?)</p>', page,
                                            re.S).group(1))
    every = {part.rules: part.words for part in app.extensions["referee.web_parts"].values()}
    assert said.startswith(every[rules].order + ":") or said == every[rules].order_unknown, said
    for other, words in every.items():
        if words.order != every[rules].order:
            assert words.order not in said, (rules, other)


def test_an_empty_move_record_is_said_not_numbered(rules, app):
    """Before the first move the page's record says there is none, in words, not as a
    numbered list whose one line reads "1. No moves yet"."""
    table = join_all(api_of(app), rules)
    lock_in(table)
    seat = next(iter(table.tokens))
    assert table.view(seat)["phase"] == "play" and not table.view(seat)["reports"]
    html = Phone(app, table.id, table.tokens[seat]).get("/games/{g}").text
    lists = re.findall(r'<ol class="log"[^>]*>(.*?)</ol>', html, re.S)
    assert not any(re.match(r"\s*<li[^>]*>\s*No\b", items) for items in lists), rules
    assert lists or 'class="hint log-empty"' in html, rules  # what came before play, or words
