"""Busstop on the touchable board (``bus_lab.board.adapters.busstop``), headless.

At many states of seeded games of every table (2-5 players, with and without the passenger bonus
and the end-game bonus): every legal move's path names things the mover's view shows (a tile in
the bidder's hand, a tile on the zone, a passenger to place, a bus or queue of the acting board);
each consequence is worked out again here from the view and the rules (BSB-BOARD-LEAVE,
BSB-SCORE-PILE, BSB-OPT-BONUS, BSB-SCORE-QUEUE, BSB-EXTRA-BUS, BSB-ROUND-ORDER); and no frame a
seat receives depends on a tile another seat chose face down (BSB-ROUND-BID).
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from bus_lab import load_game
from bus_lab.board.frame import adapter_for, board_frame
from bus_lab.games.busstop.moves import decode

SORTS = ("baby", "child", "girl", "salaryman", "granny")
CODES = ("Ba", "Ch", "Gi", "Sa", "Gr")
TABLES = [
    dict(players=p, passenger_bonus=b, end_bonus=e)
    for p, b, e in itertools.product((2, 3, 4, 5), (False, True), (False, True))
]


def code_class(code: str, tile_sorts: dict[str, str]) -> int:
    """The class of a passenger written as in a view: sort 0-4, VIP 5-9, ET 10 (BSB-COMP-PASSENGERS;
    a player tile is a passenger of its sort, BSB-ROUND-DISTRIBUTE)."""
    if "/" in code:
        return SORTS.index(tile_sorts[code.split("/")[1]])
    if code == "ET":
        return 10
    if code.startswith("V"):
        return 5 + CODES.index(code[1:])
    return CODES.index(code)


def pile_points(cls: int, bonus_sort: str | None) -> int:
    """BSB-SCORE-PILE: 1, a VIP 3, an ET 0; BSB-OPT-BONUS: the colour's sort doubled."""
    if cls == 10:
        return 0
    base = 3 if cls >= 5 else 1
    return 2 * base if bonus_sort is not None and SORTS[cls % 5] == bonus_sort else base


def play_states(table: dict, seed: int, every: int = 1):
    """Decision states of one random game of ``table`` (chance drawn by its odds)."""
    state = load_game("busstop", **table).new_initial_state()
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, weights)[0])
            continue
        if n % every == 0:
            yield state
        n += 1
        state.apply_action(rng.choice(state.legal_actions()))


def check_bus_hint(hint: str, view: dict, who: int, bus: int, code: str) -> None:
    """A passenger boarding bus ``bus`` of ``who``: the seats taken, or the bus leaving with the
    points its riders score for whoever banks them (BSB-BOARD-LEAVE, BSB-PROXY-LEAVE)."""
    tile_sorts = view["tile_sorts"]
    board = view["boards"][who]
    seats = board["buses"][bus]["seats"]
    riders = board["buses"][bus]["passengers"] + [code]
    if len(riders) < seats:
        assert f"{len(riders)} of {seats} seats taken" in hint, hint
        assert "and leaves" not in hint
        return
    banker = view["proxy_player"] if who == view["proxy"] else who
    bonus = view["boards"][banker]["bonus_sort"] if view["options"]["passenger_bonus"] else None
    points = sum(pile_points(code_class(c, tile_sorts), bonus) for c in riders)
    assert f"fills ({seats} of {seats}) and leaves" in hint and f"+{points} points" in hint, hint


@pytest.mark.parametrize("table", TABLES, ids=lambda t: "-".join(f"{k}={v}" for k, v in t.items()))
def test_every_move_acts_on_what_the_view_shows_and_says_what_it_does(table):
    """BSB-ROUND-BID, BSB-ROUND-TAKE, BSB-ROUND-DISTRIBUTE, BSB-QUEUE-BOARD: every legal move's
    path names shown things; its consequence is the rules' (worked out here from the view)."""
    kinds = set()
    for seed in (1, 2):
        for state in play_states(table, seed * 10 + table["players"], every=2):
            mover = state.current_player()
            frame = board_frame(state, mover, movable=True)
            view = frame["view"]
            assert view == state.view(mover)
            who, node = view["acting"], view["node"]
            board = view["boards"][who]
            tile_sorts = view["tile_sorts"]
            assert frame["heading"].startswith(f"Round {view['round']} of 10 · conductor ")
            assert len(frame["moves"]) == len(state.legal_actions())
            for entry in frame["moves"]:
                move = decode(entry["action"])
                path, hint = entry["path"], entry["hint"]
                kinds.add(entry["kind"])
                assert hint, entry
                if node == "bid":
                    assert path == [f"tile:{move.tile}"] and move.tile in board["hand"]
                    conductor = view["conductor"]
                    shown = view["bids"][conductor]["tile"]
                    if who == conductor:
                        assert "face up, first" in hint
                    else:
                        assert "face down until the reveal" in hint
                        if shown is not None:
                            word = (
                                "before" if move.tile < shown else "after" if move.tile > shown else "a tie"
                            )
                            assert word in hint, hint
                elif node == "white":
                    played = {p["owner"]: p["tile"] for p in view["played"]}
                    assert path == [f"played:{move.owner}"] and move.owner in played
                    tile = played[move.owner]
                    assert f"tile {tile}: a {tile_sorts[str(tile)]}" in hint
                elif node == "place":
                    kind, where = path[0].split(":"), path[1]
                    index = int(kind[1])
                    code = board["received"][index]
                    assert kind[0] == "passenger" and code_class(code, tile_sorts) == move.passenger_class
                    # the first passenger of its class: the one the engine moves
                    assert all(
                        code_class(c, tile_sorts) != move.passenger_class for c in board["received"][:index]
                    )
                    if move.bus is None:
                        assert where == f"queue:{who}" and code != "ET"
                        if who != view["proxy"]:
                            cost = 6 if 5 <= move.passenger_class < 10 else 2
                            assert f"−{cost} points" in hint
                            opens = not board["extra_bus"] and len(board["queue"]) + 1 >= 9
                            assert ("open bus 3" in hint) == opens
                        else:
                            assert "penalty tiles" in hint
                    else:
                        assert where == f"bus:{who}:{move.bus}" and board["buses"][move.bus]["open"]
                        check_bus_hint(hint, view, who, move.bus, code)
                else:
                    assert node == "board" and path[0] == f"queue:{who}" and board["queue"]
                    if entry["label"] == "stop boarding":
                        assert path == [f"queue:{who}"] and entry["choice"] == "Stop boarding"
                        assert f"{len(board['queue'])} stay in the queue" in hint
                    else:
                        assert path == [f"queue:{who}", f"bus:{who}:{move.bus}"] and entry["choice"] is None
                        check_bus_hint(hint, view, who, move.bus, board["queue"][0])
                        if who != view["proxy"]:  # BSB-SCORE-QUEUE: the head stops costing points
                            head = code_class(board["queue"][0], tile_sorts)
                            assert f"{6 if 5 <= head < 10 else 2} points less to lose" in hint
            # blocked targets are drawn things that say why, each with its rule ID
            for key, why in frame["blocked"].items():
                assert why and "(BSB-" in why, (key, why)
                name, *rest = key.split(":")
                if name == "tile":
                    assert node == "bid" and int(rest[0]) not in board["hand"]
                elif name == "passenger":
                    assert node == "place" and int(rest[0]) < len(board["received"])
                else:
                    assert name in ("bus", "queue") and int(rest[0]) == who
            if node == "place" and not board["buses"][2]["open"]:
                assert "BSB-EXTRA-BUS" in frame["blocked"][f"bus:{who}:2"]
    assert kinds == {"bid", "white", "place", "board"}


def test_a_frame_says_nothing_of_a_tile_chosen_face_down():
    """BSB-ROUND-BID: while a seat's tile is face down, every other seat's frame (moves, hints,
    blocked targets, heading, view) is the same whichever tile of its hand it chose."""
    checked = 0
    for table in TABLES:
        for state in play_states(table, 7 + table["players"]):
            if state.phase() != "bid":
                continue
            for owner, tile in enumerate(state.bids):
                if tile is None or owner == state.conductor:
                    continue  # not chosen yet, or face up
                for other in sorted(state.hands[owner]):
                    twin = state.clone()
                    twin.hands[owner] = (twin.hands[owner] - {other}) | {tile}
                    twin.bids[owner] = other
                    for seat in range(state.num_players):
                        if seat == owner:
                            continue
                        movable = seat == state.current_player()
                        a = json.dumps(board_frame(state, seat, movable=movable), sort_keys=True)
                        b = json.dumps(board_frame(twin, seat, movable=movable), sort_keys=True)
                        assert a == b, (table, seat, owner)
                        checked += 1
    assert checked > 500


def test_heading_names_the_round_the_conductor_and_the_rule():
    """The heading: the round, the conductor and the phase with its rule ID; at the end, BSB-WIN."""
    adapter = adapter_for("busstop")
    state = load_game("busstop", players=3).new_initial_state()
    assert adapter.heading(state) == (
        "Round 1 of 10 · conductor Seat 0 · the conductor lines up passengers [BSB-ROUND-LINEUP]"
    )
    for label in ("Gi", "Gi", "ET"):
        state.apply_action(state.string_to_action(label))
    assert adapter.heading(state).endswith(
        "choosing tiles: the conductor face up, the others face down [BSB-ROUND-BID]"
    )
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert adapter.heading(state) == (
        "Game over after round 10: highest total wins, ties to the fewest ETs [BSB-WIN]"
    )


def test_placement_paths_and_blocked_targets_of_a_scripted_round():
    """BSB-ROUND-TAKE, BSB-BOARD-SORT, BSB-QUEUE: seat 0 conducts with tile 1 (P1: q1's girl and a
    white pick); a girl and a baby to place: the baby's bus is blocked once the girl rides it; an
    ET may not queue (BSB-QUEUE)."""
    state = load_game("busstop", players=3).new_initial_state()
    for label in ("Gi", "ET", "Gi", "tile 1", "tile 5", "tile 6", "take Seat 0's tile", "take Seat 1's tile"):
        state.apply_action(state.string_to_action(label))
    frame = board_frame(state, 0, movable=True)
    paths = {m["label"]: m["path"] for m in frame["moves"]}
    assert paths == {
        "baby to bus 1": ["passenger:1", "bus:0:0"],
        "baby to bus 2": ["passenger:1", "bus:0:1"],
        "baby to queue": ["passenger:1", "queue:0"],
        "girl to bus 1": ["passenger:0", "bus:0:0"],
        "girl to bus 2": ["passenger:0", "bus:0:1"],
        "girl to queue": ["passenger:0", "queue:0"],
    }
    assert set(frame["blocked"]) == {"bus:0:2"}
    state.apply_action(state.string_to_action("girl to bus 1"))
    frame = board_frame(state, 0, movable=True)
    assert frame["blocked"]["bus:0:0"] == "bus 1 carries girls: a baby may not board it (BSB-BOARD-SORT)"
