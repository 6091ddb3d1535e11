"""Kept for saved code: the Ride the Bus Part 1 odds (the four questions) live in
:mod:`bus_lab.games.ride_the_bus.part1_odds`; this module re-exports every name of it (also its private
helpers, on first use), so ``from bus_lab.prob.part1 import ...`` keeps working."""

from bus_lab.games.ride_the_bus import part1_odds as _home
from bus_lab.games.ride_the_bus.part1_odds import *  # noqa: F403

__all__ = list(_home.__all__)


def __getattr__(name: str):
    return getattr(_home, name)
