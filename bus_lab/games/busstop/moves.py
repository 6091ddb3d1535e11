"""Busstop's moves, in the game's own words, and the only place that turns them into action ints.

* :class:`PassengerDrawn` (chance): the next passenger of the line-up is turned up
  (BSB-ROUND-LINEUP); ``passenger`` is its kind 0-10 (sorts 0-4, the VIP of a sort 5-9, an ET 10).
* :class:`ProxyTileDrawn` (chance): the proxy bus's tile is turned up (BSB-PROXY, BSB-PROXY-CONDUCTOR).
* :class:`ChooseTile`: a bid, choosing player tile ``tile`` (1-10, BSB-ROUND-BID).
* :class:`TakeTile`: the white icon, taking the tile played by participant ``owner`` (BSB-ROUND-TAKE).
* :class:`PlacePassenger`: a received passenger of class ``passenger_class`` goes on bus ``bus``
  (0-2) or, with ``bus=None``, at the tail of the queue (BSB-ROUND-DISTRIBUTE, BSB-QUEUE).
* :class:`HeadBoards`: the head of the queue boards bus ``bus`` (0-2, BSB-QUEUE-BOARD).
* :class:`StopBoarding`: no more of the queue boards this round (BSB-QUEUE-BOARD).

The action ints (kept in histories and saved games) are those of the module docstring of
:mod:`bus_lab.games.busstop.state`; :func:`decode` is their inverse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bus_lab.engine.moves import Move

#: Passenger kinds and classes: 0-4 a sort, 5-9 the VIP of a sort, 10 an extra-terrestrial.
NUM_CLASSES = 11
#: Player tiles are numbered 1 to 10.
MAX_TILE = 10
#: At most five participants (seats, or two seats and the proxy bus).
MAX_PARTICIPANTS = 5
#: Buses on a board (the third locked at first).
NUM_BUSES = 3

PROXY_DRAW_BASE = 20
BID_BASE = 100
WHITE_BASE = 200
PLACE_BASE = 300
#: The destination number of the queue in a placement (buses are 0-2).
QUEUE_DEST = 3
BOARD_BASE = 400
STOP = 409


@dataclass(frozen=True)
class PassengerDrawn(Move):
    """Chance: a passenger of kind ``passenger`` (0-10) is turned up onto the line-up (BSB-ROUND-LINEUP)."""

    passenger: int
    kind: ClassVar[str] = "draw"
    chance: ClassVar[bool] = True

    @property
    def action(self) -> int:
        return self.passenger


@dataclass(frozen=True)
class ProxyTileDrawn(Move):
    """Chance: the proxy bus's tile ``tile`` (1-10) is turned up (BSB-PROXY, BSB-PROXY-CONDUCTOR)."""

    kind: ClassVar[str] = "proxy_draw"
    chance: ClassVar[bool] = True

    tile: int

    @property
    def action(self) -> int:
        return PROXY_DRAW_BASE + self.tile


@dataclass(frozen=True)
class ChooseTile(Move):
    """A bid: the acting seat chooses its player tile ``tile`` (1-10, BSB-ROUND-BID)."""

    kind: ClassVar[str] = "bid"

    tile: int

    @property
    def action(self) -> int:
        return BID_BASE + self.tile


@dataclass(frozen=True)
class TakeTile(Move):
    """White icon: take the tile that participant ``owner`` played (BSB-ROUND-TAKE)."""

    kind: ClassVar[str] = "white"

    owner: int

    @property
    def action(self) -> int:
        return WHITE_BASE + self.owner


@dataclass(frozen=True)
class PlacePassenger(Move):
    """Place a received passenger of class ``passenger_class`` (0-10) on bus ``bus`` (0-2), or at
    the tail of the queue when ``bus`` is ``None`` (BSB-ROUND-DISTRIBUTE, BSB-QUEUE)."""

    kind: ClassVar[str] = "place"

    passenger_class: int
    bus: int | None

    @property
    def to_queue(self) -> bool:
        """True when the passenger joins the queue."""
        return self.bus is None

    @property
    def dest(self) -> int:
        """Where the passenger goes as one number: the bus 0-2, or :data:`QUEUE_DEST` for the queue."""
        return QUEUE_DEST if self.bus is None else self.bus

    @property
    def action(self) -> int:
        return place_action(self.passenger_class, self.bus)


@dataclass(frozen=True)
class HeadBoards(Move):
    """The head of the queue boards bus ``bus`` (0-2, BSB-QUEUE-BOARD)."""

    kind: ClassVar[str] = "board"

    bus: int

    @property
    def action(self) -> int:
        return board_action(self.bus)


@dataclass(frozen=True)
class StopBoarding(Move):
    """No more of the queue boards this round (BSB-QUEUE-BOARD)."""

    kind: ClassVar[str] = "board"

    @property
    def action(self) -> int:
        return STOP


# -- encoding without building a move (the rules' hot paths list many actions) ------------------
def proxy_draw_action(tile: int) -> int:
    """The action of :class:`ProxyTileDrawn` ``tile``."""
    return PROXY_DRAW_BASE + tile


def bid_action(tile: int) -> int:
    """The action of :class:`ChooseTile` ``tile``."""
    return BID_BASE + tile


def take_action(owner: int) -> int:
    """The action of :class:`TakeTile` ``owner``."""
    return WHITE_BASE + owner


def place_action(passenger_class: int, bus: int | None) -> int:
    """The action of :class:`PlacePassenger` (``bus`` ``None``: the queue)."""
    return PLACE_BASE + 4 * passenger_class + (QUEUE_DEST if bus is None else bus)


def board_action(bus: int) -> int:
    """The action of :class:`HeadBoards` ``bus``."""
    return BOARD_BASE + bus


def decode(action: int) -> Move | None:
    """The move numbered ``action``, or ``None`` when no move has that number."""
    if 0 <= action < NUM_CLASSES:
        return PassengerDrawn(action)
    if PROXY_DRAW_BASE < action <= PROXY_DRAW_BASE + MAX_TILE:
        return ProxyTileDrawn(action - PROXY_DRAW_BASE)
    if BID_BASE < action <= BID_BASE + MAX_TILE:
        return ChooseTile(action - BID_BASE)
    if WHITE_BASE <= action < WHITE_BASE + MAX_PARTICIPANTS:
        return TakeTile(action - WHITE_BASE)
    if PLACE_BASE <= action < PLACE_BASE + 4 * NUM_CLASSES:
        cls, dest = divmod(action - PLACE_BASE, 4)
        return PlacePassenger(cls, None if dest == QUEUE_DEST else dest)
    if BOARD_BASE <= action < BOARD_BASE + NUM_BUSES:
        return HeadBoards(action - BOARD_BASE)
    if action == STOP:
        return StopBoarding()
    return None
