"""Broadsides and Boarding Parties on paper, drawn with the referee's kit (``printables``): pure
functions, a view or record in, a PDF's bytes out, each from what its seat may know (BB25). The
sea and the decks are the one drawing the phones show (``drawing.py``), drawn by reportlab
(``paperboard.py``).

- ``blank_chart``: the sea (BB1) with its islands, starting circles and dots, on a page of its
  own, and both ships' decks (BB15) on the next, their crews as rings to cross out by pencil;
- ``blank_record``: the plot-and-fire log to fill in: each ship's damage to tick, then a row a
  card turned up and the volley after it;
- ``player_charts``: a player's position mid-game, from his view alone: the sea with both ships
  and this round's wakes, both decks with their crews and damage, what each seat owes and his
  own sealed order, and what happened lately;
- ``player_record``: every order as he may know it, and what followed;
- ``postmortem``: the booklet after the end: the result, the sea and decks at the end, the
  sailing round by round, every plot, every volley's and fight's rolls with what they did, and
  the dice audit (the commitment, the revealed seed, the players' seeds, every roll recomputed,
  and how to recompute one by hand, worked through for the first).
"""

from __future__ import annotations

from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    PageBreak,
    Paragraph,
    Preformatted,
    Spacer,
    Table,
)

from printables import blank_pages, build, grid_table, name_line, plain, record_table
from printables.style import FONT, FRAME_PADDING, MARGIN, STYLES, frame_width, page_size

from ..catalogue import TITLE
from ..deck import DECK, SECTIONS
from ..sea import SEA
from ..views import result_headline
from .drawing import decks_drawing, sea_drawing
from .paperboard import BoardFlowable
from .story import (
    collision_marks,
    entries,
    latest,
    round_start,
    sea_frames,
    wakes,
    worked_roll,
)

SEATS = ("red", "blue")
COLUMNS_RECORD, WIDTHS_MM = ("No.", "Round", "Who", "Order"), (11, 15, 14)
LOG_COLUMNS = ("Round", "Card", "Red's card", "Blue's card", "Red at", "Blue at",
               "Within 1 dot: cannons and targets", "Rolls and what they did")
LOG_WIDTHS_MM = (14, 12, 19, 19, 16, 16, 44)
DAMAGE_COLUMNS = ("Ship", *SECTIONS, "Masts lost", "Damaged cards", "Cannons lost", "Crew lost")
ROW = 18  # points: a blank row, room to write by hand
SHORT = {"stay": "Remain", "forward": "Forward", "starboard": "Starboard", "port": "Port",
         "damaged": "Damaged"}
SEA_KEY = ("The referee's sea (BB1): 15 columns A-O, 11 rows, row 1 north; a ship stands on a dot "
           "facing one of eight headings, N, NE, E ... NW (BB2). Grey rounds: the islands, never "
           "entered (BB3): " + "; ".join(f"{island['name']} {', '.join(island['dots'])}"
                                         for island in SEA["islands"])
           + ". Rings: the starting circles, Red's at " + SEA["starts"]["red"]["at"]
           + " facing east, Blue's at " + SEA["starts"]["blue"]["at"] + " facing west. A hull "
           "points the way its ship heads; Red's black, Blue's white; a dashed line is a wake.")
DECK_KEY = ("A deck (BB15): sections A (bow) to H (stern), positions 3 (port rail), 4 (centre) "
            "and 5 (starboard rail). Grey planks: the forecastle (A-B) and quarterdeck (G-H), "
            "raised; the ladders join B4 with C4 and F4 with G4. Black: the ten cannons, B-F on "
            "each rail; grey rounds: the masts at A4, C4 (two hits), G4 and H4 (BB13). The two "
            "boxes by each section letter: its hull markers; two put it beyond repair (BB14). "
            "Discs: crew (Red's black, Blue's white), C the Captain; at most three of a side in "
            "a cell (BB16).")
PLAIN_CODE = """import hashlib, hmac

def roll(secret, seeds, n):
    k = 0
    while True:
        lines = ("referee dice v1", *seeds, n, k)
        message = "".join(f"{line}\\n" for line in lines).encode()
        for byte in hmac.new(secret.encode(), message, hashlib.sha256).digest():
            if byte < 252:
                return byte % 6 + 1
        k += 1"""


CODE = ParagraphStyle("code", parent=STYLES["small"], leftIndent=12, spaceBefore=2,
                      spaceAfter=2)


def _heading(text: str, style: str = "title") -> Paragraph:
    return Paragraph(plain(text), STYLES[style])


def _small(text: str) -> Paragraph:
    return Paragraph(plain(text), STYLES["small"])


def _centred(flowable) -> Table:
    table = Table([[flowable]], hAlign="CENTER")
    table.setStyle([(side, (0, 0), (-1, -1), 0) for side in
                    ("LEFTPADDING", "RIGHTPADDING", "TOPPADDING", "BOTTOMPADDING")])
    return table


def _fit(size: tuple[float, float], reserved: float, drawing) -> Table:
    """A drawing as large as the page allows, ``reserved`` points of its height kept."""
    return _centred(BoardFlowable(drawing, size[0] - 2 * MARGIN - 12,
                                  size[1] - 2 * MARGIN - 12 - reserved))


def _name(view: dict, seat: str) -> str:
    """"Blue (Bob)", or "Blue" before he joined; printed as typed (``plain`` at the caller)."""
    name = ((view.get("seats") or {}).get(seat) or {}).get("name")
    return f"{seat.title()} ({name})" if name else seat.title()


def _cards(cards: list | None) -> str:
    return ", ".join(SHORT.get(c, "face down") if c else "face down" for c in (cards or []))


# -- blank sheets -------------------------------------------------------------------------------

def blank_chart(*, paper: str = "a4", layout: str = "pair") -> bytes:
    """The sea on its own page and the decks on the next (``layout`` "single": one deck, a
    ship's either way, as they differ only in name), to play on by pencil."""
    size = page_size(paper, "portrait")
    sea = sea_drawing(SEA, title="The sea")
    story: list = [_heading(f"{TITLE}: the sea"), name_line(label="Ship", width=16),
                   Spacer(1, 2 * mm), _fit(size, 62 * mm, sea), Spacer(1, 2 * mm),
                   _small(SEA_KEY)]
    seats = SEATS if layout == "pair" else ("red",)
    ships = None if layout == "pair" else {"red": {"name": "Your ship"}}
    decks = decks_drawing(DECK, seats, ships=ships, blank=True, title="The decks")
    story += [PageBreak(), _heading(f"{TITLE}: the decks"), Spacer(1, 1 * mm),
              _fit(size, 48 * mm, decks), Spacer(1, 2 * mm), _small(DECK_KEY)]
    return build(size, f"{TITLE}: blank sea and decks", story, subject=TITLE)


def _damage_strip(width: float) -> Table:
    """Each ship's damage to tick as it comes: hull markers by section, masts, the Damaged
    cards it must play, cannons and crew lost."""
    widths = (16, *(9,) * len(SECTIONS), 28, 22, 28)  # and the crew lost, the rest
    rows = [list(DAMAGE_COLUMNS), ["Red", *[""] * (len(DAMAGE_COLUMNS) - 1)],
            ["Blue", *[""] * (len(DAMAGE_COLUMNS) - 1)]]
    table = grid_table(rows, (*widths, width / mm - sum(widths)))
    table.setStyle([("ROWBACKGROUNDS", (0, 1), (-1, -1), [None]),
                    ("TOPPADDING", (0, 1), (-1, -1), 6), ("BOTTOMPADDING", (0, 1), (-1, -1), 6)])
    return table


def blank_record(*, paper: str = "a4", pages: int = 2) -> bytes:
    """The plot-and-fire log: each ship's damage to tick, then a row for each card turned up
    (both cards, where each ship went) and the volley after it (its targets, its rolls)."""
    size = page_size(paper, "portrait")
    # what a page's frame gives its flowables down: the page less its margins and the frame's
    # own padding above and below
    width, height = frame_width(size), size[1] - 2 * MARGIN - 2 * FRAME_PADDING

    def head() -> list:
        return [_heading(f"{TITLE}: plot-and-fire log"), name_line(label="Ship", width=16),
                _small("Each round both plot three cards in secret, then turn them up together, "
                       "one at a time (BB5): write both cards and where each ship went (a dot "
                       "and heading, like H 6 NE). Ships on neighbouring dots fire: each "
                       "cannon's target section (or hold), then each roll: 1 and 6 miss, 2 a "
                       "hull marker, 3 and 5 clear that rail position, 4 hits a mast at A, C, G "
                       "or H (BB8-BB11). Tick each ship's hull markers under its section, A to "
                       "H (two: beyond repair, BB14)."),
                Spacer(1, 1 * mm), _damage_strip(width), Spacer(1, 2 * mm)]

    def rows(n: int) -> Table:
        return record_table(LOG_COLUMNS, LOG_WIDTHS_MM, [[""] * len(LOG_COLUMNS)] * n, width,
                            ROW)

    story = blank_pages(pages, head, rows, width=width, height=height, row_height=ROW)
    return build(size, f"{TITLE}: blank plot-and-fire log", story, subject=TITLE)


# -- a player's paper, from his view ------------------------------------------------------------

def _owes(view: dict) -> str:
    """The stage and what each seat owes, with the seat's own sealed order (never another's)."""
    if view.get("phase") != "play":
        return f"The game is {view.get('phase')}."
    stage = view.get("stage") or {}
    where = ("Boarding Parties" if stage.get("phase") == "boarding"
             else f"Broadsides, round {stage.get('round')}, {stage.get('card')} of 3 cards "
                  "turned up")
    owing = ", ".join(f"{s.title()} owes a {kind}" for s, kind in (view.get("owes") or {}).items())
    text = f"{where}; {owing or 'nobody owes an order'}."
    mine = view.get("your_order") or {}
    if mine.get("cards"):
        text += f" Your plot, sealed: {_cards(mine['cards'])}."
    elif mine.get("targets"):
        text += " Your targets, sealed: " + ", ".join(
            f"{c} at {t or 'hold'}" for c, t in mine["targets"].items()) + "."
    return text


def _ship_lines(view: dict) -> list[Paragraph]:
    lines = []
    for seat in SEATS:
        ship, crew = view["ships"][seat], view["crews"][seat]
        parts = [f"{_name(view, seat)}, the {ship['name']}: at {ship['at']} heading "
                 f"{ship['heading']}", f"cannons {len(ship['cannons'])} of 10",
                 f"crew {crew['pieces'] - (1 if crew['captain'] else 0)}",
                 "Captain at " + crew["captain"].split(" ")[1] if crew["captain"]
                 else "no Captain"]
        if ship["masts_lost"]:
            parts.append(f"masts lost {', '.join(ship['masts_lost'])}")
        if ship["beyond_repair"]:
            parts.append(f"beyond repair {', '.join(ship['beyond_repair'])}")
        if ship["damaged_required"]:
            parts.append(f"{ship['damaged_required']} Damaged card(s) from next round")
        if ship["sunk"]:
            parts.append("sunk")
        lines.append(_small("; ".join(parts) + "."))
    return lines


def _view_drawings(view: dict, frames: list[dict], since: int, title: str):
    them = next(s for s in SEATS if s != view["you"])
    sea = sea_drawing(view["sea"], ships=view["ships"], tracks=wakes(frames, since),
                      marks=collision_marks(frames), title=f"The sea {title}")
    decks = decks_drawing(view["deck_plan"], (view["you"], them), ships=view["ships"],
                          crews=view["crews"], boarding=view.get("boarding"),
                          title=f"The decks {title}")
    return sea, decks


def player_charts(view: dict, *, paper: str = "a4", opponents=()) -> bytes:
    """A player's position at any point of the game, from his view alone (BB25): what each seat
    owes and his own sealed order, the sea with both ships and this round's wakes, both decks
    with their crews and damage, then what happened since his last order."""
    size = page_size(paper, "portrait")
    you = view["you"]
    frames = sea_frames(view)
    stage = view.get("stage") or {}
    round_no = stage.get("round") or 1  # this round's wakes, or the last round's till it sails
    since = round_start(frames, round_no if stage.get("card") else max(1, round_no - 1))
    sea, decks = _view_drawings(view, frames, since, f"as {you.title()} sees it")
    story: list = [_heading(f"{TITLE} {view['id']}: {_name(view, you)}'s position"),
                   Paragraph(plain(_owes(view)), STYLES["body"]), Spacer(1, 2 * mm),
                   _fit(size, 80 * mm, sea), Spacer(1, 1 * mm), *_ship_lines(view)]
    told = latest(view)
    if told:
        story += [_heading("What happened lately", "heading"),
                  *[_small(entry["text"]) for entry in told]]
    story += [Spacer(1, 1 * mm), _small(SEA_KEY), PageBreak(),
              _heading("The decks", "heading"), _fit(size, 50 * mm, decks), _small(DECK_KEY)]
    return build(size, f"{TITLE} {view['id']}: position of {you.title()}", story,
                 subject=TITLE)


def _rows(record: dict) -> list[list[str]]:
    rows = [["", "", "", entry["text"]] for entry in record.get("opening", [])]
    for move in record["moves"]:
        rows.append([str(move["n"]), str(move["round"]), move["seat"].title(), move["text"]])
        rows += [["", "", "", entry["text"]] for entry in move["happened"]]
    return rows


def player_record(record: dict, *, paper: str = "a4") -> bytes:
    """Every order as the seat may know it and what followed (BB25)."""
    size = page_size(paper, "portrait")
    story = [_heading(f"{TITLE} {record['id']}: the record as {record['you'].title()} knows it"),
             record_table(COLUMNS_RECORD, WIDTHS_MM, _rows(record), frame_width(size))]
    if record.get("result"):
        story += [Spacer(1, 3 * mm), Paragraph(plain(result_headline(record)), STYLES["body"])]
    return build(size, f"{TITLE} {record['id']}: record", story, subject=TITLE)


# -- the post-mortem booklet --------------------------------------------------------------------

ACROSS, DOWN = 2, 3  # the sailing: six rounds a page
KEEP_WITH_HEADING = 45 * mm  # a heading, a table's head and a few rows


def _rounds(view: dict, frames: list[dict], plots: dict[int, dict]) -> list:
    """The sea at the end of each round, its wakes since the round began, under the round's
    plots and what came of them."""
    cells = []
    last = max((f["round"] for f in frames), default=1)
    for round_no in range(1, last + 1):
        start = round_start(frames, round_no)
        inside = [i for i, f in enumerate(frames) if f["round"] == round_no]
        if not inside:
            continue
        end = frames[inside[-1]]
        events = [f for f in frames[start + 1:inside[-1] + 1] if f["what"] != "card"]
        said = "; ".join(f"{s.title()} {_cards(plots.get(round_no, {}).get(s)) or 'could not plot'}"
                         for s in SEATS)
        kinds = [e["what"] for e in events]
        volleys = kinds.count("volley")
        after = ", ".join(part for part in (
            "within 1 dot, no cannon bore" if "no volley" in kinds else "",
            "a collision, the ships laid side by side" if "collision" in kinds else "",
            (f"{volleys} volleys" if volleys > 1 else "a volley") if volleys else "") if part)
        caption = f"Round {round_no}: {said}." + (f" Then {after}." if after else "")
        drawing = sea_drawing(view["sea"], ships=end["ships"],
                              tracks=wakes(frames[start:inside[-1] + 1]),
                              marks=collision_marks(frames[start:inside[-1] + 1]),
                              title=f"Round {round_no}")
        cells.append((drawing, caption))
    return cells


def _shots(view: dict) -> list[list[str]]:
    rows = []
    round_no = 1
    for _, entry in entries(view):
        if entry["what"] == "round":
            round_no = entry["round"]
        if entry["what"] != "volley":
            continue
        for shot in entry["shots"]:
            them = "Blue" if shot["seat"] == "red" else "Red"
            effect = {"miss": "a miss", "hull": f"a hull marker on {shot['target']}",
                      "rail 3": f"every piece at {shot['target']}3 removed",
                      "rail 5": f"every piece at {shot['target']}5 removed",
                      "mast": f"a hit on the mast at {shot['target']}4"}[shot["effect"]]
            rows.append([("final" if entry["final"] else str(round_no)),
                         f"{shot['seat'].title()} {shot['cannon']}",
                         f"{them}'s {shot['target']}", str(shot["roll"]), effect])
    return rows


def _fights(view: dict) -> list[list[str]]:
    rows = []
    for _, entry in entries(view):
        if entry["what"] != "fight":
            continue
        for n, r in enumerate(entry["rounds"], 1):
            dice = " v ".join(
                f"{s.title()} {face}" + (f" +{r['totals'][s] - face} = {r['totals'][s]}"
                                         if r["totals"][s] != face else "")
                for s, face in r["rolls"].items())
            out = (f"{r['eliminated']['seat'].title()} loses "
                   f"{'the Captain' if r['eliminated']['piece'] == 'captain' else 'a crewmember'}"
                   if r["eliminated"] else "a tie: again")
            rows.append([entry["at"] if n == 1 else "", str(n), dice, out])
    return rows


def _audit(doc: dict, view: dict, width: float) -> list:
    """The dice audit (BB24): what was committed and revealed, the verdict, how to recompute a
    roll, worked through for the first, and every roll."""
    dice = doc.get("dice") or view.get("dice") or {}
    seeds = dice.get("seeds") or {}
    story: list = [_heading("The dice audit (BB24)", "heading"),
                   _small(f"Commitment, published when the game was created: "
                          f"{dice.get('commitment')}"),
                   _small(f"The referee's secret seed, revealed at the end: {dice.get('secret')}"),
                   _small("The players' seeds, each from his phone as he locked in: " + ", ".join(
                       f"{s.title()} {seed}" for s, seed in seeds.items()))]
    if "verdict" in dice:
        story.append(Paragraph(plain(dice["verdict"]), STYLES["body"]))
    story += [_small("Check the commitment: the SHA-256 of the secret seed's characters is the "
                     "commitment published before any roll (sha256sum, or any SHA-256 tool)."),
              _small(dice.get("how") or ""),
              _small("In Python, with nothing but its standard library:"),
              Preformatted(PLAIN_CODE, CODE),
              _small("Then roll(secret, [Red's seed, Blue's seed], n) is roll n.")]
    rolls = dice.get("rolls") or []
    if dice.get("secret") and rolls:
        worked = worked_roll(dice["secret"], [seeds.get(s) or "" for s in SEATS])
        story += [_heading(f"Roll {worked['n']} by hand", "heading"),
                  _small("The message is these lines, each ended by a newline: "
                         + " / ".join(worked["lines"])),
                  _small(f"Its HMAC-SHA256 keyed with the secret seed, in hex: {worked['hex']}"),
                  _small(f"Read it two digits at a time and pass over any pair from fc to ff "
                         f"(252 and over). The first other pair is {worked['pair']} (pair "
                         f"{worked['index'] + 1}), that is {worked['byte']}; {worked['byte']} "
                         f"mod 6 + 1 = {worked['value']}, and roll {worked['n']} was "
                         f"{rolls[0]['value']}.")]
        story += [Spacer(1, 2 * mm),
                  record_table(("Roll", "Face", "For"), (12, 12),
                               [[str(r["n"]), str(r["value"]), r["for"]] for r in rolls], width)]
    return story


def postmortem(shown: dict, record: dict, *, paper: str = "a4", analysis: dict | None = None
               ) -> bytes:
    """The booklet after the end (BB24, BB25): the result and the sea and decks at the end;
    the sailing round by round; every plot; every volley's and fight's rolls with what they
    did; the dice audit; and the whole record."""
    size = page_size(paper, "portrait")
    width = frame_width(size)
    view = shown["view"]
    doc = analysis or {}
    frames = sea_frames(view)
    sea, decks = _view_drawings(view, frames, 0, "at the end")
    plots = {p["round"]: p["cards"] for p in doc.get("plots", [])}
    story: list = [_heading(f"{TITLE} {view['id']}: post-mortem"),
                   Paragraph(plain(" v ".join(_name(view, s) for s in SEATS)), STYLES["body"]),
                   Paragraph(plain(result_headline(view) if view.get("result") else ""),
                             STYLES["heading"]),
                   _fit(size, 110 * mm, sea), _small("The sea at the end, with each ship's wake "
                                                     "over the whole game. " + SEA_KEY)]
    if plots:
        story += [_heading("Every plot", "heading"),
                  record_table(("Round", "Red", "Blue"), (14, 80),
                               [[str(n), _cards(p.get("red")) or "could not plot (BB7)",
                                 _cards(p.get("blue")) or "could not plot (BB7)"]
                                for n, p in sorted(plots.items())], width)]
    story += [PageBreak(), _heading("The decks at the end", "heading"),
              _fit(size, 50 * mm, decks), *_ship_lines(view)]
    cells = _rounds(view, frames, plots)
    cell_w = (width - 4 * mm) / ACROSS
    cell_h = (size[1] - 2 * MARGIN - 30 * mm) / DOWN - 16 * mm
    for first in range(0, len(cells), ACROSS * DOWN):
        page = cells[first:first + ACROSS * DOWN]
        grid: list[list[Any]] = [
            [[BoardFlowable(d, cell_w, cell_h), _small(c)] for d, c in page[i:i + ACROSS]]
            for i in range(0, len(page), ACROSS)]
        grid = [row + [""] * (ACROSS - len(row)) for row in grid]
        table = Table(grid, colWidths=[cell_w + 2 * mm] * ACROSS)
        table.setStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONTNAME", (0, 0), (-1, -1), FONT),
                        ("LEFTPADDING", (0, 0), (-1, -1), 1),
                        ("RIGHTPADDING", (0, 0), (-1, -1), 1)])
        story += [PageBreak(), _heading("The sailing, round by round" if not first
                                        else "The sailing (continued)", "heading"), table]
    shots = _shots(view)
    if shots:
        story += [PageBreak(),
                  _heading("Every cannon fired, its roll and what it did (BB11)", "heading"),
                  record_table(("Round", "Cannon", "At", "Roll", "What it did"),
                               (14, 24, 24, 11), shots, width)]
    fights = _fights(view)
    if fights:  # the heading never alone at a page's foot: with it, the head and a few rows
        story += [CondPageBreak(KEEP_WITH_HEADING), Spacer(1, 2 * mm),
                  _heading("Every fight's rolls (BB22)", "heading"),
                  record_table(("At", "Round", "Rolls", "Then"), (22, 14, 70), fights, width)]
    story += [PageBreak(), *_audit(doc, view, width)]
    # the record follows the rolls on their last page when it has room for a start (never a
    # page of one roll and nothing else)
    story += [CondPageBreak(KEEP_WITH_HEADING), Spacer(1, 4 * mm),
              _heading("The record", "heading"),
              record_table(COLUMNS_RECORD, WIDTHS_MM, _rows(record), width)]
    return build(size, f"{TITLE} {view['id']}: post-mortem", story, subject=TITLE)


__all__ = ["blank_chart", "blank_record", "player_charts", "player_record", "postmortem"]
