"""Game-specific invariants of BUS (the city grid game), on top of the generic suite.

The generic suite (``test_invariants.py``) runs over ``bus_city`` as a registered game: every
option combination at 2 and 3 players and both ends of ``max_rounds``. It checks that winners are
among the best totals when a game breaks ties itself; this file checks the tie-break exactly
(BUS-WIN), the points against the complete cards (BUS-SCORE), and saving through the registry.
"""

from __future__ import annotations

import json

import pytest
import test_invariants as generic

import bus_lab
from bus_lab import Session
from bus_lab.games.bus_city import BusCityGame, default_sheet_dict


def check_scores_with_tie_break(state) -> None:
    """BUS-SCORE, BUS-WIN: points are the values of the complete cards; at the end the winners are
    the best totals narrowed to the most complete cards; before the end there are none."""
    returns = state.returns()
    for seat in range(len(returns)):
        assert returns[seat] == sum(state.sheet.passengers[c].value for c in state.complete[seat])
    if not state.is_terminal():
        assert state.winners() == []
        return
    tied = [s for s, r in enumerate(returns) if r == max(returns)]
    most = max(len(state.complete[s]) for s in tied)
    assert state.winners() == [s for s in tied if len(state.complete[s]) == most]


def test_bus_city_is_registered_with_its_options():
    """BUS-SETUP: ``load_game("bus_city", ...)`` makes the game; the generic suite sees its options."""
    assert "bus_city" in bus_lab.registered_games()
    assert bus_lab.load_game("bus_city", players=3, challenging=True) == BusCityGame(
        players=3, challenging=True
    )
    configs = [params for name, params in generic.CONFIGS if name == "bus_city"]
    assert {"players": 3, "challenging": True, "empty_speed": 5} in configs
    assert {"players": 3, "max_rounds": 1} in configs and {"players": 3, "max_rounds": 100} in configs


@pytest.mark.parametrize(
    "params", [dict(players=2), dict(players=3, challenging=True)], ids=["2p", "3p-challenging"]
)
def test_tie_break_at_every_state(params):
    """BUS-SCORE, BUS-WIN: the exact tie-break at every state of random and greedy games."""
    for seed, policy in ((1, "random"), (2, "greedy")):
        session = generic.playout(bus_lab.load_game("bus_city", **params), seed, policy)
        for i in range(len(session)):
            check_scores_with_tie_break(session.state_at(i))


def test_tie_breaks_happen_and_follow_bus_win():
    """BUS-WIN: among seeded greedy games some end tied on points, and the complete cards decide.
    Seeds are tried in turn until one such game has been seen (at most 200 games)."""
    decided = 0
    for seed in range(200):
        if decided:
            break
        state = generic.playout(BusCityGame(players=2), seed, "greedy").state
        check_scores_with_tie_break(state)
        returns = state.returns()
        if returns[0] == returns[1] and len(state.winners()) == 1:
            decided += 1
    assert decided >= 1


def test_session_json_round_trip_with_a_custom_sheet():
    """BUS-COMP-PASSENGERS: a session with a replaced sheet (a dict) saves and loads through the
    registry with the same history and view."""
    sheet = default_sheet_dict()
    sheet["title"] = "raised values"
    for card in sheet["passengers"]:
        card["value"] += 4
    session = Session(bus_lab.load_game("bus_city", players=2, sheet=sheet), seed=6, bots="greedy")
    session.run_to_end()
    again = Session.from_json(json.dumps(json.loads(session.to_json())))
    assert again.state.history() == session.state.history()
    assert again.state.view() == session.state.view()
    assert again.game.sheet.title == "raised values"
    for seat in range(2):  # every complete card scores the raised value from the dict
        assert again.state.returns()[seat] == sum(
            sheet["passengers"][c]["value"] for c in again.state.complete[seat]
        )
