"""Layout checks of the SVG boards without a browser: text and shape boxes, overlaps, text size.

A text's box uses an upper bound of its width (:func:`bus_lab.games.textfit.text_px`) and the
ascent and descent of DejaVu Sans, so a box is never smaller than what a browser draws.
"""

from __future__ import annotations

import html
import re

from bus_lab.games.textfit import text_px

#: Ascent and descent of DejaVu Sans (a wide notebook font) in em: a text's box is from
#: ``y - ASCENT * size`` to ``y + DESCENT * size`` (what Chromium's getBoundingClientRect gives).
ASCENT, DESCENT = 0.93, 0.24
#: Width (px) of a JupyterLab output area at 1280 px: a wider drawing is scaled down to it.
OUTPUT_AREA_PX = 940


def attributes(tag: str) -> dict[str, str]:
    """The ``name="value"`` attributes of one SVG tag."""
    return dict(re.findall(r'([a-z][\w-]*)="([^"]*)"', tag))


def text_boxes(svg: str) -> list[tuple]:
    """``(text, left, top, right, bottom, font size)`` of every ``<text>``."""
    boxes = []
    for tag, body in re.findall(r"<text ([^>]*)>([^<]*)</text>", svg):
        a = attributes(tag)
        text, size = html.unescape(body), float(a["font-size"])
        wide = text_px(text, size)
        left = float(a["x"]) - {"start": 0, "middle": wide / 2, "end": wide}[a.get("text-anchor", "start")]
        y = float(a["y"])
        boxes.append((text, left, y - ASCENT * size, left + wide, y + DESCENT * size, size))
    return boxes


def shape_boxes(svg: str) -> list[tuple]:
    """``(kind, left, top, right, bottom)`` of every ``<rect>`` and ``<circle>``."""
    boxes = []
    for tag in re.findall(r"<rect [^>]*>", svg):
        a = attributes(tag)
        x, y = float(a.get("x", 0)), float(a.get("y", 0))
        boxes.append(("rect", x, y, x + float(a["width"]), y + float(a["height"])))
    for tag in re.findall(r"<circle [^>]*>", svg):
        a = attributes(tag)
        cx, cy, r = float(a["cx"]), float(a["cy"]), float(a["r"])
        boxes.append(("circle", cx - r, cy - r, cx + r, cy + r))
    return boxes


def crowding(svg: str, pad: float = 0.5) -> list[str]:
    """Texts that overlap another text, or run across the edge of a shape they do not sit inside
    (a letter inside its token is fine, a label reaching into a token is not)."""

    def meets(a, b):
        return a[0] + pad < b[2] and b[0] + pad < a[2] and a[1] + pad < b[3] and b[1] + pad < a[3]

    def inside(a, b):
        return a[0] >= b[0] - pad and a[2] <= b[2] + pad and a[1] >= b[1] - pad and a[3] <= b[3] + pad

    texts, shapes = text_boxes(svg), shape_boxes(svg)
    problems = []
    for i, (s, *a, _size) in enumerate(texts):
        problems += [f"{s!r} overlaps {t!r}" for t, *b, _ in texts[i + 1 :] if meets(a, b)]
        problems += [
            f"{s!r} at ({a[0]:.0f}, {a[1]:.0f}) runs into a {kind} at ({b[0]:.0f}, {b[1]:.0f})"
            for kind, *b in shapes
            if meets(a, b) and not inside(a, b)
        ]
    return problems


def smallest_text_on_screen(svg: str, output_area: float = OUTPUT_AREA_PX) -> float:
    """The smallest font size on screen: font-size × (drawn width / viewBox width), the SVG drawn
    at its width attribute but at most ``output_area`` px wide."""
    head = attributes(re.search(r"<svg [^>]*>", svg).group(0))
    scale = min(float(head["width"]), output_area) / float(head["viewBox"].split()[2])
    return min(float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)) * scale


def overflow(svg: str) -> list[str]:
    """Parts of an SVG that reach past its own edges (``width`` × ``height``): rectangles and
    circles by their geometry, text by its box (an upper bound of its width)."""
    head = attributes(re.search(r"<svg [^>]*>", svg).group(0))
    right, bottom = float(head["width"]), float(head["height"])

    def out(box) -> bool:
        return box[0] < 0 or box[1] < 0 or box[2] > right or box[3] > bottom

    problems = [
        f"a {kind} at ({left:.0f}, {top:.0f}) reaches past the {right:.0f} × {bottom:.0f} drawing"
        for kind, left, top, *rest in shape_boxes(svg)
        if out((left, top, *rest))
    ]
    problems += [
        f"{text!r} at ({box[0]:.0f}, {box[1]:.0f}) ends at ({box[2]:.0f}, {box[3]:.0f}), past the "
        f"{right:.0f} × {bottom:.0f} drawing"
        for text, *box, _size in text_boxes(svg)
        if out(box)
    ]
    return problems
