"""R21 on the pages: whole games played through the phone pages, every body each seat's phone
received before the end scanned for a square of an opponent's chart it was not yet told.

A seat is told (R17, R20) the squares of every move it makes or receives, and the area an
R.P. or bomber reached; with three players, nothing of a move between two others. Each body is
judged by what the seat had been told when it arrived. The fleets lie on different squares,
so an opponent's square named on a seat's page can only be a leak. The scanner is checked
against injected leaks and against the game-over pages, which reveal everything (R21) and so
must trip it.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

import pytest
from pages_support import (
    FLEETS,
    PURCHASE,
    Page,
    area_names,
    fleet_squares,
    make_app,
    move,
    open_table,
    page_static,
    page_templates,
    set_up,
    squares_named,
    strip_fleet,
)

RADIUS = {"atom-bomber": 2, "bomber": 1, "recon": 1}
OVER = re.compile(r'data-page="over"|"phase":\s*"over"')
# squares the templates and the script name as fixed text ("e.g. K 10"), shown to everyone
FIXED_TEXT = set().union(*(squares_named(p.read_text()) for p in [
    *page_templates(), *page_static(".js", ".css")]))


@dataclass
class Played:
    by: str
    target: str
    weapon: str
    at: list[str]
    shot_down: bool


@dataclass
class Game:
    table: object
    fleets: dict[str, dict]
    played: list[Played]


def told(seat: str, played: list[Played]) -> set[str]:
    """The squares a seat was told about by these moves, made or received (R17, R20): where
    each went, with the area an aircraft that was not shot down reached (the attacker learns
    of it; the target's own copy names his own squares there)."""
    squares: set[str] = set()
    for m in played:
        if seat in (m.by, m.target):
            squares.update(m.at)
            if m.weapon in RADIUS and not m.shot_down:
                squares |= area_names(m.at[0], RADIUS[m.weapon])
    return squares


def hidden(seat: str, game: Game, moment: int | None = None) -> set[str]:
    """Squares this seat must not see once ``moment`` moves have been made (all, by default):
    the opponents' pieces and land it has not been told of, and, with three players, where
    any move between two others went."""
    secret = set().union(*(fleet_squares(doc) for s, doc in game.fleets.items() if s != seat))
    for m in game.played:
        if seat not in (m.by, m.target):
            secret.update(m.at)
            if m.weapon in RADIUS:
                secret |= area_names(m.at[0], RADIUS[m.weapon])
    known = told(seat, game.played[:moment])
    return secret - known - fleet_squares(game.fleets[seat]) - FIXED_TEXT


def written_in(document: dict) -> set[str]:
    """The squares a disposition document itself writes: what a leaked copy would name."""
    return (set(document["land"]) | {s["at"] for s in document["ships"]}
            | {a["at"] for a in document["aircraft"]} | set(document["guns"]))


def before_end(phone) -> list[tuple[str, str, int]]:
    """Every body the phone received before the game ended, with the moves made by then."""
    kept = []
    for (where, body), moment in zip(phone.bodies, phone.stamps, strict=True):
        if OVER.search(body):
            break
        kept.append((where, body, moment))
    return kept


def leaks(seat: str, game: Game, bodies: list[tuple[str, str, int]]
          ) -> list[tuple[str, int, list[str]]]:
    """Each body naming a square the seat had not been told of when it received it."""
    secrets = {}
    found = []
    for where, body, moment in bodies:
        if moment not in secrets:
            secrets[moment] = hidden(seat, game, moment)
        named = squares_named(body) & secrets[moment]
        if named:
            found.append((where, moment, sorted(named)))
    return found


def choose(view: dict, fleets: dict, rng: random.Random) -> tuple[str, str, list[str], str]:
    """A legal move from the seat's own view; aimed, half the time, at a piece (the test
    knows every fleet, the seat does not) so that hits, sightings and shoot-downs happen."""
    you = view["you"]
    gone = set(view["damage"]["flown"]) | set(view["damage"]["destroyed"])
    planes = [a for a in view["disposition"]["aircraft"] if a["at"] not in gone]
    opponents = [s for s in view["seats"] if s != you and not view["seats"][s]["forfeited"]]
    target = rng.choice(opponents)
    pieces = sorted(fleet_squares(fleets[target]))

    def square() -> str:
        if rng.random() < 0.4:
            return rng.choice(pieces)
        return f"{'ABCDEFGHIJKLMNOPQRSTU'[rng.randrange(21)]} {rng.randrange(1, 22)}"

    if planes and (not view["forces"]["salvo"] or rng.random() < 0.55):
        plane = rng.choice(planes)
        return plane["type"], plane["at"], [square()], target
    shots: list[str] = []
    while len(shots) < 3:
        s = square()
        if s not in shots:
            shots.append(s)
    return "salvo", "", shots, target


def play(table, fleets: dict, seed: int, *, stop_after: int | None = None) -> Game:
    """Play through the pages until the game ends (or, after ``stop_after`` moves, every
    player agrees to end it); every phone looks at its page and polls between moves."""
    rng = random.Random(seed)
    game = Game(table, fleets, [])
    base = f"/games/{table.id}"
    etags = {}
    while True:
        views = {}
        for seat, phone in table.phones.items():  # each phone polls, then loads its page
            status = phone.get(f"{base}/status", headers={"If-None-Match": etags.get(seat, "")})
            etags[seat] = status.headers["ETag"]
            views[seat] = Page(phone.get(base).text).page_data()["view"]
        first = next(iter(views.values()))
        if first["phase"] == "over":
            return game
        if stop_after is not None and len(game.played) >= stop_after:
            for phone in table.phones.values():
                phone.submit(base, f"{base}/end")
            continue
        seat = first["turn"]
        phone, view = table.phones[seat], views[seat]
        if len(game.played) % 5 == 1:  # what is only for after the end is refused before it
            for tail in ("/postmortem", "/export.json"):
                response = phone.get(base + tail, headers={"Accept": "text/html"})
                assert response.status_code == 409, (tail, response.status_code)
                assert "R21" in response.text
        weapon, frm, at, target = choose(view, fleets, rng)
        if len(game.played) % 9 == 4:  # now and then a slip of the thumb, refused
            refused = move(phone, table.id, "salvo", at[:1] * 2, target=target)
            assert phone.flashes(refused), "a two-shot salvo was accepted"
        page = phone.get(base)
        _, fields = Page(page.text).form(f"{base}/move", base)
        for each in table.phones.values():  # whatever comes back now follows the move
            each.moment = len(game.played) + 1
        response = phone.post(f"{base}/move", data={
            **fields, "weapon": weapon, "base": frm, "at": ", ".join(at), "target": target})
        assert phone.flashes(response) == [], (weapon, frm, at, phone.flashes(response))
        report = Page(response.text).page_data()["view"]["reports"][-1]
        assert report["by"] == seat and report["at"] == at
        game.played.append(Played(seat, target, weapon, at, bool(report["shot_down"])))
        if len(game.played) % 7 == 2:  # and pencil marks where he aimed, which are his alone
            token = Page(response.text).meta_csrf()
            marks = {target: {at[0]: "?"}}
            assert phone.post_json(f"{base}/marks", marks, token=token).status_code == 200


@pytest.fixture(scope="module")
def two_player_game(tmp_path_factory) -> Game:
    app = make_app(tmp_path_factory.mktemp("hidden2"))
    table = open_table(app)
    set_up(table, FLEETS)
    return play(table, FLEETS, seed=21)


THREE = {"red": strip_fleet(0, 10, PURCHASE), "blue": strip_fleet(11, 10, PURCHASE),
         "green": strip_fleet(5, 10, PURCHASE)}


@pytest.fixture(scope="module")
def three_player_game(tmp_path_factory) -> Game:
    app = make_app(tmp_path_factory.mktemp("hidden3"))
    table = open_table(app, seats=3)
    set_up(table, THREE)
    return play(table, THREE, seed=3, stop_after=24)


def test_the_fleets_are_on_different_squares():
    red, blue = fleet_squares(FLEETS["red"]), fleet_squares(FLEETS["blue"])
    assert not red & blue and len(red) > 70 and len(blue) > 70
    assert not (red | blue) & FIXED_TEXT
    assert {"K 10"} == FIXED_TEXT  # the play page's placeholder; a new one is looked at here


def test_a_two_player_game_through_the_pages_shows_no_seat_what_it_was_not_told(
        two_player_game):
    game = two_player_game
    kinds = {m.weapon for m in game.played}
    assert kinds == {"atom-bomber", "bomber", "recon", "salvo"}, kinds
    assert any(m.shot_down for m in game.played)  # the guns' side of R20 was exercised
    assert any(m.weapon == "recon" and not m.shot_down for m in game.played)
    for seat, phone in game.table.phones.items():
        bodies = before_end(phone)
        assert len(bodies) > 150 and set(range(len(game.played))) <= {m for *_, m in bodies}
        assert leaks(seat, game, bodies) == []
        # the scan has teeth: most of what the opponent's disposition writes stays hidden for
        # most of the game, and the seat's pages name many squares (its own, and told ones)
        other = "blue" if seat == "red" else "red"
        middle = hidden(seat, game, len(game.played) // 2)
        assert len(middle & written_in(game.fleets[other])) >= 15
        assert len(set().union(*(squares_named(b) for _, b, _ in bodies))) > 100


def test_the_two_player_game_ends_with_everything_revealed(two_player_game):
    game = two_player_game
    for seat, phone in game.table.phones.items():
        page = phone.get(f"/games/{game.table.id}")
        assert "<h1>Game over</h1>" in page.text
        headline = re.search(r'<p class="headline">(.*?)</p>', page.text).group(1)
        view = Page(page.text).page_data()["view"]
        scores = view["result"]["scores"]
        if view["result"]["winners"]:
            [winner] = view["result"]["winners"]
            loser = next(s for s in scores if s != winner)
            assert headline == (f"{winner.title()} wins by {scores[winner]} points to "
                                f"{scores[loser]}.")
        else:
            assert headline == f"A draw at {scores[seat]} points each."
        other = "blue" if seat == "red" else "red"
        assert view["revealed"][other]["disposition"] == game.fleets[other]
        assert len(view["reports"]) == len(game.played)
        assert all("from" in r for r in view["reports"] if r["weapon"] != "salvo")
        # ... so the scanner, run on the game-over page as if it came before the end, finds
        # every hidden square the opponent's disposition writes
        [(_, _, found)] = leaks(seat, game, [("over", page.text, len(game.played))])
        assert hidden(seat, game) & written_in(game.fleets[other]) <= set(found)


def test_three_players_learn_nothing_of_moves_between_the_other_two(three_player_game):
    game = three_player_game
    pairs = {(m.by, m.target) for m in game.played}
    assert len(pairs) >= 5, pairs  # moves between (nearly) every pair of players
    for seat, phone in game.table.phones.items():
        bodies = before_end(phone)
        assert len(hidden(seat, game)) > 60
        assert leaks(seat, game, bodies) == []
        # a third player's page says of others' moves only who moved against whom (R20)
        last = Page(next(b for _, b, _ in reversed(bodies) if 'id="page-data"' in b))
        for report in last.page_data()["view"]["reports"]:
            if seat not in (report["by"], report["target"]):
                assert report["withheld"] and report["at"] == [] and "from" not in report
                assert report["text"] == (f"{report['by'].title()} made a move against "
                                          f"{report['target'].title()}.")
    assert "<h1>Game over</h1>" in game.table.phones["green"].get(
        f"/games/{game.table.id}").text


def test_the_scanner_catches_an_injected_leak(two_player_game):
    game = two_player_game
    bodies = before_end(game.table.phones["red"])
    square = sorted(hidden("red", game) & written_in(FLEETS["blue"]))[0]
    where, body, moment = bodies[len(bodies) // 2]
    tampered = body.replace("</main>", f"<p>{square}</p></main>") if "</main>" in body \
        else json.dumps({"leak": square, "was": body})
    assert leaks("red", game, [*bodies[:5], (where, tampered, moment)]) == [
        (where, moment, [square])]
    # it knows when a seat was told: a square Red's R.P. saw later is a leak earlier on
    def learnt_by(i: int) -> list[str]:
        m = game.played[i]
        if m.by != "red" or m.weapon != "recon" or m.shot_down:
            return []
        return sorted(area_names(m.at[0], 1) & fleet_squares(FLEETS["blue"])
                      - told("red", game.played[:i]))

    seen = next(i for i in range(len(game.played)) if learnt_by(i))
    learnt = learnt_by(seen)
    early = [(w, b, t) for w, b, t in bodies if t <= seen]
    assert early and leaks("red", game, early) == []
    injected = [(w, b + json.dumps(learnt), t) for w, b, t in early]
    assert len(leaks("red", game, injected)) == len(early)
    # rulings (R4) and squares written without their space are not squares to the scanner
    assert squares_named("R4 R21 K10 k 10 AB 12 Z 3") == set()
    assert squares_named('["K 10","A 1"] (T 21)') == {"K 10", "A 1", "T 21"}
