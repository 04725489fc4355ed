"""The drawing of the sea and the decks (``drawing.py``) as SVG for the phone pages: each shape's
``cls`` a class and its colour a presentation attribute, so the page's stylesheet can restyle a
state (a chosen piece, a cell it can reach, a targeted section) and the SVG still reads on its
own. A ship is one group placed by its ``transform`` alone, which the page's script changes to
sail it from dot to dot. No script, no style attribute (the pages' CSP), every text escaped."""

from __future__ import annotations

from html import escape

from .drawing import Drawing, Group, Shape

# fill, stroke, stroke width (in units of the drawing), for each kind of shape (its first class)
PALETTE: dict[str, tuple[str, str, float]] = {
    "water": ("#cfe6f2", "#3c6e8f", 0.04),
    "guide": ("none", "#b3d3e6", 0.015),
    "island": ("#d9c79a", "#8a7440", 0.03),
    "island-link": ("none", "#d9c79a", 0.8),
    "island-name": ("#5a4a22", "none", 0),
    "start": ("none", "#111111", 0.07),
    "start-inner": ("none", "#111111", 0.02),
    "dot": ("#2c4a63", "none", 0),
    "axis": ("#333333", "none", 0),
    "north": ("#333333", "none", 0),
    "wake": ("none", "#555555", 0.05),
    "mark": ("#ffd54a", "#7a5c00", 0.03),
    "mast-spot": ("#ffffff", "none", 0),
    "wreck": ("none", "#111111", 0.08),
    "deck-sea": ("#cfe6f2", "none", 0),
    "deck-hull": ("#8d6e4c", "#3e2b18", 0.05),
    "plank": ("#ecdcba", "#c2a878", 0.02),
    "level": ("none", "#3e2b18", 0.05),
    "ladder": ("none", "#3e2b18", 0.04),
    "mast": ("#7a5230", "#2b1b0d", 0.03),
    "mast-stump": ("#7a5230", "none", 0),
    "mast-gone": ("none", "#7a5230", 0.03),
    "gone": ("none", "#8a1c1c", 0.045),
    "cannon": ("#222222", "none", 0),
    "section": ("#222222", "none", 0),
    "position": ("#555555", "none", 0),
    "marker": ("#ffffff", "#555555", 0.02),
    "piece": ("#777777", "#ffffff", 0.025),
    "piece-blank": ("none", "#555555", 0.02),
    "captain": ("#777777", "#ffd23f", 0.045),
    "captain-mark": ("#ffffff", "none", 0),
    "ship-name": ("#222222", "none", 0),
    "plank-across": ("#a07b4f", "#3e2b18", 0.02),
    "cell-mark": ("#ffb74d", "none", 0),
    "tap": ("#000000", "none", 0),
}
SIDES = {"red": ("#c0392b", "#5e140c"), "blue": ("#1f5fa8", "#0b2a4f")}
TEXT_SIDES = {"red": "#a3001b", "blue": "#0a4596"}


def _paint(cls: str) -> tuple[str, str, float]:
    words = cls.split()
    fill, stroke, width = PALETTE.get(words[0], ("none", "#000000", 0.03))
    seat = next((w for w in words[1:] if w in SIDES), None)
    if words[0] == "hull" and seat:
        fill, stroke = SIDES[seat]
    elif words[0] in ("piece", "captain") and seat:
        fill = SIDES[seat][0]
    elif words[0] == "wake" and seat:
        stroke = SIDES[seat][0]
    elif words[0] == "ship-name" and seat:
        fill = TEXT_SIDES[seat]
    elif words[0] == "plank" and "raised" in words:
        fill = "#d9bd8c"
    elif words[0] == "mast" and "top-lost" in words:
        fill = "#ffffff"
    elif words[0] == "marker" and "hit" in words:
        fill = "#e0a800"
    elif words[0] == "marker" and "beyond" in words:
        fill = "#b3261e"
    return fill, stroke, width


def _attrs(pairs: dict[str, object]) -> str:
    return "".join(f' {k}="{escape(str(v), quote=True)}"' for k, v in pairs.items())


def _n(value: float) -> str:
    return f"{round(value, 3):g}"


def _shape(shape: Shape) -> str:
    fill, stroke, width = _paint(shape.cls)
    paint: dict[str, object] = {"class": shape.cls, "fill": fill}
    if stroke != "none":
        paint.update({"stroke": stroke, "stroke-width": _n(width)})
    words = shape.cls.split()
    if words[0] == "tap":
        paint["fill-opacity"] = 0
    elif words[0] in ("mark", "cell-mark"):
        paint["fill-opacity"] = 0.55
    a = shape.at
    if shape.kind == "rect":
        element = "rect" + _attrs({"x": _n(a[0]), "y": _n(a[1]), "width": _n(a[2]),
                                   "height": _n(a[3]), **paint})
    elif shape.kind == "circle":
        element = "circle" + _attrs({"cx": _n(a[0]), "cy": _n(a[1]), "r": _n(a[2]), **paint})
    elif shape.kind == "line":
        paint.pop("fill")
        if words[0] == "island-link":
            paint["stroke-linecap"] = "round"
        if words[0] in ("wake", "mast-gone"):
            paint["stroke-dasharray"] = "0.12 0.08"
        element = "line" + _attrs({"x1": _n(a[0]), "y1": _n(a[1]), "x2": _n(a[2]),
                                   "y2": _n(a[3]), **paint})
    elif shape.kind == "poly":
        points = " ".join(f"{_n(a[i])},{_n(a[i + 1])}" for i in range(0, len(a), 2))
        element = "polygon" + _attrs({"points": points, **paint})
    else:
        bold = ' font-weight="bold"' if words[0] in ("section", "ship-name", "captain-mark",
                                                    "axis") else ""
        return (f"<text{_attrs({'x': _n(a[0]), 'y': _n(a[1]), 'font-size': _n(a[2]), **paint})}"
                f' text-anchor="middle"{bold}>{escape(shape.text)}</text>')
    tag = element.split(" ", 1)[0]
    if shape.label:
        return f"<{element}><title>{escape(shape.label)}</title></{tag}>"
    return f"<{element}/>"


def _group(group: Group) -> str:
    attrs: dict[str, object] = {"class": group.cls,
                                **{f"data-{k}": v for k, v in group.data}}
    if group.origin is not None:
        x, y = group.origin
        attrs["transform"] = f"translate({_n(x)} {_n(y)}) rotate({_n(group.angle)})"
    inner = "".join(_shape(s) for s in group.shapes)
    if group.tap:
        attrs.update({"role": "button", "tabindex": "0", "aria-label": group.label})
        return f"<g{_attrs(attrs)}>{inner}</g>"
    title = f"<title>{escape(group.label)}</title>" if group.label else ""
    return f"<g{_attrs(attrs)}>{title}{inner}</g>"


def to_svg(drawing: Drawing, *, element_id: str = "") -> str:
    """The drawing as one ``<svg>`` element, as wide as its container, any height it needs."""
    head: dict[str, object] = {
        "xmlns": "http://www.w3.org/2000/svg",
        "viewBox": f"0 0 {_n(drawing.width)} {_n(drawing.height)}",
        "class": f"bb-{drawing.kind}", "role": "img", "aria-label": drawing.title,
        "font-family": "system-ui, sans-serif"}
    if element_id:
        head["id"] = element_id
    items = drawing.items
    background = ""
    if drawing.key and drawing.background:  # the board without pieces: alike for one key
        background = _background(drawing)
        items = items[drawing.background:]
    body = "".join(_group(item) if isinstance(item, Group) else _shape(item) for item in items)
    return f"<svg{_attrs(head)}>{background}{body}</svg>"


_BACKGROUNDS: dict[tuple[str, int], str] = {}  # a few boards' SVG, each drawn once a process
MOST_BACKGROUNDS = 16


def _background(drawing: Drawing) -> str:
    """The SVG of the drawing's board without pieces (its first ``background`` items), drawn
    once for its ``key`` and kept: a page's sea is the same dots and islands every time."""
    found = _BACKGROUNDS.get((drawing.key, drawing.background))
    if found is None:
        found = "".join(_group(item) if isinstance(item, Group) else _shape(item)
                        for item in drawing.items[:drawing.background])
        if len(_BACKGROUNDS) < MOST_BACKGROUNDS:
            _BACKGROUNDS[drawing.key, drawing.background] = found
    return found


__all__ = ["to_svg"]
