"""The referee answers only to its own names (referee/hosts.py): a request whose Host header
names another site, as a DNS-rebinding page's does, gets 400 before anything reads it, on
pages, the API and the poll that is answered before Flask; join links never name a foreign
host. Against a real `referee serve` on 127.0.0.1 unless said; every request goes there.
"""

from __future__ import annotations

import http.client
import json
import socket
from urllib.parse import urlsplit

import pytest
from apiclient import open_table
from conftest import LiveServer

from referee import create_app
from referee.network import lan_addresses

EVIL = "evil.example"


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """One `referee serve` for the module's refusals: each is answered before anything is
    read or written, so the tests share it (a server of their own each took a second and a
    half to start)."""
    server = LiveServer(tmp_path_factory.mktemp("hosts") / "hosts.db").start()
    yield server
    server.stop()


def get(port: int, path: str, host: str | None, headers: dict | None = None,
        method: str = "GET", body: bytes | None = None
        ) -> tuple[int, http.client.HTTPMessage, bytes]:
    """One request with this Host header (none at all for None), and its answer."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        if host is not None:
            conn.putheader("Host", host)
        for name, value in {**(headers or {}),
                            **({"Content-Length": str(len(body))} if body else {})}.items():
            conn.putheader(name, value)
        conn.endheaders(body)
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def refused_naming_host(answer: tuple[int, http.client.HTTPMessage, bytes], host: str,
                        api: bool) -> None:
    status, headers, body = answer
    assert status == 400, (host, status, body[:200])
    if api:
        error = json.loads(body)["errors"][0]
        assert error["field"] == "Host" and "Host header" in error["message"], error
    else:
        assert headers["Content-Type"].startswith("text/plain"), headers
        assert b"Host header" in body, body
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_a_foreign_host_is_refused_on_a_page_the_api_and_the_poll_shortcut(live_server):
    port = live_server.port
    table = open_table(live_server.api(), 2)
    poll = {"Authorization": f"Bearer {table.tokens['red']}"}
    status, headers, _ = get(port, table.path(), "127.0.0.1", poll)
    assert status == 200
    poll["If-None-Match"] = headers["ETag"]
    assert get(port, table.path(), "127.0.0.1", poll)[0] == 304  # the shortcut answers it

    refused_naming_host(get(port, "/", EVIL), EVIL, api=False)
    refused_naming_host(get(port, "/api/v1/openapi.json", EVIL), EVIL, api=True)
    refused_naming_host(get(port, table.path(), f"{EVIL}:{port}", poll), EVIL, api=True)
    refused_naming_host(get(port, "/api/v1/games", EVIL, {"Content-Type": "application/json"},
                            "POST", b"{}"), EVIL, api=True)


@pytest.mark.parametrize("host", [
    "localhost.evil.example", "127.0.0.1@evil.example", "127.0.0.1.evil.example",
    "evil.example:127.0.0.1", "127.0.0.1:5000@evil.example", "127.0.0.1, evil.example",
    "127.0.0.1 evil.example", "[::ffff:127.0.0.1]", "[::1", "", "%6cocalhost", "127.1",
    "xn--lcalhost-9za", "localhost\tevil",
])
def test_host_header_tricks_are_refused(live_server, host):
    refused_naming_host(get(live_server.port, "/api/v1/rules", host), host, api=True)


def test_a_missing_host_is_refused_in_http_1_1_and_let_through_in_http_1_0(live_server):
    status, _, body = get(live_server.port, "/api/v1/rules", None)
    assert status == 400 and b"Host header" in body
    with socket.create_connection(("127.0.0.1", live_server.port), timeout=10) as s:
        s.sendall(b"GET /api/v1/rules HTTP/1.0\r\n\r\n")
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.0 200"), answer[:200]


def test_the_referees_own_names_are_answered(live_server):
    port = live_server.port
    machine = socket.gethostname().split(".")[0]
    names = ["127.0.0.1", f"127.0.0.1:{port}", "localhost", f"LocalHost:{port}", "localhost.",
             f"[::1]:{port}", "[0:0:0:0:0:0:0:1]", f"{lan_addresses()[0]}:{port}", machine,
             f"{machine}.local:{port}", f"{machine.upper()}.LOCAL"]
    answered = {name: get(port, "/api/v1/rules", name)[0] for name in names}
    assert set(answered.values()) == {200}, answered


def test_the_public_url_and_the_allowed_hosts_are_answered_behind_a_trusted_proxy(tmp_path):
    """Behind a reverse proxy waitress puts the proxy's X-Forwarded-Host in the Host: the
    public URL's host is answered, and the names REFEREE_ALLOWED_HOSTS adds; a forwarded
    foreign host is not."""
    server = LiveServer(tmp_path / "proxied.db", env={
        "REFEREE_PUBLIC_URL": "https://naval.example.org", "REFEREE_TRUSTED_PROXY": "127.0.0.1",
        "REFEREE_ALLOWED_HOSTS": "club.lan, Laptop.Example:8080"}).start()
    try:
        port = server.port
        local = f"127.0.0.1:{port}"
        forwarded = lambda name: {"X-Forwarded-Host": name, "X-Forwarded-Proto": "https"}  # noqa: E731
        assert get(port, "/api/v1/rules", local, forwarded("naval.example.org"))[0] == 200
        assert get(port, "/api/v1/rules", "naval.example.org")[0] == 200
        assert get(port, "/", local, forwarded("NAVAL.example.org:443"))[0] == 200
        for name in ("club.lan", "club.lan:5000", "laptop.example"):
            assert get(port, "/api/v1/rules", name)[0] == 200, name
        refused_naming_host(get(port, "/api/v1/rules", local, forwarded(EVIL)), EVIL, api=True)
        refused_naming_host(get(port, "/", "naval.example.org.evil.example"), EVIL, api=False)
    finally:
        server.stop()


@pytest.fixture
def lan_app(tmp_path):
    """The referee with no public URL set, as `make run` starts it: join links take the
    request's host, a LAN address in place of a loopback name."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "lan.db"),
                       "SECRET_KEY": "test"})


def join_hosts(client, host: str, forwarded: str | None = None) -> tuple[int, set[str]]:
    headers = {"Host": host, **({"X-Forwarded-Host": forwarded} if forwarded else {})}
    response = client.post("/api/v1/games", json={"seats": 2}, headers=headers)
    seats = (response.get_json() or {}).get("seats", {})
    return response.status_code, {urlsplit(s["join_url"]).hostname for s in seats.values()}


def test_join_links_never_name_a_foreign_host(lan_app):
    client = lan_app.test_client()
    lan = lan_addresses()[0]
    assert join_hosts(client, "localhost:5000") == (201, {lan})
    assert join_hosts(client, f"{lan}:5000") == (201, {lan})
    assert join_hosts(client, "localhost", forwarded=EVIL) == (201, {lan})
    status, hosts = join_hosts(client, f"{EVIL}:5000")
    assert status == 400 and not hosts


@pytest.mark.parametrize("setting", ["club lan", "club.lan,evil@x", "[::1", 42])
def test_a_malformed_allowed_hosts_setting_is_refused_naming_it(tmp_path, setting):
    with pytest.raises(ValueError, match="REFEREE_ALLOWED_HOSTS"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "bad.db"),
                    "SECRET_KEY": "test", "ALLOWED_HOSTS": setting})
