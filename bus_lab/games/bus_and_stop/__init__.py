"""Bus & Stop: the set-collecting card game of passengers, a bus stop and destinations.

``bus_lab.load_game("bus_and_stop", players=4)``; rules ``BAS-…`` in the rule catalogue. The
component figures (deck, destination cards) are data: see :mod:`.components`; the moves, named in
the game's words, are in :mod:`.moves` (the action-int constants are kept for saved code).
"""

from bus_lab.games.bus_and_stop.components import (
    ComponentSheetError,
    Sheet,
    default_sheet_data,
    load_sheet,
    validate_sheet,
)
from bus_lab.games.bus_and_stop.game import BusAndStopGame
from bus_lab.games.bus_and_stop.moves import (
    CHOOSE_BASE,
    DROP_BASE,
    DROP_SPAN,
    NO_SKEDADDLE,
    PASS,
    PICK_BASE,
    SKEDADDLE_BASE,
    UNHAPPY_BASE,
    UNHAPPY_DONE,
    ChoosePassenger,
    DropOff,
    NoSkedaddle,
    Pass,
    PassengerDrawn,
    PickUp,
    Skedaddle,
    StopDiscarding,
    UnhappyDiscard,
    drop_action,
)
from bus_lab.games.bus_and_stop.phases import BusAndStopPhase, Stage
from bus_lab.games.bus_and_stop.state import BusAndStopState

__all__ = [
    "BusAndStopGame",
    "BusAndStopState",
    "ComponentSheetError",
    "Sheet",
    "load_sheet",
    "validate_sheet",
    "default_sheet_data",
    "BusAndStopPhase",
    "Stage",
    "PassengerDrawn",
    "PickUp",
    "DropOff",
    "ChoosePassenger",
    "Skedaddle",
    "NoSkedaddle",
    "UnhappyDiscard",
    "StopDiscarding",
    "Pass",
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
