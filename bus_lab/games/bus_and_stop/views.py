"""What a seat sees of a Bus & Stop table: ``state.view(seat)``, and the shape of that dict.

Every card of Bus & Stop is face up; only the deck's order is hidden (its size is shown, not its
make-up). So every seat, and the spectator (``None``), gets the same view apart from ``viewer``.
The dicts are JSON-safe: passengers are named by their two-letter codes (``"YB"``: a yellow
businessman), colours and destination stacks by their names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from bus_lab.games.bus_and_stop.components import BUS_SEATS
from bus_lab.games.bus_and_stop.phases import BusAndStopPhase

if TYPE_CHECKING:
    from bus_lab.games.bus_and_stop.state import BusAndStopState

__all__ = [
    "BusAndStopView",
    "TopCardView",
    "StackView",
    "ClaimView",
    "BusView",
    "PendingDropView",
    "SkedaddleView",
    "TriggerView",
    "ColourView",
    "TypeView",
    "OptionsView",
    "table_view",
]


class TopCardView(TypedDict):
    """The top card of a destination stack (BAS-DROP-TOP).

    Keys:
        counts (list[int]): the passenger counts the card accepts, ascending.
        points (list[int]): the points for each of those counts, in the same order.
    """

    counts: list[int]
    points: list[int]


class StackView(TypedDict):
    """One destination stack (BAS-SETUP-STACKS).

    Keys:
        name (str): the stack's name (``"office"``, ``"multicoloured"``).
        kind (str): ``"type"`` (passengers of one type, BAS-DROP-TYPE) or ``"multicoloured"``
            (pairwise different colours, BAS-DROP-MULTI).
        type (str | None): the passenger type it takes; ``None`` for the multicoloured stack.
        needs (str): what it takes, in words.
        cards_left (int): destination cards left in the stack.
        top (TopCardView | None): its top card; ``None`` once the stack is empty.
    """

    name: str
    kind: str
    type: str | None
    needs: str
    cards_left: int
    top: TopCardView | None


class ClaimView(TypedDict):
    """A destination card a seat has claimed (BAS-DROP-CLAIM).

    Keys:
        stack (str): the name of the stack it came from.
        count (int): passengers dropped off for it.
        points (int): the points it is worth.
    """

    stack: str
    count: int
    points: int


class BusView(TypedDict):
    """One seat's bus and what lies beside it.

    Keys:
        bus (list[str]): codes of the passengers in the bus, one per passenger, by kind.
        seats_used (int): passengers in the bus.
        seats (int): seats of a bus (10, BAS-PICK-LIMIT).
        seniors (list[str]): codes of the seniors beside the bus (BAS-SENIOR), sorted by kind.
        seniors_lost (int): seniors beyond the cap that left the game (BAS-SENIOR-CAP).
        skedaddled (list[str]): codes of the passengers it skedaddled (BAS-SKEDADDLE).
        unhappy (list[str]): codes of its unhappy discards (BAS-UNHAPPY).
        dropped (list[str]): codes of the passengers it dropped off at destinations.
        claimed (list[ClaimView]): the destination cards it claimed, in order.
        points (int): its points so far (``returns()``; the end-of-game lines only once over).
        tie_break (int): seniors plus skedaddled passengers (BAS-WIN's tie-break).
    """

    bus: list[str]
    seats_used: int
    seats: int
    seniors: list[str]
    seniors_lost: int
    skedaddled: list[str]
    unhappy: list[str]
    dropped: list[str]
    claimed: list[ClaimView]
    points: int
    tie_break: int


class PendingDropView(TypedDict):
    """A drop-off whose passengers are being chosen (phase ``choose``).

    Keys:
        stack (str): the destination stack's name.
        count (int): passengers to drop off.
        chosen (list[str]): codes of the passengers chosen so far, in order.
    """

    stack: str
    count: int
    chosen: list[str]


class SkedaddleView(TypedDict):
    """The skedaddle being offered (phase ``skedaddle``, BAS-SKEDADDLE).

    Keys:
        seat (int): the seat that may skedaddle.
        dropper (int): the seat whose drop-off it reacts to.
        stack (str): the destination stack dropped off at.
        colours (list[str]): the colours just dropped (they match at a multicoloured stack).
    """

    seat: int
    dropper: int
    stack: str
    colours: list[str]


class TriggerView(TypedDict):
    """Who triggered the end and why (BAS-END-TRIGGER).

    Keys:
        seat (int): the seat whose turn triggered it.
        reason (str): why, in words.
    """

    seat: int
    reason: str


class ColourView(TypedDict):
    """A passenger colour of the sheet.

    Keys:
        name (str): its name. code (str): its one-letter code. ink (str): its colour, ``#RRGGBB``.
    """

    name: str
    code: str
    ink: str


class TypeView(TypedDict):
    """A passenger type of the sheet.

    Keys:
        name (str): its name. code (str): its one-letter code. senior (bool): a senior type
        (BAS-SENIOR).
    """

    name: str
    code: str
    senior: bool


class OptionsView(TypedDict):
    """The table's settings.

    Keys:
        final_round (str): ``"drop_off"`` or ``"full_turn"`` (BAS-END-FINAL).
        leftover_penalty (bool): −1 per passenger left in a bus at the end (BAS-SCORE-EMPTY).
        sheet (str): ``"built-in"`` or ``"custom"``.
    """

    final_round: str
    leftover_penalty: bool
    sheet: str


class BusAndStopView(TypedDict):
    """``state.view(seat)``: the whole table (nothing is hidden but the deck's order).

    Keys:
        game (str): ``"bus_and_stop"``.
        viewer (int | None): the seat it was made for; ``None`` for the spectator.
        players (int): number of seats.
        phase (str): the part of the game: ``"setup"``, ``"play"``, ``"final"`` or ``"over"``.
        node (str | None): the phase of ``state.phase()``: ``"deal"``, ``"refill"``, ``"turn"``,
            ``"choose"``, ``"skedaddle"``, ``"unhappy"``; ``None`` once over.
        to_move (int): ``current_player()``: a seat, −1 (a card to draw) or −4 (over).
        turn (int): whose turn it is (the seat dropping off during a skedaddle).
        turns (int): turns begun so far.
        status (str): what happens next, in one sentence.
        stop (list[str]): codes of the passengers at the bus stop, in the order dealt.
        deck (int): passenger cards left in the deck.
        stacks (list[StackView]): the destination stacks, in sheet order.
        destinations_left (int): destination cards left in all stacks (BAS-END-TRIGGER).
        buses (list[BusView]): per seat.
        points (list[int]): per seat, as ``returns()``.
        pending_drop (PendingDropView | None): the drop-off being chosen; ``None`` otherwise.
        skedaddle (SkedaddleView | None): the skedaddle offered now; ``None`` otherwise.
        unhappy_discards (int): passengers discarded so far in the current unhappy turn; 0
            outside the ``unhappy`` phase.
        trigger (TriggerView | None): who triggered the end; ``None`` before.
        final_order (list[int]): the seats of the final round, in order; empty before it.
        colours (list[ColourView]): the sheet's colours.
        types (list[TypeView]): the sheet's passenger types.
        options (OptionsView): the table's settings.
        winners (list[int]): the winning seats at the end (BAS-WIN); empty before.
    """

    game: str
    viewer: int | None
    players: int
    phase: str
    node: str | None
    to_move: int
    turn: int
    turns: int
    status: str
    stop: list[str]
    deck: int
    stacks: list[StackView]
    destinations_left: int
    buses: list[BusView]
    points: list[int]
    pending_drop: PendingDropView | None
    skedaddle: SkedaddleView | None
    unhappy_discards: int
    trigger: TriggerView | None
    final_order: list[int]
    colours: list[ColourView]
    types: list[TypeView]
    options: OptionsView
    winners: list[int]


def _stacks(state: BusAndStopState) -> list[StackView]:
    sheet = state.sheet
    stacks: list[StackView] = []
    for s, spec in enumerate(sheet.stacks):
        card = state.top_card(s)
        stacks.append(
            {
                "name": spec.name,
                "kind": spec.kind,
                "type": None if spec.multicoloured else sheet.types[spec.type_index].name,
                "needs": sheet.needs_text(spec),
                "cards_left": len(state.stacks[s]),
                "top": None if card is None else {"counts": list(card.counts), "points": list(card.points)},
            }
        )
    return stacks


def _buses(state: BusAndStopState, scores: list[int]) -> list[BusView]:
    sheet = state.sheet
    table = sheet.codes

    def codes(kinds: list[int]) -> list[str]:
        return [table[k] for k in sorted(kinds)]

    players: list[BusView] = []
    for p in range(state.num_players):
        passengers = [table[k] for k, c in enumerate(state.bus[p]) for _ in range(c)]
        players.append(
            {
                "bus": passengers,
                "seats_used": len(passengers),
                "seats": BUS_SEATS,
                "seniors": codes(state.seniors[p]),
                "seniors_lost": len(state.seniors_lost[p]),
                "skedaddled": codes(state.skedaddled[p]),
                "unhappy": codes(state.unhappy[p]),
                "dropped": codes(state.dropped[p]),
                "claimed": [
                    {"stack": sheet.stacks[s].name, "count": k, "points": pts}
                    for s, _i, k, pts in state.claimed[p]
                ],
                "points": scores[p],
                "tie_break": state.tie_break_value(p),
            }
        )
    return players


def _pending(state: BusAndStopState) -> PendingDropView | None:
    if state.pending is None:
        return None
    stack, count, chosen = state.pending
    table = state.sheet.codes
    return {"stack": state.sheet.stacks[stack].name, "count": count, "chosen": [table[k] for k in chosen]}


def _skedaddle(state: BusAndStopState) -> SkedaddleView | None:
    if state.node is not BusAndStopPhase.SKEDADDLE:
        return None
    sheet = state.sheet
    dropper, stack, colours = state.sked_from  # type: ignore[misc]
    seat: int = state.sked_seat  # type: ignore[assignment]  # set in this phase
    return {
        "seat": seat,
        "dropper": dropper,
        "stack": sheet.stacks[stack].name,
        "colours": [sheet.colours[c].name for c in colours],
    }


def table_view(state: BusAndStopState, seat: int | None) -> BusAndStopView:
    """``state.view(seat)`` for a seat already checked (``None``: the spectator)."""
    sheet = state.sheet
    params = state.get_game().params
    scores = state.returns()
    table = sheet.codes
    node = state.node
    return {
        "game": "bus_and_stop",
        "viewer": seat,
        "players": state.num_players,
        "phase": state.stage.value,
        "node": None if node is None else node.value,
        "to_move": state.current_player(),
        "turn": state.seat,
        "turns": state.turns,
        "status": state.status(),
        "stop": [table[k] for k in state.stop],
        "deck": sum(state.deck),
        "stacks": _stacks(state),
        "destinations_left": state.destinations_left(),
        "buses": _buses(state, scores),
        "points": scores,
        "pending_drop": _pending(state),
        "skedaddle": _skedaddle(state),
        "unhappy_discards": state.unhappy_count if node is BusAndStopPhase.UNHAPPY else 0,
        "trigger": None if state.trigger is None else {**state.trigger},  # type: ignore[typeddict-item]
        "final_order": list(state.final_order),
        "colours": [{"name": c.name, "code": c.code, "ink": c.ink} for c in sheet.colours],
        "types": [{"name": t.name, "code": t.code, "senior": t.senior} for t in sheet.types],
        "options": {
            "final_round": params["final_round"],
            "leftover_penalty": params["leftover_penalty"],
            "sheet": "built-in" if params["sheet"] is None else "custom",
        },
        "winners": state.winners(),
    }
