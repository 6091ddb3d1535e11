"""Exact odds for Ride the Bus guesses.

Assumptions (rules RTB-Q1 … RTB-Q4, RTB-B-GUESS): the next card is equally likely to be any
card of the draw pile; every card on the table (every row, flipped pyramid cards, the bus, the
discard pile) is face up and counted, so the draw pile is exactly the cards the guessing seat
has not seen since the last reshuffle (RTB-DECK-EMPTY). A tie in rank loses.
"""
from __future__ import annotations

from fractions import Fraction

from bus_lab.engine.core import State


def guess_odds(state: State) -> dict[int, Fraction]:
    """The exact chance that each possible guess is right.

    Computed through the public API: for each legal guess, the state after the guess gives the
    draw's ``chance_outcomes()``, and the engine's own rule decides which cards make the guess
    right (``pending_guess_right``).

    Args:
        state: a Ride the Bus state at a guessing decision (a Part 1 question or a bus call).

    Returns:
        ``{guess action: Fraction}``, one entry per legal guess. On a fresh deck with one player,
        ``{RED: 1/2, BLACK: 1/2}``; after a first card of rank 7 and nothing else seen, higher is
        28/51 and lower 20/51.

    Raises:
        ValueError: the state is not at a guessing decision.
    """
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("guess odds need a guessing decision, not a draw or a finished game")
    guesses = [a for a in state.legal_actions() if state.is_guess(a)]
    if not guesses:
        raise ValueError(f"no guess is being made now: {state.status()}")
    odds = {}
    for guess in guesses:
        after = state.clone()
        after.apply_action(guess)
        odds[guess] = sum((p for card, p in after.chance_outcomes() if after.pending_guess_right(card)),
                          Fraction(0))
    return odds


def best_guess(state: State) -> tuple[int, Fraction]:
    """The guess most likely to be right and its chance (the lowest action on a tie).

    Raises:
        ValueError: the state is not at a guessing decision.
    """
    odds = guess_odds(state)
    action = max(sorted(odds), key=lambda a: odds[a])
    return action, odds[action]
