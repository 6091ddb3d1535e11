"""Bus & Stop played on the real board in Chromium: every human move is a tap on the board or a
choice button, bots and draws are Step clicks; the board fits the screen at 1366×768 and 1024×768
and reflows on a 360 px phone.

Run: ``PYTHONPATH=$PWD python -m pytest -p no:xdist -o addopts= tests/browser/test_board_bus_and_stop.py``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from board_checks import LOW_CONTRAST_JS
from board_harness import BoardPage, assert_moves_drawn

from bus_lab.widgets import BusAndStopWidget

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

SCREENS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"

#: Every option set: players 2-4, both final rounds, leftover penalty on and off.
TABLES = [
    dict(players=2),
    dict(players=3, final_round="full_turn"),
    dict(players=4, leftover_penalty=True),
    dict(players=4, final_round="full_turn", leftover_penalty=True),
]

IN_VIEW_JS = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
})"""


def target(key: str) -> str:
    return f'[data-target="{key}"]'


def check_targets_drawn(bp: BoardPage) -> None:
    """Every legal move's path keys are drawn as board targets, and its first one can be tapped."""
    assert_moves_drawn(bp.page, bp.frame["moves"])


def tap_move(bp: BoardPage, move: dict) -> None:
    """Make ``move`` as a person does: tap its target (unless the board already selected it), then
    its choice button if it has one; a move without a target is a choice button beside the board."""
    page = bp.page
    before = bp.frame["seq"]
    if move["path"]:
        key = move["path"][0]
        if page.locator(target(key) + ".bl-selected").count() == 0:
            bp.click(target(key))
        if move["choice"] is not None:
            bp.click(f'.bl-choice[data-action="{move["action"]}"]')
    else:
        bp.click(f'.bl-choice[data-action="{move["action"]}"]')
    assert bp.frame["seq"] != before and bp.widget.last_error is None, bp.widget.message_text


def play_to_the_end(bp: BoardPage, seed: int, at_turn=None) -> set[str]:
    """Play the widget's game to the end through the page; returns the move kinds the human made."""
    w = bp.widget
    rng = random.Random(seed)
    made = set()
    for _ in range(5000):
        state = w.session.state
        if state.is_terminal():
            break
        if w.session.waiting_for_human():
            check_targets_drawn(bp)
            if at_turn is not None:
                at_turn(bp)
            moves = bp.frame["moves"]
            drops = [m for m in moves if m["kind"] == "drop_off"]
            move = rng.choice(drops if drops and rng.random() < 0.7 else moves)
            tap_move(bp, move)
            made.add(move["kind"])
        else:
            bp.click('[data-control="step"]')
            assert w.last_error is None, w.message_text
    assert w.session.state.is_terminal()
    return made


@pytest.mark.parametrize("options", TABLES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_a_whole_game_is_played_by_tapping_the_board(blank_page, options):
    """BAS-TURN … BAS-WIN: seat 0 plays every move by tapping a stop colour, a stack and a count, a
    passenger in its bus, or a choice; bots and draws are Step clicks; the page shows the result."""
    w = BusAndStopWidget(humans=(0,), seed=TABLES.index(options) + 11, **options)
    bp = BoardPage(blank_page, w)
    made = play_to_the_end(bp, seed=len(options))
    assert {"pick_up", "drop_off"} <= made, made  # passengers to choose come up only when not forced
    state = w.session.state
    shown = blank_page.locator(".bl-scores tbody tr").evaluate_all(
        "rows => rows.map(r => Number(r.dataset.points))"
    )
    assert shown == state.returns()
    assert "Game over" in blank_page.locator(".bl-heading").inner_text()
    assert blank_page.locator('[data-control="step"]').is_disabled()


def test_the_board_fits_and_reflows_with_four_players(blank_page):
    """At 1366×768 and 1024×768 with four players the board, the choices and the Step button are all
    on screen without scrolling; on a 360×740 phone nothing is wider than the screen. Passengers
    read as colour letter + type letter. Screenshots go to test-artifacts/screens/."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    w = BusAndStopWidget(players=4, humans=(0,), seed=21)
    bp = BoardPage(blank_page, w)
    page = blank_page
    checked = {"fit": 0}

    def at_turn(bp: BoardPage) -> None:
        drops = [m for m in bp.frame["moves"] if m["kind"] == "drop_off"]
        if not drops or checked["fit"] >= 3:
            return
        key = drops[-1]["path"][0]
        if page.locator(target(key) + ".bl-selected").count() == 0:
            bp.click(target(key))  # the count buttons show beside the stack
        assert page.locator(".bl-choice").count() == len([m for m in drops if m["path"][0] == key])
        for width in (1366, 1024):
            page.set_viewport_size({"width": width, "height": 768})
            page.wait_for_timeout(50)
            for sel in (".bl-board", ".bl-choice", '[data-control="step"]'):
                assert all(page.evaluate(IN_VIEW_JS, sel)), (width, sel)
            assert page.evaluate(LOW_CONTRAST_JS) == []
            # the board does not scroll inside itself either
            assert page.evaluate(
                "() => { const b = document.querySelector('.bl-board'); "
                "return b.scrollHeight <= b.clientHeight + 1 && b.scrollWidth <= b.clientWidth + 1; }"
            )
            if checked["fit"] == 1:
                page.screenshot(path=str(SCREENS / f"bus_and_stop-{width}.png"))
        if checked["fit"] == 1:
            page.set_viewport_size({"width": 360, "height": 740})
            page.wait_for_timeout(50)
            assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
            assert page.locator(".bl-choice").count() >= 1
            page.screenshot(path=str(SCREENS / "bus_and_stop-360.png"), full_page=True)
        page.set_viewport_size({"width": 1366, "height": 768})
        page.locator(".bl-cancel").click()  # back to the whole choice of moves
        checked["fit"] += 1

    play_to_the_end(bp, seed=5, at_turn=at_turn)
    assert checked["fit"] == 3
    view = w.frame["view"]
    chips = page.locator(".bas-chip").all_inner_texts()
    codes = {c["code"].lower() for c in view["colours"]}
    types = {t["code"] for t in view["types"]}
    assert chips and all(len(c) == 2 and c[0] in codes and c[1] in types for c in chips), chips


def test_the_board_is_played_with_the_keyboard(blank_page):
    """BAS-PICK-ALL, BAS-DROP-TOP: Tab reaches a legal target, the arrow keys move among the targets,
    Enter on a stop colour picks it up; Enter on a stack shows its count buttons beside it."""
    w = BusAndStopWidget(players=2, humans=(0,), deck=["YB", "GT", "BM", "PS", "RB"])
    w.session.run_to_end()
    w.refresh()
    bp = BoardPage(blank_page, w)
    page = blank_page
    page.locator('[data-target="stop:yellow"]').focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.target") == "stop:green"
    assert bp.press("Enter") == 1  # one move sent and played
    assert w.session.state.bus[0][w.session.state.sheet.parse("GT")] == 1
    while not w.session.waiting_for_human():
        bp.click('[data-control="step"]')
    drops = [m for m in w.frame["moves"] if m["kind"] == "drop_off"]
    assert drops == []  # one tennis player is not enough for any card: every stack says why
    assert "BAS-DROP-TYPE" in page.locator('[data-target="stack:tennis court"]').get_attribute("title")
    assert page.locator('[data-target="stack:tennis court"]').get_attribute("aria-disabled") == "true"
    state = w.session.state
    for code in ("YT", "RT"):  # two more tennis players come aboard (taken from the deck)
        k = state.sheet.parse(code)
        state.deck[k] -= 1
        state.bus[0][k] += 1
    w.refresh()
    bp.push()
    page.locator('[data-target="stack:tennis court"]').focus()
    assert bp.press("Enter") == 0  # a stack only selects: its count button shows beside it
    buttons = page.locator(".bas-slot .bl-choice")
    assert buttons.all_inner_texts()[0].startswith("2 passengers")  # top card 2/4/6: three players
    assert page.evaluate("() => document.activeElement.classList.contains('bl-choice')")
    assert bp.press("Enter") == 1
    assert w.session.state.phase().value == "choose" and w.frame["moves"][0]["path"][0].startswith("bus:0:")
