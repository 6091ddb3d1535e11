"""Busstop: The Boardgame -- bid with numbered tiles for passengers, board them onto buses of one
sort each, and keep your queue short (2-5 players; 2 play with a proxy bus).

``bus_lab.load_game("busstop", players=4, passenger_bonus=False, end_bonus=False)``; rules
``BSB-…`` in the rule catalogue; the board facts are in the component sheet (``sheet.json``,
see :mod:`.components`). Moves are typed values in the game's words (:mod:`.moves`), phases
are :class:`BusstopPhase` members (:mod:`.phases`), event sentences come from :mod:`.narrate` and
``view(seat)`` is documented in :mod:`.views`.
"""

from bus_lab.games.busstop.components import (
    KIND_CODES,
    KIND_NAMES,
    SORTS,
    STACK_COUNTS,
    Sheet,
    SheetError,
    default_sheet_data,
    load_sheet,
    validate_sheet,
)
from bus_lab.games.busstop.game import BusstopGame
from bus_lab.games.busstop.moves import (
    ChooseTile,
    HeadBoards,
    PassengerDrawn,
    PlacePassenger,
    ProxyTileDrawn,
    StopBoarding,
    TakeTile,
)
from bus_lab.games.busstop.phases import PHASES, BusstopPhase
from bus_lab.games.busstop.state import (
    BID_BASE,
    BOARD_BASE,
    PLACE_BASE,
    PROXY_DRAW_BASE,
    QUEUE_DEST,
    STOP,
    WHITE_BASE,
    BusstopState,
)

__all__ = [
    "BusstopGame",
    "BusstopState",
    "Sheet",
    "SheetError",
    "load_sheet",
    "validate_sheet",
    "default_sheet_data",
    "SORTS",
    "KIND_CODES",
    "KIND_NAMES",
    "STACK_COUNTS",
    "BID_BASE",
    "WHITE_BASE",
    "PLACE_BASE",
    "QUEUE_DEST",
    "BOARD_BASE",
    "STOP",
    "PROXY_DRAW_BASE",
    "BusstopPhase",
    "PHASES",
    "PassengerDrawn",
    "ProxyTileDrawn",
    "ChooseTile",
    "TakeTile",
    "PlacePassenger",
    "HeadBoards",
    "StopBoarding",
]
