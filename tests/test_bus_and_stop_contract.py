"""Bus & Stop and the engine contract: named bots that pickle, typed moves, notation, phases and
the documented shape of ``view(seat)``."""

from __future__ import annotations

import pickle

import pytest

import bus_lab
from bus_lab.games.bus_and_stop import BusAndStopGame

BOT_NAMES = sorted(BusAndStopGame().policies())


@pytest.mark.parametrize("bots", BOT_NAMES)
def test_a_session_with_named_bots_pickles_and_plays_on_identically(bots):
    session = bus_lab.Session(bus_lab.load_game("bus_and_stop"), seed=1, bots=bots)
    for _ in range(40):
        session.step()
    copy = pickle.loads(pickle.dumps(session))
    assert copy.state.history() == session.state.history()
    session.run_to_end()
    copy.run_to_end()
    assert session.state.is_terminal()
    assert copy.state.history() == session.state.history()
    assert copy.state.returns() == session.state.returns()
    assert [e.text for e in copy.state.events()] == [e.text for e in session.state.events()]


@pytest.mark.parametrize("bots", BOT_NAMES)
def test_a_fresh_session_with_named_bots_pickles(bots):
    session = bus_lab.Session(bus_lab.load_game("bus_and_stop"), seed=1, bots=bots)
    copy = pickle.loads(pickle.dumps(session))
    session.run_to_end()
    copy.run_to_end()
    assert copy.state.history() == session.state.history()
