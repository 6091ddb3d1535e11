"""What a student would see as raw Python in the app view (Voilà) of an executed notebook.

Voilà hides code and shows outputs: stream text, HTML, widgets, and ``text/plain`` when nothing richer
was given. :func:`app_view_problems` scans those outputs for things a student should never see: raw LaTeX
delimiters (maths belongs in Markdown cells, which are rendered), ``Fraction(...)``, dict and list reprs,
Python object reprs, and error tracebacks.
"""

from __future__ import annotations

import html
import re
from typing import Any

import nbformat

#: Output MIME types that are shown instead of ``text/plain`` when present.
RICH_TYPES = (
    "text/html",
    "text/markdown",
    "application/vnd.jupyter.widget-view+json",
    "image/png",
    "image/jpeg",
    "image/svg+xml",
    "text/latex",
)

#: (what it is, pattern) pairs searched in the text a student sees.
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("raw LaTeX $$", re.compile(r"\$\$")),
    ("raw LaTeX \\frac", re.compile(r"\\frac")),
    ("raw LaTeX \\(", re.compile(r"\\\(")),
    ("Fraction repr", re.compile(r"Fraction\(")),
    ("dict repr", re.compile(r"\{\s*['\"][^'\"\n]*['\"]\s*:")),
    ("list repr of strings", re.compile(r"\[\s*['\"]")),
    ("Python object repr", re.compile(r"<bus_lab\.|object at 0x[0-9a-fA-F]+")),
]

_SCRIPT_STYLE = re.compile(r"<(script|style)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")


def _html_text(markup: str) -> str:
    """The text of an HTML fragment as a browser shows it (scripts and styles dropped, tags removed)."""
    return html.unescape(_TAG.sub(" ", _SCRIPT_STYLE.sub(" ", markup)))


def _joined(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _shown_texts(output: Any) -> list[tuple[str, str]]:
    """(where, text) pairs for what one output shows a student."""
    kind = output.get("output_type")
    if kind == "stream":
        return [(f"{output.get('name', 'stream')} text", _joined(output.get("text", "")))]
    if kind in ("execute_result", "display_data"):
        data = output.get("data", {})
        texts = []
        if "text/html" in data:
            markup = _joined(data["text/html"])
            texts.append(("HTML", _html_text(markup)))
            # An object repr pasted into HTML unescaped looks like a tag and would vanish above.
            raw_objects = re.findall(r"<bus_lab\.[^>]*>|object at 0x[0-9a-fA-F]+", markup)
            if raw_objects:
                texts.append(("HTML source", " ".join(raw_objects)))
        if "text/markdown" in data:
            texts.append(("Markdown", _joined(data["text/markdown"])))
        if "text/plain" in data and not any(t in data for t in RICH_TYPES):
            texts.append(("text", _joined(data["text/plain"])))
        return texts
    return []


def _snippet(text: str, start: int, end: int, width: int = 30) -> str:
    piece = text[max(0, start - width) : end + width]
    piece = " ".join(piece.split())
    return ("…" if start > width else "") + piece + ("…" if end + width < len(text) else "")


def app_view_problems(nb: nbformat.NotebookNode) -> list[str]:
    """Problems in what an executed notebook shows in the app view, one line each.

    Markdown cells are not checked (they are rendered, maths included). For each code cell's outputs:
    stream text, the text of ``text/html``, ``text/markdown``, and ``text/plain`` of results and displays
    that have no richer view (HTML, Markdown, widget, image). Reported: ``$$``, ``\\frac``, ``\\(``,
    ``Fraction(``, dict reprs (``{'key':``), list reprs of strings (``['``), object reprs
    (``<bus_lab.…>``, ``object at 0x…``) and error outputs.

    Args:
        nb (nbformat.NotebookNode): an executed notebook (``nbformat.read(...)`` after nbclient ran it).

    Returns:
        list[str]: e.g. ``"cell 7: Fraction repr in text: …{'red': Fraction(1, 2)…"``; empty when clean.
        Cells are numbered from 0 as in ``nb.cells``.
    """
    problems: list[str] = []
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                problems.append(f"cell {index}: error output: {output.get('ename')}: {output.get('evalue')}")
                continue
            for where, text in _shown_texts(output):
                for what, pattern in PATTERNS:
                    match = pattern.search(text)
                    if match:
                        snippet = _snippet(text, match.start(), match.end())
                        problems.append(f"cell {index}: {what} in {where}: {snippet}")
    return problems
