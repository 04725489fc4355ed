"""The printables as pure render functions: data in, PDF bytes out, no web and no files.

Everything about a player comes in as his view or his move record (``view_for`` and
``record_for`` of the core), so a PDF can hold no more than R20 has told him (R21).
"""

from __future__ import annotations

import datetime as dt
import io
from collections import Counter
from collections.abc import Sequence
from xml.sax.saxutils import escape

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from referee.naval_war.catalogue import DEFAULT_RECORD_PAGES, MAX_RECORD_PAGES
from referee.naval_war.fleet import NAMES
from referee.naval_war.knowledge import knowledge_chart
from referee.naval_war.phrasing import capitalise, join_and, order_words, side_words, sides_words
from referee.naval_war.views import result_headline

from .charts import KEY, ChartFlowable, Tally, knowledge_looks, own_looks
from .style import (
    FONT,
    GRID,
    INK,
    LAYOUTS,
    MARGIN,
    MIN_PAIR_CELL,
    PAIR_GAP,
    STYLES,
    chart_cell,
    page_size,
)

RECORD_COLUMNS = ("Move", "Player", "Weapon", "From (private)", "Target",
                  "A-A gun used (private)", "Result")
RECORD_WIDTHS_MM = (13, 16, 22, 20, 16, 22)  # the result takes the rest
BLANK_ROW_HEIGHT = 7.5 * mm  # room to write by hand
BLANK_RECORD_PAGES, MAX_BLANK_RECORD_PAGES = DEFAULT_RECORD_PAGES, MAX_RECORD_PAGES  # issue 12
POSTMORTEM_HEADER = 74 * mm  # the result, chart titles, labels and tallies above and below


def _document(buffer: io.BytesIO, size: tuple[float, float], title: str,
              subject: str = "The Naval War Game") -> SimpleDocTemplate:
    return SimpleDocTemplate(buffer, pagesize=size, leftMargin=MARGIN, rightMargin=MARGIN,
                             topMargin=MARGIN, bottomMargin=MARGIN, title=title,
                             author="The referee", subject=subject,
                             initialFontName=FONT)  # else every page names Helvetica


def _footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont(FONT, 6.5)
    canvas.setFillColor(INK)
    canvas.drawString(MARGIN, MARGIN / 2, doc.title)
    canvas.restoreState()


class _NumberedCanvas(Canvas):
    """A canvas that holds its pages back until the end, to write "Page 3 of 5" on each:
    a sheet that comes loose from the pile still says where it belongs (issue 12)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._held: list[dict] = []

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        self._held.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        for number, page in enumerate(self._held, 1):
            self.__dict__.update(page)
            self.saveState()
            self.setFont(FONT, 6.5)
            self.setFillColor(INK)
            self.drawRightString(self._pagesize[0] - MARGIN, MARGIN / 2,
                                 f"Page {number} of {len(self._held)}")
            self.restoreState()
            super().showPage()
        super().save()


def _build(size: tuple[float, float], title: str, story: list,
           subject: str = "The Naval War Game") -> bytes:
    buffer = io.BytesIO()
    _document(buffer, size, title, subject).build(story, onFirstPage=_footer,
                                                  onLaterPages=_footer,
                                                  canvasmaker=_NumberedCanvas)
    return buffer.getvalue()


def build(size: tuple[float, float], title: str, story: list, *, subject: str) -> bytes:
    """A PDF in the house style of every printable, for any rule set: the embedded font, the
    title at the foot of each page and "Page N of M" (issue 12)."""
    return _build(size, title, story, subject)


def _side_by_side(charts: list[ChartFlowable]) -> Table:
    table = Table([charts], colWidths=[c.width + PAIR_GAP for c in charts])
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT),  # not Helvetica
                               ("LEFTPADDING", (0, 0), (-1, -1), 0),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                               ("TOPPADDING", (0, 0), (-1, -1), 0),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                               ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return table


def plain(value: object) -> str:
    """Plain text for reportlab's Paragraph markup: every string a player or a file supplied
    (a name "<img src=...>", "<b>x", "&amp;") passes through here and prints as typed."""
    return escape(str(value))


def _title_line(player: str = "", colour: str = "", date: str = "") -> Paragraph:
    def blank(value: str, width: int) -> str:
        return plain(value) if value else "_" * width
    return Paragraph(f"<b>Player</b> {blank(player, 22)} &nbsp; <b>Colour</b> "
                     f"{blank(colour, 12)} &nbsp; <b>Date</b> {blank(date, 14)}",
                     STYLES["body"])


def blank_chart(*, paper: str = "a4", layout: str = "pair") -> bytes:
    """Blank charts to play on paper: the pair a player keeps (his own chart and his chart of
    the enemy) on one landscape page, or one large chart on a portrait page."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout is one of {', '.join(LAYOUTS)}, not {layout!r}")
    size = page_size(paper, "landscape" if layout == "pair" else "portrait")
    across = 2 if layout == "pair" else 1
    cell = chart_cell(size[0], across)
    if layout == "pair":
        assert cell >= MIN_PAIR_CELL - 0.01, "squares on the pair layout are at least 6 mm"
        charts = [ChartFlowable(cell, title="My chart", blank_tallies=True),
                  ChartFlowable(cell, title="My chart of the enemy")]
        body = _side_by_side(charts)
    else:
        body = ChartFlowable(cell, title="Chart", blank_tallies=True)
    story = [_title_line(), Spacer(1, 2 * mm), body, Spacer(1, 1.5 * mm),
             Paragraph(f"Ring each aircraft, gun and salvo as it is used; cross out each one "
                       f"destroyed. Key: {KEY}.",
                       STYLES["small"])]
    return _build(size, "The Naval War Game: blank chart", story)


def _record_table(rows: list[list[str]], width: float,
                  row_height: float | None = None) -> Table:
    widths = [w * mm for w in RECORD_WIDTHS_MM]
    widths.append(width - sum(widths))
    head = [Paragraph(h, STYLES["cell_head"]) for h in RECORD_COLUMNS]
    body = [[Paragraph(text, STYLES["cell"]) for text in row] for row in rows]
    heights = [None] + [row_height] * len(body) if row_height else None
    table = Table([head, *body], colWidths=widths, repeatRows=1, rowHeights=heights)
    table.setStyle(TableStyle([
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
        ("LINEBELOW", (0, 0), (-1, 0), 1.0, INK),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTNAME", (0, 0), (-1, -1), FONT),
        ("TOPPADDING", (0, 0), (-1, -1), 1.6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.6),
    ]))
    return table


def check_pages(pages: object) -> int:
    """How many pages of blank move record to print: a whole number from 1 to 20."""
    if (isinstance(pages, bool) or not isinstance(pages, int)
            or not 1 <= pages <= MAX_BLANK_RECORD_PAGES):
        raise ValueError(f"pages is a whole number from 1 to {MAX_BLANK_RECORD_PAGES}, "
                         f"not {pages!r}")
    return pages


def blank_record(*, paper: str = "a4", pages: int = BLANK_RECORD_PAGES) -> bytes:
    """A blank move record of as many pages as asked, each standing alone (title, name line,
    column heads) and filled with rows to its foot; the private columns are for the
    player's own moves."""
    check_pages(pages)
    size = page_size(paper, "portrait")
    width, height = size[0] - 2 * MARGIN, size[1] - 2 * MARGIN

    def head() -> list:
        return [Paragraph("The Naval War Game: move record", STYLES["title"]), _title_line(),
                Paragraph("From and A-A gun used are private: note them for your own moves "
                          "and guns only; your opponent is not told them.", STYLES["small"]),
                Spacer(1, 2 * mm)]

    used = sum(f.wrap(width, height)[1] + f.getSpaceBefore() + f.getSpaceAfter()
               for f in head()) + _record_table([], width).wrap(width, height)[1]
    rows = int((height - used - 6) // BLANK_ROW_HEIGHT)  # 6 points to spare for rounding
    story: list = []
    for page in range(pages):
        story += [PageBreak()] if page else []
        story += [*head(), _record_table([[""] * len(RECORD_COLUMNS)] * rows, width,
                                         BLANK_ROW_HEIGHT)]
    return _build(size, "The Naval War Game: blank move record", story)


def _record_rows(moves: list[dict]) -> list[list[str]]:
    return [[str(m["n"]), m["by"].title(),
             capitalise(NAMES.get(m.get("weapon") or "", "(not told)")),
             m.get("from") or "", m["target"].title(), m.get("gun") or "",
             m.get("text", "")] for m in moves]


def player_record(record: dict, *, paper: str = "a4") -> bytes:
    """The move record as one player may see it (``record_for``): his own moves' private
    columns only, until the game is over (R20, R21)."""
    size = page_size(paper, "portrait")
    toss = record.get("toss")
    # in words: the arrow glyph is not in the embedded font (issue 11)
    order = order_words(toss["order"]) if toss else "drawn when every player has locked in"
    story = [Paragraph(f"Move record of {record['you'].title()}, game {record['id']}",
                       STYLES["title"]),
             Paragraph(f"The toss (R11): seed {toss['seed'] if toss else '-'}; order of play "
                       f"{order}. Printed {dt.date.today().isoformat()}.", STYLES["body"]),
             Spacer(1, 3 * mm), _record_table(_record_rows(record["moves"]),
                                              size[0] - 2 * MARGIN)]
    if record.get("result"):
        story += [Spacer(1, 3 * mm), _result_paragraph(record["result"])]
    return _build(size, f"The Naval War Game {record['id']}: move record of "
                        f"{record['you'].title()}", story)


def _tallies(view: dict, seat: str, disposition: dict | None,
             damage: dict | None) -> dict[str, Tally]:
    """What a seat started with, and what flew or fired and what was destroyed, for the
    tally circles: from his chart's damage, and his own reports for salvoes and his guns."""
    if not disposition:
        return {}
    damage = damage or {"destroyed": [], "flown": [], "spent": []}
    destroyed, flown = set(damage["destroyed"]), set(damage["flown"])
    fired = set(damage["spent"]) | {r["gun"] for r in view["reports"]
                                    if r["target"] == seat and r.get("gun")}
    pieces = [(a["type"], a["at"] in flown, a["at"] in destroyed)
              for a in disposition.get("aircraft", [])]
    pieces += [("aa-gun", g in fired, g in destroyed) for g in disposition.get("guns", [])]
    fates = Counter(pieces)
    tallies = {kind: Tally(sum(n for (k, _, _), n in fates.items() if k == kind),
                           ringed=fates[kind, True, False], both=fates[kind, True, True],
                           crossed=fates[kind, False, True])
               for kind in ("atom-bomber", "bomber", "recon", "aa-gun")}
    salvoes = sum(1 for r in view["reports"] if r["by"] == seat and r.get("weapon") == "salvo")
    tallies["salvo"] = Tally(disposition.get("salvoes", 0), ringed=salvoes)
    return tallies


def _chart_of(seat: str, name: str | None) -> str:
    """A chart's title: "My chart of Blue (Bob)", or "My chart of Blue" before he has joined.

    >>> _chart_of("blue", None), _chart_of("blue", "Bob")
    ('My chart of Blue', 'My chart of Blue (Bob)')
    """
    return f"My chart of {seat.title()}" + (f" ({name})" if name else "")


def player_charts(view: dict, *, paper: str = "a4",
                  opponents: Sequence[str] | None = None) -> bytes:
    """A player's own chart with its damage beside his chart of each opponent, as the
    referee has filled it from his reports; printable at any time of the game.
    ``opponents``: the seats he may attack, as the core's ``targets_for`` gives them; a
    view read without its game (a test, a script) counts those its seats show (R23)."""
    size = page_size(paper, "landscape")
    cell = chart_cell(size[0], 2)
    you = view["you"]
    name = view["seats"][you]["name"] or you.title()
    if opponents is None:
        opponents = [s for s in view["seats"] if s != you and s not in view.get("allies", [])
                     and not view["seats"][s].get("forfeited")]
    story: list = []
    for i, opponent in enumerate(opponents):
        own = ChartFlowable(cell, own_looks(view["disposition"], view["damage"]),
                            title=f"My chart ({you.title()})",
                            tallies=_tallies(view, you, view["disposition"], view["damage"]))
        known = ChartFlowable(cell, knowledge_looks(knowledge_chart(view, opponent)),
                              title=_chart_of(opponent, view["seats"][opponent]["name"]))
        if i:
            story.append(PageBreak())
        story += [_title_line(name, you.title(), dt.date.today().isoformat()),
                  Spacer(1, 2 * mm), _side_by_side([own, known]), Spacer(1, 1 * mm),
                  Paragraph(f"Game {view['id']}, after move {len(view['reports'])}. "
                            f"{_order_and_sides(view)}Key: {KEY}.", STYLES["small"])]
    if not opponents:
        story.append(Paragraph("No opponent's chart to print.", STYLES["body"]))
    return _build(size, f"The Naval War Game {view['id']}: charts of {you.title()}", story)


def _order_and_sides(view: dict) -> str:
    """The order of play drawn at creation (R11) and the sides (R23), in words."""
    text = f"Order of play (R11): {order_words(view['order'])}. " if view.get("order") else ""
    sides = view.get("sides") or []
    if any(len(side) > 1 for side in sides):
        text += f"Sides (R23): {sides_words(sides)}. "
    return text


def _result_paragraph(result: dict) -> Paragraph:
    scores = ", ".join(f"{seat.title()} {score}" for seat, score in result["scores"].items())
    winners = join_and(s.title() for s in result["winners"]) or "nobody (a draw)"
    text = f"<b>Result</b> ({result['reason']}): {winners} won. Scores: {scores}."
    if any(len(side["seats"]) > 1 for side in result.get("sides", [])):
        text += " Sides (R22): " + ", ".join(f"{side_words(side['seats'])} {side['score']}"
                                             for side in result["sides"]) + "."
    return Paragraph(text, STYLES["body"])


def _grid_table(rows: list[list[str]], widths_mm: list[float]) -> Table:
    table = Table([[Paragraph(text, STYLES["cell_head" if i == 0 or j == 0 else "cell"])
                    for j, text in enumerate(row)] for i, row in enumerate(rows)],
                  colWidths=[w * mm for w in widths_mm], repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.4, GRID),
                               ("LINEBELOW", (0, 0), (-1, 0), 1.0, INK),
                               ("VALIGN", (0, 0), (-1, -1), "TOP"),
                               ("FONTNAME", (0, 0), (-1, -1), FONT)]))
    return table


def _weapon(kind: str) -> str:
    return NAMES[kind][0].upper() + NAMES[kind][1:]


def _analysis_story(view: dict, analysis: dict) -> list:
    """What each weapon bought, hindsight and the fingerprints, as tables."""
    story: list = [PageBreak(), Paragraph("What each weapon bought", STYLES["heading"])]
    head = ["Player", "Weapon", "Points spent", "Ship points sunk", "Ship squares hit",
            "Aircraft and guns destroyed", "Shot down", "Squares revealed"]
    rows = [head] + [[seat.title(), _weapon(kind), str(r["points"]), str(r["sank"]),
                      str(r["hit"]), str(r["destroyed"]), str(r["shot_down"]),
                      str(r["revealed"])]
                     for seat, table in analysis["spending"].items()
                     for kind, r in table.items()]
    story.append(_grid_table(rows, [22, 26, 22, 26, 26, 34, 22, 26]))
    story += [Spacer(1, 4 * mm), Paragraph("Hindsight", STYLES["heading"]),
              Paragraph("The targets on the enemy's final chart that would have sunk the most "
                        "ship points with as many aircraft as were flown, had they been the "
                        "only attack and none shot down.", STYLES["body"]), Spacer(1, 2 * mm)]
    rows = [["Player", "Weapon", "Flown", "Did sink", "Best targets", "Would sink"]]
    for seat, plans in analysis["hindsight"].items():
        for kind, plan in plans.items():
            best = ", ".join(plan["targets"]) or "-"
            if plan.get("target"):
                best += f" on {plan['target'].title()}"
            would = str(plan["would_sink"])
            if plan["count"] and not plan.get("exact", True):
                would += f" (best found; at most {plan['upper_bound']})"
            rows.append([seat.title(), _weapon(kind), str(plan["count"]),
                         str(plan["did_sink"]), best, would])
    story.append(_grid_table(rows, [22, 26, 16, 18, 110, 40]))
    story += [Spacer(1, 4 * mm), Paragraph("Fingerprints", STYLES["heading"]),
              Paragraph("SHA-256 of the salt, a newline and the disposition's canonical JSON; "
                        "shown to every player at lock-in.", STYLES["body"]), Spacer(1, 2 * mm)]
    rows = [["Player", "Fingerprint", "Salt"]] + [
        [seat.title(), info.get("fingerprint") or "-", info.get("salt") or "-"]
        for seat, info in view["seats"].items()]
    story.append(_grid_table(rows, [22, 130, 70]))
    return story


def postmortem(view: dict, record: dict, *, paper: str = "a4",
               analysis: dict | None = None) -> bytes:
    """After the end: the result, every final chart side by side (as the rules' Figures 5
    and 6), the full move record and, given the post-mortem ``analysis`` (spending and
    hindsight), its tables."""
    if view["phase"] != "over":
        raise ValueError("the post-mortem is printed once the game is over (R21)")
    size = page_size(paper, "landscape")
    cell = min(chart_cell(size[0], 2), (size[1] - 2 * MARGIN - POSTMORTEM_HEADER) / 21)
    finals = [(view["you"], view["disposition"], view["damage"])]
    finals += [(seat, info["disposition"], info["damage"])
               for seat, info in view.get("revealed", {}).items()]
    finals.sort(key=lambda item: list(view["seats"]).index(item[0]))
    story: list = [Paragraph(f"Post-mortem of game {view['id']}", STYLES["title"]),
                   Paragraph(result_headline(view), STYLES["heading"]),
                   _result_paragraph(view["result"])]
    charts = [ChartFlowable(cell, own_looks(disposition, damage),
                            title=f"{seat.title()} ({view['seats'][seat]['name'] or ''}): "
                                  f"{view['result']['scores'][seat]} points",
                            tallies=_tallies(view, seat, disposition, damage))
              for seat, disposition, damage in finals]
    for i in range(0, len(charts), 2):
        story += [PageBreak()] if i else []
        story.append(KeepTogether(_side_by_side(charts[i:i + 2])))
    if analysis:
        story += _analysis_story(view, analysis)
    story += [PageBreak(), Paragraph("The whole move record", STYLES["heading"]),
              Paragraph(_order_and_sides(view), STYLES["body"]),
              _record_table(_record_rows(record["moves"]), size[0] - 2 * MARGIN)]
    return _build(size, f"The Naval War Game {view['id']}: post-mortem", story)

