"""Bus & Stop: parameters and the game object.

Rules: ``shared/rules/bus_and_stop.md`` (IDs ``BAS-…``): a set-collecting card game for 2–4 players.
Pick up every passenger of one colour from the bus stop, or drop passengers off at a destination
for its points; the most points wins.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bus_lab.engine.core import Game, Param
from bus_lab.games.bus_and_stop.components import SHEET_FORMAT, Sheet
from bus_lab.games.sheets import SheetParameter


class BusAndStopGame(SheetParameter, Game):
    """Bus & Stop with its table settings.

    Args:
        players (int): 2–4 (seats 0 to players − 1; seat 0 starts, BAS-SETUP-FIRST).
        final_round (str): ``"drop_off"`` (default: after the end is triggered everyone gets one
            final drop-off, BAS-END-FINAL) or ``"full_turn"`` (one whole final turn each).
        leftover_penalty (bool): False (default: passengers left in a bus cost nothing) or True
            (−1 per passenger left in the bus at the end, BAS-SCORE-EMPTY).
        sheet (None | str | dict): the component sheet (BAS-COMP-PASSENGERS,
            BAS-COMP-DESTINATIONS, BAS-COMP-SIDES): ``None`` for the built-in placeholder sheet, a
            path to a JSON file, or the sheet as a dict (see
            :mod:`bus_lab.games.bus_and_stop.components`). ``params["sheet"]`` keeps the sheet's
            contents (a plain JSON dict; ``None`` for the built-in sheet), never a path, so saved
            games replay without the file, and a game made from a file equals the game made from
            the same data as a dict.

    Raises:
        ParameterError: unknown name or a value outside the allowed ones.
        ComponentSheetError (a ``ParameterError``): the sheet is bad; the message names the field.

    Attributes:
        sheet (Sheet): the validated component sheet.
    """

    name = "bus_and_stop"
    title = "Bus & Stop"
    lower_score_wins = False  # BAS-WIN
    ENCODING = "bus_lab.games.bus_and_stop.encoding"
    POSITIONS = "bus_lab.games.bus_and_stop.positions"
    PARAMS = (
        Param("players", 4, "number of players (2-4)", bounds=(2, 4)),
        Param(
            "final_round",
            "drop_off",
            "what each player may do after the end is triggered",
            choices=("drop_off", "full_turn"),
        ),
        Param("leftover_penalty", False, "-1 per passenger left in a bus at the end", choices=(False, True)),
        Param(
            "sheet", None, "component sheet: None (built-in placeholders), a path to a JSON file, or a dict"
        ),
    )

    SHEET_FORMAT = SHEET_FORMAT
    sheet: Sheet

    def _check_params(self, values: dict[str, Any]) -> None:
        self._open_sheet(values)

    @property
    def state_class(self) -> type:  # type: ignore[override]
        from bus_lab.games.bus_and_stop.state import BusAndStopState

        return BusAndStopState

    def policies(self) -> dict[str, Callable]:
        """Bots: ``"random"`` (any legal move) and ``"greedy"`` (claims the best-scoring destination it
        can, else makes the pick-up that most improves its best future claim; skedaddles when that
        costs no claim it could make now)."""
        from bus_lab.games.bus_and_stop.policies import greedy_policy, random_policy

        return {"random": random_policy, "greedy": greedy_policy}

    def __hash__(self) -> int:
        return hash((self.name, json.dumps(self.params, sort_keys=True, default=str)))

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.params.items() if k != "sheet" or v is not None}
        if isinstance(shown.get("sheet"), dict):
            shown["sheet"] = "{...}"
            args = ", ".join(f"{k}={v}" if k == "sheet" else f"{k}={v!r}" for k, v in shown.items())
        else:
            args = ", ".join(f"{k}={v!r}" for k, v in shown.items())
        return f"load_game({self.name!r}, {args})"
