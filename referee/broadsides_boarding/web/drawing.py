"""The one drawing of Broadsides and Boarding Parties' boards (BB1, BB15): the sea and the decks
as shapes, data in, shapes out.

Everything that shows a board draws the shapes made here: the phone pages as SVG (``svg.py``),
the PDFs through reportlab (``paperboard.py``). It reads the sea as ``sea.json`` holds it (the
view's ``"sea"``), the deck plan as ``deck.json`` holds it (``"deck_plan"``) and the ships, crews
and the lie of the ships as a view lists them (``"ships"``, ``"crews"``, ``"boarding"``): what
a drawing shows is what the view it is given shows, and no rule is worked out here.

Units: on the sea one dot is 1.0 from the next, row 1 (north) at the top; a band of ``LABEL``
on the left and at the top holds the row numbers and column letters. On the decks one cell is
1.0 across. Each shape has a ``cls`` (what it is: "island", "dot", "hull red", "cannon" ...)
that each renderer maps to its own colours. A ``Group`` stands for one thing on a page (a
ship, a cell to tap); its shapes are about its ``origin`` when it has one, turned ``angle``
degrees clockwise (a ship, which the pages move by changing its transform alone).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field

LABEL = 0.8  # the sea's band for row numbers (left) and column letters (top)
FOOT = 0.2
DOT = 0.075  # a dot of the sea
# a hull about its dot, its bow toward -y (north) before it is turned to its heading
HULL = ((0.0, -0.58), (0.22, -0.26), (0.21, 0.36), (0.13, 0.5), (-0.13, 0.5), (-0.21, 0.36),
        (-0.22, -0.26))
MAST_SPOTS = {"A4": -0.3, "C4": -0.06, "G4": 0.2, "H4": 0.37}  # along a hull on the sea
SEATS = ("red", "blue")
POSITIONS = (3, 4, 5)

# the decks: a margin for the section letters and hull markers on the outer side of each deck
MARGIN = 0.95
GAP_SEA, GAP_BOARDING = 1.5, 1.1  # between the two decks: open sea, or the planks across
TOP, BOTTOM = 1.45, 0.75  # above the decks (the ship's name, a bow), below them (a stern)
PIECE = 0.11  # a crewmember's disc on a deck
CAPTAIN = 0.16


@dataclass(frozen=True)
class Shape:
    kind: str  # "rect", "circle", "line", "poly", "text"
    cls: str
    at: tuple[float, ...]  # rect: x, y, w, h; circle: cx, cy, r; line: x1, y1, x2, y2;
    # poly: x1, y1, x2, y2 ...; text: x, y, size
    text: str = ""
    label: str = ""  # what a screen reader says of it


@dataclass
class Group:
    """Shapes that stand for one thing on a page: one element, with ``data`` for the page's
    script and a ``label`` for a screen reader; ``tap`` makes it a button."""

    cls: str
    shapes: list[Shape] = field(default_factory=list)
    data: tuple[tuple[str, str], ...] = ()
    label: str = ""
    origin: tuple[float, float] | None = None  # the shapes are about it when it is set
    angle: float = 0.0  # degrees clockwise, about the origin
    tap: bool = False

    def placed(self) -> list[Shape]:
        """The shapes where they lie on the drawing (turned and moved to the origin)."""
        if self.origin is None:
            return list(self.shapes)
        ox, oy = self.origin
        turn = math.radians(self.angle)
        cos, sin = math.cos(turn), math.sin(turn)

        def point(x: float, y: float) -> tuple[float, float]:
            return round(ox + x * cos - y * sin, 4), round(oy + x * sin + y * cos, 4)

        out = []
        for shape in self.shapes:
            a = shape.at
            if shape.kind in ("line", "poly"):
                coords: list[float] = []
                for i in range(0, len(a), 2):
                    coords += point(a[i], a[i + 1])
                at = tuple(coords)
            elif shape.kind == "rect":  # only ever unturned or square about its centre
                cx, cy = point(a[0] + a[2] / 2, a[1] + a[3] / 2)
                at = (cx - a[2] / 2, cy - a[3] / 2, a[2], a[3])
            else:
                at = (*point(a[0], a[1]), *a[2:])
            out.append(Shape(shape.kind, shape.cls, at, shape.text, shape.label))
        return out


@dataclass
class Drawing:
    width: float
    height: float
    title: str
    items: list[Shape | Group] = field(default_factory=list)
    kind: str = "sea"  # "sea" or "decks": the renderers' class for the whole
    # the first ``background`` items are the board without pieces, alike in every drawing of
    # the same ``key``: a renderer may draw them once and place them again
    key: str = ""
    background: int = 0

    def add(self, item: Shape | Group) -> None:
        self.items.append(item)


# -- the sea (BB1, BB2) -------------------------------------------------------------------------

class SeaGrid:
    """Where each dot of the sea lies on the drawing."""

    def __init__(self, sea: dict) -> None:
        self.columns = list(sea["columns"])
        self.rows = int(sea["rows"])
        self.headings = list(sea["headings"])

    def centre(self, dot: str) -> tuple[float, float]:
        column, row = dot.split(" ")
        return LABEL + self.columns.index(column) + 0.5, LABEL + int(row) - 0.5

    def angle(self, heading: str) -> float:
        return 360.0 / len(self.headings) * self.headings.index(heading)


def _digest(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:12]


def sea_geometry(sea: dict) -> dict:
    """What a page's script needs to put a mark on a dot: the band and the columns."""
    return {"label": LABEL, "columns": list(sea["columns"]), "rows": int(sea["rows"]),
            "headings": list(sea["headings"])}


_SEA_BACKGROUNDS: dict[str, tuple[Shape, ...]] = {}  # a sea's dots and islands (Shape is frozen)


def _sea_background(sea: dict, grid: SeaGrid) -> list[Shape]:
    shapes = [Shape("rect", "water", (LABEL, LABEL, len(grid.columns), grid.rows))]
    add = shapes.append
    for c in range(1, len(grid.columns)):  # faint guides through the dots, to read a line by
        x = LABEL + c
        add(Shape("line", "guide", (x - 0.5, LABEL, x - 0.5, LABEL + grid.rows)))
    add(Shape("line", "guide", (LABEL + len(grid.columns) - 0.5, LABEL,
                                LABEL + len(grid.columns) - 0.5, LABEL + grid.rows)))
    for r in range(grid.rows):
        y = LABEL + r + 0.5
        add(Shape("line", "guide", (LABEL, y, LABEL + len(grid.columns), y)))
    islands = {dot for island in sea["islands"] for dot in island["dots"]}
    for island in sea["islands"]:
        dots = island["dots"]
        for i, one in enumerate(dots):  # each dot a round of land, joined to its neighbours
            x1, y1 = grid.centre(one)
            add(Shape("circle", "island", (x1, y1, 0.42), label=f"{one}, {island['name']}"))
            for two in dots[i + 1:]:
                x2, y2 = grid.centre(two)
                if max(abs(x1 - x2), abs(y1 - y2)) <= 1.01:
                    add(Shape("line", "island-link", (x1, y1, x2, y2)))
    for island in sea["islands"]:
        xs = [grid.centre(d)[0] for d in island["dots"]]
        ys = [grid.centre(d)[1] for d in island["dots"]]
        below = max(ys) + 0.72 <= LABEL + grid.rows
        y = max(ys) + 0.72 if below else min(ys) - 0.5
        add(Shape("text", "island-name", ((min(xs) + max(xs)) / 2, y, 0.3), island["name"]))
    for seat, start in sea["starts"].items():
        x, y = grid.centre(start["at"])
        add(Shape("circle", "start", (x, y, 0.43),
                  label=f"{start['at']}, {seat.title()}'s starting circle"))
        add(Shape("circle", "start-inner", (x, y, 0.36)))
    for r in range(grid.rows):
        for c, column in enumerate(grid.columns):
            dot = f"{column} {r + 1}"
            if dot not in islands:
                add(Shape("circle", "dot", (LABEL + c + 0.5, LABEL + r + 0.5, DOT)))
    for c, column in enumerate(grid.columns):
        add(Shape("text", "axis", (LABEL + c + 0.5, LABEL - 0.22, 0.46), column))
    for r in range(grid.rows):
        add(Shape("text", "axis", (LABEL * 0.45, LABEL + r + 0.66, 0.42), str(r + 1)))
    add(Shape("text", "north", (LABEL * 0.45, LABEL - 0.14, 0.34), "N"))
    add(Shape("poly", "north", (LABEL * 0.45, LABEL - 0.72, LABEL * 0.45 + 0.12,
                                LABEL - 0.5, LABEL * 0.45 - 0.12, LABEL - 0.5)))
    return shapes


def ship_group(grid: SeaGrid, seat: str, ship: dict, *, cls: str = "") -> Group:
    """A ship on its dot, its bow the way it heads (BB2), its colour its seat's, a white spot
    for each mast still standing (BB13); a sunk ship crossed out."""
    x, y = grid.centre(ship["at"])
    shapes = [Shape("poly", f"hull {seat}", tuple(v for point in HULL for v in point))]
    for at, spot in MAST_SPOTS.items():  # none drawn for a ship whose masts are not given
        mast = (ship.get("masts") or {}).get(at) or {}
        if mast.get("state") in ("standing", "top lost"):
            shapes.append(Shape("circle", f"mast-spot {seat}", (0.0, spot, 0.065)))
    if ship.get("sunk"):
        shapes += [Shape("line", "wreck", (-0.3, -0.3, 0.3, 0.3)),
                   Shape("line", "wreck", (-0.3, 0.3, 0.3, -0.3))]
    label = (f"{seat.title()}'s ship, the {ship.get('name', '')}, at {ship['at']} heading "
             f"{ship['heading']}" + (", sunk" if ship.get("sunk") else ""))
    return Group(f"bb-ship {seat} {cls}".strip(), shapes, (("seat", seat),), label, (x, y),
                 grid.angle(ship["heading"]))


def sea_drawing(sea: dict, *, ships: dict | None = None, tracks: dict | None = None,
                marks: dict[str, str] | None = None, title: str = "The sea") -> Drawing:
    """The sea of ``sea`` (sea.json as is) with what is given:

    - ``ships``: {seat: {"at", "heading", "masts", "sunk", "name"}} as the view has them;
    - ``tracks``: {seat: [dot, ...]} the dots a ship sailed through, oldest first, drawn as a
      wake behind it;
    - ``marks``: {dot: class} drawn under the ships (a plot's path, a collision ...).
    """
    grid = SeaGrid(sea)
    key = f"sea-{_digest(sea)}"
    background = _SEA_BACKGROUNDS.get(key)
    if background is None:  # worked out once a process for each sea (there is one)
        background = tuple(_sea_background(sea, grid))
        if len(_SEA_BACKGROUNDS) < 8:
            _SEA_BACKGROUNDS[key] = background
    drawing = Drawing(LABEL + len(grid.columns) + FOOT, LABEL + grid.rows + FOOT, title,
                      kind="sea", key=key, background=len(background))
    for shape in background:
        drawing.add(shape)
    for seat, dots in (tracks or {}).items():
        points = [grid.centre(d) for d in dots]
        for (x1, y1), (x2, y2) in zip(points, points[1:], strict=False):
            if (x1, y1) != (x2, y2):
                drawing.add(Shape("line", f"wake {seat}", (x1, y1, x2, y2)))
    for dot, cls in (marks or {}).items():
        x, y = grid.centre(dot)
        drawing.add(Shape("circle", f"mark {cls}", (x, y, 0.3)))
    for seat, ship in (ships or {}).items():
        drawing.add(ship_group(grid, seat, ship))
    return drawing


# -- the decks (BB15, BB16, BB18) ---------------------------------------------------------------

@dataclass(frozen=True)
class DeckFrame:
    """Where one ship's deck lies on a drawing: its top-left corner, its sections from the top
    row down and its positions from the left column across, and its outer side (where its
    section letters and hull markers are written)."""

    seat: str
    x: float
    y: float
    rows: tuple[str, ...]
    columns: tuple[int, ...]
    outer: str  # "left" or "right"

    def cell(self, section: str, position: int) -> tuple[float, float]:
        """The top-left corner of a cell."""
        return self.x + self.columns.index(position), self.y + self.rows.index(section)

    def centre(self, cell: str) -> tuple[float, float]:
        x, y = self.cell(cell[0], int(cell[1:]))
        return x + 0.5, y + 0.5

    @property
    def bow_up(self) -> bool:
        return self.rows[0] < self.rows[-1]


def deck_frames(plan: dict, seats: tuple[str, ...], boarding: dict | None = None
                ) -> tuple[list[DeckFrame], float, float]:
    """Where each deck lies: the first seat's on the left, the other's on the right. Before
    the boarding both bows are up (port, position 3, on the left). Laid side by side (BB18),
    each ship is turned so that its touching side faces the other, and the other's sections
    lie across from the sections they touch (A opposite A, or A opposite H): the drawing's
    rows are the view's ``across``, so a plank drawn between two cells is a crossing."""
    sections = tuple(plan["sections"])
    rails = plan["rails"]
    frames: list[DeckFrame] = []
    gap = GAP_BOARDING if boarding else GAP_SEA
    x = MARGIN
    for i, seat in enumerate(seats):
        rows, columns = sections, tuple(plan["positions"])
        if boarding and len(seats) == 2:
            touching = rails[boarding["touching"][seat]]
            inner_right = i == 0
            if (columns[-1] == touching) != inner_right:
                columns = columns[::-1]
            if i == 0:
                rows = sections if columns == tuple(plan["positions"]) else sections[::-1]
            else:
                mine = frames[0].rows
                rows = mine if boarding["orientation"] == "same" else tuple(
                    sections[len(sections) - 1 - sections.index(s)] for s in mine)
        frames.append(DeckFrame(seat, x, TOP, rows, columns, "left" if i == 0 else "right"))
        x += len(columns) + gap
    width = x - gap + MARGIN
    height = TOP + len(sections) + BOTTOM
    return frames, width, height


def _outline(frame: DeckFrame, n: int) -> tuple[float, ...]:
    """A hull round the deck: a pointed bow beyond section A, a square stern beyond H."""
    x0, x1, y0, y1 = frame.x - 0.08, frame.x + 3.08, frame.y, frame.y + n
    if frame.bow_up:
        points = [(frame.x + 1.5, y0 - 0.8), (x1, y0 + 0.55), (x1, y1 + 0.25),
                  (x0, y1 + 0.25), (x0, y0 + 0.55)]
    else:
        points = [(frame.x + 1.5, y1 + 0.8), (x0, y1 - 0.55), (x0, y0 - 0.25),
                  (x1, y0 - 0.25), (x1, y1 - 0.55)]
    return tuple(round(v, 3) for p in points for v in p)


def _deck_shapes(plan: dict, frame: DeckFrame, ship: dict | None, *, blank: bool) -> list:
    """One ship's deck without its pieces: hull, levels, cells, ladders, masts, cannons, hull
    markers and the section letters."""
    seat = frame.seat
    shapes: list[Shape] = [Shape("poly", f"deck-hull {seat}", _outline(frame, len(frame.rows)))]
    levels = {s: level["name"] for level in plan["levels"] for s in level["sections"]}
    for section in frame.rows:
        raised = levels[section] != "main deck"
        for position in frame.columns:
            x, y = frame.cell(section, position)
            shapes.append(Shape("rect", "plank raised" if raised else "plank", (x, y, 1, 1)))
    for level in plan["levels"]:  # a heavier line where the level changes
        ys = [frame.y + frame.rows.index(s) for s in level["sections"]]
        top, bottom = min(ys), max(ys) + 1
        shapes.append(Shape("rect", "level", (frame.x, top, 3, bottom - top),
                            label=level["name"]))
    for one, two in plan["ladders"]:
        (xa, ya), (xb, yb) = frame.centre(one), frame.centre(two)
        mid = (ya + yb) / 2
        shapes += [Shape("line", "ladder", (xa - 0.13, mid - 0.3, xb - 0.13, mid + 0.3)),
                   Shape("line", "ladder", (xa + 0.13, mid - 0.3, xb + 0.13, mid + 0.3))]
        for step in (-0.18, 0.0, 0.18):
            shapes.append(Shape("line", "ladder", (xa - 0.13, mid + step, xa + 0.13,
                                                   mid + step)))
    masts = (ship or {}).get("masts") or {}
    for mast in plan["masts"]:
        x, y = frame.centre(mast["at"])
        state = (masts.get(mast["at"]) or {}).get("state", "standing")
        label = f"{mast['name']} ({state})"
        if state == "standing":
            shapes.append(Shape("circle", "mast", (x, y, 0.2), label=label))
        elif state == "top lost":
            shapes += [Shape("circle", "mast top-lost", (x, y, 0.2), label=label),
                       Shape("circle", "mast-stump", (x, y, 0.1))]
        elif state == "lost":
            shapes += [Shape("circle", "mast-gone", (x, y, 0.2), label=label),
                       Shape("line", "gone", (x - 0.14, y - 0.14, x + 0.14, y + 0.14)),
                       Shape("line", "gone", (x - 0.14, y + 0.14, x + 0.14, y - 0.14))]
        else:  # removed for the boarding (BB18)
            shapes.append(Shape("circle", "mast-gone", (x, y, 0.12), label=label))
    armed = set((ship or {}).get("cannons", plan["cannons"]))
    for cell in plan["cannons"]:
        x, y = frame.cell(cell[0], int(cell[1:]))
        column = frame.columns.index(int(cell[1:]))
        outward = -1 if column == 0 else 1
        edge = x if outward < 0 else x + 1
        label = f"{seat.title()}'s cannon {cell}" + ("" if cell in armed else ", lost")
        if cell in armed:
            barrel = (edge - 0.42, y + 0.41, 0.42, 0.18) if outward < 0 else \
                (edge, y + 0.41, 0.42, 0.18)
            carriage = (edge + 0.04, y + 0.3, 0.2, 0.4) if outward < 0 else \
                (edge - 0.24, y + 0.3, 0.2, 0.4)
            shapes += [Shape("rect", "cannon", barrel, label=label),
                       Shape("rect", "cannon", carriage)]
        else:
            cx = edge + 0.2 if outward < 0 else edge - 0.2
            shapes += [Shape("line", "gone", (cx - 0.12, y + 0.38, cx + 0.12, y + 0.62)),
                       Shape("line", "gone", (cx - 0.12, y + 0.62, cx + 0.12, y + 0.38))]
    hull = (ship or {}).get("hull") or {}
    beyond = set((ship or {}).get("beyond_repair") or [])
    for section in frame.rows:
        y = frame.y + frame.rows.index(section)
        letter_x = frame.x - 0.62 if frame.outer == "left" else frame.x + 3.62
        shapes.append(Shape("text", "section", (letter_x, y + 0.44, 0.4), section))
        box_x = frame.x - 0.84 if frame.outer == "left" else frame.x + 3.4
        markers = hull.get(section, 0)
        for n in range(2):
            cls = "marker hit" if n < markers else "marker"
            if section in beyond:
                cls = "marker beyond"
            shapes.append(Shape("rect", cls, (box_x + n * 0.24, y + 0.62, 0.2, 0.2),
                                label=f"section {section}: {markers} hull marker"
                                      f"{'' if markers == 1 else 's'}" if n == 0 else ""))
    if blank:  # two crew by each cannon to start (BB16), as rings to cross out by pencil
        for cell in plan["cannons"]:
            x, y = frame.centre(cell)
            x += _inward(frame, cell)
            for dx in (-0.12, 0.12):
                shapes.append(Shape("circle", "piece-blank", (x + dx, y - 0.02, PIECE)))
    name = (ship or {}).get("name") or plan["ships"].get(seat, seat.title())
    shapes.append(Shape("text", f"ship-name {seat}", (frame.x + 1.5, 0.42, 0.36), name))
    for position in frame.columns:  # which rail is which, beside the stern
        word = {3: "port", 5: "stbd"}.get(position)
        if word:
            x, _ = frame.cell(frame.rows[0], position)
            y = frame.y + len(frame.rows) + 0.62 if frame.bow_up else frame.y - 0.38
            shapes.append(Shape("text", "position", (x + 0.5, y, 0.26), word))
    return shapes


def _inward(frame: DeckFrame, cell: str) -> float:
    """How far a rail cell's pieces sit from its centre, away from its cannon."""
    column = frame.columns.index(int(cell[1:]))
    return 0.08 if column == 0 else -0.08 if column == len(frame.columns) - 1 else 0.0


def _pieces(frames: dict[str, DeckFrame], crews: dict) -> list[Group]:
    """Each cell's pieces: each seat's crewmembers as discs of its colour (its own half of the
    cell), its Captain a larger disc marked C."""
    at: dict[str, dict[str, list]] = {}
    for seat, crew in crews.items():
        for place, n in (crew.get("crew") or {}).items():
            at.setdefault(place, {}).setdefault(seat, [0, False])[0] += n
        if crew.get("captain"):
            at.setdefault(crew["captain"], {}).setdefault(seat, [0, False])[1] = True
    groups = []
    for place in sorted(at):
        ship, cell = place.split(" ")
        frame = frames.get(ship)
        if frame is None:
            continue
        cx, cy = frame.centre(cell)
        cx += _inward(frame, cell)
        for seat, (n, captain) in sorted(at[place].items()):
            row = cy - 0.2 if seat == SEATS[0] else cy + 0.22
            count = n + captain
            shapes = []
            start = cx - (count - 1) * 0.12
            for i in range(n):
                shapes.append(Shape("circle", f"piece {seat}", (start + i * 0.24, row, PIECE)))
            if captain:
                x = start + n * 0.24
                shapes += [Shape("circle", f"captain {seat}", (x, row, CAPTAIN)),
                           Shape("text", f"captain-mark {seat}", (x, row + 0.085, 0.24), "C")]
            words = f"{n} crewmember{'' if n == 1 else 's'}" if n else ""
            if captain:
                words = f"{words} and the Captain" if words else "the Captain"
            groups.append(Group(f"pieces {seat}", shapes, (("place", place), ("seat", seat)),
                                f"{seat.title()}'s {words} at {place}"))
    return groups


def decks_drawing(plan: dict, seats: tuple[str, ...], *, ships: dict | None = None,
                  crews: dict | None = None, boarding: dict | None = None,
                  marks: dict[str, str] | None = None, taps: bool = False,
                  blank: bool = False, title: str = "The decks") -> Drawing:
    """The decks of ``seats`` (the deck plan, deck.json as is), side by side, the first seat's
    on the left, with what is given:

    - ``ships``: {seat: {"name", "cannons", "masts", "hull", "beyond_repair"}} as the view has
      them (absent: a ship whole, as set up);
    - ``crews``: {seat: {"crew": {place: n}, "captain": place}} as the view has them;
    - ``boarding``: the view's ``"boarding"`` once the ships are laid side by side (BB18): the
      decks are turned to touch, with a plank for each crossing (``across``);
    - ``marks``: {place: class} under the pieces (a fight, a target ...);
    - ``taps``: a tap target over every cell, carrying its place ("red B5");
    - ``blank``: two rings by each cannon for its crew, to cross out by pencil (BB16).
    """
    frames, width, height = deck_frames(plan, seats, boarding)
    by_seat = {frame.seat: frame for frame in frames}
    drawing = Drawing(width, height, title, kind="decks")
    if len(frames) == 2:
        left, right = frames
        drawing.add(Shape("rect", "deck-sea", (left.x + 3.1, 0, right.x - left.x - 3.2,
                                               height)))
    for frame in frames:
        for shape in _deck_shapes(plan, frame, (ships or {}).get(frame.seat), blank=blank):
            drawing.add(shape)
    if boarding and len(frames) == 2:
        left, right = frames
        for place, there in sorted(boarding.get("across", {}).items()):
            ship, cell = place.split(" ")
            if ship != left.seat or not there:
                continue
            _, y = left.centre(cell)
            _, y2 = right.centre(there.split(" ")[1])
            drawing.add(Shape("poly", "plank-across",
                              (left.x + 3.02, y + 0.1, right.x - 0.02, y2 + 0.1,
                               right.x - 0.02, y2 + 0.34, left.x + 3.02, y + 0.34),
                              label=f"{place} across to {there}"))
    for place, cls in (marks or {}).items():
        ship, cell = place.split(" ")
        if ship in by_seat:
            x, y = by_seat[ship].cell(cell[0], int(cell[1:]))
            drawing.add(Shape("rect", f"cell-mark {cls}", (x + 0.04, y + 0.04, 0.92, 0.92)))
    for group in _pieces(by_seat, crews or {}):
        drawing.add(group)
    if taps:
        for frame in frames:
            for section in frame.rows:
                for position in frame.columns:
                    x, y = frame.cell(section, position)
                    place = f"{frame.seat} {section}{position}"
                    drawing.add(Group("tap", [Shape("rect", "tap", (x, y, 1, 1))],
                                      (("place", place), ("section", section)), place,
                                      tap=True))
    return drawing


__all__ = ["Drawing", "Group", "LABEL", "SeaGrid", "Shape", "deck_frames", "decks_drawing",
           "sea_drawing", "sea_geometry", "ship_group"]
