"""Exact odds and expectations, and simulations that check them.

Exact values are :class:`fractions.Fraction`; floats are for display only.

This package holds what does not depend on any game: :mod:`bus_lab.prob.montecarlo` (``Estimate``,
``monte_carlo``, ``estimate``, ``Moments``, ``run_batches``, ``game_seed``, ``game_seeds``, confidence
intervals).
Each game keeps its own odds next to its rules; the public entry points of Ride the Bus are
re-exported here, loaded on first use (numpy only when a simulation runs), so
``from bus_lab.prob import guess_odds`` keeps working:

* :mod:`bus_lab.games.ride_the_bus.odds`: ``guess_odds``, ``best_guess`` at any state;
* :mod:`bus_lab.games.ride_the_bus.part1_odds`: the four questions (tables, all four right, Part 1
  points, a seat at a table);
* :mod:`bus_lab.games.ride_the_bus.pyramid_odds`: the pyramid (exact figures, over deals, simulated,
  played out on the engine);
* :mod:`bus_lab.games.ride_the_bus.bus_odds`: getting off the bus (exact Markov chains with
  replacement, vectorised finite-deck simulation), the questions bus and the solo gauntlet.

The modules ``bus_lab.prob.ride_the_bus``, ``bus_lab.prob.part1``, ``bus_lab.prob.pyramid`` and
``bus_lab.prob.bus`` are kept for saved code: each re-exports its new home.

Strategies have one vocabulary: ``"best_odds"`` is the guess most likely to be right now (what the
``best_odds`` bot plays); ``"random"`` any legal guess. The Part 1 functions also accept the older
spelling ``"best"`` for ``"best_odds"``. ``"optimal"`` (the bus chains only) is a different policy:
the guess that maximises the chance of getting off the bus, looking ahead.
"""

from importlib import import_module

_RTB = "bus_lab.games.ride_the_bus"
_MC = "bus_lab.prob.montecarlo"
_HOMES = {
    _MC: (
        "Estimate",
        "Moments",
        "monte_carlo",
        "estimate",
        "run_batches",
        "game_seed",
        "game_seeds",
        "progress_bar",
    ),
    f"{_RTB}.odds": ("guess_odds", "best_guess"),
    f"{_RTB}.part1_odds": (
        "q1_table",
        "q2_table",
        "q3_table",
        "q4_table",
        "all_four_right",
        "question_right_chances",
        "expected_part1_points",
        "part1_points_distribution",
        "part1_pattern_distribution",
        "seat_expectations",
        "SeatExpectations",
        "table_question_right_chances",
        "simulate_part1",
        "simulate_seat",
    ),
    f"{_RTB}.pyramid_odds": (
        "PyramidOdds",
        "row_weights",
        "flip_rows",
        "first_appearance",
        "pyramid_odds",
        "pyramid_odds_from_state",
        "pyramid_fresh_deck",
        "pyramid_over_deals",
        "simulate_pyramids",
        "engine_playouts",
    ),
    f"{_RTB}.bus_odds": (
        "bus_off_chance",
        "bus_off_by_guess",
        "expected_guesses",
        "expected_bus_points",
        "guesses_distribution",
        "questions_bus_off_chance",
        "questions_bus_off_by_guess",
        "questions_bus_expected_guesses",
        "questions_bus_expected_points",
        "questions_bus_guesses_distribution",
        "gauntlet_win_chance",
        "gauntlet_win_distribution",
        "simulate_bus",
        "simulate_questions_bus",
        "simulate_gauntlet",
        "BusSimulation",
        "GauntletSimulation",
        "bus_start_piles",
        "bus_traces",
        "questions_bus_traces",
    ),
}
#: Each re-exported name and the module it is loaded from.
_LAZY = {name: module for module, names in _HOMES.items() for name in names}

__all__ = list(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'bus_lab.prob' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
