"""The harbour drawing (``drawing.py``) as SVG for the phone pages and the docs: the shapes as
they are, each shape's ``cls`` a class and its colour a presentation attribute, so the page's
stylesheet can restyle a state (a tapped ship, a cross it can reach) and the SVG still reads
on its own. No script, no style attribute (the pages' CSP), every text escaped."""

from __future__ import annotations

from html import escape

from .drawing import Drawing, Group, Shape

# fill, stroke, stroke width (in cells) for each kind of shape, by its first class
PALETTE: dict[str, tuple[str, str, float]] = {
    "water": ("#cfe6f2", "#3c6e8f", 0.04),
    "land": ("#d9c79a", "none", 0),
    "coast": ("none", "#6b5527", 0.05),
    "lane": ("none", "#7fa9c4", 0.025),
    "cross": ("none", "#25597a", 0.05),
    "start-blue": ("#9cc3ec", "none", 0),
    "start-red": ("#f3c1bd", "none", 0),
    "mark": ("#ffd54a", "none", 0),
    "fire": ("none", "#8a2a1d", 0.03),
    "red-circle": ("none", "#c62828", 0.07),
    "battery": ("#5b4a3a", "#2b2118", 0.04),
    "battery-site": ("#ffffff", "none", 0),
    "battery-word": ("#2b2118", "none", 0),
    "yellow": ("#ffd23f", "#7a5c00", 0.05),
    "buoy-top": ("#1d3557", "none", 0),
    "buoy-word": ("#1d1d1d", "none", 0),
    "ship-number": ("#111111", "#ffffff", 0.08),
    "dock": ("#ffffff", "#555555", 0.05),
    "merchant-hull": ("#6d4c2f", "#2e1f12", 0.03),
    "wreck": ("none", "#8a1c1c", 0.08),
    "hull": ("#777777", "#222222", 0.04),
    "mast": ("#ffffff", "#222222", 0.015),
    "axis": ("#333333", "none", 0),
    "panel": ("#6b5527", "none", 0),
    "panel-small": ("#6b5527", "none", 0),
    "tap": ("#000000", "none", 0),
}
SIDES = {"red": ("#c0392b", "#5e140c"), "blue": ("#1f5fa8", "#0b2a4f")}


def _paint(cls: str) -> tuple[str, str, float]:
    words = cls.split()
    fill, stroke, width = PALETTE.get(words[0], ("none", "#000", 0.03))
    if words[0] == "hull":
        fill, stroke = SIDES.get(words[1], (fill, stroke))
    if words[0] == "ship-number":
        fill = SIDES.get(words[1], (fill, stroke))[1]
    if words[0] == "battery" and "hit" in words:
        fill = "#b3261e"
    if words[0] == "battery" and "miss" in words:
        fill = "#8d8d8d"
    if words[0] == "yellow" and ("gone" in words or "revealed" in words):
        fill = "#fff6cc"
    if words[0] == "yellow" and "sink" in words:
        fill = "#ff8f3f"
    return fill, stroke, width


def _attrs(pairs: dict[str, object]) -> str:
    return "".join(f' {k}="{escape(str(v), quote=True)}"' for k, v in pairs.items())


def _shape(shape: Shape) -> str:
    fill, stroke, width = _paint(shape.cls)
    paint: dict[str, object] = {"class": shape.cls, "fill": fill}
    if stroke != "none":
        paint.update({"stroke": stroke, "stroke-width": width})
    if shape.cls == "tap":
        paint["fill-opacity"] = 0
    if shape.cls.startswith("mark"):
        paint["fill-opacity"] = 0.5
    paint.update({f"data-{k}": v for k, v in shape.data})
    a = shape.at
    if shape.kind == "rect":
        body = _attrs({"x": a[0], "y": a[1], "width": a[2], "height": a[3], **paint})
        element = f"<rect{body}"
    elif shape.kind == "circle":
        element = f"<circle{_attrs({'cx': a[0], 'cy': a[1], 'r': a[2], **paint})}"
    elif shape.kind == "line":
        paint.pop("fill")
        element = f"<line{_attrs({'x1': a[0], 'y1': a[1], 'x2': a[2], 'y2': a[3], **paint})}"
        if shape.cls == "fire":
            element += ' stroke-dasharray="0.12 0.1"'
    elif shape.kind == "poly":
        points = " ".join(f"{a[i]:g},{a[i + 1]:g}" for i in range(0, len(a), 2))
        element = f"<polygon{_attrs({'points': points, **paint})}"
    else:
        if shape.cls.startswith("ship-number"):  # a white halo under the digit
            paint.update({"paint-order": "stroke", "font-weight": 700})
        element = (f"<text{_attrs({'x': a[0], 'y': a[1], 'font-size': a[2], **paint})}"
                   f' text-anchor="middle">{escape(shape.text)}</text>')
        return element
    if shape.label:
        return f"{element}><title>{escape(shape.label)}</title></{_tag(shape.kind)}>"
    return element + "/>"


def _tag(kind: str) -> str:
    return {"rect": "rect", "circle": "circle", "line": "line", "poly": "polygon"}[kind]


def _group(group: Group) -> str:
    attrs: dict[str, object] = {"class": group.cls, **{f"data-{k}": v for k, v in group.data}}
    if group.cls == "tap":
        attrs.update({"role": "button", "tabindex": "0", "aria-label": group.label})
        inner = "".join(_shape(s) for s in group.shapes)
        return f"<g{_attrs(attrs)}>{inner}</g>"
    title = f"<title>{escape(group.label)}</title>" if group.label else ""
    return f"<g{_attrs(attrs)}>{title}{''.join(_shape(s) for s in group.shapes)}</g>"


def to_svg(drawing: Drawing, *, element_id: str = "") -> str:
    """The drawing as one ``<svg>`` element, as wide as its container, any height it needs."""
    head: dict[str, object] = {"xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {drawing.width:g} {drawing.height:g}",
            "class": "harbour", "role": "img", "aria-label": drawing.title,
            "font-family": "system-ui, sans-serif"}
    if element_id:
        head["id"] = element_id
    body = "".join(_group(item) if isinstance(item, Group) else _shape(item)
                   for item in drawing.layers)
    return f"<svg{_attrs(head)}>{_background(drawing)}{body}</svg>"


_BACKGROUNDS: dict[str, str] = {}


def _background(drawing: Drawing) -> str:
    """The board without pieces as SVG, made once for each board (``drawing.key``)."""
    if not drawing.key:
        return "".join(_shape(shape) for shape in drawing.background)
    if drawing.key not in _BACKGROUNDS:
        _BACKGROUNDS[drawing.key] = "".join(_shape(shape) for shape in drawing.background)
    return _BACKGROUNDS[drawing.key]
