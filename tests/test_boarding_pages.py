"""Broadsides and Boarding Parties' phone pages without a browser: the one drawing of the sea and
the decks (BB1, BB15, BB18) as SVG, what a page tells from its seat's view (the ships' frames
card by card, where a plot takes the seat's own ship, where a piece steps), and each page of a
game as the Flask app serves it, from setup to the post-mortem."""

from __future__ import annotations

import itertools
import json
import re

import pytest
from apiclient import Api, FlaskTransport
from boarding_support import in_play, order
from boarding_support import place as put
from boarding_web_support import CAPTAINS, SAILING, game_at_the_core, play
from contract_support import make_app
from rule_set_tables import open_table

from referee.broadsides_boarding.deck import DECK, across
from referee.broadsides_boarding.game import Game
from referee.broadsides_boarding.sea import SEA
from referee.broadsides_boarding.views import view_for
from referee.broadsides_boarding.web.drawing import (
    Group,
    SeaGrid,
    deck_frames,
    decks_drawing,
    sea_drawing,
)
from referee.broadsides_boarding.web.pages import bearing_words, read_order
from referee.broadsides_boarding.web.story import (
    boarding_steps,
    cannot_plot,
    newly_beyond_repair,
    plot_paths,
    sea_frames,
    worked_roll,
)
from referee.broadsides_boarding.web.svg import to_svg
from referee.common import dice

RULES = "broadsides-boarding"


def shapes(drawing, cls: str) -> list:
    found = []
    for item in drawing.items:
        for shape in (item.shapes if isinstance(item, Group) else [item]):
            if shape.cls.split()[0] == cls:
                found.append(shape)
    return found


# -- the one drawing ----------------------------------------------------------------------------

def test_bb1_the_sea_drawing_has_every_dot_island_and_starting_circle_of_sea_json():
    drawing = sea_drawing(SEA)
    islands = [d for island in SEA["islands"] for d in island["dots"]]
    assert len(shapes(drawing, "dot")) == len(SEA["columns"]) * SEA["rows"] - len(islands)
    assert len(shapes(drawing, "island")) == len(islands)
    grid = SeaGrid(SEA)
    assert sorted(s.at[:2] for s in shapes(drawing, "island")) == \
        sorted(grid.centre(d) for d in islands)
    assert {s.at[:2] for s in shapes(drawing, "start")} == \
        {grid.centre(s["at"]) for s in SEA["starts"].values()}
    assert all(island["name"] in {s.text for s in shapes(drawing, "island-name")}
               for island in SEA["islands"])


def test_bb2_a_ship_is_drawn_on_its_dot_its_bow_the_way_it_heads():
    grid = SeaGrid(SEA)
    for n, heading in enumerate(SEA["headings"]):
        drawing = sea_drawing(SEA, ships={"red": {"at": "F 6", "heading": heading}})
        ship = next(i for i in drawing.items if isinstance(i, Group) and "bb-ship" in i.cls)
        assert ship.origin == grid.centre("F 6") and ship.angle == 45 * n
        bow = ship.placed()[0].at[:2]  # the hull's first point is its bow
        dx, dy = bow[0] - ship.origin[0], bow[1] - ship.origin[1]
        step = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1),
                "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}[heading]
        assert (round(dx / abs(dx)) if abs(dx) > 0.01 else 0,
                round(dy / abs(dy)) if abs(dy) > 0.01 else 0) == step, heading


def test_bb15_each_deck_has_its_cannons_masts_ladders_and_a_cell_to_tap_for_every_cell():
    game = in_play()
    view = view_for(game, "red")
    drawing = decks_drawing(view["deck_plan"], ("red", "blue"), ships=view["ships"],
                            crews=view["crews"], taps=True)
    taps = [dict(i.data)["place"] for i in drawing.items if isinstance(i, Group) and i.tap]
    assert sorted(taps) == sorted(f"{s} {c}" for s in ("red", "blue")
                                  for c in (f"{a}{p}" for a in DECK["sections"] for p in (3, 4, 5)))
    assert len(shapes(drawing, "cannon")) == 2 * 2 * len(DECK["cannons"])  # barrel, carriage
    assert len(shapes(drawing, "mast")) == 2 * len(DECK["masts"])
    assert len(shapes(drawing, "ladder")) == 2 * len(DECK["ladders"]) * 5  # 2 rails, 3 rungs
    crew = [i for i in drawing.items if isinstance(i, Group) and i.cls.startswith("pieces")]
    discs = sum(1 for g in crew for s in g.shapes if s.cls.startswith("piece"))
    assert discs == 2 * 20 and sum(1 for g in crew for s in g.shapes
                                   if s.cls.startswith("captain ")) == 2


def laid_views():
    """Views of a boarding for every lie the rules allow: the same way or opposite ways, each
    touching side (BB18)."""
    for orientation, red, blue in itertools.product(("same", "opposite"), ("port", "starboard"),
                                                    ("port", "starboard")):
        laid = {"orientation": orientation, "touching": {"red": red, "blue": blue}, "at": "H 4"}
        acrosses = {}
        for seat in ("red", "blue"):
            rail = DECK["rails"][laid["touching"][seat]]
            for section in DECK["sections"]:
                place = f"{seat} {section}{rail}"
                acrosses[place] = across(place, laid)
        yield {**laid, "across": acrosses}


@pytest.mark.parametrize("seats", [("red", "blue"), ("blue", "red")])
def test_bb18_laid_side_by_side_each_plank_joins_a_touching_rail_to_the_cell_across(seats):
    for boarding in laid_views():
        frames, _, _ = deck_frames(DECK, seats, boarding)
        mine, theirs = frames
        touching = {s: DECK["rails"][boarding["touching"][s]] for s in seats}
        assert mine.columns[-1] == touching[seats[0]]  # the touching rails face each other
        assert theirs.columns[0] == touching[seats[1]]
        for place, there in boarding["across"].items():
            ship, cell = place.split(" ")
            frame, other = (mine, theirs) if ship == seats[0] else (theirs, mine)
            assert frame.centre(cell)[1] == other.centre(there.split(" ")[1])[1], (place, there)
        drawing = decks_drawing(DECK, seats, boarding=boarding)
        assert len(shapes(drawing, "plank-across")) == len(DECK["sections"])


def test_bb1_every_sea_drawn_has_the_whole_board_under_its_own_ships():
    """The board without ships is worked out and written once (it is the same every time);
    each drawing still has every dot, island and circle, under the ships it was given."""
    islands = sum(len(island["dots"]) for island in SEA["islands"])
    grid = SeaGrid(SEA)
    svgs = [to_svg(sea_drawing(SEA, ships={"red": {"at": at, "heading": "E"}}, title=title))
            for at, title in (("F 6", "one"), ("G 6", "two"), ("F 6", "one"))]
    assert svgs[0] == svgs[2] and svgs[0] != svgs[1]
    for svg, at in zip(svgs, ("F 6", "G 6"), strict=False):
        assert svg.count('class="dot"') == len(SEA["columns"]) * SEA["rows"] - islands
        assert svg.count('class="island"') == islands and svg.count('class="start"') == 2
        x, y = grid.centre(at)
        assert f'transform="translate({x:g} {y:g}) rotate(90)"' in svg, at
        assert svg.index('class="dot"') < svg.index('class="bb-ship red"')


def test_the_svg_escapes_every_text_and_holds_no_script_or_style_attribute():
    svg = to_svg(sea_drawing(SEA, title='<script>alert("x")</script>'))
    assert "<script" not in svg and " style=" not in svg and "&lt;script&gt;" in svg
    svg = to_svg(decks_drawing(DECK, ("red", "blue"), ships={"red": {"name": "<b>&"}},
                               taps=True))
    assert "<b>&" not in svg and "&lt;b&gt;&amp;" in svg and " style=" not in svg


# -- what a page tells from the view ------------------------------------------------------------

def test_bb5_the_frames_are_the_ships_after_each_card_turned_up_and_no_other():
    game = in_play()
    order(game, "red", {"cards": ["forward", "port", "forward"]})
    assert len(sea_frames(view_for(game, "blue"))) == 1  # sealed: nothing has sailed
    order(game, "blue", {"cards": ["forward", "starboard", "stay"]})
    frames = sea_frames(view_for(game, "blue"))
    assert [f["what"] for f in frames] == ["start", "card", "card", "card"]
    assert [f["ships"]["red"]["at"] for f in frames] == ["B 6", "C 6", "C 6", "D 5"]
    assert [f["ships"]["blue"]["heading"] for f in frames] == ["W", "W", "NW", "NW"]
    assert frames[-1]["ships"] == {s: {"at": v["at"], "heading": v["heading"]}
                                   for s, v in view_for(game, "red")["ships"].items()}


@pytest.mark.parametrize("at, heading", [("B 6", "E"), ("G 6", "E"), ("A 1", "NW"),
                                         ("D 3", "N")])
def test_bb3_a_plots_path_is_where_the_core_sails_the_ship(at, heading):
    """Every plot's path on the page ends where the core's round leaves the ship, a Move
    Forward into an island or off the sea not made and the round's later cards lost."""
    game = in_play()
    put(game, red=(at, heading), blue=("O 11", "S"))
    paths = plot_paths(view_for(game, "red"))
    assert len(paths) == 5 ** 3
    for cards in (["forward"] * 3, ["port", "forward", "forward"],
                  ["starboard", "forward", "port"], ["damaged", "forward", "stay"]):
        copy = Game.replay(game.events)
        put(copy, red=(at, heading), blue=("O 11", "S"))
        before = copy.ships["red"].at, copy.ships["red"].heading
        for card in cards:
            copy._play_card("red", card)
        last = paths[",".join(cards)][-1]
        assert last.rstrip("!~") == f"{copy.ships['red'].at} {copy.ships['red'].heading}", \
            (before, cards, last)


def test_bb21_the_steps_a_page_marks_are_the_decks_and_the_planks_across():
    game = play(game_at_the_core(), until="boarding")
    view = view_for(game, "red")
    steps = boarding_steps(view)
    assert steps["red E5"][-1] == view["boarding"]["across"]["red E5"]  # across a plank
    assert "red C4" in steps["red B4"] and "red C4" not in steps["red B3"]  # the ladder only
    assert not boarding_steps(view_for(in_play(), "red"))  # none before the boarding


def test_bb7_a_captainless_round_is_told_to_the_seat_that_cannot_plot():
    game = in_play(red="B5")
    view = view_for(game, "red")
    assert not cannot_plot(view)
    game.captain_lost["red"] = game.round  # as a volley that removed him would
    game._begin_round()
    assert cannot_plot(view_for(game, "red")) and not cannot_plot(view_for(game, "blue"))


def test_bb14_a_volley_tells_the_sections_it_put_beyond_repair_and_no_others():
    def shot(seat, target):
        return {"seat": seat, "cannon": "B5", "target": target, "roll": 2, "effect": "hull"}

    volley = {"what": "volley", "shots": [shot("blue", "D"), shot("blue", "E"), shot("blue", "E"),
                                          shot("red", "C")],
              "hull": {"red": {"D": 2, "E": 3}, "blue": {"C": 3}}}
    # red's D went from 1 to 2 and E from 1 to 3: both now beyond repair; blue's C was already
    assert newly_beyond_repair(volley) == {"red": ["D", "E"], "blue": []}


def test_bb9_where_the_enemy_lies_is_said_from_the_cannons_that_bear():
    assert bearing_words(["B5", "C5"]) == "off your starboard bow"
    assert bearing_words(["B3", "C3", "D3", "E3", "F3"]) == "abeam to port"
    assert bearing_words(["E5", "F5"]) == "off your starboard quarter"


def test_bb24_a_worked_roll_is_the_roll_the_seeds_give():
    for n in range(1, 30):
        worked = worked_roll("c" * 64, ["a", "b"], n)
        assert worked["value"] == dice.roll("c" * 64, ["a", "b"], n)
        assert int(worked["pair"], 16) == worked["byte"] < 252
        assert worked["hex"][2 * worked["index"]:2 * worked["index"] + 2] == worked["pair"]


def test_bb26_the_forms_read_as_the_core_reads_an_order():
    assert read_order({"kind": "plot", "stage": "4", "card1": "forward", "card2": "port",
                       "card3": "damaged"}) == {"kind": "plot", "stage": 4,
                                                "cards": ["forward", "port", "damaged"]}
    assert read_order({"kind": "declaration", "stage": "5", "cannons": "B5,C5",
                       "target-B5": "H"}) == {"kind": "declaration", "stage": 5,
                                              "targets": {"B5": "H", "C5": None}}
    assert read_order({"kind": "declaration", "stage": "5", "standing": "1"})["standing"]
    assert read_order({"kind": "boarding", "stage": "9", "from1": "red E5",
                       "to1": "blue E3", "captain1": "1", "from2": "red D5",
                       "to2": "red D4"})["moves"] == [
        {"from": "red E5", "to": "blue E3", "captain": True},
        {"from": "red D5", "to": "red D4"}]


# -- the pages as the app serves them -----------------------------------------------------------

@pytest.fixture
def table(tmp_path):
    app = make_app(tmp_path)
    table = open_table(Api(FlaskTransport(app.test_client())), RULES, move_minutes=5)
    table.app = app
    return table


def page(table, seat: str, tail: str = "") -> str:
    client = table.app.test_client()
    with client.session_transaction() as held:
        held["seats"] = {table.id: table.tokens[seat]}
    response = client.get(f"/games/{table.id}{tail}")
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


def data_of(html: str) -> dict:
    block = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html,
                      re.S)
    return json.loads(block.group(1))


def lock_in(table) -> None:
    for seat, captain in CAPTAINS.items():
        assert table.call(seat, "PUT", "/disposition", {"captain": captain})[0] == 200
        assert table.call(seat, "POST", "/ready")[0] == 200


def test_bb16_the_setup_page_draws_the_seats_deck_to_tap_with_its_captain(table):
    html = page(table, "red")
    assert 'id="bb-own-deck"' in html and html.count('class="tap" data-place="red ') == 24
    assert 'data-place="blue ' not in html  # his own deck alone
    assert data_of(html)["draft_url"].endswith(f"/games/{table.id}/draft")
    client = table.app.test_client()
    with client.session_transaction() as held:
        held["seats"] = {table.id: table.tokens["red"]}
    own = client.get(f"/games/{table.id}").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', own).group(1)
    saved = client.post(f"/broadsides-boarding/games/{table.id}/draft",
                        json={"disposition": {"captain": "g4"}}, headers={"X-CSRFToken": token})
    assert saved.status_code == 200 and saved.get_json()["problems"] == []
    again = page(table, "red")
    assert '<option value="G4" selected>' in again and 'captain red' in again


def test_bb4_the_plot_page_holds_the_hand_the_slots_and_the_own_ships_paths(table):
    lock_in(table)
    html = page(table, "red")
    data = data_of(html)
    assert data["legal"]["kind"] == "plot" and data["legal"]["hand"] == dict.fromkeys(
        ["stay", "forward", "starboard", "port", "damaged"], 3)
    assert len(data["paths"]) == 125 and data["paths"]["forward,forward,forward"][-1] == "E 6 E"
    assert 'id="bb-sea"' in html and html.count('class="bb-ship ') == 2
    assert all(f'id="card{n}"' in html for n in (1, 2, 3))


def test_bb10_the_volley_page_offers_a_target_for_each_cannon_that_bears_and_standing_orders(
        table):
    lock_in(table)
    for red, blue in SAILING[:2] + [(["forward", "stay", "stay"], ["starboard", "stay", "stay"])]:
        assert table.call("red", "POST", "/moves", {"cards": red})[0] == 201
        assert table.call("blue", "POST", "/moves", {"cards": blue})[0] == 201
    html = page(table, "red")
    legal = data_of(html)["legal"]
    assert legal["kind"] == "declaration" and 'id="bb-standing"' not in html
    for cell in legal["cannons"]:
        assert html.count(f'name="target-{cell}"') == 9  # A-H and hold
    for seat in ("red", "blue"):
        cannons = table.view(seat)["legal"]["cannons"]
        assert table.call(seat, "POST", "/moves", {"targets": dict.fromkeys(cannons, "H")})[0] \
            == 201
    html = page(table, "red")
    assert 'id="bb-standing"' in html and "B5 → H" in html  # the next volley: one tap
    assert 'class="shots"' in html and re.search(r'class="die die-(red|blue)"', html)


def test_bb21_the_boarding_page_draws_both_decks_laid_together_with_the_steps(table):
    lock_in(table)
    for red, blue in SAILING:
        assert table.call("red", "POST", "/moves", {"cards": red})[0] == 201
        assert table.call("blue", "POST", "/moves", {"cards": blue})[0] == 201
        while (owing := table.owing()) and table.view(owing[0])["legal"]["kind"] == \
                "declaration":
            for seat in owing:
                assert table.call(seat, "POST", "/moves", {"targets": dict.fromkeys(
                    table.view(seat)["legal"]["cannons"], None)})[0] == 201
    boarder = table.owing()[0]
    html = page(table, boarder)
    data = data_of(html)
    assert data["legal"]["kind"] == "boarding" and len(data["steps"]) == 48
    assert html.count('class="plank-across"') == 8 and 'id="bb-moves"' in html


def test_bb24_the_end_and_the_post_mortem_pages_show_the_audit(table):
    lock_in(table)
    assert table.call("red", "POST", "/resign")[0] == 200
    over = page(table, "blue")
    assert 'id="bb-headline"' in over and "surrendered" in over
    post = page(table, "blue", "/postmortem")
    assert 'id="bb-audit"' in post  # a surrender before any volley: no die to recompute
    assert "No die was rolled: there is nothing to recompute." in post


def test_every_boarding_page_is_framed_once_by_the_game_page(table):
    # the shared game page (game.html) gives each page its name, its following of the game,
    # its one page-data block and the game's stylesheet; the page adds only its own parts
    def frame(html: str) -> dict:
        body = re.search(r"<body([^>]*)>", html).group(1)
        return {"attrs": dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', body)),
                "data": html.count('id="page-data"'), "css": html.count("boarding.css")}

    setup = frame(page(table, "red"))
    assert setup["attrs"]["data-page"] == setup["attrs"]["data-bb-page"] == "setup"
    assert "data-poll" in setup["attrs"] and setup["data"] == setup["css"] == 1
    lock_in(table)
    play_html = page(table, "red")
    play = frame(play_html)
    assert play["attrs"]["data-page"] == play["attrs"]["data-bb-page"] == "play"
    assert "data-poll" in play["attrs"] and play["data"] == play["css"] == 1
    assert play_html.count('id="endgame"') == 1 and ">Surrender</button>" in play_html
    assert table.call("blue", "POST", "/end")[0] == 200
    offered = page(table, "red")
    assert offered.count('id="end-offer"') == 1 and "(BB23)" in offered  # the kit's, once
    assert table.call("red", "POST", "/resign")[0] == 200
    for tail, name in (("", "over"), ("/postmortem", "postmortem")):
        done = frame(page(table, "blue", tail))
        assert done["attrs"]["data-page"] == done["attrs"]["data-bb-page"] == name
        assert "data-poll" not in done["attrs"] and done["data"] == done["css"] == 1
