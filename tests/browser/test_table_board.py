"""The board's own style on a class table: what a frame hides stays hidden with board.css alone,
and the notebook's board (with its step controls) looks exactly as before."""

from __future__ import annotations

import pytest
from board_harness import PAGE, BoardPage

from bus_lab.board.assets import board_css, board_esm
from bus_lab.table.table import Table
from bus_lab.widgets import BusstopWidget
from conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

HIDDEN_RULE = """.bl-root [hidden] {
  display: none !important;
}
"""


def test_a_frame_without_controls_shows_none_with_the_board_style_alone(blank_page):
    table = Table("ABCDE", game="busstop", options={"players": 3}, seed=1)
    table.join("Ana")
    table.start()
    table.run_automatic()
    frame = table.projector_frame()
    assert frame["controls"] is None
    blank_page.set_content(PAGE.format(css=board_css(), esm=board_esm(), mode="table"))
    blank_page.wait_for_function("window.__ready === true")
    blank_page.evaluate("f => window.__update(f)", frame)
    controls = blank_page.locator(".bl-controls")
    assert controls.count() >= 1
    for i in range(controls.count()):
        assert controls.nth(i).get_attribute("hidden") is not None
        assert not controls.nth(i).is_visible()
        assert controls.nth(i).bounding_box() is None
    assert blank_page.locator(".bl-board").first.is_visible()


def test_the_notebook_board_with_its_controls_looks_the_same(blank_page):
    assert HIDDEN_RULE in board_css()
    widget = BusstopWidget(players=3, humans=(0,), seed=4)
    shots = []
    for css in (board_css().replace(HIDDEN_RULE, ""), board_css()):
        bp = BoardPage(blank_page, widget)
        blank_page.set_content(PAGE.format(css=css, esm=board_esm(), mode="widget"))
        blank_page.wait_for_function("window.__ready === true")
        bp.push()
        bp.settle()
        assert blank_page.locator(".bl-controls").first.is_visible()
        shots.append(blank_page.screenshot(full_page=True))
    (ARTIFACTS / "screens").mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "screens" / "table-board-notebook-controls.png").write_bytes(shots[1])
    assert shots[0] == shots[1]
