"""The game-agnostic engine: the Game/State protocol, the registry, Session, errors and events.

Standard library only; nothing here imports ipywidgets, matplotlib or numpy.
"""

from bus_lab.engine.core import CHANCE, TERMINAL, Game, Param, State
from bus_lab.engine.errors import (
    ActionTypeError,
    BusLabError,
    IllegalActionError,
    InputTypeError,
    OptionNotBuiltError,
    ParameterError,
    PositionError,
    UnknownGameError,
)
from bus_lab.engine.events import Event
from bus_lab.engine.moves import Actor, Move, Phase, PhaseRule
from bus_lab.engine.policies import random_policy, sample_chance
from bus_lab.engine.registry import load_game, register_game, registered_games, state_from_dict
from bus_lab.engine.session import Session

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "Param",
    "State",
    "BusLabError",
    "IllegalActionError",
    "ActionTypeError",
    "InputTypeError",
    "Move",
    "Phase",
    "PhaseRule",
    "Actor",
    "OptionNotBuiltError",
    "ParameterError",
    "PositionError",
    "UnknownGameError",
    "Event",
    "random_policy",
    "sample_chance",
    "load_game",
    "register_game",
    "registered_games",
    "state_from_dict",
    "Session",
]
