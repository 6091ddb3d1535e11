"""Bus & Stop: the set-collecting card game of passengers, a bus stop and destinations.

``bus_lab.load_game("bus_and_stop", players=4)``; rules ``BAS-…`` in the rule catalogue. The
component figures (deck, destination cards) are data: see :mod:`.components`.
"""

from bus_lab.games.bus_and_stop.components import (
    ComponentSheetError,
    Sheet,
    default_sheet_data,
    load_sheet,
    validate_sheet,
)
from bus_lab.games.bus_and_stop.game import BusAndStopGame
from bus_lab.games.bus_and_stop.state import (
    CHOOSE_BASE,
    DROP_BASE,
    DROP_SPAN,
    NO_SKEDADDLE,
    PASS,
    PICK_BASE,
    SKEDADDLE_BASE,
    UNHAPPY_BASE,
    UNHAPPY_DONE,
    BusAndStopState,
    drop_action,
)

__all__ = [
    "BusAndStopGame",
    "BusAndStopState",
    "ComponentSheetError",
    "Sheet",
    "load_sheet",
    "validate_sheet",
    "default_sheet_data",
    "PICK_BASE",
    "DROP_BASE",
    "DROP_SPAN",
    "CHOOSE_BASE",
    "SKEDADDLE_BASE",
    "NO_SKEDADDLE",
    "UNHAPPY_BASE",
    "UNHAPPY_DONE",
    "PASS",
    "drop_action",
]
