"""Costly work's bounds, counted rather than timed: a request that finds every costly turn
taken is told 503 with Retry-After at once, whatever the work (a blank sheet, a player's PDF,
an import), while what is already made is still served; and a blank sheet, which depends
only on its parameters, is printed once and served afterwards from what is kept.
(tests/test_server_costly_work.py sends the same storms to a real server;
bench/starved_game_bench.py measures them.)"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict

import pytest
from api_support import table_in_play
from forgery_support import fabricated
from helpers import QUIET

from referee import costly, printouts
from referee.store import Store

RECORD = "/printables/blank-record.pdf"


@pytest.fixture
def printed(app, monkeypatch):
    """The Naval War Game's blank sheets, each printing counted by its parameters, printed
    from an empty store of kept sheets; a printing waits while ``hold`` is clear."""
    monkeypatch.setattr(printouts, "_blanks", OrderedDict())
    parts = app.extensions["referee.web_parts"]
    paper = parts["naval-war"].paper
    hold = threading.Event()
    hold.set()
    counts: list[tuple] = []
    started = threading.Semaphore(0)

    def blank_record(*, paper: str, pages: int) -> bytes:
        counts.append(("record", paper, pages))
        started.release()
        assert hold.wait(30)
        return real_record(paper=paper, pages=pages)

    def blank_chart(*, paper: str, layout: str) -> bytes:
        counts.append(("chart", paper, layout))
        return real_chart(paper=paper, layout=layout)

    real_record, real_chart = paper.blank_record, paper.blank_chart
    monkeypatch.setitem(parts, "naval-war", dataclasses.replace(
        parts["naval-war"], paper=dataclasses.replace(paper, blank_record=blank_record,
                                                      blank_chart=blank_chart)))
    return counts, hold, started


def assert_busy(response, what: str) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)[:300]
    assert response.headers["Retry-After"] == str(costly.RETRY_AFTER_S)
    assert f"busy {what}" in response.get_data(as_text=True)


def test_a_full_costly_pool_answers_503_with_retry_after_and_still_serves_what_is_kept(
        app, api, printed):
    counts, hold, started = printed
    table = table_in_play(api, {"red": QUIET, "blue": QUIET})
    kept = app.test_client().get(RECORD, query_string={"pages": 20})
    assert kept.status_code == 200 and kept.data.startswith(b"%PDF")
    assert started.acquire(timeout=0)  # its printing, done
    hold.clear()
    answers: dict[int, object] = {}

    def ask(pages: int) -> None:
        answers[pages] = app.test_client().get(RECORD, query_string={"pages": pages})

    taking = range(1, costly.AT_ONCE + 1)  # a sheet for each turn
    refused = costly.AT_ONCE + 1
    under_way = [threading.Thread(target=ask, args=(pages,)) for pages in taking]
    try:
        for thread in under_way:
            thread.start()
        for _ in under_way:  # every turn taken: each printing started, and waiting
            assert started.acquire(timeout=30)
        client = app.test_client()
        assert_busy(client.get(RECORD, query_string={"pages": refused}), "printing")
        headers = {"Authorization": f"Bearer {table.tokens['red']}"}
        response = client.get(f"/api/v1/games/{table.id}/charts.pdf", headers=headers)
        assert_busy(response, "printing")
        assert response.json["errors"][0]["message"].startswith("The referee is busy")
        assert_busy(client.post("/api/v1/games/import", json=fabricated()),
                    "importing game files")
        again = client.get(RECORD, query_string={"pages": 20})  # kept: no turn needed
        assert again.status_code == 200 and again.data == kept.data
    finally:
        hold.set()
        for thread in under_way:
            thread.join(30)
    assert [answers[pages].status_code for pages in taking] == [200] * costly.AT_ONCE
    response = app.test_client().get(RECORD, query_string={"pages": refused})
    assert response.status_code == 200 and response.data.startswith(b"%PDF")  # turns freed
    assert sorted(pages for _, _, pages in counts) == [*taking, refused, 20]  # once each


def test_a_blank_sheet_is_printed_once_and_served_from_what_is_kept(app, printed):
    counts = printed[0]
    client = app.test_client()
    asked = [(RECORD, {"pages": 20}), (RECORD, {"pages": 20, "paper": "letter"}),
             ("/printables/blank-chart.pdf", {"layout": "single"})]
    first = [client.get(url, query_string=query) for url, query in asked]
    assert all(response.status_code == 200 for response in first)
    for _ in range(5):
        for (url, query), before in zip(asked, first, strict=True):
            response = client.get(url, query_string=query)
            assert response.status_code == 200 and response.data == before.data
    other = app.test_client()  # another phone, the same sheet
    assert other.get(RECORD, query_string={"pages": "20"}).data == first[0].data
    assert counts == [("record", "a4", 20), ("record", "letter", 20),
                      ("chart", "a4", "single")]


def test_an_ask_past_its_limit_is_refused_without_waiting_for_the_writers(app):
    """A seat asking "place the rest" without end (or a client sending game files) is
    refused from a read alone: while another write holds the database, the refusal still
    comes, so a flood of them never queues a move behind its writes."""
    database = app.config["DATABASE"]
    asker = Store(database)
    for n in range(3):
        assert asker.take_turn("fill:g:red", 3, 60, 1000.0 + n) == 0
    holding, release = threading.Event(), threading.Event()

    def hold_the_writers() -> None:
        with Store(database).write():
            holding.set()
            release.wait(30)

    answers: list[float] = []
    writer = threading.Thread(target=hold_the_writers)
    refusal = threading.Thread(target=lambda: answers.append(
        asker.take_turn("fill:g:red", 3, 60, 1010.0)))
    writer.start()
    try:
        assert holding.wait(10)
        refusal.start()
        refusal.join(5)  # a write would wait for the holder, for ever
        assert answers == [50.0], "the refusal waited for another write"
    finally:
        release.set()
        writer.join(30)
        if refusal.ident:
            refusal.join(30)
