"""Ride the Bus positions a teacher sets up: ``game.state_from_position(position)`` and
``state.position()``.

A position is taken **at the start of a step**, before anything of it is decided:

* phase ``"guess"``: a Part 1 question is asked of a seat (RTB-Q1 … RTB-Q4), nothing pending;
* phase ``"flip"``: the next pyramid card is about to be flipped (RTB-P-FLIP, either flip order);
* phase ``"spot_flip"``: the current Give & Take spot is about to be flipped (RTB-GT-LAYOUT),
  possibly again after cards nobody held (RTB-GT-REFLIP);
* phase ``"bus_start"``: the bus's first card (or the gauntlet's first ride's) is about to be
  flipped (RTB-B-FLIP, RTB-SG-RIDE);
* phase ``"bus_guess"``: the rider calls higher or lower (RTB-B-GUESS, RTB-SG-RIDE);
* phase ``"qb_guess"``: the rider of the questions bus answers the next question (RTB-QB-ORDER).

A guess waiting for its card and points waiting to be handed out have no position:
:func:`position_of` raises :class:`~bus_lab.engine.errors.PositionError` naming the moments above.

Every card on the table is face up and the deck has no order: the draw pile is the 52 cards minus
the rows, the discard pile and the card to beat (or the run), each equally likely to come next,
as in a game played from the start. The options (board, row points, house rules…) are the game's params, not part of a position.

The shape is :class:`Position` (JSON-safe; cards by their codes such as ``"TD"``). Example: see
``README.md``, "Setting up a position".
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Literal, TypedDict, cast

from bus_lab.games.positions import PositionError, PositionFormat
from bus_lab.games.ride_the_bus import cards as C
from bus_lab.games.ride_the_bus.moves import QUESTIONS
from bus_lab.games.ride_the_bus.phases import Part, RideTheBusPhase
from bus_lab.games.sheets import field_path

if TYPE_CHECKING:
    from bus_lab.games.ride_the_bus.game import RideTheBusGame
    from bus_lab.games.ride_the_bus.state import RideTheBusState

__all__ = ["Position", "BusPosition", "position_of", "state_from_position", "EXAMPLE", "POSITION_PHASES"]

P = RideTheBusPhase
MAX_BUS_GUESSES = 40  # RTB-B-END, RTB-QB-END (as state.MAX_BUS_GUESSES)
RIDES_EACH = 10  # RTB-SG-RIDES (as state.RIDES_EACH)
#: The phases a position may be taken at.
POSITION_PHASES = (P.GUESS, P.FLIP, P.SPOT_FLIP, P.BUS_START, P.BUS_GUESS, P.QB_GUESS)
#: The phases of the bus (and of the gauntlet's rides).
BUS_PHASES = (P.BUS_START, P.BUS_GUESS, P.QB_GUESS)
#: Where a position may be taken, in words (the message of a refused ``position()``).
WHERE = (
    "a Ride the Bus position is taken at the start of a Part 1 question (phase 'guess'), of a "
    "pyramid flip (phase 'flip'), of a Give & Take spot flip (phase 'spot_flip'), of the bus or "
    "a ride (phase 'bus_start') or at a call on the bus (phase 'bus_guess' or 'qb_guess')"
)
PYRAMID_SIZE = 10
SPOTS = 8
#: Points the four questions put at stake, in all.
PART1_POINTS = sum(q.points for q in QUESTIONS)
#: Label of the score breakdown line of the points a position starts with.
BEFORE = "Points before the position"


class BusPosition(TypedDict):
    """The bus (Part 3, RTB-B-*, RTB-QB-*) or the gauntlet's rides (RTB-SG-*), once it has started.

    Keys:
        rider (int): the seat on the bus now.
        card_to_beat (str | None): higher/lower bus and rides: the card the next call is against
            (the last card of ``cards``); ``None`` before the first flip and on the questions bus.
        cards (list[str]): every card flipped on the bus so far, in order (the first flip too).
        streak (int): right calls in a row now (questions bus: the run's length).
        best_streak (int): the longest streak so far.
        guesses (int): calls answered so far (at most 40, RTB-B-END, RTB-QB-END).
        run (list[str]): questions bus: the cards of the current run (the last ones of ``cards``);
            empty otherwise.
        rides (int): gauntlet: rides finished so far (a ride ends at a miss); 0 otherwise.
        ride_best (list[int]): gauntlet: each seat's best single ride; zeros otherwise.
    """

    rider: int
    card_to_beat: str | None
    cards: list[str]
    streak: int
    best_streak: int
    guesses: int
    run: list[str]
    rides: int
    ride_best: list[int]


class Position(TypedDict):
    """A Ride the Bus position: what ``state.position()`` gives and ``state_from_position`` takes.

    Keys:
        phase (str): ``"guess"`` (Part 1), ``"flip"`` (pyramid), ``"spot_flip"`` (Give & Take),
            ``"bus_start"`` (the bus's or the first ride's first card is flipped next),
            ``"bus_guess"`` (a higher/lower call on the bus or a ride) or ``"qb_guess"`` (the
            questions bus's next answer).
        question (int | None): Part 1: the question asked now, 1–4; ``None`` in Part 2.
        seat (int | None): Part 1: the seat answering it (0-based); ``None`` in Part 2.
        rows (list[list[str]]): each seat's face-up row, by seat, in the order dealt. In Part 1 a
            seat that has answered this question has ``question`` cards, the others one fewer;
            in Part 2 at most 4 (exactly 4 when played cards stay, RTB-HR-STAY).
        points (list[int]): each seat's points so far (lowest total wins, RTB-SCORE-LOW).
        pyramid (list[str | None] | None): pyramid board: the card on each of the 10 spots
            (0–3 bottom row … 9 top; ``None`` not flipped yet); the flipped spots are the first
            ones of the flip order (RTB-P-FLIP, RTB-HR-FLIP). All ``None`` in Part 1; ``None``
            itself on the Give & Take board and in the gauntlet.
        spots (list[list[str]] | None): Give & Take board: the cards flipped on each of the 8 spots
            (give, take, give, take… by row), several when nobody held the first ones. ``None``
            on the pyramid board and in the gauntlet.
        spot (int | None): Give & Take: the spot flipped now, 0–7 (``None`` elsewhere); the spots
            before it were played, those after it are empty.
        discard (list[str]): the discard pile, oldest first (RTB-DISCARD). Empty in Part 1.
        bus (BusPosition | None): the bus or the rides (phases ``"bus_start"``, ``"bus_guess"``,
            ``"qb_guess"``); ``None`` before.

    What is not on the table (the rows, the discard pile and the card to beat or the run) is the
    draw pile.

    Raises (from ``state_from_position``):
        PositionError: a missing key, a wrong type, an unknown card code or seat, or a table no
            game reaches (a card twice, a row longer than the questions asked, points the
            questions cannot give, a pyramid flipped out of order, a phase of another board…).
    """

    phase: Literal["guess", "flip", "spot_flip", "bus_start", "bus_guess", "qb_guess"]
    question: int | None
    seat: int | None
    rows: list[list[str]]
    points: list[int]
    pyramid: list[str | None] | None
    spots: list[list[str]] | None
    spot: int | None
    discard: list[str]
    bus: BusPosition | None


CODES = [C.card_code(c) for c in C.DECK]


@functools.lru_cache(maxsize=64)
def _format(players: int) -> PositionFormat:
    code = {
        "enum": CODES,
        "x-expected": "a card code such as 'TD' (rank 2-9, T, J, Q, K, A; suit C, D, H, S)",
    }
    cards = {"type": "array", "items": code}
    schema = {
        "type": "object",
        "title": "a Ride the Bus position",
        "required": list(Position.__annotations__),
        "additionalProperties": False,
        "properties": {
            "phase": {"enum": ["guess", "flip", "spot_flip", "bus_start", "bus_guess", "qb_guess"]},
            "question": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 1, "maximum": 4}],
                         "x-expected": "null or a whole number from 1 to 4"},
            "seat": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": players - 1}],
                     "x-expected": f"null or a whole number from 0 to {players - 1}"},
            "rows": {"type": "array", "items": {**cards, "maxItems": len(QUESTIONS)},
                     "minItems": players, "maxItems": players},
            "points": {"type": "array", "items": {"type": "integer", "minimum": 0},
                       "minItems": players, "maxItems": players},
            "pyramid": {"anyOf": [{"type": "null"}, {"type": "array", "items": {"anyOf": [{"type": "null"}, code]},
                                                     "minItems": PYRAMID_SIZE, "maxItems": PYRAMID_SIZE}],
                        "x-expected": "null or a list of 10 card codes or nulls"},
            "spots": {"anyOf": [{"type": "null"}, {"type": "array", "items": cards,
                                                   "minItems": SPOTS, "maxItems": SPOTS}],
                      "x-expected": "null or a list of 8 lists of card codes"},
            "spot": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": SPOTS - 1}],
                     "x-expected": "null or a whole number from 0 to 7"},
            "discard": cards,
            "bus": {
                "type": ["object", "null"],
                "title": "the bus",
                "required": list(BusPosition.__annotations__),
                "additionalProperties": False,
                "properties": {
                    "rider": {"type": "integer", "minimum": 0, "maximum": players - 1},
                    "card_to_beat": {"anyOf": [{"type": "null"}, code], "x-expected": "null or a card code"},
                    "cards": cards,
                    "streak": {"type": "integer", "minimum": 0},
                    "best_streak": {"type": "integer", "minimum": 0},
                    "guesses": {"type": "integer", "minimum": 0},
                    "run": {**cards, "maxItems": len(QUESTIONS) - 1},
                    "rides": {"type": "integer", "minimum": 0, "maximum": players * RIDES_EACH - 1},
                    "ride_best": {"type": "array", "items": {"type": "integer", "minimum": 0},
                                  "minItems": players, "maxItems": players},
                },
                "x-expected": "null or the bus: {'rider': ..., 'card_to_beat': ..., ...}",
            },
        },
    }  # fmt: skip
    return PositionFormat("Ride the Bus", schema)


def position_of(state: RideTheBusState) -> Position:
    """``state.position()``: the table as a :class:`Position`.

    Raises:
        PositionError: the game is not at the start of a Part 1 question, a pyramid flip or a
            Give & Take spot flip.
    """
    node = state.node
    if node not in POSITION_PHASES or state.gives or state.pending_guess is not None:
        where = "the game is over" if node is None else f"the game is at phase {node.value!r}"
        raise PositionError(f"{WHERE}: {where}")
    code = C.card_code
    pyramid_board = not state.gauntlet and state.board == "pyramid"
    spot_board = not state.gauntlet and state.board == "give_and_take"
    part1 = node is P.GUESS
    return {
        "phase": cast(Literal["guess", "flip", "spot_flip"], node.value),
        "question": state.q_round + 1 if part1 else None,
        "seat": state.q_seat if part1 else None,
        "rows": [[code(c) for c in row] for row in state.rows],
        "points": list(state.points),
        "pyramid": [None if c is None else code(c) for c in state.pyramid] if pyramid_board else None,
        "spots": [[code(c) for c in s] for s in state.spots] if spot_board else None,
        "spot": state.spot_index if node is P.SPOT_FLIP else None,
        "discard": [code(c) for c in state.discard],
        "bus": None if node not in BUS_PHASES else _bus_of(state),
    }


def _bus_of(state: RideTheBusState) -> BusPosition:
    code = C.card_code
    assert state.rider is not None
    return {
        "rider": state.rider,
        "card_to_beat": None if state.card_to_beat is None else code(state.card_to_beat),
        "cards": [code(c) for c in state.bus_cards],
        "streak": state.streak,
        "best_streak": state.best_streak,
        "guesses": state.bus_guesses,
        "run": [code(c) for c in state.run],
        "rides": state.ride_number,
        "ride_best": list(state.ride_best),
    }


def state_from_position(game: RideTheBusGame, position: Any) -> RideTheBusState:
    """``game.state_from_position(position)``: a state at ``position`` (see :class:`Position`).

    Raises:
        PositionError: the first problem found, naming the field and what it should be.
    """
    n = game.num_players
    fmt = _format(n)
    pos = fmt.check(position)
    state = cast("RideTheBusState", game.new_initial_state())
    state._events = []  # the story before a position is not part of it
    card = C.parse_card
    phase = P(pos["phase"])
    stay = state.cards_stay
    pyramid_board = not state.gauntlet and state.board == "pyramid"
    spot_board = not state.gauntlet and state.board == "give_and_take"
    words = (
        "the solo gauntlet"
        if state.gauntlet
        else ("the pyramid board" if state.board == "pyramid" else "the Give & Take board")
    )

    # -- every card once ----------------------------------------------------------------------
    rows = [[card(c) for c in row] for row in pos["rows"]]
    discard = [card(c) for c in pos["discard"]]
    where: dict[int, str] = {}
    places: list[tuple[tuple[str | int, ...], int]] = [
        (("rows", p, i), c) for p, row in enumerate(rows) for i, c in enumerate(row)
    ]
    places += [(("discard", i), c) for i, c in enumerate(discard)]
    bus = pos["bus"]
    in_play: list[int] = []
    if bus is not None:
        if bus["card_to_beat"] is not None:
            in_play = [card(bus["card_to_beat"])]
            places.append((("bus", "card_to_beat"), in_play[0]))
        run = [card(c) for c in bus["run"]]
        places += [(("bus", "run", i), c) for i, c in enumerate(run)]
        in_play += run
    for path, c in places:
        here = field_path(path)
        if c in where:
            raise fmt.error(path, f"{C.card_code(c)} is on the table twice (also at {where[c]})")
        where[c] = here
    draw = set(C.DECK) - set(where)
    if not draw and (phase not in (P.BUS_GUESS, P.QB_GUESS) or not discard):
        raise fmt.error(("discard",), "no card is left to draw: the discard pile would have been reshuffled")

    # -- the board of this game ------------------------------------------------------------------
    if (pos["pyramid"] is None) == pyramid_board:
        need = "a list of 10 spots" if pyramid_board else "null"
        raise fmt.error(("pyramid",), f"{words} {'has' if pyramid_board else 'has no'} pyramid: use {need}")
    if (pos["spots"] is None) == spot_board:
        need = "a list of 8 spots" if spot_board else "null"
        raise fmt.error(
            ("spots",), f"{words} {'has' if spot_board else 'has no'} Give & Take spots: use {need}"
        )
    if phase is P.FLIP and not pyramid_board:
        raise fmt.error(("phase",), f"{words} has no pyramid flip")
    if phase is P.SPOT_FLIP and not spot_board:
        raise fmt.error(("phase",), f"{words} has no Give & Take spot")
    questions_bus = not state.gauntlet and state.bus_kind == "questions"
    if phase in (P.BUS_START, P.BUS_GUESS) and questions_bus:
        raise fmt.error(("phase",), "the questions bus has no higher/lower call: use phase 'qb_guess'")
    if phase is P.QB_GUESS and not questions_bus:
        raise fmt.error(("phase",), f"{words} rides the higher/lower bus: use 'bus_start' or 'bus_guess'")
    if (bus is None) == (phase in BUS_PHASES):
        raise fmt.error(("bus",), "the bus, once it has started" if bus is None else "null before the bus")
    part1 = phase is P.GUESS
    for key in ("question", "seat"):
        if (pos[key] is None) == part1:
            raise fmt.error(
                (key,), "a whole number in Part 1 (phase 'guess')" if part1 else "null after Part 1"
            )
    if (pos["spot"] is None) == (phase is P.SPOT_FLIP):
        raise fmt.error(("spot",), "a whole number at a spot flip" if phase is P.SPOT_FLIP else "null here")

    points = list(pos["points"])
    if part1:
        q_round, q_seat = pos["question"] - 1, pos["seat"]
        for p, row in enumerate(rows):
            want = q_round + (1 if p < q_seat else 0)
            if len(row) != want:
                raise fmt.error(
                    ("rows", p),
                    f"{len(row)} cards, but at question {q_round + 1} for seat {q_seat} this seat has "
                    f"answered {want} question{'s' if want != 1 else ''} (RTB-Q-ORDER)",
                )
        if discard:
            raise fmt.error(("discard",), "nothing is discarded in Part 1 (RTB-DISCARD)")
        if pos["pyramid"] is not None and any(pos["pyramid"]):
            raise fmt.error(("pyramid",), "no pyramid card is flipped in Part 1")
        if pos["spots"] is not None and any(pos["spots"]):
            raise fmt.error(("spots",), "no Give & Take spot is flipped in Part 1")
        at_stake = sum(QUESTIONS[k].points for row in rows for k in range(len(row)))
        total = sum(points)
        if (total != at_stake) if n > 1 else (total > at_stake):
            raise fmt.error(
                ("points",),
                f"{total} points in all, but the questions answered put {at_stake} at stake, each point "
                "going to the guesser or to whom they give it (RTB-Q-WRONG, RTB-Q-RIGHT)",
            )
    else:
        for p, row in enumerate(rows):
            if (stay or state.gauntlet) and len(row) != len(QUESTIONS):
                why = "the gauntlet has no Part 2" if state.gauntlet else "played cards stay in their row"
                raise fmt.error(("rows", p), f"{len(row)} cards, but {why} (RTB-HR-STAY, RTB-SG-FLOW)")
        if state.gauntlet and (sum(points) > PART1_POINTS * n or n > 1 and sum(points) != PART1_POINTS * n):
            raise fmt.error(
                ("points",),
                f"{sum(points)} points in all, but the gauntlet's points are Part 1's: {PART1_POINTS} per "
                f"seat ({PART1_POINTS * n}){' at most' if n == 1 else ''} (RTB-SG-QUESTIONS)",
            )
        if n > 1 and sum(points) < PART1_POINTS * n:
            raise fmt.error(
                ("points",),
                f"{sum(points)} points in all, but Part 1 alone hands out {PART1_POINTS} per seat "
                f"({PART1_POINTS * n})",
            )

    pyramid: list[int | None] = [None] * PYRAMID_SIZE
    if phase is P.FLIP:
        pyramid = [None if x is None else card(x) for x in pos["pyramid"]]
        flipped = sum(x is not None for x in pyramid)
        order = state.flip_order
        if sorted(i for i, x in enumerate(pyramid) if x is not None) != sorted(order[:flipped]):
            raise fmt.error(
                ("pyramid",),
                f"{flipped} cards flipped, so spots {sorted(order[:flipped])} (the flip order "
                f"{list(order)}), not {[i for i, x in enumerate(pyramid) if x is not None]}",
            )
        for i, flip in enumerate(pyramid):
            if flip is not None and flip not in discard:
                raise fmt.error(
                    ("pyramid", i),
                    f"{C.card_code(flip)} was flipped, so it is in the discard pile (RTB-DISCARD)",
                )
        state.pyramid_index = flipped
        state.part = Part.PYRAMID
    spots: list[list[int]] = [[] for _ in range(SPOTS)]
    if phase is P.SPOT_FLIP:
        spots = [[card(c) for c in s] for s in pos["spots"]]
        index = pos["spot"]
        for i, s in enumerate(spots):
            if i < index and not s:
                raise fmt.error(
                    ("spots", i), f"spot {index} is flipped now, so spot {i} was played: it has a card"
                )
            if i > index and s:
                raise fmt.error(("spots", i), f"spot {index} is flipped now, so spot {i} is not flipped yet")
            for k, c in enumerate(s):
                if c in {x for row in rows for x in row}:
                    raise fmt.error(("spots", i, k), f"{C.card_code(c)} is in a row: it was never flipped")
        holders = sum(1 for row in rows if row)
        if index > 0 and holders <= 1:
            raise fmt.error(("rows",), f"{holders} seat holds cards: Part 2 ends then (RTB-GT-END)")
        state.spot_index = index
        state.part = Part.GIVE_AND_TAKE
    if bus is not None:
        _set_up_bus(state, fmt, phase, bus, pos, rows, in_play)
    if phase is not P.GUESS:
        state.q_round, state.q_seat = len(QUESTIONS), 0
    else:
        state.q_round, state.q_seat = pos["question"] - 1, pos["seat"]

    state.rows = rows
    state.discard = discard
    state.draw = draw
    state.points = points
    state.ledger = [[(BEFORE, "RTB-SCORE-LOW", pts)] if pts else [] for pts in points]
    if bus is None:
        state.pyramid = pyramid
        state.spots = spots
    state.node = phase
    return state


def _set_up_bus(
    state: RideTheBusState,
    fmt: PositionFormat,
    phase: RideTheBusPhase,
    bus: BusPosition,
    pos: dict[str, Any],
    rows: list[list[int]],
    in_play: list[int],
) -> None:
    """Check ``bus`` against the rules and set the bus (or the rides) up on ``state``."""
    n = state.num_players
    card = C.parse_card
    cards = [card(c) for c in bus["cards"]]
    run = [card(c) for c in bus["run"]]
    beat = bus["card_to_beat"]
    target = state.target
    if pos["pyramid"] is not None and None in pos["pyramid"]:
        raise fmt.error(("pyramid",), "the bus starts once all 10 pyramid cards are flipped (RTB-P-FLIP)")
    spots = [[card(c) for c in s] for s in pos["spots"]] if pos["spots"] is not None else None
    held = {c for row in rows for c in row}
    for i, flips in enumerate(spots or []):
        for k, c in enumerate(flips):
            if c in held:
                raise fmt.error(("spots", i, k), f"{C.card_code(c)} is in a row: it was never flipped")
    for i, c in enumerate(cards):
        if c in held:
            raise fmt.error(("bus", "cards", i), f"{C.card_code(c)} is in a row: it was never flipped")
    if phase is P.BUS_START:
        fresh = not cards and beat is None and not run and bus["guesses"] == bus["streak"] == 0
        if not fresh or bus["best_streak"] or bus["rides"] or any(bus["ride_best"]):
            raise fmt.error(
                ("bus",),
                "nothing happened on the bus before its first flip: no cards, calls, streaks or rides",
            )
    elif phase is P.BUS_GUESS:
        if beat is None or not cards or cards[-1] != card(beat):
            raise fmt.error(("bus", "card_to_beat"), "the last card of bus.cards: the call is against it")
        if len(cards) != bus["guesses"] + 1:
            raise fmt.error(
                ("bus", "cards"),
                f"{len(cards)} cards, but a first flip and {bus['guesses']} calls flip {bus['guesses'] + 1}",
            )
    else:
        if beat is not None:
            raise fmt.error(("bus", "card_to_beat"), "the questions bus has no card to beat: use null")
        if len(cards) != bus["guesses"] or (run and cards[-len(run) :] != run):
            raise fmt.error(
                ("bus", "cards"),
                f"{len(cards)} cards after {bus['guesses']} answers: one card an answer, the run's last",
            )
        if bus["streak"] != len(run):
            raise fmt.error(("bus", "streak"), f"the run has {len(run)} cards: the streak is its length")
    if phase is not P.QB_GUESS and run:
        raise fmt.error(("bus", "run"), "only the questions bus has a run: use []")
    if bus["streak"] >= (len(QUESTIONS) if phase is P.QB_GUESS else target):
        raise fmt.error(("bus", "streak"), f"a streak of {bus['streak']} has got off the bus (RTB-B-END)")
    if bus["best_streak"] < bus["streak"]:
        raise fmt.error(("bus", "best_streak"), f"at least the streak now ({bus['streak']})")
    points = pos["points"]
    rider = bus["rider"]
    if state.gauntlet:
        order = sorted(range(n), key=lambda s: (-points[s], s))
        if rider != order[bus["rides"] % n]:
            raise fmt.error(
                ("bus", "rider"),
                f"after {bus['rides']} rides in the order {order} (most points first, RTB-SG-ORDER) "
                f"seat {order[bus['rides'] % n]} rides, not seat {rider}",
            )
        for s, best in enumerate(bus["ride_best"]):
            if best >= target:
                raise fmt.error(
                    ("bus", "ride_best", s), f"a ride of {best} made the target {target} (RTB-SG-WIN)"
                )
        if bus["best_streak"] < max(bus["ride_best"]):
            raise fmt.error(("bus", "best_streak"), "at least every seat's best ride")
        state.part = Part.RIDES
        state.ride_order = order
        state.ride_number = bus["rides"]
        state.ride_best = list(bus["ride_best"])
    else:
        if bus["rides"] or any(bus["ride_best"]):
            raise fmt.error(("bus", "rides"), "rides are the solo gauntlet's: use 0 and zeros")
        if bus["guesses"] >= MAX_BUS_GUESSES:
            raise fmt.error(("bus", "guesses"), f"the bus ends after {MAX_BUS_GUESSES} calls (RTB-B-END)")
        longest = max(len(row) for row in rows)
        if len(rows[rider]) != longest:
            raise fmt.error(
                ("bus", "rider"),
                f"seat {rider} has {len(rows[rider])} cards, but the rider has the longest row ({longest}, RTB-B-RIDER)",
            )
        state.part = Part.BUS
    state.rider = rider
    state.card_to_beat = None if beat is None else card(beat)
    state.bus_cards = cards
    state.streak = bus["streak"]
    state.best_streak = bus["best_streak"]
    state.bus_guesses = bus["guesses"]
    state.run = run
    state.in_play = list(in_play)
    state.pyramid = (
        [None if c is None else card(c) for c in pos["pyramid"]] if pos["pyramid"] else state.pyramid
    )
    state.pyramid_index = len(state.pyramid)
    if spots is not None:
        state.spots = spots
        state.spot_index = sum(1 for flips in spots if flips)


#: An example (the README's): the first pyramid flip, bottom-up, with three seats. Seat 0 and
#: seat 2 each hold a seven: a seven flipped makes both hand out one point (RTB-P-MATCH).
EXAMPLE: Position = {
    "phase": "flip",
    "question": None,
    "seat": None,
    "rows": [["7H", "KS", "2D", "9C"], ["4C", "QH", "JD", "3S"], ["7S", "5D", "AC", "8H"]],
    "points": [12, 9, 11],
    "pyramid": [None] * PYRAMID_SIZE,
    "spots": None,
    "spot": None,
    "discard": [],
    "bus": None,
}
