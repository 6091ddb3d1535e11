"""Seeded tournaments between OpenSpiel's Monte Carlo tree search and bus_lab's own bots.

Needs OpenSpiel (``pip install bus_lab[interop]``). Where a seat sees everything that has happened
(Ride the Bus, Bus & Stop, BUS: only the draws to come are unknown, and the search treats them as
chance nodes), the searcher is OpenSpiel's ``MCTSBot``; where it does not (Busstop's face-down
tiles), it is OpenSpiel's information-set search ``ISMCTSBot``, which before every simulation
redraws the tiles it has not seen (:func:`bus_lab.games.busstop.encoding.resample_hidden`).

Both search with random play-outs made in bus_lab's engine directly (the same random games the
adapter would play, without its overhead). Everything is seeded: the same call gives the same
games, move for move.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import bus_lab
from bus_lab.engine.policies import sample_chance
from bus_lab.interop import flat_params
from bus_lab.interop.openspiel import BusLabState, short_name

__all__ = ["EngineRolloutEvaluator", "searcher", "Match", "play_match", "tournament", "win_rates"]


class EngineRolloutEvaluator(mcts.Evaluator):
    """OpenSpiel's random-rollout evaluator, playing the rollouts in bus_lab's engine: draws with
    their exact chances, moves uniformly at random (or by one of the game's bots, ``policy``); the
    value is each seat's share of the win."""

    def __init__(self, n_rollouts: int = 1, seed: int = 0, policy: Callable | None = None):
        self.n_rollouts = n_rollouts
        self._rng = random.Random(seed)
        self._policy = policy

    def evaluate(self, state: BusLabState) -> np.ndarray:
        total = None
        for _ in range(self.n_rollouts):
            inner = state.inner.clone()
            while not inner.is_terminal():
                if inner.is_chance_node():
                    inner.apply_action(sample_chance(inner, self._rng))
                elif self._policy is not None:
                    inner.apply_action(self._policy(inner, self._rng))
                else:
                    legal = inner.legal_actions()
                    inner.apply_action(legal[self._rng.randrange(len(legal))])
            value = np.array(inner.utility())
            total = value if total is None else total + value
        return total / self.n_rollouts

    def prior(self, state: BusLabState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def searcher(
    game: pyspiel.Game, simulations: int, seed: int, uct_c: float = 2.0, rollout: str = "random"
) -> pyspiel.Bot:
    """OpenSpiel's tree search for ``game``: ``MCTSBot`` when every seat sees the whole past,
    ``ISMCTSBot`` (drawing again what the seat has not seen) when it does not. Its play-outs move at
    random, or by the game's bot named ``rollout``."""
    policy = None if rollout == "random" else game.bus_game.policies()[rollout]
    evaluator = EngineRolloutEvaluator(seed=seed, policy=policy)
    random_state = np.random.RandomState(seed)
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        return mcts.MCTSBot(game, uct_c, simulations, evaluator, solve=False, random_state=random_state)
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c,
        simulations,
        random_state=random_state,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    draws = random.Random(seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, draws.random))
    return bot


@dataclass(frozen=True)
class Match:
    """One game of a tournament.

    Attributes:
        index (int): the game's number in the tournament. seed (int): its seed.
        search_seat (int): the seat the tree search played. winners (list[int]): as ``winners()``.
        shares (list[float]): each seat's share of the win (``utility()``).
        points (list[int]): each seat's points (``returns()``; lowest wins in Ride the Bus).
        history (list[int]): the game's actions (bus_lab's ints: replay them to study the game).
    """

    index: int
    seed: int
    search_seat: int
    winners: list[int]
    shares: list[float]
    points: list[int]
    history: list[int]


def play_match(
    game: pyspiel.Game,
    search_seat: int,
    opponent: str,
    simulations: int,
    seed: int,
    index: int = 0,
    rollout: str = "random",
) -> Match:
    """One seeded game: the tree search in ``search_seat``, bus_lab's bot ``opponent`` elsewhere."""
    bus_game = game.bus_game
    policy: Callable[[Any, random.Random], int] = bus_game.policies()[opponent]
    rng = random.Random(seed)
    bot = searcher(game, simulations, seed, rollout=rollout)
    state = game.new_initial_state()
    while not state.is_terminal():
        inner = state.inner
        if state.is_chance_node():
            state.apply_action(bus_game.chance_index(sample_chance(inner, rng)))
            continue
        legal = state.legal_actions()
        if state.current_player() == search_seat and len(legal) > 1:
            action = int(bot.step(state))
        elif state.current_player() == search_seat:
            action = legal[0]
        else:
            action = bus_game.action_index(policy(inner, rng))
        state.apply_action(action)
    inner = state.inner
    return Match(index, seed, search_seat, inner.winners(), inner.utility(), inner.returns(), inner.history())


def tournament(
    name: str,
    opponent: str,
    games: int,
    simulations: int,
    seed: int = 0,
    progress: bool = False,
    rollout: str = "random",
    **params: Any,
) -> list[Match]:
    """``games`` seeded games of ``name`` (with ``params``): tree search in one seat, taking every
    seat in turn (game ``i`` in seat ``i mod players``), bus_lab's ``opponent`` bot in the others.

    Args:
        name (str): a bus_lab game. opponent (str): one of its ``policies()``.
        games (int): games to play. simulations (int): simulations per decision of the search.
        seed (int): game ``i`` is seeded with ``seed + i``.
        progress (bool): show a progress bar (tqdm).
        rollout (str): how the search's play-outs move: ``"random"`` or one of the game's bots.
    """
    game = pyspiel.load_game(short_name(name), flat_params(bus_lab.load_game(name).PARAMS, params))
    n = game.num_players()
    indices = range(games)
    if progress:
        from tqdm.auto import tqdm

        indices = tqdm(indices, desc=f"{name}: search vs {opponent}", leave=False)
    return [
        play_match(game, i % n, opponent, simulations, seed + i, index=i, rollout=rollout) for i in indices
    ]


def win_rates(matches: list[Match]) -> tuple[float, float]:
    """``(search, opponent)``: the tree search's average share of the win, and the average share
    of one opponent seat (its bots share the rest equally)."""
    n = len(matches[0].shares)
    search = sum(m.shares[m.search_seat] for m in matches) / len(matches)
    others = sum(sum(m.shares) - m.shares[m.search_seat] for m in matches) / len(matches) / (n - 1)
    return search, others
