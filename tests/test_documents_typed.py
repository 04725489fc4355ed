"""Types at the boundaries: the TypedDicts of ``referee/naval_war/documents.py`` are the documents
themselves. Real games (a three-seat free-for-all with a reissued seat, a clock extension, a
stand-in, an offer to end declined, and a resignation; a game with a forfeit; a game played to its
end through the API) give their events, reports and views, and each must carry exactly the keys its
type declares, recursively; every key a type declares must turn up in some document, so the types
can neither miss a key nor keep a dead one.

Also: ``Game.outcome`` is a frozen ``Outcome`` whose ``to_json`` is the view's ``result``, and
``check_disposition`` names its parts.
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from collections import defaultdict
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest
from apiclient import TableGame, lock_in_random_fleets, play_random_game
from boarding_support import in_play, order, place, plots
from helpers import ATTACKER, QUIET, joined_game, random_move

from referee import rulesets
from referee.battleship_tcg import documents as battleship_tcg_documents
from referee.broadside import documents as broadside_documents
from referee.broadsides_boarding import documents as boarding_documents
from referee.common.documents import SealedHostView
from referee.common.outcome import Outcome
from referee.naval_war import check_disposition, documents, views
from referee.naval_war.documents import EVENTS
from referee.naval_war.game import new_game

SEEN: dict[type, set[str]] = defaultdict(set)  # the keys each TypedDict was seen with


def problems_of(value: object, hint: object, path: str = "$") -> list[str]:
    """Where ``value`` differs from the type ``hint``: missing or undeclared keys of a
    TypedDict, and values of the wrong kind."""
    if hint is Any:
        return []
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not an object ({hint.__name__})"]
        declared = get_type_hints(hint)
        found = [f"{path}: {hint.__name__} lacks {key!r}"
                 for key in sorted(hint.__required_keys__ - value.keys())]
        found += [f"{path}: {key!r} is not a key of {hint.__name__}"
                  for key in sorted(value.keys() - declared.keys())]
        SEEN[hint] |= value.keys() & declared.keys()
        for key in sorted(value.keys() & declared.keys()):
            found += problems_of(value[key], declared[key], f"{path}.{key}")
        return found
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):
        tries = [problems_of(value, alternative, path) for alternative in args]
        return [] if any(not t for t in tries) else min(tries, key=len)
    if origin is Literal:
        return [] if value in args else [f"{path}: {value!r} is not one of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{path}: {type(value).__name__}, not a list"]
        return [p for i, item in enumerate(value) for p in problems_of(item, args[0],
                                                                     f"{path}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{path}: {type(value).__name__}, not an object"]
        return [p for key, item in value.items()
                for p in problems_of(key, args[0], f"{path} key") +
                problems_of(item, args[1], f"{path}.{key}")]
    if hint is type(None):
        return [] if value is None else [f"{path}: {value!r} is not null"]
    if hint is float:  # JSON's numbers: an int is a float too
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, hint)  # type: ignore[arg-type]
    return [] if ok else [f"{path}: {value!r} is not {getattr(hint, '__name__', hint)}"]


def check(value: object, hint: object, where: str) -> None:
    found = problems_of(value, hint, where)
    assert not found, "\n".join(found[:20])


def check_event(event: dict, where: str) -> None:
    assert event["type"] in EVENTS, event
    check(event, EVENTS[event["type"]], f"{where} ({event['type']})")


def check_seat_documents(game, where: str) -> None:
    """Every document the core gives about ``game`` at this moment, checked."""
    for seat in game.seats:
        check(views.view_for(game, seat), documents.View, f"{where}: view of {seat}")
        check(views.record_for(game, seat), documents.MoveRecord, f"{where}: record of {seat}")
    check(views.seating_for(game), documents.Seating, f"{where}: seating")
    check(views.status_view(game), documents.StatusView, f"{where}: status")
    check(views.host_view(game), documents.HostView, f"{where}: host view")
    for i, report in enumerate(game.reports):
        check(report, documents.Report, f"{where}: report {i + 1}")
    for i, event in enumerate(game.events):
        check_event(event, f"{where}: event {i + 1}")
    if game.phase == "over":
        for seat in game.seats:
            check(views.postmortem_view(game, seat), documents.PostmortemView,
                  f"{where}: post-mortem of {seat}")
        check(views.game_file_view(game), documents.GameFile, f"{where}: game file")
        check(game.outcome().to_json(), documents.ResultDocument, f"{where}: result")


def three_seat_game():
    """A free-for-all of three with every kind of event but the forfeit; checked as it goes."""
    game, _ = new_game(id="g", seats=3, seed=5, move_minutes=3)
    for seat in game.seats:
        game.join(seat, seat.title())
    game.reissue("green")  # R24: a new join code; the seat is free again
    game.join("green", "Cy")
    game.extend_clock(5)
    made = game.submit("red", ATTACKER)
    check(made.cost, documents.CostDocument, "submit's cost")
    for seat in ("blue", "green"):
        game.submit(seat, ATTACKER)
    check_seat_documents(game, "setup")
    for seat in game.seats:
        game.lock_in(seat, salt=f"salt-{seat}")
    rng = random.Random(13)
    for _ in range(24):
        game.move(game.turn, random_move(game, rng))
    check_seat_documents(game, "play")
    absent = game.turn
    game.choose_stand_in_level("admiral")  # R25: the host's choice, an event
    game.stand_in(absent, by=game.opponents(absent)[0])  # R25
    game.move(absent, random_move(game, rng), stand_in=True)
    game.agree_to_end(game.turn)
    game.play_on(next(s for s in game.active if s not in game.agreed))
    game.move(game.turn, random_move(game, rng))
    game.resign(game.turn)
    return game


def check_a_whole_game() -> None:
    """The three-seat game's documents at its end, and a third player's copy of a report."""
    game = three_seat_game()
    assert game.phase == "over"
    check_seat_documents(game, "over")
    kinds = {event["type"] for event in game.events}
    assert kinds == set(EVENTS) - {"forfeit"}, kinds
    assert any(r.get("stand_in") for r in game.reports)
    withheld = [r for r in views.view_for(three_seat_game_in_play(), "red")["reports"]
                if r.get("withheld")]
    assert withheld, "a third player's copy (R20) was not seen"


def test_types_every_document_of_a_real_game_has_its_type_s_keys():
    check_a_whole_game()


def three_seat_game_in_play():
    game, _ = new_game(id="h", seats=3, seed=2)
    for seat in game.seats:
        game.join(seat, seat.title())
        game.submit(seat, QUIET)
    for seat in game.seats:
        game.lock_in(seat)
    rng = random.Random(3)
    for _ in range(6):
        game.move(game.turn, random_move(game, rng))
    check_seat_documents(game, "three in play")
    return game


def check_a_forfeit() -> None:
    game = joined_game(seats=3)
    for seat in ("red", "blue"):
        game.submit(seat, QUIET)
        game.lock_in(seat)
    game.forfeit("green", 20 * 60)
    assert game.phase == "play"
    check_seat_documents(game, "after a forfeit")
    game.resign(game.turn)
    check_seat_documents(game, "resigned after a forfeit")


def test_types_a_forfeit_and_its_documents():
    check_a_forfeit()


def table_with_move_clock(api, rules: str | None = None) -> TableGame:
    """Two seats joined through the API, with a move clock (R25); a game of ``rules``, or of
    the default rule set."""
    options = {"seats": 2, "move_minutes": 5, **({"rules": rules} if rules else {})}
    status, created, _ = api.call("POST", "/api/v1/games", options)
    assert status == 201, created
    tokens = {}
    for seat, info in created["seats"].items():
        status, data, _ = api.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                   {"join_code": info["join_code"], "name": seat.title()})
        assert status == 200, data
        tokens[seat] = data["token"]
    return TableGame(api, created["id"], created["host_token"], tokens)


def check_what_the_server_serves(api) -> None:
    table = table_with_move_clock(api)
    status, host, _ = api.call("GET", table.path("/host"), token=table.host_token)
    assert status == 200, host
    check(host, documents.HostStatus, "host status in setup")
    lock_in_random_fleets(table, random.Random(4))
    status, served, _ = table.as_seat("red", "GET")
    check(served, documents.ServedView, "served view in play")
    final = play_random_game(table, random.Random(4))
    check(final, documents.ServedView, "served view at the end")
    status, host, _ = api.call("GET", table.path("/host"), token=table.host_token)
    check(host, documents.HostStatus, "host status at the end")
    status, exported, _ = table.as_seat("red", "GET", "/export")
    assert status == 200, exported
    check(exported, documents.ExportedGame, "export")


def test_types_what_the_server_serves_has_its_type_s_keys(api):
    check_what_the_server_serves(api)


def test_types_every_declared_key_turns_up_in_some_document(api):
    SEEN.clear()  # what these documents show, whichever tests ran before
    check_a_whole_game()
    check_a_forfeit()
    check_what_the_server_serves(api)
    dead = {hint.__name__: sorted(get_type_hints(hint).keys() - keys)
            for hint, keys in SEEN.items() if get_type_hints(hint).keys() - keys}
    assert not dead, f"keys declared but never seen in a real document: {dead}"
    checked = {hint.__name__ for hint in SEEN}
    every = {name for name, value in vars(documents).items() if is_typeddict(value)}
    assert every <= checked, f"types no test document was checked against: {every - checked}"


def test_types_result_is_frozen_and_its_json_is_the_view_s():
    game = three_seat_game()
    result = game.outcome()
    assert isinstance(result, Outcome)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.reason = "agreed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        result.scores["red"] = 99  # type: ignore[index]
    assert views.view_for(game, "red")["result"] == result.to_json()
    assert result.to_json()["winner"] == result.winner
    assert list(result.to_json()) == ["scores", "winner", "winners", "sides", "reason"]


def test_types_check_disposition_names_its_parts():
    checked = check_disposition(QUIET)
    assert checked.fleet.document["salvoes"] == 60
    assert checked.cost.total == 120 and [w.rule for w in checked.warnings] == ["R4"]
    fleet, cost, warnings = checked  # still unpacks, for the callers that do
    assert (fleet, cost, warnings) == tuple(checked)


def test_types_the_core_is_annotated_with_the_documents():
    hints = {name: typing.get_type_hints(getattr(views, name))["return"]
             for name in ("view_for", "record_for", "seating_for", "status_view", "host_view",
                          "postmortem_view", "game_file_view", "report_for")}
    assert hints == {"view_for": documents.View, "record_for": documents.MoveRecord,
                     "seating_for": documents.Seating, "status_view": documents.StatusView,
                     "host_view": documents.HostView,
                     "postmortem_view": documents.PostmortemView,
                     "game_file_view": documents.GameFile,
                     "report_for": documents.SeatReport}


# -- every other rule set's documents against its own types ------------------------------------

# each rule set's documents module, and what its documents are checked against
OTHER_DOCUMENTS = {
    "battleship-tcg": battleship_tcg_documents,
    "broadside": broadside_documents,
    "broadsides-boarding": boarding_documents,
}
# a Broadside pass (B5) needs a side left with no legal move, which no played game here reaches;
# its one key is checked where a pass is offered (``legal``) or made, if ever
NEVER_REACHED = {"Pass"}


def played_with_computers(rules: str, seed: int):
    """A game of ``rules`` between its computers (resigned after 150 moves, if it lasts), every
    document checked as it goes: in setup, every 25 moves, and at the end."""
    rule_set = rulesets.named(rules)
    module = OTHER_DOCUMENTS[rules]
    game, _ = rule_set.new_game(id=f"g{seed}", seed=seed, at=0.0, options={"move_minutes": 5},
                                bots={})
    if rule_set.rolls_dice:  # the referee commits to its dice as it creates the game (BB24)
        game.commit_dice(f"types:{seed}")
    level = list(rule_set.levels)[0]  # the simplest: the quickest to play a whole game
    computers = {seat: rule_set.computer(level, seed) for seat in rule_set.seats}
    for seat in rule_set.seats:
        game.join(seat, seat.title())
    check_documents_of(rule_set, module, game, "setup")
    for seat in rule_set.seats:
        game.submit(seat, computers[seat].disposition(rule_set.view_for(game, seat)))
        game.lock_in(seat)
    for n in range(150):
        status = rule_set.status_view(game)
        if status["phase"] != "play":
            break
        seat = status["turn"]
        handed = n == 3  # R25: an opponent hands the seat whose clock ran out to the computer
        if handed:
            game.stand_in(seat, by=next(s for s in rule_set.seats if s != seat))
        game.move(seat, computers[seat].move(rule_set.view_for(game, seat)), stand_in=handed)
        if n % 25 == 0:
            check_documents_of(rule_set, module, game, f"move {n}")
    status = rule_set.status_view(game)
    if status["phase"] != "over":  # long enough for every kind of report: the player resigns
        game.resign(status["turn"])
    check_documents_of(rule_set, module, game, "over")
    return game


def check_documents_of(rule_set, module, game, where: str) -> None:
    seating = getattr(module, "TcgSeating", documents.Seating)
    check(rule_set.seating(game), seating, f"{where}: seating")
    check(rule_set.status_view(game), documents.StatusView, f"{where}: status")
    host_view = SealedHostView if rule_set.game_type.SIMULTANEOUS else documents.HostView
    check(rule_set.host_view(game), host_view, f"{where}: host view")
    for seat in rule_set.seats:
        view = rule_set.view_for(game, seat)
        check(view, module.View, f"{where}: view of {seat}")
        check(rule_set.record_for(game, seat), module.MoveRecord, f"{where}: record of {seat}")
        legal = view.get("legal")  # every legal move; or, where orders are sealed, a
        for i, move in enumerate(legal if isinstance(legal, list) else []):  # description
            check(move, module.Move, f"{where}: {seat}'s legal move {i + 1}")
    for i, report in enumerate(game.reports):
        check(report, module.Report, f"{where}: report {i + 1}")
    for event in game.events:
        if event["type"] == "disposition":
            check(event["disposition"], module.Disposition, f"{where}: a disposition event")
        if event["type"] == "move":
            check(event["move"], module.Move, f"{where}: a move event")
    if game.phase == "over":
        check(game.outcome().to_json(), documents.ResultDocument, f"{where}: result")
        assert game.outcome().reason in get_args(module.EndReason)


@pytest.mark.parametrize("rules", OTHER_DOCUMENTS)
def test_types_every_rule_sets_documents_have_their_types_keys_both_ways(rules, api):
    """Each rule set's documents (views, records, reports, seating, dispositions and moves of
    its log, and the view the server serves) carry exactly the keys its documents module
    declares, and every key it declares turns up in some real document: whole games between
    its computers, and a game through the API."""
    SEEN.clear()
    for seed in (1, 2):
        played_with_computers(rules, seed)
    module = OTHER_DOCUMENTS[rules]
    if rules in SCENES:  # what its computers' games may not reach
        SCENES[rules](rulesets.named(rules), module)
    table = table_with_move_clock(api, rules)
    for seat in table.tokens:
        status, served, _ = table.as_seat(seat, "GET")
        assert status == 200, served
        check(served, module.ServedView, f"the view the server serves {seat}")
    own = {value for value in vars(module).values()
           if is_typeddict(value) and value.__module__ == module.__name__
           and value.__name__ not in NEVER_REACHED}
    dead = {hint.__name__: sorted(own_keys(hint, own) - SEEN.get(hint, set()))
            for hint in own if own_keys(hint, own) - SEEN.get(hint, set())}
    assert not dead, f"keys declared but never seen in a real document: {dead}"


def boarding_scenes(rule_set, module) -> None:
    """Broadsides and Boarding Parties' orders and stages its computers seldom reach, each
    checked as it comes: standing orders (BB10), a Captain lost and a crewmember promoted
    (BB7), a boarding turn owed and the Captain moved in it (BB21)."""
    stay = ["stay"] * 3
    game = in_play(blue="D3")  # Blue's Captain on a cannon's cell of his port rail
    place(game, red=("F 6", "N"), blue=("G 6", "N"))
    plots(game, stay, stay)  # card 1: a volley
    order(game, "red", {"targets": dict.fromkeys(game.bearing["red"], "D")})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])},
          rolls=[3, 1, 1, 1, 1])  # Red's B5 rolls 3 at D: D3 and Blue's Captain gone
    game.move("red", {"standing": True})  # card 2's volley: Red's standing orders
    check_documents_of(rule_set, module, game, "standing orders given")
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])})
    while game.round == 1:  # card 3's volley, if the ships still lie within a dot
        for seat in game.owes:
            order(game, seat, {"targets": dict.fromkeys(game.bearing[seat])})
    place(game, red=("A 1", "N"))  # out of the way: no volley this round
    order(game, "red", {"cards": stay})  # Blue cannot plot (BB7), then promotes
    assert game.owed == {"blue": "promotion"}, game.owed
    check_documents_of(rule_set, module, game, "a promotion owed")
    game.move("blue", {"promote": sorted(game.crews["blue"].crew)[0]})
    check_documents_of(rule_set, module, game, "promoted")

    game = in_play(red="H4", blue="H4")
    place(game, red=("E 4", "E"), blue=("G 4", "W"))
    plots(game, ["forward", "stay", "stay"], ["forward", "stay", "stay"], [5, 5])  # collided
    order(game, "red", {"targets": dict.fromkeys(game.bearing["red"])})
    order(game, "blue", {"targets": dict.fromkeys(game.bearing["blue"])}, rolls=[6, 1])
    assert game.owed == {"red": "boarding"}, game.owed
    check_documents_of(rule_set, module, game, "a boarding turn owed")
    game.move("red", {"moves": [{"from": "H4", "to": "H3", "captain": True},
                                {"from": "H3", "to": "G3", "captain": True},
                                {"from": "G3", "to": "G4", "captain": True}]})
    check_documents_of(rule_set, module, game, "the Captain moved")


# each rule set's games made to reach what its computers' games may not
SCENES = {"broadsides-boarding": boarding_scenes}


def own_keys(hint, types) -> set[str]:
    """The keys a TypedDict declares itself, not those of another of ``types`` it extends
    (checked as that one's): a served view's ``move_clock``, not the view's ``revealed``."""
    declared = get_type_hints(hint).items()
    inherited = {key for other in types if other is not hint
                 and get_type_hints(other).items() <= declared
                 for key in get_type_hints(other)}
    return {key for key, _ in declared} - inherited
