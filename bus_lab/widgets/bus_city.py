"""``BusCityWidget``: play BUS (the city grid game) in a notebook, move by move.

The grid is drawn as SVG from ``state.view(viewer)`` (streets with their symbols on their side,
buses as arrows with seat numbers, the cards reachable this turn outlined and marked "reach", the
last route dashed, each seat's progress area, the face-up passenger cards, the deck and the speed
limit). Below the drawing, a street chooser laid out like the grid has one button per street card:

* on your move, click a reachable card to drive there (BUS-MOVE); when several moves end on that
  card (another heading, or other drop-offs on the way, BUS-DROPOFF), their buttons appear and you
  pick one;
* at the start, click a bus stop, then a heading (BUS-START);
* on the construction site, click two cards with no bus on them to swap them (BUS-CONSTRUCTION);
  in challenging play pick the sides, or turn one card (BUS-CH-ROTATE); or press "pass".

Everything else comes from :class:`~bus_lab.widgets.base.GameWidget`: Step, Back, Forward,
Play, Reset with a seed, the timeline, the viewer switch, scores and the event log with rule IDs.

Example::

    from bus_lab.widgets import BusCityWidget

    w = BusCityWidget(players=3, humans=(0,), seed=1)   # you play seat 0 against two greedy bots
    w                                   # in a notebook: the table and the controls
    w.street_buttons["b1-c1"].click()   # drive to b1-c1 (when it is reachable)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

import ipywidgets as W

from bus_lab.engine.core import State
from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city.game import BusCityGame
from bus_lab.games.bus_city.moves import DrawBlind, Drive, Pass, PlaceBus, SwapCards, TakeCard, TurnCard
from bus_lab.games.bus_city.phases import BusCityPhase, Stage
from bus_lab.games.bus_city.render import grid_html
from bus_lab.games.bus_city.state import BusCityState
from bus_lab.games.textfit import text_px
from bus_lab.widgets.base import FoldingPanel, GameWidget

#: Move buttons built once: enough for every choice the chooser leaves open at one card.
POOL = 24
#: Width of each of the five columns of the street chooser (pixels): the chooser is 5 × 140 px
#: plus gaps, well inside a 900-pixel output area, and every label fits its button.
STREET_COLUMN_PX = 140
#: Room for a street button's text: the column less the button's padding (10 px each side) and
#: margin (2 px each side) in JupyterLab's widget style, and a little slack.
STREET_TEXT_PX = STREET_COLUMN_PX - 2 * 10 - 2 * 2 - 6


def street_label(slot: str, card: str | None, room: float = STREET_TEXT_PX) -> str:
    """The text of a street chooser button: the slot and the card on it (as printed on the board),
    e.g. ``"a1-a2 orange"``, ``"b1-c1 —"`` for an empty slot. A card name too long for the
    button (possible with a teacher's own sheet) is shortened with "…"; the tooltip names the card
    in full. The result is at most ``room`` pixels wide (see :func:`text_px`)."""
    name = card or "—"
    label = f"{slot} {name}"
    while text_px(label) > room and len(name) > 1:
        name = name[:-1]
        label = f"{slot} {name.rstrip('-_')}…"
    return label


#: The decisions taken on the street chooser: where to drive, where to start.
ENDS_ON_A_CARD = (BusCityPhase.MOVE, BusCityPhase.PLACE)


def _end_slot(move: Any) -> int | None:
    """The slot a drive or start placement ends on, else ``None``."""
    if isinstance(move, (Drive, PlaceBus)):
        return move.slot
    return None


def _swap_pair(move: Any) -> tuple[int, int] | None:
    """The two slots of a swap, else ``None``."""
    if isinstance(move, SwapCards):
        return move.first, move.second
    return None


class BusCityWidget(GameWidget):
    """A BUS table you can play, step through and rewind.

    Args:
        players (int): 2 or 3 (BUS-SETUP).
        humans (Iterable[int]): seats you play (``()``: every seat a bot, a demo).
        bot (str): the bots' policy, ``"greedy"`` (default) or ``"random"``.
        seed (int | None): seed of the shuffles and the bots' tie-breaks.
        deck (Sequence[str] | None): scripted chance outcomes by label (street cards ``"red/N"``
            in slot order, then passenger cards ``"red-pink"``), used before random draws.
        title, max_log, interval, pick_cards: see :class:`~bus_lab.widgets.base.GameWidget`.
        **options: ``challenging``, ``empty_speed``, ``max_rounds``, ``sheet`` (see
            :class:`~bus_lab.games.bus_city.game.BusCityGame`).

    Raises:
        ParameterError: a bad option or component sheet, or a human seat not at the table.
        ValueError: an unknown bot policy, or a bad ``interval``/``max_log``.

    Attributes (besides those of the base widget):
        street_buttons (dict[str, Button]): one per street slot, by slot name (``"b1-c1"``).
        street_grid (GridBox): the chooser, laid out like the grid.
        selection (list[str]): the slots chosen so far (a card to move to, or cards to swap).
        chooser_note (HTML): what clicking a street card does now.
        sheet_panel (FoldingPanel): the component sheet (BUS-COMP-STREETS, BUS-COMP-PASSENGERS), closed at first.
    """

    def __init__(
        self,
        players: int = 3,
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
        game = BusCityGame(players=players, **options)
        session = self.table_session(game, humans, bot, seed, deck)
        self.selection: list[str] = []
        self._selection_at: tuple | None = None
        self._build_chooser()
        super().__init__(session, title=title, max_log=max_log, interval=interval, pick_cards=pick_cards)
        self.sheet_panel = FoldingPanel(
            "Component sheet",
            W.HTML(game.sheet._repr_html_()),
            "Show the street and passenger cards of this game (BUS-COMP-STREETS, BUS-COMP-PASSENGERS)",
        )
        children = list(self.widget.children)
        children.insert(children.index(self.action_box), self.chooser)
        children.append(self.sheet_panel)
        self.widget.children = tuple(children)
        self.refresh()

    # -- the street chooser ------------------------------------------------------------------
    def _build_chooser(self) -> None:
        self.street_buttons: dict[str, W.Button] = {}
        cells: list[W.Widget] = []
        for r in range(5):
            for c in range(5):
                if r % 2 == 0 and c % 2 == 0:
                    cells.append(
                        W.HTML(f"<div style='text-align:center;color:#777'>{'abc'[c // 2]}{r // 2 + 1}</div>")
                    )
                elif r % 2 == 0 or c % 2 == 0:
                    if r % 2 == 0:
                        name = f"{'abc'[c // 2]}{r // 2 + 1}-{'abc'[c // 2 + 1]}{r // 2 + 1}"
                    else:
                        name = f"{'abc'[c // 2]}{r // 2 + 1}-{'abc'[c // 2]}{r // 2 + 2}"
                    button = W.Button(
                        description=name,
                        tooltip=f"Street {name}",
                        disabled=True,
                        layout=W.Layout(width="auto"),
                    )  # fills its grid column
                    button.on_click(lambda _b, slot=name: self._guarded(self.choose_street, slot))
                    self.street_buttons[name] = button
                    cells.append(button)
                else:
                    cells.append(W.HTML(""))
        self.street_grid = W.GridBox(
            cells,
            layout=W.Layout(
                grid_template_columns=f"repeat(5, {STREET_COLUMN_PX}px)", grid_gap="3px", width="auto"
            ),
        )
        self.chooser_note = W.HTML()
        self.clear_button = W.Button(
            description="Clear choice",
            tooltip="Forget the street cards chosen so far",
            icon="times",
            layout=W.Layout(width="auto"),
        )
        self.clear_button.on_click(lambda _b: self._guarded(self.clear_selection))
        self.chooser = W.VBox(
            [
                W.HTML("<b>Street chooser</b> (laid out like the grid)"),
                self.chooser_note,
                self.street_grid,
                self.clear_button,
            ]
        )

    def _stale(self) -> bool:
        return self._selection_at != (self.session.position, len(self.session.state.history()))

    def clear_selection(self) -> None:
        """Forget the chosen street cards (the Clear choice button)."""
        self.selection = []
        self.refresh()

    def _human_node(self) -> BusCityPhase | None:
        state = self.session.state
        if self.session.waiting_for_human():
            return state.decision_kind()  # type: ignore[return-value]
        return None

    def choose_street(self, slot: str) -> str | None:
        """What clicking the street button ``slot`` does (see the module docstring).

        Returns:
            a note for the message line, or ``None``.

        Raises:
            IllegalActionError: never for a click the chooser offers (it plays legal actions only).
        """
        if slot not in G.SLOT_INDEX:
            raise ValueError(f"{slot!r} is not a street slot: use one of {', '.join(G.SLOT_INDEX)}")
        if self._stale():
            self.selection = []
        state: BusCityState = self.session.state
        node = self._human_node()
        index = G.SLOT_INDEX[slot]
        legal = state.legal_moves() if node else []
        if node in ENDS_ON_A_CARD:
            here = [m for m in legal if _end_slot(m) == index]
            if not here:
                what = (
                    "reachable this turn (BUS-MOVE, BUS-SPEED)"
                    if node is BusCityPhase.MOVE
                    else "a bus stop (BUS-START)"
                )
                self.refresh()
                return f"{slot} is not {what}."
            if len(here) == 1:
                self.selection = []
                self.session.play(here[0].action)
                self.refresh()
                return None
            self.selection = [slot]
            self._selection_at = (self.session.position, len(state.history()))
            self.refresh()
            return f"{len(here)} ways to end on {slot}: choose one of the buttons below."
        if node is BusCityPhase.CONSTRUCTION:
            if slot in self.selection:
                self.selection.remove(slot)
            else:
                free = {G.SLOTS[i].name for a in legal for i in (_swap_pair(a) or ())}
                if slot not in free:
                    self.refresh()
                    return f"a bus is on {slot}: only cards with no bus on them can be swapped (BUS-CONSTRUCTION)."
                self.selection = (self.selection + [slot])[-2:]
            self._selection_at = (self.session.position, len(state.history()))
            if len(self.selection) == 2:
                pair = tuple(sorted(G.SLOT_INDEX[s] for s in self.selection))
                swaps = [a for a in legal if _swap_pair(a) == pair]
                if len(swaps) == 1:
                    self.selection = []
                    self.session.play(swaps[0].action)
                    self.refresh()
                    return None
            self.refresh()
            return None
        self.refresh()
        return "nothing is chosen on the grid now: use the buttons below or Step."

    def move_controls(self) -> list[W.Button]:
        """The ways to end on the chosen card (when one is chosen), then the street chooser."""
        return list(self.action_buttons) + list(self.street_buttons.values())

    def button_actions(self, state: State) -> list[int]:
        """The move buttons to show now: at a move, the ways to end on the chosen card (none until
        one is chosen); at the start, the headings on the chosen bus stop; on the construction site,
        pass, the turn of a chosen card and the swaps of the chosen pair; otherwise every legal action."""
        chosen = [G.SLOT_INDEX[s] for s in self.selection]
        node = state.decision_kind()
        if node is BusCityPhase.MOVE:
            return [m.action for m in state.legal_moves() if chosen and _end_slot(m) == chosen[0]]
        if node is BusCityPhase.PLACE:
            return [m.action for m in state.legal_moves() if not chosen or _end_slot(m) == chosen[0]]
        if node is BusCityPhase.CONSTRUCTION:
            pair = tuple(sorted(chosen)) if len(chosen) == 2 else None
            return [
                m.action
                for m in state.legal_moves()
                if isinstance(m, Pass)
                or (isinstance(m, TurnCard) and m.slot in chosen)
                or (pair is not None and _swap_pair(m) == pair)
            ]
        return state.legal_actions()

    def refresh(self) -> None:
        """Redraw everything; the move buttons show :meth:`button_actions` only."""
        if not hasattr(self, "action_buttons"):
            return  # the base constructor's first draw comes before the chooser is placed
        if self._stale():
            self.selection = []
        super().refresh()
        self._refresh_chooser(self.session.state)

    def _refresh_chooser(self, state: BusCityState) -> None:
        node = self._human_node()
        legal = state.legal_moves() if node else []
        targets: set[int | None] = set()
        if node in ENDS_ON_A_CARD:
            targets = {_end_slot(a) for a in legal}
        elif node is BusCityPhase.CONSTRUCTION:
            targets = {i for a in legal for i in (_swap_pair(a) or ())}
        grid = {e["slot"]: e for e in state.view(self.viewer_seat)["grid"]}
        with self._hold_all(list(self.street_buttons.values())):
            for name, button in self.street_buttons.items():
                entry = grid[name]
                button.description = street_label(name, entry["card"])
                index = G.SLOT_INDEX[name]
                button.disabled = index not in targets
                button.button_style = (
                    "warning" if name in self.selection else ("info" if index in targets else "")
                )
                what = "empty slot" if entry["card"] is None else state.street_at(index).describe()
                side = (
                    f", symbol on the {entry['side']} side"
                    if entry["side"] and entry["symbol"] != "plain"
                    else ""
                )
                act = {
                    BusCityPhase.MOVE: "click to drive here (BUS-MOVE)",
                    BusCityPhase.PLACE: "click to start here (BUS-START)",
                    BusCityPhase.CONSTRUCTION: "click to choose it for the swap (BUS-CONSTRUCTION)",
                }.get(node, "")  # type: ignore[call-overload]
                card = f" {entry['card']}" if entry["card"] is not None else ""
                button.tooltip = f"Street {name}{card}: {what}{side}." + (
                    f" {act}" if index in targets else ""
                )
        if node is BusCityPhase.MOVE:
            text = "Click a highlighted street card (outlined “reach” on the board) to drive there."
            if self.selection:
                text = f"Chosen: {self.selection[0]}. Pick heading and drop-offs with a button below."
        elif node is BusCityPhase.PLACE:
            text = "Click a bus stop to start there, then pick the heading."
        elif node is BusCityPhase.CONSTRUCTION:
            text = "Click two street cards with no bus on them to swap them, or press pass." + (
                " In challenging play you may instead turn one card." if state.challenging else ""
            )
            if self.selection:
                text += f" Chosen: {', '.join(self.selection)}."
        else:
            text = "Nothing to choose on the grid now."
        self.chooser_note.value = f"<small>{escape(text)}</small>"
        self.clear_button.disabled = not self.selection

    # -- hooks -------------------------------------------------------------------------------
    def render_board(self, state: State, viewer: int | None) -> str:
        """The table as SVG (see :func:`bus_lab.games.bus_city.render.grid_svg`), without the status
        sentence: the widget's status line shows it (once)."""
        return grid_html(state.view(viewer), selected=list(self.selection), status=False)

    def header_html(self, state: State) -> str:
        """Title, the table options and the part of the game, with its rule ID."""
        params = self.session.game.params
        opts = [
            f"{self.session.game.num_players} players",
            "challenging play" if params["challenging"] else "basic play",
            "no limit when empty"
            if params["empty_speed"] is None
            else f"empty limit {params['empty_speed']}",
            f"at most {params['max_rounds']} rounds",
            state.sheet.title,
        ]
        if state.stage is Stage.SETUP:
            part = "Setup: laying the grid and turning up two passenger cards [BUS-SETUP]"
        elif state.stage is Stage.START:
            part = "Start: each bus goes on a bus stop and takes a first passenger card [BUS-START]"
        elif state.stage is Stage.TURNS:
            limit = "no limit" if state.speed_limit is None else f"speed limit {state.speed_limit}"
            final = ", final round" if state.end_trigger is not None else ""
            part = f"Round {state.round}{final}: Seat {state.turn}'s turn, {limit} [BUS-TURN, BUS-SPEED]"
        else:
            part = "Game over: most points wins, then most complete cards [BUS-WIN]"
        return (
            f"<h3 style='margin:4px 0'>{escape(self._title)}</h3>"
            f"<div class='bus-lab-options' style='color:#333'>Table: {escape(', '.join(opts))}</div>"
            f"<div class='bus-lab-part' style='font-weight:bold'>{escape(part)}</div>"
        )

    def action_pool_size(self) -> int:
        """Buttons built once: the most choices the chooser leaves open (see :data:`POOL`)."""
        return POOL

    def action_tooltip(self, state: State, action: int, odds: Any) -> str:
        """What the move does in words, with its rule ID (the route for a drive)."""
        label = state.action_to_string(action)
        move = state.move(action)
        if isinstance(move, Drive):
            route = move.route
            path = " → ".join(G.node_label(n) for n in route) if route else label
            return f"Drive {len(route or [])} step(s): {path} (BUS-MOVE, BUS-DROPOFF)"
        if isinstance(move, TakeCard):
            return f"Take the face-up card {state.card_name(move.card)} into Picked Up (BUS-PICKUP)"
        if isinstance(move, DrawBlind):
            return "Take the deck's top card without seeing it first (BUS-PICKUP)"
        if isinstance(move, Pass):
            return "Do not use this card's action (BUS-ONE-ACTION)"
        if isinstance(move, PlaceBus):
            return f"Put your bus on {G.node_label(move.node)} (BUS-START)"
        if isinstance(move, SwapCards):
            return f"Swap these two street cards (BUS-CONSTRUCTION): {label}"
        if isinstance(move, TurnCard):
            return (
                f"Turn {G.SLOTS[move.slot].name} by 180°, moving its symbol across the street (BUS-CH-ROTATE)"
            )
        return f"Play {label}"
