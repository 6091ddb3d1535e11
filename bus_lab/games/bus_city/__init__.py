"""BUS (Chris Handy): the pick-up-and-deliver game on a city grid of 12 street cards.

``bus_lab.load_game("bus_city", players=2, challenging=False, empty_speed=None)``; rules
``BUS-…`` in the rule catalogue. The cards are data: :func:`load_sheet` (the component sheet).
"""

from bus_lab.games.bus_city.components import ComponentSheetError, Sheet, default_sheet_dict, load_sheet
from bus_lab.games.bus_city.game import BusCityGame
from bus_lab.games.bus_city.moves import (
    DRAW_BLIND,
    MASK_SPAN,
    MOVE_BASE,
    PASS,
    PASSENGER_BASE,
    PLACE_BASE,
    ROTATE_BASE,
    SWAP_BASE,
    TAKE_BASE,
    DrawBlind,
    Drive,
    Pass,
    PassengerCardDrawn,
    PlaceBus,
    StreetCardDrawn,
    SwapCards,
    TakeCard,
    TurnCard,
)
from bus_lab.games.bus_city.phases import PHASES, BusCityPhase
from bus_lab.games.bus_city.state import BusCityState

__all__ = [
    "BusCityGame",
    "BusCityState",
    "ComponentSheetError",
    "Sheet",
    "load_sheet",
    "default_sheet_dict",
    "DRAW_BLIND",
    "PASS",
    "PASSENGER_BASE",
    "TAKE_BASE",
    "PLACE_BASE",
    "ROTATE_BASE",
    "SWAP_BASE",
    "MOVE_BASE",
    "MASK_SPAN",
    "BusCityPhase",
    "PHASES",
    "DrawBlind",
    "Drive",
    "Pass",
    "PassengerCardDrawn",
    "PlaceBus",
    "StreetCardDrawn",
    "SwapCards",
    "TakeCard",
    "TurnCard",
]
