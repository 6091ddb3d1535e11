"""The moves of BUS (the city grid game), in the game's words, and their action ints.

This module is the only place that turns a move into its int and back. The ints (the history
format) are:

* street card laid in setup (chance, BUS-SETUP): ``card * 2 + side`` (:class:`StreetCardDrawn`);
* passenger card turned face up or drawn blind (chance, BUS-FACEUP, BUS-PICKUP):
  ``PASSENGER_BASE + card`` (:class:`PassengerCardDrawn`);
* ``DRAW_BLIND`` (:class:`DrawBlind`), ``PASS`` (:class:`Pass`);
* ``TAKE_BASE + card``: take a face-up passenger card (:class:`TakeCard`);
* ``PLACE_BASE + node``: put the bus on a bus stop at the start (:class:`PlaceBus`);
* ``ROTATE_BASE + slot``: turn a street card by 180° (challenging play, :class:`TurnCard`);
* ``SWAP_BASE + (first * 12 + second) * 4 + first_side * 2 + second_side``: swap two street
  cards (:class:`SwapCards`);
* ``MOVE_BASE + node * MASK_SPAN + drop mask``: drive to a street card with a heading, dropping
  off exactly the passenger colours of the mask on the way (:class:`Drive`).

A *node* is ``slot * 2 + heading`` (see :mod:`.grid`); a drop mask has bit ``i`` set for the
``i``-th colour of the component sheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from bus_lab.engine.moves import Move
from bus_lab.games.bus_city.grid import NUM_NODES, NUM_SLOTS

PASSENGER_BASE = 100
DRAW_BLIND = 200
PASS = 201
TAKE_BASE = 300
PLACE_BASE = 400
ROTATE_BASE = 500
SWAP_BASE = 1000
MOVE_BASE = 10000
MASK_SPAN = 256
#: Number of swap ints (pairs in both orders, four side choices each); only ``first < second`` name a move.
SWAP_SPAN = NUM_SLOTS * NUM_SLOTS * 4


def node_of(slot: int, heading: int) -> int:
    """The node of a bus on ``slot`` with ``heading`` (0 or 1)."""
    return slot * 2 + heading


@dataclass(frozen=True)
class StreetCardDrawn(Move):
    """Chance (BUS-SETUP): the street card ``card`` is laid on the next slot of the grid with its
    symbol on ``side`` (0: north on a horizontal slot, west on a vertical one; 1: south or east)."""

    kind: ClassVar[str] = "street card"
    chance: ClassVar[bool] = True
    card: int
    side: int

    @property
    def action(self) -> int:
        return street_action(self.card, self.side)


@dataclass(frozen=True)
class PassengerCardDrawn(Move):
    """Chance (BUS-FACEUP, BUS-PICKUP, BUS-START): passenger card ``card`` comes off the deck,
    turned face up or drawn blind by the player who asked for it."""

    kind: ClassVar[str] = "passenger card"
    chance: ClassVar[bool] = True
    card: int

    @property
    def action(self) -> int:
        return passenger_action(self.card)


@dataclass(frozen=True)
class DrawBlind(Move):
    """Take the deck's top passenger card without seeing it first (BUS-PICKUP, BUS-START)."""

    kind: ClassVar[str] = "draw blind"

    @property
    def action(self) -> int:
        return DRAW_BLIND


@dataclass(frozen=True)
class Pass(Move):
    """Skip the optional pick-up or construction site (BUS-ONE-ACTION)."""

    kind: ClassVar[str] = "pass"

    @property
    def action(self) -> int:
        return PASS


@dataclass(frozen=True)
class TakeCard(Move):
    """Take the face-up passenger card ``card`` into Picked Up (BUS-PICKUP, BUS-START)."""

    kind: ClassVar[str] = "take"
    card: int

    @property
    def action(self) -> int:
        return take_action(self.card)


@dataclass(frozen=True)
class PlaceBus(Move):
    """Put the bus on the bus stop on ``slot`` with ``heading`` at the start (BUS-START)."""

    kind: ClassVar[str] = "place"
    slot: int
    heading: int

    @property
    def node(self) -> int:
        """The node (``slot * 2 + heading``) the bus starts on."""
        return node_of(self.slot, self.heading)

    @property
    def action(self) -> int:
        return place_action(self.node)


@dataclass(frozen=True)
class TurnCard(Move):
    """Turn the street card on ``slot`` by 180°, moving its symbol across the street
    (challenging play, BUS-CH-ROTATE)."""

    kind: ClassVar[str] = "turn"
    slot: int

    @property
    def action(self) -> int:
        return rotate_action(self.slot)


@dataclass(frozen=True)
class SwapCards(Move):
    """Swap the street cards of slots ``first`` and ``second`` (``first < second``) on the
    construction site (BUS-CONSTRUCTION): the card arriving on ``first`` lies with its symbol on
    ``first_side``, the one arriving on ``second`` on ``second_side`` (each keeps its side in the
    basic game; free in challenging play, BUS-CH-ROTATE)."""

    kind: ClassVar[str] = "swap"
    first: int
    second: int
    first_side: int
    second_side: int

    @property
    def action(self) -> int:
        return swap_action(self.first, self.second, self.first_side, self.second_side)


@dataclass(frozen=True)
class Drive(Move):
    """Drive the bus to ``slot`` with ``heading`` (BUS-MOVE), dropping off on the way exactly the
    passengers of the colours in ``drop_mask`` (BUS-DROPOFF). Routes to the same card and heading
    that drop off different passengers are different moves; routes that drop off the same ones
    are one move.

    Attributes:
        drops (tuple[str, ...]): the colour names of ``drop_mask`` (filled by the state).
        route (tuple[int, ...]): the nodes entered at each step of a shortest route with these
            drop-offs (filled by the state when the move is legal there; not compared).
    """

    kind: ClassVar[str] = "drive"
    slot: int
    heading: int
    drop_mask: int
    drops: tuple[str, ...] = field(default=(), compare=False)
    route: tuple[int, ...] = field(default=(), compare=False)

    @property
    def node(self) -> int:
        """The node (``slot * 2 + heading``) the bus ends on."""
        return node_of(self.slot, self.heading)

    @property
    def action(self) -> int:
        return drive_action(self.node, self.drop_mask)


# -- encoding ---------------------------------------------------------------------------------
def street_action(card: int, side: int) -> int:
    """The int of street card ``card`` laid with its symbol on ``side``."""
    return card * 2 + side


def passenger_action(card: int) -> int:
    """The int of passenger card ``card`` coming off the deck."""
    return PASSENGER_BASE + card


def take_action(card: int) -> int:
    """The int of taking face-up passenger card ``card``."""
    return TAKE_BASE + card


def place_action(node: int) -> int:
    """The int of starting the bus on ``node``."""
    return PLACE_BASE + node


def rotate_action(slot: int) -> int:
    """The int of turning the card on ``slot``."""
    return ROTATE_BASE + slot


def swap_action(first: int, second: int, first_side: int, second_side: int) -> int:
    """The int of swapping the cards of ``first`` and ``second`` with the given sides."""
    return SWAP_BASE + (first * NUM_SLOTS + second) * 4 + first_side * 2 + second_side


def drive_action(node: int, drop_mask: int) -> int:
    """The int of driving to ``node`` dropping off the colours of ``drop_mask``."""
    return MOVE_BASE + node * MASK_SPAN + drop_mask


# -- decoding ---------------------------------------------------------------------------------
def drive_parts(action: int) -> tuple[int, int] | None:
    """``(node, drop mask)`` of a drive's int, or ``None`` for another int (the fast form of
    :func:`decode` for the most common move)."""
    if action < MOVE_BASE:
        return None
    node, mask = divmod(action - MOVE_BASE, MASK_SPAN)
    if node >= NUM_NODES:
        return None
    return node, mask


def swap_parts(action: int) -> tuple[int, int, int, int] | None:
    """``(first, second, first_side, second_side)`` of a swap int (either order of the two
    slots), or ``None`` for another int."""
    if not SWAP_BASE <= action < SWAP_BASE + SWAP_SPAN:
        return None
    pair, sides = divmod(action - SWAP_BASE, 4)
    first, second = divmod(pair, NUM_SLOTS)
    return first, second, sides // 2, sides % 2


def decode(action: int, streets: int, passengers: int, colours: int) -> Move | None:
    """The move of ``action`` for a sheet of ``streets`` street cards, ``passengers`` passenger
    cards and ``colours`` passenger colours, or ``None`` when no move has that int."""
    if action < 0:
        return None
    if action < 2 * streets:
        card, side = divmod(action, 2)
        return StreetCardDrawn(card, side)
    if PASSENGER_BASE <= action < PASSENGER_BASE + passengers:
        return PassengerCardDrawn(action - PASSENGER_BASE)
    if action == DRAW_BLIND:
        return DrawBlind()
    if action == PASS:
        return Pass()
    if TAKE_BASE <= action < TAKE_BASE + passengers:
        return TakeCard(action - TAKE_BASE)
    if PLACE_BASE <= action < PLACE_BASE + NUM_NODES:
        slot, heading = divmod(action - PLACE_BASE, 2)
        return PlaceBus(slot, heading)
    if ROTATE_BASE <= action < ROTATE_BASE + NUM_SLOTS:
        return TurnCard(action - ROTATE_BASE)
    swap = swap_parts(action)
    if swap is not None:
        return SwapCards(*swap) if swap[0] < swap[1] else None
    drive = drive_parts(action)
    if drive is not None and drive[1] < 1 << colours:
        slot, heading = divmod(drive[0], 2)
        return Drive(slot, heading, drive[1])
    return None


def in_construction_block(action: int) -> bool:
    """Whether ``action`` lies in the ints kept for the construction site (swaps and turns)."""
    return SWAP_BASE <= action < MOVE_BASE or ROTATE_BASE <= action < ROTATE_BASE + NUM_SLOTS
