"""The Naval War Game on paper: pure render functions, data in, PDF bytes out, no web and
no files.

Blank charts and a blank move record for players without phones; a player's charts and his
move record at any time of the game; the post-mortem booklet after the end. Everything about
a player comes in as his view or his move record (``view_for`` and ``record_for`` of the
core), so a PDF can hold no more than R20 has told him (R21). The house style, the name line,
the record table and the page numbering are the paper kit's (``printables``); the charts are
this game's own (``charts``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence

from reportlab.lib.units import mm
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from printables import (
    BLANK_RECORD_PAGES,
    blank_pages,
    build,
    grid_table,
    name_line,
    record_table,
)
from printables.style import FONT, LAYOUTS, MARGIN, STYLES, frame_width, page_size

from ...catalogue import NAMES, TITLE
from ...knowledge import knowledge_chart
from ...phrasing import capitalise, join_and, order_words, side_words, sides_words
from ...squares import SIZE
from ...views import result_headline
from .charts import (
    KEY,
    MIN_PAIR_CELL,
    PAIR_GAP,
    ChartFlowable,
    Tally,
    chart_cell,
    knowledge_looks,
    own_looks,
)

RECORD_COLUMNS = ("Move", "Player", "Weapon", "From (private)", "Target",
                  "A-A gun used (private)", "Result")
RECORD_WIDTHS_MM = (13, 16, 22, 20, 16, 22)  # the result takes the rest
BLANK_ROW_HEIGHT = 7.5 * mm  # room to write by hand
POSTMORTEM_HEADER = 74 * mm  # the result, chart titles, labels and tallies above and below


def _side_by_side(charts: list[ChartFlowable]) -> Table:
    table = Table([charts], colWidths=[c.width + PAIR_GAP for c in charts])
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), FONT),  # not Helvetica
                               ("LEFTPADDING", (0, 0), (-1, -1), 0),
                               ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                               ("TOPPADDING", (0, 0), (-1, -1), 0),
                               ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                               ("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return table


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
        body: Flowable = _side_by_side(charts)
    else:
        body = ChartFlowable(cell, title="Chart", blank_tallies=True)
    story = [name_line(), Spacer(1, 2 * mm), body, Spacer(1, 1.5 * mm),
             Paragraph(f"Ring each aircraft, gun and salvo as it is used; cross out each one "
                       f"destroyed. Key: {KEY}.",
                       STYLES["small"])]
    return build(size, f"{TITLE}: blank chart", story, subject=TITLE)


def _record_table(rows: list[list[str]], width: float,
                  row_height: float | None = None) -> Table:
    return record_table(RECORD_COLUMNS, RECORD_WIDTHS_MM, rows, width, row_height)


def blank_record(*, paper: str = "a4", pages: int = BLANK_RECORD_PAGES) -> bytes:
    """A blank move record of as many pages as asked, each standing alone (title, name line,
    column heads) and filled with rows to its foot; the private columns are for the
    player's own moves."""
    size = page_size(paper, "portrait")
    width, height = frame_width(size), size[1] - 2 * MARGIN

    def head() -> list:
        return [Paragraph(f"{TITLE}: move record", STYLES["title"]), name_line(),
                Paragraph("From and A-A gun used are private: note them for your own moves "
                          "and guns only; your opponent is not told them.", STYLES["small"]),
                Spacer(1, 2 * mm)]

    def rows(n: int) -> Table:
        return _record_table([[""] * len(RECORD_COLUMNS)] * n, width, BLANK_ROW_HEIGHT)

    story = blank_pages(pages, head, rows, width=width, height=height,
                        row_height=BLANK_ROW_HEIGHT)
    return build(size, f"{TITLE}: blank move record", story, subject=TITLE)


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
    # in words: the arrow glyph is not in the embedded font
    order = order_words(toss["order"]) if toss else "drawn when every player has locked in"
    story = [Paragraph(f"Move record of {record['you'].title()}, game {record['id']}",
                       STYLES["title"]),
             Paragraph(f"The toss (R11): seed {toss['seed'] if toss else '-'}; order of play "
                       f"{order}. Printed {dt.date.today().isoformat()}.", STYLES["body"]),
             Spacer(1, 3 * mm), _record_table(_record_rows(record["moves"]),
                                              frame_width(size))]
    if record.get("result"):
        story += [Spacer(1, 3 * mm), _result_paragraph(record["result"])]
    return build(size, f"{TITLE} {record['id']}: move record of {record['you'].title()}",
                 story, subject=TITLE)


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
        story += [name_line(name, you.title(), dt.date.today().isoformat()),
                  Spacer(1, 2 * mm), _side_by_side([own, known]), Spacer(1, 1 * mm),
                  Paragraph(f"Game {view['id']}, after move {len(view['reports'])}. "
                            f"{_order_and_sides(view)}Key: {KEY}.", STYLES["small"])]
    if not opponents:
        story.append(Paragraph("No opponent's chart to print.", STYLES["body"]))
    return build(size, f"{TITLE} {view['id']}: charts of {you.title()}", story, subject=TITLE)


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
    story.append(grid_table(rows, [22, 26, 22, 26, 26, 34, 22, 26]))
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
    story.append(grid_table(rows, [22, 26, 16, 18, 110, 40]))
    story += [Spacer(1, 4 * mm), Paragraph("Fingerprints", STYLES["heading"]),
              Paragraph("SHA-256 of the salt, a newline and the disposition's canonical JSON; "
                        "shown to every player at lock-in.", STYLES["body"]), Spacer(1, 2 * mm)]
    rows = [["Player", "Fingerprint", "Salt"]] + [
        [seat.title(), info.get("fingerprint") or "-", info.get("salt") or "-"]
        for seat, info in view["seats"].items()]
    story.append(grid_table(rows, [22, 130, 70]))
    return story


def postmortem(view: dict, record: dict, *, paper: str = "a4",
               analysis: dict | None = None) -> bytes:
    """After the end: the result, every final chart side by side (as the rules' Figures 5
    and 6), the full move record and, given the post-mortem ``analysis`` (spending and
    hindsight), its tables."""
    if view["phase"] != "over":
        raise ValueError("the post-mortem is printed once the game is over (R21)")
    size = page_size(paper, "landscape")
    cell = min(chart_cell(size[0], 2), (size[1] - 2 * MARGIN - POSTMORTEM_HEADER) / SIZE)
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
              _record_table(_record_rows(record["moves"]), frame_width(size))]
    return build(size, f"{TITLE} {view['id']}: post-mortem", story, subject=TITLE)

