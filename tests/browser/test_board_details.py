"""Small layout details of the boards, checked in headless Chromium with the real widgets
(``board_harness``): the scores table's headings read apart, the Ride the Bus pyramid's "▼ now"
marker sits with its own card (clear of the card above), and Busstop's passenger legend
(Ba, Ch, Gi, Sa, Gr …) is on screen on a phone.
"""

from __future__ import annotations

import pytest
from board_harness import BoardPage

from bus_lab.widgets import BusstopWidget, RideTheBusWidget

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

#: Each heading of the scores table: its text's box (not the cell's), the cell's box and borders.
HEADINGS_JS = """() => {
  const d = document.querySelector('.bl-scores'); d.open = true;
  return [...d.querySelectorAll('thead th')].map((th) => {
    const range = document.createRange(); range.selectNodeContents(th);
    const t = range.getBoundingClientRect(), c = th.getBoundingClientRect(), cs = getComputedStyle(th);
    return { text: th.textContent, textLeft: t.left, textRight: t.right, cellLeft: c.left, cellRight: c.right,
             borderLeft: parseFloat(cs.borderLeftWidth), borderRight: parseFloat(cs.borderRightWidth),
             borderBottom: parseFloat(cs.borderBottomWidth), background: cs.backgroundColor };
  });
}"""


@pytest.mark.parametrize("width", [1000, 360])
def test_the_scores_headings_read_apart(blank_page, width):
    """ "Points" and "Where the points came from" are separate headings: a line between the columns,
    at least 16 px between the texts, a shaded heading row ruled off from the rows."""
    blank_page.set_viewport_size({"width": width, "height": 900})
    w = RideTheBusWidget(players=3, humans=(), seed=5)
    w.session.run_to_end()
    w.refresh()
    BoardPage(blank_page, w)
    heads = blank_page.evaluate(HEADINGS_JS)
    assert [h["text"] for h in heads] == ["Seat", "Points", "Where the points came from"]
    for left, right in zip(heads, heads[1:]):
        assert right["textLeft"] - left["textRight"] >= 16, (left, right)
        assert left["borderRight"] >= 1 or right["borderLeft"] >= 1, (left, right)
    assert all(h["borderBottom"] >= 2 and h["background"] != "rgba(0, 0, 0, 0)" for h in heads), heads
    assert blank_page.evaluate("() => document.documentElement.scrollWidth") <= width


#: The "▼ now" marker of the pyramid, the card under it and the lowest card bottom of the row above.
NOW_MARK_JS = """() => {
  for (const a of document.getAnimations()) a.finish();
  const mark = [...document.querySelectorAll('.rtb-cell-mark')].find((e) => e.textContent.includes('now'));
  const range = document.createRange(); range.selectNodeContents(mark);
  const m = range.getBoundingClientRect();
  const own = mark.parentElement.querySelector('.rtb-card').getBoundingClientRect();
  const above = mark.closest('.rtb-prow').previousElementSibling;
  const bottoms = [...above.querySelectorAll('.rtb-card')].map((c) => {
    const r = c.getBoundingClientRect(), cs = getComputedStyle(c);
    const ring = cs.outlineStyle === 'none' ? 0 : parseFloat(cs.outlineWidth) + parseFloat(cs.outlineOffset);
    return r.bottom + ring;
  });
  return { markTop: m.top, markBottom: m.bottom, ownTop: own.top, aboveBottom: Math.max(...bottoms) };
}"""


@pytest.mark.parametrize("width", [1000, 360])
def test_the_pyramids_now_marker_sits_on_its_own_card_clear_of_the_card_above(blank_page, width):
    """RTB-P: the card being played in the pyramid has "▼ now" over it; the marker's text keeps at
    least 8 px from the row above and is nearer its own card than the card above."""
    blank_page.set_viewport_size({"width": width, "height": 900})
    w = RideTheBusWidget(players=3, humans=(), seed=5, board="pyramid")

    def now_shown() -> bool:
        view = w.frame.get("view") or {}
        pyramid = view.get("pyramid") or []
        # a current card in rows 2-4, so that there is a row above it
        return view.get("phase") == "pyramid" and any(p.get("current") for p in pyramid[4:])

    for _ in range(500):
        if now_shown():
            break
        w.session.step()
        w.refresh()
    assert now_shown(), "no pyramid card in play above row 1"
    BoardPage(blank_page, w)
    gaps = blank_page.evaluate(NOW_MARK_JS)
    clear_above = gaps["markTop"] - gaps["aboveBottom"]
    to_own = gaps["ownTop"] - gaps["markBottom"]
    assert clear_above >= 8, gaps
    assert 0 <= to_own < clear_above, gaps


#: Where each chip of Busstop's legend is drawn, and whether it is the element seen at its centre.
LEGEND_JS = """() => {
  const legend = document.querySelector('.bsb-legend');
  const chips = [...legend.children].map((chip) => {
    chip.scrollIntoView({ block: 'center' });
    const r = chip.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { text: chip.textContent, left: r.left, right: r.right, width: r.width, height: r.height,
             seen: hit !== null && chip.contains(hit),
             size: parseFloat(getComputedStyle(chip.querySelector('.bsb-p')).fontSize) };
  });
  return { visible: legend.checkVisibility(), chips };
}"""


def test_busstops_passenger_legend_is_on_screen_on_a_phone(blank_page):
    """360×740: the legend naming the tokens (Ba baby, Ch child, Gi girl, Sa salaryman, Gr granny,
    VIP, alien, a player's tile) is shown, every chip inside the screen's width, not covered, its
    token at 11 px or more."""
    blank_page.set_viewport_size({"width": 360, "height": 740})
    w = BusstopWidget(players=3, humans=(0,), seed=1)
    BoardPage(blank_page, w)
    legend = blank_page.evaluate(LEGEND_JS)
    assert legend["visible"]
    texts = [c["text"] for c in legend["chips"]]
    for code, word in [
        ("Ba", "baby"),
        ("Ch", "child"),
        ("Gi", "girl"),
        ("Sa", "salaryman"),
        ("Gr", "granny"),
    ]:
        assert any(t.startswith(code) and word in t for t in texts), (code, texts)
    for chip in legend["chips"]:
        assert chip["width"] > 0 and chip["height"] > 0 and chip["seen"], chip
        assert 0 <= chip["left"] and chip["right"] <= 360, chip
        assert chip["size"] >= 11, chip
