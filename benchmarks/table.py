#!/usr/bin/env python3
"""The class table under load: printed figures, never asserted.

A real :class:`~bus_lab.table.TableServer` (uvicorn, localhost, pace 0: automatic steps at once)
holds ``--tables`` tables of Ride the Bus with ``--seats`` seats each (the only game with six seats;
``--mix`` rotates the four games, each with as many seats as it takes up to ``--seats``). Every seat
is a page: a ``websockets`` client that joins with the code, and plays a random legal move from its
own frame whenever its frame offers moves; each table also has a host page (it starts the game and
taps Continue when the table holds). All clients run in one asyncio loop, in a subprocess by default
(so the server's thread is not starved of the interpreter lock) or in the server's process
(``--in-process``; ``--both`` runs the two one after the other).

Figures: games finished, moves sent, moves applied (the person decisions in the tables' histories),
moves lost (sent, neither applied nor refused: must be 0) and moves applied twice (each move is
identified by its table and the ``seq`` it answered; the decision after that version must be that
move, and no history decision may be claimed by two moves or by none: must be 0), the median and
95th percentile of the time from a move sent to the moment EVERY page of its table has received the
frame that shows it (aim: 95th percentile under 150 ms), frames and bytes received per move, and the
server's memory per table (resident set growth over the run / tables, and tracemalloc of tables
played without a server), and the server process's CPU time per move.

Pages move at once by default, so the server is saturated and the latency grows with the number of
tables (each move waits behind the others'); ``--think SECONDS`` gives each page a random pause
(mean SECONDS) before its move, as people take, and the latency is then the server's own.

Run: ``python benchmarks/table.py [--quick] [--both]`` or ``python3 tasks.py bench --only table``.
A run stops at ``--time-cap`` seconds and says so.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: The aim for move sent → every page of the table has the frame that shows it (95th percentile), ms.
AIM_P95_MS = 150.0
#: Moves a table's pages send at most (a game of six takes about 100).
MAX_MOVES_PER_TABLE = 2_000
#: Seats per game in ``--mix`` (the most each game takes, up to ``--seats``).
MIX = (("ride_the_bus", 8), ("bus_and_stop", 4), ("busstop", 5), ("bus_city", 3))


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, nearest rank (``nan`` for none)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1]


def rss_bytes() -> int:
    """This process's resident set now, in bytes (Linux ``/proc``; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


# -- the pages (clients) ------------------------------------------------------------------------


def find_holding(frame: Any) -> bool:
    """Whether a frame says the table waits for the host's Continue (its ``table.holding``)."""
    block = frame.get("table") if isinstance(frame, dict) else None
    if isinstance(block, dict) and block.get("holding"):
        return True
    inner = frame.get("projector") if isinstance(frame, dict) else None
    return isinstance(inner, dict) and find_holding(inner)


def frame_seq(frame: dict[str, Any]) -> int:
    seq = frame.get("seq")
    if seq is None and isinstance(frame.get("projector"), dict):
        seq = frame["projector"].get("seq")
    return int(seq)


def phase_of(frame: dict[str, Any]) -> str | None:
    block = frame.get("table")
    if isinstance(block, dict):
        return block.get("phase")
    return frame.get("phase") if isinstance(frame.get("phase"), str) else None


async def run_clients(plan: dict[str, Any]) -> dict[str, Any]:
    """Play every table of ``plan`` through websockets until each game ends or the deadline.

    Args:
        plan (dict): ``ws`` (the server's websocket URL), ``deadline`` (``time.monotonic`` value),
            ``max_moves`` (moves sent per table at most),
            ``host_key`` and ``tables``: a list of ``{"code", "seats"}``.

    Returns:
        dict: per table code, the moves sent ``[seq, seat, action, sent_at]``, the refusals, and for
        every page the arrival time of each ``seq`` it received first; frames and bytes received.
    """
    from websockets.asyncio.client import connect

    deadline = plan["deadline"]
    results: dict[str, Any] = {}

    async def page(code: str, hello: dict[str, Any], name: str, out: dict[str, Any], started: asyncio.Event):
        rng = random.Random(f"{code}:{name}")
        arrivals: dict[int, float] = {}
        out["arrivals"][name] = arrivals
        answered = -1
        async with connect(plan["ws"], max_size=None, open_timeout=30) as ws:
            await ws.send(json.dumps(hello))
            welcome = json.loads(await ws.recv())
            if welcome.get("type") != "welcome":
                raise RuntimeError(f"{name} of {code} refused: {welcome}")
            if hello["type"] == "join":
                out["seats"][name] = welcome["seat"]
            started.set() if hello["type"] == "host" else None
            while time.monotonic() < deadline:
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=max(0.05, deadline - time.monotonic()))
                except (TimeoutError, asyncio.TimeoutError):
                    break
                now = time.monotonic()
                out["frames"] += 1
                out["bytes"] += len(text.encode())
                message = json.loads(text)
                kind = message.get("type")
                if kind == "error":
                    out["refused"].append([name, message.get("seq"), message.get("text", "")[:120]])
                    continue
                if kind == "closed":
                    break
                if kind != "frame":
                    continue
                frame = message["frame"]
                seq = frame_seq(frame)
                arrivals.setdefault(seq, now)
                if phase_of(frame) in ("over", "closed"):
                    break
                if hello["type"] == "host":
                    if find_holding(frame) and seq > answered:
                        answered = seq
                        await ws.send(json.dumps({"type": "command", "name": "continue", "value": None}))
                    continue
                moves = frame.get("moves") or []
                if moves and seq > answered and len(out["sent"]) >= plan["max_moves"]:
                    out["capped"] = True
                    break
                if moves and seq > answered:
                    answered = seq
                    if plan.get("think_s"):
                        await asyncio.sleep(rng.uniform(0, 2 * plan["think_s"]))
                    move = rng.choice(moves)
                    out["sent"].append([seq, name, move["action"], time.monotonic()])
                    await ws.send(json.dumps({"type": "move", "action": move["action"], "seq": seq}))

    async def one_table(spec: dict[str, Any]) -> None:
        code = spec["code"]
        out = results[code] = {
            "sent": [],
            "refused": [],
            "arrivals": {},
            "seats": {},
            "frames": 0,
            "bytes": 0,
        }
        started = asyncio.Event()
        host_hello = {"type": "host", "code": code, "key": plan["host_key"]}
        tasks = [asyncio.create_task(page(code, host_hello, "host", out, started))]
        await started.wait()
        for i in range(spec["seats"]):
            hello = {"type": "join", "code": code, "name": f"P{i}"}
            tasks.append(asyncio.create_task(page(code, hello, f"seat{i}", out, started)))
        # the host starts once every seat has its welcome
        while len(out["seats"]) < spec["seats"] and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        out["start_sent"] = time.monotonic()
        await plan["start"](code)
        await asyncio.gather(*tasks)

    await asyncio.gather(*(one_table(spec) for spec in plan["tables"]))
    return results


# -- the server side ----------------------------------------------------------------------------


def make_tables(server, count: int, seats: int, mix: bool) -> list[dict[str, Any]]:
    specs = []
    for i in range(count):
        game, most = MIX[i % len(MIX)] if mix else ("ride_the_bus", 8)
        players = min(seats, most)
        table = server.call(
            server.hub.create_table, game, {"players": players}, [True] * players, "best_odds", 1000 + i
        )
        specs.append({"code": table.code, "seats": players, "game": game})
    return specs


def watch_versions(server, code: str, log: dict[int, int]) -> None:
    """Record, at every change of the table, its version and the steps of its game so far."""
    table = server.hub.tables[code]

    def listener(t) -> None:
        if t.session is not None:
            log[t.version] = t.session.position

    server.call(table.add_listener, listener)


def person_decisions(table) -> list[tuple[int, int, int]]:
    """(index in history, seat, action) of every decision made at a person's seat."""
    state = table.session.game.new_initial_state()
    out = []
    for i, action in enumerate(table.session.state.history()):
        if not state.is_chance_node() and table.seats[state.current_player()].kind == "person":
            out.append((i, state.current_player(), action))
        state.apply_action(action)
    return out


def analyse(server, specs, results, versions) -> dict[str, Any]:
    """Match every move sent to the decision it became; latency to every page; totals."""
    sent = applied = lost = twice = refused = finished = 0
    latencies: list[float] = []
    frames = size = 0
    for spec in specs:
        code = spec["code"]
        out = results[code]
        table = server.hub.tables.get(code)
        decisions = server.call(person_decisions, table) if table is not None else []
        finished += bool(table is not None and server.call(lambda t=table: t.session.state.is_terminal()))
        by_index = {i: (seat, action) for i, seat, action in decisions}
        claimed: dict[int, int] = {}
        seat_of = {name: seat for name, seat in out["seats"].items()}
        pages = [{int(q): at for q, at in arr.items()} for arr in out["arrivals"].values()]
        errors: dict[str, int] = {}
        for name, _seq, _text in out["refused"]:
            errors[name] = errors.get(name, 0) + 1
        refused += len(out["refused"])
        unmatched: dict[str, int] = {}
        for seq, name, action, sent_at in out["sent"]:
            sent += 1
            index = versions[code].get(seq)
            if index is not None and by_index.get(index) == (seat_of[name], action):
                claimed[index] = claimed.get(index, 0) + 1
                shown = [min((t for q, t in arr.items() if q > seq), default=math.inf) for arr in pages]
                if all(math.isfinite(t) for t in shown):
                    latencies.append(1000 * (max(shown) - sent_at))
            else:
                unmatched[name] = unmatched.get(name, 0) + 1
        # a move neither applied nor answered with an error (each refusal answers one move)
        lost += sum(max(0, n - errors.get(name, 0)) for name, n in unmatched.items())
        applied += len(decisions)
        twice += sum(n - 1 for n in claimed.values()) + sum(1 for i in by_index if i not in claimed)
        frames += out["frames"]
        size += out["bytes"]
    return {
        "finished": finished,
        "sent": sent,
        "applied": applied,
        "lost": lost,
        "twice": twice,
        "refused": refused,
        "latencies": latencies,
        "frames": frames,
        "bytes": size,
    }


def run(
    tables: int, seats: int, mix: bool, time_cap: float, in_process: bool, think_s: float = 0.0
) -> dict[str, Any]:
    """One load run on a fresh server; returns the figures (also printed)."""
    from bus_lab.table import Hub, TableServer
    from bus_lab.table.limits import Limits

    limits = Limits(pace_s=0, max_tables=max(40, tables), rate_per_second=100.0, rate_burst=200)
    server = TableServer(hub=Hub(limits=limits, pace_s=0), pace_s=0).start()
    try:
        before = rss_bytes()
        specs = make_tables(server, tables, seats, mix)
        versions: dict[str, dict[int, int]] = {}
        for spec in specs:
            versions[spec["code"]] = {}
            watch_versions(server, spec["code"], versions[spec["code"]])
        ws_url = server.url.replace("http://", "ws://") + "/ws"
        plan = {
            "ws": ws_url,
            "host_key": server.hub.host_key,
            "tables": specs,
            "deadline": time.monotonic() + time_cap,
            "max_moves": MAX_MOVES_PER_TABLE,
            "think_s": think_s,
        }
        start = time.perf_counter()
        cpu = time.process_time()
        if in_process:
            results = asyncio.run(_in_process(plan, server))
        else:
            results = _in_subprocess(plan)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu
        capped = time.monotonic() >= plan["deadline"] or any(r.get("capped") for r in results.values())
        figures = analyse(server, specs, results, versions)
        figures["memory_per_table"] = (rss_bytes() - before) / tables
        figures["seconds"] = seconds
        figures["cpu"] = cpu
        figures["in_process"] = in_process
        figures["capped"] = capped
        return figures
    finally:
        server.stop()


async def _in_process(plan: dict[str, Any], server) -> dict[str, Any]:
    """The clients in this process; the host's Start goes through the host's socket."""
    plan = dict(plan, start=_start_via_socket(plan))
    return await run_clients(plan)


def _start_via_socket(plan: dict[str, Any]):
    from websockets.asyncio.client import connect

    async def start(code: str) -> None:
        async with connect(plan["ws"]) as ws:
            await ws.send(json.dumps({"type": "host", "code": code, "key": plan["host_key"]}))
            await ws.recv()  # welcome
            await ws.send(json.dumps({"type": "command", "name": "start", "value": None}))
            while True:  # until the start shows (the table's frames come to every page)
                message = json.loads(await ws.recv())
                if message.get("type") == "error":
                    raise RuntimeError(f"start refused: {message}")
                if message.get("type") == "frame" and phase_of(message["frame"]) not in (None, "lobby"):
                    return

    return start


def _in_subprocess(plan: dict[str, Any]) -> dict[str, Any]:
    """The clients in a child process (same machine, same monotonic clock); results on stdout."""
    child_plan = dict(plan)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, __file__, "--clients"],
        input=json.dumps(child_plan),
        capture_output=True,
        text=True,
        env=env,
        timeout=plan["deadline"] - time.monotonic() + 60,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the client process failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def clients_main() -> int:
    """The child's side of ``--clients``: read the plan on stdin, print the results as JSON."""
    plan = json.loads(sys.stdin.read())
    plan["start"] = _start_via_socket(plan)
    results = asyncio.run(run_clients(plan))
    print(json.dumps(results))
    return 0


def memory_per_table(tables: int, seats: int, mix: bool) -> float:
    """Bytes held per table (tracemalloc, no server): ``tables`` tables made as in the load run,
    every seat joined, played to the end with random moves, each page's frame built once; the
    figure is the memory still allocated afterwards (tables kept) over the number of tables."""
    import tracemalloc

    from bus_lab.table import Hub
    from bus_lab.table.limits import Limits

    def build(hub, i: int):
        game, most = MIX[i % len(MIX)] if mix else ("ride_the_bus", 8)
        players = min(seats, most)
        table = hub.create_table(game, {"players": players}, [True] * players, "best_odds", 1000 + i)
        for p in range(players):
            table.join(f"P{p}")
        table.start()
        rng = random.Random(i)
        for _ in range(5000):
            table.run_automatic()
            if table.holding() is not None:
                table.continue_()
                continue
            state = table.session.state
            if table.phase != "playing" or state.is_terminal():
                break
            if not state.is_chance_node():
                seat = state.current_player()
                frame = table.seat_frame(seat)
                table.move(seat, rng.choice(frame["moves"])["action"], table.version)
            table.changed()
        for p in range(players):
            table.seat_frame(p)
        table.projector_frame()
        table.host_frame()
        return table

    warm = Hub(limits=Limits(pace_s=0, max_tables=tables + 1), pace_s=0)
    build(warm, 0)  # imports, caches and the games' tables of odds are not a table's own
    hub = Hub(limits=Limits(pace_s=0, max_tables=tables + 1), pace_s=0)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = [build(hub, i) for i in range(tables)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del kept
    return (after - before) / tables


def print_figures(label: str, figures: dict[str, Any], tables: int) -> float:
    """Print one run's figures; return its 95th percentile (ms)."""
    lat = figures["latencies"]
    p50, p95 = (statistics.median(lat) if lat else math.nan), percentile(lat, 95)
    applied = max(1, figures["applied"])
    met = "met" if p95 < AIM_P95_MS else "MISSED"
    print(f"Class table under load, clients {label} ({figures['seconds']:.1f} s)")
    if figures["capped"]:
        print(
            f"  CAP REACHED (time cap, or {MAX_MOVES_PER_TABLE} moves at a table): {figures['finished']} of "
            f"{tables} games finished; figures are partial"
        )
    rows = [
        ("games finished", f"{figures['finished']} of {tables}"),
        ("moves sent", f"{figures['sent']:,}"),
        ("moves applied (person decisions in the histories)", f"{figures['applied']:,}"),
        ("moves refused (an error to the page)", f"{figures['refused']:,}"),
        ("moves lost (must be 0)", f"{figures['lost']}"),
        ("moves applied twice or unexplained (must be 0)", f"{figures['twice']}"),
        ("move sent → every page has its frame, median", f"{p50:.1f} ms"),
        (
            "move sent → every page has its frame, 95th percentile",
            f"{p95:.1f} ms (aim < {AIM_P95_MS:.0f}: {met})",
        ),
        (
            "server process CPU per move" + (" (clients included)" if figures["in_process"] else ""),
            f"{1000 * figures['cpu'] / applied:.2f} ms",
        ),
        ("frames received per move (all pages)", f"{figures['frames'] / applied:.1f}"),
        ("bytes received per move (all pages)", f"{figures['bytes'] / applied:,.0f}"),
        (
            "server process RSS growth / tables (first use included)",
            f"{figures['memory_per_table'] / 1024:,.0f} KiB",
        ),
    ]
    for name, value in rows:
        print(f"  {name:<62} {value}", flush=True)
    return p95


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10, help="tables played at once (default 10)")
    parser.add_argument("--seats", type=int, default=6, help="seats (pages playing) per table (default 6)")
    parser.add_argument("--mix", action="store_true", help="rotate the four games (seats as each allows)")
    parser.add_argument("--quick", action="store_true", help="3 tables of 3 seats, for a first look")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="mean pause of a page before its move (default 0: at once, the server saturated)",
    )
    parser.add_argument(
        "--time-cap", type=float, default=180.0, help="seconds before a run stops (default 180)"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--in-process", action="store_true", help="clients in the server's process")
    where.add_argument("--both", action="store_true", help="clients in a subprocess, then in-process")
    parser.add_argument("--clients", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.clients:
        return clients_main()
    sys.path.insert(0, str(ROOT))
    measure(
        args.tables, args.seats, args.mix, args.quick, args.time_cap, args.in_process, args.both, args.think
    )
    return 0


def measure(
    tables: int = 10,
    seats: int = 6,
    mix: bool = False,
    quick: bool = False,
    time_cap: float = 180.0,
    in_process: bool = False,
    both: bool = False,
    think_s: float = 0.0,
) -> list[dict[str, Any]]:
    """Run the load (see the module doc) and print its figures; returns one dict of figures per
    run (``label``, ``p95`` in ms, ``lost``, ``twice``, ...) for ``benchmarks/run.py``."""
    if quick:
        tables, seats = 3, 3
    if hasattr(os, "getloadavg"):
        print(
            f"Class table load (load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)"
        )
    runs = []
    for where in [False, True] if both else [in_process]:
        figures = run(tables, seats, mix, time_cap, where, think_s)
        figures["label"] = "in the server's process" if where else "in a subprocess"
        figures["p95"] = print_figures(
            f"{figures['label']}, {tables} tables × {'up to ' if mix else ''}{seats} seats"
            f"{' (the four games)' if mix else ''} + a host page",
            figures,
            tables,
        )
        runs.append(figures)
    per_table = memory_per_table(tables, seats, mix)
    print(
        f"  {'memory per table, played to the end (tracemalloc, no server)':<62} {per_table / 1024:,.0f} KiB"
    )
    for figures in runs:
        figures["memory_traced"] = per_table
    return runs


if __name__ == "__main__":
    sys.exit(main())
