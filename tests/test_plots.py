"""Charts carry a text description: ``bus_lab.plots.show_chart`` and its use in every lesson.

JupyterLab shows a figure's PNG as an ``<img>`` without ``alt`` text; the lessons show every
chart with ``show_chart(fig, alt)`` instead, an ``<img alt="…">`` whose description is the
author's sentence followed by what the figure itself holds (titles, axes, series, values).
"""

from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from bus_lab.plots import MIN_ALT_CHARS, Chart, describe_figure, show_chart  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: Code that makes a matplotlib figure in a lesson.
MAKES_FIGURE = re.compile(r"\bplt\.subplots\(|\bplt\.figure\(|\bnew_figure\(")


class ImgParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.imgs: list[dict[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.imgs.append(dict(attrs))


def bar_and_line_figure():
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.bar(["red", "black"], [0.5, 0.25], label="exact")
    ax.plot([1, 2, 3], [0.1, 0.4, 0.2], label="simulated")
    ax.axhline(0.3, linestyle="--", label="fair")
    ax.set(title="Question 1", xlabel="colour", ylabel="P(right)")
    ax.legend()
    return fig


def test_show_chart_gives_an_img_with_the_authors_sentence_and_the_figures_content():
    fig = bar_and_line_figure()
    chart = show_chart(fig, "Red is right twice as often as black here")
    assert isinstance(chart, Chart)
    assert chart.alt.startswith("Red is right twice as often as black here. Chart with 1 panel.")
    for part in (
        "Panel “Question 1”.",
        "Horizontal axis: colour.",
        "Vertical axis: P(right).",
        "Bars “exact”: red: 0.5; black: 0.25.",
        "Line “fair”: horizontal, at 0.3.",
        "Legend: simulated, fair, exact.",
    ):
        assert part in chart.alt, (part, chart.alt)
    bundle = chart._repr_mimebundle_()
    assert bundle["text/plain"] == chart.alt == str(chart)
    parser = ImgParser()
    parser.feed(bundle["text/html"])
    [img] = parser.imgs
    assert img["alt"] == chart.alt
    assert img["src"].startswith("data:image/png;base64,")


def test_the_png_is_a_real_image_of_the_stated_size_and_pyplot_forgets_the_figure():
    fig = bar_and_line_figure()
    number = fig.number
    chart = show_chart(fig, "A bar chart and a line to check the image", dpi=50)
    assert chart.png[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = mpimg.imread(io.BytesIO(chart.png), format="png")
    assert pixels.shape[:2] == (chart.height, chart.width)
    assert 100 < chart.width < 5 * 50 + 50  # a 5-inch figure at 50 dpi, cropped tight
    assert number not in plt.get_fignums()


def test_alt_text_is_escaped_in_the_html():
    fig, ax = plt.subplots()
    ax.bar(["a"], [1])
    chart = show_chart(fig, "Quotes ' and \" and <tags> & more stay text")
    parser = ImgParser()
    parser.feed(chart._repr_html_())
    assert parser.imgs[0]["alt"].startswith("Quotes ' and \" and <tags> & more stay text.")


def test_side_by_side_bars_are_named_by_their_tick_and_histograms_by_their_position():
    fig, (left, right) = plt.subplots(1, 2)
    xs = [3, 4, 5]
    left.bar([x - 0.2 for x in xs], [0.1, 0.2, 0.3], width=0.4, label="exact")
    left.bar([x + 0.2 for x in xs], [0.15, 0.25, 0.35], width=0.4, label="simulated")
    left.set_xticks(xs, [f"{x} players" for x in xs])
    right.hist([0.5, 1.5, 1.6, 2.5], bins=[0, 1, 2, 3])
    right.set_xticks([0, 3])
    text = describe_figure(fig)
    plt.close(fig)
    assert "Bars “exact”: 3 players: 0.1; 4 players: 0.2; 5 players: 0.3." in text
    assert "Bars “simulated”: 3 players: 0.15; 4 players: 0.25; 5 players: 0.35." in text
    assert "Bars: 0.5: 1; 1.5: 2; 2.5: 1." in text
    assert text.startswith("Chart with 2 panels.")


def test_error_bars_long_lines_and_colour_grids_are_described():
    fig, (a, b) = plt.subplots(1, 2)
    a.errorbar([1, 2], [0.3, 0.4], yerr=[0.1, 0.1], fmt="s", label="measured")
    a.plot(range(40), [k / 40 for k in range(40)], label="exact")
    b.imshow([[0.2, 0.9], [0.5, 0.4]], vmin=0, vmax=1)
    fig.colorbar(b.images[0], ax=b)
    text = describe_figure(fig)
    plt.close(fig)
    assert "Points with error bars “measured”: 1: 0.3; 2: 0.4." in text
    assert (
        "Line “exact”: 40 points, x from 0 to 39, y from 0 at the start to 0.975 at the end "
        "(lowest 0, highest 0.975)."
    ) in text
    assert "A colour grid with values from 0 to 1." in text
    assert text.startswith("Chart with 2 panels.")  # the colour bar is not a panel


def test_horizontal_bars_many_bars_box_plots_and_bare_error_bars_are_described():
    """Each kind of series in one panel's own words: horizontal bars by their category, a long bar
    series by its range, error bars without markers add nothing, more than three unlabelled lines
    are counted, and a left-aligned title still names the panel."""
    fig, (a, b, c) = plt.subplots(1, 3)
    a.barh(["pyramid", "give and take"], [3, 5])
    a.axvline(4)  # a vertical reference line
    a.set_title("Boards", loc="left")
    b.bar(range(20), [k * 0.5 for k in range(20)])
    b.errorbar([1, 2], [1, 2], yerr=0.5, fmt="none")
    c.boxplot([[1, 2, 3, 4], [2, 3, 4, 9]])
    c.set(xlabel="seat", ylabel="points")
    text = describe_figure(fig)
    plt.close(fig)
    assert text.startswith("Chart with 3 panels. Panel “Boards”. Bars: pyramid: 3; give and take: 5. ")
    assert "Line: vertical, at 4." in text
    assert "Panel. Bars: 20 bars from 0 to 9.5. Panel." in text  # the bare error bars say nothing
    assert "Horizontal axis: seat. Vertical axis: points. " in text
    assert re.search(r"\d+ unlabelled lines \(e\.g\. box-plot parts\)\.$", text)


@pytest.mark.parametrize(
    "alt, error",
    [
        ("chart", ValueError),
        ("   " + "x" * (MIN_ALT_CHARS - 1), ValueError),
        (None, TypeError),
        (42, TypeError),
    ],
)
def test_an_alt_text_that_says_nothing_is_refused(alt, error):
    fig = bar_and_line_figure()
    with pytest.raises(error, match="alt"):
        show_chart(fig, alt)
    plt.close(fig)


def test_only_figures_are_accepted():
    with pytest.raises(TypeError, match="matplotlib Figure"):
        show_chart("not a figure", "a sentence long enough to pass")
    with pytest.raises(TypeError, match="matplotlib Figure"):
        describe_figure(None)


def lesson_cells() -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(NOTEBOOKS.rglob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb["cells"]):
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                found.append((path.relative_to(NOTEBOOKS).as_posix(), index, source))
    return found


def test_every_chart_in_the_lessons_is_shown_with_a_description():
    figure_cells = [
        (p, i, s)
        for p, i, s in lesson_cells()
        if MAKES_FIGURE.search(s) and not re.search(r"^def new_figure", s, re.M)
    ]
    assert len(figure_cells) >= 30, "the lessons' charts were not found"
    missing = [
        f"{p} cell {i}" for p, i, s in figure_cells if not re.search(r"^show_chart\(\s*fig,\s*\S", s, re.M)
    ]
    assert not missing, f"charts shown without show_chart(fig, alt): {missing}"
    bare = [
        f"{p} cell {i}"
        for p, i, s in lesson_cells()
        if re.search(r"^(fig|display\(fig\)|plt\.show\(\))\s*$", s, re.M)
    ]
    assert not bare, f"figures displayed as a bare image (no alt text): {bare}"


#: The Okabe-Ito palette (safe for the common kinds of colour blindness) and greys.
SAFE_COLOURS = {
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#F0E442",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
    "#000000",
    "#999999",
    "#555555",
    "#FFFFFF",
}
SAFE_COLOUR_MAPS = {"viridis", "cividis"}


def test_lesson_charts_use_colour_blind_safe_colours():
    used, maps = set(), set()
    for _path, _index, source in lesson_cells():
        used |= {h.upper() for h in re.findall(r"#[0-9A-Fa-f]{6}\b", source)}
        maps |= set(re.findall(r"cmap=\"(\w+)\"", source))
    assert len(used) >= 5 and used <= SAFE_COLOURS, (
        f"colours outside the safe palette: {sorted(used - SAFE_COLOURS)}"
    )
    assert maps <= SAFE_COLOUR_MAPS, (
        f"colour maps that are not colour-blind safe: {sorted(maps - SAFE_COLOUR_MAPS)}"
    )
