"""One rule set's routes and printables against every game: each rule set's printables take what
the shared routes pass them (``webparts.PAPER_CONTRACT``)."""

from __future__ import annotations

import io
import re

import pypdf
import pytest

from referee.webparts import Paper

RULE_SETS = ("naval-war", "battleship-tcg", "broadside")


def _csrf(response) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', response.get_data(as_text=True)
                     ).group(1)


def _seated(client, rules: str) -> tuple[str, dict, object]:
    """A game of ``rules`` made through the API, Red's seat taken on a phone of its own: the
    game's id, each seat's token, and Red's phone (its session cookie holds the seat)."""
    created = client.post("/api/v1/games", json={"rules": rules}).get_json()
    tokens = {}
    for seat, info in created["seats"].items():
        if seat == "red":
            continue
        tokens[seat] = client.post(f"/api/v1/games/{created['id']}/seats/{seat}", json={
            "join_code": info["join_code"], "name": seat.title()}).get_json()["token"]
    red = client.application.test_client()
    url = created["seats"]["red"]["join_url"].removeprefix("http://localhost")
    joined = red.post(url, data={"name": "Ann", "csrf_token": _csrf(red.get(url))})
    assert joined.status_code == 302, joined.data[:300]
    with red.session_transaction() as held:
        tokens["red"] = held["seats"][created["id"]]
    return created["id"], tokens, red


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_rule_sets_seat_prints_his_charts_and_record_from_the_shared_routes(client,
                                                                                  rules):
    game_id, tokens, _ = _seated(client, rules)
    for printable in ("charts.pdf", "record.pdf"):
        for paper in ("a4", "letter"):
            got = client.get(f"/api/v1/games/{game_id}/{printable}?paper={paper}",
                             headers={"Authorization": f"Bearer {tokens['blue']}"})
            assert got.status_code == 200, (printable, got.data[:300])
            assert got.mimetype == "application/pdf"
            assert pypdf.PdfReader(io.BytesIO(got.data)).pages


def test_a_paper_whose_printable_refuses_the_shared_routes_keywords_is_refused_when_made():
    def pdf(*_args, **_keywords) -> bytes:
        return b"%PDF"

    def charts_without_opponents(view: dict, *, paper: str = "a4") -> bytes:
        return b"%PDF"

    with pytest.raises(TypeError, match=r"player_charts.*opponents"):
        Paper(blank_chart=pdf, blank_record=pdf, player_charts=charts_without_opponents,
              player_record=pdf, postmortem=pdf)
    Paper(blank_chart=pdf, blank_record=pdf, player_charts=pdf, player_record=pdf,
          postmortem=pdf)
