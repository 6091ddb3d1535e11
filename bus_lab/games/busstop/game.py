"""Busstop: The Boardgame -- parameters and the game object.

Rules: ``shared/rules/busstop.md`` (IDs ``BSB-…``). 2-5 players bid with numbered tiles for
passengers over 10 rounds, board them onto buses of one sort each, and pay for everyone left
waiting in their queue. Two players add the simulated proxy bus (BSB-PROXY).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bus_lab.engine.core import Game, Param
from bus_lab.games.busstop.components import SHEET_FORMAT, Sheet
from bus_lab.games.sheets import SheetParameter


class BusstopGame(SheetParameter, Game):
    """Busstop with its table settings.

    Args:
        players (int): 2-5 (BSB-SETUP); with 2 the proxy bus plays as a third board (BSB-PROXY).
        passenger_bonus (bool): option 1, passengers of your colour's sort score double
            (BSB-OPT-BONUS). Default False.
        end_bonus (bool): option 2, a 5-point end-game requirement per colour (BSB-OPT-ENDBONUS).
            Default False.
        sheet (None | dict | str | Path): the component sheet (zone icons, bus seats, player-tile
            sorts, bonus tiles): ``None`` for the packaged ``sheet.json``, a path to a JSON file or
            the data as a dict. It is checked on load and kept in ``params`` as plain data (a dict,
            comments dropped; ``None`` for the packaged sheet), never as a path, so saved games
            carry their sheet and replay without the file.

    Raises:
        ParameterError: unknown name or a value outside the allowed ones.
        SheetError (a ParameterError): a sheet that fails its checks; the message names the field.

    Attributes:
        sheet (Sheet): the checked component sheet in use.
    """

    name = "busstop"
    title = "Busstop: The Boardgame"
    lower_score_wins = False  # BSB-WIN
    ENCODING = "bus_lab.games.busstop.encoding"
    POSITIONS = "bus_lab.games.busstop.positions"
    PARAMS = (
        Param("players", 4, "number of players (2-5; two play with the proxy bus)", bounds=(2, 5)),
        Param("passenger_bonus", False, "option 1: your colour's sort scores double", choices=(False, True)),
        Param(
            "end_bonus", False, "option 2: a 5-point end-game requirement per colour", choices=(False, True)
        ),
        Param("sheet", None, "component sheet: None (packaged), a dict or a JSON file path"),
    )

    SHEET_FORMAT = SHEET_FORMAT
    sheet: Sheet

    def _check_params(self, values: dict[str, Any]) -> None:
        self._open_sheet(values)

    @property
    def state_class(self) -> type:  # type: ignore[override]
        from bus_lab.games.busstop.state import BusstopState

        return BusstopState

    def policies(self) -> dict[str, Callable]:
        """Bots: ``"random"`` (any legal move), ``"greedy"`` (boards greedily: fills buses, keeps
        the queue short; bids at random) and ``"bidder"`` (the greedy boarder with a simple bidding
        strategy: a low tile when the line-up is worth fighting for, a high one when it is not)."""
        from bus_lab.games.busstop.policies import bidder_policy, greedy_policy, random_policy

        return {"random": random_policy, "greedy": greedy_policy, "bidder": bidder_policy}
