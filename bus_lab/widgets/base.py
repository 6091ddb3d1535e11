"""``GameWidget``: the game-agnostic ipywidgets front end of a :class:`~bus_lab.engine.Session`.

One widget shows one session: the board (one ``HTML`` widget holding the table drawn from
``state.view(viewer)``), a status sentence, a message line for notes and errors, the controls
(Step, Back, Forward, Reset with a seed box, an Auto-play/Pause toggle and a timeline slider), move buttons for
human seats, the scores with their breakdown, and the event log with the rule ID of every event.

Design rules (see ``JUPYTER.md``): every frame is drawn by one method, :meth:`GameWidget.refresh`,
inside ``hold_sync()``; no widget is created per step (a fixed pool of move buttons is reused);
``ipywidgets.Play`` drives auto-play (no sleeps, threads or loops): its timer runs in the browser,
but its own buttons are icons with no accessible name, so it is hidden and started and paused by
a labelled ``ToggleButton`` (kept in step with ``Play.playing``) that works from the keyboard and a screen
reader. An exception raised in a callback is shown in the widget's message line, never swallowed.

A game plugs in by subclassing and overriding the hooks :meth:`~GameWidget.render_board`,
:meth:`~GameWidget.header_html`, :meth:`~GameWidget.action_label`,
:meth:`~GameWidget.action_tooltip`, :meth:`~GameWidget.action_odds` and
:meth:`~GameWidget.action_pool_size`.

Example (works headless, e.g. in a test)::

    from bus_lab import Session, load_game
    from bus_lab.widgets import GameWidget

    w = GameWidget(Session(load_game("ride_the_bus", players=3), seed=1, bots="best_odds"))
    w.step_button.click()          # one step: a bot's guess or a card drawn
    w.back_button.click()          # and back again
    w                              # in a notebook: the whole widget
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as W

from bus_lab.engine.core import Game, State
from bus_lab.engine.errors import ParameterError
from bus_lab.engine.session import Session

#: Value of the viewer dropdown meaning "spectator, every card shown" (``view(None)``).
SPECTATOR = -1
#: The smallest auto-play interval allowed, in milliseconds.
MIN_INTERVAL_MS = 200
#: The most events of one step that the status line repeats (the log has them all).
MAX_STATUS_EVENTS = 3
_PLAY_MAX = 1_000_000


def format_odds(p: Fraction) -> str:
    """An exact chance as a fraction and a percentage, e.g. ``"28/51 (54.9%)"``; ``"0 (impossible)"``
    and ``"1 (certain)"`` at the ends. The percentage is exact to 0.1, halves rounded up (1/16 is 6.3%).

    Args:
        p (Fraction): a probability between 0 and 1.
    """
    p = Fraction(p)
    if p == 0:
        return "0 (impossible)"
    if p == 1:
        return "1 (certain)"
    tenths = math.floor(p * 1000 + Fraction(1, 2))  # the percentage to 0.1, halves rounded up
    return f"{p.numerator}/{p.denominator} ({tenths // 10}.{tenths % 10}%)"


def _button(label: str, tooltip: str, icon: str = "", width: str = "auto") -> W.Button:
    return W.Button(description=label, tooltip=tooltip, icon=icon, layout=W.Layout(width=width))


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


class GameWidget:
    """A playable, rewindable view of one :class:`~bus_lab.engine.Session`.

    The object displays itself in a notebook (it shows :attr:`widget`, a ``VBox`` of all the
    parts); to put it inside another container use ``w.widget``.

    Args:
        session (Session): the game being played; the widget drives it (``step``, ``play``,
            ``undo``, ``redo``, ``goto``, ``reset``) and reads it (``state``, ``position``).
        title (str | None): heading; default the game's title.
        max_log (int): how many of the latest events the log shows (newest first).
        interval (int): auto-play speed, milliseconds per step (at least 200).
        pick_cards (bool): when True, a dropdown lets the learner choose the outcome of each
            chance step (the card to deal) instead of drawing it at random.

    Raises:
        ValueError: ``interval`` below 200 ms or ``max_log`` below 1.

    Attributes (for headless use and tests):
        widget (the ``VBox`` shown), session, board, header, status, error, log, scores,
        step_button, back_button, forward_button, reset_button, seed_box, viewer_note, autoplay (the Auto-play /
        Pause toggle), play (the hidden ``Play`` timer it drives), timeline, viewer,
        action_buttons (list of
        ``Button``; the ones in use have ``layout.display != "none"``), prompt, pick_box,
        pick_button, last_error (the last exception shown, or ``None``).

    To show another game in the same widget (e.g. new table settings), call
    :meth:`set_session`; the controls are reused.
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
        self.pick_cards = bool(pick_cards)
        self.last_error: BaseException | None = None
        self._syncing = False
        self._keep_focus = False
        self._shown_actions: list[int] = []
        self._title = title if title is not None else (session.game.title or session.game.name)

        self.header = W.HTML()
        self.status = W.HTML()
        self.error = W.HTML()
        self.board = W.HTML(layout=W.Layout(overflow="auto"))

        self.step_button = _button(
            "Step", "Take one step: draw the next card or let a bot move", "step-forward"
        )
        self.back_button = _button("Back", "Undo the last step (Forward brings it back)", "undo")
        self.forward_button = _button("Forward", "Redo a step you went back from", "redo")
        self.reset_button = _button(
            "Reset",
            "Start a new game with the seed in the seed box (this game is "
            "discarded: Back cannot bring it back)",
            "refresh",
        )
        self.seed_box = W.IntText(
            value=session.seed,
            description="Seed",
            tooltip="Seed of the next game (same seed, same cards and bot moves); press Reset to use it",
            style={"description_width": "initial"},
            layout=W.Layout(width="150px"),
        )
        self.play = W.Play(
            value=0,
            min=0,
            max=_PLAY_MAX,
            step=1,
            interval=int(interval),
            show_repeat=False,
            layout=W.Layout(display="none"),
            description="Auto-play timer",
            tooltip="The timer behind the Auto-play button",
        )
        self._autoplay_tooltip = (
            f"Auto-play: take a step every {int(interval)} ms until a human seat must "
            "move or the game ends; press again to pause"
        )
        self.autoplay = W.ToggleButton(
            value=False,
            description="Auto-play",
            icon="play",
            tooltip=self._autoplay_tooltip,
            layout=W.Layout(width="auto"),
        )
        self.timeline = W.IntSlider(
            value=0,
            min=0,
            max=0,
            description="Timeline",
            continuous_update=False,
            tooltip="Drag to travel back and forth through the steps taken",
            layout=W.Layout(width="95%"),
        )
        self.viewer = W.Dropdown(
            options=self._viewer_options(),
            value=SPECTATOR,
            description="View as",
            tooltip="Whose view of the table to show (hidden cards stay hidden)",
        )

        self.prompt = W.HTML()
        self.action_buttons: list[W.Button] = []
        self.action_box = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self._grow_pool(self.action_pool_size())
        self.pick_box = W.Dropdown(options=[], description="Card", tooltip="Choose the outcome of this draw")
        self.pick_button = _button("Deal this card", "Apply the outcome chosen in the Card box")
        self.pick_row = W.HBox([self.pick_box, self.pick_button], layout=W.Layout(display="none"))

        self.scores = W.HTML()
        self.log = W.HTML()

        self.step_button.on_click(lambda _b: self._guarded(self._do_step))
        self.back_button.on_click(lambda _b: self._guarded(self._do_back))
        self.forward_button.on_click(lambda _b: self._guarded(self._do_forward))
        self.reset_button.on_click(lambda _b: self._guarded(self._do_reset))
        self.pick_button.on_click(lambda _b: self._guarded(self._do_pick))
        self.play.observe(self._on_play_tick, names="value")
        self.autoplay.observe(self._on_autoplay, names="value")
        self.play.observe(self._on_play_playing, names="playing")
        self.timeline.observe(self._on_timeline, names="value")
        self.viewer.observe(lambda _c: None if self._syncing else self._guarded(self._do_view), names="value")

        # The seed box comes before Reset, so a stray Tab and Enter after Auto-play lands on the box,
        # not on Reset (which Back cannot undo).
        controls = W.HBox(
            [
                self.back_button,
                self.step_button,
                self.forward_button,
                self.autoplay,
                self.play,
                self.seed_box,
                self.reset_button,
            ],
            layout=W.Layout(flex_flow="row wrap", align_items="center"),
        )
        # Side by side when there is room, the log below the scores in a narrow output area.
        panels = W.HBox(
            [
                W.VBox([W.HTML("<b>Scores</b>"), self.scores], layout=W.Layout(flex="1 1 460px")),
                W.VBox(
                    [W.HTML("<b>Event log</b> (newest first, rule ID in brackets)"), self.log],
                    layout=W.Layout(flex="1 1 380px"),
                ),
            ],
            layout=W.Layout(flex_flow="row wrap", grid_gap="4px 16px"),
        )
        self.viewer_note = W.HTML()
        viewer_row = W.HBox([self.viewer, self.viewer_note], layout=W.Layout(align_items="center"))
        self.widget = W.VBox(
            [
                self.header,
                self.status,
                self.error,
                self.board,
                self.prompt,
                self.action_box,
                self.pick_row,
                controls,
                self.timeline,
                viewer_row,
                panels,
            ]
        )
        self._guarded(self.refresh)

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

        for button in self.action_buttons:
            close_all(button)
        close_all(self.widget)

    def set_session(self, session: Session) -> None:
        """Show another session in this widget (e.g. a new game with other table settings).

        Auto-play stops; the seed box, the viewer choices (one per seat of the new game), the
        timeline and everything drawn follow the new session. No widget is created unless the
        new game needs more move buttons than any game before (a bounded pool).

        Args:
            session (Session): the game to show from now on.

        Raises:
            TypeError: ``session`` is not a :class:`~bus_lab.engine.Session` (nothing changes).
        """
        if not isinstance(session, Session):
            raise TypeError(f"set_session needs a Session, not {type(session).__name__}")
        self._stop_play()
        old_viewer = self.viewer.value
        self.session = session
        self._syncing = True
        try:
            with self.viewer.hold_sync(), self.seed_box.hold_sync():
                self.viewer.options = self._viewer_options()
                self.viewer.value = old_viewer if old_viewer < session.game.num_players else SPECTATOR
                self.seed_box.value = session.seed
        finally:
            self._syncing = False
        self._grow_pool(self.action_pool_size())
        self.refresh()

    def _viewer_options(self) -> list[tuple[str, int]]:
        return [("All cards (spectator)", SPECTATOR)] + [
            (self.seat_name(s), s) for s in range(self.session.game.num_players)
        ]

    # -- hooks for each game ---------------------------------------------------------------
    def render_board(self, state: State, viewer: int | None) -> str:
        """HTML of the table as ``viewer`` sees it (``None``: spectator). Override per game.

        The default shows ``state.view(viewer)`` as indented JSON.
        """
        return f"<pre>{escape(json.dumps(state.view(viewer), indent=1))}</pre>"

    def viewer_note_html(self, state: State, viewer: int | None) -> str:
        """A note beside "View as" when the chosen seat sees exactly what the spectator sees (so
        switching shows no change, e.g. in games where every card on the table is face up)."""
        if viewer is None:
            return ""
        seat_view, spectator = state.view(viewer), state.view(None)
        if isinstance(seat_view, dict) and isinstance(spectator, dict):  # who is looking is not content
            seat_view, spectator = (
                {k: v for k, v in view.items() if k != "viewer"} for view in (seat_view, spectator)
            )
        if seat_view != spectator:
            return ""
        return (
            f"<small style='margin-left:8px'>{escape(self.seat_name(viewer))} sees the whole table now: "
            "nothing on it is hidden from this seat.</small>"
        )

    def header_html(self, state: State) -> str:
        """The heading line (title, and e.g. which part of the game is on). Override per game."""
        return f"<h3 style='margin:4px 0'>{escape(self._title)}</h3>"

    def seat_name(self, seat: int) -> str:
        """How a seat is named in the viewer switch, scores and prompts (``"Seat 2"``)."""
        return f"Seat {seat}"

    def action_pool_size(self) -> int:
        """How many move buttons to build once (the longest list of legal moves). Override."""
        return 8

    def action_odds(self, state: State, actions: list[int]) -> dict[int, Fraction]:
        """Exact chance that each move succeeds, for moves where that makes sense (guesses).

        Returns ``{action: Fraction}`` (may leave actions out); default ``{}``.
        """
        return {}

    def action_label(self, state: State, action: int, odds: Fraction | None) -> str:
        """The text on a move button: the action's label, then its odds when known."""
        label = state.action_to_string(action)
        return label if odds is None else f"{label} — {format_odds(odds)}"

    def action_tooltip(self, state: State, action: int, odds: Fraction | None) -> str:
        """The tooltip of a move button (a sentence). Override for game detail."""
        text = f"Play {state.action_to_string(action)}"
        if odds is not None:
            text += f": right with chance {format_odds(odds)}"
        return text

    # -- derived values --------------------------------------------------------------------
    @property
    def viewer_seat(self) -> int | None:
        """The seat whose view is shown, or ``None`` for the spectator view."""
        value = self.viewer.value
        return None if value == SPECTATOR else int(value)

    def _seat_kind(self, seat: int) -> str:
        if seat in self.session.bots:
            name = getattr(self.session.bots[seat], "name", None)
            return f"{name} bot" if name else "bot"
        return "human"

    def _hint(self, state: State) -> str:
        s = self.session
        if state.is_terminal():
            hint = "Press Reset for a new game, or use Back or the timeline to look back."
        elif s.waiting_for_human():
            hint = f"{self.seat_name(state.current_player())} is played by you: choose a move below."
        elif state.is_chance_node():
            hint = "Press Step (or Auto-play) to draw the card."
            if self.pick_cards:
                hint += " Or choose it in the Card box and press Deal this card."
        else:
            seat = state.current_player()
            hint = f"{self.seat_name(seat)} is a {self._seat_kind(seat)}: press Step (or Auto-play) to see its move."
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
        new = s.state.events()[len(s.state_at(s.position - 1).events()) :]
        shown = [f"{e.text} [{e.rule}]" for e in new[:MAX_STATUS_EVENTS]]
        if len(new) > MAX_STATUS_EVENTS:
            shown.append(f"and {len(new) - MAX_STATUS_EVENTS} more in the event log")
        return " · ".join(shown)

    def status_html(self, state: State) -> str:
        """The status line: what the last step did, the state's sentence (``state.status()``) and
        what to do next."""
        last = self.last_step_text()
        last_html = (
            f"<span class='bus-lab-last'>Last step: {escape(last, quote=False)}</span><br>" if last else ""
        )
        return (
            f"<div role='status'>{last_html}<b>{escape(state.status(), quote=False)}</b><br>"
            f"<span style='color:#333'>{escape(self._hint(state), quote=False)}</span></div>"
        )

    def scores_html(self, state: State) -> str:
        """A table of points per seat with the score breakdown, and the winners at the end."""
        game = self.session.game
        returns = state.returns()
        winners = state.winners()
        rule = "lowest total wins" if game.lower_score_wins else "highest total wins"
        rows = []
        for seat, points in enumerate(returns):
            lines = state.score_breakdown(seat)
            detail = (
                "<br>".join(
                    f"{escape(str(line['label']))} <code style='white-space:nowrap'>[{escape(str(line['rule']))}]</code>"
                    + (f" ×{line['times']}" if line.get("times", 1) > 1 else "")
                    + f": {line['points']}"
                    for line in lines
                )
                or "nothing yet"
            )
            star = " ★ winner" if seat in winners else ""
            rows.append(
                f"<tr data-seat='{seat}' data-points='{points}'>"
                f"<td style='padding:2px 6px'>{escape(self.seat_name(seat))} "
                f"<small>({escape(self._seat_kind(seat))})</small>{star}</td>"
                f"<td style='padding:2px 6px;text-align:right'><b>{points}</b></td>"
                f"<td style='padding:2px 6px'><small>{detail}</small></td></tr>"
            )
        if winners:
            names = " and ".join(self.seat_name(s) for s in winners)
            verb = "share the win" if len(winners) > 1 else "wins"
            result = f"Result: {escape(names)} {verb} with {returns[winners[0]]} points."
        else:
            result = "No winner yet: the game is in progress."
        data = ",".join(str(s) for s in winners)
        return (
            f"<table class='bus-lab-scores' style='border-collapse:collapse'>"
            f"<caption style='text-align:left'>Points ({rule})</caption>"
            f"<tr><th style='text-align:left'>Seat</th><th>Points</th>"
            f"<th style='text-align:left'>Where they came from</th></tr>{''.join(rows)}</table>"
            f"<p class='bus-lab-winners' data-winners='{data}'><b>{result}</b></p>"
        )

    def log_html(self, state: State) -> str:
        """The latest events up to the current position, newest first, each with its rule ID."""
        events = state.events()
        shown = events[-self.max_log :][::-1]
        items = "".join(
            f"<li><code style='white-space:nowrap'>[{escape(e.rule)}]</code> "
            f"{escape(e.text, quote=False)}</li>"
            for e in shown
        )
        more = (
            f"Latest {len(shown)} of {len(events)} events."
            if len(events) > len(shown)
            else f"{len(events)} events."
        )
        return (
            f"<div class='bus-lab-log' style='max-height:260px;overflow-y:auto'>"
            f"<small>{more}</small><ol reversed start='{len(events)}' "
            f"style='margin:2px 0;padding-left:2.5em'>{items}</ol></div>"
        )

    # -- drawing ---------------------------------------------------------------------------
    def _grow_pool(self, size: int) -> None:
        """Make sure there are at least ``size`` move buttons (built once, reused every frame)."""
        while len(self.action_buttons) < size:
            index = len(self.action_buttons)
            button = W.Button(description="", tooltip="", layout=W.Layout(width="auto", display="none"))
            button.on_click(lambda _b, i=index: self._guarded(self._do_action, i))
            self.action_buttons.append(button)
        if tuple(self.action_box.children) != tuple(self.action_buttons):
            self.action_box.children = tuple(self.action_buttons)

    @contextlib.contextmanager
    def _hold_all(self, widgets):
        with contextlib.ExitStack() as stack:
            for widget in widgets:
                stack.enter_context(widget.hold_sync())
            yield

    @staticmethod
    def table_session(
        game: Game, humans: Iterable[int], bot: str, seed: int | None, deck: Sequence[str] | None
    ) -> Session:
        """A :class:`Session` for ``game`` where the ``humans`` seats are people and every other
        seat is played by the bot policy named ``bot``.

        Raises:
            ParameterError: a human seat that is not at the table (the message gives the seats).
            ValueError: an unknown bot name (from :class:`Session`).
        """
        humans = tuple(humans)
        for seat in humans:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
                raise ParameterError(
                    f"humans={humans!r}: {seat!r} is not a seat at the table; "
                    f"seats are 0 to {game.num_players - 1}"
                )
        bots = {s: bot for s in range(game.num_players) if s not in humans}
        return Session(game, seed=seed, bots=bots, deck=deck)

    def button_actions(self, state: State) -> list[int]:
        """The legal actions that get a move button when a human is to act (hook; default: all of
        them). A game whose moves are chosen with its own controls returns the rest here."""
        return state.legal_actions()

    def refresh(self) -> None:
        """Redraw everything from the session: board, status, controls, moves, scores and log."""
        s = self.session
        state = s.state
        viewer = self.viewer_seat
        board = self.render_board(state, viewer)
        viewer_note = self.viewer_note_html(state, viewer)
        header = self.header_html(state)
        status = self.status_html(state)
        scores = self.scores_html(state)
        log = self.log_html(state)
        human = s.waiting_for_human()
        actions = self.button_actions(state) if human else []
        odds = self.action_odds(state, actions) if actions else {}
        labels = [
            (self.action_label(state, a, odds.get(a)), self.action_tooltip(state, a, odds.get(a)))
            for a in actions
        ]
        picking = self.pick_cards and state.is_chance_node()
        options = (
            [
                (f"{state.action_to_string(a)} ({p.numerator}/{p.denominator})", a)
                for a, p in state.chance_outcomes()
            ]
            if picking
            else []
        )
        if len(actions) > len(self.action_buttons):
            self._grow_pool(len(actions))
        last = len(s) - 1
        busy = state.is_terminal() or human
        self._shown_actions = list(actions)

        widgets = [
            self.header,
            self.board,
            self.viewer_note,
            self.status,
            self.scores,
            self.log,
            self.prompt,
            self.timeline,
            self.back_button,
            self.forward_button,
            self.step_button,
            self.play,
            self.autoplay,
            self.pick_box,
            self.pick_row.layout,
            *self.action_buttons,
            *(b.layout for b in self.action_buttons),
        ]
        self._syncing = True
        try:
            with self._hold_all(widgets):
                self.header.value = header
                self.board.value = board
                self.viewer_note.value = viewer_note
                self.status.value = status
                self.scores.value = scores
                self.log.value = log
                self.prompt.value = (
                    f"<b>Your move, {escape(self.seat_name(state.current_player()))}:</b>" if human else ""
                )
                for i, button in enumerate(self.action_buttons):
                    if i < len(actions):
                        button.description, button.tooltip = labels[i]
                        button.disabled = False
                        button.layout.display = None
                    else:
                        button.disabled = True
                        button.layout.display = "none"
                if picking:
                    self.pick_box.options = options
                self.pick_row.layout.display = None if picking else "none"
                if s.position > self.timeline.max:
                    self.timeline.max = last
                    self.timeline.value = s.position
                else:
                    self.timeline.value = s.position
                    self.timeline.max = last
                self.back_button.disabled = s.position == 0
                self.forward_button.disabled = s.position >= last
                self.step_button.disabled = busy  # a person's move is made with the move buttons
                if busy and (self.play.playing or self.autoplay.value):
                    self._set_auto_play(False)
                self.play.disabled = busy
                self.autoplay.disabled = busy
        finally:
            self._syncing = False

    # -- messages --------------------------------------------------------------------------
    def show_note(self, text: str) -> None:
        """Show a note (not an error) in the message line; empty text clears the line."""
        self.error.value = (
            f"<div role='status' style='color:#0b3d66'>ℹ Note: {escape(text)}</div>" if text else ""
        )

    def show_error(self, exc: BaseException) -> None:
        """Show an exception in the message line (type and message, in words)."""
        self.error.value = (
            f"<div role='alert' style='color:#8a2a00;font-weight:bold'>⚠ Error "
            f"({escape(type(exc).__name__)}): {escape(str(exc))}</div>"
        )

    def _guarded(self, action: Callable[..., Any], *args: Any) -> None:
        """Run a callback; show its note on success or its exception in the message line.

        When the callback played on (a move, a step, an auto-play tick; not Back, Forward, the
        timeline or Reset), keyboard focus goes where the next press belongs (see
        :meth:`focus_next_control`): the pressed button may just have been hidden or disabled,
        and focus would otherwise fall back to the top of the page.
        """
        before = (self.session, self.session.position)
        self._keep_focus = False
        try:
            note = action(*args)
        except Exception as exc:  # shown to the user in the widget, and kept in last_error
            self.last_error = exc
            self.show_error(exc)
            return
        self.last_error = None
        self.show_note(note or "")
        if not self._keep_focus and (self.session, self.session.position) != before:
            self.focus_next_control()

    def move_controls(self) -> list[W.Button]:
        """The buttons a person makes a move with, in screen order (hook; default: the move
        buttons). A game with its own move panel puts its buttons first."""
        return list(self.action_buttons)

    def focus_next_control(self) -> W.Widget | None:
        """Give keyboard focus to the control the next press belongs to: the first usable move
        control when a person must move, else Step (or Back at the end of a game).

        Returns:
            the widget focused, or ``None`` when none applies.
        """
        target: W.Widget | None = None
        if self.session.waiting_for_human():
            target = next(
                (b for b in self.move_controls() if not b.disabled and b.layout.display != "none"), None
            )
        if target is None:
            target = self.step_button if not self.step_button.disabled else self.back_button
        target.focus()
        return target

    # -- callbacks -------------------------------------------------------------------------
    def _blocked_note(self) -> str | None:
        """Why Step or Play cannot go on now (a human's move or the end), else ``None``."""
        state = self.session.state
        if state.is_terminal():
            return "the game is over. Press Reset for a new game."
        if self.session.waiting_for_human():
            seat = self.seat_name(state.current_player())
            return (
                f"{seat} must choose a move: click one of the move buttons. "
                "Step only draws cards and plays bot seats."
            )
        return None

    def _do_step(self) -> str | None:
        note = self._blocked_note()
        if note is not None:
            self.refresh()
            return note
        self.session.step()
        self.refresh()
        return None

    def _do_back(self) -> str | None:
        self._keep_focus = True
        moved = self.session.undo()
        self.refresh()
        return None if moved else "already at the start of the game."

    def _do_forward(self) -> str | None:
        self._keep_focus = True
        moved = self.session.redo()
        self.refresh()
        return None if moved else "nothing to redo: Forward replays steps undone with Back."

    def _do_reset(self) -> None:
        self._keep_focus = True
        self._stop_play()
        self.session.reset(seed=int(self.seed_box.value))
        self.refresh()

    def _do_action(self, index: int) -> str | None:
        if index >= len(self._shown_actions):
            return "that button is not in use now."
        self.session.play(self._shown_actions[index])
        self.refresh()
        return None

    def _do_pick(self) -> str | None:
        if not self.session.state.is_chance_node() or self.pick_box.value is None:
            return "no card is to be dealt now."
        self.session.play(int(self.pick_box.value))
        self.refresh()
        return None

    def _do_view(self) -> None:
        self.refresh()

    def _stop_play(self) -> None:
        self._syncing = True
        try:
            with self.play.hold_sync():
                self._set_auto_play(False)
                self.play.value = 0
        finally:
            self._syncing = False

    def _set_auto_play(self, on: bool) -> None:
        """Start or stop auto-play: the hidden ``Play`` timer, the toggle and the toggle's words
        change together and reach the browser in one message each, so the page never shows a
        stopped timer under a "Pause" button."""
        with self.play.hold_sync(), self.autoplay.hold_sync():
            self.play.playing = on
            self.autoplay.value = on
            self.autoplay.description = "Pause" if on else "Auto-play"
            self.autoplay.icon = "pause" if on else "play"
            self.autoplay.tooltip = (
                "Pause auto-play (Step still takes one step at a time)" if on else self._autoplay_tooltip
            )

    def _on_autoplay(self, change: dict) -> None:
        """A press on the Auto-play toggle: start or pause. A start is refused, with a note saying
        why, while a person must move or the game is over (a press can reach the kernel after
        auto-play has stopped by itself, when the browser still showed "Pause")."""
        on = bool(change["new"])
        note = self._blocked_note() if on else None
        if note is not None:
            self._set_auto_play(False)
            self.show_note("auto-play stopped: " + note)
            return
        self._set_auto_play(on)

    def _on_play_playing(self, change: dict) -> None:
        """The timer stopped or started on its own (the browser's ``Play``): the toggle follows."""
        if bool(change["new"]) != self.autoplay.value:
            self._set_auto_play(bool(change["new"]))

    def _on_play_tick(self, change: dict) -> None:
        """One tick of the Play widget (its value went up) is one step."""
        if self._syncing or change["new"] <= change["old"]:
            return

        def tick() -> str | None:
            self._keep_focus = True  # focus moves only when auto-play stops
            note = self._blocked_note()
            if note is not None:
                self._stop_play()
                self.refresh()
                return "auto-play stopped: " + note
            self.session.step()
            if self._blocked_note() is not None or change["new"] >= _PLAY_MAX:
                self._stop_play()
                self._keep_focus = False
            self.refresh()
            return None

        self._guarded(tick)
        if self.last_error is not None:
            self._stop_play()

    def _on_timeline(self, change: dict) -> None:
        if self._syncing:
            return

        def jump() -> None:
            self._keep_focus = True
            self.session.goto(int(change["new"]))
            self.refresh()

        self._guarded(jump)
