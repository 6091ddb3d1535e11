"""What a seat may see of a Busstop table: ``BusstopState.view(seat)``, assembled here.

The shape is documented by the ``TypedDict`` classes below (one per nested dict). Everything is
JSON-safe: ints, strings, booleans, ``None``, lists and dicts with string keys.

Hidden from a seat (BSB-ROUND-BID): the tile another seat chose face down this round, until the
reveal (its bid reads ``{"state": "hidden", "tile": None}`` and the tile is still counted in that
seat's ``hand``); and the order of the passenger stack (only how many of each kind are left, which
anyone can count). The spectator (``seat=None``) sees every tile; the public view (what a table
shows to everyone: the state's ``str`` and HTML) hides every face-down tile.

Passengers are written as in the log's data: a drawn one by its kind code (``"Gi"``, ``"VGi"``,
``"ET"``), a player tile as ``"owner/number"`` (``"1/7"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypedDict

from bus_lab.games.busstop.components import KIND_NAMES, QUEUE_SPACES, ROUNDS, SORTS, TILES
from bus_lab.games.busstop.phases import BusstopPhase

if TYPE_CHECKING:
    from bus_lab.games.busstop.state import BusstopState


class BusView(TypedDict):
    """One bus of a board (BSB-COMP-BOARD, BSB-BOARD-SORT).

    Keys:
        seats: how many passengers fill it (it then leaves, BSB-BOARD-LEAVE).
        open: whether passengers may board it (the third bus is locked until BSB-EXTRA-BUS).
        sort: the sort it carries now (a sort's name, ``"girl"``), ``None`` when empty or only ETs.
        passengers: its passengers in boarding order (codes).
    """

    seats: int
    open: bool
    sort: str | None
    passengers: list[str]


class BoardView(TypedDict):
    """One participant's board (BSB-COMP-BOARD), the proxy bus's included.

    Keys:
        name: ``"Seat 1"`` or ``"the proxy bus"``.
        buses: the three buses (:class:`BusView`).
        queue: passengers waiting, head first (codes; BSB-QUEUE).
        pile: the score pile (codes; BSB-SCORE-PILE).
        penalty: penalty tiles taken from the proxy queue (codes; BSB-PROXY-PENALTY).
        received: passengers taken this round and not placed yet (codes; BSB-ROUND-DISTRIBUTE).
        hand: tile numbers not yet played, sorted; a tile chosen face down and hidden from the
            viewer is still listed.
        extra_bus: whether the third bus is open (BSB-EXTRA-BUS).
        bonus_sort: the sort that scores double with the passenger bonus (BSB-OPT-BONUS), ``None``
            without that option and for the proxy bus.
        requirement: the end-game requirement's key (BSB-OPT-ENDBONUS), ``None`` without that
            option and for the proxy bus.
    """

    name: str
    buses: list[BusView]
    queue: list[str]
    pile: list[str]
    penalty: list[str]
    received: list[str]
    hand: list[int]
    extra_bus: bool
    bonus_sort: str | None
    requirement: str | None


class BidView(TypedDict):
    """A participant's tile this round (BSB-ROUND-BID).

    Keys:
        state: ``"none"`` (not chosen yet), ``"shown"`` (face up, revealed, or the viewer's own)
            or ``"hidden"`` (chosen face down, not revealed to this viewer).
        tile: the tile number when ``"shown"``, else ``None``.
    """

    state: Literal["none", "shown", "hidden"]
    tile: int | None


class PlayedView(TypedDict):
    """A tile still on the player-order zone after the reveal, which a white icon may take.

    Keys:
        owner: the participant who played it.
        tile: its number.
    """

    owner: int
    tile: int


class PositionView(TypedDict):
    """One position of the player-order zone (BSB-COMP-ZONE, BSB-ROUND-ORDER).

    Keys:
        black: the queue slots (1-based) its black icons take.
        white: whether it has a white icon (take one played tile).
        conductor: whether it is the conductor space (BSB-ROUND-CONDUCTOR).
        holder: the participant on it after the reveal, ``None`` before.
        tile: the holder's tile after the reveal, ``None`` before.
    """

    black: list[int]
    white: bool
    conductor: bool
    holder: int | None
    tile: int | None


class StackView(TypedDict):
    """The face-down passenger stack: what anyone can count (BSB-COMP-PASSENGERS).

    Keys:
        left: passengers left in it.
        by_kind: passengers left of each kind, by the kind's name (``"girl"``, ``"VIP girl"``,
            ``"extra-terrestrial"``).
    """

    left: int
    by_kind: dict[str, int]


class OptionsView(TypedDict):
    """The optional rules in play.

    Keys:
        passenger_bonus: option 1 (BSB-OPT-BONUS).
        end_bonus: option 2 (BSB-OPT-ENDBONUS).
    """

    passenger_bonus: bool
    end_bonus: bool


class BusstopView(TypedDict):
    """``BusstopState.view(seat)``: the table as ``seat`` sees it.

    Keys:
        game: ``"busstop"``.
        viewer: the seat viewing, ``None`` for the spectator (and the public view).
        players: seats at the table (2-5).
        participants: boards in play: the seats, plus the proxy bus with 2 players.
        proxy: the proxy bus's participant number (2), ``None`` without it (BSB-PROXY).
        proxy_player: the seat making the proxy's choices this round (BSB-PROXY-CHOICES), or ``None``.
        names: every participant's name.
        round: the round, 1 to ``rounds``.
        rounds: rounds in a game (10, BSB-END).
        node: the phase's name (``"lineup"``, ``"bid"``, ...), ``None`` once the game is over.
        to_move: ``current_player()``: a seat, -1 for chance (a draw), -4 at the end.
        acting: whose board or tile the decision is about (the proxy's when the proxy player
            decides for it); ``None`` at a draw and at the end.
        status: one sentence saying what happens next.
        conductor: the participant who is conductor this round.
        next_conductor: who is on the conductor space after the reveal, else ``None``.
        stack: :class:`StackView`.
        lineup: the line-up's passengers by queue slot (codes), ``None`` once taken.
        slots: passengers lined up per round.
        zone: the positions of the zone (:class:`PositionView`).
        take_position: the 0-based position whose white icon is being used, else ``None``.
        bids: every participant's tile this round (:class:`BidView`).
        played: tiles still on the zone after the reveal (:class:`PlayedView`), empty before.
        boards: every participant's board (:class:`BoardView`).
        tile_sorts: the sort of each player tile, by its number as a string (``"7"``).
        queue_spaces: spaces printed for the queue (it goes on off the board).
        scores: points of each seat so far (final at the end).
        ets: ETs each seat holds (the tie-break, BSB-WIN).
        winners: the winning seats once the game is over, else empty.
        options: :class:`OptionsView`.
    """

    game: str
    viewer: int | None
    players: int
    participants: int
    proxy: int | None
    proxy_player: int | None
    names: list[str]
    round: int
    rounds: int
    node: str | None
    to_move: int
    acting: int | None
    status: str
    conductor: int
    next_conductor: int | None
    stack: StackView
    lineup: list[str | None]
    slots: int
    zone: list[PositionView]
    take_position: int | None
    bids: list[BidView]
    played: list[PlayedView]
    boards: list[BoardView]
    tile_sorts: dict[str, str]
    queue_spaces: int
    scores: list[int]
    ets: list[int]
    winners: list[int]
    options: OptionsView


#: The viewer of the public view: no seat, and every face-down tile hidden.
PUBLIC = "public"


def build_view(state: BusstopState, seat: int | None | Literal["public"]) -> BusstopView:
    """The view of a checked ``seat`` (``None``: the spectator; :data:`PUBLIC`: the public view)."""
    bids = [bid_view(state, k, seat) for k in range(state.participants)]
    return {
        "game": "busstop",
        "viewer": None if seat == PUBLIC else seat,  # type: ignore[typeddict-item]
        "players": state.num_players,
        "participants": state.participants,
        "proxy": state.proxy,
        "proxy_player": state.proxy_player,
        "names": [state.name(k) for k in range(state.participants)],
        "round": state.round,
        "rounds": ROUNDS,
        "node": None if state.node is None else state.node.value,
        "to_move": state.current_player(),
        "acting": state.acting_participant(),
        "status": state.status(),
        "conductor": state.conductor,
        "next_conductor": state.next_conductor if _revealed(state) else None,
        "stack": stack_view(state),
        "lineup": [None if t is None else state.token_code(t) for t in state.lineup],
        "slots": state.zone.passengers,
        "zone": zone_view(state),
        "take_position": state.take_pos if state.node is BusstopPhase.WHITE else None,
        "bids": bids,
        "played": played_view(state),
        "boards": [board_view(state, k, bids[k]["state"] == "hidden") for k in range(state.participants)],
        "tile_sorts": {str(t): SORTS[state.sheet.tile_sort(t)] for t in TILES},
        "queue_spaces": QUEUE_SPACES,
        "scores": state.returns(),
        "ets": [state.ets(s) for s in range(state.num_players)],
        "winners": state.winners(),
        "options": {"passenger_bonus": state.passenger_bonus, "end_bonus": state.end_bonus},
    }


def _revealed(state: BusstopState) -> bool:
    """Whether this round's tiles are revealed (the zone is filled)."""
    return bool(state.zone_holders)


def bid_view(state: BusstopState, k: int, seat: int | None | str) -> BidView:
    """Participant ``k``'s tile as ``seat`` sees it: face up for the conductor, after the reveal,
    to its owner and to the spectator; hidden otherwise (BSB-ROUND-BID)."""
    tile = state.bids[k]
    if tile is None:
        return {"state": "none", "tile": None}
    if _revealed(state) or k == state.conductor or seat is None or seat == k:
        return {"state": "shown", "tile": tile}
    return {"state": "hidden", "tile": None}


def bus_view(state: BusstopState, k: int, bus: int) -> BusView:
    """Bus ``bus`` (0-2) of participant ``k``."""
    sort = state.bus_sort(k, bus)
    return {
        "seats": state.bus_seats[bus],
        "open": state.bus_open(k, bus),
        "sort": None if sort is None else SORTS[sort],
        "passengers": [state.token_code(t) for t in state.boards[k].buses[bus]],
    }


def board_view(state: BusstopState, k: int, bid_hidden: bool) -> BoardView:
    """Participant ``k``'s board; ``bid_hidden``: its face-down tile is hidden from the viewer, so
    it is listed in the hand."""
    board = state.boards[k]
    code = state.token_code
    hand = set(state.hands[k])
    if bid_hidden:
        hand.add(state.bids[k])  # type: ignore[arg-type]  # hidden means chosen
    seat_option = k != state.proxy
    return {
        "name": state.name(k),
        "buses": [bus_view(state, k, b) for b in range(3)],
        "queue": [code(t) for t in board.queue],
        "pile": [code(t) for t in board.pile],
        "penalty": [code(t) for t in board.penalty],
        "received": [code(t) for t in board.received],
        "hand": sorted(hand),
        "extra_bus": board.extra_open,
        "bonus_sort": SORTS[state.bonus_sort(k)] if state.passenger_bonus and seat_option else None,
        "requirement": state.requirement(k) if state.end_bonus and seat_option else None,
    }


def played_view(state: BusstopState) -> list[PlayedView]:
    """Tiles still on the zone after the reveal (none before)."""
    if not _revealed(state):
        return []
    return [{"owner": k, "tile": state.bids[k]} for k in state.played]  # type: ignore[typeddict-item]


def zone_view(state: BusstopState) -> list[PositionView]:
    """The positions of the zone, with their holders once revealed."""
    zone = state.zone
    positions: list[PositionView] = []
    for i in range(state.participants):
        holder = state.zone_holders[i] if _revealed(state) else None
        positions.append(
            {
                "black": [s + 1 for s in zone.black[i]],
                "white": zone.white[i],
                "conductor": i == zone.conductor,
                "holder": holder,
                "tile": None if holder is None else state.bids[holder],
            }
        )
    return positions


def stack_view(state: BusstopState) -> StackView:
    """How many passengers are left in the stack, in all and of each kind."""
    return {"left": sum(state.stack), "by_kind": {KIND_NAMES[k]: c for k, c in enumerate(state.stack)}}
