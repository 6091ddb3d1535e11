"""The cost of the OpenSpiel and PettingZoo adapters: random games per second, per game, played
three ways from the same seeds: straight through bus_lab's State API (the bare engine), through
``pyspiel`` (``bus_lab.interop.openspiel``) and through a PettingZoo AEC environment
(``bus_lab.interop.pettingzoo``, observations and action masks included, as an agent sees them).

Run with ``python3 tasks.py bench --only interop`` or ``python benchmarks/interop.py [--games N]``.
Without the optional libraries (``pip install bus_lab[interop]``) it says so and prints nothing else.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import bus_lab  # noqa: E402
from bus_lab.engine.policies import sample_chance  # noqa: E402

#: The table of each game measured (the default options at a middle table size).
TABLES = {
    "ride_the_bus": {"players": 4},
    "bus_and_stop": {"players": 3},
    "busstop": {"players": 3},
    "bus_city": {"players": 2},
}


def missing() -> str | None:
    """The name of the first optional library that is not installed, else ``None``."""
    for module in ("pyspiel", "pettingzoo", "gymnasium"):
        try:
            __import__(module)
        except ImportError:
            return module
    return None


def bare(name: str, params: dict, games: int) -> float:
    """Games per second through bus_lab's State API, random moves and exact chance draws."""
    game = bus_lab.load_game(name, **params)
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else rng.choice(legal))
    return games / (time.perf_counter() - start)


def through_pyspiel(name: str, params: dict, games: int) -> float:
    """Games per second through ``pyspiel``: legal actions, chance outcomes and apply_action."""
    import pyspiel

    from bus_lab.interop import flat_params
    from bus_lab.interop import openspiel as bus_openspiel

    game = pyspiel.load_game(
        bus_openspiel.short_name(name), flat_params(bus_lab.load_game(name).PARAMS, params)
    )
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return games / (time.perf_counter() - start)


def through_pettingzoo(name: str, params: dict, games: int) -> float:
    """Games per second through the AEC environment: ``last()`` (observation and mask) and ``step``."""
    import numpy as np

    from bus_lab.interop.pettingzoo import env

    environment = env(name, **params)
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        environment.reset(seed=seed)
        for _agent in environment.agent_iter():
            observation, _reward, termination, truncation, _info = environment.last()
            if termination or truncation:
                environment.step(None)
            else:
                environment.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return games / (time.perf_counter() - start)


def rows(games: int) -> list[tuple[str, float, float, float]]:
    """``(game, bare, pyspiel, pettingzoo)`` games per second for every game."""
    out = []
    for name, params in TABLES.items():
        out.append(
            (
                f"{name} ({params['players']} players)",
                bare(name, params, games),
                through_pyspiel(name, params, games),
                through_pettingzoo(name, params, games),
            )
        )
    return out


def print_table(games: int) -> list[tuple[str, float, float, float]]:
    """Print the table (or the line saying why not); returns its rows."""
    absent = missing()
    if absent:
        print(f"Interop: skipped, {absent} is not installed (pip install bus_lab[interop])")
        return []
    print(f"Interop (random games per second, {games} seeded games each; ratio to the bare engine)")
    print(f"  {'game':<26} {'bare engine':>12} {'pyspiel':>18} {'PettingZoo':>18}")
    result = rows(games)
    for name, engine, spiel, zoo in result:
        print(
            f"  {name:<26} {engine:>12,.1f} {spiel:>10,.1f} ({spiel / engine:4.2f}×) "
            f"{zoo:>10,.1f} ({zoo / engine:4.2f}×)",
            flush=True,
        )
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per figure")
    args = parser.parse_args(argv)
    print_table(args.games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
