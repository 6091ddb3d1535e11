"""The shared batch loop of the simulations (``bus_lab.prob.montecarlo``): ``run_batches``,
``Moments`` and ``monte_carlo``, and the seeded figures of every simulation built on them.

The pinned figures below were recorded before the simulations of ``part1``, ``pyramid`` and ``bus``
shared one loop: the same seed must keep giving the same floats to the last bit (the lessons'
saved outputs show them).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from bus_lab.games.ride_the_bus import bus_odds as bus
from bus_lab.games.ride_the_bus import part1_odds as part1
from bus_lab.games.ride_the_bus import pyramid_odds as pyramid
from bus_lab.prob.montecarlo import Estimate, Moments, estimate, monte_carlo, run_batches

ROWS = [["2C", "7D", "KH", "9S"], ["3H", "3S", "QD", "AC"], ["5C", "TD", "JH", "4S"]]


# -- run_batches -------------------------------------------------------------------------------
@pytest.mark.parametrize("n, batch", [(1, 1), (10, 3), (10, 10), (10, 100), (250_001, 100_000)])
def test_run_batches_covers_every_trial_once_in_order(n, batch):
    calls = []
    run_batches(lambda rng, start, size: calls.append((start, size)), n, batch, seed=0)
    assert calls[0][0] == 0 and sum(size for _, size in calls) == n
    assert all(s1 + z1 == s2 for (s1, z1), (s2, _) in zip(calls, calls[1:]))
    assert all(size == batch for _, size in calls[:-1]) and 1 <= calls[-1][1] <= batch


def test_run_batches_hands_one_seeded_generator_to_every_batch():
    """One generator for the whole run: batches of 7 draw the very numbers one draw of 50 gives."""
    drawn = []
    run_batches(lambda rng, start, size: drawn.append(rng.random(size)), 50, 7, seed=11)
    assert np.array_equal(np.concatenate(drawn), np.random.default_rng(11).random(50))
    again = []
    run_batches(lambda rng, start, size: again.append(rng.random(size)), 50, 7, seed=11, progress=True)
    assert np.array_equal(np.concatenate(again), np.concatenate(drawn))  # the bar changes nothing


def test_run_batches_closes_the_progress_bar_when_play_raises(monkeypatch):
    import bus_lab.prob.montecarlo as mc

    bars = []

    class Bar:
        def __init__(self):
            self.updates, self.closed = [], False
            bars.append(self)

        def update(self, size):
            self.updates.append(size)

        def close(self):
            self.closed = True

    monkeypatch.setattr(
        mc, "progress_bar", lambda total, enabled=True, description="": Bar() if enabled else None
    )

    def play(rng, start, size):
        if start >= 6:
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        run_batches(play, 10, 3, seed=0, progress=True)
    assert bars[0].updates == [3, 3] and bars[0].closed
    run_batches(lambda rng, start, size: None, 10, 3, seed=0, progress=True)
    assert bars[1].updates == [3, 3, 3, 1] and bars[1].closed


@pytest.mark.parametrize("n, batch", [(0, 1), (5, 0), (-1, 10)])
def test_run_batches_refuses_bad_sizes(n, batch):
    with pytest.raises(ValueError, match="n >= 1"):
        run_batches(lambda rng, start, size: None, n, batch)


# -- Moments and monte_carlo -------------------------------------------------------------------
def test_moments_match_the_estimate_of_all_samples():
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 9, 1000), rng.random(1000) < 0.2
    acc = Moments(("a", "b"))
    for lo in range(0, 1000, 300):
        acc.add({"a": a[lo : lo + 300], "b": b[lo : lo + 300], "ignored": None})
    assert acc.n == 1000
    for name, samples in (("a", a), ("b", b)):
        got, want = acc.estimate(name), estimate(samples)
        assert got.n == want.n == 1000
        assert got.mean == want.mean  # integer sums are exact
        assert math.isclose(got.stderr, want.stderr, rel_tol=1e-9)
    assert list(acc.estimates()) == ["a", "b"]
    one = Moments(("x",))
    one.add({"x": 2.5}, 1)
    with pytest.raises(ValueError, match="two samples"):
        one.estimate("x")


def test_monte_carlo_does_not_depend_on_the_batch_size_for_0_1_trials():
    def trial(rng, size):
        return rng.random(size) < 0.3

    whole = monte_carlo(trial, 10_001, seed=2)
    assert monte_carlo(trial, 10_001, seed=2, batch=13) == whole
    assert whole.mean == estimate(np.random.default_rng(2).random(10_001) < 0.3).mean
    assert whole.agrees_with(0.3, sigmas=4)
    with pytest.raises(ValueError, match="shape"):
        monte_carlo(lambda rng, size: np.zeros(size + 1), 10, seed=0)
    with pytest.raises(ValueError, match="n >= 2"):
        monte_carlo(trial, 1)


# -- the simulations' seeded figures, bit for bit ------------------------------------------------
def _bits(e: Estimate) -> tuple[str, str, int]:
    return float(e.mean).hex(), float(e.stderr).hex(), e.n


PINNED = [
    (
        "simulate_part1",
        lambda: part1.simulate_part1(250_001, seed=1, keep_samples=False)["all_four_right"],
        ("0x1.03c03ac91a411p-4", "0x1.ff1865b5e7158p-12", 250_001),
    ),
    (
        "simulate_part1 points",
        lambda: part1.simulate_part1(250_001, seed=1, keep_samples=False)["expected_points"],
        ("0x1.395df8127d40dp+2", "0x1.398e96bd4ab6dp-8", 250_001),
    ),
    (
        "simulate_seat",
        lambda: part1.simulate_seat(5000, seed=1, players=3, seat=1)["all_four_right"],
        ("0x1.3d07c84b5dcc6p-4", "0x1.ef635a082a37ep-9", 5000),
    ),
    (
        "simulate_pyramids",
        lambda: pyramid.simulate_pyramids(ROWS, n=1001, seed=1, batch=7)["points"],
        ("0x1.945d1745d1746p+3", "0x1.9ca66f3953fdap-4", 1001),
    ),
    (
        "pyramid_over_deals",
        lambda: pyramid.pyramid_over_deals(3, 40, seed=1)["points"],
        ("0x1.60f1ad2afdcdbp+3", "0x1.2d865acb547a6p-3", 40),
    ),
    (
        "engine_playouts",
        lambda: pyramid.engine_playouts(ROWS, n=60, seed=1)["points"],  # games on streams version 2
        ("0x1.ac44444444444p+3", "0x1.b4d20ffd67e34p-2", 60),
    ),
    (
        "simulate_bus",
        lambda: bus.simulate_bus(1003, 5, seed=1, batch=17).points,
        ("0x1.f2fba9386822bp+1", "0x1.f32996d67b74bp-4", 1003),
    ),
    (
        "simulate_questions_bus",
        lambda: bus.simulate_questions_bus(230_001, seed=1).points,
        ("0x1.313b7acbc5dc0p+3", "0x1.c361e3a83a6cdp-7", 230_001),
    ),
    (
        "simulate_gauntlet",
        lambda: bus.simulate_gauntlet(1003, 5, seed=1, batch=17).win,
        ("0x1.bf2ba522f793cp-1", "0x1.583f01c1e841cp-7", 1003),
    ),
    (
        "monte_carlo",
        lambda: monte_carlo(lambda rng, size: rng.random(size) < 0.3, 250_001, seed=5),
        ("0x1.3349f439e15e4p-2", "0x1.e08ebefa36feep-11", 250_001),
    ),
    (
        "monte_carlo squares",
        lambda: monte_carlo(lambda rng, size: rng.integers(0, 7, size) ** 2, 1001, seed=5, batch=13),
        ("0x1.8ecd1b5d58be4p+3", "0x1.8f4c4b0a82172p-2", 1001),
    ),
]


@pytest.mark.parametrize(
    "run, want", [(run, want) for _, run, want in PINNED], ids=[name for name, _, _ in PINNED]
)
def test_seeded_simulations_give_the_recorded_figures(run, want):
    assert _bits(run()) == want


def test_simulations_keep_their_figure_types():
    """The types are as before the loop was shared: Part 1's figures are numpy floats, the others floats."""
    sim = part1.simulate_part1(1000, seed=0, keep_samples=False)
    assert type(sim["all_four_right"].mean) is np.float64 and type(sim["expected_points"].mean) is np.float64
    assert type(bus.simulate_bus(100, seed=0).off.mean) is float
    assert type(pyramid.simulate_pyramids(ROWS, n=100, seed=0)["points"].mean) is float
