"""Kept for saved code: the guess odds at any state of Ride the Bus live in
:mod:`bus_lab.games.ride_the_bus.odds`; this module re-exports every name of it (also its private
helpers, on first use), so ``from bus_lab.prob.ride_the_bus import ...`` keeps working."""

from bus_lab.games.ride_the_bus import odds as _home
from bus_lab.games.ride_the_bus.odds import *  # noqa: F403

__all__ = list(_home.__all__)


def __getattr__(name: str):
    return getattr(_home, name)
