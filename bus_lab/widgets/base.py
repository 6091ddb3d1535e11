"""``GameWidget``: a board you play by touching it, for any :class:`~bus_lab.engine.Session`.

The widget is one anywidget (:class:`BoardWidget`): its ES module, shipped in the package
(``bus_lab/board/static``), draws the board in the browser from the view of the seat shown and
lets a person act on the board itself: every legal move is made by tapping the thing it acts on,
with the choices that are not on the board as large buttons beside it. The same page holds the
status line (a live region a screen reader announces), the step controls (Back, Step, Forward,
Auto-play, a timeline, the seed and New game, "View as"), the scores and the event log.

Python stays the source of truth: the widget owns the session (bots, seeds, undo, timeline) and
sends the browser one *frame* per change (:mod:`bus_lab.board.frame`); the browser sends back
small messages (a move's action, a control) that are checked before anything happens. So every
widget is testable headless, with the same methods the page calls::

    from bus_lab import Session, load_game
    from bus_lab.widgets import GameWidget

    w = GameWidget(Session(load_game("ride_the_bus", players=3), seed=1, bots="best_odds"))
    w.step()                       # one step: a bot's guess or a card drawn
    w.back()                       # and back again
    w.frame["moves"]               # what a person could tap now (empty: no person to move)
    w                              # in a notebook: the whole widget

Errors never escape into the notebook: a bad move or control is refused, the state is unchanged,
and the reason (with the legal moves) is shown in the widget's message line and kept in
:attr:`GameWidget.last_error`.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import anywidget
import ipywidgets as W
import traitlets

from bus_lab.board.assets import board_css, board_esm
from bus_lab.board.frame import MAX_STATUS_EVENTS as MAX_STATUS_EVENTS  # the status line's limit
from bus_lab.board.frame import adapter_for, board_frame, format_odds, step_text
from bus_lab.engine.core import Game, State
from bus_lab.engine.errors import ParameterError, PositionError
from bus_lab.engine.moves import Move
from bus_lab.engine.session import Session

__all__ = ["SPECTATOR", "BoardWidget", "FoldingPanel", "GameWidget", "format_odds"]

#: Value of the "View as" choice meaning "spectator, every card shown" (``view(None)``).
SPECTATOR = -1
#: The smallest auto-play interval allowed, in milliseconds.
MIN_INTERVAL_MS = 200
#: Auto-play faster than this (ms per step) draws without motion.
FAST_AUTOPLAY_MS = 400
#: The largest message the page may send (characters of JSON); larger ones are refused.
MAX_MESSAGE_CHARS = 2000
#: Controls the page may send, and the type of their value.
CONTROLS: dict[str, type | None] = {
    "step": None,
    "tick": None,
    "back": None,
    "forward": None,
    "goto": int,
    "reset": int,
    "viewer": int,
    "autoplay": bool,
    "log": bool,
}
#: The fields of each kind of message the page sends (core.js); any other field is refused.
MESSAGE_FIELDS: dict[str, frozenset[str]] = {
    "ping": frozenset({"type"}),
    "move": frozenset({"type", "action", "seq"}),
    "deal": frozenset({"type", "action", "seq"}),
    "control": frozenset({"type", "name", "value", "seq"}),
}


class BoardWidget(anywidget.AnyWidget):
    """The browser board (anywidget): draws :attr:`frame` and sends the person's moves back.

    Attributes:
        frame (dict): the frame drawn (see :mod:`bus_lab.board.frame`), synced to the browser.
    """

    _esm = board_esm()
    _css = board_css()
    frame = traitlets.Dict().tag(sync=True)


class FoldingPanel(W.VBox):
    """A panel opened and closed by a labelled toggle button (closed at first by default).

    Used instead of ``ipywidgets.Accordion``, whose header cannot be reached with the Tab key:
    the toggle is a real button, so the panel opens with Enter or Space, and a screen reader
    hears its title and whether it is open.

    Args:
        title (str): the button's text, e.g. ``"Table settings"``.
        body (Widget): what the panel shows when open.
        tooltip (str): the button's tooltip (what is inside).
        open (bool): start open.

    Attributes:
        toggle (ToggleButton): ``value`` is True while open. body (Widget): the contents.
    """

    def __init__(self, title: str, body: W.Widget, tooltip: str, open: bool = False):
        self.title = title
        self.toggle = W.ToggleButton(
            value=bool(open), description=title, tooltip=tooltip, layout=W.Layout(width="auto")
        )
        self.body = body
        super().__init__([self.toggle, body])
        self.toggle.observe(lambda _change: self._show(), names="value")
        self._show()

    @property
    def is_open(self) -> bool:
        """Whether the panel shows its contents."""
        return bool(self.toggle.value)

    def _show(self) -> None:
        opened = self.is_open
        with self.toggle.hold_sync():
            self.toggle.icon = "chevron-down" if opened else "chevron-right"
            self.toggle.description = f"{self.title} (open: press to close)" if opened else self.title
        self.body.layout.display = None if opened else "none"


#: Python's JSON error messages in plain words (the line and column are given beside them).
_JSON_PROBLEMS = {
    "Expecting ',' delimiter": "a comma (,) is missing, often at the end of the line before",
    "Expecting ':' delimiter": "a colon (:) is missing after a name",
    "Expecting property name enclosed in double quotes": (
        'a name in double quotes is expected, as in "round" (is there a comma too many before a }?)'
    ),
    "Expecting value": "a value is missing (is there a comma too many before a ] or }?)",
    "Unterminated string starting at": "a text in double quotes is not closed",
    "Extra data": "there is more after the end of the position",
    "Invalid control character at": "a line break inside double quotes",
}


def _json_problem(message: str) -> str:
    """A JSON decoding message (``JSONDecodeError.msg``) in plain words, or as it is."""
    return _JSON_PROBLEMS.get(message, message)


class GameWidget:
    """A playable, rewindable board for one :class:`~bus_lab.engine.Session`.

    The object displays itself in a notebook (it shows :attr:`widget`); to put it inside another
    container use ``w.widget``.

    Args:
        session (Session): the game being played; the widget drives it (``step``, ``play``,
            ``undo``, ``redo``, ``goto``, ``reset``) and reads it (``state``, ``position``).
        title (str | None): heading; default the game's title.
        max_log (int): how many of the latest events the log shows (newest first).
        interval (int): auto-play speed, milliseconds per step (at least 200).
        pick_cards (bool): when True, the learner may choose the outcome of each chance step (the
            card to deal) instead of drawing it at random.

    Raises:
        TypeError: ``session`` is not a Session.
        ValueError: ``interval`` below 200 ms or ``max_log`` below 1.

    Attributes:
        widget (Widget): what is displayed (the board, with a game's own panels if any).
        board (BoardWidget): the browser board; ``board.frame`` is the frame drawn.
        session (Session): the game shown.
        viewer (int | None): the seat whose view is drawn (``None``: spectator, every card).
        autoplay (bool): whether auto-play is running.
        next_seed (int): the seed the next New game uses.
        last_error (BaseException | None): the last error shown, or ``None``.
        position_panel (FoldingPanel | None): the "Set up a position" panel (closed at first), or
            ``None`` when the game has no positions; ``position_text`` (Textarea) holds the
            position as JSON, ``position_check`` (HTML) checks it on every edit
            (:meth:`position_check_text`), ``position_start_button`` and ``position_copy_button``
            are its buttons (:meth:`start_from_position`, :meth:`copy_position`). Each game's
            widget shows it below the board.
    """

    def __init__(
        self,
        session: Session,
        *,
        title: str | None = None,
        max_log: int = 40,
        interval: int = 500,
        pick_cards: bool = False,
    ):
        if not isinstance(session, Session):
            raise TypeError(f"GameWidget needs a Session, not {type(session).__name__}")
        if int(interval) < MIN_INTERVAL_MS:
            raise ValueError(f"interval={interval} ms is too fast: use at least {MIN_INTERVAL_MS} ms")
        if int(max_log) < 1:
            raise ValueError(f"max_log={max_log} must be at least 1")
        self.session = session
        self.max_log = int(max_log)
        self.interval = int(interval)
        self.pick_cards = bool(pick_cards)
        self.viewer: int | None = None
        self.autoplay = False
        self.next_seed = session.seed
        self.last_error: BaseException | None = None
        self._message: dict[str, str] | None = None
        self._seq = 0
        self._animate = False
        self.log_open = False
        self._frame: dict[str, Any] = {}
        self._title = title if title is not None else (session.game.title or session.game.name)
        self.board = BoardWidget()
        self.board.on_msg(self._on_board_msg)
        self.widget: W.Widget = self.board
        self.position_panel: FoldingPanel | None = self._build_position_panel()
        self.refresh()

    def _repr_mimebundle_(self, **kwargs: Any):
        """Display as the whole widget in Jupyter (``w`` as the last line of a cell)."""
        return self.widget._repr_mimebundle_(**kwargs)

    def close(self) -> None:
        """Close every widget of this view (the session is kept)."""

        def close_all(widget: W.Widget) -> None:
            for child in getattr(widget, "children", ()):
                close_all(child)
            parts = [getattr(widget, "layout", None), getattr(widget, "style", None)]
            widget.close()
            for part in parts:
                if isinstance(part, W.Widget):
                    part.close()

        close_all(self.widget)
        if self.position_panel is not None:  # shown by each game's widget, built for every one
            close_all(self.position_panel)
        self.board.close()

    # -- reading ---------------------------------------------------------------------------
    @property
    def frame(self) -> dict[str, Any]:
        """The frame the browser draws now (a JSON-safe dict; see :mod:`bus_lab.board.frame`)."""
        return self._frame

    @property
    def status_text(self) -> str:
        """The status line in words: the last step, the state's sentence and what to do next."""
        status = self.frame["status"]
        last = f"Last step: {status['last']} " if status["last"] else ""
        return f"{last}{status['now']} {status['hint']}".strip()

    @property
    def message_text(self) -> str:
        """The message line (an error or a note), or ``""``."""
        message = self.frame["message"]
        return message["text"] if message else ""

    @property
    def viewer_seat(self) -> int | None:
        """The seat whose view is shown, or ``None`` for the spectator view (same as :attr:`viewer`)."""
        return self.viewer

    def set_session(self, session: Session) -> None:
        """Show another session in this widget (e.g. a new game with other table settings).

        Auto-play stops; the seed, the "View as" choices and everything drawn follow it.

        Args:
            session (Session): the game to show from now on.

        Raises:
            TypeError: ``session`` is not a :class:`~bus_lab.engine.Session` (nothing changes).
        """
        if not isinstance(session, Session):
            raise TypeError(f"set_session needs a Session, not {type(session).__name__}")
        self.autoplay = False
        self.session = session
        self.next_seed = session.seed
        if self.viewer is not None and self.viewer >= session.game.num_players:
            self.viewer = None
        self._animate = False
        self.refresh()

    # -- setting up a position -------------------------------------------------------------
    def _build_position_panel(self) -> FoldingPanel | None:
        """The "Set up a position" panel (closed at first), or ``None`` when the game has no
        positions: a labelled text area with the position as JSON and two buttons."""
        if self.session.game.POSITIONS is None:
            return None
        self._position_note: str | None = None  # the text area's sentence when no position could be taken
        self.position_text = W.Textarea(
            description="Position (JSON)",
            layout=W.Layout(width="100%", height="18em"),
            style={"description_width": "initial"},
        )
        self.position_start_button = W.Button(
            description="Start from this position",
            tooltip="Start a game from the position in the text box (New game returns to it)",
            layout=W.Layout(width="auto"),
        )
        self.position_copy_button = W.Button(
            description="Copy the current position",
            tooltip="Put the position on the board now into the text box",
            layout=W.Layout(width="auto"),
        )
        self.position_check = W.HTML(layout=W.Layout(min_height="1.5em"))
        self.position_check.add_class("bl-position-check")
        self.position_start_button.on_click(lambda _b: self.start_from_position())
        self.position_copy_button.on_click(lambda _b: self.copy_position())
        self.position_text.observe(lambda _change: self._check_position_text(), names="value")
        self.position_text.value = self._position_words()
        self._check_position_text()
        body = W.VBox(
            [
                W.HTML(
                    "<p>Edit the position (JSON); the line under it checks it as you type. "
                    "Then press Start from this position.</p>"
                ),
                self.position_text,
                self.position_check,
                W.HBox([self.position_start_button, self.position_copy_button]),
            ]
        )
        return FoldingPanel(
            "Set up a position",
            body,
            "Show the position on the board as JSON, edit it and start a game from it",
        )

    def _position_panels(self) -> list[W.Widget]:
        """``[position_panel]``, or ``[]`` when the game has no positions (for a widget's layout)."""
        return [] if self.position_panel is None else [self.position_panel]

    def position_check_text(self) -> str:
        """What the line under the position's text area says about the text now, checked as it is
        typed: ``"Ready: …"`` when a game can start from it, else why not (the JSON error with its
        line and column, or the :class:`~bus_lab.engine.errors.PositionError` text)."""
        text = self.position_text.value
        if text == self._position_note:
            return "No position here yet: go on to such a point and press Copy the current position."
        try:
            position = json.loads(text)
        except json.JSONDecodeError as exc:
            return f"Not JSON yet, at line {exc.lineno}, column {exc.colno}: {_json_problem(exc.msg)}."
        if not isinstance(position, dict):
            return "Not a position: it must be a JSON object ({ … }) with the fields shown by Copy."
        try:
            self.session.game.state_from_position(position)
        except PositionError as exc:
            return f"Cannot start from this: {exc}"
        except Exception as exc:  # any other refusal is shown the same way, never raised while typing
            return f"Cannot start from this ({type(exc).__name__}): {exc}"
        if text == self._position_words():
            return "This is the position on the board now: edit it, then press Start from this position."
        return "Ready: press Start from this position."

    def _check_position_text(self) -> None:
        """Show :meth:`position_check_text` under the text area (it runs on every edit)."""
        words = self.position_check_text()
        if words.startswith(("Not ", "Cannot ")):
            colour = "var(--jp-error-color1, #8a1c1c)"
        elif words.startswith("Ready"):
            colour = "var(--jp-success-color1, #1b5e20)"
        else:
            colour = "var(--jp-ui-font-color1, #1a1a1a)"
        self.position_check.value = f'<span style="color:{colour}">{html.escape(words)}</span>'

    def _position_words(self) -> str:
        """The current position as pretty JSON, or the sentence saying where a position can be
        taken when it cannot be taken now."""
        try:
            position = self.session.state.position()
        except PositionError as exc:
            self._position_note = str(exc)
            return self._position_note
        return json.dumps(position, indent=2, ensure_ascii=False)

    def copy_position(self) -> None:
        """Put the current position into the panel's text area (the Copy the current position
        button). When no position can be taken now, the text area and a note say where one can.

        Raises:
            NotImplementedError: the game has no positions (no panel).
        """
        if self.position_panel is None:
            raise NotImplementedError(f"{self.session.game.title or self.session.game.name} has no positions")

        def run() -> str | None:
            try:
                self.session.state.position()
            except PositionError as exc:
                self._position_note = str(exc)
                self.position_text.value = self._position_note
                return self._position_note
            self.position_text.value = self._position_words()
            return None

        self._guarded(run)

    def start_from_position(self, text: str | None = None) -> None:
        """Start a new game from a position (the Start from this position button): same seats,
        bots and seed, no scripted deck; New game returns to that position.

        Args:
            text (str | None): the position as JSON; default the panel's text area. A given text
                is put into the text area first.

        A text that is not JSON, or a position that cannot be set up, is shown in the message line
        (the ``JSONDecodeError`` or :class:`~bus_lab.engine.errors.PositionError` text) and nothing
        changes.

        Raises:
            NotImplementedError: the game has no positions (no panel).
        """
        if self.position_panel is None:
            raise NotImplementedError(f"{self.session.game.title or self.session.game.name} has no positions")
        if text is not None:
            self.position_text.value = str(text)

        def run() -> str:
            position = json.loads(self.position_text.value)
            old = self.session
            session = Session(old.game, seed=old.seed, bots=old._bot_specs, start=position)
            self.set_session(session)
            self.position_text.value = self._position_words()
            return "the game starts from the position in the panel; New game returns to it."

        self._guarded(run)

    # -- hooks for each game -----------------------------------------------------------------
    def seat_name(self, seat: int) -> str:
        """How a seat is named on the board, in the scores and in prompts (``"Seat 2"``)."""
        return f"Seat {seat}"

    def heading(self, state: State) -> str:
        """The line under the title saying what part of the game is on (default: the game's
        board adapter's heading)."""
        return adapter_for(state.get_game().name).heading(state)

    def seat_kind(self, seat: int) -> str:
        """``"human"`` or the bot's name (``"best_odds bot"``)."""
        if seat in self.session.bots:
            name = getattr(self.session.bots[seat], "name", None)
            return f"{name} bot" if name else "bot"
        return "human"

    def scores(self, state: State) -> dict[str, Any]:
        """The scores table of the frame: points per seat with where they came from, and the result.

        Returns:
            dict: ``columns``, ``rows`` (``seat``, ``name``, ``points``, ``winner``, ``cells``),
            ``caption``, ``result``, ``winners``, ``summary``.
        """
        return adapter_for(state.get_game().name).scores(state, self.seat_name, self.seat_kind)

    # -- the frame ---------------------------------------------------------------------------
    def _hint(self, state: State) -> str:
        s = self.session
        if state.is_terminal():
            hint = "Press New game for another, or use Back or the timeline to look back."
        elif s.waiting_for_human():
            hint = (
                f"{self.seat_name(state.current_player())} is played by you: tap a highlighted place "
                "on the board, or a choice beside it."
            )
        elif state.is_chance_node():
            hint = "Press Step (or Auto-play) to draw the card."
            if self.pick_cards:
                hint += " Or choose it in the Card box and press Deal this card."
        else:
            seat = state.current_player()
            hint = f"{self.seat_name(seat)} is a {self.seat_kind(seat)}: press Step (or Auto-play) to see its move."
        last = len(s) - 1
        if s.position < last:
            hint += (
                f" You are looking at step {s.position} of {last}: Forward replays the next step; "
                "Step or a move starts a new line of play from here."
            )
        return hint

    def last_step_text(self) -> str:
        """What the last step did, in words: the events it recorded with their rule IDs (at most
        ``MAX_STATUS_EVENTS``, the first ones), or ``""`` at the start of the game."""
        s = self.session
        if s.position == 0:
            return ""
        return step_text(s.state.events()[len(s.state_at(s.position - 1).events()) :])

    def build_frame(self) -> dict[str, Any]:
        """The whole frame for the current position (the board part plus status, controls,
        scores and log)."""
        s = self.session
        state = s.state
        human = s.waiting_for_human()
        frame = board_frame(state, self.viewer, movable=human)
        deciding = not state.is_terminal() and not state.is_chance_node()
        to_move = state.current_player() if deciding else None
        winners = set(state.winners())
        returns = state.returns()
        events = state.events()
        shown = events[-self.max_log :][::-1]
        last = len(s) - 1
        busy = state.is_terminal() or human
        picking = self.pick_cards and state.is_chance_node()
        frame.update(
            seq=self._seq,
            title=self._title,
            heading=self.heading(state),
            status={"last": self.last_step_text(), "now": state.status(), "hint": self._hint(state)},
            message=self._message,
            prompt=f"Your move, {self.seat_name(to_move)}:" if human and to_move is not None else "",
            seats=[
                {
                    "seat": seat,
                    "name": self.seat_name(seat),
                    "kind": self.seat_kind(seat),
                    "points": returns[seat],
                    "to_move": seat == to_move,
                    "winner": seat in winners,
                }
                for seat in range(s.game.num_players)
            ],
            scores=self.scores(state),
            log={"total": len(events), "events": [{"rule": e.rule, "text": e.text} for e in shown]},
            controls={
                "position": s.position,
                "last": last,
                "can_back": s.position > 0,
                "can_forward": s.position < last,
                "can_step": not busy,
                "autoplay": self.autoplay and not busy,
                "interval": self.interval,
                "seed": self.next_seed,
                "viewer": SPECTATOR if self.viewer is None else self.viewer,
                "viewers": [["All cards (spectator)", SPECTATOR]]
                + [[self.seat_name(seat), seat] for seat in range(s.game.num_players)],
            },
            deal=(
                [
                    {"action": a, "label": f"{state.action_to_string(a)} ({p})"}
                    for a, p in state.chance_outcomes()
                ]
                if picking
                else None
            ),
            animate=self._animate,
        )
        return frame

    def refresh(self) -> None:
        """Send the browser a new frame drawn from the session."""
        if self.autoplay and (self.session.state.is_terminal() or self.session.waiting_for_human()):
            self.autoplay = False
        self._seq += 1
        self._frame = self.build_frame()
        self._sync()
        self._animate = False

    def _sync(self) -> None:
        """Send the frame to the browser; the event log's entries travel only while the page
        shows the log (it is folded at first), which halves the bytes of a step."""
        frame = self._frame
        if not self.log_open:
            frame = {**frame, "log": {"total": frame["log"]["total"], "events": []}}
        self.board.frame = frame

    # -- messages --------------------------------------------------------------------------
    def show_note(self, text: str) -> None:
        """Show a note (not an error) in the message line; empty text clears the line."""
        self._message = {"kind": "note", "text": f"Note: {text}"} if text else None
        self.refresh()

    def show_error(self, exc: BaseException) -> None:
        """Show an exception in the message line (its kind and message, in words)."""
        self._message = {"kind": "error", "text": f"Error ({type(exc).__name__}): {exc}"}
        self.refresh()

    def _guarded(self, action: Callable[..., str | None], *args: Any, animate: bool = False) -> None:
        """Run an action of the page; show its note, or its exception, in the message line."""
        try:
            note = action(*args)
        except Exception as exc:  # shown to the person in the widget, and kept in last_error
            self.last_error = exc
            self._message = {"kind": "error", "text": f"Error ({type(exc).__name__}): {exc}"}
            self.refresh()
            return
        self.last_error = None
        self._message = {"kind": "note", "text": f"Note: {note}"} if note else None
        self._animate = animate
        self.refresh()

    # -- what the page (or a test) can do ------------------------------------------------------
    def _blocked_note(self) -> str | None:
        """Why Step or Auto-play cannot go on now (a person's move or the end), else ``None``."""
        state = self.session.state
        if state.is_terminal():
            return "the game is over. Press New game for another."
        if self.session.waiting_for_human():
            seat = self.seat_name(state.current_player())
            return (
                f"{seat} must choose a move: tap it on the board. Step only draws cards and plays bot seats."
            )
        return None

    def step(self) -> None:
        """Take one step (draw a card or let a bot move), as the Step button does."""

        def run() -> str | None:
            note = self._blocked_note()
            if note is not None:
                return note
            self.session.step()
            return None

        self._guarded(run, animate=True)

    def back(self) -> None:
        """Undo the last step (Forward brings it back)."""
        self._guarded(lambda: None if self.session.undo() else "already at the start of the game.")

    def forward(self) -> None:
        """Redo a step undone with Back."""
        self._guarded(
            lambda: (
                None if self.session.redo() else "nothing to redo: Forward replays steps undone with Back."
            )
        )

    def goto(self, position: int) -> None:
        """Show the position after ``position`` steps (the timeline), without motion."""

        def run() -> None:
            self.autoplay = False
            self.session.goto(int(position))

        self._guarded(run)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game (New game), with ``seed`` or the seed last chosen."""

        def run() -> None:
            self.autoplay = False
            if seed is not None:
                self.next_seed = int(seed)
            self.session.reset(seed=self.next_seed)

        self._guarded(run)

    def set_viewer(self, seat: int | None) -> None:
        """Draw the table as ``seat`` sees it (``None`` or ``-1``: the spectator, every card)."""

        def run() -> None:
            value = SPECTATOR if seat is None else seat
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"View as needs a seat number, not {type(value).__name__}")
            if not SPECTATOR <= value < self.session.game.num_players:
                raise ParameterError(
                    f"there is no seat {value}: seats are 0 to {self.session.game.num_players - 1}"
                )
            self.viewer = None if value == SPECTATOR else value

        self._guarded(run)

    def set_autoplay(self, on: bool) -> None:
        """Start or pause auto-play (the browser then asks for a step every ``interval`` ms)."""

        def run() -> str | None:
            note = self._blocked_note() if on else None
            self.autoplay = bool(on) and note is None
            return None if note is None else "auto-play stopped: " + note

        self._guarded(run)

    def tick(self) -> None:
        """One auto-play step (the browser's timer asks for it); stops auto-play when blocked."""

        def run() -> str | None:
            if not self.autoplay:
                return None
            note = self._blocked_note()
            if note is not None:
                self.autoplay = False
                return "auto-play stopped: " + note
            self.session.step()
            return None

        self._guarded(run, animate=self.interval >= FAST_AUTOPLAY_MS)

    def show_log(self, shown: bool) -> None:
        """The page opened (True) or folded (False) the event log: its entries are sent only
        while it is open. Nothing else changes (the same frame, the same sequence number)."""
        self.log_open = bool(shown)
        self._sync()

    def play(self, move: Move | int | str) -> None:
        """Make a person's move, as tapping it on the board does: a :class:`Move`, its action or
        its label. An illegal move is refused with the reason and the legal moves in the message
        line; nothing changes."""

        def run() -> None:
            self.autoplay = False
            self.session.play(move if isinstance(move, str) else getattr(move, "action", move))

        self._guarded(run, animate=True)

    def deal(self, action: int) -> None:
        """Deal the chosen outcome of a chance step (``pick_cards=True``)."""

        def run() -> str | None:
            state = self.session.state
            if not (self.pick_cards and state.is_chance_node()):
                return "no card is to be dealt now."
            self.session.play(action)
            return None

        self._guarded(run, animate=True)

    def handle_message(self, msg: Any) -> None:
        """Act on a message from the page, after checking it: ``{"type": "move", "action": int,
        "seq": int}``, ``{"type": "control", "name": ..., "value": ..., "seq": int}`` or
        ``{"type": "deal", "action": int, "seq": int}``. A malformed, oversized or stale message
        (sent from a board that has changed since) changes nothing and is answered in the
        message line."""
        try:
            size = len(json.dumps(msg))
        except (TypeError, ValueError):
            size = MAX_MESSAGE_CHARS + 1
        if size > MAX_MESSAGE_CHARS or not isinstance(msg, dict):
            self._refuse("the page sent a message the lab cannot read; nothing changed.")
            return
        kind = msg.get("type")
        if not isinstance(kind, str) or set(msg) != MESSAGE_FIELDS.get(kind):
            self._refuse("the page sent a message the lab cannot read; nothing changed.")
            return
        if kind == "ping":
            return
        seq = msg.get("seq")
        if isinstance(seq, bool) or not isinstance(seq, int):
            self._refuse("the page sent a message the lab cannot read; nothing changed.")
            return
        if kind == "control":
            name, value = msg.get("name"), msg.get("value")
            if not isinstance(name, str) or name not in CONTROLS:
                self._refuse(f"there is no control {str(name)[:40]!r}; nothing changed.")
                return
            wanted = CONTROLS[name]
            if wanted is None and value is not None:
                self._refuse(f"the {name} control takes no value; nothing changed.")
                return
            if wanted is not None and (type(value) is not wanted):
                self._refuse(f"the {name} control needs a {wanted.__name__}; nothing changed.")
                return
            if name == "tick" and seq != self._seq:
                return  # a timer from an older frame
            self._control(name, value)
            return
        if kind in ("move", "deal"):
            action = msg.get("action")
            if isinstance(action, bool) or not isinstance(action, int):
                self._refuse("a move is sent as its action number; nothing changed.")
                return
            if seq != self._seq:
                self._refuse("the board changed before your move arrived, so it was not played: look again.")
                return
            if kind == "deal":
                self.deal(action)
                return
            if not self.frame["moves"]:
                self._refuse(
                    f"no person is to move now, so move {action} was not played. {self._hint(self.session.state)}"
                )
                return
            self.play(action)  # an illegal action is refused with the reason and the legal moves
            return
        self._refuse("the page sent a message the lab cannot read; nothing changed.")

    def _refuse(self, text: str) -> None:
        self._message = {"kind": "error", "text": text[0].upper() + text[1:]}
        self.refresh()

    def _control(self, name: str, value: Any) -> None:
        actions: dict[str, Callable[[], None]] = {
            "step": self.step,
            "tick": self.tick,
            "back": self.back,
            "forward": self.forward,
            "goto": lambda: self.goto(value),
            "reset": lambda: self.reset(value),
            "viewer": lambda: self.set_viewer(value),
            "autoplay": lambda: self.set_autoplay(value),
            "log": lambda: self.show_log(value),
        }
        actions[name]()

    def _on_board_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.handle_message(content)

    # -- building tables -------------------------------------------------------------------
    @staticmethod
    def table_session(
        game: Game,
        humans: Iterable[int],
        bot: str,
        seed: int | None,
        deck: Sequence[str] | None,
        start: dict[str, Any] | None = None,
    ) -> Session:
        """A :class:`Session` for ``game`` where the ``humans`` seats are people and every other
        seat is played by the bot policy named ``bot``, begun at ``start`` (a position dict) if given.

        Raises:
            ParameterError: a human seat that is not at the table (the message gives the seats).
            PositionError: ``start`` cannot be set up (the message names the field).
            NotImplementedError: ``start`` is given but the game has no positions.
            ValueError: an unknown bot name (from :class:`Session`).
        """
        if start is not None and game.POSITIONS is None:
            raise NotImplementedError(
                f"{game.title or game.name} has no positions to set up yet: start= cannot be used"
            )
        humans = tuple(humans)
        for seat in humans:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
                raise ParameterError(
                    f"humans={humans!r}: {seat!r} is not a seat at the table; "
                    f"seats are 0 to {game.num_players - 1}"
                )
        bots = {s: bot for s in range(game.num_players) if s not in humans}
        return Session(game, seed=seed, bots=bots, deck=deck, start=start)
