"""Parameters of the wrong type are refused, for every boolean and choice parameter of every game.

``1`` is not ``True``, ``5.0`` is not ``5`` and ``"Pyramid"`` is not ``"pyramid"``: a value is
allowed only when it has the type of an allowed value too, so two games that compare equal also
hash alike and save alike. The message names the parameter and what is allowed.
"""

from __future__ import annotations

import re

import pytest

import bus_lab
from bus_lab import ParameterError

GAMES = ("ride_the_bus", "bus_and_stop", "busstop", "bus_city")


def _choice_params():
    for name in GAMES:
        for param in bus_lab.engine.registry.game_class(name).PARAMS:
            if param.choices is not None:
                yield name, param


def _wrong_types(choice):
    """Values equal to ``choice`` or close to it, but of another type."""
    if isinstance(choice, bool):
        return [int(choice), float(choice), str(choice), str(choice).lower()]
    if isinstance(choice, int):
        return [float(choice), str(choice)] + ([True] if choice == 1 else [])
    if isinstance(choice, str):
        return [choice.upper(), choice.encode(), [choice], 0]
    return [0, False, "None", "null"]  # None


CASES = [
    pytest.param(name, param, bad, id=f"{name}-{param.name}={bad!r}")
    for name, param in _choice_params()
    for choice in param.choices
    for bad in _wrong_types(choice)
]


def test_every_game_has_boolean_and_choice_parameters_to_check():
    names = {(name, param.name) for name, param in _choice_params()}
    assert names == {
        ("ride_the_bus", "board"),
        ("ride_the_bus", "row_points"),
        ("ride_the_bus", "bus"),
        ("ride_the_bus", "mode"),
        ("ride_the_bus", "ties"),  # the house rules, RTB-HR-*
        ("ride_the_bus", "inside"),
        ("ride_the_bus", "aces"),
        ("ride_the_bus", "pyramid_order"),
        ("ride_the_bus", "played_cards"),
        ("bus_and_stop", "final_round"),
        ("bus_and_stop", "leftover_penalty"),
        ("busstop", "passenger_bonus"),
        ("busstop", "end_bonus"),
        ("bus_city", "challenging"),
        ("bus_city", "empty_speed"),
    }


@pytest.mark.parametrize("name, param, bad", CASES)
def test_a_choice_of_the_wrong_type_is_refused_naming_the_parameter_and_the_choices(name, param, bad):
    with pytest.raises(ParameterError) as info:
        bus_lab.load_game(name, **{param.name: bad})
    message = str(info.value)
    assert message.startswith(f"{param.name}={bad!r} is not allowed")
    assert "use one of " + ", ".join(repr(c) for c in param.choices) in message


@pytest.mark.parametrize(
    "name, params, allowed",
    [
        ("busstop", {"passenger_bonus": 1}, "one of False, True"),
        ("busstop", {"end_bonus": 0}, "one of False, True"),
        ("bus_city", {"challenging": 1}, "one of False, True"),
        ("bus_city", {"empty_speed": 5.0}, "one of None, 5"),
        ("bus_and_stop", {"leftover_penalty": 1}, "one of False, True"),
        ("ride_the_bus", {"board": "Pyramid"}, "one of 'pyramid', 'give_and_take'"),
    ],
)
def test_the_cases_teachers_meet(name, params, allowed):
    """The values a notebook is most likely to pass by mistake, one by one."""
    (key, value), *_ = params.items()
    with pytest.raises(ParameterError, match=re.escape(f"{key}={value!r} is not allowed: use {allowed}")):
        bus_lab.load_game(name, **params)


@pytest.mark.parametrize("value", [1, 0])
def test_an_int_for_a_boolean_says_its_type_is_the_problem(value):
    """An int equal to an allowed bool is refused for its type, and the message says so."""
    with pytest.raises(ParameterError, match=r"\(a int is not accepted\)|\(an int is not accepted\)"):
        bus_lab.load_game("busstop", passenger_bonus=value)


BOUNDED = [
    ("ride_the_bus", "players", 4, "an integer from 2 to 8"),  # classic mode: 2 to 8
    ("ride_the_bus", "streak", 5, "an integer from 3 to 7"),
    ("bus_and_stop", "players", 3, "an integer from 2 to 4"),
    ("busstop", "players", 4, "an integer from 2 to 5"),
    ("bus_city", "players", 2, "an integer from 2 to 3"),
    ("bus_city", "max_rounds", 50, "an integer from 1 to 100"),
]


@pytest.mark.parametrize("name, key, good, allowed", BOUNDED, ids=[f"{b[0]}-{b[1]}" for b in BOUNDED])
@pytest.mark.parametrize("kind", ["float", "bool", "str"])
def test_a_number_of_the_wrong_type_is_refused(name, key, good, allowed, kind):
    """``players=4.0``, ``players=True`` and ``players="4"`` are refused; the integer is accepted."""
    bad = {"float": float(good), "bool": True, "str": str(good)}[kind]
    with pytest.raises(ParameterError) as info:
        bus_lab.load_game(name, **{key: bad})
    message = str(info.value)
    assert message.startswith(f"{key}={bad!r} is not allowed")
    assert f"use {allowed}" in message
    assert bus_lab.load_game(name, **{key: good}).params[key] == good


def test_ride_the_bus_players_in_the_gauntlet_are_checked_by_type_too():
    """In the solo gauntlet 1 to 8 players are allowed, still only as integers."""
    assert bus_lab.load_game("ride_the_bus", mode="gauntlet", players=1).params["players"] == 1
    for bad in (1.0, True, "1"):
        with pytest.raises(
            ParameterError, match=re.escape(f"players={bad!r} is not allowed: use an integer from 1 to 8")
        ):
            bus_lab.load_game("ride_the_bus", mode="gauntlet", players=bad)


def test_the_right_types_are_accepted_and_compare_equal():
    for name, param in _choice_params():
        for choice in param.choices:
            game = bus_lab.load_game(name, **{param.name: choice})
            assert game.params[param.name] == choice and type(game.params[param.name]) is type(choice)
            twin = bus_lab.load_game(name, **{param.name: choice})
            assert game == twin and hash(game) == hash(twin)
