"""Game-agnostic bot policies.

A policy is a callable ``policy(state, rng) -> action`` where ``rng`` is a ``random.Random``
owned by the caller (a :class:`~bus_lab.engine.session.Session` derives one from its seed for
every step), so bots never touch global random state.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the engine's core imports this module; a run-time import would be a cycle
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

    Uses integer arithmetic: one ``rng.randrange`` over the common denominator of the
    probabilities, so the draw follows the :class:`~fractions.Fraction` probabilities exactly.
    Works from :meth:`~bus_lab.engine.core.State.chance_weights` (no ``Fraction`` per draw) and
    draws exactly what :func:`sample_chance_exact` draws from the same ``rng`` (checked by
    ``tests/test_fast_paths.py``).

    Raises:
        ValueError: ``state`` is not a chance node.
    """
    actions, weights = state.chance_weights()
    if not actions:
        raise ValueError("not a chance node")
    return draw_outcome(actions, weights, rng)


def draw_outcome(actions: list[int], weights: list[int] | None, rng: random.Random) -> int:
    """One of ``actions`` drawn with ``rng``, as :func:`sample_chance` draws from a chance node's
    :meth:`~bus_lab.engine.core.State.chance_weights`: one ``rng.randrange`` over the common
    denominator (``len(actions)`` when ``weights`` is ``None``: all equally likely).

    Args:
        actions (list[int]): the outcomes, at least one.
        weights (list[int] | None): a positive whole weight per outcome, or ``None``.
        rng (random.Random): the generator to draw from.

    Raises:
        ValueError: no outcomes.
    """
    if not actions:
        raise ValueError("no outcomes to draw from")
    if weights is None:  # n equally likely outcomes: the common denominator is n
        return actions[rng.randrange(len(actions))]
    unit = math.gcd(*weights)  # probability of actions[i] = (weights[i] / unit) / denominator
    denominator = sum(weights) // unit
    ticket = rng.randrange(denominator)
    tickets = weights if unit == 1 else [w // unit for w in weights]  # tickets per outcome
    return actions[bisect.bisect_right(list(itertools.accumulate(tickets)), ticket)]


def sample_chance_exact(state: State, rng: random.Random) -> int:
    """Draw one outcome of a chance node straight from :meth:`~bus_lab.engine.core.State.chance_outcomes`.

    The reference for :func:`sample_chance` (same draw from the same ``rng``, more slowly): with
    ``D`` the least common multiple of the probabilities' denominators, a ticket
    ``rng.randrange(D)`` picks the first outcome whose running total of ``p * D`` exceeds it.

    Raises:
        ValueError: ``state`` is not a chance node.
    """
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    denominator = 1
    for _, p in outcomes:
        denominator = math.lcm(denominator, p.denominator)
    ticket = rng.randrange(denominator)
    for action, p in outcomes:
        ticket -= p.numerator * (denominator // p.denominator)
        if ticket < 0:
            return action
    return outcomes[-1][0]
