"""What a screen reader and a keyboard find on the board page, in real Chromium (no Jupyter).

Each game's board is drawn by the real ES module and style sheet (``board_harness``) in several
states (fresh, a person's turn with a target selected and its choice buttons shown, a card to pick
by hand, the end) and the DOM is checked: every button, text box, list box and board target inside
``.bl-root`` has an accessible name with words in it (its ``aria-label``, the text its
``aria-labelledby`` points to, its ``<label>``, its own text or its ``title``); the status line is
a polite live region; the event log can be reached with Tab; the scores table has a caption and a
row header per seat; Auto-play says whether it is on (``aria-pressed``).
"""

from __future__ import annotations

import pytest
from board_harness import BoardPage

import bus_lab
from bus_lab import Session, load_game
from bus_lab.widgets.base import GameWidget

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

#: Every control and target in the board page, with its accessible name (computed as Chromium's
#: accessible-name rules do for these elements, in short).
NAMES_JS = """() => {
  const root = document.querySelector('.bl-root');
  const text = (el) => (el ? el.textContent : '').replace(/\\s+/g, ' ').trim();
  const nameOf = (el) => {
    const label = (el.getAttribute('aria-label') || '').trim();
    if (label) return label;
    const by = el.getAttribute('aria-labelledby');
    if (by) {
      const t = by.split(/\\s+/).map((id) => text(document.getElementById(id))).join(' ').trim();
      if (t) return t;
    }
    if (el.labels && el.labels.length) {
      const t = Array.from(el.labels).map(text).join(' ').trim();
      if (t) return t;
    }
    if (el.tagName === 'BUTTON' || el.getAttribute('role') === 'button') {
      const t = text(el);
      if (t) return t;
    }
    return (el.getAttribute('title') || '').trim();
  };
  const found = root.querySelectorAll('button, input, select, textarea, [role=button], [data-target]');
  return Array.from(found).map((el) => ({
    html: el.outerHTML.slice(0, 160),
    name: nameOf(el),
  }));
}"""

#: The status line, the log box, the scores table and Auto-play, as the page has them.
PARTS_JS = """() => {
  const root = document.querySelector('.bl-root');
  const status = root.querySelector('.bl-status');
  const logbox = root.querySelector('.bl-logbox');
  const table = root.querySelector('.bl-scores table');
  const auto = root.querySelector('[data-control=autoplay]');
  return {
    statuses: root.querySelectorAll('[role=status]').length,
    role: status.getAttribute('role'), live: status.getAttribute('aria-live'),
    statusText: status.textContent.trim(),
    logTabindex: logbox ? logbox.getAttribute('tabindex') : null,
    logName: logbox ? logbox.getAttribute('aria-label') : null,
    caption: table && table.caption ? table.caption.textContent.trim() : '',
    rowHeaders: table ? Array.from(table.querySelectorAll('tbody tr')).map(
      (tr) => { const th = tr.querySelector('th[scope=row]'); return th ? th.textContent.trim() : ''; }) : [],
    colHeaders: table ? table.querySelectorAll('thead th[scope=col]').length : 0,
    autoPressed: auto ? auto.getAttribute('aria-pressed') : null,
  };
}"""


def unnamed(bp: BoardPage) -> list[str]:
    """The controls and targets on the page with no words in their accessible name."""
    found = bp.page.evaluate(NAMES_JS)
    assert found, "no controls found on the page"
    return [c["html"] for c in found if not any(ch.isalpha() for ch in c["name"])]


def check_page(bp: BoardPage, where: str) -> None:
    assert unnamed(bp) == [], where
    parts = bp.page.evaluate(PARTS_JS)
    frame = bp.frame
    assert parts["statuses"] == 1 and (parts["role"], parts["live"]) == ("status", "polite"), where
    assert frame["status"]["now"] in " ".join(parts["statusText"].split()), where
    assert (parts["logTabindex"], parts["logName"]) == ("0", "Event log"), where
    assert parts["caption"] == frame["scores"]["caption"] and parts["caption"], where
    names = [row["name"] for row in frame["scores"]["rows"]]
    assert [h.removesuffix(" ★ winner") for h in parts["rowHeaders"]] == names, where
    assert parts["colHeaders"] == len(frame["scores"]["columns"]), where
    assert parts["autoPressed"] == ("true" if frame["controls"]["autoplay"] else "false"), where


def widget(game: str, humans: tuple[int, ...], seed: int, **kwargs) -> GameWidget:
    bots = {s: "random" for s in range(3) if s not in humans}
    return GameWidget(Session(load_game(game, players=3), seed=seed, bots=bots), **kwargs)


@pytest.mark.parametrize("game", bus_lab.registered_games())
def test_every_control_and_target_has_a_name(blank_page, game):
    w = widget(game, humans=(0,), seed=2)
    bp = BoardPage(blank_page, w)
    check_page(bp, "fresh")

    # A person's turn: the board's targets and the choices beside them.
    while not w.session.waiting_for_human():
        bp.click('[data-control="step"]')
    check_page(bp, "a person's turn")
    paths = [m["path"] for m in w.frame["moves"] if m["path"]]
    first = f'[data-target="{paths[0][0]}"]' if paths else None
    if first and blank_page.locator(first + ".bl-selected").count() == 0:
        bp.click(first)  # select the first target of a move: its choices (and Cancel) appear
        check_page(bp, "a target selected")
    assert blank_page.locator(".bl-root .bl-choice, .bl-root [data-target]").count() > 0

    # Auto-play on, then the end of a bots-only game, as seat 1.
    bots = widget(game, humans=(), seed=3)
    bp = BoardPage(blank_page, bots)
    bp.click('[data-control="autoplay"]')
    assert bots.autoplay
    check_page(bp, "auto-play on")
    bots.set_autoplay(False)
    bots.session.run_to_end()
    bots.set_viewer(1)
    bp.push()
    check_page(bp, "the end, as seat 1")


def test_the_card_to_deal_box_has_a_name(blank_page):
    """With cards picked by hand, the list of cards and its Deal button are named."""
    w = widget("ride_the_bus", humans=(0,), seed=4, pick_cards=True)
    w.play(w.session.state.legal_moves()[0])
    assert w.session.state.is_chance_node() and w.frame["deal"]
    bp = BoardPage(blank_page, w)
    assert blank_page.locator(".bl-deal select").count() == 1
    check_page(bp, "a card to deal")


def test_the_log_is_reached_with_tab(blank_page):
    """Keyboard users reach the (opened) event log with Tab, so they can scroll it with arrows."""
    w = widget("bus_and_stop", humans=(), seed=5)
    for _ in range(5):
        w.step()
    bp = BoardPage(blank_page, w)
    blank_page.locator(".bl-log summary").click()
    blank_page.locator(".bl-log summary").focus()
    blank_page.keyboard.press("Tab")
    assert blank_page.evaluate("() => document.activeElement.classList.contains('bl-logbox')")
    assert bp.pump() == 1  # opening the log asks for its entries, and nothing else
    assert blank_page.locator(".bl-logbox li").count() == len(w.frame["log"]["events"]) > 0
    blank_page.locator(".bl-logbox").focus()
    bp.push()  # a new frame keeps the reader's place in the log
    assert blank_page.evaluate("() => document.activeElement.classList.contains('bl-logbox')")
    assert bp.pump() == 0  # reading the log sends nothing


def test_the_name_check_catches_unnamed_controls(blank_page):
    """An icon button, a bare box and a target without a name are each caught; a labelled one is not."""
    bp = BoardPage(blank_page, widget("busstop", humans=(), seed=6))
    assert unnamed(bp) == []
    blank_page.evaluate(
        """() => {
      const root = document.querySelector('.bl-root');
      root.insertAdjacentHTML('beforeend',
        '<button id="x1">▶</button><input id="x2"><div id="x3" data-target="tile:1" role="button"></div>' +
        '<label>Seats <select id="ok"></select></label>');
    }"""
    )
    assert [html[:10] for html in unnamed(bp)] == ["<button id", "<input id=", '<div id="x']


#: What has the keyboard focus: a control's name, "choice", "target:<key>" or the element's class.
FOCUSED_JS = """() => { const a = document.activeElement;
  if (a.dataset.control) return a.dataset.control;
  if (a.classList.contains('bl-choice')) return 'choice';
  return a.dataset.target !== undefined ? 'target:' + a.dataset.target : a.className; }"""


@pytest.mark.parametrize("control", ["step", "forward"])
def test_reaching_the_end_of_the_timeline_leaves_focus_on_the_timeline_not_back(blank_page, control):
    """Enter on Step (or Forward) that reaches the last step disables it: focus goes to the
    timeline, where another Enter changes nothing; never to Back, where it would quietly rewind."""
    w = widget("ride_the_bus", humans=(), seed=6)
    w.session.run_to_end()
    w.refresh()
    bp = BoardPage(blank_page, w)
    end = blank_page.input_value('[data-control="timeline"]')
    for _ in range(2):
        assert bp.click('[data-control="back"]') == 1
    assert blank_page.input_value('[data-control="timeline"]') == str(int(end) - 2)
    blank_page.locator(f'[data-control="{control}"]').focus()
    while blank_page.input_value('[data-control="timeline"]') != end:
        assert blank_page.evaluate(FOCUSED_JS) == control
        assert bp.press("Enter") == 1
    assert blank_page.evaluate(FOCUSED_JS) == "timeline"
    assert bp.press("Enter") == 0 and blank_page.input_value('[data-control="timeline"]') == end


def test_after_a_move_focus_goes_to_the_next_place_to_play(blank_page):
    """Two people at one board: after the first plays a place with Enter, focus is on a place the
    next one can play (Tab would enter the board there too), not on a control."""
    w = widget("bus_and_stop", humans=(0, 1, 2), seed=7)
    bp = BoardPage(blank_page, w)
    checked = drop_offs = 0
    while drop_offs < 2:  # a drop-off (a stack, then its choices) leaves that stack unplayable
        assert len(w.session.state.history()) < 200, "no drop-offs in this game"
        while not w.session.waiting_for_human():  # the deal
            bp.click('[data-control="step"]')
        legal = blank_page.locator(".bl-board [data-target].bl-legal")
        assert legal.count() > 0, w.frame["status"]
        stacks = blank_page.locator(".bl-board [data-target^='stack:'].bl-legal")
        drop_offs += stacks.count() > 0
        before = len(w.session.state.history())
        (stacks if stacks.count() else legal).first.focus()
        while len(w.session.state.history()) == before:  # a place, then its choice if it has one
            bp.press("Enter")
        bp.settle()
        focused = blank_page.evaluate(FOCUSED_JS)
        if w.session.waiting_for_human() and any(m["path"] for m in w.frame["moves"]):
            assert focused.startswith(("target:", "choice")), focused
            if focused.startswith("target:"):
                key = focused.removeprefix("target:")
                assert blank_page.locator(f'[data-target="{key}"].bl-legal').count() > 0, key
            checked += 1
    assert checked >= 2
