"""Play a :class:`~bus_lab.widgets.GameWidget` in headless Chromium without Jupyter.

The page holds the board's own ES module and style sheet (exactly what anywidget loads) and
mounts it with a ``send`` that queues messages; :meth:`BoardPage.pump` hands them to the widget's
``handle_message`` (what the kernel does) and pushes the widget's new frame back to the page. So
clicks on the real board drive the real widget, fast, and screenshots show what a person sees.

Example::

    bp = BoardPage(page, widget)
    bp.click('[data-target="stack:Shops"]')   # click, then pump until the board is redrawn
    bp.frame["seq"]
"""

from __future__ import annotations

from typing import Any

from bus_lab.board.assets import board_css, board_esm

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bus_lab board</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body {{ margin: 8px; }} {css}</style></head>
<body><main id="app"></main>
<script type="module">
{esm}
window.__sent = [];
const app = mount(document.getElementById("app"), {{ send: (m) => window.__sent.push(m), mode: "{mode}" }});
window.__update = (f) => app.update(f);
window.__ready = true;
</script></body></html>
"""


class BoardPage:
    """A board page in ``page`` (a Playwright page) driven by ``widget``.

    Args:
        page: a Playwright ``Page``.
        widget: a :class:`~bus_lab.widgets.GameWidget` (its frames are drawn; the page's messages
            go to its ``handle_message``).
        mode (str): ``"widget"`` (with step controls) or ``"table"`` (a seat's page, no controls).
    """

    def __init__(self, page: Any, widget: Any, mode: str = "widget"):
        self.page = page
        self.widget = widget
        page.set_content(PAGE.format(css=board_css(), esm=board_esm(), mode=mode))
        page.wait_for_function("window.__ready === true")
        self.push()

    @property
    def frame(self) -> dict[str, Any]:
        """The widget's current frame."""
        return self.widget.frame

    def push(self) -> None:
        """Draw the widget's current frame in the page."""
        self.page.evaluate("f => window.__update(f)", self.widget.frame)

    def pump(self) -> int:
        """Hand every message the page sent to the widget, then draw the new frame.

        Returns:
            int: how many messages were handled.
        """
        sent = self.page.evaluate("() => window.__sent.splice(0)")
        for msg in sent:
            self.widget.handle_message(msg)
        if sent:
            self.push()
        return len(sent)

    def settle(self) -> None:
        """Bring the board's motion to its end at once (a click aimed at a moving card could land
        beside it): the animations are made as in a person's browser, then finished, so a whole
        game does not wait a few hundred milliseconds at every click. A test that looks at the
        motion itself reads it right after the click that starts it."""
        self.page.evaluate("() => { for (const a of document.getAnimations()) a.finish(); }")

    def click(self, selector: str) -> int:
        """Click the element matching ``selector`` once the board is still, then :meth:`pump`."""
        self.settle()
        self.page.locator(selector).first.click()
        return self.pump()

    def press(self, key: str) -> int:
        """Press ``key`` on the focused element, then :meth:`pump`."""
        self.page.keyboard.press(key)
        return self.pump()


#: ``{target key: whether any element with that key is .bl-legal or .bl-selected}`` for every
#: ``[data-target]`` on the page, in one round trip.
TARGET_STATES_JS = """() => {
  const out = {};
  for (const el of document.querySelectorAll('[data-target]')) {
    const key = el.dataset.target;
    out[key] = out[key] === true || el.classList.contains('bl-legal') || el.classList.contains('bl-selected');
  }
  return out;
}"""


def assert_moves_drawn(page: Any, moves: list[dict[str, Any]]) -> None:
    """Every key of every move's path is drawn as a board target, and the first key of each path
    is marked as one you can tap (``.bl-legal``) or already tapped (``.bl-selected``); one read of
    the page for all the moves."""
    states = page.evaluate(TARGET_STATES_JS)
    for move in moves:
        missing = [key for key in move["path"] if key not in states]
        assert not missing, (missing, move.get("label"), move)
        if move["path"]:
            assert states[move["path"][0]], ("not marked legal", move.get("label"), move)
