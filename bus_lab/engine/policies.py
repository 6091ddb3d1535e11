"""Game-agnostic bot policies.

A policy is a callable ``policy(state, rng) -> action`` where ``rng`` is a ``random.Random``
owned by the caller (a :class:`~bus_lab.engine.session.Session` derives one from its seed for
every step), so bots never touch global random state.
"""
from __future__ import annotations

import math
import random

from bus_lab.engine.core import State


def random_policy(state: State, rng: random.Random) -> int:
    """Pick one of ``state.legal_actions()`` uniformly at random with ``rng``.

    Raises:
        ValueError: the state has no legal actions (terminal).
    """
    legal = state.legal_actions()
    if not legal:
        raise ValueError("no legal actions: the game is over")
    return legal[rng.randrange(len(legal))]


random_policy.name = "random"  # type: ignore[attr-defined]


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw one outcome of a chance node with its exact probability.

    Uses integer arithmetic over the common denominator, so the draw follows the
    :class:`~fractions.Fraction` probabilities exactly.

    Raises:
        ValueError: ``state`` is not a chance node.
    """
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    first = outcomes[0][1]
    if all(p is first or p == first for _, p in outcomes):  # uniform: the same draw as the general method below
        return outcomes[rng.randrange(len(outcomes))][0]
    denominator = 1
    for _, p in outcomes:
        denominator = math.lcm(denominator, p.denominator)
    ticket = rng.randrange(denominator)
    for action, p in outcomes:
        ticket -= p.numerator * (denominator // p.denominator)
        if ticket < 0:
            return action
    return outcomes[-1][0]

