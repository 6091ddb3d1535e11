"""bus_lab: step-through engines, exact odds and Jupyter widgets for four bus-themed tabletop games.

Quick use::

    import bus_lab
    game = bus_lab.load_game("ride_the_bus", players=4)
    session = bus_lab.Session(game, seed=1, bots="best_odds")
    session.run_to_end()
    session.state.returns()          # points per seat (lowest total wins)

Widgets live in :mod:`bus_lab.widgets` and exact odds in :mod:`bus_lab.prob`; both are imported
only when used, so ``import bus_lab`` stays fast.
"""

from bus_lab.engine import (
    CHANCE,
    TERMINAL,
    BusLabError,
    Event,
    Game,
    IllegalActionError,
    InputTypeError,
    Move,
    OptionNotBuiltError,
    ParameterError,
    Phase,
    Session,
    State,
    UnknownGameError,
    load_game,
    registered_games,
    state_from_dict,
)
from bus_lab.simulate import simulate

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "BusLabError",
    "Event",
    "Game",
    "IllegalActionError",
    "InputTypeError",
    "Move",
    "Phase",
    "OptionNotBuiltError",
    "ParameterError",
    "Session",
    "State",
    "UnknownGameError",
    "load_game",
    "registered_games",
    "simulate",
    "state_from_dict",
    "__version__",
]
