"""``BusAndStopWidget``: play Bus & Stop by touching the table, against bots; step through and rewind.

Example::

    from bus_lab.widgets import BusAndStopWidget

    w = BusAndStopWidget(players=4, humans=(0,), seed=3)    # you play seat 0, three greedy bots
    w                                      # in a notebook: the table and the controls
    w.step()                               # headless: a card dealt or a bot's move (the Step button)
    w.play("pick up yellow")               # a move by its label, action or Move (tapping it)
    w.frame["moves"]                       # what seat 0 could tap now, each with its target path

On the board a human seat taps a colour at the bus stop to pick it up (BAS-PICK-ALL; a colour that
does not fit says why, BAS-PICK-LIMIT), taps a destination stack and then a count button ("4
passengers", with its points) to drop off (BAS-DROP-TOP), then taps the passengers in its bus that
get off (BAS-DROP-TYPE, BAS-DROP-MULTI). A skedaddle (BAS-SKEDADDLE) or an unhappy discard
(BAS-UNHAPPY) is a tap on the passenger; "No skedaddle", "Stop discarding" and the final round's
"Pass" (BAS-END-FINAL) are buttons beside the board. The targets and their consequences come from
:mod:`bus_lab.board.adapters.bus_and_stop`; the drawing from ``static/games/bus_and_stop.js``.
Rules are cited by ID in the heading, the hints and the event log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

import ipywidgets as W

from bus_lab.games.bus_and_stop.game import BusAndStopGame
from bus_lab.widgets.base import FoldingPanel, GameWidget


class BusAndStopWidget(GameWidget):
    """A Bus & Stop table you can play by touching it, step through and rewind.

    Args:
        players (int): 2–4 seats.
        humans (Iterable[int]): seats you play; the others are bots. ``()``: a bots-only demo.
        bot (str): the bots' policy, ``"greedy"`` (default) or ``"random"``.
        seed (int | None): seed of the deck and of the bots' tie-breaks (same seed, same game).
        deck (Sequence[str] | None): scripted passenger cards (codes such as ``"YB"``) dealt in order
            before random draws take over (for lessons).
        title, max_log, interval, pick_cards: see :class:`~bus_lab.widgets.base.GameWidget`.
        start (dict | None): a position to begin from instead of a new deal (a dict as
            ``state.position()`` gives it; see the game's ``positions`` module); New game returns to
            it. The "Set up a position" panel below the board does the same from JSON.
        **options: ``final_round`` (``"drop_off"`` or ``"full_turn"``, BAS-END-FINAL),
            ``leftover_penalty`` (bool, BAS-SCORE-EMPTY), ``sheet`` (a component sheet; see
            :class:`~bus_lab.games.bus_and_stop.game.BusAndStopGame`).

    Raises:
        PositionError: ``start`` cannot be set up (the message names the field).
        ParameterError: a bad option or component sheet, or a human seat not at the table.
        ValueError: an unknown bot policy, or a bad ``interval``/``max_log``.

    Attributes (besides those of :class:`~bus_lab.widgets.base.GameWidget`):
        sheet_panel (FoldingPanel): the component sheet in use, as a table (closed at first),
            shown below the board.
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
        start: dict[str, Any] | None = None,
        **options: Any,
    ):
        game = BusAndStopGame(players=players, **options)
        session = self.table_session(game, humans, bot, seed, deck, start)
        super().__init__(session, title=title, max_log=max_log, interval=interval, pick_cards=pick_cards)
        self.sheet_panel = FoldingPanel(
            "Component sheet",
            W.HTML(self.sheet_html()),
            "Show the component sheet in use: the cards of each colour, seniors and destination stacks",
        )
        self.widget = W.VBox([self.board, self.sheet_panel, *self._position_panels()])

    def table_settings(self) -> str:
        """The table's settings in words: players, final round, leftover penalty, component sheet
        (BAS-END-FINAL, BAS-SCORE-EMPTY, BAS-COMP-SIDES)."""
        p = self.session.game.params
        return (
            f"{p['players']} players, final round: {p['final_round'].replace('_', ' ')}, "
            f"leftover penalty {'on' if p['leftover_penalty'] else 'off'}, "
            f"{'built-in placeholder' if p['sheet'] is None else 'custom'} component sheet"
        )

    def sheet_html(self) -> str:
        """The table's settings and the component sheet in use, as HTML (the sheet panel's body)."""
        sheet = self.session.state.sheet
        notes = "".join(f"<li>{escape(n)}</li>" for n in sheet.notes)
        return (
            f"<p>Table: {escape(self.table_settings())}</p>"
            f"<pre style='font-size:12px'>{escape(sheet.table())}</pre>"
            + (f"<ul style='font-size:12px'>{notes}</ul>" if notes else "")
        )
