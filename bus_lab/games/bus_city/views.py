"""What a seat sees of a BUS table: ``state.view(seat)``, its shape documented as typed dicts.

Everything in BUS is public except the deck, whose order and make-up are never shown (only its
size): the passenger cards face up, in progress and complete (complete cards lie face down but
were seen by everyone when picked up), the grid, the buses. So every seat, and the spectator
(``None``), sees the same view apart from its ``viewer`` field.

The view is JSON-safe (str, int, bool, None, lists and dicts only); renderers
(:mod:`.render`) and the widget draw from it alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city.phases import BusCityPhase, Stage

if TYPE_CHECKING:
    from bus_lab.games.bus_city.state import BusCityState


class CardView(TypedDict):
    """One passenger card (BUS-COMP-PASSENGERS).

    Keys:
        id (str): the card's id, e.g. ``"red-pink"``.
        colours (list[str]): its two passenger colours, as printed.
        value (int): points it scores once complete (BUS-SCORE).
        speed (int): the speed limit (steps per turn) it sets while in progress (BUS-SPEED).
        dropped (list[str]): the colours of its passengers already dropped off (BUS-DROPOFF), in
            sheet order; empty for a face-up card, both colours for a complete one.
    """

    id: str
    colours: list[str]
    value: int
    speed: int
    dropped: list[str]


class SlotView(TypedDict):
    """One street slot of the grid and the card on it (BUS-GRID).

    Keys:
        slot (str): the slot's name, e.g. ``"a1-b1"`` (see :mod:`.grid`).
        kind (str): ``"h"`` (west-east) or ``"v"`` (north-south).
        a (list[int]): its first end (west or north) as ``[row, column]``, 0-based.
        b (list[int]): its second end (east or south) as ``[row, column]``, 0-based.
        card (str | None): the street card's id; ``None`` until setup lays it (BUS-SETUP).
        symbol (str | None): ``"destination"``, ``"stop"``, ``"site"`` or ``"plain"``; ``None``
            before setup.
        colour (str | None): the passenger colour of a destination; ``None`` for other cards
            and before setup.
        side (str | None): the side of the street the symbol is on: ``"N"``/``"S"`` on a
            horizontal slot, ``"W"``/``"E"`` on a vertical one; ``None`` before setup.
        buses (list[int]): the seats whose bus stands on this slot, in seat order.
    """

    slot: str
    kind: str
    a: list[int]
    b: list[int]
    card: str | None
    symbol: str | None
    colour: str | None
    side: str | None
    buses: list[int]


class BusView(TypedDict):
    """Where a seat's bus stands (BUS-START, BUS-MOVE).

    Keys:
        slot (str): the slot's name.
        heading (str): ``"E"``/``"W"`` on a horizontal slot, ``"S"``/``"N"`` on a vertical one.
        site_used (bool): the seat has used its construction site (BUS-CONSTRUCTION, once a game).
    """

    slot: str
    heading: str
    site_used: bool


class SeatView(TypedDict):
    """One seat and its progress area (BUS-SETUP, BUS-PROGRESS).

    Keys:
        seat (int): the seat number (0-based).
        side (str): the side of the grid where its progress area lies (``"south"``...).
        picked_up_slot (str): the slot along that side where its picked-up cards lie (its left).
        dropped_off_slot (str): the slot where its half-delivered cards lie (its right).
        bus (BusView | None): its bus; ``None`` before it is placed (BUS-START).
        picked_up (list[CardView]): cards in progress with no passenger dropped off, in pick-up order.
        half (list[CardView]): cards in progress with one passenger dropped off.
        complete (list[CardView]): complete cards, in the order completed.
        waiting (list[str]): the colours of its passengers still on the bus, one per passenger.
        points (int): the values of its complete cards (BUS-SCORE).
        speed_limit_next (int | None): the speed limit it would have if its turn started now
            (BUS-SPEED); ``None``: no limit.
    """

    seat: int
    side: str
    picked_up_slot: str
    dropped_off_slot: str
    bus: BusView | None
    picked_up: list[CardView]
    half: list[CardView]
    complete: list[CardView]
    waiting: list[str]
    points: int
    speed_limit_next: int | None


class EndView(TypedDict):
    """The end of the game (BUS-END).

    Keys:
        trigger (int | None): the seat that triggered the end; ``None`` until one does.
        final_turns (list[int]): the seats still to take their last turn, in order (empty before
            the trigger).
        at (int): complete cards that trigger the end.
    """

    trigger: int | None
    final_turns: list[int]
    at: int


class OptionsView(TypedDict):
    """The table's options.

    Keys:
        challenging (bool): challenging play (BUS-CH-SIDE, BUS-CH-ROTATE).
        empty_speed (int | None): the speed limit with no card in progress; ``None``: no limit.
        max_rounds (int): rounds after which a game with no end triggered stops (BUS-END-CAP).
        sheet (str): the title of the component sheet.
    """

    challenging: bool
    empty_speed: int | None
    max_rounds: int
    sheet: str


class BusCityView(TypedDict):
    """The whole table as seen by ``viewer``.

    Keys:
        game (str): ``"bus_city"``.
        viewer (int | None): the seat this view is for; ``None``: the spectator.
        players (int): the number of seats.
        phase (str): the part of the game: ``"setup"``, ``"start"``, ``"turns"`` or ``"over"``.
        to_move (int): the seat to act, ``-1`` at a chance node (a card is drawn), ``-4`` at the end.
        status (str): one sentence saying what happens next.
        round (int): the round (0 before the turns begin).
        max_rounds (int): the round cap (BUS-END-CAP).
        turn (int | None): the seat whose turn it is; ``None`` outside the turns.
        speed_limit (int | None): the speed limit of the move being decided (BUS-SPEED); ``None``
            when no move is being decided or there is no limit.
        node (str | None): the phase (what is decided or drawn next: ``"street"``, ``"move"``...,
            see :class:`~.phases.BusCityPhase`); ``None`` at the end.
        grid (list[SlotView]): the 12 slots in reading order.
        reachable (list[str]): the slots the bus to move can end on this move, sorted; empty when
            no move is being decided.
        route (list[str]): the nodes of the last move, its start first (``"b1-b2 S"``); empty
            before the first move.
        faceup (list[CardView]): the face-up passenger cards (BUS-FACEUP).
        deck (int): the number of passenger cards in the deck (hidden: their order and which).
        seats (list[SeatView]): every seat, in seat order.
        end (EndView): the end trigger.
        options (OptionsView): the table's options.
        points (list[int]): every seat's points so far, in seat order.
        winners (list[int]): the seats sharing the win at the end (BUS-WIN); empty before.
    """

    game: str
    viewer: int | None
    players: int
    phase: str
    to_move: int
    status: str
    round: int
    max_rounds: int
    turn: int | None
    speed_limit: int | None
    node: str | None
    grid: list[SlotView]
    reachable: list[str]
    route: list[str]
    faceup: list[CardView]
    deck: int
    seats: list[SeatView]
    end: EndView
    options: OptionsView
    points: list[int]
    winners: list[int]


def card_view(state: BusCityState, card: int, dropped: int = 0) -> CardView:
    """Passenger card ``card`` with the colours of the drop mask ``dropped`` delivered."""
    p = state.sheet.passengers[card]
    return {
        "id": p.id,
        "colours": list(p.colours),
        "value": p.value,
        "speed": p.speed,
        "dropped": state.colours_of(dropped),
    }


def _grid(state: BusCityState) -> list[SlotView]:
    on_slot: dict[int, list[int]] = {}
    for s, b in enumerate(state.buses):
        if b is not None:
            on_slot.setdefault(b // 2, []).append(s)
    grid: list[SlotView] = []
    for info in G.SLOTS:
        street = state.street_at(info.index)
        side = state.side_at(info.index)
        grid.append(
            {
                "slot": info.name,
                "kind": info.kind,
                "a": list(info.a),
                "b": list(info.b),
                "card": None if street is None else street.id,
                "symbol": None if street is None else street.symbol,
                "colour": None if street is None else street.colour,
                "side": None if side is None else info.side_name(side),
                "buses": on_slot.get(info.index, []),
            }
        )
    return grid


def seat_view(state: BusCityState, s: int) -> SeatView:
    """Seat ``s`` and its progress area."""
    bus = state.buses[s]
    side, (left, right) = G.PROGRESS_SIDES[s]
    held = state.held[s]
    return {
        "seat": s,
        "side": side,
        "picked_up_slot": left,
        "dropped_off_slot": right,
        "bus": None
        if bus is None
        else {
            "slot": G.SLOTS[bus // 2].name,
            "heading": G.SLOTS[bus // 2].heading_name(bus % 2),
            "site_used": state.site_used[s],
        },
        "picked_up": [card_view(state, c, d) for c, d in held if not d],
        "half": [card_view(state, c, d) for c, d in held if d],
        "complete": [card_view(state, c, state._card_bits[c]) for c in state.complete[s]],
        "waiting": state.waiting_colours(s),
        "points": state.points(s),
        "speed_limit_next": state.limit_for(s),
    }


def build_view(state: BusCityState, seat: int | None) -> BusCityView:
    """The view of ``seat`` (already checked; ``None`` for the spectator)."""
    from bus_lab.games.bus_city.state import END_AT

    node = state.node
    return {
        "game": "bus_city",
        "viewer": seat,
        "players": state.num_players,
        "phase": state.stage.value,
        "to_move": state.current_player(),
        "status": state.status(),
        "round": state.round,
        "max_rounds": state.max_rounds,
        "turn": state.turn if state.stage is Stage.TURNS else None,
        "speed_limit": state.speed_limit if node is BusCityPhase.MOVE else None,
        "node": None if node is None else node.value,
        "grid": _grid(state),
        "reachable": sorted({G.SLOTS[route[-1] // 2].name for route in state.move_routes().values()}),
        "route": [G.node_label(n) for n in state.last_route],
        "faceup": [card_view(state, c) for c in state.faceup],
        "deck": len(state.deck),
        "seats": [seat_view(state, s) for s in range(state.num_players)],
        "end": {"trigger": state.end_trigger, "final_turns": list(state.final_turns), "at": END_AT},
        "options": {
            "challenging": state.challenging,
            "empty_speed": state.empty_speed,
            "max_rounds": state.max_rounds,
            "sheet": state.sheet.title,
        },
        "points": state.returns(),
        "winners": state.winners(),
    }
