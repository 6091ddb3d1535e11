"""Exact guess odds for Ride the Bus (``bus_lab.prob.guess_odds`` and ``best_guess``).

Expected values are counted by hand in each test (or by the small independent counter below,
which knows nothing of the engine: it takes the 52 card codes, removes the cards on the table and
counts the ones that make a guess right), then compared with the engine's exact Fractions.
Rules: RTB-Q1, RTB-Q2, RTB-Q3, RTB-Q4, RTB-B-GUESS, RTB-DECK-EMPTY.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bus_lab import Session, load_game
from bus_lab.engine import sample_chance
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
from bus_lab.games.ride_the_bus.moves import Give
from bus_lab.games.ride_the_bus.phases import RideTheBusPhase
from bus_lab.prob import best_guess, guess_odds

RANKS = "23456789TJQKA"
ALL_CODES = {r + s for r in RANKS for s in "CDHS"}


# -- an independent counter -------------------------------------------------------------------
def rank(code: str) -> int:
    return RANKS.index(code[0])


def is_right(guess: str, code: str, reference: list[str]) -> bool:
    """The rules of the guesses, written out again: ties in rank lose; with two equal ranks
    "inside" never wins and "outside" wins on any other rank."""
    r = rank(code)
    if guess in ("red", "black"):
        return (code[1] in "DH") == (guess == "red")
    if guess == "higher":
        return r > rank(reference[0])
    if guess == "lower":
        return r < rank(reference[0])
    if guess in ("inside", "outside"):
        lo, hi = sorted((rank(reference[0]), rank(reference[1])))
        return lo < r < hi if guess == "inside" else (r < lo or r > hi)
    return code[1] == {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}[guess]


def count_odds(unseen: set[str], guesses: list[str], reference: list[str]) -> dict[str, Fraction]:
    return {g: Fraction(sum(is_right(g, c, reference) for c in unseen), len(unseen)) for g in guesses}


def table_cards(view) -> set[str]:
    """Every card on the table in a view: rows, discard pile, the pyramid or Give & Take card being
    resolved, the questions bus's run and the card to beat."""
    cards = {c for row in view["rows"] for c in row} | set(view["discard"])
    cards |= {spot["card"] for spot in view["pyramid"] if spot["current"]}
    cards |= {spot["cards"][-1] for spot in view["spots"] if spot["current"]}
    cards |= set(view["bus"]["run"])
    if view["bus"]["card_to_beat"]:
        cards.add(view["bus"]["card_to_beat"])
    return cards


def independent_odds(state) -> dict[str, Fraction]:
    view = state.view()
    if view["draw_pile"] == 0:
        # RTB-DECK-EMPTY: the draw pile ran out, so the discard pile is shuffled in before the draw
        unseen = set(view["discard"])
    else:
        unseen = ALL_CODES - table_cards(view)
        assert len(unseen) == view["draw_pile"]
    if view["phase"] == "questions":
        reference = view["rows"][view["question"]["seat"]]
    elif view["bus"]["question"] is not None:  # the questions bus compares with its run (RTB-QB-COMPARE)
        reference = view["bus"]["run"]
    else:
        reference = [view["bus"]["card_to_beat"]]
    labels = [state.action_to_string(a) for a in state.legal_actions()]
    return count_odds(unseen, labels, reference)


# -- scripted states --------------------------------------------------------------------------
def new_state(players=2, **params):
    return load_game("ride_the_bus", players=players, **params).new_initial_state()


def say(state, label):
    state.apply_action(state.string_to_action(label))


def deal(state, code):
    state.apply_action(parse_card(code))


def settle(state):
    """Hand any points at stake to the next seat."""
    n = state.get_game().num_players
    while state.decision_kind() is RideTheBusPhase.GIVE:
        state.apply_action(Give((state.current_player() + 1) % n))


def seat0_question(number, seat0, seat1):
    """2 players, at seat 0's question ``number``; rows so far: ``seat0`` and ``seat1``."""
    state = new_state(2)
    for r in range(number - 1):
        for row in (seat0, seat1):
            say(state, state.action_to_string(state.legal_actions()[0]))
            deal(state, row[r])
            settle(state)
    assert state.current_player() == 0 and state.view()["question"]["number"] == number
    return state


def bus_state():
    """2 players at the rider's first call: rows 2C 2D 3C 3D / 4S 4H 5S 5C, pyramid 9C … JD
    (nobody matches), first bus card 8C."""
    state = new_state(2)
    rows = [["2C", "2D", "3C", "3D"], ["4S", "4H", "5S", "5C"]]
    for r in range(4):
        for row in rows:
            say(state, state.action_to_string(state.legal_actions()[0]))
            deal(state, row[r])
            settle(state)
    for code in ["9C", "9D", "9H", "9S", "TC", "TD", "TH", "TS", "JC", "JD"]:
        deal(state, code)
        settle(state)
    deal(state, "8C")
    assert state.legal_actions() == [HIGHER, LOWER]
    return state


# -- exact values -------------------------------------------------------------------------------
def test_q1_odds_on_a_fresh_deck():
    """RTB-Q1: before any card is seen, red and black are 1/2 each (26 of 52)."""
    odds = guess_odds(new_state(4))
    assert odds == {RED: Fraction(1, 2), BLACK: Fraction(1, 2)}
    assert all(type(p) is Fraction for p in odds.values())
    assert best_guess(new_state(4)) == (RED, Fraction(1, 2))  # a tie goes to the lower action


def test_q1_odds_after_cards_are_seen():
    """RTB-Q1: seat 1 after seat 0 was dealt a red card: 25 red and 26 black of 51 left."""
    state = new_state(2)
    say(state, "black")
    deal(state, "7H")  # black on a heart is wrong: no hand-over, seat 1 guesses next
    assert state.current_player() == 1
    assert guess_odds(state) == {RED: Fraction(25, 51), BLACK: Fraction(26, 51)}
    assert best_guess(state) == (BLACK, Fraction(26, 51))


def test_rule_sheet_fact_after_a_seven():
    """RTB-Q2: the rule sheet's figures after a first 7 with nothing else seen, by counting:
    8, 9, T, J, Q, K, A are 7 ranks x 4 = 28 higher; 2 … 6 are 5 x 4 = 20 lower; 3 sevens tie."""
    unseen = ALL_CODES - {"7H"}
    assert count_odds(unseen, ["higher", "lower"], ["7H"]) == {
        "higher": Fraction(28, 51),
        "lower": Fraction(20, 51),
    }
    same = sum(rank(c) == rank("7H") for c in unseen)
    assert Fraction(same, 51) == Fraction(3, 51)


@pytest.mark.parametrize(
    "other, higher, lower",
    [
        ("KS", 28 - 1, 20),  # the other seat's king is one fewer higher card
        ("3S", 28, 20 - 1),  # its three is one fewer lower card
        ("7C", 28, 20),  # its seven leaves both counts alone (2 sevens left tie)
    ],
)
def test_q2_odds_after_a_seven(other, higher, lower):
    """RTB-Q2: seat 0 holds 7H, seat 1's first card is known: 50 unseen cards, counted by hand."""
    state = seat0_question(2, ["7H"], [other])
    odds = guess_odds(state)
    assert odds == {HIGHER: Fraction(higher, 50), LOWER: Fraction(lower, 50)}
    assert best_guess(state) == (HIGHER, Fraction(higher, 50))


def test_q2_same_rank_loses_for_both_guesses():
    """RTB-Q2: higher + lower + same rank = 1; the same rank is wrong for both guesses."""
    state = seat0_question(2, ["AH"], ["KS"])
    odds = guess_odds(state)
    assert odds[HIGHER] == 0  # aces high, no wrap
    assert odds[LOWER] == Fraction(50 - 3, 50)  # all but the 3 other aces


def test_q3_odds_inside_outside():
    """RTB-Q3: 5H and 9C (seat 1: KS, KD); 48 unseen: inside 6, 7, 8 = 12; outside 2, 3, 4 and
    T … A = 12 + 20 - 2 kings seen = 30; the 3 fives and 3 nines left lose both ways."""
    state = seat0_question(3, ["5H", "9C"], ["KS", "KD"])
    odds = guess_odds(state)
    assert odds == {INSIDE: Fraction(12, 48), OUTSIDE: Fraction(30, 48)}
    assert 1 - odds[INSIDE] - odds[OUTSIDE] == Fraction(6, 48)
    assert best_guess(state) == (OUTSIDE, Fraction(30, 48))


def test_q3_odds_with_two_equal_ranks():
    """RTB-Q3 ruling: 8H and 8C: inside never wins; outside wins on all but the 2 eights left."""
    state = seat0_question(3, ["8H", "8C"], ["KS", "KD"])
    assert guess_odds(state) == {INSIDE: Fraction(0), OUTSIDE: Fraction(46, 48)}


def test_q4_suit_odds_sum_to_one():
    """RTB-Q4: 2C 3C 4C and KS KD KH seen: 46 unseen: 10 clubs, 12 of each other suit."""
    state = seat0_question(4, ["2C", "3C", "4C"], ["KS", "KD", "KH"])
    odds = guess_odds(state)
    assert odds == {
        CLUBS: Fraction(10, 46),
        DIAMONDS: Fraction(12, 46),
        HEARTS: Fraction(12, 46),
        SPADES: Fraction(12, 46),
    }
    assert sum(odds.values()) == 1
    assert best_guess(state) == (DIAMONDS, Fraction(12, 46))


def test_bus_odds():
    """RTB-B-GUESS: 8C to beat, 19 cards seen, 33 unseen: higher = JH JS + 12 queens, kings, aces
    = 14; lower = 24 cards of 2 … 7 minus the 8 in rows = 16; the 3 eights left lose."""
    state = bus_state()
    odds = guess_odds(state)
    assert odds == {HIGHER: Fraction(14, 33), LOWER: Fraction(16, 33)}
    assert best_guess(state) == (LOWER, Fraction(16, 33))


def test_guess_odds_refuses_non_guess_states():
    """guess_odds needs a guessing decision: not a draw, a hand-over or the end."""
    state = new_state(2)
    say(state, "red")
    with pytest.raises(ValueError, match="draw"):
        guess_odds(state)  # a chance node
    deal(state, "7H")  # right: seat 0 must hand over a point
    with pytest.raises(ValueError, match="no guess"):
        guess_odds(state)
    session = Session(load_game("ride_the_bus", players=2), seed=5, bots="random")
    session.run_to_end()
    with pytest.raises(ValueError):
        best_guess(session.state)


# -- brute force over many states -----------------------------------------------------------------
def guess_states(players: int, seeds, policy: str = "random"):
    game = load_game("ride_the_bus", players=players)
    for seed in seeds:
        session = Session(game, seed=seed, bots=policy)
        session.run_to_end()
        for i in range(len(session)):
            state = session.state_at(i)
            if (
                not state.is_chance_node()
                and not state.is_terminal()
                and state.is_guess(state.legal_actions()[0])
            ):
                yield state


@pytest.mark.parametrize(
    "players, seeds, policy",
    [
        (2, range(0, 6), "random"),
        (4, range(6, 10), "best_odds"),
        (8, range(10, 16), "random"),
    ],
)
def test_guess_odds_match_brute_force_counting(players, seeds, policy):
    """RTB-Q1 … RTB-Q4, RTB-B-GUESS, RTB-DECK-EMPTY: at every guess of seeded games the exact odds
    equal a count over the 52 cards minus the cards on the table (before a reshuffle: minus every
    card dealt so far)."""
    checked = after_reshuffle = 0
    for state in guess_states(players, seeds, policy):
        odds = {state.action_to_string(a): p for a, p in guess_odds(state).items()}
        assert odds == independent_odds(state)
        reshuffled = any(e.rule == "RTB-DECK-EMPTY" for e in state.events())
        if not reshuffled:
            dealt = {state.action_to_string(a) for a in state.history() if a < 52}
            assert ALL_CODES - dealt == ALL_CODES - table_cards(state.view())
        after_reshuffle += reshuffled
        label, p = best_guess(state)
        assert p == max(odds.values())
        checked += 1
    assert checked > 20 * len(seeds)
    if players == 8:
        assert after_reshuffle > 0  # the reshuffled draw pile is counted too


#: Tables whose guesses the property test below visits: every bus, board and mode, 1–8 players.
VARIANTS = [
    (1, {"mode": "gauntlet"}),
    (2, {}),
    (3, {"mode": "gauntlet"}),
    (4, {}),
    (4, {"bus": "questions"}),
    (2, {"bus": "questions", "board": "give_and_take"}),
    (5, {"board": "give_and_take"}),
    (6, {"row_points": "flat", "streak": 3}),
    (8, {"bus": "questions"}),
    (8, {"streak": 7}),
]


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(range(len(VARIANTS))),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    policy=st.sampled_from(["random", "best_odds"]),
)
@example(variant=8, seed=3, policy="random")  # a questions bus with 8 players: reshuffles
@example(variant=0, seed=0, policy="best_odds")  # the lone rider's gauntlet
def test_guess_odds_equal_an_independent_count_over_the_unseen_cards(variant, seed, policy):
    """RTB-Q1 … RTB-Q4, RTB-B-GUESS, RTB-QB-COMPARE, RTB-DECK-EMPTY: at every guess of a seeded
    game (any table, bus, board and mode), guess_odds (which counts the right cards of the draw
    pile through the engine) equals a brute force that knows nothing of the engine: it enumerates
    the unseen cards (the 52 codes minus every card on the table, or the discard pile when the draw
    pile is empty), judges each with the rules written out again and builds Fraction(right, unseen).
    Each value is an exact Fraction, and the chances of disjoint guesses add up to at most 1."""
    players, options = VARIANTS[variant]
    session = Session(load_game("ride_the_bus", players=players, **options), seed=seed, bots=policy)
    session.run_to_end()
    checked = 0
    for i in range(len(session)):
        state = session.state_at(i)
        if state.is_chance_node() or state.is_terminal() or not state.is_guess(state.legal_actions()[0]):
            continue
        odds = guess_odds(state)
        assert all(type(p) is Fraction and 0 <= p <= 1 for p in odds.values())
        assert {state.action_to_string(a): p for a, p in odds.items()} == independent_odds(state)
        assert sum(odds.values()) <= 1  # the guesses of one question never share a right card
        checked += 1
    assert checked >= 4 or players == 1  # a table asks at least four Part 1 questions


def test_guess_odds_weighted_draws_give_the_same_fractions(monkeypatch):
    """guess_odds also reads integer chance weights (``chance_weights()`` may give them): equal
    weights for every card of the draw pile give exactly the unweighted odds, and doubling the
    weight of the right cards of a guess is counted as such."""
    states = list(guess_states(4, range(2)))
    plain = [guess_odds(state) for state in states]
    real = type(states[0]).chance_weights

    def weighted(self):
        cards, weights = real(self)
        return cards, [3] * len(cards) if weights is None else weights

    monkeypatch.setattr(type(states[0]), "chance_weights", weighted)
    assert [guess_odds(state) for state in states] == plain
    state = new_state(1, mode="gauntlet")  # the lone player's Q1 on a fresh deck: 26 red, 26 black

    def red_twice(self):  # every red card (diamonds, hearts) twice as likely as a black one
        cards, _ = real(self)
        return cards, [2 if self.action_to_string(c)[1] in "DH" else 1 for c in cards]

    monkeypatch.setattr(type(state), "chance_weights", red_twice)
    assert guess_odds(state) == {RED: Fraction(52, 78), BLACK: Fraction(26, 78)}


# -- Monte Carlo --------------------------------------------------------------------------------
def within_4_se(hits: int, n: int, p: Fraction) -> bool:
    se = math.sqrt(float(p) * (1 - float(p)) / n)
    return abs(hits / n - float(p)) <= 4 * se


def test_monte_carlo_rule_sheet_seven():
    """RTB-Q2: 20,000 seeded draws from the 51 cards left after a 7: the share of higher cards is
    within 4 standard errors of 28/51."""
    rng = random.Random(20240601)
    deck = sorted(ALL_CODES - {"7H"})
    n = 20_000
    hits = sum(rank(rng.choice(deck)) > rank("7H") for _ in range(n))
    assert within_4_se(hits, n, Fraction(28, 51))
    assert not within_4_se(hits, n, Fraction(20, 51))  # the check can fail


def test_monte_carlo_engine_draws_match_exact_odds():
    """RTB-Q2: 20,000 draws with the engine's own sampler after seat 0 calls "higher" on 7H (KS
    seen): the share of right cards (judged by the independent rule above) is within 4 standard
    errors of guess_odds = 27/50."""
    state = seat0_question(2, ["7H"], ["KS"])
    exact = guess_odds(state)[HIGHER]
    assert exact == Fraction(27, 50)
    after = state.clone()
    say(after, "higher")
    rng = random.Random(7)
    n = 20_000
    hits = sum(
        is_right("higher", after.action_to_string(sample_chance(after, rng)), ["7H"]) for _ in range(n)
    )
    assert within_4_se(hits, n, exact)


def test_bus_odds_when_the_draw_pile_is_empty():
    """RTB-DECK-EMPTY: with the draw pile empty at the rider's call, the odds are counted over the
    discard pile, which is shuffled in before the card is drawn (rows and the card to beat are not)."""
    state = bus_state()
    while state.view()["draw_pile"]:
        # call "higher" and deal the lowest card left: never two hits in a row, so the bus runs on
        say(state, "higher")
        state.apply_action(state.legal_actions()[0])
    view = state.view()
    assert view["bus"]["guesses"] == 33 and not state.is_terminal()
    pool = set(view["discard"])
    beat = view["bus"]["card_to_beat"]
    assert len(pool) == 43 and beat not in pool
    higher = sum(rank(c) > rank(beat) for c in pool)
    lower = sum(rank(c) < rank(beat) for c in pool)
    assert guess_odds(state) == {HIGHER: Fraction(higher, 43), LOWER: Fraction(lower, 43)}


# -- where the odds live ------------------------------------------------------------------------------
OLD_PATHS = {
    "bus_lab.prob.ride_the_bus": "bus_lab.games.ride_the_bus.odds",
    "bus_lab.prob.part1": "bus_lab.games.ride_the_bus.part1_odds",
    "bus_lab.prob.pyramid": "bus_lab.games.ride_the_bus.pyramid_odds",
    "bus_lab.prob.bus": "bus_lab.games.ride_the_bus.bus_odds",
}


@pytest.mark.parametrize("old, home", sorted(OLD_PATHS.items()))
def test_old_module_paths_reexport_the_game_package(old, home):
    """Saved code importing bus_lab.prob.part1 (etc.) gets the very objects of the game's own odds
    module, private helpers included."""
    import importlib

    old_module, home_module = importlib.import_module(old), importlib.import_module(home)
    assert old_module.__all__ == home_module.__all__
    for name in home_module.__all__:
        assert getattr(old_module, name) is getattr(home_module, name), name
    private = [n for n in vars(home_module) if n.startswith("_") and not n.startswith("__")]
    for name in private:
        assert getattr(old_module, name) is getattr(home_module, name), name


def test_prob_reexports_the_public_entry_points():
    """Every name bus_lab.prob lists is there, from the module it names; the pyramid functions the
    lessons use are among them."""
    import importlib

    import bus_lab.prob as prob

    for name, module in prob._LAZY.items():
        assert getattr(prob, name) is getattr(importlib.import_module(module), name), name
    assert set(prob.__all__) == set(prob._LAZY) <= set(dir(prob))
    lessons = {
        "pyramid_odds",
        "pyramid_odds_from_state",
        "pyramid_fresh_deck",
        "pyramid_over_deals",
        "simulate_pyramids",
        "engine_playouts",
        "first_appearance",
        "row_weights",
    }
    assert lessons <= set(prob.__all__)
    with pytest.raises(AttributeError, match="no attribute"):
        prob.no_such_name  # noqa: B018


def test_games_do_not_import_prob_when_loaded():
    """Layering: loading a game package, its odds and its bots never loads bus_lab.prob (the Monte
    Carlo helpers are loaded by a simulation when it runs); bus_lab.prob loads no game until a
    re-exported name is used."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import bus_lab.games.ride_the_bus.policies, bus_lab.games.ride_the_bus.odds\n"
        "import bus_lab.games.ride_the_bus.part1_odds, bus_lab.games.ride_the_bus.pyramid_odds\n"
        "import bus_lab.games.ride_the_bus.bus_odds\n"
        "print(sorted(m for m in sys.modules if m.startswith('bus_lab.prob')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    code = "import sys, bus_lab.prob; print(sorted(m for m in sys.modules if m.startswith('bus_lab.games')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
