"""Broadside on paper: pure render functions, data in, PDF bytes out (reportlab).

The board sheet (A4 or US Letter) to play on with the box's pieces or with pencil, a blank
record of moves, a player's board mid-game from his view alone (B12), and the post-mortem
booklet once the game is over (the secrets revealed, the board after every move). Every board
is the one drawing of ``drawing.py`` (the phones draw the same shapes as SVG); the house style
(font, margins, "Page N of M", ``plain`` for names), the name line, the record table and the
table of the ships are the paper kit's (``printables``).
"""

from __future__ import annotations

import datetime as dt

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table

from printables import blank_pages, build, grid_table, name_line, plain, record_table
from printables.style import FONT, LAYOUTS, MARGIN, STYLES, frame_width, page_size

from .drawing import TYPE_NAMES, board_drawing
from .paperboard import HarbourFlowable
from .totals import totals

SUBJECT = "Broadside"
RECORD_COLUMNS = ("Move", "Side", "Ship (from)", "Turn", "To", "What happened")
RECORD_WIDTHS_MM = (14, 13, 22, 15, 15)  # what happened takes the rest
BLANK_ROW = 7.0 * mm
KEY = ("Crosses: where a ship may stand; it sails along the lines, never diagonally (B2). "
       "Red rings: the red circles in each channel's narrows, the double circle in the middle "
       "(B7); wedges A-D: the shore batteries, dashed to the circles each controls. Yellow "
       "discs: the buoy sites, a row of three, a pair and a single (B6). White discs at the "
       "docks: the merchant ships (B9). Shaded crosses: Blue's start line (row 2) and Red's "
       "start (lower right, B3). A hull points the way its ship faces; one dot for each mast "
       "left; Red's hulls black, Blue's white.")
FLEETS = ("Blue: 4 Frigates (3 masts), 2 Brigs (2), 4 Cutters (1). Red: 2 Ships-of-the-Line "
          "(4), 3 Frigates (3), 3 Brigs (2), 2 Cutters (1) (B3).")


def _line(player: str = "", colour: str = "", date: str = "") -> Paragraph:
    return name_line(player, colour, date, label="Side", width=10)


def _fit(size: tuple[float, float], reserved: float, drawing) -> HarbourFlowable:
    """The board as large as the page allows, ``reserved`` points kept for text."""
    return HarbourFlowable(drawing, size[0] - 2 * MARGIN, size[1] - 2 * MARGIN - reserved)


def _centred(flowable) -> Table:
    table = Table([[flowable]], hAlign="CENTER")
    table.setStyle([("LEFTPADDING", (0, 0), (-1, -1), 0), ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0), ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                    ("FONTNAME", (0, 0), (-1, -1), FONT)])
    return table


def board_sheet(board: dict, *, paper: str = "a4", layout: str = "pair") -> bytes:
    """The board to play on (B1): the whole harbour on one portrait page, with the key and the
    fleets (``pair``), or the board alone as large as the page allows (``single``)."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout is one of {', '.join(LAYOUTS)}, not {layout!r}")
    size = page_size(paper, "portrait")
    drawing = board_drawing(board, title="The harbour")
    story: list[Flowable]
    if layout == "single":
        story = [_centred(_fit(size, 10 * mm, drawing))]
    else:
        story = [Paragraph("Broadside: the harbour", STYLES["title"]),
                 _centred(_fit(size, 46 * mm, drawing)), Spacer(1, 1.5 * mm),
                 Paragraph(KEY, STYLES["small"]), Paragraph(FLEETS, STYLES["small"])]
    return build(size, f"{SUBJECT}: the board", story, subject=SUBJECT)


def _record_table(rows: list[list[str]], width: float, row_height: float | None = None) -> Table:
    return record_table(RECORD_COLUMNS, RECORD_WIDTHS_MM, rows, width, row_height)


def blank_record(*, paper: str = "a4", pages: int = 2) -> bytes:
    """A blank record of moves (B5, B11), as many pages as asked."""
    size = page_size(paper, "portrait")
    width, height = frame_width(size), size[1] - 2 * MARGIN

    def head() -> list:
        return [Paragraph(f"{SUBJECT}: record of moves", STYLES["title"]), _line(),
                Paragraph("Red moves first; turns alternate (B5). Write each move as it is "
                          "made: the ship by the cross it stood on (F 19), its turn (left, "
                          "right, about or none), the cross it stopped on, and what happened: "
                          "a buoy found (SINK or PASS), masts lost to the shore batteries, "
                          "broadsides and masts lost, ships and merchant ships sunk (B6-B9, "
                          "B11).", STYLES["small"]), Spacer(1, 2 * mm)]

    def rows(n: int) -> Table:
        return _record_table([[""] * len(RECORD_COLUMNS)] * n, width, BLANK_ROW)

    story = blank_pages(pages, head, rows, width=width, height=height, row_height=BLANK_ROW)
    return build(size, f"{SUBJECT}: blank record of moves", story, subject=SUBJECT)


# -- a game's paper, from a seat's view ---------------------------------------------------------

def _name(view: dict, seat: str) -> str:
    """"Blue (Bob)", or "Blue" before he has joined; printed as typed (no markup)."""
    name = (view.get("seats", {}).get(seat) or {}).get("name")
    return f"{seat.title()} ({name})" if name else seat.title()


def _view_drawing(view: dict, title: str):
    return board_drawing(view["board"], ships=view["ships"], merchants=view["merchants"],
                         buoys=view["buoys"], batteries=view["batteries"], title=title)


def _fleet_rows(view: dict) -> list[list[str]]:
    rows = [["Ship", "At", "Facing", "Masts"]]
    for seat in ("red", "blue"):
        for ship in view["ships"]:
            if ship["side"] == seat and not ship.get("sunk"):
                name = ship.get("name") or TYPE_NAMES[ship["type"]]
                rows.append([f"{seat.title()}'s {name}", ship["at"],
                             ship["facing"], str(ship["masts"])])
    return rows


def _move_rows(reports: list[dict]) -> list[list[str]]:
    rows = []
    for r in reports:
        move = r.get("move") or {}
        if r.get("passed"):
            rows.append([str(r["n"]), r["seat"].title(), "", "", "", r["text"]])
            continue
        rows.append([str(r["n"]), r["seat"].title(), move.get("ship") or r.get("from") or "",
                     move.get("turn") or "", r.get("to") or "", r["text"]])
    return rows


def _secrets(view: dict) -> str:
    buoys = [f"{c} {b['kind'].upper()}{' (found)' if b.get('revealed') else ''}"
             for c, b in (view.get("buoys") or {}).items()
             if isinstance(b, dict) and b.get("kind") in ("sink", "pass")]
    sites = [f"{s} {k.upper()}" for s, k in (view.get("batteries") or {}).items()
             if k in ("hit", "miss")]
    return (f"Buoys: {', '.join(buoys) or 'unknown'}. Shore batteries: "
            f"{', '.join(sites) or 'unknown'}.")


def player_board(view: dict, *, paper: str = "a4") -> bytes:
    """A player's board at any point of the game, from his view alone (B12): every ship with
    its masts, the merchant ships, the buoys and batteries as he knows them; then every move so
    far as both were told it (B11)."""
    size = page_size(paper, "portrait")
    you = view["you"]
    drawing = _view_drawing(view, f"The harbour as {you.title()} sees it")
    after = len(view.get("reports") or [])
    story: list = [_line(view["seats"][you]["name"] or "", you.title(),
                         dt.date.today().isoformat()),
                   Paragraph(f"Game {plain(view['id'])}, after move {after}: the harbour as "
                             f"{plain(_name(view, you))} sees it", STYLES["heading"]),
                   _centred(_fit(size, 40 * mm, drawing)), Spacer(1, 1 * mm),
                   Paragraph(plain(_secrets(view) if you == "blue" else
                                   "Blue's buoys and batteries stay secret until a ship finds "
                                   "a buoy or the game ends (B12).") + " " + KEY,
                             STYLES["small"])]
    story += [PageBreak(), Paragraph("The ships", STYLES["heading"]),
              grid_table(_fleet_rows(view), [48, 16, 18, 14])]
    if view.get("reports"):
        story += [Spacer(1, 3 * mm), Paragraph("The moves so far", STYLES["heading"]),
                  _record_table(_move_rows(view["reports"]), frame_width(size))]
    return build(size, f"{SUBJECT} {view['id']}: the board of {you.title()}", story,
                 subject=SUBJECT)


def player_record(record: dict, *, paper: str = "a4") -> bytes:
    """Every move as a player was told it (B11: both players are told the same), and the
    result once over (B10)."""
    size = page_size(paper, "portrait")
    moves = record.get("moves") or record.get("reports") or []
    story: list = [Paragraph(f"Moves of game {plain(record['id'])}, as "
                             f"{record['you'].title()} was told them", STYLES["title"]),
                   Paragraph(f"Red moves first (B5). Printed {dt.date.today().isoformat()}.",
                             STYLES["body"]), Spacer(1, 3 * mm),
                   _record_table(_move_rows(moves), frame_width(size))]
    if record.get("result"):
        from ..views import result_headline

        story += [Spacer(1, 3 * mm), Paragraph(plain(result_headline(record)), STYLES["body"])]
    return build(size, f"{SUBJECT} {record['id']}: moves as {record['you'].title()} was told",
                 story, subject=SUBJECT)


BOOKLET_ACROSS, BOOKLET_DOWN = 2, 2  # the harbour after four moves a page


def _totals(document: dict, width: float) -> list:
    """The post-mortem's totals (``totals.totals``): the warships each side lost by cause,
    the merchant ships sunk, the masts each battery took, the buoys found and the rocks."""
    shown = totals(document)
    lost = [["Side", *(words for _, words in shown["causes"]), "In all"]] + [
        [row["side"].title(), *(str(row[cause]) for cause, _ in shown["causes"]),
         str(row["all"])] for row in shown["lost"]]
    sites = [["Battery", "Set", "Masts taken"]] + [
        [row["site"], row["setting"].upper(), str(row["masts"])] for row in shown["batteries"]]
    found = [f"Buoy found: {line}" for line in shown["buoys"]] or ["No buoy was found."]
    found += [f"Sunk on a rock: {line}" for line in shown["rocks"]]
    return [KeepTogether([Paragraph("Totals", STYLES["heading"]),
            grid_table(lost, [min(36.0, width / mm / len(lost[0]))] * len(lost[0])),
            Spacer(1, 2 * mm),
            Paragraph(f"Merchant ships Red sank: {shown['merchants']} of 4.", STYLES["body"]),
            Spacer(1, 1 * mm), grid_table(sites, [28.0] * 3), Spacer(1, 1 * mm),
            *(Paragraph(plain(line), STYLES["small"]) for line in found)])]


def postmortem(view: dict, *, paper: str = "a4", boards: list[dict] | None = None,
               analysis: dict | None = None) -> bytes:
    """After the end: the harbour at the end with every secret revealed, the totals
    (``analysis``: the core's ``postmortem_document``), then (``boards``: the harbour as set
    up and after each move, ``steps.states``) the harbour after every move with its report,
    four to a page; then every move."""
    if view["phase"] != "over":
        raise ValueError("the post-mortem is printed once the game is over (B12)")
    from ..views import result_headline

    size = page_size(paper, "portrait")
    width = size[0] - 2 * MARGIN
    story: list = [Paragraph(f"Post-mortem of game {plain(view['id'])}", STYLES["title"]),
                   Paragraph(plain(result_headline(view)), STYLES["heading"]),
                   _centred(_fit(size, 52 * mm, _view_drawing(view, "The harbour at the end"))),
                   Spacer(1, 1 * mm), Paragraph(plain(_secrets(view)) + " " + KEY,
                                                STYLES["small"])]
    if analysis:
        story += _totals(analysis, width)
    if boards:
        cell_w = (width - 4 * mm) / BOOKLET_ACROSS
        cell_h = (size[1] - 2 * MARGIN - 20 * mm) / BOOKLET_DOWN - 14 * mm
        frames = []
        reports = {r["n"]: r for r in view["reports"]}
        for step, state in enumerate(boards):
            text = (f"{step}. {reports[step]['text']}" if step in reports
                    else "The fleets as set up")
            drawing = board_drawing(view["board"], **state, title=text)
            frames.append([HarbourFlowable(drawing, cell_w, cell_h),
                           Paragraph(plain(text), STYLES["small"])])
        per_page = BOOKLET_ACROSS * BOOKLET_DOWN
        for start in range(0, len(frames), per_page):
            page = frames[start:start + per_page]
            rows = [page[i:i + BOOKLET_ACROSS] for i in range(0, len(page), BOOKLET_ACROSS)]
            cells = [[[*cell] for cell in row] + [""] * (BOOKLET_ACROSS - len(row))
                     for row in rows]
            table = Table(cells, colWidths=[cell_w + 2 * mm] * BOOKLET_ACROSS)
            table.setStyle([("VALIGN", (0, 0), (-1, -1), "TOP"),
                            ("FONTNAME", (0, 0), (-1, -1), FONT),
                            ("LEFTPADDING", (0, 0), (-1, -1), 1),
                            ("RIGHTPADDING", (0, 0), (-1, -1), 1)])
            story += [PageBreak(), Paragraph("Move by move" if not start else
                                             "Move by move (continued)", STYLES["heading"]),
                      table]
    story += [PageBreak(), Paragraph("Every move", STYLES["heading"]),
              _record_table(_move_rows(view["reports"]), frame_width(size))]
    return build(size, f"{SUBJECT} {view['id']}: post-mortem", story, subject=SUBJECT)


__all__ = ["blank_record", "board_sheet", "player_board", "player_record",
           "postmortem"]
