"""The pyramid's numbers (``bus_lab.games.ride_the_bus.pyramid_odds``): exact figures checked against
hand counts, a brute-force enumeration that applies the rules flip by flip, independent formulas, a plain numpy
simulation of 100,000+ pyramids and playouts on the step-through engine.

Rules: RTB-P-LAYOUT, RTB-P-FLIP, RTB-P-MATCH, RTB-P-POINTS, RTB-P-GIVE, RTB-P-NOMATCH, RTB-B-RIDER.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import permutations

import pytest

from bus_lab import Session, load_game
from bus_lab.games.ride_the_bus.pyramid_odds import (
    FIGURES,
    engine_playouts,
    first_appearance,
    pyramid_fresh_deck,
    pyramid_odds,
    pyramid_odds_from_state,
    pyramid_over_deals,
    row_weights,
    simulate_pyramids,
)

RANKS = "23456789TJQKA"
ALL_CODES = [r + s for r in RANKS for s in "CDHS"]
ESCALATING = [1, 1, 1, 1, 2, 2, 2, 3, 3, 4]  # RTB-P-LAYOUT rows of 4, 3, 2, 1; RTB-P-POINTS


def rank(code: str) -> int:
    return RANKS.index(code[0])


def brute_force(rows: list[list[str]], flipped: list[str], pile: list[str], weights: list[int]) -> dict:
    """Every figure by playing out every ordered completion of the pyramid with the rules written
    out again: a flip plays every card of its rank still in any row (RTB-P-MATCH), each worth the
    flip's row points (RTB-P-POINTS); otherwise it matches nobody (RTB-P-NOMATCH); the rider holds
    the most cards left (RTB-B-RIDER)."""
    sums = {k: Fraction(0) for k in FIGURES}
    completions = list(permutations(pile, 10 - len(flipped)))
    p = Fraction(1, len(completions))
    for rest in completions:
        left = [list(row) for row in rows]
        points = [0] * 10
        no_match = [0] * 10
        played = 0
        for j, card in enumerate(flipped + list(rest)):
            hits = sum(1 for row in left for c in row if rank(c) == rank(card))
            if hits:
                left = [[c for c in row if rank(c) != rank(card)] for row in left]
                points[j] = hits * weights[j]
                played += hits
            else:
                no_match[j] = 1
        rider = max(len(row) for row in left)
        figures = {
            "points": sum(points),
            "cards_played": played,
            "no_match": sum(no_match),
            "rider_cards": rider,
        }
        for k, (a, b) in enumerate([(0, 4), (4, 7), (7, 9), (9, 10)], start=1):
            figures[f"points_row{k}"] = sum(points[a:b])
        for j in range(10):
            figures[f"no_match_flip{j + 1}"] = no_match[j]
        for k in range(5):
            figures[f"rider_cards={k}"] = int(rider == k)
        for k in FIGURES:
            sums[k] += p * figures[k]
    return sums


def deal_order(rows: list[list[str]]) -> list[str]:
    """Part 1 deals round by round, in seat order (RTB-Q-ORDER)."""
    return [rows[s][k] for k in range(4) for s in range(len(rows))]


def state_after(rows: list[list[str]], flips: list[str], row_points: str = "escalating", seed: int = 0):
    """An engine state with these rows after Part 1 and these pyramid cards already turned up, at the
    next flip (random bots make the guesses and hand out the points)."""
    game = load_game("ride_the_bus", players=len(rows), row_points=row_points)
    session = Session(game, seed=seed, bots="random", deck=deal_order(rows) + flips)
    while not (
        session.state.part != "questions"
        and session.state.is_chance_node()
        and session.state.pyramid_index == len(flips)
    ):
        assert session.step() is not None
    return session.state


EIGHT_ROWS = [
    ["4S", "6H", "4D", "JH"],
    ["QS", "8S", "AD", "JC"],
    ["AH", "AS", "AC", "8D"],
    ["QC", "TC", "9C", "9S"],
    ["6D", "7D", "5H", "7C"],
    ["6S", "3C", "2H", "8H"],
    ["5C", "TH", "3D", "4C"],
    ["5D", "KD", "JD", "2C"],
]
EIGHT_FLIPS = ["TS", "3H", "8C", "QH", "9H", "7S", "3S"]
TWO_ROWS = [["7H", "KS", "7S", "4C"], ["9D", "4D", "2H", "2C"]]
FOUR_ROWS = [
    ["7H", "KS", "7S", "4C"],
    ["9D", "4D", "2H", "2C"],
    ["AS", "AD", "QC", "3H"],
    ["5C", "6D", "8H", "JS"],
]


# -- by hand ---------------------------------------------------------------------------------------
def test_row_weights():
    """RTB-P-POINTS: rows of 4, 3, 2, 1 cards worth 1, 2, 3, 4 points per card; flat: 1 everywhere."""
    assert row_weights() == tuple(ESCALATING)
    assert row_weights("flat") == (1,) * 10
    with pytest.raises(ValueError, match="'escalating' or 'flat'"):
        row_weights("steep")


def test_first_appearance_by_hand():
    """The first of 3 unseen kings among 44 cards comes at flip j+1 with chance
    (41/44)(40/43)… × 3/(44-j); all together 1 − C(41,10)/C(44,10)."""
    got = first_appearance(44, 3)
    for j in range(10):
        none_before = math.prod(Fraction(41 - t, 44 - t) for t in range(j))
        assert got[j] == none_before * Fraction(3, 44 - j)
    assert sum(got) == 1 - Fraction(math.comb(41, 10), math.comb(44, 10))
    assert first_appearance(36, 1, 2) == (Fraction(1, 36), Fraction(1, 36))
    assert first_appearance(20, 0) == (0,) * 10
    with pytest.raises(ValueError):
        first_appearance(10, 5)


def test_a_hand_counted_table():
    """Seat 0 holds three sevens and a king, seat 1 all four twos. One seven (7S) and three kings are
    unseen among 44 cards; no two is, so seat 1 keeps four cards and rides with 4 for sure."""
    rows = [["7C", "7D", "7H", "KS"], ["2C", "2D", "2H", "2S"]]
    odds = pyramid_odds(rows)
    seven_shows = Fraction(10, 44)  # 7S is any of the ten flips, 1/44 each
    king_never = Fraction(math.comb(41, 10), math.comb(44, 10))
    king_points = sum(
        math.prod(Fraction(41 - t, 44 - t) for t in range(j)) * Fraction(3, 44 - j) * ESCALATING[j]
        for j in range(10)
    )
    sevens_points = 3 * Fraction(sum(ESCALATING), 44)  # three sevens at the 7S's row points
    assert odds.expected_points == sevens_points + king_points
    assert odds.expected_cards_played == 3 * seven_shows + (1 - king_never)
    assert odds.expected_no_match == 10 - seven_shows - (1 - king_never)
    assert odds.rider_cards == {0: 0, 1: 0, 2: 0, 3: 0, 4: 1}
    assert odds.expected_points_given_by_seat == (sevens_points + king_points, 0)
    assert odds.expected_cards_left_by_seat == (3 * (1 - seven_shows) + king_never, 4)
    assert odds.pile == 44 and odds.start == 0 and odds.players == 2
    flat = pyramid_odds(rows, row_points="flat")
    assert flat.expected_points == flat.expected_cards_played == odds.expected_cards_played
    assert all(type(v) is Fraction for v in odds.as_dict().values())


def test_rows_are_canonical_up_to_suits_and_rank_names():
    """Only how many cards of each rank each seat holds matters: swapping suits, or renaming ranks
    consistently, changes nothing."""
    base = pyramid_odds(TWO_ROWS)
    suits = pyramid_odds([["7C", "KD", "7D", "4S"], ["9H", "4H", "2D", "2S"]])
    rename = {"7": "8", "8": "7", "K": "A", "A": "K", "2": "3", "3": "2"}
    renamed = pyramid_odds([[rename.get(c[0], c[0]) + c[1] for c in row] for row in TWO_ROWS])
    assert base == suits == renamed


# -- brute force -----------------------------------------------------------------------------------
@pytest.mark.parametrize("row_points", ["escalating", "flat"])
def test_mid_pyramid_odds_match_brute_force(row_points):
    """8 players, 7 pyramid cards turned up, 13 cards left in the pile: every figure equals the
    average over all 13 × 12 × 11 orders of the last three flips, played out by the rules."""
    state = state_after(EIGHT_ROWS, EIGHT_FLIPS, row_points)
    odds = pyramid_odds_from_state(state)
    pile = [c for c in ALL_CODES if c not in {c for row in EIGHT_ROWS for c in row} | set(EIGHT_FLIPS)]
    assert odds.start == 7 and odds.pile == len(pile) == 13
    expected = brute_force(EIGHT_ROWS, EIGHT_FLIPS, pile, list(row_weights(row_points)))
    assert odds.as_dict() == expected


def test_state_odds_right_after_part_one_equal_the_rows_odds():
    """Right after Part 1 (no flip yet) the state's figures are those of its rows: the draw pile is
    exactly the cards not in any row."""
    state = state_after(EIGHT_ROWS, [])
    assert state.part == "pyramid" and state.pyramid_index == 0
    assert pyramid_odds_from_state(state) == pyramid_odds(EIGHT_ROWS)
    assert pyramid_odds_from_state(state_after(TWO_ROWS, [], "flat")) == pyramid_odds(TWO_ROWS, "flat")


def test_state_odds_while_points_are_being_handed_out():
    """At a hand-over (RTB-P-GIVE) the flip is settled: the figures are those after the hand-over,
    and the first flip's two sevens count as 2 points of row 1 for seat 0 (RTB-P-MATCH)."""
    game = load_game("ride_the_bus", players=2)
    session = Session(game, seed=1, bots="random", deck=deal_order(TWO_ROWS) + ["7C"])
    while not (session.state.part == "pyramid" and not session.state.is_chance_node()):
        session.step()
    giving = pyramid_odds_from_state(session.state)
    while not session.state.is_chance_node():
        session.step()
    after = pyramid_odds_from_state(session.state)
    assert giving == after and giving.start == 1
    assert giving.no_match_by_flip[0] == 0
    # the rest by hand: 9 flips from the 43 unseen cards; held ranks K (1 card, 3 unseen), 4 (2, 2),
    # 9 (1, 3) and 2 (2, 2); each card is played at its rank's first flip, at that row's points
    future = sum(
        held * sum(p * w for p, w in zip(first_appearance(43, unseen, 9), ESCALATING[1:]))
        for held, unseen in [(1, 3), (2, 2), (1, 3), (2, 2)]
    )
    assert giving.expected_points == 2 + future
    assert giving.expected_points_by_row[0] == 2 + sum(
        held * sum(first_appearance(43, unseen, 9)[:3]) for held, unseen in [(1, 3), (2, 2), (1, 3), (2, 2)]
    )
    assert giving.expected_cards_played == 2 + sum(
        held * sum(first_appearance(43, unseen, 9)) for held, unseen in [(1, 3), (2, 2), (1, 3), (2, 2)]
    )


def test_odds_after_the_pyramid_are_the_facts():
    """Once the bus has started nothing is left to chance: points, no-match flips and the rider's
    cards are what happened (read off the engine's ledger and rows)."""
    game = load_game("ride_the_bus", players=4)
    session = Session(game, seed=5, bots="random", deck=deal_order(FOUR_ROWS))
    while session.state.part != "bus":
        session.step()
    state = session.state
    odds = pyramid_odds_from_state(state)
    ledger_points = sum(
        line["points"] for s in range(4) for line in state.score_breakdown(s) if line["rule"] == "RTB-P-GIVE"
    )
    no_match = sum(1 for e in state.events() if e.rule == "RTB-P-NOMATCH")
    left = max(len(row) for row in state.rows)
    assert odds.start == 10
    assert odds.expected_points == ledger_points
    assert odds.expected_no_match == no_match
    assert odds.rider_cards[left] == 1
    assert sum(odds.expected_points_given_by_seat) == ledger_points
    assert list(odds.expected_cards_left_by_seat) == [len(r) for r in state.rows]


# -- independent formulas over all deals ------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4, 8])
def test_fresh_deck_against_rank_by_rank_counting(players):
    """Over all deals, count rank by rank: the four cards of a rank sit in 4 of the 52 places, ``a``
    in the rows (4 × players places), ``b`` among the ten flips. The rank gives one matching flip
    when a ≥ 1 and b ≥ 1, so E[matching flips] = 13 × P(a ≥ 1, b ≥ 1). For points, follow one card in
    a row: its three rank-mates sit among the other 51 places; ``u`` of them in the pile; the card is
    played at the first of them to be flipped."""
    got = pyramid_fresh_deck(players)
    rows = 4 * players
    pile = 52 - rows
    p_match = sum(
        Fraction(
            math.comb(rows, a) * math.comb(10, b) * math.comb(52 - rows - 10, 4 - a - b), math.comb(52, 4)
        )
        for a in range(1, 5)
        for b in range(1, 5)
        if a + b <= 4
    )
    assert got["no_match"] == 10 - 13 * p_match
    points = Fraction(0)
    played = Fraction(0)
    for u in range(4):
        p_u = Fraction(math.comb(3, u) * math.comb(48, pile - u), math.comb(51, pile))
        shows = 1 - Fraction(math.comb(pile - u, 10), math.comb(pile, 10))
        at = [
            math.prod(Fraction(pile - u - t, pile - t) for t in range(j)) * Fraction(u, pile - j)
            for j in range(10)
        ]
        points += rows * p_u * sum(a * w for a, w in zip(at, ESCALATING))
        played += rows * p_u * shows
    assert got["points"] == points
    assert got["cards_played"] == played
    assert sum(got[f"points_row{k}"] for k in range(1, 5)) == got["points"]
    assert sum(got[f"no_match_flip{j}"] for j in range(1, 11)) == got["no_match"]
    flat = pyramid_fresh_deck(players, "flat")
    assert flat["points"] == flat["cards_played"] == played


# -- simulations -------------------------------------------------------------------------------------
def agree(estimates: dict, exact: dict, n: int) -> list[str]:
    """Figures whose estimate is more than 3 standard errors from the exact value. Probabilities
    with fewer than 10 expected occurrences in ``n`` trials are left out (the normal
    approximation behind "3 standard errors" does not hold there)."""
    bad = []
    for key, value in exact.items():
        rare = key.startswith(("rider_cards=", "no_match_flip")) and min(value, 1 - value) * n < 10
        if not rare and not estimates[key].agrees_with(value, 3):
            bad.append(f"{key}: exact {float(value):.4f}, simulated {estimates[key]}")
    return bad


def test_plain_simulation_of_100000_pyramids_agrees_with_exact():
    """A vectorised numpy simulation of 100,000 pyramids for fixed rows: every figure within 3 SE."""
    for rows, row_points in ((FOUR_ROWS, "escalating"), (EIGHT_ROWS, "flat")):
        exact = pyramid_odds(rows, row_points).as_dict()
        sim = simulate_pyramids(rows, n=100_000, seed=11, row_points=row_points)
        assert sim["points"].n == 100_000
        assert agree(sim, exact, 100_000) == []


def test_deals_agree_with_the_exact_fresh_deck_figures():
    """Exact given the rows, averaged over 400 seeded deals; and a plain simulation of 100,000 deals
    and pyramids: both agree with the exact over-all-deals figures within 3 SE, and with each other
    on the rider's cards (which have no exact over-all-deals figure)."""
    exact = pyramid_fresh_deck(4)
    averaged = pyramid_over_deals(4, 400, seed=3)
    plain = simulate_pyramids(None, n=100_000, seed=4, players=4)
    assert agree(averaged, exact, 400) == []
    assert agree(plain, exact, 100_000) == []
    for k in ["rider_cards"] + [f"rider_cards={j}" for j in (2, 3, 4)]:
        a, b = averaged[k], plain[k]
        assert abs(a.mean - b.mean) <= 3 * math.hypot(a.stderr, b.stderr), (k, str(a), str(b))
    # averaging exact values removes the flips' randomness: a far smaller spread per sample
    assert averaged["points"].stderr * math.sqrt(400) < plain["points"].stderr * math.sqrt(100_000) / 2


def test_engine_playouts_agree_with_exact():
    """2,000 games on the step-through engine (scripted Part 1 rows, seeded pyramids): the points
    handed out, cards played, no-match flips and rider's cards agree with the exact figures within
    3 SE."""
    exact = pyramid_odds(TWO_ROWS).as_dict()
    playouts = engine_playouts(TWO_ROWS, n=2_000, seed=0)
    assert playouts["points"].n == 2_000
    assert agree(playouts, exact, 2_000) == []


def test_same_seed_same_estimates():
    a = simulate_pyramids(TWO_ROWS, n=1_000, seed=9, batch=300)
    b = simulate_pyramids(TWO_ROWS, n=1_000, seed=9, batch=300)
    c = simulate_pyramids(TWO_ROWS, n=1_000, seed=10, batch=300)
    assert a == b and a != c


# -- errors ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "rows, message",
    [
        ([["7H", "KS", "7S", "4C"]], "2 to 8 players"),
        ([["7H"]] * 9, "2 to 8 players"),
        ([["7H", "KS", "7S", "4C", "5C"], ["2C"]], "at most 4"),
        ([["7H", "KS"], ["7H"]], "twice"),
        ([["7H", "1X"], ["2C"]], "not a card code"),
        ("7H KS", "list of rows"),
    ],
)
def test_bad_rows(rows, message):
    with pytest.raises(ValueError, match=message):
        pyramid_odds(rows)


def test_bad_arguments():
    with pytest.raises(ValueError, match="'escalating' or 'flat'"):
        pyramid_odds(TWO_ROWS, row_points="double")
    with pytest.raises(ValueError, match="from 2 to 8"):
        pyramid_fresh_deck(9)
    with pytest.raises(ValueError, match="at least 2"):
        simulate_pyramids(TWO_ROWS, n=1)
    with pytest.raises(ValueError, match="give players"):
        simulate_pyramids(None, n=10)
    with pytest.raises(ValueError, match="non-negative"):
        pyramid_over_deals(2, 10, seed=-1)
    with pytest.raises(ValueError, match="exactly 4"):
        engine_playouts([["7H"], ["KS"]], n=2)


def test_from_state_needs_a_pyramid():
    with pytest.raises(ValueError, match="no pyramid"):
        pyramid_odds_from_state(
            load_game("ride_the_bus", players=2, board="give_and_take").new_initial_state()
        )
    with pytest.raises(ValueError, match="Part 1 is not over"):
        pyramid_odds_from_state(load_game("ride_the_bus", players=2).new_initial_state())
