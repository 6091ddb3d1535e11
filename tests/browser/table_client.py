"""Drive the class table's pages in headless Chromium: students' phones and laptops, the projector
and the host, each in its own browser context (own storage), against a real
:class:`~bus_lab.table.runner.TableServer` running in this process.

Every message a page receives on its websockets is recorded (Playwright's ``websocket`` and
``framereceived`` events), so a test can check what reached a device, not only what it drew.

Example::

    student = PageClient(browser.new_context(...), "Ana")
    student.join(server, code)                 # the join page: code pre-filled, name typed, Join
    student.latest()["table"]["phase"]         # the last frame this page received
    student.play(rng)                          # click one of its legal moves on the board
"""

from __future__ import annotations

import json
import random
from typing import Any

#: The board's root on a table page (the host page draws one too: what the projector shows).
ROOT = "#tl-app .bl-root"
DOM_SEQ_JS = """() => { const r = document.querySelector('#tl-app .bl-root');
  return r && !r.closest('[hidden]') ? Number(r.dataset.seq) : null; }"""
SCROLL_WIDTH_JS = "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"


class PageClient:
    """One browser page at the table (its own context), recording every websocket message.

    Args:
        context: a Playwright ``BrowserContext`` (one per device: storage is not shared).
        name (str): the person's name (what they type on the join page).
    """

    def __init__(self, context: Any, name: str):
        self.context = context
        self.name = name
        self.page = context.new_page()
        self.received: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._on_socket)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", self._on_console)

    def _on_console(self, message: Any) -> None:
        """Anything the page's Content-Security-Policy refused is an error of the page."""
        if message.type == "error" and "Content Security Policy" in message.text:
            self.errors.append(message.text)

    def _on_socket(self, ws: Any) -> None:
        ws.on("framereceived", self._on_message)
        ws.on("framesent", self._on_sent)

    def _on_sent(self, payload: str | bytes) -> None:
        text = payload.decode() if isinstance(payload, bytes) else payload
        message = json.loads(text)
        self.sent.append({k: v for k, v in message.items() if k != "token"})

    def _on_message(self, payload: str | bytes) -> None:
        text = payload.decode() if isinstance(payload, bytes) else payload
        self.received.append(json.loads(text))

    # -- what the page received ------------------------------------------------------------
    @property
    def frames(self) -> list[dict[str, Any]]:
        """Every frame this page received, oldest first."""
        return [m["frame"] for m in self.received if m.get("type") == "frame"]

    def latest(self) -> dict[str, Any] | None:
        """The newest frame this page received (None before the first)."""
        for message in reversed(self.received):
            if message.get("type") == "frame":
                return message["frame"]
        return None

    def phase(self) -> str | None:
        frame = self.latest()
        return None if frame is None else frame["table"]["phase"]

    def dom_seq(self) -> int | None:
        """The ``seq`` of the frame the page's board shows (None: no board drawn)."""
        return self.page.evaluate(DOM_SEQ_JS)

    def scroll_width(self) -> int:
        return self.page.evaluate(SCROLL_WIDTH_JS)

    # -- actions -----------------------------------------------------------------------------
    def join(self, server: Any, code: str) -> None:
        """Join table ``code`` the way a student does: the join page from the QR link (code filled
        in), the name typed, Join; the page becomes the seat's page."""
        self.page.goto(server.join_url(code))
        assert self.page.input_value("#tl-code") == code
        self.page.fill("#tl-name", self.name)
        self.page.click("#tl-join")
        self.page.wait_for_function("() => document.body.dataset.page === 'seat'")
        self.page.wait_for_selector(".tl-lobby")

    def token(self, code: str) -> str | None:
        """The seat's secret this browser keeps for table ``code``."""
        return self.page.evaluate("k => localStorage.getItem(k)", f"bus_lab.table.{code}")

    def ready_to_move(self) -> dict[str, Any] | None:
        """The newest frame when it lists moves for this seat and the board shows it, else None."""
        frame = self.latest()
        if frame is None or not frame["moves"]:
            return None
        return frame if self.dom_seq() == frame["seq"] else None

    def click_move(self, move: dict[str, Any]) -> None:
        """Make ``move`` as a person does: tap each target of its path (one the board already
        selected stays selected), then its choice button if it has one; wait for the next frame."""
        page = self.page
        seq = self.dom_seq()
        newer = f"() => {{ const r = document.querySelector('{ROOT}'); return r && Number(r.dataset.seq) > {seq}; }}"

        def tap() -> None:
            # the board at rest, as a person taps it (the motion of the last move is finished)
            page.evaluate("() => { for (const a of document.getAnimations()) a.finish(); }")
            for key in move["path"]:
                target = page.locator(f'#tl-app [data-target="{key}"]').first
                if "bl-selected" in (target.get_attribute("class") or "").split():
                    continue
                target.click()
            if move["choice"] is not None:
                page.locator(f'#tl-app .bl-choice[data-action="{move["action"]}"]').first.click()

        heard = len(self.received)
        tap()
        try:
            page.wait_for_function(newer, timeout=5_000)
        except Exception:
            # Nothing came back: on a loaded machine a tap was seen to get lost now and then (no
            # message sent, none refused). A person taps again; so does this client, once.
            if len(self.received) == heard and self.dom_seq() == seq:
                tap()
        try:
            page.wait_for_function(newer, timeout=15_000)
        except Exception as exc:  # say what the page shows and received, to find out why
            said = [m for m in self.received[-5:] if m.get("type") != "frame"]
            shown = page.evaluate(
                "() => [...document.querySelectorAll('.bl-message, .tl-pagemsg, .tl-notice, .tl-conn')]"
                ".map(e => e.className + ': ' + e.textContent.trim()).filter(t => !t.endsWith(': '))"
            )
            board = page.evaluate(
                """(key) => { const r = document.querySelector('#tl-app .bl-root');
                  const t = r && r.querySelector(`[data-target="${key}"]`);
                  return {root: r ? r.className : null, target: t ? t.getAttribute('class') : null,
                          explain: r ? (r.querySelector('.bl-explain') || {}).textContent : null}; }""",
                move["path"][0] if move["path"] else "",
            )
            raise AssertionError(
                f"{self.name}: no new board after {move.get('label')!r} (path {move['path']}, choice "
                f"{move['choice']}) from seq {seq}; latest frame seq {(self.latest() or {}).get('seq')}; "
                f"page says {shown}; board {board}; last messages {said}; last sent {self.sent[-4:]}"
            ) from exc

    def play(self, rng: random.Random, frame: dict[str, Any]) -> dict[str, Any]:
        """Click one of ``frame``'s legal moves at random; returns the move."""
        move = rng.choice(frame["moves"])
        self.click_move(move)
        return move


def wait_a_moment(page: Any, ms: int = 20) -> None:
    """Let the browser and the server work (Playwright delivers its events meanwhile)."""
    page.wait_for_timeout(ms)
