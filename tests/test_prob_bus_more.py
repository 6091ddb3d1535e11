"""More checks of bus_lab.games.ride_the_bus.bus_odds: the limits of its arguments, the longest
exact streak, a finite-deck ride long enough for equal counts to matter, and tiny piles worked
out by hand.

Rules: RTB-B-FLIP, RTB-B-GUESS, RTB-B-STREAK, RTB-B-END, RTB-DECK-EMPTY, RTB-DISCARD.
Every expected value is computed here independently (exact Fractions) or follows from the
rules by hand.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import pytest

from bus_lab.engine.errors import ParameterError
from bus_lab.games.ride_the_bus import bus_odds as B

RANKS = range(13)


def hits_in_a_row_with_replacement(streak):
    """P(the first `streak` guesses all hit), every draw a rank of 13, the likelier call (higher
    when as many ranks lie above as below): a vector over the rank to beat."""
    ways = [Fraction(1, 13)] * 13  # the flipped card (RTB-B-FLIP)
    for _ in range(streak):
        nxt = [Fraction(0)] * 13
        for r, p in enumerate(ways):
            above = [x for x in RANKS if x > r]
            below = [x for x in RANKS if x < r]
            for x in above if len(above) >= len(below) else below:
                nxt[x] += p / 13
        ways = nxt
    return sum(ways)


def finite_hits_in_a_row(streak):
    """P(`streak` hits in a row from the first card) on a fresh deck without replacement, by
    enumerating the unseen cards by rank: the call with more unseen cards on its side, a fair
    coin on equal counts. ``ways`` counts ordered card choices, times 2 per guess for the coin."""

    @cache
    def ways(unseen, beat, s):
        if s == streak:
            return 1
        up, down = sum(unseen[beat + 1 :]), sum(unseen[:beat])
        sides = [True] if up > down else [False] if down > up else [True, False]
        acc = 0
        for higher in sides:
            for x in RANKS:
                if unseen[x] and (x > beat if higher else x < beat):
                    acc += unseen[x] * ways(unseen[:x] + (unseen[x] - 1,) + unseen[x + 1 :], x, s + 1)
        return acc * 2 // len(sides)

    full = (4,) * 13
    num = sum(4 * ways(full[:r] + (3,) + full[r + 1 :], r, 0) for r in RANKS)
    return Fraction(num, 52 * math.perm(51, streak) * 2**streak)


def test_the_longest_exact_streak():
    # streak 20 is the longest the exact chain takes (RTB-B-END with max_guesses == streak)
    assert B.bus_off_chance(20, 20) == hits_in_a_row_with_replacement(20)
    with pytest.raises(ParameterError):
        B.bus_off_chance(21, 21)


def test_finite_deck_six_in_a_row_with_equal_counts_on_the_way():
    # After a few cards are seen, as many unseen cards can lie above as below the card to beat;
    # the coin then decides, and the two calls leave different decks for the next guesses.
    assert B.bus_off_chance(6, 6, replacement=False) == finite_hits_in_a_row(6)


def test_bus_traces_number_limits():
    with pytest.raises(ParameterError):
        B.bus_traces(0, 1, max_guesses=1)
    with pytest.raises(ParameterError):
        B.bus_traces(100_001, 1, max_guesses=1)
    one = B.bus_traces(1, 1, seed=2, max_guesses=1)
    assert len(one) == 1 and one[0]["guesses"] == 1 and len(one[0]["cards"]) == 2
    # the most traces allowed; streak 1 in one guess on a fresh deck: from rank r, 4 * max(r, 12 - r)
    # of the 51 unseen cards are on the likelier side (RTB-B-GUESS)
    many = B.bus_traces(100_000, 1, seed=2, max_guesses=1)
    assert len(many) == 100_000
    p = float(sum(Fraction(4, 52) * Fraction(4 * max(r, 12 - r), 51) for r in RANKS))
    share = sum(t["off"] for t in many) / len(many)
    assert abs(share - p) <= 3 * math.sqrt(p * (1 - p) / len(many))


def test_batches_of_one_bus():
    sim = B.simulate_bus(5, 1, seed=3, max_guesses=1, batch=1)
    # one guess allowed: every bus takes exactly one guess (RTB-B-END)
    assert sim.n == 5 and sim.guess_counts == (0, 5)
    with pytest.raises(ParameterError):
        B.simulate_bus(5, 1, seed=3, max_guesses=1, batch=0)


def test_simulations_default_to_seed_zero():
    assert B.simulate_bus(2000, 3).seed == 0
    assert B.simulate_bus(2000, 3) == B.simulate_bus(2000, 3, seed=0)
    assert B.simulate_questions_bus(2000).seed == 0
    assert B.simulate_questions_bus(2000) == B.simulate_questions_bus(2000, seed=0)
    assert B.simulate_questions_bus(2000) != B.simulate_questions_bus(2000, seed=1)
    assert B.simulate_gauntlet(2000, 3).seed == 0


def test_a_draw_pile_of_one_card():
    # 50 cards out and 2 in the discard pile leave nothing to flip: refused.
    with pytest.raises(ParameterError, match="draw pile"):
        B.simulate_bus(100, 1, max_guesses=1, cards_out=range(50), discard=[50, 51])
    # 50 out, the AH (50) in the discard: the AS (51) is flipped, the draw pile is then empty, the
    # discard pile is shuffled in (RTB-DECK-EMPTY) and the AH is drawn: a tie in rank, a miss.
    sim = B.simulate_bus(100, 1, max_guesses=1, cards_out=range(50), discard=[50])
    assert (sim.off.mean, sim.points.mean, sim.reshuffled.mean) == (0, 1, 1)
