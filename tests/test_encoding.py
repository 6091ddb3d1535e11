"""What every game publishes for search and learning libraries: the dense action index, the chance
outcomes, the bound on game length, the win-share utility and the observation vector.

Run over every registered game and option set (the configurations of the invariant suite) on
seeded random games, through the public API; no OpenSpiel or PettingZoo needed.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest
from test_invariants import CONFIG_IDS, CONFIGS

import bus_lab
from bus_lab.engine.policies import sample_chance
from bus_lab.interop import flat_params, flat_spec, from_flat_params

GAMES_PER_CONFIG = 3


def _walk(game, seed: int):
    """Every state of one seeded random game, the initial one included."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal))
        yield state


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=CONFIG_IDS)
def test_dense_index_is_a_bijection_on_every_action_seen_and_the_bound_holds(name, params):
    game = bus_lab.load_game(name, **params)
    decisions, chances = game.decision_actions(), game.chance_actions()
    assert list(decisions) == sorted(set(decisions)) and list(chances) == sorted(set(chances))
    assert game.num_distinct_actions() == len(decisions) > 0
    assert game.max_chance_outcomes() == len(chances) > 0
    for i, action in enumerate(decisions):
        assert game.action_index(action) == i and game.index_action(i) == action
    for i, action in enumerate(chances):
        assert game.chance_index(action) == i and game.index_chance(i) == action
    bound = game.max_game_length()
    for seed in range(GAMES_PER_CONFIG):
        for state in _walk(game, seed):
            legal = state.legal_actions()
            if state.is_chance_node():
                assert [game.index_chance(game.chance_index(a)) for a in legal] == legal
                assert len(legal) <= game.max_chance_outcomes()
            elif not state.is_terminal():
                dense = [game.action_index(a) for a in legal]
                assert dense == sorted(set(dense)), "the dense index keeps the order of the actions"
                assert [game.index_action(i) for i in dense] == legal
        assert len(state.history()) <= bound, f"{len(state.history())} actions > max_game_length {bound}"
    with pytest.raises(ValueError):
        game.action_index(-7)
    with pytest.raises(ValueError):
        game.chance_index(-7)


@pytest.mark.parametrize("name", bus_lab.registered_games())
def test_games_of_every_bot_stay_within_the_bound(name):
    game = bus_lab.load_game(name)
    for policy in game.policies():
        for seed in range(2):
            session = bus_lab.Session(game, seed=seed, bots=policy)
            session.run_to_end()
            assert session.state.is_terminal()
            assert len(session.state.history()) <= game.max_game_length()


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=CONFIG_IDS)
def test_observation_is_fixed_length_made_from_the_view_and_utility_is_bounded(name, params):
    game = bus_lab.load_game(name, **params)
    layout = game.observation_layout()
    encoding = game._encoding()
    size = game.observation_size()
    assert size == layout.size == sum(f.size for f in layout.fields)
    for seed in range(1):
        for state in _walk(game, seed):
            for seat in (*range(game.num_players), None):
                tensor = state.observation_tensor(seat)
                assert tensor.shape == (size,) and tensor.dtype == np.float32
                assert np.isfinite(tensor).all()
                # the vector is a function of the view alone
                np.testing.assert_array_equal(tensor, encoding.encode(state.view(seat), game))
        utility = state.utility()
        assert all(game.min_utility() <= u <= game.max_utility() for u in utility)
        if game.utility_sum() is not None:
            assert sum(utility) == pytest.approx(game.utility_sum())
        best = max(utility)
        assert {s for s, u in enumerate(utility) if u == best and u > 0} == set(state.winners())


@pytest.mark.parametrize("name", bus_lab.registered_games())
def test_every_observation_field_is_documented(name):
    layout = bus_lab.load_game(name).observation_layout()
    names = [f.name for f in layout.fields]
    assert len(names) == len(set(names))
    for f in layout.fields:
        assert f.size > 0 and len(f.doc) > 15, f"field {f.name} needs a size and a meaning"
    table = layout.describe()
    assert all(n in table for n in names)
    offsets = layout.offsets()
    assert offsets[names[0]][0] == 0 and offsets[names[-1]][1] == layout.size


def test_lowest_total_wins_ride_the_bus_gets_the_highest_utility():
    """RTB-SCORE-LOW: the utility turns "fewest points wins" into "higher is better"."""
    session = bus_lab.Session(bus_lab.load_game("ride_the_bus", players=3), seed=4, bots="random")
    session.run_to_end()
    state = session.state
    points, utility = state.returns(), state.utility()
    low = min(points)
    assert [u > 0 for u in utility] == [p == low for p in points]
    assert sum(utility) == pytest.approx(1.0)


def test_a_lone_gauntlet_rider_wins_one_or_nothing():
    """RTB-SG-WIN: one rider wins by making the streak, or has no win; utility 1 or 0."""
    game = bus_lab.load_game("ride_the_bus", players=1, mode="gauntlet")
    assert game.utility_sum() is None
    seen = set()
    for seed in range(30):
        session = bus_lab.Session(game, seed=seed, bots="random")
        session.run_to_end()
        seen.add(tuple(session.state.utility()))
    assert seen == {(0.0,), (1.0,)}


def _busstop_with_seat1_face_down(tile: int):
    """Busstop, 3 players, round 1: the conductor (seat 0) has bid face up and seat 1 face down."""
    state = bus_lab.load_game("busstop", players=3).new_initial_state()
    for label in ("Gi", "Ba", "Ch", "tile 7", f"tile {tile}"):
        state.apply_action(state.string_to_action(label))
    assert state.current_player() == 2
    return state


def test_busstop_face_down_tile_never_reaches_another_seats_observation():
    """BSB-ROUND-BID: swapping seat 1's face-down tile leaves seat 0's and seat 2's vectors unchanged;
    seat 1 sees its own tile."""
    a, b = _busstop_with_seat1_face_down(4), _busstop_with_seat1_face_down(9)
    for seat in (0, 2):
        np.testing.assert_array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
    assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))
    assert not np.array_equal(a.observation_tensor(None), b.observation_tensor(None))


def test_busstop_resampling_keeps_what_the_seat_knows_and_redraws_the_hidden_tile():
    from bus_lab.games.busstop.encoding import hidden_positions, resample_hidden

    state = _busstop_with_seat1_face_down(4)
    assert hidden_positions(state, 2) == [len(state.history()) - 1]
    assert hidden_positions(state, 1) == []
    before = json.dumps(state.view(None), sort_keys=True)
    tiles = set()
    rng = random.Random(0)
    for _ in range(40):
        sample = resample_hidden(state, 2, rng)
        assert sample.view(2) == state.view(2)
        np.testing.assert_array_equal(sample.observation_tensor(2), state.observation_tensor(2))
        tiles.add(sample.bids[1])
    assert json.dumps(state.view(None), sort_keys=True) == before, "the real state is left alone"
    assert len(tiles) > 3, "the hidden tile is drawn again among seat 1's tiles"


def test_a_draw_yet_to_come_is_not_in_any_observation():
    """The order of a deck is never stored: two games that differ only in the card drawn next have
    the same observations until that card comes up."""
    game = bus_lab.load_game("ride_the_bus", players=2)
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("red"))
    assert state.is_chance_node()
    first, second = state.clone(), state.clone()
    vectors = [s.observation_tensor(seat) for s in (first, second) for seat in (0, 1)]
    first.apply_action(state.string_to_action("2H"))
    second.apply_action(state.string_to_action("KS"))
    np.testing.assert_array_equal(vectors[0], vectors[2])
    assert not np.array_equal(first.observation_tensor(0), second.observation_tensor(0))


@pytest.mark.parametrize("name", bus_lab.registered_games())
def test_flat_parameters_round_trip(name):
    params = bus_lab.load_game(name).PARAMS
    spec = flat_spec(params)
    assert all(isinstance(v, (bool, int, float, str)) for v in spec.values())
    defaults = {p.name: p.default for p in params}
    assert from_flat_params(params, spec) == defaults
    assert flat_params(params, defaults) == spec


def test_bus_city_empty_speed_and_sheet_have_flat_stand_ins():
    params = bus_lab.load_game("bus_city").PARAMS
    assert flat_spec(params)["empty_speed"] == 0 and flat_spec(params)["sheet"] == ""
    assert from_flat_params(params, {"empty_speed": 5, "sheet": ""}) == {"empty_speed": 5, "sheet": None}


def test_import_bus_lab_imports_neither_openspiel_nor_pettingzoo():
    code = (
        "import sys, bus_lab, bus_lab.interop\n"
        "g = bus_lab.load_game('busstop', players=3)\n"
        "g.new_initial_state().observation_tensor(0)\n"
        "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium', 'open_spiel') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
