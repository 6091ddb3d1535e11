"""The board's browser files, shipped inside the package (nothing is fetched from a CDN).

``static/core.js`` is the game-agnostic front end (layout, targets, choices, keyboard, motion,
controls, kernel-gone message); ``static/games/<game>.js`` draws one game's view. They are joined
into one self-contained ES module (no imports inside), which is what anywidget and the class
table's pages load. ``static/board.css`` is the style sheet.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"


@cache
def board_esm() -> str:
    """The board's ES module: ``core.js`` followed by every ``games/*.js`` drawer (sorted by name).

    Returns:
        str: JavaScript source with a default export ``{render}`` (anywidget's contract) and a
        named export ``mount(el, options)`` for pages outside a notebook.
    """
    parts = [(STATIC / "core.js").read_text(encoding="utf-8")]
    for path in sorted((STATIC / "games").glob("*.js")):
        parts.append(f"// ---- {path.name}\n" + path.read_text(encoding="utf-8"))
    return "\n".join(parts)


@cache
def board_css() -> str:
    """The board's style sheet (``static/board.css``)."""
    return (STATIC / "board.css").read_text(encoding="utf-8")
