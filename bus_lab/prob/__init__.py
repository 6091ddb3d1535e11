"""Exact odds and expectations, computed through the public State API.

Exact values are :class:`fractions.Fraction`; floats are for display only. Simulation helpers
(:mod:`bus_lab.prob.montecarlo`, numpy) are imported only when used.
"""
from bus_lab.prob.ride_the_bus import best_guess, guess_odds

__all__ = ["guess_odds", "best_guess", "Estimate", "monte_carlo", "estimate"]


def __getattr__(name):
    if name in ("Estimate", "monte_carlo", "estimate"):
        from bus_lab.prob import montecarlo

        return getattr(montecarlo, name)
    raise AttributeError(f"module 'bus_lab.prob' has no attribute {name!r}")
