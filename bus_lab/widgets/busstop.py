"""``BusstopWidget``: play Busstop move by move -- bid with a tile, pick a played tile, put each
passenger on a bus or in the queue, let the head of the queue board -- with bots at the other seats.

Example::

    from bus_lab.widgets import BusstopWidget

    w = BusstopWidget(players=3, humans=(0,), seed=1)   # you play seat 0 against two bidder bots
    w                                    # in a notebook: the table, your move buttons, the log
    w.step_button.click()                # draw the next passenger of the line-up (or a bot moves)
    [b.description for b in w.action_buttons if b.layout.display != "none"]   # your moves

    BusstopWidget(players=2, humans=(0, 1), passenger_bonus=True)   # two players and the proxy bus

The board is drawn from ``state.view(viewer)``: with a seat chosen in "View as", the tiles other
seats chose face down stay face down until the reveal (BSB-ROUND-BID); the spectator view shows
them. The widget starts in the view of the first human seat. Rule IDs (``BSB-…``) appear in the
event log, the scores' breakdown and the move tooltips; the component sheet in use is shown in a
collapsible panel.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from html import escape
from typing import Any

import ipywidgets as W

from bus_lab.engine.core import State
from bus_lab.engine.registry import load_game
from bus_lab.games.busstop.components import (
    END_BONUS_POINTS,
    END_BONUS_REQUIREMENTS,
    ET,
    EXTRA_BUS_AT,
    PROXY_PENALTY_AT,
    QUEUE_SPACES,
    ROUNDS,
    SORTS,
    VIP_BASE,
)
from bus_lab.games.busstop.moves import (
    ChooseTile,
    HeadBoards,
    PlacePassenger,
    StopBoarding,
    TakeTile,
)
from bus_lab.games.busstop.phases import BusstopPhase
from bus_lab.games.busstop.render import table_svg
from bus_lab.games.busstop.state import CLASS_NAMES
from bus_lab.widgets.base import FoldingPanel, GameWidget

#: What each phase is, in words, with its rule.
NODE_TEXT = {
    BusstopPhase.LINEUP: ("the conductor lines up passengers", "BSB-ROUND-LINEUP"),
    BusstopPhase.PROXY_BID: ("the proxy bus, conductor, turns up its tile", "BSB-PROXY-CONDUCTOR"),
    BusstopPhase.BID: ("choosing tiles: the conductor face up, the others face down", "BSB-ROUND-BID"),
    BusstopPhase.PROXY_REVEAL: ("the proxy bus's tile is turned up for the reveal", "BSB-PROXY"),
    BusstopPhase.WHITE: ("taking passengers in player order", "BSB-ROUND-TAKE"),
    BusstopPhase.PLACE: ("placing passengers on buses or in the queue", "BSB-ROUND-DISTRIBUTE"),
    BusstopPhase.BOARD: ("letting the head of the queue board", "BSB-QUEUE-BOARD"),
}


class BusstopWidget(GameWidget):
    """A Busstop table you can play, step through and rewind.

    Args:
        players (int): 2-5 (with 2, the proxy bus is a third board, BSB-PROXY).
        humans (Iterable[int]): seats you play with the move buttons; ``()`` = all bots (a demo).
        bot (str): the bots' policy: ``"bidder"`` (default), ``"greedy"`` or ``"random"``.
        seed (int | None): seed of the stack and the bots (same seed, same game).
        deck (Sequence[str] | None): scripted chance outcomes in order: passenger codes such as
            ``"Gi"``, ``"VGi"``, ``"ET"`` for the line-up and ``"proxy-7"`` for the proxy's tiles.
        title (str | None), max_log (int), interval (int, ms ≥ 200), pick_cards (bool): see
            :class:`~bus_lab.widgets.base.GameWidget` (``pick_cards`` lets you choose each passenger
            turned up).
        **options: ``passenger_bonus``, ``end_bonus``, ``sheet`` (see
            :class:`~bus_lab.games.busstop.game.BusstopGame`).

    Raises:
        ParameterError: a bad option or sheet, or a human seat that is not at the table.
        ValueError: an unknown bot policy, or a bad ``interval``/``max_log``.

    Attributes (besides those of :class:`~bus_lab.widgets.base.GameWidget`):
        sheet_panel (FoldingPanel): the component sheet in use, collapsed at first.
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
        **options: Any,
    ):
        game = load_game("busstop", players=players, **options)
        session = self.table_session(game, humans, bot, seed, deck)
        super().__init__(session, title=title, max_log=max_log, interval=interval, pick_cards=pick_cards)
        self.pick_box.description = "Passenger"
        self.pick_button.description = "Turn up this one"
        self.sheet_panel = FoldingPanel(
            "Component sheet",
            W.HTML(self.sheet_html()),
            "Show the component sheet in use: passengers, buses and player tiles",
        )
        children = list(self.widget.children)
        children.append(self.sheet_panel)
        self.widget.children = tuple(children)
        if humans:
            self.viewer.value = humans[0]  # your own view: others' face-down tiles stay hidden

    # -- hooks -------------------------------------------------------------------------------
    def render_board(self, state: State, viewer: int | None) -> str:
        """The table as one SVG from ``state.view(viewer)`` (see :mod:`bus_lab.games.busstop.render`):
        880 px wide at most, so it fits a notebook output area without scrolling sideways, and it
        shrinks with a narrower one."""
        return f"<div class='bus-lab-table'>{table_svg(state.view(viewer))}</div>"

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

    def header_html(self, state: State) -> str:
        """Title, table settings, the round and what is happening (with its rule ID)."""
        if state.is_terminal():
            part = "Game over: highest total wins, ties to the fewest ETs [BSB-WIN]"
        else:
            text, rule = NODE_TEXT[state.phase()]
            part = f"Round {state.round} of {ROUNDS} — {text} [{rule}]"
        return (
            f"<h3 style='margin:4px 0'>{escape(self._title)}</h3>"
            f"<div class='bus-lab-options' style='color:#333'>Table: "
            f"{escape(self.options_text(self.session.game.params))}</div>"
            f"<div class='bus-lab-part' style='font-weight:bold'>{escape(part)}</div>"
        )

    def action_pool_size(self) -> int:
        """Enough buttons for ten tiles or three kinds of passenger times four places."""
        return 12

    def action_odds(self, state: State, actions: list[int]) -> dict[int, Fraction]:
        """No odds on Busstop moves (they are choices, not guesses)."""
        return {}

    def action_label(self, state: State, action: int, odds: Fraction | None) -> str:
        """The move's label with a hint: ``"girl to bus 1 (fills it: leaves)"``, ``"… to queue (−2)"``."""
        move = state.move(action)
        label = move.label
        who = state.acting_participant()
        kind = state.decision_kind()
        if kind is BusstopPhase.PLACE and isinstance(move, PlacePassenger):
            return label + self._place_hint(state, who, move.passenger_class, move.bus)
        if kind is BusstopPhase.BOARD and isinstance(move, HeadBoards):
            cls = state.token_class(state.boards[who].queue[0])
            return label + self._place_hint(state, who, cls, move.bus)
        if kind is BusstopPhase.WHITE and isinstance(move, TakeTile):
            return f"{label} ({SORTS[state.sheet.tile_sort(state.bids[move.owner])]})"
        return label

    @staticmethod
    def _place_hint(state, who: int, cls: int, bus: int | None) -> str:
        """What a passenger of class ``cls`` placed on ``bus`` (``None``: the queue) does."""
        if bus is None:
            return " (−6)" if VIP_BASE <= cls < ET else " (−2)"
        board = state.boards[who]
        if len(board.buses[bus]) + 1 == state.bus_seats[bus]:
            return " (fills it: leaves)"
        return f" ({len(board.buses[bus]) + 1}/{state.bus_seats[bus]})"

    def action_tooltip(self, state: State, action: int, odds: Fraction | None) -> str:
        """What the move does, with its rule ID."""
        move = state.move(action)
        label = move.label
        who = state.acting_participant()
        proxy = (
            " (you decide for the proxy bus this round, BSB-PROXY-CHOICES)"
            if who is not None and who == state.proxy
            else ""
        )
        if isinstance(move, ChooseTile):
            face = "face up, first" if who == state.conductor else "face down until the reveal"
            return (
                f"Play tile {move.tile} {face}: lowest tile goes first on the zone, ties clockwise "
                f"from the conductor (BSB-ROUND-BID, BSB-ROUND-ORDER); each tile is used once."
            )
        if isinstance(move, TakeTile):
            return f"White icon: {label}, a passenger of its sort (BSB-ROUND-TAKE){proxy}."
        if isinstance(move, PlacePassenger):
            cls = move.passenger_class
            if move.bus is None:
                return (
                    f"Put the {CLASS_NAMES[cls]} at the tail of the queue: −2 at the end if still waiting, a VIP "
                    f"−6 (BSB-QUEUE, BSB-SCORE-QUEUE); {EXTRA_BUS_AT} waiting at the end of a round open the "
                    f"third bus (BSB-EXTRA-BUS){proxy}."
                )
            return (
                f"Board the {CLASS_NAMES[cls]} on bus {move.bus + 1}: one sort per bus, ETs wild (BSB-BOARD-SORT); "
                f"a full bus leaves and scores (BSB-BOARD-LEAVE){proxy}."
            )
        if isinstance(move, HeadBoards):
            return (
                f"The head of the queue boards bus {move.bus + 1} (only the head may board, "
                f"BSB-QUEUE-BOARD){proxy}."
            )
        if isinstance(move, StopBoarding):
            return f"Leave the queue as it is for this round (BSB-QUEUE-BOARD){proxy}."
        return f"Play {label}"

    # -- the component sheet panel ------------------------------------------------------------
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
