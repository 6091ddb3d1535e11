"""The Bus & Stop board adapter, checked against the view at many states of seeded games.

At every seat decision of games at every table setting: each legal move's first target is
something the drawer draws from the view (a colour present at the stop, a stack of
``view["stacks"]``, a passenger in the mover's bus); the points a drop-off promises are the ones on
the stack's top card in the view (worked out here, independently); the blocked targets are exactly
the drawn ones no legal move taps, each with the reason ``why_illegal`` gives.
"""

from __future__ import annotations

import random
import re

import pytest

from bus_lab import load_game
from bus_lab.board.frame import adapter_for, board_frame
from bus_lab.games.bus_and_stop.state import SENIOR_CAP

#: Every option set: players 2-4, both final rounds, leftover penalty on and off.
TABLES = [
    dict(players=2),
    dict(players=3, final_round="full_turn"),
    dict(players=4, leftover_penalty=True),
    dict(players=3, final_round="full_turn", leftover_penalty=True),
    dict(players=4, final_round="drop_off"),
]
PANEL_KINDS = {"no_skedaddle": "No skedaddle", "stop_discarding": "Stop discarding", "pass": "Pass"}
PASSENGER_KINDS = {"choose", "skedaddle", "unhappy"}


def drawn_keys(view: dict) -> set[str]:
    """The targets the drawer marks, from the view alone: the colours at the stop, every stack, and
    the passengers in the mover's bus while passengers are tapped."""
    names = {c["code"]: c["name"] for c in view["colours"]}
    keys = {f"stop:{names[code[0]]}" for code in view["stop"]}
    keys |= {f"stack:{s['name']}" for s in view["stacks"]}
    if view["node"] in PASSENGER_KINDS:
        seat = view["to_move"]
        keys |= {f"bus:{seat}:{code}" for code in view["buses"][seat]["bus"]}
    return keys


def decisions(options: dict, seed: int, policy: str = "random"):
    """Every seat decision of one seeded game (``state`` before each move), played by ``policy``
    (``"random"``, or ``"drop"``: a drop-off whenever there is one)."""
    state = load_game("bus_and_stop", **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0])
            continue
        yield state
        moves = state.legal_moves()
        drops = [m for m in moves if m.kind == "drop_off"]
        move = rng.choice(drops if drops and policy == "drop" else moves)
        state.apply_action(move.action)


def check_frame(state) -> set[str]:
    """Check one decision's frame against its view; returns the move kinds seen."""
    frame = board_frame(state, None, movable=True)
    view = frame["view"]
    drawn = drawn_keys(view)
    stacks = {s["name"]: s for s in view["stacks"]}
    colours = {c["name"] for c in view["colours"]}
    first = set()
    assert re.search(r"\[BAS-[A-Z-]+\]", frame["heading"]), frame["heading"]
    for move in frame["moves"]:
        kind, path, label = move["kind"], move["path"], move["label"]
        assert move["odds"] is None and move["hint"], move
        if kind in PANEL_KINDS:
            assert path == [] and move["choice"] == PANEL_KINDS[kind]
            continue
        assert len(path) == 1 and path[0] in drawn, (path, sorted(drawn))
        first.add(path[0])
        if kind == "pick_up":
            colour = label.removeprefix("pick up ")
            assert colour in colours and path == [f"stop:{colour}"] and move["choice"] is None
            seat = view["to_move"]
            riders = [c for c in view["stop"] if c[0] == colour[0].upper() and c[1] != "E"]
            seats = view["buses"][seat]["seats_used"] + len(riders)
            assert f"({seats} of 10 seats taken)" in move["hint"] and seats <= 10  # BAS-PICK-LIMIT
            seniors = sum(1 for c in view["stop"] if c[0] == colour[0].upper() and c[1] == "E")
            if seniors:
                kept = min(seniors, SENIOR_CAP - len(view["buses"][seat]["seniors"]))
                assert f"+{kept} at the end" in move["hint"]
        elif kind == "drop_off":
            count, name = re.fullmatch(r"drop (\d+) at (.+)", label).groups()
            count = int(count)
            top = stacks[name]["top"]
            points = top["points"][top["counts"].index(count)]  # the top card's points for this count
            assert path == [f"stack:{name}"]
            assert move["choice"] == f"{count} passenger{'s' if count != 1 else ''}"
            assert (
                move["hint"].startswith(f"+{points} point{'s' if points != 1 else ''}:")
                and "[BAS-DROP-CLAIM]" in move["hint"]
            )
            ends = view["phase"] == "play" and view["destinations_left"] - 1 <= 6
            assert ("[BAS-END-TRIGGER]" in move["hint"]) == ends
        else:
            assert kind in PASSENGER_KINDS and path[0].startswith(f"bus:{view['to_move']}:")
            code = path[0].rsplit(":", 1)[1]
            words = f"{dict((c['code'], c['name']) for c in view['colours'])[code[0]]} "
            assert label.endswith(words + {t["code"]: t["name"] for t in view["types"]}[code[1]])
            if kind == "skedaddle":
                assert move["hint"].startswith("+1 point") and "BAS-SKEDADDLE" in move["hint"]
            elif kind == "unhappy":
                assert move["hint"].startswith("−1 point") and "BAS-SCORE-UNHAPPY" in move["hint"]
    blocked = frame["blocked"]
    assert set(blocked) == drawn - first, (sorted(blocked), sorted(drawn - first))
    adapter = adapter_for("bus_and_stop")
    for key, why in blocked.items():
        assert why == state.why_illegal(adapter.drawn_targets(state)[key]) and why
    return {m["kind"] for m in frame["moves"]}


@pytest.mark.parametrize("options", TABLES, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_every_move_taps_a_drawn_target_with_the_view_s_points(options):
    """BAS-PICK-ALL, BAS-DROP-TOP, BAS-DROP-CLAIM, BAS-SKEDADDLE, BAS-UNHAPPY, BAS-END-FINAL: at every
    decision of seeded games, the paths, consequences and blocked targets agree with the view."""
    kinds: set[str] = set()
    for seed in range(3):
        for policy in ("random", "drop"):
            for state in decisions(options, seed * 7 + len(options), policy):
                kinds |= check_frame(state)
    assert {"pick_up", "drop_off", "choose", "skedaddle", "no_skedaddle", "pass"} <= kinds, kinds


def test_unhappy_turns_are_checked_too():
    """BAS-UNHAPPY: a bus full of passengers nothing takes: every discard taps a passenger."""
    state = load_game("bus_and_stop", players=2, leftover_penalty=True).new_initial_state()
    for code in ("YB", "GT", "BM", "PS"):
        state.apply_action(state.sheet.parse(code))
    for code in ("YB", "GB", "BB", "YM", "GM", "YT", "GT", "BT", "YS", "GS"):
        k = state.sheet.parse(code)
        state.deck[k] -= 1
        state.bus[0][k] += 1
    for s in (2, 3, 4):
        state.stacks[s] = []
    state.apply_action(state.sheet.parse("RB"))
    assert state.phase().value == "unhappy"
    assert check_frame(state) == {"unhappy"}
    state.apply_action(state.legal_actions()[0])
    assert check_frame(state) == {"unhappy", "stop_discarding"}


def test_heading_says_the_part_of_the_game_with_rule_ids():
    """BAS-SETUP-STOP, BAS-TURN, BAS-END-FINAL, BAS-WIN: the heading follows the game."""
    adapter = adapter_for("bus_and_stop")
    state = load_game("bus_and_stop", players=2).new_initial_state()
    assert adapter.heading(state) == "Setting up: dealing the bus stop [BAS-SETUP-STOP]"
    seen = set()
    for state in (s for seed in range(4) for s in decisions(dict(players=3), seed, "random")):
        seen.add(re.search(r"\[(BAS-[A-Z-]+)\]", adapter.heading(state)).group(1))
        if state.stage == "final":
            assert adapter.heading(state).startswith("Final round (end triggered: ")
        else:
            assert adapter.heading(state).startswith(f"Turn {state.turns} · Seat ")
            assert f"{state.destinations_left()} destination cards left" in adapter.heading(state)
    assert {"BAS-TURN", "BAS-DROP-TYPE", "BAS-END-FINAL"} <= seen, seen
    state = load_game("bus_and_stop", players=2).new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.Random(len(state.history())).choice(state.legal_actions()))
    assert "[BAS-WIN]" in adapter.heading(state)
