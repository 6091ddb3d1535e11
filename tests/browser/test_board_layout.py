"""The game boards measured in real Chromium (no JupyterLab server: each board's HTML is put in a
page whose output area is built like the HTML widget's, a flex row with ``overflow:auto``).

What a teacher saw on a projector: Bus & Stop, Busstop and BUS text at 8-10 px and overlapping
letters, BUS bus markers covering the STOP badges, and the Ride the Bus board scrolling sideways
in a narrow output area. Here the text boxes are Chromium's own (``getBoundingClientRect``), so
these checks back up the browser-free approximations in the unit tests. Quick (a few seconds): one
page, no kernel.
"""

from __future__ import annotations

import pytest

from bus_lab.widgets import BusAndStopWidget, BusCityWidget, RideTheBusWidget

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

#: The output area as the HTML widget builds it (jupyter-widgets CSS, in short).
PAGE = """<html><head><style>
body {{ margin: 0; font-family: sans-serif; font-size: 13px }}
.html {{ display: flex; flex-direction: row; align-items: baseline; box-sizing: border-box; overflow: auto }}
.content {{ align-self: stretch; flex-grow: 1; flex-shrink: 1; position: relative }}
</style></head><body><div id="area" style="width: {width}px"><div class="html"><div class="content">{board}</div>
</div></div></body></html>"""

MEASURE_JS = """() => {
  const svg = document.querySelector('svg[role="img"]');
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const rect = el => { const r = el.getBoundingClientRect();
                       return [r.left, r.top, r.right, r.bottom]; };
  const holder = document.querySelector('.html');
  return {
    width: box.width, scale, scrolls: holder.scrollWidth > holder.clientWidth,
    texts: Array.from(svg.querySelectorAll('text')).map(t => ({
      text: t.textContent, px: parseFloat(t.getAttribute('font-size')) * scale, box: rect(t),
      bus: !!t.closest('g.bus')})),
    buses: Array.from(svg.querySelectorAll('g.bus polygon')).map(rect),
    badges: Array.from(svg.querySelectorAll('.symbol')).map(rect),
  };
}"""


@pytest.fixture(scope="module")
def board_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()

    def measure(board: str, width: int) -> dict:
        page.set_content(PAGE.format(width=width, board=board))
        return page.evaluate(MEASURE_JS)

    yield measure
    context.close()


def stepped(w, steps: int):
    for _ in range(steps):
        if w.session.state.is_terminal():
            break
        w.step_button.click()
    return w


def overlapping(texts: list[dict], pad: float = 0.5) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            (l1, t1, r1, b1), (l2, t2, r2, b2) = a["box"], b["box"]
            if l1 + pad < r2 and l2 + pad < r1 and t1 + pad < b2 and t2 + pad < b1:
                found.append((a["text"], b["text"]))
    return found


@pytest.mark.parametrize(
    "make",
    [
        lambda: BusAndStopWidget(players=4, humans=(), seed=3),
        lambda: BusCityWidget(players=3, humans=(), seed=1),
        lambda: BusCityWidget(players=2, humans=(), seed=2, challenging=True),
    ],
    ids=["bus_and_stop", "bus_city", "bus_city_2_challenging"],
)
def test_board_text_is_at_least_11_px_and_never_overlaps(board_page, make):
    """In a 940 px output area the board is drawn unscaled, its smallest text is 11 px on screen,
    and no two texts overlap, early, mid-game and late."""
    w = make()
    for steps in (0, 30, 90, 200):
        stepped(w, steps)
        shown = board_page(w.board.value, 940)
        assert shown["scale"] == 1 and not shown["scrolls"]
        assert min(t["px"] for t in shown["texts"]) >= 11
        assert overlapping(shown["texts"]) == []


def test_bus_markers_leave_the_stop_badges_and_labels_readable(board_page):
    """BUS-START: the arrows of buses on a bus stop cover neither its STOP badge (nor any other
    symbol) nor any text."""
    w = BusCityWidget(players=3, humans=(), seed=1)
    buses = 0
    for steps in (6, 14, 20, 40):
        shown = board_page(stepped(w, steps).board.value, 940)
        buses += len(shown["buses"])
        for left, top, right, bottom in shown["buses"]:
            for l2, t2, r2, b2 in shown["badges"] + [t["box"] for t in shown["texts"] if not t["bus"]]:
                assert not (left < r2 and l2 < right and top < b2 and t2 < bottom)
    assert buses >= 6
    assert len(shown["badges"]) == 3 + 1 + 6  # STOP, WORK and the destination circles all checked


@pytest.mark.parametrize("width", [700, 760])
def test_ride_the_bus_board_shrinks_to_a_narrow_output_area(board_page, width):
    """A 1024 px window with the file browser open leaves about 700-760 px: the board shrinks to
    fit (no sideways scrolling, the last bus card not cut off)."""
    w = stepped(RideTheBusWidget(players=4, humans=(), seed=2), 60)
    shown = board_page(w.board.value, width)
    assert not shown["scrolls"] and shown["width"] <= width
