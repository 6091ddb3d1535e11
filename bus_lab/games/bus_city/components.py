"""The component sheet of BUS: the 12 street cards and the passenger cards, as data.

The printed card faces of BUS are not published, so the cards live in one data file,
``components.json`` beside this module (BUS-COMP-STREETS, BUS-COMP-PASSENGERS). A teacher can
replace it: pass ``sheet=`` to ``load_game("bus_city", sheet=...)`` with a path to another JSON
file or with a dict of the same shape. Every sheet is checked when it is loaded, and a problem
raises :class:`ComponentSheetError` naming the field, e.g. ``passengers[3].value``.

The shape (see ``components.json``)::

    {"title": str, "about": str (optional),
     "colours": [str, ...],                       # the passenger colours, 1 to 8, distinct
     "streets": [{"id": str, "symbol": "destination" | "stop" | "site" | "plain",
                  "colour": str (destinations only)}, ...],        # exactly 12 (BUS-GRID)
     "passengers": [{"id": str, "colours": [str, str], "value": int, "speed": int}, ...]}

Ids are short words (letters, digits, ``-`` and ``_``) used in action labels and scripted decks:
a street card drawn into a slot is labelled ``"<id>/<side>"`` (``"red/N"``), a passenger card
by its id (``"red-pink"``).

Standard library only.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from bus_lab.engine.errors import ParameterError
from bus_lab.games.bus_city.grid import NUM_SLOTS

#: The built-in sheet (placeholder faces).
DEFAULT_SHEET_PATH = Path(__file__).with_name("components.json")
SYMBOLS = ("destination", "stop", "site", "plain")
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,23}$")
MAX_COLOURS = 8
MAX_PASSENGERS = 60
MAX_VALUE = 9
MAX_SPEED = 9
#: Words that appear in views and labels on their own; a passenger id may not be one of them
#: (ids are what a view shows of a card, so they must not look like something else).
RESERVED = {"pass", "draw", "deck", "blind", "take", "swap", "turn", "start", "drop", "sides"}


class ComponentSheetError(ParameterError):
    """A component sheet that cannot be played: the message names the field and what is allowed."""


@dataclass(frozen=True)
class StreetCard:
    """One street card (BUS-COMP-STREETS).

    Attributes:
        index (int): position in the sheet (0–11).
        id (str): short name, e.g. ``"stop1"``.
        symbol (str): ``"destination"``, ``"stop"`` (bus stop), ``"site"`` (construction site)
            or ``"plain"`` (no symbol).
        colour (str | None): the passenger colour of a destination, else ``None``.
    """

    index: int
    id: str
    symbol: str
    colour: str | None = None

    def describe(self) -> str:
        """In words: ``"red destination"``, ``"bus stop"``, ``"construction site"``, ``"plain street"``."""
        return {
            "destination": f"{self.colour} destination",
            "stop": "bus stop",
            "site": "construction site",
            "plain": "plain street",
        }[self.symbol]


@dataclass(frozen=True)
class PassengerCard:
    """One passenger card (BUS-COMP-PASSENGERS): two passengers to deliver.

    Attributes:
        index (int): position in the sheet.
        id (str): short name, e.g. ``"red-pink"``.
        colours (tuple[str, str]): the two passengers' destination colours (different).
        value (int): points when complete (BUS-SCORE).
        speed (int): the speed limit it sets while in progress (BUS-SPEED), in street cards per turn.
    """

    index: int
    id: str
    colours: tuple[str, str]
    value: int
    speed: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe ``{"id", "colours", "value", "speed"}``."""
        return {"id": self.id, "colours": list(self.colours), "value": self.value, "speed": self.speed}


@dataclass(frozen=True)
class Sheet:
    """A checked component sheet.

    Attributes:
        title (str), about (str): what the sheet is.
        colours (tuple[str, ...]): the passenger colours; a colour's bit in drop masks is
            ``1 << colours.index(colour)``.
        streets (tuple[StreetCard, ...]): exactly 12.
        passengers (tuple[PassengerCard, ...]).
    """

    title: str
    about: str
    colours: tuple[str, ...]
    streets: tuple[StreetCard, ...]
    passengers: tuple[PassengerCard, ...]

    def to_dict(self) -> dict[str, Any]:
        """The sheet in the JSON shape it is read from."""
        return {
            "title": self.title,
            "about": self.about,
            "colours": list(self.colours),
            "streets": [
                {"id": s.id, "symbol": s.symbol, **({"colour": s.colour} if s.colour else {})}
                for s in self.streets
            ],
            "passengers": [
                {"id": p.id, "colours": list(p.colours), "value": p.value, "speed": p.speed}
                for p in self.passengers
            ],
        }

    def street_by_id(self, card_id: str) -> StreetCard:
        """The street card named ``card_id``.

        Raises:
            KeyError: no such card (the message lists the ids).
        """
        for card in self.streets:
            if card.id == card_id:
                return card
        raise KeyError(
            f"no street card {card_id!r}: the street cards are {', '.join(s.id for s in self.streets)}"
        )

    def passenger_by_id(self, card_id: str) -> PassengerCard:
        """The passenger card named ``card_id``.

        Raises:
            KeyError: no such card (the message lists the ids).
        """
        for card in self.passengers:
            if card.id == card_id:
                return card
        raise KeyError(
            f"no passenger card {card_id!r}: the passenger cards are "
            f"{', '.join(p.id for p in self.passengers)}"
        )

    def _repr_html_(self) -> str:
        streets = "".join(
            f"<tr><td><code>{escape(s.id)}</code></td><td>{escape(s.describe())}</td></tr>"
            for s in self.streets
        )
        passengers = "".join(
            f"<tr><td><code>{escape(p.id)}</code></td><td>{escape(' + '.join(p.colours))}</td>"
            f"<td style='text-align:right'>{p.value}</td><td style='text-align:right'>{p.speed}</td></tr>"
            for p in self.passengers
        )
        return (
            f"<div><b>{escape(self.title)}</b><p><small>{escape(self.about)}</small></p>"
            f"<div style='display:flex;gap:24px;align-items:flex-start'>"
            f"<table><caption>Street cards (BUS-COMP-STREETS)</caption><tr><th>id</th><th>symbol</th></tr>"
            f"{streets}</table>"
            f"<table><caption>Passenger cards (BUS-COMP-PASSENGERS)</caption><tr><th>id</th>"
            f"<th>passengers</th><th>value</th><th>speed</th></tr>{passengers}</table></div></div>"
        )


def _fail(field: str, problem: str) -> ComponentSheetError:
    return ComponentSheetError(f"component sheet: {field}: {problem}")


def _int_field(raw: Mapping, field: str, key: str, lo: int, hi: int) -> int:
    value = raw.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(f"{field}.{key}", f"{value!r} is not a whole number; use an integer from {lo} to {hi}")
    if not lo <= value <= hi:
        raise _fail(f"{field}.{key}", f"{value} is out of range; use an integer from {lo} to {hi}")
    return value


def _id_field(raw: Mapping, field: str, seen: set[str]) -> str:
    value = raw.get("id")
    if not isinstance(value, str) or not ID_PATTERN.match(value):
        raise _fail(
            f"{field}.id",
            f"{value!r} is not a short id: use 1-24 letters, digits, '-' or '_', "
            "starting with a letter or digit",
        )
    if value in seen:
        raise _fail(f"{field}.id", f"{value!r} is used twice; every card needs its own id")
    seen.add(value)
    return value


def _check_keys(raw: Any, field: str, allowed: set[str], required: set[str]) -> Mapping:
    if not isinstance(raw, Mapping):
        raise _fail(
            field, f"expected an object with keys {', '.join(sorted(required))}, not {type(raw).__name__}"
        )
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise _fail(
            f"{field}.{unknown[0]}", f"unknown field; allowed fields are {', '.join(sorted(allowed))}"
        )
    missing = sorted(required - set(raw))
    if missing:
        raise _fail(f"{field}.{missing[0]}", "missing")
    return raw


def parse_sheet(data: Any) -> Sheet:
    """Check a sheet given as a dict (the JSON shape) and return it as a :class:`Sheet`.

    Checks: exactly 12 street cards (BUS-GRID), at least one bus stop (BUS-START), every
    destination colour among ``colours``; at least 2 passenger cards (BUS-FACEUP), each with two
    different colours that have a destination card, value 1–9 and speed 1–9; ids unique.

    Raises:
        ComponentSheetError: the first problem found, naming its field.
    """
    raw = _check_keys(
        data,
        "sheet",
        {"title", "about", "colours", "streets", "passengers"},
        {"colours", "streets", "passengers"},
    )
    title = raw.get("title", "custom component sheet")
    about = raw.get("about", "")
    if not isinstance(title, str) or not isinstance(about, str):
        raise _fail("title" if not isinstance(title, str) else "about", "must be text")

    colours = raw["colours"]
    if not isinstance(colours, list) or not 1 <= len(colours) <= MAX_COLOURS:
        raise _fail("colours", f"use a list of 1 to {MAX_COLOURS} colour names")
    for i, colour in enumerate(colours):
        if not isinstance(colour, str) or not ID_PATTERN.match(colour):
            raise _fail(f"colours[{i}]", f"{colour!r} is not a colour name (letters, digits, '-' or '_')")
    if len(set(colours)) != len(colours):
        raise _fail("colours", "a colour is listed twice")

    streets_raw = raw["streets"]
    if not isinstance(streets_raw, list) or len(streets_raw) != NUM_SLOTS:
        count = len(streets_raw) if isinstance(streets_raw, list) else type(streets_raw).__name__
        raise _fail("streets", f"the grid has exactly {NUM_SLOTS} street slots (BUS-GRID), got {count}")
    seen: set[str] = set()
    streets = []
    for i, item in enumerate(streets_raw):
        field = f"streets[{i}]"
        item = _check_keys(item, field, {"id", "symbol", "colour"}, {"id", "symbol"})
        card_id = _id_field(item, field, seen)
        symbol = item["symbol"]
        if symbol not in SYMBOLS:
            raise _fail(f"{field}.symbol", f"{symbol!r} is not a symbol; use one of {', '.join(SYMBOLS)}")
        colour = item.get("colour")
        if symbol == "destination":
            if colour not in colours:
                raise _fail(f"{field}.colour", f"{colour!r} is not one of the colours {', '.join(colours)}")
        elif colour is not None:
            raise _fail(f"{field}.colour", f"only a destination has a colour, not a {symbol}")
        streets.append(StreetCard(i, card_id, symbol, colour))
    if not any(s.symbol == "stop" for s in streets):
        raise _fail("streets", "at least one card must be a bus stop: every bus starts on one (BUS-START)")

    passengers_raw = raw["passengers"]
    if not isinstance(passengers_raw, list) or not 2 <= len(passengers_raw) <= MAX_PASSENGERS:
        raise _fail(
            "passengers", f"use a list of 2 to {MAX_PASSENGERS} passenger cards (2 lie face up, BUS-FACEUP)"
        )
    served = {s.colour for s in streets if s.symbol == "destination"}
    words = set(colours) | RESERVED
    seen_passengers: set[str] = set()
    passengers = []
    for i, item in enumerate(passengers_raw):
        field = f"passengers[{i}]"
        item = _check_keys(
            item, field, {"id", "colours", "value", "speed"}, {"id", "colours", "value", "speed"}
        )
        card_id = _id_field(item, field, seen_passengers)
        if card_id in words or card_id in seen:
            raise _fail(
                f"{field}.id",
                f"{card_id!r} is also a colour, a street card or a word of the game; choose another id",
            )
        pair = item["colours"]
        if not isinstance(pair, list) or len(pair) != 2:
            raise _fail(f"{field}.colours", "a passenger card shows exactly two passengers: give two colours")
        for k, colour in enumerate(pair):
            if colour not in colours:
                raise _fail(
                    f"{field}.colours[{k}]", f"{colour!r} is not one of the colours {', '.join(colours)}"
                )
            if colour not in served:
                raise _fail(
                    f"{field}.colours[{k}]",
                    f"no street card is a {colour} destination, so this passenger could never be dropped off",
                )
        if pair[0] == pair[1]:
            raise _fail(f"{field}.colours", "the two passengers of a card have different colours")
        value = _int_field(item, field, "value", 1, MAX_VALUE)
        speed = _int_field(item, field, "speed", 1, MAX_SPEED)
        passengers.append(PassengerCard(i, card_id, (pair[0], pair[1]), value, speed))
    return Sheet(title, about, tuple(colours), tuple(streets), tuple(passengers))


_DEFAULT: Sheet | None = None


def load_sheet(source: Any = None) -> Sheet:
    """Load and check a component sheet.

    Args:
        source: ``None`` for the built-in placeholder sheet; a path (``str`` or
            ``os.PathLike``) to a JSON file; or a dict in the JSON shape.

    Returns:
        the checked :class:`Sheet`.

    Raises:
        ComponentSheetError: unreadable file, bad JSON, or a field that is not allowed (named).
    """
    global _DEFAULT
    if source is None:
        if _DEFAULT is None:
            _DEFAULT = parse_sheet(json.loads(DEFAULT_SHEET_PATH.read_text(encoding="utf-8")))
        return _DEFAULT
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            raise ComponentSheetError(
                f"component sheet: cannot read {str(path)!r}: {err.strerror or err}"
            ) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ComponentSheetError(f"component sheet: {str(path)!r} is not valid JSON: {err}") from None
        return parse_sheet(data)
    if isinstance(source, Mapping):
        return parse_sheet(source)
    raise ComponentSheetError(
        f"sheet={source!r}: use None (the built-in sheet), a path to a JSON file or a dict"
    )


def default_sheet_dict() -> dict[str, Any]:
    """A fresh copy of the built-in sheet as a dict (edit it and pass it back as ``sheet=``)."""
    return load_sheet(None).to_dict()
