"""Charts for the lessons: a matplotlib figure shown as an image that carries a text description.

JupyterLab draws a figure's PNG output as an ``<img>`` with no ``alt`` text, so a learner using a
screen reader hears nothing of the chart. :func:`show_chart` renders the figure once and shows it
as HTML ``<img alt="…">``: the alt text is the author's sentence on what the chart shows (its
takeaway) followed by a description read from the figure itself (:func:`describe_figure`: each
panel's title, axes, series and, for small bar charts, the bar heights). The same text is the
plain-text form of the output, so it also appears wherever images are not shown.

Example (in a notebook cell)::

    import matplotlib.pyplot as plt
    from bus_lab.plots import show_chart

    fig, ax = plt.subplots(figsize=(6, 3))
    ax.bar(["red", "black"], [0.5, 0.5])
    ax.set(title="Question 1", ylabel="P(right)")
    show_chart(fig, "Red and black are equally likely on the first question.")

matplotlib is imported only when a chart is made, so ``import bus_lab`` stays fast.
"""

from __future__ import annotations

import base64
import io
import math
from html import escape
from typing import Any

__all__ = ["Chart", "describe_figure", "show_chart"]

#: Bars listed one by one in the description when a chart has at most this many per series.
MAX_BARS_LISTED = 14
#: Shortest author's description accepted, in characters (a word like "chart" says nothing).
MIN_ALT_CHARS = 20


def _number(value: float) -> str:
    """A value for reading aloud: 3 significant digits, no trailing zeros."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "none"
    return f"{value:.3g}"


def _text(artist_text: Any) -> str:
    return " ".join(str(artist_text).split())


def _tick_names(axis: Any, positions: list[float]) -> list[str]:
    """The name of each of ``positions`` on an axis: the label of the nearest tick when it is
    closer than half the gap between ticks (categories, or bars drawn side by side around a
    tick) and no two positions share a tick, else the number itself."""
    ticks = sorted(
        (float(tick.get_loc()), _text(tick.label1.get_text()))
        for tick in axis.get_major_ticks()
        if tick.label1.get_text()
    )
    if not ticks:
        return [_number(p) for p in positions]
    gaps = [b[0] - a[0] for a, b in zip(ticks, ticks[1:])]
    reach = min(gaps) / 2 if gaps else 0.5
    nearest = [min(ticks, key=lambda t: abs(t[0] - p)) for p in positions]
    if len(set(nearest)) < len(nearest):  # e.g. histogram bins between ticks: use numbers
        return [_number(p) for p in positions]
    return [label if abs(loc - p) < reach else _number(p) for p, (loc, label) in zip(positions, nearest)]


def _points(name: str, xs: list[float], ys: list[float], axis: Any) -> str:
    """One series of points: listed when short, else summarised by its ends and range."""
    if len(ys) <= MAX_BARS_LISTED:
        pairs = "; ".join(f"{n}: {_number(y)}" for n, y in zip(_tick_names(axis, xs), ys))
        return f"{name}: {pairs}."
    return (
        f"{name}: {len(ys)} points, x from {_number(min(xs))} to {_number(max(xs))}, y from "
        f"{_number(ys[0])} at the start to {_number(ys[-1])} at the end (lowest {_number(min(ys))}, "
        f"highest {_number(max(ys))})."
    )


def _floats(values: Any) -> list[float] | None:
    try:
        return [float(v) for v in values]
    except (TypeError, ValueError):
        return None


def _series_name(kind: str, label: str) -> str:
    return f"{kind} “{label}”" if label and not label.startswith("_") else kind


def _describe_axes(ax: Any) -> list[str]:
    """Sentences describing one panel: title, axes, then each series, a colour grid and the legend."""
    parts = _heading(ax)
    described: set[int] = set()  # lines already told as part of a container (error bars)
    for container in ax.containers:
        sentence = _container_sentence(container, ax, described)
        if sentence:
            parts.append(sentence)
    parts.extend(_line_sentences(ax, described))
    if ax.images:
        low, high = ax.images[0].get_clim()
        parts.append(f"A colour grid with values from {_number(low)} to {_number(high)}.")
    parts.extend(_legend_sentence(ax))
    return parts


def _heading(ax: Any) -> list[str]:
    """The panel's title and its axis labels."""
    title = _text(ax.get_title()) or _text(ax.get_title("left"))
    parts = [f"Panel “{title}”." if title else "Panel."]
    xlabel, ylabel = _text(ax.get_xlabel()), _text(ax.get_ylabel())
    if xlabel:
        parts.append(f"Horizontal axis: {xlabel}.")
    if ylabel:
        parts.append(f"Vertical axis: {ylabel}.")
    return parts


def _container_sentence(container: Any, ax: Any, described: set[int]) -> str | None:
    """One bar series or set of points with error bars (their lines are added to ``described``),
    or ``None`` for any other container or an empty one."""
    from matplotlib.container import BarContainer, ErrorbarContainer

    if isinstance(container, ErrorbarContainer):
        return _errorbar_sentence(container, ax, described)
    if isinstance(container, BarContainer) and len(container.patches):
        return _bars_sentence(container, ax)
    return None


def _errorbar_sentence(container: Any, ax: Any, described: set[int]) -> str | None:
    data_line, caplines, _ = container.lines
    described.update(id(line) for line in caplines)
    if data_line is None:
        return None
    described.add(id(data_line))
    xs, ys = _floats(data_line.get_xdata()), _floats(data_line.get_ydata())
    if not (xs and ys):
        return None
    return _points(_series_name("Points with error bars", _text(container.get_label())), xs, ys, ax.xaxis)


def _bars_sentence(container: Any, ax: Any) -> str:
    """Each bar with its category (or x) and height, or the range when there are many."""
    horizontal = getattr(container, "orientation", "vertical") == "horizontal"
    name = _series_name("Bars", _text(container.get_label()))
    patches = container.patches
    if len(patches) > MAX_BARS_LISTED:
        heights = [p.get_width() if horizontal else p.get_height() for p in patches]
        return f"{name}: {len(patches)} bars from {_number(min(heights))} to {_number(max(heights))}."
    if horizontal:
        centres = [p.get_y() + p.get_height() / 2 for p in patches]
        values = [p.get_width() for p in patches]
        names = _tick_names(ax.yaxis, centres)
    else:
        centres = [p.get_x() + p.get_width() / 2 for p in patches]
        values = [p.get_height() for p in patches]
        names = _tick_names(ax.xaxis, centres)
    pairs = "; ".join(f"{n}: {_number(v)}" for n, v in zip(names, values))
    return f"{name}: {pairs}."


def _line_sentences(ax: Any, described: set[int]) -> list[str]:
    """Every labelled line not yet described, then the unlabelled ones (up to three, else a count)."""
    parts = []
    unlabelled = []
    for line in ax.get_lines():
        if id(line) in described:
            continue
        label = _text(line.get_label())
        xs, ys = _floats(line.get_xdata()), _floats(line.get_ydata())
        if not xs or not ys or len(ys) < 2:
            continue
        if label.startswith("_"):
            unlabelled.append((xs, ys))
            continue
        parts.append(_line(_series_name("Line", label), xs, ys, ax))
    if len(unlabelled) <= 3:
        parts.extend(_line("Line", xs, ys, ax) for xs, ys in unlabelled)
    else:
        parts.append(f"{len(unlabelled)} unlabelled lines (e.g. box-plot parts).")
    return parts


def _legend_sentence(ax: Any) -> list[str]:
    legend = ax.get_legend()
    if legend is None:
        return []
    names = [_text(t.get_text()) for t in legend.get_texts() if _text(t.get_text())]
    return ["Legend: " + ", ".join(names) + "."] if names else []


def _line(name: str, xs: list[float], ys: list[float], ax: Any) -> str:
    if len(set(ys)) == 1:
        return f"{name}: horizontal, at {_number(ys[0])}."
    if len(set(xs)) == 1:
        return f"{name}: vertical, at {_number(xs[0])}."
    return _points(name, xs, ys, ax.xaxis)


def describe_figure(fig: Any) -> str:
    """A plain-language description of a matplotlib figure, read from the figure itself.

    For each panel (colour bars are skipped): its title, the axis labels, every bar series and
    every line or set of points with error bars (each value with its category or x when a series
    has at most ``MAX_BARS_LISTED`` of them, else the ends and the range), horizontal reference
    lines, a colour grid's range, and the legend entries. Numbers are rounded to 3 significant
    digits.

    Args:
        fig (matplotlib.figure.Figure): the figure to describe.

    Returns:
        str: the description, e.g. ``"Chart with 1 panel. Panel “Question 1”. Vertical axis:
        P(right). Bars: red: 0.5; black: 0.5."``.

    Raises:
        TypeError: ``fig`` is not a matplotlib ``Figure``.
    """
    from matplotlib.figure import Figure

    if not isinstance(fig, Figure):
        raise TypeError(f"describe_figure needs a matplotlib Figure, not {type(fig).__name__}")
    fig.draw_without_rendering()  # tick labels (e.g. categories) exist only once drawn
    return _describe_drawn(fig)


def _describe_drawn(fig: Any) -> str:
    """:func:`describe_figure` of a figure already drawn (its tick labels are set)."""
    panels = [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]
    title = _text(fig._suptitle.get_text()) if getattr(fig, "_suptitle", None) is not None else ""
    parts = [f"Chart with {len(panels)} panel{'s' if len(panels) != 1 else ''}."]
    if title:
        parts.append(f"Overall title: {title}.")
    for ax in panels:
        parts.extend(_describe_axes(ax))
    return " ".join(parts)


class Chart:
    """A matplotlib figure rendered once as a PNG, displayed as HTML ``<img>`` with ``alt`` text.

    Build it with :func:`show_chart`. In a notebook it displays as the image (``text/html``); its
    plain-text form (``text/plain``, also ``str(chart)``) is the same description as the alt text.

    Args:
        fig (matplotlib.figure.Figure): the figure; it is drawn once, then closed in pyplot.
        alt (str): the author's sentence on what the chart shows (at least ``MIN_ALT_CHARS``
            characters); the figure's own description is added after it.
        dpi (int): resolution of the PNG, dots per inch (default 100).

    Raises:
        TypeError: ``fig`` is not a matplotlib ``Figure`` or ``alt`` is not a string.
        ValueError: ``alt`` is shorter than ``MIN_ALT_CHARS`` characters, or ``dpi`` is not positive.

    Attributes:
        alt (str): the full text description (author's sentence, then the figure's description).
        png (bytes): the PNG image.
        width, height (int): the image size in pixels.
    """

    def __init__(self, fig: Any, alt: str, *, dpi: int = 100):
        from matplotlib.figure import Figure

        if not isinstance(fig, Figure):
            raise TypeError(f"show_chart needs a matplotlib Figure, not {type(fig).__name__}")
        if not isinstance(alt, str):
            raise TypeError(f"alt must be a sentence (str), not {type(alt).__name__}")
        summary = " ".join(alt.split())
        if len(summary) < MIN_ALT_CHARS:
            raise ValueError(
                f"alt={alt!r} is too short to describe a chart: say in a sentence what it "
                f"shows (at least {MIN_ALT_CHARS} characters)"
            )
        if int(dpi) <= 0:
            raise ValueError(f"dpi={dpi} must be positive")
        if summary[-1] not in ".!?":
            summary += "."
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=int(dpi), bbox_inches="tight")
        self.alt = f"{summary} {_describe_drawn(fig)}"  # savefig has just drawn it
        self.png = buffer.getvalue()
        self.width, self.height = _png_size(self.png)
        import matplotlib.pyplot as plt

        plt.close(fig)  # pyplot keeps no reference: the image is all that remains

    def _repr_html_(self) -> str:
        data = base64.b64encode(self.png).decode("ascii")
        return (
            f"<img class='bus-lab-chart' src='data:image/png;base64,{data}' alt='{escape(self.alt)}' "
            f"width='{self.width}' style='max-width:100%;height:auto'>"
        )

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"text/html": self._repr_html_(), "text/plain": self.alt}

    def __str__(self) -> str:
        return self.alt

    def __repr__(self) -> str:
        return f"Chart({self.width}x{self.height} px: {self.alt[:60]!r}...)"


def _png_size(png: bytes) -> tuple[int, int]:
    """Width and height in pixels from a PNG's header."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def show_chart(fig: Any, alt: str, *, dpi: int = 100) -> Chart:
    """Show a matplotlib figure as an image with a text description; end a cell with it.

    Args:
        fig (matplotlib.figure.Figure): the finished figure (closed in pyplot afterwards).
        alt (str): one or two sentences saying what the chart shows and what to notice; the
            figure's titles, axes, series and bar values are added automatically.
        dpi (int): resolution, dots per inch.

    Returns:
        Chart: displays as ``<img alt="…">`` in Jupyter and Voilà.

    Raises:
        TypeError, ValueError: see :class:`Chart`.
    """
    return Chart(fig, alt, dpi=dpi)
