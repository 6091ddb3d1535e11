"""BUS (the city grid game): parameters and the game object.

Rules: ``shared/rules/bus_city.md`` (IDs ``BUS-…``), a pick-up-and-deliver game for 2–3 players
on a grid of 12 street cards. The cards come from a component sheet (:mod:`.components`), which
a teacher can replace with ``sheet=``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bus_lab.engine.core import Game, Param
from bus_lab.games.bus_city.components import SHEET_FORMAT, Sheet
from bus_lab.games.sheets import SheetParameter


class BusCityGame(SheetParameter, Game):
    """BUS with its table settings.

    Args:
        players (int): 2 or 3 (BUS-SETUP).
        challenging (bool): challenging play: symbols work only from their side of the street
            (BUS-CH-SIDE) and the construction site may turn a card instead (BUS-CH-ROTATE).
            Default ``False``.
        empty_speed (int | None): the speed limit with no passenger card in progress: ``None`` (no
            limit, the default) or ``5`` (BUS-SPEED).
        max_rounds (int): 1–100, default 50: a game whose end is not triggered by then ends after
            that round (BUS-END-CAP).
        sheet (None | str | os.PathLike | dict): the component sheet: ``None`` for the built-in
            placeholder sheet, a path to a JSON file, or a dict of the same shape (see
            :mod:`bus_lab.games.bus_city.components`). ``params["sheet"]`` keeps the sheet's
            contents as plain JSON data (``None`` for the built-in sheet), never a path, so saved
            games replay without the file.

    Raises:
        ParameterError: unknown name or a value outside the allowed ones.
        ComponentSheetError (a ParameterError): the sheet cannot be read or has a bad field (named).

    Attributes:
        sheet (Sheet): the checked component sheet.
    """

    name = "bus_city"
    title = "BUS (the city grid)"
    lower_score_wins = False  # BUS-WIN
    ENCODING = "bus_lab.games.bus_city.encoding"
    POSITIONS = "bus_lab.games.bus_city.positions"
    PARAMS = (
        Param("players", 2, "number of players (2-3)", bounds=(2, 3)),
        Param(
            "challenging",
            False,
            "challenging play: side of the street, turn a card (BUS-CH-SIDE, BUS-CH-ROTATE)",
            choices=(False, True),
        ),
        Param(
            "empty_speed",
            None,
            "speed limit with no card in progress: None = no limit (BUS-SPEED)",
            choices=(None, 5),
        ),
        Param(
            "max_rounds",
            50,
            "rounds after which a game with no end triggered stops (BUS-END-CAP)",
            bounds=(1, 100),
        ),
        Param("sheet", None, "component sheet: None (built-in), a path to a JSON file, or a dict"),
    )

    SHEET_FORMAT = SHEET_FORMAT
    sheet: Sheet

    def _check_params(self, values: dict[str, Any]) -> None:
        self._open_sheet(values)

    @property
    def state_class(self) -> type:  # type: ignore[override]
        from bus_lab.games.bus_city.state import BusCityState

        return BusCityState

    def policies(self) -> dict[str, Callable]:
        """Bots: ``"random"`` (any legal move) and ``"greedy"`` (a greedy router: the move that
        delivers the most points now, then the shortest way to the next drop-off or bus stop)."""
        from bus_lab.games.bus_city.policies import greedy_policy, random_policy

        return {"random": random_policy, "greedy": greedy_policy}

    def __repr__(self) -> str:
        shown = dict(self.params)
        if isinstance(shown["sheet"], dict):
            shown["sheet"] = f"<sheet {self.sheet.title!r}>"
        args = ", ".join(
            f"{k}={v}" if k == "sheet" and isinstance(self.params[k], dict) else f"{k}={v!r}"
            for k, v in shown.items()
        )
        return f"load_game({self.name!r}, {args})"
