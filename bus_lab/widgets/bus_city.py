"""``BusCityWidget``: play BUS (the city grid game) in a notebook by tapping the board.

The board (drawn in the browser by ``bus_lab/board/static/games/bus_city.js`` from
``state.view(viewer)``) shows the city grid of street cards with their symbols on their side,
the buses as numbered arrows pointing their heading, the last route, the face-up passenger cards,
the deck, the speed limit and every seat's progress area. You play on the board itself
(targets and choices from :mod:`bus_lab.board.adapters.bus_city`):

* on your move, tap a highlighted street card to drive there (BUS-MOVE, BUS-SPEED); when several
  moves end on that card (another heading, or other passengers dropped off on the way,
  BUS-DROPOFF), their routes appear as buttons beside the board and you pick one;
* at the start, tap a bus stop, then the heading (BUS-START);
* at a bus stop, tap a face-up passenger card or the deck (BUS-PICKUP), or press "Pass";
* on the construction site, tap two street cards with no bus on them to swap them
  (BUS-CONSTRUCTION); in challenging play pick the sides, or tap one card and turn it
  (BUS-CH-ROTATE); or press "Pass".

A card you cannot play says why on hover or focus (e.g. beyond the speed limit). Everything else
comes from :class:`~bus_lab.widgets.base.GameWidget`: Step, Back, Forward, Auto-play, the
timeline, New game with a seed, "View as", scores and the event log with rule IDs. The component
sheet (BUS-COMP-STREETS, BUS-COMP-PASSENGERS) is a folding panel under the board.

Example::

    from bus_lab.widgets import BusCityWidget

    w = BusCityWidget(players=3, humans=(0,), seed=1)   # you play seat 0 against two greedy bots
    w                                   # in a notebook: the table and the controls
    w.step()                            # a bot's move or a card drawn (what Step does)
    w.play("b1-c1 E")                   # drive to b1-c1 heading east (a move's label), if legal
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import ipywidgets as W

from bus_lab.games.bus_city.game import BusCityGame
from bus_lab.widgets.base import FoldingPanel, GameWidget


def table_words(game: BusCityGame) -> str:
    """The table's options in words, e.g. ``"3 players, basic play, no limit when empty"``."""
    params = game.params
    words = [
        f"{game.num_players} players",
        "challenging play" if params["challenging"] else "basic play",
        "no limit when empty" if params["empty_speed"] is None else f"empty limit {params['empty_speed']}",
        f"at most {params['max_rounds']} rounds",
    ]
    return ", ".join(words)


class BusCityWidget(GameWidget):
    """A BUS table you can play by tapping the board, step through and rewind.

    Args:
        players (int): 2 or 3 (BUS-SETUP).
        humans (Iterable[int]): seats you play (``()``: every seat a bot, a demo).
        bot (str): the bots' policy, ``"greedy"`` (default) or ``"random"``.
        seed (int | None): seed of the shuffles and the bots' tie-breaks.
        deck (Sequence[str] | None): scripted chance outcomes by label (street cards ``"red/N"``
            in slot order, then passenger cards ``"red-pink"``), used before random draws.
        title, max_log, interval, pick_cards: see :class:`~bus_lab.widgets.base.GameWidget`
            (the default title names the game and its table options).
        start (dict | None): a position to begin from instead of a new deal (a dict as
            ``state.position()`` gives it; see the game's ``positions`` module); New game returns to
            it. The "Set up a position" panel below the board does the same from JSON.
        **options: ``challenging``, ``empty_speed``, ``max_rounds``, ``sheet`` (see
            :class:`~bus_lab.games.bus_city.game.BusCityGame`).

    Raises:
        PositionError: ``start`` cannot be set up (the message names the field).
        ParameterError: a bad option or component sheet, or a human seat not at the table.
        ValueError: an unknown bot policy, or a bad ``interval``/``max_log``.

    Attributes (besides those of the base widget):
        sheet_panel (FoldingPanel): the component sheet (BUS-COMP-STREETS, BUS-COMP-PASSENGERS),
            closed at first.
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
        start: dict[str, Any] | None = None,
        **options: Any,
    ):
        game = BusCityGame(players=players, **options)
        session = self.table_session(game, humans, bot, seed, deck, start)
        if title is None:
            title = f"{game.title or game.name} ({table_words(game)})"
        super().__init__(session, title=title, max_log=max_log, interval=interval, pick_cards=pick_cards)
        self.sheet_panel = FoldingPanel(
            "Component sheet",
            W.HTML(game.sheet._repr_html_()),
            "Show the street and passenger cards of this game (BUS-COMP-STREETS, BUS-COMP-PASSENGERS)",
        )
        self.widget = W.VBox([self.board, self.sheet_panel, *self._position_panels()])
