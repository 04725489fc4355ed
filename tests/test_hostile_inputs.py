"""A referee nobody can cheat, its inputs hardened: hostile names, numbers no clock or count can
hold, bodies that are not declared JSON, private files and a session cookie that keeps only what a
phone needs.

Idle connections and huge bodies need a real server process: tests/test_hostile_server.py.
"""

from __future__ import annotations

import copy
import io
import json
import os
import random
import re
import shutil
import stat
import subprocess
import threading
import unicodedata
from pathlib import Path

import pytest
from api_support import assert_errors
from apiclient import Api, FlaskTransport, lock_in_random_fleets, open_table
from pages_support import Page, Phone, create_game, join, make_app, path_of

from referee import service
from referee.naval_war import RuleViolation
from referee.naval_war.layout import random_purchase, scatter

MAX_NAME = 40


def check_name(name: object) -> str:
    from referee.naval_war.game import check_name as the_rule  # the rules core's one rule

    return the_rule(name)

# -- names ----------------------------------------------------------------------------------

REFUSED_NAMES = {
    "img-dev-zero": '<img src="/dev/zero"/>',
    "img-file": '<img src="/etc/hostname"/>',
    "bold": "<b>x",
    "closing-tag": "x</para>",
    "zero-width-space": "Ann\u200b",
    "zero-width-joiner": "An\u200dn",
    "bom": "\ufeffAnn",
    "rtl-override": "Ann\u202egnp.exe",
    "lrm": "Ann\u200e",
    "word-joiner": "A\u2060nn",
    "nul": "Ann\x00",
    "newline": "Ann\nBob",
    "escape": "Ann\x1b[31m",
    "line-separator": "Ann\u2028Bob",
    "hangul-filler": "\u3164",
    "private-use": "Ann\ue000",
    "grapheme-joiner": "A\u034fnn",
    "zalgo": "Ann" + "\u0300\u0301\u0302\u0303\u0304\u0305",
    "posing-as-computer": "Computer (admiral)",
    "41-chars": "x" * (MAX_NAME + 1),
    "blank": "   ",
    "empty": "",
}
# names a player may take, that must print exactly as typed: never read as markup
PRINTED_AS_TYPED = {
    "entity": "&amp;",
    "escaped-tag": "&lt;b&gt;x",
    "ampersand": "Tom & Jerry",
    "quotes": "O'Brien \"Ace\"",
    "numeric-entity": "&#60;img&#62;",
}


@pytest.mark.parametrize("name", REFUSED_NAMES.values(), ids=REFUSED_NAMES.keys())
def test_the_name_rule_refuses_markup_control_and_invisible_characters(name):
    with pytest.raises(RuleViolation) as refused:
        check_name(name)
    problem = refused.value.problems[0]
    assert problem.rule == "R10" and problem.field == "name"


def test_names_are_nfc_trimmed_and_40_characters_after_normalising():
    decomposed = unicodedata.normalize("NFD", "é") * MAX_NAME  # 80 code points, 40 letters
    assert len(decomposed) == 2 * MAX_NAME
    assert check_name(decomposed) == "é" * MAX_NAME
    assert check_name("  Zoë  ") == "Zoë"
    assert check_name("Nguyễn Thị") == "Nguyễn Thị"  # a few accents on a letter are fine
    assert check_name("क्षत्रिय") == "क्षत्रिय"
    assert check_name(unicodedata.normalize("NFD", "Zoë")) == "Zoë"
    for name in PRINTED_AS_TYPED.values():
        assert check_name(name) == name
    with pytest.raises(RuleViolation):
        check_name("é" * (MAX_NAME + 1))


@pytest.fixture
def japi(client) -> Api:
    return Api(FlaskTransport(client))


def _created(api: Api, **options) -> dict:
    status, created, _ = api.call("POST", "/api/v1/games", {"seats": 2, **options})
    assert status == 201, created
    return created


NEWLY_REFUSED = {k: v for k, v in REFUSED_NAMES.items() if k not in ("41-chars", "blank", "empty")}


@pytest.mark.parametrize("name", NEWLY_REFUSED.values(), ids=NEWLY_REFUSED.keys())
def test_the_api_refuses_a_hostile_name_naming_the_field(japi, name):
    created = _created(japi)
    status, body, _ = japi.call("POST", f"/api/v1/games/{created['id']}/seats/blue",
                                {"join_code": created["seats"]["blue"]["join_code"],
                                 "name": name})
    assert_errors(status, body, 422, rule="R10", field="name")
    # nothing was half-applied: the seat can still be claimed with a good name
    status, body, _ = japi.call("POST", f"/api/v1/games/{created['id']}/seats/blue",
                                {"join_code": created["seats"]["blue"]["join_code"],
                                 "name": "Bob"})
    assert status == 200, body


def test_a_name_is_stored_as_nfc_and_trimmed_through_the_api(japi):
    created = _created(japi)
    status, body, _ = japi.call("POST", f"/api/v1/games/{created['id']}/seats/blue",
                                {"join_code": created["seats"]["blue"]["join_code"],
                                 "name": "  " + unicodedata.normalize("NFD", "Zoë") + " "})
    assert status == 200, body
    status, view, _ = japi.call("GET", f"/api/v1/games/{created['id']}", token=body["token"])
    assert view["seats"]["blue"]["name"] == "Zoë"


@pytest.fixture
def papp(tmp_path):
    return make_app(tmp_path)


def _games_stored(app) -> int:
    with app.app_context():
        db = app.extensions["referee.store"]()
        return next(db.db.query("select count(*) as n from games"))["n"]


@pytest.mark.parametrize("name", [REFUSED_NAMES[k] for k in
                                  ("img-dev-zero", "bold", "zero-width-joiner", "rtl-override",
                                   "bom")],
                         ids=["img-dev-zero", "bold", "zwj", "rtl", "bom"])
def test_the_pages_refuse_a_hostile_name_and_create_nothing(papp, name):
    phone = Phone(papp, "red")
    response = phone.submit("/", "/", {"name": name, "seats": "2", "minutes": "20"})
    assert response.status_code == 200 and response.request.path == "/"
    assert "name" in response.text.lower() and _games_stored(papp) == 0
    response = phone.submit("/", "/play-computer", {"player": name, "level": "recruit"})
    assert response.status_code == 400, response.status_code
    assert "Your name" in response.text and _games_stored(papp) == 0
    # the join page: the form is shown again with the problem, the seat stays free
    _, links, _ = create_game(phone, name="Ann")
    blue = Phone(papp, "blue")
    response = join(blue, links["blue"], name)
    assert response.status_code == 200 and "/join/" in response.request.path
    assert "name" in response.text.lower()
    response = join(blue, links["blue"], "Bob")
    assert response.status_code == 200 and "/join/" not in response.request.path


def test_a_long_nfd_name_is_taken_by_the_pages(papp):
    phone = Phone(papp, "red")
    name = unicodedata.normalize("NFD", "é") * MAX_NAME
    game_id, _, response = create_game(phone, name=name)
    assert "é" * MAX_NAME in response.text


def _finished_table(api: Api):
    """A two-seat game through the API, fleets locked in, ended by agreement."""
    table = open_table(api)
    lock_in_random_fleets(table, random.Random(10))
    for seat in table.tokens:
        status, body, _ = table.as_seat(seat, "POST", "/end")
        assert status == 200, body
    return table


def _exported(api: Api) -> dict:
    table = _finished_table(api)
    status, document, _ = table.as_seat("red", "GET", "/export")
    assert status == 200, document
    return document


def _import(api: Api, document: dict):
    return api.call("POST", "/api/v1/games/import", document)


@pytest.mark.parametrize("name", [REFUSED_NAMES[k] for k in
                                  ("img-dev-zero", "bold", "rtl-override", "nul")],
                         ids=["img-dev-zero", "bold", "rtl", "nul"])
def test_an_imported_game_file_with_a_hostile_name_is_refused(app, japi, name):
    document = _exported(japi)
    before = _games_stored(app)
    tampered = copy.deepcopy(document)
    joined = next(e for e in tampered["events"] if e["type"] == "joined")
    joined["name"] = name  # names are not covered by the fingerprints
    status, body, _ = _import(japi, tampered)
    errors = assert_errors(status, body, 422)
    assert "name" in errors[0]["message"] and "R10" in errors[0]["message"]
    assert _games_stored(app) == before


@pytest.mark.parametrize("level", ['<img src="/dev/zero"/>', "<b>x", "x" * 40, "cap\u202etain"])
def test_an_imported_computer_level_is_held_to_the_name_rule(app, japi, level):
    """A computer's name is made from its level ("Computer (captain)"): a game file naming
    any other level is held to the name rule as a player's name is."""
    created = _created(japi, bots={"blue": "recruit"})
    status, body, _ = japi.call("POST", f"/api/v1/games/{created['id']}/seats/red",
                                {"join_code": created["seats"]["red"]["join_code"],
                                 "name": "Ann"})
    red, base = body["token"], f"/api/v1/games/{created['id']}"
    rng = random.Random(5)
    assert japi.call("PUT", f"{base}/disposition", scatter(random_purchase(rng), rng),
                     token=red)[0] == 200
    assert japi.call("POST", f"{base}/ready", token=red)[0] == 200
    assert japi.call("POST", f"{base}/resign", token=red)[0] == 200
    status, document, _ = japi.call("GET", f"{base}/export", token=red)
    assert status == 200, document
    tampered = copy.deepcopy(document)
    tampered["events"][0]["bots"] = {"blue": level}
    before = _games_stored(app)
    status, body, _ = _import(japi, tampered)
    errors = assert_errors(status, body, 422)
    # refused as an unknown level (a known level) or by the name rule (R10): either way named
    assert "bots.blue" in errors[0]["message"] + errors[0].get("field", ""), errors
    assert _games_stored(app) == before


def _pdf_text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, timeout=30, check=True).stdout


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs poppler-utils")
@pytest.mark.parametrize("name", [PRINTED_AS_TYPED[k] for k in ("entity", "escaped-tag",
                                                                 "numeric-entity")],
                         ids=["entity", "escaped-tag", "numeric-entity"])
def test_names_print_as_typed_in_every_pdf(japi, tmp_path, name):
    created = _created(japi)
    tokens = {}
    for seat, who in (("red", name), ("blue", "Bob")):
        status, body, _ = japi.call("POST", f"/api/v1/games/{created['id']}/seats/{seat}",
                                    {"join_code": created["seats"][seat]["join_code"],
                                     "name": who})
        assert status == 200, body
        tokens[seat] = body["token"]
    base = f"/api/v1/games/{created['id']}"
    rng = random.Random(3)
    for token in tokens.values():
        document = scatter(random_purchase(rng), rng)
        assert japi.call("PUT", f"{base}/disposition", document, token=token)[0] == 200
        assert japi.call("POST", f"{base}/ready", token=token)[0] == 200
    for token in tokens.values():
        assert japi.call("POST", f"{base}/end", token=token)[0] == 200
    client = japi.send.client
    for route in ("charts.pdf", "record.pdf", "postmortem.pdf"):
        response = client.get(f"{base}/{route}",
                              headers={"Authorization": f"Bearer {tokens['red']}"})
        assert response.status_code == 200, (route, response.data[:300])
        if route == "charts.pdf":  # the title line: "Player <name>"
            assert name in _pdf_text(response.data, tmp_path), route


def test_markup_in_a_name_never_reaches_reportlab(tmp_path):
    """However a name got into a view (a database from before the name rule, say), the PDFs
    print it as text: no file read from the server's disk, no 500 for '<b>x'."""
    from helpers import started_game

    from referee.naval_war import record_for, view_for
    from referee.naval_war.postmortem import postmortem_document
    from referee.naval_war.web import paper as printables

    canary = tmp_path / "canary.png"  # a real image: embedded in the PDF if markup gets through
    canary.write_bytes(bytes.fromhex(
        "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
        "0000000d4944415478da63f8cfc0f01f0005000201a1c2d8b30000000049454e44ae426082"))
    game = started_game()
    game.agree_to_end("red")
    game.agree_to_end("blue")
    hostile = {"red": f'<img src="{canary}" width="400" height="400"/>', "blue": "<b>x"}
    game.names.update(hostile)  # past the rule, as an old database might hold them
    for seat in ("red", "blue"):
        view, record = view_for(game, seat), record_for(game, seat)
        pdfs = [printables.player_charts(view), printables.player_record(record),
                printables.postmortem(view, record, analysis=postmortem_document(game))]
        for pdf in pdfs:
            assert b"/Subtype /Image" not in pdf and b"/XObject" not in pdf
        assert hostile[seat] in _pdf_text(pdfs[0], tmp_path).replace("\n", "")



# -- numbers no clock or count can hold, NaN and Infinity -------------------------------

HUGE = int("9" * 401)


@pytest.mark.parametrize("at", [HUGE, -1, 1e300, -HUGE],
                         ids=["401-digits", "negative", "1e300", "minus-401"])
def test_an_imported_created_at_out_of_range_is_422(app, japi, at):
    document = _exported(japi)
    tampered = copy.deepcopy(document)
    tampered["events"][0]["at"] = at
    before = _games_stored(app)
    status, body, _ = _import(japi, tampered)
    errors = assert_errors(status, body, 422)
    assert "'at'" in errors[0]["message"], errors
    assert _games_stored(app) == before


@pytest.mark.parametrize("constant", [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e999"])
def test_nan_and_infinity_are_refused_in_every_api_body(japi, constant):
    created = _created(japi)
    game = f"/api/v1/games/{created['id']}"
    raw_bodies = [
        ("/api/v1/games", b'{"seats": 2, "disposition_minutes": %s}' % constant, None),
        (f"{game}/seats/blue", b'{"join_code": "x", "name": "Bob", "n": %s}' % constant, None),
        (f"{game}/clock", b'{"minutes": %s}' % constant, created["host_token"]),
        ("/api/v1/games/import", b'{"format": "naval-war-game", "exported_at": %s}' % constant,
         None),
    ]
    for path, raw, token in raw_bodies:
        status, body, _ = japi.call("POST", path, raw, token=token)
        errors = assert_errors(status, body, 422, field="body")
        assert "number" in errors[0]["message"], errors


def test_a_nan_in_an_imported_file_never_makes_invalid_json(app, japi):
    document = _exported(japi)
    raw = json.dumps(document).replace('"exported_at": ', '"exported_at": NaN, "x": ', 1)
    status, body, _ = japi.call("POST", "/api/v1/games/import", raw.encode())
    assert_errors(status, body, 422, field="body")
    raw = json.dumps(document)
    events = json.loads(raw)["events"]
    forfeit_like = json.dumps(events[0]).replace('"at": ', '"at": Infinity, "y": ', 1)
    status, body, _ = japi.call("POST", "/api/v1/games/import",
                                raw.replace(json.dumps(events[0]), forfeit_like).encode())
    assert_errors(status, body, 422)


@pytest.mark.parametrize("minutes", [1e308, 10**400, -5, 0, 2.5, 10**6])
def test_r10_clock_minutes_out_of_range_are_422_naming_the_field(japi, minutes):
    created = _created(japi)
    status, body, _ = japi.call("POST", f"/api/v1/games/{created['id']}/clock",
                                {"minutes": minutes}, token=created["host_token"])
    assert_errors(status, body, 422, field="minutes", rule="R10")
    status, body, _ = japi.call("POST", "/api/v1/games", {"disposition_minutes": minutes})
    assert_errors(status, body, 422, field="disposition_minutes", rule="R10")


def test_the_pages_refuse_nan_in_a_draft_marks_and_an_imported_file(papp):
    phone = Phone(papp, "red")
    game_id, _, _ = create_game(phone)
    base = f"/games/{game_id}"
    phone.submit(base, f"{base}/budget", {"battleship": "10", "bomber": "20"})
    token = phone.csrf(base)
    response = phone.post_json(f"{base}/draft", None, token=token,
                               raw=b'{"disposition": {"ships": [{"type": "battleship", '
                                   b'"at": "A 1", "dir": NaN}], "salvoes": Infinity}}')
    assert response.status_code == 400, response.text
    with papp.app_context():
        draft = papp.extensions["referee.store"]().note("drafts", game_id, "red")
    assert "NaN" not in json.dumps(draft) and "Infinity" not in json.dumps(draft)
    response = phone.post_json(f"{base}/marks", None, token=token, raw=b'{"blue": NaN}')
    assert response.status_code == 400
    page = phone.get("/club")
    _, fields = Page(page.text).form("/club/import", "/club")
    response = phone.post("/club/import", data={
        "csrf_token": fields["csrf_token"],
        "game_file": (io.BytesIO(b'{"format": "naval-war-game", "version": 1, "x": NaN}'),
                      "game.json")}, headers={"Accept": "text/html"})
    assert response.status_code == 422 and "not a game file" in response.text


def test_a_deeply_nested_file_on_the_club_page_is_422_not_500(papp):
    phone = Phone(papp, "red")
    page = phone.get("/club")
    _, fields = Page(page.text).form("/club/import", "/club")
    response = phone.post("/club/import", data={
        "csrf_token": fields["csrf_token"],
        "game_file": (io.BytesIO(b"[" * 30000 + b"]" * 30000), "game.json")},
        headers={"Accept": "text/html"})
    assert response.status_code == 422 and "not a game file" in response.text


# -- only JSON is posted to the API -----------------------------------------------------

NOT_JSON_TYPES = ["text/plain", "application/x-www-form-urlencoded",
                  "multipart/form-data; boundary=x", "application/xml", "text/json",
                  "application/jsonx", None]


@pytest.mark.parametrize("content_type", NOT_JSON_TYPES, ids=[str(t) for t in NOT_JSON_TYPES])
def test_every_api_post_and_put_takes_json_only(client, japi, content_type):
    created = _created(japi)
    game = f"/api/v1/games/{created['id']}"
    status, joined, _ = japi.call("POST", f"{game}/seats/red",
                                  {"join_code": created["seats"]["red"]["join_code"],
                                   "name": "Ann"})
    red = joined["token"]
    body = json.dumps({"seats": 2, "join_code": created["seats"]["blue"]["join_code"],
                       "name": "Bob", "minutes": 5})
    calls = [("POST", "/api/v1/games", None), ("POST", f"{game}/seats/blue", None),
             ("PUT", f"{game}/disposition", red), ("POST", f"{game}/moves", red),
             ("POST", f"{game}/ready", red), ("POST", f"{game}/clock", created["host_token"]),
             ("POST", "/api/v1/games/import", None)]
    for method, path, token in calls:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if content_type:
            headers["Content-Type"] = content_type
        response = client.open(path, method=method, data=body, headers=headers)
        assert response.status_code == 415, (path, response.status_code, response.get_json())
        assert_errors(415, response.get_json(), 415, field="Content-Type")
    status, host, _ = japi.call("GET", f"{game}/host", token=created["host_token"])
    assert host["seats"]["blue"]["name"] is None  # nothing was applied
    assert host["clock"]["minutes"] == 20
    _json_with_a_charset_and_bodiless_posts_still_pass(client)


def _json_with_a_charset_and_bodiless_posts_still_pass(client):
    response = client.post("/api/v1/games", data=b'{"seats": 2}',
                           headers={"Content-Type": "application/json; charset=utf-8"})
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    response = client.post(f"/api/v1/games/{created['id']}/seats/blue/reissue",
                           headers={"Authorization": f"Bearer {created['host_token']}"})
    assert response.status_code == 200, response.get_json()  # no body, no Content-Type


def test_a_cross_site_form_cannot_import_a_game_file(client, japi):
    document = _exported(japi)
    response = client.post("/api/v1/games/import",
                           data={"file": json.dumps(document)},
                           headers={"Origin": "http://evil.example"})
    assert response.status_code == 415
    response = client.post("/api/v1/games/import", data=json.dumps(document),
                           headers={"Content-Type": "text/plain"})
    assert response.status_code == 415


def test_the_openapi_document_says_json_only(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method in ("post", "put"):
                assert "415" in operation["responses"], (method, path)
                body = operation.get("requestBody")
                if body:
                    assert list(body["content"]) == ["application/json"], (method, path)


# -- private files -------------------------------------------------------------------

@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_database_and_its_wal_and_shm_are_0600(tmp_path, umask_022):
    database = tmp_path / "instance" / "referee.db"
    app = make_app(tmp_path, DATABASE=str(database))
    api = Api(FlaskTransport(app.test_client()))
    _created(api)  # a write: the -wal and -shm files exist now
    for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        assert path.exists(), path
        assert _mode(path) == 0o600, (path, oct(_mode(path)))


def test_a_database_made_world_readable_earlier_is_made_private(tmp_path, umask_022):
    database = tmp_path / "old.db"
    database.touch(mode=0o644)
    make_app(tmp_path, DATABASE=str(database))
    assert _mode(database) == 0o600


def test_the_secret_key_is_never_readable_by_others(tmp_path, monkeypatch):
    """Created 0600 from its first byte: with umask 0 and every chmod disabled, the key
    file is still 0600 (a file written then chmod'ed would be 0666 here)."""
    from referee import app as app_module

    old = os.umask(0)
    try:
        monkeypatch.setattr(os, "chmod", lambda *a, **k: None)
        monkeypatch.setattr(Path, "chmod", lambda *a, **k: None)
        key = app_module._secret_key(tmp_path)
    finally:
        os.umask(old)
    path = tmp_path / "secret_key"
    assert len(key) == 64 and path.read_text().strip() == key
    assert _mode(path) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no temporary file left


def test_a_seat_cookie_signed_with_a_replaced_secret_key_holds_nothing(app):
    """The cookie's signing serializer is made once for the app's keys (not for every
    request), and made again when the key is replaced: a cookie signed with the old key
    is then refused, as Flask refuses it; one kept as a fallback still holds its seat."""
    phone = app.test_client()
    with phone.session_transaction() as held:
        held["seat"] = "kept"
    with phone.session_transaction() as held:
        assert held.get("seat") == "kept"
    old = app.secret_key
    app.secret_key = "a new key, the old one leaked"
    with phone.session_transaction() as held:
        assert "seat" not in held
    app.config["SECRET_KEY_FALLBACKS"] = [old]
    with phone.session_transaction() as held:
        assert held.get("seat") == "kept"


def test_a_header_a_response_sets_itself_is_not_set_again(app):
    """The security headers are added where a response has none of its own (whatever the
    case of its name), once each."""
    from referee.app import SECURITY_HEADERS, security_headers

    with app.test_request_context():
        response = app.response_class("x")
        response.headers["x-frame-options"] = "SAMEORIGIN"
        security_headers(response)
        names = [name.lower() for name, _ in response.headers]
        assert response.headers["X-Frame-Options"] == "SAMEORIGIN"
        assert all(names.count(name.lower()) == 1 for name in SECURITY_HEADERS)
        assert response.headers["Referrer-Policy"] == "no-referrer"


def test_processes_starting_together_agree_on_one_secret_key(tmp_path, monkeypatch):
    """Eight starting at once, each having found no key: all use the one key kept on disk."""
    from referee import app as app_module

    together = threading.Barrier(8, timeout=10)
    real = app_module.secrets.token_hex

    def drawn_together(n: int) -> str:
        together.wait()  # every thread has seen that there is no key yet
        return real(n)

    monkeypatch.setattr(app_module.secrets, "token_hex", drawn_together)
    keys: list[str] = []
    threads = [threading.Thread(target=lambda: keys.append(app_module._secret_key(tmp_path)))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(keys) == 8 and set(keys) == {(tmp_path / "secret_key").read_text().strip()}
    assert all(len(k) == 64 for k in keys)


# -- the session cookie --------------------------------------------------------------

def _session_of(app, phone: Phone) -> dict:
    cookie = phone.cookie()
    assert cookie is not None
    return app.session_interface.get_signing_serializer(app).loads(cookie.value)


def _finish_computer_game(app, game_id: str) -> None:
    """Red locks in a fleet and resigns: the game is over (through the service, for speed)."""
    rng = random.Random(game_id)
    with app.app_context():
        db = app.extensions["referee.store"]()

        def lock_and_resign(game):
            game.submit("red", scatter(random_purchase(rng), rng))
            service.lock_in(game, "red")
            return game.resign("red")

        service.act(db, game_id, lock_and_resign)


def test_a_phone_that_played_50_games_has_a_small_cookie(papp, monkeypatch):
    phone = Phone(papp, "busy")
    hosted, finished, codes = [], [], []
    for n in range(50):
        if n % 2:
            response = phone.submit("/", "/play-computer", {"player": f"P{n}",
                                                            "level": "recruit"})
            game_id = response.request.path.split("/")[2]
            _finish_computer_game(papp, game_id)
            finished.append(game_id)
        else:
            game_id, links, _ = create_game(phone, name=f"Host {n}")
            hosted.append(game_id)
            codes += [re.search(r"code=([^&]+)", link).group(1) for link in links.values()]
    # a game just finished stays on the phone for its booklet and file, games started since
    assert phone.get(f"/games/{finished[-1]}").status_code == 200
    assert phone.get(f"/games/{finished[-1]}/export.json").status_code == 200
    later = service.now() + 2 * 3600  # the finished games ended two hours ago
    monkeypatch.setattr(service.clock, "now", lambda: later)
    game_id, links, _ = create_game(phone, name="Tonight")
    hosted.append(game_id)
    codes += [re.search(r"code=([^&]+)", link).group(1) for link in links.values()]

    cookie = phone.cookie()
    assert len(cookie.value) < 2048, len(cookie.value)  # well under 4 KB
    session = _session_of(papp, phone)
    text = json.dumps(session)
    assert not [code for code in codes if code in text], "a join code is in the cookie"
    assert not [g for g in finished if g in text], "a finished game's token is kept"
    assert all(isinstance(v, str) for v in session["host"].values())
    assert len(session["seats"]) <= 12 and len(session["host"]) <= 12
    # the current games still work, the newest host page with its join links and QR codes
    for game_id in hosted[-3:]:
        assert phone.get(f"/games/{game_id}").status_code == 200
    host_page = phone.get(f"/games/{hosted[-1]}/host")
    assert host_page.status_code == 200 and links["blue"] in host_page.text
    assert phone.get(f"/games/{hosted[-1]}/qr/blue.svg").status_code == 200
    # the blue link still seats a player
    blue = Phone(papp, "blue")
    response = join(blue, links["blue"], "Bob")
    assert response.request.path == f"/games/{hosted[-1]}"


def test_a_cookie_from_before_keeps_working_without_its_codes(papp):
    phone = Phone(papp, "red")
    game_id, links, _ = create_game(phone)
    code = re.search(r"code=([^&]+)", links["blue"]).group(1)
    with phone.client.session_transaction() as session:
        token = session["host"][game_id]
        session["host"] = {game_id: {"token": token, "codes": {"blue": code}}}
    page = phone.get(f"/games/{game_id}/host")
    assert page.status_code == 200 and path_of(links["blue"]) in page.text.replace("&amp;", "&")
    assert code not in json.dumps(_session_of(papp, phone))
