"""``BusAndStopWidget``: play Bus & Stop move by move against bots, step through and rewind.

Example::

    from bus_lab.widgets import BusAndStopWidget

    w = BusAndStopWidget(players=4, humans=(0,), seed=3)    # you play seat 0, three greedy bots
    w                                      # in a notebook: the table and the controls
    w.pick_buttons[0].click()              # pick up every yellow passenger (if allowed)
    w.drop_destination.value = 4           # or: choose a destination stack ...
    w.drop_count.value = 2                 # ... and a count,
    w.drop_button.click()                  # ... then choose the passengers with the move buttons

For a human seat the widget shows one pick-up button per colour (a disabled one says why in its
tooltip and in the line below, e.g. BAS-PICK-LIMIT), a drop-off chooser (destination → count →
which passengers, BAS-DROP-TOP, BAS-DROP-TYPE, BAS-DROP-MULTI), and the move buttons for
skedaddling (BAS-SKEDADDLE), unhappy discards (BAS-UNHAPPY) and the final round's pass
(BAS-END-FINAL). Rules are cited by ID in the log, the tooltips and the header.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

import ipywidgets as W

from bus_lab.engine.core import State
from bus_lab.games.bus_and_stop.components import MAX_COLOURS
from bus_lab.games.bus_and_stop.game import BusAndStopGame
from bus_lab.games.bus_and_stop.moves import (
    ChoosePassenger,
    DropOff,
    NoSkedaddle,
    Pass,
    PickUp,
    Skedaddle,
    StopDiscarding,
    UnhappyDiscard,
)
from bus_lab.games.bus_and_stop.phases import BusAndStopPhase, Stage
from bus_lab.games.bus_and_stop.render import table_svg
from bus_lab.widgets.base import FoldingPanel, GameWidget

#: Move buttons built once: the longest list of legal moves (20 kinds + "stop discarding", or a
#: turn's pick-ups and drop-offs with a pass).
POOL_SIZE = 26
#: Value of the destination chooser when no drop-off is possible.
NO_DROP = -1


class BusAndStopWidget(GameWidget):
    """A Bus & Stop table you can play, step through and rewind.

    Args:
        players (int): 2–4 seats.
        humans (Iterable[int]): seats you play; the others are bots. ``()``: a bots-only demo.
        bot (str): the bots' policy, ``"greedy"`` (default) or ``"random"``.
        seed (int | None): seed of the deck and of the bots' tie-breaks (same seed, same game).
        deck (Sequence[str] | None): scripted passenger cards (codes such as ``"YB"``) dealt in order
            before random draws take over (for lessons).
        title, max_log, interval, pick_cards: see :class:`~bus_lab.widgets.base.GameWidget`.
        **options: ``final_round``, ``leftover_penalty``, ``sheet`` (see
            :class:`~bus_lab.games.bus_and_stop.game.BusAndStopGame`).

    Raises:
        ParameterError: a bad option or component sheet, or a human seat not at the table.
        ValueError: an unknown bot policy, or a bad ``interval``/``max_log``.

    Attributes (besides those of :class:`~bus_lab.widgets.base.GameWidget`):
        pick_buttons (list[Button]): one per colour of the sheet (built once).
        pick_reasons (HTML): why the disabled pick-up buttons are disabled.
        drop_destination (Dropdown): the stacks a drop-off is possible at (value = stack index,
            ``-1`` when none). drop_count (Dropdown): the counts possible there. drop_button (Button).
        human_panel (VBox): the pick-up and drop-off controls (shown on a human's turn).
        sheet_panel (FoldingPanel): the component sheet in use, as a table (closed at first).
    """

    def __init__(
        self,
        players: int = 4,
        humans: Iterable[int] = (0,),
        bot: str = "greedy",
        seed: int | None = 0,
        deck: Sequence[str] | None = None,
        *,
        title: str | None = None,
        max_log: int = 40,
        interval: int = 500,
        pick_cards: bool = False,
        **options: Any,
    ):
        game = BusAndStopGame(players=players, **options)
        session = self.table_session(game, humans, bot, seed, deck)
        self._build_human_panel()
        super().__init__(session, title=title, max_log=max_log, interval=interval, pick_cards=pick_cards)
        self.sheet_panel = FoldingPanel(
            "Component sheet",
            W.HTML(self._sheet_html()),
            "Show the component sheet in use: the cards of each colour, seniors and destination stacks",
        )
        children = list(self.widget.children)
        at = children.index(self.action_box)
        children[at:at] = [self.human_panel]
        children.append(self.sheet_panel)
        self.widget.children = tuple(children)
        self._refresh_panel()

    # -- the human panel ---------------------------------------------------------------------
    def _build_human_panel(self) -> None:
        self.pick_buttons = [
            W.Button(description="", tooltip="", layout=W.Layout(width="auto", display="none"))
            for _ in range(MAX_COLOURS)
        ]
        for i, button in enumerate(self.pick_buttons):
            button.on_click(lambda _b, c=i: self._guarded(self._do_pick_up, c))
        self.pick_reasons = W.HTML()
        self.drop_destination = W.Dropdown(
            options=[("no drop-off possible", NO_DROP)],
            value=NO_DROP,
            description="Destination",
            style={"description_width": "initial"},
            tooltip="Where to drop off: a stack whose top card you can meet (BAS-DROP-TOP)",
            layout=W.Layout(width="360px"),
        )
        self.drop_count = W.Dropdown(
            options=[],
            description="Count",
            style={"description_width": "initial"},
            tooltip="How many passengers to drop: the card's count fixes its points (BAS-DROP-CLAIM)",
            layout=W.Layout(width="230px"),
        )
        self.drop_button = W.Button(
            description="Drop off",
            icon="arrow-down",
            button_style="info",
            tooltip="Drop off at the chosen destination; then choose which passengers "
            "with the buttons below (BAS-DROP-TYPE, BAS-DROP-MULTI)",
        )
        self.drop_destination.observe(
            lambda _c: None if self._panel_syncing else self._guarded(self._fill_counts), names="value"
        )
        self.drop_button.on_click(lambda _b: self._guarded(self._do_drop))
        self._panel_syncing = False
        self.human_panel = W.VBox(
            [
                W.HTML("<b>Pick up</b> every passenger of one colour from the stop (BAS-PICK-ALL):"),
                W.HBox(self.pick_buttons, layout=W.Layout(flex_flow="row wrap")),
                self.pick_reasons,
                W.HTML(
                    "<b>Or drop off</b> at a destination (BAS-DROP-TOP): destination → count → which passengers"
                ),
                W.HBox(
                    [self.drop_destination, self.drop_count, self.drop_button],
                    layout=W.Layout(flex_flow="row wrap", align_items="center"),
                ),
            ],
            layout=W.Layout(display="none", border="1px solid #ccc", padding="4px", margin="4px 0"),
        )

    def _human_turn(self) -> bool:
        state = self.session.state
        return self.session.waiting_for_human() and state.decision_kind() is BusAndStopPhase.TURN

    def move_controls(self) -> list[W.Button]:
        """The colour pick-up buttons first (the usual move), then the other move buttons."""
        return list(self.pick_buttons) + list(self.action_buttons)

    def button_actions(self, state: State) -> list[int]:
        """On a regular turn the panel replaces the pick-up and drop-off buttons; other moves keep
        their buttons."""
        if hasattr(self, "sheet_panel") and self._human_turn():
            return [m.action for m in state.legal_moves() if not isinstance(m, (PickUp, DropOff))]
        return state.legal_actions()

    def refresh(self) -> None:
        """Redraw everything (see :meth:`GameWidget.refresh`), then the pick-up and drop-off panel."""
        super().refresh()
        if hasattr(self, "sheet_panel"):
            self._refresh_panel()

    def _refresh_panel(self) -> None:
        state = self.session.state
        turn = self._human_turn()
        sheet = state.sheet
        with self._hold_all(
            [
                self.human_panel.layout,
                self.pick_reasons,
                *self.pick_buttons,
                *(b.layout for b in self.pick_buttons),
            ]
        ):
            self.human_panel.layout.display = None if turn else "none"
            reasons = []
            for c, button in enumerate(self.pick_buttons):
                if not turn or c >= len(sheet.colours):
                    button.layout.display = "none"
                    button.disabled = True
                    continue
                colour = sheet.colours[c]
                at_stop = [sheet.code(k) for k in state.stop if sheet.colour_of(k) == c]
                why = state.why_illegal(PickUp(c))
                button.layout.display = None
                button.disabled = why is not None
                shown = " ".join(at_stop) if at_stop else "none here"
                button.description = f"{colour.name} ({shown})"
                if why is None:
                    seniors = sum(1 for k in state.stop if sheet.colour_of(k) == c and sheet.is_senior(k))
                    riders = len(at_stop) - seniors
                    button.tooltip = (
                        f"Pick up every {colour.name} passenger: {riders} into your bus, {seniors} "
                        f"senior{'s' if seniors != 1 else ''} beside it (BAS-PICK-ALL, BAS-SENIOR)"
                    )
                else:
                    button.tooltip = f"Not allowed: {why}"
                    if at_stop:
                        reasons.append(f"{colour.name}: {why}")
            self.pick_reasons.value = (
                ("<small>" + "<br>".join(escape(r) for r in reasons) + "</small>") if reasons else ""
            )
        self._fill_destinations()

    def _fill_destinations(self) -> None:
        state = self.session.state
        options = [("no drop-off possible", NO_DROP)]
        if self._human_turn():
            stacks = sorted({m.stack for m in state.legal_moves() if isinstance(m, DropOff)})
            if stacks:
                options = []
                for s in stacks:
                    card = state.top_card(s)
                    options.append((f"{state.sheet.stacks[s].name}: {card.text()} points", s))
        self._panel_syncing = True
        try:
            with self.drop_destination.hold_sync():
                if list(self.drop_destination.options) != options:
                    self.drop_destination.options = options
                if self.drop_destination.value not in [v for _, v in options]:
                    self.drop_destination.value = options[0][1]
        finally:
            self._panel_syncing = False
        self._fill_counts()

    def _fill_counts(self) -> None:
        state = self.session.state
        stack = self.drop_destination.value
        options: list[tuple[str, int]] = []
        if self._human_turn() and stack is not None and stack != NO_DROP:
            card = state.top_card(stack)
            options = [
                (f"{m.count} passengers → {card.points_for(m.count)} points", m.count)
                for m in state.legal_moves()
                if isinstance(m, DropOff) and m.stack == stack
            ]
        with self.drop_count.hold_sync(), self.drop_button.hold_sync():
            self.drop_count.options = options
            if options:
                self.drop_count.value = options[-1][1]
            self.drop_count.disabled = not options
            self.drop_button.disabled = not options

    # -- callbacks ---------------------------------------------------------------------------
    def _do_pick_up(self, colour: int) -> str | None:
        if not self._human_turn():
            return "it is not your turn to pick up."
        self.session.play(PickUp(colour).action)
        self.refresh()
        return None

    def _do_drop(self) -> str | None:
        stack, count = self.drop_destination.value, self.drop_count.value
        if not self._human_turn() or stack in (None, NO_DROP) or count is None:
            return "no drop-off is possible now."
        self.session.play(DropOff(stack, count).action)
        self.refresh()
        state = self.session.state
        if state.decision_kind() is BusAndStopPhase.CHOOSE and self.session.waiting_for_human():
            return "now choose which passengers get off, one at a time, with the buttons below."
        return None

    # -- hooks -------------------------------------------------------------------------------
    def render_board(self, state: State, viewer: int | None) -> str:
        """The table as one SVG (stop, destinations, each bus with its seniors, skedaddled and
        unhappy passengers and claimed destinations)."""
        return f"<div class='bus-lab-table'>{table_svg(state.view(viewer))}</div>"

    def header_html(self, state: State) -> str:
        """Title, table settings, and what part of the game is on (with its rule ID)."""
        p = self.session.game.params
        settings = (
            f"{p['players']} players, final round: {p['final_round'].replace('_', ' ')}, "
            f"leftover penalty {'on' if p['leftover_penalty'] else 'off'}, "
            f"{'built-in placeholder' if p['sheet'] is None else 'custom'} component sheet"
        )
        if state.stage is Stage.SETUP:
            part = "Setting up: dealing the bus stop [BAS-SETUP-STOP]"
        elif state.stage is Stage.PLAY:
            part = (
                f"Turn {state.turns} — Seat {state.seat}: pick up or drop off [BAS-TURN]; "
                f"{state.destinations_left()} destination cards left, {sum(state.deck)} passengers in the deck"
            )
        elif state.stage is Stage.FINAL:
            why = state.trigger["reason"] if state.trigger else ""
            part = f"Final round (the end was triggered: {why}) [BAS-END-FINAL]"
        else:
            part = "Game over: highest total wins; ties go to seniors + skedaddled [BAS-WIN]"
        return (
            f"<h3 style='margin:4px 0'>{escape(self._title)}</h3>"
            f"<div class='bus-lab-options' style='color:#333'>Table: {escape(settings)}</div>"
            f"<div class='bus-lab-part' style='font-weight:bold'>{escape(part)}</div>"
        )

    def action_pool_size(self) -> int:
        """Enough move buttons for the longest list of moves at any table (built once)."""
        return POOL_SIZE

    def action_label(self, state: State, action: int, odds) -> str:
        """The move in words, with the passenger's code where one is named (``"skedaddle GM
        (green mother)"``)."""
        move = state.move(action)
        if isinstance(move, (ChoosePassenger, Skedaddle, UnhappyDiscard)):
            sheet = state.sheet
            word = "drop" if isinstance(move, ChoosePassenger) else move.kind
            return f"{word} {sheet.code(move.passenger)} ({sheet.name(move.passenger)})"
        return str(move)

    def action_tooltip(self, state: State, action: int, odds) -> str:
        """What the move does, with its rule ID."""
        sheet = state.sheet
        move = state.move(action)
        if isinstance(move, ChoosePassenger):
            stack, count, chosen = state.pending
            rule = "BAS-DROP-MULTI" if sheet.stacks[stack].multicoloured else "BAS-DROP-TYPE"
            return (
                f"Drop this {sheet.name(move.passenger)} at the {sheet.stacks[stack].name} "
                f"({len(chosen) + 1} of {count}) ({rule})"
            )
        if isinstance(move, Skedaddle):
            return (
                f"Skedaddle this {sheet.name(move.passenger)}: it leaves your bus face down, "
                "1 point at the end (BAS-SKEDADDLE)"
            )
        if isinstance(move, UnhappyDiscard):
            return f"Discard this {sheet.name(move.passenger)} as an unhappy passenger: -1 (BAS-UNHAPPY)"
        if isinstance(move, PickUp):
            return f"Pick up every {sheet.colours[move.colour].name} passenger at the stop (BAS-PICK-ALL)"
        return _FIXED_TOOLTIPS.get(type(move), f"{move} (BAS-DROP-TOP)")

    def status_html(self, state: State) -> str:
        """The status line, plus what a human is asked at a skedaddle or an unhappy discard."""
        extra = ""
        if self.session.waiting_for_human():
            kind = state.decision_kind()
            if kind is BusAndStopPhase.SKEDADDLE:
                dropper, stack, _c = state.sked_from
                extra = (
                    f"Seat {dropper} dropped off at the {state.sheet.stacks[stack].name}: you may skedaddle "
                    "one matching passenger for 1 point (BAS-SKEDADDLE)."
                )
            elif kind is BusAndStopPhase.UNHAPPY:
                extra = (
                    "No colour fits in your bus and no destination can be met: discard one or more "
                    "passengers as unhappy, -1 each (BAS-UNHAPPY)."
                )
            elif kind is BusAndStopPhase.CHOOSE:
                extra = "Choose the passengers to drop, one at a time (BAS-DROP-TYPE, BAS-DROP-MULTI)."
        base = super().status_html(state)
        return base if not extra else base + f"<div style='color:#0b3d66'>{escape(extra)}</div>"

    def _sheet_html(self) -> str:
        sheet = self.session.state.sheet
        notes = "".join(f"<li>{escape(n)}</li>" for n in sheet.notes)
        return f"<pre style='font-size:12px'>{escape(sheet.table())}</pre>" + (
            f"<ul style='font-size:12px'>{notes}</ul>" if notes else ""
        )


_FIXED_TOOLTIPS = {
    NoSkedaddle: "Keep your passengers: skedaddling is optional (BAS-SKEDADDLE)",
    StopDiscarding: "Stop discarding: one unhappy passenger is enough (BAS-UNHAPPY)",
    Pass: "Pass your final turn (BAS-END-FINAL)",
}
