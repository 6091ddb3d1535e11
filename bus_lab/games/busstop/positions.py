"""Busstop positions a teacher sets up: ``game.state_from_position(position)`` and
``state.position()``.

A position is taken **at the start of a round**, before its line-up is turned up (phase
``"lineup"`` with no passenger turned up yet: a chance node). Within a round (the line-up, the
bids, the taking and the placing) there is no position: :func:`position_of` raises
:class:`~bus_lab.engine.errors.PositionError` saying so. At the start of a round nothing is face
down: every board and every hand of tiles is on the table.

What is unseen is the passenger stack. It is not ordered: each passenger turned up is a kind drawn
with probability ``passengers of that kind left / passengers left``, as in a game played from the
start. By default the stack is the 50 passengers minus every drawn passenger on the boards; a
position may give it (``"stack"``) when some passengers left the game (a custom zone that leaves
line-up slots untaken). The proxy bus's tile each round is drawn from its hand, each equally likely.

Passengers are written as in views: a drawn one by its kind code (``"Ba"``, ``"Ch"``, ``"Gi"``,
``"Sa"``, ``"Gr"``, the VIPs ``"VBa"`` … ``"VGr"``, ``"ET"``), a player tile as
``"owner/number"`` (``"1/7"``: participant 1's tile 7). The shape is :class:`Position`.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any, TypedDict, cast

from bus_lab.games.busstop.components import (
    EXTRA_BUS_AT,
    KIND_CODES,
    PROXY_PENALTY_AT,
    ROUNDS,
    SORT_PLURALS,
    STACK_COUNTS,
    STACK_SIZE,
    TILES,
)
from bus_lab.games.busstop.phases import BusstopPhase
from bus_lab.games.positions import PositionError, PositionFormat

if TYPE_CHECKING:
    from bus_lab.games.busstop.game import BusstopGame
    from bus_lab.games.busstop.state import BusstopState

__all__ = ["EXAMPLE", "Position", "BoardPosition", "position_of", "state_from_position"]

#: The first token number of a player tile (``state.TILE_BASE``): tile ``n`` of owner ``o`` is
#: ``TILE_BASE + 10 * o + n - 1``.
TILE_BASE = 100
_TILE = re.compile(r"^(\d)/(10|[1-9])$")
ET_CODE = "ET"


class BoardPosition(TypedDict):
    """One participant's board and tiles (passengers as codes, see the module docstring).

    Keys:
        buses (list[list[str]]): bus 1, bus 2 and the third bus, each its passengers in the order
            they boarded; fewer than its seats (a full bus leaves at once, BSB-BOARD-LEAVE), one
            sort apart from ETs (BSB-BOARD-SORT); the third bus empty unless ``extra_bus``.
        queue (list[str]): the temporary queue, head first (no ET ever queues, BSB-QUEUE).
        pile (list[str]): the score pile (passengers of buses that left).
        penalty (list[str]): penalty tiles taken from the proxy's queue (2 players only).
        extra_bus (bool): the third bus is open (BSB-EXTRA-BUS; a queue of 9 or more at the end
            of a round opens it, so such a queue means ``true``).
        hand (list[int]): the player tiles (1-10) not played yet: ``11 − round`` of them, none
            of them on a board.
    """

    buses: list[list[str]]
    queue: list[str]
    pile: list[str]
    penalty: list[str]
    extra_bus: bool
    hand: list[int]


class _PositionRequired(TypedDict):
    round: int
    conductor: int
    boards: list[BoardPosition]


class Position(_PositionRequired, total=False):
    """A Busstop position at the start of a round.

    Keys:
        round (int): the round about to start, 1 to 10.
        conductor (int): the participant who is conductor this round (with 2 players the proxy
            bus, participant 2, may be).
        boards (list[BoardPosition]): every participant's board, by participant (with 2 players
            three: the proxy bus last).
        proxy_player (int | None): optional, read only: the seat making the proxy's choices this
            round (seat 1 in odd rounds, seat 0 in even ones, BSB-PROXY-CHOICES; ``None``
            without a proxy). When given it must match.
        stack (dict[str, int]): optional: the passengers left in the stack by kind code (kinds
            with none left may be left out). By default the 50 passengers minus the drawn ones on
            the boards. Either way the stack holds ``50 − (round − 1) × passengers per line-up``.

    Raises (from ``state_from_position``):
        PositionError: a missing key, a wrong type, an unknown code or participant, or a table
            no game reaches: a tile twice (on two boards, or on a board and in its owner's hand),
            more passengers of a kind than the stack has, a full bus, two sorts in a bus, an ET
            in a queue, a queue of 9 with the third bus closed, a hand of the wrong size, a stack
            of the wrong size.
    """

    proxy_player: int | None
    stack: dict[str, int]


@functools.lru_cache(maxsize=32)
def _format(game: BusstopGame) -> PositionFormat:
    n = 3 if game.num_players == 2 else game.num_players
    code = {
        "anyOf": [{"enum": list(KIND_CODES)}, {"type": "string", "pattern": _TILE.pattern}],
        "x-expected": "a passenger code (Ba, Ch, Gi, Sa, Gr, VBa, VCh, VGi, VSa, VGr, ET) or a player "
        "tile 'owner/number' such as '1/7'",
    }
    row = {"type": "array", "items": code}
    board = {
        "type": "object",
        "title": "a board",
        "required": list(BoardPosition.__annotations__),
        "additionalProperties": False,
        "properties": {
            "buses": {"type": "array", "items": row, "minItems": 3, "maxItems": 3},
            "queue": row,
            "pile": row,
            "penalty": row,
            "extra_bus": {"type": "boolean"},
            "hand": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1, "maximum": 10},
                "uniqueItems": True,
            },
        },
    }
    schema = {
        "type": "object",
        "title": "a Busstop position",
        "required": list(_PositionRequired.__annotations__),
        "additionalProperties": False,
        "properties": {
            "round": {"type": "integer", "minimum": 1, "maximum": ROUNDS},
            "conductor": {"type": "integer", "minimum": 0, "maximum": n - 1},
            "boards": {"type": "array", "items": board, "minItems": n, "maxItems": n},
            "proxy_player": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": 1}]},
            "stack": {
                "type": "object",
                "propertyNames": {"enum": list(KIND_CODES)},
                "additionalProperties": {"type": "integer", "minimum": 0},
            },
        },
    }
    return PositionFormat("Busstop", schema)


def position_of(state: BusstopState) -> Position:
    """``state.position()``: the table at the start of a round as a :class:`Position`.

    Raises:
        PositionError: the game is not at the start of a round.
    """
    if state.node is not BusstopPhase.LINEUP or state.lineup:
        where = (
            "the game is over"
            if state.node is None
            else f"the game is at phase {state.node.value!r} of round {state.round}"
        )
        raise PositionError(
            "a Busstop position is taken at the start of a round, before its line-up is turned up: " + where
        )
    code = state.token_code
    boards: list[BoardPosition] = []
    for k, board in enumerate(state.boards):
        boards.append(
            {
                "buses": [[code(t) for t in bus] for bus in board.buses],
                "queue": [code(t) for t in board.queue],
                "pile": [code(t) for t in board.pile],
                "penalty": [code(t) for t in board.penalty],
                "extra_bus": board.extra_open,
                "hand": sorted(state.hands[k]),
            }
        )
    return {
        "round": state.round,
        "conductor": state.conductor,
        "boards": boards,
        "proxy_player": state.proxy_player,
        "stack": {KIND_CODES[k]: c for k, c in enumerate(state.stack) if c},
    }


def state_from_position(game: BusstopGame, position: Any) -> BusstopState:
    """``game.state_from_position(position)``: a state at the start of the round ``position``
    describes (see :class:`Position`).

    Raises:
        PositionError: the first problem found, naming the field and what it should be.
    """
    fmt = _format(game)
    pos = fmt.check(position)
    state = cast("BusstopState", game.new_initial_state())
    state._events = []  # the story before a position is not part of it
    n = state.participants
    rnd = pos["round"]

    def token(text: str, where: tuple[str | int, ...]) -> int:
        if text in KIND_CODES:
            return KIND_CODES.index(text)
        found = _TILE.match(text)
        assert found is not None  # the schema checked it
        owner, number = int(found.group(1)), int(found.group(2))
        if owner >= n:
            raise fmt.error(where, f"tile {text!r} has owner {owner}, but participants are 0 to {n - 1}")
        return TILE_BASE + 10 * owner + number - 1

    drawn = [0] * len(KIND_CODES)
    tiles: dict[int, tuple[str | int, ...]] = {}
    boards = []
    for k, board in enumerate(pos["boards"]):
        parts: dict[str, Any] = {}
        for key in ("queue", "pile", "penalty"):
            parts[key] = [token(t, ("boards", k, key, i)) for i, t in enumerate(board[key])]
        parts["buses"] = [
            [token(t, ("boards", k, "buses", b, i)) for i, t in enumerate(bus)]
            for b, bus in enumerate(board["buses"])
        ]
        every = [
            *[
                (t, ("boards", k, key, i))
                for key in ("queue", "pile", "penalty")
                for i, t in enumerate(parts[key])
            ],
            *[
                (t, ("boards", k, "buses", b, i))
                for b, bus in enumerate(parts["buses"])
                for i, t in enumerate(bus)
            ],
        ]
        for t, where in every:
            if t >= TILE_BASE:
                if t in tiles:
                    raise fmt.error(
                        where,
                        f"tile {state.token_code(t)!r} is on the table twice (also at {_path(tiles[t])})",
                    )
                tiles[t] = where
            else:
                drawn[t] += 1
        boards.append(parts)
    for kind, count in enumerate(drawn):
        if count > STACK_COUNTS[kind]:
            raise fmt.error(
                ("boards",),
                f"{count} {KIND_CODES[kind]} passengers are on the boards, but the stack has only "
                f"{STACK_COUNTS[kind]} (a passenger twice?)",
            )
    for k, board in enumerate(pos["boards"]):
        hand = set(board["hand"])
        if len(hand) != len(TILES) + 1 - rnd:
            raise fmt.error(
                ("boards", k, "hand"),
                f"{len(hand)} tiles, but at the start of round {rnd} every participant holds "
                f"{len(TILES) + 1 - rnd} (one tile is played per round)",
            )
        for number in sorted(hand):
            t = TILE_BASE + 10 * k + number - 1
            if t in tiles:
                raise fmt.error(
                    ("boards", k, "hand"),
                    f"tile {number} is in the hand and played (at {_path(tiles[t])}): a tile is played once",
                )
    _check_boards(fmt, state, pos, boards)

    # -- the stack -------------------------------------------------------------------------------
    size = STACK_SIZE - (rnd - 1) * state.zone.passengers
    if "stack" in pos:
        stack = [pos["stack"].get(code, 0) for code in KIND_CODES]
        for kind, count in enumerate(stack):
            if count + drawn[kind] > STACK_COUNTS[kind]:
                raise fmt.error(
                    ("stack", KIND_CODES[kind]),
                    f"{count} left and {drawn[kind]} on the boards, but the stack has only {STACK_COUNTS[kind]}",
                )
        if sum(stack) != size:
            raise fmt.error(
                ("stack",),
                f"{sum(stack)} passengers, but at the start of round {rnd} the stack holds {size} "
                f"({state.zone.passengers} are turned up each round)",
            )
    else:
        stack = [STACK_COUNTS[kind] - drawn[kind] for kind in range(len(KIND_CODES))]
        if sum(stack) != size:
            raise fmt.error(
                ("boards",),
                f"{sum(drawn)} drawn passengers are on the boards, but by the start of round {rnd} "
                f"{STACK_SIZE - size} were turned up ({state.zone.passengers} a round); give 'stack' "
                "if some left the game",
            )

    # -- who does what -----------------------------------------------------------------------------
    proxy_player = None if state.proxy is None else (1 if rnd % 2 else 0)
    if "proxy_player" in pos and pos["proxy_player"] != proxy_player:
        raise fmt.error(
            ("proxy_player",),
            f"must be {proxy_player} in round {rnd} (seat 1 in odd rounds, seat 0 in even ones; "
            "None without a proxy bus), not {pos['proxy_player']!r}",
        )

    state.round = rnd
    state.conductor = pos["conductor"]
    state.proxy_player = proxy_player
    state.stack = stack
    for k, board in enumerate(pos["boards"]):
        state.hands[k] = set(board["hand"])
        mine = state.boards[k]
        mine.buses = boards[k]["buses"]
        mine.queue = boards[k]["queue"]
        mine.pile = boards[k]["pile"]
        mine.penalty = boards[k]["penalty"]
        mine.received = []
        mine.extra_open = bool(board["extra_bus"])
    state._legal_cache = None
    return state


def _path(where: tuple[str | int, ...]) -> str:
    from bus_lab.games.sheets import field_path

    return field_path(where)


def _check_boards(
    fmt: PositionFormat, state: BusstopState, pos: dict[str, Any], boards: list[dict[str, Any]]
) -> None:
    """The rules a board obeys at the start of a round (BSB-BOARD-SORT, BSB-BOARD-LEAVE,
    BSB-QUEUE, BSB-EXTRA-BUS, BSB-PROXY-PENALTY)."""
    classes = state._classes
    for k, parts in enumerate(boards):
        extra = bool(pos["boards"][k]["extra_bus"])
        for b, bus in enumerate(parts["buses"]):
            where = ("boards", k, "buses", b)
            seats = state.bus_seats[b]
            if len(bus) >= seats:
                raise fmt.error(
                    where,
                    f"{len(bus)} passengers, but bus {b + 1} leaves as soon as its {seats} seats are full "
                    "(BSB-BOARD-LEAVE)",
                )
            if bus and b == 2 and not extra:
                raise fmt.error(
                    where, "the third bus is closed (extra_bus is false): it carries nobody (BSB-EXTRA-BUS)"
                )
            sorts = sorted({classes[t] % 5 for t in bus if classes[t] != 10})
            if len(sorts) > 1:
                raise fmt.error(
                    where,
                    f"{SORT_PLURALS[sorts[0]]} and {SORT_PLURALS[sorts[1]]}: a bus carries one sort "
                    "(ETs aside, BSB-BOARD-SORT)",
                )
        queue = parts["queue"]
        if any(classes[t] == 10 for t in queue):
            raise fmt.error(("boards", k, "queue"), "an ET never queues: it boards a bus (BSB-QUEUE)")
        if len(queue) >= EXTRA_BUS_AT and not extra:
            raise fmt.error(
                ("boards", k, "extra_bus"),
                f"a queue of {len(queue)} opened the third bus at the end of the last round "
                f"({EXTRA_BUS_AT} or more do, BSB-EXTRA-BUS): use true",
            )
        if k == state.proxy:
            if len(queue) >= PROXY_PENALTY_AT:
                raise fmt.error(
                    ("boards", k, "queue"),
                    f"the proxy's queue of {len(queue)} went to a seat as penalty tiles at the end of the last "
                    f"round ({PROXY_PENALTY_AT} or more do, BSB-PROXY-PENALTY)",
                )
            for key in ("pile", "penalty"):
                if parts[key]:
                    raise fmt.error(
                        ("boards", k, key),
                        "the proxy bus keeps no "
                        + (
                            "score pile: its buses' passengers go to the proxy player (BSB-PROXY-LEAVE)"
                            if key == "pile"
                            else "penalty tiles (BSB-PROXY-PENALTY)"
                        ),
                    )
        elif parts["penalty"] and state.proxy is None:
            raise fmt.error(
                ("boards", k, "penalty"), "penalty tiles come from a proxy bus, which only 2 players have"
            )


#: An example (the README's): round 4 of a 3-player game, and seat 0 has let a queue of 9 build up
#: (−2 points each, and it opened the third bus at the end of round 3, BSB-EXTRA-BUS).
EXAMPLE: Position = {
    "round": 4,
    "conductor": 1,
    "boards": [
        {
            "buses": [[], [], []],
            "queue": ["Gi", "Gi", "Sa", "Ba", "Ch", "Gr", "1/2", "2/3", "Gi"],
            "pile": [],
            "penalty": [],
            "extra_bus": True,
            "hand": [2, 3, 4, 6, 7, 9, 10],
        },
        {
            "buses": [[], [], []],
            "queue": [],
            "pile": ["0/1", "0/5", "1/4", "Ba"],
            "penalty": [],
            "extra_bus": False,
            "hand": [1, 3, 5, 6, 7, 8, 10],
        },
        {
            "buses": [[], [], []],
            "queue": [],
            "pile": ["2/6", "1/9", "0/8", "2/10", "ET"],
            "penalty": [],
            "extra_bus": False,
            "hand": [1, 2, 4, 5, 7, 8, 9],
        },
    ],
}
