"""Exact odds for Ride the Bus guesses.

Assumptions (rules RTB-Q1 … RTB-Q4, RTB-B-GUESS): the next card is equally likely to be any
card of the draw pile; every card on the table (every row, flipped pyramid cards, the bus, the
discard pile) is face up and counted, so the draw pile is exactly the cards the guessing seat
has not seen since the last reshuffle (RTB-DECK-EMPTY). Whether a card makes a guess right is the
engine's own rule under the table's house rules: a tie in rank loses by default and wins under
RTB-HR-TIES; a card matching the first two ranks is inside under RTB-HR-INSIDE; aces rank low under
RTB-HR-ACES.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from bus_lab.engine.core import State
from bus_lab.games.ride_the_bus import cards as C
from bus_lab.games.ride_the_bus.state import judge

__all__ = ["guess_odds", "guess_odds_fast", "best_guess"]


def guess_odds(state: State) -> dict[int, Fraction]:
    """The exact chance that each possible guess is right.

    Computed through the public API: for each legal guess, the state after the guess gives the
    draw's possible cards (``chance_weights()``: every card of the draw pile, equally likely),
    the engine's own rule decides which of them make the guess right (``pending_guess_right``),
    and the chance is (cards that make it right) / (cards that can come), one
    :class:`~fractions.Fraction` per guess. Equal to summing ``chance_outcomes()`` over the
    right cards (``tests/test_prob.py`` checks it against an independent count).

    Args:
        state: a Ride the Bus state at a guessing decision (a Part 1 question or a bus call).

    Returns:
        ``{guess action: Fraction}``, one exact probability per legal guess. On a fresh deck with
        one player, ``{RED: 1/2, BLACK: 1/2}``; after a first card of rank 7 and nothing else seen,
        higher is 28/51 and lower 20/51.

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
        cards, weights = after.chance_weights()  # the draw pile; weights None: equally likely
        right = after.pending_guess_right
        if weights is None:
            odds[guess] = Fraction(sum(map(right, cards)), len(cards)) if cards else Fraction(0)
        else:  # a game whose cards are not equally likely: integer weights over their sum
            odds[guess] = Fraction(sum(w for card, w in zip(cards, weights) if right(card)), sum(weights))
    return odds


def guess_odds_fast(state: State) -> dict[int, Fraction]:
    """:func:`guess_odds` without playing each guess on a copy of the state: the fast form for bots.

    A guess moves no card, so while the draw pile is not empty the cards that can come after it are
    the draw pile now (``state.draw``), and the cards it is compared against are
    ``state.guess_reference()``; each guess's chance is the count of draw-pile cards that
    :func:`~bus_lab.games.ride_the_bus.state.judge` calls right, over the pile's size (the cards
    that ``judge`` calls right for a guess, reference and house rules are kept, 16,384 at most). With an
    empty draw pile (the discard pile is reshuffled when the guess is made) and for a state that is
    not a Ride the Bus state, this is :func:`guess_odds` itself. ``tests/test_fast_paths.py`` checks
    both give the very same Fractions at every guess of seeded games of every variant.

    Args:
        state: a Ride the Bus state at a guessing decision (a Part 1 question or a bus call).

    Returns:
        ``{guess action: Fraction}``, exactly as :func:`guess_odds` returns it.

    Raises:
        ValueError: the state is not at a guessing decision.
    """
    draw = getattr(state, "draw", None)
    reference = getattr(state, "guess_reference", None)
    if not draw or reference is None:
        return guess_odds(state)
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("guess odds need a guessing decision, not a draw or a finished game")
    guesses = [a for a in state.legal_actions() if state.is_guess(a)]
    if not guesses:
        raise ValueError(f"no guess is being made now: {state.status()}")
    against = tuple(reference())
    rules = tuple(sorted(getattr(state, "judge_rules", {}).items()))
    return {
        guess: Fraction(len(_right_cards(guess, against, rules).intersection(draw)), len(draw))
        for guess in guesses
    }


@lru_cache(maxsize=16384)
def _right_cards(
    guess: int, reference: tuple[int, ...], rules: tuple[tuple[str, str], ...] = ()
) -> frozenset[int]:
    """The cards (0–51) that make ``guess`` right against ``reference`` (:func:`judge` on each,
    under the house rules ``rules``: ``(option, setting)`` pairs, RTB-HR-TIES, RTB-HR-INSIDE,
    RTB-HR-ACES)."""
    return frozenset(card for card in C.DECK if judge(guess, card, list(reference), **dict(rules)))


def best_guess(state: State) -> tuple[int, Fraction]:
    """The guess most likely to be right and its chance (the lowest action on a tie).

    Raises:
        ValueError: the state is not at a guessing decision.
    """
    odds = guess_odds(state)
    action = max(sorted(odds), key=lambda a: odds[a])
    return action, odds[action]
