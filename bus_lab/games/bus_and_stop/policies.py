"""Bots for Bus & Stop.

Each policy is ``policy(state, rng) -> action`` with ``rng`` a ``random.Random`` supplied by the
caller (a :class:`~bus_lab.engine.session.Session` derives it from its seed), so bots never touch
global random state.

``greedy``: claims the best-scoring destination it can; otherwise makes the pick-up that most
improves its best future claim (:func:`claim_potential`); its skedaddle rule is "skedaddle when it
costs none of the points I could claim right now". Exact values are ``Fraction``s, so ties are
real ties (split with ``rng``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bus_lab.engine.policies import random_policy
from bus_lab.games.bus_and_stop.moves import (
    ChoosePassenger,
    DropOff,
    NoSkedaddle,
    Pass,
    PickUp,
    Skedaddle,
    StopDiscarding,
    UnhappyDiscard,
)
from bus_lab.games.bus_and_stop.phases import BusAndStopPhase, Stage
from bus_lab.games.bus_and_stop.state import EMPTY_BUS_BONUS, SENIOR_CAP, BusAndStopState

__all__ = ["random_policy", "greedy_policy", "claim_potential", "best_claim_now"]


def _supply(state: BusAndStopState, bus: list[int], stack: int) -> int:
    sheet = state.sheet
    spec = sheet.stacks[stack]
    if spec.multicoloured:
        colour = sheet.kind_colour
        return len({colour[k] for k, c in enumerate(bus) if c})
    return sum(bus[spec.type_index :: len(sheet.types)])


def best_claim_now(state: BusAndStopState, bus: list[int]) -> int:
    """The most points a bus with passenger counts ``bus`` (per kind) could claim at the current top
    cards in one drop-off (0 when it can claim none). BAS-DROP-TOP, BAS-DROP-TYPE, BAS-DROP-MULTI."""
    best = 0
    for s in range(len(state.stacks)):
        card = state.top_card(s)
        if card is None:
            continue
        have = _supply(state, bus, s)
        for count, points in zip(card.counts, card.points):
            if count <= have:
                best = max(best, points)
    return best


def claim_potential(state: BusAndStopState, bus: list[int]) -> Fraction:
    """How close a bus is to its best claim at the current top cards, in points.

    For each stack's top card: the points of the largest count the bus can meet, or, when it meets
    none, the smallest count's points times the share of that count the bus already has. The
    potential is the best of these. (A heuristic, not a rule.)
    """
    best = Fraction(0)
    for s in range(len(state.stacks)):
        card = state.top_card(s)
        if card is None:
            continue
        have = _supply(state, bus, s)
        if have >= card.counts[0]:
            value = Fraction(max(p for k, p in zip(card.counts, card.points) if k <= have))
        elif have:
            value = Fraction(card.points[0] * have, card.counts[0])
        else:
            continue
        if value > best:
            best = value
    return best


def _pick_best(options: Sequence[tuple[Any, int]], rng: random.Random) -> int:
    """The action with the highest value; equal values are split with ``rng``."""
    top = max(v for v, _ in options)
    tied = sorted(a for v, a in options if v == top)
    return tied[rng.randrange(len(tied))]


def _pickup_gain(state: BusAndStopState, seat: int, colour: int) -> tuple[Fraction, int, int]:
    """(potential after the pick-up, seniors it banks, minus seats it fills) for picking ``colour``."""
    sheet = state.sheet
    bus = list(state.bus[seat])
    seniors = 0
    for k in state.stop:
        if sheet.colour_of(k) == colour:
            if sheet.is_senior(k):
                if len(state.seniors[seat]) + seniors < SENIOR_CAP:  # BAS-SENIOR-CAP: beyond it, no point
                    seniors += 1
            else:
                bus[k] += 1
    riders = sum(bus) - state.bus_size(seat)
    return claim_potential(state, bus), seniors, -riders


def greedy_policy(state: BusAndStopState, rng: random.Random) -> int:
    """The greedy bot.

    * Turn (BAS-TURN): claim the drop-off worth the most points (in the final round, counting the
      +3 of an empty bus and the leftover penalty, BAS-SCORE-EMPTY); equal points: fewer passengers.
      Else pick up the colour whose passengers most raise :func:`claim_potential`, then the one with
      the most seniors, then the fewest passengers. In the final round a pick-up (``full_turn``) is
      made only for the seniors it banks when it costs no points; otherwise pass.
    * Choosing passengers to drop: for a single-type destination keep colours varied (drop the
      colour it has most of); for a multicoloured one drop, in each colour, the type it has fewest of.
    * Skedaddle (BAS-SKEDADDLE): when the best claim available now does not drop; the passenger whose
      loss keeps the potential highest. Otherwise decline.
    * Unhappy (BAS-UNHAPPY): discard one passenger, the one whose loss keeps the potential highest.

    Raises:
        ValueError: the state is terminal or a chance node.
    """
    kind = state.decision_kind()
    if kind is None:
        raise ValueError("a bot acts only at a decision node")
    return _GREEDY_BY_PHASE[kind](state, rng)


def _greedy_turn(state: BusAndStopState, rng: random.Random) -> int:
    """A turn: the best drop-off if any, else the best pick-up (or, in the final round, a pass)."""
    seat = state.current_player()
    moves = state.legal_moves(labelled=False)
    final = state.stage is Stage.FINAL
    drops = [m for m in moves if isinstance(m, DropOff)]
    if drops:
        return _pick_best([(_drop_value(state, seat, m, final), m.action) for m in drops], rng)
    picks = [m for m in moves if isinstance(m, PickUp)]
    if final:
        return _greedy_final_pick_up(state, seat, picks, rng)
    return _pick_best([(_pickup_gain(state, seat, m.colour), m.action) for m in picks], rng)


def _drop_value(state: BusAndStopState, seat: int, drop: DropOff, final: bool) -> tuple[int, int]:
    """(points the drop-off scores, minus its passengers); in the final round the points count the
    empty bus bonus or the leftover penalty it leads to (BAS-SCORE-EMPTY)."""
    value = state.top_card(drop.stack).points_for(drop.count)
    if final:
        left = state.bus_size(seat) - drop.count
        value += EMPTY_BUS_BONUS if left == 0 else (-left if state.penalty else 0)
    return value, -drop.count


def _greedy_final_pick_up(state: BusAndStopState, seat: int, picks: list[PickUp], rng: random.Random) -> int:
    """The final round's pick-up (``full_turn``): only for the seniors it banks net of what its
    riders cost at the end; otherwise pass."""
    options = []
    for move in picks:
        _pot, seniors, minus_riders = _pickup_gain(state, seat, move.colour)
        gain = seniors - _riders_cost(state, seat, -minus_riders)
        if gain > 0:
            options.append(((gain, minus_riders), move.action))
    return _pick_best(options, rng) if options else Pass().action


def _riders_cost(state: BusAndStopState, seat: int, riders: int) -> int:
    """End-of-game points that ``riders`` new passengers cost: the empty bus bonus they spoil and
    the leftover penalty they add (BAS-SCORE-EMPTY)."""
    if not riders:
        return 0
    cost = EMPTY_BUS_BONUS if state.bus_size(seat) == 0 else 0
    return cost + (riders if state.penalty else 0)


def _greedy_choose(state: BusAndStopState, rng: random.Random) -> int:
    """The next passenger of a drop-off: keep the bus's colours (or types) varied."""
    seat = state.current_player()
    sheet = state.sheet
    bus = state.bus[seat]
    stack = state.pending[0]  # type: ignore[index]
    kinds = [m.passenger for m in state.legal_moves(labelled=False) if isinstance(m, ChoosePassenger)]
    key: Callable[[int], tuple[int, int]]
    if sheet.stacks[stack].multicoloured:

        def key(k: int) -> tuple[int, int]:
            return -state.type_count(seat, sheet.type_of(k)), -bus[k]

    else:
        colour_load = {
            c: sum(bus[sheet.kind(c, t)] for t in range(len(sheet.types))) for c in range(len(sheet.colours))
        }

        def key(k: int) -> tuple[int, int]:
            return colour_load[sheet.colour_of(k)], bus[k]

    return _pick_best([(key(k), ChoosePassenger(k).action) for k in kinds], rng)


def _greedy_skedaddle(state: BusAndStopState, rng: random.Random) -> int:
    """Skedaddle when the best claim available now survives it, the passenger whose loss keeps the
    potential highest; otherwise decline."""
    bus = state.bus[state.current_player()]
    now = best_claim_now(state, bus)
    options = []
    for move in state.legal_moves(labelled=False):
        if not isinstance(move, Skedaddle):
            continue
        after = _without(bus, move.passenger)
        if best_claim_now(state, after) >= now:
            options.append((claim_potential(state, after), move.action))
    return _pick_best(options, rng) if options else NoSkedaddle().action


def _greedy_unhappy(state: BusAndStopState, rng: random.Random) -> int:
    """Discard one unhappy passenger (the one whose loss keeps the potential highest), then stop."""
    moves = state.legal_moves(labelled=False)
    if StopDiscarding() in moves:
        return StopDiscarding().action
    bus = state.bus[state.current_player()]
    options = [
        (claim_potential(state, _without(bus, m.passenger)), m.action)
        for m in moves
        if isinstance(m, UnhappyDiscard)
    ]
    return _pick_best(options, rng)


def _without(bus: list[int], kind: int) -> list[int]:
    """A copy of the passenger counts ``bus`` with one passenger of ``kind`` less."""
    after = list(bus)
    after[kind] -= 1
    return after


_GREEDY_BY_PHASE: dict[BusAndStopPhase, Callable[[BusAndStopState, random.Random], int]] = {
    BusAndStopPhase.TURN: _greedy_turn,
    BusAndStopPhase.CHOOSE: _greedy_choose,
    BusAndStopPhase.SKEDADDLE: _greedy_skedaddle,
    BusAndStopPhase.UNHAPPY: _greedy_unhappy,
}


greedy_policy.name = "greedy"  # type: ignore[attr-defined]
