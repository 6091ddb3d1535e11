"""More checks of the pyramid's numbers (``bus_lab.games.ride_the_bus.pyramid_odds``): the spread of
the plain simulation against an exact distribution enumerated over a small table, and the refusal
of values that are not cards or not a table size.

Rules: RTB-P-FLIP, RTB-P-MATCH, RTB-P-POINTS, RTB-SETUP-PLAYERS.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import pytest

from bus_lab.games.ride_the_bus.pyramid_odds import (
    pyramid_fresh_deck,
    pyramid_odds,
    pyramid_over_deals,
    simulate_pyramids,
)

ESCALATING = [1, 1, 1, 1, 2, 2, 2, 3, 3, 4]  # RTB-P-LAYOUT rows of 4, 3, 2, 1; RTB-P-POINTS


def test_simulated_points_have_the_exact_spread():
    """Seat 0 holds one seven (7C), seat 1 all four twos: of the 47 unseen cards only the three
    other sevens can match. The seven is played at the first of them among the ten flips, for that
    flip's row points (RTB-P-MATCH, RTB-P-POINTS); nothing else ever scores. Enumerating the
    C(47, 3) equally likely places of the three sevens in the shuffled pile gives the exact mean and
    variance of the points; 20,000 simulated pyramids agree on the mean within 3 standard errors,
    and their standard error is the exact one, sqrt(variance / n), within 10 %."""
    rows = [["7C"], ["2C", "2D", "2H", "2S"]]
    places = list(combinations(range(47), 3))
    mean = Fraction(0)
    square = Fraction(0)
    for sevens in places:
        first = min(sevens)
        points = ESCALATING[first] if first < 10 else 0
        mean += Fraction(points, len(places))
        square += Fraction(points * points, len(places))
    variance = square - mean * mean
    assert pyramid_odds(rows).expected_points == mean
    n = 20_000
    sim = simulate_pyramids(rows, n=n, seed=5, batch=7_000)
    exact_se = math.sqrt(float(variance) / n)
    assert sim["points"].n == n
    assert abs(sim["points"].mean - float(mean)) <= 3 * exact_se
    assert abs(sim["points"].stderr - exact_se) <= 0.1 * exact_se
    shows = Fraction(sum(min(sevens) < 10 for sevens in places), len(places))
    assert shows == 1 - Fraction(math.comb(37, 3), math.comb(47, 3))  # no seven among the ten flips
    assert abs(sim["cards_played"].mean - float(shows)) <= 3 * sim["cards_played"].stderr


@pytest.mark.parametrize("card", [52, -1, 100, True, 3.0, None])
def test_a_row_item_that_is_not_a_card(card):
    """Card ints run from 0 to 51; a bool, a float or anything else is not a card."""
    with pytest.raises(ValueError, match="is not a card"):
        pyramid_odds([["7H", card], ["2C"]])
    with pytest.raises(ValueError, match="is not a card"):
        simulate_pyramids([["7H", card], ["2C"]], n=10)


@pytest.mark.parametrize("players", [1, 9, 0, True, 4.0, "4"])
def test_table_sizes_outside_two_to_eight(players):
    """RTB-SETUP-PLAYERS: the pyramid is played by 2 to 8 players, given as an integer."""
    with pytest.raises(ValueError, match="from 2 to 8"):
        pyramid_over_deals(players, 10)
    with pytest.raises(ValueError, match="from 2 to 8"):
        pyramid_fresh_deck(players)
    with pytest.raises(ValueError, match="from 2 to 8"):
        simulate_pyramids(None, n=10, players=players)
