"""Results shown to a student as tables and sentences, never as Python reprs.

A lesson's code cell ends with ``show_table(...)`` or ``show_sentence(...)`` instead of printing a
dict or a list: in JupyterLab and in the app view (Voilà) the student sees a formatted HTML table or a
paragraph, and the notebook's saved ``text/plain`` (what nbval compares) is a clean aligned text table.

Cells are formatted one way everywhere:

- ``Fraction`` as ``"28/51"``; wrap it in :class:`Odds` for ``"28/51 (54.9%)"`` or in
  :class:`Percent` for ``"54.9%"`` (or use :func:`fraction_text` / :func:`percent_text` for strings);
- ``float`` sensibly (``0.549``, ``3.14``, ``1,234.5``; whole numbers without ``.0``);
- ``int`` as is, with thousands separators from 10,000 (``100,000``);
- ``bool`` as ``yes`` / ``no``; ``None`` as ``—``;
- a list or tuple of values as its formatted items joined by ``", "``;
- anything else by ``str()`` (a ``Move`` shows its label); text is HTML-escaped.

IPython is imported only when something is displayed, so the module imports anywhere.
"""

from __future__ import annotations

import html
import math
import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bus_lab.board.frame import format_odds

__all__ = [
    "Markdown",
    "Odds",
    "Percent",
    "Sentence",
    "Table",
    "cell_text",
    "fraction_text",
    "percent_text",
    "show_markdown",
    "show_sentence",
    "show_table",
    "table",
]

_ALIGN_WORDS = {
    "l": "left",
    "left": "left",
    "r": "right",
    "right": "right",
    "c": "center",
    "center": "center",
}


def _rounded_percent(p: Fraction) -> str:
    tenths = math.floor(p * 1000 + Fraction(1, 2))  # halves rounded up, as format_odds does
    sign = "-" if tenths < 0 else ""
    tenths = abs(tenths)
    return f"{sign}{tenths // 10}.{tenths % 10}%"


def _as_fraction(p: Any) -> Fraction:
    if isinstance(p, bool) or not isinstance(p, numbers.Rational | float | int):
        raise TypeError(f"a chance must be a Fraction, an int or a float, not {type(p).__name__}")
    if isinstance(p, float) and not math.isfinite(p):
        raise ValueError(f"a chance must be a finite number, not {p}")
    return Fraction(p) if not isinstance(p, float) else Fraction(p).limit_denominator(10**6)


def fraction_text(p: Fraction | int | float, percent: bool = True) -> str:
    """A chance in words for a person: ``"28/51 (54.9%)"``, or ``"28/51"`` with ``percent=False``.

    Args:
        p (Fraction | int | float): the chance, between 0 and 1 when ``percent`` is true (a float is
            turned into the nearest fraction with a denominator up to a million).
        percent (bool): add the percentage in brackets (default). With it, 0 and 1 read
            ``"0 (impossible)"`` and ``"1 (certain)"`` (see ``bus_lab.board.frame.format_odds``).

    Returns:
        str: the chance as text.

    Raises:
        TypeError: ``p`` is not a number (a bool counts as not a number).
        ValueError: ``p`` is not finite, or ``percent`` is true and ``p`` is outside 0..1.
    """
    q = _as_fraction(p)
    if not percent:
        return f"{q.numerator}/{q.denominator}" if q.denominator != 1 else str(q.numerator)
    if not 0 <= q <= 1:
        raise ValueError(f"a chance with a percentage must be between 0 and 1, not {q}")
    return format_odds(q)


def percent_text(p: Fraction | int | float) -> str:
    """A proportion as a percentage to 0.1, halves rounded up: ``Fraction(28, 51)`` -> ``"54.9%"``.

    Args:
        p (Fraction | int | float): the proportion (1 is ``"100.0%"``; values above 1 or below 0
            are allowed, e.g. a change of -12.5%).

    Returns:
        str: the percentage.

    Raises:
        TypeError: ``p`` is not a number.
        ValueError: ``p`` is not finite.
    """
    return _rounded_percent(_as_fraction(p))


@dataclass(frozen=True)
class Odds:
    """A table cell holding a chance shown as ``"28/51 (54.9%)"`` (see :func:`fraction_text`)."""

    p: Fraction

    def __str__(self) -> str:
        return fraction_text(self.p)


@dataclass(frozen=True)
class Percent:
    """A table cell holding a proportion shown as a percentage, ``"54.9%"`` (see :func:`percent_text`)."""

    p: Fraction

    def __str__(self) -> str:
        return percent_text(self.p)


def _float_text(x: float) -> str:
    if math.isnan(x):
        return "—"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    if x == int(x) and abs(x) < 1e15:
        return _int_text(int(x))
    ax = abs(x)
    if ax >= 1000:
        return f"{x:,.1f}"
    if ax >= 1:
        return f"{x:.2f}".rstrip("0").rstrip(".")
    text = f"{x:.3g}"
    if "e" in text:  # very small: keep it readable, not 1e-07
        text = f"{x:.3e}"
    return text


def _int_text(n: int) -> str:
    return f"{n:,}" if abs(n) >= 10_000 else str(n)


def cell_text(value: Any) -> str:
    """The text a table cell shows for a value (plain text, not yet HTML-escaped).

    Args:
        value (Any): a Fraction, int, float, bool, None, str, :class:`Odds`, :class:`Percent`, a list or
            tuple of such values, or any object with a readable ``str()`` (e.g. a ``Move``).

    Returns:
        str: the formatted cell (see the module docstring for the rules).

    Raises:
        TypeError: ``value`` is a dict or a set (give one value per cell, or sort the set into a list).
    """
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return _int_text(int(value))
    if isinstance(value, Fraction):
        return fraction_text(value, percent=False)
    if isinstance(value, numbers.Rational):
        return fraction_text(Fraction(int(value.numerator), int(value.denominator)), percent=False)
    if isinstance(value, numbers.Real):
        return _float_text(float(value))
    if isinstance(value, Mapping | set | frozenset):
        raise TypeError(f"a table cell cannot hold a {type(value).__name__}: give one value per cell")
    if isinstance(value, list | tuple):
        return ", ".join(cell_text(v) for v in value)
    return str(value)


def _is_number(value: Any) -> bool:
    return (
        isinstance(value, numbers.Number | Odds | Percent)
        and not isinstance(value, bool)
        and not (isinstance(value, float) and math.isnan(value))
    )


class Table:
    """A formatted table: HTML in a notebook or the app view, an aligned text table as ``text/plain``.

    Build one with :func:`table` or :func:`show_table`. ``str(t)`` and ``repr(t)`` give the text table;
    ``t.cells`` the formatted text of every cell (rows of strings), handy in tests.
    """

    def __init__(
        self,
        rows: Sequence[Sequence[Any] | Mapping[str, Any]],
        columns: Sequence[str],
        caption: str | None = None,
        *,
        align: str | Sequence[str] | None = None,
    ) -> None:
        if isinstance(columns, str) or not isinstance(columns, Sequence):
            raise TypeError("columns must be a list of column headings")
        self.columns: list[str] = [str(c) for c in columns]
        if not self.columns:
            raise ValueError("a table needs at least one column")
        if isinstance(rows, str | Mapping) or not isinstance(rows, Sequence):
            raise TypeError("rows must be a list of rows (each a list of cells, or a dict keyed by column)")
        self.caption = caption
        raw: list[list[Any]] = []
        for i, row in enumerate(rows):
            if isinstance(row, Mapping):
                unknown = [k for k in row if k not in self.columns]
                if unknown:
                    raise ValueError(f"row {i} has keys that are not columns: {unknown}")
                raw.append([row.get(c) for c in self.columns])
            elif isinstance(row, Sequence) and not isinstance(row, str):
                if len(row) != len(self.columns):
                    raise ValueError(f"row {i} has {len(row)} cells for {len(self.columns)} columns")
                raw.append(list(row))
            else:
                raise TypeError(f"row {i} must be a list of cells or a dict keyed by column")
        self.cells: list[list[str]] = [[cell_text(v) for v in row] for row in raw]
        self.align: list[str] = self._alignment(align, raw)

    def _alignment(self, align: str | Sequence[str] | None, raw: list[list[Any]]) -> list[str]:
        n = len(self.columns)
        if align is None:
            out = []
            for j in range(n):
                values = [row[j] for row in raw if row[j] is not None]
                out.append("right" if values and all(_is_number(v) for v in values) else "left")
            return out
        if isinstance(align, str):
            letters: Sequence[str] = list(align)
        elif isinstance(align, Sequence):
            letters = align
        else:
            raise TypeError("align must be a string such as 'lrr' or a list such as ['left', 'right']")
        if len(letters) != n:
            raise ValueError(f"align gives {len(letters)} alignments for {n} columns")
        out = []
        for a in letters:
            word = _ALIGN_WORDS.get(str(a).lower())
            if word is None:
                raise ValueError(f"unknown alignment {a!r}: use l, r, c or left, right, center")
            out.append(word)
        return out

    def text(self) -> str:
        """The table as aligned plain text (caption, header, a rule of dashes, the rows)."""
        widths = [len(c) for c in self.columns]
        for row in self.cells:
            for j, cell in enumerate(row):
                widths[j] = max(widths[j], len(cell))

        def line(cells: Sequence[str]) -> str:
            parts = []
            for cell, width, a in zip(cells, widths, self.align):
                if a == "right":
                    parts.append(cell.rjust(width))
                elif a == "center":
                    parts.append(cell.center(width))
                else:
                    parts.append(cell.ljust(width))
            return "  ".join(parts).rstrip()

        lines = [self.caption] if self.caption else []
        lines.append(line(self.columns))
        lines.append("  ".join("-" * w for w in widths))
        lines.extend(line(row) for row in self.cells)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    __str__ = __repr__

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def _repr_html_(self) -> str:
        def style(a: str) -> str:
            return f' style="text-align:{a}"'

        parts = ['<table class="bus-lab-table">']
        if self.caption:
            parts.append(f'<caption style="caption-side:top">{html.escape(self.caption)}</caption>')
        parts.append("<thead><tr>")
        parts.extend(
            f'<th scope="col"{style(a)}>{html.escape(c)}</th>' for c, a in zip(self.columns, self.align)
        )
        parts.append("</tr></thead><tbody>")
        for row in self.cells:
            parts.append("<tr>")
            parts.extend(f"<td{style(a)}>{html.escape(cell)}</td>" for cell, a in zip(row, self.align))
            parts.append("</tr>")
        parts.append("</tbody></table>")
        return "".join(parts)


class Sentence:
    """A sentence (or short paragraph) of plain text, shown as an HTML paragraph; ``repr`` is the text."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, not {type(text).__name__}")
        self.text = text

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text)

    def _repr_html_(self) -> str:
        return f"<p>{html.escape(self.text)}</p>"


class Markdown:
    """Markdown text (``$...$`` maths allowed), rendered in a notebook; ``repr`` is the Markdown source."""

    def __init__(self, md: str) -> None:
        if not isinstance(md, str):
            raise TypeError(f"md must be a str, not {type(md).__name__}")
        self.md = md

    def __repr__(self) -> str:
        return self.md

    __str__ = __repr__

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.md)

    def _repr_markdown_(self) -> str:
        return self.md


def table(
    rows: Sequence[Sequence[Any] | Mapping[str, Any]],
    columns: Sequence[str],
    caption: str | None = None,
    *,
    align: str | Sequence[str] | None = None,
) -> Table:
    """Build a :class:`Table` without displaying it (see :func:`show_table` for the arguments)."""
    return Table(rows, columns, caption, align=align)


def _display(obj: Any) -> None:
    from IPython.display import display  # imported only when something is shown

    display(obj)


def show_table(
    rows: Sequence[Sequence[Any] | Mapping[str, Any]],
    columns: Sequence[str],
    caption: str | None = None,
    *,
    align: str | Sequence[str] | None = None,
) -> None:
    """Display a formatted table in the notebook (HTML, with an aligned text table as ``text/plain``).

    Example::

        show_table([["red", Odds(Fraction(1, 2))], ["black", Odds(Fraction(1, 2))]],
                   ["Guess", "Chance"], "Question 1")

    Args:
        rows (list[list | dict]): one entry per row: a list with one value per column, or a dict
            keyed by column heading (missing keys show ``—``). Values are formatted as the module
            docstring says (``Fraction`` as ``28/51``, ``Odds(p)`` as ``28/51 (54.9%)``, bools as yes/no).
        columns (list[str]): the column headings.
        caption (str | None): a title shown above the table.
        align (str | list[str] | None): one alignment per column, as letters (``"lrr"``) or words
            (``["left", "right", "right"]``); by default columns of numbers are right-aligned and the
            others left-aligned.

    Returns:
        None: the table is displayed (use :func:`table` to get the :class:`Table` object instead).

    Raises:
        TypeError: ``rows``/``columns``/``align`` have the wrong shape, or a cell holds a dict or a set.
        ValueError: a row's length (or a dict's keys) does not match the columns, or an alignment is unknown.
    """
    _display(Table(rows, columns, caption, align=align))


def show_sentence(text: str) -> None:
    """Display a sentence as a paragraph (HTML; the text itself as ``text/plain``).

    Args:
        text (str): plain text (it is HTML-escaped, so ``<`` and ``&`` show as typed).

    Raises:
        TypeError: ``text`` is not a str.
    """
    _display(Sentence(text))


def show_markdown(md: str) -> None:
    """Display Markdown (headings, bold, ``$...$`` maths) rendered in the notebook and the app view.

    Args:
        md (str): Markdown source; its ``text/plain`` is the source itself.

    Raises:
        TypeError: ``md`` is not a str.
    """
    _display(Markdown(md))
