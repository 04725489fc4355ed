"""Battleship: The Tactical Combat Game's own pages and PDFs on the web (issue 14, "The phones"
and "Paper"): the Blueprint's routes through Flask's test client."""

from __future__ import annotations

import io
import re

import pypdf
import pytest

from referee.battleship_tcg.web.parts import TCG


@pytest.mark.parametrize("paper, size", [("a4", (842, 595)), ("letter", (792, 612))])
@pytest.mark.parametrize("layout, pages", [("pair", 2), ("single", 2)])
def test_i14_paper_blank_charts_through_the_web_parts(paper, size, layout, pages):
    data = TCG.paper.blank_chart(paper=paper, layout=layout)
    read = pypdf.PdfReader(io.BytesIO(data)).pages
    assert len(read) == pages
    assert (round(float(read[0].mediabox.width)), round(float(read[0].mediabox.height))) == size
    text = read[0].extract_text()
    assert ("Red's half: place your fleet here" if layout == "pair"
            else "Red's half of the card") in text


def test_i14_paper_blank_record_through_the_web_parts():
    data = TCG.paper.blank_record(paper="letter", pages=3)
    assert len(pypdf.PdfReader(io.BytesIO(data)).pages) == 3


def test_i14_paper_player_record_is_the_shots_as_told():
    from tcg_web_support import played

    from referee.battleship_tcg import record_for

    game = played()
    data = TCG.paper.player_record(record_for(game, "blue"), paper="a4")
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(data)).pages)
    assert "as Blue was told them" in text and "The toss (T6): order of play Red then Blue" \
        in text
    assert re.search(r"3\s+Red\s+E 9\s+Hit\s+Patrol Boat", text), text


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
