"""Busstop components: the fixed facts of the rules and the replaceable component sheet.

The rules fix the passengers (BSB-COMP-PASSENGERS), the 10 player tiles per colour
(BSB-COMP-PLAYERTILES), the two buses plus a locked third one and the 13-space queue
(BSB-COMP-BOARD), 10 rounds (BSB-END) and the thresholds 9 (BSB-EXTRA-BUS) and 14
(BSB-PROXY-PENALTY). The board facts no public source gives -- the player-order zone of each table
size (BSB-COMP-ZONE), the seats of each bus, the sort printed on each player tile and the bonus
tiles of the two options -- are placeholders in a *component sheet*, the JSON file ``sheet.json``
next to this module. :func:`load_sheet` reads and checks a sheet; a teacher can pass another one
to the game (``load_game("busstop", sheet="my_sheet.json")`` or ``sheet={...}``).

Standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bus_lab.engine.errors import ParameterError

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


class SheetError(ParameterError):
    """A component sheet that cannot be used; the message names the field (e.g.
    ``zones.4.positions[2].black``) and what is allowed."""


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


def _fail(field: str, problem: str) -> SheetError:
    return SheetError(f"component sheet, field {field}: {problem}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _strip_comments(data: Any) -> Any:
    if isinstance(data, Mapping):
        return {str(k): _strip_comments(v) for k, v in data.items() if not str(k).startswith("_")}
    if isinstance(data, (list, tuple)):
        return [_strip_comments(v) for v in data]
    return data


def _check_zone(key: str, raw: Any) -> Zone:
    where = f"zones.{key}"
    positions = int(key)
    if not isinstance(raw, Mapping):
        raise _fail(where, "must be an object with passengers, conductor and positions")
    missing = [k for k in ("passengers", "conductor", "positions") if k not in raw]
    extra = sorted(set(raw) - {"passengers", "conductor", "positions"})
    if missing:
        raise _fail(where, f"missing {', '.join(missing)}")
    if extra:
        raise _fail(where, f"unknown field(s) {', '.join(extra)}: use passengers, conductor, positions")
    q = raw["passengers"]
    if not _is_int(q) or q < 1:
        raise _fail(f"{where}.passengers", f"{q!r} is not a whole number of passengers of at least 1")
    if q * ROUNDS > STACK_SIZE:
        raise _fail(
            f"{where}.passengers",
            f"{q} a round for {ROUNDS} rounds needs {q * ROUNDS} passengers, "
            f"but the stack holds only {STACK_SIZE} (BSB-ROUND-LINEUP)",
        )
    rows = raw["positions"]
    if not isinstance(rows, list) or len(rows) != positions:
        raise _fail(
            f"{where}.positions",
            f"must list exactly {positions} positions (one per player, the proxy bus counted)",
        )
    conductor = raw["conductor"]
    if not _is_int(conductor) or not 1 <= conductor <= positions:
        raise _fail(f"{where}.conductor", f"{conductor!r} is not a position from 1 to {positions}")
    arrows: dict[int, int] = {}
    black, white = [], []
    for i, pos in enumerate(rows, start=1):
        here = f"{where}.positions[{i}]"
        if not isinstance(pos, Mapping) or set(pos) != {"black", "white"}:
            raise _fail(
                here,
                "must be an object with exactly the fields black (a list of queue slots) "
                "and white (true or false)",
            )
        slots = pos["black"]
        if not isinstance(slots, list):
            raise _fail(f"{here}.black", "must be a list of queue slots, e.g. [2, 3]")
        for slot in slots:
            if not _is_int(slot) or not 1 <= slot <= q:
                raise _fail(f"{here}.black", f"queue slot {slot!r} is not between 1 and {q}")
            if slot in arrows:
                raise _fail(
                    f"{here}.black",
                    f"queue slot {slot} already has an arrow from position "
                    f"{arrows[slot]}: every slot has exactly one",
                )
            arrows[slot] = i
        if not isinstance(pos["white"], bool):
            raise _fail(f"{here}.white", f"{pos['white']!r} is not true or false")
        black.append(tuple(s - 1 for s in slots))
        white.append(pos["white"])
    lonely = [s for s in range(1, q + 1) if s not in arrows]
    if lonely:
        raise _fail(
            f"{where}.positions",
            f"queue slot(s) {', '.join(map(str, lonely))} have no arrow: every "
            f"slot has exactly one (BSB-COMP-ZONE)",
        )
    if sum(white) != positions:
        raise _fail(
            f"{where}.positions",
            f"{sum(white)} white icons, but there must be as many as players "
            f"({positions}), one for each tile played (BSB-COMP-ZONE)",
        )
    return Zone(passengers=q, conductor=conductor - 1, black=tuple(black), white=tuple(white))


def _check_sort(field: str, value: Any) -> int:
    if value not in SORTS:
        raise _fail(field, f"{value!r} is not a sort: use one of {', '.join(SORTS)}")
    return SORTS.index(value)


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
    if not isinstance(data, Mapping):
        raise SheetError(f"a component sheet is a dict (or a JSON file of one), not {type(data).__name__}")
    clean = _strip_comments(data)
    missing = [k for k in _TOP_KEYS if k not in clean]
    if missing:
        raise _fail(missing[0], "is missing (a sheet needs " + ", ".join(_TOP_KEYS) + ")")
    extra = sorted(set(clean) - set(_TOP_KEYS))
    if extra:
        raise _fail(extra[0], "is not a field of the sheet (fields: " + ", ".join(_TOP_KEYS) + ")")

    zones_raw = clean["zones"]
    if not isinstance(zones_raw, Mapping):
        raise _fail("zones", "must be an object keyed by number of positions")
    needed = ("3", "4", "5")
    if sorted(zones_raw) != sorted(needed):
        raise _fail(
            "zones",
            f"must have exactly the keys 3, 4 and 5 (2 players use 3 positions with the "
            f"proxy bus), not {', '.join(sorted(zones_raw)) or 'none'}",
        )
    zones = {int(k): _check_zone(k, zones_raw[k]) for k in needed}

    seats = clean["bus_seats"]
    if not isinstance(seats, list) or len(seats) != 3:
        raise _fail(
            "bus_seats", "must list the seats of 3 buses (bus 1, bus 2, the third bus), e.g. [3, 4, 5]"
        )
    for i, s in enumerate(seats, start=1):
        if not _is_int(s) or not 1 <= s <= 20:
            raise _fail(f"bus_seats[{i}]", f"{s!r} is not a number of seats from 1 to 20")

    tiles = clean["player_tiles"]
    if not isinstance(tiles, Mapping):
        raise _fail("player_tiles", "must map each tile number 1-10 to a sort")
    keys = sorted(tiles, key=lambda k: (len(k), k))
    if keys != [str(t) for t in TILES]:
        raise _fail("player_tiles", f"must have exactly the keys 1 to 10, not {', '.join(keys)}")
    tile_sorts = tuple(_check_sort(f"player_tiles.{t}", tiles[str(t)]) for t in TILES)

    bonus = clean["passenger_bonus"]
    if not isinstance(bonus, list) or len(bonus) != 5:
        raise _fail("passenger_bonus", "must list 5 sorts, one per colour 0-4")
    bonus_sorts = tuple(_check_sort(f"passenger_bonus[{i}]", s) for i, s in enumerate(bonus))
    if len(set(bonus_sorts)) != 5:
        raise _fail("passenger_bonus", "each colour names a different sort")

    ends = clean["end_bonus"]
    if not isinstance(ends, list) or len(ends) != 5:
        raise _fail("end_bonus", "must list 5 requirements, one per colour 0-4")
    for i, req in enumerate(ends):
        if req not in END_BONUS_REQUIREMENTS:
            raise _fail(
                f"end_bonus[{i}]",
                f"{req!r} is not a requirement: use one of {', '.join(END_BONUS_REQUIREMENTS)}",
            )
    if len(set(ends)) != 5:
        raise _fail("end_bonus", "each player gets a different requirement (BSB-OPT-ENDBONUS)")
    return Sheet(
        zones=zones,
        bus_seats=tuple(seats),
        tile_sorts=tile_sorts,
        passenger_bonus=bonus_sorts,
        end_bonus=tuple(ends),
        data=json.loads(json.dumps(clean)),
    )


def read_sheet_file(path: str | Path) -> dict:
    """The data of a component sheet file (JSON), not yet checked.

    Raises:
        SheetError: the file cannot be read or is not JSON (the message names the file).
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise SheetError(
            f"cannot read the component sheet file {str(path)!r}: {err.strerror or err}"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise SheetError(f"component sheet file {str(path)!r} is not valid JSON: {err}") from None


def load_sheet(source: str | Path | Mapping[str, Any] | None = None) -> Sheet:
    """Load and check a component sheet.

    Args:
        source: ``None`` for the packaged sheet (``sheet.json``), a path to a JSON file, or the
            sheet's data as a dict.

    Raises:
        SheetError: unreadable file, bad JSON, or a field that fails the checks of
            :func:`validate_sheet` (the message names the field).
    """
    if source is None:
        return _default_sheet()
    if isinstance(source, (str, Path)):
        return validate_sheet(read_sheet_file(source))
    return validate_sheet(source)


_DEFAULT: list[Sheet] = []


def _default_sheet() -> Sheet:
    if not _DEFAULT:
        _DEFAULT.append(validate_sheet(read_sheet_file(DEFAULT_SHEET_PATH)))
    return _DEFAULT[0]


def default_sheet_data() -> dict:
    """The packaged sheet as data (a fresh copy, comments dropped): a starting point to edit."""
    return json.loads(json.dumps(_default_sheet().data))
