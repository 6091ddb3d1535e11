"""The game-agnostic engine: Param checks, the registry, events, errors and the light import."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest

import bus_lab
from bus_lab import (
    BusLabError,
    Event,
    IllegalActionError,
    OptionNotBuiltError,
    ParameterError,
    UnknownGameError,
    load_game,
    registered_games,
    state_from_dict,
)
from bus_lab.engine import Param, registry


# -- Param ------------------------------------------------------------------------------------
def test_param_choices():
    p = Param("board", "pyramid", choices=("pyramid", "give_and_take"))
    assert p.check("pyramid") == "pyramid" and p.check("give_and_take") == "give_and_take"
    assert p.allowed_text() == "one of 'pyramid', 'give_and_take'"
    with pytest.raises(ParameterError) as info:
        p.check("tower")
    assert str(info.value) == "board='tower' is not allowed: use one of 'pyramid', 'give_and_take'"


def test_param_bounds():
    p = Param("streak", 5, bounds=(3, 7))
    assert [p.check(v) for v in (3, 5, 7)] == [3, 5, 7]
    assert p.allowed_text() == "an integer from 3 to 7"
    with pytest.raises(ParameterError, match=r"streak=8 is out of range: use an integer from 3 to 7"):
        p.check(8)
    with pytest.raises(ParameterError, match=r"streak=2 is out of range"):
        p.check(2)
    for bad in (True, False, 5.0, "5", None):
        with pytest.raises(ParameterError, match="is not allowed: use an integer from 3 to 7"):
            p.check(bad)


def test_param_built():
    p = Param("bus", "higher_lower", choices=("higher_lower", "questions"), built=("higher_lower",))
    assert p.check("higher_lower") == "higher_lower"
    with pytest.raises(OptionNotBuiltError) as info:
        p.check("questions")
    assert isinstance(info.value, NotImplementedError) and isinstance(info.value, BusLabError)
    assert "bus='questions'" in str(info.value) and "'higher_lower'" in str(info.value)
    with pytest.raises(ParameterError):  # not an allowed value at all: a ParameterError first
        p.check("train")


def test_param_free_value():
    p = Param("name", "x")
    assert p.allowed_text() == "any value" and p.check(object) is object


# -- Game ---------------------------------------------------------------------------------------
def test_game_defaults_equality_and_repr():
    game = load_game("ride_the_bus")
    assert game.params == {
        "players": 4,
        "board": "pyramid",
        "row_points": "escalating",
        "bus": "higher_lower",
        "streak": 5,
        "mode": "classic",
    }
    assert game.num_players == 4
    assert game == load_game("ride_the_bus", players=4)
    assert game != load_game("ride_the_bus", players=3)
    assert hash(game) == hash(load_game("ride_the_bus", streak=5))
    assert repr(game).startswith("load_game('ride_the_bus', players=4")
    assert eval(repr(game), {"load_game": load_game}) == game


def test_game_unknown_parameter_lists_the_allowed_ones():
    with pytest.raises(ParameterError) as info:
        load_game("ride_the_bus", seats=4, colour="red")
    message = str(info.value)
    assert "colour, seats" in message
    for name in ("players", "board", "row_points", "bus", "streak", "mode"):
        assert name in message


def test_state_from_dict_checks_game_and_params():
    game = load_game("ride_the_bus", players=2)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    data = state.to_dict()
    assert data == {"game": "ride_the_bus", "params": game.params, "history": state.history()}
    assert state_from_dict(data).history() == state.history()
    with pytest.raises(ValueError, match="params"):
        load_game("ride_the_bus", players=3).state_from_dict(data)
    with pytest.raises(ValueError, match="game"):
        game.state_from_dict(dict(data, game="other"))
    with pytest.raises(IllegalActionError):
        game.state_from_dict(dict(data, history=[state.history()[0], 999]))


def test_why_illegal():
    state = load_game("ride_the_bus", players=2).new_initial_state()
    legal = state.legal_actions()
    assert state.why_illegal(legal[0]) is None and state.why_illegal(legal[0], seat=0) is None
    assert "seat 0's turn, not seat 1's" in state.why_illegal(legal[0], seat=1)
    assert "integer" in state.why_illegal("red")
    assert state.why_illegal(5) is not None


# -- registry -----------------------------------------------------------------------------------
def test_registry_lists_games():
    names = registered_games()
    assert "ride_the_bus" in names and names == sorted(names)
    assert load_game("ride_the_bus").name == "ride_the_bus"


@pytest.mark.parametrize("name", ["ride_the_tram", "", None, 3])
def test_unknown_game_lists_registered_names(name):
    with pytest.raises(UnknownGameError) as info:
        load_game(name)
    assert isinstance(info.value, ValueError)
    for known in registered_games():
        assert known in str(info.value)


def test_register_game(monkeypatch):
    monkeypatch.setitem(registry._REGISTRY, "ride_the_bus_copy", "bus_lab.games.ride_the_bus:RideTheBusGame")
    assert "ride_the_bus_copy" in registered_games()
    assert load_game("ride_the_bus_copy", players=3).num_players == 3
    registry.register_game("another_copy", "bus_lab.games.ride_the_bus:RideTheBusGame")
    try:
        assert "another_copy" in registered_games()
    finally:
        del registry._REGISTRY["another_copy"]
    assert "another_copy" not in registered_games()


# -- events and errors --------------------------------------------------------------------------
def test_event_to_dict_is_json_safe_and_a_copy():
    event = Event(rule="RTB-Q2", text="Seat 0 answers Q2.", step=6, data={"seat": 0, "guess": "higher"})
    as_dict = event.to_dict()
    assert as_dict == {
        "rule": "RTB-Q2",
        "text": "Seat 0 answers Q2.",
        "step": 6,
        "data": {"seat": 0, "guess": "higher"},
    }
    assert json.loads(json.dumps(as_dict)) == as_dict
    as_dict["data"]["seat"] = 9
    assert event.data["seat"] == 0
    assert str(event) == "[RTB-Q2] Seat 0 answers Q2."
    assert Event("RTB-Q1", "x").to_dict() == {"rule": "RTB-Q1", "text": "x", "step": 0, "data": {}}


def test_game_events_are_json_safe():
    session = bus_lab.Session(load_game("ride_the_bus", players=3), seed=2, bots="random")
    session.run_to_end()
    events = [e.to_dict() for e in session.state.events()]
    assert json.loads(json.dumps(events)) == events
    assert all(e["rule"].startswith("RTB-") and e["text"] for e in events)
    steps = [e["step"] for e in events]
    assert steps == sorted(steps) and steps[-1] == len(session.state.history()) - 1


def test_illegal_action_error_message():
    err = IllegalActionError(5, "not now", [100, 101], ["red", "black"])
    assert isinstance(err, ValueError) and isinstance(err, BusLabError)
    assert str(err) == "Illegal action 5: not now. Legal actions: 100 (red), 101 (black)."
    assert err.legal_actions == [100, 101] and err.labels == ["red", "black"] and err.reason == "not now"
    over = IllegalActionError("x", "the game is over", [], [])
    assert "There are no legal actions" in str(over)


def test_error_families():
    assert issubclass(ParameterError, ValueError) and issubclass(UnknownGameError, ValueError)
    assert issubclass(OptionNotBuiltError, NotImplementedError)
    assert not issubclass(OptionNotBuiltError, ValueError)


# -- light import -------------------------------------------------------------------------------
def test_import_bus_lab_is_light():
    """``import bus_lab`` (and loading a game and playing it) imports no ipywidgets, matplotlib
    or numpy."""
    code = (
        "import bus_lab, sys\n"
        "s = bus_lab.Session(bus_lab.load_game('ride_the_bus', players=2), seed=1, bots='best_odds')\n"
        "s.run_to_end()\n"
        "print(sorted(m for m in ('ipywidgets', 'matplotlib', 'numpy') if m in sys.modules))\n"
    )
    bare = subprocess.run(
        [
            sys.executable,
            "-c",
            "import bus_lab, sys; print(sorted(m for m in "
            "('ipywidgets', 'matplotlib', 'numpy') if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert bare.stdout.strip() == "[]"
    played = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert played.stdout.strip() == "[]"


# -- the contract's input checks (typed moves, seats, parameters, decks) ----------------------------


def test_a_move_is_an_immutable_value_with_its_action_and_label():
    import dataclasses
    import operator

    from bus_lab.engine import Move

    @dataclasses.dataclass(frozen=True)
    class Give(Move):
        seat: int
        kind = "give"

        @property
        def action(self) -> int:
            return 200 + self.seat

    move = Give(2, label="give to Seat 2")
    assert move.action == 202 and operator.index(move) == 202 and str(move) == "give to Seat 2"
    assert move == Give(2) and hash(move) == hash(Give(2))  # the label is not part of the value
    assert repr(Give(3)).startswith(
        "test_a_move_is_an_immutable_value_with_its_action_and_label.<locals>.Give("
    )
    assert str(Give(3)) == repr(Give(3))  # a move made by hand has no label
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.seat = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("name", "params", "bad"),
    [
        ("busstop", {"passenger_bonus": 1}, "passenger_bonus=1"),
        ("busstop", {"end_bonus": 0}, "end_bonus=0"),
        ("bus_city", {"challenging": 1}, "challenging=1"),
        ("bus_city", {"empty_speed": 5.0}, "empty_speed=5.0"),
        ("bus_and_stop", {"leftover_penalty": 1}, "leftover_penalty=1"),
        ("ride_the_bus", {"players": True}, "players=True"),
        ("ride_the_bus", {"players": 4.0}, "players=4.0"),
    ],
)
def test_parameters_of_the_wrong_type_are_refused_with_what_is_allowed(name, params, bad):
    with pytest.raises(bus_lab.ParameterError, match=re.escape(bad) + ".* not allowed"):
        bus_lab.load_game(name, **params)


def test_games_with_the_same_parameters_are_equal_and_hash_alike():
    assert bus_lab.load_game("bus_city", challenging=True) == bus_lab.load_game("bus_city", challenging=True)
    assert hash(bus_lab.load_game("bus_city", empty_speed=5)) == hash(
        bus_lab.load_game("bus_city", empty_speed=5)
    )


@pytest.mark.parametrize("deck", ["7H", 7, [7, "KD"], [None]])
def test_a_scripted_deck_that_is_not_a_list_of_labels_is_refused_up_front(deck):
    with pytest.raises(bus_lab.InputTypeError, match="deck"):
        bus_lab.Session("ride_the_bus", seed=1, deck=deck)


def test_seat_checks_name_what_is_expected():
    state = bus_lab.load_game("ride_the_bus", players=3).new_initial_state()
    assert state._check_seat(None) is None and state._check_seat(2) == 2
    assert state._check_seat(np.int64(1)) == 1 and type(state._check_seat(np.int64(1))) is int
    with pytest.raises(bus_lab.InputTypeError, match="a seat number, not None"):
        state._check_seat(None, spectator=False)
    with pytest.raises(bus_lab.ParameterError, match="no seat 3: seats are 0 to 2"):
        state._check_seat(3)
    with pytest.raises(bus_lab.ParameterError, match="no seat -1"):
        state._check_seat(-1)


@pytest.mark.parametrize("bad", ["red", None, 1.0, b"7H"])
def test_apply_action_of_something_that_is_not_an_action_is_a_type_error_too(bad):
    state = bus_lab.load_game("ride_the_bus", players=2).new_initial_state()
    with pytest.raises(bus_lab.engine.ActionTypeError) as caught:
        state.apply_action(bad)
    assert isinstance(caught.value, bus_lab.IllegalActionError) and isinstance(caught.value, TypeError)
    assert caught.value.legal_actions == state.legal_actions() and state.history() == []
    if isinstance(bad, str):
        assert "string_to_action('red')" in str(caught.value)
