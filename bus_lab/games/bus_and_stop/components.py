"""The Bus & Stop component sheet: passenger deck, destination stacks, counts and points, as data.

The figures live in ``components.json`` next to this module (BAS-COMP-PASSENGERS,
BAS-COMP-DESTINATIONS, BAS-COMP-SIDES). Most of them are placeholders: a teacher with the real box
can copy the file, fix the numbers and pass it to the game::

    bus_lab.load_game("bus_and_stop", sheet="my_box.json")     # a path to a JSON file
    bus_lab.load_game("bus_and_stop", sheet={...})             # or the same data as a dict

Every sheet is validated on load against :data:`SCHEMA` (a JSON Schema) and a few cross-field
checks; a bad one raises :class:`ComponentSheetError` naming the file and the field (e.g.
``stacks[1].cards[2].points``).

The JSON format::

    {
      "title": "...", "notes": ["..."],                       # optional, shown in the lessons
      "colours": [{"name": "yellow", "code": "Y", "ink": "#F0E442"}, ...],
      "types": [{"name": "businessman", "code": "B"}, ..., {"name": "senior", "code": "E", "senior": true}],
      "deck": {"businessman": 4, ..., "senior": {"yellow": 2, "red": 3, ...}},   # per colour
      "stacks": [{"name": "office", "kind": "type", "type": "businessman",
                  "cards": [{"counts": [4, 5, 6, 7], "points": [6, 10, 14, 20]}, ...]},
                 {"name": "multicoloured", "kind": "multicoloured", "cards": [...]}]
    }

A passenger card is known by its *kind* (colour, type): cards of one kind are identical. Kind
``k`` is the int ``colour_index * len(types) + type_index``; its code is the colour's code followed
by the type's code, e.g. ``"YB"`` for a yellow businessman or ``"RE"`` for a red senior.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bus_lab.games.sheets import ComponentSheetError as ComponentSheetError
from bus_lab.games.sheets import SheetFormat, SheetProblem, plain_copy

#: The file of the built-in (placeholder) sheet.
DEFAULT_SHEET_PATH = Path(__file__).with_name("components.json")
#: Seats in a bus (BAS-PICK-LIMIT): a destination can never ask for more passengers than this.
BUS_SEATS = 10
#: Cards at the bus stop (BAS-SETUP-STOP): the deck must hold at least this many.
STOP_SIZE = 5
#: The end is triggered when this many destination cards are left (BAS-END-TRIGGER): a sheet must
#: have more than this.
END_DESTINATIONS_LEFT = 6
#: Most colours and types a sheet may have (codes are one character each).
MAX_COLOURS = MAX_TYPES = 9
MULTICOLOURED = "multicoloured"


@dataclass(frozen=True)
class Colour:
    """A passenger colour. Attributes: name (``"yellow"``), code (one character), ink (``"#RRGGBB"``)."""

    name: str
    code: str
    ink: str


@dataclass(frozen=True)
class PassengerType:
    """A passenger type. Attributes: name (``"mother"``), code (one character), senior (True for the
    type that sits beside the bus, BAS-SENIOR)."""

    name: str
    code: str
    senior: bool = False


@dataclass(frozen=True)
class DestinationCard:
    """One destination card (BAS-COMP-SIDES): the passenger counts it accepts and the points for each.

    Attributes:
        counts (tuple[int, ...]): accepted counts, increasing.
        points (tuple[int, ...]): points for each count (same length).
    """

    counts: tuple[int, ...]
    points: tuple[int, ...]

    def points_for(self, count: int) -> int:
        """Points when claimed with ``count`` passengers.

        Raises:
            ValueError: the card does not accept ``count``.
        """
        if count not in self.counts:
            raise ValueError(f"this card accepts {', '.join(map(str, self.counts))} passengers, not {count}")
        return self.points[self.counts.index(count)]

    def order_key(self) -> tuple[int, int]:
        """BAS-SETUP-ORDER: the points for the largest count, then for the smallest (higher = nearer the top)."""
        return (self.points[-1], self.points[0])

    def text(self) -> str:
        """``"4/5/6/7 → 6/10/14/20"``."""
        return f"{'/'.join(map(str, self.counts))} → {'/'.join(map(str, self.points))}"


@dataclass(frozen=True)
class Stack:
    """A stack of destination cards of one kind (BAS-COMP-DESTINATIONS).

    Attributes:
        name (str): ``"office"``.
        kind (str): ``"type"`` (needs passengers of one type, BAS-DROP-TYPE) or ``"multicoloured"``
            (needs passengers of pairwise different colours, BAS-DROP-MULTI).
        type_index (int | None): index in ``Sheet.types`` of the type needed (``None`` when multicoloured).
        cards (tuple[DestinationCard, ...]): in the sheet's order (the game sorts them, BAS-SETUP-ORDER).
        known (str): a note on which figures are known and which are placeholders.
    """

    name: str
    kind: str
    type_index: int | None
    cards: tuple[DestinationCard, ...]
    known: str = ""

    @property
    def multicoloured(self) -> bool:
        """True for a multicoloured stack."""
        return self.kind == MULTICOLOURED


@dataclass(frozen=True)
class Sheet:
    """A validated component sheet. Build it with :func:`load_sheet`.

    Attributes:
        colours (tuple[Colour, ...]), types (tuple[PassengerType, ...]),
        deck (tuple[int, ...]): number of cards of each kind (index = kind),
        stacks (tuple[Stack, ...]), title (str), notes (tuple[str, ...]),
        data (dict): the sheet as plain JSON-safe data (a copy is returned by :meth:`to_dict`).
        num_kinds (int): passenger kinds (colours × types); lookup tables by kind: kind_colour,
            kind_type (indices), kind_senior (bools), codes (``"YB"``), names (``"yellow businessman"``).
    """

    colours: tuple[Colour, ...]
    types: tuple[PassengerType, ...]
    deck: tuple[int, ...]
    stacks: tuple[Stack, ...]
    title: str
    notes: tuple[str, ...]
    data: Any

    def __post_init__(self) -> None:
        nt = len(self.types)
        kinds = range(len(self.colours) * nt)
        # lookup tables by kind (the engine asks these many times per step)
        object.__setattr__(self, "num_kinds", len(kinds))
        object.__setattr__(self, "kind_colour", tuple(k // nt for k in kinds))
        object.__setattr__(self, "kind_type", tuple(k % nt for k in kinds))
        object.__setattr__(self, "kind_senior", tuple(self.types[k % nt].senior for k in kinds))
        object.__setattr__(
            self, "codes", tuple(self.colours[k // nt].code + self.types[k % nt].code for k in kinds)
        )
        object.__setattr__(
            self, "names", tuple(f"{self.colours[k // nt].name} {self.types[k % nt].name}" for k in kinds)
        )

    # -- kinds (``num_kinds``: colours × types) ---------------------------------------------
    def kind(self, colour: int, ptype: int) -> int:
        """The kind of a passenger of colour index ``colour`` and type index ``ptype``."""
        return colour * len(self.types) + ptype

    def colour_of(self, kind: int) -> int:
        """Colour index of ``kind``."""
        return self.kind_colour[kind]

    def type_of(self, kind: int) -> int:
        """Type index of ``kind``."""
        return self.kind_type[kind]

    def is_senior(self, kind: int) -> bool:
        """True when ``kind`` is a senior (BAS-SENIOR)."""
        return self.kind_senior[kind]

    def code(self, kind: int) -> str:
        """Two-character code, e.g. ``"YB"`` (yellow businessman)."""
        return self.codes[kind]

    def name(self, kind: int) -> str:
        """Words, e.g. ``"yellow businessman"``."""
        return self.names[kind]

    def parse(self, code: str) -> int:
        """The kind whose code is ``code`` (case ignored).

        Raises:
            ValueError: no kind has that code.
        """
        wanted = str(code).strip().upper()
        if wanted in self.codes:
            return self.codes.index(wanted)
        raise ValueError(
            f"{code!r} is not a passenger code: use a colour code ({', '.join(c.code for c in self.colours)})"
            f" then a type code ({', '.join(t.code for t in self.types)}), e.g. {self.code(0)!r}"
        )

    def deck_size(self) -> int:
        """Number of passenger cards."""
        return sum(self.deck)

    def colour_counts(self) -> list[int]:
        """Cards of each colour in the deck."""
        n = len(self.types)
        return [sum(self.deck[c * n : (c + 1) * n]) for c in range(len(self.colours))]

    def type_counts(self) -> list[int]:
        """Cards of each type in the deck."""
        return [
            sum(self.deck[self.kind(c, t)] for c in range(len(self.colours))) for t in range(len(self.types))
        ]

    def destination_count(self) -> int:
        """Destination cards in all stacks together."""
        return sum(len(s.cards) for s in self.stacks)

    def needs_text(self, stack: Stack) -> str:
        """What a stack needs in words: ``"businessmen (any colours)"`` or ``"pairwise different colours"``."""
        if stack.multicoloured:
            return "passengers of pairwise different colours (any types)"
        return f"{self.types[stack.type_index].name} passengers (any colours)"

    def to_dict(self) -> dict[str, Any]:
        """The sheet as JSON-safe data (a copy): what :func:`load_sheet` reads."""
        return copy.deepcopy(self.data)

    def table(self) -> str:
        """The sheet as plain text: the deck, then each stack's cards (for notebooks)."""
        lines = [self.title, "", f"Passenger deck (BAS-COMP-PASSENGERS): {self.deck_size()} cards"]
        width = max(len(t.name) for t in self.types) + 2
        first = max(len(c.name) for c in self.colours) + 1
        lines.append(" " * first + "".join(f"{t.name:>{width}}" for t in self.types))
        for c, colour in enumerate(self.colours):
            row = "".join(f"{self.deck[self.kind(c, t)]:>{width}}" for t in range(len(self.types)))
            lines.append(f"{colour.name:>{first}}{row}")
        lines += [
            "",
            f"Destination stacks (BAS-COMP-DESTINATIONS, BAS-COMP-SIDES): "
            f"{self.destination_count()} cards; counts → points",
        ]
        for stack in self.stacks:
            lines.append(f"  {stack.name} ({len(stack.cards)} cards, needs {self.needs_text(stack)}):")
            for card in stack.cards:
                lines.append(f"      {card.text()}")
        return "\n".join(lines)


# -- the schema (shape, types, ranges) -----------------------------------------------------------
_NAME = {"type": "string", "pattern": r"\S", "x-expected": "a non-empty string"}
_CODE = {"type": "string", "pattern": "^[A-Z0-9]$", "x-expected": "one capital letter or digit"}
_CARDS_PER_COLOUR = {"type": "integer", "minimum": 0, "maximum": 200}


def _named_list(what: str, most: int, extra: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "array",
        "minItems": 2,
        "maxItems": most,
        "items": {
            "title": what,
            "type": "object",
            "required": ["name", "code"],
            "additionalProperties": False,
            "properties": {"name": _NAME, "code": _CODE, **extra},
        },
    }


_CARD = {
    "title": "a destination card",
    "type": "object",
    "required": ["counts", "points"],
    "additionalProperties": False,
    "properties": {
        "counts": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "integer",
                "minimum": 1,
                "maximum": BUS_SEATS,
                "x-expected": f"a whole number of passengers from 1 to {BUS_SEATS}: a bus holds "
                f"{BUS_SEATS} passengers (BAS-PICK-LIMIT)",
            },
        },
        "points": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 1000}},
    },
}
_STACK = {
    "title": "a stack",
    "type": "object",
    "required": ["name", "kind", "cards"],
    "additionalProperties": False,
    "properties": {
        "name": _NAME,
        "kind": {"enum": ["type", MULTICOLOURED]},
        "type": {"type": "string"},
        "cards": {"type": "array", "minItems": 1, "maxItems": 20, "items": _CARD},
        "known": {"type": "string"},
    },
    "if": {"properties": {"kind": {"const": "type"}}},
    "then": {"required": ["type"]},
    "else": {
        "properties": {
            "type": {
                "not": {},
                "x-expected": "left out: a multicoloured stack takes passengers of pairwise different "
                "colours, not of one type",
            }
        }
    },
}
#: JSON Schema (draft 2020-12) of a sheet: the shape; :func:`_build` checks sums and references.
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "a component sheet",
    "type": "object",
    "required": ["colours", "types", "deck", "stacks"],
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string"},
        "notes": {"type": "array", "items": {"type": "string"}},
        "colours": _named_list(
            "a colour",
            MAX_COLOURS,
            {
                "ink": {
                    "type": "string",
                    "pattern": "^#[0-9A-Fa-f]{6}$",
                    "x-expected": "a colour like '#0072B2'",
                }
            },
        ),
        "types": _named_list("a passenger type", MAX_TYPES, {"senior": {"type": "boolean"}}),
        "deck": {
            "type": "object",
            "additionalProperties": {
                "anyOf": [_CARDS_PER_COLOUR, {"type": "object", "additionalProperties": _CARDS_PER_COLOUR}],
                "x-expected": "a whole number from 0 to 200 (cards of each colour) or "
                "{colour name: whole number from 0 to 200}",
            },
        },
        "stacks": {"type": "array", "minItems": 1, "maxItems": 10, "items": _STACK},
    },
}


# -- the checks a schema cannot make, and the Sheet ----------------------------------------------
def _fold(name: str) -> str:
    return name.strip().lower()


def _check_unique(items: list[dict], key: str, fields: tuple[str, ...]) -> None:
    """No two entries of ``items`` share a name (case and outer spaces ignored) or a code."""
    for field in fields:
        seen: set[str] = set()
        for i, item in enumerate(items):
            value = _fold(item[field]) if field == "name" else item[field]
            if value in seen:
                raise SheetProblem((key, i, field), f"{item[field]!r} is used twice")
            seen.add(value)


def _colours(items: list[dict]) -> tuple[Colour, ...]:
    _check_unique(items, "colours", ("name", "code"))
    return tuple(Colour(item["name"].strip(), item["code"], item.get("ink", "#999999")) for item in items)


def _types(items: list[dict]) -> tuple[PassengerType, ...]:
    _check_unique(items, "types", ("name", "code"))
    types = tuple(
        PassengerType(item["name"].strip(), item["code"], item.get("senior", False)) for item in items
    )
    # with two types at least (the schema), at most one senior leaves one type to drop off
    if sum(t.senior for t in types) > 1:
        raise SheetProblem(
            ("types",), "marks more than one type as senior: at most one type sits beside the bus"
        )
    return types


def _per_colour(value: Any, path: tuple[str, ...], colours: tuple[Colour, ...]) -> list[int]:
    """Cards of one type in each colour: one number for every colour, or ``{colour name: number}``."""
    if isinstance(value, int):
        return [value] * len(colours)
    given = {_fold(name): count for name, count in value.items()}
    names = [_fold(c.name) for c in colours]
    for name in value:
        if _fold(name) not in names:
            raise SheetProblem((*path, name), f"is not a colour: use {', '.join(c.name for c in colours)}")
    for colour in colours:
        if _fold(colour.name) not in given:
            raise SheetProblem((*path, colour.name), "is missing: give every colour")
    return [given[name] for name in names]


def _deck(
    data: dict[str, Any], colours: tuple[Colour, ...], types: tuple[PassengerType, ...]
) -> tuple[int, ...]:
    """BAS-COMP-PASSENGERS: cards of each kind; every type given, by name, and enough cards to play."""
    names = [_fold(t.name) for t in types]
    for key in data:
        if _fold(key) not in names:
            raise SheetProblem(
                ("deck", key), f"is not a passenger type: use {', '.join(t.name for t in types)}"
            )
    per_type = []  # per_type[t][c]: cards of type t in colour c
    for t, ptype in enumerate(types):
        given = next((k for k in data if _fold(k) == names[t]), None)
        if given is None:
            raise SheetProblem(("deck", ptype.name), "is missing: give the number of cards of every type")
        per_type.append(_per_colour(data[given], ("deck", given), colours))
    per_colour = [[cards[c] for cards in per_type] for c in range(len(colours))]
    _check_deck_size(per_colour)
    return tuple(count for counts in per_colour for count in counts)  # kind = colour * len(types) + type


def _check_deck_size(per_colour: list[list[int]]) -> None:
    """Enough cards for the bus stop (BAS-SETUP-STOP), of two colours at least (BAS-SETUP-SAMECOLOUR)."""
    total = sum(map(sum, per_colour))
    if total < STOP_SIZE:
        raise SheetProblem(
            ("deck",), f"has {total} cards: the bus stop alone needs {STOP_SIZE} (BAS-SETUP-STOP)"
        )
    if sum(1 for counts in per_colour if any(counts)) < 2:
        raise SheetProblem(
            ("deck",),
            "has cards of fewer than two colours: the same-colour reshuffle (BAS-SETUP-SAMECOLOUR) needs at least two",
        )


def _stack_type(item: dict[str, Any], path: tuple[Any, ...], types: tuple[PassengerType, ...]) -> int | None:
    """Index of the passenger type a stack needs (``None`` for a multicoloured stack)."""
    if item["kind"] == MULTICOLOURED:
        return None
    names = [_fold(t.name) for t in types]
    wanted = item["type"]
    if _fold(wanted) not in names:
        raise SheetProblem(
            (*path, "type"), f"must be a passenger type ({', '.join(t.name for t in types)}), not {wanted!r}"
        )
    index = names.index(_fold(wanted))
    if types[index].senior:
        raise SheetProblem(
            (*path, "type"), f"{wanted!r} sits beside the bus (BAS-SENIOR) and cannot be dropped off"
        )
    return index


def _card(card: dict[str, Any], path: tuple[Any, ...], most: int) -> DestinationCard:
    """BAS-COMP-SIDES: counts increase up to ``most``; one number of points per count."""
    counts, points = card["counts"], card["points"]
    if any(b <= a for a, b in zip(counts, counts[1:])):
        raise SheetProblem((*path, "counts"), f"must increase, not {counts!r}")
    if counts[-1] > most:
        raise SheetProblem(
            (*path, "counts"),
            f"must lie between 1 and {most}: there are {most} colours and {BUS_SEATS} seats; got {counts!r}",
        )
    if len(points) != len(counts):
        raise SheetProblem(
            (*path, "points"), f"must list one number per count ({len(counts)}), not {points!r}"
        )
    return DestinationCard(tuple(counts), tuple(points))


def _stacks(
    items: list[dict], colours: tuple[Colour, ...], types: tuple[PassengerType, ...]
) -> tuple[Stack, ...]:
    """BAS-COMP-DESTINATIONS: the stacks, with more cards than the end trigger leaves (BAS-END-TRIGGER)."""
    _check_unique(items, "stacks", ("name",))
    stacks = []
    for i, item in enumerate(items):
        path = ("stacks", i)
        tindex = _stack_type(item, path, types)
        # a multicoloured claim needs pairwise different colours: at most one passenger per colour
        most = BUS_SEATS if tindex is not None else min(BUS_SEATS, len(colours))
        cards = tuple(_card(card, (*path, "cards", j), most) for j, card in enumerate(item["cards"]))
        stacks.append(Stack(item["name"].strip(), item["kind"], tindex, cards, item.get("known", "")))
    total = sum(len(s.cards) for s in stacks)
    if total <= END_DESTINATIONS_LEFT:
        raise SheetProblem(
            ("stacks",),
            f"hold {total} destination cards: the game ends when {END_DESTINATIONS_LEFT} are left "
            "(BAS-END-TRIGGER), so use more than that",
        )
    return tuple(stacks)


def _build(data: dict[str, Any]) -> Sheet:
    """The :class:`Sheet` of data that passed :data:`SCHEMA`, after the cross-field checks."""
    colours = _colours(data["colours"])
    types = _types(data["types"])
    deck = _deck(data["deck"], colours, types)
    stacks = _stacks(data["stacks"], colours, types)
    title = data.get("title", "Bus & Stop component sheet")
    return Sheet(colours, types, deck, stacks, title, tuple(data.get("notes", [])), data)


#: How a Bus & Stop sheet is read, checked and built.
SHEET_FORMAT = SheetFormat(SCHEMA, _build, DEFAULT_SHEET_PATH, sheet_type=Sheet)


def validate_sheet(data: Any, source: str = "") -> Sheet:
    """Check a sheet given as plain data and build a :class:`Sheet`.

    Args:
        data (dict): the sheet (format in the module docstring).
        source (str): where it came from (a quoted file name), for error messages.

    Raises:
        ComponentSheetError: the first problem found, naming the field (BAS-COMP-PASSENGERS,
            BAS-COMP-DESTINATIONS, BAS-COMP-SIDES).
    """
    return SHEET_FORMAT.check(plain_copy(data) if isinstance(data, Mapping) else data, source)


def load_sheet(source: Any = None) -> Sheet:
    """Load and validate a component sheet.

    Args:
        source: ``None`` (the built-in placeholder sheet, ``components.json``), a path (``str`` or
            :class:`~pathlib.Path`) to a JSON file (UTF-8), a :class:`Sheet`, or the sheet as a dict.

    Returns:
        a :class:`Sheet`.

    Raises:
        ComponentSheetError: the file cannot be read, is not UTF-8 JSON, or a field is wrong (the
            message names the file and the field).
    """
    return SHEET_FORMAT.load(source)


def default_sheet_data() -> dict[str, Any]:
    """The built-in sheet as a dict (a fresh copy: edit it and pass it as ``sheet=``)."""
    return load_sheet(None).to_dict()
