"""ipywidgets front ends: one shared :class:`GameWidget` and a thin widget per game.

Importing this package imports ipywidgets; ``import bus_lab`` does not import it.

Example::

    from bus_lab.widgets import RideTheBusWidget

    RideTheBusWidget(players=4, humans=(0,), seed=1)   # you play seat 0 against three bots
"""
from bus_lab.widgets.base import GameWidget, format_odds
from bus_lab.widgets.ride_the_bus import RideTheBusWidget
from bus_lab.widgets.bus_and_stop import BusAndStopWidget

__all__ = ["GameWidget", "RideTheBusWidget", "BusAndStopWidget", "format_odds"]
