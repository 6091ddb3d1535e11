"""The text-width bound used to fit board text is never below the real font's width.

The real widths come from matplotlib's metrics of DejaVu Sans (the widest of the usual notebook
sans-serif fonts), so a label the boards think fits does fit on the page.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

from bus_lab.games.textfit import EM_WIDTHS, fit_text, text_px, wrap_text

FONT = FontProperties(family="DejaVu Sans")
TO_PATH = TextToPath()


def real_px(text: str, size: float) -> float:
    """Width of ``text`` in DejaVu Sans at ``size`` (same unit as the size), from its metrics."""
    width, _height, _descent = TO_PATH.get_text_width_height_descent(text, FONT.copy(), ismath=False)
    return width * size / FONT.get_size_in_points()


LABELS = [
    "a1-a2 orange",
    "b1-c1 —",
    "Seat 0 ◀ to move",
    "multicoloured",
    "tennis court",
    "Gi★ Sa★ ET",
    "Card to beat: 10♦",
    "queue 5 (−2 each, VIP −6)",
    "WWWWMMMM",
    "mmmm wwww",
    "Left for white icons:",
]


@pytest.mark.parametrize("text", LABELS)
def test_the_bound_covers_real_labels(text):
    assert text_px(text, 13) >= real_px(text, 13)


def test_every_listed_character_is_at_least_as_wide_as_in_the_font():
    for ch, em in EM_WIDTHS.items():
        assert em * 100 >= real_px(ch, 100) - 1e-9, ch


@pytest.mark.parametrize("ch", list("♣♦♥♠★◀▶●○♛−×→"))
def test_board_symbols_are_covered(ch):
    assert text_px(ch, 100) >= real_px(ch, 100)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=30))
def test_the_bound_covers_any_printable_ascii_text(text):
    assert text_px(text, 12) >= real_px(text, 12) - 1e-9


def test_fit_text_shortens_with_an_ellipsis_to_the_room():
    assert fit_text("office", 12, 200) == "office"
    short = fit_text("a very long destination name", 12, 80)
    assert short.endswith("…") and text_px(short, 12) <= 80
    assert fit_text("a very long destination name", 12, 80)[:-1] in "a very long destination name"


BOLD_FONT = FontProperties(family="DejaVu Sans", weight="bold")


@pytest.mark.parametrize("text", LABELS + ["Winners: Seat 0 and Seat 1", "reach", "0123456789"])
def test_the_bold_bound_covers_bold_labels(text):
    width, _h, _d = TO_PATH.get_text_width_height_descent(text, BOLD_FONT.copy(), ismath=False)
    assert text_px(text, 13, bold=True) >= width * 13 / BOLD_FONT.get_size_in_points()
    assert fit_text(text, 13, text_px(text, 13), bold=True).endswith("…")  # room for regular, not bold


def test_wrap_text_fills_each_line_in_order_and_shortens_an_item_too_long_alone():
    items = ["q1", "q2", "q3", "W", "a very long label that fits no line"]
    lines = wrap_text(items, 11, 40)
    assert [x for line in lines for x in line][:4] == items[:4]
    assert all(text_px(" ".join(line), 11) <= 40 for line in lines)
    assert all(
        text_px(" ".join(a + b[:1]), 11) > 40 for a, b in zip(lines, lines[1:])
    )  # no line could take more
    assert lines[-1] == [fit_text(items[-1], 11, 40)] and lines[-1][0].endswith("…")
