"""Battleship: The Tactical Combat Game's own pages and PDFs on the web (issue 14, "The phones"
and "Paper"): the Blueprint's routes through Flask's test client."""

from __future__ import annotations

import io
import re

import pypdf
import pytest


@pytest.mark.parametrize("paper, size", [("a4", (842, 595)), ("letter", (792, 612))])
def test_i14_paper_blank_charts_url(client, paper, size):
    got = client.get(f"/tcg/printables/blank-charts.pdf?paper={paper}")
    assert got.status_code == 200 and got.mimetype == "application/pdf"
    pages = pypdf.PdfReader(io.BytesIO(got.data)).pages
    assert len(pages) == 2
    assert (round(float(pages[0].mediabox.width)), round(float(pages[0].mediabox.height))) \
        == size


def test_i14_paper_blank_record_url_takes_pages(client):
    got = client.get("/tcg/printables/blank-record.pdf?paper=letter&pages=3")
    assert got.status_code == 200
    assert len(pypdf.PdfReader(io.BytesIO(got.data)).pages) == 3


@pytest.mark.parametrize("query, field", [("paper=a3", "paper"), ("pages=0", "pages"),
                                          ("pages=21", "pages"), ("pages=-1", "pages"),
                                          ("pages=%EF%BC%92", "pages"), ("pages=1e1", "pages")])
def test_i14_paper_blank_printables_refuse_bad_parameters(client, query, field):
    got = client.get(f"/tcg/printables/blank-record.pdf?{query}",
                     headers={"Accept": "application/json"})
    assert got.status_code == 400, got.data[:200]
    assert field in got.get_data(as_text=True)


def test_i14_paper_home_page_offers_the_tcg_printables(client):
    page = client.get("/").get_data(as_text=True)
    assert "/tcg/printables/blank-charts.pdf?paper=a4" in page
    assert "/tcg/printables/blank-record.pdf?paper=letter" in page


def test_i14_paper_cli_prints_the_tcg_blank_printables(runner, tmp_path):
    charts, record = tmp_path / "charts.pdf", tmp_path / "record.pdf"
    done = runner.invoke(args=["tcg-blank-charts", "--paper", "letter", "-o", str(charts)])
    assert done.exit_code == 0, done.output
    assert len(pypdf.PdfReader(charts).pages) == 2
    done = runner.invoke(args=["tcg-blank-record", "--pages", "4", "-o", str(record)])
    assert done.exit_code == 0, done.output
    assert len(pypdf.PdfReader(record).pages) == 4


def _play_page(app, blue: dict) -> str:
    from flask import render_template
    from tcg_web_support import played

    from referee.battleship_tcg import view_for
    from referee.battleship_tcg.web import pages

    with app.test_request_context("/"):
        view = view_for(played(blue), "red")
        html = render_template("tcg/play.html", key="k", rescuing=False,
                               page_data=pages.script_json({"view": view,
                                                            "known": pages._known(view)}),
                               **pages._context(view))
    html = re.sub(r'(csrf-token" content|name="csrf_token" value)="[^"]*"', "", html)
    return re.sub(r"[0-9a-f]{64}|[0-9a-f]{16}…", "(a fingerprint)", html)  # salted, public


def test_t10_the_play_page_is_the_same_wherever_the_opponents_unshot_boats_lie(app):
    """Red's play page (its page data, the sunk boats' outlines included) from Red's view:
    Blue's carrier and man moved to holes Red never shot change nothing in it (T10)."""
    from tcg_web_support import BLUE, BLUE_ELSEWHERE

    here, elsewhere = _play_page(app, BLUE), _play_page(app, BLUE_ELSEWHERE)
    assert "Blue's half as you know it" in here and '"known"' in here
    assert here == elsewhere
