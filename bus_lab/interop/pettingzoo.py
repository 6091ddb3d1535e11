"""bus_lab's games as PettingZoo AEC environments (``pip install bus_lab[interop]``)::

    from bus_lab.interop.pettingzoo import env
    e = env("busstop", players=3)
    e.reset(seed=42)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(observation["action_mask"])
        e.step(action)

Agents are ``"player_0"`` … one per seat. An action is the game's dense index
(:meth:`~bus_lab.engine.core.Game.action_index`, ``Discrete(game.num_distinct_actions())``); the
observation is ``{"observation": state.observation_tensor(seat), "action_mask": ...}``. Draws and
reveals (chance nodes) are resolved inside :meth:`BusLabEnv.step` and :meth:`BusLabEnv.reset` with
the environment's generator, seeded by ``reset(seed=...)``. Rewards come at the end: each seat's share
of the win (:meth:`~bus_lab.engine.core.Game.utility`). ``render()`` draws the text board.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import bus_lab
from bus_lab.engine.policies import sample_chance

__all__ = ["env", "raw_env", "BusLabEnv"]


class BusLabEnv(AECEnv, EzPickle):
    """One bus_lab game as a PettingZoo AEC environment.

    Args:
        game_name (str): one of :func:`bus_lab.registered_games`.
        render_mode (str | None): ``"ansi"`` (``render()`` returns the text board), ``"human"``
            (prints it) or ``None``.
        **params: the game's parameters (``players=3``, ``sheet=...``), as :func:`bus_lab.load_game`
            takes them.

    Attributes:
        game (bus_lab.Game): the game. state (bus_lab.State): the game in progress.
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "bus_lab", "is_parallelizable": False}

    def __init__(self, game_name: str, render_mode: str | None = None, **params: Any):
        EzPickle.__init__(self, game_name, render_mode, **params)
        super().__init__()
        self.game = bus_lab.load_game(game_name, **params)
        self.metadata = {**self.metadata, "name": f"bus_lab_{game_name}"}
        self.render_mode = render_mode
        n = self.game.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agents = self.possible_agents[:]
        size, actions = self.game.observation_size(), self.game.num_distinct_actions()
        self.action_spaces = {a: gymnasium.spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.np_random: np.random.Generator | None = None
        self._rng: random.Random | None = None
        self.state = self.game.new_initial_state()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            index = self.game.action_index
            mask[[index(a) for a in self.state.legal_actions()]] = 1
        return {"observation": self.state.observation_tensor(seat), "action_mask": mask}

    def _resolve_chance(self) -> None:
        """Draw every chance outcome until a seat is to act or the game is over."""
        while self.state.is_chance_node():
            self.state.apply_action(sample_chance(self.state, self._rng))

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._rng is None:
            self.np_random, _ = seeding.np_random(seed)
            self._rng = random.Random(int(self.np_random.integers(2**62)))
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._resolve_chance()
        self._after_move()

    def _after_move(self) -> None:
        if self.state.is_terminal():
            for agent, share in zip(self.possible_agents, self.state.utility()):
                self.rewards[agent] = float(share)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.state.apply_action(self.game.index_action(int(action)), seat=self._seat(agent))
        self._resolve_chance()
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: use 'ansi' or 'human'")
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game_name: str, render_mode: str | None = None, **params: Any) -> BusLabEnv:
    """The environment without PettingZoo's checking wrappers."""
    return BusLabEnv(game_name, render_mode=render_mode, **params)


def env(game_name: str, render_mode: str | None = None, **params: Any) -> AECEnv:
    """The environment of ``game_name`` with ``params``, wrapped as PettingZoo's own environments are
    (actions checked against the action space; the API's order enforced)."""
    environment = raw_env(game_name, render_mode=render_mode, **params)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)
