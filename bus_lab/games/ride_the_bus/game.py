"""Ride the Bus: parameters and the game object.

Rules: ``shared/rules/ride_the_bus.md`` (IDs ``RTB-…``), from the points version of the card game
(lowest total wins). Every option of the rules is playable: the Give & Take board, flat row points,
the questions bus, the streak target and the solo gauntlet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bus_lab.engine.core import Game, Param
from bus_lab.engine.errors import ParameterError


class RideTheBusGame(Game):
    """Ride the Bus with its table settings.

    Args:
        players (int): 2–8 in classic mode, 1–8 in the solo gauntlet (RTB-SETUP-PLAYERS).
        board (str): ``"pyramid"`` (default) or ``"give_and_take"`` (RTB-GT-*).
        row_points (str): ``"escalating"`` (default: 1–4 points per card by row) or ``"flat"``
            (1 point per card) (RTB-P-POINTS).
        bus (str): ``"higher_lower"`` (default) or ``"questions"`` (RTB-QB-*).
        streak (int): hits in a row that end the bus, 3–7, default 5 (RTB-B-END).
        mode (str): ``"classic"`` (default) or ``"gauntlet"`` (RTB-SG-*: Part 1, then 10 rides each;
            ``board``, ``row_points`` and ``bus`` must stay at their defaults).

    Raises:
        ParameterError: unknown name or a value outside the allowed ones.
    """

    name = "ride_the_bus"
    title = "Ride the Bus"
    lower_score_wins = True  # RTB-SCORE-LOW
    PARAMS = (
        Param("players", 4, "number of players (2-8; solo gauntlet 1-8)", bounds=(1, 8)),
        Param("board", "pyramid", "Part 2 board", choices=("pyramid", "give_and_take")),
        Param("row_points", "escalating", "points per card by row", choices=("escalating", "flat")),
        Param("bus", "higher_lower", "Part 3 bus", choices=("higher_lower", "questions")),
        Param("streak", 5, "hits in a row to get off the bus", bounds=(3, 7)),
        Param("mode", "classic", "classic game or solo gauntlet", choices=("classic", "gauntlet")),
    )

    def _check_params(self, values: dict[str, Any]) -> None:
        if values["mode"] == "gauntlet":
            defaults = {p.name: p.default for p in self.PARAMS}
            clash = [k for k in ("board", "row_points", "bus") if values[k] != defaults[k]]
            if clash:
                raise ParameterError(
                    f"{', '.join(f'{k}={values[k]!r}' for k in clash)} does not apply in mode='gauntlet': the "
                    f"gauntlet has no Part 2 and always rides higher/lower; leave it at its default (RTB-SG-FLOW)"
                )
            return
        if values["mode"] != "classic":
            return
        players = values["players"]
        is_int = isinstance(players, int) and not isinstance(players, bool)
        if is_int and players == 1:
            raise ParameterError(
                "players=1 is not allowed in classic mode: use an integer from 2 to 8 "
                "(one player needs mode='gauntlet') (RTB-SETUP-PLAYERS)"
            )
        if not is_int or not 2 <= players <= 8:
            problem = "is out of range" if is_int else "is not allowed"
            raise ParameterError(
                f"players={players!r} {problem} in classic mode: use an integer from 2 to 8 "
                "(RTB-SETUP-PLAYERS)"
            )

    @property
    def state_class(self):  # type: ignore[override]
        from bus_lab.games.ride_the_bus.state import RideTheBusState

        return RideTheBusState

    def policies(self) -> dict[str, Callable]:
        """Bots: ``"random"`` (any legal move) and ``"best_odds"`` (the guess most likely to be
        right; points go to the current leader)."""
        from bus_lab.games.ride_the_bus.policies import best_odds_policy, random_policy

        return {"random": random_policy, "best_odds": best_odds_policy}
