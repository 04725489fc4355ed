"""Broadside on paper and its one drawing (the board): the harbour's shapes from board.json, the
board sheet (A4, Letter), the blank record, a player's board mid-game and the post-mortem booklet,
read back with pypdf and pdftoppm."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from referee.broadside.board import BOARD
from referee.broadside.web import printables
from referee.broadside.web.drawing import LABEL, Group, board_drawing
from referee.broadside.web.svg import to_svg

PAGE = {"a4": (595, 842), "letter": (612, 792)}


def read(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data))


def text_of(data: bytes) -> str:
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in read(data).pages))


def groups(drawing, cls: str) -> list[Group]:
    return [g for g in drawing.layers if isinstance(g, Group) and g.cls.split()[0] == cls]


def centre_y(name: str) -> float:
    return LABEL + int(name.split()[1]) - 0.5


# -- the one drawing (B1, B14) -----------------------------------------------------------------

def test_b1_the_drawing_reads_as_a_harbour_docks_at_top_island_channels_entrance_at_bottom():
    drawing = board_drawing(BOARD)
    merchants = [g.shapes[0].at[1] for g in groups(drawing, "merchant")]
    circles = [s.at[1] for s in drawing.background if s.cls == "red-circle"]
    entrance = [centre_y(c) for c in BOARD["entrance"]]
    assert max(merchants) < min(circles) <= max(circles) < min(entrance)
    assert len(groups(drawing, "merchant")) == 4
    assert len(groups(drawing, "battery")) == 4
    assert len(groups(drawing, "yellow")) == 6
    land = [s for s in drawing.background if s.cls == "land"]
    assert len(land) == len(BOARD["land"])
    # two channels: on the row of the red circles, water left and right of the island
    row = BOARD["red_circles"][0]["at"].split()[1]
    west = {c["at"] for c in BOARD["red_circles"] if c["channel"] == "west"}
    east = {c["at"] for c in BOARD["red_circles"] if c["channel"] == "east"}
    columns = BOARD["columns"]
    island = [f"{c} {row}" for c in columns if f"{c} {row}" in BOARD["land"]
              and columns.index(c) > max(columns.index(w.split()[0]) for w in west)
              and columns.index(c) < min(columns.index(e.split()[0]) for e in east)]
    assert island, "land between the two channels: the centre island"


def test_b14_every_cross_has_one_tap_target_and_every_ship_its_masts():
    ships = [{"side": "red", "type": "frigate", "at": BOARD["red_start"][0], "facing": "up",
              "masts": 2},
             {"side": "blue", "type": "cutter", "at": BOARD["blue_start"][0],
              "facing": "down", "masts": 1}]
    drawing = board_drawing(BOARD, ships=ships, taps=True)
    taps = [dict(g.data)["cross"] for g in groups(drawing, "tap")]
    assert sorted(taps) == sorted(BOARD["crosses"])
    drawn = groups(drawing, "ship")
    assert [sum(1 for s in g.shapes if s.cls.startswith("mast")) for g in drawn] == [2, 1]
    assert "Red's Frigate at I 19, facing up, 2 masts" in drawn[0].label or \
        drawn[0].label.startswith("Red's Frigate at")


def test_b12_a_drawing_shows_only_the_secrets_it_is_given():
    """The drawing of Red's view (buoys "unknown", batteries "unknown") holds no SINK, PASS,
    HIT or MISS; Blue's does."""
    unknown = {c: {"kind": "unknown", "revealed": False}
               for group in BOARD["buoys"].values() for c in group}
    red = to_svg(board_drawing(BOARD, buoys=unknown,
                               batteries=dict.fromkeys("ABCD", "unknown")))
    assert not re.search(r"SINK|PASS|HIT|MISS|sink|pass|\bhit\b|\bmiss\b", red)
    kinds = dict(zip(unknown, ["sink", "pass", "pass", "sink", "pass", "sink"], strict=True))
    blue = to_svg(board_drawing(BOARD, buoys={c: {"kind": k, "revealed": False}
                                              for c, k in kinds.items()},
                                batteries={"A": "hit", "B": "miss", "C": "hit", "D": "miss"}))
    assert blue.count("a SINK buoy") == 3 and blue.count(": HIT") == 2


def test_b1_the_svg_escapes_and_holds_no_script_or_style_attribute():
    svg = to_svg(board_drawing(BOARD, taps=True, title='<script>alert("x")</script>'))
    assert "<script" not in svg and " style=" not in svg
    assert svg.startswith("<svg") and svg.endswith("</svg>")


# -- paper -------------------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("layout", ["pair", "single"])
def test_b1_the_board_sheet_is_one_portrait_page_a4_or_letter(paper, layout):
    data = printables.board_sheet(BOARD, paper=paper, layout=layout)
    pages = read(data).pages
    assert len(pages) == 1
    box = pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == PAGE[paper]
    text = text_of(data)
    for letter in BOARD["columns"]:
        assert re.search(rf"\b{letter}\b", text)
    assert "BROADSIDE" in text
    if layout == "pair":
        assert "Ships-of-the-Line" in text and "Page 1 of 1" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_b11_the_blank_record_has_the_pages_asked(paper):
    data = printables.blank_record(paper=paper, pages=3)
    assert len(read(data).pages) == 3
    text = text_of(data)
    assert text.count("What happened") == 3 and "Page 3 of 3" in text


@pytest.mark.parametrize("pages", [0, 21, True, "2"])
def test_b11_the_blank_record_refuses_absurd_page_counts(pages):
    with pytest.raises(ValueError, match="pages is a whole number from 1 to 20"):
        printables.blank_record(pages=pages)


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="needs poppler's pdftoppm")
def test_b1_the_board_sheet_renders_land_grey_and_water_white(tmp_path):
    """Rendered at 60 dpi: the centre island's cells are grey, the channels beside it white."""
    data = printables.board_sheet(BOARD, paper="a4", layout="single")
    (tmp_path / "sheet.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-gray", str(tmp_path / "sheet.pdf"),
                    str(tmp_path / "sheet")], check=True)
    from PIL import Image

    image = Image.open(next(tmp_path.glob("sheet*.png"))).convert("L")
    drawing = board_drawing(BOARD)
    width = 595 * 60 / 72
    scale = min((595 - 2 * 17.0) / drawing.width, (842 - 2 * 17.0 - 28.3) / drawing.height)
    left = (width - drawing.width * scale * 60 / 72) / 2

    def pixel(name: str) -> int:
        column = BOARD["columns"].index(name.split()[0])
        row = int(name.split()[1])
        x = left + (LABEL + column + 0.2) * scale * 60 / 72
        y = 17.0 * 60 / 72 + (LABEL + row - 0.8) * scale * 60 / 72
        return image.getpixel((round(x), round(y)))

    island = BOARD["batteries"][1]["at"]  # a battery site on the centre island: land
    beside = BOARD["red_circles"][2]["at"]  # the channel's east red circle: water
    assert pixel(island.split()[0] + " " + str(int(island.split()[1]) + 1)) < 235
    assert pixel(beside.split()[0] + " " + str(int(beside.split()[1]) + 1)) > 245


def test_b1_the_documented_picture_is_the_drawing_of_board_json():
    """docs/broadside-board.svg is the one drawing of the board as board.json has it."""
    picture = Path(__file__).resolve().parent.parent / "docs" / "broadside-board.svg"
    drawn = to_svg(board_drawing(BOARD, title="The referee's harbour for Broadside (B1)"))
    assert picture.read_text() == drawn + "\n"


@pytest.mark.skipif(not (Path(__file__).resolve().parent.parent / "node_modules" / ".bin"
                         / "biome").exists(), reason="make lint installs Biome")
def test_b14_the_broadside_script_passes_biome_as_the_shared_modules_do(tmp_path):
    """The rule set's own script (served from its package) meets the shared modules' rules:
    Biome's lint and format with the project's biome.json, 100 columns, no module-level let."""
    root = Path(__file__).resolve().parent.parent
    scripts = sorted((root / "referee" / "broadside" / "web" / "static").glob("*.js"))
    assert {p.name for p in scripts} == {"broadside.js"}
    target = tmp_path / "referee" / "static" / "js"
    target.mkdir(parents=True)
    for script in scripts:
        text = script.read_text()
        assert all(len(line) <= 100 for line in text.splitlines()), script.name
        assert not re.findall(r"^(?:export\s+)?(?:let|var)\b", text, re.M), script.name
        assert "eval(" not in text
        (target / script.name).write_text(text)
    shutil.copy(root / "biome.json", tmp_path / "biome.json")
    (tmp_path / "node_modules").symlink_to(root / "node_modules")
    for command in ("lint", "format"):
        done = subprocess.run([str(root / "node_modules" / ".bin" / "biome"), command],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
