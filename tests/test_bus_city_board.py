"""The BUS board adapter, checked at many positions of seeded games of every table setting.

Every legal move must be made by tapping things the board draws from the view (street cards of
``view["grid"]``, face-up cards of ``view["faceup"]``, the deck); several routes to one card are
distinct choices whose drop-offs are worked out here again from the view (BUS-DROPOFF, BUS-CH-SIDE);
the blocked targets are drawn targets with no legal move, each with a reason.
"""

from __future__ import annotations

import random
import re

import pytest

from bus_lab import Session, load_game
from bus_lab.board.adapters.bus_city import ADAPTER
from bus_lab.board.frame import board_frame
from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city.moves import Drive

SETTINGS = [
    {"players": 2},
    {"players": 3},
    {"players": 2, "challenging": True},
    {"players": 3, "challenging": True},
    {"players": 2, "empty_speed": 5},
    {"players": 3, "empty_speed": 5, "challenging": True},
]

#: The side on a bus's right for each heading: buses drive on the right (BUS-CH-SIDE).
RIGHT_HAND = {"E": "S", "W": "N", "S": "W", "N": "E"}


def drawn_keys(view: dict) -> set[str]:
    """Every target the drawer marks: the 12 street cards, the face-up cards and the deck."""
    keys = {f"slot:{e['slot']}" for e in view["grid"]}
    keys |= {f"faceup:{c['id']}" for c in view["faceup"]}
    return keys | {"deck"}


def expected_drops(view: dict, seat: int, route: list[str]) -> list[str]:
    """The colours dropped off along ``route`` (node labels entered, e.g. ``"b1-b2 S"``), worked
    out from the view: a destination card entered drops every waiting passenger of its colour
    (BUS-DROPOFF), in challenging play only from the right-hand side (BUS-CH-SIDE)."""
    grid = {e["slot"]: e for e in view["grid"]}
    waiting = set(view["seats"][seat]["waiting"])
    dropped = []
    for label in route:
        slot, heading = label.split()
        card = grid[slot]
        if card["symbol"] != "destination" or card["colour"] not in waiting:
            continue
        if view["options"]["challenging"] and card["side"] != RIGHT_HAND[heading]:
            continue
        waiting.discard(card["colour"])
        dropped.append(card["colour"])
    return dropped


def expected_points(view: dict, seat: int, drops: list[str]) -> int:
    """Points of the cards the drop-offs complete (BUS-PROGRESS, BUS-SCORE), from the view."""
    points = 0
    for card in view["seats"][seat]["picked_up"] + view["seats"][seat]["half"]:
        if all(c in card["dropped"] or c in drops for c in card["colours"]):
            points += card["value"]
    return points


def positions(setting: dict, seed: int, every: int = 1):
    """The seat-decision positions of one random game (every ``every``-th)."""
    session = Session(load_game("bus_city", **setting), seed=seed, bots={})
    rng = random.Random(seed)
    count = 0
    while not session.state.is_terminal():
        state = session.state
        if state.is_chance_node():
            session.step()
            continue
        if count % every == 0:
            yield state
        count += 1
        session.play(rng.choice(state.legal_actions()))


def check_position(state) -> None:
    frame = board_frame(state, None, movable=True)
    view = frame["view"]
    keys = drawn_keys(view)
    seat = state.current_player()
    moves = {m.action: m for m in state.legal_moves()}
    assert len(frame["moves"]) == len(moves) > 0
    used = set()
    for entry in frame["moves"]:
        # every key of every path is something the view shows
        assert entry["path"] or entry["kind"] == "pass", entry
        assert set(entry["path"]) <= keys, entry
        used |= set(entry["path"])
    # moves with the same path are told apart by their choices, and a path that is also the
    # beginning of a longer one (turn a card / swap it) is a choice, never a bare tap
    by_path: dict[tuple, list[dict]] = {}
    for entry in frame["moves"]:
        by_path.setdefault(tuple(entry["path"]), []).append(entry)
    for path, entries in by_path.items():
        choices = [e["choice"] for e in entries]
        assert len(set(choices)) == len(choices), (path, choices)
        if len(entries) > 1:
            assert None not in choices, (path, choices)
        longer = any(len(p) > len(path) and p[: len(path)] == path for p in by_path)
        if longer:
            assert None not in choices, path
    # the drives: each choice's drop-offs, and its points, computed again from the view
    for entry in frame["moves"]:
        move = moves[entry["action"]]
        if not isinstance(move, Drive):
            continue
        route = [G.node_label(n) for n in move.route]
        drops = expected_drops(view, seat, route)
        assert entry["path"] == [f"slot:{G.SLOTS[move.slot].name}"]
        assert sorted(drops) == sorted(move.drops)
        said = (entry["choice"] or entry["hint"]).split("drops off ")[1].split(" (BUS")[0].split(";")[0]
        assert sorted(said.split(", ")) == (sorted(drops) or ["nobody"]), (said, drops)
        points = expected_points(view, seat, drops)
        if points:
            assert f"+{points} point" in entry["hint"], entry["hint"]
        else:
            assert "completes" not in entry["hint"]
        assert f"{len(route)} step" in entry["hint"]
    # nothing said names a card in the deck (its make-up and order are hidden)
    hidden = {state.sheet.passengers[c].id for c in state.deck}
    said = [e["hint"] or "" for e in frame["moves"]] + [e["choice"] or "" for e in frame["moves"]]
    said += list(frame["blocked"].values()) + [frame["heading"]]
    assert not any(card in text for card in hidden for text in said)
    # blocked: drawn targets that no legal move uses, each with a reason
    blocked = frame["blocked"]
    assert set(blocked) <= keys - used, set(blocked) & used
    assert all(isinstance(why, str) and len(why) > 10 for why in blocked.values())
    if state.decision_kind().value in ("move", "place", "construction"):
        slots = {f"slot:{e['slot']}" for e in view["grid"]}
        assert slots - used == {k for k in blocked if k.startswith("slot:")}
    if state.decision_kind().value == "move":
        reach = {f"slot:{s}" for s in view["reachable"]}
        assert reach == {k for k in used if k.startswith("slot:")}
        for key in slots - reach:
            assert re.search(r"BUS-(SPEED|MOVE-END)", blocked[key]), blocked[key]


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: "-".join(f"{k}={v}" for k, v in s.items()))
def test_every_move_is_made_on_things_the_board_draws(setting):
    """BUS-MOVE, BUS-DROPOFF, BUS-START, BUS-PICKUP, BUS-CONSTRUCTION, BUS-CH-ROTATE: at every
    decision of two random games per setting, all the checks of :func:`check_position` hold."""
    seen = set()
    for seed in (1, 2):
        for state in positions(setting, seed, every=3):
            check_position(state)
            seen.add(state.decision_kind().value)
    assert seen == {"place", "start_pick", "move", "pickup", "construction"}


def test_several_routes_to_one_card_are_offered_in_a_seeded_game():
    """BUS-DROPOFF: in seeded games some card is reached, with one heading, by routes dropping off
    different passengers: each is a choice at that card naming its own drop-offs (worked out here
    from the view), and no two choices are alike."""
    for seed in range(1, 6):
        for state in positions({"players": 3}, seed):
            frame = board_frame(state, None, movable=True)
            moves = {m.action: m for m in state.legal_moves()}
            ends: dict[tuple, list[dict]] = {}
            for entry in frame["moves"]:
                move = moves[entry["action"]]
                if isinstance(move, Drive):
                    ends.setdefault((move.slot, move.heading), []).append(entry)
            for (slot, heading), entries in ends.items():
                if len(entries) < 2:
                    continue
                at_card = [e for e in frame["moves"] if e["path"] == [f"slot:{G.SLOTS[slot].name}"]]
                choices = [e["choice"] for e in at_card]
                assert None not in choices and len(set(choices)) == len(choices)
                for entry in entries:
                    route = [G.node_label(n) for n in moves[entry["action"]].route]
                    drops = expected_drops(frame["view"], state.current_player(), route)
                    head, said = entry["choice"].split(": drops off ")
                    assert head.endswith(f"(heading {G.SLOTS[slot].heading_name(heading)})")
                    assert sorted(said.split(", ")) == (sorted(drops) or ["nobody"])
                    assert entry["choice"].startswith("via " if len(route) > 1 else "direct")
                assert len({e["choice"].split(": drops off ")[1] for e in entries}) == len(entries)
                return
    pytest.fail("no card reached by routes with different drop-offs in five seeded games")


def test_heading_and_consequences_cite_rules():
    """BUS-TURN, BUS-SPEED, BUS-PICKUP: every heading cites a rule, and so does every hint."""
    for state in positions({"players": 2, "challenging": True}, 5, every=2):
        heading = ADAPTER.heading(state)
        assert re.search(r"\[BUS-[A-Z-]+", heading), heading
        for move in state.legal_moves():
            hint = ADAPTER.consequence(state, move)
            assert hint and re.search(r"BUS-[A-Z-]+", hint), (move, hint)
