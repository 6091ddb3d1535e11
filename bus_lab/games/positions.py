"""Positions a teacher sets up: the shared checking of a position dict.

Each game with positions has a ``positions`` module with a JSON Schema of its position (the
shape: keys, types, ranges, list lengths) and named cross-field checks (a card twice, a bus over
its seats). :class:`PositionFormat` checks a position against the schema and turns every problem
into one :class:`~bus_lab.engine.errors.PositionError` message shape::

    Bus & Stop position, field seats[1].bus: 11 passengers, but a bus has 10 seats

A missing key says what it should be: ``field seat: is missing (it should be a whole number
from 0 to 3)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bus_lab.engine.errors import PositionError
from bus_lab.games.sheets import _first, _Validator, describe_error, field_path, schema_words

__all__ = ["PositionFormat", "PositionError"]


class PositionFormat:
    """One game's position: its title (for messages) and JSON Schema.

    Args:
        title (str): the game's title (``"Bus & Stop"``), the start of every message.
        schema (dict): JSON Schema (draft 2020-12) of the position dict.
    """

    def __init__(self, title: str, schema: dict[str, Any]) -> None:
        _Validator.check_schema(schema)
        self.title = title
        self.schema = schema
        self._validator = _Validator(schema)

    def error(self, path: Iterable[str | int], problem: str) -> PositionError:
        """``PositionError("Bus & Stop position, field seats[1].bus: ...")`` (no field: the whole
        position)."""
        field = field_path(path)
        where = f", field {field}" if field else ""
        return PositionError(f"{self.title} position{where}: {problem}")

    def check(self, position: Any) -> dict[str, Any]:
        """``position`` if it fits the schema.

        Raises:
            PositionError: the first problem (nearest the top): the field and what it should be.
        """
        if not isinstance(position, Mapping):
            raise self.error((), f"a position is a dict, not {type(position).__name__}")
        error = _first(self._validator.iter_errors(dict(position)))
        if error is None:
            return dict(position)
        path, problem = describe_error(error)
        if error.validator == "required":
            sub = _subschema(self.schema, path)
            if sub is not None:
                problem += f" (it should be {schema_words(sub)})"
        raise self.error(path, problem)


def _subschema(schema: Mapping[str, Any], path: tuple[str | int, ...]) -> Mapping[str, Any] | None:
    """The schema of the value at ``path`` (object keys and list items only), or ``None``."""
    node: Any = schema
    for part in path:
        if isinstance(part, int):
            node = node.get("items") if isinstance(node, Mapping) else None
        else:
            node = node.get("properties", {}).get(part) if isinstance(node, Mapping) else None
        if node is None:
            return None
    return node
