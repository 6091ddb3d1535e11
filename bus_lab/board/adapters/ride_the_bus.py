"""Ride the Bus on the touchable board: which target each move acts on, what it would do, its
exact odds, and why a row cannot take points now.

Targets (the drawer ``static/games/ride_the_bus.js`` marks the same keys):

* ``"card:next"``: the card about to be dealt, the one every guess is about: beside the guesser's
  row in Part 1 (RTB-Q1 … RTB-Q4), beside the card to beat on the higher/lower bus and the
  gauntlet's rides (RTB-B-GUESS, RTB-SG-RIDE), in the next place of the run on the questions bus
  (RTB-QB-ORDER). Every guess goes through it; the answers (Red/Black, Higher/Lower,
  Inside/Outside, the four suits) are the choice buttons beside it.
* ``"seat:N"``: seat ``N``'s row. A give (RTB-Q-RIGHT, RTB-P-GIVE, RTB-GT-GIVE) is a tap on the
  row of the player who takes the points; the giver's own row is blocked (why_illegal).

Everything on a Ride the Bus table is face up (only the draw pile's order is hidden), so the
consequences and reasons here reveal nothing a seat cannot see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bus_lab.board.frame import BoardAdapter
from bus_lab.engine.core import State
from bus_lab.engine.moves import Move
from bus_lab.games.ride_the_bus.cards import card_label
from bus_lab.games.ride_the_bus.moves import QUESTIONS, Give, Guess, give_action
from bus_lab.games.ride_the_bus.phases import Part, RideTheBusPhase
from bus_lab.games.ride_the_bus.state import MAX_BUS_GUESSES, RIDES_EACH

#: The target every guess acts on: the card about to be dealt.
NEXT_CARD = "card:next"
#: The words on each answer's button (suits with their symbol: colour is never the only cue).
ANSWER_WORDS = {
    "red": "Red ♥♦",
    "black": "Black ♣♠",
    "higher": "Higher",
    "lower": "Lower",
    "inside": "Inside",
    "outside": "Outside",
    "clubs": "♣ Clubs",
    "diamonds": "♦ Diamonds",
    "hearts": "♥ Hearts",
    "spades": "♠ Spades",
}


def seat_target(seat: int) -> str:
    """The target key of seat ``seat``'s row (``"seat:2"``)."""
    return f"seat:{seat}"


def _plural(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def part_line(state) -> str:
    """Which part of the game is on, in words, with its rule ID (e.g. ``"Part 1 of 3 — the four
    questions: Q2 of 4 (higher or lower than your first card, 2 points) [RTB-Q2]"``).

    Args:
        state (RideTheBusState): the position.
    """
    n = state.num_players
    if state.gauntlet:
        total = n * RIDES_EACH
        if state.part is Part.QUESTIONS:
            q = QUESTIONS[state.q_round]
            return (
                f"Solo gauntlet, Part 1 — the four questions: Q{q.number} of 4 ({q.text}); the points "
                f"only set the ride order [RTB-SG-QUESTIONS]"
            )
        if state.part is Part.RIDES:
            return (
                f"Solo gauntlet — the rides: ride {state.ride_number + 1} of {total}, Seat {state.rider} "
                f"rides, streak {state.streak} of {state.target} [RTB-SG-RIDE]"
            )
        return (
            f"Game over: {state.target} in a row wins, otherwise the longest ride"
            f"{' (a lone rider must make it)' if n == 1 else ''} [RTB-SG-WIN]"
        )
    if state.part is Part.QUESTIONS:
        q = QUESTIONS[state.q_round]
        return (
            f"Part 1 of 3 — the four questions: Q{q.number} of 4 ({q.text}, "
            f"{_plural(q.points, 'point')}) [{q.rule}]"
        )
    if state.part is Part.PYRAMID:
        index = state.pyramid_position()
        row = state.pyramid_row(index)
        order = ""
        if state.flip_order[0] != 0:  # RTB-HR-FLIP: the top card first
            order = f", flip {min(state.pyramid_index, 9) + 1} of 10, top card first [RTB-HR-FLIP]"
        return (
            f"Part 2 of 3 — the pyramid: card {index + 1} of 10, row {row} "
            f"({_plural(state.row_points(row), 'point')} per card played) [RTB-P-FLIP]{order}"
        )
    if state.part is Part.GIVE_AND_TAKE:
        index = min(state.spot_index, 7)
        return (
            f"Part 2 of 3 — the Give & Take board: the {state.spot_kind(index).capitalize()} spot of row "
            f"{index // 2 + 1} of 4 ({_plural(state.spot_points(index), 'point')} per card played) "
            f"[RTB-GT-{state.spot_kind(index).upper()}]"
        )
    if state.part is Part.BUS and state.bus_kind == "questions":
        question = len(state.run) + 1 if len(state.run) < 4 else 4
        return (
            f"Part 3 of 3 — the questions bus: Seat {state.rider} rides, question {question} of 4, "
            f"{state.bus_guesses} of {MAX_BUS_GUESSES} guesses used [RTB-QB-ORDER]"
        )
    if state.part is Part.BUS:
        return (
            f"Part 3 of 3 — the bus: Seat {state.rider} rides, streak {state.streak} of "
            f"{state.target} [RTB-B-GUESS]"
        )
    return "Game over: lowest total wins [RTB-SCORE-LOW]"


class RideTheBusAdapter(BoardAdapter):
    """The board hooks of Ride the Bus (see the module docstring for the targets)."""

    game = "ride_the_bus"

    def heading(self, state: State) -> str:
        """The part of the game with its rule ID (:func:`part_line`)."""
        return part_line(state)

    def target(self, state: State, move: Move) -> tuple[list[str], str | None]:
        """A guess: ``["card:next"]`` and its answer as a button beside that card (``"Red ♥♦"``,
        ``"Higher"``, ``"♠ Spades"``…). A give: ``["seat:N"]``, the taker's row (a tap plays it).

        Raises:
            ValueError: a move that is neither a guess nor a give (a deal is never a person's move).
        """
        if isinstance(move, Guess):
            return [NEXT_CARD], ANSWER_WORDS[move.answer]
        if isinstance(move, Give):
            return [seat_target(move.seat)], None
        raise ValueError(f"{move!r} is not a move a person makes on the board")

    def odds(self, state: State, moves: Sequence[Move]) -> dict[int, Fraction]:
        """Exact chance each guess is right (:func:`bus_lab.prob.ride_the_bus.guess_odds`, counting
        every face-up card as seen; ties lose, RTB-Q2, RTB-B-GUESS, unless the table's house rules
        say otherwise: RTB-HR-TIES, RTB-HR-INSIDE, RTB-HR-ACES); ``{}`` at a give."""
        if not any(isinstance(m, Guess) for m in moves):
            return {}
        from bus_lab.prob.ride_the_bus import guess_odds

        return guess_odds(state)

    def consequence(self, state: State, move: Move) -> str | None:
        """What the move does to the points, with the rule IDs.

        A Part 1 answer: wrong, the guesser takes the question's points (RTB-Q-WRONG); right, they
        give them to a player they pick (RTB-Q-RIGHT; nothing for a lone player). A questions-bus
        answer: a miss costs 1 and goes back to Q1 (RTB-QB-MISS). A bus call: a miss costs 1 and
        resets the streak (RTB-B-STREAK); in the gauntlet it ends the ride (RTB-SG-RIDE) and a
        streak of the target wins (RTB-SG-WIN). A give: the points and the taker's new total.
        """
        if isinstance(move, Give):
            giver, points, rule, _ = state.gives[0]
            taker = move.seat
            now = state.points[taker]
            return f"Seat {taker} takes {_plural(points, 'point')}: {now} → {now + points} ({rule})"
        kind = state.decision_kind()
        if kind is RideTheBusPhase.GUESS:
            q = QUESTIONS[state.q_round]
            pts = _plural(q.points, "point")
            if state.num_players == 1:
                right = "right: nothing happens (you play alone, RTB-Q-RIGHT)"
            else:
                right = f"right: you give {pts} to a player you pick (RTB-Q-RIGHT)"
            return f"Wrong: you take {pts} (RTB-Q-WRONG); {right}"
        if kind is RideTheBusPhase.QB_GUESS:
            number = len(state.run) + 1
            nxt = "you get off the bus (RTB-QB-END)" if number == 4 else f"on to question {number + 1}"
            return f"Right: {nxt}. Miss: +1 point, back to question 1 (RTB-QB-MISS)"
        beat = card_label(state.card_to_beat)
        hit = state.streak + 1
        if state.gauntlet:
            win = " and you win (RTB-SG-WIN)" if hit >= state.target else ""
            return (
                f"Against {beat}: hit, streak {hit} of {state.target}{win}; miss: this ride ends, "
                f"no points (RTB-SG-RIDE)"
            )
        off = " and you get off the bus (RTB-B-END)" if hit >= state.target else ""
        return (
            f"Against {beat}: hit, streak {hit} of {state.target}{off}; miss: +1 point, "
            f"streak back to 0 (RTB-B-STREAK)"
        )

    def blocked(self, state: State, moves: Sequence[Move]) -> dict[str, str]:
        """At a give, the giver's own row, with the engine's reason (``why_illegal``): points go
        to another player (RTB-Q-RIGHT, RTB-P-GIVE, RTB-GT-GIVE)."""
        if state.decision_kind() is not RideTheBusPhase.GIVE:
            return {}
        giver = state.gives[0][0]
        why = state.why_illegal(give_action(giver))
        return {seat_target(giver): f"{why} ({state.gives[0][2]})"} if why else {}

    def scores(
        self,
        state: State,
        name_of: Callable[[int], str],
        kind_of: Callable[[int], str],
        *,
        detail: bool = True,
    ) -> dict[str, Any]:
        """The scores table. In a classic game, points and where they came from (lowest total
        wins, RTB-SCORE-LOW). In the solo gauntlet, each seat's Part 1 points (they only set the
        ride order, RTB-SG-QUESTIONS) and best ride; the result is by streak: the target streak
        wins on the spot, otherwise the longest ride, and a lone rider who never made the target
        has no win (RTB-SG-WIN). Each gauntlet row also has ``best`` (hits in a row). Every
        gauntlet cell is public, so ``detail`` changes nothing there."""
        if not state.gauntlet:  # type: ignore[attr-defined]
            return super().scores(state, name_of, kind_of, detail=detail)
        st: Any = state
        winners = st.winners()
        rows = [
            {
                "seat": seat,
                "name": f"{name_of(seat)} ({kind_of(seat)})",
                "points": st.points[seat],
                "best": st.ride_best[seat],
                "winner": seat in winners,
                "cells": [str(st.points[seat]), str(st.ride_best[seat])],
            }
            for seat in range(st.num_players)
        ]
        if not st.is_terminal():
            result = "No winner yet: the game is in progress."
        elif not winners:
            result = (
                f"Result: no winner. The lone rider's best ride was {max(st.ride_best)}, short of "
                f"{st.target} in a row (RTB-SG-WIN)."
            )
        else:
            names = " and ".join(name_of(s) for s in winners)
            verb = "share the win" if len(winners) > 1 else "wins"
            result = f"Result: {names} {verb} with a streak of {max(st.ride_best)} (RTB-SG-WIN)."
        return {
            "columns": ["Seat", "Part 1 points (ride order)", "Best ride (hits in a row)"],
            "rows": rows,
            "caption": (
                f"Solo gauntlet: {st.target} hits in a row win on the spot; otherwise the longest ride wins"
            ),
            "result": result,
            "winners": winners,
            "summary": ", ".join(f"{name_of(s)} best ride {b}" for s, b in enumerate(st.ride_best)),
        }


#: The adapter :func:`bus_lab.board.frame.adapter_for` loads for ``"ride_the_bus"``.
ADAPTER = RideTheBusAdapter()
