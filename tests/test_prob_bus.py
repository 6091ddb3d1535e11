"""Getting off the bus (bus_lab.games.ride_the_bus.bus_odds, re-exported by bus_lab.prob): exact chains,
finite-deck simulation, the gauntlet.

Rules: RTB-B-RIDER, RTB-B-FLIP, RTB-B-GUESS, RTB-B-STREAK, RTB-B-END, RTB-DECK-EMPTY, RTB-DISCARD,
RTB-QB-ORDER, RTB-QB-COMPARE, RTB-QB-MISS, RTB-QB-END, RTB-SG-RIDE, RTB-SG-RIDES, RTB-SG-WIN.

Every exact value is checked against a computation written here independently (direct sums over
rank sequences, plain Fraction recursions that enumerate the 52 cards with the engine's own
``judge``), every simulation against the exact value within 3 standard errors, and the
finite-deck simulation against the engine itself: card-by-card replays of simulated buses, and
whole games played by ``best_odds`` bots.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import pytest

import bus_lab
from bus_lab.engine.errors import ParameterError
from bus_lab.engine.session import Session
from bus_lab.games.ride_the_bus import (
    BLACK,
    CLUBS,
    HIGHER,
    INSIDE,
    LOWER,
    OUTSIDE,
    RED,
    judge,
    parse_card,
)
from bus_lab.games.ride_the_bus import bus_odds as B
from bus_lab.games.ride_the_bus.odds import guess_odds
from bus_lab.games.ride_the_bus.phases import RideTheBusPhase

RANKS = range(13)


# ------------------------------------------------------------------------------------------
# independent references (with replacement)
# ------------------------------------------------------------------------------------------
def best_hits(r):
    """Ranks that the likelier call (higher when more ranks are above) hits from rank r."""
    above = [x for x in RANKS if x > r]
    below = [x for x in RANKS if x < r]
    return above if len(above) >= len(below) else below


def streak_from_first_card(streak):
    """P(the first `streak` guesses are all hits): a direct sum over rank sequences, done as a
    vector of 'ways to be at rank r after j hits' (each rank 1/13, RTB-B-GUESS)."""
    ways = {r: Fraction(1, 13) for r in RANKS}  # the flipped card (RTB-B-FLIP)
    for _ in range(streak):
        nxt = {r: Fraction(0) for r in RANKS}
        for r, p in ways.items():
            for r2 in best_hits(r):
                nxt[r2] += p / 13
        ways = nxt
    return sum(ways.values())


@cache
def ref_bus(streak, left, s, r):
    """(P(off), E[guesses], E[misses]) from streak s, rank r, `left` guesses left: a plain
    Fraction recursion (RTB-B-STREAK, RTB-B-END)."""
    if left == 0:
        return Fraction(0), Fraction(0), Fraction(0)
    off = guesses = misses = Fraction(0)
    hits = set(best_hits(r))
    for r2 in RANKS:
        if r2 in hits:
            if s + 1 == streak:
                o, g, m = Fraction(1), Fraction(0), Fraction(0)
            else:
                o, g, m = ref_bus(streak, left - 1, s + 1, r2)
        else:
            o, g, m = ref_bus(streak, left - 1, 0, r2)
            m += 1
        off += o / 13
        guesses += (1 + g) / 13
        misses += m / 13
    return off, guesses, misses


def ref_bus_start(streak, max_guesses):
    parts = [ref_bus(streak, max_guesses, 0, r) for r in RANKS]
    return tuple(sum((p[i] for p in parts), Fraction(0)) / 13 for i in range(3))


ALL_CARDS = list(range(52))


def best_qb_guess(question, run):
    """The likeliest answer to a questions-bus question, counting all 52 cards (with
    replacement) with the engine's `judge` (RTB-QB-COMPARE)."""
    guesses = {1: (RED, BLACK), 2: (HIGHER, LOWER), 3: (INSIDE, OUTSIDE), 4: tuple(range(CLUBS, CLUBS + 4))}
    return max(guesses[question], key=lambda g: sum(judge(g, c, run) for c in ALL_CARDS))


@cache
def ref_qb(left, run_ranks):
    """P(off the questions bus within `left` guesses) from a run with these ranks; cards drawn
    with replacement from the 52, each judged by the engine (RTB-QB-ORDER, RTB-QB-MISS)."""
    if len(run_ranks) == 4:
        return Fraction(1)
    if left == 0:
        return Fraction(0)
    run = [4 * r for r in run_ranks]  # one card of each rank stands for the run
    guess = best_qb_guess(len(run_ranks) + 1, run)
    total = Fraction(0)
    for card in ALL_CARDS:
        if judge(guess, card, run):
            # only ranks matter later (Q2, Q3 compare ranks; Q4 asks the suit of a new card)
            nxt = run_ranks + (card // 4,)
            if len(nxt) == 3:
                nxt = (0, 0, 0)  # Q4 asks only the suit of a new card: the ranks no longer matter
            total += ref_qb(left - 1, nxt)
        else:
            total += ref_qb(left - 1, ())
    return total / 52


@cache
def ref_gauntlet(streak, rides_left, s, r):
    """P(a lone rider wins) with `rides_left` rides (this one included), streak s, card of rank
    r to beat (RTB-SG-RIDE, RTB-SG-RIDES, RTB-SG-WIN)."""
    p = Fraction(0)
    hits = set(best_hits(r))
    for r2 in RANKS:
        if r2 in hits:
            p += 1 if s + 1 == streak else ref_gauntlet(streak, rides_left, s + 1, r2)
        elif rides_left > 1:
            p += ref_gauntlet(streak, rides_left - 1, 0, r2)  # the missed card is the next to beat
    return p / 13


# ------------------------------------------------------------------------------------------
# the higher/lower bus, exact with replacement
# ------------------------------------------------------------------------------------------
def test_one_guess_one_hit_by_hand():
    # RTB-B-GUESS: from rank r the likelier side has max(r, 12 - r) of 13 ranks; a tie loses.
    by_hand = Fraction(sum(max(r, 12 - r) for r in RANKS), 169)
    assert by_hand == Fraction(120, 169)
    assert B.bus_off_chance(1, 1) == by_hand


@pytest.mark.parametrize("streak", range(1, 8))
def test_shortest_ride_is_a_direct_sum_over_ranks(streak):
    # RTB-B-END with max_guesses == streak: every guess must hit, from the first card on.
    assert B.bus_off_chance(streak, streak) == streak_from_first_card(streak)
    dist = B.guesses_distribution(streak, 40)
    assert dist[streak] == streak_from_first_card(streak)
    assert all(dist[k] == 0 for k in range(1, streak))


@pytest.mark.parametrize("streak", [3, 5, 7])
def test_forty_guesses_match_a_plain_recursion(streak):
    off, guesses, misses = ref_bus_start(streak, 40)
    assert B.bus_off_chance(streak, 40) == off
    assert B.expected_guesses(streak, 40) == guesses
    assert B.expected_bus_points(streak, 40) == misses  # one point per miss (RTB-B-STREAK)


def test_distribution_adds_up_and_has_the_expected_mean():
    dist = B.guesses_distribution(5, 40)
    assert sorted(dist) == list(range(1, 41))
    assert sum(dist.values()) == 1
    assert all(p >= 0 for p in dist.values())
    assert sum(k * p for k, p in dist.items()) == B.expected_guesses(5, 40)
    # the chance of needing all 40 guesses includes being stopped by the limit (RTB-B-END)
    assert dist[40] >= 1 - B.bus_off_chance(5, 40)


def test_monotone_in_streak_and_in_the_limit():
    chances = [B.bus_off_chance(t) for t in range(3, 8)]
    assert all(a > b for a, b in zip(chances, chances[1:]))
    guesses = [B.expected_guesses(t) for t in range(3, 8)]
    assert all(a < b for a, b in zip(guesses, guesses[1:]))
    points = [B.expected_bus_points(t) for t in range(3, 8)]
    assert all(a < b for a, b in zip(points, points[1:]))
    by_limit = [B.bus_off_chance(5, g) for g in range(5, 41)]
    assert all(a < b for a, b in zip(by_limit, by_limit[1:]))
    assert B.bus_off_chance(5, 40) < 1


@pytest.mark.parametrize("streak", [3, 5, 7])
def test_the_likelier_call_is_also_the_optimal_call(streak):
    # A chain that tries both calls everywhere cannot beat best play, with replacement.
    assert B.bus_off_chance(streak, 40, policy="optimal") == B.bus_off_chance(streak, 40)


def test_exact_chain_is_fast():
    import time

    B._hl_chain.cache_clear()
    start = time.perf_counter()
    B.bus_off_chance(5, 40)
    B.expected_guesses(5, 40)
    B.expected_bus_points(5, 40)
    assert time.perf_counter() - start < 0.5


# ------------------------------------------------------------------------------------------
# the finite deck, exact for the shortest rides
# ------------------------------------------------------------------------------------------
def finite_streak_by_enumeration(streak):
    """P(`streak` hits in a row from the first card) on a fresh deck without replacement:
    enumerate the unseen cards one by one, best play counting them, a fair coin on equal
    counts (as the best_odds bot). Only ranks matter for higher/lower, so the cards seen are
    remembered by rank."""

    @cache
    def go(seen, beat, s):  # seen: sorted ranks of the cards seen; beat: rank to beat
        if s == streak:
            return Fraction(1)
        unseen = [x for x in RANKS for _ in range(4 - seen.count(x))]  # one entry per card
        up = [x for x in unseen if x > beat]
        down = [x for x in unseen if x < beat]
        sides = [up] if len(up) > len(down) else [down] if len(down) > len(up) else [up, down]
        total = Fraction(0)
        for side in sides:
            for x in side:  # a hit; a miss would leave no guess to spare
                total += Fraction(1, len(unseen)) * go(tuple(sorted(seen + (x,))), x, s + 1)
        return total / len(sides)

    return sum((Fraction(1, 52) * go((c // 4,), c // 4, 0) for c in ALL_CARDS), Fraction(0))


@pytest.mark.parametrize("streak", [1, 2, 3])
def test_finite_deck_shortest_ride_by_enumeration(streak):
    assert B.bus_off_chance(streak, streak, replacement=False) == finite_streak_by_enumeration(streak)


def test_finite_deck_one_guess_by_hand():
    # streak 1 within 1 guess on a fresh deck: from rank r, 51 unseen cards, 4 * max(r, 12 - r)
    # on the likelier side (RTB-B-GUESS).
    by_hand = sum(Fraction(4, 52) * Fraction(4 * max(r, 12 - r), 51) for r in RANKS)
    assert B.bus_off_chance(1, 1, replacement=False) == by_hand
    # counting cards helps: better than with replacement
    assert B.bus_off_chance(5, 5, replacement=False) > B.bus_off_chance(5, 5)


def test_finite_exact_refuses_long_rides():
    with pytest.raises(ParameterError, match="simulate_bus"):
        B.bus_off_chance(5, 40, replacement=False)
    with pytest.raises(ParameterError):
        B.bus_off_chance(5, 5, replacement=False, policy="optimal")


# ------------------------------------------------------------------------------------------
# simulation against the exact values (>= 100,000 buses, within 3 standard errors)
# ------------------------------------------------------------------------------------------
def test_simulation_with_replacement_matches_the_chain():
    sim = B.simulate_bus(150_000, 5, seed=11, replacement=True)
    assert sim.n == 150_000
    assert sim.off.agrees_with(B.bus_off_chance(5, 40))
    assert sim.guesses.agrees_with(B.expected_guesses(5, 40))
    assert sim.points.agrees_with(B.expected_bus_points(5, 40))
    assert sim.reshuffled.mean == 0
    # the histogram: P(exactly 5 guesses) within 3 SE
    p5 = B.guesses_distribution(5, 40)[5]
    share = sim.guess_counts[5] / sim.n
    assert abs(share - float(p5)) <= 3 * math.sqrt(float(p5 * (1 - p5)) / sim.n)
    assert sum(sim.guess_counts) == sim.n


def test_finite_simulation_matches_the_finite_exact_value():
    exact = B.bus_off_chance(4, 5, replacement=False)
    sim = B.simulate_bus(120_000, 4, seed=5, max_guesses=5)
    assert sim.off.agrees_with(exact)
    # and differs from the with-replacement chance by far more than its error
    assert abs(sim.off.z_score(B.bus_off_chance(4, 5))) > 10


def test_same_seed_same_estimate():
    a = B.simulate_bus(3000, 5, seed=4)
    assert a == B.simulate_bus(3000, 5, seed=4)
    assert a != B.simulate_bus(3000, 5, seed=5)
    batched = B.simulate_bus(3000, 5, seed=4, batch=700)  # five batches, one generator
    assert batched.n == sum(batched.guess_counts) == 3000


# ------------------------------------------------------------------------------------------
# the questions bus
# ------------------------------------------------------------------------------------------
def test_questions_bus_four_in_a_row_by_hand():
    # RTB-QB-ORDER / RTB-QB-COMPARE: 1/2, then higher/lower on r1, inside/outside on (r1, r2),
    # then 1/4 for the suit; each rank 1/13 with replacement.
    total = Fraction(0)
    for r1 in RANKS:
        for r2 in best_hits(r1):
            lo, hi = sorted((r1, r2))
            inside = max(hi - lo - 1, 0)
            outside = lo + (12 - hi)
            total += Fraction(1, 13) * Fraction(1, 13) * Fraction(max(inside, outside), 13)
    by_hand = Fraction(1, 2) * total * Fraction(1, 4)
    assert B.questions_bus_off_chance(4) == by_hand
    assert B.questions_bus_guesses_distribution(40)[4] == by_hand


@pytest.mark.parametrize("limit", [5, 9, 14])
def test_questions_bus_matches_a_card_level_recursion(limit):
    assert B.questions_bus_off_chance(limit) == ref_qb(limit, ())


def test_questions_bus_simulation_with_replacement():
    sim = B.simulate_questions_bus(120_000, seed=2, replacement=True)
    assert sim.off.agrees_with(B.questions_bus_off_chance(40))
    assert sim.guesses.agrees_with(B.questions_bus_expected_guesses(40))
    assert sim.points.agrees_with(B.questions_bus_expected_points(40))


def test_questions_bus_expectations_add_up():
    dist = B.questions_bus_guesses_distribution(40)
    assert sum(dist.values()) == 1
    assert sum(k * p for k, p in dist.items()) == B.questions_bus_expected_guesses(40)
    assert all(dist[k] == 0 for k in (1, 2, 3))
    off = [B.questions_bus_off_chance(g) for g in (4, 10, 20, 40)]
    assert all(a < b for a, b in zip(off, off[1:]))
    assert B.questions_bus_off_chance(40, policy="optimal") == off[-1]
    # every guess that is not the last is either a miss or a step of a run: points <= guesses
    assert B.questions_bus_expected_points(40) < B.questions_bus_expected_guesses(40)


# ------------------------------------------------------------------------------------------
# the solo gauntlet
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("streak", [3, 5, 7])
def test_gauntlet_matches_a_plain_recursion(streak):
    expected = sum((ref_gauntlet(streak, 10, 0, r) for r in RANKS), Fraction(0)) / 13
    assert B.gauntlet_win_chance(streak, 10) == expected
    assert sum(B.gauntlet_win_distribution(streak, 10).values()) == expected


def test_gauntlet_relations():
    # one ride: win iff the first `streak` calls all hit (RTB-SG-RIDE)
    assert B.gauntlet_win_chance(5, 1) == streak_from_first_card(5)
    by_rides = [B.gauntlet_win_chance(5, k) for k in (1, 2, 5, 10, 30)]
    assert all(a < b for a, b in zip(by_rides, by_rides[1:]))
    by_streak = [B.gauntlet_win_chance(t) for t in range(3, 8)]
    assert all(a > b for a, b in zip(by_streak, by_streak[1:]))
    wins = B.gauntlet_win_distribution(5, 10)
    assert all(wins[j] > wins[j + 1] for j in range(1, 10))  # later rides are reached less often
    assert B.gauntlet_win_chance(5, policy="optimal") == B.gauntlet_win_chance(5)


def test_gauntlet_simulation_with_replacement():
    sim = B.simulate_gauntlet(120_000, 5, seed=8, replacement=True)
    assert sim.win.agrees_with(B.gauntlet_win_chance(5, 10))
    share = sim.win_ride_counts[1] / sim.n
    p1 = B.gauntlet_win_distribution(5, 10)[1]
    assert abs(share - float(p1)) <= 3 * math.sqrt(float(p1 * (1 - p1)) / sim.n)


# ------------------------------------------------------------------------------------------
# the finite-deck simulation against the engine
# ------------------------------------------------------------------------------------------
def engine_to_bus_start(players, seed, **options):
    session = Session(
        bus_lab.load_game("ride_the_bus", players=players, **options), seed=seed, bots="best_odds"
    )
    while session.state.phase() not in (RideTheBusPhase.BUS_START, RideTheBusPhase.QB_GUESS):
        session.step()
    return session


def bus_points(state):
    return sum(p for _, rule, p in state.ledger[state.rider] if rule in ("RTB-B-STREAK", "RTB-QB-MISS"))


def replay(start, trace, to_action):
    """Play a simulated bus in the engine: its cards at the draws (illegal = not in the
    engine's draw pile) and its calls, each checked to be a best-odds call of the engine."""
    st = start.clone()
    cards, calls = list(trace["cards"]), list(trace["calls"])
    questions = list(trace.get("questions", [None] * len(calls)))
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(parse_card(cards.pop(0)))
        else:
            action = to_action(calls.pop(0), questions.pop(0))
            odds = guess_odds(st)
            assert odds[action] == max(odds.values()), (trace, st.status())
            st.apply_action(action)
    assert not cards and not calls
    return st


def hl_action(call, _question):
    return HIGHER if call else LOWER


def qb_action(call, question):
    return (
        {1: (BLACK, RED), 2: (LOWER, HIGHER), 3: (OUTSIDE, INSIDE)}[question][call]
        if question < 4
        else CLUBS + call
    )


@pytest.mark.parametrize("players,streak", [(2, 5), (8, 7)])
def test_simulated_buses_replay_card_by_card_in_the_engine(players, streak):
    # RTB-B-FLIP, RTB-B-GUESS, RTB-B-STREAK, RTB-B-END, RTB-DISCARD, RTB-DECK-EMPTY
    start = engine_to_bus_start(players, seed=3, streak=streak).state
    piles = B.bus_start_piles(start)
    assert len(piles["cards_out"]) == sum(len(r) for r in start.rows)
    traces = B.bus_traces(60, streak, seed=1, **piles)
    reshuffles = 0
    for trace in traces:
        end = replay(start, trace, hl_action)
        assert (end.streak >= streak) == trace["off"]
        assert end.bus_guesses == trace["guesses"]
        assert bus_points(end) == trace["points"]
        assert sum(e.rule == "RTB-DECK-EMPTY" for e in end.events()) == trace["reshuffles"]
        reshuffles += trace["reshuffles"]
    if players == 8:  # 32 row cards and the pyramid leave a 10-card draw pile
        assert reshuffles > 0


def test_simulated_questions_buses_replay_in_the_engine():
    # RTB-QB-ORDER, RTB-QB-COMPARE, RTB-QB-MISS, RTB-QB-END, RTB-DECK-EMPTY (the run stays out)
    start = engine_to_bus_start(6, seed=2, bus="questions").state
    traces = B.questions_bus_traces(40, seed=3, **B.bus_start_piles(start))
    reshuffles = 0
    for trace in traces:
        end = replay(start, trace, qb_action)
        assert (len(end.run) == 4) == trace["off"]
        assert end.bus_guesses == trace["guesses"]
        assert bus_points(end) == trace["points"]
        reshuffles += trace["reshuffles"]
    assert reshuffles > 0


def test_finite_simulation_agrees_with_engine_games():
    # Whole 2-player games played by best_odds bots (RTB-B-RIDER picks the rider); each bus is
    # compared with 3,000 simulated buses from the same start, summed over the games.
    games = 120
    gap_off = gap_guesses = var_off = var_guesses = 0.0
    for seed in range(games):
        session = engine_to_bus_start(2, seed=seed)
        piles = B.bus_start_piles(session.state)
        session.run_to_end()
        end = session.state
        sim = B.simulate_bus(3000, 5, seed=seed, **piles)
        gap_off += (end.streak >= 5) - sim.off.mean
        gap_guesses += end.bus_guesses - sim.guesses.mean
        var_off += sim.off.mean * (1 - sim.off.mean) * (1 + 1 / sim.n)
        var_guesses += sim.guesses.stderr**2 * sim.n * (1 + 1 / sim.n)
    assert abs(gap_off) <= 3 * math.sqrt(var_off)
    assert abs(gap_guesses) <= 3 * math.sqrt(var_guesses)


def test_gauntlet_simulation_agrees_with_engine_games():
    # A lone rider (RTB-SG-RIDE, RTB-SG-RIDES, RTB-SG-WIN); Part 1's four row cards stay out.
    games = 150
    wins = 0
    for seed in range(games):
        session = Session(
            bus_lab.load_game("ride_the_bus", players=1, mode="gauntlet"), seed=seed, bots="best_odds"
        )
        session.run_to_end()
        wins += session.state.winners() == [0]
    sim = B.simulate_gauntlet(100_000, 5, seed=1)
    p = sim.win.mean
    assert abs(wins / games - p) <= 3 * math.sqrt(p * (1 - p) / games + sim.win.stderr**2)
    # and the finite deck differs from the chain with replacement (counting cards helps)
    assert sim.win.z_score(B.gauntlet_win_chance(5)) > 10


# ------------------------------------------------------------------------------------------
# arguments
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call",
    [
        lambda: B.bus_off_chance(0),
        lambda: B.bus_off_chance(5, 0),
        lambda: B.bus_off_chance(5, policy="lucky"),
        lambda: B.expected_guesses(True),
        lambda: B.gauntlet_win_chance(5, rides=0),
        lambda: B.simulate_bus(1, 5),
        lambda: B.simulate_bus(100, 5, cards_out=["ZZ"]),
        lambda: B.simulate_bus(100, 5, cards_out=["7H", "7H"]),
        lambda: B.simulate_bus(100, 5, cards_out=["7H"], discard=["7H"]),
        lambda: B.simulate_bus(100, 5, cards_out=range(51)),
        lambda: B.simulate_bus(100, 5, replacement=True, cards_out=["7H"]),
        lambda: B.simulate_questions_bus(100, cards_out=range(48)),
    ],
)
def test_bad_arguments_raise_clear_errors(call):
    with pytest.raises(ParameterError):
        call()


def test_bus_start_piles_needs_a_bus_start():
    session = Session(bus_lab.load_game("ride_the_bus", players=2), seed=0, bots="best_odds")
    with pytest.raises(ValueError, match="start of the bus"):
        B.bus_start_piles(session.state)


def test_cards_out_by_hand():
    # Only 2C, 3C and 4C in play, streak 1, one guess. From the 2 or the 4 every card left is
    # on the likelier side; from the 3 one card is above and one below (a coin): 1/2.
    others = [c for c in range(52) if c not in (0, 4, 8)]
    sim = B.simulate_bus(30_000, 1, seed=9, max_guesses=1, cards_out=others)
    assert sim.off.agrees_with(Fraction(1 + 1 + Fraction(1, 2), 3))
    # Only 2C and AC: the first call surely hits, the draw pile is then empty, the old card goes
    # back in (RTB-DECK-EMPTY) and the second call surely hits as well.
    two = B.simulate_bus(1000, 2, seed=9, max_guesses=2, cards_out=[c for c in range(52) if c not in (0, 48)])
    assert (two.off.mean, two.guesses.mean, two.reshuffled.mean) == (1, 2, 1)
    assert B.simulate_bus(5000, 5, seed=9, random_out=20, random_discard=10).n == 5000


def test_off_by_guess_lists_agree_with_each_limit():
    by_guess = B.bus_off_by_guess(5, 40)
    assert len(by_guess) == 41 and by_guess[0] == 0
    assert all(by_guess[k] == B.bus_off_chance(5, k) for k in (1, 5, 6, 17, 40))
    qb = B.questions_bus_off_by_guess(40)
    assert qb[:4] == [0, 0, 0, 0]
    assert all(qb[k] == B.questions_bus_off_chance(k) for k in (4, 9, 40))
