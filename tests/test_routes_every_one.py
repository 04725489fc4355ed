"""Every route of the app, called: for each rule set a real game is driven through its phases
(setup, play, over) through the routes themselves, and at each phase every route that takes
a game is called by its right caller (the seat's cookie or bearer token, the host) with
plausible and with junk input, and by the wrong ones (a phone holding no seat, a player and
host of another game, a forged token, a seat that does not host). Nothing answers 500; each
answer is the one its caller and input call for; a route of one rule set refuses every game
of another with a 404 that says so, changing nothing; the app's schema is the migrations'
(no table appears on first write). The routes called are compared with ``app.url_map``:
a route added without being called here fails this test.
"""

from __future__ import annotations

import io
import json
import random
import sqlite3
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from apiclient import choose_move
from flask import request, request_finished
from pages_support import FLEETS, Page, purchase_of
from tcg_support import miss_holes

from referee import rulesets
from referee.common.views import owes_in

RULE_SETS = ("naval-war", "battleship-tcg", "broadside", "broadsides-boarding")
BOARDING = "/broadsides-boarding"
PHASES = ("setup", "play", "over")
DENIED = {401, 403}
FORM = {302}  # a page's form: done, or its refusal flashed on the page it came from
NOT_YET = {409}  # a phase that does not offer it (the post-mortem before the end ...)
# a seat the game does not have: the service's 404, or the core's own refusal (R23), 403
NO_SUCH_SEAT = {403, 404}

# the routes that are one rule set's own: every other rule set's game is a 404 there
RULE_SET_ROUTES = {
    **dict.fromkeys(("naval_war.budget", "naval_war.budget_from_book", "naval_war.save_draft",
                     "naval_war.fill_draft", "naval_war.lock_in", "naval_war.move",
                     "naval_war.save_marks"), "naval-war"),
    **dict.fromkeys(("tcg.save_draft", "tcg.fill_draft", "tcg.lock_in", "tcg.shoot"),
                    "battleship-tcg"),
    **dict.fromkeys(("broadside.save_draft", "broadside.lock_in", "broadside.move"),
                    "broadside"),
    **dict.fromkeys(("boarding.save_draft", "boarding.lock_in", "boarding.order"),
                    "broadsides-boarding"),
}


def _fleets() -> dict[str, dict[str, dict]]:
    from broadside_web_support import BLUE as BS_BLUE
    from broadside_web_support import RED as BS_RED
    from tcg_web_support import BLUE as TCG_BLUE
    from tcg_web_support import RED as TCG_RED

    return {"naval-war": FLEETS, "battleship-tcg": {"red": TCG_RED, "blue": TCG_BLUE},
            "broadside": {"red": BS_RED, "blue": BS_BLUE},
            "broadsides-boarding": {"red": {"captain": "D4"}, "blue": {"captain": "E4"}}}


# -- callers ------------------------------------------------------------------------------------

class Caller:
    """A phone (a test client with its own cookie and CSRF token), and the bearer tokens it
    holds: its seats' (from its session cookie, as the pages keep them) and any host token."""

    def __init__(self, app, name: str) -> None:
        self.name, self.client = name, app.test_client()
        page = self.client.get("/")
        self.csrf = Page(page.get_data(as_text=True)).meta_csrf()
        self.host_tokens: dict[str, str] = {}

    def seat_token(self, game_id: str) -> str | None:
        with self.client.session_transaction() as held:
            return held.get("seats", {}).get(game_id)

    def hold(self, game_id: str, token: str) -> None:
        with self.client.session_transaction() as held:
            held["seats"] = {**held.get("seats", {}), game_id: token}

    def bearer(self, game_id: str, host: bool) -> str | None:
        if self.name == "forged":
            return "forged-" + "x" * 32
        if self.name == "stranger":  # his own game's tokens, sent to this one
            own = next(iter(self.host_tokens))
            return self.host_tokens[own] if host else self.seat_token(own)
        return self.seat_token(game_id)  # hosting is Red's seat's (R24)


@dataclass
class Req:
    method: str
    path: str
    form: dict | None = None
    body: object = None  # JSON
    raw: bytes | None = None
    cookie: bool = False  # a PDF asked for by the phone's cookie, not a bearer token
    host: bool = False  # the bearer a host route wants


def send(caller: Caller, game_id: str | None, req: Req):
    headers = {"X-CSRFToken": caller.csrf}
    kwargs: dict = {}
    if req.path.startswith("/api/") and not req.cookie and game_id:
        token = caller.bearer(game_id, req.host)
        if token:
            headers["Authorization"] = f"Bearer {token}"
    if req.form is not None:
        kwargs["data"] = req.form
        headers["Accept"] = "text/html"
    elif req.raw is not None:
        kwargs.update(data=req.raw, content_type="application/json")
        headers["Accept"] = "application/json"
    elif req.body is not None:
        kwargs.update(data=json.dumps(req.body), content_type="application/json")
        headers["Accept"] = "application/json"
    return caller.client.open(req.path, method=req.method, headers=headers, **kwargs)


# -- one game of a rule set ---------------------------------------------------------------------

@dataclass
class Game:
    app: object
    rules: str
    id: str
    callers: dict[str, Caller]
    recovery: str
    seen: list  # the endpoint of every request the app answered, as it answered it
    first_link: str = ""  # Blue's join link as the game was made

    def call(self, who: str, req: Req, expect: set[int], *, endpoint: str | None = None,
             why: str = ""):
        """``who`` sends ``req``; its answer must be one of ``expect`` and, given an
        ``endpoint``, come from that route (not from a path that matched none)."""
        response = send(self.callers[who], self.id, req)
        said = response.get_data()[:300].decode(errors="replace")
        assert response.status_code in expect, (
            f"{self.rules}: {who} {req.method} {req.path} -> {response.status_code}, not "
            f"{sorted(expect)} ({why}): {said}")
        if endpoint is not None:
            assert self.seen[-1] == endpoint, (req.path, self.seen[-1], endpoint)
        return response

    def view(self, seat: str) -> dict:
        return self.call(seat, Req("GET", f"/api/v1/games/{self.id}"), {200}).get_json()

    def link(self, seat: str) -> str:
        page = Page(self.call("red", Req("GET", f"/games/{self.id}/host"), {200}).text)
        link = page.find("input", id=f"link-{seat}")[0].attrs["value"]
        return urlsplit(link).path + "?" + urlsplit(link).query

    def join(self, who: str, link: str, expect: set[int]):
        self.call(who, Req("GET", link), {200})
        code = parse_qs(urlsplit(link).query)["code"][0]
        return self.call(who, Req("POST", link, form={"name": who.title(), "code": code}),
                         expect)


def create(app, rules: str, callers: dict[str, Caller], seen: list) -> Game:
    """Red creates the game on his phone (he hosts it, R24) and Blue joins by his link."""
    red = callers["red"]
    made = send(red, None, Req("POST", "/", form={
        "name": "Ann", "rules": rules, "seats": "2", "minutes": "20", "move_minutes": "5"}))
    assert made.status_code == 302, made.get_data(as_text=True)[:500]
    game_id = made.headers["Location"].split("/")[-2]
    with red.client.session_transaction() as held:
        recovery = held["recovery"]["code"]
    game = Game(app, rules, game_id, callers, recovery, seen)
    game.first_link = game.link("blue")
    game.join("blue", game.first_link, {302})
    assert game.view("blue")["seats"]["blue"]["name"] == "Blue"
    return game


# -- the routes, each with its right caller, plausible and junk input, answer by phase ----------

@dataclass
class Route:
    endpoint: str
    req: Req  # plausible input; "{g}" is the game's id
    who: str  # "anyone", "seat", "host"
    expect: dict[str, set[int]]  # the right caller's answer in each phase; none: the drive's
    by: str = "red"  # the right caller
    junk: tuple[tuple[Req, set[int]], ...] = ()
    # a seat's route that anyone may open once the game is over (nothing is hidden then,
    # R21): what the wrong callers get then; empty: refused in every phase
    over_for_anyone: frozenset[int] = frozenset()


def J(method: str, path: str, body: object = None, **kw) -> Req:  # noqa: N802
    return Req(method, path, body=body if body is not None else {}, **kw)


def F(path: str, form: dict | None = None) -> Req:  # noqa: N802
    return Req("POST", path, form=form or {})


def G(path: str, **kw) -> Req:  # noqa: N802
    return Req("GET", path, **kw)


def every(statuses: set[int]) -> dict[str, set[int]]:
    return {phase: statuses for phase in PHASES}


def game_routes(fleets: dict, level: str) -> list[Route]:
    """Every route that takes a game, as this rule set's game calls it (another rule set's
    routes too: the game of this one gets their 404)."""
    A, P = "/api/v1/games/{g}", "/games/{g}"  # noqa: N806
    over_only = {"setup": NOT_YET, "play": NOT_YET, "over": {200}}
    tcg = {"boats": [], "man": None}
    return [
        # -- the JSON API
        Route("api.view", G(A), "seat", every({200}), junk=((G(A + "?x=%3Cb%3E"), {200}),)),
        Route("api.record", G(A + "/record"), "seat", every({200})),
        Route("api.disposition", J("PUT", A + "/disposition", fleets["blue"]), "seat",
              {"setup": {200}, "play": NOT_YET, "over": NOT_YET}, by="blue",
              junk=((J("PUT", A + "/disposition", {"ships": "<b>", "boats": 7}), {400, 409, 422}),
                    (Req("PUT", A + "/disposition", raw=b"{not json"), {400}))),
        Route("api.ready", J("POST", A + "/ready"), "seat",
              {"play": NOT_YET, "over": NOT_YET}, by="blue"),
        Route("api.move", J("POST", A + "/moves", {"at": "A 1"}), "seat", {},
              junk=((J("POST", A + "/moves", {"weapon": "<b>", "at": [None], "ship": 9}),
                     {400, 409, 422}), (Req("POST", A + "/moves", raw=b"[1, {"), {400}))),
        Route("api.end", J("POST", A + "/end"), "seat",
              {"setup": NOT_YET, "play": {200, 409, 422}, "over": NOT_YET}),
        Route("api.play_on", J("POST", A + "/play-on"), "seat",
              {"setup": NOT_YET, "play": {200, 409, 422}, "over": NOT_YET}, by="blue"),
        Route("api.stand_in", J("POST", A + "/seats/red/stand-in"), "seat",
              {"setup": NOT_YET, "play": NOT_YET, "over": NOT_YET}, by="blue",
              junk=((J("POST", A + "/seats/green/stand-in"), NO_SUCH_SEAT),
                    (J("POST", A + "/seats/%3Cb%3E/stand-in"), NO_SUCH_SEAT))),
        Route("api.resign", J("POST", A + "/resign"), "seat", {"over": NOT_YET}, by="blue"),
        Route("api.postmortem", G(A + "/postmortem"), "seat", over_only),
        Route("api.export", G(A + "/export"), "seat", over_only),
        Route("api.claim_seat", J("POST", A + "/seats/blue", {"join_code": "x" * 22,
                                                               "name": "Eve"}),
              "anyone", every({403}), by="nobody",
              junk=((J("POST", A + "/seats/green", {"join_code": "x", "name": "Eve"}), {404}),
                    (J("POST", A + "/seats/blue", {"join_code": ["x"], "name": 5}), {400}),
                    (J("POST", A + "/seats/blue", {"join_code": "\u00e9" * 22,
                                                   "name": "Eve"}), {403}))),
        Route("api.recover", J("POST", A + "/seats/blue/recover",
                               {"recovery_code": "AAAA-BBBB-CCCC"}),
              "anyone", every({403, 429}), by="nobody",
              junk=((J("POST", A + "/seats/blue/recover", {"recovery_code": 7}), {400}),
                    (J("POST", A + "/seats/gold/recover", {"recovery_code": "x"}), {404}))),
        Route("api.host_view", G(A + "/host", host=True), "host", every({200})),
        # a stream: a seat's token hears its view, no token the public status
        Route("api.stream", G(A + "/stream"), "anyone", every({200})),
        Route("api.host_stream", G(A + "/host/stream", host=True), "host", every({200})),
        # a seat's socket: a plain GET lacks the handshake's headers (400 naming Upgrade)
        Route("api.seat_socket", G(A + "/socket"), "seat", every({400})),
        Route("api.hand_over", J("POST", A + "/host/handover", {"seat": "blue"}, host=True),
              "host", {},
              junk=((J("POST", A + "/host/handover", {"seat": "green"}, host=True),
                     {404, 409, 422}),
                    (J("POST", A + "/host/handover", {"seat": ["red"]}, host=True),
                     {400, 404, 422}))),
        Route("api.reissue", J("POST", A + "/seats/blue/reissue", host=True), "host",
              {"play": NOT_YET, "over": NOT_YET},
              junk=((J("POST", A + "/seats/green/reissue", host=True), {404}),
                    (J("POST", A + "/seats/red/reissue", host=True), {409}))),
        Route("api.extend_clock", J("POST", A + "/clock", {"minutes": 5}, host=True), "host",
              {"setup": {200}, "play": NOT_YET, "over": NOT_YET},
              junk=((J("POST", A + "/clock", {"minutes": -1}, host=True), {400, 409, 422}),)),
        Route("api.choose_stand_in_level", J("POST", A + "/stand-in-level",
                                             {"level": level}, host=True), "host",
              {"setup": {200}, "play": {200}, "over": NOT_YET},
              junk=((J("POST", A + "/stand-in-level", {"level": "<b>"}, host=True),
                     {400, 409, 422}),)),
        Route("api.forfeit", J("POST", A + "/seats/blue/forfeit", host=True), "host",
              every(NOT_YET),
              junk=((J("POST", A + "/seats/green/forfeit", host=True), NO_SUCH_SEAT),)),
        # -- the PDFs: by the phone's cookie or a bearer token
        Route("printouts.charts", G(A + "/charts.pdf?paper=letter", cookie=True), "seat",
              every({200}), junk=((G(A + "/charts.pdf?paper=a3"), {400}),)),
        Route("printouts.record", G(A + "/record.pdf"), "seat", every({200}), by="blue",
              junk=((G(A + "/record.pdf?paper=%00"), {400}),)),
        Route("printouts.postmortem", G(A + "/postmortem.pdf", cookie=True), "seat",
              over_only, junk=((G(A + "/postmortem.pdf?paper=", cookie=True), {400}),),
              over_for_anyone=frozenset({200})),
        # -- the shared pages
        Route("pages.game", G(P), "seat", every({200}),
              over_for_anyone=frozenset({302})),  # to the post-mortem
        Route("pages.status", G(P + "/status"), "seat", every({200}), by="blue"),
        Route("pages.stream", G(P + "/stream"), "seat", every({200}), by="blue"),
        Route("pages.host_poll", G(P + "/host/status"), "host", every({200})),
        Route("pages.host_stream", G(P + "/host/stream"), "host", every({200})),
        Route("pages.postmortem", G(P + "/postmortem"), "seat", over_only,
              junk=((G(P + "/postmortem?step=99999"), {200, 409}),),
              over_for_anyone=frozenset({200})),
        Route("pages.export_game", G(P + "/export.json"), "seat", over_only,
              over_for_anyone=frozenset({200})),
        Route("pages.agree_to_end", F(P + "/end"), "seat", {"setup": FORM, "play": FORM,
                                                           "over": FORM}),
        Route("pages.play_on", F(P + "/play-on"), "seat", every(FORM), by="blue"),
        Route("pages.stand_in", F(P + "/stand-in/red"), "seat", every(FORM), by="blue",
              junk=((F(P + "/stand-in/green"), FORM | NO_SUCH_SEAT),
                    (F(P + "/stand-in/%3Cscript%3E"), FORM | NO_SUCH_SEAT))),
        Route("pages.resign", F(P + "/resign"), "seat", {"over": FORM}, by="blue"),
        Route("pages.host", G(P + "/host"), "host", every({200})),
        Route("pages.join_qr", G(P + "/qr/red.svg"), "host", every({404}),
              junk=((G(P + "/qr/green.svg"), {404}), (G(P + "/qr/%3Cb%3E.svg"), {404}))),
        Route("pages.host_stand_in_level", F(P + "/host/stand-in-level", {"level": level}),
              "host", every(FORM), junk=((F(P + "/host/stand-in-level", {"level": "<b>"}),
                                          FORM),)),
        Route("pages.host_clock", F(P + "/host/clock", {"minutes": "5"}), "host", every(FORM),
              junk=((F(P + "/host/clock", {"minutes": "lots"}), FORM),)),
        Route("pages.host_forfeit", F(P + "/host/forfeit/blue"), "host", every(FORM),
              junk=((F(P + "/host/forfeit/gold"), FORM | NO_SUCH_SEAT),)),
        Route("pages.host_reissue", F(P + "/host/reissue/blue"), "host",
              {"play": FORM, "over": FORM},
              junk=((F(P + "/host/reissue/green"), FORM | NO_SUCH_SEAT),
                    (F(P + "/host/reissue/red"), FORM))),
        Route("pages.host_handover", F(P + "/host/handover/blue"), "host", {},
              junk=((F(P + "/host/handover/gold"), FORM | NO_SUCH_SEAT),)),
        Route("pages.join", G(P + "/join/blue"), "anyone", every({200}), by="nobody",
              junk=((G(P + "/join/green?code=x"), {404}),
                    (F(P + "/join/blue", {"name": "Eve", "code": "x" * 22}), {403}),
                    (F(P + "/join/blue", {"name": "</script>", "code": ""}), {200, 400, 403}))),
        Route("pages.recover", G(P + "/recover"), "anyone", every({200}), by="nobody",
              junk=((F(P + "/recover", {"seat": "blue", "recovery_code": "AAAA-BBBB-CCCC"}),
                     {403, 429}),
                    (F(P + "/recover", {"seat": "<b>", "recovery_code": ""}), FORM | {400}))),
        # -- the Naval War Game's own forms
        Route("naval_war.budget_from_book", F(P + "/budget/book", {"fleet": "game-2-red"}), "seat",
              every(FORM), junk=((F(P + "/budget/book", {"fleet": "<b>"}), FORM),)),
        Route("naval_war.budget", F(P + "/budget", {"battleship": "2", "salvo": "3"}), "seat",
              every(FORM), junk=((F(P + "/budget", {"battleship": "-4", "salvo": "x"}),
                                  FORM),)),
        Route("naval_war.save_draft", J("POST", P + "/draft", {"disposition": {}}), "seat",
              {"setup": {200}, "play": {200, 409}, "over": {200, 409}},
              junk=((J("POST", P + "/draft", {"disposition": [1]}), {400}),
                    (Req("POST", P + "/draft", raw=b"[[[[[[[["), {400}))),
        Route("naval_war.fill_draft", J("POST", P + "/draft/fill", {"disposition": {}}), "seat",
              {"setup": {200, 422}, "play": {200, 409, 422}, "over": {200, 409, 422}},
              junk=((J("POST", P + "/draft/fill", {"disposition": "x"}), {400}),)),
        Route("naval_war.lock_in", F(P + "/lock"), "seat", {"play": FORM, "over": FORM}),
        Route("naval_war.move", F(P + "/move", {"weapon": "salvo", "at": "A 1, A 2, A 3",
                                            "target": "blue"}), "seat", {},
              junk=((F(P + "/move", {"weapon": "<b>", "at": ""}), FORM),)),
        Route("naval_war.save_marks", J("POST", P + "/marks", {"blue": {"A 1": "x"}}), "seat",
              every({200}), junk=((J("POST", P + "/marks", {"<b>": {"A 1": "x"}}), {400}),)),
        # -- the TCG's forms
        Route("tcg.save_draft", J("POST", "/tcg" + P + "/draft", {"disposition": tcg}), "seat",
              {"setup": {200}, "play": NOT_YET, "over": NOT_YET},
              junk=((J("POST", "/tcg" + P + "/draft", {"disposition": {"boats": "x"}}),
                     {400}),)),
        Route("tcg.fill_draft", J("POST", "/tcg" + P + "/draft/fill", {"disposition": tcg}),
              "seat", {"setup": {200, 429}, "play": NOT_YET, "over": NOT_YET},
              junk=((J("POST", "/tcg" + P + "/draft/fill", {"disposition": {"man": 1}}),
                     {400}),)),
        Route("tcg.lock_in", F("/tcg" + P + "/lock"), "seat", {"play": FORM, "over": FORM}),
        Route("tcg.shoot", F("/tcg" + P + "/shoot", {"at": "A 1"}), "seat", {},
              junk=((F("/tcg" + P + "/shoot", {"at": "ZZ 99"}), FORM),)),
        # -- Broadside's forms
        Route("broadside.save_draft", J("POST", "/broadside" + P + "/draft",
                                        {"disposition": {"ships": []}}), "seat",
              {"setup": {200}, "play": NOT_YET, "over": NOT_YET},
              junk=((J("POST", "/broadside" + P + "/draft", {"disposition": {"ships": 1}}),
                     {400}),)),
        Route("broadside.lock_in", F("/broadside" + P + "/lock"), "seat",
              {"play": FORM, "over": FORM}),
        Route("broadside.move", F("/broadside" + P + "/move", {"ship": "I 19", "to": "I 18"}),
              "seat", {}, junk=((F("/broadside" + P + "/move", {"ship": "<b>", "to": ""}),
                                 FORM),)),
        # -- Broadsides and Boarding Parties' forms
        Route("boarding.save_draft", J("POST", BOARDING + P + "/draft",
                                       {"disposition": {"captain": "D4"}}), "seat",
              {"setup": {200}, "play": NOT_YET, "over": NOT_YET},
              junk=((J("POST", BOARDING + P + "/draft", {"disposition": {"ships": 1}}),
                     {400}),)),
        Route("boarding.lock_in", F(BOARDING + P + "/lock"), "seat",
              {"play": FORM, "over": FORM}),
        Route("boarding.order", F(BOARDING + P + "/order", {"kind": "plot", "card1": "forward",
                                                           "card2": "stay", "card3": "stay"}),
              "seat", {}, junk=((F(BOARDING + P + "/order", {"kind": "<b>", "stage": "x"}),
                                 FORM),
                                (F(BOARDING + P + "/order", {"kind": "declaration",
                                                             "cannons": "B5,<b>"}), FORM))),
    ]


def _filled(req: Req, game_id: str) -> Req:
    return Req(req.method, req.path.format(g=game_id), req.form, req.body, req.raw, req.cookie,
               req.host)


def _held(app, game_id: str) -> list:
    """What the store holds of a game: its events and every private note of its seats."""
    connection = sqlite3.connect(app.config["DATABASE"])
    try:
        return [row for sql in ("select 'events', seq, body from events where game_id = ?",
                                "select 'drafts', seat, body from drafts where game_id = ?",
                                "select 'marks', seat, body from marks where game_id = ?")
                for row in connection.execute(sql, [game_id])]
    finally:
        connection.close()


def _moves(held: list) -> list:
    return [row for row in held if row[0] == "events" and json.loads(row[2])["type"] == "move"]


def sweep(game: Game, phase: str) -> None:
    """Every route that takes a game, at this phase, by every caller: this rule set's and
    the shared ones answer as ``Route`` says; every other rule set's refuse it with 404,
    for its seat and for a stranger alike, and leave the game as it was."""
    fleets = _fleets()[game.rules]
    level = next(iter(rulesets.named(game.rules).levels))
    before = _held(game.app, game.id)
    for route in game_routes(fleets, level):
        owner = RULE_SET_ROUTES.get(route.endpoint)
        req = _filled(route.req, game.id)
        if owner is not None and owner != game.rules:
            held = _held(game.app, game.id)
            for who in ("red", "nobody"):
                for sent in (req, *(_filled(junk, game.id) for junk, _ in route.junk)):
                    refused = game.call(who, sent, {404}, endpoint=route.endpoint,
                                        why="another rule set's route")
                    said = refused.get_data().decode(errors="replace")
                    assert "is a page of" in said and rulesets.named(owner).title.split(
                        ":")[0] in said, said[:300]
            assert _held(game.app, game.id) == held, route.endpoint
            continue
        wrong = ["nobody", "stranger"] + (["forged"] if req.path.startswith("/api/") else [])
        if route.who == "host":
            wrong.append("blue")
        if route.who != "anyone":
            opened = route.over_for_anyone if phase == "over" else frozenset()
            for who in wrong:
                game.call(who, req, set(opened or DENIED), endpoint=route.endpoint,
                          why=f"{who} may {'' if opened else 'not'}")
        if phase in route.expect:
            game.call(route.by, req, route.expect[phase], endpoint=route.endpoint,
                      why=f"{phase}: plausible")
        for junk, expect in route.junk:
            game.call(route.by, _filled(junk, game.id), expect, endpoint=route.endpoint,
                      why=f"{phase}: junk")
    # the sweep's own calls change the seats' drafts and marks, offers to end (R14) and
    # the host's choices; no move is made by anything but the drive
    assert _moves(_held(game.app, game.id)) == _moves(before)


# -- the drive: setting up, playing, the end ----------------------------------------------------

def set_up(game: Game) -> None:
    """Red sets up through his rule set's own forms, Blue through the API; then both are in."""
    fleets = _fleets()[game.rules]
    g = game.id
    if game.rules == "naval-war":
        buy = {k.replace("-", "_"): str(n) for k, n in purchase_of(fleets["red"]).items()}
        game.call("red", F(f"/games/{g}/budget", buy), FORM)
        placed = game.call("red", J("POST", f"/games/{g}/draft",
                                    {"disposition": fleets["red"]}), {200})
        assert placed.get_json()["complete"], placed.get_json()
        game.call("red", F(f"/games/{g}/lock"), FORM)
    else:
        prefix = {"battleship-tcg": "/tcg", "broadside": "/broadside"}.get(game.rules, BOARDING)
        placed = game.call("red", J("POST", f"{prefix}/games/{g}/draft",
                                    {"disposition": fleets["red"]}), {200})
        assert placed.get_json()["problems"] == [], placed.get_json()
        game.call("red", F(f"{prefix}/games/{g}/lock"), FORM)
    game.call("blue", J("PUT", f"/api/v1/games/{g}/disposition", fleets["blue"]), {200})
    game.call("blue", J("POST", f"/api/v1/games/{g}/ready"), {200})
    assert game.view("red")["phase"] == "play"


def reissue_and_recover(game: Game) -> None:
    """R24: the host gives Blue's seat a new link twice (by the API, then his page); each old
    link stops working; Red moves his seat with his recovery code."""
    g, old = game.id, game.first_link
    made = game.call("red", J("POST", f"/api/v1/games/{g}/seats/blue/reissue", host=True),
                     {200}).get_json()
    game.call("blue", G(f"/games/{g}/status"), {403}, why="the old phone is signed out")
    game.join("nobody", old, {403})
    claimed = game.call("nobody", J("POST", f"/api/v1/games/{g}/seats/blue", {
        "join_code": made["join_code"], "name": "Blue"}), {200}).get_json()
    game.callers["blue"].hold(g, claimed["token"])
    game.call("blue", G(f"/games/{g}/status"), {200})
    game.call("red", F(f"/games/{g}/host/reissue/blue"), FORM)
    link = game.link("blue")
    assert parse_qs(urlsplit(link).query)["code"] != [made["join_code"]]
    game.call("red", G(f"/games/{g}/qr/blue.svg"), {200})
    game.join("blue", link, {302})
    game.call("blue", G(f"/games/{g}/status"), {200})
    game.call("red", F(f"/games/{g}/recover", {"seat": "red", "recovery_code": game.recovery}),
              FORM)
    game.call("red", G(f"/games/{g}/host"), {200}, why="hosting follows the seat (R24)")


def _move(game: Game, seat: str, by_page: bool, rng: random.Random) -> None:
    g, view = game.id, game.view(seat)
    if game.rules == "naval-war":
        move = choose_move(view, rng)
        if by_page:
            at = move["at"] if isinstance(move["at"], list) else [move["at"]]
            game.call(seat, F(f"/games/{g}/move", {
                "weapon": move["weapon"], "base": move.get("from", ""), "at": ", ".join(at),
                "target": move["target"], "key": f"k{rng.random()}"}), FORM)
            return
    elif game.rules == "battleship-tcg":
        shot = {h for r in view["reports"] if r["by"] == seat for h in r["at"]}
        move = {"at": next(h for h in miss_holes("blue" if seat == "red" else "red")
                           if h not in shot)}
        if by_page:
            game.call(seat, F(f"/tcg/games/{g}/shoot", {**move, "key": f"k{rng.random()}"}),
                      FORM)
            return
    elif game.rules == "broadsides-boarding":
        move = rulesets.named(game.rules).computer("deckhand", f"routes:{seat}").move(view)
        if by_page:
            game.call(seat, F(f"{BOARDING}/games/{g}/order", order_form(move)), FORM)
            return
    else:
        move = view["legal"][0]
        if by_page:
            form = {"pass": "1"} if move.get("pass") else {
                "ship": move["ship"], "to": move["to"], "turn": move.get("turn") or ""}
            game.call(seat, F(f"/broadside/games/{g}/move", form), FORM)
            return
    game.call(seat, J("POST", f"/api/v1/games/{g}/moves", move), {201})


def order_form(move: dict) -> dict:
    """A Broadsides and Boarding Parties order as its play page's form sends it."""
    form = {"kind": move["kind"], "stage": str(move["stage"])}
    if move["kind"] == "plot":
        form.update({f"card{n}": card for n, card in enumerate(move["cards"], start=1)})
    elif move["kind"] == "declaration":
        form["cannons"] = ",".join(move["targets"])
        form.update({f"target-{cell}": t or "" for cell, t in move["targets"].items()})
    elif move["kind"] == "promotion":
        form["promote"] = move["promote"]
    else:
        for n, step in enumerate(move["moves"], start=1):
            form.update({f"from{n}": step["from"], f"to{n}": step["to"]})
            if step.get("captain"):
                form[f"captain{n}"] = "1"
    return form


def play(game: Game) -> None:
    """Four moves, by the page's form and by the API in turn; a seat that owes no move is
    refused (409; where orders are sealed both may owe one); then Blue resigns from his
    page."""
    rng = random.Random(7)
    for n in range(4):
        shown = game.view("red")
        turn, before = shown["turn"], shown["version"]
        route = {"naval-war": F(f"/games/{game.id}/move", {"weapon": "salvo", "at": "A 1",
                                                            "target": turn}),
                 "battleship-tcg": F(f"/tcg/games/{game.id}/shoot", {"at": "A 1"}),
                 "broadside": F(f"/broadside/games/{game.id}/move", {"pass": "1"}),
                 "broadsides-boarding": F(f"{BOARDING}/games/{game.id}/order", {
                     "kind": "plot", "card1": "stay", "card2": "stay", "card3": "stay"})}
        for idle in [s for s in ("red", "blue") if s not in owes_in(shown)]:
            game.call(idle, route[game.rules], FORM, why="not his turn")
            game.call(idle, J("POST", f"/api/v1/games/{game.id}/moves", {"at": "A 1"}),
                      {409, 422}, why="not his turn")
        assert game.view("red")["version"] == before
        _move(game, turn, by_page=n % 2 == 0, rng=rng)
        assert game.view("red")["version"] > before
    game.call("blue", F(f"/games/{game.id}/resign"), FORM)
    assert game.view("red")["phase"] == "over"


def finish(game: Game) -> None:
    """After the end: the game file, imported again (a game is imported once), and hosting
    handed to Blue and back by the API and the page."""
    g = game.id
    exported = game.call("blue", G(f"/api/v1/games/{g}/export"), {200}).get_json()
    game.call("nobody", J("POST", "/api/v1/games/import", exported), {409})
    game.call("nobody", Req("POST", "/club/import", form={
        "game_file": (io.BytesIO(json.dumps(exported).encode()), "game.json")}),
        {409})
    game.call("red", J("POST", f"/api/v1/games/{g}/host/handover", {"seat": "blue"},
                       host=True), {200})
    game.call("red", G(f"/games/{g}/host"), {403}, why="hosting went to Blue")
    game.call("blue", F(f"/games/{g}/host/handover/red"), FORM)
    game.call("red", G(f"/games/{g}/host"), {200})


def everything_else(app, callers: dict[str, Caller], seen: list) -> None:
    """The routes that take no game: home, the computer, the club, the API's own, the
    icons and the blank paper, each with plausible and with junk input."""
    nobody = Game(app, "", "", callers, "", seen)
    level = next(iter(rulesets.named("battleship-tcg").levels))
    for req, expect in [
        (G("/"), {200}), (F("/", {"name": "Eve", "seats": "9", "minutes": "x"}), {200}),
        (F("/play-computer", {"player": "Eve", "rules": "battleship-tcg",
                              "level": f"battleship-tcg:{level}"}), {302}),
        (F("/play-computer", {"player": "", "rules": "<b>", "level": "x"}), {400}),
        (G("/club"), {200}),
        (G("/evening"), {200}),  # the test client asks from the laptop (loopback)
        (G("/evening?key=" + "0" * 24), {200}),
        (Req("POST", "/club/import", form={}), {400}),
        (J("POST", "/api/v1/games", {"rules": "broadside"}), {201}),
        (J("POST", "/api/v1/games", {"rules": "chess", "seats": 99}), {422}),
        (Req("POST", "/api/v1/games", raw=b"\xff\xfe"), {400}),
        (J("POST", "/api/v1/games/import", {"format": "x"}), {422}),
        (G("/api/v1/openapi.json"), {200}), (G("/api/v1/rules"), {200}),
        (G("/api/v1/rules?rules=<b>"), {200, 400, 404}),
        (G("/favicon.ico"), {200}), (G("/apple-touch-icon.png"), {200}),
        (G("/apple-touch-icon-precomposed.png"), {200}), (G("/manifest.webmanifest"), {200}),
        (G("/v/0123456789abcdef/static/app.css"), {200}), (G("/v/x/tcg/static/tcg.js"), {200}),
        (G("/v/x/static/../app.py"), {404}), (G("/v/x/nowhere/a.js"), {404}),
        *[(G(f"/printables/blank-chart.pdf?rules={r}&layout=single"), {200})
          for r in RULE_SETS],
        *[(G(f"/printables/blank-record.pdf?rules={r}&pages=1&paper=letter"), {200})
          for r in RULE_SETS],
        (G("/printables/blank-chart.pdf?rules=<b>"), {400}),
        (G("/printables/blank-record.pdf?pages=99"), {400}),
    ]:
        nobody.call("nobody", req, expect)


def required_routes(app) -> set[tuple[str, str]]:
    return {(rule.endpoint, method) for rule in app.url_map.iter_rules()
            for method in rule.methods - {"HEAD", "OPTIONS"}
            if rule.endpoint != "static" and not rule.endpoint.endswith(".static")}


def _schema(app) -> list:
    connection = sqlite3.connect(app.config["DATABASE"])
    try:
        return sorted(connection.execute("select type, name, sql from sqlite_master"))
    finally:
        connection.close()


def _stranger(app) -> Caller:
    """A phone that plays and hosts a game of its own (made by the API, so its host token is
    live): its cookie, seat token and host token are all another game's."""
    stranger = Caller(app, "stranger")
    theirs = stranger.client.post("/api/v1/games", json={}).get_json()
    joined = stranger.client.post(f"/api/v1/games/{theirs['id']}/seats/red", json={
        "join_code": theirs["seats"]["red"]["join_code"], "name": "Sam"}).get_json()
    stranger.hold(theirs["id"], joined["token"])
    stranger.host_tokens[theirs["id"]] = theirs["host_token"]
    with stranger.client.session_transaction() as held:
        held["host"] = {theirs["id"]: theirs["host_token"]}
    return stranger


def test_every_route_answers_every_caller_in_every_phase_of_every_rule_set_and_none_is_left_out(
        app):
    called: set[tuple[str, str]] = set()
    endpoints: list[str | None] = []
    failures: list[str] = []

    def answered(sender, response, **_extra) -> None:
        called.add((request.endpoint, request.method))
        endpoints.append(request.endpoint)
        if response.status_code >= 500:
            failures.append(f"{request.method} {request.path} -> {response.status_code}")

    schema = _schema(app)
    request_finished.connect(answered, app)
    try:
        stranger = _stranger(app)
        games: dict[str, Game] = {}
        for rules in RULE_SETS:
            callers = {name: Caller(app, name) for name in ("red", "blue", "nobody", "forged")}
            games[rules] = create(app, rules, {**callers, "stranger": stranger}, endpoints)
        everything_else(app, games["naval-war"].callers, endpoints)
        for game in games.values():
            sweep(game, "setup")
            reissue_and_recover(game)
            set_up(game)
            sweep(game, "play")
            play(game)
            sweep(game, "over")
            finish(game)
    finally:
        request_finished.disconnect(answered, app)
    assert not failures, failures
    left_out = required_routes(app) - called
    assert not left_out, f"routes no test here calls: {sorted(left_out)}"
    assert _schema(app) == schema, "a table or index was made outside the migrations"
