"""Busstop on the touchable board: which target each move acts on, what it does, why not.

Targets (the drawer ``static/games/busstop.js`` marks the same keys):

* ``"tile:<n>"``: player tile ``n`` (1-10) in the hand of the seat bidding (BSB-ROUND-BID);
* ``"played:<k>"``: the tile participant ``k`` played, still on the zone, for a white icon
  (BSB-ROUND-TAKE);
* ``"passenger:<i>"``: the ``i``-th passenger (0-based) the acting board received this round and
  has not placed yet (BSB-ROUND-DISTRIBUTE);
* ``"bus:<k>:<b>"``: bus ``b`` (0-2) of participant ``k``; ``"queue:<k>"``: ``k``'s queue.

Moves: a bid taps its tile; a white pick taps the played tile; a placement taps the passenger,
then a bus or the queue; letting the head of the queue board selects the queue (at once: every
such move starts there) and taps a bus, and "Stop boarding" is the button beside the queue
(BSB-QUEUE-BOARD).

Hidden information: a tile chosen face down is hidden from the other seats until the reveal
(BSB-ROUND-BID). Nothing here reads another seat's face-down bid: a bid's consequence uses only
the conductor's face-up tile and the mover's own hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from bus_lab.board.frame import BoardAdapter
from bus_lab.engine.core import State
from bus_lab.engine.moves import Move
from bus_lab.games.busstop.components import (
    ET,
    EXTRA_BUS_AT,
    PROXY_PENALTY_AT,
    ROUNDS,
    SORT_PLURALS,
    SORTS,
    VIP_BASE,
)
from bus_lab.games.busstop.moves import (
    ChooseTile,
    HeadBoards,
    PlacePassenger,
    StopBoarding,
    TakeTile,
    board_action,
    place_action,
)
from bus_lab.games.busstop.phases import BusstopPhase
from bus_lab.games.busstop.state import CLASS_NAMES, BusstopState

#: What each phase is, in words, with its rule ID.
PHASE_TEXT = {
    BusstopPhase.LINEUP: ("the conductor lines up passengers", "BSB-ROUND-LINEUP"),
    BusstopPhase.PROXY_BID: ("the proxy bus, conductor, turns up its tile", "BSB-PROXY-CONDUCTOR"),
    BusstopPhase.BID: ("choosing tiles: the conductor face up, the others face down", "BSB-ROUND-BID"),
    BusstopPhase.PROXY_REVEAL: ("the proxy bus's tile is turned up for the reveal", "BSB-PROXY"),
    BusstopPhase.WHITE: ("taking passengers in player order", "BSB-ROUND-TAKE"),
    BusstopPhase.PLACE: ("placing passengers on buses or in the queue", "BSB-ROUND-DISTRIBUTE"),
    BusstopPhase.BOARD: ("letting the head of the queue board", "BSB-QUEUE-BOARD"),
}


def queue_cost(cls: int) -> int:
    """Points a queued passenger of class ``cls`` costs at the end: 2, a VIP 6 (BSB-SCORE-QUEUE)."""
    return 6 if VIP_BASE <= cls < ET else 2


def first_received(state: BusstopState, who: int, cls: int) -> int:
    """Index in ``who``'s received passengers of the first one of class ``cls``: the one a
    placement of that class moves (BSB-ROUND-DISTRIBUTE)."""
    received = state.boards[who].received
    return next(i for i, t in enumerate(received) if state.token_class(t) == cls)


class BusstopAdapter(BoardAdapter):
    """The board hooks of Busstop (see the module docstring for the target keys)."""

    game = "busstop"

    def heading(self, state: State) -> str:
        """``"Round 3 of 10 · conductor Seat 1 · placing passengers … [BSB-ROUND-DISTRIBUTE]"``;
        at the end, how the game is won (BSB-WIN)."""
        assert isinstance(state, BusstopState)
        if state.is_terminal():
            return f"Game over after round {ROUNDS}: highest total wins, ties to the fewest ETs [BSB-WIN]"
        text, rule = PHASE_TEXT[state.phase()]
        return f"Round {state.round} of {ROUNDS} · conductor {state.name(state.conductor)} · {text} [{rule}]"

    # -- targets -----------------------------------------------------------------------------
    def target(self, state: State, move: Move) -> tuple[list[str], str | None]:
        """Bid: ``["tile:<n>"]``; white: ``["played:<k>"]``; placement: ``["passenger:<i>",
        "bus:<k>:<b>" | "queue:<k>"]``; the head boards: ``["queue:<k>", "bus:<k>:<b>"]``; stop
        boarding: ``["queue:<k>"]`` with the button "Stop boarding"."""
        assert isinstance(state, BusstopState)
        who = state.acting_participant()
        if isinstance(move, ChooseTile):
            return [f"tile:{move.tile}"], None
        if isinstance(move, TakeTile):
            return [f"played:{move.owner}"], None
        if isinstance(move, PlacePassenger):
            where = f"queue:{who}" if move.bus is None else f"bus:{who}:{move.bus}"
            return [f"passenger:{first_received(state, who, move.passenger_class)}", where], None
        if isinstance(move, HeadBoards):
            return [f"queue:{who}", f"bus:{who}:{move.bus}"], None
        if isinstance(move, StopBoarding):
            return [f"queue:{who}"], "Stop boarding"
        return [], str(move)

    # -- consequences ------------------------------------------------------------------------
    def consequence(self, state: State, move: Move) -> str | None:
        """What the move does: a bid's place in the order against the conductor's face-up tile, the
        passenger a white pick gives, a bus filling and leaving with its points (BSB-BOARD-LEAVE),
        −2 (a VIP −6) for the queue (BSB-SCORE-QUEUE), the third bus opening (BSB-EXTRA-BUS)."""
        assert isinstance(state, BusstopState)
        who = state.acting_participant()
        if who is None:
            return None
        proxy = " You decide for the proxy bus this round (BSB-PROXY-CHOICES)." if who == state.proxy else ""
        if isinstance(move, ChooseTile):
            return self._bid_text(state, who, move.tile)
        if isinstance(move, TakeTile):
            tile = state.bids[move.owner]
            sort = SORTS[state.sheet.tile_sort(tile)]
            return (
                f"Take {state.name(move.owner)}'s tile {tile}: a {sort} for you to place on a bus or in "
                f"the queue (BSB-ROUND-TAKE, BSB-COMP-PLAYERTILES).{proxy}"
            )
        if isinstance(move, PlacePassenger):
            cls = move.passenger_class
            if move.bus is None:
                return self._queue_text(state, who, cls, len(state.boards[who].queue) + 1) + proxy
            return self._bus_text(state, who, move.bus, cls) + proxy
        if isinstance(move, HeadBoards):
            board = state.boards[who]
            cls = state.token_class(board.queue[0])
            back = (
                ""
                if who == state.proxy
                else f" It leaves the queue: {queue_cost(cls)} points less to lose (BSB-SCORE-QUEUE)."
            )
            return (
                f"The head of the queue, a {CLASS_NAMES[cls]}, boards bus {move.bus + 1} "
                f"(BSB-QUEUE-BOARD). {self._bus_text(state, who, move.bus, cls)}{back}{proxy}"
            )
        if isinstance(move, StopBoarding):
            waiting = len(state.boards[who].queue)
            return f"No more boarding this round: {waiting} stay in the queue (BSB-QUEUE-BOARD).{proxy}"
        return None

    @staticmethod
    def _bid_text(state: BusstopState, who: int, tile: int) -> str:
        """A bid's consequence from what the bidder sees: the tile's sort, face up or down, and its
        place against the conductor's face-up tile (BSB-ROUND-ORDER)."""
        sort = SORTS[state.sheet.tile_sort(tile)]
        if who == state.conductor:
            return (
                f"Tile {tile} (a {sort}) face up, first: the lowest tile goes first on the zone and ties go "
                f"clockwise from you, the conductor (BSB-ROUND-BID, BSB-ROUND-ORDER); each tile is used once."
            )
        text = f"Tile {tile} (a {sort}) face down until the reveal (BSB-ROUND-BID)"
        shown = state.bids[state.conductor]  # face up: the conductor's tile (the proxy's too)
        if shown is not None:
            name = state.name(state.conductor)
            if tile < shown:
                text += f"; lower than {name}'s {shown}: you go before them"
            elif tile == shown:
                text += f"; the same as {name}'s {shown}: a tie goes to the conductor first"
            else:
                text += f"; higher than {name}'s {shown}: you go after them"
        return text + " (BSB-ROUND-ORDER). It also becomes a passenger of its sort once taken."

    @staticmethod
    def _bus_text(state: BusstopState, who: int, bus: int, cls: int) -> str:
        """A passenger of class ``cls`` boarding ``who``'s bus ``bus``: seats taken after it, or the
        bus filling and leaving with the points its riders score (BSB-BOARD-LEAVE, BSB-SCORE-PILE,
        BSB-OPT-BONUS; a proxy bus's riders go to the proxy player, BSB-PROXY-LEAVE)."""
        riders = [state.token_class(t) for t in state.boards[who].buses[bus]] + [cls]
        seats = state.bus_seats[bus]
        if len(riders) < seats:
            sort = (
                SORT_PLURALS[next(c % 5 for c in riders if c != ET)] if any(c != ET for c in riders) else None
            )
            carries = f", carrying {sort}" if sort else ""
            return f"Bus {bus + 1}: {len(riders)} of {seats} seats taken{carries} (BSB-BOARD-SORT)."
        if who == state.proxy:
            banker = state.proxy_player
            rule = "BSB-PROXY-LEAVE"
        else:
            banker, rule = who, "BSB-SCORE-PILE"
        points = sum(pile_value(state, banker, c) for c in riders)
        whose = "" if banker == who else f" of {state.name(banker)}"
        return (
            f"Bus {bus + 1} fills ({seats} of {seats}) and leaves: {seats} passengers to the score pile"
            f"{whose}, +{points} points (BSB-BOARD-LEAVE, {rule})."
        )

    @staticmethod
    def _queue_text(state: BusstopState, who: int, cls: int, place: int) -> str:
        """A passenger of class ``cls`` joining ``who``'s queue at ``place`` (1-based)."""
        if who == state.proxy:
            return (
                f"The proxy's queue, place {place}: it scores for nobody, but {PROXY_PENALTY_AT} or more at "
                f"the end of a round go to Seat {state.proxy_player} as penalty tiles (BSB-PROXY-PENALTY)."
            )
        text = (
            f"Queue, place {place}: −{queue_cost(cls)} points while it waits at the end "
            f"(BSB-QUEUE, BSB-SCORE-QUEUE)."
        )
        if not state.boards[who].extra_open and place >= EXTRA_BUS_AT:
            text += f" {EXTRA_BUS_AT} or more waiting at the end of the round open bus 3 (BSB-EXTRA-BUS)."
        return text

    # -- blocked targets -----------------------------------------------------------------------
    def blocked(self, state: State, moves: Sequence[Move]) -> dict[str, str]:
        """Tiles already played (bid), passengers like an earlier one (placement), buses a
        passenger may not board and the queue for an ET, with ``why_illegal``'s reason."""
        assert isinstance(state, BusstopState)
        who = state.acting_participant()
        node = state.phase()
        out: dict[str, str] = {}
        if who is None:
            return out
        if node is BusstopPhase.BID:
            for tile in range(1, 11):
                if tile not in state.hands[who]:
                    out[f"tile:{tile}"] = state.why_illegal(ChooseTile(tile).action) or ""
        elif node is BusstopPhase.PLACE:
            received = state.boards[who].received
            classes = sorted({state.token_class(t) for t in received})
            for i, token in enumerate(received):
                cls = state.token_class(token)
                first = first_received(state, who, cls)
                if first != i:
                    out[f"passenger:{i}"] = (
                        f"the same class as passenger {first + 1} to place (a {CLASS_NAMES[cls]}): "
                        "tap that one, they are alike (BSB-ROUND-DISTRIBUTE)"
                    )
            for bus in range(3):
                reasons = [state.why_illegal(place_action(c, bus)) for c in classes]
                distinct = list(dict.fromkeys(r for r in reasons if r))
                if distinct:
                    out[f"bus:{who}:{bus}"] = "; ".join(distinct)
            if ET in classes:
                out[f"queue:{who}"] = state.why_illegal(place_action(ET, None)) or ""
        elif node is BusstopPhase.BOARD:
            for bus in range(3):
                reason = state.why_illegal(board_action(bus))
                if reason:
                    out[f"bus:{who}:{bus}"] = reason
        return out


def pile_value(state: BusstopState, seat: int, cls: int) -> int:
    """Points a passenger of class ``cls`` scores in ``seat``'s pile: 1, a VIP 3, an ET 0
    (BSB-SCORE-PILE); the colour's sort 2 and its VIP 6 with the passenger bonus (BSB-OPT-BONUS)."""
    if cls == ET:
        return 0
    base = 3 if cls >= VIP_BASE else 1
    if state.passenger_bonus and cls % 5 == state.bonus_sort(seat):
        return 2 * base
    return base


#: The adapter :func:`bus_lab.board.frame.adapter_for` loads.
ADAPTER = BusstopAdapter()
