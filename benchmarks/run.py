#!/usr/bin/env python3
"""bus_lab benchmarks: print how fast the engine, widgets, exact odds and simulations are.

Run with ``python3 tasks.py bench`` (or ``.venv/bin/python benchmarks/run.py``). Each figure is
the median of ``--repeat`` runs; where two figures compute the same thing two ways (engine vs
vectorised path) the ratio from the same run is printed. Nothing here asserts: the figures are
for reading and for the notes of a change.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDGETS = {
    "ride_the_bus": "RideTheBusWidget",
    "bus_and_stop": "BusAndStopWidget",
    "busstop": "BusstopWidget",
    "bus_city": "BusCityWidget",
}


def median_time(fn, repeat: int) -> float:
    """Median wall-clock seconds of ``fn()`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


class Table:
    def __init__(self):
        self.rows: list[tuple[str, str, str]] = []

    def add(self, name: str, value: float, unit: str, note: str = "") -> None:
        shown = f"{value:,.0f}" if value >= 100 else f"{value:,.3g}"
        self.rows.append((name, f"{shown} {unit}", note))
        print(f"  {name:<58} {shown:>12} {unit:<12} {note}", flush=True)


def import_time(module: str, repeat: int) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(repeat)]
    return statistics.median(runs)


def random_games(game, n: int) -> int:
    """Play ``n`` seeded games with uniformly random moves straight through the State API."""
    from bus_lab.engine.policies import random_policy, sample_chance

    steps = 0
    for seed in range(n):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            action = sample_chance(state, rng) if state.is_chance_node() else random_policy(state, rng)
            state.apply_action(action)
            steps += 1
    return steps


def bench_engine(table: Table, repeat: int, quick: bool) -> None:
    import bus_lab

    print("Engine (seeded full games, default options)")
    for name in bus_lab.registered_games():
        cls = bus_lab.engine.registry.game_class(name)
        bounds = next(p.bounds for p in cls.PARAMS if p.name == "players")
        players = 4 if bounds[0] <= 4 <= bounds[1] else bounds[1]
        game = bus_lab.load_game(name, players=players)
        n = 20 if quick else 200
        steps = []
        seconds = median_time(lambda: steps.append(random_games(game, n)), repeat)
        table.add(f"{name} ({players} players), random moves: games/s", n / seconds, "games/s",
                  f"{1e6 * seconds / (steps[-1]):.1f} µs/step")
        strongest = [p for p in game.policies() if p != "random"]
        policy = strongest[-1] if strongest else "random"
        m = 10 if quick else 50
        seconds = median_time(lambda: [bus_lab.Session(game, seed=s, bots=policy).run_to_end() for s in range(m)],
                              repeat)
        table.add(f"{name}: Session with '{policy}' bots: games/s", m / seconds, "games/s")


def bench_widgets(table: Table, repeat: int) -> None:
    import bus_lab.widgets as widgets

    print("Widgets (headless click on Step, median latency until the board is redrawn)")
    for name, cls_name in WIDGETS.items():
        cls = getattr(widgets, cls_name, None)
        if cls is None:
            continue
        times = []
        for seed in range(repeat):
            w = cls(humans=(), seed=seed)
            for _ in range(40):
                if w.session.state.is_terminal():
                    break
                start = time.perf_counter()
                w.step_button.click()
                times.append(time.perf_counter() - start)
        table.add(f"{name}: Step click latency (median)", 1000 * statistics.median(times), "ms")


def bench_exact(table: Table, repeat: int) -> None:
    from bus_lab.prob import bus, part1

    print("Exact odds (Fractions, cold caches)")

    def four_right():
        part1.clear_cache()
        part1.all_four_right("best")

    table.add("Ride the Bus: P(all four right), best play", 1000 * median_time(four_right, repeat), "ms",
              f"= {part1.all_four_right('best')}")

    def chain():
        for f in (bus.bus_off_chance, bus.expected_guesses):
            getattr(f, "cache_clear", lambda: None)()
        bus._hl_chain.cache_clear() if hasattr(bus._hl_chain, "cache_clear") else None
        bus.bus_off_chance(5, 40)

    table.add("Ride the Bus: bus-off Markov chain, streak 5, 40 guesses", 1000 * median_time(chain, repeat), "ms",
              f"≈ {float(bus.bus_off_chance(5, 40)):.4f}")


def bench_vectorised(table: Table, repeat: int, quick: bool) -> None:
    import bus_lab
    from bus_lab.prob import bus, part1

    print("Simulation: vectorised numpy paths against the step-through engine")
    n = 200_000 if quick else 1_000_000
    seconds = median_time(lambda: part1.simulate_part1(n, seed=1, keep_samples=False), repeat)
    fast = n / seconds
    table.add("Part 1, lone best-odds player, vectorised: deals/s", fast, "deals/s")

    game = bus_lab.load_game("ride_the_bus", players=1, mode="gauntlet")

    def engine_part1(count: int = 200):
        for seed in range(count):
            session = bus_lab.Session(game, seed=seed, bots="best_odds")
            while session.state.phase == "questions":
                session.step()

    count = 50 if quick else 200
    slow = count / median_time(lambda: engine_part1(count), repeat)
    table.add("Part 1, lone best-odds player, engine Session: deals/s", slow, "deals/s",
              f"vectorised / engine = {fast / slow:,.0f}x")
    m = 100_000 if quick else 400_000
    table.add("Bus (higher/lower, finite deck, streak 5), vectorised: buses/s",
              m / median_time(lambda: bus.simulate_bus(m, seed=2), repeat), "buses/s")


def bench_notebooks(table: Table) -> None:
    import nbformat
    from nbclient import NotebookClient

    print("Lesson notebooks (fresh kernel, top to bottom)")
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        nb = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
        table.add(f"notebook {path.relative_to(ROOT / 'notebooks')}", time.perf_counter() - start, "s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (the median is shown)")
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a first look")
    parser.add_argument("--skip-notebooks", action="store_true", help="leave out the notebook run times")
    args = parser.parse_args()
    print(f"bus_lab benchmarks on {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
          f"median of {args.repeat} runs{' (quick)' if args.quick else ''}")
    table = Table()
    print("Import")
    table.add("import bus_lab", 1000 * import_time("bus_lab", args.repeat), "ms")
    table.add("import bus_lab.widgets", 1000 * import_time("bus_lab.widgets", args.repeat), "ms")
    bench_engine(table, args.repeat, args.quick)
    bench_widgets(table, args.repeat)
    bench_exact(table, args.repeat)
    bench_vectorised(table, args.repeat, args.quick)
    if not args.skip_notebooks:
        bench_notebooks(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
