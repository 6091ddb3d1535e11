"""Exact chances in Bus & Stop, counted from the component sheet (``Fraction``s, standard library only).

* :func:`same_colour_chance`: that cards dealt from a deck all share one colour
  (BAS-SETUP-SAMECOLOUR, BAS-REFILL-SAMECOLOUR);
* :func:`refill_reshuffle_chance` and :func:`first_refill_reshuffle_chance`: that a refill
  ends in a one-colour stop and is reshuffled (BAS-REFILL-SAMECOLOUR);
* :func:`claim_chances`: that a bus of ``n`` random passengers can claim each destination's top
  card (BAS-DROP-TYPE, BAS-DROP-MULTI).

Cards are counted as distinct objects, so every hand of ``k`` cards from ``N`` is equally likely
(probability ``1 / C(N, k)``); a chance is the number of favourable hands over ``C(N, k)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import comb, prod

from bus_lab.games.bus_and_stop.components import STOP_SIZE, Sheet, load_sheet
from bus_lab.games.bus_and_stop.state import MAX_SETUP_RESHUFFLES

__all__ = [
    "same_colour_chance",
    "stop_colour_distribution",
    "refill_reshuffle_chance",
    "first_refill_reshuffle_chance",
    "claim_chances",
]


def same_colour_chance(colour_counts: Sequence[int], k: int = STOP_SIZE) -> Fraction:
    """Chance that ``k`` cards dealt from a shuffled deck all have the same colour.

    Args:
        colour_counts (Sequence[int]): cards of each colour in the deck.
        k (int): cards dealt (5 for a fresh bus stop, BAS-SETUP-SAMECOLOUR).

    Returns:
        ``sum over colours of C(n_c, k) / C(N, k)`` as a ``Fraction``.

    Raises:
        ValueError: ``k`` is not between 1 and the deck size.
    """
    total = sum(colour_counts)
    if not 1 <= k <= total:
        raise ValueError(f"k={k} cards cannot be dealt from {total}: use 1 to {total}")
    return Fraction(sum(comb(n, k) for n in colour_counts), comb(total, k))


def _compositions(total: int, caps: Sequence[int]):
    """Every vector ``j`` with ``0 <= j[i] <= caps[i]`` and ``sum(j) == total``."""
    if not caps:
        if total == 0:
            yield ()
        return
    for first in range(min(total, caps[0]) + 1):
        for rest in _compositions(total - first, caps[1:]):
            yield (first, *rest)


def stop_colour_distribution(sheet: Sheet | None = None) -> dict[tuple[int, ...], Fraction]:
    """The chance of each colour make-up of the stop when play starts (BAS-SETUP-STOP,
    BAS-SETUP-SAMECOLOUR with its limit of 100 reshuffles).

    Returns:
        ``{(cards of colour 0, cards of colour 1, ...): Fraction}`` summing to 1. A deal of one
        colour is redealt, so a one-colour stop stays only when the first 101 deals all were.
    """
    sheet = sheet or load_sheet()
    counts = sheet.colour_counts()
    total = comb(sum(counts), STOP_SIZE)
    raw = {
        v: Fraction(prod(comb(n, j) for n, j in zip(counts, v)), total)
        for v in _compositions(STOP_SIZE, counts)
    }
    p_same = sum(p for v, p in raw.items() if max(v) == STOP_SIZE)
    keep_mixed = (1 - p_same ** (MAX_SETUP_RESHUFFLES + 1)) / (1 - p_same) if p_same < 1 else Fraction(0)
    keep_same = p_same**MAX_SETUP_RESHUFFLES
    return {v: p * (keep_same if max(v) == STOP_SIZE else keep_mixed) for v, p in raw.items() if p}


def refill_reshuffle_chance(left: Sequence[int], deck_colours: Sequence[int]) -> Fraction:
    """Chance that refilling the stop makes it one colour, so that it is reshuffled
    (BAS-REFILL-SAMECOLOUR).

    Args:
        left (Sequence[int]): cards of each colour still at the stop after the pick-up.
        deck_colours (Sequence[int]): cards of each colour in the deck.

    Returns:
        0 when the cards left show two colours or more; when they are all colour ``c`` (``m`` of
        them), ``C(d_c, 5 - m) / C(D, 5 - m)``; when none are left, :func:`same_colour_chance`.
        0 as well when the deck cannot refill the stop (BAS-REFILL ruling: no check then).
    """
    shown = [c for c, n in enumerate(left) if n]
    need = STOP_SIZE - sum(left)
    deck = sum(deck_colours)
    if need <= 0 or deck < need or len(shown) > 1:
        return Fraction(0)
    if not shown:
        return same_colour_chance(deck_colours, need)
    return Fraction(comb(deck_colours[shown[0]], need), comb(deck, need))


def first_refill_reshuffle_chance(sheet: Sheet | None = None) -> Fraction:
    """Chance that the very first refill of a game is reshuffled, when seat 0 picks one of the
    colours at the stop uniformly at random (what the random bot does: every colour fits in an
    empty bus, BAS-PICK-LIMIT).

    Sums, over the stop's colour make-ups (:func:`stop_colour_distribution`) and the colour
    picked, the chance of a one-colour refill (:func:`refill_reshuffle_chance`).
    """
    sheet = sheet or load_sheet()
    counts = sheet.colour_counts()
    total = Fraction(0)
    for make_up, p in stop_colour_distribution(sheet).items():
        present = [c for c, n in enumerate(make_up) if n]
        deck = [n - j for n, j in zip(counts, make_up)]
        for colour in present:
            left = [0 if c == colour else n for c, n in enumerate(make_up)]
            total += p * Fraction(1, len(present)) * refill_reshuffle_chance(left, deck)
    return total


def _subsets_counts(sheet: Sheet, colours: Sequence[int], types: Sequence[int]) -> list[int]:
    """Cards of each type in ``types`` among the colours ``colours``."""
    return [sum(sheet.deck[sheet.kind(c, t)] for c in colours) for t in types]


def claim_chances(
    n: int, sheet: Sheet | None = None, tops: dict[str, Sequence[int]] | None = None
) -> dict[str, Fraction]:
    """Chance that a bus of ``n`` passengers, drawn at random from the non-senior cards of a full
    deck, can claim each destination's top card (BAS-DROP-TYPE, BAS-DROP-MULTI), and any of them.

    Args:
        n (int): passengers in the bus, 0 to 10 (BAS-PICK-LIMIT).
        sheet (Sheet | None): the component sheet (default: the built-in one).
        tops (dict[str, Sequence[int]] | None): the counts each stack's top card accepts, by
            stack name (default: each stack's best card, the top at the start, BAS-SETUP-ORDER);
            a stack left out is empty.

    Returns:
        ``{stack name: Fraction, ..., "any": Fraction}``.

    Method: a single-type card needs at least ``k`` (its smallest count) of its type: a
    hypergeometric tail. A multicoloured card needs ``m`` different colours; a bus fails it when its
    passengers show at most ``m - 1`` colours, counted over every set ``S`` of colours with
    inclusion-exclusion (hands using colours within ``T``, signed by ``|S| - |T|``). "Any" fails when
    the colours fail *and* every type count is below its need: the same sum, with each type
    capped below its need.

    Raises:
        ValueError: ``n`` outside 0 to 10 or larger than the non-senior cards.
    """
    sheet = sheet or load_sheet()
    types = [t for t, ptype in enumerate(sheet.types) if not ptype.senior]
    pool = sum(sheet.deck[sheet.kind(c, t)] for c in range(len(sheet.colours)) for t in types)
    if not 0 <= n <= min(10, pool):
        raise ValueError(f"n={n} passengers: use 0 to {min(10, pool)}")
    if tops is None:
        tops = {s.name: max(s.cards, key=lambda card: card.order_key()).counts for s in sheet.stacks}
    hands = comb(pool, n)
    need: dict[int, int] = {}  # type index -> smallest count any stack of that type accepts
    multi_need = None
    out: dict[str, Fraction] = {}
    for stack in sheet.stacks:
        if stack.name not in tops:
            out[stack.name] = Fraction(0)
            continue
        k = min(tops[stack.name])
        if stack.multicoloured:
            multi_need = k if multi_need is None else min(multi_need, k)
            continue
        need[stack.type_index] = min(k, need.get(stack.type_index, k))
        have = sum(sheet.deck[sheet.kind(c, stack.type_index)] for c in range(len(sheet.colours)))
        out[stack.name] = Fraction(
            sum(comb(have, j) * comb(pool - have, n - j) for j in range(k, n + 1)), hands
        )

    colours = range(len(sheet.colours))

    def hands_within(colour_set, capped: bool) -> int:
        """Hands of n passengers using only colours in colour_set (types below their needs if capped)."""
        counts = _subsets_counts(sheet, colour_set, types)
        if not capped:
            return comb(sum(counts), n)
        caps = [min(c, need[t] - 1) if t in need else c for c, t in zip(counts, types)]
        return sum(prod(comb(c, j) for c, j in zip(counts, v)) for v in _compositions(n, caps))

    def failing(capped: bool, colours_needed: int | None) -> int:
        """Hands showing fewer colours than ``colours_needed`` (and, if capped, no type claim)."""
        most = len(sheet.colours) if colours_needed is None else colours_needed - 1
        total = 0
        for size in range(0, most + 1):
            for s in combinations(colours, size):
                total += sum(
                    (-1) ** (size - len(t)) * hands_within(t, capped)
                    for r in range(size + 1)
                    for t in combinations(s, r)
                )
        return total

    for stack in sheet.stacks:
        if stack.multicoloured and stack.name in tops:
            out[stack.name] = Fraction(hands - failing(False, min(tops[stack.name])), hands)
    out["any"] = Fraction(hands - failing(True, multi_need), hands)
    return out
