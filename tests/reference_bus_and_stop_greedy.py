"""The greedy bot of Bus & Stop as first written, in one function: the reference that the greedy
bot of :mod:`bus_lab.games.bus_and_stop.policies` (split into named helpers) must match choice for
choice (``test_bus_and_stop_greedy.py``). Kept verbatim: it decodes the action ints itself."""

from __future__ import annotations

import random
from fractions import Fraction

from bus_lab.games.bus_and_stop.state import (
    CHOOSE_BASE,
    DROP_BASE,
    DROP_SPAN,
    EMPTY_BUS_BONUS,
    NO_SKEDADDLE,
    PASS,
    PICK_BASE,
    SENIOR_CAP,
    SKEDADDLE_BASE,
    UNHAPPY_BASE,
    UNHAPPY_DONE,
    BusAndStopState,
)


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


def _pick_best(options: list[tuple[object, int]], rng: random.Random) -> int:
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


def reference_greedy_policy(state: BusAndStopState, rng: random.Random) -> int:
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
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("a bot acts only at a decision node")
    legal = state.legal_actions()
    node = state.node
    seat = state.current_player()
    sheet = state.sheet
    bus = state.bus[seat]
    if node == "turn":
        drops = [a for a in legal if DROP_BASE <= a < PASS]
        final = state.stage == "final"
        if drops:
            options = []
            for a in drops:
                stack, count = divmod(a - DROP_BASE, DROP_SPAN)
                value = state.top_card(stack).points_for(count)
                if final:
                    left = state.bus_size(seat) - count
                    value += EMPTY_BUS_BONUS if left == 0 else (-left if state.penalty else 0)
                options.append(((value, -count), a))
            return _pick_best(options, rng)
        picks = [a for a in legal if PICK_BASE <= a < DROP_BASE]
        if final:
            options = []
            for a in picks:
                _pot, seniors, minus_riders = _pickup_gain(state, seat, a - PICK_BASE)
                cost = 0
                if -minus_riders:
                    cost = EMPTY_BUS_BONUS if state.bus_size(seat) == 0 else 0
                    cost += -minus_riders if state.penalty else 0
                if seniors - cost > 0:
                    options.append(((seniors - cost, minus_riders), a))
            return _pick_best(options, rng) if options else PASS
        options = [(_pickup_gain(state, seat, a - PICK_BASE), a) for a in picks]
        return _pick_best(options, rng)
    if node == "choose":
        stack = state.pending[0]  # type: ignore[index]
        kinds = [a - CHOOSE_BASE for a in legal]
        if sheet.stacks[stack].multicoloured:
            options = [((-state.type_count(seat, sheet.type_of(k)), -bus[k]), CHOOSE_BASE + k) for k in kinds]
        else:
            colour_load = {
                c: sum(bus[sheet.kind(c, t)] for t in range(len(sheet.types)))
                for c in range(len(sheet.colours))
            }
            options = [((colour_load[sheet.colour_of(k)], bus[k]), CHOOSE_BASE + k) for k in kinds]
        return _pick_best(options, rng)
    if node == "skedaddle":
        now = best_claim_now(state, bus)
        options = []
        for a in legal:
            if a == NO_SKEDADDLE:
                continue
            after = list(bus)
            after[a - SKEDADDLE_BASE] -= 1
            if best_claim_now(state, after) >= now:
                options.append((claim_potential(state, after), a))
        return _pick_best(options, rng) if options else NO_SKEDADDLE
    # unhappy: one passenger, then stop
    if UNHAPPY_DONE in legal:
        return UNHAPPY_DONE
    options = []
    for a in legal:
        after = list(bus)
        after[a - UNHAPPY_BASE] -= 1
        options.append((claim_potential(state, after), a))
    return _pick_best(options, rng)
