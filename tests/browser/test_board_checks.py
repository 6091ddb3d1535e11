"""The board checks themselves (board_checks.py) on hand-made pages whose answers are known."""

from __future__ import annotations

import pytest
from board_checks import assert_svg_text_contrast, axe_violations, svg_text_contrast

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

PAGE = """<!doctype html><html lang="en"><head><title>t</title></head><body style="background:#fff">
<div class="bl-root"><div class="bl-board">
<svg viewBox="0 0 300 100" width="300" height="100" role="img" aria-label="test board">
  <rect x="0" y="0" width="100" height="100" fill="#000"/>
  <text x="10" y="50" fill="#fff" font-size="16">white on black</text>
  <text x="110" y="50" fill="#777777" font-size="16">grey on white</text>
  <rect x="200" y="0" width="100" height="100" fill="#0000ff" fill-opacity="0.5"/>
  <text x="205" y="50" fill="#000" font-size="16">on half blue</text>
  <text x="10" y="90" fill="#fff" font-size="16" style="display:none">hidden</text>
</svg>{extra}</div></div></body></html>"""


def test_contrast_is_measured_against_the_shape_under_each_text(blank_page) -> None:
    blank_page.set_content(PAGE.format(extra=""))
    found = {m["text"]: m for m in svg_text_contrast(blank_page)}
    assert set(found) == {"white on black", "grey on white", "on half blue"}  # hidden text skipped
    assert found["white on black"]["ratio"] == 21.0
    assert found["white on black"]["background"] == "#000000"
    # #777777 on white: L = 0.1845, (1.05) / (0.2345) = 4.48 (just below AA)
    assert found["grey on white"]["background"] == "#ffffff"
    assert 4.47 <= found["grey on white"]["ratio"] <= 4.49
    # 50 % blue over white is #8080ff (rounded), and black on it is above 4.5
    assert found["on half blue"]["background"] in ("#7f7fff", "#8080ff")
    with pytest.raises(AssertionError, match="grey on white"):
        assert_svg_text_contrast(blank_page)


def test_axe_reports_a_button_without_a_name(blank_page) -> None:
    blank_page.set_content(PAGE.format(extra='<button type="button"></button>'))
    ids = {v["id"]: v["impact"] for v in axe_violations(blank_page)}
    assert ids.get("button-name") == "critical"
    blank_page.set_content(PAGE.format(extra='<button type="button">Step</button>'))
    assert "button-name" not in {v["id"] for v in axe_violations(blank_page)}
