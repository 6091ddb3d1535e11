"""BUS positions a teacher sets up: ``game.state_from_position(position)`` and
``state.position()``.

A position is taken **at the start of a turn**, when the seat is about to move its bus (phase
``"move"``). During setup, while the seats place their buses, after a move (a pick-up at a stop,
the construction site) and at the end there is no position: :func:`position_of` raises
:class:`~bus_lab.engine.errors.PositionError` saying so.

Every card is face up except the passenger deck, which is not ordered: its cards are the sheet's
passenger cards that are nowhere on the table (face up, in progress, complete), and each card
turned up or drawn blind is one of them, each equally likely, as in a game played from the start.
A position cannot fix the deck's order (the game has none to fix).

Street cards and passenger cards are named by their sheet ids (``"red"``, ``"stop1"``,
``"red-pink"``), slots by their names (``"a1-b1"``), a bus's place by its node label
(``"a3-b3 E"``: the slot and the heading letter). The shape is :class:`Position`.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, TypedDict, cast

from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city.phases import BusCityPhase, Stage
from bus_lab.games.positions import PositionError, PositionFormat

if TYPE_CHECKING:
    from bus_lab.games.bus_city.game import BusCityGame
    from bus_lab.games.bus_city.state import BusCityState

__all__ = [
    "EXAMPLE",
    "Position",
    "SeatPosition",
    "HeldCard",
    "StreetPosition",
    "position_of",
    "state_from_position",
]

#: Passenger cards a seat may have in progress (BUS-PICKUP), face-up cards while the deck lasts
#: (BUS-FACEUP), complete cards that trigger the end (BUS-END): as in :mod:`.state`.
MAX_IN_PROGRESS, FACE_UP, END_AT = 3, 2, 5


class StreetPosition(TypedDict):
    """The street card on one slot (BUS-SETUP).

    Keys:
        card (str): the street card's id (``"red"``, ``"stop1"``, ``"site"``, ``"plain1"``).
        side (str): the side of the street its symbol is on: ``"N"``/``"S"`` on a horizontal
            slot, ``"W"``/``"E"`` on a vertical one (it matters in challenging play, BUS-CH-SIDE).
    """

    card: str
    side: str


class HeldCard(TypedDict):
    """A passenger card in progress (BUS-PICKUP).

    Keys:
        card (str): its id (``"red-pink"``).
        dropped (list[str]): the colours of its passengers already dropped off (none or one of
            its two colours: with both, the card is complete).
    """

    card: str
    dropped: list[str]


class SeatPosition(TypedDict):
    """One seat.

    Keys:
        bus (str): where its bus is: the node label (``"a3-b3 E"``).
        held (list[HeldCard]): its cards in progress, in pick-up order (at most 3).
        complete (list[str]): its complete cards (their values are its points, BUS-SCORE).
        site_used (bool): it has used the construction site (BUS-CONSTRUCTION).
    """

    bus: str
    held: list[HeldCard]
    complete: list[str]
    site_used: bool


class _PositionRequired(TypedDict):
    round: int
    seat: int
    grid: dict[str, StreetPosition]
    faceup: list[str]
    seats: list[SeatPosition]
    end_trigger: int | None


class Position(_PositionRequired, total=False):
    """A BUS position at the start of a turn.

    Keys:
        round (int): the round (1 to ``max_rounds``).
        seat (int): whose turn it is (0-based); its speed limit follows from its cards (BUS-SPEED).
        grid (dict[str, StreetPosition]): the street card on every one of the 12 slots, by slot
            name (each card once).
        faceup (list[str]): the face-up passenger cards (2 while the deck has cards, BUS-FACEUP).
        seats (list[SeatPosition]): every seat, by seat.
        end_trigger (int | None): the seat that triggered the end with its fifth complete card
            (BUS-END), or ``None``; seats without it have fewer than 5 complete cards. In the final
            round the seats from ``seat`` round to the trigger still move.
        route (list[str]): optional: the nodes of the last move's route, drawn on the board
            (``view()["route"]``); none by default.
        deck (list[str]): optional, read only: the passenger cards in the deck (any order). It
            follows from the rest; when given it must match.

    Raises (from ``state_from_position``):
        PositionError: a missing key, a wrong type, an unknown card, slot, node or seat, or a
            table no game reaches: a street or passenger card twice, more than 3 cards in
            progress, a card with both colours dropped still in progress, fewer than 2 face up
            while the deck has cards, 5 complete cards without the end triggered.
    """

    route: list[str]
    deck: list[str]


@functools.lru_cache(maxsize=32)
def _format(game: BusCityGame) -> PositionFormat:
    sheet: Any = game.sheet
    n = game.num_players
    passenger = {
        "enum": [p.id for p in sheet.passengers],
        "x-expected": "a passenger card id such as 'red-pink'",
    }
    node = {"enum": list(G.NODE_LABELS), "x-expected": "a node label such as 'a3-b3 E'"}
    seat_no = {"type": "integer", "minimum": 0, "maximum": n - 1}
    street = {
        "type": "object",
        "title": "a slot",
        "required": ["card", "side"],
        "additionalProperties": False,
        "properties": {
            "card": {"enum": [s.id for s in sheet.streets], "x-expected": "a street card id such as 'red'"},
            "side": {"enum": ["N", "S", "W", "E"]},
        },
    }
    held = {
        "type": "object",
        "title": "a card in progress",
        "required": ["card", "dropped"],
        "additionalProperties": False,
        "properties": {
            "card": passenger,
            "dropped": {"type": "array", "items": {"enum": list(sheet.colours)}, "maxItems": 1},
        },
    }
    seat = {
        "type": "object",
        "title": "a seat",
        "required": list(SeatPosition.__annotations__),
        "additionalProperties": False,
        "properties": {
            "bus": node,
            "held": {"type": "array", "items": held, "maxItems": MAX_IN_PROGRESS},
            "complete": {"type": "array", "items": passenger},
            "site_used": {"type": "boolean"},
        },
    }
    schema = {
        "type": "object",
        "title": "a BUS position",
        "required": list(_PositionRequired.__annotations__),
        "additionalProperties": False,
        "properties": {
            "round": {"type": "integer", "minimum": 1, "maximum": game.params["max_rounds"]},
            "seat": seat_no,
            "grid": {
                "type": "object",
                "title": "the grid",
                "required": [s.name for s in G.SLOTS],
                "additionalProperties": False,
                "properties": {s.name: street for s in G.SLOTS},
            },
            "faceup": {"type": "array", "items": passenger, "maxItems": FACE_UP},
            "seats": {"type": "array", "items": seat, "minItems": n, "maxItems": n},
            "end_trigger": {
                "anyOf": [{"type": "null"}, seat_no],
                "x-expected": f"null or a seat from 0 to {n - 1}",
            },
            "route": {"type": "array", "items": node},
            "deck": {"type": "array", "items": passenger},
        },
    }
    return PositionFormat("BUS", schema)


def position_of(state: BusCityState) -> Position:
    """``state.position()``: the table at the start of a turn as a :class:`Position`.

    Raises:
        PositionError: the game is not at the start of a turn.
    """
    if state.node is not BusCityPhase.MOVE:
        where = "the game is over" if state.node is None else f"the game is at phase {state.node.value!r}"
        raise PositionError(f"a BUS position is taken at the start of a turn (phase 'move'): {where}")
    sheet: Any = state.sheet
    pid = [p.id for p in sheet.passengers]
    grid: dict[str, StreetPosition] = {}
    for slot in G.SLOTS:
        card, side = state.slots[slot.index]  # type: ignore[misc]
        grid[slot.name] = {"card": sheet.streets[card].id, "side": slot.side_name(side)}
    seats: list[SeatPosition] = []
    for s in range(state.num_players):
        bus = state.buses[s]
        assert bus is not None  # every bus is placed once turns begin
        seats.append(
            {
                "bus": G.NODE_LABELS[bus],
                "held": [{"card": pid[c], "dropped": state.colours_of(mask)} for c, mask in state.held[s]],
                "complete": [pid[c] for c in state.complete[s]],
                "site_used": bool(state.site_used[s]),
            }
        )
    return {
        "round": state.round,
        "seat": state.turn,
        "grid": grid,
        "faceup": [pid[c] for c in state.faceup],
        "seats": seats,
        "end_trigger": state.end_trigger,
        "route": [G.NODE_LABELS[n] for n in state.last_route],
        "deck": sorted(pid[c] for c in state.deck),
    }


def state_from_position(game: BusCityGame, position: Any) -> BusCityState:
    """``game.state_from_position(position)``: a state at the start of the turn ``position``
    describes (see :class:`Position`).

    Raises:
        PositionError: the first problem found, naming the field and what it should be.
    """
    fmt = _format(game)
    pos = fmt.check(position)
    sheet: Any = game.sheet
    n = game.num_players
    street_ids = [s.id for s in sheet.streets]
    pid = [p.id for p in sheet.passengers]
    node_of = {label: i for i, label in enumerate(G.NODE_LABELS)}

    # -- the grid: every street card once ------------------------------------------------------
    slots: list[list[int] | None] = [None] * G.NUM_SLOTS
    laid: dict[int, str] = {}
    for slot in G.SLOTS:
        entry = pos["grid"][slot.name]
        card = street_ids.index(entry["card"])
        if card in laid:
            raise fmt.error(
                ("grid", slot.name, "card"),
                f"street card {entry['card']!r} is laid twice (also on {laid[card]})",
            )
        laid[card] = slot.name
        sides = [slot.side_name(0), slot.side_name(1)]
        if entry["side"] not in sides:
            raise fmt.error(
                ("grid", slot.name, "side"),
                f"{slot.name} runs {'west–east' if slot.kind == 'h' else 'north–south'}: its sides are "
                f"{sides[0]} and {sides[1]}, not {entry['side']}",
            )
        slots[slot.index] = [card, sides.index(entry["side"])]

    # -- the passenger cards: each in one place ----------------------------------------------------
    where: dict[int, tuple[str | int, ...]] = {}

    def place(card_id: str, at: tuple[str | int, ...]) -> int:
        card = pid.index(card_id)
        if card in where:
            raise fmt.error(
                at, f"passenger card {card_id!r} is on the table twice (also at {_path(where[card])})"
            )
        where[card] = at
        return card

    faceup = [place(c, ("faceup", i)) for i, c in enumerate(pos["faceup"])]
    held: list[list[list[int]]] = []
    complete: list[list[int]] = []
    colour_bits = {c: 1 << i for i, c in enumerate(sheet.colours)}
    for s, seat in enumerate(pos["seats"]):
        mine = []
        for i, entry in enumerate(seat["held"]):
            card = place(entry["card"], ("seats", s, "held", i, "card"))
            colours = sheet.passengers[card].colours
            mask = 0
            for colour in entry["dropped"]:
                if colour not in colours:
                    raise fmt.error(
                        ("seats", s, "held", i, "dropped"),
                        f"{entry['card']} carries {' and '.join(colours)} passengers, not {colour}",
                    )
                mask |= colour_bits[colour]
            mine.append([card, mask])
        held.append(mine)
        complete.append([place(c, ("seats", s, "complete", i)) for i, c in enumerate(seat["complete"])])
    deck = set(range(len(pid))) - set(where)
    if "deck" in pos and sorted(pos["deck"]) != sorted(pid[c] for c in deck):
        raise fmt.error(
            ("deck",),
            f"the deck holds the cards not on the table: {sorted(pid[c] for c in deck)}, not {sorted(pos['deck'])}",
        )
    if len(faceup) < FACE_UP and deck:
        raise fmt.error(
            ("faceup",),
            f"{_cards(len(faceup))}, but {FACE_UP} are face up while the deck has cards ({len(deck)} left, BUS-FACEUP)",
        )

    # -- the end -------------------------------------------------------------------------------------
    trigger = pos["end_trigger"]
    seat_no = pos["seat"]
    for s, cards in enumerate(complete):
        if len(cards) >= END_AT and trigger is None:
            raise fmt.error(
                ("end_trigger",),
                f"seat {s} has {_cards(len(cards))} complete: the end was triggered (BUS-END); name the seat "
                "that triggered it",
            )
    final_turns: list[int] = []
    if trigger is not None:
        if len(complete[trigger]) < END_AT:
            raise fmt.error(
                ("end_trigger",),
                f"seat {trigger} has {_cards(len(complete[trigger]))} complete: the end is triggered with {END_AT} "
                "(BUS-END)",
            )
        final_turns = [(seat_no + k) % n for k in range((trigger - seat_no) % n + 1)]

    state = cast("BusCityState", game.new_initial_state())
    state._events = []  # the story before a position is not part of it
    state.slots = slots
    state.street_pool = set(range(len(street_ids))) - set(laid)
    state.deck = deck
    state.faceup = faceup
    state.buses = [node_of[seat["bus"]] for seat in pos["seats"]]
    state.site_used = [bool(seat["site_used"]) for seat in pos["seats"]]
    state.held = held
    state.complete = complete
    state.stage = Stage.TURNS
    state.round = pos["round"]
    state.end_trigger = trigger
    state.final_turns = final_turns
    state.last_route = [node_of[label] for label in pos.get("route", [])]
    state.turn = state.actor = seat_no
    state.speed_limit = state.limit_for(seat_no)
    state.move_start = state.buses[seat_no]
    state.node = BusCityPhase.MOVE
    state._invalidate()
    return state


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _path(where: tuple[str | int, ...]) -> str:
    from bus_lab.games.sheets import field_path

    return field_path(where)


def _street(card: str, side: str) -> StreetPosition:
    return {"card": card, "side": side}


#: An example (the README's): a grid laid by hand with both buses placed, in round 3. Seat 0,
#: heading east on a1-b1, has dropped the red passenger of its red-pink card; the pink destination
#: is the next street, so one step completes the card (BUS-DROPOFF, BUS-PROGRESS).
EXAMPLE: Position = {
    "round": 3,
    "seat": 0,
    "grid": {
        "a1-b1": _street("stop1", "N"),
        "b1-c1": _street("pink", "N"),
        "a1-a2": _street("red", "W"),
        "b1-b2": _street("plain1", "W"),
        "c1-c2": _street("yellow", "E"),
        "a2-b2": _street("stop2", "S"),
        "b2-c2": _street("green", "N"),
        "a2-a3": _street("orange", "W"),
        "b2-b3": _street("site", "E"),
        "c2-c3": _street("blue", "E"),
        "a3-b3": _street("stop3", "S"),
        "b3-c3": _street("plain2", "S"),
    },
    "faceup": ["yellow-green", "orange-pink"],
    "seats": [
        {
            "bus": "a1-b1 E",
            "held": [{"card": "red-pink", "dropped": ["red"]}],
            "complete": ["blue-pink"],
            "site_used": False,
        },
        {
            "bus": "a3-b3 W",
            "held": [{"card": "green-blue", "dropped": []}],
            "complete": [],
            "site_used": False,
        },
    ],
    "end_trigger": None,
}
