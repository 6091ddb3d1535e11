"""The public view of every game (``state.public_view()``: what a class table's projector shows).

It must reveal nothing that any single seat's view hides:

* Ride the Bus, Bus & Stop and BUS: every card is face up and a seat's view hides only the deck's
  order, so the public view is every seat's view (apart from ``viewer``, which is ``None``).
* Busstop (BSB-ROUND-BID): a tile chosen face down is hidden from the other seats until the
  reveal. The public view shows each participant's tile and board as a seat that is NOT its owner
  sees them, and whichever tile was chosen face down, the public view is the same (swap test).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bus_lab import Session, load_game
from bus_lab.engine.core import State

MAX_STEPS = 3000

ALL_FACE_UP = [
    ("ride_the_bus", {"players": 3}),
    ("ride_the_bus", {"players": 3, "board": "give_and_take", "bus": "questions"}),
    ("ride_the_bus", {"players": 2, "mode": "gauntlet"}),
    ("bus_and_stop", {"players": 2}),
    ("bus_and_stop", {"players": 3, "final_round": "full_turn"}),
    ("bus_city", {"players": 2}),
    ("bus_city", {"players": 3, "challenging": True}),
]
BUSSTOP = [{"players": 2}, {"players": 3}, {"players": 5, "passenger_bonus": True, "end_bonus": True}]


def states(game: str, options: dict[str, Any], seed: int) -> list[State]:
    """Every state of a game played by random bots from ``seed``."""
    session = Session(load_game(game, **options), seed=seed, bots="random")
    out = [session.state]
    for _ in range(MAX_STEPS):
        if session.step() is None:
            break
        out.append(session.state)
    assert out[-1].is_terminal()
    return out


def without_viewer(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "viewer"}


@pytest.mark.parametrize(("game", "options"), ALL_FACE_UP)
@pytest.mark.parametrize("seed", [1, 2])
def test_the_public_view_of_an_all_face_up_game_is_every_seats_view(game, options, seed):
    for state in states(game, options, seed):
        public = state.public_view()
        assert public["viewer"] is None
        for seat in range(state.get_game().num_players):
            assert without_viewer(state.view(seat)) == without_viewer(public)


def test_the_base_state_has_no_public_view():
    """A game without its own public view refuses rather than showing every card."""
    state = State(load_game("ride_the_bus"))
    with pytest.raises(NotImplementedError):
        state.public_view()


@pytest.mark.parametrize("options", BUSSTOP)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_busstop_public_view_shows_each_tile_as_the_other_seats_see_it(options, seed):
    """BSB-ROUND-BID: the public view is, participant by participant, what a seat other than the
    owner sees; the rest of the table is what every seat sees."""
    hidden_seen = 0
    for state in states("busstop", options, seed):
        public = state.public_view()
        views = [state.view(seat) for seat in range(state.num_players)]
        spectator = state.view(None)
        assert public["viewer"] is None
        for key, value in public.items():
            if key in ("viewer", "bids", "boards"):
                continue
            assert all(view[key] == value for view in views), key
        for k in range(state.participants):
            others = [view for seat, view in enumerate(views) if seat != k]
            for view in others:
                assert view["bids"][k] == public["bids"][k]
                assert view["boards"][k] == public["boards"][k]
            if public["bids"][k]["state"] == "hidden":
                hidden_seen += 1
                assert spectator["bids"][k]["state"] == "shown"  # the spectator sees it: not public
    assert hidden_seen >= 5, "too few face-down tiles seen"


def twin_states(seed: int, players: int) -> list[tuple[State, State, int]]:
    """Pairs of positions that differ only in the tile one participant chose face down (the same
    actions before and after that choice), with that participant."""
    session = Session(load_game("busstop", players=players), seed=seed, bots="random")
    session.run_to_end()
    history = session.state.history()
    pairs = []
    rng = random.Random(seed)
    for index in range(len(history)):
        before = session.state_at(index)
        if before.is_chance_node() or before.is_terminal():
            continue
        acting = before.acting_participant()
        after = session.state_at(index + 1)
        if (
            after.view(None)["bids"][acting]["tile"] is None
            or before.view(None)["bids"][acting]["tile"] is not None
        ):
            continue  # not the choice of a tile
        for other_action in rng.sample(before.legal_actions(), len(before.legal_actions())):
            if other_action == history[index]:
                continue
            other = before.clone()
            other.apply_action(other_action)
            mine = after.clone()
            for action in [None, *history[index + 1 : index + 4]]:
                if action is not None:
                    try:
                        other.apply_action(action)
                    except Exception:  # a later choice that depended on this one
                        break
                    mine.apply_action(action)
                if mine.view(None)["bids"][acting] != other.view(None)["bids"][acting]:
                    pairs.append((mine.clone(), other.clone(), acting))
            break
    return pairs


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_busstop_public_view_is_the_same_whichever_tile_was_chosen_face_down(players):
    """Swap test (BSB-ROUND-BID): two positions that differ only in a face-down tile have the same
    public view while that tile is hidden from the other seats."""
    compared = 0
    for seed in (1, 2):
        for mine, other, owner in twin_states(seed, players):
            if mine.public_view()["bids"][owner]["state"] != "hidden":
                continue
            compared += 1
            assert mine.public_view() == other.public_view()
            for seat in range(players):
                if seat != owner:
                    assert mine.view(seat) == other.view(seat)
    assert compared >= 3
