"""Exact odds and expectations, computed through the public State API, and simulations that
check them.

Exact values are :class:`fractions.Fraction`; floats are for display only. The submodules load on
first use (numpy only when a simulation runs):

* :mod:`bus_lab.prob.ride_the_bus`: ``guess_odds``, ``best_guess`` at any state;
* :mod:`bus_lab.prob.part1`: the four questions (tables, all four right, Part 1 points);
* :mod:`bus_lab.prob.bus`: getting off the bus (exact Markov chains with replacement, vectorised
  finite-deck simulation), the questions bus and the solo gauntlet;
* :mod:`bus_lab.prob.montecarlo`: ``Estimate``, ``monte_carlo``, ``estimate``.
"""

from importlib import import_module

from bus_lab.prob.ride_the_bus import best_guess, guess_odds

_LAZY = {
    "Estimate": "montecarlo",
    "monte_carlo": "montecarlo",
    "estimate": "montecarlo",
    "q1_table": "part1",
    "q2_table": "part1",
    "q3_table": "part1",
    "q4_table": "part1",
    "all_four_right": "part1",
    "question_right_chances": "part1",
    "expected_part1_points": "part1",
    "part1_points_distribution": "part1",
    "part1_pattern_distribution": "part1",
    "seat_expectations": "part1",
    "table_question_right_chances": "part1",
    "simulate_part1": "part1",
    "bus_off_chance": "bus",
    "bus_off_by_guess": "bus",
    "expected_guesses": "bus",
    "expected_bus_points": "bus",
    "guesses_distribution": "bus",
    "questions_bus_off_chance": "bus",
    "questions_bus_off_by_guess": "bus",
    "questions_bus_expected_guesses": "bus",
    "questions_bus_expected_points": "bus",
    "questions_bus_guesses_distribution": "bus",
    "gauntlet_win_chance": "bus",
    "gauntlet_win_distribution": "bus",
    "simulate_bus": "bus",
    "simulate_questions_bus": "bus",
    "simulate_gauntlet": "bus",
    "BusSimulation": "bus",
    "GauntletSimulation": "bus",
    "bus_start_piles": "bus",
}

__all__ = ["guess_odds", "best_guess", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(f"bus_lab.prob.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'bus_lab.prob' has no attribute {name!r}")
