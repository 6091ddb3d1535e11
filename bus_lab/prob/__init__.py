"""Exact odds and expectations, computed through the public State API.

Exact values are :class:`fractions.Fraction`; floats are for display only.
"""
from bus_lab.prob.ride_the_bus import best_guess, guess_odds

__all__ = ["guess_odds", "best_guess"]
