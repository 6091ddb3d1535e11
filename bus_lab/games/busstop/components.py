"""Busstop components: the fixed facts of the rules and the replaceable component sheet.

The rules fix the passengers (BSB-COMP-PASSENGERS), the 10 player tiles per colour
(BSB-COMP-PLAYERTILES), the two buses plus a locked third one and the 13-space queue
(BSB-COMP-BOARD), 10 rounds (BSB-END) and the thresholds 9 (BSB-EXTRA-BUS) and 14
(BSB-PROXY-PENALTY). The board facts no public source gives -- the player-order zone of each table
size (BSB-COMP-ZONE), the seats of each bus, the sort printed on each player tile and the bonus
tiles of the two options -- are placeholders in a *component sheet*, the JSON file ``sheet.json``
next to this module. :func:`load_sheet` reads and checks a sheet against :data:`SCHEMA` (a JSON
Schema) and the cross-field checks below; a teacher can pass another one to the game
(``load_game("busstop", sheet="my_sheet.json")`` or ``sheet={...}``). In error messages, as on the
board, positions, their arrows and the buses count from 1 (``zones.4.positions[3].black``,
``bus_seats[2]``); colours count from 0 (``end_bonus[4]``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bus_lab.games.sheets import ComponentSheetError, SheetFormat, SheetProblem, plain_copy
from bus_lab.games.sheets import read_sheet_file as read_sheet_file

#: The five sorts of passenger (BSB-COMP-PASSENGERS), in the order used everywhere.
SORTS = ("baby", "child", "girl", "salaryman", "granny")
#: How each sort reads in sentences about several passengers.
SORT_PLURALS = ("babies", "children", "girls", "salary men", "grannies")
#: Passenger kinds in the face-down stack: 0-4 ordinary (by sort), 5-9 the VIP of each sort, 10 the ETs.
KIND_NAMES = SORTS + tuple(f"VIP {s}" for s in SORTS) + ("extra-terrestrial",)
#: The short code of each kind: also the label of its draw (a chance outcome), e.g. ``"Gi"``, ``"VGi"``, ``"ET"``.
KIND_CODES = ("Ba", "Ch", "Gi", "Sa", "Gr", "VBa", "VCh", "VGi", "VSa", "VGr", "ET")
VIP_BASE = 5
ET = 10
#: How many tiles of each kind the stack holds (BSB-COMP-PASSENGERS): 8 per sort, 1 VIP per sort, 5 ETs.
STACK_COUNTS = (8, 8, 8, 8, 8, 1, 1, 1, 1, 1, 5)
STACK_SIZE = sum(STACK_COUNTS)  # 50
#: Player tiles per colour, numbered 1-10 (BSB-COMP-PLAYERTILES).
TILES = tuple(range(1, 11))
ROUNDS = 10  # BSB-END
QUEUE_SPACES = 13  # BSB-COMP-BOARD, BSB-QUEUE: beyond this the queue goes on off the board
EXTRA_BUS_AT = 9  # BSB-EXTRA-BUS
PROXY_PENALTY_AT = 14  # BSB-PROXY-PENALTY
END_BONUS_POINTS = 5  # BSB-OPT-ENDBONUS
#: The end-game requirements a sheet may hand out (BSB-OPT-ENDBONUS), with their meaning.
END_BONUS_REQUIREMENTS = {
    "empty_queue": "nobody left in your queue at the end (penalty tiles count as queued)",
    "vip_scored": "at least one VIP in your score pile",
    "all_sorts": "all five sorts in your score pile (a VIP counts as its sort)",
    "third_bus": "your third bus was opened",
    "three_ets": "at least 3 extra-terrestrials in your score pile",
}
#: Where the packaged sheet lives.
DEFAULT_SHEET_PATH = Path(__file__).with_name("sheet.json")
_TOP_KEYS = ("zones", "bus_seats", "player_tiles", "passenger_bonus", "end_bonus")


#: A component sheet that cannot be used; the message names the file, the field (e.g.
#: ``zones.4.positions[2].black``) and what is allowed. (The error of every game's sheet.)
SheetError = ComponentSheetError


@dataclass(frozen=True)
class Zone:
    """The player-order zone for one number of positions (BSB-COMP-ZONE).

    Attributes:
        passengers (int): passengers lined up per round (queue slots q1..qQ).
        conductor (int): 0-based index of the position with the conductor symbol.
        black (tuple[tuple[int, ...], ...]): per position, the 0-based queue slots its black
            arrows point at.
        white (tuple[bool, ...]): per position, whether it has a white icon.
    """

    passengers: int
    conductor: int
    black: tuple[tuple[int, ...], ...]
    white: tuple[bool, ...]

    @property
    def positions(self) -> int:
        """Number of positions (players, with the proxy bus counted)."""
        return len(self.white)


@dataclass(frozen=True)
class Sheet:
    """A checked component sheet (see :func:`load_sheet`).

    Attributes:
        zones (dict[int, Zone]): by number of positions (3, 4, 5).
        bus_seats (tuple[int, int, int]): seats of bus 1, bus 2 and the third bus.
        tile_sorts (tuple[int, ...]): sort index (into :data:`SORTS`) of player tiles 1..10
            (``tile_sorts[number - 1]``).
        passenger_bonus (tuple[int, ...]): favoured sort index of colours 0..4 (BSB-OPT-BONUS).
        end_bonus (tuple[str, ...]): requirement of colours 0..4 (BSB-OPT-ENDBONUS).
        data (dict): the sheet as plain JSON-safe data (comments dropped).
    """

    zones: dict
    bus_seats: tuple
    tile_sorts: tuple
    passenger_bonus: tuple
    end_bonus: tuple
    data: dict

    def tile_sort(self, number: int) -> int:
        """Sort index of player tile ``number`` (1-10)."""
        return self.tile_sorts[number - 1]


def _strip_comments(data: Any) -> Any:
    if isinstance(data, Mapping):
        return {str(k): _strip_comments(v) for k, v in data.items() if not str(k).startswith("_")}
    if isinstance(data, list):
        return [_strip_comments(v) for v in data]
    return data


# -- the schema (shape, types, ranges) -----------------------------------------------------------
_SORT = {"enum": list(SORTS)}
_MOST_PASSENGERS = STACK_SIZE // ROUNDS
_POSITION = {
    "title": "a position",
    "type": "object",
    "required": ["black", "white"],
    "additionalProperties": False,
    "properties": {
        "black": {"type": "array", "items": {"type": "integer", "minimum": 1}},
        "white": {
            "const": True,
            "x-expected": "true: there are as many white icons as players, one for each tile played "
            "(BSB-COMP-ZONE)",
        },
    },
}


def _zone_schema(positions: int) -> dict[str, Any]:
    return {
        "title": "a zone",
        "type": "object",
        "required": ["passengers", "conductor", "positions"],
        "additionalProperties": False,
        "properties": {
            "passengers": {
                "type": "integer",
                "minimum": 1,
                "maximum": _MOST_PASSENGERS,
                "x-expected": f"a whole number of passengers from 1 to {_MOST_PASSENGERS}: the passengers "
                f"of {ROUNDS} rounds come from the stack of {STACK_SIZE} (BSB-ROUND-LINEUP)",
            },
            "conductor": {"type": "integer", "minimum": 1, "maximum": positions},
            "positions": {
                "type": "array",
                "minItems": positions,
                "maxItems": positions,
                "items": _POSITION,
                "x-expected": f"a list of exactly {positions} positions (one per player, the proxy bus "
                "counted)",
            },
        },
    }


#: JSON Schema (draft 2020-12) of a sheet (comments, keys starting with ``_``, dropped first): the
#: shape; :func:`_build` checks the arrows of each zone.
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "a component sheet",
    "type": "object",
    "required": list(_TOP_KEYS),
    "additionalProperties": False,
    "properties": {
        "zones": {
            "title": "the zones (one per number of positions: 2 players use 3 with the proxy bus)",
            "type": "object",
            "required": ["3", "4", "5"],
            "additionalProperties": False,
            "properties": {str(n): _zone_schema(n) for n in (3, 4, 5)},
        },
        "bus_seats": {
            "type": "array",
            "minItems": 3,
            "maxItems": 3,
            "items": {"type": "integer", "minimum": 1, "maximum": 20},
            "x-expected": "the seats of 3 buses (bus 1, bus 2, the third bus), e.g. [3, 4, 5]",
        },
        "player_tiles": {
            "title": "the player tiles (1 to 10)",
            "type": "object",
            "required": [str(t) for t in TILES],
            "additionalProperties": False,
            "properties": {str(t): _SORT for t in TILES},
        },
        "passenger_bonus": {
            "type": "array",
            "minItems": 5,
            "maxItems": 5,
            "uniqueItems": True,
            "items": _SORT,
            "x-expected": "5 different sorts, one per colour 0-4 (BSB-OPT-BONUS)",
        },
        "end_bonus": {
            "type": "array",
            "minItems": 5,
            "maxItems": 5,
            "uniqueItems": True,
            "items": {"enum": list(END_BONUS_REQUIREMENTS)},
            "x-expected": "5 different requirements, one per colour 0-4 (BSB-OPT-ENDBONUS)",
        },
    },
}


# -- the checks a schema cannot make, and the Sheet ----------------------------------------------
def _zone(key: str, raw: dict[str, Any]) -> Zone:
    """BSB-COMP-ZONE: every queue slot 1..passengers has exactly one black arrow."""
    q = raw["passengers"]
    arrows: dict[int, int] = {}
    for i, pos in enumerate(raw["positions"]):
        for slot in pos["black"]:
            where = ("zones", key, "positions", i, "black")
            if slot > q:
                raise SheetProblem(where, f"queue slot {slot} is not between 1 and {q}")
            if slot in arrows:
                raise SheetProblem(
                    where,
                    f"queue slot {slot} already has an arrow from position {arrows[slot]}: every slot has "
                    "exactly one",
                )
            arrows[slot] = i + 1
    lonely = [s for s in range(1, q + 1) if s not in arrows]
    if lonely:
        raise SheetProblem(
            ("zones", key, "positions"),
            f"queue slot(s) {', '.join(map(str, lonely))} have no arrow: every slot has exactly one "
            "(BSB-COMP-ZONE)",
        )
    black = tuple(tuple(s - 1 for s in pos["black"]) for pos in raw["positions"])
    white = tuple(pos["white"] for pos in raw["positions"])
    return Zone(passengers=q, conductor=raw["conductor"] - 1, black=black, white=white)


def _build(data: dict[str, Any]) -> Sheet:
    """The :class:`Sheet` of data that passed :data:`SCHEMA`, after the checks of each zone."""
    return Sheet(
        zones={int(k): _zone(k, data["zones"][k]) for k in ("3", "4", "5")},
        bus_seats=tuple(data["bus_seats"]),
        tile_sorts=tuple(SORTS.index(data["player_tiles"][str(t)]) for t in TILES),
        passenger_bonus=tuple(SORTS.index(s) for s in data["passenger_bonus"]),
        end_bonus=tuple(data["end_bonus"]),
        data=data,
    )


#: How a Busstop sheet is read, checked and built (comments dropped first).
SHEET_FORMAT = SheetFormat(
    SCHEMA,
    _build,
    DEFAULT_SHEET_PATH,
    counted_from_one=("positions", "black", "bus_seats"),
    prepare=_strip_comments,
)


def validate_sheet(data: Mapping[str, Any]) -> Sheet:
    """Check a component sheet given as data and return it as a :class:`Sheet`.

    Args:
        data (Mapping): the fields ``zones`` (keys ``"3"``, ``"4"``, ``"5"``), ``bus_seats``,
            ``player_tiles`` (keys ``"1"``..``"10"``), ``passenger_bonus`` and ``end_bonus``;
            keys starting with ``_`` are comments. Integer keys are accepted and read as text.

    Raises:
        SheetError: a missing, unknown or wrong field; the message names it and what is allowed
            (e.g. a queue slot with no arrow or two, white icons not one per player, a figure that
            would run the stack out in 10 rounds, an unknown sort or requirement).
    """
    return SHEET_FORMAT.check(_strip_comments(plain_copy(data)) if isinstance(data, Mapping) else data)


def load_sheet(source: str | Path | Mapping[str, Any] | None = None) -> Sheet:
    """Load and check a component sheet.

    Args:
        source: ``None`` for the packaged sheet (``sheet.json``), a path to a JSON file (UTF-8),
            or the sheet's data as a dict.

    Raises:
        SheetError: unreadable file, not UTF-8 JSON, or a field that fails the checks of
            :func:`validate_sheet` (the message names the file and the field).
    """
    return SHEET_FORMAT.load(source)


def default_sheet_data() -> dict:
    """The packaged sheet as data (a fresh copy, comments dropped): a starting point to edit."""
    return json.loads(json.dumps(load_sheet(None).data))
