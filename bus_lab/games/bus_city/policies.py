"""Bots for BUS (the city grid game).

Each policy is ``policy(state, rng) -> action`` with ``rng`` a ``random.Random`` supplied by the
caller (a :class:`~bus_lab.engine.session.Session` derives it from its seed).

* ``random_policy``: any legal action, uniformly.
* ``greedy_policy`` ("greedy router"): shortest paths on the grid graph (:data:`.grid.ENTER`)
  to deliver the most points per turn. It reads only what every player sees (the grid, the
  face-up cards, the progress areas; the deck's make-up follows from the sheet and the cards
  seen).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

from bus_lab.engine.policies import random_policy
from bus_lab.games.bus_city import grid as G
from bus_lab.games.bus_city.moves import DrawBlind, Drive, Pass, PlaceBus, SwapCards, TakeCard, TurnCard
from bus_lab.games.bus_city.phases import BusCityPhase
from bus_lab.games.bus_city.state import MAX_IN_PROGRESS, BusCityState

__all__ = ["random_policy", "greedy_policy", "targets", "tour_steps", "card_rate", "plan_value"]

#: Speed assumed for planning when no card limits the bus.
OPEN_ROAD = 5


def targets(state: BusCityState, colour: str, slots: Sequence | None = None) -> list[int]:
    """The nodes where entering drops off a ``colour`` passenger: each heading on each
    ``colour`` destination, only the right-hand side's heading in challenging play (BUS-DROPOFF,
    BUS-CH-SIDE).

    Args:
        state: the game; slots: an alternative layout (``[card, side]`` per slot) to evaluate.
    """
    slots = state.slots if slots is None else slots
    out = []
    for slot, placed in enumerate(slots):
        card = state.sheet.streets[placed[0]]
        if card.symbol == "destination" and card.colour == colour:
            for h in (0, 1):
                if not state.challenging or placed[1] == G.SLOTS[slot].right_side(h):
                    out.append(G.node(slot, h))
    return out


def stop_nodes(state: BusCityState, slots: Sequence | None = None) -> list[int]:
    """The nodes on which a bus may pick up (bus stops, usable side only in challenging play)."""
    slots = state.slots if slots is None else slots
    out = []
    for slot, placed in enumerate(slots):
        if state.sheet.streets[placed[0]].symbol == "stop":
            for h in (0, 1):
                if not state.challenging or placed[1] == G.SLOTS[slot].right_side(h):
                    out.append(G.node(slot, h))
    return out


def tour_steps(state: BusCityState, start: int, colours: Iterable[str], slots: Sequence | None = None) -> int:
    """The fewest steps from node ``start`` that enter a destination of every colour in
    ``colours`` (one or two colours, either order).

    Returns:
        steps (0 for no colour).
    """
    colours = list(colours)
    if not colours:
        return 0
    if len(colours) == 1:
        return min(G.ENTER[start][t] for t in targets(state, colours[0], slots))
    a, b = colours[0], colours[1]
    ta, tb = targets(state, a, slots), targets(state, b, slots)
    best = math.inf
    for first, second in ((ta, tb), (tb, ta)):
        for t1 in first:
            d1 = G.ENTER[start][t1]
            for t2 in second:
                best = min(best, d1 + G.ENTER[t1][t2])
    return int(best)


def card_rate(value: int, steps: int, speed: int) -> float:
    """Points per turn of delivering a card worth ``value`` that needs ``steps`` more steps at
    ``speed`` steps per turn (at least one turn)."""
    return value / max(1, math.ceil(steps / max(1, speed)))


def plan_value(
    state: BusCityState, cards: Sequence[tuple[int, Sequence[str]]], start: int, slots: Sequence | None = None
) -> float:
    """How good a set of cards in progress is from node ``start``: the sum of each card's points
    per turn (:func:`card_rate`), all at the set's speed limit (the lowest speed, BUS-SPEED).

    Args:
        cards: ``(card index, colours still to drop)`` pairs.
    """
    if not cards:
        return 0.0
    speed = min(state.sheet.passengers[c].speed for c, _ in cards)
    return sum(
        card_rate(state.sheet.passengers[c].value, tour_steps(state, start, left, slots), speed)
        for c, left in cards
    )


def _held(state: BusCityState, seat: int) -> list[tuple[int, list[str]]]:
    out = []
    for card, dropped in state.held[seat]:
        left = [c for c in state.sheet.passengers[card].colours if not dropped & state._colour_bits[c]]
        out.append((card, left))
    return out


def _unseen(state: BusCityState) -> list[int]:
    seen = set(state.faceup)
    for s in range(state.num_players):
        seen |= {c for c, _ in state.held[s]} | set(state.complete[s])
    return [c for c in range(len(state.sheet.passengers)) if c not in seen]


def _pick(scored: list[tuple[float, int]], rng: random.Random) -> int:
    best = max(score for score, _ in scored)
    top = sorted(a for score, a in scored if score >= best - 1e-9)
    return top[rng.randrange(len(top))]


def _pickup_choices(state: BusCityState, seat: int, at: int) -> list[tuple[float, int]]:
    held = _held(state, seat)
    scored = []
    for move in state.legal_moves(labelled=False):
        action = move.action
        if isinstance(move, Pass):
            scored.append((plan_value(state, held, at), action))
        elif isinstance(move, DrawBlind):
            pool = _unseen(state)
            avg = sum(
                plan_value(state, held + [(c, list(state.sheet.passengers[c].colours))], at) for c in pool
            ) / len(pool)
            scored.append((avg, action))
        else:
            assert isinstance(move, TakeCard)
            card = move.card
            scored.append(
                (plan_value(state, held + [(card, list(state.sheet.passengers[card].colours))], at), action)
            )
    return scored


def _move_score(state: BusCityState, seat: int, move: Drive) -> float:
    end, mask = move.node, move.drop_mask
    bits = state._colour_bits
    points = drops = 0
    left_cards = []
    for card, dropped in state.held[seat]:
        p = state.sheet.passengers[card]
        now = dropped | (state._card_bits[card] & mask)
        drops += bin(now & ~dropped).count("1")
        if now == state._card_bits[card]:
            points += p.value
        else:
            left_cards.append((card, [c for c in p.colours if not now & bits[c]]))
    score = 1000.0 * points + 100.0 * drops
    score += 10.0 * plan_value(state, left_cards, end)
    if left_cards:
        score -= min(tour_steps(state, end, left[:1]) for _, left in left_cards)
    can_take = len(left_cards) < MAX_IN_PROGRESS and state.supply() > 0
    if can_take:
        stops = stop_nodes(state)
        if end in stops:
            score += 30.0 if not left_cards else 8.0
        elif not left_cards:
            score -= 3.0 * min(G.ENTER[end][t] for t in stops)
    return score


def _construction_choices(state: BusCityState, seat: int) -> list[tuple[float, int]]:
    held = _held(state, seat)
    at = state.buses[seat]
    scored = []
    for move in state.legal_moves(labelled=False):
        if isinstance(move, Pass):
            scored.append((plan_value(state, held, at) + 1e-6, move.action))  # pass unless it really helps
            continue
        slots = [list(s) for s in state.slots]
        if isinstance(move, TurnCard):
            slots[move.slot][1] ^= 1
        else:
            assert isinstance(move, SwapCards)
            i, j = move.first, move.second
            slots[i], slots[j] = [slots[j][0], move.first_side], [slots[i][0], move.second_side]
        scored.append((plan_value(state, held, at, slots), move.action))
    return scored


def greedy_policy(state: BusCityState, rng: random.Random) -> int:
    """The greedy router: shortest paths to deliver the most points per turn.

    * Move (BUS-MOVE): the outcome that completes the most points now, then drops off the most
      passengers, then leaves the bus closest (in steps, :data:`.grid.ENTER`) to its remaining
      drop-offs; with room for a card it likes ending on a bus stop (BUS-PICKUP).
    * Pick-up (BUS-PICKUP, BUS-START): the face-up card, blind draw (averaged over the cards not
      seen) or pass that gives the most points per turn for everything in progress at the new
      speed limit (:func:`plan_value`).
    * Start (BUS-START): the bus stop and heading from which the best first card is quickest.
    * Construction (BUS-CONSTRUCTION, BUS-CH-ROTATE): the swap or turn that most improves its own
      plan; pass when none does.

    Ties are split with ``rng``.

    Raises:
        ValueError: the state is terminal or a chance node.
    """
    if state.is_terminal() or state.is_chance_node():
        raise ValueError("a bot acts only at a decision node")
    seat = state.current_player()
    kind = state.decision_kind()
    if kind is BusCityPhase.MOVE:
        return _pick(
            [(_move_score(state, seat, m), m.action) for m in state.legal_moves(labelled=False)], rng
        )  # type: ignore[arg-type]
    if kind in (BusCityPhase.PICKUP, BusCityPhase.START_PICK):
        return _pick(_pickup_choices(state, seat, state.buses[seat]), rng)
    if kind is BusCityPhase.PLACE:
        pool = _unseen(state)
        scored = []
        for move in state.legal_moves(labelled=False):
            assert isinstance(move, PlaceBus)
            action, at = move.action, move.node
            best = max(
                (plan_value(state, [(c, list(state.sheet.passengers[c].colours))], at) for c in state.faceup),
                default=0.0,
            )
            blind = (
                sum(plan_value(state, [(c, list(state.sheet.passengers[c].colours))], at) for c in pool)
                / len(pool)
                if pool
                else 0.0
            )
            scored.append((max(best, blind), action))
        return _pick(scored, rng)
    if kind is BusCityPhase.CONSTRUCTION:
        return _pick(_construction_choices(state, seat), rng)
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


greedy_policy.name = "greedy"  # type: ignore[attr-defined]
