"""bus_lab's games in other libraries: OpenSpiel (:mod:`bus_lab.interop.openspiel`) and PettingZoo
(:mod:`bus_lab.interop.pettingzoo`).

Both are optional (``pip install bus_lab[interop]``): this package imports neither until one of its
modules is imported, so ``import bus_lab`` works without them.
"""

from __future__ import annotations

from typing import Any

from bus_lab.engine.core import Param

__all__ = ["flat_params", "from_flat_params", "flat_spec"]

#: What a flat parameter stands for when its value is ``None`` in bus_lab: OpenSpiel's parameters
#: are ``bool``, ``int``, ``float`` or ``str``, never ``None``.
_NONE_INT = 0
_NONE_STR = ""


def _none_stands_for(param: Param) -> int | str:
    """The flat value standing for ``None``: ``0`` for a parameter whose other values are
    integers (``empty_speed``), ``""`` otherwise (``sheet``: the built-in sheet)."""
    others = [c for c in (param.choices or ()) if c is not None]
    if others and all(isinstance(c, int) and not isinstance(c, bool) for c in others):
        return _NONE_INT
    return _NONE_STR


def flat_spec(params: tuple[Param, ...]) -> dict[str, Any]:
    """The defaults of a game's parameters as a flat dict of ``bool``/``int``/``str``.

    ``None`` becomes ``0`` for an integer option (``empty_speed=0``: no limit) and ``""`` for the
    others (``sheet=""``: the built-in sheet; any other string is the path of a sheet file).
    """
    return {p.name: _none_stands_for(p) if p.default is None else p.default for p in params}


def from_flat_params(params: tuple[Param, ...], flat: dict[str, Any]) -> dict[str, Any]:
    """bus_lab's keyword arguments for a flat parameter dict (the inverse of :func:`flat_params`):
    the stand-in values of :func:`flat_spec` become ``None``; every other value is kept."""
    specs = {p.name: p for p in params}
    out: dict[str, Any] = {}
    for name, value in flat.items():
        spec = specs.get(name)
        if spec is not None and spec.default is None and value == _none_stands_for(spec):
            value = None
        out[name] = value
    return out


def flat_params(params: tuple[Param, ...], values: dict[str, Any]) -> dict[str, Any]:
    """A flat dict for bus_lab parameter values (``None`` as its stand-in). A sheet given as a dict
    has no flat form: pass it as the path of a JSON file instead.

    Raises:
        ValueError: a value that has no flat form (a dict sheet).
    """
    specs = {p.name: p for p in params}
    out: dict[str, Any] = {}
    for name, value in values.items():
        spec = specs.get(name)
        if value is None and spec is not None:
            value = _none_stands_for(spec)
        elif isinstance(value, dict):
            raise ValueError(f"{name}=<dict> has no flat form: save it to a JSON file and pass its path")
        out[name] = value
    return out
