"""The projector page read from the back of a classroom: on a 1280×720 and a 1920×1080 screen the
board fills the width, its text is scaled up with the screen, nothing needs scrolling, and the join
address, the code and (when the server knows its address) the QR code stay on the screen.

Screenshots of every game on both screens are saved under ``test-artifacts/screens/``.
"""

from __future__ import annotations

import pytest

from bus_lab.table.runner import TableServer
from conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

SCREENS = [(1280, 720), (1920, 1080)]
GAMES = [
    ("ride_the_bus", {"players": 3}),
    ("bus_and_stop", {"players": 3}),
    ("busstop", {"players": 3}),
    ("bus_city", {"players": 3}),
]
#: The smallest text on the board's side panel, in screen pixels, per screen width: readable from
#: the back of a room (the notebook's board uses 14 px).
MIN_TEXT_PX = {1280: 16, 1920: 24}

MEASURE = """() => {
  const box = (sel) => {
    const e = document.querySelector(sel);
    if (!e) return null;
    const b = e.getBoundingClientRect();
    return { left: b.left, top: b.top, right: b.right, bottom: b.bottom, width: b.width, height: b.height,
             visible: b.width > 0 && b.height > 0 };
  };
  const zoom = Number(document.body.dataset.zoom || 1);
  const now = document.querySelector(".bl-status-now, .bl-status");
  const board = document.querySelector(".bl-board");
  return {
    zoom,
    root: box(".bl-root"), board: box(".bl-board"), code: box(".tl-code-big"), address: box("#tl-address"),
    qr: box(".tl-qr"), strip: box(".bl-seats"),
    text_px: now ? parseFloat(getComputedStyle(now).fontSize) * zoom : 0,
    board_scrolls: board.scrollHeight > board.clientHeight + 1 || board.scrollWidth > board.clientWidth + 1,
    page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
  };
}"""


@pytest.fixture(scope="module")
def server():
    srv = TableServer(port=0, pace_s=0).start()
    srv.public_url = srv.url + "/"  # the address to share is known: the projector shows its QR code
    try:
        yield srv
    finally:
        srv.stop()


def table_in_play(server: TableServer, game: str, options: dict) -> str:
    """A table of ``game`` with Ana and Ben at their seats and a bot, the game started."""

    def run() -> str:
        table = server.hub.create_table(game, options, [True] * options["players"], "best_odds", 3)
        table.join("Ana")
        table.join("Ben")
        table.start()
        table.run_automatic()
        table.changed()
        return table.code

    return server.call(run)


def inside(box: dict, width: int, height: int) -> bool:
    return (
        box["visible"]
        and box["left"] >= 0
        and box["top"] >= 0
        and box["right"] <= width + 0.5
        and (box["bottom"] <= height + 0.5)
    )


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=lambda v: str(v))
@pytest.mark.parametrize(("game", "options"), GAMES, ids=lambda v: v if isinstance(v, str) else "")
def test_the_projector_fills_the_screen_and_reads_from_afar(browser, server, game, options, width, height):
    code = table_in_play(server, game, options)
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.watch_url(code))
        page.wait_for_selector(".bl-board")
        page.wait_for_function("() => Number(document.body.dataset.zoom) > 0")
        page.wait_for_timeout(300)  # the fit after the last frame
        (ARTIFACTS / "screens").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "screens" / f"projector-{game}-{width}x{height}.png"))
        m = page.evaluate(MEASURE)
        assert m["page"] == [width, height], m  # nothing to scroll
        assert m["root"]["width"] >= 0.95 * width, m  # the board fills the width
        assert inside(m["board"], width, height) and not m["board_scrolls"], m
        assert inside(m["strip"], width, height), m
        for part in ("code", "address", "qr"):
            assert m[part] is not None and inside(m[part], width, height), (part, m)
        assert m["code"]["height"] >= height / 20, m  # the code in big letters
        assert m["text_px"] >= MIN_TEXT_PX[width], m
        if width == 1920:
            assert m["zoom"] >= 1.5, m  # a wide screen shows everything larger
        # the board names the people at their seats (plain text), the bot's seat by its number
        shown = page.inner_text("#tl-app")
        assert "Ana" in shown and "Ben" in shown and "Seat 2" in shown
        assert "Seat 0" not in shown and "Seat 1" not in shown, shown
        assert not errors
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=lambda v: str(v))
def test_the_projector_in_the_lobby_shows_how_to_join(browser, server, width, height):
    code = server.call(lambda: server.hub.create_table("busstop", {"players": 4}).code)
    server.call(lambda: (server.hub.tables[code].join("Ana"), server.hub.tables[code].changed()))
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(server.watch_url(code))
        page.wait_for_selector(".tl-lobby-seats")
        page.wait_for_function("() => Number(document.body.dataset.zoom) > 0")
        page.wait_for_timeout(300)
        (ARTIFACTS / "screens").mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "screens" / f"projector-lobby-{width}x{height}.png"))
        m = page.evaluate(
            MEASURE.replace(
                "board.scrollHeight > board.clientHeight + 1 || board.scrollWidth > board.clientWidth + 1",
                "false",
            )
        )
        assert m["page"] == [width, height], m
        for part in ("code", "address", "qr"):
            assert m[part] is not None and inside(m[part], width, height), (part, m)
        assert m["qr"]["height"] >= height / 4, m  # a phone reads it from a few rows back
        assert "Seat 0 · Ana" in page.inner_text(".tl-lobby-seats")
    finally:
        context.close()
