"""Battleship: The Tactical Combat Game's own pages and PDFs on the web (issue 14, "The phones"
and "Paper"): the Blueprint's routes through Flask's test client."""

from __future__ import annotations

import io

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
