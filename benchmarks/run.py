#!/usr/bin/env python3
"""bus_lab benchmarks: print how fast the engine, widgets, exact odds and simulations are.

Run with ``python3 tasks.py bench`` (or ``.venv/bin/python benchmarks/run.py``). Each figure is the
median of ``--repeat`` runs; where two figures compute the same thing two ways (engine vs vectorised
path, exact vs simulated, one core vs a process pool) the ratio from the same run is printed. The
``board`` section (benchmarks/board.py) starts JupyterLab and plays the board in headless Chromium
(``--skip-board`` leaves it out). The ``interop`` section (benchmarks/interop.py) plays random games
through OpenSpiel and PettingZoo against the bare engine. The ``notebooks`` section runs each lesson
in a fresh kernel and reads the kernel's peak memory from inside it (``--notebook PART`` picks
lessons). The ``table`` section (benchmarks/table.py) plays class tables through a real server with
websocket clients. The table ends with the speed targets (on a 2-core machine) and whether each was
met on this one. Nothing here asserts: the figures are for reading and for the notes of a change.
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


#: Sections of the table, in the order they run (``--only`` picks some).
SECTIONS = (
    "import",
    "engine",
    "widgets",
    "guess_odds",
    "exact",
    "vectorised",
    "parallel",
    "notebooks",
    "board",
    "interop",
    "table",
)


def median_time(fn, repeat: int) -> float:
    """Median wall-clock seconds of ``fn()`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_times_interleaved(fns: list, repeat: int) -> list[float]:
    """Median wall-clock seconds of each of ``fns``, run in turn ``repeat`` times (a, b, c, a, b,
    c, ...), so a change in the machine's load during the run weighs on all of them alike."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, out in zip(fns, times):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def shown(value: float) -> str:
    """A figure for the table: thousands separators from 100 up, else 3 significant digits."""
    return f"{value:,.0f}" if value >= 100 else f"{value:,.3g}"


class Table:
    """The printed table; rows with a target are repeated in the summary at the end."""

    def __init__(self):
        self.rows: list[tuple[str, str, str]] = []
        self.targets: list[tuple[str, float, str, str, float]] = []

    def add(
        self,
        name: str,
        value: float,
        unit: str,
        note: str = "",
        at_least: float | None = None,
        below: float | None = None,
    ) -> None:
        """Print one row; ``at_least``/``below`` give its target (met when value ≥ / < it)."""
        self.rows.append((name, f"{shown(value)} {unit}", note))
        print(f"  {name:<62} {shown(value):>12} {unit:<12} {note}", flush=True)
        self.expect(name, value, unit, at_least, below)

    def expect(
        self, name: str, value: float, unit: str, at_least: float | None = None, below: float | None = None
    ) -> None:
        """Record a target for the summary without printing a row (e.g. for a ratio in a note)."""
        if at_least is not None:
            self.targets.append((name, value, unit, "≥", at_least))
        if below is not None:
            self.targets.append((name, value, unit, "<", below))

    def summary(self) -> int:
        """Print every target with its figure; return how many were missed."""
        print("Targets (for a 2-core machine)")
        missed = 0
        for name, value, unit, op, limit in self.targets:
            met = value >= limit if op == "≥" else value < limit
            missed += not met
            print(
                f"  {name:<62} {shown(value):>12} {unit:<12} target {op} {shown(limit)}: "
                f"{'met' if met else 'MISSED'}",
                flush=True,
            )
        return missed


def import_time(module: str, repeat: int) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.check_output([sys.executable, "-c", code], text=True)) for _ in range(repeat)]
    return statistics.median(runs)


def random_games(game, n: int, policy: str = "random") -> int:
    """The bare engine loop: play ``n`` seeded games straight through the State API, one generator
    per game (``random.Random(seed)``), every seat played by the named policy; returns the steps."""
    from bus_lab.engine.policies import sample_chance

    choose = game.policies()[policy]
    steps = 0
    for seed in range(n):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            action = sample_chance(state, rng) if state.is_chance_node() else choose(state, rng)
            state.apply_action(action)
            steps += 1
    return steps


def session_games(game, n: int, policy: str) -> int:
    """Play ``n`` seeded games through a :class:`bus_lab.Session` each (every seat a bot); returns
    the steps."""
    import bus_lab

    steps = 0
    for seed in range(n):
        session = bus_lab.Session(game, seed=seed, bots=policy)
        steps += session.run_to_end()
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
        seconds = median_time(lambda game=game, n=n, steps=steps: steps.append(random_games(game, n)), repeat)
        table.add(
            f"{name} ({players} players), random moves: games/s",
            n / seconds,
            "games/s",
            f"{1e6 * seconds / (steps[-1]):.1f} µs/step",
            at_least=1000 if name == "ride_the_bus" else 200,
        )
        strongest = [p for p in game.policies() if p != "random"]
        policy = strongest[-1] if strongest else "random"
        m = 20 if quick else 200
        loop_steps: list[int] = []
        session_steps: list[int] = []
        loop, seconds = median_times_interleaved(
            [
                lambda game=game, policy=policy, m=m, out=loop_steps: out.append(
                    random_games(game, m, policy)
                ),
                lambda game=game, policy=policy, m=m, out=session_steps: out.append(
                    session_games(game, m, policy)
                ),
            ],
            repeat,
        )
        per_step = (seconds / session_steps[-1]) / (loop / loop_steps[-1])
        table.add(
            f"{name}: Session with '{policy}' bots: games/s",
            m / seconds,
            "games/s",
            f"{seconds / loop:.2f}x the bare loop's time with the same bots ({m / loop:,.0f} games/s); "
            f"{per_step:.2f}x per step",
        )
        table.expect(f"{name}: Session / bare loop, '{policy}' bots: time", seconds / loop, "x", below=1.5)


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
                w.step()  # what a click on Step runs in the kernel; the frame is then sent
                times.append(time.perf_counter() - start)
        table.add(f"{name}: Step click latency (median)", 1000 * statistics.median(times), "ms", below=30)


def bench_exact(table: Table, repeat: int) -> dict[str, float]:
    from bus_lab.prob import bus, part1

    print("Exact odds (Fractions, cold caches)")

    def four_right():
        part1.clear_cache()
        part1.all_four_right("best")

    exact_four = median_time(four_right, repeat)
    table.add(
        "Ride the Bus: P(all four right), best play",
        1000 * exact_four,
        "ms",
        f"= {part1.all_four_right('best')}",
        below=500,
    )

    def chain():
        for f in (bus.bus_off_chance, bus.expected_guesses):
            getattr(f, "cache_clear", lambda: None)()
        bus._hl_chain.cache_clear() if hasattr(bus._hl_chain, "cache_clear") else None
        bus.bus_off_chance(5, 40)

    exact_chain = median_time(chain, repeat)
    table.add(
        "Ride the Bus: bus-off Markov chain, streak 5, 40 guesses",
        1000 * exact_chain,
        "ms",
        f"≈ {float(bus.bus_off_chance(5, 40)):.4f}",
    )
    return {"four_right": exact_four, "chain": exact_chain}


def guess_states(quick: bool) -> list:
    """Every guessing decision of seeded random games (4 players with the higher/lower bus, 2 with the
    questions bus, 6 players): Part 1 questions and bus calls, a few before and after reshuffles."""
    import bus_lab

    states = []
    for players, bus_kind in ((4, "higher_lower"), (2, "questions"), (6, "higher_lower")):
        game = bus_lab.load_game("ride_the_bus", players=players, bus=bus_kind)
        for seed in range(3 if quick else 8):
            session = bus_lab.Session(game, seed=seed, bots="random")
            session.run_to_end()
            for i in range(len(session)):
                state = session.state_at(i)
                if (
                    not state.is_chance_node()
                    and not state.is_terminal()
                    and state.is_guess(state.legal_actions()[0])
                ):
                    states.append(state)
    return states


def bench_guess_odds(table: Table, repeat: int, quick: bool) -> None:
    """``guess_odds`` (what the ``best_odds`` bot calls at every guess) and whole games of those bots."""
    import bus_lab
    from bus_lab.prob.ride_the_bus import guess_odds

    print("Exact guess odds (bus_lab.prob.guess_odds) and the best_odds bot")
    states = guess_states(quick)

    def all_odds():
        for state in states:
            guess_odds(state)

    seconds = median_time(all_odds, repeat)
    table.add(
        "Ride the Bus: guess_odds at a guessing decision",
        1e6 * seconds / len(states),
        "µs/call",
        f"{len(states):,} decisions of seeded games",
    )
    game = bus_lab.load_game("ride_the_bus", players=4)
    m = 10 if quick else 50
    seconds = median_time(
        lambda: [bus_lab.Session(game, seed=s, bots="best_odds").run_to_end() for s in range(m)], repeat
    )
    table.add(
        "Ride the Bus, 4 players, 'best_odds' bots, whole game",
        1000 * seconds / m,
        "ms/game",
        f"{m / seconds:,.0f} games/s",
    )


def bench_vectorised(table: Table, repeat: int, quick: bool, exact: dict[str, float]) -> None:
    import bus_lab
    from bus_lab.engine.policies import sample_chance
    from bus_lab.prob import bus, part1

    print("Simulation: vectorised numpy paths against the step-through engine and the exact figures")
    n = 200_000 if quick else 1_000_000
    results = []
    seconds = median_time(lambda: results.append(part1.simulate_part1(n, seed=1, keep_samples=False)), repeat)
    fast = n / seconds
    four = results[-1]["all_four_right"]
    table.add("Part 1, lone best-odds player, vectorised: deals/s", fast, "deals/s")
    table.add(
        "  simulated P(all four right) against the exact figure",
        four.mean,
        "",
        f"z = {four.z_score(part1.all_four_right('best')):+.2f}; {n:,} deals take "
        f"{seconds / exact['four_right']:,.1f}x the exact computation's time",
    )

    game = bus_lab.load_game("ride_the_bus", players=1, mode="gauntlet")

    def engine_part1(count: int = 200):
        for seed in range(count):
            session = bus_lab.Session(game, seed=seed, bots="best_odds")
            while session.state.part == "questions":
                session.step()

    count = 50 if quick else 200
    slow = count / median_time(lambda: engine_part1(count), repeat)
    table.add(
        "Part 1, lone best-odds player, engine Session: deals/s",
        slow,
        "deals/s",
        f"vectorised / engine = {fast / slow:,.0f}x",
    )
    table.expect("Part 1: vectorised deals/s / engine deals/s", fast / slow, "x", at_least=100)

    m = 100_000 if quick else 400_000
    table.add(
        "Bus (higher/lower, finite deck, streak 5), vectorised: buses/s",
        m / median_time(lambda: bus.simulate_bus(m, seed=2), repeat),
        "buses/s",
    )

    # The same bus two ways: the piles of a seeded 4-player game when its bus starts.
    session = bus_lab.Session(bus_lab.load_game("ride_the_bus", players=4), seed=3, bots="random")
    from bus_lab.games.ride_the_bus.phases import RideTheBusPhase

    while session.state.phase() is not RideTheBusPhase.BUS_START:
        session.step()
    start = session.state
    piles = bus.bus_start_piles(start)
    policy = start.get_game().policies()["best_odds"]

    def engine_buses(count: int) -> None:
        for seed in range(count):
            rng = random.Random(seed)
            state = start.clone()
            while not state.is_terminal():
                state.apply_action(
                    sample_chance(state, rng) if state.is_chance_node() else policy(state, rng)
                )

    k = 40 if quick else 200
    engine_rate = k / median_time(lambda: engine_buses(k), repeat)
    vector_rate = m / median_time(lambda: bus.simulate_bus(m, seed=4, **piles), repeat)
    table.add("Bus from a real game's piles, engine (best_odds rider): buses/s", engine_rate, "buses/s")
    table.add(
        "Bus from the same piles, vectorised: buses/s",
        vector_rate,
        "buses/s",
        f"vectorised / engine = {vector_rate / engine_rate:,.0f}x",
    )

    # Exact against simulated: the Markov chain with replacement and its simulation.
    sims = []
    sim_seconds = median_time(lambda: sims.append(bus.simulate_bus(m, 5, seed=5, replacement=True)), repeat)
    off = sims[-1].off
    table.add(
        "Bus with replacement, simulated P(off in 40), vectorised",
        off.mean,
        "",
        f"z = {off.z_score(bus.bus_off_chance(5, 40)):+.2f} against the exact chain; {m:,} buses take "
        f"{sim_seconds / exact['chain']:,.1f}x the exact chain's time",
    )


def print_simulate_vs_engine(table: Table, repeat: int, quick: bool) -> None:
    """``bus_lab.simulate`` and a Session per game on one core against the bare engine loop with
    the same random bots (``random_games``: one generator per game). The games differ (other
    random streams), so a run's figures in games per second carry the chance difference of the
    two sets' mean lengths (about 0.6% either way over 3,000 Ride the Bus games; both are
    printed), and the time per step is printed as well."""
    import bus_lab

    game = bus_lab.load_game("ride_the_bus", players=4)
    n = 600 if quick else 3000
    bare_steps: list[int] = []
    sim_rows: list[list[dict]] = []
    session_steps: list[int] = []
    bare, sim, sessions = median_times_interleaved(
        [
            lambda: bare_steps.append(random_games(game, n)),
            lambda: sim_rows.append(bus_lab.simulate(game, n, seed=1)),
            lambda: session_steps.append(session_games(game, n, "random")),
        ],
        max(repeat, 5),
    )
    sim_steps = sum(row["length"] for row in sim_rows[-1])
    table.add(
        f"simulate against the bare loop, ride_the_bus ({n:,} random games): games/s",
        n / sim,
        "games/s",
        f"{bare / sim:.2f}x the bare engine loop ({n / bare:,.0f} games/s); per step "
        f"{(bare / bare_steps[-1]) / (sim / sim_steps):.2f}x ({1e6 * sim / sim_steps:.2f} µs against "
        f"{1e6 * bare / bare_steps[-1]:.2f} µs); mean length {sim_steps / n:.1f} against "
        f"{bare_steps[-1] / n:.1f} steps",
    )
    table.expect("simulate / bare engine loop, random bots: games/s", bare / sim, "x", at_least=0.9)
    table.add(
        f"Session per game, ride_the_bus ({n:,} random games): games/s",
        n / sessions,
        "games/s",
        f"{sessions / bare:.2f}x the bare loop's time; per step "
        f"{(sessions / session_steps[-1]) / (bare / bare_steps[-1]):.2f}x",
    )
    table.expect("Session / bare engine loop, random bots: time", sessions / bare, "x", below=1.5)


def print_pool_start(table: Table) -> None:
    """Seconds to start a 2-worker ProcessPoolExecutor and get one trivial task back."""
    from concurrent.futures import ProcessPoolExecutor

    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=2) as pool:
        pool.submit(int, 1).result()
        seconds = time.perf_counter() - start
    table.add("ProcessPoolExecutor(2): start and one trivial task", 1000 * seconds, "ms")


def bench_parallel(table: Table, repeat: int, quick: bool) -> None:
    """``bus_lab.simulate`` against the plain engine loop, and on one core against a process pool
    over every core (same rows)."""
    from concurrent.futures import ProcessPoolExecutor

    import bus_lab

    cores = os.cpu_count() or 1
    print(f"Many games: bus_lab.simulate, one core against a ProcessPoolExecutor with {cores} workers")
    print_simulate_vs_engine(table, repeat, quick)
    print_pool_start(table)
    n = 400 if quick else 2_000
    game = bus_lab.load_game("ride_the_bus", players=4)
    serial = []
    with ProcessPoolExecutor(max_workers=cores) as pool:
        bus_lab.simulate(game, 2 * cores, seed=0, executor=pool)  # start the workers outside the timing
        pooled: list[list[dict]] = []
        one, many = median_times_interleaved(
            [
                lambda: serial.append(bus_lab.simulate(game, n, seed=1)),
                lambda: pooled.append(bus_lab.simulate(game, n, seed=1, executor=pool)),
            ],
            repeat,
        )
    table.add(f"simulate ride_the_bus ({n:,} random games), one core: games/s", n / one, "games/s")
    same = "same rows" if pooled[-1] == serial[-1] else "ROWS DIFFER"
    table.add(
        f"simulate ride_the_bus ({n:,} random games), {cores} processes: games/s",
        n / many,
        "games/s",
        f"speed-up {one / many:.2f}x on {cores} cores; {same}",
    )
    table.expect(f"simulate on {cores} processes: speed-up over one core", one / many, "x", at_least=1.8)


#: Aims for each lesson notebook in a fresh kernel: run time (s) and the kernel's peak memory (MB).
NOTEBOOK_AIM_S = 10.0
NOTEBOOK_AIM_MB = 250.0

#: Injected as the last cell: the kernel's peak resident set so far, in MB. On Linux it is VmHWM
#: from /proc/self/status (the kernel's own peak: ru_maxrss would also count the peak of the
#: process that started the kernel, carried over at exec); elsewhere ru_maxrss.
PEAK_RSS_CODE = (
    "import resource as _r, sys as _s\n"
    "try:\n"
    "    _k = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
    "except (OSError, StopIteration):\n"
    "    _k = _r.getrusage(_r.RUSAGE_SELF).ru_maxrss\n"
    "print(_k / 1024 if _s.platform != 'darwin' else _k / 2**20)"
)


def run_notebook(path: Path) -> tuple[float, float]:
    """Run one notebook top to bottom in a fresh ``python3`` kernel (its folder as working directory).

    Args:
        path (Path): the ``.ipynb`` file; it is read, never written.

    Returns:
        tuple[float, float]: wall-clock seconds from kernel start to the last lesson cell's end, and
        the kernel's peak resident set in MB, read from inside the kernel by an extra last cell.

    Raises:
        nbclient.exceptions.CellExecutionError: a cell of the lesson raised.
    """
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        seconds = time.perf_counter() - start
        probe = nbformat.v4.new_code_cell(PEAK_RSS_CODE)
        nb.cells.append(probe)
        client.execute_cell(probe, len(nb.cells) - 1)
    text = "".join(out.get("text", "") for out in probe.outputs if out.get("output_type") == "stream")
    return seconds, float(text.split()[-1])


def bench_notebooks(table: Table, only: list[str] | None = None) -> None:
    """Each lesson notebook in a fresh kernel: its run time and the kernel's peak memory, with aims.

    Args:
        table (Table): rows and targets are added to it.
        only (list[str] | None): substrings of paths under notebooks/; None runs every lesson.
    """
    print(
        f"Lesson notebooks (fresh kernel, top to bottom; aims: < {NOTEBOOK_AIM_S:g} s, "
        f"peak memory < {NOTEBOOK_AIM_MB:g} MB)"
    )
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        name = str(path.relative_to(ROOT / "notebooks"))
        if ".ipynb_checkpoints" in path.parts or (only and not any(part in name for part in only)):
            continue
        seconds, peak_mb = run_notebook(path)
        met = seconds < NOTEBOOK_AIM_S and peak_mb < NOTEBOOK_AIM_MB
        table.add(
            f"notebook {name}",
            seconds,
            "s",
            f"peak {peak_mb:.0f} MB; {'meets' if met else 'MISSES'} aims",
            below=NOTEBOOK_AIM_S,
        )
        table.expect(f"notebook {name} peak memory", peak_mb, "MB", below=NOTEBOOK_AIM_MB)


def bench_board(table: Table, quick: bool) -> None:
    """The touchable board (benchmarks/board.py): bytes per step, and in JupyterLab in headless
    Chromium the time to the first board and click → repaint; the 95th percentile has an aim."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import board

    board.print_bytes()
    try:
        results = board.print_browser(clicks=15 if quick else 30)
    except Exception as exc:  # no server or browser here: the other figures still stand
        print(f"  (browser figures skipped: {type(exc).__name__}: {str(exc)[:200]})")
        return
    for game, p95 in results:
        table.expect(f"board {game}: click → repaint, 95th percentile", p95, "ms", below=board.AIM_P95_MS)


def bench_interop(table: Table, quick: bool) -> None:
    """The OpenSpiel and PettingZoo adapters (benchmarks/interop.py): random games per second through
    each, against the bare engine; skipped with a line when the libraries are missing."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import interop

    for name, engine, spiel, zoo in interop.print_table(games=10 if quick else 30):
        table.rows.append((f"{name}: pyspiel / bare engine", f"{spiel / engine:.2f}", ""))
        table.rows.append((f"{name}: PettingZoo / bare engine", f"{zoo / engine:.2f}", ""))


def bench_table(table: Table, quick: bool) -> None:
    """The class table under load (benchmarks/table.py): a real server on localhost, tables of
    pages playing random legal moves; moves lost or applied twice, and move → every page's frame,
    whose 95th percentile has an aim."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bus_lab_table_bench", ROOT / "benchmarks" / "table.py")
    load = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(load)
    for figures in load.measure(quick=quick, time_cap=60.0 if quick else 180.0, both=True):
        where = figures["label"]
        table.expect(
            f"class table ({where}): move → every page, 95th percentile",
            figures["p95"],
            "ms",
            below=load.AIM_P95_MS,
        )
        table.expect(
            f"class table ({where}): moves lost or applied twice",
            figures["lost"] + figures["twice"],
            "",
            below=1,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (the median is shown)")
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a first look")
    parser.add_argument("--skip-notebooks", action="store_true", help="leave out the notebook run times")
    parser.add_argument(
        "--notebook",
        action="append",
        metavar="PART",
        help="run only the lesson notebooks whose path under notebooks/ contains PART (repeatable)",
    )
    parser.add_argument(
        "--skip-board", action="store_true", help="leave out the board in JupyterLab (needs Chromium)"
    )
    parser.add_argument(
        "--only",
        choices=SECTIONS,
        action="append",
        help="run only this section (repeatable); the default is every section",
    )
    args = parser.parse_args()
    print(
        f"bus_lab benchmarks on {os.cpu_count()} cores, Python {sys.version.split()[0]}, "
        f"median of {args.repeat} runs{' (quick)' if args.quick else ''}"
    )
    if hasattr(os, "getloadavg"):
        load = os.getloadavg()[0]
        busy = " (other programs are using the cores: figures will be low)" if load >= 0.5 else ""
        print(f"load average at the start: {load:.2f}{busy}")
    table = Table()
    wanted = set(args.only or SECTIONS) - ({"notebooks"} if args.skip_notebooks else set())
    wanted -= {"board"} if args.skip_board else set()
    if "import" in wanted:
        print("Import")
        table.add("import bus_lab", 1000 * import_time("bus_lab", args.repeat), "ms", below=300)
        table.add("import bus_lab.widgets", 1000 * import_time("bus_lab.widgets", args.repeat), "ms")
    if "engine" in wanted:
        bench_engine(table, args.repeat, args.quick)
    if "widgets" in wanted:
        bench_widgets(table, args.repeat)
    if "guess_odds" in wanted:
        bench_guess_odds(table, args.repeat, args.quick)
    if {"exact", "vectorised"} & wanted:
        exact = bench_exact(table, args.repeat)
        if "vectorised" in wanted:
            bench_vectorised(table, args.repeat, args.quick, exact)
    if "parallel" in wanted:
        bench_parallel(table, args.repeat, args.quick)
    if "notebooks" in wanted:
        bench_notebooks(table, args.notebook)
    if "board" in wanted:
        bench_board(table, args.quick)
    if "interop" in wanted:
        bench_interop(table, args.quick)
    if "table" in wanted:
        bench_table(table, args.quick)
    table.summary()
    return 0


if __name__ == "__main__":
    sys.exit(main())
