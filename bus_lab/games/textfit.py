"""Fitting text into the board drawings without a browser: an upper bound on its width.

The boards are SVG drawn in Python, so text must be fitted and wrapped before any browser sees
it. :func:`text_px` gives a width that is never smaller than what the widest usual notebook
sans-serif font (DejaVu Sans) draws; the tests check that bound against the real font metrics
(matplotlib's DejaVu Sans), so a label that fits here fits on the page.
"""

from __future__ import annotations

__all__ = ["BOLD", "EM_WIDTHS", "fit_text", "text_px", "wrap_text"]

#: Advance widths (em) of characters in DejaVu Sans, rounded up: lower case and digits 0.64 em,
#: capitals 0.8 em and other characters 0.9 em unless listed here (checked against the font).
EM_WIDTHS = {
    **dict.fromkeys("0123456789", 0.64),
    **dict.fromkeys("il'", 0.28),
    **dict.fromkeys(".,:;|!", 0.41),
    **dict.fromkeys("fjt", 0.4),
    **dict.fromkeys("#+<=>^~", 0.84),
    "%": 0.96,
    "&": 0.78,
    "@": 1.0,
    "r": 0.42,
    " ": 0.32,
    "-": 0.37,
    "/": 0.34,
    "_": 0.5,
    "m": 0.98,
    "w": 0.82,
    "M": 0.87,
    "W": 0.99,
    "…": 1.0,
    "—": 1.0,
    "·": 0.32,
}
#: Bold text is at most this much wider than the regular bound (checked against DejaVu Sans Bold).
BOLD = 1.15


def text_px(text: str, size: float = 13, bold: bool = False) -> float:
    """About how wide ``text`` is, in pixels, at a font size of ``size`` pixels (an upper bound
    for the usual notebook sans-serif fonts; ``bold``: in bold)."""
    return (
        size
        * (BOLD if bold else 1)
        * sum(
            EM_WIDTHS.get(
                ch, 0.64 if ch.islower() and ch.isascii() else 0.8 if ch.isupper() and ch.isascii() else 0.9
            )
            for ch in text
        )
    )


def fit_text(text: str, size: float, room: float, bold: bool = False) -> str:
    """``text``, shortened with "…" until it is at most ``room`` pixels wide at ``size`` px."""
    if text_px(text, size, bold) <= room:
        return text
    while text and text_px(text + "…", size, bold) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap_text(items: list[str], size: float, room: float, sep: str = " ") -> list[list[str]]:
    """``items`` (each shortened with "…" if too long for a line on its own) grouped into lines of
    at most ``room`` pixels at ``size`` px when joined with ``sep``, in order, filling each line."""
    lines: list[list[str]] = []
    for item in items:
        item = fit_text(item, size, room)
        if lines and text_px(sep.join(lines[-1] + [item]), size) <= room:
            lines[-1].append(item)
        else:
            lines.append([item])
    return lines
