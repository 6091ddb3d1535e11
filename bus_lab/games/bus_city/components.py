"""The component sheet of BUS: the 12 street cards and the passenger cards, as data.

The printed card faces of BUS are not published, so the cards live in one data file,
``components.json`` beside this module (BUS-COMP-STREETS, BUS-COMP-PASSENGERS). A teacher can
replace it: pass ``sheet=`` to ``load_game("bus_city", sheet=...)`` with a path to another JSON
file or with a dict of the same shape. Every sheet is checked when it is loaded, against
:data:`SCHEMA` (a JSON Schema) and the cross-field checks below, and a problem raises
:class:`ComponentSheetError` naming the file and the field, e.g. ``passengers[3].value``.

The shape (see ``components.json``)::

    {"title": str, "about": str (optional),
     "colours": [str, ...],                       # the passenger colours, 1 to 8, distinct
     "streets": [{"id": str, "symbol": "destination" | "stop" | "site" | "plain",
                  "colour": str (destinations only)}, ...],        # exactly 12 (BUS-GRID)
     "passengers": [{"id": str, "colours": [str, str], "value": int, "speed": int}, ...]}

Ids are short words (letters, digits, ``-`` and ``_``) used in action labels and scripted decks:
a street card drawn into a slot is labelled ``"<id>/<side>"`` (``"red/N"``), a passenger card
by its id (``"red-pink"``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from bus_lab.games.bus_city.grid import NUM_SLOTS
from bus_lab.games.sheets import ComponentSheetError as ComponentSheetError
from bus_lab.games.sheets import SheetFormat, SheetProblem, plain_copy

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


# -- the schema (shape, types, ranges) -----------------------------------------------------------
_ID = {
    "type": "string",
    "pattern": ID_PATTERN.pattern,
    "x-expected": "a short id: 1-24 letters, digits, '-' or '_', starting with a letter or digit",
}
_STREET = {
    "title": "a street card",
    "type": "object",
    "required": ["id", "symbol"],
    "additionalProperties": False,
    "properties": {"id": _ID, "symbol": {"enum": list(SYMBOLS)}, "colour": {"type": "string"}},
    "if": {"properties": {"symbol": {"const": "destination"}}},
    "then": {"required": ["colour"]},
    "else": {
        "properties": {"colour": {"not": {}, "x-expected": "left out: only a destination has a colour"}}
    },
}
_PASSENGER = {
    "title": "a passenger card",
    "type": "object",
    "required": ["id", "colours", "value", "speed"],
    "additionalProperties": False,
    "properties": {
        "id": _ID,
        "colours": {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "uniqueItems": True,
            "items": {"type": "string"},
            "x-expected": "two different colours: a passenger card shows two passengers of different colours",
        },
        "value": {"type": "integer", "minimum": 1, "maximum": MAX_VALUE},
        "speed": {"type": "integer", "minimum": 1, "maximum": MAX_SPEED},
    },
}
#: JSON Schema (draft 2020-12) of a sheet: the shape; :func:`_build` checks ids and colours.
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "a component sheet",
    "type": "object",
    "required": ["colours", "streets", "passengers"],
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string"},
        "about": {"type": "string"},
        "colours": {
            "type": "array",
            "minItems": 1,
            "maxItems": MAX_COLOURS,
            "uniqueItems": True,
            "items": {**_ID, "x-expected": "a colour name (letters, digits, '-' or '_')"},
            "x-expected": f"a list of 1 to {MAX_COLOURS} different colour names",
        },
        "streets": {
            "type": "array",
            "minItems": NUM_SLOTS,
            "maxItems": NUM_SLOTS,
            "items": _STREET,
            "x-expected": f"exactly {NUM_SLOTS} street cards: the grid has {NUM_SLOTS} street slots (BUS-GRID)",
        },
        "passengers": {
            "type": "array",
            "minItems": 2,
            "maxItems": MAX_PASSENGERS,
            "items": _PASSENGER,
            "x-expected": f"a list of 2 to {MAX_PASSENGERS} passenger cards (2 lie face up, BUS-FACEUP)",
        },
    },
}


# -- the checks a schema cannot make, and the Sheet ----------------------------------------------
def _unique_ids(items: list[dict], key: str) -> None:
    seen: set[str] = set()
    for i, item in enumerate(items):
        if item["id"] in seen:
            raise SheetProblem((key, i, "id"), f"{item['id']!r} is used twice; every card needs its own id")
        seen.add(item["id"])


def _streets(items: list[dict], colours: list[str]) -> tuple[StreetCard, ...]:
    """BUS-COMP-STREETS: ids unique, destinations of known colours, at least one bus stop (BUS-START)."""
    _unique_ids(items, "streets")
    for i, item in enumerate(items):
        if item["symbol"] == "destination" and item["colour"] not in colours:
            raise SheetProblem(
                ("streets", i, "colour"), f"{item['colour']!r} is not one of the colours {', '.join(colours)}"
            )
    if not any(item["symbol"] == "stop" for item in items):
        raise SheetProblem(
            ("streets",), "at least one card must be a bus stop: every bus starts on one (BUS-START)"
        )
    return tuple(
        StreetCard(i, item["id"], item["symbol"], item.get("colour")) for i, item in enumerate(items)
    )


def _passenger(i: int, item: dict, colours: list[str], served: set[str], taken: set[str]) -> PassengerCard:
    """BUS-COMP-PASSENGERS: an id of its own; two colours that each have a destination card."""
    if item["id"] in taken:
        raise SheetProblem(
            ("passengers", i, "id"),
            f"{item['id']!r} is also a colour, a street card or a word of the game; choose another id",
        )
    for k, colour in enumerate(item["colours"]):
        if colour not in colours:
            raise SheetProblem(
                ("passengers", i, "colours", k), f"{colour!r} is not one of the colours {', '.join(colours)}"
            )
        if colour not in served:
            raise SheetProblem(
                ("passengers", i, "colours", k),
                f"no street card is a {colour} destination, so this passenger could never be dropped off",
            )
    pair = (item["colours"][0], item["colours"][1])
    return PassengerCard(i, item["id"], pair, item["value"], item["speed"])


def _build(data: dict[str, Any]) -> Sheet:
    """The :class:`Sheet` of data that passed :data:`SCHEMA`, after the cross-field checks."""
    colours = data["colours"]
    streets = _streets(data["streets"], colours)
    _unique_ids(data["passengers"], "passengers")
    served = {s.colour or "" for s in streets if s.symbol == "destination"}
    taken = set(colours) | RESERVED | {s.id for s in streets}
    passengers = tuple(
        _passenger(i, item, colours, served, taken) for i, item in enumerate(data["passengers"])
    )
    title = data.get("title", "custom component sheet")
    return Sheet(title, data.get("about", ""), tuple(colours), streets, passengers)


#: How a BUS sheet is read, checked and built.
SHEET_FORMAT = SheetFormat(SCHEMA, _build, DEFAULT_SHEET_PATH)


def parse_sheet(data: Any) -> Sheet:
    """Check a sheet given as a dict (the JSON shape) and return it as a :class:`Sheet`.

    Checks: exactly 12 street cards (BUS-GRID), at least one bus stop (BUS-START), every
    destination colour among ``colours``; at least 2 passenger cards (BUS-FACEUP), each with two
    different colours that have a destination card, value 1–9 and speed 1–9; ids unique.

    Raises:
        ComponentSheetError: the first problem found, naming its field.
    """
    return SHEET_FORMAT.check(plain_copy(data) if isinstance(data, Mapping) else data)


def load_sheet(source: Any = None) -> Sheet:
    """Load and check a component sheet.

    Args:
        source: ``None`` for the built-in placeholder sheet; a path (``str`` or
            ``os.PathLike``) to a JSON file (UTF-8); or a dict in the JSON shape.

    Returns:
        the checked :class:`Sheet`.

    Raises:
        ComponentSheetError: unreadable file, not UTF-8 JSON, or a field that is not allowed (the
            message names the file and the field).
    """
    return SHEET_FORMAT.load(source)


def default_sheet_dict() -> dict[str, Any]:
    """A fresh copy of the built-in sheet as a dict (edit it and pass it back as ``sheet=``)."""
    return load_sheet(None).to_dict()
