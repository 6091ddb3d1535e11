"""Bots for Busstop.

Each policy is ``policy(state, rng) -> action`` with ``rng`` a ``random.Random`` supplied by the
caller (a :class:`~bus_lab.engine.session.Session` derives it from its seed).

* ``random_policy``: any legal move.
* ``greedy_policy``: boards greedily (see :func:`placement_score`): fills buses, completes them
  when it can (BSB-BOARD-LEAVE), keeps passengers out of the queue (BSB-SCORE-QUEUE), lets the
  head of the queue board whenever a bus takes it (BSB-QUEUE-BOARD), takes the played tile that
  suits its buses best (BSB-ROUND-TAKE); bids a random tile.
* ``bidder_policy``: the same boarder with a simple bidding strategy (:func:`value_bid`): a low
  tile when one position on the zone is worth much more than the others, a high tile otherwise.

:func:`make_policy` builds the boarder with another bidding strategy (``"random"``,
``"lowest"``, ``"highest"``, ``"value"``) for comparisons such as those of the bidding lesson.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bus_lab.engine.policies import random_policy
from bus_lab.games.busstop.components import ET, VIP_BASE
from bus_lab.games.busstop.moves import QUEUE_DEST, ChooseTile, HeadBoards, PlacePassenger, TakeTile
from bus_lab.games.busstop.phases import BusstopPhase
from bus_lab.games.busstop.state import BusstopState

__all__ = [
    "random_policy",
    "greedy_policy",
    "bidder_policy",
    "make_policy",
    "placement_score",
    "passenger_value",
    "position_values",
    "value_bid",
    "BID_STRATEGIES",
    "GreedyPolicy",
]


def placement_score(state: BusstopState, who: int, cls: int, dest: int) -> float:
    """How good it is for ``who``'s board to put a passenger of class ``cls`` at ``dest`` now.

    ``dest`` 0-2 is a bus (which must accept it), ``QUEUE_DEST`` the queue. The score is a rough
    number of points: completing a bus scores what leaves with it plus 1 (BSB-BOARD-LEAVE,
    BSB-SCORE-PILE); joining a bus of its sort 0.5 plus how full the bus gets; starting an empty bus
    0.3 (smaller buses, which fill sooner, a little more); an ET (wild, BSB-BOARD-SORT) a little
    less than an ordinary passenger, so it is placed last; the queue -2, a VIP -6 (BSB-SCORE-QUEUE).
    """
    vip = VIP_BASE <= cls < ET
    if dest == QUEUE_DEST:
        return -6.0 if vip else -2.0
    board = state.boards[who]
    bus = board.buses[dest]
    seats = state.bus_seats[dest]
    after = len(bus) + 1
    if after == seats:
        gain = sum(_pile_points(t_cls) for t_cls in (state.token_class(t) for t in bus)) + _pile_points(cls)
        return gain + 1.0
    sort = state.bus_sort(who, dest)
    if sort is None and cls != ET:
        return 0.3 + 0.05 * (5 - seats) + (0.2 if vip else 0.0)
    if sort is None:  # an ET on an empty (or ET-only) bus
        return 0.1
    return 0.5 + after / seats - (0.05 if cls == ET else 0.0)


def _pile_points(cls: int) -> int:
    return 0 if cls == ET else 3 if cls >= VIP_BASE else 1


def passenger_value(state: BusstopState, who: int, cls: int) -> float:
    """What a passenger of class ``cls`` is worth to ``who`` now: its best placement on their board."""
    best = -6.0 if VIP_BASE <= cls < ET else -2.0
    for bus in range(3):
        if state.bus_accepts(who, bus, cls):
            best = max(best, placement_score(state, who, cls, bus))
    return best + (_pile_points(cls) if best > 0 else 0)


def position_values(state: BusstopState, who: int) -> list[float]:
    """The value to ``who`` of each position on the zone this round: the passengers its black icons
    take from the line-up (BSB-ROUND-TAKE) plus a white pick (worth more early, when there is more
    to choose from)."""
    zone = state.zone
    values = []
    n = zone.positions
    for i in range(n):
        v = sum(passenger_value(state, who, state.token_class(state.lineup[s])) for s in zone.black[i])
        if zone.white[i]:
            v += 1.0 * (n - i) / n
        values.append(v)
    return values


def position_chances(state: BusstopState, seat: int, tile: int) -> list[float]:
    """Chance of each zone position for ``seat`` if it plays ``tile`` (BSB-ROUND-ORDER), when every
    other player's tile is either known (face up, or already revealed) or uniform over the tiles
    they have not played yet. Ties go clockwise from the conductor."""
    n = state.participants
    rank = (seat - state.conductor) % n
    probs = [1.0]  # probs[k]: chance that k others go before me
    for other in range(n):
        if other == seat:
            continue
        ahead_on_tie = (other - state.conductor) % n < rank
        known = state.bids[other] if (other == state.conductor or other == state.proxy) else None
        tiles = [known] if known is not None else sorted(state.hands[other] | ({state.bids[other]} - {None}))
        before = sum(1 for t in tiles if t < tile or (t == tile and ahead_on_tie)) / len(tiles)
        probs = [a * (1 - before) + b * before for a, b in zip(probs + [0.0], [0.0] + probs)]
    return probs


#: How many points the bidder thinks a low tile is worth keeping for later rounds (see value_bid).
TILE_KEEP_VALUE = 1.5


def value_bid(state: BusstopState, rng: random.Random) -> int:
    """The bidder's tile: the one with the best expected position value (:func:`position_values`
    weighted by :func:`position_chances`) minus what it costs to spend it: a low tile is worth
    keeping for a later round, ``TILE_KEEP_VALUE`` times the share of my tiles above it
    (BSB-ROUND-BID, BSB-ROUND-ORDER: low tiles go first, each tile once)."""
    seat = state.current_player()
    hand = sorted(state.hands[seat])
    values = position_values(state, seat)
    rounds_left = len(hand) - 1
    best_score, best = None, []
    for i, tile in enumerate(hand):
        chances = position_chances(state, seat, tile)
        expected = sum(p * v for p, v in zip(chances, values))
        keep = TILE_KEEP_VALUE * (len(hand) - 1 - i) / rounds_left if rounds_left else 0.0
        score = expected - keep
        if best_score is None or score > best_score + 1e-9:
            best_score, best = score, [tile]
        elif abs(score - best_score) <= 1e-9:
            best.append(tile)
    return ChooseTile(best[rng.randrange(len(best))]).action


def _bid_random(state: BusstopState, rng: random.Random) -> int:
    legal = state.legal_actions()
    return legal[rng.randrange(len(legal))]


def _bid_lowest(state: BusstopState, rng: random.Random) -> int:
    return min(state.legal_actions())


def _bid_highest(state: BusstopState, rng: random.Random) -> int:
    return max(state.legal_actions())


#: Bidding strategies by name: ``state, rng -> bid action`` (BSB-ROUND-BID).
BID_STRATEGIES: dict[str, Callable[[BusstopState, random.Random], int]] = {
    "random": _bid_random,
    "lowest": _bid_lowest,
    "highest": _bid_highest,
    "value": value_bid,
}


def _pick_best(scored: list[tuple[float, int]], rng: random.Random) -> int:
    best = max(s for s, _ in scored)
    top = [a for s, a in scored if s >= best - 1e-9]
    return top[rng.randrange(len(top))]


def _greedy_move(state: BusstopState, rng: random.Random) -> int:
    """The greedy boarder's move at a white pick, a placement or a queue-boarding decision."""
    who = state.acting_participant()
    moves = state.legal_moves(labelled=False)
    kind = state.decision_kind()
    if kind is BusstopPhase.WHITE:
        scored = [
            (
                passenger_value(
                    state, who, state.token_class(state.tile_token(m.owner, state.bids[m.owner]))
                ),
                m.action,
            )
            for m in moves
            if isinstance(m, TakeTile)
        ]
        return _pick_best(scored, rng)
    if kind is BusstopPhase.PLACE:
        scored = [
            (placement_score(state, who, m.passenger_class, m.dest), m.action)
            for m in moves
            if isinstance(m, PlacePassenger)
        ]
        return _pick_best(scored, rng)
    # board: the head boards the best bus that takes it (always better than waiting at -2)
    cls = state.token_class(state.boards[who].queue[0])
    scored = [(placement_score(state, who, cls, m.bus), m.action) for m in moves if isinstance(m, HeadBoards)]
    return _pick_best(scored, rng) if scored else moves[-1].action  # stop boarding


@dataclass(frozen=True)
class GreedyPolicy:
    """The greedy boarder with the bidding strategy ``bid`` (a key of :data:`BID_STRATEGIES`).

    A module-level value (not a closure), so a session that uses it pickles.

    Attributes:
        bid (str): the bidding strategy.
        name (str): the policy's name (``"greedy_<bid>"`` unless given).
    """

    bid: str = "value"
    name: str = ""

    def __post_init__(self) -> None:
        if self.bid not in BID_STRATEGIES:
            raise ValueError(f"unknown bidding strategy {self.bid!r}: use one of {', '.join(BID_STRATEGIES)}")
        if not self.name:
            object.__setattr__(self, "name", f"greedy_{self.bid}")

    def __call__(self, state: BusstopState, rng: random.Random) -> int:
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("a bot acts only at a decision node")
        if state.decision_kind() is BusstopPhase.BID:
            return BID_STRATEGIES[self.bid](state, rng)
        return _greedy_move(state, rng)


def make_policy(bid: str = "value", name: str | None = None) -> GreedyPolicy:
    """The greedy boarder with the bidding strategy ``bid`` (a key of :data:`BID_STRATEGIES`).

    Args:
        bid (str): ``"random"``, ``"lowest"`` (always the lowest tile left), ``"highest"`` or
            ``"value"`` (:func:`value_bid`).
        name (str | None): the policy's ``name`` attribute (default ``"greedy_<bid>"``).

    Raises:
        ValueError: an unknown strategy (the message lists the known ones).
    """
    return GreedyPolicy(bid, name or "")


greedy_policy = make_policy("random", name="greedy")
bidder_policy = make_policy("value", name="bidder")
