"""Kept for saved code: the Ride the Bus pyramid odds (Part 2) live in
:mod:`bus_lab.games.ride_the_bus.pyramid_odds`; this module re-exports every name of it (also its private
helpers, on first use), so ``from bus_lab.prob.pyramid import ...`` keeps working."""

from bus_lab.games.ride_the_bus import pyramid_odds as _home
from bus_lab.games.ride_the_bus.pyramid_odds import *  # noqa: F403

__all__ = list(_home.__all__)


def __getattr__(name: str):
    return getattr(_home, name)
