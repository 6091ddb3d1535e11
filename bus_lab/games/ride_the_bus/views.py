"""What a seat sees of a Ride the Bus table: ``state.view(seat)``, and its shape as ``TypedDict``s.

Every card on the table is face up; the only hidden thing is the order of the draw pile (shown by
its size only), so every seat, and the spectator (``None``), sees the same table. Cards are codes
(``"TD"``, :mod:`.cards`); seats are numbered from 0; points are the game's (bad) points.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from bus_lab.games.ride_the_bus import cards as C
from bus_lab.games.ride_the_bus.moves import GUESS_LABELS
from bus_lab.games.ride_the_bus.phases import Part, RideTheBusPhase

if TYPE_CHECKING:
    from bus_lab.games.ride_the_bus.state import RideTheBusState


class QuestionView(TypedDict):
    """The Part 1 question being asked (``None`` outside Part 1).

    Keys:
        number (int): 1–4 (RTB-Q1 … RTB-Q4).
        text (str): the question in words (``"red or black"``).
        points (int): points at stake (1–4).
        seat (int): the seat answering it.
    """

    number: int
    text: str
    points: int
    seat: int


class GiveView(TypedDict):
    """Points waiting to be handed out, first one first (RTB-Q-RIGHT, RTB-P-GIVE, RTB-GT-GIVE).

    Keys:
        giver (int): the seat that picks who takes them.
        points (int): how many.
    """

    giver: int
    points: int


class PyramidCardView(TypedDict):
    """One of the ten pyramid positions, bottom row first (RTB-P-LAYOUT).

    Keys:
        row (int): 1 (bottom, four cards) … 4 (top).
        points (int): points per card played on this row (RTB-P-POINTS).
        card (str | None): its card once flipped; ``None`` while face down.
        current (bool): this is the card in play (being matched).
    """

    row: int
    points: int
    card: str | None
    current: bool


class SpotView(TypedDict):
    """One of the eight Give & Take spots, row 1's Give spot first (RTB-GT-LAYOUT).

    Keys:
        row (int): 1–4.
        kind (str): ``"give"`` or ``"take"``.
        points (int): points per card played on it (RTB-GT-POINTS).
        cards (list[str]): every card flipped on it, in order (a spot is flipped again when
            nobody matches, RTB-GT-REFLIP).
        current (bool): its last card is in play (being matched).
    """

    row: int
    kind: str
    points: int
    cards: list[str]
    current: bool


class BusView(TypedDict):
    """Part 3 (or the gauntlet's current ride); before it starts, empty values.

    Keys:
        rider (int | None): the seat on the bus (the rider now, in the gauntlet); ``None``
            before Part 3.
        card_to_beat (str | None): the face-up card a higher/lower call compares with.
        cards (list[str]): every bus card flipped so far, in order.
        streak (int): hits in a row now (questions bus: right answers of the current run).
        best_streak (int): the longest streak so far.
        target (int): hits in a row that end the bus (the ``streak`` option).
        guesses (int): guesses made on the bus so far.
        max_guesses (int): the most guesses before the bus stops (RTB-B-END, RTB-QB-END).
        kind (str): ``"higher_lower"`` or ``"questions"`` (always ``"higher_lower"`` in the gauntlet).
        run (list[str]): questions bus: the cards of the current run of right answers.
        question (int | None): questions bus: the question (1–4) being answered; else ``None``.
    """

    rider: int | None
    card_to_beat: str | None
    cards: list[str]
    streak: int
    best_streak: int
    target: int
    guesses: int
    max_guesses: int
    kind: str
    run: list[str]
    question: int | None


class GauntletView(TypedDict):
    """The solo gauntlet's rides (``None`` in a classic game), RTB-SG-*.

    Keys:
        order (list[int]): the ride order (seats, most Part 1 points first); empty before the rides.
        ride (int): the ride under way, counted from 1 (once over: rides finished).
        total_rides (int): rides in all (10 per seat, RTB-SG-RIDES).
        best (list[int]): each seat's best ride (hits in a row), by seat.
    """

    order: list[int]
    ride: int
    total_rides: int
    best: list[int]


class _TableOptions(TypedDict):
    """The settings every table has (the required keys of :class:`OptionsView`)."""

    players: int
    board: str
    row_points: str
    bus: str
    streak: int
    mode: str


class OptionsView(_TableOptions, total=False):
    """The table settings, as ``load_game`` takes them (see ``RideTheBusGame``).

    Keys:
        players (int): seats at the table.
        board (str): ``"pyramid"`` or ``"give_and_take"``.
        row_points (str): ``"escalating"`` or ``"flat"``.
        bus (str): ``"higher_lower"`` or ``"questions"``.
        streak (int): hits in a row that end the bus (3–7).
        mode (str): ``"classic"`` or ``"gauntlet"``.

    The house rules, each present only when the table plays it other than the standard way (as in
    ``game.params``; ``game.house_rules()`` gives all five):

        ties (str): ``"win"`` (house rule RTB-HR-TIES; standard ``"lose"``).
        inside (str): ``"inclusive"`` (house rule RTB-HR-INSIDE; standard ``"strict"``).
        aces (str): ``"low"`` (house rule RTB-HR-ACES; standard ``"high"``).
        pyramid_order (str): ``"top_down"`` (house rule RTB-HR-FLIP; standard ``"bottom_up"``).
        played_cards (str): ``"stay"`` (house rule RTB-HR-STAY; standard ``"leave"``).
    """

    ties: str
    inside: str
    aces: str
    pyramid_order: str
    played_cards: str


class RideTheBusView(TypedDict):
    """``state.view(seat)``: the whole table, JSON-safe, the same for every seat.

    Keys:
        game (str): ``"ride_the_bus"``.
        viewer (int | None): the seat it was made for (``None``: the spectator).
        players (int): seats at the table.
        phase (str): the part of the game: ``"questions"``, ``"pyramid"``, ``"give_and_take"``,
            ``"bus"``, ``"rides"`` or ``"over"`` (:class:`~.phases.Part`).
        to_move (int): the seat to act, ``-1`` at a draw, ``-4`` once over.
        status (str): one sentence saying what happens next.
        points (list[int]): each seat's points so far (lowest total wins, RTB-SCORE-LOW).
        rows (list[list[str]]): each seat's face-up row of Part 1 cards still held.
        question (QuestionView | None): the Part 1 question being asked.
        pending_guess (str | None): the guess waiting for its card (``"red"``…), else ``None``.
        gives (list[GiveView]): points waiting to be handed out.
        pyramid (list[PyramidCardView]): the ten pyramid positions (empty unless the pyramid
            board of a classic game).
        spots (list[SpotView]): the eight Give & Take spots (empty unless that board).
        bus (BusView): Part 3, or the gauntlet's current ride.
        gauntlet (GauntletView | None): the gauntlet's rides; ``None`` in a classic game.
        options (OptionsView): the table settings.
        draw_pile (int): cards left in the draw pile (their order is hidden).
        discard (list[str]): the discard pile, oldest first.
        winners (list[int]): the seats that share the win once over; empty before.
    """

    game: str
    viewer: int | None
    players: int
    phase: str
    to_move: int
    status: str
    points: list[int]
    rows: list[list[str]]
    question: QuestionView | None
    pending_guess: str | None
    gives: list[GiveView]
    pyramid: list[PyramidCardView]
    spots: list[SpotView]
    bus: BusView
    gauntlet: GauntletView | None
    options: OptionsView
    draw_pile: int
    discard: list[str]
    winners: list[int]


def build_view(state: RideTheBusState, seat: int | None) -> RideTheBusView:
    """The view of ``state`` for ``seat`` (already checked; ``None`` is the spectator)."""
    from bus_lab.games.ride_the_bus.state import MAX_BUS_GUESSES, RIDES_EACH

    code = C.card_code
    q = state.current_question()
    in_play = bool(state.in_play)
    pyramid: list[PyramidCardView] = []
    spots: list[SpotView] = []
    if not state.gauntlet and state.board == "pyramid":
        pyramid = [
            {
                "row": state.pyramid_row(i),
                "points": state.row_points(state.pyramid_row(i)),
                "card": None if c is None else code(c),
                "current": in_play and state.part is Part.PYRAMID and i == state.pyramid_position(),
            }
            for i, c in enumerate(state.pyramid)
        ]
    if not state.gauntlet and state.board == "give_and_take":
        spots = [
            {
                "row": i // 2 + 1,
                "kind": state.spot_kind(i),
                "points": state.spot_points(i),
                "cards": [code(c) for c in cards],
                "current": in_play and state.part is Part.GIVE_AND_TAKE and i == state.spot_index,
            }
            for i, cards in enumerate(state.spots)
        ]
    bus: BusView = {
        "rider": state.rider,
        "card_to_beat": None if state.card_to_beat is None else code(state.card_to_beat),
        "cards": [code(c) for c in state.bus_cards],
        "streak": state.streak,
        "best_streak": state.best_streak,
        "target": state.target,
        "guesses": state.bus_guesses,
        "max_guesses": MAX_BUS_GUESSES,
        "kind": "higher_lower" if state.gauntlet else state.bus_kind,
        "run": [code(c) for c in state.run],
        "question": len(state.run) + 1
        if state.node in (RideTheBusPhase.QB_GUESS, RideTheBusPhase.QB_DEAL)
        else None,
    }
    gauntlet: GauntletView | None = None
    if state.gauntlet:
        gauntlet = {
            "order": list(state.ride_order),
            "ride": state.ride_number + 1 if state.node else state.ride_number,
            "total_rides": state.num_players * RIDES_EACH,
            "best": list(state.ride_best),
        }
    options: OptionsView = dict(state.get_game().params)  # type: ignore[assignment]
    return {
        "game": "ride_the_bus",
        "viewer": seat,
        "players": state.num_players,
        "phase": state.part.value,
        "to_move": state.current_player(),
        "status": state.status(),
        "points": list(state.points),
        "rows": [[code(c) for c in row] for row in state.rows],
        "question": None
        if q is None
        else {"number": q.number, "text": q.text, "points": q.points, "seat": state.q_seat},
        "pending_guess": None if state.pending_guess is None else GUESS_LABELS[state.pending_guess],
        "gives": [{"giver": g, "points": p} for g, p, _, _ in state.gives],
        "pyramid": pyramid,
        "spots": spots,
        "bus": bus,
        "gauntlet": gauntlet,
        "options": options,
        "draw_pile": len(state.draw),
        "discard": [code(c) for c in state.discard],
        "winners": state.winners(),
    }
