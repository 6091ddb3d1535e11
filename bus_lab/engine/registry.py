"""The game registry: ``load_game(name, **params)`` and ``registered_games()``.

Games are registered by module path and imported on first use, so ``import bus_lab`` stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

from bus_lab.engine.core import Game, State
from bus_lab.engine.errors import UnknownGameError

_REGISTRY: dict[str, str] = {
    "ride_the_bus": "bus_lab.games.ride_the_bus:RideTheBusGame",
    "bus_and_stop": "bus_lab.games.bus_and_stop:BusAndStopGame",
    "bus_city": "bus_lab.games.bus_city:BusCityGame",
    "busstop": "bus_lab.games.busstop:BusstopGame",
}


def register_game(name: str, target: str) -> None:
    """Register a game class under ``name``.

    Args:
        name (str): registry name, e.g. ``"ride_the_bus"``.
        target (str): ``"package.module:ClassName"`` of a :class:`Game` subclass.
    """
    _REGISTRY[name] = target


def registered_games() -> list[str]:
    """Names accepted by :func:`load_game`, sorted."""
    return sorted(_REGISTRY)


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``name``.

    Raises:
        UnknownGameError: ``name`` is not registered (the message lists the registered names).
    """
    if not isinstance(name, str) or name not in _REGISTRY:
        raise UnknownGameError(f"unknown game {name!r}: registered games are {', '.join(registered_games())}")
    module_name, class_name = _REGISTRY[name].split(":")
    return getattr(importlib.import_module(module_name), class_name)


def load_game(name: str, **params: Any) -> Game:
    """Create the game ``name`` with the given parameters.

    Args:
        name (str): one of :func:`registered_games`.
        **params: the game's parameters (see its ``PARAMS``).

    Raises:
        UnknownGameError: unknown name. ParameterError: bad parameter.
        OptionNotBuiltError: an option value not playable in this version.
    """
    return game_class(name)(**params)


def state_from_dict(data: dict[str, Any]) -> State:
    """Rebuild any game's state from ``State.to_dict()`` output."""
    return load_game(data["game"], **data.get("params", {})).state_from_dict(data)
