"""Playing the touchable board (``.bl-root``) in a real Jupyter page, as a person does.

Shared by the notebook tests, the per-app board tests and the benchmark. A person's next action on
a board is, in this order: the first legal target on the board (``[data-target].bl-legal``), else
the first choice button (``.bl-choice``, beside a target or in the side panel), else Step. That
works with a game's own drawer (moves made on the board) and with the default drawer (every move a
choice button). Each click is a real mouse click at the element's centre (checked to land on it),
then the helper waits until the board has answered: a new frame (the root's ``data-seq`` changes)
after anything that sends a message to the kernel.

Example::

    root = board_root(page, "busstop")
    play(page, root)                       # to the end of the game
    assert game_over(page, root)
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

#: The four games, in the order the lessons introduce them, with their widget classes.
GAME_WIDGETS = {
    "ride_the_bus": "RideTheBusWidget",
    "bus_and_stop": "BusAndStopWidget",
    "busstop": "BusstopWidget",
    "bus_city": "BusCityWidget",
}
#: A kernel round trip (click → new frame) slower than this fails.
ROUND_TRIP_MS = 30_000
#: A game longer than this many clicks is stuck (the longest 2-seat games take about 130).
MAX_ACTIONS = 600

ROOT = ".bl-root"


def board_root(game: str) -> str:
    """CSS selector of the board root drawing ``game`` (core sets ``data-game`` from the frame).

    Every helper below takes either a game's name or a CSS selector of one board root (starting
    with ``.`` or ``[``, e.g. ``'.bl-root[data-test-root="2"]'`` when a page has two boards of a game).
    """
    return f'{ROOT}[data-game="{game}"]'


def _sel(board: str) -> str:
    return board if board.startswith((".", "[")) else board_root(board)


#: What a person would click next on the board ``sel``, and where; the element gets
#: ``data-bl-next`` so a fallback locator can find it.
NEXT_FN = """(sel) => {
  const root = document.querySelector(sel);
  if (!root) return {kind: 'missing'};
  for (const el of document.querySelectorAll('[data-bl-next]')) el.removeAttribute('data-bl-next');
  const text = (q) => { const e = root.querySelector(q); return e ? e.textContent.trim() : ''; };
  const status = text('.bl-status');
  const info = {seq: root.dataset.seq, status, result: text('.bl-result'),
                error: root.querySelector('.bl-message.bl-error') ? text('.bl-message') : '',
                over: /game over/i.test(status) || /press new game for another/i.test(status)};
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const pick = [
    ['target', [...root.querySelectorAll('.bl-board [data-target].bl-legal')]],
    ['choice', [...root.querySelectorAll('.bl-choice')]],
    ['step', [...root.querySelectorAll('[data-control="step"]')].filter(e => !e.disabled)],
  ];
  for (const [kind, list] of pick) {
    const el = list.find(visible);
    if (!el) continue;
    el.scrollIntoView({block: 'nearest', inline: 'nearest'});
    const r = el.getBoundingClientRect();
    let x = r.left + r.width / 2, y = r.top + r.height / 2;
    // Clicking in the middle must land on the element (or inside it); else the locator's click.
    const hit = document.elementFromPoint(x, y);
    const lands = hit && (hit === el || el.contains(hit));
    el.setAttribute('data-bl-next', '1');
    return {...info, kind, x, y, lands,
            label: el.getAttribute('aria-label') || el.dataset.target || el.textContent.trim().slice(0, 60)};
  }
  return {...info, kind: 'none'};
}"""

NEXT_JS = "(sel) => (" + NEXT_FN + ")(sel)"

#: After a click: wait (each animation frame) until the board has answered (a new frame, or, for a
#: target that only selected, nothing pending), then say what to click next (one call, not three).
AFTER_CLICK_JS = (
    """async ([sel, seq, mustChange, timeout]) => {
  const next = """
    + NEXT_FN
    + """;
  const t0 = performance.now();
  for (;;) {
    const root = document.querySelector(sel);
    if (root && (root.dataset.seq !== seq || (!mustChange && !root.classList.contains('bl-busy'))))
      return {...next(sel), answered: true, ms: performance.now() - t0};
    if (performance.now() - t0 > timeout) return {answered: false};
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
}"""
)


@dataclass
class Played:
    """What :func:`play` did: clicks per kind, the labels clicked, the final status and result."""

    clicks: dict[str, int] = field(default_factory=lambda: {"target": 0, "choice": 0, "step": 0})
    labels: list[str] = field(default_factory=list)
    status: str = ""
    result: str = ""
    over: bool = False
    seconds: float = 0.0
    round_trips_ms: list[float] = field(default_factory=list)

    def summary(self) -> str:
        c = self.clicks
        return (
            f"{c['target']} board targets, {c['choice']} choices, {c['step']} Steps in {self.seconds:.1f} s; "
            f"{self.result or self.status[:100]}"
        )


def next_action(page: Any, game: str) -> dict[str, Any]:
    """What a person would click next on ``game``'s board (see :data:`NEXT_JS`)."""
    return page.evaluate(NEXT_JS, _sel(game))


def click_next(page: Any, game: str, info: dict[str, Any], played: Played | None = None) -> dict[str, Any]:
    """Click what :func:`next_action` found, wait until the board has answered, and return what to
    click next (as :func:`next_action` does).

    Raises:
        AssertionError: no new frame within :data:`ROUND_TRIP_MS` after a click that sends a move
            or Step.
    """
    sel = _sel(game)
    start = time.perf_counter()
    if info.get("lands"):
        page.mouse.click(info["x"], info["y"])
    else:
        page.locator("[data-bl-next]").first.click()
    must_change = info["kind"] in ("choice", "step")
    after = page.evaluate(AFTER_CLICK_JS, [sel, info["seq"], must_change, ROUND_TRIP_MS])
    if not after.get("answered"):
        raise AssertionError(
            f"{game}: no new board within {ROUND_TRIP_MS} ms after clicking {info['kind']} {info.get('label')!r}"
        )
    if played is not None:
        played.clicks[info["kind"]] += 1
        played.labels.append(f"{info['kind']}:{info.get('label')}")
        if after["seq"] != info["seq"]:
            played.round_trips_ms.append((time.perf_counter() - start) * 1000)
    return after


def play(
    page: Any,
    game: str,
    *,
    until_decision: bool = False,
    max_actions: int = MAX_ACTIONS,
    played: Played | None = None,
) -> Played:
    """Click as a person would until the game is over (or, with ``until_decision``, until a person
    has a move to make: a legal target or a choice is on screen; nothing is clicked then).

    Args:
        page: a Playwright ``Page`` showing the board.
        game (str): the game's name (selects its ``.bl-root``).
        until_decision (bool): stop before the first click on a target or choice.
        max_actions (int): more clicks than this fail (a stuck game).
        played (Played | None): a record to go on adding to.

    Returns:
        Played: what was clicked and how it ended.

    Raises:
        AssertionError: the board shows an error message, nothing can be clicked before the end,
            or the game did not end within ``max_actions`` clicks.
    """
    played = played or Played()
    start = time.perf_counter()
    info = next_action(page, game)
    for _ in range(max_actions):
        played.status, played.result, played.over = (
            info.get("status", ""),
            info.get("result", ""),
            info.get("over"),
        )
        assert info["kind"] != "missing", f"{game}: no board on the page"
        assert not info.get("error"), f"{game}: the board shows an error: {info['error']}"
        if info.get("over"):
            break
        if until_decision and info["kind"] in ("target", "choice"):
            break
        assert info["kind"] != "none", f"{game}: nothing to click and the game is not over: {info['status']}"
        info = click_next(page, game, info, played)
    else:
        raise AssertionError(f"{game}: not over after {max_actions} clicks: {played.status}")
    played.seconds += time.perf_counter() - start
    return played


def game_over(page: Any, game: str) -> bool:
    """Whether ``game``'s status says the game is over and its scores show a result."""
    info = next_action(page, game)
    return bool(info.get("over")) and info.get("result", "").startswith("Result:")


SEQ_JS = "(sel) => { const r = document.querySelector(sel); return r ? r.dataset.seq : null; }"


def seq(page: Any, game: str) -> str | None:
    """The ``data-seq`` of ``game``'s board root (``"-1"`` before the first frame)."""
    return page.evaluate(SEQ_JS, _sel(game))


def scroll_to_top(page: Any, game: str) -> None:
    """Scroll every scrolling container so the top of ``game``'s board root is at its top."""
    page.evaluate("(s) => document.querySelector(s).scrollIntoView({block: 'start'})", _sel(game))
    page.wait_for_timeout(150)


FIT_JS = """(sel) => {
  const root = document.querySelector(sel);
  // What can be seen: the viewport cut by every scrolling ancestor (e.g. the notebook panel).
  let view = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  for (let e = root.parentElement; e && e !== document.documentElement; e = e.parentElement) {
    const cs = getComputedStyle(e);
    if (/(auto|scroll)/.test(cs.overflowY + cs.overflowX)) {
      const r = e.getBoundingClientRect();
      view = {left: Math.max(view.left, r.left), top: Math.max(view.top, r.top),
              right: Math.min(view.right, r.right), bottom: Math.min(view.bottom, r.bottom)};
    }
  }
  const parts = {board: [root.querySelector('.bl-board')], step: [root.querySelector('[data-control="step"]')],
                 choices: [...root.querySelectorAll('.bl-choice')]};
  if (!parts.choices.length) parts.choices = [...root.querySelectorAll('.bl-choice-slot')].filter(e => e.childElementCount);
  if (!parts.choices.length) parts.choices = [...root.querySelectorAll('.bl-board [data-target].bl-legal')];
  const out = {view, outside: []};
  for (const [name, list] of Object.entries(parts)) {
    if (!list.length || !list[0]) { out.outside.push(name + ': none on the board'); continue; }
    for (const el of list) {
      const r = el.getBoundingClientRect();
      const inside = r.left >= view.left - 1 && r.top >= view.top - 1 && r.right <= view.right + 1 && r.bottom <= view.bottom + 1;
      if (!inside) out.outside.push(`${name} ${(el.textContent || el.dataset.target || '').trim().slice(0, 30)}`
        + ` at [${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, ${Math.round(r.bottom)}]`);
    }
  }
  return out;
}"""


def outside_view(page: Any, game: str) -> list[str]:
    """The parts of ``game``'s board (``.bl-board``, each choice or legal target, Step) that are not
    inside what can be seen: the viewport cut by every scrolling container around the board.

    Returns:
        list[str]: one line per part outside, with its box in px (``[]`` when everything fits).
    """
    found = page.evaluate(FIT_JS, _sel(game))
    view = found["view"]
    box = f"visible area [{view['left']:.0f}, {view['top']:.0f}, {view['right']:.0f}, {view['bottom']:.0f}]"
    return [f"{line} ({box})" for line in found["outside"]]


def banner_text(page: Any, game: str) -> str:
    """The text of ``game``'s board banner when shown (the kernel-gone message), else ``""``."""
    return page.evaluate(
        "(s) => { const b = document.querySelector(s + ' .bl-banner'); return b && !b.hidden ? b.textContent : ''; }",
        _sel(game),
    )


def widget_errors(page: Any) -> list[str]:
    """Texts on the page saying a widget could not be displayed."""
    text = page.locator("body").inner_text()
    return re.findall(r"[^\n]*(?:Error displaying widget|model not found)[^\n]*", text, re.I)


# -- JupyterLab and Notebook 7 through window.jupyterapp (the server exposes the app) -------------

KERNEL_READY_JS = """(path) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return false;
  const w = app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.sessionContext || !w.content) return false;
  const sc = w.sessionContext;
  const k = sc.session && sc.session.kernel;
  return sc.isReady && !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""


def wait_for_kernel(page: Any, path: str, timeout_ms: int = 120_000) -> None:
    """Wait until the notebook ``path`` is the current widget and its kernel is connected and idle
    (running cells before that was the one real cause of flaky runs)."""
    page.wait_for_function(KERNEL_READY_JS, arg=path, timeout=timeout_ms, polling=250)


def run_all(page: Any) -> None:
    """Run every cell of the current notebook (not awaited: the page is polled afterwards)."""
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); return true; }")


ROOTS_READY_JS = """(n) => { const roots = document.querySelectorAll('.bl-root');
  return roots.length >= n && [...roots].every(r => r.dataset.seq !== '-1'); }"""


def wait_for_boards(page: Any, count: int, timeout_ms: int = 120_000) -> None:
    """Wait until ``count`` boards are on the page, each with its first frame drawn."""
    page.wait_for_function(ROOTS_READY_JS, arg=count, timeout=timeout_ms, polling=200)


def collapse_side_areas(page: Any) -> None:
    """Close JupyterLab's side panels (the file browser) as a teacher does on a small screen."""
    page.evaluate(
        "() => { const s = window.jupyterapp && window.jupyterapp.shell;"
        " if (s && s.collapseLeft) s.collapseLeft(); if (s && s.collapseRight) s.collapseRight(); }"
    )
