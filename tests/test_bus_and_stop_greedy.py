"""The greedy bot's choices over whole seeded games, against the greedy bot as it was first written
(one function, before it was split into named helpers): the same choice at every decision of
seeded games at every table size and option set, with the same ``rng`` state."""

from __future__ import annotations

import random

import pytest
from reference_bus_and_stop_greedy import reference_greedy_policy

import bus_lab
from bus_lab.engine.policies import random_policy, sample_chance
from bus_lab.games.bus_and_stop.policies import greedy_policy

OPTION_SETS = [
    {"players": 2},
    {"players": 3, "final_round": "full_turn"},
    {"players": 4},
    {"players": 4, "final_round": "full_turn", "leftover_penalty": True},
    {"players": 2, "leftover_penalty": True},
]


@pytest.mark.parametrize("params", OPTION_SETS, ids=lambda p: "-".join(f"{k}={v}" for k, v in p.items()))
@pytest.mark.parametrize("seed", range(4))
def test_greedy_choices_match_the_reference_at_every_decision(params, seed):
    """Greedy against greedy (and, on odd seeds, against random seats, which reach more positions):
    at each decision both versions are asked with a copy of the same rng and must agree."""
    game = bus_lab.load_game("bus_and_stop", **params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seed_now = rng.random()
        expected = reference_greedy_policy(state, random.Random(seed_now))
        assert greedy_policy(state, random.Random(seed_now)) == expected, state.history()
        decisions += 1
        if seed % 2 and state.current_player() % 2:
            state.apply_action(random_policy(state, rng))
        else:
            state.apply_action(expected)
    assert decisions > 20
