"""The one drawing of Broadside's harbour (B1, B14): board data and pieces in, shapes out.

Everything that shows the board (the phone pages as SVG, ``svg.py``; the PDFs through
reportlab, ``printables.py``; the post-mortem on both) draws the shapes this module makes, so
the harbour looks the same everywhere. It reads only the board as the core's ``board.json``
holds it (the view's ``"board"``) and the pieces as a view lists them: no rule of its own.

Units: one grid cell is 1.0 across; row 1 (the docks) is at the top, so y grows down the
harbour toward the entrance; a band of ``LABEL`` on the left and at the top holds the row
numbers and column letters. Each shape has a ``cls`` (what it is: "land", "cross",
"red-circle", "ship red" ...) that each renderer maps to its own colours, and may carry
``data`` (the cross or ship it stands for, for the pages' taps) and a ``label`` (what a
screen reader says).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

LABEL = 0.75  # the band for row numbers (left) and column letters (top)
FOOT = 0.15
FACINGS = ("up", "right", "down", "left")
STEP = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}
TYPE_NAMES = {"ship-of-the-line": "Ship-of-the-Line", "frigate": "Frigate", "brig": "Brig",
              "cutter": "Cutter"}
# a hull with its bow toward -y, centred on the cross: bow point, shoulders, square stern
HULL = ((0.0, -0.44), (0.2, -0.2), (0.2, 0.36), (-0.2, 0.36), (-0.2, -0.2))
MAST = 0.062  # a mast's dot


@dataclass(frozen=True)
class Shape:
    kind: str  # "rect", "circle", "line", "poly", "text"
    cls: str
    at: tuple[float, ...]  # rect: x, y, w, h; circle: cx, cy, r; line: x1, y1, x2, y2;
    # poly: x1, y1, x2, y2 ...; text: x, y, size
    text: str = ""
    data: tuple[tuple[str, str], ...] = ()
    label: str = ""


@dataclass
class Group:
    """Shapes that stand for one thing (a ship, a cross to tap): one element on a page."""

    cls: str
    shapes: list[Shape] = field(default_factory=list)
    data: tuple[tuple[str, str], ...] = ()
    label: str = ""
    origin: tuple[float, float] | None = None  # the cross it stands on: a piece

    def relative(self) -> tuple:
        """The piece's shapes about its origin: the same for every piece that looks alike
        (a renderer may draw it once and place it again)."""
        ox, oy = self.origin or (0.0, 0.0)
        out = []
        for shape in self.shapes:
            at = list(shape.at)
            if shape.kind in ("rect", "circle", "text"):
                at[0], at[1] = at[0] - ox, at[1] - oy
            else:
                at = [v - (ox if i % 2 == 0 else oy) for i, v in enumerate(at)]
            out.append((shape.kind, shape.cls, tuple(round(v, 3) for v in at), shape.text))
        return tuple(out)


@dataclass
class Drawing:
    width: float
    height: float
    title: str
    layers: list[Shape | Group] = field(default_factory=list)  # the pieces, over ...
    key: str = ""  # ... the background of the board this key names
    background: tuple[Shape, ...] = ()

    def add(self, item: Shape | Group) -> None:
        self.layers.append(item)


def _split(name: str) -> tuple[str, int]:
    letters, number = name.split()
    return letters, int(number)


class Grid:
    """Where each named cell of the board lies on the drawing."""

    def __init__(self, board: dict) -> None:
        self.columns = list(board["columns"])
        self.rows = int(board["rows"])
        self._index = {c: i for i, c in enumerate(self.columns)}

    def cell(self, name: str) -> tuple[int, int]:
        """(column index, row index from 0) of "F 7"."""
        column, row = _split(name)
        return self._index[column], row - 1

    def centre(self, name: str) -> tuple[float, float]:
        c, r = self.cell(name)
        return LABEL + c + 0.5, LABEL + r + 0.5

    def name(self, c: int, r: int) -> str:
        return f"{self.columns[c]} {r + 1}"

    def inside(self, c: int, r: int) -> bool:
        return 0 <= c < len(self.columns) and 0 <= r < self.rows


def _turned(points, facing: str, x: float, y: float, scale: float = 1.0) -> tuple[float, ...]:
    angle = math.pi / 2 * FACINGS.index(facing)
    cos, sin = round(math.cos(angle), 9), round(math.sin(angle), 9)
    out: list[float] = []
    for px, py in points:
        out += [round(x + scale * (px * cos - py * sin), 3),
                round(y + scale * (px * sin + py * cos), 3)]
    return tuple(out)


def ship_group(grid: Grid, ship: dict, *, cls: str = "") -> Group:
    """A warship on its cross: a hull pointing the way it faces, its colour its side, one dot
    for each mast it has left (B9), stern to bow; its broadsides are its long sides (B8); its
    number among its side's ships of its type (Frigate 2) at the cross's upper right, clear of
    the hull whichever way it faces."""
    x, y = grid.centre(ship["at"])
    masts = int(ship.get("masts", 0))
    facing = ship.get("facing") or ("down" if ship["side"] == "blue" else "up")
    shapes = [Shape("poly", f"hull {ship['side']}", _turned(HULL, facing, x, y))]
    length = 0.42
    for i in range(masts):
        offset = 0.22 - (length * (i + 0.5) / max(masts, 1)) if masts > 1 else 0.02
        shapes.append(Shape("circle", f"mast {ship['side']}",
                            (*_turned([(0.0, offset)], facing, x, y), MAST)))
    name = TYPE_NAMES.get(ship.get("type", ""), "Ship")
    number = ship.get("number")
    if number:
        name = f"{name} {number}"
        shapes.append(Shape("text", f"ship-number {ship['side']}", (x + 0.34, y - 0.13, 0.48),
                            str(number)))
    label = (f"{ship['side'].title()}'s {name} at {ship['at']}, facing {facing}, "
             f"{masts} mast{'' if masts == 1 else 's'}")
    return Group(f"ship {ship['side']} {cls}".strip(), shapes,
                 (("ship", ship["at"]), ("side", ship["side"])), label, (x, y))


def _coast(grid: Grid, land: set[tuple[int, int]]) -> list[Shape]:
    """The edges between land and water, one line each."""
    lines = []
    for c, r in sorted(land):
        x, y = LABEL + c, LABEL + r
        for dc, dr, edge in ((0, -1, (x, y, x + 1, y)), (1, 0, (x + 1, y, x + 1, y + 1)),
                             (0, 1, (x, y + 1, x + 1, y + 1)), (-1, 0, (x, y, x, y + 1))):
            near = (c + dc, r + dr)
            if grid.inside(*near) and near not in land:
                lines.append(Shape("line", "coast", edge))
    return lines


_BACKGROUNDS: dict[str, tuple[Shape, ...]] = {}


def board_key(board: dict) -> str:
    """What names a board's drawing for the renderers' caches: its data, hashed."""
    return hashlib.sha256(json.dumps(board, sort_keys=True).encode()).hexdigest()[:16]


def background(board: dict, key: str | None = None) -> tuple[Shape, ...]:
    """The harbour without pieces: water, land, the start crosses, the lines of crosses, the
    coast, the red circles and the batteries' fire, the labels. The same for every game on a
    board, so it is worked out once for each board."""
    key = key or board_key(board)
    if key not in _BACKGROUNDS:
        _BACKGROUNDS[key] = tuple(_background(board))
    return _BACKGROUNDS[key]


def _background(board: dict) -> list[Shape]:
    grid = Grid(board)
    shapes: list[Shape] = []
    add = shapes.append
    add(Shape("rect", "water", (LABEL, LABEL, len(grid.columns), grid.rows)))
    land = {grid.cell(n) for n in board.get("land", [])}
    for c, r in sorted(land):
        add(Shape("rect", "land", (LABEL + c, LABEL + r, 1, 1)))
    crosses = list(board["crosses"])
    places = {grid.cell(n) for n in crosses}
    starts = {n: "start-blue" for n in board.get("blue_start", [])}
    starts.update({n: "start-red" for n in board.get("red_start", [])})
    for name, cls in starts.items():
        x, y = grid.centre(name)
        add(Shape("rect", cls, (x - 0.44, y - 0.44, 0.88, 0.88), label=f"{name}, start"))
    for c, r in sorted(places):  # the lines of crosses a ship sails along (B2)
        x, y = LABEL + c + 0.5, LABEL + r + 0.5
        if (c + 1, r) in places:
            add(Shape("line", "lane", (x, y, x + 1, y)))
        if (c, r + 1) in places:
            add(Shape("line", "lane", (x, y, x, y + 1)))
    for shape in _coast(grid, land):
        add(shape)
    for c, r in sorted(places):
        x, y = LABEL + c + 0.5, LABEL + r + 0.5
        add(Shape("line", "cross", (x - 0.16, y, x + 0.16, y)))
        add(Shape("line", "cross", (x, y - 0.16, x, y + 0.16)))
    circles = {c["at"]: c for c in board.get("red_circles", [])}
    for battery in board.get("batteries", []):  # the fire of each site (B1, B7), dashed
        bx, by = grid.centre(battery["at"])
        for target in battery.get("controls", []):
            tx, ty = grid.centre(target)
            add(Shape("line", "fire", (bx, by, tx, ty)))
    for name, circle in circles.items():
        x, y = grid.centre(name)
        label = f"{name}, red {'double ' if circle.get('double') else ''}circle"
        add(Shape("circle", "red-circle", (x, y, 0.34), label=label))
        if circle.get("double"):
            add(Shape("circle", "red-circle", (x, y, 0.24)))
    panel = [grid.cell(n) for n in board.get("title_panel", [])]
    if panel:  # the kite panel at the entrance, as on the box's board
        left = LABEL + min(c for c, _ in panel)
        right = LABEL + max(c for c, _ in panel) + 1
        top, bottom = LABEL + min(r for _, r in panel), LABEL + max(r for _, r in panel) + 1
        size = min(0.9, (right - left) / 7.5)
        add(Shape("text", "panel", ((left + right) / 2, (top + bottom) / 2, size),
                  "BROADSIDE"))
        add(Shape("text", "panel-small", ((left + right) / 2, (top + bottom) / 2 + size,
                                          size * 0.45), "the entrance: to the right"))
    for c, column in enumerate(grid.columns):
        add(Shape("text", "axis", (LABEL + c + 0.5, LABEL - 0.2, 0.46), column))
    for r in range(grid.rows):
        add(Shape("text", "axis", (LABEL - 0.36, LABEL + r + 0.66, 0.4), str(r + 1)))
    return shapes


def board_drawing(board: dict, *, ships: Sequence[dict] = (), merchants: list[dict] | None = None,
                  buoys: dict | None = None, batteries: dict | None = None,
                  marks: dict[str, str] | None = None, taps: bool = False,
                  title: str = "The harbour") -> Drawing:
    """The harbour of ``board`` (board.json as is) with the pieces given:

    - ``ships``: warships as the view lists them ({"side", "type", "at", "facing", "masts"});
    - ``merchants``: [{"at", "opposite", "sunk"}] (default: all four afloat);
    - ``buoys``: {yellow circle: {"kind": "unknown" | "sink" | "pass", "revealed": bool}} as
      the view has it (or the kind alone, "gone" for a circle without a buoy: a draft);
      default: a buoy, unknown, on every yellow circle;
    - ``batteries``: {site: "unknown" | "hit" | "miss"}; default "unknown";
    - ``marks``: {cross: class} drawn under the pieces (a ship's path, a problem ...);
    - ``taps``: a cell-sized tap target over every cross, carrying its name.
    """
    grid = Grid(board)
    key = board_key(board)
    drawing = Drawing(LABEL + len(grid.columns) + FOOT, LABEL + grid.rows + FOOT, title,
                      key=key, background=background(board, key))
    add = drawing.add
    crosses = list(board["crosses"])
    for name, cls in (marks or {}).items():
        x, y = grid.centre(name)
        add(Shape("rect", f"mark {cls}", (x - 0.5, y - 0.5, 1, 1)))
    states = batteries or {}
    for battery in board.get("batteries", []):
        state = states.get(battery["site"], "unknown")
        x, y = grid.centre(battery["at"])
        wedge = ((0.0, -0.42), (0.34, 0.3), (-0.34, 0.3))
        shapes = [Shape("poly", f"battery {state}", _turned(wedge, battery["points"], x, y))]
        shapes.append(Shape("text", f"battery-site {state}", (x, y + 0.16, 0.42),
                            battery["site"]))
        if state in ("hit", "miss"):  # Blue's own, or everyone's after the end
            shapes.append(Shape("text", f"battery-word {state}", (x, y + 0.86, 0.3),
                                state.upper()))
        add(Group(f"battery {state}", shapes, (("site", battery["site"]),),
                  f"Shore battery {battery['site']} at {battery['at']}"
                  + {"hit": ": HIT", "miss": ": MISS"}.get(state, "")))
    yellow = [n for group in ("row", "pair", "single")
              for n in board.get("buoys", {}).get(group, [])]
    for name in yellow:
        x, y = grid.centre(name)
        value = (buoys or {}).get(name, "unknown")
        kind = value.get("kind") if isinstance(value, dict) else value
        kind = "unknown" if kind in (None, "buoy") else kind
        revealed = isinstance(value, dict) and bool(value.get("revealed"))
        was = kind
        if revealed:  # B6: revealed and removed; the circle is an ordinary cross now
            kind = "gone"
        cls = f"yellow {kind}{' revealed' if revealed else ''}"
        shapes = [Shape("circle", cls, (x, y, 0.3))]
        if kind in ("sink", "pass"):
            shapes.append(Shape("text", f"buoy-word {kind}", (x, y + 0.13, 0.36),
                                "S" if kind == "sink" else "P"))
        elif kind == "unknown":
            shapes.append(Shape("circle", "buoy-top", (x, y, 0.1)))
        said = {"unknown": "a buoy", "sink": "a SINK buoy", "pass": "a PASS buoy",
                "gone": "no buoy"}.get(kind, kind)
        if revealed:
            said = f"no buoy: a {was.upper()} buoy, revealed and removed (B6)"
        add(Group(cls, shapes, (("buoy", name),), f"{name}, yellow circle: {said}", (x, y)))
    afloat = merchants if merchants is not None else [
        {**m, "sunk": False} for m in board.get("merchants", [])]
    for merchant in afloat:
        x, y = grid.centre(merchant["at"])
        cls = "merchant sunk" if merchant.get("sunk") else "merchant"
        shapes = [Shape("circle", "dock", (x, y, 0.42))]
        if merchant.get("sunk"):
            shapes += [Shape("line", "wreck", (x - 0.22, y - 0.22, x + 0.22, y + 0.22)),
                       Shape("line", "wreck", (x - 0.22, y + 0.22, x + 0.22, y - 0.22))]
        else:
            shapes.append(Shape("poly", "merchant-hull",
                                (x - 0.3, y - 0.12, x + 0.3, y - 0.12, x + 0.2, y + 0.14,
                                 x - 0.2, y + 0.14)))
        add(Group(cls, shapes, (("merchant", merchant["at"]),),
                  f"Merchant ship at {merchant['at']} (opposite {merchant['opposite']})"
                  + (": sunk" if merchant.get("sunk") else ""), (x, y)))
    for ship in ships:
        if not ship.get("sunk"):
            add(ship_group(grid, ship))
    if taps:
        for name in crosses:
            x, y = grid.centre(name)
            add(Group("tap", [Shape("rect", "tap", (x - 0.5, y - 0.5, 1, 1))],
                      (("cross", name),), name))
    return drawing
