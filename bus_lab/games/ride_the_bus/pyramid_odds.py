"""The pyramid of Ride the Bus (Part 2): exact expectations and distributions, and simulations.

What is computed (rules RTB-P-LAYOUT, RTB-P-FLIP, RTB-P-MATCH, RTB-P-POINTS, RTB-P-GIVE,
RTB-P-NOMATCH, RTB-B-RIDER):

* the expected number of points handed out during the pyramid, in total and by pyramid row;
* the expected number of cards played out of the rows, and of flips that match nobody (by flip);
* the distribution of how many cards the rider still holds when the pyramid is over (the rider is
  the player with the most cards left, so this is the largest number of cards left in any row);
* the points each seat has to hand out (as the giver) and the cards each seat keeps, on average.

Assumptions, stated once for every function here:

* The ten pyramid cards are turned up from the draw pile in order (RTB-P-FLIP: bottom row of four
  first, left to right). After Part 1 the draw pile is every card not in a row, so the ten cards
  are a uniformly random *ordered* draw, without replacement, from the cards nobody has seen.
  With 8 players 20 cards are left, so the pile never runs out during the pyramid.
* RTB-P-MATCH: a flip plays *every* card of its rank from *every* row at once, so a rank's cards
  all leave at its first appearance among the flips; a later flip of the same rank matches nobody
  (RTB-P-NOMATCH), as does a flip of a rank no row holds.
* RTB-P-POINTS: a card played on pyramid row ``k`` (1 = bottom) is worth ``k`` points with
  ``row_points="escalating"`` (the default) and 1 point with ``"flat"``. "Points handed out" is
  the sum over every card played (RTB-P-GIVE), whoever takes them: who *receives* them is each
  giver's choice (a bot policy), so it is not computed here.
* "Cards the rider still holds" is ``max`` over seats of the cards left in the row; the tie-breaks
  of RTB-B-RIDER (more points, then the earlier seat) choose *who* rides, not how many cards.
* Suits never matter: every figure depends only on how many cards of each rank each seat holds and
  how many of each rank are still unseen. Exact figures are :class:`fractions.Fraction`, computed
  with integer counts over the common denominator and memoised on that canonical key.

House rules (keywords ``pyramid_order`` and ``played_cards`` of :func:`pyramid_odds`,
:func:`pyramid_fresh_deck` and :func:`row_weights`; :func:`pyramid_odds_from_state` reads them from the
game): ``pyramid_order="top_down"`` flips the top card first, then the rows of 2, 3 and 4, each row
keeping its points (RTB-HR-FLIP); ``played_cards="stay"`` leaves played cards in their rows, so every
flip of a held rank plays all of that rank's cards again and the rows never change (RTB-HR-STAY):
each flip's figures then depend on that flip alone, the rider's cards are the longest row, and the
order of the flips changes only which flips carry which row's points. The simulations follow the base
rules only.

Simulations (numpy, imported only when a simulation runs) take a seed, use their own
``numpy.random.Generator`` and return :class:`~bus_lab.prob.montecarlo.Estimate` objects under the
same keys as :meth:`PyramidOdds.as_dict` (see :data:`FIGURES`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from bus_lab.games.ride_the_bus import cards as C
from bus_lab.games.ride_the_bus.state import PYRAMID_ROWS

__all__ = [
    "FIGURES",
    "FLIPS",
    "PyramidOdds",
    "row_weights",
    "flip_rows",
    "first_appearance",
    "pyramid_odds",
    "pyramid_odds_from_state",
    "pyramid_fresh_deck",
    "pyramid_over_deals",
    "simulate_pyramids",
    "engine_playouts",
]

#: Number of pyramid cards (RTB-P-LAYOUT: rows of 4, 3, 2 and 1).
FLIPS = sum(PYRAMID_ROWS)
#: Pyramid row (1 = bottom … 4 = top) of each flip, in flip order (RTB-P-FLIP).
FLIP_ROWS = tuple(row for row, size in enumerate(PYRAMID_ROWS, start=1) for _ in range(size))
#: Most cards a row can hold (four questions, RTB-Q-ORDER).
ROW_SIZE = 4
#: The figure names shared by the exact results (:meth:`PyramidOdds.as_dict`) and the simulations.
FIGURES = (
    ("points",)
    + tuple(f"points_row{k}" for k in range(1, 5))
    + ("cards_played", "no_match")
    + tuple(f"no_match_flip{i}" for i in range(1, FLIPS + 1))
    + ("rider_cards",)
    + tuple(f"rider_cards={k}" for k in range(ROW_SIZE + 1))
)
ROW_POINTS = ("escalating", "flat")
PYRAMID_ORDER = ("bottom_up", "top_down")
PLAYED_CARDS = ("leave", "stay")


def flip_rows(pyramid_order: str = "bottom_up") -> tuple[int, ...]:
    """Pyramid row (1 = bottom … 4 = top) of each flip, in flip order: :data:`FLIP_ROWS`, or
    ``(4, 3, 3, 2, 2, 2, 1, 1, 1, 1)`` when the top is flipped first (RTB-HR-FLIP).

    Raises:
        ValueError: another value of ``pyramid_order``.
    """
    if pyramid_order not in PYRAMID_ORDER:
        raise ValueError(
            f"pyramid_order={pyramid_order!r} is not allowed: use 'bottom_up' or 'top_down' (RTB-HR-FLIP)"
        )
    return FLIP_ROWS if pyramid_order == "bottom_up" else FLIP_ROWS[::-1]


def _check_played(played_cards: str) -> bool:
    """True when played cards stay in their rows (RTB-HR-STAY)."""
    if played_cards not in PLAYED_CARDS:
        raise ValueError(f"played_cards={played_cards!r} is not allowed: use 'leave' or 'stay' (RTB-HR-STAY)")
    return played_cards == "stay"


def row_weights(row_points: str = "escalating", pyramid_order: str = "bottom_up") -> tuple[int, ...]:
    """Points per card played at each of the ten flips, in flip order (RTB-P-POINTS).

    Args:
        row_points (str): ``"escalating"`` (rows worth 1, 2, 3, 4: ``(1, 1, 1, 1, 2, 2, 2, 3, 3, 4)``)
            or ``"flat"`` (1 point per card on every row).
        pyramid_order (str): ``"bottom_up"`` (default) or ``"top_down"`` (RTB-HR-FLIP: escalating
            weights are then ``(4, 3, 3, 2, 2, 2, 1, 1, 1, 1)``).

    Raises:
        ValueError: another value (the message names the allowed ones).
    """
    if row_points not in ROW_POINTS:
        raise ValueError(
            f"row_points={row_points!r} is not allowed: use 'escalating' or 'flat' (RTB-P-POINTS)"
        )
    return tuple(1 if row_points == "flat" else row for row in flip_rows(pyramid_order))


# -- counting ---------------------------------------------------------------------------------------
def _falling(n: int, k: int) -> int:
    """n (n-1) … (n-k+1): ordered ways to draw k of n cards (0 when k > n)."""
    if k > n:
        return 0
    return math.perm(n, k)


@cache
def _first_counts(pile: int, copies: int, draws: int) -> tuple[int, ...]:
    """Ordered draws of ``draws`` cards from ``pile`` whose first card of a rank with ``copies``
    cards in the pile comes at draw ``j`` (``j = 0 … draws - 1``); over ``pile!/(pile-draws)!``."""
    return tuple(
        _falling(pile - copies, j) * copies * _falling(pile - j - 1, draws - j - 1) for j in range(draws)
    )


def first_appearance(pile: int, copies: int, draws: int = FLIPS) -> tuple[Fraction, ...]:
    """Chance that the first card of a given rank comes at each draw.

    Args:
        pile (int): cards in the draw pile (after Part 1, 52 − 4 × players).
        copies (int): cards of that rank in the pile (0–4).
        draws (int): cards drawn in order (10 for a whole pyramid).

    Returns:
        ``draws`` Fractions: entry ``j`` is P(the first card of the rank is draw ``j + 1``). Their sum
        is P(the rank shows up at all) = 1 − C(pile − copies, draws) / C(pile, draws). For example
        ``first_appearance(36, 1, 2) == (1/36, 1/36)``.

    Raises:
        ValueError: counts out of range (negative, ``copies`` > ``pile`` or ``draws`` > ``pile``).
    """
    if not 0 <= copies <= min(pile, 4) or not 0 <= draws <= pile:
        raise ValueError(
            f"pile={pile}, copies={copies}, draws={draws}: need 0 <= copies <= min(pile, 4) "
            f"and 0 <= draws <= pile"
        )
    total = _falling(pile, draws)
    return tuple(Fraction(c, total) for c in _first_counts(pile, copies, draws))


# -- the exact result -------------------------------------------------------------------------------
@dataclass(frozen=True)
class PyramidOdds:
    """Exact figures of the pyramid given what is on the table (all Fractions).

    Attributes:
        players (int): seats at the table.
        pile (int): cards in the draw pile when the figures start (the unseen cards).
        start (int): flips already made (0 for a pyramid still face down; 10 when it is over).
        row_points (str): ``"escalating"`` or ``"flat"`` (RTB-P-POINTS).
        expected_points (Fraction): points handed out during the whole pyramid (RTB-P-GIVE),
            counting the flips already made at their actual value.
        expected_points_by_row (tuple[Fraction, ...]): the same split by pyramid row 1 (bottom) … 4.
        expected_cards_played (Fraction): cards played out of the rows during the whole pyramid.
        expected_no_match (Fraction): flips of the whole pyramid that match nobody (RTB-P-NOMATCH).
        no_match_by_flip (tuple[Fraction, ...]): P(flip ``i`` matches nobody), ``i`` = 1 … 10
            (0 or 1 for flips already made).
        rider_cards (dict[int, Fraction]): distribution of the cards the rider still holds after the
            pyramid, ``{k: P(max cards left = k)}`` for k = 0 … 4 (RTB-B-RIDER).
        expected_points_given_by_seat (tuple[Fraction, ...]): points each seat hands out (as the
            giver) during the pyramid, played cards × row points.
        expected_cards_left_by_seat (tuple[Fraction, ...]): cards each row still holds afterwards.
    """

    players: int
    pile: int
    start: int
    row_points: str
    expected_points: Fraction
    expected_points_by_row: tuple[Fraction, ...]
    expected_cards_played: Fraction
    expected_no_match: Fraction
    no_match_by_flip: tuple[Fraction, ...]
    rider_cards: dict[int, Fraction]
    expected_points_given_by_seat: tuple[Fraction, ...]
    expected_cards_left_by_seat: tuple[Fraction, ...]

    @property
    def expected_rider_cards(self) -> Fraction:
        """Mean of :attr:`rider_cards` (cards)."""
        return sum((k * p for k, p in self.rider_cards.items()), Fraction(0))

    def as_dict(self) -> dict[str, Fraction]:
        """The figures under the names of :data:`FIGURES` (``"points"``, ``"points_row1"`` …,
        ``"cards_played"``, ``"no_match"``, ``"no_match_flip1"`` …, ``"rider_cards"`` (the mean),
        ``"rider_cards=0"`` … ``"rider_cards=4"``), each a Fraction."""
        out: dict[str, Fraction] = {"points": self.expected_points}
        for k, value in enumerate(self.expected_points_by_row, start=1):
            out[f"points_row{k}"] = value
        out["cards_played"] = self.expected_cards_played
        out["no_match"] = self.expected_no_match
        for i, value in enumerate(self.no_match_by_flip, start=1):
            out[f"no_match_flip{i}"] = value
        out["rider_cards"] = self.expected_rider_cards
        for k in range(ROW_SIZE + 1):
            out[f"rider_cards={k}"] = self.rider_cards.get(k, Fraction(0))
        return out


def _parse_rows(rows: Sequence[Sequence[str | int]], min_players: int = 2) -> list[list[int]]:
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        raise ValueError("rows must be a list of rows, one per seat, each a list of card codes such as 'TD'")
    if not min_players <= len(rows) <= 8:
        raise ValueError(
            f"{len(rows)} rows given: the pyramid is played by 2 to 8 players, one row each "
            f"(RTB-SETUP-PLAYERS)"
        )
    parsed: list[list[int]] = []
    seen: set[int] = set()
    for seat, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise ValueError(f"row of seat {seat} must be a list of card codes, not {row!r}")
        if len(row) > ROW_SIZE:
            raise ValueError(
                f"row of seat {seat} has {len(row)} cards: a row holds at most {ROW_SIZE} (RTB-Q-ORDER)"
            )
        cards = []
        for item in row:
            card = C.parse_card(item) if isinstance(item, str) else item
            if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
                raise ValueError(
                    f"{item!r} in the row of seat {seat} is not a card (use a code such as 'TD')"
                )
            if card in seen:
                raise ValueError(f"{C.card_code(card)} appears twice: one deck has each card once")
            seen.add(card)
            cards.append(card)
        parsed.append(cards)
    return parsed


def _held(rows: list[list[int]]) -> list[tuple[int, ...]]:
    """Per rank 0–12: the tuple of cards of that rank in each seat's row."""
    n = len(rows)
    table = [[0] * n for _ in range(13)]
    for seat, row in enumerate(rows):
        for card in row:
            table[C.rank(card)][seat] += 1
    return [tuple(t) for t in table]


def pyramid_odds(
    rows: Sequence[Sequence[str | int]],
    row_points: str = "escalating",
    pyramid_order: str = "bottom_up",
    played_cards: str = "leave",
) -> PyramidOdds:
    """Exact pyramid figures for the rows after Part 1, before the first flip.

    Args:
        rows (list[list[str]]): each seat's row, in seat order, as card codes (``"TD"``) or card
            ints (0–51); 2–8 rows of at most 4 cards (after Part 1 each row has exactly 4).
        row_points (str): ``"escalating"`` (default) or ``"flat"`` (RTB-P-POINTS).
        pyramid_order (str): ``"bottom_up"`` (default) or ``"top_down"`` (RTB-HR-FLIP).
        played_cards (str): ``"leave"`` (default) or ``"stay"`` (RTB-HR-STAY).

    Returns:
        a :class:`PyramidOdds` with ``start=0``. Every card not in a row is unseen and equally likely
        to be any of the ten flips (see the module notes for every assumption). Example: two players
        who hold all four sevens and all four eights between them keep those eight cards, so the
        rider holds 4 cards with chance 1 and every flip matches nobody.

    Raises:
        ValueError: not 2–8 rows, a row of more than 4 cards, a bad card code, a card twice, or
            a bad ``row_points``.
    """
    parsed = _parse_rows(rows)
    weights = row_weights(row_points, pyramid_order)
    stay = _check_played(played_cards)
    held = _held(parsed)
    in_rows = {c for row in parsed for c in row}
    pile = [4 - sum(1 for c in in_rows if C.rank(c) == r) for r in range(13)]
    return _odds(
        len(parsed), row_points, weights, 0, tuple(pile), tuple(held), (), (), stay=stay, order=pyramid_order
    )


def pyramid_odds_from_state(state) -> PyramidOdds:
    """Exact pyramid figures at any point of Part 2 (or after it) of a real game.

    The flips already made count at their actual value; the flips still to come are a uniformly
    random ordered draw from the state's draw pile (every other card is face up on the table).

    Args:
        state: a ``RideTheBusState`` with the pyramid board in classic mode, in the pyramid or later
            (``phase`` ``"pyramid"``, ``"bus"`` or ``"over"``).

    Returns:
        a :class:`PyramidOdds` with ``start`` = flips whose matches are settled.

    Raises:
        ValueError: the game has no pyramid (Give & Take board or gauntlet), or Part 1 is not over
            (use :func:`pyramid_odds` for a what-if on rows).
    """
    params = state.get_game().params
    if params.get("board") != "pyramid" or params.get("mode") != "classic":
        raise ValueError("this game has no pyramid: pyramid odds need board='pyramid' and mode='classic'")
    if state.part == "questions":
        raise ValueError("Part 1 is not over yet: use pyramid_odds(rows) for a what-if on the rows")
    order = params.get("pyramid_order", "bottom_up")
    stay = _check_played(params.get("played_cards", "leave"))
    weights = row_weights(params["row_points"], order)
    positions = state.flip_order  # pyramid positions in flip order (RTB-P-FLIP, RTB-HR-FLIP)
    if state.part == "pyramid":
        start = state.pyramid_index + (0 if state.is_chance_node() else 1)
    else:
        start = FLIPS
    done_points = [0] * FLIPS
    done_no_match = [0] * FLIPS
    played = 0
    given = [0] * state.num_players
    index = -1
    for event in state.events():  # the flips already made, as the engine recorded them
        if event.rule == "RTB-P-FLIP":
            index = positions.index(event.data["index"])  # the flip's number, from its position
        elif event.rule == "RTB-P-MATCH":
            cards = len(event.data["cards"])
            done_points[index] += cards * weights[index]
            played += cards
            given[event.data["seat"]] += cards * weights[index]
        elif event.rule == "RTB-P-NOMATCH":
            done_no_match[index] = 1
    draw = sorted(state.draw)
    if len(draw) < FLIPS - start:  # cannot happen: 52 - 32 = 20 cards are left after Part 1
        raise ValueError("the draw pile is too small for the flips left")
    pile = [0] * 13
    for card in draw:
        pile[C.rank(card)] += 1
    held = _held([list(r) for r in state.rows])
    return _odds(
        state.num_players,
        params["row_points"],
        weights,
        start,
        tuple(pile),
        tuple(held),
        tuple(done_points[:start]),
        tuple(done_no_match[:start]),
        played,
        tuple(given),
        stay=stay,
        order=order,
    )


def _odds(
    players: int,
    row_points: str,
    weights: tuple[int, ...],
    start: int,
    pile: tuple[int, ...],
    held: tuple[tuple[int, ...], ...],
    done_points: tuple[int, ...],
    done_no_match: tuple[int, ...],
    played_so_far: int = 0,
    given_so_far: tuple[int, ...] | None = None,
    stay: bool = False,
    order: str = "bottom_up",
) -> PyramidOdds:
    size = sum(pile)
    # Canonical key: ranks are interchangeable, so sort the (unseen copies, per-seat counts) profile
    # of the ranks somebody holds; ranks nobody holds only matter through the pile size.
    profile = tuple(sorted((pile[r], held[r]) for r in range(13) if any(held[r])))
    core = (_core_stay if stay else _core)(players, size, start, weights, profile)
    points_by_flip = [Fraction(p) for p in done_points] + list(core["points_by_flip"])
    no_match = [Fraction(x) for x in done_no_match] + list(core["no_match_by_flip"])
    by_row = [Fraction(0)] * 4
    rows_of_flips = flip_rows(order)
    for i, value in enumerate(points_by_flip):
        by_row[rows_of_flips[i] - 1] += value
    given = given_so_far or (0,) * players
    return PyramidOdds(
        players=players,
        pile=size,
        start=start,
        row_points=row_points,
        expected_points=sum(points_by_flip, Fraction(0)),
        expected_points_by_row=tuple(by_row),
        expected_cards_played=played_so_far + core["cards_played"],
        expected_no_match=sum(no_match, Fraction(0)),
        no_match_by_flip=tuple(no_match),
        rider_cards=dict(core["rider_cards"]),
        expected_points_given_by_seat=tuple(g + f for g, f in zip(given, core["given_by_seat"])),
        expected_cards_left_by_seat=core["left_by_seat"],
    )


@lru_cache(maxsize=20_000)
def _core(
    players: int,
    size: int,
    start: int,
    weights: tuple[int, ...],
    profile: tuple[tuple[int, tuple[int, ...]], ...],
) -> dict[str, Any]:
    """Figures of the flips still to come, from the canonical key (see :func:`_odds`); the
    flips already made are added by the caller."""
    draws = FLIPS - start
    total = _falling(size, draws)
    points_num = [0] * draws
    match_num = [0] * draws
    played_num = 0
    given_num = [0] * players
    left = [Fraction(0)] * players
    never_total = math.comb(size, draws)
    for copies, seats in profile:
        counts = _first_counts(size, copies, draws)
        h = sum(seats)
        for j, c in enumerate(counts):
            points_num[j] += h * c * weights[start + j]
            match_num[j] += c
        shows = sum(counts)
        played_num += h * shows
        worth = sum(c * weights[start + j] for j, c in enumerate(counts))
        never = Fraction(math.comb(size - copies, draws), never_total)
        for seat, k in enumerate(seats):
            if k:
                given_num[seat] += k * worth
                left[seat] += k * never
    return {
        "points_by_flip": tuple(Fraction(x, total) for x in points_num),
        "no_match_by_flip": tuple(1 - Fraction(x, total) for x in match_num),
        "cards_played": Fraction(played_num, total),
        "given_by_seat": tuple(Fraction(x, total) for x in given_num),
        "left_by_seat": tuple(left),
        "rider_cards": _rider_distribution(players, size, draws, profile),
    }


@lru_cache(maxsize=2_000)
def _core_stay(
    players: int,
    size: int,
    start: int,
    weights: tuple[int, ...],
    profile: tuple[tuple[int, tuple[int, ...]], ...],
) -> dict[str, Any]:
    """:func:`_core` when played cards stay in their rows (RTB-HR-STAY): the rows never change, so
    each flip still to come is any card of the pile, equally likely (its rank ``r`` with chance
    ``pile[r] / size``), and plays every card of rank ``r`` in the rows."""
    draws = FLIPS - start
    match = Fraction(sum(copies for copies, _ in profile), size)
    cards = Fraction(sum(copies * sum(seats) for copies, seats in profile), size)
    given = [Fraction(sum(copies * seats[s] for copies, seats in profile), size) for s in range(players)]
    left = tuple(Fraction(sum(seats[s] for _, seats in profile)) for s in range(players))
    worth = sum(weights[start:], 0)
    return {
        "points_by_flip": tuple(cards * weights[start + j] for j in range(draws)),
        "no_match_by_flip": (1 - match,) * draws,
        "cards_played": cards * draws,
        "given_by_seat": tuple(g * worth for g in given),
        "left_by_seat": left,
        "rider_cards": {k: Fraction(1 if k == max(left, default=0) else 0) for k in range(ROW_SIZE + 1)},
    }


#: The rider programme's states: (running maximum of folded seats, cards left per unfolded seat) ->
#: polynomial counting the ways of using ``a`` flips on the ranks decided so far.
_RiderStates = dict[tuple[int, tuple[int, ...]], list[int]]


def _rider_distribution(
    players: int, size: int, draws: int, profile: tuple[tuple[int, tuple[int, ...]], ...]
) -> dict[int, Fraction]:
    """Exact distribution of max cards left over seats after ``draws`` more flips.

    Counts unordered sets of ``draws`` cards from the pile (all equally likely). A held rank with
    ``u`` unseen copies shows up (its cards leave every row) in ``sum_{k>=1} C(u, k)`` ways of
    picking ``k`` of its copies; the other cards of the pile (ranks nobody holds) fill the rest.
    A dynamic programme over the held ranks carries, per outcome so far, a polynomial counting
    the cards used; a seat whose ranks are all decided is folded into a running maximum, which
    keeps the number of distinct states small.
    """
    live, last_use, states = _rider_start(players, draws, profile)
    other = size - sum(u for u, _ in live)
    for i, (u, seats) in enumerate(live):
        finished = [s for s, last in last_use.items() if last == i]
        states = _next_rank(states, u, seats, finished, draws)
    dist = [0] * (ROW_SIZE + 1)
    for (fmax, _), poly in states.items():
        dist[fmax] += sum(c * math.comb(other, draws - a) for a, c in enumerate(poly) if c)
    total = math.comb(size, draws)
    return {k: Fraction(c, total) for k, c in enumerate(dist)}


def _rider_start(
    players: int, draws: int, profile: tuple[tuple[int, tuple[int, ...]], ...]
) -> tuple[list[tuple[int, tuple[int, ...]]], dict[int, int], _RiderStates]:
    """The ranks that can still show (those of low seats first, so seats are finished and folded
    early), the last of them each seat holds, and the programme's first state: seats holding none
    of them already folded into the running maximum."""
    held = [sum(seats[s] for _, seats in profile) for s in range(players)]
    live = sorted(
        ((u, seats) for u, seats in profile if u > 0 and draws > 0), key=lambda item: _holders(item[1])
    )
    last_use = {s: i for i, (_, seats) in enumerate(live) for s, k in enumerate(seats) if k}
    folded_max = max((held[s] for s in range(players) if s not in last_use), default=0)
    start_rem = tuple(held[s] if s in last_use else 0 for s in range(players))
    return live, last_use, {(folded_max, start_rem): [1] + [0] * draws}


def _holders(seats: tuple[int, ...]) -> tuple[int, int]:
    """The last and the first seat holding cards of a rank (the order ranks are decided in)."""
    holding = [s for s, k in enumerate(seats) if k]
    return max(holding), min(holding)


def _next_rank(
    states: _RiderStates, u: int, seats: tuple[int, ...], finished: list[int], draws: int
) -> _RiderStates:
    """One step of :func:`_rider_distribution`: decide whether the next held rank (``u`` unseen
    copies, ``seats`` its cards per seat) shows among the flips, then fold the seats it finishes.

    ``states`` maps (running maximum of folded seats, cards left per unfolded seat) to a polynomial:
    entry ``a`` counts the ways of using ``a`` flips on the ranks decided so far."""
    ways_to_show = [0] + [math.comb(u, k) for k in range(1, u + 1)]  # k of its u copies flipped
    new: _RiderStates = {}
    for (fmax, rem), poly in states.items():
        # the rank never shows: its cards stay in the rows
        _add_poly(new, _fold(fmax, list(rem), finished), poly)
        # the rank shows: its cards leave every row, and k >= 1 of its copies use flips
        shown = [0] * (draws + 1)
        for a, ca in enumerate(poly):
            if ca:
                for k in range(1, min(u, draws - a) + 1):
                    shown[a + k] += ca * ways_to_show[k]
        if any(shown):
            _add_poly(new, _fold(fmax, [a - b for a, b in zip(rem, seats)], finished), shown)
    return new


def _fold(fmax: int, rem: list[int], finished: list[int]) -> tuple[int, tuple[int, ...]]:
    """Fold the ``finished`` seats' cards left into the running maximum (their places become 0)."""
    for s in finished:
        fmax = max(fmax, rem[s])
        rem[s] = 0
    return fmax, tuple(rem)


def _add_poly(states: _RiderStates, key: tuple[int, tuple[int, ...]], poly: list[int]) -> None:
    """Add the counting polynomial ``poly`` to ``states[key]`` (a copy when the key is new)."""
    acc = states.get(key)
    if acc is None:
        states[key] = list(poly)
    else:
        for a, c in enumerate(poly):
            acc[a] += c


# -- averaged over Part 1 deals, exactly ------------------------------------------------------------
def pyramid_fresh_deck(
    players: int,
    row_points: str = "escalating",
    pyramid_order: str = "bottom_up",
    played_cards: str = "leave",
) -> dict[str, Fraction]:
    """Exact pyramid figures averaged over every Part 1 deal (a fresh shuffled deck).

    Args:
        players (int): 2–8 (RTB-SETUP-PLAYERS).
        row_points (str): ``"escalating"`` or ``"flat"`` (RTB-P-POINTS).
        pyramid_order (str): ``"bottom_up"`` (default) or ``"top_down"`` (RTB-HR-FLIP).
        played_cards (str): ``"leave"`` (default) or ``"stay"`` (RTB-HR-STAY: every flip is then
            like the first, the earlier flips having taken no card from the rows).

    Returns:
        ``{figure: Fraction}`` for ``"points"``, ``"points_row1"`` … ``"points_row4"``,
        ``"cards_played"``, ``"no_match"`` and ``"no_match_flip1"`` … ``"no_match_flip10"`` (the
        keys of :data:`FIGURES` except the rider's cards, whose distribution over deals is only
        simulated: :func:`pyramid_over_deals`).

        Derivation: the card at flip ``j`` (0-based) is one of the 52 cards; the other three cards
        of its rank sit in 3 of the other 51 places, uniformly: ``h`` of them in the rows
        (``4 × players`` places), none among the ``j`` earlier flips, the rest elsewhere. The flip
        matches when ``h >= 1`` and hands out ``h × weight`` points.

    Raises:
        ValueError: players outside 2–8 or a bad ``row_points``.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise ValueError(f"players={players!r}: use an integer from 2 to 8 (RTB-SETUP-PLAYERS)")
    weights = row_weights(row_points, pyramid_order)
    stay = _check_played(played_cards)
    in_rows = ROW_SIZE * players
    ways = math.comb(51, 3)
    out: dict[str, Fraction] = {}
    points_by_flip = []
    played = Fraction(0)
    no_match = []
    for j in range(FLIPS):
        rest = 51 - in_rows - (0 if stay else j)
        match = Fraction(0)
        cards = Fraction(0)
        for h in range(1, 4):
            p = Fraction(math.comb(in_rows, h) * math.comb(rest, 3 - h), ways)
            match += p
            cards += h * p
        points_by_flip.append(cards * weights[j])
        played += cards
        no_match.append(1 - match)
    out["points"] = sum(points_by_flip, Fraction(0))
    for k in range(1, 5):
        out[f"points_row{k}"] = sum(
            (v for v, row in zip(points_by_flip, flip_rows(pyramid_order)) if row == k), Fraction(0)
        )
    out["cards_played"] = played
    out["no_match"] = sum(no_match, Fraction(0))
    for i, value in enumerate(no_match, start=1):
        out[f"no_match_flip{i}"] = value
    return out


# -- simulation ----------------------------------------------------------------------------------
def _check_run(n: int, seed: int, name: str = "n") -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise ValueError(f"{name}={n!r}: use an integer of at least 2")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed={seed!r}: use a non-negative integer")


def pyramid_over_deals(
    players: int, n_deals: int, seed: int = 0, row_points: str = "escalating", progress: bool = False
) -> dict[str, Any]:
    """Pyramid figures over random Part 1 deals: exact given the rows, averaged over simulated deals.

    Each of ``n_deals`` seeded deals shuffles a fresh deck and gives every seat four cards (the rows
    after Part 1 do not depend on the guesses, RTB-Q-ORDER); :func:`pyramid_odds` then gives the
    exact figures for those rows, and their average over the deals estimates the figure over all
    deals. Averaging exact conditional values has a smaller standard error than simulating whole
    pyramids (the flips' randomness is already integrated out).

    Args:
        players (int): 2–8.
        n_deals (int): deals to average (at least 2; a few thousand take a few seconds).
        seed (int): seed of the ``numpy.random.Generator`` that shuffles the deals.
        row_points (str): ``"escalating"`` or ``"flat"``.
        progress (bool): show a progress bar.

    Returns:
        ``{figure: Estimate}`` for every name in :data:`FIGURES` (mean, standard error over deals, n).

    Raises:
        ValueError: bad players, ``n_deals`` < 2, a negative seed or a bad ``row_points``.
    """
    from bus_lab.prob.montecarlo import Moments, run_batches

    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise ValueError(f"players={players!r}: use an integer from 2 to 8 (RTB-SETUP-PLAYERS)")
    _check_run(n_deals, seed, "n_deals")
    row_weights(row_points)
    acc = Moments(FIGURES)

    def one_deal(rng, start: int, size: int) -> None:  # size is 1: a deal at a time
        deck = rng.permutation(52)[: ROW_SIZE * players]
        rows = [[int(c) for c in deck[s * ROW_SIZE : (s + 1) * ROW_SIZE]] for s in range(players)]
        figures = pyramid_odds(rows, row_points).as_dict()
        acc.add({k: float(v) for k, v in figures.items()}, 1)

    run_batches(one_deal, n_deals, 1, seed, progress, "deals")
    return acc.estimates()


def simulate_pyramids(
    rows: Sequence[Sequence[str | int]] | None = None,
    n: int = 100_000,
    seed: int = 0,
    row_points: str = "escalating",
    players: int | None = None,
    batch: int = 10_000,
    progress: bool = False,
) -> dict[str, Any]:
    """Plain vectorised simulation of whole pyramids (numpy), no exact arithmetic.

    Each trial shuffles the cards nobody has seen, turns up ten of them in order and applies the
    rules directly: a flip matches when its rank is in some row and has not been flipped before;
    its matching cards are worth the row's points; the rider's cards are the most cards left in
    any row (RTB-P-FLIP, RTB-P-MATCH, RTB-P-POINTS, RTB-P-NOMATCH, RTB-B-RIDER).

    Args:
        rows (list[list[str]] | None): the rows after Part 1 (as for :func:`pyramid_odds`); ``None``
            deals fresh random rows in every trial (then give ``players``).
        n (int): trials (at least 2).
        seed (int): seed of the ``numpy.random.Generator``.
        row_points (str): ``"escalating"`` or ``"flat"``.
        players (int | None): seats when ``rows`` is ``None`` (2–8); ignored otherwise.
        batch (int): trials per vectorised batch (memory ≈ batch × 1 kB; the figures are the same
            whatever the batch, as the batches draw from one generator in turn).
        progress (bool): show a progress bar.

    Returns:
        ``{figure: Estimate}`` for every name in :data:`FIGURES`.

    Raises:
        ValueError: bad rows, players, n, seed, batch or row_points.
    """
    import numpy as np

    from bus_lab.prob.montecarlo import Moments, run_batches

    _check_run(n, seed)
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise ValueError(f"batch={batch!r}: use a positive integer")
    weights = np.array(row_weights(row_points))
    if rows is None:
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
            raise ValueError(f"players={players!r}: with rows=None give players, an integer from 2 to 8")
        fixed = None
        n_seats = players
    else:
        parsed = _parse_rows(rows)
        n_seats = len(parsed)
        held = np.zeros((n_seats, 13), dtype=np.int64)
        for s, row in enumerate(parsed):
            for c in row:
                held[s, C.rank(c)] += 1
        in_rows = {c for row in parsed for c in row}
        pile_ranks = np.array([c // 4 for c in range(52) if c not in in_rows])
        fixed = (held, pile_ranks)
    earlier = np.tril(np.ones((FLIPS, FLIPS), dtype=bool), k=-1)  # earlier[j, t]: t < j
    acc = Moments(FIGURES)

    def play(rng, start: int, size: int) -> None:
        if fixed is None:
            order = np.argsort(rng.random((size, 52)), axis=1)
            ranks = order // 4
            row_ranks = ranks[:, : ROW_SIZE * n_seats].reshape(size, n_seats, ROW_SIZE)
            held_b = (row_ranks[..., None] == np.arange(13)).sum(axis=2)  # (size, seats, 13)
            flips = ranks[:, ROW_SIZE * n_seats : ROW_SIZE * n_seats + FLIPS]
        else:
            held, pile_ranks = fixed
            order = np.argsort(rng.random((size, pile_ranks.size)), axis=1)[:, :FLIPS]
            flips = pile_ranks[order]
            held_b = np.broadcast_to(held, (size,) + held.shape)
        totals = held_b.sum(axis=1)  # (size, 13) cards of each rank in the rows
        same = flips[:, :, None] == flips[:, None, :]
        first = ~(same & earlier).any(axis=2)
        h = np.take_along_axis(totals, flips, axis=1)
        matched = first & (h > 0)
        pts = np.where(matched, h, 0) * weights
        values: dict[str, Any] = {"points": pts.sum(axis=1)}
        for k in range(1, 5):
            values[f"points_row{k}"] = pts[:, np.array(FLIP_ROWS) == k].sum(axis=1)
        values["cards_played"] = np.where(matched, h, 0).sum(axis=1)
        values["no_match"] = (~matched).sum(axis=1)
        for i in range(FLIPS):
            values[f"no_match_flip{i + 1}"] = ~matched[:, i]
        shown = np.zeros((size, 13), dtype=bool)
        shown[np.arange(size)[:, None], flips] = True
        left = (held_b * ~shown[:, None, :]).sum(axis=2)  # (size, seats)
        rider = left.max(axis=1)
        values["rider_cards"] = rider
        for k in range(ROW_SIZE + 1):
            values[f"rider_cards={k}"] = rider == k
        acc.add(values, size)

    run_batches(play, n, batch, seed, progress, "pyramids")
    return acc.estimates()


def engine_playouts(
    rows: Sequence[Sequence[str | int]],
    n: int = 2_000,
    seed: int = 0,
    row_points: str = "escalating",
    progress: bool = False,
    pyramid_order: str = "bottom_up",
    played_cards: str = "leave",
) -> dict[str, Any]:
    """Pyramid figures measured on the step-through engine (slow; a check of everything above).

    Each playout is a :class:`~bus_lab.engine.session.Session` with random bots whose scripted deck
    deals exactly ``rows`` in Part 1 (round by round, in seat order, RTB-Q-ORDER); the ten pyramid
    cards come from the playout's seed (:func:`bus_lab.prob.montecarlo.game_seed` of ``seed`` and the
    playout's index). It stops when the bus starts and reads the figures off the engine: points
    from the score ledger (RTB-P-GIVE), per row from the ``RTB-P-MATCH`` events, no-match flips
    from the ``RTB-P-NOMATCH`` events and the rider's cards from the rows (RTB-B-RIDER).

    Args:
        rows (list[list[str]]): 2–8 rows of exactly 4 cards each.
        n (int): playouts (at least 2; roughly 500–1,000 per second).
        seed (int): master seed.
        row_points (str): ``"escalating"`` or ``"flat"``.
        progress (bool): show a progress bar.
        pyramid_order (str): ``"bottom_up"`` (default) or ``"top_down"`` (RTB-HR-FLIP); the
            no-match figures are by flip, in flip order.
        played_cards (str): ``"leave"`` (default) or ``"stay"`` (RTB-HR-STAY).

    Returns:
        ``{figure: Estimate}`` for every name in :data:`FIGURES`.

    Raises:
        ValueError: bad rows (or a row without exactly 4 cards), n, seed or row_points.
    """
    from bus_lab.engine.registry import load_game
    from bus_lab.engine.session import Session
    from bus_lab.prob.montecarlo import Moments, game_seed, run_batches

    parsed = _parse_rows(rows)
    if any(len(r) != ROW_SIZE for r in parsed):
        raise ValueError("engine playouts need rows of exactly 4 cards (the rows after Part 1)")
    _check_run(n, seed)
    row_weights(row_points, pyramid_order)  # checks both
    _check_played(played_cards)
    game = load_game(
        "ride_the_bus",
        players=len(parsed),
        row_points=row_points,
        pyramid_order=pyramid_order,
        played_cards=played_cards,
    )
    positions = game.new_initial_state().flip_order  # pyramid positions in flip order
    deck = [C.card_code(parsed[s][k]) for k in range(ROW_SIZE) for s in range(len(parsed))]
    acc = Moments(FIGURES)

    def playout(rng, i: int, size: int) -> None:  # size is 1; the seeds come from game_seed, not rng
        session = Session(game, seed=game_seed(seed, i), bots="random", deck=deck)
        while session.state.part in ("questions", "pyramid"):
            session.step()
        state = session.state
        values: dict[str, Any] = {
            "points": sum(
                line["points"]
                for s in range(len(parsed))
                for line in state.score_breakdown(s)
                if line["rule"] == "RTB-P-GIVE"
            ),
        }
        by_row = [0] * 4
        no_match = [0] * FLIPS
        played = 0
        index = row = -1
        for event in state.events():
            if event.rule == "RTB-P-FLIP":
                index = positions.index(event.data["index"])  # the flip's number
                row = event.data["row"]
            elif event.rule == "RTB-P-MATCH":
                played += len(event.data["cards"])
                by_row[row - 1] += len(event.data["cards"]) * (1 if row_points == "flat" else row)
            elif event.rule == "RTB-P-NOMATCH":
                no_match[index] = 1
        for k in range(4):
            values[f"points_row{k + 1}"] = by_row[k]
        values["cards_played"] = played
        values["no_match"] = sum(no_match)
        for j in range(FLIPS):
            values[f"no_match_flip{j + 1}"] = no_match[j]
        rider = max(len(r) for r in state.rows)
        values["rider_cards"] = rider
        for k in range(ROW_SIZE + 1):
            values[f"rider_cards={k}"] = int(rider == k)
        acc.add(values, 1)

    run_batches(playout, n, 1, seed, progress, "playouts")
    return acc.estimates()
