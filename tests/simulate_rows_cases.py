"""Seeded ``simulate`` runs of every game and option set whose rows are kept in
``tests/data/simulate_rows.json``: the rows a run gives must never change when ``simulate`` or the
games are refactored (same seeds, same bots: same winners, scores, lengths and per-game figures).

Regenerate the file only for a deliberate change of the rules (and say so in the commit):
``PYTHONPATH=$PWD python tests/simulate_rows_cases.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).parent / "data" / "simulate_rows.json"

#: (case name, game name, parameters, bots, extras: a dotted path or None, games, master seed)
CASES = (
    ("rtb_pyramid_random", "ride_the_bus", {"players": 4}, "random", "rtb", 12, 3),
    ("rtb_pyramid_best_odds", "ride_the_bus", {"players": 3}, "best_odds", "rtb", 8, 5),
    (
        "rtb_give_and_take_flat",
        "ride_the_bus",
        {"players": 5, "board": "give_and_take", "row_points": "flat"},
        "random",
        "rtb",
        8,
        11,
    ),
    (
        "rtb_questions_bus",
        "ride_the_bus",
        {"players": 2, "bus": "questions", "streak": 3},
        "best_odds",
        "rtb",
        8,
        2,
    ),
    ("rtb_gauntlet", "ride_the_bus", {"players": 3, "mode": "gauntlet"}, "random", "rtb", 8, 4),
    ("rtb_gauntlet_solo", "ride_the_bus", {"players": 1, "mode": "gauntlet"}, "best_odds", "rtb", 6, 9),
    ("bus_and_stop_random", "bus_and_stop", {}, "random", "bas", 4, 1),
    ("bus_and_stop_greedy", "bus_and_stop", {}, "greedy", "bas", 4, 2),
    ("busstop_random", "busstop", {}, "random", None, 4, 1),
    ("busstop_bidder", "busstop", {}, "bidder", None, 4, 2),
    ("bus_city_random", "bus_city", {}, "random", None, 4, 1),
    ("bus_city_greedy", "bus_city", {}, "greedy", None, 4, 2),
)


def extras_function(kind):
    if kind == "rtb":
        from bus_lab.simulate import ride_the_bus_extras

        return ride_the_bus_extras
    if kind == "bas":
        from bus_lab.games.bus_and_stop.stats import game_summary

        return game_summary
    return None


def run_case(case) -> list[dict]:
    from bus_lab.simulate import simulate

    _, game, params, bots, extras, n, seed = case
    rows = simulate(game, n, bots=bots, seed=seed, extras=extras_function(extras), **params)
    return json.loads(json.dumps(rows))  # the JSON form: tuples become lists, keys strings


def all_rows() -> dict[str, list[dict]]:
    return {case[0]: run_case(case) for case in CASES}


if __name__ == "__main__":
    DATA.write_text(json.dumps(all_rows(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")
