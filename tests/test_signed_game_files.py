"""Signed game files and trusted referees: a finished game counts in the club's records only if
it was played here, or its file carries a valid Ed25519 signature of this referee or of one the
organiser trusts (`referee trust add`). Anyone can make a file whose fingerprints verify with
the referee's own core; such a file is listed as unverified and counted nowhere."""

from __future__ import annotations

import base64
import copy
import json
import os
import re
import sqlite3
import stat

import pytest
from api_support import table_in_play
from apiclient import Api, FlaskTransport
from forgery_support import RULES, fabricated
from helpers import ATTACKER, IDLE_SQUARES, QUIET, padded

from referee import create_app, signing

GAMES = "/api/v1/games"


def referee_at(folder) -> object:
    """Another referee: its own database and its own signing key, in a folder of its own."""
    folder.mkdir(exist_ok=True)
    return create_app({"TESTING": True, "DATABASE": str(folder / "referee.db"),
                       "SIGNING_KEY_FILE": str(folder / "signing_key"), "SECRET_KEY": "test",
                       "PUBLIC_URL": "http://localhost"})


def api_of(app) -> Api:
    return Api(FlaskTransport(app.test_client()))


def own_key(app) -> str:
    return app.extensions["referee.signing_key"].public


def played_here(api: Api, red: dict = QUIET, blue: dict = QUIET, resigns: str = "red"
                ) -> dict:
    """A game played to its end on this referee (a move, then one seat resigns: a game
    decided before any move counts in no record), and its file."""
    table = table_in_play(api, {"red": red, "blue": blue})
    turn = table.view("red")["turn"]
    assert table.as_seat(turn, "POST", "/moves",
                         {"weapon": "salvo", "at": IDLE_SQUARES})[0] == 201
    assert table.as_seat(resigns, "POST", "/resign")[0] == 200
    status, document, _ = table.as_seat("red", "GET", "/export")
    assert status == 200, document
    return document


def club_page(app) -> str:
    return app.test_client().get("/club").get_data(as_text=True)


def listed(page: str, game_id: str) -> str:
    """The club page's line about one game."""
    return next(li.split("</li>")[0] for li in page.split("<li>") if f"Game {game_id}" in li)


def games_stored(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as db:
        return db.execute("select count(*) from games").fetchone()[0]


def trust(app, *args: str):
    return app.test_cli_runner().invoke(args=["trust", *args])


# -- forged files count nowhere ----------------------------------------------------------------

def test_naval_war_games_fabricated_offline_are_listed_but_not_counted_on_the_club_page(app,
                                                                                         api):
    ids = []
    for salvoes in (60, 59, 58):  # three games, each with fleets of its own
        fleets = {"red": padded(salvoes=salvoes), "blue": padded(salvoes=salvoes)}
        status, imported, _ = api.call("POST", f"{GAMES}/import", fabricated(fleets=fleets))
        assert status == 201 and imported["counted"] is False, imported
        ids.append(imported["id"])
    page = club_page(app)
    for game_id in ids:
        assert "(unverified: not counted)" in listed(page, game_id)
    assert "<th scope=\"row\">Mallory</th>" not in page  # no record, no table
    assert "<th scope=\"row\">Alice</th>" not in page
    assert "0 finished games on this referee" in page


@pytest.mark.parametrize("rules", RULES)
def test_a_game_fabricated_offline_is_listed_but_not_counted_in_any_rule_set(rules, app, api):
    status, imported, _ = api.call("POST", f"{GAMES}/import", fabricated(rules))
    assert status == 201, imported
    page = club_page(app)
    assert "(unverified: not counted)" in listed(page, imported["id"])
    assert "Mallory</th>" not in page and "0 finished games on this referee" in page
    assert page.count("0 finished games counted.") == len(RULES)


def test_a_forger_s_own_signature_counts_nowhere(app, api):
    forger = signing.SigningKey(signing.new_private_key())
    document = forger.sign(fabricated())
    assert signing.signer(document) == forger.public  # a valid signature, of nobody trusted
    status, imported, _ = api.call("POST", f"{GAMES}/import", document)
    assert status == 201 and imported["counted"] is False and \
        imported["signer"] == forger.public, imported
    assert "(unverified: not counted)" in listed(club_page(app), imported["id"])


# -- a file from another referee counts once its key is trusted ------------------------------

def test_a_file_exported_here_counts_on_another_referee_only_once_its_key_is_trusted(
        app, api, tmp_path):
    document = played_here(api)
    assert document["signature"]["public_key"] == own_key(app)
    there = referee_at(tmp_path / "other")
    status, imported, _ = api_of(there).call("POST", f"{GAMES}/import", document)
    assert status == 201 and imported["counted"] is False, imported
    page = club_page(there)
    assert "(unverified: not counted)" in listed(page, imported["id"])
    assert "0 finished games on this referee" in page

    result = trust(there, "add", own_key(app), "--name", "Club laptop")
    assert result.exit_code == 0 and "Trusted" in result.output, result.output
    page = club_page(there)
    assert "unverified" not in listed(page, imported["id"])
    assert "1 finished game on this referee" in page and "Red</th><td>1" in page
    listing = trust(there, "list").output
    assert own_key(there) in listing and f"{own_key(app)}  Club laptop" in listing

    assert trust(there, "remove", own_key(app)).exit_code == 0
    assert "(unverified: not counted)" in listed(club_page(there), imported["id"])


def test_a_club_moved_with_its_instance_folder_counts_its_own_files(app, api, tmp_path):
    """A new laptop with the old one's signing key (the instance folder copied): the files
    the old one signed are its own, and count without trusting anything."""
    document = played_here(api)
    moved = create_app({"TESTING": True, "DATABASE": str(tmp_path / "new-laptop.db"),
                        "SIGNING_KEY_FILE": app.config["SIGNING_KEY_FILE"],
                        "SECRET_KEY": "test", "PUBLIC_URL": "http://localhost"})
    status, imported, _ = api_of(moved).call("POST", f"{GAMES}/import", document)
    assert status == 201 and imported["counted"] is True, imported
    assert "1 finished game on this referee" in club_page(moved)


def test_a_referee_signs_only_the_games_it_counts(app, api, tmp_path):
    """An unverified import is exported unsigned, so no referee can launder a forged file
    by importing it and exporting it again; once its signer is trusted, this referee vouches
    for it with its own signature."""
    there = referee_at(tmp_path / "other")
    status, imported, _ = api_of(there).call("POST", f"{GAMES}/import", played_here(api))
    assert status == 201, imported
    token = imported["seats"]["red"]["token"]
    path = f"{GAMES}/{imported['id']}/export"
    status, again, _ = api_of(there).call("GET", path, token=token)
    assert status == 200 and "signature" not in again, again
    status, forged, _ = api_of(there).call("POST", f"{GAMES}/import", fabricated())
    status, again, _ = api_of(there).call("GET", f"{GAMES}/{forged['id']}/export",
                                          token=forged["seats"]["red"]["token"])
    assert status == 200 and "signature" not in again
    assert trust(there, "add", own_key(app), "--name", "First club").exit_code == 0
    status, again, _ = api_of(there).call("GET", path, token=token)
    assert status == 200 and signing.signer(again) == own_key(there)


# -- altered, replayed and malformed signatures ------------------------------------------------

def test_a_signed_file_changed_after_signing_is_refused_naming_the_signature(app, api,
                                                                              tmp_path):
    document = played_here(api)
    there = referee_at(tmp_path / "other")
    assert trust(there, "add", own_key(app), "--name", "First club").exit_code == 0
    renamed = copy.deepcopy(document)
    next(e for e in renamed["events"] if e["type"] == "joined")["name"] = "Mallory"
    retimed = {**copy.deepcopy(document), "exported_at": document["exported_at"] + 1}
    for changed in (renamed, retimed):
        status, body, _ = api_of(there).call("POST", f"{GAMES}/import", changed)
        assert status == 422, body
        error = body["errors"][0]
        assert error["field"] == "signature" and "changed after it was signed" in \
            error["message"] and "Nothing was stored" in error["message"], error
    assert games_stored(there) == 0


def test_a_signature_replayed_on_another_file_or_key_is_refused(app, api, tmp_path):
    first = played_here(api, resigns="red")
    second = played_here(api, red=ATTACKER, resigns="blue")
    forger = signing.SigningKey(signing.new_private_key())
    there = referee_at(tmp_path / "other")
    replayed = {**second, "signature": first["signature"]}
    own_key_swapped = copy.deepcopy(first)
    own_key_swapped["signature"]["public_key"] = forger.public  # the club's value, his key
    borrowed = forger.sign(second)
    borrowed["signature"]["public_key"] = own_key(app)  # his signature, the club's key
    for document in (replayed, own_key_swapped, borrowed):
        status, body, _ = api_of(there).call("POST", f"{GAMES}/import", document)
        assert status == 422 and body["errors"][0]["field"] == "signature", body
    assert games_stored(there) == 0


def _key_of(size: int) -> str:
    return base64.b64encode(bytes(range(1, size + 1))).decode()


A_KEY = signing.SigningKey(signing.new_private_key()).public
DROP = object()


def _signature(**parts: object) -> dict:
    """A signature block, well formed but for ``parts`` (DROP: leave that part out)."""
    block = {"algorithm": "Ed25519", "public_key": A_KEY, "value": _key_of(64), **parts}
    return {key: value for key, value in block.items() if value is not DROP}


MALFORMED = {
    "not an object": ("signature", "Ed25519"),
    "a list": ("signature", []),
    "no algorithm": ("signature.algorithm", _signature(algorithm=DROP)),
    "another algorithm": ("signature.algorithm", _signature(algorithm="RSA")),
    "no key": ("signature.public_key", _signature(public_key=DROP)),
    "a key of 31 bytes": ("signature.public_key", _signature(public_key=_key_of(31))),
    "a key of 33 bytes": ("signature.public_key", _signature(public_key=_key_of(33))),
    "a key of base64 junk": ("signature.public_key", _signature(public_key="!" * 43 + "=")),
    "a key spelled two ways": ("signature.public_key",
                               _signature(public_key=A_KEY[:-2] + chr(ord(A_KEY[-2]) ^ 1)
                                          + "=")),
    "a key that is a number": ("signature.public_key", _signature(public_key=12345)),
    "a key of small order, which verifies anyone's signature": (
        "signature.public_key", _signature(public_key=base64.b64encode(
            b"\x01" + bytes(31)).decode(), value=base64.b64encode(
            b"\x01" + bytes(63)).decode())),
    "a key not ASCII": ("signature.public_key", _signature(public_key="é" * 44)),
    "a huge key": ("signature.public_key", _signature(public_key="A" * 1_000_000)),
    "no value": ("signature.value", _signature(value=DROP)),
    "a value of 63 bytes": ("signature.value", _signature(value=_key_of(63))),
    "a huge value": ("signature.value", _signature(value="A" * 1_000_000)),
    "a value of junk": ("signature.value", _signature(value="*" * 88)),
    "a value that is null": ("signature.value", _signature(value=None)),
    "a part no signature has": ("signature.note", _signature(note="hello")),
    "a value that does not verify": ("signature", _signature()),
}


@pytest.fixture(scope="module")
def fabricated_file() -> dict:
    return fabricated()


@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_signature_is_refused_naming_its_field(case, app, api, fabricated_file):
    field, block = MALFORMED[case]
    document = {**fabricated_file, "signature": block}
    status, body, _ = api.call("POST", f"{GAMES}/import", document)
    assert status == 422, (case, body)
    error = body["errors"][0]
    assert error["field"] == field and "Nothing was stored" in error["message"], (case, error)
    assert len(error["message"]) < 600  # never the junk echoed back
    assert games_stored(app) == 0


# -- the key, and trusting others ----------------------------------------------------------------

def test_the_signing_key_is_made_once_private_and_shared_by_every_process(app, tmp_path):
    path = app.config["SIGNING_KEY_FILE"]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = create_app({"TESTING": True, "DATABASE": str(tmp_path / "second.db"),
                        "SIGNING_KEY_FILE": path, "SECRET_KEY": "test"})
    assert own_key(again) == own_key(app)  # a second worker reads the same key
    assert len(base64.b64decode(own_key(app), validate=True)) == 32
    result = app.test_cli_runner().invoke(args=["key"])
    assert result.exit_code == 0 and result.output.strip() == own_key(app)
    assert not [name for name in os.listdir(tmp_path) if name.startswith(".signing_key")]


def test_trusting_a_key_refuses_what_is_not_one_and_says_what_it_did(app, tmp_path):
    other = own_key(referee_at(tmp_path / "other"))
    for bad in ("not a key", _key_of(31), _key_of(32)[:-2] + "F=", "A" * 5000,
                base64.b64encode(bytes(32)).decode()):
        result = trust(app, "add", bad, "--name", "X")
        assert result.exit_code != 0 and "KEY" in result.output, (bad, result.output)
    for name in ("", " ", "a\x00b", "x" * 61):
        result = trust(app, "add", other, "--name", name)
        assert result.exit_code != 0 and "--name" in result.output, (name, result.output)
    assert "own key" in trust(app, "add", own_key(app), "--name", "Me").output
    result = trust(app, "remove", other)
    assert result.exit_code != 0 and "not a trusted key" in result.output
    assert trust(app, "add", other, "--name", "Old laptop").exit_code == 0
    assert re.search(rf"{re.escape(other)}  Old laptop \(trusted since \d{{4}}-", trust(
        app, "list").output)
    assert trust(app, "remove", other).exit_code == 0
    assert other not in trust(app, "list").output


def test_the_signed_bytes_are_the_file_without_its_signature_in_canonical_json(app, api):
    document = played_here(api)
    content = {k: v for k, v in document.items() if k != "signature"}
    expected = b"referee game file signature v1\n" + json.dumps(
        content, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(own_key(app)))
    key.verify(base64.b64decode(document["signature"]["value"]), expected)  # raises if not
    assert document["signature"]["algorithm"] == "Ed25519"


def test_an_unverified_copy_gives_way_to_the_signed_file_of_the_same_game(app, api, tmp_path):
    """A forger who imports a stripped, renamed copy of a genuine game first cannot keep the
    genuine signed file out: the unverified copy is replaced by it, and the game is one."""
    document = played_here(api)
    there = referee_at(tmp_path / "other")
    assert trust(there, "add", own_key(app), "--name", "First club").exit_code == 0
    copied = copy.deepcopy(document)
    del copied["signature"]
    for event in copied["events"]:
        if event["type"] == "joined":
            event["name"] = "Mallory"
    status, forged, _ = api_of(there).call("POST", f"{GAMES}/import", copied)
    assert status == 201 and forged["counted"] is False, forged
    status, genuine, _ = api_of(there).call("POST", f"{GAMES}/import", document)
    assert status == 201 and genuine["counted"] is True, genuine
    page = club_page(there)
    assert f"Game {forged['id']}" not in page and "Mallory" not in page
    assert "unverified" not in listed(page, genuine["id"])
    assert "1 finished game on this referee" in page
    status, body, _ = api_of(there).call("POST", f"{GAMES}/import", copied)
    assert status == 409 and genuine["id"] in body["errors"][0]["message"], body
    status, _, _ = api_of(there).call("GET", f"{GAMES}/{forged['id']}/export",
                                      token=forged["seats"]["red"]["token"])
    assert status in (401, 404)  # the copy and its tokens are gone


def test_a_game_replayed_here_after_it_was_played_elsewhere_gives_way_to_its_signed_file(
        app, api, tmp_path):
    """A player of a game played on another referee knows both fleets at its end: he replays
    it here first (the same fleets and moves, names of his choosing) to keep its signed file
    out. The signed file of the game played first takes its place in the records; the replay
    is listed, marked, and counted nowhere."""
    there = referee_at(tmp_path / "other")
    original = played_here(api_of(there))  # played there first, signed there
    assert trust(app, "add", own_key(there), "--name", "Other club").exit_code == 0
    replay = table_in_play(api, {"red": QUIET, "blue": QUIET})  # the same game, here, later
    turn = replay.view("red")["turn"]
    assert replay.as_seat(turn, "POST", "/moves", {"weapon": "salvo", "at": IDLE_SQUARES})[0] \
        == 201
    # the seat that resigns holds the same place in the order of play as in the original
    resigner = next(e["seat"] for e in original["events"] if e["type"] == "resign")
    mover = next(e["seat"] for e in original["events"] if e["type"] == "move")
    here = turn if resigner == mover else next(s for s in ("red", "blue") if s != turn)
    assert replay.as_seat(here, "POST", "/resign")[0] == 200
    assert "1 finished game on this referee" in club_page(app)
    status, imported, _ = api.call("POST", f"{GAMES}/import", original)
    assert status == 201 and imported["counted"] is True, imported
    page = club_page(app)
    assert "1 finished game on this referee" in page  # the original, not the replay
    assert "not counted" not in listed(page, imported["id"])
    assert "(a replay of a game played elsewhere first: not counted)" in listed(page, replay.id)
    status, body, _ = api.call("POST", f"{GAMES}/import", original)
    assert status == 409, body  # and the game is one: offered again, it is already here


@pytest.mark.parametrize("rules", RULES)
def test_a_game_decided_before_any_move_is_listed_and_counted_nowhere(rules, app, api):
    """Anyone can make such a game against himself, so none counts: a resignation before
    any move, here or in a signed file."""
    from rule_set_tables import table_in_play as any_table_in_play

    table = any_table_in_play(api, rules)
    status, view, _ = table.call("blue", "POST", "/resign")
    assert status == 200 and view["phase"] == "over"
    page = club_page(app)
    assert "(decided before any move: not counted)" in listed(page, table.id)
    assert "0 finished games on this referee" in page
    played = any_table_in_play(api, rules)
    status, report = played.move()
    assert status == 201, report
    assert played.call(played.turn(), "POST", "/resign")[0] == 200
    page = club_page(app)
    assert "not counted" not in listed(page, played.id)
    assert "1 finished game on this referee" in page


def test_a_finished_game_s_file_is_made_once(api, monkeypatch):
    """Asked again and again, the file of a finished game is the same bytes, made once: a
    client asking for it without end costs the referee nothing more."""
    from referee.common.ruleset import RuleSet

    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    turn = table.view("red")["turn"]
    assert table.as_seat(turn, "POST", "/moves", {"weapon": "salvo", "at": IDLE_SQUARES})[0] \
        == 201
    assert table.as_seat("blue", "POST", "/resign")[0] == 200
    made = []
    real = RuleSet.game_file_view

    def counted(self, game):
        made.append(1)
        return real(self, game)

    monkeypatch.setattr(RuleSet, "game_file_view", counted)
    files = [table.as_seat("red", "GET", "/export")[1] for _ in range(5)]
    assert all(document == files[0] for document in files)
    assert files[0]["signature"] and files[0]["exported_at"]
    assert len(made) == 1
