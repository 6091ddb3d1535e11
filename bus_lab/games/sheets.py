"""Component sheets: reading a sheet file, checking it against its JSON Schema, and errors that name
the field.

Three games (Bus & Stop, Busstop, BUS) keep the counts and values of their published components in
a *component sheet*: a JSON file shipped with the game, which a teacher may replace with
``load_game(name, sheet="my.json")`` or ``sheet={...}``. Each game describes its sheet with

* a JSON Schema (draft 2020-12) for the shape: fields, types, ranges, list lengths, allowed words;
* a ``build`` function that turns checked data into the game's ``Sheet`` object and makes the few
  checks a schema cannot express (sums, references between fields), raising :class:`SheetProblem`.

:class:`SheetFormat` ties them together. Every problem, from the file to the last cross-field
check, raises :class:`ComponentSheetError` with one message shape::

    component sheet 'my.json', field stacks[2].cards[0].points: must be ..., not ...

(``component sheet, field ...`` for a sheet given as a dict). Two extra words in a schema shape
the messages: ``"title"`` names what an object is (``"a stack"``, in "is not a field of a stack")
and ``"x-expected"`` says in words what a value must be when the schema's own words would not do.
In a whole number field, ``1.0`` and ``true`` are not whole numbers.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from bus_lab.engine.errors import ParameterError

SheetSource = Any  # None, a path (str or os.PathLike), a mapping, or a game's Sheet


class ComponentSheetError(ParameterError):
    """A component sheet that cannot be used. The message names the file (when the sheet came from a
    file), the field (e.g. ``stacks[1].cards[2].points``) and what is allowed."""


class SheetProblem(Exception):
    """A problem a ``build`` function finds in data that passed the schema (a cross-field check).

    Args:
        path (Iterable[str | int]): where, as JSON keys and list indices (``("stacks", 2, "name")``).
        problem (str): what is wrong and what is expected, e.g. ``"'Office' is used twice"``.
    """

    def __init__(self, path: Iterable[str | int], problem: str) -> None:
        super().__init__(problem)
        self.path = tuple(path)
        self.problem = problem


# -- reading ---------------------------------------------------------------------------------------
def _whole_number(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


#: Draft 2020-12 where "integer" is a whole number written without a decimal point.
_Validator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number),
)


def _fail(where: str, problem: str) -> ComponentSheetError:
    return ComponentSheetError(f"component sheet file {where} {problem}")


def decode_sheet_bytes(raw: bytes, where: str) -> str:
    """The text of a sheet file: UTF-8, with or without a byte-order mark.

    Raises:
        ComponentSheetError: UTF-16 text, a binary file or bytes that are not UTF-8 (the message
            gives the line and column of the first bad byte).
    """
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise _fail(where, "is not UTF-8 text: it is UTF-16 text; save it as UTF-8")
    if b"\x00" in raw:
        raise _fail(where, "is not UTF-8 text: it holds zero bytes (a binary file?); save it as UTF-8 text")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        column = err.start - raw.rfind(b"\n", 0, err.start)
        raise _fail(
            where,
            f"is not UTF-8 text: byte 0x{raw[err.start]:02x} at line {line}, column {column} "
            "(Latin-1 or Windows text?); save it as UTF-8",
        ) from None


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members as a dict, refusing a key given twice (JSON would keep only the last)."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the key {key!r} appears twice in one object")
        data[key] = value
    return data


def parse_sheet_text(text: str, where: str) -> Any:
    """The JSON data of a sheet file's text.

    Raises:
        ComponentSheetError: not JSON (with line and column) or a key given twice in one object.
    """
    try:
        return json.loads(text, object_pairs_hook=_no_twice)
    except json.JSONDecodeError as err:
        raise _fail(where, f"is not valid JSON: line {err.lineno}, column {err.colno}: {err.msg}") from None
    except ValueError as err:
        raise _fail(where, f"is not valid JSON for a sheet: {err}") from None


def read_sheet_file(path: str | os.PathLike[str]) -> Any:
    """The JSON data of a sheet file (UTF-8, a byte-order mark allowed), not yet checked.

    Raises:
        ComponentSheetError: the file cannot be read, is not UTF-8 text or is not JSON; the
            message names the file.
    """
    where = repr(os.fspath(path))
    try:
        raw = Path(path).read_bytes()
    except OSError as err:
        raise ComponentSheetError(
            f"cannot read the component sheet file {where}: {err.strerror or err}"
        ) from None
    return parse_sheet_text(decode_sheet_bytes(raw, where), where)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON data")


def plain_copy(data: Mapping[str, Any]) -> Any:
    """A copy of ``data`` as plain JSON data (tuples become lists, keys become text).

    Raises:
        ComponentSheetError: something in it is not JSON data.
    """
    try:
        return json.loads(json.dumps(data, default=_plain))
    except (TypeError, ValueError) as err:
        raise ComponentSheetError(f"component sheet: a dict sheet must hold JSON data only ({err})") from None


# -- messages --------------------------------------------------------------------------------------
_WORD = re.compile(r"^\w+$")
_TYPE_WORDS = {
    "integer": "a whole number",
    "string": "a string",
    "array": "a list",
    "object": "an object",
    "boolean": "true or false",
}


def field_path(parts: Iterable[str | int], counted_from_one: frozenset[str] = frozenset()) -> str:
    """``("stacks", 2, "cards", 0)`` as ``"stacks[2].cards[0]"``; ``("deck", "tennis player")`` as
    ``"deck['tennis player']"``. Entries of a list named in ``counted_from_one`` count from 1."""
    text, previous = "", None
    for part in parts:
        if isinstance(part, int):
            text += f"[{part + 1 if previous in counted_from_one else part}]"
        elif _WORD.match(part):
            text += f".{part}" if text else part
        else:
            text += f"[{part!r}]"
        previous = part
    return text


def _short(value: Any) -> str:
    text = repr(value)
    if len(text) <= 60:
        return text
    if isinstance(value, list):
        return f"a list of {_entries(len(value))}"
    return "an object" if isinstance(value, dict) else text[:57] + "..."


def _entries(count: int) -> str:
    return f"{count} entry" if count == 1 else f"{count} entries"


def _count_words(low: Any, high: Any) -> str:
    """A list length in words, from a schema's ``minItems`` and ``maxItems`` (``None`` when absent)."""
    if low is None:
        return f"at most {_entries(high)}"
    if high is None:
        return f"at least {_entries(low)}"
    return f"exactly {_entries(low)}" if low == high else f"{low} to {_entries(high)}"


def schema_words(schema: Mapping[str, Any]) -> str:
    """What a (sub)schema allows, in words: its ``x-expected`` or, failing that, its allowed values,
    or its type with its range or list length (``"a whole number from 0 to 200"``,
    ``"a list of 2 to 9 entries"``)."""
    if "x-expected" in schema:
        return str(schema["x-expected"])
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) for v in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    words = _TYPE_WORDS.get(schema.get("type", ""), "a value")
    if "minItems" in schema or "maxItems" in schema:
        return f"{words} of {_count_words(schema.get('minItems'), schema.get('maxItems'))}"
    if "minimum" in schema and "maximum" in schema:
        return f"{words} from {schema['minimum']} to {schema['maximum']}"
    if "minimum" in schema:
        return f"{words} of at least {schema['minimum']}"
    return f"{words} of at most {schema['maximum']}" if "maximum" in schema else words


def _first(errors: Iterable[ValidationError]) -> ValidationError | None:
    """The error nearest the top of the sheet; the first the schema finds among equals."""
    return min(errors, key=lambda error: len(error.absolute_path), default=None)


def describe_error(error: ValidationError) -> tuple[tuple[str | int, ...], str]:
    """Where a schema error is (path parts) and what is wrong, in words."""
    path = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    if error.validator == "required":
        missing = next(key for key in error.validator_value if key not in error.instance)
        return (*path, missing), "is missing"
    if error.validator == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        extra = next(key for key in error.instance if key not in allowed)
        what = schema.get("title", "this object")
        return (*path, extra), f"is not a field of {what}: use {', '.join(allowed)}"
    if error.context and "x-expected" not in schema:
        # anyOf, oneOf: the branch the value fits best (of its type, then the deepest problem)
        return describe_error(
            min(error.context, key=lambda e: (e.validator == "type", -len(e.absolute_path)))
        )
    return path, f"must be {schema_words(schema)}, not {_short(error.instance)}"


# -- the format of one game's sheet --------------------------------------------------------------------
class SheetFormat:
    """One game's component sheet: its JSON Schema, how checked data becomes a ``Sheet``, and the
    packaged default.

    Args:
        schema (dict): JSON Schema (draft 2020-12) of the sheet's data.
        build (Callable[[Any], Sheet]): turns data that passed the schema into the game's ``Sheet``;
            raises :class:`SheetProblem` for what the schema cannot check.
        default_path (Path): the packaged sheet (``sheet=None``).
        counted_from_one (Iterable[str]): names of lists whose entries count from 1 in messages
            (positions and buses numbered from 1 on the board).
        prepare (Callable[[Any], Any] | None): applied to plain data before it is checked (e.g.
            dropping comment keys); its result is what a game keeps as its ``sheet`` parameter.
        sheet_type (type | None): the game's ``Sheet`` class, when a built sheet may be passed as
            ``sheet=`` too (kept as its ``to_dict()``).
    """

    def __init__(
        self,
        schema: dict[str, Any],
        build: Callable[[Any], Any],
        default_path: Path,
        counted_from_one: Iterable[str] = (),
        prepare: Callable[[Any], Any] | None = None,
        sheet_type: type | None = None,
    ) -> None:
        _Validator.check_schema(schema)
        self.schema = schema
        self.build = build
        self.default_path = default_path
        self.counted_from_one = frozenset(counted_from_one)
        self.prepare = prepare
        self.sheet_type = sheet_type
        self._validator = _Validator(schema)
        self._cached = lru_cache(maxsize=64)(self._from_text)

    def message(self, origin: str, path: Iterable[str | int], problem: str) -> str:
        """``"component sheet 'my.json', field deck.mother: is missing"``."""
        field = field_path(path, self.counted_from_one)
        where = f" {origin}" if origin else ""
        return (
            f"component sheet{where}, field {field}: {problem}"
            if field
            else f"component sheet{where}: {problem}"
        )

    def check(self, data: Any, origin: str = "") -> Any:
        """Check plain data against the schema, then build the ``Sheet``.

        Args:
            data: the sheet as plain JSON data (after ``prepare``).
            origin (str): the file it came from (quoted), or ``""`` for a dict.

        Raises:
            ComponentSheetError: the first problem, naming the file, the field and what is allowed.
        """
        error = _first(self._validator.iter_errors(data))
        if error is not None:
            raise ComponentSheetError(self.message(origin, *describe_error(error)))
        try:
            return self.build(data)
        except SheetProblem as problem:
            raise ComponentSheetError(self.message(origin, problem.path, problem.problem)) from None

    def _from_text(self, text: str, origin: str) -> Any:
        return self.check(json.loads(text), origin)

    def data_of(self, source: SheetSource) -> tuple[Any, str]:
        """The plain data of a sheet given as a path, a mapping or a built ``Sheet``, and its origin
        for messages (the quoted path, or ``""``).

        Raises:
            ComponentSheetError: unreadable file, not UTF-8, not JSON, not JSON data, or another type.
        """
        if isinstance(source, (str, os.PathLike)):
            data, origin = read_sheet_file(source), repr(os.fspath(source))
        elif isinstance(source, Mapping):
            data, origin = plain_copy(source), ""
        elif self.sheet_type is not None and isinstance(source, self.sheet_type):
            data, origin = source.to_dict(), ""  # type: ignore[attr-defined]
        else:
            raise ComponentSheetError(
                f"sheet={source!r}: use None (the built-in sheet), a path to a JSON file, or a dict"
            )
        return (self.prepare(data) if self.prepare else data), origin

    def open(self, source: SheetSource) -> tuple[Any, Any]:
        """The checked ``Sheet`` of ``source`` and the data a game keeps as its ``sheet`` parameter:
        ``None`` for the packaged sheet, else the sheet's contents as plain JSON data (a file is
        read once, so a saved game does not depend on the file any more).

        Raises:
            ComponentSheetError: see :meth:`data_of` and :meth:`check`.
        """
        if source is None:
            return self.load(None), None
        data, origin = self.data_of(source)
        return self._cached(json.dumps(data), origin), data

    def load(self, source: SheetSource = None) -> Any:
        """The checked ``Sheet`` of ``source``: ``None`` (the packaged sheet), a path, a mapping or
        a built ``Sheet`` (returned as it is).

        Raises:
            ComponentSheetError: see :meth:`data_of` and :meth:`check`.
        """
        if self.sheet_type is not None and isinstance(source, self.sheet_type):
            return source
        if source is None:
            return self.default
        return self.open(source)[0]

    @cached_property
    def default(self) -> Any:
        """The packaged sheet (``sheet=None``), read and checked once.

        Raises:
            ComponentSheetError: the packaged file is unreadable or bad (named as built in).
        """
        data = read_sheet_file(self.default_path)
        data = self.prepare(data) if self.prepare else data
        return self.check(data, f"{self.default_path.name} (built in)")


class SheetParameter:
    """Mixin for a :class:`~bus_lab.engine.core.Game` with a ``sheet`` parameter (put it first
    among the bases). The game keeps the checked sheet in ``self.sheet`` and the sheet's contents
    (or ``None``) in ``params["sheet"]``, so a game made from a file equals the game made from the
    same data as a dict, and its records carry the sheet itself. Records saved when ``params``
    held a path still load while the file is there.
    """

    SHEET_FORMAT: SheetFormat

    def _open_sheet(self, values: dict[str, Any]) -> None:
        self.sheet, values["sheet"] = self.SHEET_FORMAT.open(values["sheet"])

    def state_from_dict(self, data: dict[str, Any]) -> Any:
        """Rebuild a state from ``State.to_dict()`` output (a sheet given there as a path is read)."""
        params = data.get("params")
        if isinstance(params, Mapping) and isinstance(params.get("sheet"), (str, os.PathLike)):
            data = {**data, "params": {**params, "sheet": self.SHEET_FORMAT.open(params["sheet"])[1]}}
        return super().state_from_dict(data)  # type: ignore[misc]
