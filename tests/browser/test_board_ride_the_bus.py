"""Ride the Bus played on the real board in Chromium (no Jupyter): ``BoardPage`` loads the shipped
ES module and style sheet in a blank page and hands every message the page sends to a real
:class:`~bus_lab.widgets.RideTheBusWidget`.

Every person's move is made by clicking the board as a person would: a give on the taker's row
(``[data-target="seat:N"]``), an answer on its button beside the next card (``.bl-choice``); bots
and draws go on with the Step button. At each person's turn every legal move's path must be drawn
as ``[data-target]`` elements. With 8 players the board, the answers and Step fit a 1366×768 and a
1024×768 window without scrolling, text stays at 11 px or more, and the board reflows on a 360 px
phone without sideways scrolling. Screenshots go to ``test-artifacts/screens/ride_the_bus-<width>.png``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from board_harness import BoardPage

from bus_lab.widgets import RideTheBusWidget

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"

TARGETS_JS = "() => [...document.querySelectorAll('[data-target]')].map((e) => e.dataset.target)"

#: Where the board, the answer buttons and Step are on screen, whether anything scrolls, and the
#: smallest text size on the board (px), once the motion of the last move is over.
FIT_JS = """() => {
  for (const a of document.getAnimations()) a.finish();  // measure where things end up, not mid-motion
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const board = document.querySelector('.bl-board');
  const sizes = [];
  for (const el of board.querySelectorAll('*')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (own && el.getClientRects().length) sizes.push(parseFloat(getComputedStyle(el).fontSize));
  }
  return {
    vw: window.innerWidth, vh: window.innerHeight,
    pageScrolls: document.documentElement.scrollHeight > window.innerHeight + 1
      || document.documentElement.scrollWidth > window.innerWidth + 1,
    boardScrolls: board.scrollHeight > board.clientHeight + 1 || board.scrollWidth > board.clientWidth + 1,
    board: box(board),
    choices: [...document.querySelectorAll('.bl-choice')].map(box),
    step: box(document.querySelector('[data-control="step"]')),
    smallest: Math.min(...sizes),
  };
}"""

#: Every text on the board: its contrast ratio against the background it sits on (WCAG formula;
#: the first opaque background up the tree), and every target's accessible name.
CONTRAST_JS = """() => {
  for (const a of document.getAnimations()) a.finish();
  const parse = (c) => { const p = c.match(/rgba?\\(([^)]+)\\)/)[1].split(',').map(Number);
                         return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const bgOf = (el) => { for (let e = el; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor); if (c[3] > 0) return c; } return [255, 255, 255, 1]; };
  const texts = [];
  for (const el of document.querySelectorAll('.bl-board *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getClientRects().length) continue;
    const [hi, lo] = [lum(parse(getComputedStyle(el).color)), lum(bgOf(el))].sort((x, y) => y - x);
    texts.push([(hi + 0.05) / (lo + 0.05), el.textContent.trim().slice(0, 30)]);
  }
  const names = [...document.querySelectorAll('.bl-board [data-target]')].map(
    (e) => [e.dataset.target, e.getAttribute('aria-label') || '']);
  return { texts, names };
}"""


def check_readable(page) -> None:
    """Every text on the board has contrast ≥ 4.5:1; every target has an accessible name."""
    found = page.evaluate(CONTRAST_JS)
    low = [(round(ratio, 2), text) for ratio, text in found["texts"] if ratio < 4.5]
    assert not low, low
    assert found["texts"] and all(name.strip() for _, name in found["names"]), found["names"]


def inside(rect: list[float], vw: float, vh: float) -> bool:
    left, top, right, bottom = rect
    return left >= 0 and top >= 0 and right <= vw + 0.5 and bottom <= vh + 0.5


def check_fit(page) -> dict:
    """The board box, every answer button and Step inside the window, nothing scrolled."""
    fit = page.evaluate(FIT_JS)
    vw, vh = fit["vw"], fit["vh"]
    assert inside(fit["board"], vw, vh), fit
    assert all(inside(c, vw, vh) for c in fit["choices"]), fit
    assert inside(fit["step"], vw, vh), fit
    assert not fit["boardScrolls"], fit
    assert fit["smallest"] >= 11, fit
    return fit


def make_move(bp: BoardPage, entry: dict) -> None:
    """Make the move ``entry`` (a frame move) by clicking its targets in order, then its choice
    button (a target already selected, such as the next card of a guess, is not clicked again)."""
    page = bp.page
    before = bp.widget.session.position
    for key in entry["path"]:
        target = page.locator(f'[data-target="{key}"]')
        assert target.count() == 1, key
        if target.get_attribute("aria-pressed") != "true":
            assert "bl-legal" in (target.get_attribute("class") or ""), key
            bp.click(f'[data-target="{key}"]')
    if entry["choice"] is not None:
        button = page.locator(f'.bl-choice[data-action="{entry["action"]}"]')
        assert button.count() == 1 and entry["choice"] in button.inner_text()
        # the answer sits beside the next card, not in the side panel
        assert page.locator(f'.bl-board .bl-choice[data-action="{entry["action"]}"]').count() == 1
        bp.click(f'.bl-choice[data-action="{entry["action"]}"]')
    assert bp.widget.last_error is None, bp.widget.message_text
    assert bp.widget.session.position == before + 1
    assert bp.widget.session.state.history()[-1] == entry["action"]


def play_by_clicking(bp: BoardPage, rng: random.Random, on_turn=None, limit: int = 5000) -> int:
    """Play to the end: a person's move by clicking it (chosen at random), else Step. At each
    person's turn every move's path is drawn as targets. Returns how many moves were clicked."""
    w = bp.widget
    clicked = steps = 0
    while not w.session.state.is_terminal():
        assert steps < limit, "the game did not end"
        frame = w.frame
        if frame["moves"]:
            drawn = set(bp.page.evaluate(TARGETS_JS))
            for entry in frame["moves"]:
                assert set(entry["path"]) <= drawn, (entry, sorted(drawn))
            if on_turn is not None:
                on_turn(frame)
            make_move(bp, rng.choice(frame["moves"]))
            clicked += 1
        else:
            assert bp.page.locator('[data-control="step"]').is_enabled()
            position = w.session.position
            assert bp.click('[data-control="step"]') == 1
            assert w.last_error is None and w.session.position == position + 1, w.message_text
        steps += 1
    assert bp.page.locator('[data-control="step"]').is_disabled()
    return clicked


GAMES = [
    dict(board="pyramid", bus="higher_lower"),
    dict(board="give_and_take", bus="questions"),
    dict(board="give_and_take", bus="higher_lower", row_points="flat", streak=3),
    dict(board="pyramid", bus="questions"),
    dict(mode="gauntlet"),
]


@pytest.mark.parametrize("options", GAMES, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_a_whole_game_is_played_by_clicking_the_board(blank_page, options):
    """One person (seat 0) and three bots, to the end, every move clicked on the board; the
    result shown is the engine's (RTB-SCORE-LOW, or RTB-SG-WIN in the gauntlet)."""
    w = RideTheBusWidget(players=4, humans=(0,), seed=5, **options)
    bp = BoardPage(blank_page, w)
    kinds = set()
    clicked = play_by_clicking(bp, random.Random(2), on_turn=lambda f: kinds.add(f["moves"][0]["kind"]))
    assert clicked >= 4 and "guess" in kinds  # seat 0 answered the four questions at least
    state = w.session.state
    shown = blank_page.locator(".bl-result").get_attribute("data-winners")
    assert shown == ",".join(str(s) for s in state.winners())
    points = [
        int(p)
        for p in blank_page.locator(".bl-scores tr[data-seat]").evaluate_all(
            "rows => rows.map((r) => r.dataset.points)"
        )
    ]
    assert points == state.returns()
    for seat in state.winners():  # the winners' rows carry a star (not colour alone)
        assert "★" in blank_page.locator(f'[data-target="seat:{seat}"]').inner_text()


def test_a_give_is_a_tap_on_the_takers_row_and_the_givers_row_says_why_not(blank_page):
    """RTB-Q-RIGHT: 7♥ answers "red": seat 0 gives its point by tapping seat 2's row; its own
    row is blocked and says why on hover/focus."""
    w = RideTheBusWidget(players=3, humans=(0,), seed=1, deck=["7H"])
    bp = BoardPage(blank_page, w)
    red = next(m for m in w.frame["moves"] if m["label"] == "red")
    assert blank_page.locator('[data-target="card:next"]').get_attribute("aria-pressed") == "true"
    assert blank_page.locator(".bl-board .bl-choice").count() == 2
    assert "1/2 (50.0%)" in blank_page.locator(f'.bl-choice[data-action="{red["action"]}"]').inner_text()
    make_move(bp, red)
    bp.click('[data-control="step"]')  # 7♥ is dealt: right
    # the dealt card slides into the row from the next-card place (≤ 300 ms), not just fading in
    motion = blank_page.evaluate(
        """() => document.querySelector('.rtb-seat [data-card="7H"]').getAnimations().map((a) => {
             const t = a.effect.getTiming(); const k = a.effect.getKeyframes();
             return [t.duration, k[0].transform || ""]; })"""
    )
    assert len(motion) == 1 and motion[0][0] <= 300 and "translate(" in motion[0][1]
    own = blank_page.locator('[data-target="seat:0"]')
    assert "bl-blocked" in own.get_attribute("class") and own.get_attribute("aria-disabled") == "true"
    assert "another player" in own.get_attribute("title")
    assert "7" in own.inner_text() and "♥" in own.inner_text()
    taker = blank_page.locator('[data-target="seat:2"]')
    assert "bl-legal" in taker.get_attribute("class")
    assert taker.get_attribute("title") == "give to seat 2: Seat 2 takes 1 point: 0 → 1 (RTB-Q-RIGHT)"
    bp.click('[data-target="seat:2"]')
    assert w.session.state.points == [0, 0, 1] and w.last_error is None
    assert "1 point" in blank_page.locator('[data-target="seat:2"]').inner_text()


@pytest.mark.parametrize("width", [1366, 1024])
@pytest.mark.parametrize(
    "options",
    [dict(board="pyramid"), dict(board="give_and_take", bus="questions")],
    ids=["pyramid", "give_and_take"],
)
def test_eight_players_fit_the_window_without_scrolling(blank_page, width, options):
    """8 people at the table, a whole game clicked through: at every turn the board box, the
    answer buttons and Step are inside a ``width``×768 window, nothing scrolls (the page nor the
    board), no text on the board is under 11 px or under 4.5:1 contrast, and every target has an
    accessible name. A screenshot at the first bus guess."""
    blank_page.set_viewport_size({"width": width, "height": 768})
    w = RideTheBusWidget(players=8, humans=tuple(range(8)), seed=3, **options)
    bp = BoardPage(blank_page, w)
    seen = {"checks": 0, "shot": False}

    def on_turn(frame: dict) -> None:
        fit = check_fit(blank_page)
        assert not fit["pageScrolls"], fit
        check_readable(blank_page)
        seen["checks"] += 1
        if frame["view"]["phase"] == "bus" and not seen["shot"] and options["board"] == "pyramid":
            SCREENS.mkdir(parents=True, exist_ok=True)
            blank_page.screenshot(path=str(SCREENS / f"ride_the_bus-{width}.png"), animations="disabled")
            seen["shot"] = True

    play_by_clicking(bp, random.Random(width), on_turn=on_turn)
    assert seen["checks"] > 40 and (seen["shot"] or options["board"] != "pyramid")


@pytest.mark.parametrize(
    "options",
    [dict(), dict(board="give_and_take", bus="questions"), dict(mode="gauntlet")],
    ids=["pyramid", "give_and_take", "gauntlet"],
)
def test_the_board_reflows_on_a_phone(blank_page, options):
    """360×740: one column, nothing wider than the screen, text at 11 px or more, every move
    still made by tapping; a screenshot of the bus (classic) and of a ride (gauntlet)."""
    blank_page.set_viewport_size({"width": 360, "height": 740})
    w = RideTheBusWidget(players=6, humans=tuple(range(6)), seed=4, **options)
    bp = BoardPage(blank_page, w)
    shot = {"done": False}

    def on_turn(frame: dict) -> None:
        fit = blank_page.evaluate(FIT_JS)
        assert not fit["boardScrolls"] and fit["smallest"] >= 11, fit
        assert blank_page.evaluate("() => document.documentElement.scrollWidth") <= 360
        assert blank_page.locator(".rtb.rtb-one").count() == 1
        if frame["view"]["phase"] in ("bus", "rides") and not shot["done"] and "board" not in options:
            SCREENS.mkdir(parents=True, exist_ok=True)
            name = "ride_the_bus-gauntlet-360.png" if options else "ride_the_bus-360.png"
            blank_page.screenshot(path=str(SCREENS / name), full_page=True, animations="disabled")
            shot["done"] = True

    play_by_clicking(bp, random.Random(7), on_turn=on_turn)
    assert shot["done"] or "board" in options


def test_the_board_plays_from_the_keyboard(blank_page):
    """Enter on a focused answer plays it (RTB-Q1); at a give, the arrow keys move among the rows
    and Enter on a row hands the points to that seat (RTB-Q-RIGHT); Enter on the giver's own row
    plays nothing."""
    w = RideTheBusWidget(players=3, humans=(0, 1, 2), seed=1, deck=["7H"])
    bp = BoardPage(blank_page, w)
    red = next(m for m in w.frame["moves"] if m["label"] == "red")
    blank_page.focus(f'.bl-choice[data-action="{red["action"]}"]')
    assert bp.press("Enter") == 1 and w.session.state.history() == [red["action"]]
    bp.click('[data-control="step"]')  # 7♥: right, seat 0 hands out 1 point
    blank_page.focus('.bl-board [data-target][tabindex="0"]')
    seen = []
    for _ in range(3):
        key = blank_page.evaluate("() => document.activeElement.dataset.target")
        seen.append(key)
        if key == "seat:2":
            break
        bp.press("ArrowDown")
    assert seen[-1] == "seat:2" and set(seen) <= {"seat:0", "seat:1", "seat:2"}
    history = w.session.state.history()
    assert bp.press("Enter") == 1
    assert w.session.state.history() == history + [202] and w.session.state.points == [0, 0, 1]
