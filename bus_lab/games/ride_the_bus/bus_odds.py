"""Getting off the bus: exact Markov chains and finite-deck simulation of Part 3 of Ride the Bus.

Three rides are covered, each exactly for cards drawn *with replacement* and by a vectorised
simulation of the *real finite deck*:

* the higher/lower bus (RTB-B-RIDER, RTB-B-FLIP, RTB-B-GUESS, RTB-B-STREAK, RTB-B-END):
  :func:`bus_off_chance`, :func:`bus_off_by_guess`, :func:`expected_guesses`,
  :func:`expected_bus_points`, :func:`guesses_distribution`, :func:`simulate_bus`;
* the questions bus (RTB-QB-ORDER, RTB-QB-COMPARE, RTB-QB-MISS, RTB-QB-END):
  :func:`questions_bus_off_chance`, :func:`questions_bus_off_by_guess`,
  :func:`questions_bus_expected_guesses`, :func:`questions_bus_expected_points`,
  :func:`questions_bus_guesses_distribution`, :func:`simulate_questions_bus`;
* the solo gauntlet (RTB-SG-RIDE, RTB-SG-RIDES, RTB-SG-WIN): :func:`gauntlet_win_chance`,
  :func:`gauntlet_win_distribution`, :func:`simulate_gauntlet`.

**With replacement** (the exact chains): every draw is any of the 52 cards with chance 1/52,
independently of every other draw, so each rank has chance 1/13, each colour 1/2, each suit 1/4.
The bus is then a Markov chain whose state is small: on the higher/lower bus (streak, rank of the
card to beat, guesses left); on the questions bus (question reached, the ranks of the run that the
next question compares against, guesses left); in the gauntlet (rides left, streak, rank of the
card to beat). Exact answers are :class:`fractions.Fraction`; the chains run on integer
numerators over a power of 13 (or 52) and are memoised on those canonical keys, never on card
identities.

**Without replacement** (the simulations): the bus is drawn from the draw pile, as the engine
does it. At the start the draw pile is the 52 cards minus ``cards_out`` (cards that stay out of
play for the whole ride: in a real game the cards still in players' rows) and minus ``discard``
(cards already seen and discarded, e.g. flipped pyramid cards and played row cards: they come back
when the discard pile is reshuffled). Every bus card goes to the discard pile once it is no longer
the card to beat (RTB-DISCARD). When a card must be drawn and the draw pile is empty, the discard
pile becomes the new draw pile (RTB-DECK-EMPTY); the card to beat, and on the questions bus every
card of the current run, are not reshuffled.

**Best play** (``policy="best_odds"``, the engine's ``best_odds`` bot): every guess is the one
most likely to be right *now*, counting exactly the cards of the draw pile, i.e. every card not
seen since the last reshuffle (the rider sees every card: rows, pyramid and bus cards are all face
up). With replacement that means: call higher when more ranks lie above the card to beat than
below it. A tie in rank is always a miss (RTB-B-GUESS, RTB-Q2); matching either rank is a miss on
inside/outside, and with two equal ranks only "outside" can win (RTB-Q3). Guesses with equal
chances are chosen at random, each with the same chance, as the bot does (with replacement this
never changes any answer, by the mirror symmetry of the ranks).
``policy="optimal"`` (exact chains only) instead chooses, at every state, the guess that maximises
the chance of getting off (or of winning the gauntlet) within the limit; with replacement it gives
exactly the same chances as best play (see the lesson ``04_getting_off_the_bus``).

**House rules** (keywords ``ties``, ``inside``, ``aces`` of the exact chains, the game's options of
the same names): ``ties="win"`` makes a card of the same rank right for whichever of higher or
lower was called (RTB-HR-TIES; on the bus, the questions bus's Q2 and the gauntlet's rides);
``inside="inclusive"`` makes a card matching either of the run's first two ranks count as inside
(RTB-HR-INSIDE; the questions bus); ``aces="low"`` puts A below 2 (RTB-HR-ACES). With replacement
every figure here starts from a uniformly random card, and moving A to the bottom only relabels
the 13 equally likely ranks, so ``aces`` never changes a figure here (it is accepted so that a
table's options can be passed as they are; the tests check this against a plain count). The
finite-deck exact figure and the higher/lower simulations (:func:`simulate_bus`,
:func:`simulate_gauntlet`) take ``ties`` too; the questions-bus simulation plays the base rules only.

Units: probabilities are exact fractions (:class:`~fractions.Fraction`) in [0, 1]; guesses are
counted in calls made after the first card; points are the bus's points, one per miss
(RTB-B-STREAK, RTB-QB-MISS). Simulations return :class:`~bus_lab.prob.montecarlo.Estimate` objects (mean,
standard error, n) and take a seed; numpy is used only here and in ``montecarlo``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from bus_lab.engine.errors import ParameterError
from bus_lab.games.ride_the_bus.cards import card_code, parse_card

if TYPE_CHECKING:  # the Monte Carlo helpers are loaded when a simulation runs
    from bus_lab.prob.montecarlo import Estimate, Moments

__all__ = [
    "MAX_GUESSES",
    "RIDES",
    "POLICIES",
    "bus_off_chance",
    "bus_off_by_guess",
    "expected_guesses",
    "expected_bus_points",
    "guesses_distribution",
    "questions_bus_off_chance",
    "questions_bus_off_by_guess",
    "questions_bus_expected_guesses",
    "questions_bus_expected_points",
    "questions_bus_guesses_distribution",
    "gauntlet_win_chance",
    "gauntlet_win_distribution",
    "BusSimulation",
    "GauntletSimulation",
    "simulate_bus",
    "simulate_questions_bus",
    "simulate_gauntlet",
    "bus_traces",
    "questions_bus_traces",
    "bus_start_piles",
]

MAX_GUESSES = 40  # RTB-B-END, RTB-QB-END
RIDES = 10  # RTB-SG-RIDES
POLICIES = ("best_odds", "optimal")
_RANKS = 13
_ACE = _RANKS - 1
_EXACT_MAX_STREAK = 20
_EXACT_MAX_GUESSES = 500
_FINITE_EXTRA_GUESSES = 1  # the exact finite-deck chain allows at most streak + 1 guesses


# ---------------------------------------------------------------------------------------------
# argument checks
# ---------------------------------------------------------------------------------------------
def _int_arg(name: str, value: Any, low: int, high: int, hint: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ParameterError(f"{name}={value!r}: use a whole number from {low} to {high}{hint}")
    value = int(value)
    if not low <= value <= high:
        raise ParameterError(f"{name}={value}: use a whole number from {low} to {high}{hint}")
    return value


def _check_streak(streak: Any) -> int:
    return _int_arg("streak", streak, 1, _EXACT_MAX_STREAK, " (the game allows 3 to 7, default 5; RTB-B-END)")


def _check_guesses(max_guesses: Any) -> int:
    return _int_arg(
        "max_guesses", max_guesses, 1, _EXACT_MAX_GUESSES, " (the game stops after 40; RTB-B-END)"
    )


def _check_policy(policy: Any) -> str:
    if policy not in POLICIES:
        raise ParameterError(
            f"policy={policy!r}: choose 'best_odds' (the likeliest guess each time) or "
            f"'optimal' (the guess that maximises the chance of getting off)"
        )
    return policy


def _check_house(ties: str = "lose", inside: str = "strict", aces: str = "high") -> tuple[str, str]:
    """The house rules that can change a figure here, checked: ``(ties, inside)``."""
    for name, value, choices in (
        ("ties", ties, ("lose", "win")),
        ("inside", inside, ("strict", "inclusive")),
        ("aces", aces, ("high", "low")),
    ):
        if value not in choices:
            raise ParameterError(f"{name}={value!r}: use one of {', '.join(repr(c) for c in choices)}")
    return ties, inside


def _hit(higher: bool, r2: int, r: int, ties: str = "lose") -> bool:
    """Whether rank ``r2`` makes the call right against rank ``r`` (RTB-B-GUESS, RTB-HR-TIES)."""
    if r2 == r:
        return ties == "win"
    return r2 > r if higher else r2 < r


def _best_side(above: int, below: int) -> tuple[bool, ...]:
    """The best calls (True = higher) given how many cards (or ranks) lie above and below."""
    if above > below:
        return (True,)
    if below > above:
        return (False,)
    return (True, False)


# ---------------------------------------------------------------------------------------------
# the higher/lower bus with replacement: a Markov chain on (streak, rank to beat, guesses left)
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _hl_chain(streak: int, max_guesses: int, policy: str, ties: str = "lose") -> tuple[tuple[int, ...], int]:
    """Integer numerators of the higher/lower bus with replacement.

    Let ``A[k][s][r]`` be 13**k times the chance of getting off within ``k`` more guesses from
    streak ``s`` with a card of rank ``r`` to beat, and ``B[k][s][r]`` 13**k times the expected
    number of misses in those guesses. With the first card uniform over the 13 ranks:

    Returns:
        ``(off, misses)``: ``off[k]`` = sum over r of ``A[k][0][r]`` (so the chance to get off
        within k guesses is ``off[k] / 13**(k + 1)``) for k = 0 … max_guesses, and ``misses`` =
        sum over r of ``B[max_guesses][0][r]``.
    """
    ranks = range(_RANKS)
    zero = [[0] * _RANKS for _ in range(streak)]
    a_prev, b_prev = zero, [row[:] for row in zero]
    off = [0]
    for k in range(1, max_guesses + 1):
        done = _RANKS ** (k - 1)  # 13**(k-1) * 1: off the bus with k-1 guesses to spare
        a_new, b_new = [], []
        for s in range(streak):
            a_row, b_row = [], []
            for r in ranks:
                options = []
                for higher in (True, False) if policy == "optimal" else _best_side(_ACE - r, r)[:1]:
                    a = b = 0
                    for r2 in ranks:
                        if _hit(higher, r2, r, ties):
                            if s + 1 == streak:
                                a += done
                            else:
                                a += a_prev[s + 1][r2]
                                b += b_prev[s + 1][r2]
                        else:
                            a += a_prev[0][r2]
                            b += done + b_prev[0][r2]
                    options.append((a, higher == _best_side(_ACE - r, r)[0], b))
                a, _, b = max(options)  # optimal: most chance; ties go to the best-odds call
                a_row.append(a)
                b_row.append(b)
            a_new.append(a_row)
            b_new.append(b_row)
        a_prev, b_prev = a_new, b_new
        off.append(sum(a_prev[0]))
    return tuple(off), sum(b_prev[0])


def bus_off_chance(
    streak: int = 5,
    max_guesses: int = MAX_GUESSES,
    replacement: bool = True,
    policy: str = "best_odds",
    **house: str,
) -> Fraction:
    """The exact chance that the rider gets off the higher/lower bus within ``max_guesses``.

    The bus starts with one card flipped (RTB-B-FLIP); each guess calls higher or lower than the
    card to beat, a tie in rank is a miss, and the new card is the next card to beat
    (RTB-B-GUESS); a hit adds one to the streak, a miss sets it to 0 (RTB-B-STREAK); the rider
    gets off when the streak reaches ``streak`` (RTB-B-END).

    Args:
        streak (int): hits in a row needed, 1–20 (the game allows 3–7, default 5).
        max_guesses (int): guesses allowed, 1–500 (the game: 40).
        replacement (bool): True (default): every draw is any of the 52 cards with chance 1/52
            (a Markov chain, fast for any limit). False: the real deck, a fresh shuffled deck of
            52 cards drawn without replacement, best play counting the cards seen; computed
            exactly on rank counts, which is only practical for the shortest rides, so it needs
            ``max_guesses <= streak + 1`` (no reshuffle can happen then; streak 7 with 8 guesses
            takes a few seconds). For longer finite-deck rides use :func:`simulate_bus`.
        policy (str): ``"best_odds"`` (default: the likelier call each time) or ``"optimal"``
            (with replacement only: the call that maximises the chance of getting off in time).
        **house: ``ties``, ``aces`` (and ``inside``, which does not apply here): the house rules
            (see the module docstring), with replacement only.

    Returns:
        Fraction: e.g. the chance of five hits in a row from the first card with replacement is
        ``bus_off_chance(5, 5)``.

    Raises:
        ParameterError: an argument outside the ranges above.
    """
    streak, max_guesses, policy = _check_streak(streak), _check_guesses(max_guesses), _check_policy(policy)
    ties, _ = _check_house(**house)
    if not replacement:
        if policy != "best_odds":
            raise ParameterError("policy='optimal' is computed with replacement only: use replacement=True")
        return _finite_hl_off(streak, max_guesses, ties)
    off, _ = _hl_chain(streak, max_guesses, policy, ties)
    return Fraction(off[max_guesses], _RANKS ** (max_guesses + 1))


def bus_off_by_guess(streak: int = 5, max_guesses: int = MAX_GUESSES, **house: str) -> list[Fraction]:
    """``[P(off within k guesses) for k = 0 … max_guesses]`` on the higher/lower bus, exact, with
    replacement and best play (one chain for every limit at once; see :func:`bus_off_chance`).

    Raises:
        ParameterError: streak outside 1–20 or max_guesses outside 1–500.
    """
    streak, max_guesses = _check_streak(streak), _check_guesses(max_guesses)
    off, _ = _hl_chain(streak, max_guesses, "best_odds", _check_house(**house)[0])
    return [Fraction(off[k], _RANKS ** (k + 1)) for k in range(max_guesses + 1)]


def guesses_distribution(
    streak: int = 5, max_guesses: int = MAX_GUESSES, **house: str
) -> dict[int, Fraction]:
    """The exact distribution of the number of guesses the higher/lower bus takes, with replacement.

    The bus ends on the guess that makes the streak reach ``streak``, or after ``max_guesses``
    guesses (RTB-B-END): ``{k: P(the bus takes exactly k guesses)}`` for k = 1 … max_guesses;
    the last entry includes both getting off on the last guess and being stopped by the limit.
    Assumptions as in :func:`bus_off_chance` (with replacement, best play, ties lose).

    Returns:
        dict[int, Fraction]: the probabilities, summing to exactly 1 (keys with chance 0, such as
        k < streak, are included).

    Raises:
        ParameterError: streak outside 1–20 or max_guesses outside 1–500.
    """
    streak, max_guesses = _check_streak(streak), _check_guesses(max_guesses)
    off, _ = _hl_chain(streak, max_guesses, "best_odds", _check_house(**house)[0])
    cumulative = [Fraction(off[k], _RANKS ** (k + 1)) for k in range(max_guesses + 1)]
    dist = {k: cumulative[k] - cumulative[k - 1] for k in range(1, max_guesses)}
    dist[max_guesses] = 1 - cumulative[max_guesses - 1]
    return dist


def expected_guesses(streak: int = 5, max_guesses: int = MAX_GUESSES, **house: str) -> Fraction:
    """The exact expected number of guesses on the higher/lower bus, with replacement.

    ``E[min(T, max_guesses)]`` where T is the guess on which the streak first reaches ``streak``
    (RTB-B-END); the sum over k < max_guesses of the chance that the bus is still running after k
    guesses. Assumptions as in :func:`bus_off_chance`.

    Returns:
        Fraction: guesses (a number between ``min(streak, max_guesses)`` and ``max_guesses``).

    Raises:
        ParameterError: streak outside 1–20 or max_guesses outside 1–500.
    """
    streak, max_guesses = _check_streak(streak), _check_guesses(max_guesses)
    off, _ = _hl_chain(streak, max_guesses, "best_odds", _check_house(**house)[0])
    return sum((1 - Fraction(off[k], _RANKS ** (k + 1)) for k in range(max_guesses)), Fraction(0))


def expected_bus_points(streak: int = 5, max_guesses: int = MAX_GUESSES, **house: str) -> Fraction:
    """The exact expected points the rider takes on the higher/lower bus, with replacement.

    One point per miss (RTB-B-STREAK), counting every guess until the rider gets off or the
    limit stops the bus (RTB-B-END). Assumptions as in :func:`bus_off_chance`.

    Returns:
        Fraction: points.

    Raises:
        ParameterError: streak outside 1–20 or max_guesses outside 1–500.
    """
    streak, max_guesses = _check_streak(streak), _check_guesses(max_guesses)
    _, misses = _hl_chain(streak, max_guesses, "best_odds", _check_house(**house)[0])
    return Fraction(misses, _RANKS ** (max_guesses + 1))


# ---------------------------------------------------------------------------------------------
# the higher/lower bus without replacement, exact for the shortest rides
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=32)
def _finite_hl_off(streak: int, max_guesses: int, ties: str = "lose") -> Fraction:
    """Exact chance to get off within ``max_guesses`` on a fresh 52-card deck, no replacement.

    Memoised on (rank counts of the draw pile, rank to beat, streak, guesses left), with a rank
    pattern and its mirror image (2 <-> A, 3 <-> K, ...) sharing one key. Values are integer
    numerators over ``total * (total - 1) * ... * 2**k`` (a draw always removes one card).
    """
    if max_guesses > streak + _FINITE_EXTRA_GUESSES:
        raise ParameterError(
            f"replacement=False is exact only for the shortest rides (max_guesses <= streak + "
            f"{_FINITE_EXTRA_GUESSES}, here {streak + _FINITE_EXTRA_GUESSES}); for max_guesses={max_guesses} "
            f"use simulate_bus(n, streak={streak}, max_guesses={max_guesses})"
        )
    memo: dict[tuple, int] = {}

    def falling(total: int, k: int) -> int:
        return math.perm(total, k) * 2**k

    def value(counts: tuple[int, ...], r: int, s: int, k: int) -> int:
        if k < streak - s:
            return 0
        mirror = counts[::-1]
        key = (counts, r, s, k) if counts <= mirror else (mirror, _ACE - r, s, k)
        if key in memo:
            return memo[key]
        total = sum(counts)
        below = sum(counts[:r])
        above = total - below - counts[r]
        sides = _best_side(above, below)
        done = falling(total - 1, k - 1)
        acc = 0
        for higher in sides:
            for r2 in range(_RANKS):
                c = counts[r2]
                if not c:
                    continue
                hit = _hit(higher, r2, r, ties)
                if hit and s + 1 == streak:
                    acc += c * done
                    continue
                if not hit and k - 1 < streak:  # a miss now leaves too few guesses
                    continue
                nxt = counts[:r2] + (c - 1,) + counts[r2 + 1 :]
                acc += c * value(nxt, r2, s + 1 if hit else 0, k - 1)
        result = acc * (2 // len(sides))
        memo[key] = result
        return result

    full = (4,) * _RANKS
    num = 0
    for r in range(_RANKS):
        num += 4 * value(full[:r] + (3,) + full[r + 1 :], r, 0, max_guesses)
    return Fraction(num, 52 * falling(51, max_guesses))


# ---------------------------------------------------------------------------------------------
# the questions bus with replacement
# ---------------------------------------------------------------------------------------------
def _qb_states() -> list[tuple]:
    """States of the questions bus: ``(0,)`` Q1; ``(1, r1)`` Q2; ``(2, lo, hi)`` Q3; ``(3,)`` Q4."""
    states: list[tuple] = [(0,)]
    states += [(1, r) for r in range(_RANKS)]
    states += [(2, lo, hi) for lo in range(_RANKS) for hi in range(lo, _RANKS)]
    states.append((3,))
    return states


def _qb_transitions(
    state: tuple, every_guess: bool = False, ties: str = "lose", inside_rule: str = "strict"
) -> list[list[tuple[int, Any]]]:
    """For each candidate guess at ``state``: ``[(cards out of 52, next state or "off")]``.

    Only the best-odds guess is listed unless ``every_guess`` (for ``policy="optimal"``).
    With replacement each rank has 4 of 52 cards, each colour 26, each suit 13.
    """
    q = state[0]
    start = (0,)
    if q == 0:  # RTB-QB-ORDER: Q1 red or black; either colour has 26 cards, 2 of each rank
        guess = [(2, (1, r)) for r in range(_RANKS)] + [(26, start)]
        return [guess]  # red and black are mirror images: one is enough
    if q == 1:  # RTB-QB-COMPARE: higher or lower than the run's first card; a tie loses
        r1 = state[1]
        options = []
        for higher in (True, False) if every_guess else _best_side(_ACE - r1, r1)[:1]:
            moves = []
            for r in range(_RANKS):
                hit = _hit(higher, r, r1, ties)
                moves.append((4, (2, min(r, r1), max(r, r1)) if hit else start))
            options.append(moves)
        return options
    if q == 2:  # RTB-QB-COMPARE: inside or outside the run's first two ranks (RTB-Q3 ruling)
        lo, hi = state[1], state[2]
        inside = max(hi - lo - 1, 0)
        if inside_rule == "inclusive":  # RTB-HR-INSIDE: the two ranks count as inside
            inside += 1 if lo == hi else 2
        outside = lo + (_ACE - hi)
        picks = (True, False) if every_guess else ((True,) if inside > outside else (False,))
        options = []
        for pick_inside in picks:
            moves = []
            for r in range(_RANKS):
                if pick_inside:
                    hit = lo <= r <= hi if inside_rule == "inclusive" else lo < r < hi
                else:
                    hit = r < lo or r > hi
                moves.append((4, (3,) if hit else start))
            options.append(moves)
        return options
    return [[(13, "off"), (39, start)]]  # Q4: one suit of four, 13 cards of 52


@lru_cache(maxsize=32)
def _qb_chain(
    max_guesses: int, policy: str, ties: str = "lose", inside: str = "strict"
) -> tuple[tuple[int, ...], int]:
    """Integer numerators of the questions bus with replacement: ``off[k]`` = 52**k times the
    chance to get off within k guesses from Q1, for k = 0 … max_guesses, and ``misses`` = 52**G
    times the expected number of misses within G = max_guesses guesses."""
    states = _qb_states()
    trans = {st: _qb_transitions(st, policy == "optimal", ties, inside) for st in states}
    best_trans = {st: _qb_transitions(st, False, ties, inside)[0] for st in states}
    a_prev = {st: 0 for st in states}
    b_prev = {st: 0 for st in states}
    off = [0]
    for k in range(1, max_guesses + 1):
        done = 52 ** (k - 1)
        a_new, b_new = {}, {}
        for st in states:
            options = []
            for moves in trans[st]:
                a = b = 0
                for weight, nxt in moves:
                    if nxt == "off":
                        a += weight * done
                    else:
                        a += weight * a_prev[nxt]
                        b += weight * b_prev[nxt]
                        if nxt == (0,):  # a miss (a right answer never leads back to Q1)
                            b += weight * done
                options.append((a, moves == best_trans[st], b))
            a, _, b = max(options)
            a_new[st], b_new[st] = a, b
        a_prev, b_prev = a_new, b_new
        off.append(a_prev[(0,)])
    return tuple(off), b_prev[(0,)]


def questions_bus_off_chance(
    max_guesses: int = MAX_GUESSES, policy: str = "best_odds", **house: str
) -> Fraction:
    """The exact chance of getting off the questions bus within ``max_guesses``, with replacement.

    The rider answers the four questions in order, each on a new card (RTB-QB-ORDER): red or
    black; higher or lower than the run's first card; inside or outside its first two cards; the
    suit (RTB-QB-COMPARE). A miss costs 1 point and goes back to the first question
    (RTB-QB-MISS). The bus ends when all four are right in a row or after ``max_guesses``
    guesses (RTB-QB-END).

    Assumptions: every card is any of the 52 with chance 1/52, independently (with replacement);
    best play answers each question with the likeliest answer (a tie in rank loses; with two
    equal ranks only "outside" can win, RTB-Q3); ``policy="optimal"`` maximises the chance of
    getting off instead (the same value, see the module notes).

    Args:
        max_guesses (int): 1–500 (the game: 40).
        policy (str): ``"best_odds"`` or ``"optimal"``.
        **house: ``ties``, ``inside``, ``aces``: the house rules (see the module docstring).

    Returns:
        Fraction: the chance (at least 4 guesses are needed).

    Raises:
        ParameterError: max_guesses outside 1–500 or an unknown policy.
    """
    max_guesses, policy = _check_guesses(max_guesses), _check_policy(policy)
    off, _ = _qb_chain(max_guesses, policy, *_check_house(**house))
    return Fraction(off[max_guesses], 52**max_guesses)


def questions_bus_off_by_guess(max_guesses: int = MAX_GUESSES, **house: str) -> list[Fraction]:
    """``[P(off the questions bus within k guesses) for k = 0 … max_guesses]``, exact, with
    replacement and best play (see :func:`questions_bus_off_chance`).

    Raises:
        ParameterError: max_guesses outside 1–500.
    """
    max_guesses = _check_guesses(max_guesses)
    off, _ = _qb_chain(max_guesses, "best_odds", *_check_house(**house))
    return [Fraction(off[k], 52**k) for k in range(max_guesses + 1)]


def questions_bus_guesses_distribution(max_guesses: int = MAX_GUESSES, **house: str) -> dict[int, Fraction]:
    """``{k: P(the questions bus takes exactly k guesses)}`` for k = 1 … max_guesses, with
    replacement and best play (RTB-QB-END; the last entry includes being stopped by the limit).

    Raises:
        ParameterError: max_guesses outside 1–500.
    """
    max_guesses = _check_guesses(max_guesses)
    off, _ = _qb_chain(max_guesses, "best_odds", *_check_house(**house))
    cumulative = [Fraction(off[k], 52**k) for k in range(max_guesses + 1)]
    dist = {k: cumulative[k] - cumulative[k - 1] for k in range(1, max_guesses)}
    dist[max_guesses] = 1 - cumulative[max_guesses - 1]
    return dist


def questions_bus_expected_guesses(max_guesses: int = MAX_GUESSES, **house: str) -> Fraction:
    """The exact expected number of guesses on the questions bus, with replacement and best play
    (RTB-QB-ORDER, RTB-QB-END). Returns a Fraction (guesses).

    Raises:
        ParameterError: max_guesses outside 1–500.
    """
    max_guesses = _check_guesses(max_guesses)
    off, _ = _qb_chain(max_guesses, "best_odds", *_check_house(**house))
    return sum((1 - Fraction(off[k], 52**k) for k in range(max_guesses)), Fraction(0))


def questions_bus_expected_points(max_guesses: int = MAX_GUESSES, **house: str) -> Fraction:
    """The exact expected points on the questions bus (1 per miss, RTB-QB-MISS), with
    replacement and best play. Returns a Fraction (points).

    Raises:
        ParameterError: max_guesses outside 1–500.
    """
    max_guesses = _check_guesses(max_guesses)
    _, misses = _qb_chain(max_guesses, "best_odds", *_check_house(**house))
    return Fraction(misses, 52**max_guesses)


# ---------------------------------------------------------------------------------------------
# the solo gauntlet with replacement
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _gauntlet_by_ride(streak: int, rides: int, ties: str = "lose") -> tuple[Fraction, ...]:
    """``wins[j]``: the exact chance that a lone rider wins on ride j + 1, with best play.

    One ride from a card of rank r (calls depend on r only) ends in a win with chance
    ``w[r] / 13**streak`` or in a miss on a card of rank r' with chance ``m[r][r'] / 13**streak``
    (integer numerators, computed backwards over the streak). The rank the next ride starts
    from is the missed card's rank (RTB-SG-RIDE), so the rides chain by a 13 × 13 matrix.
    """
    ranks = range(_RANKS)
    calls = [_best_side(_ACE - r, r)[0] for r in ranks]
    hits = [[_hit(calls[r], r2, r, ties) for r2 in ranks] for r in ranks]
    w = [1] * _RANKS  # from streak s = streak: already won
    m = [[0] * _RANKS for _ in ranks]
    for s in range(streak - 1, -1, -1):
        scale = _RANKS ** (streak - s - 1)
        w = [sum(w[r2] for r2 in ranks if hits[r][r2]) for r in ranks]
        m = [
            [(0 if hits[r][r2] else scale) + sum(m[h][r2] for h in ranks if hits[r][h]) for r2 in ranks]
            for r in ranks
        ]
    wins = []
    reach = [1] * _RANKS  # over 13: the first ride starts from a freshly flipped card
    denominator = _RANKS
    for _ in range(rides):
        wins.append(Fraction(sum(p * w[r] for r, p in enumerate(reach)), denominator * _RANKS**streak))
        reach = [sum(reach[r] * m[r][r2] for r in ranks) for r2 in ranks]
        denominator *= _RANKS**streak
    return tuple(wins)


@lru_cache(maxsize=64)
def _gauntlet_optimal(streak: int, rides: int, ties: str = "lose") -> Fraction:
    """The exact chance of winning the gauntlet when every call maximises that chance."""
    value: dict[tuple[int, int, int], Fraction] = {}  # (rides left, streak, rank to beat)
    for left in range(1, rides + 1):
        for s in range(streak - 1, -1, -1):
            for r in range(_RANKS):
                best = Fraction(0)
                for higher in (True, False):
                    v = Fraction(0)
                    for r2 in range(_RANKS):
                        if _hit(higher, r2, r, ties):
                            v += 1 if s + 1 == streak else value[(left, s + 1, r2)]
                        elif left > 1:
                            v += value[(left - 1, 0, r2)]
                    best = max(best, v / _RANKS)
                value[(left, s, r)] = best
    return sum((value[(rides, 0, r)] for r in range(_RANKS)), Fraction(0)) / _RANKS


def _check_rides(rides: Any) -> int:
    return _int_arg("rides", rides, 1, 100, " (the gauntlet gives each player 10; RTB-SG-RIDES)")


def gauntlet_win_chance(
    streak: int = 5, rides: int = RIDES, policy: str = "best_odds", **house: str
) -> Fraction:
    """The exact chance that a lone rider wins the solo gauntlet, with replacement.

    A ride is a higher/lower bus whose first ride starts from a freshly flipped card; a miss ends
    the ride, and the missed card is the card to beat of the next ride (RTB-SG-RIDE). The player
    has ``rides`` rides (RTB-SG-RIDES) and wins on the spot with ``streak`` hits in a row in one
    ride; a lone rider who never makes it loses (RTB-SG-WIN). There is no 40-guess limit.

    Assumptions: draws with replacement (each of the 52 cards with chance 1/52), best play (call
    the side with more ranks; a tie in rank is a miss) or ``policy="optimal"``.

    Args:
        streak (int): the target, 1–20 (the game: 3–7, default 5).
        rides (int): 1–100 (the game: 10).
        policy (str): ``"best_odds"`` or ``"optimal"``.

    Returns:
        Fraction: the chance of winning.

    Raises:
        ParameterError: an argument out of range.
    """
    streak, rides, policy = _check_streak(streak), _check_rides(rides), _check_policy(policy)
    ties, _ = _check_house(**house)
    if policy == "optimal":
        return _gauntlet_optimal(streak, rides, ties)
    return sum(_gauntlet_by_ride(streak, rides, ties), Fraction(0))


def gauntlet_win_distribution(streak: int = 5, rides: int = RIDES, **house: str) -> dict[int, Fraction]:
    """``{ride: P(the lone rider wins on that ride)}`` for ride = 1 … rides, with replacement and
    best play (RTB-SG-RIDE, RTB-SG-RIDES, RTB-SG-WIN). The values add up to
    :func:`gauntlet_win_chance`; the rest is the chance of losing.

    Raises:
        ParameterError: an argument out of range.
    """
    streak, rides = _check_streak(streak), _check_rides(rides)
    return {j + 1: p for j, p in enumerate(_gauntlet_by_ride(streak, rides, _check_house(**house)[0]))}


# ---------------------------------------------------------------------------------------------
# the finite deck: vectorised piles for many simulated games at once
# ---------------------------------------------------------------------------------------------
def _card_list(cards: Iterable[int | str] | None, name: str) -> list[int]:
    out = []
    for c in cards or ():
        if isinstance(c, str):
            try:
                c = parse_card(c)
            except ValueError as err:
                raise ParameterError(f"{name}: {err}") from None
        elif isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= int(c) < 52:
            raise ParameterError(f"{name}: {c!r} is not a card: use an int 0-51 or a code such as 'TD'")
        out.append(int(c))
    if len(set(out)) != len(out):
        raise ParameterError(f"{name} lists a card twice")
    return out


class _Piles:
    """The draw and discard piles of many simulated games, played in lock step.

    Row ``g`` is one game. Its draw pile is ``order[g, pos[g]:size[g]]``; a draw picks a
    uniformly random position in it and swaps that card to the front (one step of a
    Fisher–Yates shuffle), so no game is shuffled in advance. The rank counts (13 × games) and
    suit counts (4 × games) of every draw pile are kept up to date, so best play counts cards in
    O(13) per game. With ``replacement`` every draw is a fresh uniform card of 52 and the counts
    never change. :meth:`keep` drops finished games (all arrays shrink together).
    """

    def __init__(
        self,
        rng: np.random.Generator,
        size: int,
        cards_out: list[int],
        discard: list[int],
        random_out: int,
        random_discard: int,
        replacement: bool,
        track_suits: bool = True,
    ):
        self.rng = rng
        self.replacement = replacement
        self.track_suits = track_suits  # the higher/lower bus needs rank counts only
        self.reshuffles = np.zeros(size, dtype=np.int64)
        if replacement:
            self.rank_counts = np.full((_RANKS, size), 4, dtype=np.int32)
            self.suit_counts = np.full((4, size), 13, dtype=np.int32)
            return
        gone = set(cards_out) | set(discard)
        pool = np.array([c for c in range(52) if c not in gone], dtype=np.int8)
        in_pile = np.zeros(52, dtype=bool)
        in_pile[pool] = True
        by_card = in_pile.reshape(_RANKS, 4)
        self.rank_counts = np.repeat(by_card.sum(axis=1).astype(np.int32)[:, None], size, axis=1)
        self.suit_counts = np.repeat(by_card.sum(axis=0).astype(np.int32)[:, None], size, axis=1)
        self.order = np.zeros((size, 52), dtype=np.int8)  # C order (draw() uses flat views)
        self.order[:, : pool.size] = pool
        self.pos = np.zeros(size, dtype=np.int64)
        self.size = np.full(size, pool.size, dtype=np.int64)
        self.discard = np.zeros((size, 52), dtype=bool)
        if discard:
            self.discard[:, discard] = True
        for _ in range(random_out):  # dealt at random and kept out of play
            self.draw()
        for _ in range(random_discard):  # dealt at random, seen, and discarded
            self.to_discard(self.draw())

    @property
    def games(self) -> int:
        return self.rank_counts.shape[1]

    def keep(self, mask: np.ndarray) -> None:
        """Keep only the games where ``mask`` is True."""
        self.reshuffles = self.reshuffles[mask]
        # C order, so that the flat views used by draw() write through
        self.rank_counts = np.ascontiguousarray(self.rank_counts[:, mask])
        self.suit_counts = np.ascontiguousarray(self.suit_counts[:, mask])
        if not self.replacement:
            self.order = np.ascontiguousarray(self.order[mask])
            self.pos, self.size = self.pos[mask], self.size[mask]
            self.discard = self.discard[mask]

    def rank_cumsum(self) -> np.ndarray:
        """``cs[k, g]``: cards of rank <= k in game g's draw pile (13 vector adds)."""
        cs = self.rank_counts.copy()
        for k in range(1, _RANKS):
            cs[k] += cs[k - 1]
        return cs

    def refill(self) -> None:
        """RTB-DECK-EMPTY: games whose draw pile is empty shuffle their discard pile in."""
        if self.replacement:
            return
        empty = np.flatnonzero(self.pos >= self.size)
        if empty.size == 0:
            return
        back = self.discard[empty]
        count = back.sum(axis=1)
        if (count == 0).any():
            raise RuntimeError(
                "no card left to draw and nothing to reshuffle: too many cards are out of play"
            )
        self.order[empty] = np.argsort(~back, axis=1, kind="stable").astype(np.int8)  # discard cards first
        self.pos[empty] = 0
        self.size[empty] = count
        by_card = back.reshape(-1, _RANKS, 4)
        self.rank_counts[:, empty] = by_card.sum(axis=2).T
        self.suit_counts[:, empty] = by_card.sum(axis=1).T
        self.discard[empty] = False
        self.reshuffles[empty] += 1

    def draw(self) -> np.ndarray:
        """The next card (int 0–51) of every game, uniform over its draw pile (empty piles are
        refilled first)."""
        games = self.games
        if self.replacement:
            return self.rng.integers(0, 52, size=games)
        self.refill()
        rows = np.arange(games)
        pos = self.pos
        base = rows * 52
        at_pick = base + pos + (self.rng.random(games) * (self.size - pos)).astype(np.int64)
        at_front = base + pos
        flat = self.order.reshape(-1)
        cards = flat[at_pick]
        flat[at_pick] = flat[at_front]
        flat[at_front] = cards
        self.pos = pos + 1
        cards = cards.astype(np.int64)
        self.rank_counts.reshape(-1)[(cards >> 2) * games + rows] -= 1
        if self.track_suits:
            self.suit_counts.reshape(-1)[(cards & 3) * games + rows] -= 1
        return cards

    def to_discard(self, cards: np.ndarray, rows: np.ndarray | None = None) -> None:
        """RTB-DISCARD: ``cards[i]`` of game ``rows[i]`` (default: every game) is discarded."""
        if self.replacement:
            return
        if rows is None:
            rows = np.arange(self.games)
        if rows.size:
            self.discard[rows, cards] = True


def _choose(rng: np.random.Generator, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """True where ``first`` has more cards than ``second``; a fair coin where they are equal."""
    return (first > second) | ((first == second) & (rng.random(first.shape) < 0.5))


class _Games:
    """Per-game state arrays of a batch, with their outputs, dropping finished games lazily."""

    def __init__(self, size: int, piles: _Piles, columns: dict[str, np.ndarray]):
        self.piles = piles
        self.total = size
        self.ids = np.arange(size)
        self.cols = columns
        self.done = np.zeros(size, dtype=bool)
        self.out: dict[str, np.ndarray] = {}

    def finish(self, newly: np.ndarray, values: dict[str, np.ndarray]) -> None:
        """Record ``values`` (arrays over the current games) for the games in ``newly``."""
        if not newly.any():
            return
        ids = self.ids[newly]
        for name, v in values.items():
            if name not in self.out:
                self.out[name] = np.zeros(self.total, dtype=v.dtype)
            self.out[name][ids] = v[newly]
        self.done[newly] = True

    def compact(self) -> None:
        """Drop finished games once they are a third of the arrays (cheaper than every step)."""
        if self.done.sum() * 3 < self.done.size:
            return
        keep = ~self.done
        self.ids = self.ids[keep]
        self.cols = {k: v[keep] for k, v in self.cols.items()}
        self.piles.keep(keep)
        self.done = self.done[keep]


def _hl_batch(
    rng: np.random.Generator,
    size: int,
    streak: int,
    max_guesses: int | None,
    rides: int | None,
    piles_args: tuple,
    trace: bool = False,
    ties: str = "lose",
) -> dict[str, np.ndarray]:
    """Play ``size`` higher/lower buses (``rides is None``) or solo gauntlets in lock step
    (``ties="win"``: a card of the same rank is a hit, RTB-HR-TIES).

    Returns arrays per game: ``off`` (got off / won), ``guesses``, ``points`` (misses),
    ``ride`` (gauntlet: rides used, the winning ride counted), ``reshuffles``; with ``trace``
    also ``cards`` (first card then one per guess, -1 after the end) and ``calls`` (1 higher,
    0 lower, -1 none).
    """
    piles = _Piles(rng, size, *piles_args, track_suits=False)
    zeros = np.zeros(size, dtype=np.int64)
    g = _Games(
        size,
        piles,
        {
            "beat": piles.draw(),  # RTB-B-FLIP / RTB-SG-RIDE: the first card
            "run": zeros.copy(),
            "guesses": zeros.copy(),
            "misses": zeros.copy(),
        },
    )
    limit = max_guesses if rides is None else rides * streak
    if trace:
        cards_log = np.full((size, limit + 1), -1, dtype=np.int64)
        calls_log = np.full((size, limit), -1, dtype=np.int64)
        cards_log[:, 0] = g.cols["beat"]
    for step in range(limit):
        c = g.cols
        if g.done.all():
            break
        piles.refill()  # the rider counts the new draw pile after a reshuffle
        cs = piles.rank_cumsum()
        cols = np.arange(g.ids.size)
        r = c["beat"] >> 2
        up_to = cs[r, cols]
        below = up_to - piles.rank_counts[r, cols]
        above = cs[_ACE] - up_to
        higher = _choose(rng, above, below)  # RTB-B-GUESS: best odds, equal counts split by a coin
        card = piles.draw()
        r2 = card >> 2
        # a tie in rank is a miss, or a hit under RTB-HR-TIES
        hit = np.where(r2 == r, ties == "win", np.where(higher, r2 > r, r2 < r))
        piles.to_discard(c["beat"])  # RTB-DISCARD: the old card to beat is no longer needed
        c["beat"] = card
        c["guesses"] += 1
        c["run"] = np.where(hit, c["run"] + 1, 0)  # RTB-B-STREAK
        c["misses"] += ~hit
        if trace:
            live = ~g.done
            cards_log[g.ids[live], step + 1] = card[live]
            calls_log[g.ids[live], step] = higher[live]
        won = c["run"] >= streak  # RTB-B-END / RTB-SG-WIN
        finished = won if rides is None else won | (c["misses"] >= rides)  # RTB-SG-RIDES
        g.finish(
            finished & ~g.done,
            {"off": won, "guesses": c["guesses"], "points": c["misses"], "reshuffles": piles.reshuffles},
        )
        g.compact()
    c = g.cols
    g.finish(
        ~g.done,
        {
            "off": np.zeros(g.ids.size, dtype=bool),
            "guesses": c["guesses"],
            "points": c["misses"],
            "reshuffles": piles.reshuffles,
        },
    )
    result = dict(g.out)
    result["ride"] = np.minimum(result["points"] + 1, rides or 1)
    if trace:
        result["cards"], result["calls"] = cards_log, calls_log
    return result


def _qb_batch(
    rng: np.random.Generator, size: int, max_guesses: int, piles_args: tuple, trace: bool = False
) -> dict[str, np.ndarray]:
    """Play ``size`` questions buses in lock step (see :func:`simulate_questions_bus`)."""
    piles = _Piles(rng, size, *piles_args)
    zeros = np.zeros(size, dtype=np.int64)
    g = _Games(
        size,
        piles,
        {
            "q": zeros.copy(),
            "guesses": zeros.copy(),
            "misses": zeros.copy(),
            "c1": zeros.copy(),
            "c2": zeros.copy(),
            "c3": zeros.copy(),
        },
    )
    if trace:
        cards_log = np.full((size, max_guesses), -1, dtype=np.int64)
        calls_log = np.full((size, max_guesses), -1, dtype=np.int64)
        questions_log = np.full((size, max_guesses), -1, dtype=np.int64)
    for step in range(max_guesses):
        c = g.cols
        if g.done.all():
            break
        piles.refill()
        q = c["q"]
        m = q.size
        cs = piles.rank_cumsum().reshape(-1)  # cs[k * m + g]: cards of rank <= k in game g
        rc = piles.rank_counts.reshape(-1)
        sc = piles.suit_counts
        total = cs[_ACE * m : (_ACE + 1) * m]
        call = np.zeros(m, dtype=np.int64)
        # each game works out the best answer to its own question only
        g1 = np.flatnonzero(q == 0)  # Q1: red (diamonds, hearts) or black
        red = sc[1, g1] + sc[2, g1]
        call[g1] = _choose(rng, red, total[g1] - red)
        g2 = np.flatnonzero(q == 1)  # Q2 (RTB-QB-COMPARE): higher or lower than the run's first card
        at = (c["c1"][g2] >> 2) * m + g2
        call[g2] = _choose(rng, total[g2] - cs[at], cs[at] - rc[at])
        g3 = np.flatnonzero(q == 2)  # Q3 (RTB-QB-COMPARE): inside or outside the first two ranks
        a, b = c["c1"][g3] >> 2, c["c2"][g3] >> 2
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        up_to_lo = cs[lo * m + g3]
        inside = np.where(hi > lo, cs[np.maximum(hi - 1, 0) * m + g3] - up_to_lo, 0)  # a pair has no inside
        outside = (up_to_lo - rc[lo * m + g3]) + (total[g3] - cs[hi * m + g3])
        call[g3] = _choose(rng, inside, outside)
        g4 = np.flatnonzero(q >= 3)  # Q4: the suit with most cards left, ties at random
        counts = sc[:, g4]
        keys = rng.random(counts.shape) + (counts == counts.max(axis=0))
        best, top = np.zeros(g4.size, dtype=np.int64), keys[0]
        for j in (1, 2, 3):
            better = keys[j] > top
            best, top = np.where(better, j, best), np.maximum(top, keys[j])
        call[g4] = best
        card = piles.draw()
        rank, suit = card >> 2, card & 3
        right = np.empty(m, dtype=bool)
        right[g1] = ((suit[g1] == 1) | (suit[g1] == 2)) == call[g1]
        r1 = c["c1"][g2] >> 2
        right[g2] = np.where(call[g2] == 1, rank[g2] > r1, rank[g2] < r1)  # a tie in rank loses
        r3 = rank[g3]
        right[g3] = np.where(call[g3] == 1, (r3 > lo) & (r3 < hi), (r3 < lo) | (r3 > hi))
        right[g4] = suit[g4] == call[g4]
        if trace:
            live = ~g.done
            ids = g.ids[live]
            cards_log[ids, step] = card[live]
            calls_log[ids, step] = call[live]
            questions_log[ids, step] = q[live]
        c["guesses"] += 1
        # RTB-QB-MISS: the run and the missed card go to the discard pile; back to Q1
        missed = ~right & ~g.done  # finished games play on until dropped; their cards do not matter
        for j, name in enumerate(("c1", "c2", "c3")):
            had = np.flatnonzero(missed & (q > j))
            piles.to_discard(c[name][had], had)
        rows = np.flatnonzero(missed)
        piles.to_discard(card[rows], rows)
        c["misses"] += missed
        # a right answer: the card joins the run (RTB-QB-ORDER)
        for j, name in enumerate(("c1", "c2", "c3")):
            c[name] = np.where(right & (q == j), card, c[name])
        c["q"] = np.where(right, q + 1, 0)
        finished = c["q"] >= 4  # RTB-QB-END
        g.finish(
            finished & ~g.done,
            {"off": finished, "guesses": c["guesses"], "points": c["misses"], "reshuffles": piles.reshuffles},
        )
        g.compact()
    c = g.cols
    g.finish(
        ~g.done,
        {
            "off": np.zeros(g.ids.size, dtype=bool),
            "guesses": c["guesses"],
            "points": c["misses"],
            "reshuffles": piles.reshuffles,
        },
    )
    result = dict(g.out)
    if trace:
        result["cards"], result["calls"], result["questions"] = cards_log, calls_log, questions_log
    return result


def _piles_args(cards_out, discard, random_out, random_discard, replacement, in_play_needed) -> tuple:
    out = _card_list(cards_out, "cards_out")
    disc = _card_list(discard, "discard")
    if set(out) & set(disc):
        raise ParameterError("a card cannot be both out of play (cards_out) and in the discard pile")
    random_out = _int_arg("random_out", random_out, 0, 52)
    random_discard = _int_arg("random_discard", random_discard, 0, 52)
    if replacement and (out or disc or random_out or random_discard):
        raise ParameterError(
            "with replacement every draw is any of the 52 cards: leave cards_out, discard, "
            "random_out and random_discard empty"
        )
    in_play = 52 - len(out) - random_out
    if in_play < in_play_needed:
        raise ParameterError(
            f"only {in_play} cards would stay in play: at least {in_play_needed} are needed "
            f"for this bus (fewer cards_out / random_out)"
        )
    if len(disc) + random_discard + len(out) + random_out > 52 - 1:
        raise ParameterError("no card would be left in the draw pile to start the bus: fewer discard cards")
    return out, disc, random_out, random_discard, bool(replacement)


@dataclass(frozen=True)
class BusSimulation:
    """The result of simulating many buses.

    Attributes:
        off (Estimate): the chance of getting off within the guess limit (RTB-B-END, RTB-QB-END).
        guesses (Estimate): the mean number of guesses.
        points (Estimate): the mean points taken, one per miss (RTB-B-STREAK, RTB-QB-MISS).
        reshuffled (Estimate): the chance that the discard pile was shuffled back in at least once
            (RTB-DECK-EMPTY; always 0 with replacement).
        guess_counts (tuple[int, ...]): ``guess_counts[k]`` = how many buses took exactly k
            guesses (k = 0 … max_guesses).
        n (int): buses simulated. seed (int): the seed used.
    """

    off: Estimate
    guesses: Estimate
    points: Estimate
    reshuffled: Estimate
    guess_counts: tuple[int, ...]
    n: int
    seed: int

    def guess_frequencies(self) -> dict[int, float]:
        """``{k: share of buses that took exactly k guesses}`` for k = 1 … max_guesses."""
        return {k: c / self.n for k, c in enumerate(self.guess_counts) if k}


@dataclass(frozen=True)
class GauntletSimulation:
    """The result of simulating many solo gauntlets.

    Attributes:
        win (Estimate): the chance that the lone rider wins (RTB-SG-WIN).
        guesses (Estimate): the mean number of guesses over all rides.
        reshuffled (Estimate): the chance of at least one reshuffle (RTB-DECK-EMPTY).
        win_ride_counts (tuple[int, ...]): ``win_ride_counts[j]`` = games won on ride j
            (index 0 unused).
        n (int), seed (int).
    """

    win: Estimate
    guesses: Estimate
    reshuffled: Estimate
    win_ride_counts: tuple[int, ...]
    n: int
    seed: int


def _run_batches(
    n: int, seed: int, batch: int, progress: bool, description: str, play, histogram
) -> tuple[Moments, np.ndarray]:
    """Play ``n`` games as ``play(rng, size) -> per-game arrays`` in batches of ``batch`` on
    :func:`~bus_lab.prob.montecarlo.run_batches` (one generator); return the running sums of
    ``off``, ``guesses``, ``points`` and ``reshuffled`` and the sum of ``histogram(result)`` over
    the batches (no per-game arrays are kept).

    Raises:
        ParameterError: ``n`` not in 2 … 10⁹ or ``batch`` not in 1 … 10⁷.
    """
    from bus_lab.prob.montecarlo import Moments, run_batches

    n = _int_arg("n", n, 2, 10**9)
    batch = _int_arg("batch", batch, 1, 10**7)
    sums = Moments(("off", "guesses", "points", "reshuffled"))
    counts = None

    def one_batch(rng: np.random.Generator, start: int, size: int) -> None:
        nonlocal counts
        res = play(rng, size)
        res["reshuffled"] = res["reshuffles"] > 0
        sums.add(res)
        counts = histogram(res) if counts is None else counts + histogram(res)

    run_batches(one_batch, n, batch, seed, progress, description)
    return sums, counts


def simulate_bus(
    n: int,
    streak: int = 5,
    seed: int = 0,
    max_guesses: int = MAX_GUESSES,
    cards_out: Iterable[int | str] = (),
    progress: bool = False,
    *,
    discard: Iterable[int | str] = (),
    random_out: int = 0,
    random_discard: int = 0,
    replacement: bool = False,
    batch: int = 100_000,
    ties: str = "lose",
) -> BusSimulation:
    """Simulate ``n`` higher/lower buses on the real finite deck (vectorised numpy).

    Rules: RTB-B-FLIP (a first card is flipped from the draw pile), RTB-B-GUESS (higher or lower;
    a tie in rank is a miss; the new card is the card to beat), RTB-B-STREAK (a miss costs 1
    point and resets the streak), RTB-B-END (off at ``streak`` hits in a row, or stopped after
    ``max_guesses``), RTB-DISCARD and RTB-DECK-EMPTY (each old card to beat goes to the discard;
    an empty draw pile is replaced by the shuffled discard, the card to beat staying out).

    Assumptions (who sees what): the rider sees every card, so best play counts the cards of the
    draw pile (every card not seen since the last reshuffle) and calls the side with more cards;
    equal counts are split by a fair coin (as the ``best_odds`` bot does). The start:

    * ``cards_out``: cards out of play for the whole ride (the cards still in players' rows,
      RTB-B-RIDER); ``random_out``: that many more cards drawn at random per game and kept out;
    * ``discard``: cards already seen and in the discard pile (flipped pyramid cards, cards
      played from rows); ``random_discard``: that many more at random per game. They are not in
      the first draw pile but come back at a reshuffle.

    The default is a fresh deck (nothing out, nothing seen). A real 4-player game after the
    pyramid has 10 pyramid cards plus the played row cards in the discard and the unplayed row
    cards out: pass them (see :func:`bus_start_piles` to read them off an engine state).

    Args:
        n (int): buses to simulate, at least 2.
        streak (int): target, 1–20 (game: 3–7). seed (int): the generator's seed.
        max_guesses (int): the limit (game: 40).
        cards_out, discard: card codes (``"7H"``) or ints 0–51.
        progress (bool): show a progress bar. batch (int): buses per vectorised batch.
        replacement (bool): draw each card uniformly from all 52, independently (the model of
            :func:`bus_off_chance`); then ``cards_out`` etc. must be empty.
        ties (str): ``"lose"`` (default) or ``"win"`` (RTB-HR-TIES: a card of the same rank is a
            hit).

    Returns:
        BusSimulation: estimates of the chance to get off, mean guesses, mean points, the chance
        of a reshuffle, and the histogram of guesses.

    Raises:
        ParameterError: bad arguments (unknown card, a card listed twice, fewer than 2 cards in
            play, ...).
    """
    streak, max_guesses = _check_streak(streak), _check_guesses(max_guesses)
    ties, _ = _check_house(ties=ties)
    args = _piles_args(cards_out, discard, random_out, random_discard, replacement, 2)

    def play(rng, size):
        return _hl_batch(rng, size, streak, max_guesses, None, args, ties=ties)

    sums, counts = _run_batches(
        n,
        seed,
        batch,
        progress,
        f"simulating buses (streak {streak})",
        play,
        lambda res: np.bincount(res["guesses"], minlength=max_guesses + 1),
    )
    return BusSimulation(
        sums.estimate("off"),
        sums.estimate("guesses"),
        sums.estimate("points"),
        sums.estimate("reshuffled"),
        tuple(int(c) for c in counts),
        sums.n,
        int(seed),
    )


def simulate_questions_bus(
    n: int,
    seed: int = 0,
    max_guesses: int = MAX_GUESSES,
    cards_out: Iterable[int | str] = (),
    progress: bool = False,
    *,
    discard: Iterable[int | str] = (),
    random_out: int = 0,
    random_discard: int = 0,
    replacement: bool = False,
    batch: int = 100_000,
) -> BusSimulation:
    """Simulate ``n`` questions buses on the real finite deck (vectorised numpy).

    Rules: RTB-QB-ORDER (the four questions in order, each on a new card, no starting card),
    RTB-QB-COMPARE (Q2 against the run's first card, Q3 against its first two), RTB-QB-MISS (a
    miss costs 1 point, the run and the missed card go to the discard, back to Q1), RTB-QB-END
    (off after four right in a row, or stopped after ``max_guesses``), RTB-DECK-EMPTY (the cards
    of the current run are never reshuffled).

    Best play counts the draw pile (every card not seen since the last reshuffle): the colour,
    side, inside/outside or suit with the most cards left; equal counts are split at random.
    A tie in rank loses; with a pair only "outside" can win (RTB-Q3). ``cards_out``,
    ``discard``, ``random_out``, ``random_discard``, ``replacement``, ``batch``, ``progress``:
    as in :func:`simulate_bus`.

    Returns:
        BusSimulation.

    Raises:
        ParameterError: bad arguments (fewer than 5 cards in play, ...).
    """
    max_guesses = _check_guesses(max_guesses)
    args = _piles_args(cards_out, discard, random_out, random_discard, replacement, 5)

    def play(rng, size):
        return _qb_batch(rng, size, max_guesses, args)

    sums, counts = _run_batches(
        n,
        seed,
        batch,
        progress,
        "simulating questions buses",
        play,
        lambda res: np.bincount(res["guesses"], minlength=max_guesses + 1),
    )
    return BusSimulation(
        sums.estimate("off"),
        sums.estimate("guesses"),
        sums.estimate("points"),
        sums.estimate("reshuffled"),
        tuple(int(c) for c in counts),
        sums.n,
        int(seed),
    )


def simulate_gauntlet(
    n: int,
    streak: int = 5,
    rides: int = RIDES,
    seed: int = 0,
    cards_out: Iterable[int | str] = (),
    progress: bool = False,
    *,
    random_out: int | None = None,
    replacement: bool = False,
    batch: int = 100_000,
    ties: str = "lose",
) -> GauntletSimulation:
    """Simulate ``n`` solo gauntlets of a lone rider on the real finite deck (vectorised numpy).

    Rules: RTB-SG-RIDE (the first ride starts from a freshly flipped card; a miss ends the ride
    and the missed card is the next card to beat), RTB-SG-RIDES (``rides`` rides), RTB-SG-WIN
    (``streak`` hits in a row wins on the spot; otherwise the lone rider loses), RTB-DECK-EMPTY
    (the row and the card to beat stay out of a reshuffle). There is no 40-guess limit.

    Assumptions: Part 1 dealt the lone player's row of four cards, which stays out of play and
    is seen. By default (``random_out=None``) that row is four random cards per game; pass
    ``cards_out`` for a given row (then no random cards are added unless ``random_out`` says so).
    Best play counts the draw pile, equal counts split by a fair coin. ``replacement=True`` draws
    every card from all 52 (the model of :func:`gauntlet_win_chance`; no row is taken out).

    Args:
        n (int): gauntlets, at least 2. streak (int): the target (game: 3–7). rides (int): 1–100
            (game: 10). seed (int). progress (bool). batch (int): gauntlets per numpy batch.
        ties (str): ``"lose"`` (default) or ``"win"`` (RTB-HR-TIES: a card of the same rank is a hit).

    Returns:
        GauntletSimulation: the win chance, mean guesses, reshuffle chance, wins by ride.

    Raises:
        ParameterError: bad arguments.
    """
    streak, rides = _check_streak(streak), _check_rides(rides)
    ties, _ = _check_house(ties=ties)
    cards_out = _card_list(cards_out, "cards_out")
    if random_out is None:
        random_out = 0 if replacement or cards_out else 4
    args = _piles_args(cards_out, (), random_out, 0, replacement, 2)

    def play(rng, size):
        return _hl_batch(rng, size, streak, None, rides, args, ties=ties)

    sums, counts = _run_batches(
        n,
        seed,
        batch,
        progress,
        f"simulating gauntlets (streak {streak})",
        play,
        lambda res: np.bincount(res["ride"][res["off"]], minlength=rides + 1),
    )
    return GauntletSimulation(
        sums.estimate("off"),
        sums.estimate("guesses"),
        sums.estimate("reshuffled"),
        tuple(int(c) for c in counts),
        sums.n,
        int(seed),
    )


# ---------------------------------------------------------------------------------------------
# traces (for replaying simulated buses in the engine) and engine start states
# ---------------------------------------------------------------------------------------------
def _traces(res: dict[str, np.ndarray], labels: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for g in range(res["off"].size):
        cards = [card_code(int(c)) for c in res["cards"][g] if c >= 0]
        calls = [int(c) for c in res["calls"][g] if c >= 0]
        out.append(
            {
                "cards": cards,
                "calls": calls,
                "call_labels": [labels[c] for c in calls],
                "off": bool(res["off"][g]),
                "guesses": int(res["guesses"][g]),
                "points": int(res["points"][g]),
                "reshuffles": int(res["reshuffles"][g]),
            }
        )
    return out


def bus_traces(
    n: int,
    streak: int = 5,
    seed: int = 0,
    max_guesses: int = MAX_GUESSES,
    cards_out: Iterable[int | str] = (),
    *,
    discard: Iterable[int | str] = (),
) -> list[dict[str, Any]]:
    """``n`` simulated higher/lower buses, card by card, as :func:`simulate_bus` plays them.

    Each is a dict: ``cards`` (codes: the first card, then one per guess, in the order drawn,
    reshuffles included), ``calls`` (1 = higher, 0 = lower), ``call_labels``, ``off``,
    ``guesses``, ``points``, ``reshuffles``. Replaying ``cards`` in the engine from the same start
    checks the simulation's piles and best play against the rules (the tests do this).

    Raises:
        ParameterError: bad arguments (see :func:`simulate_bus`).
    """
    streak, max_guesses = _check_streak(streak), _check_guesses(max_guesses)
    n = _int_arg("n", n, 1, 100_000)
    args = _piles_args(cards_out, discard, 0, 0, False, 2)
    res = _hl_batch(np.random.default_rng(seed), n, streak, max_guesses, None, args, trace=True)
    return _traces(res, ("lower", "higher"))


def questions_bus_traces(
    n: int,
    seed: int = 0,
    max_guesses: int = MAX_GUESSES,
    cards_out: Iterable[int | str] = (),
    *,
    discard: Iterable[int | str] = (),
) -> list[dict[str, Any]]:
    """``n`` simulated questions buses, card by card, as :func:`simulate_questions_bus` plays them.

    Each is a dict like :func:`bus_traces`; ``calls`` hold, per guess, 1/0 for red/black,
    higher/lower or inside/outside (Q1–Q3), or the suit index 0–3 (clubs, diamonds, hearts,
    spades) on Q4; ``questions`` the question (1–4) each guess answered; ``call_labels`` spell
    the calls out.

    Raises:
        ParameterError: bad arguments (see :func:`simulate_questions_bus`).
    """
    max_guesses = _check_guesses(max_guesses)
    n = _int_arg("n", n, 1, 100_000)
    args = _piles_args(cards_out, discard, 0, 0, False, 5)
    res = _qb_batch(np.random.default_rng(seed), n, max_guesses, args, trace=True)
    traces = _traces(res, ("0", "1", "2", "3"))
    names = (
        ("black", "red"),
        ("lower", "higher"),
        ("outside", "inside"),
        ("clubs", "diamonds", "hearts", "spades"),
    )
    for g, t in enumerate(traces):  # label each call by the question it answered
        questions = [int(x) for x in res["questions"][g] if x >= 0]
        t["questions"] = [x + 1 for x in questions]
        t["call_labels"] = [names[x][c] for x, c in zip(questions, t["calls"])]
    return traces


def bus_start_piles(state) -> dict[str, tuple[int, ...]]:
    """The piles of an engine game at the start of its bus, as arguments for the simulations.

    Args:
        state: a Ride the Bus state whose bus has not drawn a card yet: the higher/lower bus at
            its first flip (node ``"bus_start"``, RTB-B-FLIP; in the gauntlet, the first ride,
            RTB-SG-RIDE) or the questions bus before its first guess (node ``"qb_guess"`` with
            no guess made, RTB-QB-ORDER).

    Returns:
        ``{"cards_out": cards in rows (out of play for the whole ride), "discard": the discard
        pile}``, each a sorted tuple of ints; pass them as
        ``simulate_bus(n, cards_out=..., discard=...)``.

    Raises:
        ValueError: the state is not at the start of a bus.
    """
    node = getattr(state, "node", None)
    at_start = node == "bus_start" or (node == "qb_guess" and state.bus_guesses == 0)
    if not at_start:
        raise ValueError(
            "bus_start_piles needs a Ride the Bus state at the start of the bus "
            f"(before its first card), not at node {node!r}"
        )
    discard = tuple(sorted(state.discard))
    out = tuple(sorted(set(range(52)) - set(state.draw) - set(discard)))
    return {"cards_out": out, "discard": discard}
