"""The four games in OpenSpiel and PettingZoo, checked by those libraries' own test suites.

Every game and option set (the configurations of the invariant suite): OpenSpiel's
``pyspiel.random_sim_test`` with serialization, PettingZoo's ``api_test`` and ``seed_test``. Skipped
when the optional libraries (``pip install bus_lab[interop]``) are missing.
"""

from __future__ import annotations

import json
import pickle
import random

import numpy as np
import pytest
from test_invariants import CONFIG_IDS, CONFIGS

import bus_lab

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from bus_lab.interop import flat_params  # noqa: E402
from bus_lab.interop import openspiel as bus_openspiel  # noqa: E402
from bus_lab.interop.pettingzoo import env, raw_env  # noqa: E402

# api_test's notes on any dict observation ({"observation", "action_mask"}, as PettingZoo's own
# classic games have): not failures.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning"),
]


def _openspiel_game(name, params):
    flat = flat_params(bus_lab.load_game(name).PARAMS, params)
    return pyspiel.load_game(bus_openspiel.short_name(name), flat)


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=CONFIG_IDS)
def test_openspiel_random_sim_test(name, params):
    game = _openspiel_game(name, params)
    bus_game = bus_lab.load_game(name, **params)
    assert game.num_distinct_actions() == bus_game.num_distinct_actions()
    assert game.max_chance_outcomes() == bus_game.max_chance_outcomes()
    assert game.max_game_length() == bus_game.max_game_length()
    assert game.num_players() == bus_game.num_players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), CONFIGS, ids=CONFIG_IDS)
def test_pettingzoo_api_and_seed_tests(name, params):
    api_test(env(name, **params), num_cycles=100)
    seed_test(lambda: env(name, **params), num_cycles=100)


def test_load_game_with_options_as_documented():
    game = pyspiel.load_game("bus_lab_busstop", {"players": 3})
    assert game.num_players() == 3
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    city = pyspiel.load_game("bus_lab_bus_city", {"players": 3, "empty_speed": 5, "challenging": True})
    assert city.bus_game.params["empty_speed"] == 5 and city.bus_game.params["challenging"] is True
    assert pyspiel.load_game("bus_lab_bus_city").bus_game.params["empty_speed"] is None
    rtb = pyspiel.load_game("bus_lab_ride_the_bus", {"players": 1, "mode": "gauntlet"})
    assert rtb.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert set(bus_openspiel.GAMES) <= set(pyspiel.registered_names())


def test_openspiel_strings_and_tensors_come_from_the_seats_view():
    """BSB-ROUND-BID: another seat's face-down tile is masked in the information state and absent
    from the observation; the seat's own is there."""
    game = pyspiel.load_game("bus_lab_busstop", {"players": 3})
    state = game.new_initial_state()
    for label in ("Gi", "Ba", "Ch", "tile 7", "tile 4"):
        action = state.inner.string_to_action(label)
        dense = (
            game.bus_game.chance_index(action)
            if state.is_chance_node()
            else game.bus_game.action_index(action)
        )
        state.apply_action(dense)
    assert state.information_state_string(2).endswith("?")
    assert not state.information_state_string(1).endswith("?")
    assert '"state":"hidden"' in state.observation_string(0)
    np.testing.assert_array_equal(state.observation_tensor(0), state.inner.observation_tensor(0))
    resampled = state.resample_from_infostate(2, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert resampled.information_state_string(2) == state.information_state_string(2)


def test_pettingzoo_resolves_chance_with_its_seeded_generator_and_renders_the_text_board():
    e = raw_env("bus_and_stop", render_mode="ansi", players=2)
    e.reset(seed=7)
    assert not e.state.is_chance_node()
    first = e.state.history()
    e.reset(seed=7)
    assert e.state.history() == first
    assert e.render() == str(e.state)
    obs = e.observe(e.agent_selection)
    legal = [e.game.index_action(int(i)) for i in np.flatnonzero(obs["action_mask"])]
    assert legal == e.state.legal_actions()
    pickle.loads(pickle.dumps(e))


def test_pettingzoo_rewards_are_the_win_shares_at_the_end():
    e = env("ride_the_bus", players=3)
    e.reset(seed=3)
    rng = random.Random(3)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        action = (
            None if termination or truncation else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        )
        e.step(action)
    state = e.unwrapped.state
    assert state.is_terminal()
    assert [totals[a] for a in e.possible_agents] == state.utility()


def test_readme_openspiel_and_pettingzoo_examples_run():
    """The README's "OpenSpiel and PettingZoo" section: its Python blocks run as written."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## OpenSpiel and PettingZoo", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


@pytest.mark.parametrize(("name", "opponent"), [("bus_and_stop", "greedy"), ("busstop", "bidder")])
def test_tournament_is_seeded_and_uses_information_set_search_where_tiles_are_hidden(name, opponent):
    from bus_lab.interop.tournament import searcher, tournament, win_rates

    first = tournament(name, opponent, games=2, simulations=3, seed=5, players=2)
    again = tournament(name, opponent, games=2, simulations=3, seed=5, players=2)
    assert first == again
    assert [m.search_seat for m in first] == [0, 1]
    for match in first:
        replay = bus_lab.load_game(name, players=2).new_initial_state()
        for action in match.history:
            replay.apply_action(action)
        assert replay.is_terminal() and replay.utility() == match.shares
    search, other = win_rates(first)
    assert search + other == pytest.approx(sum(sum(m.shares) for m in first) / len(first))
    bot = searcher(_openspiel_game(name, {"players": 2}), simulations=3, seed=0)
    kind = "ISMCTSBot" if name == "busstop" else "MCTSBot"
    assert type(bot).__name__ == kind


def _busstop_openspiel_state(game, labels):
    state = game.new_initial_state()
    g = game.bus_game
    for label in labels:
        action = state.inner.string_to_action(label)
        state.apply_action(g.chance_index(action) if state.is_chance_node() else g.action_index(action))
    return state


def test_a_public_observer_sees_no_face_down_tile_and_the_spectator_sees_all():
    """BSB-ROUND-BID: OpenSpiel's observation types: without private information no tile chosen face
    down shows, not even the observer's own; with every player's, all of them do."""
    from open_spiel.python.observation import make_observation

    def observer(private, perfect_recall=False):
        kind = pyspiel.IIGObservationType(
            perfect_recall=perfect_recall, public_info=True, private_info=private
        )
        return make_observation(game, kind)

    game = pyspiel.load_game("bus_lab_busstop", {"players": 3})
    four = _busstop_openspiel_state(game, ("Gi", "Ba", "Ch", "tile 7", "tile 4"))
    nine = _busstop_openspiel_state(game, ("Gi", "Ba", "Ch", "tile 7", "tile 9"))
    public = observer(pyspiel.PrivateInfoType.NONE)
    assert json.loads(public.string_from(four, 1))["bids"][1] == {"state": "hidden", "tile": None}
    public.set_from(four, 1)
    seen = public.tensor.copy()
    public.set_from(nine, 1)
    np.testing.assert_array_equal(public.tensor, seen)
    everything = observer(pyspiel.PrivateInfoType.ALL_PLAYERS)
    assert json.loads(everything.string_from(four, 0))["bids"][1] == {"state": "shown", "tile": 4}
    own = observer(pyspiel.PrivateInfoType.SINGLE_PLAYER)
    own.set_from(four, 1)
    np.testing.assert_array_equal(own.tensor, four.inner.observation_tensor(1))
    assert observer(pyspiel.PrivateInfoType.NONE, perfect_recall=True).string_from(four, 1).endswith("?")
