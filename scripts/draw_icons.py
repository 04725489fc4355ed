"""Draw the referee's icons into referee/static: favicon.ico (16, 32 and 48
px), apple-touch-icon.png (180 px), icon-192.png, icon-512.png and icon.svg for the web app
manifest. The picture: a corner of the chart, a ship of three squares with one hit in red,
on the navy of the page's header. Pure Python (zlib), no imaging library.

Run with `.venv/bin/python scripts/draw_icons.py`; the files are committed.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "referee" / "static"
NAVY, SEA, SHIP, HIT, LINE = (13, 35, 64), (232, 241, 251), (159, 179, 200), (163, 0, 27), \
    (154, 165, 177)
GRID = 4  # squares across the picture
MARGIN, GAP = 0.14, 0.035  # of the icon's side
SHIP_ROW, SHIP_COLS, HIT_COL = 1, (0, 1, 2), 1


def colour_at(x: float, y: float) -> tuple[int, int, int]:
    """The picture as a function of the point (0..1, 0..1)."""
    cell = (1 - 2 * MARGIN - (GRID - 1) * GAP) / GRID
    for row in range(GRID):
        for col in range(GRID):
            left, top = MARGIN + col * (cell + GAP), MARGIN + row * (cell + GAP)
            if left <= x < left + cell and top <= y < top + cell:
                if row == SHIP_ROW and col in SHIP_COLS:
                    return HIT if col == HIT_COL else SHIP
                if row == 3 and col == 3:
                    return LINE  # a square already shot at: nothing there
                return SEA
    return NAVY


def pixels(size: int, samples: int = 3) -> bytes:
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            total = [0, 0, 0]
            for sy in range(samples):
                for sx in range(samples):
                    c = colour_at((px + (sx + 0.5) / samples) / size,
                                  (py + (sy + 0.5) / samples) / size)
                    total = [t + v for t, v in zip(total, c, strict=True)]
            rows += bytes(round(t / samples ** 2) for t in total) + b"\xff"
    return bytes(rows)


def png(size: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(pixels(size), 9)) + chunk(b"IEND", b""))


def ico(sizes: tuple[int, ...]) -> bytes:
    """An .ico holding PNG images (every browser of the last decade reads these)."""
    images = [png(s) for s in sizes]
    out = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    for size, image in zip(sizes, images, strict=True):
        out += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), offset)
        offset += len(image)
    return out + b"".join(images)


def svg() -> str:
    cell = (1 - 2 * MARGIN - (GRID - 1) * GAP) / GRID
    hexes = {c: "#{:02x}{:02x}{:02x}".format(*c) for c in (NAVY, SEA, SHIP, HIT, LINE)}
    rects = []
    for row in range(GRID):
        for col in range(GRID):
            x, y = 100 * (MARGIN + col * (cell + GAP)), 100 * (MARGIN + row * (cell + GAP))
            colour = colour_at((x + 1) / 100, (y + 1) / 100)
            rects.append(f'<rect x="{x:.2f}" y="{y:.2f}" width="{100 * cell:.2f}" '
                         f'height="{100 * cell:.2f}" fill="{hexes[colour]}"/>')
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
            f'<title>The referee</title><rect width="100" height="100" fill="{hexes[NAVY]}"/>'
            + "".join(rects) + "</svg>\n")


def main() -> None:
    (STATIC / "favicon.ico").write_bytes(ico((16, 32, 48)))
    (STATIC / "apple-touch-icon.png").write_bytes(png(180))
    (STATIC / "icon-192.png").write_bytes(png(192))
    (STATIC / "icon-512.png").write_bytes(png(512))
    (STATIC / "icon.svg").write_text(svg())
    print("icons written to", STATIC)


if __name__ == "__main__":
    main()
