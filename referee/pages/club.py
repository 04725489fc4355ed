"""The club's records: every rule set's summary tables and the finished games, a page at a
time."""

from __future__ import annotations

from flask import render_template, request

from .. import service, webparts
from ..errors import ApiError
from ..forms import ImportForm
from ..session import seats
from ..web import signing_key, store
from .blueprint import bp

GAMES_PER_PAGE = 50  # finished games listed on one page of /club, newest first


@bp.get("/club")
def club():
    """The rules' summary tables over every finished game that counts, and the finished games
    themselves, newest first, GAMES_PER_PAGE a page (``?page=2`` ...). Each is summed or listed
    from the summary its rule set made as the game ended: no game is replayed here."""
    service.fill_club_entries(store(), signing_key().public)
    pages = max(1, -(-store().finished_count() // GAMES_PER_PAGE))
    page = _page_number(pages)
    parts = webparts.registered()
    sections = [service.club_section(store(), part.rules, part.club_section) for part in parts]
    titles = {part.rules: section["title"] for part, section in zip(parts, sections,
                                                                     strict=True)}
    mine = seats()
    trusted = service.trusted_keys(store(), signing_key().public)
    finished = [{**row, "mine": row["id"] in mine, "rules_title": titles.get(row["rules"]),
                 "verified": service.counts_in_records(row["imported"], row["signer"], trusted)}
                for row in store().finished_listing((page - 1) * GAMES_PER_PAGE,
                                                    GAMES_PER_PAGE)]
    return render_template("club.html", sections=sections, finished=finished,
                           page=page, pages=pages, per_page=GAMES_PER_PAGE,
                           pager=pager(page, pages),
                           games=sum(section["games"] for section in sections),
                           forfeited=sum(section["forfeited"] for section in sections),
                           several=len(sections) > 1, form=ImportForm())


def pager(page: int, pages: int) -> dict:
    """The links under a paged list: the page before and after (None at either end), and the
    page numbers to show, the first, the last and two either side of this one, with None
    where numbers are left out.

    >>> pager(5, 9)["numbers"]
    [1, None, 3, 4, 5, 6, 7, None, 9]
    >>> pager(1, 3)
    {'newer': None, 'older': 2, 'numbers': [1, 2, 3]}
    """
    numbers: list[int | None] = []
    for n in range(1, pages + 1):
        if n in (1, pages) or abs(n - page) <= 2:
            numbers.append(n)
        elif numbers[-1] is not None:
            numbers.append(None)
    return {"newer": page - 1 if page > 1 else None,
            "older": page + 1 if page < pages else None, "numbers": numbers}


def _page_number(pages: int) -> int:
    """``?page=`` of /club: a whole number from 1 to the last page, or a 400 that says so."""
    raw = request.args.get("page", "1")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6 and 1 <= int(raw) <= pages):
        raise ApiError(400, f"The club's finished games run to {pages} page"
                            f"{'' if pages == 1 else 's'}: page is a whole number from 1 to "
                            f"{pages}, not {raw[:20]!r}", field="page")
    return int(raw)
