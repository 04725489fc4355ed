"""The evening's page opens for the organiser only: from the laptop that runs the referee (a
loopback peer asking for a loopback name), or with the key derived from the installation's
secret; a phone on the LAN, a wrong key, another installation's key and a proxy on the laptop
passing a phone's request on are refused."""

from __future__ import annotations

import re

import pytest

from referee import create_app
from referee.web import EVENING_KEY_CHARS, evening_key

PHONE = {"REMOTE_ADDR": "192.168.1.20"}


@pytest.fixture
def club(tmp_path):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "evening.db"),
                       "SIGNING_KEY_FILE": str(tmp_path / "signing_key"),
                       "SECRET_KEY": "club secret", "ALLOWED_HOSTS": "club.lan"})


def key_of(app) -> str:
    with app.app_context():
        return evening_key()


def test_the_laptop_opens_the_evening_page_without_a_key(club):
    page = club.test_client().get("/evening", headers={"Host": "localhost:5000"})
    assert page.status_code == 200 and "The evening's tables" in page.text
    assert page.headers["Refresh"] == "30" and "no-store" in page.headers["Cache-Control"]


@pytest.mark.parametrize("key", ["", "0" * EVENING_KEY_CHARS, "x" * 10_000, "é"])
def test_a_phone_on_the_lan_is_refused_without_the_right_key(club, key):
    phone = club.test_client()
    page = phone.get("/evening", query_string={"key": key} if key else None,
                     headers={"Host": "club.lan"}, environ_base=PHONE)
    assert page.status_code == 403 and "make run" in page.text and "The evening" not in \
        page.text.split("<main>")[1].split("<h1>")[0]


def test_the_key_opens_it_from_a_phone_and_is_this_installations_own(club, tmp_path):
    key = key_of(club)
    assert len(key) == EVENING_KEY_CHARS and key == key_of(club)  # the same each time
    phone = club.test_client()
    page = phone.get(f"/evening?key={key}", headers={"Host": "club.lan"}, environ_base=PHONE)
    assert page.status_code == 200 and "The evening's tables" in page.text
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.db"),
                        "SECRET_KEY": "another club", "ALLOWED_HOSTS": "club.lan"})
    assert key_of(other) != key
    assert other.test_client().get(f"/evening?key={key}", headers={"Host": "club.lan"},
                                   environ_base=PHONE).status_code == 403


def test_a_proxy_on_the_laptop_does_not_make_every_phone_the_laptop(club):
    """Behind a proxy on the laptop every request comes from loopback, but asks for the
    club's name, not a loopback one."""
    page = club.test_client().get("/evening", headers={"Host": "club.lan"})
    assert page.status_code == 403


def test_where_orders_are_sealed_every_seat_that_owes_one_is_named_with_its_clock(club):
    """Broadsides and Boarding Parties: both seats owe their plot at once (R25 for each),
    and nothing a seat holds (its Captain's cell, its dice seed, a token) is shown."""
    laptop = club.test_client()
    made = laptop.post("/api/v1/games", json={"rules": "broadsides-boarding",
                                              "move_minutes": 7}).get_json()
    secrets = [made["host_token"]]
    for seat, name in (("red", "Ann"), ("blue", "Bob")):
        joined = laptop.post(f"/api/v1/games/{made['id']}/seats/{seat}", json={
            "join_code": made["seats"][seat]["join_code"], "name": name}).get_json()
        secrets += [joined["token"], joined["recovery_code"], made["seats"][seat]["join_code"]]
        auth = {"Authorization": f"Bearer {joined['token']}"}
        assert laptop.put(f"/api/v1/games/{made['id']}/disposition", json={"captain": "D4"},
                          headers=auth).status_code == 200
        assert laptop.post(f"/api/v1/games/{made['id']}/ready", json={"dice_seed": "7" * 32},
                           headers=auth).status_code == 200
    page = laptop.get("/evening").text
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Red Ann and B Blue Bob to move" in text, text
    assert "Red's move clock (R25, 7 min a move): 7:00 left" in text \
        or "Red's move clock (R25, 7 min a move): 6:59 left" in text, text
    assert "Blue's move clock" in text
    assert "D4" not in text and "7" * 32 not in page
    assert [secret for secret in secrets if secret in page] == []
