"""Part 1 of Ride the Bus: exact odds, exact expectations and simulations
(``bus_lab.games.ride_the_bus.part1_odds``; ``bus_lab.prob.part1`` re-exports it).

Every expected value is derived here independently of the module under test: by counting card codes
by hand, with the engine's own ``guess_odds`` on real game states, by a brute-force enumeration over
card identities written without the module's canonical keys, by the vectorised simulation and by
seeded engine playouts (``Session`` games with the ``best_odds`` and ``random`` bots).
Rules: RTB-Q-ORDER, RTB-Q1, RTB-Q2, RTB-Q3, RTB-Q4, RTB-Q-WRONG, RTB-Q-RIGHT.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from fractions import Fraction

import pytest

from bus_lab import Session, load_game
from bus_lab.games.ride_the_bus import (
    BLACK,
    CLUBS,
    DIAMONDS,
    HEARTS,
    HIGHER,
    INSIDE,
    LOWER,
    OUTSIDE,
    RED,
    SPADES,
    parse_card,
)
from bus_lab.games.ride_the_bus.odds import guess_odds
from bus_lab.games.ride_the_bus.part1_odds import (
    POINTS,
    all_four_right,
    expected_part1_points,
    part1_pattern_distribution,
    part1_points_distribution,
    q1_table,
    q2_table,
    q3_table,
    q4_table,
    question_right_chances,
    seat_expectations,
    simulate_part1,
    simulate_seat,
    table_question_right_chances,
)

RANKS = "23456789TJQKA"
SUITS = "CDHS"
ALL_CODES = [r + s for r in RANKS for s in SUITS]


def rank(code: str) -> int:
    return RANKS.index(code[0])


# -- the figures the issue requires, counted by hand --------------------------------------------
def test_required_figures_by_counting():
    """RTB-Q2, RTB-Q3 (ties lose): count the unseen cards that win each guess, by hand."""
    after_7 = [c for c in ALL_CODES if c != "7H"]
    higher = sum(rank(c) > rank("7H") for c in after_7)
    lower = sum(rank(c) < rank("7H") for c in after_7)
    assert (higher, lower, len(after_7)) == (28, 20, 51)
    assert max(q2_table()["7"].values()) == Fraction(max(higher, lower), 51) == Fraction(28, 51)

    after_2 = [c for c in ALL_CODES if c != "2C"]
    higher = sum(rank(c) > 0 for c in after_2)
    assert max(q2_table()["2"].values()) == Fraction(higher, 51) == Fraction(16, 17)

    unseen = [c for c in ALL_CODES if c not in ("2D", "AS")]
    inside = sum(0 < rank(c) < 12 for c in unseen)  # strictly between: every 3 … K
    assert max(q3_table()[("2", "A")].values()) == Fraction(inside, 50) == Fraction(22, 25)
    assert max(q3_table()[("A", "2")].values()) == Fraction(22, 25)  # the order does not matter

    unseen = [c for c in ALL_CODES if c not in ("7D", "7S")]
    outside = sum(rank(c) != rank("7D") for c in unseen)  # a pair: outside wins on any other rank
    assert q3_table()[("7", "7")] == {"inside": 0, "outside": Fraction(outside, 50)}
    assert Fraction(outside, 50) == Fraction(24, 25)


# -- the conditional tables against the engine --------------------------------------------------
def lone_state(cards: list[str]):
    """A lone player (solo gauntlet, 1 player) at the question after ``cards`` were dealt."""
    state = load_game("ride_the_bus", players=1, mode="gauntlet").new_initial_state()
    for code in cards:
        state.apply_action(state.legal_actions()[0])  # any guess: the odds do not depend on it
        state.apply_action(parse_card(code))
    return state


def test_q1_table_matches_engine():
    """RTB-Q1 on a fresh deck, from the engine's own guess_odds."""
    odds = guess_odds(lone_state([]))
    assert (
        q1_table()
        == {"red": odds[RED], "black": odds[BLACK]}
        == {"red": Fraction(1, 2), "black": Fraction(1, 2)}
    )


def test_q2_table_matches_engine_for_every_rank():
    """RTB-Q2: for each first rank, the engine's exact odds on a real lone-player state."""
    table = q2_table()
    assert sorted(table) == sorted(RANKS)
    for r in RANKS:
        odds = guess_odds(lone_state([r + "H"]))
        assert table[r] == {"higher": odds[HIGHER], "lower": odds[LOWER]}
        assert table[r]["higher"] + table[r]["lower"] == Fraction(48, 51)  # 3 cards of the rank tie


def test_q3_table_matches_engine_for_every_pair():
    """RTB-Q3: all 169 ordered pairs of first two ranks, against the engine on real states."""
    table = q3_table()
    assert len(table) == 169
    for r1 in RANKS:
        for r2 in RANKS:
            odds = guess_odds(lone_state([r1 + "H", r2 + "S"]))
            assert table[(r1, r2)] == {"inside": odds[INSIDE], "outside": odds[OUTSIDE]}, (r1, r2)


def test_q4_table_matches_engine():
    """RTB-Q4: after 2C 3C 4D the engine gives clubs 11/49, diamonds 12/49, hearts 13/49; after
    three clubs, clubs 10/49."""
    table = q4_table()
    odds = guess_odds(lone_state(["2C", "3C", "4D"]))
    assert (odds[CLUBS], odds[DIAMONDS], odds[HEARTS], odds[SPADES]) == (
        table[2],
        table[1],
        table[0],
        table[0],
    )
    assert guess_odds(lone_state(["2C", "3C", "4C"]))[CLUBS] == table[3] == Fraction(10, 49)


# -- an independent brute force over card identities ----------------------------------------------
def split(counts: list[int], policy: str, scale: int) -> list[int]:
    """How often each guess is picked, as whole numbers out of ``scale``: evenly under "random";
    under "best_odds" evenly among the guesses with the largest count."""
    if policy == "random":
        return [scale // len(counts)] * len(counts)
    best = max(counts)
    ties = counts.count(best)
    return [scale // ties if c == best else 0 for c in counts]


def brute_force_patterns(policy: str, seen: tuple[str, ...] = ()) -> dict[tuple[bool, ...], Fraction]:
    """Every ordered first three cards, by identity; each guess counted over the card list; the
    fourth question averaged over the unseen suits. Whole-number arithmetic: a two-way pick is out
    of 2, a suit pick out of 12. Returns {(q1 right, …, q4 right): chance}."""
    deck = [(rank(c), SUITS.index(c[1])) for c in ALL_CODES if c not in seen]
    n = len(deck)
    d4 = 12 * (n - 3)  # the chance of Q4 right, as a whole number out of d4
    red = sum(s in (1, 2) for _, s in deck)
    pick_red, pick_black = split([red, n - red], policy, 2)
    out = {key: 0 for key in itertools.product((True, False), repeat=4)}
    for c1 in deck:
        r1 = c1[0]
        a1 = pick_red if c1[1] in (1, 2) else pick_black
        left1 = [c for c in deck if c != c1]
        pick_hi, pick_lo = split([sum(r > r1 for r, _ in left1), sum(r < r1 for r, _ in left1)], policy, 2)
        for c2 in left1:
            r2 = c2[0]
            a2 = pick_hi if r2 > r1 else pick_lo if r2 < r1 else 0
            left2 = [c for c in left1 if c != c2]
            lo, hi = min(r1, r2), max(r1, r2)
            pick_in, pick_out = split(
                [sum(lo < r < hi for r, _ in left2), sum(r < lo or r > hi for r, _ in left2)], policy, 2
            )
            suit_left = [sum(s == t for _, s in left2) for t in range(4)]
            tt = tf = ft = ff = 0
            for r3, s3 in left2:
                a3 = pick_in if lo < r3 < hi else pick_out if (r3 < lo or r3 > hi) else 0
                suits = list(suit_left)
                suits[s3] -= 1
                r4 = sum(p * k for p, k in zip(split(suits, policy, 12), suits))
                tt += a3 * r4
                tf += a3 * (d4 - r4)
                ft += (2 - a3) * r4
                ff += (2 - a3) * (d4 - r4)
            for ok1, p1 in ((True, a1), (False, 2 - a1)):
                for ok2, p2 in ((True, a2), (False, 2 - a2)):
                    for (ok3, ok4), p34 in (
                        ((True, True), tt),
                        ((True, False), tf),
                        ((False, True), ft),
                        ((False, False), ff),
                    ):
                        out[(ok1, ok2, ok3, ok4)] += p1 * p2 * p34
    total = 2 * 2 * 2 * d4 * n * (n - 1) * (n - 2)
    return {k: Fraction(v, total) for k, v in out.items() if v}


@pytest.fixture(scope="module")
def brute_best():
    return brute_force_patterns("best_odds")


@pytest.fixture(scope="module")
def brute_random():
    return brute_force_patterns("random")


def test_all_four_right_best_matches_brute_force(brute_best):
    """RTB-Q1 … RTB-Q4, best play, fresh deck: the memoised recursion equals the brute force on
    every right/wrong pattern, and so on all four right."""
    assert part1_pattern_distribution("best_odds") == brute_best
    assert all_four_right("best_odds") == brute_best[(True, True, True, True)]
    assert sum(brute_best.values()) == 1


def test_all_four_right_random_matches_brute_force(brute_random):
    """Random guessing: Q1 1/2, Q2 (1 - 3/51)/2 = 8/17, Q4 1/4 exactly, all from the brute force."""
    assert part1_pattern_distribution("random") == brute_random
    assert all_four_right("random") == brute_random[(True, True, True, True)]
    chances = question_right_chances("random")
    assert chances[1] == Fraction(1, 2) and chances[2] == Fraction(8, 17) and chances[4] == Fraction(1, 4)


def test_best_play_beats_random_play(brute_best, brute_random):
    assert all_four_right("best_odds") > 2 * all_four_right("random")
    assert expected_part1_points("best_odds") < expected_part1_points("random")
    q = question_right_chances("best_odds")
    assert q[1] == Fraction(1, 2) and q[4] == Fraction(13, 49)  # a suit not in your row: 13 of 49


def points_of(pattern) -> int:
    return sum(points for points, ok in zip((1, 2, 3, 4), pattern) if not ok)


@pytest.mark.parametrize("policy", ["best_odds", "random"])
def test_points_distribution_and_expectation_match_brute_force(policy, brute_best, brute_random):
    """RTB-Q-WRONG: a wrong answer to question k costs k points; a lone player's right answers
    cost nothing (RTB-Q-RIGHT). The distribution and the mean, from the brute force's patterns."""
    brute = brute_best if policy == "best_odds" else brute_random
    dist: dict[int, Fraction] = {}
    for pattern, p in brute.items():
        dist[points_of(pattern)] = dist.get(points_of(pattern), Fraction(0)) + p
    assert part1_points_distribution(policy) == dict(sorted(dist.items()))
    assert expected_part1_points(policy) == sum(k * p for k, p in dist.items())
    assert POINTS == (1, 2, 3, 4)


def test_seen_cards_match_brute_force():
    """Extra face-up cards (e.g. other rows on the table) change the counts: a lopsided set of
    seen cards, recursion against brute force, both policies."""
    seen = ("AS", "KS", "QS", "JS", "TS", "2H", "3D")
    for policy in ("best_odds", "random"):
        assert part1_pattern_distribution(policy, seen) == brute_force_patterns(policy, seen)
    # with five spades gone and red and black at 24 vs 21, best play changes: red is the pick
    assert question_right_chances("best_odds", seen)[1] == Fraction(24, 45)


# -- exact against the vectorised simulation -------------------------------------------------------
@pytest.mark.parametrize("policy, seed", [("best_odds", 1), ("random", 2)])
def test_exact_agrees_with_vectorised_simulation(policy, seed):
    """200,000 seeded deals: all four right, points and each question within 3 standard errors."""
    sim = simulate_part1(200_000, seed=seed, policy=policy)
    assert sim["all_four_right"].n == 200_000
    assert sim["all_four_right"].agrees_with(all_four_right(policy), sigmas=3)
    assert sim["expected_points"].agrees_with(expected_part1_points(policy), sigmas=3)
    for k, estimate in enumerate(sim["question_right"], start=1):
        assert estimate.agrees_with(question_right_chances(policy)[k], sigmas=3)
    assert sim["right"].shape == (200_000, 4) and sim["points"].shape == (200_000,)
    assert (sim["points"] == (~sim["right"]) @ [1, 2, 3, 4]).all()
    other = "random" if policy == "best_odds" else "best_odds"
    assert not sim["all_four_right"].agrees_with(all_four_right(other), sigmas=3)  # the check can fail


def test_simulation_with_seen_cards_and_seeds():
    seen = ["AS", "KS", "QS", "JS", "TS", "2H", "3D"]
    sim = simulate_part1(100_000, seed=5, seen=seen, keep_samples=False)
    assert "right" not in sim
    assert sim["all_four_right"].agrees_with(all_four_right("best_odds", seen), sigmas=3)
    assert sim["expected_points"].agrees_with(expected_part1_points("best_odds", seen), sigmas=3)
    a, b = simulate_part1(1000, seed=9), simulate_part1(1000, seed=9)
    assert (a["right"] == b["right"]).all()


# -- exact against engine playouts -----------------------------------------------------------------
def lone_playouts(policy: str, games: int, seed0: int):
    game = load_game("ride_the_bus", players=1, mode="gauntlet")
    four = points = points_sq = 0
    for seed in range(seed0, seed0 + games):
        session = Session(game, seed=seed, bots=policy)
        while session.state.part == "questions":  # RTB-SG-QUESTIONS: Part 1, then the rides
            session.step()
        wrong = [e for e in session.state.events() if e.rule == "RTB-Q-WRONG"]
        p = session.state.points[0]
        assert p == sum(e.data["points"] for e in wrong)
        four += not wrong
        points += p
        points_sq += p * p
    return four, points, points_sq


@pytest.mark.parametrize("policy, exact_policy", [("best_odds", "best_odds"), ("random", "random")])
def test_exact_agrees_with_engine_playouts(policy, exact_policy):
    """A lone player (solo gauntlet, 1 player) plays Part 1 in 1,500 seeded engine games: the
    share of games with four right answers and the mean points within 4 standard errors."""
    games = 1500
    four, points, points_sq = lone_playouts(policy, games, seed0=1000)
    p = float(all_four_right(exact_policy))
    assert abs(four / games - p) <= 4 * math.sqrt(p * (1 - p) / games)
    dist = part1_points_distribution(exact_policy)
    mean = float(expected_part1_points(exact_policy))
    sd = math.sqrt(float(sum(k * k * q for k, q in dist.items())) - mean**2)
    assert abs(points / games - mean) <= 4 * sd / math.sqrt(games)


# -- a seat at a table -----------------------------------------------------------------------------
def test_table_chances_by_hand():
    """RTB-Q-ORDER: seat 0 guesses Q1 seeing nothing (1/2); seat 1 of 2 sees seat 0's first card,
    so one colour has 26 of the 51 cards left: best play is right with 26/51. A lone player's table
    figures equal the recursion's (two different methods)."""
    assert table_question_right_chances(2, 0)[1] == Fraction(1, 2)
    assert table_question_right_chances(2, 1)[1] == Fraction(26, 51)
    assert table_question_right_chances(1, 0) == question_right_chances("best_odds")
    # seat 1 of 2 at Q4 sees 3 other cards as well as its own 3: six cards cover at most 4 suits
    assert table_question_right_chances(2, 1)[4] > Fraction(13, 49)


@pytest.mark.parametrize("players, seat, seed", [(4, 2, 21), (8, 7, 22)])
def test_table_exact_agrees_with_simulation(players, seat, seed):
    """Each question's exact chance and the expected points for a seat at a table, against a
    vectorised simulation of real deal orders (200,000 deals), within 3 standard errors."""
    exact = table_question_right_chances(players, seat)
    sim = simulate_seat(200_000, seed=seed, players=players, seat=seat)
    for k, estimate in enumerate(sim["question_right"], start=1):
        assert estimate.agrees_with(exact[k], sigmas=3), k
    expected = sum(POINTS[k - 1] * (1 - p) for k, p in exact.items())
    assert sim["expected_points"].agrees_with(expected, sigmas=3)
    assert not sim["expected_points"].agrees_with(
        expected_part1_points("best_odds"), sigmas=3
    )  # counting helps


def test_counting_other_rows_helps():
    """Seeing more cards never hurts: later seats and bigger tables expect fewer points."""
    lone = expected_part1_points("best_odds")
    previous = lone
    for seat in range(8):
        result = seat_expectations(8, seat, n=0)
        assert result.expected_points < previous and result.all_four_right is None and not result.exact
        previous = result.expected_points
    own = seat_expectations(8, 7, policy="own_row")
    assert own.exact and own.expected_points == lone and own.all_four_right == all_four_right("best_odds")
    rand = seat_expectations(3, 1, policy="random")
    assert rand.exact and rand.all_four_right == all_four_right("random")


def test_seat_expectations_simulates_four_right_at_a_table():
    lone = all_four_right("best_odds")
    result = seat_expectations(8, 7, n=100_000, seed=3)
    assert not result.exact and result.all_four_right.n == 100_000
    assert result.all_four_right.mean - 4 * result.all_four_right.stderr > lone
    assert result.simulated_points.agrees_with(result.expected_points, sigmas=3)
    assert seat_expectations(1, 0).exact and seat_expectations(1, 0).all_four_right == lone


def test_table_exact_agrees_with_engine_playouts():
    """Classic game, 3 best_odds players, 500 seeded games: each seat's Part 1 wrong-guess points
    (RTB-Q-WRONG, read from the score breakdown) average within 4 standard errors of the exact
    table figure."""
    game = load_game("ride_the_bus", players=3)
    games = 500
    totals = [[] for _ in range(3)]
    for seed in range(games):
        session = Session(game, seed=seed, bots="best_odds")
        while session.state.part == "questions":
            session.step()
        for seat in range(3):
            lines = session.state.score_breakdown(seat)
            totals[seat].append(sum(line["points"] for line in lines if line["rule"] == "RTB-Q-WRONG"))
    for seat in range(3):
        exact = float(seat_expectations(3, seat, n=0).expected_points)
        values = totals[seat]
        mean = sum(values) / games
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (games - 1))
        assert abs(mean - exact) <= 4 * sd / math.sqrt(games), seat


# -- errors, speed, light import -------------------------------------------------------------------
def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="policy"):
        all_four_right("greedy")
    with pytest.raises(ValueError, match="twice"):
        all_four_right(seen=["7H", "7h"])
    with pytest.raises(ValueError, match="not a card"):
        all_four_right(seen=["1Z"])
    with pytest.raises(ValueError, match="list of card codes"):
        all_four_right(seen="7H")
    with pytest.raises(ValueError, match="at most 48"):
        all_four_right(seen=ALL_CODES[:49])
    with pytest.raises(ValueError, match="players"):
        seat_expectations(9, 0)
    with pytest.raises(ValueError, match="seat"):
        seat_expectations(3, 3)
    with pytest.raises(ValueError, match="at least 2"):
        simulate_part1(1)
    with pytest.raises(ValueError, match="policy"):
        simulate_seat(10, policy="own")


def test_import_does_not_load_numpy():
    for module in ("bus_lab.games.ride_the_bus.part1_odds", "bus_lab.prob.part1"):
        code = f"import sys, {module}; print('numpy' in sys.modules)"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        assert out.stdout.strip() == "False"


# -- one vocabulary, old spellings and old module paths ---------------------------------------------
def test_best_is_the_older_name_of_best_odds(brute_best):
    """ "best" (the older name) gives exactly what "best_odds" gives, everywhere; results name the
    policy "best_odds"."""
    assert part1_pattern_distribution("best") == part1_pattern_distribution("best_odds") == brute_best
    seen = ("AS", "2H")
    assert all_four_right("best", seen) == all_four_right("best_odds", seen)
    assert question_right_chances("best") == question_right_chances("best_odds")
    assert part1_points_distribution("best") == part1_points_distribution("best_odds")
    assert expected_part1_points("best") == expected_part1_points()
    assert seat_expectations(3, 1, policy="best", n=0) == seat_expectations(3, 1, n=0)
    assert seat_expectations(3, 1, policy="best", n=0).policy == "best_odds"
    a = simulate_part1(2000, seed=4, policy="best")
    b = simulate_part1(2000, seed=4, policy="best_odds")
    assert (a["right"] == b["right"]).all()
    a = simulate_seat(2000, seed=4, players=3, seat=2, policy="best", keep_samples=True)
    b = simulate_seat(2000, seed=4, players=3, seat=2, keep_samples=True)
    assert (a["right"] == b["right"]).all()
    with pytest.raises(ValueError, match="'best_odds', 'random'"):
        all_four_right("optimal")


def test_old_module_path_reexports_the_new_home():
    """bus_lab.prob.part1 is kept for saved code: the same objects, private helpers included."""
    import bus_lab.games.ride_the_bus.part1_odds as home
    import bus_lab.prob
    import bus_lab.prob.part1 as old

    for name in home.__all__:
        assert getattr(old, name) is getattr(home, name), name
    assert old._stage1 is home._stage1 and old.__all__ == home.__all__
    assert bus_lab.prob.all_four_right is home.all_four_right
    with pytest.raises(AttributeError):
        old.no_such_name  # noqa: B018


# -- the vectorised simulations, deal by deal, against a plain count ---------------------------------
class ScriptedGenerator:
    """Stands in for numpy's Generator: ``permuted`` returns the given deals, ``random`` the given
    arrays in turn (so every card dealt and every tie-break draw is known to the test)."""

    def __init__(self, uniforms, deals=None):
        self.uniforms = list(uniforms)
        self.deals = deals

    def permuted(self, deck, axis):
        assert axis == 1 and self.deals.shape == deck.shape
        return self.deals

    def random(self, shape):
        out = self.uniforms.pop(0)
        assert out.shape == ((shape,) if isinstance(shape, int) else tuple(shape))
        return out


def scripted(monkeypatch, generator):
    import numpy as np

    monkeypatch.setattr(np.random, "default_rng", lambda seed=None: generator)


def counted_answer(question: int, row: list[str], unseen: list[str], card: str, tie_draw: float, policy: str):
    """Whether the guess is right, by counting card codes: the cards left that make each guess right
    (ties in rank make no guess right), the best guesses (most cards left) and the pick: under
    best odds the card's guess is picked when it is a best guess and the draw is below 1/(number
    of best guesses); under random play when the draw is below 1/(number of guesses)."""
    if question == 1:
        classes = [lambda c: c[1] in "DH", lambda c: c[1] in "CS"]
    elif question == 2:
        first = rank(row[0])
        classes = [lambda c: rank(c) > first, lambda c: rank(c) < first]
    elif question == 3:
        lo, hi = sorted((rank(row[0]), rank(row[1])))
        classes = [lambda c: lo < rank(c) < hi, lambda c: rank(c) < lo or rank(c) > hi]
    else:
        classes = [lambda c, s=s: c[1] == s for s in SUITS]
    counts = [sum(1 for c in unseen if wins(c)) for wins in classes]
    mine = [k for k, wins in enumerate(classes) if wins(card)]
    if not mine:
        return False
    if policy == "random":
        return tie_draw < 1 / len(classes)
    best = max(counts)
    return counts[mine[0]] == best and tie_draw < 1 / counts.count(best)


@pytest.mark.parametrize(
    "seen, policy",
    [
        ((), "best_odds"),
        ((), "random"),
        (tuple(c for c in ALL_CODES if c[0] in "6789TJQ"), "best_odds"),  # 24 cards left: many ties
        (tuple(c for c in ALL_CODES if c[0] not in "23K" and c != "AS"), "best_odds"),
        (("AS", "KS", "QS", "JS", "TS", "2H", "3D"), "best_odds"),
    ],
)
def test_lone_simulation_deal_by_deal(monkeypatch, seen, policy):
    """simulate_part1 with known draws: each deal is four cards taken in turn from the cards left
    (draw u picks place floor(u × cards left)); every answer equals the plain count's."""
    import numpy as np

    size = 4000
    rng = np.random.default_rng(7)
    card_draws = rng.random((4, size))
    tie_draws = [rng.random(size) for _ in range(4)]
    scripted(monkeypatch, ScriptedGenerator([card_draws, *tie_draws]))
    sim = simulate_part1(size, policy=policy, seen=seen)
    pool = [c for c in sorted(ALL_CODES, key=parse_card) if c not in seen]
    for d in range(size):
        left = list(pool)
        dealt = [left.pop(int(card_draws[k, d] * len(left))) for k in range(4)]
        expected = [
            counted_answer(
                k + 1, dealt[:k], [c for c in pool if c not in dealt[:k]], dealt[k], tie_draws[k][d], policy
            )
            for k in range(4)
        ]
        assert list(sim["right"][d]) == expected, (d, dealt)
    assert (sim["points"] == (~sim["right"]) @ np.array(POINTS)).all()


@pytest.mark.parametrize(
    "players, seat, policy",
    [(8, 7, "best_odds"), (3, 1, "best_odds"), (5, 2, "own_row"), (2, 0, "random"), (1, 0, "best_odds")],
)
def test_table_simulation_deal_by_deal(monkeypatch, players, seat, policy):
    """simulate_seat with known shuffles: the seat's answers equal the plain count's, where before its
    question k it has seen every card dealt before (best odds) or only its own row (own_row), cards
    dealt round by round in seat order (RTB-Q-ORDER)."""
    import numpy as np

    size = 1500
    rng = np.random.default_rng(players * 10 + seat)
    deals = np.array([rng.permutation(52) for _ in range(size)], dtype=np.int8)
    tie_draws = [rng.random(size) for _ in range(4)]
    scripted(monkeypatch, ScriptedGenerator(tie_draws, deals))
    sim = simulate_seat(size, players=players, seat=seat, policy=policy, keep_samples=True)
    codes = sorted(ALL_CODES, key=parse_card)
    for d in range(size):
        order = [codes[c] for c in deals[d]]
        own = [order[k * players + seat] for k in range(4)]
        expected = []
        for k in range(4):
            seen = order[: k * players + seat] if policy == "best_odds" else own[:k]
            unseen = [c for c in ALL_CODES if c not in seen]
            expected.append(counted_answer(k + 1, own[:k], unseen, own[k], tie_draws[k][d], policy))
        assert list(sim["right"][d]) == expected, (d, own)


def test_simulation_standard_errors_are_those_of_the_samples():
    """The Estimates of a simulation are the samples' mean and standard error (sample standard
    deviation / sqrt(n)), as montecarlo.estimate gives them from the kept per-deal arrays."""
    import numpy as np

    from bus_lab.prob.montecarlo import estimate

    for sim in (
        simulate_part1(3000, seed=3),
        simulate_seat(3000, seed=3, players=4, seat=3, keep_samples=True),
    ):
        right = sim["right"]
        for figure, samples in (
            (sim["all_four_right"], right.all(axis=1)),
            (sim["expected_points"], sim["points"]),
            *zip(sim["question_right"], right.T),
        ):
            check = estimate(np.asarray(samples, dtype=float))
            assert figure.n == check.n == 3000
            assert figure.mean == pytest.approx(check.mean, rel=1e-12, abs=1e-15)
            assert figure.stderr == pytest.approx(check.stderr, rel=1e-9)
