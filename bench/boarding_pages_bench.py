"""Broadsides and Boarding Parties' phone pages and paper, timed and weighed (not a test): prints
medians and sizes.

1. A seat's page as the app serves it (Flask's test client, the sqlite store), at the stages a
   game goes through: the first plot, a plot after some rounds, a volley, the boarding, the end;
   for each the median time to serve it and its bytes (of which the sea's SVG, the decks' SVG
   and the page's data). The game is played through the API by the rule set's computers.
2. The paper: the blank sea and decks, the blank log, a player's position, and the post-mortem
   booklet of the longest of some whole games between the computer's levels; median times and
   bytes.

Run with `.venv/bin/python bench/boarding_pages_bench.py`. Figures on a busy machine are
provisional.
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from apiclient import Api, FlaskTransport  # noqa: E402
from contract_support import make_app  # noqa: E402
from rule_set_tables import open_table  # noqa: E402

from referee import match  # noqa: E402
from referee.broadsides_boarding.postmortem import postmortem_document  # noqa: E402
from referee.broadsides_boarding.views import (  # noqa: E402
    postmortem_view,
    record_for,
    view_for,
)
from referee.broadsides_boarding.web import paper  # noqa: E402
from referee.rulesets import named  # noqa: E402

RULES = named("broadsides-boarding")
RUNS = 15


def median_ms(work, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def part(html: str, pattern: str) -> int:
    found = re.search(pattern, html, re.S)
    return len(found.group(0).encode()) if found else 0


def pages() -> None:
    app = make_app(Path(tempfile.mkdtemp()))
    table = open_table(Api(FlaskTransport(app.test_client())), RULES.rules, move_minutes=10)
    for seat, captain in (("red", "E4"), ("blue", "D4")):
        table.call(seat, "PUT", "/disposition", {"captain": captain})
        table.call(seat, "POST", "/ready")
    client = app.test_client()
    with client.session_transaction() as held:
        held["seats"] = {table.id: table.tokens["red"]}
    seen: dict[str, int] = {}
    computers = {s: RULES.computer("gunner", f"bench:{s}") for s in ("red", "blue")}

    def measure(label: str) -> None:
        html = client.get(f"/games/{table.id}").get_data(as_text=True)
        took = median_ms(lambda: client.get(f"/games/{table.id}"))
        print(f"{label:<28} {took:7.1f} ms  {len(html.encode()) / 1024:6.1f} KiB "
              f"(sea {part(html, r'<svg[^>]*id=.bb-sea.*?</svg>') / 1024:.1f}, decks "
              f"{part(html, r'<svg[^>]*id=.bb-decks.*?</svg>') / 1024:.1f}, data "
              f"{part(html, r'id=.page-data.>.*?</script>') / 1024:.1f})")

    measure("the first plot")
    for _ in range(2000):
        owing = table.owing()
        if not owing:
            break
        kind = table.view(owing[0])["legal"]["kind"]
        view = table.view("red")
        stage = view["stage"]
        label = {"plot": f"a plot, round {stage['round']}", "declaration": "a volley",
                 "boarding": "the boarding"}.get(kind)
        if label and "red" in owing and not seen.get(kind) and (
                kind != "plot" or stage["round"] >= 4):
            seen[kind] = seen.get(kind, 0) + 1
            measure(label)
        for seat in owing:
            table.call(seat, "POST", "/moves", computers[seat].move(table.view(seat)))
    if table.owing():
        table.call("red", "POST", "/resign")
    measure("the end")
    post = client.get(f"/games/{table.id}/postmortem").get_data(as_text=True)
    took = median_ms(lambda: client.get(f"/games/{table.id}/postmortem"), 5)
    print(f"{'the post-mortem page':<28} {took:7.1f} ms  {len(post.encode()) / 1024:6.1f} KiB")


def printables() -> None:
    played = [match.play(RULES, {"red": "gunner", "blue": "deckhand"}, seed=n) for n in range(8)]
    longest = max(played, key=lambda m: m.moves).game
    if longest.phase != "over":
        longest.resign("red")
    view = view_for(longest, "red")
    shown, record, doc = postmortem_view(longest, "red"), record_for(longest, "red"), \
        postmortem_document(longest)
    for label, work in (
            ("blank sea and decks", lambda: paper.blank_chart(paper="a4")),
            ("blank log, 2 pages", lambda: paper.blank_record(paper="a4", pages=2)),
            ("a player's position", lambda: paper.player_charts(view, paper="a4")),
            (f"booklet, {longest.round} rounds",
             lambda: paper.postmortem(shown, record, paper="a4", analysis=doc))):
        body = work()
        runs = 5 if label.startswith("booklet") else RUNS
        print(f"{label:<28} {median_ms(work, runs):7.1f} ms  {len(body) / 1024:6.1f} KiB")


if __name__ == "__main__":
    pages()
    printables()
