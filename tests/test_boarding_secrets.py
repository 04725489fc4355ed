"""What a seat receives before its time (BB5, BB10, BB24, BB25; R21, R25), scanned as a player
would receive it: two referees, each playing the same game with chance fixed alike, where one
seat's sealed order differs, send the other seat the very same bytes (its view, record, status
poll, page, PDFs, host page and refusals) until the order is turned up; the computer standing in
for an absent seat orders alike whatever the other plotted; and the referee's secret dice seed
is in nothing anyone receives, nor in the log lines, before the end, and is there after it."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re

import pytest
from apiclient import Api, FlaskTransport
from contract_support import FORM_TOKEN, TOKEN_VALUE, Clock, make_app, pdf_text
from rule_set_tables import open_table

from referee import rulesets, service

RULES = "broadsides-boarding"


@pytest.fixture
def chance_alike(monkeypatch):
    """Every referee here draws the same ids, salts, secrets and seeds, and reads one clock."""
    clock = Clock()
    monkeypatch.setattr(service.clock, "now", clock)
    monkeypatch.setattr(service.commands.secrets, "randbits", lambda bits: 20250601)
    monkeypatch.setattr(service.commands.secrets, "token_hex", lambda n=32: hashlib.sha256(
        str(n).encode()).hexdigest()[:2 * n])
    return clock


def table_of(app):
    table = open_table(Api(FlaskTransport(app.test_client())), RULES, move_minutes=5)
    for seat, captain in (("red", "D4"), ("blue", "E4")):
        status, body, _ = table.call(seat, "PUT", "/disposition", {"captain": captain})
        assert status == 200, body
    for seat in ("red", "blue"):
        status, body, _ = table.call(seat, "POST", "/ready")
        assert status == 200, body
    return table


def masked(text: str) -> str:
    return FORM_TOKEN.sub(lambda tag: TOKEN_VALUE.sub(r"\1<token>", tag.group()), text)


def received(app, table, seat: str) -> dict:
    """Everything a seat receives now, as bytes or text: its view (with its ETag), record,
    status poll, page and both PDFs, and the host's status."""
    client = app.test_client()
    bearer = {"Authorization": f"Bearer {table.tokens[seat]}"}
    with client.session_transaction() as held:
        held["seats"] = {table.id: table.tokens[seat]}
    view = client.get(f"/api/v1/games/{table.id}", headers=bearer)
    host = json.loads(client.get(f"/api/v1/games/{table.id}/host",
                                 headers={"Authorization": f"Bearer {table.host_token}"}).data)
    for info in host["seats"].values():
        info.pop("last_seen")
    return {
        "view": view.data, "etag": view.headers.get("ETag"),
        "record": client.get(f"/api/v1/games/{table.id}/record", headers=bearer).data,
        "poll": client.get(f"/games/{table.id}/status").get_json(),
        "page": masked(client.get(f"/games/{table.id}").get_data(as_text=True)),
        "charts": pdf_text(client.get(f"/api/v1/games/{table.id}/charts.pdf",
                                      headers=bearer).data),
        "record.pdf": pdf_text(client.get(f"/api/v1/games/{table.id}/record.pdf",
                                          headers=bearer).data),
        "host": host,
        "refusal": client.post(f"/api/v1/games/{table.id}/moves", headers=bearer,
                               json={"cards": ["forward"]}).data,
    }


def alike(apps, tables, seat: str) -> None:
    one, two = (received(app, table, seat) for app, table in zip(apps, tables, strict=True))
    differ = [part for part in one if one[part] != two[part]]
    assert not differ, f"{seat} is shown different {differ}"


@pytest.fixture
def twins(tmp_path, chance_alike):
    apps = [make_app(tmp_path / "one"), make_app(tmp_path / "two")]
    tables = [table_of(app) for app in apps]
    assert tables[0].id == tables[1].id
    return apps, tables


def order(table, seat: str, document: dict) -> None:
    status, body, _ = table.call(seat, "POST", "/moves", document)
    assert status == 201, body


def test_bb5_the_other_seat_receives_the_same_bytes_whatever_a_plot_holds(twins):
    apps, tables = twins
    alike(apps, tables, "blue")
    order(tables[0], "red", {"cards": ["forward", "forward", "port"]})
    order(tables[1], "red", {"cards": ["starboard", "stay", "forward"]})
    alike(apps, tables, "blue")
    assert received(apps[0], tables[0], "red")["view"] != \
        received(apps[1], tables[1], "red")["view"]  # his own plot is his to see
    for table in tables:  # the cards turn up: now the plots tell
        order(table, "blue", {"cards": ["stay", "stay", "stay"]})
    assert received(apps[0], tables[0], "blue")["view"] != \
        received(apps[1], tables[1], "blue")["view"]


SAIL = [(["forward"] * 3, ["forward"] * 3),
        (["port", "forward", "forward"], ["starboard", "forward", "forward"]),
        (["starboard", "stay", "stay"], ["forward", "stay", "stay"])]


def test_bb10_a_volleys_targets_are_sealed_until_both_have_declared(twins):
    apps, tables = twins
    for red, blue in SAIL:  # three rounds bring the ships within a dot (BB8)
        for table in tables:
            order(table, "red", {"cards": red})
            order(table, "blue", {"cards": blue})
    assert tables[0].owing() == ["red", "blue"]
    order(tables[0], "red", {"targets": {"B3": "C", "C3": "C"}})
    order(tables[1], "red", {"targets": {"B3": "H", "C3": None}})
    alike(apps, tables, "blue")


def test_r25_the_stand_in_orders_from_its_own_view_whatever_the_other_plotted(twins,
                                                                             chance_alike):
    apps, tables = twins
    order(tables[0], "blue", {"cards": ["forward", "forward", "forward"]})
    order(tables[1], "blue", {"cards": ["port", "port", "stay"]})
    chance_alike.advance(6)  # Red's move clock runs out, and his phone is away
    for table in tables:
        status, body, _ = table.call("blue", "POST", "/seats/red/stand-in")
        assert status == 200, body
    plots = []
    for app in apps:
        events = app.extensions["referee.store"]().events(tables[0].id)
        plots.append(next(e for e in events if e["type"] == "move" and e["seat"] == "red"))
    assert plots[0] == plots[1] and plots[0]["stand_in"] is True


def test_bb24_the_secret_seed_reaches_nobody_before_the_end_and_everybody_after(
        tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="referee")
    app = make_app(tmp_path / "one")
    table = table_of(app)
    store = app.extensions["referee.store"]()
    secret = hmac.new(bytes.fromhex(store.secret(table.id)), b"dice",
                      hashlib.sha256).hexdigest()
    computer = {s: rulesets.named(RULES).computer("gunner", f"scan:{s}") for s in table.tokens}
    seen: list[str] = []
    for _ in range(400):
        for seat in table.tokens:
            seen.append(json.dumps(received(app, table, seat), default=repr))
        owing = table.owing()
        if not owing:
            break
        seat = owing[0]
        status, report, _ = table.call(seat, "POST", "/moves",
                                       computer[seat].move(table.view(seat)))
        assert status == 201, report
        if not table.owing():
            break  # the move that ended the game: its report may tell the seed (BB24)
        seen.append(json.dumps(report))
        if len(seen) > 60 and table.view("red")["dice"]["rolls"]:
            break
    assert table.view("red")["dice"]["rolls"], "no roll was drawn"
    client = app.test_client()
    bearer = {"Authorization": f"Bearer {table.tokens['red']}"}
    if table.owing():  # before the end, what is kept till then is refused
        for tail in ("/export", "/postmortem", "/postmortem.pdf"):
            seen.append(client.get(f"/api/v1/games/{table.id}{tail}", headers=bearer)
                        .get_data().decode("latin-1"))
    everything = "\n".join(seen) + caplog.text
    for part in (secret, secret[:16], secret[-16:]):
        assert part not in everything
    if table.owing():
        status, body, _ = table.call("red", "POST", "/resign")
        assert status == 200, body
    exported = client.get(f"/api/v1/games/{table.id}/export", headers=bearer).get_json()
    assert exported["dice"]["secret"] == secret
    assert table.view("blue")["dice"]["secret"] == secret
    assert secret in client.get(f"/api/v1/games/{table.id}/postmortem",
                                headers=bearer).get_data(as_text=True)
    with client.session_transaction() as held:
        held["seats"] = {table.id: table.tokens["red"]}
    page = client.get(f"/games/{table.id}/postmortem").get_data(as_text=True)
    assert secret in page
    assert re.search(r"(\d+ rolls recomputed: every one|1 roll recomputed: it) is the roll the "
                     r"seeds give", page), "the audit's verdict"
    booklet = "".join(pdf_text(client.get(f"/api/v1/games/{table.id}/postmortem.pdf",
                                          headers=bearer).data))
    assert re.sub(r"\s", "", secret) in re.sub(r"\s", "", booklet)


def test_bb24_the_players_seeds_come_with_their_lock_ins(tmp_path):
    app = make_app(tmp_path / "seeds")
    table = open_table(Api(FlaskTransport(app.test_client())), RULES)
    for seat in table.tokens:
        assert table.call(seat, "PUT", "/disposition", {"captain": "C4"})[0] == 200
    before = table.version()
    for body, field in (({"dice_seed": "<b>"}, "dice_seed"), ({"dice_seed": 7}, "dice_seed"),
                        ({"seed": "x"}, "seed")):
        status, answer, _ = table.call("red", "POST", "/ready", body)
        assert status in (400, 422) and answer["errors"][0]["field"] == field, answer
    assert table.version() == before
    status, _, _ = table.call("red", "POST", "/ready", {"dice_seed": "my-phone_0123"})
    assert status == 200
    status, _, _ = table.call("blue", "POST", "/ready")
    assert status == 200
    seeds = table.view("blue")["dice"]["seeds"]
    assert seeds["red"] == "my-phone_0123" and re.fullmatch(r"[0-9a-f]{32}", seeds["blue"])
    script = app.test_client().get("/broadsides-boarding/static/boarding.js")
    assert script.status_code == 200 and b"crypto.getRandomValues" in script.data
