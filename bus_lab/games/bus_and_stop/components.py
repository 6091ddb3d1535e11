"""The Bus & Stop component sheet: passenger deck, destination stacks, counts and points, as data.

The figures live in ``components.json`` next to this module (BAS-COMP-PASSENGERS,
BAS-COMP-DESTINATIONS, BAS-COMP-SIDES). Most of them are placeholders: a teacher with the real box
can copy the file, fix the numbers and pass it to the game::

    bus_lab.load_game("bus_and_stop", sheet="my_box.json")     # a path to a JSON file
    bus_lab.load_game("bus_and_stop", sheet={...})             # or the same data as a dict

Every sheet is validated on load; a bad one raises :class:`ComponentSheetError` naming the field
(e.g. ``stacks[1].cards[2].points``). Standard library only.

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
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from bus_lab.engine.errors import ParameterError

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
_CODE = re.compile(r"^[A-Z0-9]$")
_INK = re.compile(r"^#[0-9A-Fa-f]{6}$")
_TOP_KEYS = {"title", "notes", "colours", "types", "deck", "stacks"}


class ComponentSheetError(ParameterError):
    """A component sheet that cannot be used. The message names the field and what is allowed."""


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


# -- loading and validation -------------------------------------------------------------------
def _fail(source: str, field: str, problem: str) -> ComponentSheetError:
    return ComponentSheetError(f"component sheet {source}: {field} {problem}")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any) -> bool:
    return isinstance(value, str) and value.strip() != ""


def _check_named_list(data: dict, key: str, source: str, least: int, most: int) -> list[dict]:
    items = data.get(key)
    if not isinstance(items, list):
        raise _fail(source, key, f"must be a list of {least} to {most} entries, not {type(items).__name__}")
    if not least <= len(items) <= most:
        raise _fail(source, key, f"has {len(items)} entries: use {least} to {most}")
    names, codes = set(), set()
    for i, item in enumerate(items):
        where = f"{key}[{i}]"
        if not isinstance(item, dict):
            raise _fail(source, where, f"must be an object, not {type(item).__name__}")
        name, code = item.get("name"), item.get("code")
        if not _text(name):
            raise _fail(source, f"{where}.name", f"must be a non-empty string, not {name!r}")
        if name.strip().lower() in names:
            raise _fail(source, f"{where}.name", f"{name!r} is used twice")
        if not isinstance(code, str) or not _CODE.match(code):
            raise _fail(source, f"{where}.code", f"must be one capital letter or digit, not {code!r}")
        if code in codes:
            raise _fail(source, f"{where}.code", f"{code!r} is used twice")
        names.add(name.strip().lower())
        codes.add(code)
    return items


def validate_sheet(data: Any, source: str = "(dict)") -> Sheet:
    """Check a sheet given as plain data and build a :class:`Sheet`.

    Args:
        data (dict): the sheet (format in the module docstring).
        source (str): where it came from, for error messages.

    Raises:
        ComponentSheetError: the first problem found, naming the field (BAS-COMP-PASSENGERS,
            BAS-COMP-DESTINATIONS, BAS-COMP-SIDES).
    """
    if not isinstance(data, dict):
        raise _fail(source, "(the whole sheet)", f"must be an object (a dict), not {type(data).__name__}")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise _fail(
            source, unknown[0], f"is not a field of a component sheet: use {', '.join(sorted(_TOP_KEYS))}"
        )
    title = data.get("title", "Bus & Stop component sheet")
    if not isinstance(title, str):
        raise _fail(source, "title", f"must be a string, not {type(title).__name__}")
    notes = data.get("notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        raise _fail(source, "notes", "must be a list of strings")

    # BAS-COMP-PASSENGERS: colours and types
    colour_items = _check_named_list(data, "colours", source, 2, MAX_COLOURS)
    colours = []
    for i, item in enumerate(colour_items):
        ink = item.get("ink", "#999999")
        if not isinstance(ink, str) or not _INK.match(ink):
            raise _fail(source, f"colours[{i}].ink", f"must be a colour like '#0072B2', not {ink!r}")
        extra = sorted(set(item) - {"name", "code", "ink"})
        if extra:
            raise _fail(source, f"colours[{i}].{extra[0]}", "is not a field of a colour: use name, code, ink")
        colours.append(Colour(item["name"].strip(), item["code"], ink))
    type_items = _check_named_list(data, "types", source, 2, MAX_TYPES)
    types = []
    for i, item in enumerate(type_items):
        senior = item.get("senior", False)
        if not isinstance(senior, bool):
            raise _fail(source, f"types[{i}].senior", f"must be true or false, not {senior!r}")
        extra = sorted(set(item) - {"name", "code", "senior"})
        if extra:
            raise _fail(source, f"types[{i}].{extra[0]}", "is not a field of a type: use name, code, senior")
        types.append(PassengerType(item["name"].strip(), item["code"], senior))
    if sum(t.senior for t in types) > 1:
        raise _fail(
            source, "types", "marks more than one type as senior: at most one type sits beside the bus"
        )
    if all(t.senior for t in types):
        raise _fail(source, "types", "needs at least one type that is not senior")
    colour_index = {c.name.lower(): i for i, c in enumerate(colours)}
    type_index = {t.name.lower(): i for i, t in enumerate(types)}

    # BAS-COMP-PASSENGERS: the deck, per colour
    deck_data = data.get("deck")
    if not isinstance(deck_data, dict):
        raise _fail(
            source, "deck", "must be an object {type name: cards per colour, or {colour name: cards}}"
        )
    deck = [0] * (len(colours) * len(types))
    for key in deck_data:
        if not isinstance(key, str) or key.strip().lower() not in type_index:
            raise _fail(
                source, f"deck[{key!r}]", f"is not a passenger type: use {', '.join(t.name for t in types)}"
            )
    for t, ptype in enumerate(types):
        matches = [k for k in deck_data if k.strip().lower() == ptype.name.lower()]
        if not matches:
            raise _fail(source, f"deck[{ptype.name!r}]", "is missing: give the number of cards of every type")
        value = deck_data[matches[0]]
        if _int(value):
            per = {c.name: value for c in colours}
        elif isinstance(value, dict):
            for cname in value:
                if not isinstance(cname, str) or cname.strip().lower() not in colour_index:
                    raise _fail(
                        source,
                        f"deck[{ptype.name!r}][{cname!r}]",
                        f"is not a colour: use {', '.join(c.name for c in colours)}",
                    )
            lowered = {cname.strip().lower(): v for cname, v in value.items()}
            per = {c.name: lowered.get(c.name.lower()) for c in colours}
            missing = [name for name, v in per.items() if v is None]
            if missing:
                raise _fail(source, f"deck[{ptype.name!r}][{missing[0]!r}]", "is missing: give every colour")
        else:
            raise _fail(
                source,
                f"deck[{ptype.name!r}]",
                f"must be a whole number or {{colour: number}}, not {value!r}",
            )
        for cname, count in per.items():
            if not _int(count) or not 0 <= count <= 200:
                raise _fail(
                    source,
                    f"deck[{ptype.name!r}][{cname!r}]",
                    f"must be a whole number from 0 to 200, not {count!r}",
                )
            deck[colour_index[cname.lower()] * len(types) + t] = count
    if sum(deck) < STOP_SIZE:
        raise _fail(
            source, "deck", f"has {sum(deck)} cards: the bus stop alone needs {STOP_SIZE} (BAS-SETUP-STOP)"
        )
    per_colour = [sum(deck[c * len(types) : (c + 1) * len(types)]) for c in range(len(colours))]
    if sum(1 for n in per_colour if n) < 2:
        raise _fail(
            source,
            "deck",
            "has cards of fewer than two colours: the same-colour reshuffle "
            "(BAS-SETUP-SAMECOLOUR) needs at least two",
        )

    # BAS-COMP-DESTINATIONS, BAS-COMP-SIDES: the stacks
    stack_items = data.get("stacks")
    if not isinstance(stack_items, list) or not 1 <= len(stack_items) <= 10:
        raise _fail(source, "stacks", "must be a list of 1 to 10 stacks")
    stacks, stack_names = [], set()
    for i, item in enumerate(stack_items):
        where = f"stacks[{i}]"
        if not isinstance(item, dict):
            raise _fail(source, where, f"must be an object, not {type(item).__name__}")
        extra = sorted(set(item) - {"name", "kind", "type", "cards", "known"})
        if extra:
            raise _fail(
                source, f"{where}.{extra[0]}", "is not a field of a stack: use name, kind, type, cards, known"
            )
        name = item.get("name")
        if not _text(name):
            raise _fail(source, f"{where}.name", f"must be a non-empty string, not {name!r}")
        if name.strip().lower() in stack_names:
            raise _fail(source, f"{where}.name", f"{name!r} is used twice")
        stack_names.add(name.strip().lower())
        kind = item.get("kind")
        if kind not in ("type", MULTICOLOURED):
            raise _fail(source, f"{where}.kind", f"must be 'type' or 'multicoloured', not {kind!r}")
        tindex = None
        if kind == "type":
            tname = item.get("type")
            if not isinstance(tname, str) or tname.strip().lower() not in type_index:
                raise _fail(
                    source,
                    f"{where}.type",
                    f"must be a passenger type ({', '.join(t.name for t in types)}), not {tname!r}",
                )
            tindex = type_index[tname.strip().lower()]
            if types[tindex].senior:
                raise _fail(
                    source,
                    f"{where}.type",
                    f"{tname!r} sits beside the bus (BAS-SENIOR) and cannot be dropped off",
                )
        elif "type" in item:
            raise _fail(source, f"{where}.type", "does not apply to a multicoloured stack: leave it out")
        most = BUS_SEATS if kind == "type" else min(BUS_SEATS, len(colours))
        cards_data = item.get("cards")
        if not isinstance(cards_data, list) or not 1 <= len(cards_data) <= 20:
            raise _fail(source, f"{where}.cards", "must be a list of 1 to 20 cards")
        cards = []
        for j, card in enumerate(cards_data):
            cw = f"{where}.cards[{j}]"
            if not isinstance(card, dict) or set(card) != {"counts", "points"}:
                raise _fail(source, cw, "must be an object with exactly the fields counts and points")
            counts, points = card["counts"], card["points"]
            if not isinstance(counts, list) or not counts or not all(_int(k) for k in counts):
                raise _fail(
                    source, f"{cw}.counts", f"must be a non-empty list of whole numbers, not {counts!r}"
                )
            if any(b <= a for a, b in zip(counts, counts[1:])):
                raise _fail(source, f"{cw}.counts", f"must increase, not {counts!r}")
            if counts[0] < 1 or counts[-1] > most:
                why = (
                    f"a bus holds {BUS_SEATS} passengers (BAS-PICK-LIMIT)"
                    if kind == "type"
                    else f"there are {len(colours)} colours and {BUS_SEATS} seats"
                )
                raise _fail(source, f"{cw}.counts", f"must lie between 1 and {most}: {why}; got {counts!r}")
            if not isinstance(points, list) or len(points) != len(counts):
                raise _fail(
                    source, f"{cw}.points", f"must list one number per count ({len(counts)}), not {points!r}"
                )
            if not all(_int(p) and 0 <= p <= 1000 for p in points):
                raise _fail(source, f"{cw}.points", f"must be whole numbers from 0 to 1000, not {points!r}")
            cards.append(DestinationCard(tuple(counts), tuple(points)))
        known = item.get("known", "")
        if not isinstance(known, str):
            raise _fail(source, f"{where}.known", f"must be a string, not {known!r}")
        stacks.append(Stack(name.strip(), kind, tindex, tuple(cards), known))
    total = sum(len(s.cards) for s in stacks)
    if total <= END_DESTINATIONS_LEFT:
        raise _fail(
            source,
            "stacks",
            f"hold {total} destination cards: the game ends when "
            f"{END_DESTINATIONS_LEFT} are left (BAS-END-TRIGGER), so use more than that",
        )
    plain = json.loads(json.dumps(data))
    return Sheet(tuple(colours), tuple(types), tuple(deck), tuple(stacks), title, tuple(notes), plain)


@lru_cache(maxsize=1)
def _default_text() -> str:
    return DEFAULT_SHEET_PATH.read_text(encoding="utf-8")


@lru_cache(maxsize=64)
def _from_json_text(text: str, source: str) -> Sheet:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ComponentSheetError(f"component sheet {source}: not valid JSON ({err})") from None
    return validate_sheet(data, source)


def load_sheet(source: Any = None) -> Sheet:
    """Load and validate a component sheet.

    Args:
        source: ``None`` (the built-in placeholder sheet, ``components.json``), a path (``str`` or
            :class:`~pathlib.Path`) to a JSON file, a :class:`Sheet`, or the sheet as a dict.

    Returns:
        a :class:`Sheet`.

    Raises:
        ComponentSheetError: the file cannot be read, is not JSON, or a field is wrong (the message
            names the field).
    """
    if source is None:
        return _from_json_text(_default_text(), "components.json (built in)")
    if isinstance(source, Sheet):
        return source
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            raise ComponentSheetError(
                f"component sheet {str(source)!r}: cannot read the file ({err.strerror or err})"
            ) from None
        return _from_json_text(text, repr(str(source)))
    if isinstance(source, dict):
        try:
            text = json.dumps(source, sort_keys=True)
        except (TypeError, ValueError) as err:
            raise ComponentSheetError(f"component sheet (dict): not JSON-safe data ({err})") from None
        return _from_json_text(text, "(dict)")
    raise ComponentSheetError(
        f"sheet={source!r}: use None (the built-in sheet), a path to a JSON file, or a dict"
    )


def default_sheet_data() -> dict[str, Any]:
    """The built-in sheet as a dict (a fresh copy: edit it and pass it as ``sheet=``)."""
    return load_sheet(None).to_dict()
