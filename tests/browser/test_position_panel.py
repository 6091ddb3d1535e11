"""The "Set up a position" panel in JupyterLab, in headless Chromium, by keyboard only: open the
panel, edit the position's JSON (nine passengers moved into another Busstop queue), see the line
under the text check it as it is typed, start from it, and see a bad text refused in the board's
message line with the game unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from jupyter_board import board_root, collapse_side_areas, run_all, wait_for_boards, wait_for_kernel

from bus_lab.games.busstop.positions import EXAMPLE

pytestmark = [pytest.mark.browser]

FOLDER = "position_check"


def write_notebook(root: Path) -> str:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells.append(
        nbformat.v4.new_code_cell(
            "from bus_lab.widgets import BusstopWidget\n"
            "from bus_lab.games.busstop.positions import EXAMPLE\n"
            "w = BusstopWidget(players=3, humans=(0,), seed=1, start=EXAMPLE)\n"
            "w"
        )
    )
    path = root / FOLDER / "position.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return f"{FOLDER}/position.ipynb"


def message(page) -> str:
    return page.locator(f"{board_root('busstop')} .bl-message").inner_text()


def wait_for_words(page, selector: str, words: str, timeout_ms: int = 30_000) -> None:
    """Wait until the element shows ``words``; on a timeout, fail with what it shows instead."""
    try:
        page.wait_for_function(
            "([s, w]) => { const e = document.querySelector(s); return e && e.textContent.includes(w); }",
            arg=[selector, words],
            timeout=timeout_ms,
        )
    except Exception as exc:  # Playwright's TimeoutError: say what the page showed
        shown = page.locator(selector).all_inner_texts()
        raise AssertionError(f"{selector} never showed {words!r}; it shows {shown!r}") from exc


CHECK = ".bl-position-check"


@pytest.mark.timeout(240)
def test_a_position_is_edited_and_started_by_keyboard(laptop_page, lab_server) -> None:
    page = laptop_page
    path = write_notebook(lab_server.root)
    page.goto(lab_server.lab_url(path, "position-check"), wait_until="domcontentloaded")
    wait_for_kernel(page, path)
    collapse_side_areas(page)
    run_all(page)
    wait_for_boards(page, 1, timeout_ms=180_000)

    toggle = page.get_by_role("button", name="Set up a position")
    toggle.focus()
    page.keyboard.press("Enter")
    text = page.get_by_label("Position (JSON)")
    text.wait_for(state="visible", timeout=10_000)
    shown = json.loads(text.input_value())
    assert shown["round"] == EXAMPLE["round"] and len(shown["boards"]) == 3

    # A text that is not JSON: the line under it says so as it is typed (so the kernel has the text
    # before Start is pressed), and Start shows why in the message line; the board stays.
    text.fill('{"round": 4,')
    wait_for_words(page, CHECK, "Not JSON yet")
    start = page.get_by_role("button", name="Start from this position")
    start.focus()
    page.keyboard.press("Enter")
    wait_for_words(page, f"{board_root('busstop')} .bl-message", "JSONDecodeError")

    # Nine passengers moved to the second board's queue (its third bus open): the game starts there.
    shown["boards"][0]["queue"], shown["boards"][1]["queue"] = [], shown["boards"][0]["queue"]
    shown["boards"][1]["extra_bus"] = True
    text.fill(json.dumps(shown))
    wait_for_words(page, CHECK, "Ready: press Start from this position.")
    start.focus()
    page.keyboard.press("Enter")
    wait_for_words(page, f"{board_root('busstop')} .bl-message", "starts from the position")
    page.wait_for_function(
        "() => { const t = [...document.querySelectorAll('textarea')].find(e => e.value.includes('round'));"
        " return t && JSON.parse(t.value).boards[1].queue.length === 9; }",
        timeout=30_000,
    )
    assert "Error" not in message(page)
