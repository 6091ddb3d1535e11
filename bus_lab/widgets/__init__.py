"""ipywidgets front ends: one shared :class:`GameWidget` and a thin widget per game.

Importing this package imports ipywidgets; ``import bus_lab`` does not import it.

Example::

    from bus_lab.widgets import RideTheBusWidget

    RideTheBusWidget(players=4, humans=(0,), seed=1)   # you play seat 0 against three bots
    RideTheBusWidget(players=3, board="give_and_take", bus="questions", streak=4)  # any table settings
    RideTheBusWidget(players=1, mode="gauntlet")       # the solo gauntlet

Every ``RideTheBusWidget`` has a collapsible "Table settings" panel (players, who plays each seat,
board, row points, bus, streak, mode, seed) and a button that deals a new game with them.

``AnswerBox(truth, hint=...)`` is a typed self-check question (works in the Voilà app view too);
``folded_output()`` folds printed output that would give an answer away;
``FoldingPanel`` is the keyboard-reachable collapsible panel the widgets use.
"""

from bus_lab.widgets.base import FoldingPanel, GameWidget, format_odds
from bus_lab.widgets.bus_and_stop import BusAndStopWidget
from bus_lab.widgets.bus_city import BusCityWidget
from bus_lab.widgets.busstop import BusstopWidget
from bus_lab.widgets.quiz import AnswerBox, folded_output
from bus_lab.widgets.ride_the_bus import RideTheBusWidget

__all__ = [
    "AnswerBox",
    "FoldingPanel",
    "GameWidget",
    "RideTheBusWidget",
    "BusAndStopWidget",
    "BusCityWidget",
    "BusstopWidget",
    "folded_output",
    "format_odds",
]
