"""Every lesson notebook, run in a real JupyterLab in headless Chromium, and the Voilà app view.

For each notebook found under ``notebooks/`` (new games' lessons are picked up automatically):

1. open it in its own JupyterLab workspace and wait until the kernel is really connected (the
   session is ready, the kernel's connection is ``connected`` and its status ``idle``: running
   cells before that was the one real cause of flaky runs);
2. clear the saved outputs and run all cells; check that execution started (a ``[1]`` prompt) and
   wait until every code cell has run;
3. check that no cell ended in an error and that no output area says "Error displaying widget"
   (the sign of a front end and kernel with different ipywidgets versions), and that every image
   in an output (the charts) has a text description (``alt``) a screen reader can read;
4. for every game board on the page (``.bl-root``): make at least two moves as a person does (the
   first legal target on the board, else a choice button, else Step) and check that each move
   brought a new frame and moved the timeline, and that the drawn board changed; the first move of
   the first board is made from the keyboard (focus the control, press Enter), after which focus
   must still be inside the board (the pressed control may have been redrawn by the move);
5. on the first board whose next step is not a person's move, reach Auto-play with Tab from Step
   and press Enter: the timeline must move on by itself, then Pause (or auto-play stopping by
   itself at a person's move) must bring the button back to not pressed (``aria-pressed``).

The Voilà test opens the flagship lesson through ``/voila/render/…``, the path a Binder Voilà link
uses, answers a self-check question in its answer box and plays moves in the rendered app.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jupyter_board import ROUND_TRIP_MS, click_next, next_action
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"

#: Seconds a whole browser test may take (pytest-timeout), and one notebook's run.
BROWSER_TEST_TIMEOUT = 420
RUN_TIMEOUT_MS = 240_000
#: A widget view whose model cannot be found turns into "Error displaying widget" after a while.
WIDGET_LOAD_MS = 60_000
#: A board that has not changed after this many moves fails the test.
MAX_MOVES = 8
#: A move may take a selection press before the move itself.
MAX_PRESSES_PER_MOVE = 3
FLAGSHIP = "ride_the_bus/02_guess_odds.ipynb"

pytestmark = [pytest.mark.browser, pytest.mark.timeout(BROWSER_TEST_TIMEOUT)]


def discover_notebooks() -> list[str]:
    """Paths (relative to notebooks/, POSIX style) of every lesson notebook, sorted."""
    return sorted(
        p.relative_to(NOTEBOOKS).as_posix()
        for p in NOTEBOOKS.rglob("*.ipynb")
        if ".ipynb_checkpoints" not in p.parts
    )


def game_widget_names() -> list[str]:
    """Names of the game widget classes exported by bus_lab.widgets (GameWidget and its subclasses)."""
    import bus_lab.widgets as widgets

    return sorted(
        name
        for name in widgets.__all__
        if isinstance(getattr(widgets, name), type) and issubclass(getattr(widgets, name), widgets.GameWidget)
    )


def shows_game_widget(path: str) -> bool:
    """Whether the notebook's code builds a game widget (read from its source, not the page)."""
    import nbformat

    nb = nbformat.read(NOTEBOOKS / path, as_version=4)
    source = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    return any(re.search(rf"\b{name}\(", source) for name in game_widget_names())


def shows_chart(path: str) -> int:
    """How many charts the notebook's code shows (``show_chart(`` calls at the start of a line)."""
    import nbformat

    nb = nbformat.read(NOTEBOOKS / path, as_version=4)
    return sum(len(re.findall(r"^show_chart\(", c.source, re.M)) for c in nb.cells if c.cell_type == "code")


def last_checked_print(path: str) -> str | None:
    """The last line printed by the notebook's last code cell that keeps a printed output."""
    import nbformat

    nb = nbformat.read(NOTEBOOKS / path, as_version=4)
    for cell in reversed([c for c in nb.cells if c.cell_type == "code"]):
        texts = [o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream"]
        lines = "".join(texts).strip().splitlines()
        if lines:
            return lines[-1].strip()
    return None


NOTEBOOK_PATHS = discover_notebooks()

# -- JupyterLab through window.jupyterapp (the server runs with expose_app_in_browser) ---------------

KERNEL_READY_JS = """(path) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return false;
  const w = app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.sessionContext || !w.content) return false;
  const sc = w.sessionContext;
  const k = sc.session && sc.session.kernel;
  return sc.isReady && !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""

RUN_ALL_JS = """async () => {
  const app = window.jupyterapp;
  await app.commands.execute('notebook:clear-all-cell-outputs');
  app.commands.execute('notebook:run-all-cells');  // not awaited: progress is polled
  return true;
}"""

PROGRESS_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const k = w.sessionContext.session && w.sessionContext.session.kernel;
  let code = 0, pending = 0, errors = 0;
  for (const c of w.content.model.toJSON().cells) {
    if (c.cell_type !== 'code') continue;
    const src = Array.isArray(c.source) ? c.source.join('') : c.source;
    if (!src.trim()) continue;
    code++;
    if (c.execution_count === null || c.execution_count === undefined) pending++;
    for (const o of (c.outputs || [])) if (o.output_type === 'error') errors++;
  }
  const status = k ? k.status : 'no kernel';
  return (status === 'idle' && (pending === 0 || errors > 0)) ? {status, code, pending, errors} : null;
}"""

CELLS_JS = "() => window.jupyterapp.shell.currentWidget.content.model.toJSON().cells"


def open_notebook(page: Page, lab_server, path: str) -> None:
    """Open ``path`` in a fresh workspace and wait until its kernel is connected and idle."""
    workspace = re.sub(r"[^A-Za-z0-9]+", "-", path).strip("-").lower()
    page.goto(lab_server.lab_url(path, workspace), wait_until="domcontentloaded")
    try:
        page.wait_for_function(KERNEL_READY_JS, arg=path, timeout=120_000, polling=250)
    except Exception as exc:
        raise AssertionError(
            f"{path}: the notebook's kernel never became connected and idle "
            f"(server log tail:\n{lab_server.log_tail()})"
        ) from exc


def run_all_cells(page: Page, path: str) -> list[dict]:
    """Clear outputs, run all cells, wait for the end; return the cells (nbformat JSON)."""
    page.evaluate(RUN_ALL_JS)
    first_prompt = page.locator(".jp-InputPrompt").filter(has_text=re.compile(r"^\s*\[1\]:\s*$"))
    expect(first_prompt, f"{path}: execution never started (no [1] prompt)").to_have_count(1, timeout=60_000)
    page.wait_for_function(PROGRESS_JS, timeout=RUN_TIMEOUT_MS, polling=500)
    return page.evaluate(CELLS_JS)


def error_report(cells: list[dict]) -> list[str]:
    """One line per cell that ended in an error: cell number, exception name and message."""
    found = []
    for index, cell in enumerate(cells):
        for output in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            if output.get("output_type") == "error":
                found.append(f"cell {index}: {output.get('ename')}: {output.get('evalue')}")
    return found


def settle_widgets(page: Page) -> None:
    """Wait until no output area still says "Loading widget..." (each is shown, or has failed)."""
    loading = page.locator(".jp-OutputArea-output").filter(has_text="Loading widget...")
    expect(loading, "widgets still loading").to_have_count(0, timeout=WIDGET_LOAD_MS)


IMAGES_WITHOUT_ALT_JS = """() => Array.from(document.querySelectorAll('.jp-OutputArea-output img'))
  .filter(img => !(img.getAttribute('alt') || '').trim())
  .map(img => (img.getAttribute('src') || '').slice(0, 40))"""
IMAGE_COUNT_JS = "() => document.querySelectorAll('.jp-OutputArea-output img').length"


def images_without_alt(page: Page) -> list[str]:
    """The start of the ``src`` of every output image that has no (or an empty) ``alt``."""
    return page.evaluate(IMAGES_WITHOUT_ALT_JS)


def widget_errors(page: Page) -> list[str]:
    """Texts of output areas that say a widget could not be displayed."""
    bad = page.locator(".jp-OutputArea-output").filter(
        has_text=re.compile(r"Error displaying widget|model not found", re.I)
    )
    return [text.strip()[:200] for text in bad.all_inner_texts()]


# -- playing a game widget from the page ---------------------------------------------------------------

#: Give every board root on the page its number (``data-test-root``), so each can be addressed.
NUMBER_ROOTS_JS = """() => { const roots = [...document.querySelectorAll('.jp-OutputArea-output .bl-root')];
  roots.forEach((r, i) => r.setAttribute('data-test-root', String(i))); return roots.length; }"""

#: What the board shows: the drawn board (its text and the names of its targets) and the timeline.
BOARD_STATE_JS = """(sel) => { const r = document.querySelector(sel);
  const b = r.querySelector('.bl-board');
  const names = [...b.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')).join('|');
  return {board: b.textContent + ' | ' + names + ' | ' + b.innerHTML.length,
          timeline: r.querySelector('[data-control="timeline"]').value, seq: r.dataset.seq}; }"""

#: Whether the focused element is inside the board root.
FOCUS_INSIDE_JS = "(sel) => document.querySelector(sel).contains(document.activeElement)"


#: A game board with its first frame drawn.
DRAWN_BOARDS = ".jp-OutputArea-output .bl-root:not([data-seq='-1'])"


def game_roots(page: Page) -> list[str]:
    """A CSS selector for every game board on the page (``.bl-root`` inside an output area)."""
    count = page.evaluate(NUMBER_ROOTS_JS)
    return [f'.bl-root[data-test-root="{i}"]' for i in range(count)]


def board_state(page: Page, root: str) -> dict:
    return page.evaluate(BOARD_STATE_JS, root)


def make_move(page: Page, root: str, keyboard: bool) -> str:
    """Click (or, with ``keyboard``, focus and press Enter on) what a person would, until the game
    moves on one step (a new frame and a new timeline position); describe what was done.

    Usually one press (Step, a choice, or a target that plays). Some moves take two or three: a
    first tap selects a target, then the ways to end there appear beside it.
    """
    before = board_state(page, root)
    pressed = []
    for attempt in range(MAX_PRESSES_PER_MOVE):
        info = next_action(page, root)
        assert not info.get("error"), f"the board shows an error: {info['error']}"
        if info["kind"] == "none" and info.get("over"):
            info = {**info, "kind": "back"}  # a finished game: Back still moves the timeline
        assert info["kind"] in ("target", "choice", "step", "back"), f"nothing to press: {info.get('status')}"
        if keyboard and attempt == 0:
            marked = (
                page.locator(f'{root} [data-control="back"]')
                if info["kind"] == "back"
                else page.locator("[data-bl-next]")
            ).first
            marked.focus()
            expect(marked).to_be_focused()
            page.keyboard.press("Enter")
            pressed.append(f"Enter on {info['kind']} {info.get('label')!r}")
            # Wait for the board's answer: a new frame, or (a target that only selected) nothing
            # pending. Pressing on while a move is on its way would race the redraw.
            page.wait_for_function(
                """([s, q, mustChange]) => {
                  const root = document.querySelector(s);
                  return root.dataset.seq !== q || (!mustChange && !root.classList.contains('bl-busy'));
                }""",
                arg=[root, info["seq"], info["kind"] != "target"],
                timeout=ROUND_TRIP_MS,
            )
        elif info["kind"] == "back":
            page.locator(f'{root} [data-control="back"]').click()
            pressed.append("click on Back")
            page.wait_for_function(  # its new frame, before anything else is pressed
                "([s, q]) => document.querySelector(s).dataset.seq !== q",
                arg=[root, info["seq"]],
                timeout=ROUND_TRIP_MS,
            )
        else:
            click_next(page, root, info)
            pressed.append(f"click on {info['kind']} {info.get('label')!r}")
        now = board_state(page, root)
        if now["seq"] != before["seq"]:
            assert now["timeline"] != before["timeline"], (
                f"{pressed}: a new board but the timeline did not move"
            )
            return f"{', then '.join(pressed)}: step {before['timeline']} -> {now['timeline']}"
    raise AssertionError(f"the game did not move on after {pressed}")


def exercise_game_widget(page: Page, root: str, keyboard_first: bool) -> list[str]:
    """At least two moves; the drawn board must change within MAX_MOVES moves."""
    page.locator(root).scroll_into_view_if_needed()
    before = board_state(page, root)["board"]
    moves = [make_move(page, root, keyboard=keyboard_first)]
    if keyboard_first:
        # The pressed control may have been redrawn by the move: focus must stay in the widget.
        page.wait_for_function(FOCUS_INSIDE_JS, arg=root, timeout=ROUND_TRIP_MS)
    moves.append(make_move(page, root, keyboard=False))
    while board_state(page, root)["board"] == before and len(moves) < MAX_MOVES:
        moves.append(make_move(page, root, keyboard=False))
    assert board_state(page, root)["board"] != before, f"the board did not change after these moves: {moves}"
    return moves


def exercise_auto_play(page: Page, root: str) -> str | None:
    """Tab from Step to Auto-play and press Enter: the game must move on by itself; then Pause (or
    auto-play stopping by itself at a person's move) must bring the button back to not pressed.
    ``None`` when a person must move or the game is over (auto-play would stop at once)."""
    info = next_action(page, root)
    if info["kind"] != "step":
        return None
    step = page.locator(f'{root} [data-control="step"]')
    auto = page.locator(f'{root} [data-control="autoplay"]')
    timeline = page.locator(f'{root} [data-control="timeline"]')
    before = timeline.input_value()
    # Reach it as a keyboard user does: from Step, Tab (past Forward when that is enabled), Enter.
    step.focus()
    for _ in range(2):
        page.keyboard.press("Tab")
        if auto.evaluate("el => el === document.activeElement"):
            break
    expect(auto, "Tab from Step does not reach Auto-play").to_be_focused()
    page.keyboard.press("Enter")
    expect(timeline, "Auto-play took no step").not_to_have_value(before, timeout=ROUND_TRIP_MS)
    moved = timeline.input_value()
    if auto.get_attribute("aria-pressed") == "true":
        try:
            auto.click(timeout=2_000)  # Pause (it may stop by itself just before: a person's move)
        except PlaywrightTimeoutError:
            pass
    expect(auto, "auto-play did not stop (Pause, or a person's move)").to_have_attribute(
        "aria-pressed", "false", timeout=ROUND_TRIP_MS
    )
    return f"Auto-play: step {before} -> {moved}, then paused at {timeline.input_value()}"


# -- the tests ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOK_PATHS)
def test_notebook_runs_and_its_widgets_play_in_jupyterlab(path: str, page: Page, lab_server) -> None:
    open_notebook(page, lab_server, path)
    cells = run_all_cells(page, path)

    errors = error_report(cells)
    assert not errors, f"{path}: cells ended in an error:\n" + "\n".join(errors)
    pending = [
        i
        for i, c in enumerate(cells)
        if c["cell_type"] == "code" and c["source"].strip() and c.get("execution_count") is None
    ]
    assert not pending, f"{path}: code cells that never ran: {pending}"

    assert not images_without_alt(page), (
        f"{path}: output images without a text description (alt): {images_without_alt(page)}"
    )
    charts = shows_chart(path)
    if charts:
        assert page.evaluate(IMAGE_COUNT_JS) >= charts, f"{path}: fewer images on the page than charts"

    expected_widgets = shows_game_widget(path)
    if expected_widgets:
        expect(page.locator(DRAWN_BOARDS).first, f"{path}: no game widget was displayed").to_be_visible(
            timeout=60_000
        )
    settle_widgets(page)
    assert not widget_errors(page), f"{path}: widgets failed to display: {widget_errors(page)}"

    roots = game_roots(page)
    assert bool(roots) == expected_widgets, (
        f"{path}: {len(roots)} game widgets on the page, but the code "
        f"{'builds' if expected_widgets else 'builds no'} game widget"
    )
    auto_played = None
    for index, root in enumerate(roots):
        moves = exercise_game_widget(page, root, keyboard_first=index == 0)
        if auto_played is None:
            auto_played = exercise_auto_play(page, root)
            moves += [auto_played] if auto_played else []
        print(f"{path} widget {index}: " + "; ".join(moves))
    assert not widget_errors(page), f"{path}: widgets failed after the moves: {widget_errors(page)}"
    errors = error_report(page.evaluate(CELLS_JS))
    assert not errors, f"{path}: errors after the moves:\n" + "\n".join(errors)


def test_flagship_lesson_runs_as_a_voila_app(page: Page, lab_server) -> None:
    assert (NOTEBOOKS / FLAGSHIP).is_file(), f"the flagship lesson {FLAGSHIP} is missing"
    page.goto(lab_server.voila_url(FLAGSHIP), wait_until="domcontentloaded")
    # A board drawn, or Voilà saying a cell failed (then there is no point waiting for a board).
    page.wait_for_function(
        """(sel) => document.querySelector(sel) !== null
              || document.body.innerText.includes('There was an error when executing cell')""",
        arg=DRAWN_BOARDS,
        timeout=180_000,
    )
    expect(page.locator("body")).not_to_contain_text("There was an error when executing cell", timeout=1_000)
    expect(page.locator(DRAWN_BOARDS).first, "Voilà rendered no game widget").to_be_visible()
    # Voilà streams the page cell by cell; "load" fires once the last cell has run. The last
    # printed line the lesson keeps (an nbval-checked output) must then be on the page.
    page.wait_for_load_state("load")
    last_print = last_checked_print(FLAGSHIP)
    if last_print:
        expect(page.locator(".jp-OutputArea-output").filter(has_text=last_print)).to_have_count(1)
    settle_widgets(page)
    body = page.locator("body")
    expect(body).not_to_contain_text("There was an error when executing cell", timeout=1_000)
    assert not widget_errors(page), f"Voilà: widgets failed to display: {widget_errors(page)}"
    assert page.locator(".jp-InputArea-editor:visible").count() == 0, (
        "Voilà shows the code; the app view should hide it"
    )
    assert page.evaluate(IMAGE_COUNT_JS) >= shows_chart(FLAGSHIP) > 0, (
        "Voilà shows fewer charts than the lesson"
    )
    assert not images_without_alt(page), f"Voilà: images without alt text: {images_without_alt(page)}"
    # A "Your turn" question is answered in its box, code hidden: the first asks which question the
    # best guess gets right most often (RTB-Q2: question 2), computed here from the odds.
    from bus_lab.prob import question_right_chances

    chances = question_right_chances("best")
    truth = max(chances, key=lambda question: chances[question])
    box = page.locator(".widget-text input").first
    box.fill(str(truth))
    box.press("Enter")
    expect(
        page.locator("[role=status]").filter(has_text="Right!"), "the answer box did not say Right!"
    ).to_have_count(1, timeout=ROUND_TRIP_MS)
    root = game_roots(page)[0]
    moves = exercise_game_widget(page, root, keyboard_first=True)
    print("Voilà: " + "; ".join(moves))
    assert len(moves) >= 2
    expect(body).not_to_contain_text("There was an error when executing cell", timeout=1_000)
