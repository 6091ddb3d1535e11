"""Bots for Ride the Bus.

Each policy is ``policy(state, rng) -> action`` with ``rng`` a ``random.Random`` supplied by the
caller (a :class:`~bus_lab.engine.session.Session` derives it from its seed).
"""

from __future__ import annotations

import random

from bus_lab.engine.policies import random_policy
from bus_lab.games.ride_the_bus.moves import Give
from bus_lab.games.ride_the_bus.odds import guess_odds_fast
from bus_lab.games.ride_the_bus.state import RideTheBusState

__all__ = ["random_policy", "best_odds_policy"]


def best_odds_policy(state: RideTheBusState, rng: random.Random) -> int:
    """Guess what is most likely to be right; hand points to the current leader.

    Guesses use :func:`bus_lab.games.ride_the_bus.odds.guess_odds_fast` (the same exact odds as
    :func:`~bus_lab.games.ride_the_bus.odds.guess_odds`, given every face-up card);
    equally likely guesses are split with ``rng``. Points to hand over (RTB-Q-RIGHT,
    RTB-P-GIVE) go to the other seat with the fewest points, ties split with ``rng``.

    Raises:
        ValueError: the state is terminal or a chance node.
    """
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("a bot acts only at a decision node")
    legal = state.legal_actions()
    gives = [move for move in state.legal_moves(labelled=False) if isinstance(move, Give)]
    if gives:
        fewest = min(state.points[move.seat] for move in gives)
        leaders = [move.action for move in gives if state.points[move.seat] == fewest]
        return leaders[rng.randrange(len(leaders))]
    odds = guess_odds_fast(state)
    best = max(odds.values())
    top = [a for a in legal if odds[a] == best]
    return top[rng.randrange(len(top))]


best_odds_policy.name = "best_odds"  # type: ignore[attr-defined]
