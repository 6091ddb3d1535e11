"""Ride the Bus positions a teacher sets up: ``game.state_from_position(position)`` and
``state.position()``.

A position is taken **at the start of a step**, before anything of it is decided:

* phase ``"guess"``: a Part 1 question is asked of a seat (RTB-Q1 … RTB-Q4), nothing pending;
* phase ``"flip"``: the next pyramid card is about to be flipped (RTB-P-FLIP, either flip order);
* phase ``"spot_flip"``: the current Give & Take spot is about to be flipped (RTB-GT-LAYOUT),
  possibly again after cards nobody held (RTB-GT-REFLIP).

A guess waiting for its card, points waiting to be handed out, the bus (Part 3, either kind) and
the solo gauntlet's rides have no position: :func:`position_of` raises
:class:`~bus_lab.engine.errors.PositionError` naming the moments above.

Every card on the table is face up and the deck has no order: the draw pile is the 52 cards minus
the rows and the discard pile, each equally likely to come next, as in a game played from the
start. The options (board, row points, house rules…) are the game's params, not part of a position.

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

__all__ = ["Position", "position_of", "state_from_position", "EXAMPLE", "POSITION_PHASES"]

P = RideTheBusPhase
#: The phases a position may be taken at.
POSITION_PHASES = (P.GUESS, P.FLIP, P.SPOT_FLIP)
#: Where a position may be taken, in words (the message of a refused ``position()``).
WHERE = (
    "a Ride the Bus position is taken at the start of a Part 1 question (phase 'guess'), of a "
    "pyramid flip (phase 'flip') or of a Give & Take spot flip (phase 'spot_flip')"
)
PYRAMID_SIZE = 10
SPOTS = 8
#: Points the four questions put at stake, in all.
PART1_POINTS = sum(q.points for q in QUESTIONS)
#: Label of the score breakdown line of the points a position starts with.
BEFORE = "Points before the position"


class Position(TypedDict):
    """A Ride the Bus position: what ``state.position()`` gives and ``state_from_position`` takes.

    Keys:
        phase (str): ``"guess"`` (Part 1), ``"flip"`` (pyramid) or ``"spot_flip"`` (Give & Take);
            the last two only on their board, in classic mode.
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

    What is not on the table (the rows and the discard pile) is the draw pile.

    Raises (from ``state_from_position``):
        PositionError: a missing key, a wrong type, an unknown card code or seat, or a table no
            game reaches (a card twice, a row longer than the questions asked, points the
            questions cannot give, a pyramid flipped out of order, a phase of another board…).
    """

    phase: Literal["guess", "flip", "spot_flip"]
    question: int | None
    seat: int | None
    rows: list[list[str]]
    points: list[int]
    pyramid: list[str | None] | None
    spots: list[list[str]] | None
    spot: int | None
    discard: list[str]


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
            "phase": {"enum": ["guess", "flip", "spot_flip"]},
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
        if state.part in (Part.BUS, Part.RIDES):
            where += " (the bus and the gauntlet's rides have no positions)"
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
    for path, c in places:
        here = field_path(path)
        if c in where:
            raise fmt.error(path, f"{C.card_code(c)} is on the table twice (also at {where[c]})")
        where[c] = here
    draw = set(C.DECK) - set(where)
    if not draw:
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
    part1 = phase is P.GUESS
    for key in ("question", "seat"):
        if (pos[key] is None) == part1:
            raise fmt.error((key,), "a whole number in Part 1 (phase 'guess')" if part1 else "null in Part 2")
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
            if stay and len(row) != len(QUESTIONS):
                raise fmt.error(
                    ("rows", p), f"{len(row)} cards, but played cards stay in their row (RTB-HR-STAY)"
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
    if phase is not P.GUESS:
        state.q_round, state.q_seat = len(QUESTIONS), 0
    else:
        state.q_round, state.q_seat = pos["question"] - 1, pos["seat"]

    state.rows = rows
    state.discard = discard
    state.draw = draw
    state.points = points
    state.ledger = [[(BEFORE, "RTB-SCORE-LOW", pts)] if pts else [] for pts in points]
    state.pyramid = pyramid
    state.spots = spots
    state.node = phase
    return state


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
}
