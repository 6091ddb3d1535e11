"""Busstop played on the real board in Chromium (``board_harness``: no Jupyter).

Whole games, one person and bidder bots, every table size with each option on and off: each
move of the person is made by clicking its targets on the board (a tile in the hand, a tile on
the zone, a passenger then a bus or the queue) or the choice beside them ("Stop boarding"); Step
plays the bots and turns up passengers. At every turn of the person each legal move's targets are
on the page. Mid-game with five players, the board, the choices and Step fit a 1366×768 and a
1024×768 window, and the board reflows on a 360 px phone; screenshots go to
``test-artifacts/screens/busstop-<width>.png``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from board_checks import LOW_CONTRAST_JS
from board_harness import BoardPage, assert_moves_drawn

from bus_lab.widgets import BusstopWidget

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
TABLES = [
    dict(players=2, passenger_bonus=True, end_bonus=False),
    dict(players=3, passenger_bonus=False, end_bonus=True),
    dict(players=4, passenger_bonus=False, end_bonus=False),
    dict(players=5, passenger_bonus=True, end_bonus=True),
]

IN_VIEW = """sel => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, left: r.left, bottom: r.bottom, right: r.right, w: innerWidth, h: innerHeight};
}"""


#: The smallest font size (px) of any text on the board.
SMALLEST_TEXT_JS = """() => Math.min(...[...document.querySelectorAll('.bl-board *')]
  .filter((el) => el.tagName !== 'STYLE' && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
  .map((el) => parseFloat(getComputedStyle(el).fontSize)))"""


def click_move(bp: BoardPage, move: dict) -> None:
    """Make ``move`` as a person does: click each target of its path (one the board already
    selected stays selected), then its choice button if it has one."""
    page = bp.page
    seq = bp.frame["seq"]
    for key in move["path"]:
        target = page.locator(f'[data-target="{key}"]').first
        if "bl-selected" in (target.get_attribute("class") or "").split():
            continue
        bp.click(f'[data-target="{key}"]')
    if move["choice"] is not None:
        bp.click(f'.bl-choice[data-action="{move["action"]}"]')
    assert bp.frame["seq"] != seq, f"the board did not play {move['label']}"
    assert bp.widget.last_error is None, bp.widget.message_text


def inside(box: dict | None) -> bool:
    return (
        box is not None
        and box["top"] >= 0
        and box["left"] >= 0
        and box["bottom"] <= box["h"]
        and (box["right"] <= box["w"])
    )


def screens_and_fit(bp: BoardPage, move: dict) -> None:
    """With a passenger selected (the buses to tap and Cancel showing): the board, the choices and
    Step inside 1366×768 and 1024×768, nothing scrolled inside the board; a 360 px phone never
    scrolls sideways. Screenshots of each."""
    page = bp.page
    first = page.locator(f'[data-target="{move["path"][0]}"]').first
    if "bl-selected" not in (first.get_attribute("class") or "").split():
        bp.click(f'[data-target="{move["path"][0]}"]')
    assert page.locator(".bl-choices .bl-cancel").count() == 1
    SCREENS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1366, 768), (1024, 768), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)  # the resize observer redraws
        page.screenshot(path=str(SCREENS / f"busstop-{width}.png"), full_page=width == 360)
        if width == 360:
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            continue
        for sel in (".bl-board", ".bl-choices", '[data-control="step"]'):
            assert inside(page.evaluate(IN_VIEW, sel)), (width, sel, page.evaluate(IN_VIEW, sel))
        board = page.evaluate(
            "() => { const b = document.querySelector('.bl-board'); return [b.scrollHeight, b.clientHeight]; }"
        )
        assert board[0] <= board[1] + 1, (width, board)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.wait_for_timeout(150)


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{t['players']}p")
def test_a_whole_game_played_by_clicking_the_board(blank_page, table):
    """BSB-ROUND-BID … BSB-WIN: seat 0 plays every move on the board; the game ends and the points
    on the page are the engine's."""
    w = BusstopWidget(humans=(0,), seed=table["players"] + 10, **table)
    bp = BoardPage(blank_page, w)
    rng = random.Random(table["players"])
    kinds, shot = set(), False
    for _ in range(3000):
        state = w.session.state
        if state.is_terminal():
            break
        moves = bp.frame["moves"]
        if not moves:
            bp.click('[data-control="step"]')
            continue
        assert_moves_drawn(blank_page, moves)
        assert blank_page.evaluate(LOW_CONTRAST_JS) == []
        assert blank_page.evaluate(SMALLEST_TEXT_JS) >= 11
        move = rng.choice(moves)
        if table["players"] == 5 and not shot and state.round >= 4 and move["kind"] == "place":
            screens_and_fit(bp, move)
            shot = True
        kinds.add(move["kind"])
        if move["kind"] == "place":  # the passenger keeps its identity and moves to the bus or queue
            # Its id, and the ids of any identical passengers also waiting to be placed: when two
            # like passengers wait, the one left behind may keep the first place's id (they look
            # the same), and the other moves.
            token = blank_page.locator(f'[data-target="{move["path"][0]}"] [data-anim]')
            words = token.get_attribute("aria-label")
            anims = blank_page.eval_on_selector_all(
                '[data-target^="passenger:"] [data-anim]',
                "(els, words) => els.filter(e => e.getAttribute('aria-label') === words)"
                ".map(e => e.getAttribute('data-anim'))",
                words,
            )
            anim = token.get_attribute("data-anim")
            assert anim in anims
            click_move(bp, move)
            landed = any(
                blank_page.locator(f'[data-target="{move["path"][1]}"] [data-anim="{a}"]').count() == 1
                for a in anims
            )
            assert landed or "leaves" in move["hint"], (move, anims)
            if landed:  # it moved there (a bus that fills and leaves takes it off the board)
                assert int(blank_page.locator(".bl-root").get_attribute("data-moved")) >= 1, move
            continue
        click_move(bp, move)
    assert w.session.state.is_terminal()
    assert kinds == {"bid", "white", "place", "board"} or table["players"] != 5
    assert "bid" in kinds and "place" in kinds
    points = blank_page.eval_on_selector_all(".bl-seat b", "els => els.map(e => Number(e.textContent))")
    assert points == w.session.state.returns()
    assert "[BSB-WIN]" in blank_page.inner_text(".bl-heading")
    if table["players"] == 5:
        assert shot


def test_a_bid_is_made_with_the_keyboard(blank_page):
    """BSB-ROUND-BID: Tab reaches the hand, an arrow moves to the next tile, Enter plays it; each
    tile has an accessible name with its number and sort."""
    w = BusstopWidget(players=3, humans=(0,), seed=1, deck=["Gi", "Gi", "ET"])
    bp = BoardPage(blank_page, w)
    while not w.frame["moves"]:
        bp.click('[data-control="step"]')
    assert blank_page.get_attribute('[data-target="tile:1"]', "aria-label") == "Tile 1 (baby)"
    for _ in range(40):  # Tab until the board's roving target has focus
        blank_page.keyboard.press("Tab")
        if blank_page.evaluate("() => document.activeElement.dataset.target || ''"):
            break
    assert blank_page.evaluate("() => document.activeElement.dataset.target") == "tile:1"
    bp.press("ArrowRight")
    assert blank_page.evaluate("() => document.activeElement.dataset.target") == "tile:2"
    bp.press("Enter")
    assert w.session.state.bids[0] == 2 and w.last_error is None
