"""The shape of Busstop's ``view(seat)``: exactly the TypedDicts of :mod:`bus_lab.games.busstop.views`,
for every option set, every seat, the spectator and the public view, at every state of seeded games."""

from __future__ import annotations

import functools
import types
import typing

import pytest
from test_busstop_contract import ALL_PARAMS, walk

from bus_lab import load_game
from bus_lab.games.busstop.phases import BusstopPhase
from bus_lab.games.busstop.views import BusstopView


@functools.cache
def _hints(typed_dict) -> dict:
    return typing.get_type_hints(typed_dict)


def _check(value, hint, where: str) -> None:
    """``value`` has exactly the type ``hint`` (TypedDicts key by key; bool is not an int)."""
    origin = typing.get_origin(hint)
    if hint is type(None):
        assert value is None, where
    elif origin in (typing.Union, types.UnionType):
        errors = []
        for option in typing.get_args(hint):
            try:
                _check(value, option, where)
                return
            except AssertionError as exc:
                errors.append(exc)
        raise AssertionError(f"{where}: {value!r} is none of {hint}")
    elif origin is typing.Literal:
        assert value in typing.get_args(hint), where
    elif origin is list:
        assert type(value) is list, where
        for i, item in enumerate(value):
            _check(item, typing.get_args(hint)[0], f"{where}[{i}]")
    elif origin is dict:
        assert type(value) is dict, where
        key_type, value_type = typing.get_args(hint)
        for key, item in value.items():
            _check(key, key_type, f"{where} key")
            _check(item, value_type, f"{where}[{key!r}]")
    elif typing.is_typeddict(hint):
        assert type(value) is dict, where
        hints = _hints(hint)
        assert set(value) == set(hints), f"{where}: keys {sorted(set(value) ^ set(hints))}"
        for key, key_hint in hints.items():
            _check(value[key], key_hint, f"{where}.{key}")
    else:
        assert type(value) is hint, f"{where}: {value!r} is not a {hint.__name__}"


@pytest.mark.parametrize("params", ALL_PARAMS, ids=str)
def test_view_shape_for_every_seat_and_phase(params):
    """view(seat) matches BusstopView exactly, for every seat and the spectator at every state."""
    phases = set()
    for state in walk(load_game("busstop", **params), seed=1, bots="greedy"):
        phases.add(state.phase())
        for seat in [None, *range(params["players"])]:
            _check(state.view(seat), BusstopView, f"view({seat})")
        _check(state.public_view(), BusstopView, "public_view()")
    expected = set(BusstopPhase) | {None}
    if params["players"] > 2:
        expected -= {BusstopPhase.PROXY_BID, BusstopPhase.PROXY_REVEAL}
    assert phases == expected
