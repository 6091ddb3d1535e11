"""``BusstopWidget``: play Busstop by touching the board -- bid with a tile from your hand, pick a
played tile on the zone, put each passenger on a bus or in the queue, let the head of the queue
board -- with bots at the other seats.

Example::

    from bus_lab.widgets import BusstopWidget

    w = BusstopWidget(players=3, humans=(0,), seed=1)   # you play seat 0 against two bidder bots
    w                                    # in a notebook: the board, the step controls, the log
    w.step()                             # turn up the next passenger of the line-up (or a bot moves)
    [m["label"] for m in w.frame["moves"]]   # your moves now (empty: no move of yours is pending)
    w.play("tile 7")                     # bid, as tapping tile 7 in your hand does

    BusstopWidget(players=2, humans=(0, 1), passenger_bonus=True)   # two players and the proxy bus

On the board (drawn in the browser from ``state.view(viewer)``, see
:mod:`bus_lab.board.adapters.busstop` for the targets) a bid is a tap on a tile in your hand, a
white pick a tap on a tile on the zone, a placement a tap on the passenger and then on a bus or
the queue; while the head of the queue may board, tap a bus, or "Stop boarding". With a seat chosen
in "View as", the tiles other seats chose face down stay face down until the reveal
(BSB-ROUND-BID); the spectator view shows them. The widget starts in the view of the first human
seat. Rule IDs (``BSB-…``) appear in the heading, the event log, the scores' breakdown and each
move's explanation; the component sheet in use is shown in a panel below the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

import ipywidgets as W

from bus_lab.engine.registry import load_game
from bus_lab.games.busstop.components import (
    END_BONUS_POINTS,
    END_BONUS_REQUIREMENTS,
    EXTRA_BUS_AT,
    PROXY_PENALTY_AT,
    QUEUE_SPACES,
    SORTS,
)
from bus_lab.widgets.base import FoldingPanel, GameWidget


class BusstopWidget(GameWidget):
    """A Busstop table you can play by touching it, step through and rewind.

    Args:
        players (int): 2-5 (with 2, the proxy bus is a third board, BSB-PROXY).
        humans (Iterable[int]): seats you play on the board; ``()`` = all bots (a demo).
        bot (str): the bots' policy: ``"bidder"`` (default), ``"greedy"`` or ``"random"``.
        seed (int | None): seed of the stack and the bots (same seed, same game).
        deck (Sequence[str] | None): scripted chance outcomes in order: passenger codes such as
            ``"Gi"``, ``"VGi"``, ``"ET"`` for the line-up and ``"proxy-7"`` for the proxy's tiles.
        title (str | None): the heading; default the game's title and the table settings.
        max_log (int), interval (int, ms ≥ 200), pick_cards (bool): see
            :class:`~bus_lab.widgets.base.GameWidget` (``pick_cards`` lets you choose each passenger
            turned up, from the kinds left with their exact chances).
        start (dict | None): a position to begin from instead of a new deal (a dict as
            ``state.position()`` gives it; see the game's ``positions`` module); New game returns to
            it. The "Set up a position" panel below the board does the same from JSON.
        **options: ``passenger_bonus``, ``end_bonus``, ``sheet`` (see
            :class:`~bus_lab.games.busstop.game.BusstopGame`).

    Raises:
        PositionError: ``start`` cannot be set up (the message names the field).
        ParameterError: a bad option or sheet, or a human seat that is not at the table.
        ValueError: an unknown bot policy, or a bad ``interval``/``max_log``.

    Attributes (besides those of :class:`~bus_lab.widgets.base.GameWidget`):
        sheet_panel (FoldingPanel): the component sheet in use, collapsed at first, below the board.
    """

    def __init__(
        self,
        players: int = 3,
        humans: Iterable[int] = (0,),
        bot: str = "bidder",
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
        game = load_game("busstop", players=players, **options)
        humans = tuple(humans)
        session = self.table_session(game, humans, bot, seed, deck, start)
        if title is None:
            title = f"{game.title or 'Busstop'} ({self.options_text(game.params)})"
        super().__init__(session, title=title, max_log=max_log, interval=interval, pick_cards=pick_cards)
        self.sheet_panel = FoldingPanel(
            "Component sheet",
            W.HTML(self.sheet_html()),
            "Show the component sheet in use: passengers, buses and player tiles",
        )
        self.widget = W.VBox([self.board, self.sheet_panel, *self._position_panels()])
        if humans:
            self.set_viewer(humans[0])  # your own view: others' face-down tiles stay hidden

    @staticmethod
    def options_text(params: dict[str, Any]) -> str:
        """The table settings in words, e.g. ``"3 players, passenger bonus"``."""
        parts = [f"{params['players']} players" + (" and the proxy bus" if params["players"] == 2 else "")]
        if params["passenger_bonus"]:
            parts.append("passenger bonus")
        if params["end_bonus"]:
            parts.append("end-game bonus")
        if params.get("sheet") is not None:
            parts.append("own component sheet")
        return ", ".join(parts)

    # -- the component sheet panel ---------------------------------------------------------------
    def sheet_html(self) -> str:
        """The component sheet in use as small tables (BSB-COMP-ZONE, BSB-COMP-BOARD,
        BSB-COMP-PLAYERTILES, the option tiles)."""
        state = self.session.state
        sheet = state.sheet
        rows = []
        for n, zone in sorted(sheet.zones.items()):
            cells = []
            for i, (black, white) in enumerate(zip(zone.black, zone.white)):
                icons = " ".join([f"●q{s + 1}" for s in black] + (["○W"] if white else []))
                crown = " ♛" if i == zone.conductor else ""
                cells.append(f"<td style='padding:2px 8px'>P{i + 1}: {escape(icons)}{crown}</td>")
            rows.append(
                f"<tr><th style='text-align:left'>{n} positions ({zone.passengers} passengers a round)"
                f"</th>{''.join(cells)}</tr>"
            )
        tiles = ", ".join(f"{t}: {SORTS[sheet.tile_sort(t)]}" for t in range(1, 11))
        bonus = ", ".join(f"colour {i}: {SORTS[s]}" for i, s in enumerate(sheet.passenger_bonus))
        ends = "; ".join(f"colour {i}: {END_BONUS_REQUIREMENTS[r]}" for i, r in enumerate(sheet.end_bonus))
        return (
            f"<div style='font-size:90%'><p>Placeholder figures (the board facts are not published); "
            f"a teacher can pass another sheet: <code>BusstopWidget(sheet='my_sheet.json')</code>.</p>"
            f"<table>{''.join(rows)}</table>"
            f"<p>● black icon: take the passenger on that queue slot; ○ white icon: take one played tile; "
            f"♛ conductor space [BSB-COMP-ZONE].</p>"
            f"<p>Bus seats: {', '.join(map(str, sheet.bus_seats))} (the third bus locked until a queue of "
            f"{EXTRA_BUS_AT}+); queue: {QUEUE_SPACES} spaces [BSB-COMP-BOARD]. Proxy penalty at "
            f"{PROXY_PENALTY_AT} [BSB-PROXY-PENALTY].</p>"
            f"<p>Player tiles: {escape(tiles)} [BSB-COMP-PLAYERTILES].</p>"
            f"<p>Passenger bonus: {escape(bonus)} [BSB-OPT-BONUS]. End-game bonus, {END_BONUS_POINTS} points: "
            f"{escape(ends)} [BSB-OPT-ENDBONUS].</p></div>"
        )
